package cpu

import (
	"fmt"
	"os"
	"strconv"
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
				k.Micro(kc, ap, bp, k.NR, c, k.NR, 1, 1, k.MR, k.NR)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("f64/kc%d", kc), func(b *testing.B) {
			k := dgemmKernel
			ap, bp := make([]float64, k.MR*kc), make([]float64, k.NR*kc)
			c := make([]float64, k.MR*k.NR)
			for b.Loop() {
				k.Micro(kc, ap, bp, k.NR, c, k.NR, 1, 1, k.MR, k.NR)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkSgemmSquare(b *testing.B) {
	for _, n := range []int{64, 256, 512, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, y, z := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
			for i := range x {
				x[i], y[i] = float32(i%7), float32(i%5)
			}
			for b.Loop() {
				SgemmBatched(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
			}
			b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func init() {
	if v := os.Getenv("TSR_DB"); v != "" {
		directBRows, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("TSR_DBE"); v != "" {
		directBElems, _ = strconv.Atoi(v)
	}
	directA = os.Getenv("TSR_NOA") == ""
}
