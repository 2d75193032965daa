package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// halfConv emits the AVX-512 binary16 conversions (F16C instructions at
// 512-bit width, AVX512F; tails under an opmask, AVX512BW):
//
//	func f16ToF32AVX512(dst *float32, src *uint16, n int)  // VCVTPH2PS: exact
//	func f32ToF16AVX512(dst *uint16, src *float32, n int)  // VCVTPS2PH: round to nearest even
//
// for any n >= 0. NaNs stay NaN (quieted; payloads truncated or widened
// the way the instructions do); overflow rounds to ±Inf, and subnormals
// are produced and read exactly (MXCSR's FTZ/DAZ are off in Go).
func halfConv() {
	for _, widen := range []bool{true, false} {
		name, sig := "f16ToF32AVX512", "func(dst *float32, src *uint16, n int)"
		if !widen {
			name, sig = "f32ToF16AVX512", "func(dst *uint16, src *float32, n int)"
		}
		TEXT(name, NOSPLIT, sig)
		Pragma("noescape")
		if widen {
			Doc(name + " widens n binary16 values (bits) to float32, exactly.")
		} else {
			Doc(name + " rounds n float32 values to binary16 bits (round to nearest even).")
		}
		d := Load(Param("dst"), GP64())
		s := Load(Param("src"), GP64())
		n := Load(Param("n"), GP64())
		// per vector: 16 elements, 32 bytes of binary16, 64 bytes of float32
		hb, fb := 32, 64
		sb, db := hb, fb
		if !widen {
			sb, db = fb, hb
		}
		conv := func(off int) {
			if widen {
				z := ZMM()
				VCVTPH2PS(Mem{Base: s, Disp: off * sb}, z)
				VMOVUPS(z, Mem{Base: d, Disp: off * db})
			} else {
				z, y := ZMM(), YMM()
				VMOVUPS(Mem{Base: s, Disp: off * sb}, z)
				VCVTPS2PH(Imm(0), z, y)
				VMOVDQU(y, Mem{Base: d, Disp: off * db})
			}
		}
		loop, one, tail, done := name+"_loop4", name+"_loop1", name+"_tail", name+"_done"
		Label(loop)
		CMPQ(n, U32(64))
		JL(LabelRef(one))
		for u := 0; u < 4; u++ {
			conv(u)
		}
		ADDQ(U32(4*sb), s)
		ADDQ(U32(4*db), d)
		SUBQ(U32(64), n)
		JMP(LabelRef(loop))
		Label(one)
		CMPQ(n, U32(16))
		JL(LabelRef(tail))
		conv(0)
		ADDQ(U32(sb), s)
		ADDQ(U32(db), d)
		SUBQ(U32(16), n)
		JMP(LabelRef(one))
		Label(tail)
		TESTQ(n, n)
		JE(LabelRef(done))
		k := lowLanes(n)
		if widen {
			y, z := YMM(), ZMM()
			VMOVDQU16_Z(Mem{Base: s}, k, y)
			VCVTPH2PS(y, z)
			VMOVUPS(z, k, Mem{Base: d})
		} else {
			z, y := ZMM(), YMM()
			VMOVUPS_Z(Mem{Base: s}, k, z)
			VCVTPS2PH(Imm(0), z, y)
			VMOVDQU16(y, k, Mem{Base: d})
		}
		Label(done)
		VZEROUPPER()
		RET()
	}
}
