package tensor

import (
	"math"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
	"github.com/tsrlang/tsr/internal/xmath"
)

// Reduction and softmax fast paths for f32/f64 (see fastpath.go).
//
// A contiguous tensor whose reduced dims are consecutive (size-1 dims
// ignored) is viewed as [outer, r, inner]: r elements are reduced for
// each of outer*inner outputs, which are laid out [outer, inner] in C
// order, exactly the order of the result. inner == 1 is a reduction over
// contiguous rows (one vector-kernel call per row); inner > 1 accumulates
// the r rows of inner elements into an output vector, column block by
// column block, with the vector kernels, instead of gathering each output's
// strided elements.

// colBlock is the column-block width (elements) of inner > 1 reductions
// split over goroutines: the accumulators of one block stay in L1.
// colBlockSerial is the width on one goroutine: a block's row segments are
// then whole rows of up to 16 KiB (f32) read in order, which the hardware
// prefetchers follow across pages, where 4 KiB segments a full row apart
// restart them on every row (2048×2048 f32 summed over dim 0 on one
// thread: 19 -> 22 GB/s). Neither changes a result: each column is summed
// over the rows in the same order whatever its block.
const (
	colBlock       = 1024
	colBlockSerial = 4096
)

// sumBlockRows is how many rows are accumulated in the element type before
// the partial sum is added to a float64 accumulator; it bounds the
// rounding error of f32 column sums to about sumBlockRows ulps.
const sumBlockRows = 64

// blockLayout returns the [outer, r, inner] view of t for the reduced dims
// red (red[d] for each dim; a 0-d tensor has one entry), or ok = false
// when no such view exists: t is empty, its elements are not one dense
// block, or the reduced dims are not consecutive in memory order. A dense
// permutation of a contiguous tensor (a transposed matrix, a permuted
// view) qualifies when its kept dims appear in memory in the same order as
// in t, so the [outer, inner] outputs are still in the result's C order.
// Element (o, i, j) of the view is at storage offset
// t.offset + (o*r + i)*inner + j.
func blockLayout(t *Tensor, red []bool) (outer, r, inner int, ok bool) {
	if !fastPathsOn() || t.Numel() == 0 {
		return 0, 0, 0, false
	}
	order := memoryOrder(t)
	if order == nil {
		return 0, 0, 0, false
	}
	outer, r, inner = 1, 1, 1
	state := 0 // 0: before the reduced block, 1: in it, 2: after it
	lastKept := -1
	for _, d := range order {
		s := t.shape[d]
		if !red[d] {
			if d < lastKept {
				return 0, 0, 0, false // kept dims permuted: outputs not in C order
			}
			lastKept = d
		}
		switch {
		case red[d] && state == 2:
			return 0, 0, 0, false
		case red[d]:
			state = 1
			r *= s
		case state == 0:
			outer *= s
		default:
			state = 2
			inner *= s
		}
	}
	return outer, r, inner, true
}

