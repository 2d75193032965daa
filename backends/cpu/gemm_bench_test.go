package cpu

import (
	"fmt"
	"testing"
)

// BenchmarkMicroKernel measures the active micro-kernels on L1/L2-resident
// packed panels (no packing, no C misses): the ceiling for the packed path.
func BenchmarkMicroKernel(b *testing.B) {
	for _, kc := range []int{64, 256, 384} {
		b.Run(fmt.Sprintf("f32/kc%d", kc), func(b *testing.B) {
			k := sgemmKernel
			ap, bp := make([]float32, k.MR*kc), make([]float32, k.NR*kc)
			c := make([]float32, k.MR*k.NR)
			for i := range ap {
				ap[i] = 1
			}
			for b.Loop() {
				k.Micro(kc, ap, bp, c, k.NR, 1, 1)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("f64/kc%d", kc), func(b *testing.B) {
			k := dgemmKernel
			ap, bp := make([]float64, k.MR*kc), make([]float64, k.NR*kc)
			c := make([]float64, k.MR*k.NR)
			for b.Loop() {
				k.Micro(kc, ap, bp, c, k.NR, 1, 1)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
