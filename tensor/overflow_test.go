package tensor

import (
	"math"
	"strings"
	"testing"
)

// Stride/size arithmetic must not wrap around int64: a view reaching
// outside its storage, or a shape whose element count overflows, is a
// RuntimeError, never a crash (PyTorch: "Storage size calculation
// overflowed", "numel: integer multiplication overflow").
func TestAsStridedOverflowIsRuntimeError(t *testing.T) {
	x := zeros([]int{12}, F32)
	cases := []struct {
		size, stride []int
		offset       int
		want         string
	}{
		{[]int{3}, []int{1 << 62}, 0, "the storage has 12"},
		{[]int{2}, []int{math.MaxInt}, 0, "the storage has 12"},
		{[]int{2, 2}, []int{math.MaxInt / 2, math.MaxInt / 2}, 0, "the storage has 12"},
		{[]int{1}, []int{1}, math.MaxInt, "the storage has 12"},
		{[]int{1}, []int{1}, math.MaxInt - 1, "needs storage of 9223372036854775807 elements, but the storage has 12"},
		{[]int{3, 3}, []int{4, 1}, 2, "needs storage of 13 elements, but the storage has 12"},
	}
	for _, c := range cases {
		v, err := x.AsStrided(c.size, c.stride, c.offset)
		if err == nil {
			t.Fatalf("as_strided(%v, %v, %d) accepted: %v", c.size, c.stride, c.offset, v.Shape())
		}
		e, ok := err.(*Error)
		if !ok || e.Kind != RuntimeError || !strings.HasPrefix(e.Msg, "as_strided: view of size") || !strings.Contains(e.Msg, c.want) {
			t.Errorf("as_strided(%v, %v, %d): %v, want RuntimeError containing %q", c.size, c.stride, c.offset, err, c.want)
		}
	}
	if v, err := x.AsStrided([]int{3, 3}, []int{4, 1}, 1); err != nil || v.Numel() != 9 {
		t.Errorf("in-bounds as_strided: %v", err)
	}
}

func TestHugeShapeProductsDoNotWrap(t *testing.T) {
	M := math.MaxInt
	x := zeros([]int{0, M, M}, F32)
	// reducing the 0 dim leaves a shape with more elements than an int64
	if r, err := Sum(x, []int{0}, false); err == nil || err.(*Error).Kind != RuntimeError {
		t.Fatalf("sum(0) of [0, M, M]: %v, %v; want RuntimeError", r, err)
	}
	if r, err := Amax(x, []int{0}, false); err == nil {
		t.Fatalf("amax(0) of [0, M, M] accepted: %v", r.Shape())
	}
	// reducing a nonzero dim keeps an empty result (PyTorch: [0, M])
	for _, f := range []func(*Tensor, []int, bool) (*Tensor, error){Sum, Prod, Mean} {
		r, err := f(x, []int{1}, false)
		if err != nil || r.Numel() != 0 || len(r.Shape()) != 2 || r.Shape()[1] != M {
			t.Fatalf("reduce(1) of [0, M, M]: %v, %v", r, err)
		}
	}
	if _, err := zeros([]int{1 << 62, 2, 0}, F32).Flatten(0, 1); err == nil {
		t.Fatal("flatten of [2**62, 2] accepted")
	}
	if _, err := zeros([]int{10}, F32).View(1<<62, 4, -1); err == nil || !strings.Contains(err.Error(), "is invalid for input of size 10") {
		t.Fatalf("view(2**62, 4, -1) of 10 elements: %v", err)
	}
	if n := numel([]int{M, M}); n != math.MaxInt {
		t.Fatalf("numel([M, M]) = %d, want saturation", n)
	}
	if n := numel([]int{M, M, 0}); n != 0 {
		t.Fatalf("numel([M, M, 0]) = %d", n)
	}
}
