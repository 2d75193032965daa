package main

// Elementwise math kernels: maximum/minimum with PyTorch NaN semantics,
// sqrt, and fused AVX-512 tanh, sigmoid and log.
//
// The AVX-512 unary kernels (mathUnary) take any n: whole vectors in a
// loop, then the last partial vector under an opmask (masked-out lanes load
// as 0 and are not stored), so an element's result never depends on its
// position in the slice (a chunk boundary chosen by the thread count
// cannot change it).

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Comparison predicates of VCMPPS/VCMPPD.
const (
	cmpLT    = 1  // LT_OS: false when either operand is NaN
	cmpUnord = 3  // UNORD_Q: true when either operand is NaN
	cmpNLEUQ = 6  // NLE_UQ: not less-or-equal; true when either operand is NaN
	cmpGE    = 13 // GE_OS: false when either operand is NaN
)

// constVec broadcasts the float constant v into a new vector register.
func constVec(t vt, v float64) reg.VecVirtual {
	if t.f64 {
		return constBits(t, f64bits(v))
	}
	return constBits(t, uint64(f32bits(float32(v))))
}

// constBits broadcasts an element bit pattern into a new vector register.
func constBits(t vt, bits uint64) reg.VecVirtual {
	r := t.vec()
	g := GP64()
	MOVQ(U64(bits), g)
	if t.f64 {
		VPBROADCASTQ(g, r)
	} else {
		VPBROADCASTD(g.As32(), r)
	}
	return r
}

// absMask is the bit pattern clearing an element's sign bit.
func absMask(t vt) uint64 {
	if t.f64 {
		return 1<<63 - 1
	}
	return 1<<31 - 1
}

// signMask is the bit pattern of an element's sign bit.
func signMask(t vt) uint64 {
	if t.f64 {
		return 1 << 63
	}
	return 1 << 31
}

// Typed instruction helpers (Go operand order: sources first, dst last).

func (t vt) and(b, a, dst Op) {
	if t.f64 {
		VANDPD(b, a, dst)
	} else {
		VANDPS(b, a, dst)
	}
}

// andn sets dst = ^a & b.
func (t vt) andn(b, a, dst Op) {
	if t.f64 {
		VANDNPD(b, a, dst)
	} else {
		VANDNPS(b, a, dst)
	}
}

func (t vt) or(b, a, dst Op) {
	if t.f64 {
		VORPD(b, a, dst)
	} else {
		VORPS(b, a, dst)
	}
}

// fma213 sets acc = acc*x + c.
func (t vt) fma213(c, x, acc Op) {
	if t.f64 {
		VFMADD213PD(c, x, acc)
	} else {
		VFMADD213PS(c, x, acc)
	}
}

// fnma231 sets acc -= x*y.
func (t vt) fnma231(x, y, acc Op) {
	if t.f64 {
		VFNMADD231PD(x, y, acc)
	} else {
		VFNMADD231PS(x, y, acc)
	}
}

// cmp sets the opmask k = a PRED b.
func (t vt) cmp(pred uint8, b, a, k Op) {
	if t.f64 {
		VCMPPD(Imm(uint64(pred)), b, a, k)
	} else {
		VCMPPS(Imm(uint64(pred)), b, a, k)
	}
}

// movMasked copies the lanes of src selected by k into dst.
func (t vt) movMasked(src, k, dst Op) {
	if t.f64 {
		VMOVAPD(src, k, dst)
	} else {
		VMOVAPS(src, k, dst)
	}
}

func (t vt) copyVec(src, dst Op) {
	if t.f64 {
		VMOVAPD(src, dst)
	} else {
		VMOVAPS(src, dst)
	}
}

func (t vt) scalef(k, x, dst Op) {
	if t.f64 {
		VSCALEFPD(k, x, dst)
	} else {
		VSCALEFPS(k, x, dst)
	}
}

// poly evaluates Horner's scheme c[0]*x^(n-1) + ... + c[n-1] into a new
// register (c[0] is copied first: the coefficient registers are kept).
func poly(t vt, x reg.VecVirtual, c []reg.VecVirtual) reg.VecVirtual {
	p := t.vec()
	t.copyVec(c[0], p)
	for _, ci := range c[1:] {
		t.fma213(ci, x, p)
	}
	return p
}

