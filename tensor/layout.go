package tensor

import "sort"

// PyTorch's memory_format=torch.preserve_format, the default of clone(),
// to() and the *_like factories: a copy of a tensor whose elements fill a
// block of storage exactly once, in some dim order (a transpose, a
// permute, an expand-free contiguous view), keeps that tensor's strides;
// any other tensor gets dense strides in the order of its own (a sliced
// transpose stays transposed). x.t().clone().stride() is (1, 4) for a
// [3, 4] x, and x.t().clone().is_contiguous() is false.

// IsNonOverlappingAndDense reports whether t's elements occupy exactly
// Numel() consecutive storage elements, each once (PyTorch's
// is_non_overlapping_and_dense): t is contiguous after permuting its dims.
// Size-1 dims may have any stride; empty and 0-d tensors are dense.
func (t *Tensor) IsNonOverlappingAndDense() bool {
	_, ok := denseOrder(t.shape, t.strides)
	return ok
}

// denseOrder returns t's dims ordered by increasing stride (size-1 dims
// last, ties in dim order) and whether the strides are then exactly those
// of a contiguous tensor in that order.
func denseOrder(shape, strides []int) ([]int, bool) {
	n := len(shape)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for _, s := range shape {
		if s == 0 {
			return perm, true
		}
	}
	sort.SliceStable(perm, func(a, b int) bool {
		da, db := perm[a], perm[b]
		if (shape[da] == 1) != (shape[db] == 1) {
			return shape[db] == 1 // size-1 dims go outermost
		}
		return strides[da] < strides[db]
	})
	want := 1
	for _, d := range perm {
		if shape[d] == 1 {
			continue
		}
		if strides[d] != want {
			return perm, false
		}
		want *= shape[d]
	}
	return perm, true
}

// preservedStrides is PyTorch's preserve_format layout for a new tensor of
// t's shape: t's own strides when t is non-overlapping and dense (as
// empty_strided(t.size(), t.stride()) does), else dense strides in the
// order of t's strides (ATen's infer_dense_strides).
func preservedStrides(t *Tensor) []int {
	if t.IsContiguous() {
		return append([]int(nil), t.strides...)
	}
	if _, ok := denseOrder(t.shape, t.strides); ok {
		return append([]int(nil), t.strides...)
	}
	return inferDenseStrides(t.shape, t.strides)
}

// reorderDims is TensorIterator's reorder_dimensions over n dims: perm[0]
// is the fastest dim; perm starts reversed and is insertion-sorted with
// swap(d0, d1) (> 0: d0 must come after d1, < 0: keep, 0: ambiguous, look
// further back).
func reorderDims(n int, swap func(d0, d1 int) int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = n - 1 - i
	}
	for i := 1; i < n; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := swap(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	return perm
}

// inferDenseStrides is ATen's infer_dense_strides: dims ordered by
// increasing stride (an insertion sort starting from the last dim, where a
// zero stride compares as ambiguous and equal strides put the smaller
// size first), then contiguous strides in that order.
func inferDenseStrides(shape, strides []int) []int {
	n := len(shape)
	// one input: shouldSwap's comparison with ambiguity (a zero stride) as 0
	perm := reorderDims(n, func(d0, d1 int) int { return shouldSwap(strides, shape, d0, d1) })
	out := make([]int, n)
	acc := 1
	for _, d := range perm {
		out[d] = acc
		acc *= shape[d]
	}
	return out
}

// EmptyPreserve returns a zero-filled tensor of t's shape in dtype dt with
// PyTorch's preserve_format strides (see IsNonOverlappingAndDense), the
// layout of empty_like, zeros_like, rand_like and friends.
func EmptyPreserve(t *Tensor, dt DType) *Tensor {
	sh := append([]int(nil), t.shape...)
	return newTensor(newStorage(dt, numel(sh), true), sh, preservedStrides(t), 0, dt)
}

// emptyPreserve is EmptyPreserve without the zero fill, for results
// whose every element is written next (preserved strides are dense).
func emptyPreserve(t *Tensor, dt DType) *Tensor {
	sh := append([]int(nil), t.shape...)
	return newTensor(newStorage(dt, numel(sh), false), sh, preservedStrides(t), 0, dt)
}

// ClonePreserve is clone() with PyTorch's default preserve_format: a copy
// with t's strides when t is non-overlapping and dense (a transposed view
// stays transposed), else a contiguous copy (Clone).
func (t *Tensor) ClonePreserve() *Tensor {
	out := emptyPreserve(t, t.dtype)
	copySame(out, t)
	return out
}

// CloneLayoutOf returns a copy of t (version 0, like Clone) laid out as
// EmptyPreserve(like, ...) would be: like's strides when like is
// non-overlapping and dense. like must have t's shape. Autograd uses it
// for PyTorch's gradient layout contract (a leaf's .grad has the leaf's
// strides).
func (t *Tensor) CloneLayoutOf(like *Tensor) *Tensor {
	if !shapeEq(t.shape, like.shape) {
		panic("tensor: CloneLayoutOf: shapes differ")
	}
	out := emptyPreserve(like, t.dtype)
	copySame(out, t)
	return out
}

