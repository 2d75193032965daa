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

// moreReductions emits the int64 sums and the float min reductions (the
// "min" kind of reduce: VMINPS/PD lanes with reduce's NaN detector).
func moreReductions() {
	sumI64Kernel(false)
	sumI64Kernel(true)
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			reduce(newVT(f64, avx2), "min")
		}
	}
}
