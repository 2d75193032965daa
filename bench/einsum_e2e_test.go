package bench

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/tsrlang/tsr/backends/cpu"
	"github.com/tsrlang/tsr/einsum"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// End-to-end einsum benchmarks: autograd.Einsum (plan cache + lowering onto
// permute/reshape/bmm/mul/sum + tensor.Matmul + cpu.SgemmBatched), float32,
// on the cases of the "Einsum engine" issue. bench/run_einsum.sh runs them
// next to bench/einsum_numpy.py (NumPy optimize=True/False and
// torch.einsum on the same operands) and prints the ratios.
//
// Metrics are medians over the iterations (median-us; ns/op is a mean,
// inflated by the noise of a shared machine):
//
//	BenchmarkEinsumE2E/<case>        tsr einsum, GFLOP/s of the chosen path
//	BenchmarkEinsumNaive/<case>      one nested loop over all indices (the
//	                                 "naive loop order"), GFLOP/s of NumPy's
//	                                 naive FLOP count
//	BenchmarkEinsumVsGemm/<case>     the einsum alternated with the bare
//	                                 cpu.SgemmBatched calls of the same
//	                                 shapes; median times and their ratio

type einsumCase struct {
	name   string
	eq     string
	shapes [][]int
}

var einsumCases = []einsumCase{
	{"chain3", "ij,jk,kl->il", [][]int{{64, 512}, {512, 512}, {512, 8}}},
	{"chain4-N40", "ij,jk,kl,lm->im", [][]int{{40, 40}, {40, 40}, {40, 40}, {40, 40}}},
	{"net5-N10", "pi,qj,ijkl,rk,sl->pqrs", [][]int{{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}}},
	{"attn-scores", "bhid,bhjd->bhij", [][]int{{16, 8, 512, 64}, {16, 8, 512, 64}}},
	{"attn-values", "bhij,bhjd->bhid", [][]int{{16, 8, 512, 512}, {16, 8, 512, 64}}},
}

// einsumOperands returns deterministic f32 operands (uniform [0,1)) for c,
// as tensors and as the raw row-major slices behind them.
func einsumOperands(tb testing.TB, c einsumCase) ([]*tensor.Tensor, [][]float32) {
	ts := make([]*tensor.Tensor, len(c.shapes))
	raw := make([][]float32, len(c.shapes))
	for k, sh := range c.shapes {
		n := 1
		for _, s := range sh {
			n *= s
		}
		raw[k] = randF32(n + k)[:n] // seed by size and position
		t, err := tensor.FromFloat32s(raw[k], sh, tensor.F32)
		if err != nil {
			tb.Fatal(err)
		}
		ts[k] = t
	}
	return ts, raw
}

func BenchmarkEinsumE2E(b *testing.B) {
	for _, c := range einsumCases {
		b.Run(c.name, func(b *testing.B) {
			ops, _ := einsumOperands(b, c)
			eng := autograd.NewEngine()
			plan, err := einsum.PlanFor(c.eq, c.shapes, "")
			if err != nil {
				b.Fatal(err)
			}
			var ts []float64
			for b.Loop() {
				t0 := time.Now()
				r, err := autograd.Einsum(eng, c.eq, ops)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
				ts = append(ts, time.Since(t0).Seconds())
			}
			med := median(ts)
			b.ReportMetric(med*1e6, "median-us")
			b.ReportMetric(plan.FLOPs/med/1e9, "GFLOP/s")
		})
	}
}

// naiveChain4 evaluates ij,jk,kl,lm->im as one loop nest over i,m,j,k,l,
// the whole product in the innermost loop (NumPy's optimize=False order;
// nothing hoisted).
func naiveChain4(n int, a, bb, c, d, out []float32) {
	for i := 0; i < n; i++ {
		for m := 0; m < n; m++ {
			var acc float32
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					for l := 0; l < n; l++ {
						acc += a[i*n+j] * bb[j*n+k] * c[k*n+l] * d[l*n+m]
					}
				}
			}
			out[i*n+m] = acc
		}
	}
}

// naiveNet5 evaluates pi,qj,ijkl,rk,sl->pqrs as one loop nest over
// p,q,r,s,i,j,k,l, the whole product in the innermost loop.
func naiveNet5(n int, a, bb, t, c, d, out []float32) {
	for p := 0; p < n; p++ {
		for q := 0; q < n; q++ {
			for r := 0; r < n; r++ {
				for s := 0; s < n; s++ {
					var acc float32
					for i := 0; i < n; i++ {
						for j := 0; j < n; j++ {
							for k := 0; k < n; k++ {
								for l := 0; l < n; l++ {
									acc += a[p*n+i] * bb[q*n+j] * t[((i*n+j)*n+k)*n+l] * c[r*n+k] * d[s*n+l]
								}
							}
						}
					}
					out[((p*n+q)*n+r)*n+s] = acc
				}
			}
		}
	}
}

