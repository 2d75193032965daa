//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerRoundAsm() {
	f32 := [2][4]func(dst, x *float32, n int){
		{roundEvenF32AVX2, floorF32AVX2, ceilF32AVX2, truncF32AVX2},
		{roundEvenF32AVX512, floorF32AVX512, ceilF32AVX512, truncF32AVX512},
	}
	f64 := [2][4]func(dst, x *float64, n int){
		{roundEvenF64AVX2, floorF64AVX2, ceilF64AVX2, truncF64AVX2},
		{roundEvenF64AVX512, floorF64AVX512, ceilF64AVX512, truncF64AVX512},
	}
	tiers := [2]struct {
		name  string
		tier  backends.Tier
		prio  int
		lanes int // f32 lanes
	}{{"avx2", backends.TierAVX2, 10, 8}, {"avx512", backends.TierAVX512, 20, 16}}
	for i, ti := range tiers {
		for m := RoundHalfEven; m <= RoundTrunc; m++ {
			backends.Register(roundKey(m, "float32"), backends.Candidate{Name: ti.name, Requires: ti.tier, Priority: ti.prio,
				Impl: vecUn(ti.lanes, f32[i][m], goRound[float32](m))})
			backends.Register(roundKey(m, "float64"), backends.Candidate{Name: ti.name, Requires: ti.tier, Priority: ti.prio,
				Impl: vecUn(ti.lanes/2, f64[i][m], goRound[float64](m))})
		}
	}
}
