package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every arange_blocks variant writes the scalar definition bit for bit:
// FMA32(a, float32(k), c) + lane[j] per 8-element block, counting up and
// down, block counts 0..33 (odd counts leave a block to the wrapper),
// indices past 2^24 (float32(k) rounds), steps over 20 binades, and a
// repeated index (dk = 0). (FMA32 itself is checked against math/big in
// TestFMA32; the assembly's VFMADD rounds once by construction.)
func TestArangeBlocksVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, cand := range candidatesFor(t, "arange_blocks", "float32") {
		f := cand.Impl.(arangeBlocksFn)
		for trial := 0; trial < 200; trial++ {
			nb := trial % 34
			k0 := r.IntN(1000)
			if trial%5 == 0 {
				k0 = 1<<24 + r.IntN(1000) // float32(k) rounds
			}
			dk := 1
			if trial%2 == 1 {
				dk = -1
				k0 += nb
			}
			a := float32(r.NormFloat64() * math.Ldexp(1, r.IntN(20)-10))
			c := float32(r.NormFloat64())
			if trial%7 == 0 {
				dk = 0
			}
			var lane [8]float32
			for j := range lane {
				lane[j] = a * float32(j)
			}
			dst := make([]float32, 8*nb)
			f(dst, k0, dk, a, c, &lane)
			for b := 0; b < nb; b++ {
				base := FMA32(a, float32(k0+b*dk), c)
				for j := 0; j < 8; j++ {
					if want := base + lane[j]; math.Float32bits(dst[8*b+j]) != math.Float32bits(want) {
						t.Fatalf("%s trial %d block %d lane %d: %v, want %v", cand.Name, trial, b, j, dst[8*b+j], want)
					}
				}
			}
		}
	}
}
