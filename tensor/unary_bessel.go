package tensor

import "math"

// i0, angle (real inputs), isposinf, isneginf and isreal (PyTorch 1.13).
// Integer and bool inputs of i0 and angle give the default float dtype;
// f16/bf16 compute in f32 and round once.

var (
	uI0 = &unaryDef{name: "i0", f: calcI0, f32: calcI0F32}
	uI1 = &unaryDef{name: "special_i1", f: calcI1, f32: calcI1F32}
	// ATen's angle_impl for real types: NaN stays NaN, pi below zero, 0
	// otherwise (-0.0 included)
	uAngle = &unaryDef{name: "angle", f: func(x float64) float64 {
		switch {
		case x != x:
			return x
		case x < 0:
			return math.Pi
		}
		return 0
	}}
	uIsPosInf = &unaryDef{name: "isposinf", kind: ukPred, p: func(x float64) bool { return math.IsInf(x, 1) }}
	uIsNegInf = &unaryDef{name: "isneginf", kind: ukPred, p: func(x float64) bool { return math.IsInf(x, -1) }}
)

// I0 returns the modified Bessel function of the first kind of order 0,
// I0(x) = sum_k (x²/4)^k / (k!)², elementwise (torch.i0,
// torch.special.i0), by ATen's calc_i0 (Cephes' Chebyshev expansion times
// exp(|x|), see bessel_cephes.go; bit for bit PyTorch's but in rare
// one-ulp cases). As ATen, the result is inf once exp(|x|) overflows the
// compute type (|x| > 88.72 in f32, f16 and bf16; > 709.78 in f64), even
// where I0 itself would fit, and NaN for ±inf and NaN.
func I0(t *Tensor) (*Tensor, error) { return unary(uI0, t) }

// I1 returns the modified Bessel function of the first kind of order 1
// elementwise (the derivative of I0; torch.special.i1), by ATen's calc_i1
// (see bessel_cephes.go).
func I1(t *Tensor) (*Tensor, error) { return unary(uI1, t) }

// Angle returns the argument of each (real) element: pi for negative
// values, 0 for zero and positive ones (-0.0 too), NaN for NaN
// (torch.angle on a real tensor).
func Angle(t *Tensor) (*Tensor, error) { return unary(uAngle, t) }

// IsPosInf reports, as a bool tensor, which elements are +inf (all false
// for integer and bool tensors).
func IsPosInf(t *Tensor) (*Tensor, error) { return unary(uIsPosInf, t) }

// IsNegInf reports, as a bool tensor, which elements are -inf.
func IsNegInf(t *Tensor) (*Tensor, error) { return unary(uIsNegInf, t) }

// IsReal returns a bool tensor of t's shape (and layout) that is true
// everywhere: tsr has no complex dtypes, so every element of every tensor
// is real (torch.isreal on a real tensor, NaN and inf included).
func IsReal(t *Tensor) (*Tensor, error) {
	out := EmptyPreserve(t, Bool)
	fillRaw(out, 1)
	return out, nil
}
