package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scaledCase runs the epilogue GEMM (gemmBatchedScal with scal) on one case
// and checks every element of C bit for bit against the product with
// alpha = 1 followed by a multiplication by alpha, the computation it
// replaces (einsum(...) * s).
func scaledCase[T float](t *testing.T, rng *rand.Rand, kern *GemmKernel[T], axpy func([]T, T, []T), scal func(dst, x []T, s T), c gemmCase, alpha T) {
	t.Helper()
	sa, sb, sc := c.la.size(c.m, c.k), c.lb.size(c.k, c.n), c.lc.size(c.m, c.n)
	fill := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(rng.Float64()*2 - 1)
			switch rng.IntN(200) { // a few Inf and NaN operands
			case 0:
				v[i] = T(math.Inf(1))
			case 1:
				v[i] = T(math.NaN())
			}
		}
		return v
	}
	a, b := fill(sa*c.batch), fill(sb*c.batch)
	want, got := make([]T, sc*c.batch), make([]T, sc*c.batch)
	rsA, csA := c.la.rs(c.m, c.k), c.la.cs(c.m, c.k)
	rsB, csB := c.lb.rs(c.k, c.n), c.lb.cs(c.k, c.n)
	rsC, csC := c.lc.rs(c.m, c.n), c.lc.cs(c.m, c.n)
	gemmBatched(kern, axpy, c.batch, c.m, c.n, c.k, 1, a, sa, rsA, csA, b, sb, rsB, csB, 0, want, sc, rsC, csC)
	gemmBatchedScal(kern, axpy, scal, c.batch, c.m, c.n, c.k, alpha, a, sa, rsA, csA, b, sb, rsB, csB, 0, got, sc, rsC, csC)
	for q := 0; q < c.batch; q++ {
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				idx := q*sc + i*rsC + j*csC
				w := want[idx] * alpha
				g := got[idx]
				if !(g == w || g != g && w != w) || math.Signbit(float64(g)) != math.Signbit(float64(w)) && w == w {
					t.Fatalf("%v alpha %v: C[%d,%d,%d] = %v, want %v (product %v)", c, alpha, q, i, j, g, w, want[idx])
				}
			}
		}
	}
}

func TestGemmScaledIsProductThenScale(t *testing.T) {
	alphas := []float64{0.125, -1.5, 3.7, 0, math.Inf(1), 1e-30}
	for _, kern := range variants[float32]("sgemm", "float32") {
		t.Run("f32/"+kern.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			for _, th := range []struct {
				small int
				par   float64
			}{{0, math.Inf(1)}, {0, 0}, {math.MaxInt, math.Inf(1)}, {64, 0}} {
				withThresholds(th.small, th.par, func() {
					for _, c := range randomCases(rng, 40) {
						scaledCase(t, rng, kern, axpyF32, MulScalarF32, c, float32(alphas[rng.IntN(len(alphas))]))
					}
				})
			}
		})
	}
	for _, kern := range variants[float64]("dgemm", "float64") {
		t.Run("f64/"+kern.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			for _, th := range []struct {
				small int
				par   float64
			}{{0, math.Inf(1)}, {0, 0}, {math.MaxInt, math.Inf(1)}} {
				withThresholds(th.small, th.par, func() {
					for _, c := range randomCases(rng, 40) {
						scaledCase(t, rng, kern, axpyF64, MulScalarF64, c, alphas[rng.IntN(len(alphas))])
					}
				})
			}
		})
	}
}

// BLAS alpha is not an epilogue: the no-packing path scales A's elements
// and several K panels scale partial sums. The test above must be able to
// tell the difference, so check that plain alpha does differ somewhere.
func TestGemmBLASAlphaDiffersFromEpilogue(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	m, n, k := 7, 5, 900 // several KC panels on every kernel
	a, b := make([]float32, m*k), make([]float32, k*n)
	for i := range a {
		a[i] = float32(rng.Float64()*2 - 1)
	}
	for i := range b {
		b[i] = float32(rng.Float64()*2 - 1)
	}
	differ := 0
	withThresholds(math.MaxInt, math.Inf(1), func() { // small path: alpha*A[i,p]
		p, s := make([]float32, m*n), make([]float32, m*n)
		SgemmBatched(1, m, n, k, 1, a, 0, k, 1, b, 0, n, 1, 0, p, 0, n, 1)
		SgemmBatched(1, m, n, k, 0.1, a, 0, k, 1, b, 0, n, 1, 0, s, 0, n, 1)
		for i := range p {
			if p[i]*0.1 != s[i] {
				differ++
			}
		}
	})
	if differ == 0 {
		t.Fatal("BLAS alpha matched product-then-scale everywhere: the epilogue test cannot fail")
	}
}
