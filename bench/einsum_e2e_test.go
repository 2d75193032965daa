package bench

import (
	"math"
	"testing"

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
//	BenchmarkEinsumE2E/<case>        tsr einsum, GFLOP/s of the chosen path
//	BenchmarkEinsumNaive/<case>      one nested loop over all indices (the
//	                                 "naive loop order"), GFLOP/s of NumPy's
//	                                 naive FLOP count
//	BenchmarkEinsumGemmRef/<case>    a bare cpu.SgemmBatched call of the
//	                                 same shape (the attention cases)

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
			for b.Loop() {
				r, err := autograd.Einsum(eng, c.eq, ops)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
			b.ReportMetric(plan.FLOPs*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// naiveChain4 evaluates ij,jk,kl,lm->im as one loop nest over i,m,j,k,l.
func naiveChain4(n int, a, bb, c, d, out []float32) {
	for i := 0; i < n; i++ {
		for m := 0; m < n; m++ {
			var acc float32
			for j := 0; j < n; j++ {
				aij := a[i*n+j]
				for k := 0; k < n; k++ {
					ab := aij * bb[j*n+k]
					for l := 0; l < n; l++ {
						acc += ab * c[k*n+l] * d[l*n+m]
					}
				}
			}
			out[i*n+m] = acc
		}
	}
}

// naiveNet5 evaluates pi,qj,ijkl,rk,sl->pqrs as one loop nest over
// p,q,r,s,i,j,k,l.
func naiveNet5(n int, a, bb, t, c, d, out []float32) {
	for p := 0; p < n; p++ {
		for q := 0; q < n; q++ {
			for r := 0; r < n; r++ {
				for s := 0; s < n; s++ {
					var acc float32
					for i := 0; i < n; i++ {
						for j := 0; j < n; j++ {
							ab := a[p*n+i] * bb[q*n+j]
							for k := 0; k < n; k++ {
								abc := ab * c[r*n+k]
								base := ((i*n+j)*n + k) * n
								for l := 0; l < n; l++ {
									acc += abc * t[base+l] * d[s*n+l]
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
			for b.Loop() {
				run(raw, out)
			}
			b.ReportMetric(plan.NaiveFLOPs*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
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

// BenchmarkEinsumGemmRef times one cpu.SgemmBatched call with the shapes
// and strides the attention einsums reduce to (B·H = 128 batches), the
// "GEMM speed of the CPU backend" the einsums are measured against.
func BenchmarkEinsumGemmRef(b *testing.B) {
	const bh, s, d = 16 * 8, 512, 64
	for _, c := range einsumCases {
		var m, n, k, rsB, csB int
		switch c.name {
		case "attn-scores": // [s,d] x [s,d]^T
			m, n, k, rsB, csB = s, s, d, 1, d
		case "attn-values": // [s,s] x [s,d]
			m, n, k, rsB, csB = s, d, s, d, 1
		default:
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			_, raw := einsumOperands(b, c)
			out := make([]float32, bh*m*n)
			for b.Loop() {
				cpu.SgemmBatched(bh, m, n, k, 1, raw[0], m*k, k, 1, raw[1], k*n, rsB, csB, 0, out, m*n, n, 1)
			}
			b.ReportMetric(2*float64(bh*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
