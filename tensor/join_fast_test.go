package tensor

import (
	"fmt"
	"testing"
)

// TestCatStackFastMatchesGeneric runs Cat and Stack with the contiguous
// fast path (catContiguous: per-row copies, tiles of short blocks, rows
// over goroutines) and without, over dtypes of every element size, dims,
// block sizes of one element and more, skipped empty inputs, mixed dtypes
// and a strided input (the general path), and outputs big enough to split.
func TestCatStackFastMatchesGeneric(t *testing.T) {
	g := NewGenerator(5)
	for _, dt := range []DType{F32, F64, I8, F16, I64, Bool} {
		for _, shape := range [][]int{{7}, {3, 5}, {2, 3, 4}, {700, 3}, {1, 1}} {
			mk := func(n int) []*Tensor {
				ts := make([]*Tensor, n)
				for i := range ts {
					x, _ := Randn(g, shape, F64)
					ts[i] = x.toDType(dt)
				}
				return ts
			}
			for _, n := range []int{1, 3, 300} {
				ts := mk(n)
				for d := 0; d <= len(shape); d++ {
					ctx := fmt.Sprintf("stack %s %v x%d dim %d", dt, shape, n, d)
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Stack(ts, d) })
					sameBitsT(t, ctx, fast, gen)
					if d < len(shape) {
						fast, gen = fastAndGeneric(t, func() (*Tensor, error) { return Cat(ts, d) })
						sameBitsT(t, "cat"+ctx[5:], fast, gen)
					}
				}
			}
			// a skipped 1-D empty input, a transposed one, another dtype
			ts := mk(3)
			empty1, _ := Randn(g, []int{0}, F32)
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Cat([]*Tensor{ts[0], empty1.toDType(dt), ts[1]}, 0) })
			sameBitsT(t, fmt.Sprintf("cat %s %v with an empty input", dt, shape), fast, gen)
			if len(shape) == 2 {
				tr, _ := ts[2].T()
				tr2, _ := ts[1].T()
				trc := tr.Contiguous()
				fast, gen = fastAndGeneric(t, func() (*Tensor, error) { return Cat([]*Tensor{trc, tr, tr2}, 1) })
				sameBitsT(t, fmt.Sprintf("cat %s %v transposed", dt, shape), fast, gen)
				fast, gen = fastAndGeneric(t, func() (*Tensor, error) { return Stack([]*Tensor{trc, tr}, 2) })
				sameBitsT(t, fmt.Sprintf("stack %s %v transposed", dt, shape), fast, gen)
			}
			other := ts[1].toDType(F64)
			fast, gen = fastAndGeneric(t, func() (*Tensor, error) { return Cat([]*Tensor{ts[0], other}, 0) })
			sameBitsT(t, fmt.Sprintf("cat %s+f64 %v", dt, shape), fast, gen)
		}
	}
	// stack of empty vectors: shape [2, 0] (nothing skipped)
	e, _ := Randn(g, []int{0}, F32)
	s, err := Stack([]*Tensor{e, e}, 0)
	if err != nil || !shapeEq(s.shape, []int{2, 0}) {
		t.Fatalf("stack of empty vectors: %v %v", s, err)
	}
}
