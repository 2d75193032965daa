package tensor

import (
	"math"
	"slices"

	"github.com/tsrlang/tsr/backends/cpu"
)

// More PyTorch elementwise ops: fmod, copysign, xlogy, heaviside (binary,
// through binary.go's kernels, so they broadcast, promote and lay out their
// results as the others), logit and hardtanh (unary), and WithStrides, a
// copy into a given dense layout for ops composed of steps whose layouts
// differ from TensorIterator's for the whole op.

// Fmod returns the C remainder fmod(a, b) = a - trunc(a / b) * b, with the
// sign of a (torch.fmod). Integer operands stay integer (a zero divisor is
// a RuntimeError "ZeroDivisionError"); bool operands are a RuntimeError.
// Float results are exact (math.Mod); f16/bf16 compute in f32.
func Fmod(a, b *Tensor) (*Tensor, error) { return binary(opFmod, a, b) }

// Copysign returns |a| with the sign bit of b (torch.copysign), elementwise
// with broadcasting. Integer and bool operands promote to the default float
// dtype; a negative zero or a NaN with the sign bit set in b makes the
// result negative.
func Copysign(a, b *Tensor) (*Tensor, error) { return binary(opCopysign, a, b) }

// Xlogy returns a * log(b) elementwise (torch.xlogy), with ATen's rules: NaN
// where b is NaN, else 0 where a is 0 (even if b is 0 or inf). Integer and
// bool operands promote to the default float dtype; f32 multiplies in f32,
// f16/bf16 compute in f32 and round once.
func Xlogy(a, b *Tensor) (*Tensor, error) { return binary(opXlogy, a, b) }

// Heaviside returns the Heaviside step function of a (torch.heaviside):
// values where a == 0, 1 where a > 0, 0 where a < 0 or a is NaN. a and
// values must have the same dtype (RuntimeError otherwise, as PyTorch);
// any dtype, bool included, is accepted.
func Heaviside(a, values *Tensor) (*Tensor, error) {
	if a.dtype != values.dtype {
		return nil, errorf(RuntimeError, "heaviside is not yet implemented for tensors with different dtypes.")
	}
	return binary(opHeaviside, a, values)
}

// Logit returns log(z / (1 - z)) (torch.logit) where z is t clamped to
// [eps, 1 - eps]; a negative eps (PyTorch's eps=None) means no clamping, so
// 0 and 1 give -inf and inf and values outside [0, 1] give NaN. Integer and
// bool inputs give the default float dtype; f32 divides in f32 (as ATen's
// kernel), f16/bf16 compute in f32 and round once.
func Logit(t *Tensor, eps float64) (*Tensor, error) {
	return unary(&unaryDef{name: "logit", f: func(x float64) float64 {
		if eps >= 0 {
			x = clampLogit(x, eps, 1-eps)
		}
		if x == 1 {
			return math.Inf(1)
		}
		return cpu.Log64(x / (1 - x))
	}, f32: func(x float32) float32 {
		if eps >= 0 {
			e := float32(eps)
			x = clampLogit(x, e, 1-e)
		}
		if x == 1 {
			return float32(math.Inf(1))
		}
		return float32(cpu.Log64(float64(x / (1 - x))))
	}}, t)
}

