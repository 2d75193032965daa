package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestProdCandidates: every prod candidate (f32, f64) against goProd,
// over lengths 0..300: exact on inputs whose products are exact (powers
// of two, no overflow), within n·ε relative on normal data, and
// with IEEE specials (NaN anywhere gives NaN, 0·Inf gives NaN, ±Inf and
// -0 signs).
func TestProdCandidates(t *testing.T) {
	testProd[float32](t, "float32", 1.2e-7)
	testProd[float64](t, "float64", 2.3e-16)
}

func testProd[T float](t *testing.T, dtype string, eps float64) {
	rng := rand.New(rand.NewPCG(31, 32))
	exact := []T{1, -1, 2, 0.5, -0.5, -2, 4, 0.25}
	for _, c := range candidatesFor(t, "prod", dtype) {
		f := c.Impl.(reduceFn[T])
		for n := 0; n <= 300; n++ {
			x := make([]T, n)
			for i := range x {
				x[i] = exact[rng.IntN(len(exact))]
			}
			if got, want := f(x), goProd(x); !sameBits(got, want) {
				t.Fatalf("%s/%s exact n=%d: %v, want %v", dtype, c.Name, n, got, want)
			}
			for i := range x {
				x[i] = T(1 + 0.3*rng.NormFloat64())
			}
			got, want := float64(f(x)), float64(goProd(x))
			if math.Abs(got-want) > 2*float64(n)*eps*math.Abs(want) {
				t.Fatalf("%s/%s n=%d: %v, want %v", dtype, c.Name, n, got, want)
			}
			if n == 0 {
				continue
			}
			for _, sp := range []struct {
				v    []T
				want float64
			}{
				{[]T{T(math.NaN())}, math.NaN()},
				{[]T{0, T(math.Inf(1))}, math.NaN()},
				{[]T{T(math.Inf(-1))}, math.Inf(-1)},
				{[]T{T(math.Copysign(0, -1))}, math.Copysign(0, -1)},
			} {
				y := make([]T, n+len(sp.v)-1)
				for i := range y {
					y[i] = 1
				}
				at := rng.IntN(n)
				copy(y[at:], sp.v)
				g := float64(f(y))
				if !(g == sp.want && math.Signbit(g) == math.Signbit(sp.want) || g != g && sp.want != sp.want) {
					t.Fatalf("%s/%s n=%d %v at %d: %v, want %v", dtype, c.Name, n, sp.v, at, g, sp.want)
				}
			}
		}
	}
}