// minMax emits func NAME(dst, a, b *T, n int) for NAME maximum/minimum:
// dst[i] = NaN-propagating max/min of a[i], b[i] over n elements (n a
// multiple of the vector length), with the generic kernel's semantics:
// a[i] when a[i] is NaN or compares greater (less), else b[i]. VMAXPS
// computes a > b ? a : b, which is b when either is NaN; the lanes where a
// is NaN are then replaced by a.
func minMax(t vt, op string) {
	name := op + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, a, b *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = %s(a, b), NaN if a or b is NaN, over n elements (n a multiple of %d).", name, op, t.lanes))
	d := Load(Param("dst"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	n := Load(Param("n"), GP64())
	short := "max"
	if op == "minimum" {
		short = "min"
	}
	loopN(t, n, 4, func(u int, off int) {
		x, y, r := t.vec(), t.vec(), t.vec()
		t.load(Mem{Base: a, Disp: off}, x)
		t.load(Mem{Base: b, Disp: off}, y)
		t.bin(short, y, x, r)
		if t.avx2 {
			m := t.vec()
			if t.f64 {
				VCMPPD(Imm(cmpUnord), x, x, m)
				VBLENDVPD(m, x, r, r)
			} else {
				VCMPPS(Imm(cmpUnord), x, x, m)
				VBLENDVPS(m, x, r, r)
			}
		} else {
			k := K()
			t.cmp(cmpUnord, x, x, k)
			t.movMasked(x, k, r)
		}
		t.store(r, Mem{Base: d, Disp: off})
	}, d, a, b)
	VZEROUPPER()
	RET()
}

// sqrtVec emits the AVX2 kernel func NAME(dst, x *T, n int): dst =
// sqrt(x) (IEEE, correctly rounded) over n elements, a multiple of the
// vector length. The AVX-512 version is a mathUnary kernel.
func sqrtVec(t vt) {
	name := "sqrt" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = sqrt(x) over n elements (n a multiple of %d).", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	loopN(t, n, 4, func(u int, off int) {
		v := t.vec()
		sqrtOp(t, Mem{Base: x, Disp: off}, v)
		t.store(v, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

func sqrtOp(t vt, src, dst Op) {
	if t.f64 {
		VSQRTPD(src, dst)
	} else {
		VSQRTPS(src, dst)
	}
}

// mathUnary emits the AVX-512 kernel func NAME(dst, x *T, n int) for any
// n >= 0, applying the vector function that setup returns (setup runs
// once, before the loop, to materialise constants). dst may equal x.
func mathUnary(t vt, op, doc string, setup func() func(x reg.VecVirtual) reg.VecVirtual) {
	mathUnaryReload(t, op, doc, func() func(x reg.VecVirtual, _ func() reg.VecVirtual) reg.VecVirtual {
		f := setup()
		return func(x reg.VecVirtual, _ func() reg.VecVirtual) reg.VecVirtual { return f(x) }
	})
}

// mathUnaryReload is mathUnary for a vector function that may load its
// argument again (reload emits a new load of the same vector, masked in
// the tail) instead of keeping it in a register throughout.
func mathUnaryReload(t vt, op, doc string, setup func() func(x reg.VecVirtual, reload func() reg.VecVirtual) reg.VecVirtual) {
	name := op + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets dst[i] = %s for i < n.", name, doc))
	d := Load(Param("dst"), GP64())
	xp := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	f := setup()
	loop, one, tail, done := name+"_loop2", name+"_loop1", name+"_tail", name+"_done"
	vec := func(off int) {
		load := func() reg.VecVirtual {
			v := t.vec()
			t.load(Mem{Base: xp, Disp: off}, v)
			return v
		}
		t.store(f(load(), load), Mem{Base: d, Disp: off})
	}
	Label(loop)
	CMPQ(n, U32(2*t.lanes))
	JL(LabelRef(one))
	vec(0)
	vec(t.vbytes())
	ADDQ(U32(2*t.vbytes()), xp)
	ADDQ(U32(2*t.vbytes()), d)
	SUBQ(U32(2*t.lanes), n)
	JMP(LabelRef(loop))
	Label(one)
	CMPQ(n, U32(t.lanes))
	JL(LabelRef(tail))
	vec(0)
	ADDQ(U32(t.vbytes()), xp)
	ADDQ(U32(t.vbytes()), d)
	SUBQ(U32(t.lanes), n)
	Label(tail)
	TESTQ(n, n)
	JE(LabelRef(done))
	k := lowLanes(n) // n < lanes
	load := func() reg.VecVirtual {
		v := t.vec()
		if t.f64 {
			VMOVUPD_Z(Mem{Base: xp}, k, v)
		} else {
			VMOVUPS_Z(Mem{Base: xp}, k, v)
		}
		return v
	}
	storeMasked(t, f(load(), load), k, Mem{Base: d})
	Label(done)
	VZEROUPPER()
	RET()
}

// expConsts are the constants of the vectorised exp (Cephes expf / exp,
// as in expShiftSum).
type expConsts struct {
	hi, lo, log2e, c1, c2 reg.VecVirtual
	p, q                  []reg.VecVirtual // f32: p is the degree-5 polynomial; f64: the Padé P and Q
	one                   reg.VecVirtual
	rint                  reg.VecVirtual // 1.5·2^23 (f32) or 1.5·2^52 (f64), for rounding
}

// newExpConsts materialises the exp constants; hi and lo, the clamp
// bounds, only when the caller's argument range needs them.
func newExpConsts(t vt, hi, lo bool) expConsts {
	var c expConsts
	hv, lv := 89.0, -104.0
	if t.f64 {
		hv, lv = 710, -746
	}
	if hi {
		c.hi = constVec(t, hv)
	}
	if lo {
		c.lo = constVec(t, lv)
	}
	if t.f64 {
		c.log2e = constVec(t, 1.4426950408889634073599)
		c.c1, c.c2 = constVec(t, 6.93145751953125e-1), constVec(t, 1.42860682030941723212e-6)
		for _, v := range []float64{1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1} {
			c.p = append(c.p, constVec(t, v))
		}
		for _, v := range []float64{3.00198505138664455042e-6, 2.52448340349684104192e-3, 2.27265548208155028766e-1, 2.00000000000000000009e0} {
			c.q = append(c.q, constVec(t, v))
		}
	} else {
		c.log2e = constVec(t, sleefF32.log2e)
		c.c1, c.c2 = constVec(t, sleefF32.l2u), constVec(t, sleefF32.l2l)
		for _, v := range sleefF32.p {
			c.p = append(c.p, constVec(t, v))
		}
	}
	c.one = constVec(t, 1)
	rint := 1.5 * (1 << 23)
	if t.f64 {
		rint = 1.5 * (1 << 52)
	}
	c.rint = constVec(t, rint)
	return c
}

// expReduce clamps v (in place) to the range outside of which exp is 0 or
// +Inf (keeping NaN: Intel VMINPS/VMAXPS return the second source when
// one is NaN) and reduces it: it returns k = round(v·log2 e) and leaves
// r = v - k·ln2 (Cody–Waite, ln2 = C1 + C2) in v, |r| <= ln2/2. With a
// lower clamp it also returns km, the lanes above it (or NaN): the caller
// zeroes the others in its final VSCALEF instead of letting it underflow,
// which takes a microcode assist ~20x slower than the whole kernel.
func expReduce(t vt, c expConsts, v reg.VecVirtual) (kk reg.VecVirtual, km reg.Register) {
	if c.lo != nil {
		km = K()
		t.cmp(cmpNLEUQ, c.lo, v, km)
	}
	if c.hi != nil {
		t.bin("min", v, c.hi, v)
	}
	if c.lo != nil {
		t.bin("max", v, c.lo, v)
	}
	kk = t.vec()
	t.bin("mul", c.log2e, v, kk)
	// rint(kk) as (kk + M) - M with M = 1.5·2^(mantissa bits): exact
	// round-to-nearest-even for |kk| < 2^22 (f32; 2^51 f64), far past the
	// clamp, NaN kept; the same value as VRNDSCALE(0), whose two µops
	// both need port 0 on Intel cores.
	t.bin("add", c.rint, kk, kk)
	t.bin("sub", c.rint, kk, kk)
	t.fnma231(kk, c.c1, v)
	t.fnma231(kk, c.c2, v)
	return kk, km
}

// sleefF32 are the constants of SLEEF's xexpf (sleefsimdsp.c, the 1-ulp
// expf behind PyTorch's Vectorized<float>::exp): k = rint(x·log2 e),
// s = x - k·L2U - k·L2L (FMA each), e^s = 1 + (s + s²·P(s)), P of degree
// 5 by Horner with FMA, scaled by 2^k. Computed with the same operations
// in the same order, tsr's f32 exp is bit-identical to PyTorch's on CPU
// (checked against torch.exp in TestExpMatchesSleef), so printed
// exp/softmax results agree digit for digit.
var sleefF32 = struct {
	log2e, l2u, l2l float64
	p               []float64
}{
	log2e: 1.442695040888963407359924681001892137426645954152985934135449406931,
	l2u:   0.693145751953125,
	l2l:   1.428606765330187045e-06,
	p: []float64{0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
		0.0416664853692054748535156, 0.166666671633720397949219, 0.5},
}

// sleefF64 are the constants of SLEEF's xexp (sleefsimddp.c, the 1-ulp
// exp behind PyTorch's Vectorized<double>::exp): k = rint(x·log2 e),
// s = x - k·L2U - k·L2L (FMA each), then c[0..9] (c1..c10) by Estrin's
// scheme and three FMAs (sleefExpF64Poly), scaled by 2^k: f64 exp is
// bit-identical to torch.exp (TestExpMatchesSleef).
var sleefF64 = struct {
	log2e, l2u, l2l float64
	c               []float64 // c1 .. c10
}{
	log2e: 1.442695040888963407359924681001892137426645954152985934135449406931,
	l2u:   .69314718055966295651160180568695068359375,
	l2l:   .28235290563031577122588448175013436025525412068e-12,
	c: []float64{0.1666666666666669072e+0, 0.4166666666666602598e-1, 0.8333333333314938210e-2,
		0.1388888888914497797e-2, 0.1984126989855865850e-3, 0.2480158687479686264e-4,
		0.2755723402025388239e-5, 0.2755762628169491192e-6, 0.2511210703042288022e-7,
		0.2081276378237164457e-8},
}

// sleefExpF64Poly returns e^s for the reduced f64 argument s (c = sleefF64.c
// as vectors): u = fma(s8, fma(s, c10, c9), fma(s4, fma(s2, fma(s, c8, c7),
// fma(s, c6, c5)), fma(s2, fma(s, c4, c3), fma(s, c2, c1)))), then
// u = fma(u, s, 0.5), fma(u, s, 1), fma(u, s, 1), in SLEEF's order.
func sleefExpF64Poly(c []reg.VecVirtual, half, one, s reg.VecVirtual) reg.VecVirtual {
	mla := func(x, y, z reg.VecVirtual) reg.VecVirtual { // x*y + z
		r := ZMM()
		VMOVAPD(z, r)
		VFMADD231PD(y, x, r)
		return r
	}
	s2, s4, s8 := ZMM(), ZMM(), ZMM()
	VMULPD(s, s, s2)
	VMULPD(s2, s2, s4)
	VMULPD(s4, s4, s8)
	u := mla(s8, mla(s, c[9], c[8]),
		mla(s4, mla(s2, mla(s, c[7], c[6]), mla(s, c[5], c[4])),
			mla(s2, mla(s, c[3], c[2]), mla(s, c[1], c[0]))))
	u = mla(u, s, half)
	u = mla(u, s, one)
	return mla(u, s, one)
}

// expF32Vec returns e^v for a clamped f32 argument (v is clobbered):
// SLEEF's expf (see sleefF32), e^s = 1 + (s + s²·P(s)), scaled by 2^k with
// VSCALEFPS (one rounding, as SLEEF's two exact power-of-two products;
// overflow to +Inf and gradual underflow exact).
func expF32Vec(t vt, c expConsts, v reg.VecVirtual) reg.VecVirtual {
	kk, km := expReduce(t, c, v)
	p := poly(t, v, c.p)
	rr := t.vec()
	VMULPS(v, v, rr)
	VFMADD231PS(p, rr, v) // s + s²·P(s)
	VADDPS(c.one, v, v)
	if km != nil {
		VSCALEFPS_Z(kk, v, km, v)
	} else {
		VSCALEFPS(kk, v, v)
	}
	return v
}

// expF64Frac returns num, den with e^v = num/den for a clamped f64
// argument (v is clobbered): Cephes exp's Padé form e^r = (Q(r²) + r·P(r²))
// / (Q(r²) - r·P(r²)), numerator scaled by 2^k with VSCALEFPD. Callers
// fold the division into their own.
func expF64Frac(t vt, c expConsts, v reg.VecVirtual) (num, den reg.VecVirtual) {
	kk, km := expReduce(t, c, v)
	rr := t.vec()
	VMULPD(v, v, rr)
	px := poly(t, rr, c.p)
	VMULPD(v, px, px)
	q := poly(t, rr, c.q)
	num, den = t.vec(), t.vec()
	VADDPD(px, q, num)
	VSUBPD(px, q, den)
	if km != nil {
		VSCALEFPD_Z(kk, num, km, num)
	} else {
		VSCALEFPD(kk, num, num)
	}
	return num, den
}

// divF32 returns num/den (f32, den finite and nonzero) without VDIVPS,
// whose throughput bounds tanh and sigmoid: y = VRCP14PS(den) (relative
// error < 2^-14), q0 = num·y, then one Newton–Raphson correction of the
// quotient with the exact FMA residual, q = q0 + (num - den·q0)·y, which
// leaves a relative error of about 2^-28 before the final rounding
// (Markstein's scheme); the tests bound the kernels' total error.
func divF32(num, den reg.VecVirtual) reg.VecVirtual {
	y, q, r := ZMM(), ZMM(), ZMM()
	VRCP14PS(den, y)
	VMULPS(y, num, q)
	VMOVAPS(num, r)
	VFNMADD231PS(q, den, r) // r = num - den·q0
	VFMADD231PS(r, y, q)    // q = q0 + r·y
	return q
}

// tanhKernel emits tanhF32AVX512 / tanhF64AVX512, following Cephes (tanhf,
// tanh; also Go's math.Tanh) on a = |x| with x's sign copied onto the
// result (tanh is odd; tanh(-0) = -0):
//
//   - a < 0.625: a + a·z·P(z), z = a² (f32: degree-4 P; f64: a + a·z·P(z)/Q(z),
//     the [2/3] rational);
//   - a >= 0.625: 1 - 2/(e^(2a) + 1), which saturates to 1 when e^(2a)
//     overflows; in f64, with e^(2a) = N/D from the Padé form, 2/(e+1) =
//     2D/(N + D), so a single division per vector serves both branches.
//
// Both branches run on every lane and the result is selected with an
// opmask; NaN takes the second branch and stays NaN.
func tanhKernel(t vt) {
	mathUnary(t, "tanh", "tanh(x[i])", func() func(x reg.VecVirtual) reg.VecVirtual { return tanhSetup(t) })
}

// tanhSetup materialises tanhKernel's constants and returns its vector
// function (also the tanh inside the gelu tanh-approximation kernels).
func tanhSetup(t vt) func(x reg.VecVirtual) reg.VecVirtual {
	{
		abs := constBits(t, absMask(t))
		thr := constVec(t, 0.625)
		// 2|x| >= 0: only the upper clamp; f32 clamps at 40 (e^40 is finite,
		// and tanh rounds to 1 from 9.01) so that the reciprocal in divF32
		// never sees +Inf
		c := newExpConsts(t, true, false)
		if !t.f64 {
			c.hi = constVec(t, 40)
		}
		var two reg.VecVirtual
		if !t.f64 {
			two = constVec(t, 2)
		}
		var tp, tq []reg.VecVirtual
		if t.f64 {
			for _, v := range []float64{-9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3} {
				tp = append(tp, constVec(t, v))
			}
			// Q is monic: Q(z) = ((z + q0)z + q1)z + q2; the leading 1 is c.one
			tq = append(tq, c.one)
			for _, v := range []float64{1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3} {
				tq = append(tq, constVec(t, v))
			}
		} else {
			for _, v := range []float64{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1} {
				tp = append(tp, constVec(t, v))
			}
		}
		return func(x reg.VecVirtual) reg.VecVirtual {
			a, sgn := t.vec(), t.vec()
			t.and(abs, x, a)
			t.andn(x, abs, sgn) // sign bit of x
			small := K()
			t.cmp(cmpLT, thr, a, small)
			z := t.vec()
			t.bin("mul", a, a, z)
			az := t.vec()
			t.bin("mul", z, a, az)
			p := poly(t, z, tp)
			v := t.vec()
			t.bin("add", a, a, v)
			var r reg.VecVirtual
			if t.f64 {
				q := poly(t, z, tq)
				VMULPD(az, p, p) // small: a·z·P / Q
				en, ed := expF64Frac(t, c, v)
				num, den := t.vec(), t.vec()
				VADDPD(ed, ed, num) // large: 2D / (N + D)
				VADDPD(en, ed, den)
				t.movMasked(p, small, num)
				t.movMasked(q, small, den)
				VDIVPD(den, num, num)
				r = t.vec()
				VSUBPD(num, c.one, r)    // 1 - 2/(e+1)
				VADDPD(num, a, small, r) // a + a·z·P/Q
			} else {
				VFMADD213PS(a, az, p) // small: a + a·z·P
				e := expF32Vec(t, c, v)
				VADDPS(c.one, e, e)
				q := divF32(two, e)
				r = t.vec()
				VSUBPS(q, c.one, r)
				t.movMasked(p, small, r)
			}
			t.or(sgn, r, r)
			return r
		}
	}
}

// sigmoidKernel emits sigmoidF32AVX512 / sigmoidF64AVX512: with
// e = e^-|x| (never overflows), sigmoid(x) = 1/(1+e) for x >= 0 and
// e/(1+e) for x < 0, so one division serves both signs. In f64, e = N/D
// (Padé form), so sigmoid = D/(N+D) or N/(N+D). Below -SigmoidZeroF32/F64
// (where PyTorch's 1/(1+exp(-x)) overflows exp and returns 0) the result
// is 0, as PyTorch's; above it the subnormal results agree.
func sigmoidKernel(t vt) {
	mathUnary(t, "sigmoid", "1/(1+e^-x[i])", func() func(x reg.VecVirtual) reg.VecVirtual {
		sign := constBits(t, signMask(t))
		zero := t.vec()
		t.zero(zero)
		thr := constVec(t, -sigmoidZero(t))
		c := newExpConsts(t, false, true) // -|x| <= 0: only the lower clamp
		return func(x reg.VecVirtual) reg.VecVirtual {
			pos, under := K(), K()
			t.cmp(cmpGE, zero, x, pos)  // x >= 0 (false for NaN)
			t.cmp(cmpLT, thr, x, under) // x < -thr (false for NaN)
			v := t.vec()
			t.or(sign, x, v) // -|x|
			var r reg.VecVirtual
			if t.f64 {
				en, ed := expF64Frac(t, c, v)
				den := t.vec()
				VADDPD(en, ed, den)
				t.movMasked(ed, pos, en)
				VDIVPD(den, en, en)
				r = en
			} else {
				e := expF32Vec(t, c, v)
				den := t.vec()
				VADDPS(c.one, e, den)
				t.movMasked(c.one, pos, e)
				r = divF32(e, den)
			}
			t.movMasked(zero, under, r)
			return r
		}
	})
}

// sigmoidZero is the largest x for which exp(x) is finite in t's dtype
// (cpu.SigmoidZeroF32/F64); sigmoid is 0 below its negative.
func sigmoidZero(t vt) float64 {
	if t.f64 {
		return 709.782712893384
	}
	return 88.72283172607421875
}

// logFixup is the VFIXUPIMM table for log: by input class (QNaN, SNaN, ±0,
// +1, -Inf, +Inf, negative, positive; a nibble each, class 0 lowest) the
// result is QNaN(x), QNaN(x), -Inf, +0, NaN, +Inf, NaN, or the computed
// value (0: keep the destination).
const logFixup = 0x0_3_5_3_8_4_2_2

// logSleefF32Kernel emits logF32AVX512 as SLEEF's xlogf_u1 (sleefsimdsp.c,
// the FMA build that torch.log runs for f32 on AVX2 CPUs), step for step,
// so that it matches cpu.LogSleefF32 and PyTorch bit for bit: inputs below
// FLT_MIN are scaled by 2^64; e = ilogb(d·(1/0.75)) from the exponent bits
// and m = d·2^-e in [0.75, 1.5) by integer arithmetic; x = (m-1)/(m+1) as
// a double-float; ln d = e·ln2 + 2x + x³·(c0·x⁴ + c1·x² + c2) summed as a
// float pair. Zero, negative, infinite and NaN inputs are fixed up with
// VFIXUPIMM (logFixup, as the Cephes kernel).
func logSleefF32Kernel(t vt) {
	mathUnary(t, "log", "log(x[i]) as SLEEF's logf_u10 (PyTorch's f32 log; log(±0) = -Inf, log(x<0) = NaN)", func() func(x reg.VecVirtual) reg.VecVirtual {
		fltMin := constVec(t, 1.1754943508222875e-38)
		two64 := constVec(t, 18446744073709551616.0)
		inv075 := constVec(t, 1.0/0.75)
		expMask, bias, sixtyFour := constBits(t, 0xff), constBits(t, 0x7f), constBits(t, 64)
		ln2hi, ln2lo := constVec(t, 0.69314718246459960938), constVec(t, -1.904654323148236017e-09)
		one, two := constVec(t, 1), constVec(t, 2)
		c0, c1, c2 := constVec(t, 0.3027294874), constVec(t, 0.3996108174), constVec(t, 0.6666694880)
		table := constBits(t, logFixup)
		return func(x reg.VecVirtual) reg.VecVirtual {
			o := K()
			VCMPPS(Imm(cmpLT), fltMin, x, o) // x < FLT_MIN
			d := t.vec()
			VMOVAPS(x, d)
			VMULPS(two64, x, o, d)
			e := t.vec()
			VMULPS(inv075, d, e)
			VPSRLD(Imm(23), e, e)
			VPANDD(expMask, e, e)
			VPSUBD(bias, e, e)
			m, sh := t.vec(), t.vec()
			VPSLLD(Imm(23), e, sh)
			VPSUBD(sh, d, m) // d·2^-e
			VPSUBD(sixtyFour, e, o, e)
			ef := t.vec()
			VCVTDQ2PS(e, ef)
			// s = (ln2hi, ln2lo)·e (dfmul_vf2_vf2_vf)
			sx, sy := t.vec(), t.vec()
			VMULPS(ef, ln2hi, sx)
			VMOVAPS(ln2hi, sy)
			VFMSUB213PS(sx, ef, sy)    // ln2hi·e - sx
			VFMADD231PS(ln2lo, ef, sy) // + ln2lo·e
			// (nx, ny) = -1 + m, (dx, dy) = 1 + m (dfadd2_vf2_vf_vf)
			nx, ny := t.vec(), t.vec()
			{
				v, w := t.vec(), t.vec()
				VSUBPS(one, m, nx) // -1 + m
				VADDPS(one, nx, v) // nx - (-1)
				VSUBPS(v, nx, w)   // nx - v
				VADDPS(one, w, w)  // 1 + (nx - v)
				VSUBPS(v, m, ny)   // m - v
				VSUBPS(w, ny, ny)  // (-1 - (nx - v)) + (m - v)
			}
			dx, dy := t.vec(), t.vec()
			{
				v, w := t.vec(), t.vec()
				VADDPS(one, m, dx) // 1 + m
				VSUBPS(one, dx, v) // dx - 1
				VSUBPS(v, dx, w)   // dx - v
				VSUBPS(w, one, w)  // 1 - (dx - v)
				VSUBPS(v, m, dy)   // m - v
				VADDPS(dy, w, dy)  // (1 - (dx - v)) + (m - v)
			}
			// (xx, xy) = (nx, ny) / (dx, dy) (dfdiv_vf2_vf2_vf2 with FMA)
			r, xx, u, w, xy := t.vec(), t.vec(), t.vec(), t.vec(), t.vec()
			VDIVPS(dx, one, r) // 1/dx
			VMULPS(r, nx, xx)
			VMOVAPS(r, u)
			VFMSUB213PS(xx, nx, u) // r·nx - xx
			VMOVAPS(one, w)
			VFNMADD231PS(dx, r, w) // 1 - r·dx
			VFNMADD231PS(dy, r, w) // - r·dy
			VMOVAPS(u, xy)
			VFMADD231PS(ny, r, xy) // r·ny + u
			VFMADD231PS(xx, w, xy) // w·xx + ...
			x2 := t.vec()
			VMULPS(xx, xx, x2)
			p := t.vec()
			VMOVAPS(c0, p)
			VFMADD213PS(c1, x2, p)
			VFMADD213PS(c2, x2, p)
			// s += 2x (dfadd_vf2_vf2_vf2: lo = (((sx - S) + ax) + sy) + ay)
			ax, ay, sum, lo := t.vec(), t.vec(), t.vec(), t.vec()
			VMULPS(two, xx, ax)
			VMULPS(two, xy, ay)
			VADDPS(ax, sx, sum)
			VSUBPS(sum, sx, lo)
			VADDPS(ax, lo, lo)
			VADDPS(sy, lo, lo)
			VADDPS(ay, lo, lo)
			// s += x²·x·t (dfadd_vf2_vf2_vf: lo = ((S - S2) + v) + lo)
			v, sum2 := t.vec(), t.vec()
			VMULPS(xx, x2, v)
			VMULPS(p, v, v)
			VADDPS(v, sum, sum2)
			VSUBPS(sum2, sum, sum)
			VADDPS(v, sum, sum)
			VADDPS(lo, sum, sum)
			VADDPS(sum, sum2, sum2)
			VFIXUPIMMPS(Imm(0), table, x, sum2)
			return sum2
		}
	})
}

// logSleefF64Kernel emits logF64AVX512 as SLEEF's xlog_u1 (sleefsimddp.c,
// the FMA build that torch.log runs for f64 on AVX2 CPUs), step for step,
// so that it matches cpu.LogSleefF64 and PyTorch bit for bit: inputs below
// DBL_MIN are scaled by 2^64; e = ilogb(d·(1/0.75)) from the exponent bits
// and m = d·2^-e in [0.75, 1.5) by integer arithmetic; x = (m-1)/(m+1) as
// a double-double; ln d = e·ln2 + 2x + x³·P(x²) (P of degree 6 by Estrin's
// scheme, as SLEEF's POLY7) summed as a double pair. Zero, negative,
// infinite and NaN inputs are fixed up with VFIXUPIMM (logFixup).
func logSleefF64Kernel(t vt) {
	mathUnary(t, "log", "log(x[i]) as SLEEF's log_u10 (PyTorch's f64 log; log(±0) = -Inf, log(x<0) = NaN)", func() func(x reg.VecVirtual) reg.VecVirtual {
		dblMin := constVec(t, 0x1p-1022)
		two64 := constVec(t, 0x1p64)
		inv075 := constVec(t, 1.0/0.75)
		expMask, bias, sixtyFour := constBits(t, 0x7ff), constBits(t, 0x3ff), constBits(t, 64)
		ln2hi, ln2lo := constVec(t, 0.693147180559945286226764), constVec(t, 2.319046813846299558417771e-17)
		one, two := constVec(t, 1), constVec(t, 2)
		var c [7]reg.VecVirtual
		for i, v := range []float64{0.1532076988502701353, 0.1525629051003428716, 0.1818605932937785996,
			0.2222214519839380009, 0.2857142932794299317, 0.3999999999635251990, 0.6666666666667333541} {
			c[i] = constVec(t, v)
		}
		table := constBits(t, logFixup)
		return func(x reg.VecVirtual) reg.VecVirtual {
			o := K()
			VCMPPD(Imm(cmpLT), dblMin, x, o) // x < DBL_MIN
			d := t.vec()
			VMOVAPD(x, d)
			VMULPD(two64, x, o, d)
			e := t.vec()
			VMULPD(inv075, d, e)
			VPSRLQ(Imm(52), e, e)
			VPANDQ(expMask, e, e)
			VPSUBQ(bias, e, e)
			m, sh := t.vec(), t.vec()
			VPSLLQ(Imm(52), e, sh)
			VPSUBQ(sh, d, m) // d·2^-e
			VPSUBQ(sixtyFour, e, o, e)
			ef := t.vec()
			VCVTQQ2PD(e, ef)
			// s = (ln2hi, ln2lo)·e (ddmul_vd2_vd2_vd)
			sx, sy := t.vec(), t.vec()
			VMULPD(ef, ln2hi, sx)
			VMOVAPD(ln2hi, sy)
			VFMSUB213PD(sx, ef, sy)    // ln2hi·e - sx
			VFMADD231PD(ln2lo, ef, sy) // + ln2lo·e
			// (nx, ny) = -1 + m, (dx, dy) = 1 + m (ddadd2_vd2_vd_vd)
			nx, ny := t.vec(), t.vec()
			{
				v, w := t.vec(), t.vec()
				VSUBPD(one, m, nx) // -1 + m
				VADDPD(one, nx, v) // nx - (-1)
				VSUBPD(v, nx, w)   // nx - v
				VADDPD(one, w, w)  // 1 + (nx - v)
				VSUBPD(v, m, ny)   // m - v
				VSUBPD(w, ny, ny)  // (-1 - (nx - v)) + (m - v)
			}
			dx, dy := t.vec(), t.vec()
			{
				v, w := t.vec(), t.vec()
				VADDPD(one, m, dx) // 1 + m
				VSUBPD(one, dx, v) // dx - 1
				VSUBPD(v, dx, w)   // dx - v
				VSUBPD(w, one, w)  // 1 - (dx - v)
				VSUBPD(v, m, dy)   // m - v
				VADDPD(dy, w, dy)  // (1 - (dx - v)) + (m - v)
			}
			// (xx, xy) = (nx, ny) / (dx, dy) (dddiv_vd2_vd2_vd2 with FMA)
			r, xx, u, w, xy := t.vec(), t.vec(), t.vec(), t.vec(), t.vec()
			VDIVPD(dx, one, r) // 1/dx
			VMULPD(r, nx, xx)
			VMOVAPD(r, u)
			VFMSUB213PD(xx, nx, u) // r·nx - xx
			VMOVAPD(one, w)
			VFNMADD231PD(dx, r, w) // 1 - r·dx
			VFNMADD231PD(dy, r, w) // - r·dy
			VMOVAPD(u, xy)
			VFMADD231PD(ny, r, xy) // r·ny + u
			VFMADD231PD(xx, w, xy) // w·xx + ...
			// P(x²) = x⁸·(x⁴c0 + (x²c1 + c2)) + (x⁴(x²c3 + c4) + (x²c5 + c6))
			x2, x4, x8 := t.vec(), t.vec(), t.vec()
			VMULPD(xx, xx, x2)
			VMULPD(x2, x2, x4)
			VMULPD(x4, x4, x8)
			a, b, p := t.vec(), t.vec(), t.vec()
			VMOVAPD(c[1], a)
			VFMADD213PD(c[2], x2, a) // x²c1 + c2
			VFMADD231PD(c[0], x4, a) // + x⁴c0
			VMOVAPD(c[3], b)
			VFMADD213PD(c[4], x2, b) // x²c3 + c4
			VMOVAPD(c[5], p)
			VFMADD213PD(c[6], x2, p) // x²c5 + c6
			VFMADD231PD(b, x4, p)    // + x⁴(x²c3 + c4)
			VFMADD231PD(a, x8, p)    // + x⁸(...)
			// s += 2x (ddadd_vd2_vd2_vd2: lo = (((sx - S) + ax) + sy) + ay)
			ax, ay, sum, lo := t.vec(), t.vec(), t.vec(), t.vec()
			VMULPD(two, xx, ax)
			VMULPD(two, xy, ay)
			VADDPD(ax, sx, sum)
			VSUBPD(sum, sx, lo)
			VADDPD(ax, lo, lo)
			VADDPD(sy, lo, lo)
			VADDPD(ay, lo, lo)
			// s += x²·x·P (ddadd_vd2_vd2_vd: lo = ((S - S2) + v) + lo)
			v, sum2 := t.vec(), t.vec()
			VMULPD(xx, x2, v)
			VMULPD(p, v, v)
			VADDPD(v, sum, sum2)
			VSUBPD(sum2, sum, sum)
			VADDPD(v, sum, sum)
			VADDPD(lo, sum, sum)
			VADDPD(sum, sum2, sum2)
			VFIXUPIMMPD(Imm(0), table, x, sum2)
			return sum2
		}
	})
}

// sqrtKernel emits the AVX-512 sqrtF32AVX512 / sqrtF64AVX512 (masked tail).
func sqrtKernel(t vt) {
	mathUnary(t, "sqrt", "sqrt(x[i]) (IEEE: correctly rounded, sqrt(-0) = -0, NaN for x < 0)", func() func(x reg.VecVirtual) reg.VecVirtual {
		return func(x reg.VecVirtual) reg.VecVirtual {
			sqrtOp(t, x, x)
			return x
		}
	})
}

// mathKernels emits the kernels of this file for one element type and ISA.
func mathKernels(t vt) {
	minMax(t, "maximum")
	minMax(t, "minimum")
	if t.avx2 {
		sqrtVec(t)
		return
	}
	sqrtKernel(t)
	tanhKernel(t)
	sigmoidKernel(t)
	if t.f64 {
		logSleefF64Kernel(t)
	} else {
		logSleefF32Kernel(t)
	}
}

// lowLanes returns an opmask with the low n bits set (n < 16: the live
// lanes of a partial last vector).
func lowLanes(n reg.Register) reg.Register {
	ones, bits := GP64(), GP64()
	MOVQ(I32(-1), ones)
	BZHIQ(n, ones, bits)
	k := K()
	KMOVW(bits.As32(), k)
	return k
}
