package main

// AVX-512 sin, cos, tan, atan2 and pow with a scalar exponent.
//
// sin, cos, tan (f64, sinCosF64Lanes) compute cpu.Sin64/Cos64/Tan64's
// operations in the same order (1 ulp; backends/cpu/sincos64.go): a
// double-double Cody–Waite reduction by π/2 in four parts, Cephes'
// polynomials by FMA with the reduction's low part folded in, and for tan
// a corrected double-double quotient. The reductions are exact for |x| <
// 2^27 (f64) and 2^29 (f32); a vector holding a finite lane at or above
// that is not computed: the kernel returns the number of elements done
// before it, and the Go wrapper computes that vector with the scalar
// reference (Payne–Hanek) and calls the kernel again. NaN and ±Inf give
// NaN; sin(±0) = tan(±0) = ±0.
//
// The f32 kernels widen each half of a vector to float64 and run
// trigF32Lanes (their own reduction by π/2 with FMA and Taylor
// polynomials, relative error below 2^-33), rounding once: within 1 ulp of
// the correctly rounded value, equal to it but near ties.
//
// atan2 (f64) vectorises math.Atan2 / math.Atan (Cephes atan.c): with R =
// |y|/|x|, S = satan(R) (reduction to [0, 0.66] by R, 1/R or
// (R-1)/(R+1), rational P/Q, one division for the argument and one for
// the rational), the result is ±S or ±(π - S) with y's sign; y = 0, x =
// 0 and infinite operands follow from R = 0, +Inf and 1 (both infinite).
// f32 runs it in float64 and rounds once.
//
// powScalarF32 computes |x|^y = exp(y·log|x|) in float64 (FreeBSD log as
// math.Log, SLEEF's exp) and rounds once, then applies C pow's sign rules
// for the given scalar y (see PowScalarF32 in the package).

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// trigTable holds 64-byte rows of splatted constants, read as memory
// operands (the kernels need more constants than there are registers).
var trigTable struct {
	mem Mem
	off map[string]int
}

type tconstDef struct {
	name string
	bits uint64
	f32  bool
}

func d64(name string, v float64) tconstDef { return tconstDef{name, math.Float64bits(v), false} }