// clampLogit is ATen's x < lo ? lo : (x > hi ? hi : x) (NaN passes).
func clampLogit[F float32 | float64](x, lo, hi F) F {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Hardtanh returns t clamped to [minVal, maxVal] in t's own dtype
// (torch.nn.functional.hardtanh), as ATen's clamp kernel: x < min gives
// min, then x > max gives max, else x is kept (so -0.0 stays -0.0 at a
// bound of 0, NaN propagates, and where minVal > maxVal every element is
// maxVal). Float bounds are rounded to f32 for f32/f16/bf16 and truncated
// for integer dtypes. A bool input, or a u8 input with a negative bound,
// is a RuntimeError with PyTorch's message. (PyTorch 1.13 has no f16
// kernel; tsr computes f16 in f32 as its clamp does.)
func Hardtanh(t *Tensor, minVal, maxVal float64) (*Tensor, error) {
	switch {
	case t.dtype == Bool:
		return nil, errorf(RuntimeError, "Bool inputs not supported for hardtanh")
	case t.dtype == U8 && (minVal < 0 || maxVal < 0):
		return nil, errorf(RuntimeError, "cannot do hardtanh on an unsigned type with negative limits")
	}
	if r := hardtanhFast(t, minVal, maxVal); r != nil {
		return r, nil
	}
	lo32, hi32 := float32(minVal), float32(maxVal)
	loI, hiI := int64(minVal), int64(maxVal)
	return unary(&unaryDef{name: "hardtanh", kind: ukKeep, noBool: true,
		f:   func(x float64) float64 { return clampKeep(x, minVal, maxVal) },
		f32: func(x float32) float32 { return clampKeep(x, lo32, hi32) },
		i:   func(x int64) int64 { return clampKeep(x, loI, hiI) },
	}, t)
}

// clampKeep is x < lo ? lo : x, then > hi ? hi (x itself when neither).
func clampKeep[N int64 | float32 | float64](x, lo, hi N) N {
	if x < lo {
		x = lo
	}
	if x > hi {
		x = hi
	}
	return x
}

// WithStrides returns t itself when its strides are already strides, else
// a copy of t (same shape and dtype, a new storage) laid out with strides,
// which must be non-overlapping and dense for t's shape (a ValueError
// otherwise). Ops computed in steps use it to give their result the layout
// ElementwiseStrides prescribes for the whole op.
func (t *Tensor) WithStrides(strides []int) (*Tensor, error) {
	if len(strides) != len(t.shape) {
		return nil, errorf(ValueError, "WithStrides: %d strides for a %d-d tensor", len(strides), len(t.shape))
	}
	if slices.Equal(strides, t.strides) {
		return t, nil
	}
	if t.Numel() > 0 && !nonOverlappingDense(t.shape, strides) {
		return nil, errorf(ValueError, "WithStrides: strides %v are not dense for shape %v", strides, t.shape)
	}
	sh := append([]int(nil), t.shape...)
	out := newTensor(newStorage(t.dtype, numel(sh), false), sh, append([]int(nil), strides...), 0, t.dtype)
	copySame(out, t)
	return out, nil
}

// Gcd returns the greatest common divisor of a and b elementwise
// (torch.gcd; integer dtypes only). As ATen's calc_gcd it is never
// negative except where the absolute value overflows (gcd(-2**63, 6) is
// -2); gcd(0, 0) is 0.
func Gcd(a, b *Tensor) (*Tensor, error) { return binary(opGcd, a, b) }

// Lcm returns the least common multiple |a / gcd(a, b) * b| elementwise
// (torch.lcm; integer dtypes only), 0 when both are 0, wrapping on
// overflow as ATen's calc_lcm does (int8/int16/uint8 in int arithmetic
// first, as C++ promotes them).
func Lcm(a, b *Tensor) (*Tensor, error) { return binary(opLcm, a, b) }

// Nextafter returns the next representable value after a towards b in
// the result dtype (torch.nextafter: f32, f64 and bf16; f16 and integers
// are not implemented, as on PyTorch 1.13's CPU). Equal operands give b.
func Nextafter(a, b *Tensor) (*Tensor, error) {
	if ResultType(a, b) == BF16 {
		return binary(opNextafterBF16, a, b)
	}
	return binary(opNextafter, a, b)
}

func gcdInt[T intNum](p, q T) T {
	// std::abs on the value promoted to int (int64 for i64), stored back:
	// the most negative value stays negative
	if p < 0 {
		p = -p
	}
	if q < 0 {
		q = -q
	}
	for p != 0 {
		p, q = q%p, p
	}
	return q
}

func lcmInt[T intNum](p, q T) T {
	g := gcdInt(p, q)
	if g == 0 {
		return 0
	}
	var z T
	switch any(z).(type) {
	case int8, int16, uint8: // C++ computes in int, then narrows
		v := int64(p) / int64(g) * int64(q)
		if v < 0 {
			v = -v
		}
		return T(v)
	}
	v := p / g * q
	if v < 0 {
		v = -v
	}
	return v
}

// nextafterBF16 is C nextafter on bfloat16 values (held exactly in f32).
func nextafterBF16(x, y float32) float32 {
	switch {
	case x != x || y != y:
		return float32(math.NaN())
	case x == y:
		return y
	case x == 0:
		b := uint32(1) << 16 // the smallest bf16 subnormal
		if y < 0 {
			b |= 1 << 31
		}
		return math.Float32frombits(b)
	}
	b := math.Float32bits(x)
	if (y > x) == (x > 0) {
		b += 1 << 16
	} else {
		b -= 1 << 16
	}
	return math.Float32frombits(b)
}
