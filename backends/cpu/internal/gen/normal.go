package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Box-Muller of PyTorch's normal_fill_16_AVX2 (DistributionTemplates.h)
// with avx_mathfun.h's log256_ps and sincos256_ps, in the float32
// operations of the pure-Go reference (backends/cpu/normal.go: cephesLogf,
// cephesSincosf, normalFill16Block), one lane per element: the same
// roundings, the same fused multiply-adds (VFMADD* round once, as
// fma32Exact; the other products and sums are plain VMULPS/VADDPS), the
// same integer tricks, and VSQRTPS for the float64 square root rounded to
// float32 (equal for every float32 argument). The constants are the Go
// source's float32 literals (converted from the decimal constant directly,
// as the Go compiler does), splatted to 16 lanes in a read-only table and
// used as memory operands: there are more of them than vector registers.

// normalConst is one constant of the table: a float32 value or raw bits.
type normalConst struct {
	name string
	bits uint32
}

func f32c(name string, v float32) normalConst { return normalConst{name, math.Float32bits(v)} }

var normalConsts = []normalConst{
	{"minnorm", 0x00800000}, // 0x1p-126, the smallest normal float32
	{"invmant", 0x807fffff}, // ^0x7f800000
	{"i127", 0x7f},
	f32c("one", 1),
	f32c("half", 0.5), // also the exponent bits of [0.5, 1)
	f32c("sqrthf", 0.707106781186547524),
	f32c("p0", 7.0376836292e-2),
	f32c("p1", -1.1514610310e-1),
	f32c("p2", 1.1676998740e-1),
	f32c("p3", -1.2420140846e-1),
	f32c("p4", 1.4249322787e-1),
	f32c("p5", -1.6668057665e-1),
	f32c("p6", 2.0000714765e-1),
	f32c("p7", -2.4999993993e-1),
	f32c("p8", 3.3333331174e-1),
	f32c("q1", -2.12194440e-4),
	f32c("q2", 0.693359375),
	{"nan", 0x7fc00000}, // float32(math.NaN())
	{"zero", 0},
	f32c("m2", -2),
	f32c("twopi", 2*math.Pi),
	{"sign", 0x80000000},
	{"abs", 0x7fffffff},
	f32c("fopi", 1.27323954473516),
	{"i1", 1},
	{"inv1", 0xfffffffe}, // ^1
	{"i2", 2},
	{"i4", 4},
	f32c("dp1", -0.78515625),
	f32c("dp2", -2.4187564849853515625e-4),
	f32c("dp3", -3.77489497744594108e-8),
	f32c("c0", 2.443315711809948e-5),
	f32c("c1", -1.388731625493765e-3),
	f32c("c2", 4.166664568298827e-2),
	f32c("s0", -1.9515295891e-4),
	f32c("s1", 8.3321608736e-3),
	f32c("s2", -1.6666654611e-1),
}

// normalTable emits the constant table once and returns an accessor for
// its 64-byte (16-lane) splats.
var normalTableMem *Mem

func normalTable() func(name string) Mem {
	if normalTableMem == nil {
		m := GLOBL("normalConstsF32", RODATA|NOPTR)
		for i, c := range normalConsts {
			for l := 0; l < 16; l++ {
				DATA(64*i+4*l, U32(c.bits))
			}
		}
		normalTableMem = &m
	}
	return func(name string) Mem {
		for i, c := range normalConsts {
			if c.name == name {
				return normalTableMem.Offset(64 * i)
			}
		}
		panic("normal: no constant " + name)
	}
}

// nmask is a lane predicate: an opmask (AVX-512) or a vector of all-ones
// and all-zeros lanes (AVX2).
type nmask struct {
	k reg.Register
	v reg.VecVirtual
}

// cmpMask returns the lanes where a PRED b.
func (t vt) cmpMask(pred uint8, b Op, a reg.VecVirtual) nmask {
	if t.avx2 {
		m := t.vec()
		VCMPPS(Imm(uint64(pred)), b, a, m)
		return nmask{v: m}
	}
	k := K()
	VCMPPS(Imm(uint64(pred)), b, a, k)
	return nmask{k: k}
}

// sel returns a new vector holding a in the lanes of m and b elsewhere.
func (t vt) sel(m nmask, a, b Op) reg.VecVirtual {
	r := t.vec()
	if t.avx2 {
		VBLENDVPS(m.v, a, b, r)
		return r
	}
	VMOVAPS(b, r)
	VMOVAPS(a, m.k, r)
	return r
}

const cmpLE = 2 // LE_OS: false when either operand is NaN

