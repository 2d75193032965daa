// Package bench holds tsr's performance benchmarks. The GEMM benchmarks
// report GFLOP/s (2·m·n·k per multiply) as a custom metric; run them next to
// NumPy with bench/run_gemm.sh.
package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/backends/cpu"
)

var gemmSizes = []int{64, 256, 512, 1024, 2048}

func randF32(n int) []float32 {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return v
}

func randF64(n int) []float64 {
	r := rand.New(rand.NewPCG(2, uint64(n)))
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64()
	}
	return v
}

func report(b *testing.B, n int) {
	b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkSgemm multiplies square row-major float32 matrices; "T" variants
// multiply A^T (A stored row-major, read with swapped strides) by B, "NT"
// variants A by B^T (as in a linear layer, x @ W.T).
func BenchmarkSgemm(b *testing.B) {
	for _, n := range gemmSizes {
		for _, trans := range []string{"", "T", "NT"} {
			if trans != "" && n != 1024 {
				continue
			}
			name := fmt.Sprint(n) + trans
			rsA, csA, rsB, csB := n, 1, n, 1
			switch trans {
			case "T":
				rsA, csA = 1, n
			case "NT":
				rsB, csB = 1, n
			}
			b.Run(name, func(b *testing.B) {
				x, y, z := randF32(n*n), randF32(n*n), make([]float32, n*n)
				for b.Loop() {
					cpu.SgemmBatched(1, n, n, n, 1, x, 0, rsA, csA, y, 0, rsB, csB, 0, z, 0, n, 1)
				}
				report(b, n)
			})
		}
	}
}

// BenchmarkDgemm is BenchmarkSgemm in float64.
func BenchmarkDgemm(b *testing.B) {
	for _, n := range gemmSizes {
		for _, trans := range []string{"", "T", "NT"} {
			if trans != "" && n != 1024 {
				continue
			}
			name := fmt.Sprint(n) + trans
			rsA, csA, rsB, csB := n, 1, n, 1
			switch trans {
			case "T":
				rsA, csA = 1, n
			case "NT":
				rsB, csB = 1, n
			}
			b.Run(name, func(b *testing.B) {
				x, y, z := randF64(n*n), randF64(n*n), make([]float64, n*n)
				for b.Loop() {
					cpu.DgemmBatched(1, n, n, n, 1, x, 0, rsA, csA, y, 0, rsB, csB, 0, z, 0, n, 1)
				}
				report(b, n)
			})
		}
	}
}