// memoryOrder returns t's dims of size > 1 from the largest stride to the
// smallest when they tile one dense block of storage (each stride the
// product of the sizes after it in that order), else nil.
func memoryOrder(t *Tensor) []int {
	order := make([]int, 0, len(t.shape))
	for d, s := range t.shape {
		if s > 1 {
			order = append(order, d)
		}
	}
	// insertion sort by decreasing stride (ranks are small)
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && t.strides[order[j]] > t.strides[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	exp := 1
	for i := len(order) - 1; i >= 0; i-- {
		if t.strides[order[i]] != exp {
			return nil
		}
		exp *= t.shape[order[i]]
	}
	return order
}

// colTasks enumerates (outer index, column block) pairs of an inner > 1
// reduction and runs them over the worker goroutines; fn gets the element
// offset of the block's first input element (row 0), of its first output,
// and the block width.
func colTasks(outer, r, inner, grain int, fn func(in, out, w int)) {
	cb := colBlock
	if GetNumThreads() <= 1 || outer*r*inner < grain {
		cb = colBlockSerial // runs on one goroutine (parallelTasks)
	}
	nb := (inner + cb - 1) / cb
	parallelTasks(outer*nb, r*min(inner, cb), grain, func(t0, t1 int) {
		for t := t0; t < t1; t++ {
			o, c0 := t/nb, (t%nb)*cb
			fn(o*r*inner+c0, o*inner+c0, min(cb, inner-c0))
		}
	})
}

// ---- sum / mean ----

// fastSumMean returns the sum (or mean) of t over the reduced dims in t's
// dtype, or nil when no fast path applies.
func fastSumMean(t *Tensor, p *reducePlan, mean bool) *Tensor {
	outer, r, inner, ok := blockLayout(t, p.red)
	if !ok {
		return nil
	}
	switch t.dtype {
	case F32:
		out := empty(p.outShape, F32)
		if inner == 1 && r <= torchSumMaxRow {
			sumRowsTorch(t.storage.F32()[t.offset:], out.storage.F32(), outer, r, mean, cpu.SumRowsTorchF32)
			return out
		}
		if outer*r*inner <= torchSumMaxRow {
			sumColsTorch(t.storage.F32()[t.offset:], out.storage.F32(), outer, r, inner, mean, cpu.SumColsTorchF32)
			return out
		}
		sumBlocks(opsF32, t.storage.F32()[t.offset:], out.storage.F32(), outer, r, inner, mean)
		return out
	case F64:
		out := empty(p.outShape, F64)
		if inner == 1 && r <= torchSumMaxRow {
			sumRowsTorch(t.storage.F64()[t.offset:], out.storage.F64(), outer, r, mean, cpu.SumRowsTorchF64)
			return out
		}
		if outer*r*inner <= torchSumMaxRow {
			sumColsTorch(t.storage.F64()[t.offset:], out.storage.F64(), outer, r, inner, mean, cpu.SumColsTorchF64)
			return out
		}
		sumBlocks(opsF64, t.storage.F64()[t.offset:], out.storage.F64(), outer, r, inner, mean)
		return out
	}
	return nil
}

// torchSumMaxRow bounds the rows summed in PyTorch's order: float32 and
// float64 sums and means over contiguous rows of up to this many elements (a
// whole small tensor, or its last dim) use cpu.SumTorchF32/F64, and over
// another dim of a tensor of up to this many elements cpu.SumColsTorch*,
// so that they
// are bit-identical to PyTorch's and print the same digits; longer rows
// use the chunked, multi-threaded float64-combined sum (where PyTorch, run
// on several threads, splits the row too).
const torchSumMaxRow = 1 << 16

// sumRowsTorch sets dst[o] to the sum (or mean: the sum divided by r in
// T, as PyTorch's sum(...).div_(r)) of row o of x, in PyTorch's order.
func sumRowsTorch[T float32 | float64](x, dst []T, outer, r int, mean bool, sum func(dst, x []T, n int)) {
	parallelTasks(outer, r, grainMem, func(o0, o1 int) {
		d := dst[o0:o1]
		sum(d, x[o0*r:o1*r], r)
		if mean {
			for o := range d {
				d[o] /= T(r)
			}
		}
	})
}

// sumColsTorch reduces the middle dim of a contiguous [outer, r, inner]
// block (inner > 1) in PyTorch's outer-sum order, one [r, inner] slab at a
// time (small tensors only: torchSumMaxRow elements in all).
func sumColsTorch[T float32 | float64](x, dst []T, outer, r, inner int, mean bool, cols func(dst, x []T, rows, cols int)) {
	for o := 0; o < outer; o++ {
		d := dst[o*inner : (o+1)*inner]
		cols(d, x[o*r*inner:(o+1)*r*inner], r, inner)
		if mean {
			for j := range d {
				d[j] /= T(r)
			}
		}
	}
}

func sumBlocks[T vfloat](k *vecOps[T], x, dst []T, outer, r, inner int, mean bool) {
	fin := func(s float64) T {
		if mean {
			return T(s / float64(r))
		}
		return T(s)
	}
	switch {
	case inner == 1 && outer == 1:
		// one long row: per-chunk sums combined in chunk order (deterministic)
		row := x[:r]
		var z T
		bounds := alignedBounds(r, grainMem, unsafe.Pointer(&row[0]), int(unsafe.Sizeof(z)))
		part := make([]float64, len(bounds)-1)
		runChunks(bounds, func(i, lo, hi int) { part[i] = rowSum(k, row[lo:hi]) })
		var s float64
		for _, v := range part {
			s += v
		}
		if math.IsInf(s, 0) || s != s {
			// a chunk sum may have overflowed T although the total does
			// not: redo the row in float64 (IEEE semantics)
			s = 0
			for _, v := range row {
				s += float64(v)
			}
		}
		dst[0] = fin(s)
	case inner == 1:
		parallelTasks(outer, r, grainMem, func(o0, o1 int) {
			for o := o0; o < o1; o++ {
				dst[o] = fin(rowSum(k, x[o*r:(o+1)*r]))
			}
		})
	case r <= sumSuperRows:
		colTasks(outer, r, inner, grainMem, func(in, out, w int) {
			acc := make([]T, w)
			acc64 := make([]float64, w)
			addRowBlocks(k, x[in:], inner, 0, r, acc, acc64)
			d := dst[out : out+w]
			for j, v := range acc64 {
				d[j] = fin(v)
			}
		})
	default:
		// Superblocks of sumSuperRows rows, each summed into its own
		// float64 partials, then the partials in order: the work splits
		// over rows as well as columns, so two goroutines each read whole
		// rows in order (column blocks a row apart restart the hardware
		// prefetchers on every row), and the association is the same
		// whatever the goroutine count.
		nsup := (r + sumSuperRows - 1) / sumSuperRows
		cb := min(inner, colBlockSerial)
		nb := (inner + cb - 1) / cb
		part := make([]float64, outer*nsup*inner)
		parallelTasks(outer*nsup*nb, sumSuperRows*cb, grainMem, func(t0, t1 int) {
			acc := make([]T, cb)
			for t := t0; t < t1; t++ {
				o, sup, c0 := t/(nsup*nb), t/nb%nsup, t%nb*cb
				w := min(cb, inner-c0)
				i0 := sup * sumSuperRows
				p := part[(o*nsup+sup)*inner+c0:][:w]
				addRowBlocks(k, x[o*r*inner+c0:], inner, i0, min(i0+sumSuperRows, r), acc[:w], p)
			}
		})
		for o := range outer {
			d := dst[o*inner : (o+1)*inner]
			for j := range d {
				var s float64
				for sup := range nsup {
					s += part[(o*nsup+sup)*inner+j]
				}
				d[j] = fin(s)
			}
		}
	}
}

// sumSuperRows is the row count up to which sumBlocks sums a column in one
// float64 accumulator; longer columns are split into superblocks of this
// many rows (a multiple of sumBlockRows) whose float64 partials are added
// in order.
const sumSuperRows = 1024

// addRowBlocks adds rows [i0, i1) of the w columns at x[i*inner:] (row i)
// into acc64, sumBlockRows rows at a time summed in T (acc is scratch of
// w elements) and then added to acc64 in float64.
func addRowBlocks[T vfloat](k *vecOps[T], x []T, inner, i0, i1 int, acc []T, acc64 []float64) {
	w := len(acc)
	for b0 := i0; b0 < i1; b0 += sumBlockRows {
		b1 := min(b0+sumBlockRows, i1)
		copy(acc, x[b0*inner:b0*inner+w])
		for i := b0 + 1; i < b1; i++ {
			row := x[i*inner : i*inner+w]
			if w < minKernelRun {
				for j, v := range row {
					acc[j] += v
				}
				continue
			}
			k.bin[opAdd](acc, acc, row)
		}
		for j, v := range acc {
			acc64[j] += float64(v)
		}
	}
}

// rowSum is k.sum(x) as float64. The kernel's compensated summation turns
// an infinite element into NaN (its correction term is inf - inf), so a
// NaN result is recomputed with plain float64 accumulation, which gives
// IEEE semantics: NaN only for a NaN element or +Inf plus -Inf.
func rowSum[T vfloat](k *vecOps[T], x []T) float64 {
	s := float64(k.sum(x))
	if s != s {
		s = 0
		for _, v := range x {
			s += float64(v)
		}
	}
	return s
}

// ---- prod ----

// fastProd returns the product of an f32/f64 t over the reduced dims,
// accumulated in t's dtype as PyTorch's prod (an f32 product overflows and
// underflows in float32), or nil when no fast path applies. Contiguous
// rows use cpu.ProdF32/F64 (left to right for short rows, vector lanes
// for long ones); other dims multiply the rows into the outputs in order,
// element by element, as PyTorch's outer reduction.
func fastProd(t *Tensor, p *reducePlan) *Tensor {
	outer, r, inner, ok := blockLayout(t, p.red)
	if !ok {
		return nil
	}
	switch t.dtype {
	case F32:
		out := empty(p.outShape, F32)
		prodBlocks(opsF32, t.storage.F32()[t.offset:], out.storage.F32(), outer, r, inner)
		return out
	case F64:
		out := empty(p.outShape, F64)
		prodBlocks(opsF64, t.storage.F64()[t.offset:], out.storage.F64(), outer, r, inner)
		return out
	}
	return nil
}

// prodTorch is the product of a contiguous row as ATen's CPU prod
// (binary_kernel_reduce_vec, AVX2 build) computes it, in T: with V lanes
// (8 float32, 4 float64), each of the 4V accumulators starts at the row's
// first 4V elements and multiplies in the matching element of every later
// whole 4V chunk; the four V-vectors are combined as (a0·a1)·(a2·a3), their
// lanes multiplied left to right into 1; the remaining elements are then
// multiplied in one by one. Rows shorter than 4V are multiplied left to
// right.
func prodTorch[T vfloat](row []T) T {
	var z T
	v := 32 / int(unsafe.Sizeof(z))
	w := 4 * v
	n := len(row)
	dst := T(1)
	cnt := n / w
	if cnt > 0 {
		var accBuf [32]T
		acc := accBuf[:w]
		copy(acc, row[:w])
		for i := 1; i < cnt; i++ {
			chunk := row[i*w : (i+1)*w]
			for j := range acc {
				acc[j] *= chunk[j]
			}
		}
		b := (acc[0] * acc[v]) * (acc[2*v] * acc[3*v])
		for l := 1; l < v; l++ {
			b *= (acc[l] * acc[v+l]) * (acc[2*v+l] * acc[3*v+l])
		}
		dst *= b
	}
	for _, x := range row[cnt*w:] {
		dst *= x
	}
	return dst
}

func prodBlocks[T vfloat](k *vecOps[T], x, dst []T, outer, r, inner int) {
	if inner == 1 {
		parallelTasks(outer, r, grainMem, func(o0, o1 int) {
			for o := o0; o < o1; o++ {
				if outer*r <= torchSumMaxRow {
					dst[o] = prodTorch(x[o*r : (o+1)*r])
				} else {
					dst[o] = k.prod(x[o*r : (o+1)*r])
				}
			}
		})
		return
	}
	mul := k.bin[opMul]
	colTasks(outer, r, inner, grainMem, func(in, out, w int) {
		d := dst[out : out+w]
		copy(d, x[in:in+w])
		for i := 1; i < r; i++ {
			row := x[in+i*inner : in+i*inner+w]
			if w < minKernelRun {
				for j, v := range row {
					d[j] *= v
				}
				continue
			}
			mul(d, d, row)
		}
	})
}

// ---- max / min (values and indices) ----

// fastArgReduce is argReduce for f32/f64 block layouts: the max (or min)
// over the reduced dims and, when wantIdx, the i64 index (within the
// reduced block) of its first occurrence; NaN counts as the extreme. It
// reports ok = false when no fast path applies.
func fastArgReduce(t *Tensor, p *reducePlan, isMax, wantIdx bool) (vals, idx *Tensor, ok bool) {
	outer, r, inner, ok := blockLayout(t, p.red)
	if !ok {
		return nil, nil, false
	}
	var id []int64
	if wantIdx {
		idx = empty(p.outShape, I64)
		id = idx.storage.I64()
	}
	switch t.dtype {
	case F32:
		vals = empty(p.outShape, F32)
		extremeBlocks(opsF32, t.storage.F32()[t.offset:], vals.storage.F32(), id, outer, r, inner, isMax)
	case F64:
		vals = empty(p.outShape, F64)
		extremeBlocks(opsF64, t.storage.F64()[t.offset:], vals.storage.F64(), id, outer, r, inner, isMax)
	default:
		return nil, nil, false
	}
	return vals, idx, true
}

// rowExtreme returns the max (or min) of row, NaN when row holds a NaN:
// the vector max kernel, or the min kernel (cpu.MinF32/MinF64).
func rowExtreme[T vfloat](k *vecOps[T], row []T, isMax bool) T {
	if isMax {
		return k.max(row)
	}
	switch r := any(row).(type) {
	case []float32:
		return T(cpu.MinF32(r))
	case []float64:
		return T(cpu.MinF64(r))
	}
	panic("unreachable")
}

// firstIndex returns the index of the first element of row equal to m (or
// the first NaN when m is NaN).
func firstIndex[T vfloat](row []T, m T) int {
	if m != m {
		for i, v := range row {
			if v != v {
				return i
			}
		}
	}
	for i, v := range row {
		if v == m {
			return i
		}
	}
	return 0
}

func extremeBlocks[T vfloat](k *vecOps[T], x, dst []T, id []int64, outer, r, inner int, isMax bool) {
	if inner == 1 {
		if outer == 1 && id == nil {
			row := x[:r]
			var z T
			bounds := alignedBounds(r, grainMem, unsafe.Pointer(&row[0]), int(unsafe.Sizeof(z)))
			part := make([]T, len(bounds)-1)
			runChunks(bounds, func(i, lo, hi int) { part[i] = rowExtreme(k, row[lo:hi], isMax) })
			m := part[0]
			for _, v := range part[1:] {
				if m != m {
					break
				}
				if v != v || (isMax && v > m) || (!isMax && v < m) {
					m = v
				}
			}
			dst[0] = m
			return
		}
		parallelTasks(outer, r, grainMem, func(o0, o1 int) {
			for o := o0; o < o1; o++ {
				row := x[o*r : (o+1)*r]
				m := rowExtreme(k, row, isMax)
				dst[o] = m
				if id != nil {
					id[o] = int64(firstIndex(row, m))
				}
			}
		})
		return
	}
	colTasks(outer, r, inner, grainMem, func(in, out, w int) {
		d := dst[out : out+w]
		if id != nil {
			extremeColsIdx(k, x, d, id[out:out+w], in, r, inner, isMax)
			return
		}
		extremeCols(k, x, d, in, 0, r, inner, isMax)
	})
}

// extremeCols sets d[j] to the NaN-propagating max (or min) of column j
// over rows [i0, i1) (stride inner) of the column block starting at x[in],
// accumulating the rows into d with the vector kernel (MaximumF32 ...).
func extremeCols[T vfloat](k *vecOps[T], x, d []T, in, i0, i1, inner int, isMax bool) {
	w := len(d)
	copy(d, x[in+i0*inner:in+i0*inner+w])
	f := k.bin[opMax]
	if !isMax {
		f = k.bin[opMin]
	}
	for i := i0 + 1; i < i1; i++ {
		row := x[in+i*inner : in+i*inner+w]
		switch {
		case w >= minKernelRun:
			f(d, d, row)
		case isMax: // the max/min builtins propagate NaN
			for j, v := range row {
				d[j] = max(d[j], v)
			}
		default:
			for j, v := range row {
				d[j] = min(d[j], v)
			}
		}
	}
}

// idxBlockRows is the number of rows whose extreme is taken with the
// vector kernel before it is compared with the running extreme.
const idxBlockRows = 64

// extremeColsIdx sets d[j] and ix[j] to the max (or min) of column j over
// the r rows of a column block and the row of its first occurrence (NaN
// counting as the extreme, its first occurrence winning), as the generic
// argReduce. The first idxBlockRows rows are scanned with a scalar
// compare-and-update loop; each further block of rows is reduced with the
// vector kernel, and only the columns where the block's extreme beats the
// running one (strictly, so ties keep the earlier row) are rescanned in
// that block for its first occurrence. On random data few columns improve
// after the first blocks, so most rows go through the vector kernel only.
func extremeColsIdx[T vfloat](k *vecOps[T], x, d []T, ix []int64, in, r, inner int, isMax bool) {
	w := len(d)
	copy(d, x[in:in+w])
	clear(ix)
	for i := 1; i < min(r, idxBlockRows); i++ {
		row := x[in+i*inner : in+i*inner+w]
		for j, v := range row {
			b := d[j]
			if b == b && (v != v || (isMax && v > b) || (!isMax && v < b)) {
				d[j], ix[j] = v, int64(i)
			}
		}
	}
	if r <= idxBlockRows {
		return
	}
	bm := make([]T, w)
	for i0 := idxBlockRows; i0 < r; i0 += idxBlockRows {
		i1 := min(i0+idxBlockRows, r)
		extremeCols(k, x, bm, in, i0, i1, inner, isMax)
		for j, v := range bm {
			b := d[j]
			if b != b || !(v != v || (isMax && v > b) || (!isMax && v < b)) {
				continue
			}
			for i := i0; i < i1; i++ { // v is in the block: find its first row
				u := x[in+i*inner+j]
				if u == v || v != v && u != u {
					d[j], ix[j] = u, int64(i)
					break
				}
			}
		}
	}
}

// colMax sets m[j] = max over the r rows (stride inner) starting at x[in]
// of column j, NaN-propagating.
func colMax[T vfloat](k *vecOps[T], x, m []T, in, r, inner int) {
	extremeCols(k, x, m, in, 0, r, inner, true)
}

// ---- logsumexp ----

// fastLogSumExp returns logsumexp of t over the reduced dims, or nil when
// no fast path applies.
func fastLogSumExp(t *Tensor, p *reducePlan) *Tensor {
	outer, r, inner, ok := blockLayout(t, p.red)
	if !ok || inner > 1 && inner < minKernelRun {
		return nil
	}
	switch t.dtype {
	case F32:
		out := empty(p.outShape, F32)
		lseBlocks(opsF32, t.storage.F32()[t.offset:], out.storage.F32(), outer, r, inner)
		return out
	case F64:
		out := empty(p.outShape, F64)
		lseBlocks(opsF64, t.storage.F64()[t.offset:], out.storage.F64(), outer, r, inner)
		return out
	}
	return nil
}

func lseBlocks[T vfloat](k *vecOps[T], x, dst []T, outer, r, inner int) {
	if inner == 1 {
		parallelTasks(outer, 4*r, grainCompute, func(o0, o1 int) {
			k.logSumExp(dst[o0:o1], x[o0*r:o1*r], o1-o0, r)
		})
		return
	}
	colTasks(outer, r, inner, grainCompute/4, func(in, out, w int) {
		m := make([]T, w)
		colMax(k, x, m, in, r, inner)
		for j, v := range m {
			if math.IsInf(float64(v), 0) {
				m[j] = 0 // all -inf rows give -inf, a +inf gives +inf (as the generic path)
			}
		}
		s := expSumCols(k, x, m, nil, in, r, inner)
		d := dst[out : out+w]
		for j := range d {
			d[j] = T(float64(m[j]) + math.Log(s[j]))
		}
	})
}

// expSumCols returns s[j] = Σ_i exp(x[i, j] - m[j]) over the r rows of a
// column block (in float64, with sumBlockRows rows summed in T first).
// When e is non-nil, it receives exp(x - m) (rows of stride inner, block
// offset in, like x).
func expSumCols[T vfloat](k *vecOps[T], x, m, e []T, in, r, inner int) []float64 {
	w := len(m)
	acc := make([]T, w)
	s := make([]float64, w)
	var tmp []T
	if e == nil {
		tmp = make([]T, w)
	}
	for i0 := 0; i0 < r; i0 += sumBlockRows {
		i1 := min(i0+sumBlockRows, r)
		clear(acc)
		for i := i0; i < i1; i++ {
			row := x[in+i*inner : in+i*inner+w]
			dst := tmp
			if e != nil {
				dst = e[in+i*inner : in+i*inner+w]
			}
			k.bin[opSub](dst, row, m)
			k.exp(dst, dst)
			k.bin[opAdd](acc, acc, dst)
		}
		for j, v := range acc {
			s[j] += float64(v)
		}
	}
	return s
}

// ---- softmax ----

// fastSoftmax computes softmax or log_softmax of t (f32/f64) along dim d,
// or returns nil for other dtypes. A non-contiguous t is made contiguous
// first (one copy beats the generic per-row gather).
func fastSoftmax(t *Tensor, d int, logsm bool) *Tensor {
	if !fastPathsOn() || (t.dtype != F32 && t.dtype != F64) || t.Numel() == 0 {
		return nil
	}
	c := t.Contiguous()
	outer, r, inner := 1, 1, 1
	for i, s := range c.shape {
		switch {
		case i < d:
			outer *= s
		case i == d:
			r = s
		default:
			inner *= s
		}
	}
	if inner > 1 && c.Numel() <= torchSumMaxRow && (c.dtype == F32 && inner < 8 || c.dtype == F64 && inner < 4) {
		// fewer columns than a vector holds: PyTorch's scalar loop
		out := empty(c.shape, c.dtype)
		if c.dtype == F32 {
			softmaxColsScalar(c.storage.F32()[c.offset:], out.storage.F32(), outer, r, inner, logsm,
				xmath.Expf, func(v float32) float32 { return float32(math.Log(float64(v))) })
		} else {
			softmaxColsScalar(c.storage.F64()[c.offset:], out.storage.F64(), outer, r, inner, logsm, xmath.Exp, xmath.Log)
		}
		return out
	}
	if inner > 1 && inner < minKernelRun {
		// short columns: move dim d last, run the row kernel, move it back
		perm := make([]int, 0, len(c.shape))
		for i := range c.shape {
			if i != d {
				perm = append(perm, i)
			}
		}
		perm = append(perm, d)
		pv, _ := c.Permute(perm...)
		res := fastSoftmax(pv.Contiguous(), len(perm)-1, logsm)
		out := empty(c.shape, c.dtype)
		ov, _ := out.Permute(perm...)
		copySame(ov, res)
		return out
	}
	out := empty(c.shape, c.dtype)
	switch c.dtype {
	case F32:
		softmaxBlocks(opsF32, c.storage.F32()[c.offset:], out.storage.F32(), outer, r, inner, logsm)
	default:
		softmaxBlocks(opsF64, c.storage.F64()[c.offset:], out.storage.F64(), outer, r, inner, logsm)
	}
	return out
}

// softmaxColsScalar is softmax (log_softmax) of x, [outer, r, inner]
// row-major, along r, as PyTorch 1.13's _vec_softmax / _vec_log_softmax
// compute a column when fewer columns than a vector's lanes remain (inner
// below 8 floats or 4 doubles: every column): max by std::max in order,
// sum of exp(x - max) in the dtype in order (libm's exp: exp), then
// exp(x - max) / sum, or (x - max) - log(sum). f32 takes glibc's expf
// (xmath.Expf, bit for bit) and logf (the float32 of the float64 log,
// correctly rounded but in near-halfway cases).
func softmaxColsScalar[T vfloat](x, dst []T, outer, r, inner int, logsm bool, exp, log func(T) T) {
	for o := 0; o < outer; o++ {
		base := o * r * inner
		for j := 0; j < inner; j++ {
			col := base + j
			m := x[col]
			for i := 1; i < r; i++ {
				if v := x[col+i*inner]; m < v { // std::max(m, v)
					m = v
				}
			}
			var s T
			for i := 0; i < r; i++ {
				e := exp(x[col+i*inner] - m)
				if !logsm {
					dst[col+i*inner] = e
				}
				s += e
			}
			if logsm {
				ls := log(s)
				for i := 0; i < r; i++ {
					dst[col+i*inner] = (x[col+i*inner] - m) - ls
				}
				continue
			}
			for i := 0; i < r; i++ {
				dst[col+i*inner] /= s
			}
		}
	}
}

func softmaxBlocks[T vfloat](k *vecOps[T], x, dst []T, outer, r, inner int, logsm bool) {
	if inner == 1 {
		f := k.softmax
		if logsm {
			f = k.logSoftmax
		}
		parallelTasks(outer, 4*r, grainCompute, func(o0, o1 int) {
			f(dst[o0*r:o1*r], x[o0*r:o1*r], o1-o0, r)
		})
		return
	}
	// Softmax down the columns of each [r, inner] slab: column max, then
	// exp(x - max) into dst with the column sums, then a scaling pass.
	colTasks(outer, r, inner, grainCompute/4, func(in, _, w int) {
		m := make([]T, w)
		colMax(k, x, m, in, r, inner)
		if !logsm {
			s := expSumCols(k, x, m, dst, in, r, inner)
			inv := make([]T, w)
			for j, v := range s {
				inv[j] = T(1 / v)
			}
			for i := 0; i < r; i++ {
				row := dst[in+i*inner : in+i*inner+w]
				k.bin[opMul](row, row, inv)
			}
			return
		}
		s := expSumCols(k, x, m, nil, in, r, inner)
		ls := make([]T, w)
		for j, v := range s {
			ls[j] = T(math.Log(v))
		}
		for i := 0; i < r; i++ {
			o := in + i*inner
			row := dst[o : o+w]
			k.bin[opSub](row, x[o:o+w], m)
			k.bin[opSub](row, row, ls)
		}
	})
}
