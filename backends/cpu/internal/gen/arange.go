package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// arangeBlocksKernel emits
//
//	func arangeBlocksF32AVX512(dst *float32, groups int, idx *int32, inc int32, a, c float32, lane *float32)
//
// the vectorised body of PyTorch's f32 linspace (Vectorized::arange
// blocks): dst gets groups × 16 elements, two 8-element blocks per ZMM;
// block b's base is fma(a, float32(k_b), c) with one rounding (VFMADD on
// float32 lanes), its elements base + lane[j]. idx holds the two blocks'
// int32 indices k (each repeated over 8 lanes), lane the 8 lane offsets
// twice; the indices advance by inc (int32) per group. VCVTDQ2PS rounds
// to nearest as Go's float32(int).
func arangeBlocksKernel() {
	TEXT("arangeBlocksF32AVX512", NOSPLIT, "func(dst *float32, groups int, idx *int32, inc int32, a, c float32, lane *float32)")
	Pragma("noescape")
	Doc("arangeBlocksF32AVX512 writes groups×16 linspace elements: pairs of 8-lane blocks fma(a, float32(k), c) + lane[j], the block indices k starting at idx and advancing by inc per group.")
	d := Load(Param("dst"), GP64())
	g := Load(Param("groups"), GP64())
	ip := Load(Param("idx"), GP64())
	lp := Load(Param("lane"), GP64())
	k, lane, inc, va, vc := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU32(Mem{Base: ip}, k)
	VMOVUPS(Mem{Base: lp}, lane)
	VPBROADCASTD(Load(Param("inc"), GP32()), inc)
	VBROADCASTSS(paramAddr("a"), va)
	VBROADCASTSS(paramAddr("c"), vc)
	Label("arange_loop")
	CMPQ(g, Imm(0))
	JE(LabelRef("arange_end"))
	f := ZMM()
	VCVTDQ2PS(k, f)
	VFMADD213PS(vc, va, f) // f = f*a + c, one rounding
	VADDPS(lane, f, f)
	VMOVUPS(f, Mem{Base: d})
	VPADDD(inc, k, k)
	ADDQ(Imm(64), d)
	DECQ(g)
	JMP(LabelRef("arange_loop"))
	Label("arange_end")
	VZEROUPPER()
	RET()
}
