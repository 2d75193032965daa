package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// MT19937 (the engine of PyTorch's CPU generator, at::mt19937): the state
// twist and the tempering of state words into float32 uniforms, a vector of
// words at a time (backends/cpu/mt19937.go has the pure-Go reference and
// the scalar words at the edges of the ranges).

// Integer logic on the vector registers (EVEX needs the D forms on ZMM).

func (t vt) pand(b, a, dst Op) {
	if t.avx2 {
		VPAND(b, a, dst)
	} else {
		VPANDD(b, a, dst)
	}
}

func (t vt) por(b, a, dst Op) {
	if t.avx2 {
		VPOR(b, a, dst)
	} else {
		VPORD(b, a, dst)
	}
}

func (t vt) pxor(b, a, dst Op) {
	if t.avx2 {
		VPXOR(b, a, dst)
	} else {
		VPXORD(b, a, dst)
	}
}

// mtTwist emits func NAME(d, b, c *uint32, n int): for k < n (a multiple
// of the vector length), in order, d[k] = c[k] ^ y>>1 ^ (y odd ? 0x9908b0df
// : 0) with y = d[k]&0x80000000 | b[k]&0x7fffffff. The twist of words
// [i, j) is d = s[i:], b = s[i+1:], c = s[i+397 mod 624:]: each vector is
// loaded before it is stored and b never reaches back into stored words,
// so b = d+1 in place is the sequential recurrence; c may read words
// stored 227 or more words earlier.
func mtTwist(t vt) {
	name := "mtTwist" + t.sfx[3:]
	TEXT(name, NOSPLIT, "func(d, b, c *uint32, n int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes the MT19937 twist of n state words (n a multiple of %d).", name, t.lanes))
	dp := Load(Param("d"), GP64())
	bp := Load(Param("b"), GP64())
	cp := Load(Param("c"), GP64())
	n := Load(Param("n"), GP64())
	hi, lo, mag := constBits(t, 0x80000000), constBits(t, 0x7fffffff), constBits(t, 0x9908b0df)
	loopN(t, n, 4, func(u, off int) {
		y, b, m := t.vec(), t.vec(), t.vec()
		t.load(Mem{Base: dp, Disp: off}, y)
		t.pand(hi, y, y)
		t.load(Mem{Base: bp, Disp: off}, b)
		t.pand(lo, b, b)
		t.por(b, y, y)
		VPSLLD(U8(31), y, m)
		VPSRAD(U8(31), m, m) // all ones where y is odd
		t.pand(mag, m, m)
		VPSRLD(U8(1), y, y)
		t.pxor(Mem{Base: cp, Disp: off}, y, y)
		t.pxor(m, y, y)
		t.store(y, Mem{Base: dp, Disp: off})
	}, dp, bp, cp)
	VZEROUPPER()
	RET()
}

// mtUniform emits func NAME(dst *float32, s *uint32, n int): dst[k] =
// float32(temper(s[k]) & (1<<24-1)) * 2^-24 for k < n (a multiple of the
// vector length): MT19937's tempering, then uniform_real_distribution<float>
// of PyTorch's CPU generator (exact: 24 bits scaled by a power of two).
func mtUniform(t vt) {
	name := "mtUniform" + t.sfx
	TEXT(name, NOSPLIT, "func(dst *float32, s *uint32, n int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s converts n MT19937 state words to float32 uniforms in [0, 1) (n a multiple of %d).", name, t.lanes))
	dp := Load(Param("dst"), GP64())
	sp := Load(Param("s"), GP64())
	n := Load(Param("n"), GP64())
	b7, b15, m24 := constBits(t, 0x9d2c5680), constBits(t, 0xefc60000), constBits(t, 1<<24-1)
	scale := constVec(t, 0x1p-24)
	loopN(t, n, 4, func(u, off int) {
		y, w := t.vec(), t.vec()
		t.load(Mem{Base: sp, Disp: off}, y)
		VPSRLD(U8(11), y, w)
		t.pxor(w, y, y)
		VPSLLD(U8(7), y, w)
		t.pand(b7, w, w)
		t.pxor(w, y, y)
		VPSLLD(U8(15), y, w)
		t.pand(b15, w, w)
		t.pxor(w, y, y)
		VPSRLD(U8(18), y, w)
		t.pxor(w, y, y)
		t.pand(m24, y, y)
		VCVTDQ2PS(y, y)
		VMULPS(scale, y, y)
		t.store(y, Mem{Base: dp, Disp: off})
	}, dp, sp)
	VZEROUPPER()
	RET()
}
