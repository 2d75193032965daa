package main

// Vector erf and exact (erf) gelu for f32, AVX-512.
//
// erf is evaluated in float64 and rounded once to float32, so the f32
// result is the correctly rounded erf except when the exact value lies
// within about 2^-50 (relative) of a float32 rounding boundary; the tests
// (TestErfGeluF32) measure it against math.Erf. The argument a = |x| in
// [0, 4) is split into 16 intervals of width 1/4; on each, erf is its
// Taylor polynomial of degree erfDeg about the interval's centre c
// (arguments below erfTiny use the series of erf at 0, keeping full
// relative accuracy):
//
//	erf(c + t) = erf(c) + 2/√π·e^(-c²)·Σ_{n≥1} (-1)^(n-1)·H_{n-1}(c)·t^n/n!
//
// (H the physicists' Hermite polynomials), |t| <= 1/8. The coefficients of all 16 intervals for one power of t are one
// 128-byte row of erfTable; VPERMT2PD picks each lane's coefficient by its
// interval index, then Horner's scheme with FMA. a >= 4 gives 1 (erfc(4)
// < 2^-25: erf rounds to 1 in float32), NaN stays NaN, and the sign of x
// is copied onto the result (erf is odd; erf(-0) = -0).

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// erfDeg is the degree of the per-interval Taylor polynomials.
const erfDeg = 12

// erfCoeffs returns coef[k][i], the coefficient of t^k on interval i.
func erfCoeffs() [erfDeg + 1][16]float64 {
	var c [erfDeg + 1][16]float64
	for i := 0; i < 16; i++ {
		ctr := erfCentre(i)
		c[0][i] = math.Erf(ctr)
		// H_0 = 1, H_1 = 2x, H_{n+1} = 2x·H_n - 2n·H_{n-1}
		g := 2 / math.Sqrt(math.Pi) * math.Exp(-ctr*ctr)
		hPrev, h := 0.0, 1.0 // H_{-1} (unused), H_0
		fact := 1.0
		for n := 1; n <= erfDeg; n++ {
			fact *= float64(n)
			sign := 1.0
			if (n-1)%2 == 1 {
				sign = -1
			}
			c[n][i] = sign * g * h / fact // uses H_{n-1}
			hPrev, h = h, 2*ctr*h-2*float64(n-1)*hPrev
		}
	}
	return c
}

// erfCentre is the expansion point of interval i ([i/4, (i+1)/4)).
func erfCentre(i int) float64 {
	return float64(i)/4 + 0.125
}

var erfTableMem *Mem

// erfTable emits the coefficient table once: row k (128 bytes) holds the
// t^k coefficients of the 16 intervals; row erfDeg+1 the centres.
func erfTable() Mem {
	if erfTableMem == nil {
		m := GLOBL("erfTableF64", RODATA|NOPTR)
		c := erfCoeffs()
		for k := 0; k <= erfDeg; k++ {
			for i := 0; i < 16; i++ {
				DATA(128*k+8*i, U64(math.Float64bits(c[k][i])))
			}
		}
		for i := 0; i < 16; i++ {
			DATA(128*(erfDeg+1)+8*i, U64(math.Float64bits(erfCentre(i))))
		}
		erfTableMem = &m
	}
	return *erfTableMem
}

// erfConsts are the registers erfAbsF64 needs.
type erfConsts struct {
	four, one reg.VecVirtual // f64 splats
	tiny      reg.VecVirtual // erfTiny
	series    []reg.VecVirtual
	tab       Mem
}

// erfTiny bounds the arguments evaluated by the series
// erf(a) = 2/√π·(a - a³/3 + a⁵/10) (relative truncation error below
// 2^-60): near 0 the Taylor piece about 1/8 would lose relative accuracy.
const erfTiny = 1.0 / 1024

func newErfConsts() erfConsts {
	t := newVT(true, false)
	k := 2 / math.Sqrt(math.Pi)
	c := erfConsts{four: constVec(t, 4), one: constVec(t, 1), tiny: constVec(t, erfTiny), tab: erfTable()}
	for _, v := range []float64{k / 10, -k / 3, k} {
		c.series = append(c.series, constVec(t, v))
	}
	return c
}

