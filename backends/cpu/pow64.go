package cpu

import "math"

//go:generate go run ./internal/powtab -out pow64_tables.go

// Pow64 returns x**y within about 0.52 ulp of the exact value (the last
// rounding of a result computed with a relative error below 2^-60), with C
// pow's special cases (those of math.Pow: x**±0 = 1 and 1**y = 1 even for
// NaN, finite x < 0 with a non-integer y is NaN, (±0)**y and (±Inf)**y,
// ...). A finite negative x with an integer y gives (-x)**y with the sign
// of x for odd y. Results in the subnormal range round twice (at most 1
// ulp). math.Pow, by contrast, raises to the integer part of y by
// repeated squaring and can be thousands of ulp off for large |y|
// (1.0000001**1e9), ~30 ulp for y = 1.5.
//
// Algorithm (the table-driven design of Tang and of Szabolcs Nagy's pow
// for ARM's optimized-routines / musl, with our own tables and
// polynomials): log(x) = k ln2 + log(c) + log1p(z/c - 1), z = x·2^-k in
// [0x1.6ap-1, 0x1.6ap0), 1/c from a 128-entry table (pow64_tables.go)
// with log(c) in double-double; z/c - 1 is exact as a double-double (an
// FMA), log1p its Taylor series to r^10 with the r^2 term in
// double-double, so log(x) = hi + lo with a relative error below 2^-66;
// y·log(x) is formed in double-double and exp of it as 2^(k/128)·exp(r)
// with 2^(j/128) in double-double (hi and relative tail) and a degree-6
// Taylor polynomial for |r| <= ln2/256. Each product that feeds a sum is
// rounded (float64 conversions), so a compiler allowed to fuse x*y + z
// (GOAMD64=v3) keeps these results, which the AVX-512 kernel
// (powF64AVX512) reproduces bit for bit.
func Pow64(x, y float64) float64 {
	ix := math.Float64bits(x)
	iy := math.Float64bits(y)
	// fast path: x positive normal finite, y finite nonzero, x != 1
	if ix-0x0010000000000000 >= 0x7ff0000000000000-0x0010000000000000 || iy<<1-1 >= 0x7ff<<53-1 || x == 1 {
		return powSlow(x, y)
	}
	return powCore(ix, y)
}

// powSlow is Pow64 off the fast path: special operands, subnormal or
// negative x.
func powSlow(x, y float64) float64 {
	if y == 0 || y != y || math.IsInf(y, 0) || x != x || x == 0 || math.IsInf(x, 0) || x == 1 {
		return math.Pow(x, y) // exact special values
	}
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		r := Pow64(-x, y)
		if math.Abs(y) < 1<<53 && int64(y)&1 != 0 {
			r = -r
		}
		return r
	}
	// positive subnormal x: x·2^52 is normal; its exponent is fixed below
	return powCore(math.Float64bits(x*(1<<52))-52<<52, y)
}

// Constants of powCore's exp.
const (
	powShift    = 0x1.8p52                  // rounds to an integer when added
	powInvLn2N  = 0x1.71547652b82fep0 * 128 // 128/ln2
	powNegLn2HN = -powLn2Hi / 128
	powNegLn2LN = -powLn2Lo / 128
)

// powCore returns x**y for the bits ix of a positive x (the exponent field
// may be below 1 for a scaled subnormal) and a finite nonzero y.
func powCore(ix uint64, y float64) float64 {
	lhi, llo := powLog(ix)
	// y·log(x) = ehi + elo
	ehi := float64(y * lhi)
	return powExp(ehi, math.FMA(y, lhi, -ehi)+float64(y*llo))
}