// trigConstDefs lists the rows of trigTable.
func trigConstDefs() []tconstDef {
	defs := []tconstDef{
		{"abs", 1<<63 - 1, false}, {"sign", 1 << 63, false},
		{"absS", 1<<31 - 1, true}, {"signS", 1 << 31, true},
		{"thrS", uint64(math.Float32bits(1 << 29)), true}, {"infS", uint64(math.Float32bits(float32(math.Inf(1)))), true},
		d64("thr", 1<<29), d64("inf", math.Inf(1)),
		{"i1", 1, false}, {"i2", 2, false},
		d64("one", 1), d64("half", 0.5),
		d64("pi", math.Pi), d64("pi2", math.Pi/2), d64("pi4", math.Pi/4), d64("3pi4", 3*math.Pi/4),
		d64("mb", 6.123233995736765886130e-17), d64("mb2", 0.5*6.123233995736765886130e-17),
		d64("t3p8", 2.41421356237309504880), d64("p66", 0.66),
		d64("beta", 0.7978845608028654), d64("kappa", 0.044715),
		{"betaS", uint64(math.Float32bits(0.7978845608028654)), true}, {"kappaS", uint64(math.Float32bits(0.044715)), true},
		{"halfS", uint64(math.Float32bits(0.5)), true}, {"oneS", uint64(math.Float32bits(1)), true},
		// pow: log (FreeBSD e_log.c) and exp (SLEEF xexp)
		d64("sqrt2", 1.41421356237309504880), d64("two", 2),
		d64("lnHi", 6.93147180369123816490e-01), d64("lnLo", 1.90821492927058770002e-10),
		{"logFix", logFixup, false},
		d64("expHi", 200), d64("expLo", -200),
		d64("log2e", sleefF64.log2e), d64("l2u", sleefF64.l2u), d64("l2l", sleefF64.l2l),
	}
	// f64 sin/cos (sinCosF64Lanes): π/2 in four parts, as cpu.pio2Parts
	{
		rest, _, err := big.ParseFloat(halfPiDigits120, 10, 400, big.ToNearestEven)
		if err != nil {
			panic(err)
		}
		for i := 0; i < 4; i++ {
			prec := uint(26)
			if i == 3 {
				prec = 53
			}
			v := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(rest)
			f, _ := v.Float64()
			defs = append(defs, d64(fmt.Sprint("dp", i), f))
			rest.Sub(rest, new(big.Float).SetFloat64(f))
		}
		defs = append(defs, d64("thr27", 1<<27))
	}
	// f32 trig (trigF32Lanes): π/2 in three parts, the first two of 24
	// bits (j·part exact for j < 2^29), and Taylor coefficients
	halfPi, _, err := big.ParseFloat("1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267105853399107404325664115332354692230477529111586267970406424055872514205135096926055277982231147447746519098221440548783296672306423782411689339158263560095457282428346173017430522716332410669680363012457064", 10, 400, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	rest := new(big.Float).SetPrec(400).Set(halfPi)
	var parts [3]float64
	for i := range parts {
		if i < 2 {
			f32, _ := rest.Float32()
			parts[i] = float64(f32)
		} else {
			parts[i], _ = rest.Float64()
		}
		rest.Sub(rest, new(big.Float).SetFloat64(parts[i]))
	}
	defs = append(defs, d64("2/pi", 2/math.Pi), d64("hp1", parts[0]), d64("hp2", parts[1]), d64("hp3", parts[2]))
	fact := 1.0
	for n := 1; n <= 11; n++ {
		fact *= float64(n)
		sg := 1.0
		if (n/2)%2 == 1 {
			sg = -1
		}
		if n >= 2 {
			defs = append(defs, d64(fmt.Sprint("tay", n), sg/fact))
		}
	}
	for i, v := range []float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1} {
		defs = append(defs, d64(fmt.Sprint("sin", i), v))
	}
	for i, v := range []float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2} {
		defs = append(defs, d64(fmt.Sprint("cos", i), v))
	}
	for i, v := range []float64{-8.750608600031904122785e-01, -1.615753718733365076637e+01, -7.500855792314704667340e+01,
		-1.228866684490136173410e+02, -6.485021904942025371773e+01} {
		defs = append(defs, d64(fmt.Sprint("atP", i), v))
	}
	for i, v := range []float64{+2.485846490142306297962e+01, +1.650270098316988542046e+02, +4.328810604912902668951e+02,
		+4.853903996359136964868e+02, +1.945506571482613964425e+02} {
		defs = append(defs, d64(fmt.Sprint("atQ", i), v))
	}
	// log: L7, L5, L3, L1 then L6, L4, L2
	for i, v := range []float64{1.479819860511658591e-01, 1.818357216161805012e-01, 2.857142874366239149e-01, 6.666666666666735130e-01,
		1.531383769920937332e-01, 2.222219843214978396e-01, 3.999999999940941908e-01} {
		defs = append(defs, d64(fmt.Sprint("lg", i), v))
	}
	for i, v := range sleefF64.c {
		defs = append(defs, d64(fmt.Sprint("ec", i), v))
	}
	return defs
}

// emitTrigTable emits trigTable (call once, before the kernels).
func emitTrigTable() {
	m := GLOBL("trigConsts", RODATA|NOPTR)
	trigTable.mem = m
	trigTable.off = map[string]int{}
	for i, d := range trigConstDefs() {
		trigTable.off[d.name] = 64 * i
		if d.f32 {
			for l := 0; l < 16; l++ {
				DATA(64*i+4*l, U32(uint32(d.bits)))
			}
		} else {
			for l := 0; l < 8; l++ {
				DATA(64*i+8*l, U64(d.bits))
			}
		}
	}
}

// tc is the memory operand of constant row name.
func tc(name string) Mem {
	o, ok := trigTable.off[name]
	if !ok {
		panic("trig constant " + name)
	}
	return trigTable.mem.Offset(o)
}

// tcReg loads constant row name into a new ZMM register.
func tcReg(name string) reg.VecVirtual {
	r := ZMM()
	VMOVUPD(tc(name), r)
	return r
}

// hornerNoFMA returns ((c0·z + c1)·z + ...)·z + c_{n-1} with separate
// multiplies and adds (Go's rounding on amd64).
func hornerNoFMA(z reg.VecVirtual, prefix string, n int) reg.VecVirtual {
	p := ZMM()
	VMULPD(tc(prefix+"0"), z, p)
	for i := 1; i < n; i++ {
		VADDPD(tc(fmt.Sprint(prefix, i)), p, p)
		if i < n-1 {
			VMULPD(z, p, p)
		}
	}
	return p
}

// halfPiDigits120 is π/2 to 120 digits (the string of cpu.halfPiDigits).
const halfPiDigits120 = "1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267105853399107404325664115332"

