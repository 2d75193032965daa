package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// sumI64Kernel emits func sumI64NAME(x *int64, n int, out *int64): the
// per-lane wrapping sums of x[:n] (n a multiple of the lane count, > 0)
// over four vector accumulators (VPADDQ), stored as lanes partials to
// out; the Go wrapper adds the partials and the tail. Integer addition
// wraps modulo 2^64 in any order, so the total is the sequential one.
func sumI64Kernel(avx2 bool) {
	t := newVT(true, avx2) // 8-byte lanes
	sfx := "AVX512"
	if avx2 {
		sfx = "AVX2"
	}
	name := "sumI64" + sfx
	TEXT(name, NOSPLIT, "func(x *int64, n int, out *int64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s stores %d per-lane wrapping partial sums of x[:n] (n a multiple of %d, > 0) to out.", name, t.lanes, t.lanes))
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	acc := make([]reg.VecVirtual, 4)
	for i := range acc {
		acc[i] = t.vec()
		if avx2 {
			VPXOR(acc[i], acc[i], acc[i])
		} else {
			VPXORQ(acc[i], acc[i], acc[i])
		}
	}
	loopN(t, n, 4, func(u, off int) {
		VPADDQ(Mem{Base: x, Disp: off}, acc[u], acc[u])
	}, x)
	VPADDQ(acc[1], acc[0], acc[0])
	VPADDQ(acc[3], acc[2], acc[2])
	VPADDQ(acc[2], acc[0], acc[0])
	out := Load(Param("out"), GP64())
	if avx2 {
		VMOVDQU(acc[0], Mem{Base: out})
	} else {
		VMOVDQU64(acc[0], Mem{Base: out})
	}
	VZEROUPPER()
	RET()
}

// moreKernels emits the int64 sums, the float min reductions (the "min"
// kind of reduce: VMINPS/PD lanes with reduce's NaN detector), the
// widening f32 -> f64 sums of var/std, linspace's arange blocks and the
// binary ops with a transposed operand (bint.go).
func moreKernels() {
	sumI64Kernel(false)
	sumI64Kernel(true)
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			reduce(newVT(f64, avx2), "min")
		}
	}
	for _, avx2 := range []bool{false, true} {
		widenSumKernel(avx2, false)
		widenSumKernel(avx2, true)
	}
	arangeBlocksKernel()
	binTKernels()
}

// widenSumKernel emits func NAME(x *float32, n int, mean float64, out
// *float64): per-lane float64 partial sums of the f32 elements of x[:n]
// (n a multiple of the f64 lane count L, > 0) widened to float64, or with
// sq of their squared deviations (float64(x) - mean)² (FMA), over four
// accumulators of L lanes: the two passes of var/std in float64. Each
// f32 vector of L elements is widened by VCVTPS2PD straight from memory.
func widenSumKernel(avx2, sq bool) {
	t := newVT(true, avx2) // f64 lanes
	L := t.lanes
	name := "widenSumF32"
	if sq {
		name = "widenSqDevF32"
	}
	if avx2 {
		name += "AVX2"
	} else {
		name += "AVX512"
	}
	TEXT(name, NOSPLIT, "func(x *float32, n int, mean float64, out *float64)")
	Pragma("noescape")
	what := "sums of float64(x[i])"
	if sq {
		what = "sums of (float64(x[i]) - mean)²"
	}
	Doc(fmt.Sprintf("%s stores %d per-lane float64 partial %s over x[:n] (n a multiple of %d, > 0) to out.", name, L, what, L))
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	var mean reg.VecVirtual
	if sq {
		mean = t.bcastParam("mean")
	}
	acc := make([]reg.VecVirtual, 4)
	for i := range acc {
		acc[i] = t.vec()
		t.zero(acc[i])
	}
	step := func(u int) {
		v := t.vec()
		VCVTPS2PD(Mem{Base: x, Disp: u * 4 * L}, v)
		if sq {
			VSUBPD(mean, v, v)
			VFMADD231PD(v, v, acc[u])
		} else {
			VADDPD(v, acc[u], acc[u])
		}
	}
	big, one, end := name+"_big", name+"_one", name+"_end"
	Label(big)
	CMPQ(n, U32(4*L))
	JL(LabelRef(one))
	for u := 0; u < 4; u++ {
		step(u)
	}
	ADDQ(U32(4*4*L), x)
	SUBQ(U32(4*L), n)
	JMP(LabelRef(big))
	Label(one)
	CMPQ(n, U32(L))
	JL(LabelRef(end))
	step(0)
	ADDQ(U32(4*L), x)
	SUBQ(U32(L), n)
	JMP(LabelRef(one))
	Label(end)
	VADDPD(acc[1], acc[0], acc[0])
	VADDPD(acc[3], acc[2], acc[2])
	VADDPD(acc[2], acc[0], acc[0])
	out := Load(Param("out"), GP64())
	t.store(acc[0], Mem{Base: out})
	VZEROUPPER()
	RET()
}
