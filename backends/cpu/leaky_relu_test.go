package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every registered leaky_relu variant against the Go reference, bit for bit,
// over lengths 1..257 (vector bodies and tails) with the special values mixed
// in, in place and out of place; and the reference against PyTorch 1.13's
// values (torch.nn.functional.leaky_relu of [-0.0, 0.0, nan, -2, 3, -inf,
// inf] with slopes 0.01, 0.5, 0, 2 and -0.5).
func TestLeakyReluVariants(t *testing.T) {
	testLeakyRelu[float32](t, "float32")
	testLeakyRelu[float64](t, "float64")
}

func testLeakyRelu[T float](t *testing.T, dtype string) {
	rng := rand.New(rand.NewPCG(23, 24))
	sp := specials[T]()
	slopes := []T{0.01, 0.5, 0, 1, 2, -0.5, T(math.Copysign(0, -1))}
	for n := 1; n <= 257; n++ {
		x := randVec[T](rng, n, -3, 3)
		for i := range x {
			if rng.IntN(4) == 0 {
				x[i] = sp[rng.IntN(len(sp))]
			}
		}
		want, got := make([]T, n), make([]T, n)
		for _, s := range slopes {
			goLeakyRelu(want, x, s)
			for _, c := range candidatesFor(t, "leaky_relu", dtype) {
				c.Impl.(scalarFn[T])(got, x, s)
				inpl := append([]T(nil), x...)
				c.Impl.(scalarFn[T])(inpl, inpl, s)
				for i := range got {
					if !sameBits(got[i], want[i]) || !sameBits(inpl[i], want[i]) {
						t.Fatalf("%s leaky_relu/%s n=%d s=%v: f(%v) = %v (in place %v), want %v", c.Name, dtype, n, s, x[i], got[i], inpl[i], want[i])
					}
				}
			}
		}
	}
	negZero := T(math.Copysign(0, -1))
	nan, inf := T(math.NaN()), T(math.Inf(1))
	x := []T{negZero, 0, nan, -2, 3, -inf, inf}
	for _, c := range []struct {
		s    T
		want []T
	}{
		{0.5, []T{negZero, 0, nan, -1, 3, -inf, inf}},
		{0, []T{negZero, 0, nan, negZero, 3, nan, inf}}, // -2*0 is -0.0 and -inf*0 NaN, as torch
		{2, []T{negZero, 0, nan, -4, 3, -inf, inf}},
		{-0.5, []T{0, negZero, nan, 1, 3, inf, inf}},
	} {
		got := make([]T, len(x))
		goLeakyRelu(got, x, c.s)
		for i := range got {
			if !sameBits(got[i], c.want[i]) && !(got[i] != got[i] && c.want[i] != c.want[i]) {
				t.Errorf("leaky_relu(%v, %v) = %v, want %v", x[i], c.s, got[i], c.want[i])
			}
		}
	}
}