// sinCosF64Lanes returns sin or cos of 8 f64 lanes x with |x| < 2^27
// (others: garbage, NaN for NaN and ±Inf), the operations of cpu.Sin64 /
// Cos64 in the same order (see backends/cpu/sincos64.go): Cody–Waite
// reduction by π/2 in four parts to a double-double rh + rl with two
// TwoSums, Cephes' polynomials by FMA, the sin tail rl·(1 - z/2) and
// FreeBSD k_cos.c's compensated 1 - z/2.
func sinCosF64Lanes(kind string, x reg.VecVirtual) reg.VecVirtual {
	a := ZMM()
	VANDPD(tc("abs"), x, a)
	q := ZMM()
	VMULPD(tc("2/pi"), a, q)
	VRNDSCALEPD(Imm(0), q, q)
	r1 := ZMM()
	VMOVAPD(a, r1)
	VFNMADD231PD(tc("dp0"), q, r1) // r1 = a - q·p0 (exact)
	// twoSum(v, -q·p): s = v - t, e = (v - (s - bb)) - (t + bb), bb = s - v
	twoSub := func(v reg.VecVirtual, part string) (s, e reg.VecVirtual) {
		t, bb, u := ZMM(), ZMM(), ZMM()
		VMULPD(tc(part), q, t)
		s, e = ZMM(), ZMM()
		VSUBPD(t, v, s)
		VSUBPD(v, s, bb)
		VSUBPD(bb, s, u)
		VSUBPD(u, v, e) // v - (s - bb)
		VADDPD(bb, t, t)
		VSUBPD(t, e, e)
		return s, e
	}
	s1, e1 := twoSub(r1, "dp1")
	s2, e2 := twoSub(s1, "dp2")
	tail := ZMM()
	VADDPD(e2, e1, tail)
	VFNMADD231PD(tc("dp3"), q, tail) // e1 + e2 - q·p3
	rh, rl := ZMM(), ZMM()
	VADDPD(tail, s2, rh)
	VSUBPD(s2, rh, rl)
	VSUBPD(rl, tail, rl) // tail - (rh - s2)
	z := ZMM()
	VMULPD(rh, rh, z)
	ps, pc := ZMM(), ZMM()
	VMOVUPD(tc("sin0"), ps)
	VMOVUPD(tc("cos0"), pc)
	for i := 1; i < 6; i++ {
		VFMADD213PD(tc(fmt.Sprint("sin", i)), z, ps)
		VFMADD213PD(tc(fmt.Sprint("cos", i)), z, pc)
	}
	hz, v := ZMM(), ZMM()
	VMULPD(tc("half"), z, hz)
	VMULPD(z, rh, v)
	// sin = rh + fma(v, ps, fma(-hz, rl, rl))
	sm := ZMM()
	VMOVAPD(rl, sm)
	VFNMADD231PD(hz, rl, sm)
	VFMADD231PD(ps, v, sm)
	sv := ZMM()
	VADDPD(sm, rh, sv)
	// cos = w + (((1 - w) - hz) + fma(z·z, pc, -(rh·rl))), w = 1 - hz
	one := tcReg("one")
	w, c1 := ZMM(), ZMM()
	VSUBPD(hz, one, w)
	VSUBPD(w, one, c1)
	VSUBPD(hz, c1, c1)
	t3, zz := ZMM(), ZMM()
	VMULPD(rl, rh, t3)
	VMULPD(z, z, zz)
	VFMSUB231PD(pc, zz, t3) // zz·pc - rh·rl
	VADDPD(t3, c1, c1)
	cv := ZMM()
	VADDPD(c1, w, cv)
	qi := ZMM()
	VCVTPD2QQ(q, qi)
	k1, k2 := K(), K()
	VPTESTMQ(tc("i1"), qi, k1)
	VPTESTMQ(tc("i2"), qi, k2)
	sg := ZMM()
	var res reg.VecVirtual
	switch kind {
	case "sin": // s, c, -s, -c; then x's sign
		res = sv
		VMOVAPD(cv, k1, res)
		VANDPD(tc("sign"), x, sg)
		VXORPD(tc("sign"), sg, k2, sg)
		VXORPD(sg, res, res)
	case "cos": // c, -s, -c, s
		res = cv
		VXORPD(tc("sign"), sv, k1, res)
		VPXORQ(sg, sg, sg)
		VXORPD(tc("sign"), sg, k2, sg)
		VXORPD(sg, res, res)
	case "tan": // (s + sl)/(c + cl), or -(c + cl)/(s + sl) for odd q
		sl, cl := ZMM(), ZMM()
		VSUBPD(rh, sv, sl)
		VSUBPD(sl, sm, sl) // small - (s - rh)
		VSUBPD(w, cv, cl)
		VSUBPD(cl, c1, cl) // corr - (c - w)
		nh, nl, dh, dl := ZMM(), ZMM(), ZMM(), ZMM()
		VMOVAPD(sv, nh)
		VMOVAPD(sl, nl)
		VMOVAPD(cv, dh)
		VMOVAPD(cl, dl)
		VXORPD(tc("sign"), cv, k1, nh)
		VXORPD(tc("sign"), cl, k1, nl)
		VMOVAPD(sv, k1, dh)
		VMOVAPD(sl, k1, dl)
		t0 := ZMM()
		VDIVPD(dh, nh, t0)
		r, r2 := ZMM(), ZMM()
		VMOVAPD(nh, r)
		VFNMADD231PD(t0, dh, r) // nh - t0·dh
		VMOVAPD(nl, r2)
		VFNMADD231PD(t0, dl, r2) // nl - t0·dl
		VADDPD(r2, r, r)
		VDIVPD(dh, r, r)
		res = ZMM()
		VADDPD(r, t0, res)
		VANDPD(tc("sign"), x, sg)
		VXORPD(sg, res, res)
	}
	nanForNonFinite(x, res)
	return res
}