// normalLog is cephesLogf (log256_ps) on the lanes of x (clobbered).
func normalLog(t vt, c func(string) Mem, x reg.VecVirtual) reg.VecVirtual {
	invalid := t.cmpMask(cmpLE, c("zero"), x)
	VMAXPS(c("minnorm"), x, x) // x > min ? x : min (NaN -> min)
	e := t.vec()
	VPSRLD(Imm(23), x, e)
	VPSUBD(c("i127"), e, e)
	VCVTDQ2PS(e, e)
	VADDPS(c("one"), e, e)
	VANDPS(c("invmant"), x, x)
	VORPS(c("half"), x, x) // mantissa in [0.5, 1)
	small := t.cmpMask(cmpLT, c("sqrthf"), x)
	tmp := t.vec()
	if t.avx2 {
		VANDPS(small.v, x, tmp)
		d := t.vec()
		VANDPS(c("one"), small.v, d)
		VSUBPS(d, e, e)
	} else {
		VMOVAPS_Z(x, small.k, tmp)
		VSUBPS(c("one"), e, small.k, e)
	}
	VSUBPS(c("one"), x, x)
	VADDPS(tmp, x, x) // x - 1 + tmp
	z := t.vec()
	VMULPS(x, x, z)
	y := t.vec()
	VMOVUPS(c("p0"), y)
	for i := 1; i <= 8; i++ {
		VFMADD213PS(c(fmt.Sprintf("p%d", i)), x, y) // y = y*x + p_i
	}
	VMULPS(x, y, y)
	q := t.vec()
	VMULPS(c("q1"), e, q)
	VFMADD213PS(q, z, y)          // y = y*z + e*q1
	VFNMADD231PS(c("half"), z, y) // y = -(z*0.5) + y
	s := t.vec()
	VADDPS(y, x, s)
	VFMADD231PS(c("q2"), e, s) // s = e*q2 + (x + y)
	if t.avx2 {
		VBLENDVPS(invalid.v, c("nan"), s, s)
	} else {
		VMOVUPS(c("nan"), invalid.k, s)
	}
	return s
}

// normalSincos is cephesSincosf (sincos256_ps) on the lanes of v.
func normalSincos(t vt, c func(string) Mem, v reg.VecVirtual) (sin, cos reg.VecVirtual) {
	ss := t.vec()
	VANDPS(c("sign"), v, ss)
	x := t.vec()
	VANDPS(c("abs"), v, x)
	j := t.vec()
	VMULPS(c("fopi"), x, j)
	VCVTTPS2DQ(j, j)
	VPADDD(c("i1"), j, j)
	VANDPS(c("inv1"), j, j) // (j + 1) &^ 1
	y := t.vec()
	VCVTDQ2PS(j, y)
	s4 := t.vec()
	VANDPS(c("i4"), j, s4)
	VPSLLD(Imm(29), s4, s4)
	VXORPS(s4, ss, ss) // sign of sin
	cs := t.vec()
	VPSUBD(c("i2"), j, cs)
	VANDNPS(c("i4"), cs, cs) // ^(j-2) & 4
	VPSLLD(Imm(29), cs, cs)  // sign of cos
	var sinPoly nmask        // j&2 == 0
	if t.avx2 {
		m := t.vec()
		VANDPS(c("i2"), j, m)
		VPCMPEQD(c("zero"), m, m)
		sinPoly.v = m
	} else {
		sinPoly.k = K()
		VPTESTNMD(c("i2"), j, sinPoly.k)
	}
	// extended-precision x - y*pi/4
	VFMADD231PS(c("dp1"), y, x)
	VFMADD231PS(c("dp2"), y, x)
	VFMADD231PS(c("dp3"), y, x)
	z := t.vec()
	VMULPS(x, x, z)
	yc := t.vec()
	VMOVUPS(c("c0"), yc)
	VFMADD213PS(c("c1"), z, yc)
	VFMADD213PS(c("c2"), z, yc)
	VMULPS(z, yc, yc)
	hz := t.vec()
	VMULPS(c("half"), z, hz)
	VFMSUB213PS(hz, z, yc) // yc = yc*z - z*0.5
	VADDPS(c("one"), yc, yc)
	ys := t.vec()
	VMOVUPS(c("s0"), ys)
	VFMADD213PS(c("s1"), z, ys)
	VFMADD213PS(c("s2"), z, ys)
	VMULPS(z, ys, ys)
	VFMADD213PS(x, x, ys) // ys = ys*x + x
	sin = t.sel(sinPoly, ys, yc)
	cos = t.sel(sinPoly, yc, ys)
	VXORPS(ss, sin, sin)
	VXORPS(cs, cos, cos)
	return sin, cos
}

