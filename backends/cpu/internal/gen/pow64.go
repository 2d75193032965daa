package main

// AVX-512 f64 pow: cpu.Pow64's fast path (powCore: powLog then powExp)
// vectorised operation for operation, so that every lane it computes has
// Pow64's bits. The kernels stop at the first vector with a lane off the
// fast path and return how many elements they stored; the Go wrapper runs
// that vector through Pow64 and calls the kernel again.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Constants of cpu.Pow64 (pow64.go, pow64_tables.go); they must match.
const (
	powLn2Hi    = 0x1.62e42fef8p-01
	powLn2Lo    = 0x1.1cf79abc9e3b4p-36
	powShift    = 0x1.8p52
	powInvLn2N  = 0x1.71547652b82fep0 * 128
	powNegLn2HN = -powLn2Hi / 128
	powNegLn2LN = -powLn2Lo / 128
	powLogOff   = 0x3fe6a00000000000
)

// powTable holds 64-byte rows of splatted constants of the pow kernels.
var powTable struct {
	mem Mem
	off map[string]int
}

// emitPowTable emits powTable (call once, before the kernels).
func emitPowTable() {
	defs := []tconstDef{
		{"xlo", 0x0010000000000000, false}, {"xrange", 0x7ff0000000000000 - 0x0010000000000000, false},
		{"i1", 1, false}, {"yrange", 0x7ff<<53 - 1, false},
		{"off", powLogOff, false}, {"i127", 127, false}, {"expMask", 0xfff << 52, false},
		d64("one", 1), {"abs", 1<<63 - 1, false}, {"sign", 1 << 63, false}, d64("704", 704),
		{"nan", 0x7ff8000000000001, false}, // math.NaN()'s bits, as Pow64 returns
		d64("ln2hi", powLn2Hi), d64("ln2lo", powLn2Lo), d64("-half", -0.5),
		d64("-2/3", -2.0/3), d64("half", 0.5), d64("-2/5", -2.0/5), d64("1/3", 1.0/3),
		d64("-2/7", -2.0/7), d64("quarter", 0.25), d64("-2/9", -2.0/9), d64("fifth", 0.2),
		d64("invLn2N", powInvLn2N), d64("shift", powShift), d64("negLn2HN", powNegLn2HN), d64("negLn2LN", powNegLn2LN),
		d64("1/6", 1.0/6), d64("1/24", 1.0/24), d64("1/120", 1.0/120), d64("1/720", 1.0/720),
	}
	m := GLOBL("powF64Consts", RODATA|NOPTR)
	powTable.mem = m
	powTable.off = map[string]int{}
	for i, d := range defs {
		powTable.off[d.name] = 64 * i
		for l := 0; l < 8; l++ {
			DATA(64*i+8*l, U64(d.bits))
		}
	}
}

// pc is the memory operand of pow constant row name.
func pc(name string) Mem {
	o, ok := powTable.off[name]
	if !ok {
		panic("pow constant " + name)
	}
	return powTable.mem.Offset(o)
}

// gatherF64 loads tab[idx[l]·8 + disp] (bytes) into a new register, all lanes.
func gatherF64(tab reg.Register, idx reg.VecVirtual, disp int) reg.VecVirtual {
	g, k := GP32(), K()
	MOVL(U32(0xff), g)
	KMOVB(g, k) // (KXNORB k, k, k would make k live from the entry)
	r := ZMM()
	VPXORQ(r, r, r)
	VGATHERQPD(Mem{Base: tab, Index: idx, Scale: 8, Disp: disp}, k, r)
	return r
}