// trigF32Lanes returns sin, cos or tan of 8 f64 lanes x holding float32
// values with |x| < 2^29 (others: garbage, or NaN for NaN and ±Inf), to a
// relative error below 2^-33, enough for a float32 result within 1 ulp of
// the correctly rounded one (the correctly rounded one but near ties):
// q = rint(|x|·2/π), r = |x| - q·π/2 with π/2 in three parts by FMA (the
// first two of 24 bits, so q·part is exact and the first step exact),
// sin r and cos r by their Taylor polynomials to r^11 and r^10 (|r| <=
// π/4: truncation below 2^-33), chosen and signed by q mod 4; tan =
// sin/cos.
func trigF32Lanes(kind string, x reg.VecVirtual) reg.VecVirtual {
	a := ZMM()
	VANDPD(tc("abs"), x, a)
	q := ZMM()
	VMULPD(tc("2/pi"), a, q)
	VRNDSCALEPD(Imm(0), q, q)
	r := ZMM()
	VMOVAPD(a, r)
	VFNMADD231PD(tc("hp1"), q, r)
	VFNMADD231PD(tc("hp2"), q, r)
	VFNMADD231PD(tc("hp3"), q, r)
	qi := ZMM()
	VCVTPD2QQ(q, qi)
	z := ZMM()
	VMULPD(r, r, z)
	// sin: r + r·z·(t3 + z(t5 + z(t7 + z(t9 + z·t11))))
	ps := ZMM()
	VMOVUPD(tc("tay11"), ps)
	for _, n := range []int{9, 7, 5, 3} {
		VFMADD213PD(tc(fmt.Sprint("tay", n)), z, ps)
	}
	rz := ZMM()
	VMULPD(z, r, rz)
	VFMADD213PD(r, rz, ps) // ps = ps·rz + r
	// cos: 1 + z·(t2 + z(t4 + z(t6 + z(t8 + z·t10))))
	pc := ZMM()
	VMOVUPD(tc("tay10"), pc)
	for _, n := range []int{8, 6, 4, 2} {
		VFMADD213PD(tc(fmt.Sprint("tay", n)), z, pc)
	}
	VFMADD213PD(tc("one"), z, pc)
	k1, k2 := K(), K()
	VPTESTMQ(tc("i1"), qi, k1)
	VPTESTMQ(tc("i2"), qi, k2)
	sg := ZMM()
	var res reg.VecVirtual
	switch kind {
	case "sin": // q mod 4: s, c, -s, -c
		res = ps
		VMOVAPD(pc, k1, res)
		VANDPD(tc("sign"), x, sg)
		VXORPD(tc("sign"), sg, k2, sg)
		VXORPD(sg, res, res)
	case "cos": // c, -s, -c, s
		res = pc
		VMOVAPD(ps, k1, res)
		VPXORQ(sg, sg, sg)
		VXORPD(tc("sign"), sg, k1, sg)
		VXORPD(tc("sign"), sg, k2, sg)
		VXORPD(sg, res, res)
	case "tan": // s/c, or -c/s for odd q
		num, den := ZMM(), ZMM()
		VMOVAPD(ps, num)
		VMOVAPD(pc, den)
		VXORPD(tc("sign"), pc, k1, num)
		VMOVAPD(ps, k1, den)
		res = ZMM()
		VDIVPD(den, num, res)
		VANDPD(tc("sign"), x, sg)
		VXORPD(sg, res, res)
	}
	nanForNonFinite(x, res)
	return res
}

