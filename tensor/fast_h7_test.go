package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sameBitsTensor requires identical shapes, dtypes and element bits (any
// NaN matches any NaN; signed zeros must agree).
func sameBitsTensor(t *testing.T, ctx string, got, want *Tensor) {
	t.Helper()
	if !shapeEq(got.shape, want.shape) || got.dtype != want.dtype {
		t.Fatalf("%s: got shape %v %s, want %v %s", ctx, got.shape, got.dtype, want.shape, want.dtype)
	}
	g, w := got.ToFloat64s(), want.ToFloat64s()
	for i := range w {
		if g[i] != w[i] && !(g[i] != g[i] && w[i] != w[i]) || g[i] == w[i] && math.Signbit(g[i]) != math.Signbit(w[i]) {
			t.Fatalf("%s: [%d] = %v, want %v", ctx, i, g[i], w[i])
		}
	}
}

// h7Data is normal data with NaN, ±Inf, ±0, subnormal and left-tail
// values planted.
func h7Data(rng *rand.Rand, n int, scale float64) []float64 {
	d := testData(rng, n, scale, false)
	sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-40, -1e-40, -5.5, -6, 5}
	for k := 0; k < min(n, 4); k++ {
		d[rng.IntN(n)] = sp[rng.IntN(len(sp))]
	}
	return d
}

// TestFastGeluErfMatchesGeneric: the vector f32 gelu and erf give the
// scalar kernels' bits on contiguous, transposed and sliced inputs.
func TestFastGeluErfMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	ops := []struct {
		name string
		f    func(*Tensor) (*Tensor, error)
	}{{"gelu", func(x *Tensor) (*Tensor, error) { return Gelu(x, "none") }}, {"erf", Erf}}
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			x := mustTensor(t, h7Data(rng, 3*n, 3), []int{3, n}, dt)
			xt, _ := mustTensor(t, h7Data(rng, 3*n, 3), []int{n, 3}, dt).T()
			xs, _ := mustTensor(t, h7Data(rng, 6*n, 3), []int{3, 2 * n}, dt).Slice(1, 0, 2*n, 2)
			for _, op := range ops {
				for i, in := range []*Tensor{x, xt, xs} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(in) })
					sameBitsTensor(t, fmt.Sprintf("%s %s n=%d layout %d", op.name, dt, n, i), fast, gen)
				}
			}
		}
	}
}
