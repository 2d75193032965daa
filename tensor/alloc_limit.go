package tensor

import (
	"fmt"
	"math"
	"sync/atomic"
)

// maxAllocBytes caps one storage allocation; 0 means the default, half
// the machine's physical memory.
var maxAllocBytes atomic.Int64

// SetMaxAllocBytes sets the largest single storage allocation, in bytes
// (n <= 0 restores the default: half the machine's physical memory), and
// returns the previous setting. A larger request — zeros(10**12), or a
// broadcast whose result would not fit — fails with a MemoryError instead
// of taking the process down with Go's fatal out-of-memory error.
//
// The failure surfaces as a panic carrying a *Error of kind "MemoryError"
// from the allocating op; the tsr VM turns it into a catchable-free
// MemoryError with the script position. Go code calling package tensor
// directly with untrusted sizes should recover it or bound sizes itself.
func SetMaxAllocBytes(n int64) int64 {
	if n < 0 {
		n = 0
	}
	return maxAllocBytes.Swap(n)
}

// MaxAllocBytes returns the current single-allocation limit in bytes.
func MaxAllocBytes() int64 {
	if v := maxAllocBytes.Load(); v > 0 {
		return v
	}
	return physicalMemory
}

// checkAlloc panics with a MemoryError when n elements of dt exceed the
// allocation limit (or overflow an int).
func checkAlloc(dt DType, n int) int {
	size := dt.ItemSize()
	if n < 0 || n > math.MaxInt/size {
		panic(allocError(math.MaxInt64))
	}
	nb := n * size
	if int64(nb) > MaxAllocBytes() {
		panic(allocError(int64(nb)))
	}
	return nb
}

// allocCheck returns the MemoryError checkAlloc would panic with, for
// functions that build a temporary buffer before the storage and can
// return an error instead.
func allocCheck(dt DType, n int) error {
	size := dt.ItemSize()
	if n < 0 || n > math.MaxInt/size {
		return allocError(math.MaxInt64)
	}
	if int64(n*size) > MaxAllocBytes() {
		return allocError(int64(n * size))
	}
	return nil
}

func allocError(nb int64) *Error {
	what := fmt.Sprintf("%d bytes", nb)
	if nb == math.MaxInt64 {
		what = "more bytes than an int can count"
	}
	return errorf(MemoryError, "can't allocate memory: you tried to allocate %s, more than the limit of %d bytes (tensor.SetMaxAllocBytes)", what, MaxAllocBytes())
}

// CheckAlloc reports the MemoryError an allocation of n elements of dt
// would raise (n < 0 or a byte count that overflows counts as too large),
// for callers that build Go slices before making a tensor.
func CheckAlloc(dt DType, n int) error { return allocCheck(dt, n) }