// splitF32 widens the two halves of 16 f32 lanes to f64.
func splitF32(v reg.VecVirtual) (lo, hi reg.VecVirtual) {
	lo, hi = ZMM(), ZMM()
	VCVTPS2PD(v.AsY(), lo)
	VEXTRACTF32X8(Imm(1), v, hi.AsY())
	VCVTPS2PD(hi.AsY(), hi)
	return lo, hi
}

// joinF32 rounds two f64 halves to 16 f32 lanes.
func joinF32(lo, hi reg.VecVirtual) reg.VecVirtual {
	r, h := ZMM(), ZMM()
	VCVTPD2PS(lo, r.AsY())
	VCVTPD2PS(hi, h.AsY())
	VINSERTF32X8(Imm(1), h.AsY(), r, r)
	return r
}

// bigLanes sets k to the finite lanes of v with |v| >= thr (2^29 or 2^27; within the
// mask live, if not nil).
func bigLanes(f64 bool, v reg.VecVirtual, live reg.Register, thr string) reg.Register {
	a := ZMM()
	k := K()
	if f64 {
		VANDPD(tc("abs"), v, a)
		if live != nil {
			VCMPPD(Imm(cmpGE), tc(thr), a, live, k)
		} else {
			VCMPPD(Imm(cmpGE), tc(thr), a, k)
		}
		VCMPPD(Imm(cmpLT), tc("inf"), a, k, k)
	} else {
		VANDPS(tc("absS"), v, a)
		if live != nil {
			VCMPPS(Imm(cmpGE), tc("thrS"), a, live, k)
		} else {
			VCMPPS(Imm(cmpGE), tc("thrS"), a, k)
		}
		VCMPPS(Imm(cmpLT), tc("infS"), a, k, k)
	}
	return k
}

// trigKernel emits func KIND{F32,F64}AVX512(dst, x *T, n int) int: dst[i]
// = KIND(x[i]) for i < the returned count, which is n, or the index of
// the first vector holding a finite |x| >= 2^29 (not written).
func trigKernel(f64 bool, kind string) {
	t := newVT(f64, false)
	name := kind + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int) int", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets dst[i] = %s(x[i]) %s, stopping before the first vector with a finite |x| >= %s; it returns the number of elements done.",
		name, kind, map[bool]string{false: "within 1 ulp (float64 reduction and Taylor polynomials, rounded once)", true: "as cpu." + strings.ToUpper(kind[:1]) + kind[1:] + "64"}[f64],
		map[bool]string{false: "2^29", true: "2^27"}[f64]))
	d := Load(Param("dst"), GP64())
	xp := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	done := GP64()
	XORQ(done, done)
	loop, tail, exit := name+"_loop", name+"_tail", name+"_exit"
	thr := "thr"
	if f64 {
		thr = "thr27"
	}
	compute := func(v reg.VecVirtual) reg.VecVirtual {
		if f64 {
			return sinCosF64Lanes(kind, v)
		}
		lo, hi := splitF32(v)
		return joinF32(trigF32Lanes(kind, lo), trigF32Lanes(kind, hi))
	}
	rem := GP64()
	Label(loop)
	MOVQ(n, rem)
	SUBQ(done, rem)
	CMPQ(rem, U32(t.lanes))
	JL(LabelRef(tail))
	v := t.vec()
	t.load(Mem{Base: xp}, v)
	kb := bigLanes(f64, v, nil, thr)
	if f64 {
		KORTESTB(kb, kb)
	} else {
		KORTESTW(kb, kb)
	}
	JNZ(LabelRef(exit))
	t.store(compute(v), Mem{Base: d})
	ADDQ(U32(t.vbytes()), xp)
	ADDQ(U32(t.vbytes()), d)
	ADDQ(U32(t.lanes), done)
	JMP(LabelRef(loop))
	Label(tail)
	TESTQ(rem, rem)
	JE(LabelRef(exit))
	k := lowLanes(rem)
	w := t.vec()
	if f64 {
		VMOVUPD_Z(Mem{Base: xp}, k, w)
	} else {
		VMOVUPS_Z(Mem{Base: xp}, k, w)
	}
	kb2 := bigLanes(f64, w, k, thr)
	if f64 {
		KORTESTB(kb2, kb2)
	} else {
		KORTESTW(kb2, kb2)
	}
	JNZ(LabelRef(exit))
	storeMasked(t, compute(w), k, Mem{Base: d})
	MOVQ(n, done)
	Label(exit)
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// satanF64 is math's satan(R) for R >= 0 (or NaN) in 8 f64 lanes.
func satanF64(r reg.VecVirtual) reg.VecVirtual {
	small, big, mid := K(), K(), K()
	VCMPPD(Imm(2), tc("p66"), r, small) // R <= 0.66 (LE_OS)
	VCMPPD(Imm(14), tc("t3p8"), r, big) // R > tan(3π/8) (GT_OS)
	KORB(small, big, mid)
	KNOTB(mid, mid)
	num, den := ZMM(), ZMM()
	VSUBPD(tc("one"), r, num) // R - 1
	VADDPD(tc("one"), r, den) // R + 1
	VMOVAPD(r, small, num)
	VMOVUPD(tc("one"), small, den)
	VMOVUPD(tc("one"), big, num)
	VMOVAPD(r, big, den)
	arg := ZMM()
	VDIVPD(den, num, arg)
	// xatan(arg)
	z := ZMM()
	VMULPD(arg, arg, z)
	p := hornerNoFMA(z, "atP", 5)
	q := ZMM()
	VADDPD(tc("atQ0"), z, q)
	for i := 1; i <= 4; i++ {
		VMULPD(z, q, q)
		VADDPD(tc(fmt.Sprint("atQ", i)), q, q)
	}
	VMULPD(p, z, p)
	VDIVPD(q, p, p)
	VMULPD(p, arg, p)
	VADDPD(arg, p, p) // arg·z + arg
	// (C ± xatan) + M
	VXORPD(tc("sign"), p, big, p)
	c, m := ZMM(), ZMM()
	VPXORQ(c, c, c)
	VPXORQ(m, m, m)
	VMOVUPD(tc("pi4"), mid, c)
	VMOVUPD(tc("pi2"), big, c)
	VMOVUPD(tc("mb2"), mid, m)
	VMOVUPD(tc("mb"), big, m)
	VADDPD(p, c, c)
	VADDPD(m, c, c)
	return c
}

