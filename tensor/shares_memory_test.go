package tensor

import (
	"math/rand"
	"testing"
)

// bruteShares is the definition: some storage element is read by both.
func bruteShares(a, b *Tensor) bool {
	if a.storage != b.storage {
		return false
	}
	seen := map[int]bool{}
	a.Offsets(func(off int) { seen[off] = true })
	found := false
	b.Offsets(func(off int) { found = found || seen[off] })
	return found
}

func TestSharesMemoryExactCases(t *testing.T) {
	x, _ := Zeros([]int{12}, F32)
	ev, _ := x.Slice(0, 0, 12, 2)
	od, _ := x.Slice(0, 1, 12, 2)
	mid, _ := x.Slice(0, 2, 4, 1)
	every5, _ := x.Slice(0, 0, 12, 5)
	m, _ := x.View(3, 4)
	col0, _ := m.Select(1, 0)
	col1, _ := m.Select(1, 1)
	row1, _ := m.Select(0, 1)
	y, _ := Zeros([]int{12}, F32)
	empty, _ := x.Slice(0, 3, 3, 1)
	for _, c := range []struct {
		name string
		a, b *Tensor
		want bool
	}{
		{"x[::2] x[1::2]", ev, od, false},
		{"x[::2] x", ev, x, true},
		{"x[2:4] x[::5]", mid, every5, false}, // dense view strictly inside the other's extent
		{"x[2:4] x[::2]", mid, ev, true},
		{"m[:,0] m[:,1]", col0, col1, false},
		{"m[:,0] m[1]", col0, row1, true},
		{"m[:,1] m[1]", col1, row1, true},
		{"x y", x, y, false},
		{"x x[3:3]", x, empty, false},
		{"x x", x, x, true},
	} {
		if got := SharesMemory(c.a, c.b); got != c.want {
			t.Errorf("%s: SharesMemory = %v, want %v", c.name, got, c.want)
		}
		if got := SharesMemory(c.b, c.a); got != c.want {
			t.Errorf("%s (swapped): SharesMemory = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSharesMemoryRandom compares the staged test with the definition on
// random strided views (stride 0 included) of one storage.
func TestSharesMemoryRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	base, _ := Zeros([]int{400}, F32)
	view := func() *Tensor {
		nd := rng.Intn(3) + 1
		size, stride := make([]int, nd), make([]int, nd)
		for i := range size {
			size[i] = rng.Intn(4) + 1
			stride[i] = rng.Intn(9)
		}
		off := rng.Intn(60)
		v, err := base.AsStrided(size, stride, off)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i := 0; i < 5000; i++ {
		a, b := view(), view()
		if got, want := SharesMemory(a, b), bruteShares(a, b); got != want {
			t.Fatalf("shape %v strides %v offset %d vs shape %v strides %v offset %d: got %v, want %v",
				a.shape, a.strides, a.offset, b.shape, b.strides, b.offset, got, want)
		}
	}
}
