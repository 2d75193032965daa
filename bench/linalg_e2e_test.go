package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
)

// End-to-end linear algebra through tensor/linalg (the torch.linalg layer:
// checks, batching, autograd dispatch, backends/lapack), float64, on both
// LAPACK engines:
//
//	BenchmarkLinalgE2E/<engine>/<op>/n=<n>
//
// Besides ns/op (a mean) each reports median-ms, the median call time.
// engine is "system" (OpenBLAS through purego) or "gonum" (the pure-Go
// fallback, whose level-3 BLAS runs on tsr's GEMM); op is svd
// (full_matrices=False), eigh, cholesky or solve (one right-hand side,
// B [n, 1]). n is 1024, or the comma-separated list in TSR_LINALG_SIZES.
// bench/run_linalg.sh runs them next to bench/linalg_torch.py (NumPy and
// PyTorch on the same matrices' distribution) and prints the ratios; it
// runs the gonum cases with -benchtime=1x (one call takes seconds).

func linalgSizes(b *testing.B) []int {
	env := os.Getenv("TSR_LINALG_SIZES")
	if env == "" {
		return []int{1024}
	}
	var ns []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			b.Fatalf("TSR_LINALG_SIZES: bad size %q", f)
		}
		ns = append(ns, n)
	}
	return ns
}

// linalgInputs returns a standard-normal n×n matrix A, the SPD matrix
// A Aᵀ/n + I and a right-hand side [n, 1], float64.
func linalgInputs(b *testing.B, n int) (a, spd, rhs *tensor.Tensor) {
	g := tensor.NewGenerator(uint64(n))
	var err error
	if a, err = tensor.Randn(g, []int{n, n}, tensor.F64); err != nil {
		b.Fatal(err)
	}
	if rhs, err = tensor.Randn(g, []int{n, 1}, tensor.F64); err != nil {
		b.Fatal(err)
	}
	at, _ := a.T()
	p, err := tensor.Matmul(a, at)
	if err != nil {
		b.Fatal(err)
	}
	v := p.ToFloat64s()
	for i := range n {
		for j := range n {
			v[i*n+j] /= float64(n)
		}
		v[i*n+i]++
	}
	if spd, err = tensor.FromFloat64s(v, []int{n, n}, tensor.F64); err != nil {
		b.Fatal(err)
	}
	return a, spd, rhs
}

func BenchmarkLinalgE2E(b *testing.B) {
	defer lapack.SetBackend("auto")
	e := autograd.NewEngine()
	ops := []struct {
		name string
		run  func(a, spd, rhs *tensor.Tensor) error
	}{
		{"svd", func(a, _, _ *tensor.Tensor) error { _, _, _, err := linalg.SVD(e, a, false); return err }},
		{"eigh", func(_, spd, _ *tensor.Tensor) error { _, _, err := linalg.Eigh(e, spd, "L"); return err }},
		{"cholesky", func(_, spd, _ *tensor.Tensor) error { _, err := linalg.Cholesky(e, spd, false); return err }},
		{"solve", func(a, _, rhs *tensor.Tensor) error { _, err := linalg.Solve(e, a, rhs, true); return err }},
	}
	for _, eng := range []string{"system", "gonum"} {
		for _, op := range ops {
			for _, n := range linalgSizes(b) {
				b.Run(fmt.Sprintf("%s/%s/n=%d", eng, op.name, n), func(b *testing.B) {
					if err := lapack.SetBackend(eng); err != nil {
						b.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
					}
					a, spd, rhs := linalgInputs(b, n)
					var ts []float64
					for b.Loop() {
						t0 := time.Now()
						if err := op.run(a, spd, rhs); err != nil {
							b.Fatal(err)
						}
						ts = append(ts, time.Since(t0).Seconds())
					}
					// The median resists the noise of a shared machine
					// better than ns/op (a mean).
					b.ReportMetric(median(ts)*1e3, "median-ms")
				})
			}
		}
	}
}
