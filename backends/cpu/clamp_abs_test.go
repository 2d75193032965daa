package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every registered abs and clamp variant against the Go reference, bit for
// bit, over lengths 1..257 (vector bodies and tails) with the special
// values mixed in; and the reference against hand-derived values.
func TestClampAbsVariants(t *testing.T) {
	testClampAbs[float32](t, "float32")
	testClampAbs[float64](t, "float64")
}

func testClampAbs[T float](t *testing.T, dtype string) {
	rng := rand.New(rand.NewPCG(21, 22))
	sp := specials[T]()
	inf := T(math.Inf(1))
	bounds := [][2]T{{0, inf}, {-1, 1}, {2, 1}, {T(math.Copysign(0, -1)), 0}, {-inf, 0.5}, {0.25, 0.25}}
	for n := 1; n <= 257; n++ {
		x := randVec[T](rng, n, -3, 3)
		for i := range x {
			if rng.IntN(4) == 0 {
				x[i] = sp[rng.IntN(len(sp))]
			}
		}
		want, got := make([]T, n), make([]T, n)
		goAbs(want, x)
		for _, c := range candidatesFor(t, "abs", dtype) {
			c.Impl.(unFn[T])(got, x)
			for i := range got {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s abs/%s n=%d: abs(%v) = %v, want %v", c.Name, dtype, n, x[i], got[i], want[i])
				}
			}
		}
		for _, b := range bounds {
			goClamp(want, x, b[0], b[1])
			for _, c := range candidatesFor(t, "clamp", dtype) {
				c.Impl.(clampFn[T])(got, x, b[0], b[1])
				for i := range got {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("%s clamp/%s n=%d [%v, %v]: clamp(%v) = %v, want %v", c.Name, dtype, n, b[0], b[1], x[i], got[i], want[i])
					}
				}
			}
		}
	}
	negZero := T(math.Copysign(0, -1))
	nan := T(math.NaN())
	x := []T{-2, negZero, 0, 3, nan, -inf, inf}
	relu := make([]T, len(x))
	goClamp(relu, x, 0, inf)
	for i, w := range []T{0, negZero, 0, 3, nan, 0, inf} {
		if !sameBits(relu[i], w) {
			t.Errorf("relu(%v) = %v, want %v (PyTorch's clamp_min(x, 0))", x[i], relu[i], w)
		}
	}
	abs := make([]T, len(x))
	goAbs(abs, x)
	for i, w := range []T{2, 0, 0, 3, nan, inf, inf} {
		if !sameBits(abs[i], w) {
			t.Errorf("abs(%v) = %v, want %v", x[i], abs[i], w)
		}
	}
	lohi := make([]T, 3)
	goClamp(lohi, []T{0, 5, -5}, 2, 1) // lo > hi: hi everywhere (torch)
	for i := range lohi {
		if lohi[i] != 1 {
			t.Errorf("clamp with lo > hi: %v, want 1", lohi)
		}
	}
}
