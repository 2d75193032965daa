package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every registered rounding variant against math.RoundToEven / Floor /
// Ceil / Trunc, bit for bit (NaN as NaN), over lengths 1..257 with
// halves, values near 2^23 / 2^52 (where every float is integral), signed
// zeros, infinities and NaN mixed in; dst aliasing x too.
func TestRoundVariants(t *testing.T) {
	testRound[float32](t, "float32", 1<<23)
	testRound[float64](t, "float64", 1<<52)
}

func testRound[T float](t *testing.T, dtype string, big float64) {
	rng := rand.New(rand.NewPCG(31, 32))
	sp := append(specials[T](), 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, T(big-0.5), T(-big+0.5), T(big), T(big+1), T(-big-1),
		T(math.Nextafter(0.5, 0)), T(-math.Nextafter(0.5, 0)), 0.49999997, T(math.Copysign(0, -1)))
	for n := 1; n <= 257; n++ {
		x := randVec[T](rng, n, -40, 40)
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = sp[rng.IntN(len(sp))]
			case 1:
				x[i] = T(math.Round(float64(x[i])*2) / 2) // exact halves
			}
		}
		want, got := make([]T, n), make([]T, n)
		for m := RoundHalfEven; m <= RoundTrunc; m++ {
			for i, v := range x {
				want[i] = T(roundRef[m](float64(v)))
			}
			for _, c := range candidatesFor(t, roundOps[m], dtype) {
				f := c.Impl.(unFn[T])
				f(got, x)
				inplace := append([]T(nil), x...)
				f(inplace, inplace)
				for i := range got {
					if !sameBits(got[i], want[i]) || !sameBits(inplace[i], want[i]) {
						t.Fatalf("%s %s/%s n=%d: %v -> %v (in place %v), want %v", c.Name, roundOps[m], dtype, n, x[i], got[i], inplace[i], want[i])
					}
				}
			}
		}
	}
	// hand-derived: PyTorch's round is half to even, -0.5 rounds to -0
	nz := T(math.Copysign(0, -1))
	x := []T{0.5, 1.5, 2.5, -0.5, -1.5, 2.7, -2.7, nz}
	wants := [4][]T{
		{0, 2, 2, nz, -2, 3, -3, nz},
		{0, 1, 2, -1, -2, 2, -3, nz},
		{1, 2, 3, nz, -1, 3, -2, nz},
		{0, 1, 2, nz, -1, 2, -2, nz},
	}
	got := make([]T, len(x))
	for m, w := range wants {
		if dtype == "float32" {
			RoundF32(any(got).([]float32), any(x).([]float32), RoundMode(m))
		} else {
			RoundF64(any(got).([]float64), any(x).([]float64), RoundMode(m))
		}
		for i := range w {
			if !sameBits(got[i], w[i]) {
				t.Errorf("%s %s(%v) = %v, want %v", dtype, roundOps[m], x[i], got[i], w[i])
			}
		}
	}
}