// normalPair transforms u1 (1 - the first 8 uniforms of a block) and u2
// (its last 8) into the block's outputs: r·cos·std + mean, r·sin·std + mean.
func normalPair(t vt, c func(string) Mem, u1, u2, mean, std reg.VecVirtual) (o0, o1 reg.VecVirtual) {
	l := normalLog(t, c, u1)
	r := t.vec()
	VMULPS(c("m2"), l, r)
	VSQRTPS(r, r)
	v := t.vec()
	VMULPS(c("twopi"), u2, v)
	sin, cos := normalSincos(t, c, v)
	o0, o1 = t.vec(), t.vec()
	VMULPS(cos, r, o0)
	VFMADD213PS(mean, std, o0) // o0 = o0*std + mean
	VMULPS(sin, r, o1)
	VFMADD213PS(mean, std, o1)
	return o0, o1
}

// normalFill16 emits
//
//	func normalFill16F32AVX2(b *float32, blocks int, mean, std float32)
//	func normalFill16F32AVX512(b *float32, blocks int, mean, std float32)
//
// which transform the blocks of 16 uniforms b[16k:16k+16], k < blocks, in
// place into normal samples, as NormalFill16F32. The AVX2 kernel takes a
// block per iteration (8 lanes: u1 from b[0:8], u2 from b[8:16]); the
// AVX-512 one two blocks per iteration, their halves gathered into 16
// lanes, and a last odd block in the low 8 lanes.
func normalFill16(t vt) {
	name := "normalFill16" + t.sfx
	TEXT(name, NOSPLIT, "func(b *float32, blocks int, mean, std float32)")
	Pragma("noescape")
	Doc(name + " transforms blocks of 16 uniforms in place into normal samples (PyTorch's normal_fill_16_AVX2).")
	c := normalTable()
	p := Load(Param("b"), GP64())
	n := Load(Param("blocks"), GP64())
	mean, std := t.bcastParam("mean"), t.bcastParam("std")
	one := t.vec()
	VMOVUPS(c("one"), one)
	loop, last, done := name+"_loop", name+"_last", name+"_done"
	if t.avx2 {
		Label(loop)
		TESTQ(n, n)
		JE(LabelRef(done))
		u1, u2 := t.vec(), t.vec()
		VMOVUPS(Mem{Base: p}, u1)
		VSUBPS(u1, one, u1) // 1 - b[j]
		VMOVUPS(Mem{Base: p, Disp: 32}, u2)
		o0, o1 := normalPair(t, c, u1, u2, mean, std)
		VMOVUPS(o0, Mem{Base: p})
		VMOVUPS(o1, Mem{Base: p, Disp: 32})
		ADDQ(U8(64), p)
		DECQ(n)
		JMP(LabelRef(loop))
	} else {
		Label(loop)
		CMPQ(n, U8(2))
		JL(LabelRef(last))
		u1, u2 := t.vec(), t.vec()
		VMOVUPS(Mem{Base: p}, u1.AsY())
		VINSERTF32X8(U8(1), Mem{Base: p, Disp: 64}, u1, u1)
		VSUBPS(u1, one, u1)
		VMOVUPS(Mem{Base: p, Disp: 32}, u2.AsY())
		VINSERTF32X8(U8(1), Mem{Base: p, Disp: 96}, u2, u2)
		o0, o1 := normalPair(t, c, u1, u2, mean, std)
		VMOVUPS(o0.AsY(), Mem{Base: p})
		VEXTRACTF32X8(U8(1), o0, Mem{Base: p, Disp: 64})
		VMOVUPS(o1.AsY(), Mem{Base: p, Disp: 32})
		VEXTRACTF32X8(U8(1), o1, Mem{Base: p, Disp: 96})
		ADDQ(U8(128), p)
		SUBQ(U8(2), n)
		JMP(LabelRef(loop))
		Label(last)
		TESTQ(n, n)
		JE(LabelRef(done))
		// one block in the low lanes (the upper ones load as 0 and are
		// computed but not stored)
		v1, v2 := t.vec(), t.vec()
		VMOVUPS(Mem{Base: p}, v1.AsY())
		VSUBPS(v1, one, v1)
		VMOVUPS(Mem{Base: p, Disp: 32}, v2.AsY())
		q0, q1 := normalPair(t, c, v1, v2, mean, std)
		VMOVUPS(q0.AsY(), Mem{Base: p})
		VMOVUPS(q1.AsY(), Mem{Base: p, Disp: 32})
	}
	Label(done)
	VZEROUPPER()
	RET()
}
