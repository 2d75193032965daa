package xmath

import "math"

// Log returns the natural logarithm of x correctly rounded (but for
// results within about 2^-90 relative of a rounding boundary). That is
// glibc's log (which CPython's math.log and PyTorch's scalar std::log call)
// but for about one argument in 3000, where glibc is one ulp off; Go's
// math.Log is one ulp off far more often. Zero, negative,
// non-finite and subnormal arguments, and x == 1, are math.Log's.
//
// Algorithm: Pow's logarithm: x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
// log(m) = 2*atanh((m-1)/(m+1)) by its series in double-double, plus e*ln2
// in double-double, rounded once.
func Log(x float64) float64 {
	if !(x >= 0x1p-1022) || math.IsInf(x, 1) || x == 1 {
		return math.Log(x)
	}
	l := logDD(x)
	return l.hi + l.lo
}

// logDD is ln x in double-double for a finite x > 0: x = m * 2^e
// with m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s), s = (m-1)/(m+1)
// (m-1 is exact, Sterbenz) by its series, plus e*ln2.
func logDD(x float64) dd {
	m, e := math.Frexp(x) // x = m * 2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	s := div(dd{m - 1, 0}, twoSum(m, 1))
	s2 := mul(s, s)
	p := atanhInv[len(atanhInv)-1]
	for k := len(atanhInv) - 2; k >= 0; k-- {
		p = add(atanhInv[k], mul(s2, p))
	}
	return add(mulF(ln2, float64(e)), mulF(mul(s, p), 2))
}