func BenchmarkEinsumNaive(b *testing.B) {
	for _, c := range einsumCases {
		var run func(raw [][]float32, out []float32)
		switch c.name {
		case "chain4-N40":
			run = func(r [][]float32, out []float32) { naiveChain4(40, r[0], r[1], r[2], r[3], out) }
		case "net5-N10":
			run = func(r [][]float32, out []float32) { naiveNet5(10, r[0], r[1], r[2], r[3], r[4], out) }
		default:
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			ops, raw := einsumOperands(b, c)
			plan, err := einsum.PlanFor(c.eq, c.shapes, "")
			if err != nil {
				b.Fatal(err)
			}
			n := 1
			for _, s := range plan.OutShape {
				n *= s
			}
			out := make([]float32, n)
			var ts []float64
			for b.Loop() {
				t0 := time.Now()
				run(raw, out)
				ts = append(ts, time.Since(t0).Seconds())
			}
			med := median(ts)
			b.ReportMetric(med*1e6, "median-us")
			b.ReportMetric(plan.NaiveFLOPs/med/1e9, "GFLOP/s")
			// The naive loop is the reference: check the einsum against it.
			r, err := autograd.Einsum(autograd.NewEngine(), c.eq, ops)
			if err != nil {
				b.Fatal(err)
			}
			got := r.Contiguous().ToFloat64s()
			for i, v := range out {
				if d := math.Abs(got[i] - float64(v)); d > 1e-4*math.Abs(float64(v))+1e-3 {
					b.Fatalf("einsum[%d] = %g, naive loop %g", i, got[i], v)
				}
			}
		})
	}
}

// gemmRef returns the bare cpu.SgemmBatched calls an einsum case reduces to
// (same shapes, strides and operands, preallocated outputs), or nil.
func gemmRef(c einsumCase, raw [][]float32) func() {
	const bh, s, d = 16 * 8, 512, 64
	switch c.name {
	case "chain3": // (jk,kl) -> jl, then (ij,jl) -> il, NumPy's path
		t := make([]float32, 512*8)
		out := make([]float32, 64*8)
		return func() {
			cpu.SgemmBatched(1, 512, 8, 512, 1, raw[1], 0, 512, 1, raw[2], 0, 8, 1, 0, t, 0, 8, 1)
			cpu.SgemmBatched(1, 64, 8, 512, 1, raw[0], 0, 512, 1, t, 0, 8, 1, 0, out, 0, 8, 1)
		}
	case "attn-scores": // [s,d] x [s,d]^T per (b,h)
		out := make([]float32, bh*s*s)
		return func() {
			cpu.SgemmBatched(bh, s, s, d, 1, raw[0], s*d, d, 1, raw[1], s*d, 1, d, 0, out, s*s, s, 1)
		}
	case "attn-values": // [s,s] x [s,d] per (b,h)
		out := make([]float32, bh*s*d)
		return func() {
			cpu.SgemmBatched(bh, s, d, s, 1, raw[0], s*s, s, 1, raw[1], s*d, d, 1, 0, out, s*d, d, 1)
		}
	}
	return nil
}

// BenchmarkEinsumVsGemm alternates, in every iteration, the einsum and the
// bare cpu.SgemmBatched calls of the same shapes (the "GEMM speed of the
// CPU backend"), so that machine noise hits both alike. Metrics: median
// einsum and GEMM times per call (ms) and their ratio einsum/gemm.
func BenchmarkEinsumVsGemm(b *testing.B) {
	for _, c := range einsumCases {
		b.Run(c.name, func(b *testing.B) {
			ops, raw := einsumOperands(b, c)
			ref := gemmRef(c, raw)
			if ref == nil {
				b.Skip("no GEMM reference")
			}
			eng := autograd.NewEngine()
			var te, tg []float64
			for b.Loop() {
				t0 := time.Now()
				r, err := autograd.Einsum(eng, c.eq, ops)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
				t1 := time.Now()
				ref()
				t2 := time.Now()
				te = append(te, t1.Sub(t0).Seconds())
				tg = append(tg, t2.Sub(t1).Seconds())
			}
			me, mg := median(te), median(tg)
			b.ReportMetric(me*1e3, "einsum-ms")
			b.ReportMetric(mg*1e3, "gemm-ms")
			b.ReportMetric(me/mg, "einsum/gemm")
		})
	}
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
