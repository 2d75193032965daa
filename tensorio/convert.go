package tensorio

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"
)

var le = binary.LittleEndian

// bf16ToF32 widens a bfloat16 bit pattern exactly.
func bf16ToF32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// f32ToBF16 rounds f to bfloat16 with round-to-nearest-even, keeping NaN a
// (quiet) NaN. This is what PyTorch's c10::BFloat16 constructor does.
func f32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 { // NaN
		return uint16(u>>16) | 0x0040
	}
	u += 0x7fff + (u>>16)&1
	return uint16(u >> 16)
}

// f64ToF32Odd converts x to float32 rounding to odd (truncate toward zero,
// then set the last mantissa bit if inexact). Rounding the result again to a
// format with at most 22 mantissa bits (f16: 10, bf16: 7) with
// round-to-nearest-even then gives the correctly rounded result of x, which
// plain float32(x) followed by a second rounding would not (double rounding).
// See Boldo & Melquiond, "Emulation of FMA and correctly rounded sums:
// proved algorithms using rounding to odd", IEEE TC 2008.
func f64ToF32Odd(x float64) float32 {
	f := float32(x)
	if math.IsNaN(x) || math.IsInf(x, 0) || float64(f) == x {
		return f
	}
	if math.IsInf(float64(f), 0) || math.Abs(float64(f)) > math.Abs(x) {
		// Rounded away from zero: step back one ulp toward zero.
		f = math.Float32frombits(math.Float32bits(f) - 1)
	}
	return math.Float32frombits(math.Float32bits(f) | 1)
}

func f64ToF16(x float64) uint16  { return float16.Fromfloat32(f64ToF32Odd(x)).Bits() }
func f64ToBF16(x float64) uint16 { return f32ToBF16(f64ToF32Odd(x)) }

// Float64s returns the elements of a as float64 in C order, for any dtype.
// Integers beyond ±2^53 are rounded to the nearest float64; bool gives 0 or
// 1. It returns an ErrInvalid *Error when a fails Validate.
func (a *Array) Float64s() ([]float64, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	n := a.Numel()
	out := make([]float64, n)
	d := a.Data
	switch a.DType {
	case F64:
		for i := range out {
			out[i] = math.Float64frombits(le.Uint64(d[8*i:]))
		}
	case F32:
		for i := range out {
			out[i] = float64(math.Float32frombits(le.Uint32(d[4*i:])))
		}
	case F16:
		for i := range out {
			out[i] = float64(float16.Frombits(le.Uint16(d[2*i:])).Float32())
		}
	case BF16:
		for i := range out {
			out[i] = float64(bf16ToF32(le.Uint16(d[2*i:])))
		}
	default:
		for i := range out {
			out[i] = float64(intAt(a.DType, d, i))
		}
	}
	return out, nil
}

// Float32s returns the elements of a as float32 in C order, for any dtype.
// f64 and large integers are rounded to nearest-even; f16 and bf16 widen
// exactly. It returns an ErrInvalid *Error when a fails Validate.
func (a *Array) Float32s() ([]float32, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	n := a.Numel()
	out := make([]float32, n)
	d := a.Data
	switch a.DType {
	case F64:
		for i := range out {
			out[i] = float32(math.Float64frombits(le.Uint64(d[8*i:])))
		}
	case F32:
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32(d[4*i:]))
		}
	case F16:
		for i := range out {
			out[i] = float16.Frombits(le.Uint16(d[2*i:])).Float32()
		}
	case BF16:
		for i := range out {
			out[i] = bf16ToF32(le.Uint16(d[2*i:]))
		}
	default:
		for i := range out {
			out[i] = float32(intAt(a.DType, d, i))
		}
	}
	return out, nil
}

// Int64s returns the elements of an integer or bool array as int64 in C
// order (bool gives 0 or 1). Float dtypes are refused with an ErrInvalid
// *Error (use Float64s; no silent truncation).
func (a *Array) Int64s() ([]int64, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	switch a.DType {
	case F16, BF16, F32, F64:
		return nil, newError(ErrInvalid, "Int64s: array has float dtype %s", a.DType)
	}
	out := make([]int64, a.Numel())
	for i := range out {
		out[i] = intAt(a.DType, a.Data, i)
	}
	return out, nil
}

// intAt reads element i of an integer or bool dtype.
func intAt(dtype string, d []byte, i int) int64 {
	switch dtype {
	case I64:
		return int64(le.Uint64(d[8*i:]))
	case I32:
		return int64(int32(le.Uint32(d[4*i:])))
	case I16:
		return int64(int16(le.Uint16(d[2*i:])))
	case I8:
		return int64(int8(d[i]))
	case U8, Bool:
		return int64(d[i])
	}
	panic("tensorio: intAt on " + dtype) // unreachable: callers validated
}

