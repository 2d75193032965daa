package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// softmaxRows emits the AVX-512 kernel
//
//	func softmaxRowsT(dst, x *T, rows, cols int)
//
// that applies softmax to each of rows contiguous rows of cols >= 1
// elements (row r at x[r*cols:], written to dst[r*cols:], dst may equal
// x) in one call: pass 1 takes the row max m, pass 2 stores e = exp(x - m)
// and sums it, pass 3 multiplies by 1/sum, all with the partial last
// vector under an opmask and the horizontal reductions in registers.
// exp is expF32Vec / expF64Frac (Cephes, as in expShiftSum), with lanes
// far below the max zeroed without an underflow assist. NaN anywhere in a
// row makes the whole row NaN (through the sum), as in PyTorch; so does a
// row of all -Inf (x - m is NaN).
//
// With unnorm it emits instead
//
//	func expShiftRowsT(dst, x *T, rows, cols int, inv *T)
//
// which stops after pass 2 and stores 1/sum to inv[r]: the caller folds
// the normalisation into a smaller product (attention scales its m×Ev
// output rather than the m×S probabilities). Its sums use two independent
// full-width accumulators instead of PyTorch's order, which only softmax
// itself reproduces (a fused attention is not bit-comparable anyway).
func softmaxRows(t vt, unnorm bool) {
	name := "softmaxRows" + t.sfx
	if unnorm {
		name = "expShiftRows" + t.sfx
		TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, rows, cols int, inv *%s)", t.goT, t.goT))
		Pragma("noescape")
		Doc(fmt.Sprintf("%s sets dst = exp(x - rowmax) for rows contiguous rows of cols >= 1 elements of x and inv[r] = 1/sum of row r of dst.", name))
	} else {
		TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, rows, cols int)", t.goT))
		Pragma("noescape")
		Doc(fmt.Sprintf("%s applies softmax to rows contiguous rows of cols >= 1 elements of x, writing dst.", name))
	}
	d := Load(Param("dst"), GP64())
	xp := Load(Param("x"), GP64())
	rows := Load(Param("rows"), GP64())
	cols := Load(Param("cols"), GP64())
	// tail mask: the low cols % lanes lanes (all lanes unused when 0)
	rem := GP64()
	MOVQ(cols, rem)
	ANDQ(U32(t.lanes-1), rem)
	kt := lowLanes(rem)
	full := GP64() // whole vectors per row
	MOVQ(cols, full)
	SHRQ(U8(log2(t.lanes)), full)
	rowBytes := GP64()
	MOVQ(cols, rowBytes)
	SHLQ(U8(log2(t.es)), rowBytes)

	var ip reg.Register // next inv element (unnorm)
	if unnorm {
		ip = Load(Param("inv"), GP64())
	}

	negInf := constVec(t, math.Inf(-1))
	c := newExpConsts(t, true, true)

	rowLoop, done := name+"_row", name+"_done"
	Label(rowLoop)
	TESTQ(rows, rows)
	JE(LabelRef(done))

	// pass 1: max
	acc := []reg.VecVirtual{t.vec(), t.vec()}
	t.copyVec(negInf, acc[0])
	t.copyVec(negInf, acc[1])
	p, n := GP64(), GP64()
	vecLoop(t, name+"_max", xp, nil, full, p, n, 2, func(u int, src Mem, _ Mem) {
		t.bin("max", src, acc[u], acc[u])
	})
	tailIf(t, name+"_maxt", rem, func() {
		v := t.vec()
		t.copyVec(negInf, v)
		loadMerge(t, Mem{Base: p}, kt, v)
		t.bin("max", v, acc[0], acc[0])
	})
	t.bin("max", acc[1], acc[0], acc[0])
	m := hreduce(t, "max", acc[0])

	// pass 2: e = exp(x - m) to dst, summed
	sum := []reg.VecVirtual{t.vec(), t.vec()}
	t.zero(sum[0])
	t.zero(sum[1])
	q := GP64()
	expOf := func(v reg.VecVirtual) reg.VecVirtual {
		t.bin("sub", m, v, v)
		if t.f64 {
			en, ed := expF64Frac(t, c, v)
			VDIVPD(ed, en, en)
			return en
		}
		return expF32Vec(t, c, v)
	}
	// f32 sums in PyTorch's order (reduce_all over 8-lane AVX2 vectors:
	// lane i accumulates elements i, i+8, i+16, ... in turn, then the tree
	// of hreduce), so that softmax rows are bit-identical to PyTorch's
	// (exp is SLEEF's, the scaling is by 1/sum in both): sum[0] holds the
	// 8 lanes in its low half (YMM adds keep the high half zero).
	addChunks := func(e reg.VecVirtual, klo, khi reg.Register) {
		hi := t.vec()
		VEXTRACTF32X8(U8(1), e, hi.AsY())
		if klo == nil {
			VADDPS(e.AsY(), sum[0].AsY(), sum[0].AsY())
			VADDPS(hi.AsY(), sum[0].AsY(), sum[0].AsY())
			return
		}
		VADDPS(e.AsY(), sum[0].AsY(), klo, sum[0].AsY())
		VADDPS(hi.AsY(), sum[0].AsY(), khi, sum[0].AsY())
	}
	vecLoop(t, name+"_exp", xp, d, full, p, n, 2, func(u int, src, dst Mem) {
		v := t.vec()
		t.load(src, v)
		e := expOf(v)
		t.store(e, dst)
		if t.f64 || unnorm {
			t.bin("add", e, sum[u], sum[u])
		} else {
			addChunks(e, nil, nil)
		}
	})
	MOVQ(d, q)
	tailIf(t, name+"_expt", rem, func() {
		// p is at x's tail; the destination tail is at the same offset in dst
		off := GP64()
		MOVQ(p, off)
		SUBQ(xp, off)
		ADDQ(d, off)
		v := t.vec()
		loadZero(t, Mem{Base: p}, kt, v)
		e := expOf(v)
		storeMasked(t, e, kt, Mem{Base: off})
		// masked-off lanes computed exp(0 - m): add only the live lanes
		switch {
		case t.f64:
			VADDPD(e, sum[0], kt, sum[0])
		case unnorm:
			VADDPS(e, sum[0], kt, sum[0])
		default:
			khi := K()
			KSHIFTRW(U8(8), kt, khi)
			addChunks(e, kt, khi)
		}
	})
	t.bin("add", sum[1], sum[0], sum[0])
	s := hreduce(t, "add", sum[0])
	inv := t.vec()
	t.bin("div", s, c.one, inv) // 1/sum in every lane

	if unnorm {
		if t.f64 {
			VMOVSD(inv.AsX(), Mem{Base: ip})
		} else {
			VMOVSS(inv.AsX(), Mem{Base: ip})
		}
		ADDQ(U8(t.es), ip)
	} else {
		// pass 3: dst *= 1/sum
		vecLoop(t, name+"_scale", q, nil, full, p, n, 2, func(u int, src, _ Mem) {
			v := t.vec()
			t.bin("mul", src, inv, v)
			t.store(v, src)
		})
		tailIf(t, name+"_scalet", rem, func() {
			v := t.vec()
			loadZero(t, Mem{Base: p}, kt, v)
			t.bin("mul", v, inv, v)
			storeMasked(t, v, kt, Mem{Base: p})
		})
	}

	ADDQ(rowBytes, xp)
	ADDQ(rowBytes, d)
	DECQ(rows)
	JMP(LabelRef(rowLoop))
	Label(done)
	VZEROUPPER()
	RET()
}

