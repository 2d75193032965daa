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