// atan2F64 returns atan2(y, x) for 8 f64 lanes (see the file comment).
func atan2F64(y, x reg.VecVirtual) reg.VecVirtual {
	ay, ax := ZMM(), ZMM()
	VANDPD(tc("abs"), y, ay)
	VANDPD(tc("abs"), x, ax)
	r := ZMM()
	VDIVPD(ax, ay, r)
	ky0, kyi, kxi := K(), K(), K()
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	VCMPPD(Imm(0), zero, y, ky0) // y == 0 (EQ_OQ)
	VMOVAPD(zero, ky0, r)
	VCMPPD(Imm(0), tc("inf"), ay, kyi)
	VCMPPD(Imm(0), tc("inf"), ax, kyi, kxi) // both infinite
	VMOVUPD(tc("one"), kxi, r)
	s := satanF64(r)
	neg := K()
	VPMOVQ2M(x, neg) // sign bit of x
	pi := tcReg("pi")
	VSUBPD(s, pi, neg, s) // π - S for x < 0 (or -0)
	KANDB(kxi, neg, kxi)
	VMOVUPD(tc("3pi4"), kxi, s) // (-Inf, ±Inf): 3π/4 exactly as math.Atan2
	sg := ZMM()
	VANDPD(tc("sign"), y, sg)
	VORPD(sg, s, s)
	kn := K()
	VCMPPD(Imm(cmpUnord), x, y, kn)
	VADDPD(x, y, kn, s) // NaN
	return s
}

// atan2Kernel emits atan2{F32,F64}AVX512(dst, y, x *T, n int) for any n.
func atan2Kernel(f64 bool) {
	t := newVT(f64, false)
	name := "atan2" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, y, x *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets dst[i] = atan2(y[i], x[i]) for i < n (math.Atan2's algorithm%s).", name,
		map[bool]string{false: ", in float64, rounded once", true: ""}[f64]))
	d := Load(Param("dst"), GP64())
	yp := Load(Param("y"), GP64())
	xp := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	compute := func(y, x reg.VecVirtual) reg.VecVirtual {
		if f64 {
			return atan2F64(y, x)
		}
		ylo, yhi := splitF32(y)
		xlo, xhi := splitF32(x)
		return joinF32(atan2F64(ylo, xlo), atan2F64(yhi, xhi))
	}
	loop, tail, done := name+"_loop", name+"_tail", name+"_done"
	Label(loop)
	CMPQ(n, U32(t.lanes))
	JL(LabelRef(tail))
	y, x := t.vec(), t.vec()
	t.load(Mem{Base: yp}, y)
	t.load(Mem{Base: xp}, x)
	t.store(compute(y, x), Mem{Base: d})
	for _, p := range []reg.Register{d, yp, xp} {
		ADDQ(U32(t.vbytes()), p)
	}
	SUBQ(U32(t.lanes), n)
	JMP(LabelRef(loop))
	Label(tail)
	TESTQ(n, n)
	JE(LabelRef(done))
	k := lowLanes(n)
	y2, x2 := t.vec(), t.vec()
	if f64 {
		VMOVUPD_Z(Mem{Base: yp}, k, y2)
		VMOVUPD_Z(Mem{Base: xp}, k, x2)
	} else {
		VMOVUPS_Z(Mem{Base: yp}, k, y2)
		VMOVUPS_Z(Mem{Base: xp}, k, x2)
	}
	storeMasked(t, compute(y2, x2), k, Mem{Base: d})
	Label(done)
	VZEROUPPER()
	RET()
}

