package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// roundModes are the rounding kernels' names, indexed by the x86 ROUNDPS /
// VRNDSCALEPS rounding-control bits (imm8[1:0]): 0 to nearest, ties to
// even; 1 toward -inf; 2 toward +inf; 3 toward zero.
var roundModes = [...]string{"roundEven", "floor", "ceil", "trunc"}

// roundKernel emits func NAME(dst, x *T, n int): dst[i] = x[i] rounded to
// an integral value in the given mode, over n elements (n a multiple of
// the vector length): VROUNDPS/PD (AVX2) or VRNDSCALEPS/PD with scale 0
// (AVX-512). Both are exact; imm8 bit 3 suppresses the precision
// exception, bit 2 clear selects imm8's mode over MXCSR's. NaN stays NaN
// (a signalling NaN is quieted), ±0 and ±Inf pass through with their sign.
func roundKernel(t vt, mode int) {
	name := roundModes[mode] + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s rounds x to integral values (%s) into dst over n elements (n a multiple of %d).", name, roundModes[mode], t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	imm := U8(uint8(mode | 8))
	loopN(t, n, 4, func(u, off int) {
		v := t.vec()
		src := Mem{Base: x, Disp: off}
		switch {
		case t.avx2 && t.f64:
			VROUNDPD(imm, src, v)
		case t.avx2:
			VROUNDPS(imm, src, v)
		case t.f64:
			VRNDSCALEPD(imm, src, v)
		default:
			VRNDSCALEPS(imm, src, v)
		}
		t.store(v, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

// roundKernels emits every mode for f32/f64 on AVX2 and AVX-512.
func roundKernels() {
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			for mode := range roundModes {
				roundKernel(newVT(f64, avx2), mode)
			}
		}
	}
}