// vecLoop runs body over `full` whole vectors starting at base (and at
// base2 in step, when base2 is not nil), unrolled by u: body(u, src, dst)
// gets the u-th vector's memory operands. On exit p points just past the
// whole vectors of base (its tail); n is clobbered.
func vecLoop(t vt, label string, base, base2, full, p, n reg.Register, unroll int, body func(u int, src, dst Mem)) {
	MOVQ(base, p)
	MOVQ(full, n)
	var p2 reg.Register
	if base2 != nil {
		p2 = GP64()
		MOVQ(base2, p2)
	}
	big, one, end := label+"_big", label+"_one", label+"_end"
	Label(big)
	CMPQ(n, U32(unroll))
	JL(LabelRef(one))
	for u := 0; u < unroll; u++ {
		var dst Mem
		if p2 != nil {
			dst = Mem{Base: p2, Disp: u * t.vbytes()}
		}
		body(u, Mem{Base: p, Disp: u * t.vbytes()}, dst)
	}
	ADDQ(U32(unroll*t.vbytes()), p)
	if p2 != nil {
		ADDQ(U32(unroll*t.vbytes()), p2)
	}
	SUBQ(U32(unroll), n)
	JMP(LabelRef(big))
	Label(one)
	TESTQ(n, n)
	JE(LabelRef(end))
	var dst Mem
	if p2 != nil {
		dst = Mem{Base: p2}
	}
	body(0, Mem{Base: p}, dst)
	ADDQ(U32(t.vbytes()), p)
	if p2 != nil {
		ADDQ(U32(t.vbytes()), p2)
	}
	DECQ(n)
	JMP(LabelRef(one))
	Label(end)
}

