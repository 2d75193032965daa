package lapack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks of SVD (full_matrices=False, square so the same as NumPy's
// default) and Eigh on random n×n float64 matrices, on both engines. The
// 1024 gonum cases take several seconds per operation: run them with
// -benchtime=1x (bench/run_linalg.sh does), and compare with NumPy there.

var benchSizes = []int{256, 1024}

func benchEngines(b *testing.B, f func(b *testing.B, n int)) {
	defer SetBackend("auto")
	for _, eng := range []string{"system", "gonum"} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/n=%d", eng, n), func(b *testing.B) {
				if err := SetBackend(eng); err != nil {
					b.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
				}
				f(b, n)
			})
		}
	}
}

func BenchmarkSVD(b *testing.B) {
	benchEngines(b, func(b *testing.B, n int) {
		a := randMat(rand.New(rand.NewPCG(1, uint64(n))), n, n)
		b.ResetTimer()
		for b.Loop() {
			if _, _, _, err := SVD(n, n, a, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEigh(b *testing.B) {
	benchEngines(b, func(b *testing.B, n int) {
		a := randMat(rand.New(rand.NewPCG(2, uint64(n))), n, n)
		b.ResetTimer()
		for b.Loop() {
			if _, _, err := Eigh(n, a, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSVD32 measures the single-precision path (sgesdd on the system
// library; float64 inside gonum) at 256.
func BenchmarkSVD32(b *testing.B) {
	defer SetBackend("auto")
	for _, eng := range []string{"system", "gonum"} {
		b.Run(eng+"/n=256", func(b *testing.B) {
			if err := SetBackend(eng); err != nil {
				b.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
			}
			a := from64[float32](randMat(rand.New(rand.NewPCG(1, 256)), 256, 256))
			for b.Loop() {
				if _, _, _, err := SVD(256, 256, a, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