// logF64Mem is math.Log (FreeBSD e_log.c) for 8 f64 lanes x with memory
// constants: m from VGETMANT in [1, 2) (halved, e incremented, when m >= √2),
// f = m - 1, s = f/(2+f), log(1+f) = f - (f²/2 - s·(f²/2 + R(s²))) with R
// of degree 7, plus e·ln2 split in two.
func logF64Mem(x reg.VecVirtual) reg.VecVirtual {
	m, e := ZMM(), ZMM()
	big := K()
	VGETMANTPD(Imm(0), x, m)
	VGETEXPPD(x, e)
	VCMPPD(Imm(cmpGE), tc("sqrt2"), m, big)
	VMULPD(tc("half"), m, big, m)
	VADDPD(tc("one"), e, big, e)
	f := m
	VSUBPD(tc("one"), m, f)
	z := ZMM()
	VMULPD(f, f, z)
	s, s2, s4 := ZMM(), ZMM(), ZMM()
	VADDPD(tc("two"), f, s)
	VDIVPD(s, f, s)
	VMULPD(s, s, s2)
	VMULPD(s2, s2, s4)
	t1 := ZMM()
	VMOVUPD(tc("lg0"), t1)
	for i := 1; i < 4; i++ {
		VFMADD213PD(tc(fmt.Sprint("lg", i)), s4, t1)
	}
	VMULPD(s2, t1, t1)
	t2 := ZMM()
	VMOVUPD(tc("lg4"), t2)
	for i := 5; i < 7; i++ {
		VFMADD213PD(tc(fmt.Sprint("lg", i)), s4, t2)
	}
	VMULPD(s4, t2, t2)
	VADDPD(t2, t1, t1)
	hf := ZMM()
	VMULPD(tc("half"), z, hf)
	VADDPD(hf, t1, t1)
	lo := ZMM()
	VMULPD(tc("lnLo"), e, lo)
	VFMADD231PD(t1, s, lo)
	VSUBPD(lo, hf, hf)
	VSUBPD(f, hf, hf)
	r := ZMM()
	VMULPD(tc("lnHi"), e, r)
	VSUBPD(hf, r, r)
	VFIXUPIMMPD(Imm(0), tc("logFix"), x, r)
	return r
}

// expF64Mem is SLEEF's xexp for 8 f64 lanes v, clamped to [-200, 200]
// (enough for float32 results; NaN kept).
func expF64Mem(v reg.VecVirtual) reg.VecVirtual {
	VMINPD(v, tcReg("expHi"), v) // Intel: the second source (v) when NaN
	VMAXPD(v, tcReg("expLo"), v)
	kk := ZMM()
	VMULPD(tc("log2e"), v, kk)
	VRNDSCALEPD(Imm(0), kk, kk)
	VFNMADD231PD(tc("l2u"), kk, v)
	VFNMADD231PD(tc("l2l"), kk, v)
	c := make([]reg.VecVirtual, 0, 10)
	for i := 0; i < 10; i++ {
		c = append(c, tcReg(fmt.Sprint("ec", i)))
	}
	p := sleefExpF64Poly(c, tcReg("half"), tcReg("one"), v)
	VSCALEFPD(kk, p, p)
	return p
}