// tailIf emits body under "if rem != 0".
func tailIf(t vt, label string, rem reg.Register, body func()) {
	skip := label + "_skip"
	TESTQ(rem, rem)
	JE(LabelRef(skip))
	body()
	Label(skip)
}

func loadZero(t vt, m Mem, k reg.Register, v reg.VecVirtual) {
	if t.f64 {
		VMOVUPD_Z(m, k, v)
	} else {
		VMOVUPS_Z(m, k, v)
	}
}

func loadMerge(t vt, m Mem, k reg.Register, v reg.VecVirtual) {
	if t.f64 {
		VMOVUPD(m, k, v)
	} else {
		VMOVUPS(m, k, v)
	}
}

// hreduce folds the lanes of v with op ("max" or "add") and returns a new
// vector holding the result in every lane (v is clobbered).
func hreduce(t vt, op string, v reg.VecVirtual) reg.VecVirtual {
	y, x := t.vec(), t.vec()
	if t.f64 {
		VEXTRACTF64X4(U8(1), v, y.AsY())
		t.bin(op, y.AsY(), v.AsY(), v.AsY())
		VEXTRACTF32X4(U8(1), v.AsY(), x.AsX()) // EVEX: x may be X16-X31
		t.bin(op, x.AsX(), v.AsX(), v.AsX())
		VPERMILPD(U8(1), v.AsX(), x.AsX())
		t.bin(op, x.AsX(), v.AsX(), v.AsX())
		r := t.vec()
		VBROADCASTSD(v.AsX(), r)
		return r
	}
	VEXTRACTF32X8(U8(1), v, y.AsY())
	t.bin(op, y.AsY(), v.AsY(), v.AsY())
	VEXTRACTF32X4(U8(1), v.AsY(), x.AsX()) // EVEX: x may be X16-X31
	t.bin(op, x.AsX(), v.AsX(), v.AsX())
	VPERMILPS(U8(0x4E), v.AsX(), x.AsX())
	t.bin(op, x.AsX(), v.AsX(), v.AsX())
	VPERMILPS(U8(0xB1), v.AsX(), x.AsX())
	t.bin(op, x.AsX(), v.AsX(), v.AsX())
	r := t.vec()
	VBROADCASTSS(v.AsX(), r)
	return r
}

func log2(n int) uint8 {
	var k uint8
	for 1<<k < n {
		k++
	}
	return k
}
