package tensor

import (
	"math"
	"sync"
)

// Row drivers of Sort, Argsort, Topk (join.go) and Median, Kthvalue: every
// row along dim is handled by the kernels of sortkeys.go, rows in parallel
// on GetNumThreads goroutines (each with its own scratch buffers).

// sortRowJob is one row: the storage offset of its first element in the
// input and the element offset of its first element in the outputs.
type sortRowJob struct{ in, out int }

// rowJobs lists the rows of t along dim d in C order, with output offsets
// for outputs of shape outShape (C-contiguous; outShape[d] may differ
// from t's size along d).
func rowJobs(t *Tensor, d int, outShape []int) []sortRowJob {
	ost := contiguousStrides(outShape)
	nd := len(t.shape)
	rows := 1
	for i, s := range t.shape {
		if i != d {
			rows *= s
		}
	}
	jobs := make([]sortRowJob, 0, rows)
	if rows == 0 {
		return jobs
	}
	idx := make([]int, nd)
	in, out := t.offset, 0
	for {
		jobs = append(jobs, sortRowJob{in, out})
		k := nd - 1
		for ; k >= 0; k-- {
			if k == d {
				continue
			}
			idx[k]++
			in += t.strides[k]
			out += ost[k]
			if idx[k] < t.shape[k] {
				break
			}
			in -= t.strides[k] * t.shape[k]
			out -= ost[k] * outShape[k]
			idx[k] = 0
		}
		if k < 0 {
			return jobs
		}
	}
}

// forEachRow runs fn over the rows of t along d (see rowJobs), in
// parallel; cost is the work per row in elements.
func forEachRow(t *Tensor, d int, outShape []int, cost int, fn func(sc *sortScratch, j sortRowJob)) {
	jobs := rowJobs(t, d, outShape)
	parallelTasks(len(jobs), cost, parallelGrain, func(j0, j1 int) {
		sc := sortScratchPool.Get().(*sortScratch)
		for _, j := range jobs[j0:j1] {
			fn(sc, j)
		}
		if cap(sc.a)+cap(sc.b) <= sortScratchKeep && cap(sc.full) <= sortScratchKeep {
			sortScratchPool.Put(sc) // short rows: reuse the buffers (argsort in a loop)
		}
	})
}

// sortScratchPool recycles the row buffers of sorts over short rows;
// sortScratchKeep (elements) bounds what a pooled scratch may hold.
var sortScratchPool = sync.Pool{New: func() any { return &sortScratch{} }}

const sortScratchKeep = 1 << 16

// takeRow copies the elements idx of the input row at storage offset in
// (stride st) to the output row at offset out (stride ost): raw bits,
// typed by element size.
func takeRow(dst, src *Tensor, out, ost, in, st int, idx []int) {
	switch src.dtype.ItemSize() {
	case 1:
		takeBits(typed[uint8](dst.storage), typed[uint8](src.storage), out, ost, in, st, idx)
	case 2:
		takeBits(typed[uint16](dst.storage), typed[uint16](src.storage), out, ost, in, st, idx)
	case 4:
		takeBits(typed[uint32](dst.storage), typed[uint32](src.storage), out, ost, in, st, idx)
	case 8:
		takeBits(typed[uint64](dst.storage), typed[uint64](src.storage), out, ost, in, st, idx)
	}
}

func takeBits[T uint8 | uint16 | uint32 | uint64](d, s []T, out, ost, in, st int, idx []int) {
	if ost == 1 && st == 1 {
		d = d[out : out+len(idx)]
		s = s[in:]
		for q, i := range idx {
			d[q] = s[i]
		}
		return
	}
	for q, i := range idx {
		d[out+q*ost] = s[in+i*st]
	}
}

// putIndices writes idx as i64 into the output row at offset out (stride ost).
func putIndices(ix []int64, out, ost int, idx []int) {
	for q, i := range idx {
		ix[out+q*ost] = int64(i)
	}
}

