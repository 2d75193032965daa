package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// FMA32 rounds a*b + c once, checked against math/big on random operands
// (all scales, subnormal results included) and on a sum that lands on a
// float32 halfway point in float64.
func TestFMA32(t *testing.T) {
	ref := func(a, b, c float32) float32 {
		x := new(big.Float).SetPrec(400).SetFloat64(float64(a))
		x.Mul(x, new(big.Float).SetFloat64(float64(b)))
		x.Add(x, new(big.Float).SetFloat64(float64(c)))
		f, _ := x.Float32()
		return f
	}
	r := rand.New(rand.NewPCG(1, 2))
	rnd := func() float32 {
		return float32(r.NormFloat64() * math.Ldexp(1, r.IntN(80)-40))
	}
	check := func(a, b, c float32) {
		if got, want := FMA32(a, b, c), ref(a, b, c); got != want {
			t.Fatalf("FMA32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
	for i := 0; i < 200000; i++ {
		check(rnd(), rnd(), rnd())
	}
	for i := 0; i < 20000; i++ { // subnormal results
		a := float32(r.NormFloat64()) * 0x1p-70
		check(a, float32(r.NormFloat64())*0x1p-70, float32(r.NormFloat64())*0x1p-140)
	}
	// (1+2^-23)·(1-2^-23)·2^-24 + (1+2^-23) = 1 + 2^-23 + 2^-24 - 2^-70
	// rounds in float64 to the float32 halfway point 1 + 2^-23 + 2^-24,
	// which ties to even (up); the exact sum is below it: 1 + 2^-23.
	a, b := float32(1+0x1p-23), float32((1-0x1p-23)*0x1p-24)
	if got, want := FMA32(a, b, 1+0x1p-23), float32(1+0x1p-23); got != want {
		t.Errorf("FMA32 at a halfway point = %v, want %v", got, want)
	}
	check(a, b, 1+0x1p-23)
	check(-a, b, -(1 + 0x1p-23))
	check(a, -b, 1+0x1p-23)
}