// powF64Lanes returns Pow64(x, y) per lane and in ok the lanes where that
// is the fast path's value or follows from it (|x| normal, |x| != 1, y
// finite nonzero, |y·log|x|| < 704; a negative x as Pow64: the sign of an
// odd integer y, NaN for a non-integer y); other lanes hold garbage. logTab and expTab point to
// cpu.powLogTab ([128][3]float64) and cpu.powExpTab ([128][2]float64).
// Every step rounds as Pow64's Go code (no contraction into FMA beyond
// its explicit math.FMA calls).
func powF64Lanes(xs, y reg.VecVirtual, logTab, expTab reg.Register) (reg.VecVirtual, reg.Register) {
	ok, k2 := K(), K()
	// Pow64 of a negative x: Pow64(-x, y), negated for an odd integer y,
	// NaN for a non-integer y (below); the rest works on |x|.
	x := ZMM()
	VPANDQ(pc("abs"), xs, x)
	// x positive normal finite: ix - 0x0010... < 0x7ff0... - 0x0010... (unsigned)
	a := ZMM()
	VPSUBQ(pc("xlo"), x, a)
	VPCMPUQ(Imm(1), pc("xrange"), a, ok)
	// y finite nonzero: iy<<1 - 1 < 0x7ff<<53 - 1 (unsigned)
	b := ZMM()
	VPADDQ(y, y, b)
	VPSUBQ(pc("i1"), b, b)
	VPCMPUQ(Imm(1), pc("yrange"), b, ok, ok)
	VCMPPD(Imm(4), pc("one"), x, ok, k2) // x != 1 (NEQ_UQ)
	KMOVB(k2, ok)

	// powLog: log x = hi + lo
	tmp := ZMM()
	VPSUBQ(pc("off"), x, tmp)
	i := ZMM()
	VPSRLQ(Imm(45), tmp, i)
	VPANDQ(pc("i127"), i, i)
	kk := ZMM()
	VPSRAQ(Imm(52), tmp, kk)
	z := ZMM()
	VPANDQ(pc("expMask"), tmp, tmp)
	VPSUBQ(tmp, x, z)
	i3 := ZMM()
	VPADDQ(i, i, i3)
	VPADDQ(i, i3, i3)
	invc := gatherF64(logTab, i3, 0)
	logc := gatherF64(logTab, i3, 8)
	logct := gatherF64(logTab, i3, 16)
	kd := ZMM()
	VCVTQQ2PD(kk, kd)
	p := ZMM()
	VMULPD(invc, z, p)
	plo := ZMM()
	VMOVAPD(z, plo)
	VFMSUB213PD(p, invc, plo) // z·invc - p
	r := ZMM()
	VSUBPD(pc("one"), p, r) // p - 1
	t1 := ZMM()
	VMULPD(pc("ln2hi"), kd, t1)
	VADDPD(logc, t1, t1) // kd·ln2hi + logc
	t2 := ZMM()
	VADDPD(r, t1, t2) // t1 + r
	bv := ZMM()
	VSUBPD(t1, t2, bv) // t2 - t1
	lo2, w := ZMM(), ZMM()
	VSUBPD(bv, t2, w)   // t2 - bv
	VSUBPD(w, t1, lo2)  // t1 - (t2 - bv)
	VSUBPD(bv, r, w)    // r - bv
	VADDPD(w, lo2, lo2) // (t1 - (t2 - bv)) + (r - bv)
	lo1 := ZMM()
	VMULPD(pc("ln2lo"), kd, lo1)
	VADDPD(logct, lo1, lo1) // kd·ln2lo + logct
	ar := ZMM()
	VMULPD(pc("-half"), r, ar) // -0.5·r
	ar2 := ZMM()
	VMULPD(ar, r, ar2) // r·ar
	lo3 := ZMM()
	VMOVAPD(ar, lo3)
	VFMSUB213PD(ar2, r, lo3) // ar·r - ar2
	hi := ZMM()
	VADDPD(ar2, t2, hi) // t2 + ar2
	lo4 := ZMM()
	VSUBPD(hi, t2, lo4)
	VADDPD(ar2, lo4, lo4) // (t2 - hi) + ar2
	r2 := ZMM()
	VMULPD(r, r, r2)
	lo5 := ZMM()
	VMOVUPD(pc("one"), lo5)
	VSUBPD(r, lo5, lo5)   // 1 - r
	VADDPD(r2, lo5, lo5)  // + r2
	VMULPD(lo5, plo, lo5) // plo·(...)
	ar3 := ZMM()
	VMULPD(ar2, r, ar3) // r·ar2
	// q = ar3·(((-2/3 + r·0.5) + r2·(-2/5 + r·(1/3))) + (r2·r2)·((-2/7 + r·0.25) + r2·(-2/9 + r·0.2)))
	qa, qb, qc, qd := ZMM(), ZMM(), ZMM(), ZMM()
	VMULPD(pc("half"), r, qa)
	VADDPD(pc("-2/3"), qa, qa) // -2/3 + r·0.5
	VMULPD(pc("1/3"), r, qb)
	VADDPD(pc("-2/5"), qb, qb) // -2/5 + r/3
	VMULPD(qb, r2, qb)
	VADDPD(qb, qa, qa)
	VMULPD(pc("fifth"), r, qc)
	VADDPD(pc("-2/9"), qc, qc) // -2/9 + r·0.2
	VMULPD(qc, r2, qc)
	VMULPD(pc("quarter"), r, qd)
	VADDPD(pc("-2/7"), qd, qd) // -2/7 + r·0.25
	VADDPD(qc, qd, qd)
	r4 := ZMM()
	VMULPD(r2, r2, r4)
	VMULPD(qd, r4, qd)
	VADDPD(qd, qa, qa)
	VMULPD(qa, ar3, qa) // q
	lo := lo1
	VADDPD(lo2, lo, lo)
	VADDPD(lo3, lo, lo)
	VADDPD(lo4, lo, lo)
	VADDPD(lo5, lo, lo)
	VADDPD(qa, lo, lo)
	lhi := ZMM()
	VADDPD(lo, hi, lhi) // hi + lo
	llo := ZMM()
	VSUBPD(lhi, hi, llo)
	VADDPD(lo, llo, llo) // (hi - lhi) + lo

	// powCore: y·log x = ehi + elo
	ehi := ZMM()
	VMULPD(lhi, y, ehi)
	elo := ZMM()
	VMOVAPD(y, elo)
	VFMSUB213PD(ehi, lhi, elo) // y·lhi - ehi
	ylo := ZMM()
	VMULPD(llo, y, ylo)
	VADDPD(ylo, elo, elo)
	// |ehi| < 704
	ae := ZMM()
	VANDPD(pc("abs"), ehi, ae)
	VCMPPD(Imm(cmpLT), pc("704"), ae, ok, ok)

	// powExp
	kf := ZMM()
	VMULPD(pc("invLn2N"), ehi, kf)
	VADDPD(pc("shift"), kf, kf)
	ki := ZMM()
	VMOVAPD(kf, ki)
	VSUBPD(pc("shift"), kf, kf)
	rr, u := ZMM(), ZMM()
	VMULPD(pc("negLn2HN"), kf, u)
	VADDPD(u, ehi, rr)
	VMULPD(pc("negLn2LN"), kf, u)
	VADDPD(u, rr, rr)
	VADDPD(elo, rr, rr)
	j := ZMM()
	VPANDQ(pc("i127"), ki, j)
	VPADDQ(j, j, j)
	e0 := gatherF64(expTab, j, 0)
	e1 := gatherF64(expTab, j, 8)
	sb := ZMM()
	VPSRLQ(Imm(7), ki, sb)
	VPSLLQ(Imm(52), sb, sb)
	VPADDQ(e0, sb, sb) // scale
	rr2 := ZMM()
	VMULPD(rr, rr, rr2)
	// tmpe = ((t1 + rr) + rr2·(0.5 + rr/6)) + (rr2·rr2)·((1/24 + rr/120) + rr2/720)
	te, pa, pb := ZMM(), ZMM(), ZMM()
	VADDPD(rr, e1, te)
	VMULPD(pc("1/6"), rr, pa)
	VADDPD(pc("half"), pa, pa)
	VMULPD(pa, rr2, pa)
	VADDPD(pa, te, te)
	VMULPD(pc("1/120"), rr, pa)
	VADDPD(pc("1/24"), pa, pa)
	VMULPD(pc("1/720"), rr2, pb)
	VADDPD(pb, pa, pa)
	VMULPD(rr2, rr2, pb)
	VMULPD(pa, pb, pa)
	VADDPD(pa, te, te)
	res := ZMM()
	VMULPD(te, sb, res)
	VADDPD(res, sb, res) // scale + scale·tmpe

	// negative x: odd integer y flips the sign, non-integer y gives NaN
	kneg, knan, kflip := K(), K(), K()
	VPMOVQ2M(xs, kneg)
	yt, yh := ZMM(), ZMM()
	VRNDSCALEPD(Imm(0x0b), y, yt) // trunc(y), no precision exception
	VCMPPD(Imm(4), yt, y, kneg, knan)
	VMULPD(pc("half"), y, yh)
	VRNDSCALEPD(Imm(0x0b), yh, yt)
	VCMPPD(Imm(4), yt, yh, kneg, kflip) // y/2 not an integer: odd (exact, y finite)
	VPXORQ(pc("sign"), res, kflip, res)
	VMOVUPD(pc("nan"), knan, res)
	return res, ok
}