// powScalarKernel emits powScalarF32AVX512(dst, x *float32, n int, y
// float64, lo float32, smask uint32): dst[i] = |x[i]|^y (float64
// exp(y·log|x|), rounded once), with the sign bit of x[i] & smask copied
// on, and NaN where lo < x[i] < 0.
func powScalarKernel() {
	t := newVT(false, false)
	name := "powScalarF32AVX512"
	TEXT(name, NOSPLIT, "func(dst, x *float32, n int, y float64, lo float32, smask uint32)")
	Pragma("noescape")
	Doc(name + " sets dst[i] = |x[i]|^y (float64 exp(y·log|x|), rounded once) with x[i]'s sign bit & smask copied on, NaN where lo < x[i] < 0, for i < n.")
	d := Load(Param("dst"), GP64())
	xp := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	yv := ZMM()
	VBROADCASTSD(paramAddr("y"), yv)
	lov := ZMM()
	VBROADCASTSS(paramAddr("lo"), lov)
	sm := ZMM()
	smg := Load(Param("smask"), GP32())
	VPBROADCASTD(smg, sm)
	zero := ZMM()
	VPXORD(zero, zero, zero)
	half := func(a reg.VecVirtual) reg.VecVirtual {
		l := logF64Mem(a)
		VMULPD(yv, l, l)
		return expF64Mem(l)
	}
	compute := func(v reg.VecVirtual) reg.VecVirtual {
		a := ZMM()
		VANDPS(tc("absS"), v, a)
		lo, hi := splitF32(a)
		r := joinF32(half(lo), half(hi))
		sg := ZMM()
		VPANDD(sm, v, sg)
		VPORD(sg, r, r)
		kn := K()
		VCMPPS(Imm(cmpLT), zero, v, kn)    // x < 0
		VCMPPS(Imm(cmpLT), v, lov, kn, kn) // lo < x
		nan := ZMM()
		VMULPS(tc("infS"), zero, nan) // 0·Inf = NaN
		VMOVAPS(nan, kn, r)
		return r
	}
	loop, tail, done := name+"_loop", name+"_tail", name+"_done"
	Label(loop)
	CMPQ(n, U32(t.lanes))
	JL(LabelRef(tail))
	v := ZMM()
	VMOVUPS(Mem{Base: xp}, v)
	VMOVUPS(compute(v), Mem{Base: d})
	ADDQ(U32(64), xp)
	ADDQ(U32(64), d)
	SUBQ(U32(16), n)
	JMP(LabelRef(loop))
	Label(tail)
	TESTQ(n, n)
	JE(LabelRef(done))
	k := lowLanes(n)
	w := ZMM()
	VMOVUPS_Z(Mem{Base: xp}, k, w)
	storeMasked(t, compute(w), k, Mem{Base: d})
	Label(done)
	VZEROUPPER()
	RET()
}

// trigKernels emits the kernels of this file.
func trigKernels() {
	emitTrigTable()
	for _, f64 := range []bool{false, true} {
		for _, kind := range []string{"sin", "cos", "tan"} {
			trigKernel(f64, kind)
		}
		atan2Kernel(f64)
	}
	powScalarKernel()
	geluTanhKernels()
}

// geluTanhKernels emits geluTanhF32AVX512 and geluTanhF64AVX512, PyTorch's
// tanh-approximate gelu 0.5·x·(1 + tanh(β·(x + κ·x³))), β = √(2/π), κ =
// 0.044715, each step rounded in the element type as PyTorch's kernel
// (x·x·x left to right, then (0.5·x)·(1 + t)); tanh is the tanh kernel's
// (tanhSetup), within 1 ulp (f32) / 2 ulp (f64) of math.Tanh.
func geluTanhKernels() {
	for _, f64 := range []bool{false, true} {
		t := newVT(f64, false)
		mathUnaryReload(t, "geluTanh", "0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), each step in the element type", func() func(x reg.VecVirtual, reload func() reg.VecVirtual) reg.VecVirtual {
			th := tanhSetup(t)
			sfx := map[bool]string{false: "S", true: ""}[f64]
			beta, kappa, half, one := tc("beta"+sfx), tc("kappa"+sfx), tc("half"+sfx), tc("one"+sfx)
			return func(x reg.VecVirtual, reload func() reg.VecVirtual) reg.VecVirtual {
				c := t.vec()
				t.bin("mul", x, x, c)
				t.bin("mul", x, c, c) // x·x·x
				t.bin("mul", kappa, c, c)
				t.bin("add", c, x, c)
				t.bin("mul", beta, c, c) // inner
				th0 := th(c)
				t.bin("add", one, th0, th0) // 1 + t
				h := reload()
				t.bin("mul", half, h, h) // 0.5·x (PyTorch: 0.5 * x * (1 + t))
				t.bin("mul", th0, h, h)
				return h
			}
		})
	}
}

// nanForNonFinite sets the lanes of res whose x is NaN or ±Inf to NaN
// (x - x, which is NaN exactly there).
func nanForNonFinite(x, res reg.VecVirtual) {
	d := ZMM()
	VSUBPD(x, x, d)
	kn := K()
	VCMPPD(Imm(cmpUnord), d, d, kn)
	VMOVAPD(d, kn, res)
}
