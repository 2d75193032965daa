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
	if _, ok := denseOrder(t.shape, t.strides); ok {
		return append([]int(nil), t.strides...)
	}
	return inferDenseStrides(t.shape, t.strides)
}

// inferDenseStrides is ATen's infer_dense_strides: dims ordered by
// increasing stride (an insertion sort starting from the last dim, where a
// zero stride compares as ambiguous and equal strides put the smaller
// size first), then contiguous strides in that order.
func inferDenseStrides(shape, strides []int) []int {
	n := len(shape)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = n - 1 - i
	}
	swap := func(d0, d1 int) int {
		s0, s1 := strides[d0], strides[d1]
		switch {
		case s0 == 0 || s1 == 0:
			return 0
		case s0 < s1:
			return -1
		case s0 > s1:
			return 1
		case shape[d0] > shape[d1]:
			return 1
		}
		return 0
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

// ClonePreserve is clone() with PyTorch's default preserve_format: a copy
// with t's strides when t is non-overlapping and dense (a transposed view
// stays transposed), else a contiguous copy (Clone).
func (t *Tensor) ClonePreserve() *Tensor {
	out := EmptyPreserve(t, t.dtype)
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
