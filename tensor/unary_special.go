package tensor

import "math"

// Special functions after PyTorch 1.13: sgn (sign, for real tensors),
// erfinv, lgamma, digamma, trigamma (polygamma(1, x), digamma's
// derivative) and mish (and its derivative). Integer and bool inputs give
// the default float dtype (sgn keeps the dtype, as sign); f16/bf16 compute
// in f32 and round once. Digamma and trigamma follow ATen's calc_digamma /
// calc_trigamma (Math.h) step by step, so the poles and the reflection
// give PyTorch's values (digamma(±0) = ∓inf, NaN at negative integers).

var (
	uErfinv   = &unaryDef{name: "erfinv", f: erfinv64, f32: erfinv32}
	uLgamma   = &unaryDef{name: "lgamma", f: lgamma64}
	uDigamma  = &unaryDef{name: "digamma", f: digamma64, f32: digamma32}
	uTrigamma = &unaryDef{name: "polygamma", f: trigamma64, f32: trigamma32}
	uMish     = &unaryDef{name: "mish", f: func(x float64) float64 {
		return x * math.Tanh(math.Log1p(math.Exp(x)))
	}, f32: func(x float32) float32 {
		// ATen's f32 kernel: x * tanh(log1p(exp(x))), each step in float
		e := float32(math.Exp(float64(x)))
		l := float32(math.Log1p(float64(e)))
		return x * float32(math.Tanh(float64(l)))
	}}
	uMishGrad = &unaryDef{name: "mish_backward", f: func(x float64) float64 {
		s := 1 / (1 + math.Exp(-x))
		t := math.Tanh(math.Log1p(math.Exp(x)))
		return t + x*s*(1-t*t)
	}, f32: func(x float32) float32 {
		s := 1 / (1 + float32(math.Exp(float64(-x))))
		t := float32(math.Tanh(float64(float32(math.Log1p(float64(float32(math.Exp(float64(x)))))))))
		return t + x*s*(1-t*t)
	}}
)

// Sgn returns the sign of t's elements (torch.sgn, for real tensors the
// same as torch.sign: -1, 0 or 1 in t's dtype; 0 for ±0 and NaN).
func Sgn(t *Tensor) (*Tensor, error) { return unary(uSign, t) }

// Erfinv returns the inverse error function (torch.erfinv): ±inf at ±1,
// NaN outside [-1, 1], ±0 at ±0.
func Erfinv(t *Tensor) (*Tensor, error) { return unary(uErfinv, t) }

// Lgamma returns log|Γ(x)| (torch.lgamma): +inf at 0, the negative
// integers and ±inf; 0 at 1 and 2.
func Lgamma(t *Tensor) (*Tensor, error) { return unary(uLgamma, t) }

// Digamma returns ψ(x) = d/dx lgamma(x) (torch.digamma): -inf at +0, +inf
// at -0, NaN at the negative integers and -inf.
func Digamma(t *Tensor) (*Tensor, error) { return unary(uDigamma, t) }

// Trigamma returns ψ'(x) = polygamma(1, x), digamma's derivative, as
// ATen's calc_trigamma.
func Trigamma(t *Tensor) (*Tensor, error) { return unary(uTrigamma, t) }

// Mish returns x * tanh(softplus(x)) (torch.nn.functional.mish) for float
// tensors (f16/bf16 computed in f32).
func Mish(t *Tensor) (*Tensor, error) { return unary(uMish, t) }

// MishGrad returns d mish(x)/dx = tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)²)
// with sp = softplus(x) (ATen's mish_backward), in x's float dtype.
func MishGrad(t *Tensor) (*Tensor, error) { return unary(uMishGrad, t) }

func lgamma64(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1) // C lgamma(-inf) = +inf (Go's Lgamma gives -inf)
	}
	v, _ := math.Lgamma(x)
	return v
}

// digamma64 is ATen's calc_digamma(double).
func digamma64(x float64) float64 {
	const psi10 = 2.25175258906672110764
	if x == 0 {
		return math.Copysign(math.Inf(1), -x)
	}
	if x < 0 {
		if x == math.Trunc(x) {
			return math.NaN()
		}
		_, r := math.Modf(x)
		return digamma64(1-x) - math.Pi/math.Tan(math.Pi*r)
	}
	result := 0.0
	for x < 10 {
		result -= 1 / x
		x++
	}
	if x == 10 {
		return result + psi10
	}
	a := [...]float64{
		8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
		-4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
		8.33333333333333333333e-2,
	}
	y := 0.0
	if x < 1e17 {
		z := 1 / (x * x)
		p := 0.0
		for _, c := range a {
			p = p*z + c
		}
		y = z * p
	}
	return result + math.Log(x) - 0.5/x - y
}