// sortedSelect is Sort (k = n, every row sorted) and Topk (the first k of
// each row's order): values (t's dtype) and i64 indices of shape t.shape
// with dim d of size k. desc selects the descending order.
func sortedSelect(t *Tensor, d, k int, desc bool) (*Tensor, *Tensor) {
	outShape := append([]int(nil), t.shape...)
	n := 1
	if len(outShape) > 0 {
		n = t.shape[d]
		outShape[d] = k
	}
	vals := empty(outShape, t.dtype)
	idx := empty(outShape, I64)
	if vals.Numel() == 0 {
		return vals, idx
	}
	st, ost := 1, 1
	if len(outShape) > 0 {
		st, ost = t.strides[d], vals.strides[d]
	}
	ix := idx.storage.I64()
	flip := descFlip(t.dtype, desc)
	forEachRow(t, d, outShape, 8*n, func(sc *sortScratch, j sortRowJob) {
		var perm []int
		if k == n {
			sc.full = grow(sc.full, n)
			perm = sc.full
			sc.sortRow(t, j.in, st, n, flip, sc.full)
		} else {
			// topkRow may itself use sc.full: keep the result apart
			sc.top = grow(sc.top, k)
			sc.topkRow(t, j.in, st, n, k, flip, sc.top)
			perm = sc.top
		}
		takeRow(vals, t, j.out, ost, j.in, st, perm)
		putIndices(ix, j.out, ost, perm)
	})
	return vals, idx
}

// selectAlong returns, for every row of t along dim (negative wraps), the
// element at position pos(n) of the row's stable ascending order and its
// index: values (t's dtype) and i64 indices with dim reduced (kept as size
// 1 with keepdim). A 0-d t is one row of one element. nanPropagates picks
// the row's first NaN instead when it holds one (median).
func selectAlong(t *Tensor, name string, dim int, keepdim, nanPropagates bool, pos func(n int) int) (*Tensor, *Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, nil, err
	}
	n, st := 1, 1
	var outShape []int
	if len(t.shape) > 0 {
		n, st = t.shape[d], t.strides[d]
		outShape = append(outShape, t.shape...)
		outShape[d] = 1
	}
	if n == 0 {
		return nil, nil, errorf(IndexError, "%s(): Expected reduction dim %d to have non-zero size.", name, d)
	}
	p := pos(n)
	if p < 0 || p >= n {
		return nil, nil, errorf(RuntimeError, "%s(): selected number k out of range for dimension %d", name, d)
	}
	final := outShape
	if !keepdim && len(t.shape) > 0 {
		final = append(append([]int(nil), outShape[:d]...), outShape[d+1:]...)
	}
	// the C-order offsets of outShape (dim d of size 1) and final agree
	vals := empty(final, t.dtype)
	idx := empty(final, I64)
	ix := idx.storage.I64()
	if vals.Numel() > 0 {
		forEachRow(t, d, outShape, 4*n, func(sc *sortScratch, j sortRowJob) {
			i := sc.selectRow(t, j.in, st, n, p, nanPropagates)
			sc.top = append(sc.top[:0], i)
			takeRow(vals, t, j.out, 1, j.in, st, sc.top)
			ix[j.out] = int64(i)
		})
	}
	return vals, idx, nil
}

// Median returns the lower median along dim (negative wraps) and its i64
// index, PyTorch's median(dim, keepdim): element (n-1)/2 of each row in
// sorted order; a row holding NaN gives NaN and the index of its first NaN.
// Among equal values the index is the one a stable sort puts at that
// position (PyTorch leaves it unspecified). The dim is dropped unless
// keepdim. A size-0 dim is an IndexError; a 0-d t is its own median.
// Algorithm: quickselect (Hoare's FIND, three-way partition) on order
// keys, expected O(n) per row.
func Median(t *Tensor, dim int, keepdim bool) (values, indices *Tensor, err error) {
	return selectAlong(t, "median", dim, keepdim, true, func(n int) int { return (n - 1) / 2 })
}

// MedianAll returns the lower median of all elements as a 0-d tensor of
// t's dtype (NaN when any element is NaN), PyTorch's median(). An empty
// float tensor gives NaN; an empty integer or bool tensor is a
// RuntimeError.
func MedianAll(t *Tensor) (*Tensor, error) {
	if t.Numel() == 0 {
		if !t.dtype.IsFloat() {
			return nil, errorf(RuntimeError, "median() input tensor cannot be empty")
		}
		return Full(nil, math.NaN(), t.dtype)
	}
	flat, err := t.Reshape(-1)
	if err != nil {
		return nil, err
	}
	v, _, err := Median(flat, 0, false)
	return v, err
}

// Kthvalue returns the k-th smallest element (k counts from 1) along dim
// and its i64 index, PyTorch's kthvalue(k, dim, keepdim): NaN counts as
// larger than every number. Ties give the index a stable sort puts at
// position k-1. k outside [1, n] is a RuntimeError; a size-0 dim an
// IndexError. Algorithm: quickselect on order keys.
func Kthvalue(t *Tensor, k, dim int, keepdim bool) (values, indices *Tensor, err error) {
	return selectAlong(t, "kthvalue", dim, keepdim, false, func(int) int { return k - 1 })
}