// ToPreserve is To with preserve_format: t itself when the dtype already
// matches, else a converted copy laid out like t (see EmptyPreserve).
func (t *Tensor) ToPreserve(dt DType) (*Tensor, error) {
	if !dt.Valid() {
		return nil, errorf(TypeError, "invalid dtype")
	}
	if dt == t.dtype {
		return t, nil
	}
	out := EmptyPreserve(t, dt)
	castInto(out, t)
	return out, nil
}

// ---- TensorIterator's output layout ----
//
// Elementwise ops (unary, binary with broadcasting, comparisons, where,
// casts inside them) allocate their result as PyTorch's TensorIterator
// does (aten/src/ATen/TensorIterator.cpp: fast_set_up, compute_strides,
// reorder_dimensions, allocate_or_resize_outputs):
//
//  1. fast setup, when every input has the broadcast shape itself: all
//     contiguous gives a contiguous result; all channels-last contiguous
//     (4-D) gives channels-last strides; all non-overlapping and dense with
//     identical strides gives exactly those strides (size-1 dims included);
//  2. otherwise each input's strides are broadcast (0 for a broadcast dim
//     and for missing leading dims) and the dims are sorted, fastest first,
//     by an insertion sort starting from the last dim whose comparison asks
//     the inputs in order: the first input with non-zero strides on both
//     dims that differ decides (smaller stride is faster); equal strides
//     put the smaller size first; inputs with a zero stride on either dim
//     are skipped, and when no input decides the dims keep their order.
//     The result is dense in that order (contiguous when the order is the
//     plain C order).
//
// An input whose dtype differs from the op's common dtype is first
// converted by ATen with .to() (preserve_format), so its strides count as
// preservedStrides. x.t() + 1 and x.t().exp() are laid out as x.t()
// ((1, 4) for a [3, 4] x); x.t() + y with a contiguous y follows x.t(),
// y + x.t() follows y; x[:, ::2] + 1 is contiguous.

// iterOperand is an input of an elementwise op as TensorIterator sees it:
// its own shape and its strides before broadcasting.
type iterOperand struct{ shape, strides []int }

// opOf is t as an input used in its own dtype.
func opOf(t *Tensor) iterOperand { return iterOperand{t.shape, t.strides} }

// opAs is t as an input ATen converts to dtype common first (Tensor.to
// with preserve_format): t's strides when no conversion is needed, else
// those of the converted copy.
func opAs(t *Tensor, common DType) iterOperand {
	if t.dtype == common || len(t.shape) == 0 || t.IsContiguous() {
		return opOf(t)
	}
	return iterOperand{t.shape, preservedStrides(t)}
}

// ElementwiseStrides returns the strides PyTorch's TensorIterator gives
// the result of an elementwise op over inputs broadcast to shape (see the
// rule above: fast setup for same-shape contiguous, channels-last or
// identically strided dense inputs, else dims ordered by the inputs'
// strides, first input first, with broadcast dims ignored). Inputs are
// taken in their own dtype.
func ElementwiseStrides(shape []int, inputs ...*Tensor) []int {
	ops := make([]iterOperand, len(inputs))
	for i, t := range inputs {
		ops[i] = opOf(t)
	}
	return iterStrides(shape, ops)
}

// emptyIter allocates an uninitialized tensor of shape and dtype dt with
// TensorIterator's output strides for the operands (see iterStrides).
func emptyIter(shape []int, dt DType, ops ...iterOperand) *Tensor {
	sh := append([]int(nil), shape...)
	return newTensor(newStorage(dt, numel(sh), false), sh, iterStrides(sh, ops), 0, dt)
}

