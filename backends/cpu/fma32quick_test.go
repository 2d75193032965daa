package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FMA32Quick returns FMA32's value whenever it reports ok, and declines
// (ok false) at a float32 halfway point and for subnormal results.
func TestFMA32Quick(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rnd := func() float32 {
		return float32(r.NormFloat64() * math.Ldexp(1, r.IntN(80)-40))
	}
	quick := 0
	for i := 0; i < 200000; i++ {
		a, b, c := rnd(), rnd(), rnd()
		if got, ok := FMA32Quick(a, b, c); ok {
			quick++
			if want := FMA32(a, b, c); got != want {
				t.Fatalf("FMA32Quick(%g, %g, %g) = %g, FMA32 %g", a, b, c, got, want)
			}
		}
	}
	if quick < 190000 {
		t.Errorf("FMA32Quick declined %d of 200000 random operands", 200000-quick)
	}
	a, b := float32(1+0x1p-23), float32((1-0x1p-23)*0x1p-24) // a halfway point (see TestFMA32)
	if _, ok := FMA32Quick(a, b, 1+0x1p-23); ok {
		t.Error("FMA32Quick accepted a float32 halfway point")
	}
	if _, ok := FMA32Quick(0x1p-70, 0x1p-70, 0); ok {
		t.Error("FMA32Quick accepted a subnormal result")
	}
}
