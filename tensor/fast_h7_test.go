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

// TestFastProdMatchesGeneric: the f32/f64 prod fast path (accumulated in
// the dtype) against the generic float64 product over rows, columns,
// everything and transposed layouts, with NaN/±Inf/±0 planted.
func TestFastProdMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			d := make([]float64, 3*n)
			for i := range d {
				d[i] = 1 + 0.3*rng.NormFloat64()
			}
			x := mustTensor(t, d, []int{3, n}, dt)
			sp := append([]float64(nil), d...)
			sp[rng.IntN(len(sp))] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}[rng.IntN(5)]
			xs := mustTensor(t, sp, []int{3, n}, dt)
			xt, _ := mustTensor(t, d, []int{n, 3}, dt).T()
			for i, in := range []*Tensor{x, xs, xt} {
				for _, dims := range [][]int{{1}, {0}, nil} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Prod(in, dims, false) })
					sameValues(t, fmt.Sprintf("prod %v %s n=%d input %d", dims, dt, n, i), fast, gen, float64(n)*tolFor(dt), 0)
				}
			}
		}
	}
}

// TestFastCmpWhereAllAny: comparisons against a scalar (either side),
// where with scalar or full branches (bool and u8 conditions) and all/any
// over every dim match the generic kernels exactly, on contiguous,
// transposed and sliced inputs with NaN, ±Inf and ±0.
func TestFastCmpWhereAllAny(t *testing.T) {
	rng := rand.New(rand.NewPCG(75, 76))
	cmps := []func(a, b *Tensor) (*Tensor, error){Eq, Ne, Lt, Le, Gt, Ge}
	for _, dt := range []DType{F32, F64, I64, I32} {
		for _, n := range oddLens {
			d := h7Data(rng, 3*n, 2)
			if !dt.IsFloat() {
				for i := range d {
					if d[i] != d[i] || math.IsInf(d[i], 0) {
						d[i] = 0
					}
					d[i] = math.Round(d[i])
				}
			}
			x := mustTensor(t, d, []int{3, n}, dt)
			xt, _ := mustTensor(t, d, []int{n, 3}, dt).T()
			xs, _ := mustTensor(t, append(d, d...), []int{3, 2 * n}, dt).Slice(1, 0, 2*n, 2)
			y := mustTensor(t, h7Data(rng, 3*n, 2), []int{3, n}, dt)
			zero, nz := ScalarFloat(0), ScalarFloat(math.Copysign(0, -1))
			for li, in := range []*Tensor{x, xt, xs} {
				for ci, c := range cmps {
					for _, s := range []*Tensor{zero, nz, ScalarFloat(0.5)} {
						f, g := fastAndGeneric(t, func() (*Tensor, error) { return c(in, s) })
						sameBitsTensor(t, fmt.Sprintf("cmp %d right %s n=%d layout %d", ci, dt, n, li), f, g)
						f, g = fastAndGeneric(t, func() (*Tensor, error) { return c(s, in) })
						sameBitsTensor(t, fmt.Sprintf("cmp %d left %s n=%d layout %d", ci, dt, n, li), f, g)
					}
				}
				cond, _ := Gt(in, zero)
				condU8 := cond.toDType(U8)
				for _, cd := range []*Tensor{cond, condU8} {
					for wi, ab := range [][2]*Tensor{{in, zero}, {zero, in}, {ScalarFloat(2), nz}} {
						f, g := fastAndGeneric(t, func() (*Tensor, error) { return Where(cd, ab[0], ab[1]) })
						sameBitsTensor(t, fmt.Sprintf("where %d %s n=%d layout %d cond %s", wi, dt, n, li, cd.dtype), f, g)
					}
					if li == 0 {
						f, g := fastAndGeneric(t, func() (*Tensor, error) { return Where(cd, in, y) })
						sameBitsTensor(t, fmt.Sprintf("where full %s n=%d", dt, n), f, g)
					}
				}
				for _, dims := range [][]int{nil, {0}, {1}} {
					for _, all := range []bool{true, false} {
						f, g := fastAndGeneric(t, func() (*Tensor, error) {
							if all {
								return All(cond, dims, false)
							}
							return Any(cond, dims, false)
						})
						sameBitsTensor(t, fmt.Sprintf("all=%v %v %s n=%d layout %d", all, dims, dt, n, li), f, g)
					}
				}
			}
		}
	}
	// all/any early exits and the 32-byte scan, at every position
	for n := 1; n <= 100; n++ {
		for at := 0; at < n; at++ {
			b := make([]float64, n)
			b[at] = 1
			x := mustTensor(t, b, []int{n}, Bool)
			f, g := fastAndGeneric(t, func() (*Tensor, error) { return Any(x, nil, false) })
			sameBitsTensor(t, fmt.Sprintf("any n=%d at %d", n, at), f, g)
			nb, _ := LogicalNot(x)
			f, g = fastAndGeneric(t, func() (*Tensor, error) { return All(nb, nil, false) })
			sameBitsTensor(t, fmt.Sprintf("all n=%d at %d", n, at), f, g)
		}
	}
}