// powF64Kernels emits powF64AVX512 (an exponent per element) and
// powScalarF64AVX512 (one exponent for all).
func powF64Kernels() {
	emitPowTable()
	for _, scalar := range []bool{false, true} {
		name := "powF64AVX512"
		sig := "func(dst, x, y *float64, n int, logTab, expTab *float64) int"
		doc := name + " sets dst[i] = Pow64(x[i], y[i]) (cpu.Pow64's fast path, bit for bit) for i < done, done <= n, and returns done: the kernel stops at the first 8-element vector (or the masked tail) with an element off Pow64's fast path."
		if scalar {
			name = "powScalarF64AVX512"
			sig = "func(dst, x *float64, n int, y float64, logTab, expTab *float64) int"
			doc = name + " is powF64AVX512 with the exponent y for every element."
		}
		TEXT(name, NOSPLIT, sig)
		Pragma("noescape")
		Doc(doc)
		d := Load(Param("dst"), GP64())
		xp := Load(Param("x"), GP64())
		n := Load(Param("n"), GP64())
		n0 := GP64()
		MOVQ(n, n0)
		lt := Load(Param("logTab"), GP64())
		et := Load(Param("expTab"), GP64())
		var yp reg.Register
		var ys reg.VecVirtual
		if scalar {
			ys = ZMM()
			VBROADCASTSD(paramAddr("y"), ys)
		} else {
			yp = Load(Param("y"), GP64())
		}
		loop, tail, done := name+"_loop", name+"_tail", name+"_done"
		Label(loop)
		CMPQ(n, U32(8))
		JL(LabelRef(tail))
		x := ZMM()
		VMOVUPD(Mem{Base: xp}, x)
		y := ys
		if !scalar {
			y = ZMM()
			VMOVUPD(Mem{Base: yp}, y)
		}
		r, ok := powF64Lanes(x, y, lt, et)
		KORTESTB(ok, ok)
		JCC(LabelRef(done)) // some lane is off the fast path
		VMOVUPD(r, Mem{Base: d})
		ADDQ(U32(64), xp)
		ADDQ(U32(64), d)
		if !scalar {
			ADDQ(U32(64), yp)
		}
		SUBQ(U32(8), n)
		JMP(LabelRef(loop))
		Label(tail)
		TESTQ(n, n)
		JE(LabelRef(done))
		k := lowLanes(n)
		xt := ZMM()
		VMOVUPD_Z(Mem{Base: xp}, k, xt)
		yt := ys
		if !scalar {
			yt = ZMM()
			VMOVUPD_Z(Mem{Base: yp}, k, yt)
		}
		rt, okt := powF64Lanes(xt, yt, lt, et)
		kn := K()
		KNOTB(k, kn)
		KORB(kn, okt, kn) // live lanes on the fast path, dead lanes
		KORTESTB(kn, kn)
		JCC(LabelRef(done))
		VMOVUPD(rt, k, Mem{Base: d})
		XORQ(n, n)
		Label(done)
		SUBQ(n, n0)
		Store(n0, ReturnIndex(0))
		VZEROUPPER()
		RET()
	}
}
