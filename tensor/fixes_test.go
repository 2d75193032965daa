package tensor

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// Regression tests for overflow and 0-d panics (expected values: PyTorch
// 1.13, or Python range arithmetic where torch itself overflows).

func TestHugeStepViewsAndCounts(t *testing.T) {
	x, _ := ArangeInt(0, 6, 1, I64)
	for _, c := range []struct{ start, stop, step, n int }{
		{SliceNone, SliceNone, math.MaxInt, 1},
		{1, SliceNone, math.MaxInt - 1, 1},
		{SliceNone, SliceNone, 4, 2},
		{5, 2, 1, 0},
	} {
		v, err := x.Slice(0, c.start, c.stop, c.step)
		if err != nil || v.Shape()[0] != c.n {
			t.Errorf("Slice(%d, %d, %d): %v %v, want [%d]", c.start, c.stop, c.step, v, err, c.n)
		}
	}
	a, err := ArangeInt(-math.MaxInt64, math.MaxInt64, 1<<62, I64)
	if err != nil || !slices.Equal(a.ToInt64s(), []int64{-math.MaxInt64, -math.MaxInt64 + 1<<62, 1, 1<<62 + 1}) {
		t.Errorf("ArangeInt over the int64 range: %v %v", a, err)
	}
	if _, err := Eye(math.MaxInt, math.MaxInt, F32); err == nil {
		t.Errorf("Eye(MaxInt) did not fail")
	}
	s, _ := FromFloat64s([]float64{2.5}, nil, F32)
	if m, err := s.Movedim([]int{0}, []int{-1}); err != nil || m.Dim() != 0 {
		t.Errorf("0-d Movedim: %v %v", m, err)
	}
	if _, err := Roll(s, []int{1}, []int{0}); err == nil || !strings.Contains(err.Error(), "Dimension specified as 0 but tensor has no dimensions") {
		t.Errorf("0-d Roll: %v", err)
	}
	if c, err := x.Chunk(math.MaxInt, 0); err != nil || len(c) != 6 {
		t.Errorf("Chunk(MaxInt): %d chunks, %v", len(c), err)
	}
}

// x[0] = tensor([[1, 2, 3]]) and x[:, 0] = tensor([[1, 2]]) on zeros(2, 3):
// PyTorch drops the value's leading size-1 dims before broadcasting.
func TestAssignStripsLeadingOnes(t *testing.T) {
	mk := func(v []float64, shape ...int) *Tensor {
		r, err := FromFloat64s(v, shape, F32)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	x := zeros([]int{2, 3}, F32)
	row, _ := x.Select(0, 0)
	if err := row.AssignInplace(mk([]float64{1, 2, 3}, 1, 3)); err != nil {
		t.Fatal(err)
	}
	col, _ := x.Select(1, 0)
	if err := col.AssignInplace(mk([]float64{7, 8}, 1, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if got := x.ToFloat64s(); !slices.Equal(got, []float64{7, 2, 3, 8, 0, 0}) {
		t.Errorf("after assignments: %v", got)
	}
	if x.Version() != 2 {
		t.Errorf("version %d, want 2", x.Version())
	}
	// errors are expand's, reported for the stripped shape (torch 1.13)
	err := row.AssignInplace(mk(make([]float64, 6), 1, 2, 3))
	if err == nil || err.Error() != "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)" {
		t.Errorf("[1, 2, 3] into [3]: %v", err)
	}
	err = row.AssignInplace(mk([]float64{1, 2}, 2))
	if err == nil || !strings.Contains(err.Error(), "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0") {
		t.Errorf("[2] into [3]: %v", err)
	}
	// advanced-index assignment strips them too: x[[1]] = [[[4, 5, 6]]]
	idx, _ := FromInt64s([]int64{1}, []int{1}, I64)
	if err := x.IndexPut([]Index{Adv(idx)}, mk([]float64{4, 5, 6}, 1, 1, 3)); err != nil {
		t.Fatal(err)
	}
	if got := x.ToFloat64s(); !slices.Equal(got, []float64{7, 2, 3, 4, 5, 6}) {
		t.Errorf("after index_put: %v", got)
	}
}

// In-place subtraction with a bool operand raises as x - true does
// (PyTorch's sub_check applies to sub_ too): x -= true, x.sub_(mask) and
// mask.sub_(1) are RuntimeErrors and leave x unchanged.
func TestSubInplaceBoolRaises(t *testing.T) {
	x, _ := FromFloat64s([]float64{1, 2, 3}, []int{3}, F32)
	mask, _ := FromFloat64s([]float64{1, 0, 1}, []int{3}, Bool)
	for i, c := range []struct{ dst, other *Tensor }{
		{x, ScalarBool(true)}, {x, mask}, {mask, ScalarInt(1)}, {mask, mask},
	} {
		err := c.dst.SubInplace(c.other)
		if err == nil || !strings.Contains(err.Error(), "Subtraction, the `-` operator, with") {
			t.Errorf("case %d: SubInplace: err %v, want the bool subtraction RuntimeError", i, err)
		}
	}
	if got := x.ToFloat64s(); got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Errorf("x changed to %v", got)
	}
}
