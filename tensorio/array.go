package tensorio

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"strconv"
)

// DType names used in Array.DType. They match tsr's tensor dtype names.
const (
	F16  = "f16"  // IEEE 754 binary16
	BF16 = "bf16" // bfloat16 (upper 16 bits of an IEEE binary32)
	F32  = "f32"  // IEEE 754 binary32
	F64  = "f64"  // IEEE 754 binary64
	I8   = "i8"   // signed 8-bit integer
	I16  = "i16"  // signed 16-bit integer
	I32  = "i32"  // signed 32-bit integer
	I64  = "i64"  // signed 64-bit integer
	U8   = "u8"   // unsigned 8-bit integer
	Bool = "bool" // one byte per element, 0 (false) or 1 (true)
)

// MaxDims is the largest number of dimensions any decoder accepts (NumPy's
// NPY_MAXDIMS is 64 since NumPy 2.0, 32 before).
const MaxDims = 64

// Array is an n-dimensional array in C (row-major) order, little-endian.
//
// DType is one of "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64",
// "u8", "bool". Shape lists the dimensions (empty for a scalar). Data holds
// exactly Numel()*ItemSize(DType) bytes, little-endian, C order; a bool
// element is one byte, 0 or 1.
//
// Arrays returned by the Decode* functions may alias the input byte slice;
// Arrays returned by Load own their memory.
type Array struct {
	DType string
	Shape []int
	Data  []byte
}

// ItemSize returns the size in bytes of one element of dtype, or 0 when
// dtype is not one of the supported names.
func ItemSize(dtype string) int {
	switch dtype {
	case F64, I64:
		return 8
	case F32, I32:
		return 4
	case F16, BF16, I16:
		return 2
	case I8, U8, Bool:
		return 1
	}
	return 0
}

// Numel returns the number of elements, the product of Shape (1 for a
// scalar). It assumes a validated Array (see Validate); it does not check
// for overflow.
func (a *Array) Numel() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// Validate checks that the dtype is supported, that every dimension is
// non-negative, that len(Shape) <= MaxDims, that the shape product (with
// zero dimensions counted as 1) and the byte size fit in an int, and that
// len(Data) equals Numel()*ItemSize(DType). It returns an *Error of kind
// ErrInvalid otherwise.
func (a *Array) Validate() error {
	if a == nil {
		return newError(ErrInvalid, "nil array")
	}
	size := ItemSize(a.DType)
	if size == 0 {
		return newError(ErrInvalid, "unsupported dtype %q (want one of f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool)", a.DType)
	}
	nbytes, err := byteSize(a.Shape, size)
	if err != nil {
		return withKind(err, ErrInvalid)
	}
	if uint64(len(a.Data)) != nbytes {
		return newError(ErrInvalid, "data has %d bytes, shape %s of %s needs %d", len(a.Data), shapeStr(a.Shape), a.DType, nbytes)
	}
	return nil
}

// byteSize returns numel(shape)*itemSize, checking for negative dimensions,
// too many dimensions and overflow. Zero-sized dimensions count as 1 in the
// overflow check so that strides computed later by a tensor library cannot
// overflow either. Errors are of kind ErrCorrupt (callers re-kind them).
func byteSize(shape []int, itemSize int) (uint64, error) {
	if len(shape) > MaxDims {
		return 0, newError(ErrCorrupt, "%d dimensions (at most %d supported)", len(shape), MaxDims)
	}
	var numel, strideProd uint64 = 1, uint64(itemSize)
	for _, d := range shape {
		if d < 0 {
			return 0, newError(ErrCorrupt, "negative dimension %d in shape %s", d, shapeStr(shape))
		}
		nz := uint64(d)
		if nz == 0 {
			nz = 1
		}
		hi, lo := bits.Mul64(strideProd, nz)
		if hi != 0 || lo > math.MaxInt64 {
			return 0, newError(ErrCorrupt, "shape %s is too large (element count overflows)", shapeStr(shape))
		}
		strideProd = lo
		numel *= uint64(d) // cannot overflow: |numel| <= strideProd
	}
	return numel * uint64(itemSize), nil
}

// Sentinel error kinds. Every content error returned by this package is an
// *Error whose Kind is one of these, so callers can test with errors.Is.
// File-system errors (missing file, permission denied) are returned as the
// os package's *PathError unchanged.
var (
	// ErrCorrupt: the bytes are not a valid file of the format (bad magic,
	// truncated data, lying header, malformed number, ragged CSV row).
	ErrCorrupt = errors.New("corrupt file")
	// ErrUnsupported: a valid file using a feature or dtype tsr does not
	// support (object arrays, complex or uint16 dtypes, bf16 in .npy).
	ErrUnsupported = errors.New("unsupported")
	// ErrInvalid: an invalid argument to an encoder or Save (data length does
	// not match shape, unknown dtype, wrong image shape, bad extension).
	ErrInvalid = errors.New("invalid argument")
)

// Error is a content error: what is wrong with a file or an argument.
// Error() reads "path: msg" (or just "msg" when Path is empty), e.g.
// "digits.npy: truncated data: header says 921408 bytes, file has 1000".
type Error struct {
	Path string // file path as given to Load/Save, "" from the Decode*/Encode* functions
	Kind error  // ErrCorrupt, ErrUnsupported or ErrInvalid
	Msg  string // what is wrong
}

// Error returns "Path: Msg", or Msg when Path is empty.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap returns e.Kind, so errors.Is(err, ErrCorrupt) works.
func (e *Error) Unwrap() error { return e.Kind }

func newError(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// withKind returns err with its kind replaced when it is an *Error.
func withKind(err error, kind error) error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.Kind = kind
		return &c
	}
	return err
}

// prefix returns err with "p: " prepended to its message (for npz entry and
// safetensors tensor names). Non-*Error errors become ErrCorrupt errors.
func prefix(err error, p string) error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.Msg = p + ": " + c.Msg
		return &c
	}
	return &Error{Kind: ErrCorrupt, Msg: p + ": " + err.Error()}
}

// withPath attaches the file path to err. *Error values get Path set; other
// errors (I/O errors) are wrapped as "path: err" keeping the chain.
func withPath(err error, path string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Path != "" {
			return err
		}
		c := *e
		c.Path = path
		return &c
	}
	var pe *fs.PathError // already names the path
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// shapeStr spells a shape in error messages as tsr prints shapes: "[2, 3]".
func shapeStr(shape []int) string {
	b := make([]byte, 0, 2+4*len(shape))
	b = append(b, '[')
	for i, d := range shape {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return string(append(b, ']'))
}