// newArray checks dtype and shape against n values and allocates the Array.
func newArray(dtype string, shape []int, n int) (*Array, error) {
	size := ItemSize(dtype)
	if size == 0 {
		return nil, newError(ErrInvalid, "unsupported dtype %q (want one of f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool)", dtype)
	}
	nbytes, err := byteSize(shape, size)
	if err != nil {
		return nil, withKind(err, ErrInvalid)
	}
	if nbytes != uint64(n)*uint64(size) {
		return nil, newError(ErrInvalid, "%d values do not fill shape %s", n, shapeStr(shape))
	}
	return &Array{DType: dtype, Shape: append([]int(nil), shape...), Data: make([]byte, nbytes)}, nil
}

// FromFloat64s builds an Array of the given dtype and shape from values in C
// order (len(v) must equal the shape product). Float dtypes round to nearest
// even (f16 and bf16 directly from float64, without double rounding).
// Integer dtypes require every value to be integral and in range, else an
// ErrInvalid *Error naming the index; bool maps nonzero (and NaN) to 1.
func FromFloat64s(dtype string, shape []int, v []float64) (*Array, error) {
	a, err := newArray(dtype, shape, len(v))
	if err != nil {
		return nil, err
	}
	d := a.Data
	switch dtype {
	case F64:
		for i, x := range v {
			le.PutUint64(d[8*i:], math.Float64bits(x))
		}
	case F32:
		for i, x := range v {
			le.PutUint32(d[4*i:], math.Float32bits(float32(x)))
		}
	case F16:
		for i, x := range v {
			le.PutUint16(d[2*i:], f64ToF16(x))
		}
	case BF16:
		for i, x := range v {
			le.PutUint16(d[2*i:], f64ToBF16(x))
		}
	case Bool:
		for i, x := range v {
			if x != 0 {
				d[i] = 1
			}
		}
	default:
		lo, hi := intRange(dtype)
		for i, x := range v {
			// float64(hi)+1 is exact for every hi here (2^k - 1).
			if x != math.Trunc(x) || x < float64(lo) || x >= float64(hi)+1 {
				return nil, newError(ErrInvalid, "value %v at index %d is not representable as %s", x, i, dtype)
			}
			putInt(dtype, d, i, int64(x))
		}
	}
	return a, nil
}

// FromFloat32s is FromFloat64s for float32 values (f16/bf16 round to nearest
// even from float32, f64 widens exactly).
func FromFloat32s(dtype string, shape []int, v []float32) (*Array, error) {
	switch dtype {
	case F32, F16, BF16:
		a, err := newArray(dtype, shape, len(v))
		if err != nil {
			return nil, err
		}
		for i, x := range v {
			switch dtype {
			case F32:
				le.PutUint32(a.Data[4*i:], math.Float32bits(x))
			case F16:
				le.PutUint16(a.Data[2*i:], float16.Fromfloat32(x).Bits())
			default:
				le.PutUint16(a.Data[2*i:], f32ToBF16(x))
			}
		}
		return a, nil
	}
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = float64(x)
	}
	return FromFloat64s(dtype, shape, w)
}

// FromInt64s builds an Array of the given dtype and shape from int64 values
// in C order. Integer dtypes require every value in range (else an
// ErrInvalid *Error naming the index; no silent wrap-around); float dtypes
// round to nearest even; bool maps nonzero to 1.
func FromInt64s(dtype string, shape []int, v []int64) (*Array, error) {
	a, err := newArray(dtype, shape, len(v))
	if err != nil {
		return nil, err
	}
	d := a.Data
	switch dtype {
	case F64:
		for i, x := range v {
			le.PutUint64(d[8*i:], math.Float64bits(float64(x)))
		}
	case F32:
		for i, x := range v {
			le.PutUint32(d[4*i:], math.Float32bits(float32(x)))
		}
	case F16:
		for i, x := range v {
			le.PutUint16(d[2*i:], f64ToF16(float64(x)))
		}
	case BF16:
		for i, x := range v {
			le.PutUint16(d[2*i:], f64ToBF16(float64(x)))
		}
	case Bool:
		for i, x := range v {
			if x != 0 {
				d[i] = 1
			}
		}
	default:
		lo, hi := intRange(dtype)
		for i, x := range v {
			if x < lo || x > hi {
				return nil, newError(ErrInvalid, "value %d at index %d is out of range for %s", x, i, dtype)
			}
			putInt(dtype, d, i, x)
		}
	}
	return a, nil
}

func intRange(dtype string) (lo, hi int64) {
	switch dtype {
	case I8:
		return math.MinInt8, math.MaxInt8
	case I16:
		return math.MinInt16, math.MaxInt16
	case I32:
		return math.MinInt32, math.MaxInt32
	case U8:
		return 0, math.MaxUint8
	}
	return math.MinInt64, math.MaxInt64
}

func putInt(dtype string, d []byte, i int, x int64) {
	switch dtype {
	case I64:
		le.PutUint64(d[8*i:], uint64(x))
	case I32:
		le.PutUint32(d[4*i:], uint32(x))
	case I16:
		le.PutUint16(d[2*i:], uint16(x))
	case I8, U8:
		d[i] = byte(x)
	}
}
