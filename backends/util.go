package backends

import (
	"errors"
	"unsafe"
)

var errNegativeAlloc = errors.New("backends: negative allocation size")

func uintptrOf(b []byte) uintptr {
	if cap(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}
