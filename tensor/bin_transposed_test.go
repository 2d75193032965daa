package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// binTransposed (one transposed operand: register-transposed panels and
// the vector kernels) gives the generic kernel's values bit for bit and
// its result layout: every vector op, f32 and f64, odd shapes, the
// transposed operand first or second, sliced views (offsets, leading
// dimensions larger than the rows), a broadcast row operand, a batch of
// transposes, NaN/±Inf, and split over goroutines.
func TestBinTransposedMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
	fill := func(n int) []float64 {
		d := make([]float64, n)
		for i := range d {
			if r.IntN(10) == 0 {
				d[i] = sp[r.IntN(len(sp))]
			} else {
				d[i] = r.NormFloat64()
			}
		}
		return d
	}
	ops := []struct {
		name string
		f    func(a, b *Tensor) (*Tensor, error)
	}{{"add", Add}, {"sub", Sub}, {"mul", Mul}, {"div", Div}, {"maximum", Maximum}, {"minimum", Minimum}}
	must := func(t2 *Tensor, err error) *Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return t2
	}
	old := GetNumThreads()
	defer SetNumThreads(old)
	check := func(ctx string, a, b *Tensor) {
		t.Helper()
		for _, op := range ops {
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(a, b) })
			if !slices.Equal(fast.shape, gen.shape) || !slices.Equal(fast.strides, gen.strides) {
				t.Fatalf("%s %s: layout %v %v, generic %v %v", ctx, op.name, fast.shape, fast.strides, gen.shape, gen.strides)
			}
			fv, gv := fast.ToFloat64s(), gen.ToFloat64s()
			for i := range gv {
				if math.Float64bits(fv[i]) != math.Float64bits(gv[i]) && !(math.IsNaN(fv[i]) && math.IsNaN(gv[i])) {
					t.Fatalf("%s %s: element %d = %v, generic %v", ctx, op.name, i, fv[i], gv[i])
				}
			}
		}
	}
	for _, dt := range []DType{F32, F64} {
		for _, m := range []int{1, 2, 7, 16, 17, 33, 64, 65, 257} {
			for _, n := range []int{1, 3, 8, 31, 32, 33, 100} {
				ctx := fmt.Sprintf("%s %dx%d", dt, m, n)
				x := must(FromFloat64s(fill(m*n), []int{m, n}, dt))
				y := must(FromFloat64s(fill(n*m), []int{n, m}, dt))
				yt := must(y.T()) // (m, n), strides (1, m)
				check(ctx+" x op y.t()", x, yt)
				check(ctx+" y.t() op x", yt, x)
				// sliced views: rows of a wider matrix, offset start
				big := must(FromFloat64s(fill((n+3)*(m+5)), []int{n + 3, m + 5}, dt))
				bs := must(must(big.Narrow(0, 2, n)).Narrow(1, 3, m))
				bst := must(bs.T())
				check(ctx+" x op (view).t()", x, bst)
				xb := must(FromFloat64s(fill((m+2)*(n+4)), []int{m + 2, n + 4}, dt))
				xs := must(must(xb.Narrow(0, 1, m)).Narrow(1, 2, n))
				check(ctx+" (view) op (view).t()", xs, bst)
				// a broadcast row operand
				v := must(must(FromFloat64s(fill(n), []int{1, n}, dt)).Expand(m, n))
				check(ctx+" y.t() op row", yt, v)
			}
		}
		// a batch of transposes
		x := must(FromFloat64s(fill(3*40*50), []int{3, 40, 50}, dt))
		y := must(FromFloat64s(fill(3*50*40), []int{3, 50, 40}, dt))
		yt := must(y.Transpose(1, 2))
		check(dt.String()+" batch", x, yt)
		// split over goroutines
		SetNumThreads(3)
		x = must(FromFloat64s(fill(700*300), []int{700, 300}, dt))
		y = must(FromFloat64s(fill(300*700), []int{300, 700}, dt))
		check(dt.String()+" threads", x, must(y.T()))
		SetNumThreads(1)
		check(dt.String()+" one thread", x, must(y.T()))
	}
	// hand-checked: x - x.t() is antisymmetric with a zero diagonal
	x := must(FromFloat64s([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{3, 3}, F32))
	d := must(Sub(x, must(x.T())))
	if got, want := d.ToFloat64s(), []float64{0, -2, -4, 2, 0, -2, 4, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("x - x.t() = %v, want %v", got, want)
	}
}
