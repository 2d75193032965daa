//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerSumIntAsm() {
	for _, v := range []struct {
		name  string
		tier  backends.Tier
		prio  int
		lanes int
		k     func(x *int64, n int, out *int64)
	}{{"avx2", backends.TierAVX2, 10, 4, sumI64AVX2}, {"avx512", backends.TierAVX512, 20, 8, sumI64AVX512}} {
		backends.Register(sumI64Key(), backends.Candidate{Name: v.name, Requires: v.tier, Priority: v.prio,
			Impl: sumI64Fn(func(x []int64) int64 {
				n := len(x) / v.lanes * v.lanes
				if n == 0 {
					return goSumI64(x)
				}
				var part [8]int64
				v.k(&x[0], n, &part[0])
				s := goSumI64(x[n:])
				for _, p := range part[:v.lanes] {
					s += p
				}
				return s
			})})
	}
}
