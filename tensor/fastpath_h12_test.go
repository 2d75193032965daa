package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sameBitsT compares two tensors of one shape and dtype element by
// element: equal values with equal signs (so -0 is not +0), NaN matching
// NaN.
func sameBitsT(t *testing.T, ctx string, got, want *Tensor) {
	t.Helper()
	if !shapeEq(got.shape, want.shape) || got.dtype != want.dtype {
		t.Fatalf("%s: got shape %v %s, want %v %s", ctx, got.shape, got.dtype, want.shape, want.dtype)
	}
	g, w := got.ToFloat64s(), want.ToFloat64s()
	for i := range w {
		if w[i] != w[i] && g[i] != g[i] {
			continue
		}
		if g[i] != w[i] || math.Signbit(g[i]) != math.Signbit(w[i]) {
			t.Fatalf("%s: element %d = %v, want %v", ctx, i, g[i], w[i])
		}
	}
}

// layouts returns x (shape [3, n]) contiguous, transposed and as a
// stride-2 column slice.
func h12Layouts(t *testing.T, rng *rand.Rand, n int, dt DType, gen func(int) []float64) []*Tensor {
	x := mustTensor(t, gen(3*n), []int{3, n}, dt)
	xt, _ := mustTensor(t, gen(3*n), []int{n, 3}, dt).T()
	w := mustTensor(t, gen(6*n), []int{3, 2 * n}, dt)
	xs, err := w.Slice(1, 0, 2*n, 2)
	if err != nil {
		t.Fatal(err)
	}
	return []*Tensor{x, xt, xs}
}

// halfData mixes normal values, exact halves, signed zeros and the
// specials.
func halfData(rng *rand.Rand) func(int) []float64 {
	return func(n int) []float64 {
		d := testData(rng, n, 6, true)
		for i := range d {
			switch rng.IntN(5) {
			case 0:
				d[i] = math.Round(d[i]*2) / 2
			case 1:
				d[i] = []float64{0.5, -0.5, 1.5, -2.5, math.Copysign(0, -1), 0, 8388607.5, -4503599627370495.5, 1e20}[rng.IntN(9)]
			}
		}
		return d
	}
}

func TestFastRoundMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(121, 122))
	ops := []struct {
		name string
		f    func(*Tensor) (*Tensor, error)
	}{{"round", Round}, {"floor", Floor}, {"ceil", Ceil}, {"trunc", Trunc}}
	for _, dt := range []DType{F32, F64, F16, BF16} {
		for _, n := range oddLens {
			for _, in := range h12Layouts(t, rng, n, dt, halfData(rng)) {
				for _, op := range ops {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(in) })
					sameBitsT(t, fmt.Sprintf("%s %s n=%d strides=%v", op.name, dt, n, in.strides), fast, gen)
					if !shapeEq(fast.strides, gen.strides) {
						t.Fatalf("%s: strides %v, generic %v", op.name, fast.strides, gen.strides)
					}
				}
			}
		}
	}
	// hand-derived (torch.round is half to even; -0.5 rounds to -0)
	nz := math.Copysign(0, -1)
	x := mustTensor(t, []float64{0.5, 1.5, 2.5, -0.5, -2.7, nz, math.Inf(-1)}, []int{7}, F32)
	r, _ := Round(x)
	sameBitsT(t, "round", r, mustTensor(t, []float64{0, 2, 2, nz, -3, nz, math.Inf(-1)}, []int{7}, F32))
}
