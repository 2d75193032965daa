package tensor

import "math"

// i0, angle (real inputs), isposinf, isneginf and isreal (PyTorch 1.13).
// Integer and bool inputs of i0 and angle give the default float dtype;
// f16/bf16 compute in f32 and round once.

var (
	uI0 = &unaryDef{name: "i0", f: besselI0, f32: func(x float32) float32 {
		// ATen's calc_i0 in float multiplies by exp(|x|), which overflows
		// float32 beyond ln(MaxFloat32)
		if ax := math.Abs(float64(x)); ax > maxExpArg32 && !math.IsInf(ax, 0) {
			return float32(math.Inf(1))
		}
		return float32(besselI0(float64(x)))
	}}
	uI1 = &unaryDef{name: "special_i1", f: besselI1}
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

// maxExpArg32 and maxExpArg64 are the largest x whose exp(x) is finite
// in float32 and float64.
var (
	maxExpArg32 = float64(float32(math.Log(math.MaxFloat32)))
	maxExpArg64 = math.Log(math.MaxFloat64)
)

// I0 returns the modified Bessel function of the first kind of order 0,
// I0(x) = sum_k (x²/4)^k / (k!)², elementwise (torch.i0,
// torch.special.i0). As ATen's calc_i0 (Cephes' Chebyshev expansion times
// exp(|x|)) the result is inf once exp(|x|) overflows the compute type
// (|x| > 88.72 in f32, f16 and bf16; > 709.78 in f64), even where I0
// itself would fit, and NaN for ±inf and NaN. Algorithm: the power series
// in float64 (every term positive, so no cancellation; within a few ulp
// of the Chebyshev expansion), rounded once to the result dtype.
func I0(t *Tensor) (*Tensor, error) { return unary(uI0, t) }

// I1 returns the modified Bessel function of the first kind of order 1,
// I1(x) = (x/2) sum_k (x²/4)^k / (k! (k+1)!), elementwise (the derivative
// of I0; torch.special.i1), by the same series as I0.
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

// besselSeries sums (x/2)^order * sum_k (x²/4)^k / (k! (k+order)!) for
// order 0 or 1; +-inf once the value overflows float64.
func besselSeries(x float64, order int) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN() // Cephes: exp(inf) * 0
	}
	ax := math.Abs(x)
	if ax > maxExpArg64 { // exp(|x|) overflows
		if order == 1 && x < 0 {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	q := ax * ax / 4
	term := 1.0
	if order == 1 {
		term = ax / 2
	}
	sum := term
	for k := 1; k < 2000; k++ {
		term *= q / (float64(k) * float64(k+order))
		sum += term
		if term <= sum*1e-17 {
			break
		}
	}
	if order == 1 && x < 0 {
		return -sum
	}
	return sum
}

func besselI0(x float64) float64 { return besselSeries(x, 0) }
func besselI1(x float64) float64 { return besselSeries(x, 1) }
