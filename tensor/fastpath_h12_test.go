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

// Integer and bool sum/prod read straight from contiguous storage must
// equal the generic row-copy path (wrapping int64 arithmetic included),
// for whole-tensor, trailing-dims and (falling back) leading-dims
// reductions, an offset view and empty rows.
func TestFastIntSumProd(t *testing.T) {
	rng := rand.New(rand.NewPCG(123, 124))
	for _, dt := range []DType{I64, I32, I16, I8, U8, Bool} {
		for _, shape := range [][]int{{7}, {3, 5}, {4, 0}, {2, 3, 9}, {1, 1001}} {
			n := numel(shape)
			d := make([]float64, n+3)
			for i := range d {
				d[i] = float64(rng.IntN(200) - 100)
				if dt == U8 || dt == Bool {
					d[i] = float64(rng.IntN(3))
				}
				if dt == I64 && i%5 == 0 {
					d[i] = float64(int64(1) << 62) // wraps
				}
			}
			big := mustTensor(t, d, []int{n + 3}, dt)
			view, _ := big.Narrow(0, 3, n)
			x, err := view.Reshape(shape...)
			if err != nil {
				t.Fatal(err)
			}
			dimsets := [][]int{nil, {len(shape) - 1}, {0}}
			if len(shape) == 3 {
				dimsets = append(dimsets, []int{1, 2}, []int{0, 2})
			}
			for _, dims := range dimsets {
				for _, keep := range []bool{false, true} {
					for _, prod := range []bool{false, true} {
						f := Sum
						if prod {
							f = Prod
						}
						fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return f(x, dims, keep) })
						if fast.dtype != I64 || !shapeEq(fast.shape, gen.shape) {
							t.Fatalf("%s %v dims %v: %s %v, generic %s %v", dt, shape, dims, fast.dtype, fast.shape, gen.dtype, gen.shape)
						}
						a, b := fast.storage.I64()[fast.offset:fast.offset+fast.Numel()], gen.storage.I64()[gen.offset:gen.offset+gen.Numel()]
						for i := range a {
							if a[i] != b[i] {
								t.Fatalf("%s %v dims %v prod=%v: %v, generic %v", dt, shape, dims, prod, a, b)
							}
						}
					}
				}
			}
		}
	}
	// hand-derived
	x := mustTensor(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, I32)
	s, _ := Sum(x, []int{1}, false)
	if v := s.storage.I64(); v[0] != 6 || v[1] != 15 {
		t.Errorf("sum rows = %v, want [6 15]", v)
	}
}