// powLog returns log(x) = lhi + llo (relative error below 2^-66) for the
// bits ix of a positive x (see powCore).
func powLog(ix uint64) (lhi, llo float64) {
	const off = 0x3fe6a00000000000
	tmp := ix - off
	i := (tmp >> 45) % 128
	k := int64(tmp) >> 52
	z := math.Float64frombits(ix - tmp&(0xfff<<52))
	e := &powLogTab[i]
	invc, logc, logct := e[0], e[1], e[2]
	kd := float64(k)
	p := float64(z * invc)
	plo := math.FMA(z, invc, -p)      // z·invc = p + plo exactly
	r := p - 1                        // exact: p is within 2^-7 of 1
	t1 := float64(kd*powLn2Hi) + logc // exact (logc is a multiple of 2^-34)
	t2 := t1 + r
	bv := t2 - t1
	lo2 := (t1 - (t2 - bv)) + (r - bv) // TwoSum error of t1 + r
	lo1 := float64(kd*powLn2Lo) + logct
	ar := -0.5 * r
	ar2 := float64(r * ar)
	lo3 := math.FMA(ar, r, -ar2) // -r²/2 = ar2 + lo3 exactly
	hi := t2 + ar2
	lo4 := t2 - hi + ar2 // |t2| >= |ar2|
	r2 := float64(r * r)
	lo5 := float64(plo * (1 - r + r2)) // log1p(r + plo) - log1p(r) to O(plo·r³)
	ar3 := float64(r * ar2)            // -r³/2
	// log1p(r) - r + r²/2 = ar3·(-2/3 + r/2 - 2r²/5 + r³/3 - 2r⁴/7 + r⁵/4 - 2r⁶/9 + r⁷/5)
	q := float64(ar3 * (-2.0/3 + float64(r*0.5) + float64(r2*(-2.0/5+float64(r*(1.0/3)))) +
		float64(float64(r2*r2)*(-2.0/7+float64(r*0.25)+float64(r2*(-2.0/9+float64(r*0.2)))))))
	lo := lo1 + lo2 + lo3 + lo4 + lo5 + q
	lhi = hi + lo
	return lhi, hi - lhi + lo
}

// powExp returns exp(ehi + elo) for |elo| <= ulp(ehi) (powCore's
// exponent), +Inf or 0 beyond the float64 range.
func powExp(ehi, elo float64) float64 {
	if !(math.Abs(ehi) < 704) { // ehi is ±Inf when y·lhi overflows, never NaN (lhi != 0)
		if ehi > 710 {
			return math.Inf(1)
		}
		if ehi < -746 {
			return 0
		}
		return powExpScaled(ehi, elo)
	}
	kf := float64(ehi*powInvLn2N) + powShift
	ki := math.Float64bits(kf)
	kf -= powShift
	rr := ehi + float64(kf*powNegLn2HN) // exact
	rr += float64(kf * powNegLn2LN)
	rr += elo
	t := &powExpTab[ki%128]
	sbits := math.Float64bits(t[0]) + ki>>7<<52 // adds floor(kf/128) to the exponent (mod 2^64)
	rr2 := float64(rr * rr)
	tmpe := t[1] + rr + float64(rr2*(0.5+float64(rr*(1.0/6)))) + float64(float64(rr2*rr2)*(1.0/24+float64(rr*(1.0/120))+float64(rr2*(1.0/720))))
	scale := math.Float64frombits(sbits)
	return scale + float64(scale*tmpe)
}

// powExpScaled is powCore's exp for 704 <= |ehi| <= 746: the result is
// formed 2^±1000 away from the overflow or subnormal range and scaled back
// (exact when it overflows to Inf or stays normal; a subnormal result
// rounds twice).
func powExpScaled(ehi, elo float64) float64 {
	kf := float64(ehi*powInvLn2N) + powShift
	ki := math.Float64bits(kf)
	kf -= powShift
	rr := ehi + float64(kf*powNegLn2HN)
	rr += float64(kf * powNegLn2LN)
	rr += elo
	t := &powExpTab[ki%128]
	sbits := math.Float64bits(t[0])
	k := int64(kf) >> 7 // floor(kf/128)
	rr2 := float64(rr * rr)
	tmpe := t[1] + rr + float64(rr2*(0.5+float64(rr*(1.0/6)))) + float64(float64(rr2*rr2)*(1.0/24+float64(rr*(1.0/120))+float64(rr2*(1.0/720))))
	if k > 0 {
		scale := math.Float64frombits(sbits + uint64(k-1000)<<52)
		return (scale + float64(scale*tmpe)) * 0x1p1000
	}
	scale := math.Float64frombits(sbits + uint64(k+1000)<<52)
	return (scale + float64(scale*tmpe)) * 0x1p-1000
}
