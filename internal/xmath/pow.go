// Package xmath holds scalar float64 functions that must round as C's libm
// does where Go's math package is less accurate.
package xmath

import (
	"math"
	"math/big"
)

// Pow returns x**y like math.Pow, but rounded as glibc's pow (which CPython's
// float ** and PyTorch's CPU std::pow call): a finite, normal result is
// computed in double-double arithmetic (relative error below 2^-94) and
// rounded once, so it is the correctly rounded value except in cases closer
// to a rounding boundary than that. math.Pow is off by one ulp for about a
// fifth of ordinary arguments (1.1 ** 2.2). Special cases (zeros, infinities,
// NaNs, negative bases with non-integer exponents), overflow and results in
// the subnormal range are math.Pow's, which follows C99's rules.
//
// Algorithm: x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log(m) =
// 2*atanh((m-1)/(m+1)) by its series in double-double; y*log(x) reduced by
// k*ln2 (Cody-Waite with a double-double ln2) and exp of the remainder by
// its Taylor series in double-double.
func Pow(x, y float64) float64 {
	r := math.Pow(x, y)
	if r == 0 || math.IsInf(r, 0) || math.IsNaN(r) || math.Abs(r) < 0x1p-1022 {
		return r
	}
	switch y {
	case 1, 0:
		return r
	case 2:
		return x * x
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) || x == 1 {
		return r
	}
	neg := false
	if x < 0 {
		// A finite result from a negative base means y is an integer.
		x = -x
		neg = math.Mod(y, 2) != 0
	}
	v, nearMidpoint := powDD(x, y)
	if v != 0 && !math.IsInf(v, 0) && y >= 3 && y <= 1100 && y == math.Trunc(y) && nearMidpoint {
		// A positive integer power can be exactly halfway between two
		// doubles (7**19); round the exact value half to even.
		v = powExact(x, int(y))
	}
	if math.IsInf(v, 0) || v == 0 || math.Abs(v) < 0x1p-1022 {
		return r
	}
	if neg {
		return -v
	}
	return v
}

// dd is a double-double: the unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func add(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func mul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p.hi, p.lo)
}

func mulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += a.lo * b
	return quickTwoSum(p.hi, p.lo)
}

// div returns a / b to double-double accuracy (two correction steps).
func div(a, b dd) dd {
	q1 := a.hi / b.hi
	r := add(a, mulF(b, -q1))
	q2 := r.hi / b.hi
	r = add(r, mulF(b, -q2))
	q3 := r.hi / b.hi
	q := quickTwoSum(q1, q2)
	return add(q, dd{q3, 0})
}

// ln2 to 106 bits.
var ln2 = dd{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56}

var (
	atanhInv [24]dd // 1/(2k+1)
	expInv   [28]dd // 1/k!
)

func init() {
	for k := range atanhInv {
		atanhInv[k] = div(dd{1, 0}, dd{float64(2*k + 1), 0})
	}
	expInv[0] = dd{1, 0}
	for k := 1; k < len(expInv); k++ {
		expInv[k] = div(expInv[k-1], dd{float64(k), 0})
	}
}

// powDD returns x**y for finite x > 0 and finite y, rounded once from a
// double-double (it may overflow to ±Inf or underflow), and whether the
// double-double lies within 2^-30 ulp of a midpoint between two doubles.
func powDD(x, y float64) (v float64, nearMidpoint bool) {
	l := logDD(x)
	z := mulF(l, y)
	if z.hi > 710 {
		return math.Inf(1), false
	}
	if z.hi < -746 {
		return 0, false
	}
	h, k := expDD(z)
	u := math.Abs(math.Nextafter(h.hi, math.Inf(1)) - h.hi)
	nearMidpoint = math.Abs(math.Abs(h.lo)-u/2) < u*0x1p-30
	return math.Ldexp(h.hi, int(k)), nearMidpoint
}

// powExact returns x**n for n >= 1 computed exactly with math/big and
// rounded half to even.
func powExact(x float64, n int) float64 {
	prec := uint(53*n + 64)
	r := new(big.Float).SetPrec(prec).SetFloat64(1)
	b := new(big.Float).SetPrec(prec).SetFloat64(x)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			r.Mul(r, b)
		}
		if n > 1 {
			b.Mul(b, b)
		}
	}
	f, _ := r.Float64()
	return f
}

// expDD returns e^z as h·2^k, h a normalised double-double in about
// [0.7, 1.5): z reduced by k·ln2 (k = round(z/ln2)) and the remainder's
// Taylor series summed in double-double.
func expDD(z dd) (dd, float64) {
	k := math.Round(z.hi / ln2.hi)
	rr := add(z, mulF(ln2, -k))
	q := expInv[len(expInv)-1]
	for i := len(expInv) - 2; i >= 0; i-- {
		q = add(expInv[i], mul(rr, q))
	}
	return quickTwoSum(q.hi, q.lo), k
}

// Exp returns e^x rounded as glibc's exp (correctly rounded but for
// results within about 2^-90 relative of a rounding boundary), where Go's
// math.Exp is off by one ulp at times. Special cases, overflow and
// subnormal results are math.Exp's.
func Exp(x float64) float64 {
	r := math.Exp(x)
	if r == 0 || math.IsInf(r, 0) || math.IsNaN(r) || r < 0x1p-1022 || x == 0 {
		return r
	}
	h, k := expDD(dd{x, 0})
	return math.Ldexp(h.hi, int(k))
}