// iterStrides is TensorIterator's output layout for operands broadcast to
// shape: fast_set_up, else compute_strides + reorder_dimensions +
// allocate_or_resize_outputs (compatible_stride in the permuted order).
func iterStrides(shape []int, ops []iterOperand) []int {
	nd := len(shape)
	if nd == 0 {
		return []int{}
	}
	if plainContiguous(shape, ops) {
		return contiguousStrides(shape)
	}
	allC := true
	for _, o := range ops {
		if !isContiguous(o.shape, o.strides) {
			allC = false
			break
		}
	}
	same := true
	for _, o := range ops {
		if !shapeEq(o.shape, shape) {
			same = false
			break
		}
	}
	if same && len(ops) > 0 {
		if allC {
			return contiguousStrides(shape)
		}
		allCL, allD, eq := nd == 4, true, true
		for _, o := range ops {
			allCL = allCL && isChannelsLast(o.shape, o.strides)
			allD = allD && nonOverlappingDense(o.shape, o.strides)
			eq = eq && shapeEq(o.strides, ops[0].strides)
		}
		switch {
		case allCL:
			return channelsLastStrides(shape)
		case allD && eq:
			return append([]int(nil), ops[0].strides...)
		}
	}
	// compute_strides: broadcast dims (and missing leading dims) get 0;
	// operand k's strides are st[k*nd : (k+1)*nd]
	var buf [32]int
	st := buf[:0]
	if len(ops)*nd > len(buf) {
		st = make([]int, 0, len(ops)*nd)
	}
	st = st[:len(ops)*nd]
	for k, o := range ops {
		s := st[k*nd : (k+1)*nd]
		clear(s)
		off := nd - len(o.shape)
		for i := range o.shape {
			if o.shape[i] == 1 && shape[off+i] != 1 {
				s[off+i] = 0
			} else {
				s[off+i] = o.strides[i]
			}
		}
	}
	// reorder_dimensions: perm lists dims fastest first
	var pbuf [8]int
	perm := pbuf[:0]
	if nd > len(pbuf) {
		perm = make([]int, 0, nd)
	}
	for i := nd - 1; i >= 0; i-- {
		perm = append(perm, i)
	}
	for i := 1; i < nd; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := shouldSwap(st, shape, perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	inverted := true
	for j, d := range perm {
		if d != nd-1-j {
			inverted = false
			break
		}
	}
	if inverted {
		return contiguousStrides(shape)
	}
	out := make([]int, nd)
	acc := 1
	for _, d := range perm {
		out[d] = acc
		acc *= shape[d]
	}
	return out
}

// shouldSwap is reorder_dimensions' comparison: 1 when dim d0 should come
// after (be slower than) d1, -1 when before, 0 when no input decides. The
// inputs are asked in order; one with a zero (broadcast) stride on either
// dim is skipped; equal strides put the smaller size first.
func shouldSwap(st, shape []int, d0, d1 int) int {
	nd := len(shape)
	for k := 0; k < len(st); k += nd {
		s0, s1 := st[k+d0], st[k+d1]
		switch {
		case s0 == 0 || s1 == 0:
			continue
		case s0 < s1:
			return -1
		case s0 > s1:
			return 1
		case shape[d0] > shape[d1]:
			return 1
		}
	}
	return 0
}

// plainContiguous reports whether the operands are all 0-d or of the
// result's (non-empty) shape with exactly contiguousStrides: then both
// fast_set_up and reorder_dimensions give a contiguous result (a 0-d
// input has zero strides and never decides the order), and iterStrides
// needs no further work (the common case x + 1 with a contiguous x).
func plainContiguous(shape []int, ops []iterOperand) bool {
	for _, o := range ops {
		if len(o.shape) == 0 {
			continue
		}
		if !shapeEq(o.shape, shape) {
			return false
		}
		acc := 1
		for i := len(shape) - 1; i >= 0; i-- {
			if shape[i] == 0 || o.strides[i] != acc {
				return false
			}
			acc *= shape[i]
		}
	}
	return true
}

// isChannelsLast is PyTorch's is_contiguous(memory_format=channels_last):
// a 4-D tensor dense in dim order C, W, H, N (fastest first), size-1 dims
// skipped.
func isChannelsLast(shape, strides []int) bool {
	if len(shape) != 4 {
		return false
	}
	want := 1
	for _, d := range [4]int{1, 3, 2, 0} {
		if shape[d] != 1 {
			if strides[d] != want {
				return false
			}
			want *= shape[d]
		}
	}
	return true
}

// channelsLastStrides are the strides of an empty 4-D tensor in
// channels-last memory format (ATen's get_channels_last_strides_2d).
func channelsLastStrides(shape []int) []int {
	s := make([]int, 4)
	s[1] = 1
	s[3] = shape[1]
	s[2] = s[3] * shape[3]
	s[0] = s[2] * shape[2]
	return s
}

// nonOverlappingDense is IsNonOverlappingAndDense on raw metadata, without
// allocating for tensors of up to 8 dims.
func nonOverlappingDense(shape, strides []int) bool {
	n := len(shape)
	if n > 8 {
		_, ok := denseOrder(shape, strides)
		return ok
	}
	if isContiguous(shape, strides) {
		return true
	}
	// insertion sort of the non-size-1 dims by stride
	var p [8]int
	m := 0
	for d := 0; d < n; d++ {
		if shape[d] == 0 {
			return true
		}
		if shape[d] == 1 {
			continue
		}
		j := m
		for j > 0 && strides[p[j-1]] > strides[d] {
			p[j] = p[j-1]
			j--
		}
		p[j] = d
		m++
	}
	want := 1
	for _, d := range p[:m] {
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// sameLayout reports whether t (of out's shape) has out's strides on every
// dim of size > 1: then element i of both sits at the same distance from
// their offsets.
func sameLayout(out, t *Tensor) bool {
	for d, s := range out.shape {
		if s != 1 && out.strides[d] != t.strides[d] {
			return false
		}
	}
	return true
}

// linearLayout reports whether out and the tensors ts (all of out's
// shape) can be processed as flat runs [offset, offset+n) of their
// storages: all contiguous, or out non-overlapping and dense with every
// ts sharing its strides (a transposed result of transposed inputs).
func linearLayout(out *Tensor, ts ...*Tensor) bool {
	if out.IsContiguous() {
		for _, t := range ts {
			if !t.IsContiguous() {
				return false
			}
		}
		return true
	}
	if !nonOverlappingDense(out.shape, out.strides) {
		return false
	}
	for _, t := range ts {
		if !sameLayout(out, t) {
			return false
		}
	}
	return true
}