// digamma32 is ATen's calc_digamma(float), in float arithmetic.
func digamma32(x float32) float32 {
	const psi10 = float32(2.25175258906672110764)
	if x == 0 {
		return float32(math.Copysign(math.Inf(1), float64(-x)))
	}
	if x < 0 {
		if float64(x) == math.Trunc(float64(x)) {
			return float32(math.NaN())
		}
		_, r := math.Modf(float64(x))
		pi := float32(math.Pi)
		return digamma32(1-x) - pi/float32(math.Tan(float64(pi*float32(r))))
	}
	var result float32
	for x < 10 {
		result -= 1 / x
		x++
	}
	if x == 10 {
		return result + psi10
	}
	a := [...]float32{
		8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
		-4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
		8.33333333333333333333e-2,
	}
	var y float32
	if x < 1e17 {
		z := 1 / (x * x)
		var p float32
		for _, c := range a {
			p = p*z + c
		}
		y = z * p
	}
	return result + float32(math.Log(float64(x))) - 0.5/x - y
}

// trigamma64 is ATen's calc_trigamma(double).
func trigamma64(x float64) float64 {
	sign, result := 1.0, 0.0
	if x < 0.5 {
		sign = -1
		s := math.Sin(math.Pi * x)
		result -= math.Pi * math.Pi / (s * s)
		x = 1 - x
	}
	for i := 0; i < 6; i++ {
		result += 1 / (x * x)
		x++
	}
	ixx := 1 / (x * x)
	result += (1 + 1/(2*x) + ixx*(1./6-ixx*(1./30-ixx*(1./42)))) / x
	return sign * result
}

// trigamma32 is ATen's calc_trigamma(float).
func trigamma32(x float32) float32 {
	sign, result := float32(1), float32(0)
	pi := float32(math.Pi)
	if x < 0.5 {
		sign = -1
		s := float32(math.Sin(float64(pi * x)))
		result -= pi * pi / (s * s)
		x = 1 - x
	}
	for i := 0; i < 6; i++ {
		result += 1 / (x * x)
		x++
	}
	ixx := 1 / (x * x)
	result += (1 + 1/(2*x) + ixx*(float32(1./6)-ixx*(float32(1./30)-ixx*float32(1./42)))) / x
	return sign * result
}

// erfinv64 is ATen's calc_erfinv(double): a rational approximation
// refined by two Newton steps (Go's math.Erfinv differs in the tails).
func erfinv64(y float64) float64 {
	a := [4]float64{0.886226899, -1.645349621, 0.914624893, -0.140543331}
	b := [4]float64{-2.118377725, 1.442710462, -0.329097515, 0.012229801}
	c := [4]float64{-1.970840454, -1.624906493, 3.429567803, 1.641345311}
	d := [2]float64{3.543889200, 1.637067800}
	ya := math.Abs(y)
	if ya > 1 {
		return math.NaN()
	}
	if ya == 1 {
		return math.Copysign(math.Inf(1), y)
	}
	var x float64
	if ya <= 0.7 {
		z := y * y
		num := ((a[3]*z+a[2])*z+a[1])*z + a[0]
		dem := (((b[3]*z+b[2])*z+b[1])*z+b[0])*z + 1
		x = y * num / dem
	} else {
		z := math.Sqrt(-math.Log((1 - ya) / 2))
		num := ((c[3]*z+c[2])*z+c[1])*z + c[0]
		dem := (d[1]*z+d[0])*z + 1
		x = math.Copysign(num, y) / dem
	}
	k := 2 / math.Sqrt(math.Pi)
	x = x - (math.Erf(x)-y)/(k*math.Exp(-x*x))
	x = x - (math.Erf(x)-y)/(k*math.Exp(-x*x))
	return x
}

// erfinv32 is ATen's calc_erfinv(float), every step rounded to float32.
func erfinv32(y float32) float32 {
	a := [4]float32{0.886226899, -1.645349621, 0.914624893, -0.140543331}
	b := [4]float32{-2.118377725, 1.442710462, -0.329097515, 0.012229801}
	c := [4]float32{-1.970840454, -1.624906493, 3.429567803, 1.641345311}
	d := [2]float32{3.543889200, 1.637067800}
	f := func(v float64) float32 { return float32(v) }
	ya := f(math.Abs(float64(y)))
	if ya > 1 {
		return float32(math.NaN())
	}
	if ya == 1 {
		return f(math.Copysign(math.Inf(1), float64(y)))
	}
	var x float32
	if ya <= 0.7 {
		z := y * y
		num := float32(float32(float32(float32(float32(a[3]*z)+a[2])*z)+a[1])*z) + a[0]
		dem := float32(float32(float32(float32(float32(float32(float32(b[3]*z)+b[2])*z)+b[1])*z)+b[0])*z) + 1
		x = float32(y*num) / dem
	} else {
		z := f(math.Sqrt(float64(-f(math.Log(float64((1 - ya) / 2))))))
		num := float32(float32(float32(float32(float32(c[3]*z)+c[2])*z)+c[1])*z) + c[0]
		dem := float32(float32(float32(d[1]*z)+d[0])*z) + 1
		x = f(math.Copysign(float64(num), float64(y))) / dem
	}
	k := float32(2) / float32(math.Sqrt(math.Pi))
	for i := 0; i < 2; i++ {
		x = x - float32(f(math.Erf(float64(x)))-y)/float32(k*f(math.Exp(float64(-x*x))))
	}
	return x
}
