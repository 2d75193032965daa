package tensor

import "math"

// More of torch.special (PyTorch 1.13): erfc, ndtr, entr, the Hurwitz zeta
// function and polygamma(n, x) for every n. Integer and bool inputs give
// the default float dtype; f16/bf16 compute in f32 and round once.

var (
	uErfc = &unaryDef{name: "erfc", f: math.Erfc, f32: func(x float32) float32 { return float32(math.Erfc(float64(x))) }}
	// ATen's calc_ndtr: (1 + erf(x / sqrt 2)) / 2 (so ndtr(-10) is 0, not
	// erfc's 7.6e-24), in the input's float type
	uNdtr = &unaryDef{name: "special_ndtr", f: func(x float64) float64 {
		return (1 + math.Erf(math.Sqrt2/2*x)) * 0.5
	}, f32: func(x float32) float32 {
		z := float32(math.Sqrt2/2) * x
		return (1 + float32(math.Erf(float64(z)))) * 0.5
	}}
	// ATen's entr kernel: -x log x for x > 0, 0 at 0, -inf below 0, NaN
	// for NaN
	uEntr = &unaryDef{name: "special_entr", f: entr64, f32: func(x float32) float32 {
		if x > 0 {
			return -x * float32(math.Log(float64(x)))
		}
		return float32(entr64(float64(x)))
	}}
)

func entr64(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 0:
		return -x * math.Log(x)
	case x == 0:
		return 0
	}
	return math.Inf(-1)
}

// Erfc returns the complementary error function 1 - erf(x) (torch.erfc),
// computed directly (no cancellation for large x).
func Erfc(t *Tensor) (*Tensor, error) { return unary(uErfc, t) }

// Ndtr returns the standard normal CDF (torch.special.ndtr) as ATen's
// calc_ndtr: (1 + erf(x / sqrt 2)) / 2.
func Ndtr(t *Tensor) (*Tensor, error) { return unary(uNdtr, t) }

// Entr returns the elementwise entropy -x log x (torch.special.entr): 0 at
// 0, -inf for x < 0.
func Entr(t *Tensor) (*Tensor, error) { return unary(uEntr, t) }

// zetaA are the Euler-Maclaurin coefficients of Cephes' zeta.c (Stephen
// L. Moshier), as in ATen's zeta (aten/src/ATen/native/Math.h).
var zetaA = [...]float64{
	12.0, -720.0, 30240.0, -1209600.0, 47900160.0,
	-1.8924375803183791606e9, 7.47242496e10,
	-2.950130727918164224e12, 1.1646782814350067249e14,
	-4.5979787224074726105e15, 1.8152105401943546773e17,
	-7.1661652561756670113e18,
}

// zeta64 is the Hurwitz zeta function sum_k (k + q)^-x, ATen's zeta
// (Cephes zeta.c): inf at x == 1, NaN for x < 1, inf at the poles q = 0,
// -1, ..., NaN for q < 0 and x not an integer; Euler-Maclaurin summation.
func zeta64(x, q float64) float64 {
	const machep = 1.11022302462515654042e-16
	if x == 1 {
		return math.Inf(1)
	}
	if x < 1 {
		return math.NaN()
	}
	if q <= 0 {
		if q == math.Floor(q) {
			return math.Inf(1)
		}
		if x != math.Floor(x) {
			return math.NaN()
		}
	}
	s := math.Pow(q, -x)
	a := q
	i := 0
	b := 0.0
	for i < 9 || a <= 9 {
		i++
		a++
		b = math.Pow(a, -x)
		s += b
		if math.Abs(b/s) < machep {
			return s
		}
	}
	w := a
	s += b * w / (x - 1)
	s -= 0.5 * b
	a = 1
	k := 0.0
	for i := 0; i < 12; i++ {
		a *= x + k
		b /= w
		t := a * b / zetaA[i]
		s += t
		if math.Abs(t/s) < machep {
			return s
		}
		k++
		a *= x + k
		b /= w
		k++
	}
	return s
}

// floatBinary applies f elementwise to a and b broadcast together, in
// float64, giving their result dtype (the default float dtype for integer
// and bool inputs) rounded once.
func floatBinary(a, b *Tensor, f func(x, y float64) float64) (*Tensor, error) {
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	rt := ResultType(a, b)
	if !rt.IsFloat() {
		rt = DefaultFloat
	}
	ae, err := a.Expand(shape...)
	if err != nil {
		return nil, err
	}
	be, err := b.Expand(shape...)
	if err != nil {
		return nil, err
	}
	av, bv := ae.ToFloat64s(), be.ToFloat64s()
	out := make([]float64, len(av))
	for i := range out {
		out[i] = f(av[i], bv[i])
	}
	return FromFloat64s(out, shape, rt)
}

// Zeta returns the Hurwitz zeta function zeta(x, q) (torch.special.zeta),
// broadcast, computed in float64 as ATen's CPU kernel (its accumulate
// type) and rounded to the result dtype.
func Zeta(x, q *Tensor) (*Tensor, error) { return floatBinary(x, q, zeta64) }

// polygamma64 is ATen's calc_polygamma for n >= 2:
// (-1)^(n+1) n! zeta(n + 1, x).
func polygamma64(n int, x float64) float64 {
	sign := -1.0
	if n%2 == 1 {
		sign = 1
	}
	lg, _ := math.Lgamma(float64(n) + 1)
	return sign * math.Exp(lg) * zeta64(float64(n+1), x)
}

// Polygamma returns the n-th derivative of digamma (torch.polygamma): n
// = 0 is Digamma, 1 Trigamma, larger n ATen's calc_polygamma
// (-1)^(n+1) n! zeta(n + 1, x). A negative n is a RuntimeError.
func Polygamma(n int, t *Tensor) (*Tensor, error) {
	switch {
	case n < 0:
		return nil, errorf(RuntimeError, "polygamma(n, x) does not support negative n.")
	case n == 0:
		return Digamma(t)
	case n == 1:
		return Trigamma(t)
	}
	return unary(&unaryDef{name: "polygamma", f: func(x float64) float64 { return polygamma64(n, x) }}, t)
}
