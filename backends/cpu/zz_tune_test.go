//go:build amd64 && !purego

package cpu

import (
	"fmt"
	"testing"
)

func BenchmarkTune(b *testing.B) {
	n := 1536
	x, y, z := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	orig := *avx512GemmF32
	defer func() { *avx512GemmF32 = orig }()
	for _, kc := range []int{192, 256, 384, 512} {
		for _, mc := range []int{144, 240, 480, 960} {
			b.Run(fmt.Sprintf("kc%d_mc%d", kc, mc), func(b *testing.B) {
				avx512GemmF32.KC, avx512GemmF32.MC = kc, mc
				for b.Loop() {
					gemmBatched(avx512GemmF32, axpyF32, 1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