// erfAbsF64 returns erf(a) for 8 f64 lanes a >= 0 (or NaN).
func erfAbsF64(c erfConsts, a reg.VecVirtual) reg.VecVirtual {
	big := K()
	VCMPPD(Imm(cmpGE), c.four, a, big) // a >= 4 (false for NaN)
	idx := ZMM()
	VMULPD(c.four, a, idx) // 4a: interval index (any for a >= 4, NaN)
	VCVTTPD2QQ(idx, idx)
	tv := ZMM()
	VMOVUPD(c.tab.Offset(128*(erfDeg+1)), tv)
	VPERMT2PD(c.tab.Offset(128*(erfDeg+1)+64), idx, tv) // centre
	VSUBPD(tv, a, tv)                                   // t = a - c
	p := ZMM()
	VMOVUPD(c.tab.Offset(128*erfDeg), p)
	VPERMT2PD(c.tab.Offset(128*erfDeg+64), idx, p)
	for k := erfDeg - 1; k >= 0; k-- {
		ck := ZMM()
		VMOVUPD(c.tab.Offset(128*k), ck)
		VPERMT2PD(c.tab.Offset(128*k+64), idx, ck)
		VFMADD213PD(ck, tv, p) // p = p·t + c_k
	}
	tiny := K()
	VCMPPD(Imm(cmpLT), c.tiny, a, tiny) // a < erfTiny (false for NaN)
	a2 := ZMM()
	VMULPD(a, a, a2)
	q := poly(newVT(true, false), a2, c.series)
	VMULPD(a, q, tiny, p)
	VMOVAPD(c.one, big, p)
	return p
}

// erfF32Body returns erf(a) for 16 f32 lanes a (any sign), through
// erfAbsF64 on each half.
func erfF32Body(c erfConsts, abs reg.VecVirtual, a reg.VecVirtual) reg.VecVirtual {
	m := ZMM()
	VANDPS(abs, a, m) // |a|
	lo, hi := ZMM(), ZMM()
	VCVTPS2PD(m.AsY(), lo)
	VEXTRACTF32X8(Imm(1), m, hi.AsY())
	VCVTPS2PD(hi.AsY(), hi)
	el := erfAbsF64(c, lo)
	eh := erfAbsF64(c, hi)
	r := ZMM()
	VCVTPD2PS(el, r.AsY())
	h := ZMM()
	VCVTPD2PS(eh, h.AsY())
	VINSERTF32X8(Imm(1), h.AsY(), r, r)
	sgn := ZMM()
	VANDNPS(a, abs, sgn) // sign bit of a
	VORPS(sgn, r, r)
	return r
}

// erfKernels emits erfF32AVX512 and geluF32AVX512.
func erfKernels() {
	t := newVT(false, false)
	mathUnary(t, "erf", "erf(x[i]) (float64 Taylor pieces, rounded once)", func() func(x reg.VecVirtual) reg.VecVirtual {
		abs := constBits(t, absMask(t))
		c := newErfConsts()
		return func(x reg.VecVirtual) reg.VecVirtual { return erfF32Body(c, abs, x) }
	})
	// gelu(x) = (x·0.5)·(1 + erf(x·√½)), every step rounded to float32 as
	// PyTorch's scalar kernel
	mathUnary(t, "gelu", "x[i]·0.5·(1 + erf(x[i]·√½)), each step in float32", func() func(x reg.VecVirtual) reg.VecVirtual {
		abs := constBits(t, absMask(t))
		c := newErfConsts()
		s := constVec(t, float64(float32(math.Sqrt2/2)))
		half, one := constVec(t, 0.5), constVec(t, 1)
		return func(x reg.VecVirtual) reg.VecVirtual {
			a := ZMM()
			VMULPS(s, x, a)
			e := erfF32Body(c, abs, a)
			VADDPS(one, e, e)
			h := ZMM()
			VMULPS(half, x, h)
			VMULPS(e, h, h)
			return h
		}
	})
}
