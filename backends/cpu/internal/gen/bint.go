package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// binTKernel emits the AVX-512 f32 elementwise op with a transposed
// operand over a strip of 16 rows:
//
//	func NAME(o *float32, os int, a *float32, as int, b *float32, bs int, cols int)
//
// sets o[i*os+j] = a[i*as+j] OP b[j*bs+i] (or b[j*bs+i] OP a[i*as+j]
// when rev) for i < 16 and j < cols (cols a multiple of 16; strides in
// elements): each 16×16 tile of b is loaded as 16 rows, transposed in
// registers (transposeBlock: no gathers), then combined with 16 rows of a.
func binTKernel(op string, rev bool) {
	t := newVT(false, false)
	name := fmt.Sprintf("%sT%sF32AVX512", op, map[bool]string{false: "", true: "Rev"}[rev])
	TEXT(name, NOSPLIT, "func(o *float32, os int, a *float32, as int, b *float32, bs int, cols int)")
	Pragma("noescape")
	expr := "a[i*as+j] " + op + " b[j*bs+i]"
	if rev {
		expr = "b[j*bs+i] " + op + " a[i*as+j]"
	}
	Doc(fmt.Sprintf("%s sets o[i*os+j] = %s for i < 16, j < cols (a multiple of 16).", name, expr))
	o := Load(Param("o"), GP64())
	osb := Load(Param("os"), GP64())
	a := Load(Param("a"), GP64())
	asb := Load(Param("as"), GP64())
	b := Load(Param("b"), GP64())
	bsb := Load(Param("bs"), GP64())
	n := Load(Param("cols"), GP64())
	for _, r := range []reg.Register{osb, asb, bsb} {
		SHLQ(Imm(2), r)
	}
	bs3 := GP64()
	LEAQ(Mem{Base: bsb, Index: bsb, Scale: 2}, bs3)
	lbl := name + "_loop"
	Label(lbl)
	CMPQ(n, U32(16))
	JL(LabelRef(name + "_done"))
	// 16 rows of b: rows j = 0..15 at b + j*bs (four bases 4 rows apart)
	v := make([]reg.VecVirtual, 16)
	base := GP64()
	MOVQ(b, base)
	for j := 0; j < 16; j++ {
		if j > 0 && j%4 == 0 {
			LEAQ(Mem{Base: base, Index: bsb, Scale: 4}, base)
		}
		v[j] = t.vec()
		t.load(strided4(base, bsb, bs3, j%4, 0), v[j])
	}
	r := transposeBlock(t, v) // r[i] lane j = b[j*bs + i]
	pa, po := GP64(), GP64()
	MOVQ(a, pa)
	MOVQ(o, po)
	for i := 0; i < 16; i++ {
		x := t.vec()
		t.load(Mem{Base: pa}, x)
		if rev {
			t.bin(op, x, r[i], x) // r OP a
		} else {
			t.bin(op, r[i], x, x) // a OP r
		}
		t.store(x, Mem{Base: po})
		if i < 15 {
			ADDQ(asb, pa)
			ADDQ(osb, po)
		}
	}
	// next 16 columns: a and o move right 16 elements, b down 16 rows
	ADDQ(U32(64), a)
	ADDQ(U32(64), o)
	MOVQ(bsb, base)
	SHLQ(Imm(4), base)
	ADDQ(base, b)
	SUBQ(U32(16), n)
	JMP(LabelRef(lbl))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// binTKernels emits add/sub/mul/div in both operand orders.
func binTKernels() {
	for _, op := range []string{"add", "sub", "mul", "div"} {
		binTKernel(op, false)
		binTKernel(op, true)
	}
}
