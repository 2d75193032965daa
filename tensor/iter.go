package tensor

// Strided iteration. walk visits an N-d index space shared by up to three
// operands (each with its own strides and offset) one innermost row at a
// time, after coalescing: size-1 dims are dropped and adjacent dims that
// are contiguous with each other in every operand are merged, so a
// contiguous tensor of any rank is one row and a transposed matrix is a
// 2-level loop. Kernels write tight typed loops over each row.

// rowFunc receives the storage offsets of a row's first element for each
// operand, the row length n, and each operand's stride along the row.
type rowFunc func(p0, p1, p2, n, s0, s1, s2 int)

// coalesce returns the reduced shape and strides for the operands.
func coalesce(shape []int, st [3][]int, nops int) ([]int, [3][]int) {
	// one allocation for the four results (they never outgrow len(shape))
	nd := len(shape)
	buf := make([]int, (1+nops)*nd)
	outShape := buf[:0:nd]
	var outSt [3][]int
	for o := 0; o < nops; o++ {
		outSt[o] = buf[(1+o)*nd : (1+o)*nd : (2+o)*nd]
	}
	for d := 0; d < len(shape); d++ {
		if shape[d] == 1 {
			continue
		}
		if k := len(outShape) - 1; k >= 0 {
			ok := true
			for o := 0; o < nops; o++ {
				if outSt[o][k] != st[o][d]*shape[d] {
					ok = false
					break
				}
			}
			if ok {
				outShape[k] *= shape[d]
				for o := 0; o < nops; o++ {
					outSt[o][k] = st[o][d]
				}
				continue
			}
		}
		outShape = append(outShape, shape[d])
		for o := 0; o < nops; o++ {
			outSt[o] = append(outSt[o], st[o][d])
		}
	}
	return outShape, outSt
}

// walk iterates shape for nops (1..3) operands. Operands beyond nops get
// offset 0 and stride 0. Nothing is visited when shape has a zero size.
// Rows may come in tile order (see needsTiling), not C order: only for
// kernels whose result does not depend on the visit order.
func walk(shape []int, nops int, st [3][]int, offs [3]int, fn rowFunc) {
	walkRows(shape, nops, st, offs, true, fn)
}

