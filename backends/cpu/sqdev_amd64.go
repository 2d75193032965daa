//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerSqDevAsm() {
	for _, v := range []struct {
		name    string
		tier    backends.Tier
		prio    int
		lanes   int
		sum, sq func(x *float32, n int, mean float64, out *float64)
	}{{"avx2", backends.TierAVX2, 10, 4, widenSumF32AVX2, widenSqDevF32AVX2}, {"avx512", backends.TierAVX512, 20, 8, widenSumF32AVX512, widenSqDevF32AVX512}} {
		backends.Register(sqDevKey(), backends.Candidate{Name: v.name, Requires: v.tier, Priority: v.prio,
			Impl: sqDevFn(func(x []float32) float64 {
				nv := len(x) / v.lanes * v.lanes
				if nv == 0 {
					return goSqDevF32(x)
				}
				var part [8]float64
				v.sum(&x[0], nv, 0, &part[0])
				var s float64
				for _, u := range x[nv:] {
					s += float64(u)
				}
				for _, p := range part[:v.lanes] {
					s += p
				}
				mean := s / float64(len(x))
				v.sq(&x[0], nv, mean, &part[0])
				s = sqDevFrom(x[nv:], mean)
				for _, p := range part[:v.lanes] {
					s += p
				}
				return s
			})})
	}
}
