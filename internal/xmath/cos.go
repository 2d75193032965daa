package xmath

import (
	"math"
	"math/big"
)

// cosMaxArg bounds the arguments Cos evaluates by its series; larger ones
// (and non-finite ones) are math.Cos's.
const cosMaxArg = 64

// Cos returns cos(x) correctly rounded for |x| <= 64. That is glibc's cos
// (which CPython's math.cos and torch's schedulers call) but for about one
// argument in 1000, where glibc is one ulp off; Go's math.Cos is one ulp
// off for about a fifth of arguments (cos(2.243994752564138)), which shows
// in learning-rate schedules built on it. Larger or non-finite arguments
// return math.Cos(x).
//
// Algorithm: the Taylor series Σ (-1)^k x^2k / (2k)! in 320-bit binary
// floating point (math/big), summed until a term is below 2^-330 relative
// to 1, then rounded once to float64. For |x| <= 64 the largest term is
// below 2^92, so over 200 bits of the sum stay exact; that is far beyond
// the distance of any float64 cos value from a rounding boundary seen in
// practice. It is slow (microseconds): for scalar schedule arithmetic,
// not for tensors.
func Cos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > cosMaxArg {
		return math.Cos(x)
	}
	if x == 0 {
		return 1
	}
	const prec = 320
	x2 := new(big.Float).SetPrec(prec).SetFloat64(x)
	x2.Mul(x2, x2)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	tiny := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -330)
	abs := new(big.Float).SetPrec(prec)
	for k := int64(1); k < 1000; k++ {
		term.Mul(term, x2)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64((2*k-1)*(2*k)))
		term.Neg(term)
		sum.Add(sum, term)
		if abs.Abs(term).Cmp(tiny) < 0 {
			break
		}
	}
	r, _ := sum.Float64()
	return r
}
