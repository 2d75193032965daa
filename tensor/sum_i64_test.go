package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// i64 sums (the vector kernel, cpu.SumI64) equal the generic loop's over
// all dims and over the last dims, on odd sizes, and wrap on overflow as
// PyTorch's int64 sum.
func TestSumI64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, sh := range [][]int{{1}, {7}, {257}, {3, 17}, {5, 33}, {2, 3, 65}} {
		n := numel(sh)
		d := make([]int64, n)
		for i := range d {
			d[i] = int64(r.Uint64() >> r.IntN(64))
		}
		x, err := FromInt64s(d, sh, I64)
		if err != nil {
			t.Fatal(err)
		}
		for _, dims := range [][]int{nil, {len(sh) - 1}} {
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Sum(x, dims, false) })
			if !slices.Equal(fast.shape, gen.shape) || !slices.Equal(fast.storage.I64()[:fast.Numel()], gen.storage.I64()[:gen.Numel()]) {
				t.Fatalf("sum %v dims %v: fast %v, generic %v", sh, dims, fast.ToFloat64s(), gen.ToFloat64s())
			}
		}
	}
	x, _ := FromInt64s([]int64{math.MaxInt64, 2, 3, 4, 5, 6, 7, 8, 9}, []int{9}, I64)
	s, err := Sum(x, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.storage.I64()[0], int64(math.MinInt64+43); got != want {
		t.Errorf("wrapping sum = %d, want %d", got, want)
	}
}