// walkRows is walk; tiled false visits the rows in C order.
func walkRows(shape []int, nops int, st [3][]int, offs [3]int, tiled bool, fn rowFunc) {
	for _, s := range shape {
		if s == 0 {
			return
		}
	}
	cs, cst := coalesce(shape, st, nops)
	nd := len(cs)
	if nd == 0 {
		fn(offs[0], offs[1], offs[2], 1, 0, 0, 0)
		return
	}
	var in [3]int
	for o := 0; o < nops; o++ {
		in[o] = cst[o][nd-1]
	}
	n := cs[nd-1]
	if nd == 1 {
		fn(offs[0], offs[1], offs[2], n, in[0], in[1], in[2])
		return
	}
	if tiled && nd >= 2 && needsTiling(cst, nops, nd) {
		walkTiled(cs, cst, nops, offs, fn)
		return
	}
	outer := nd - 1
	idx := make([]int, outer)
	p := offs
	for {
		fn(p[0], p[1], p[2], n, in[0], in[1], in[2])
		d := outer - 1
		for ; d >= 0; d-- {
			idx[d]++
			for o := 0; o < nops; o++ {
				p[o] += cst[o][d]
			}
			if idx[d] < cs[d] {
				break
			}
			for o := 0; o < nops; o++ {
				p[o] -= cst[o][d] * cs[d]
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// needsTiling reports whether some operand walks its last dim with a large
// stride while being unit-stride along the second-to-last dim (a
// transposed operand): then rows are cut into tiles so both layouts stay
// in cache.
func needsTiling(cst [3][]int, nops, nd int) bool {
	for o := 0; o < nops; o++ {
		if cst[o][nd-1] > 1 && cst[o][nd-2] == 1 {
			return true
		}
	}
	return false
}

const tile = 32

// walkTiled iterates the last two dims in tile x tile blocks (rows of the
// tile are passed to fn), looping normally over the leading dims.
func walkTiled(cs []int, cst [3][]int, nops int, offs [3]int, fn rowFunc) {
	nd := len(cs)
	R, C := cs[nd-2], cs[nd-1]
	var rs, ccs [3]int
	for o := 0; o < nops; o++ {
		rs[o], ccs[o] = cst[o][nd-2], cst[o][nd-1]
	}
	block := func(p [3]int) {
		for i0 := 0; i0 < R; i0 += tile {
			i1 := min(i0+tile, R)
			for j0 := 0; j0 < C; j0 += tile {
				n := min(j0+tile, C) - j0
				for i := i0; i < i1; i++ {
					var q [3]int
					for o := 0; o < nops; o++ {
						q[o] = p[o] + i*rs[o] + j0*ccs[o]
					}
					fn(q[0], q[1], q[2], n, ccs[0], ccs[1], ccs[2])
				}
			}
		}
	}
	lead := nd - 2
	if lead == 0 {
		block(offs)
		return
	}
	idx := make([]int, lead)
	p := offs
	for {
		block(p)
		d := lead - 1
		for ; d >= 0; d-- {
			idx[d]++
			for o := 0; o < nops; o++ {
				p[o] += cst[o][d]
			}
			if idx[d] < cs[d] {
				break
			}
			for o := 0; o < nops; o++ {
				p[o] -= cst[o][d] * cs[d]
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// walk1 iterates the elements of t row by row, in C order (reductions
// and Offsets number their outputs by the visit).
func walk1(t *Tensor, fn func(p, n, s int)) {
	walkRows(t.shape, 1, [3][]int{t.strides}, [3]int{t.offset}, false, func(p0, _, _, n, s0, _, _ int) { fn(p0, n, s0) })
}

// walk2 iterates two operands of the same shape.
func walk2(shape []int, a, b *Tensor, fn func(pa, pb, n, sa, sb int)) {
	walk(shape, 2, [3][]int{a.strides, b.strides}, [3]int{a.offset, b.offset}, func(p0, p1, _, n, s0, s1, _ int) { fn(p0, p1, n, s0, s1) })
}

// Offsets calls fn with the storage offset of every element of t in C
// order. It is the generic (slow) iterator for code outside the hot paths.
func (t *Tensor) Offsets(fn func(off int)) {
	walk1(t, func(p, n, s int) {
		for i := 0; i < n; i++ {
			fn(p + i*s)
		}
	})
}

// outOrder returns shape and the operands' strides with the dims put in
// the memory order of operand 0 (decreasing |stride|, ties and size-1
// dims in dim order), so that walk and coalesce see a permuted dense
// output (TensorIterator's layout of x.t() + 1) as one unit-stride run.
// Only for elementwise kernels, whose results do not depend on the visit
// order; shape and st are returned as is when operand 0 is contiguous.
func outOrder(shape []int, st [3][]int, nops int) ([]int, [3][]int) {
	n := len(shape)
	if n < 2 || isContiguous(shape, st[0]) {
		return shape, st
	}
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	perm := make([]int, 0, n)
	for d := 0; d < n; d++ {
		j := len(perm)
		perm = append(perm, d)
		for j > 0 && abs(st[0][perm[j-1]]) < abs(st[0][d]) {
			perm[j] = perm[j-1]
			j--
		}
		perm[j] = d
	}
	ps := make([]int, n)
	for i, d := range perm {
		ps[i] = shape[d]
	}
	var pst [3][]int
	for o := 0; o < nops; o++ {
		s := make([]int, n)
		for i, d := range perm {
			s[i] = st[o][d]
		}
		pst[o] = s
	}
	return ps, pst
}

// walkEW is walk for elementwise kernels: the index space is visited in
// operand 0's memory order (see outOrder).
func walkEW(shape []int, nops int, st [3][]int, offs [3]int, fn rowFunc) {
	shape, st = outOrder(shape, st, nops)
	walk(shape, nops, st, offs, fn)
}

// walkEW2 is walk2 in out's memory order.
func walkEW2(shape []int, a, b *Tensor, fn func(pa, pb, n, sa, sb int)) {
	walkEW(shape, 2, [3][]int{a.strides, b.strides}, [3]int{a.offset, b.offset}, func(p0, p1, _, n, s0, s1, _ int) { fn(p0, p1, n, s0, s1) })
}
