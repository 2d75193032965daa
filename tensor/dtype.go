package tensor

import (
	"math"
	"strings"

	"github.com/x448/float16"
)

// DType is a tensor element type. The zero value is F16; use the named
// constants. Names follow tsr's short spelling (f32, i64, ...).
type DType uint8

// The element types tsr supports. F32 is the default float type and I64 the
// default integer type, as in PyTorch.
const (
	F16  DType = iota // IEEE 754 binary16 (1 sign, 5 exponent, 10 mantissa bits)
	BF16              // bfloat16 (1 sign, 8 exponent, 7 mantissa bits)
	F32               // IEEE 754 binary32
	F64               // IEEE 754 binary64
	I8                // signed 8-bit integer
	I16               // signed 16-bit integer
	I32               // signed 32-bit integer
	I64               // signed 64-bit integer
	U8                // unsigned 8-bit integer
	Bool              // boolean, one byte per element (0 or 1)
	numDTypes
)

// DefaultFloat is the dtype of float data without an explicit dtype (f32).
const DefaultFloat = F32

// DefaultInt is the dtype of integer data without an explicit dtype (i64).
const DefaultInt = I64

var dtypeNames = [...]string{"f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "bool"}
var dtypeSizes = [...]int{2, 2, 4, 8, 1, 2, 4, 8, 1, 1}

// AllDTypes lists every dtype in declaration order.
var AllDTypes = []DType{F16, BF16, F32, F64, I8, I16, I32, I64, U8, Bool}

// String returns the short name: f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool.
func (d DType) String() string {
	if d < numDTypes {
		return dtypeNames[d]
	}
	return "dtype(?)"
}

// Valid reports whether d is one of the declared dtypes.
func (d DType) Valid() bool { return d < numDTypes }

// ParseDType maps a dtype name to a DType. It accepts the short names and
// PyTorch's aliases: float16 half bfloat16 float32 float double float64
// int64 long int32 int int16 short int8 uint8 bool (an optional "torch."
// prefix is ignored). An unknown name is a TypeError.
func ParseDType(name string) (DType, error) {
	n := strings.TrimPrefix(name, "torch.")
	switch n {
	case "f16", "float16", "half":
		return F16, nil
	case "bf16", "bfloat16":
		return BF16, nil
	case "f32", "float32", "float":
		return F32, nil
	case "f64", "float64", "double":
		return F64, nil
	case "i8", "int8":
		return I8, nil
	case "i16", "int16", "short":
		return I16, nil
	case "i32", "int32", "int":
		return I32, nil
	case "i64", "int64", "long":
		return I64, nil
	case "u8", "uint8":
		return U8, nil
	case "bool":
		return Bool, nil
	}
	return 0, errorf(TypeError, "unknown dtype %q", name)
}

// ItemSize returns the size of one element in bytes.
func (d DType) ItemSize() int {
	if d < numDTypes {
		return dtypeSizes[d]
	}
	return 0
}

// IsFloat reports whether d is a floating-point dtype (f16, bf16, f32, f64).
func (d DType) IsFloat() bool { return d <= F64 }

// IsInt reports whether d is an integer dtype (i8..i64, u8); bool is not.
func (d DType) IsInt() bool { return d >= I8 && d <= U8 }

// IsHalf reports whether d is a 16-bit float (f16 or bf16), stored as bits
// and computed in f32.
func (d DType) IsHalf() bool { return d == F16 || d == BF16 }

// category orders dtype kinds for promotion: bool < integer < float.
func category(d DType) int {
	switch {
	case d == Bool:
		return 0
	case d.IsInt():
		return 1
	default:
		return 2
	}
}

// Promote returns the dtype of a binary op between tensors of dtypes a and
// b, following PyTorch's promotion lattice (c10::promoteTypes): bool <
// integers < floats; within floats the wider wins and f16 + bf16 -> f32;
// within integers the wider wins and u8 with a signed type needs the next
// signed type that holds both (u8 + i8 -> i16).
func Promote(a, b DType) DType {
	if a == b {
		return a
	}
	ca, cb := category(a), category(b)
	if ca != cb {
		if ca > cb {
			return a
		}
		return b
	}
	if ca == 2 { // floats
		if (a == F16 && b == BF16) || (a == BF16 && b == F16) {
			return F32
		}
		if a.ItemSize() >= b.ItemSize() {
			return a
		}
		return b
	}
	// integers
	if a == U8 || b == U8 {
		o := a
		if a == U8 {
			o = b
		}
		if o == I8 {
			return I16
		}
		return o
	}
	if a.ItemSize() >= b.ItemSize() {
		return a
	}
	return b
}

// ScalarKind is the kind of a Python-style number operand (a "wrapped
// number" in PyTorch): bool, int or float.
type ScalarKind uint8

// Scalar kinds.
const (
	BoolScalar ScalarKind = iota
	IntScalar
	FloatScalar
)

// ResultTypeScalar returns the dtype of a binary op between a tensor of
// dtype dt and a Python scalar of kind k. A scalar never upcasts within the
// tensor's category (f16 tensor + 2.5 -> f16, i32 tensor + 7 -> i32); a
// scalar of a higher category gives that category's default dtype (int or
// bool tensor + float -> f32, bool tensor + int -> i64).
func ResultTypeScalar(dt DType, k ScalarKind) DType {
	var sd DType
	switch k {
	case BoolScalar:
		sd = Bool
	case IntScalar:
		sd = DefaultInt
	default:
		sd = DefaultFloat
	}
	return combineCategories(dt, sd, true, true)
}

// combineCategories is PyTorch's combine_categories(higher, lower) with
// "undefined" flags.
func combineCategories(higher, lower DType, hasHigher, hasLower bool) DType {
	if !hasHigher {
		return lower
	}
	if !hasLower {
		return higher
	}
	if higher.IsFloat() {
		return higher
	}
	if higher == Bool || lower.IsFloat() {
		return Promote(higher, lower)
	}
	return higher
}

// ResultType returns the dtype PyTorch's result_type gives for the operands:
// tensors with at least one dimension take precedence over zero-dim tensors,
// which take precedence over wrapped numbers (see Scalar*), and a
// lower-priority operand only matters when its category (bool < int <
// float) is higher.
func ResultType(ts ...*Tensor) DType {
	var dimR, zeroR, wrapR DType
	var hasDim, hasZero, hasWrap bool
	for _, t := range ts {
		if t == nil {
			continue
		}
		switch {
		case t.wrapped:
			d := t.dtype
			if d.IsFloat() {
				d = DefaultFloat
			} else if d.IsInt() {
				d = DefaultInt
			}
			if hasWrap {
				wrapR = Promote(wrapR, d)
			} else {
				wrapR, hasWrap = d, true
			}
		case len(t.shape) == 0:
			if hasZero {
				zeroR = Promote(zeroR, t.dtype)
			} else {
				zeroR, hasZero = t.dtype, true
			}
		default:
			if hasDim {
				dimR = Promote(dimR, t.dtype)
			} else {
				dimR, hasDim = t.dtype, true
			}
		}
	}
	lo := combineCategories(zeroR, wrapR, hasZero, hasWrap)
	return combineCategories(dimR, lo, hasDim, hasZero || hasWrap)
}

// canCast reports whether a result of dtype from may be written into an
// output of dtype to (PyTorch's canCast: no float -> int, no non-bool ->
// bool).
func canCast(from, to DType) bool {
	if from.IsFloat() && !to.IsFloat() {
		return false
	}
	if from != Bool && to == Bool {
		return false
	}
	return true
}

// pyTypeName is PyTorch's name for a dtype in cast error messages.
// TorchName returns PyTorch's ScalarType name of d ("Half", "BFloat16",
// "Float", "Double", "Char", "Short", "Int", "Long", "Byte", "Bool"), as
// PyTorch's error messages spell it; an invalid d gives its String.
func (d DType) TorchName() string {
	if !d.Valid() {
		return d.String()
	}
	return pyTypeName(d)
}

func pyTypeName(d DType) string {
	return [...]string{"Half", "BFloat16", "Float", "Double", "Char", "Short", "Int", "Long", "Byte", "Bool"}[d]
}

// FInfo holds the machine limits of a float dtype (torch.finfo).
type FInfo struct {
	Bits       int     // storage bits
	Eps        float64 // difference between 1.0 and the next representable value
	Max        float64 // largest finite value
	Min        float64 // most negative finite value (-Max)
	Tiny       float64 // smallest positive normal value (= SmallestNormal)
	Resolution float64 // approximate decimal resolution, 10**-precision
}

// Finfo returns the limits of float dtype dt; a non-float dtype is a
// TypeError.
func Finfo(dt DType) (FInfo, error) {
	switch dt {
	case F16:
		return FInfo{16, math.Ldexp(1, -10), 65504, -65504, math.Ldexp(1, -14), 1e-3}, nil
	case BF16:
		mx := float64(math.Float32frombits(0x7f7f0000))
		return FInfo{16, math.Ldexp(1, -7), mx, -mx, math.Ldexp(1, -126), 1e-2}, nil
	case F32:
		return FInfo{32, math.Ldexp(1, -23), math.MaxFloat32, -math.MaxFloat32, math.Ldexp(1, -126), 1e-6}, nil
	case F64:
		return FInfo{64, math.Ldexp(1, -52), math.MaxFloat64, -math.MaxFloat64, math.Ldexp(1, -1022), 1e-15}, nil
	}
	return FInfo{}, errorf(TypeError, "finfo: %s is not a floating point dtype", dt)
}

// IInfo holds the limits of an integer dtype (torch.iinfo).
type IInfo struct {
	Bits int
	Max  int64
	Min  int64
}

// Iinfo returns the limits of integer dtype dt (bool counts as 8-bit 0..1,
// as in PyTorch); a float dtype is a TypeError.
func Iinfo(dt DType) (IInfo, error) {
	switch dt {
	case I8:
		return IInfo{8, math.MaxInt8, math.MinInt8}, nil
	case I16:
		return IInfo{16, math.MaxInt16, math.MinInt16}, nil
	case I32:
		return IInfo{32, math.MaxInt32, math.MinInt32}, nil
	case I64:
		return IInfo{64, math.MaxInt64, math.MinInt64}, nil
	case U8:
		return IInfo{8, math.MaxUint8, 0}, nil
	case Bool:
		return IInfo{8, 1, 0}, nil
	}
	return IInfo{}, errorf(TypeError, "iinfo: %s is not an integer dtype", dt)
}

// F32ToBF16 rounds f to bfloat16 bits with round-to-nearest-even; NaN stays
// a quiet NaN.
func F32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// BF16ToF32 widens bfloat16 bits to float32 exactly.
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// F32ToF16 rounds f to IEEE binary16 bits (round-to-nearest-even).
func F32ToF16(f float32) uint16 { return float16.Fromfloat32(f).Bits() }

// F16ToF32 widens binary16 bits to float32 exactly.
func F16ToF32(h uint16) float32 { return float16.Frombits(h).Float32() }

// RoundToDType rounds v to the nearest value representable in float dtype
// dt (f64 unchanged; f32, f16 and bf16 go through float32 as PyTorch's
// conversions do) and returns it as float64.
func RoundToDType(v float64, dt DType) float64 {
	switch dt {
	case F32:
		return float64(float32(v))
	case F16:
		return float64(F16ToF32(F32ToF16(float32(v))))
	case BF16:
		return float64(BF16ToF32(F32ToBF16(float32(v))))
	}
	return v
}
