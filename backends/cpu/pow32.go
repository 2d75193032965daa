package cpu

import "math"

// Pow32 returns x**y for float32 operands within 1 ulp of the correctly
// rounded power (equal to it but for results within about 2^-40 of a
// rounding boundary), with C pow's special cases. The fast path (x
// positive and normal, y finite and nonzero, result in the normal range)
// computes in float64: log2(x) = k + log2(c) + log2(1 + r) from a 64-entry
// table (pow32Log: the float64 nearest 1/c for the midpoint c of each
// subinterval of [0x1.68p-1, 0x1.68p0), and log2 of its reciprocal; c = 1
// exactly on the two subintervals next to 1, so that log2(x) has a small
// relative error however close x is to 1 and a huge y stays accurate),
// r = z/c - 1 exact to 2^-53 relative (an FMA) and a degree-6 Taylor
// polynomial (|r| < 2^-6), then 2^t = 2^(j/64)·2^(t - j/64) from a
// table and a degree-5 Taylor polynomial, rounded once to float32
// (relative error of the float64 result below 2^-44). Everything else
// (zero, negative, subnormal, infinite or NaN x; y zero, infinite or NaN;
// overflowing or subnormal results) is float32(Pow64(x, y)).
func Pow32(x, y float32) float32 {
	ix := math.Float32bits(x)
	iy := math.Float32bits(y)
	if ix-0x00800000 >= 0x7f800000-0x00800000 || iy<<1-1 >= 0xff<<24-1 || x == 1 {
		return float32(Pow64(float64(x), float64(y)))
	}
	const off = 0x3f340000 // 0x1.68p-1: 1.0 starts subinterval 38
	tmp := ix - off
	i := (tmp >> (23 - 6)) % 64
	k := int32(tmp) >> 23
	z := float64(math.Float32frombits(ix - tmp&0xff800000))
	e := &pow32Log[i]
	p0 := z * e[0]
	r := (p0 - 1) + math.FMA(z, e[0], -p0) // z/c - 1, |r| < 2^-6, relative error 2^-53
	r2 := r * r
	// log(1+r) = r - r²/2 + r³/3 - r⁴/4 + r⁵/5 - r⁶/6
	lr := r - r2*0.5 + r2*r*(1.0/3-r*0.25+r2*(0.2-r*(1.0/6)))
	t := float64(y) * (float64(k) + e[1] + lr*(1/math.Ln2))
	if !(t > -126 && t < 128) {
		return float32(Pow64(float64(x), float64(y)))
	}
	// 2^t: t = (m·64 + j)/64 + u, |u| <= 1/128
	kd := t*64 + powShift // rounds t·64 to an integer, held in the low bits
	ki := math.Float64bits(kd)
	kd -= powShift
	u := (t - kd/64) * math.Ln2 // exact subtraction; |u| <= ln2/128
	s := math.Float64frombits(math.Float64bits(pow32Exp[ki%64]) + ki>>6<<52)
	u2 := u * u
	q := 1 + u + u2*(0.5+u*(1.0/6)) + u2*u2*(1.0/24+u*(1.0/120))
	return float32(s * q)
}

// pow32Log[i] = {1/c, log2(c)} for subinterval i of [0x1.68p-1, 0x1.68p0)
// (bit patterns 0x3f340000 + i<<17), c its midpoint (1 for i = 37, 38,
// the subintervals next to 1); pow32Exp[j] = 2^(j/64). The float64 math
// functions are within 1 ulp, far below Pow32's needs.
var pow32Log, pow32Exp = func() (l [64][2]float64, e [64]float64) {
	for i := range l {
		lo := float64(math.Float32frombits(0x3f340000 + uint32(i)<<17))
		hi := float64(math.Float32frombits(0x3f340000 + uint32(i+1)<<17))
		l[i][0] = 2 / (lo + hi)
		if i == 37 || i == 38 {
			l[i][0] = 1
		}
		l[i][1] = -math.Log2(l[i][0]) // log2 of the table's own 1/c
	}
	for j := range e {
		e[j] = math.Exp2(float64(j) / 64)
	}
	return l, e
}()
