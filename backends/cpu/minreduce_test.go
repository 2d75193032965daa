package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every min variant returns the scalar reference's value on sizes 0..257
// (tails of every length): the first NaN when there is one (at any
// position), ±Inf, and a zero of either sign for a -0/+0 tie.
func TestMinVariants(t *testing.T) {
	testMin[float32](t, "float32")
	testMin[float64](t, "float64")
}

func testMin[T float](t *testing.T, dtype string) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, c := range candidatesFor(t, "min", dtype) {
		f := c.Impl.(minFn[T])
		for n := 0; n <= 257; n++ {
			for trial := 0; trial < 4; trial++ {
				x := make([]T, n)
				for i := range x {
					x[i] = T(r.NormFloat64() * 100)
				}
				if n > 0 {
					switch trial {
					case 1: // NaNs (distinct payloads: the first is returned)
						x[r.IntN(n)] = T(math.NaN())
						x[r.IntN(n)] = -T(math.NaN())
					case 2:
						x[r.IntN(n)] = T(math.Inf(-1))
						x[r.IntN(n)] = T(math.Inf(1))
					case 3: // the min is a zero
						for i := range x {
							x[i] = T(math.Abs(float64(x[i])))
						}
						x[r.IntN(n)] = 0
						x[r.IntN(n)] = T(math.Copysign(0, -1))
					}
				}
				got, want := f(x), goMin(x)
				if got != want && !(got != got && want != want) {
					t.Fatalf("%s/%s n=%d trial %d: %v, want %v", c.Name, dtype, n, trial, got, want)
				}
				if want != want && math.Float64bits(float64(got)) != math.Float64bits(float64(want)) {
					t.Fatalf("%s/%s n=%d: NaN %x, want the first NaN %x", c.Name, dtype, n, math.Float64bits(float64(got)), math.Float64bits(float64(want)))
				}
			}
		}
	}
	if got := goMin([]T{3, -2, 5}); got != -2 {
		t.Errorf("goMin = %v, want -2", got)
	}
}
