package autograd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Gradcheck cases for the derivative formulas added with the new ops
// (cumprod, logcumsumexp, the inverse-trig/hyperbolic family, ...); they
// join gradCases, so TestGradcheckAllOps runs them.
func newGradCases() []gradCase {
	dimCase := func(op string, shape []int, dim int, positive bool, f func(*T, int) (*T, error)) gradCase {
		return gradCase{op: op, shapes: [][]int{shape}, positive: positive, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, op, in, Attrs{"dim": dim}, func() (*T, error) { return f(in[0], dim) })
		}}
	}
	// op applied to in[0]*scale + shift (to stay inside its domain)
	un := func(op string, f func(*T) (*T, error), scale, shift float64, positive bool) gradCase {
		return gradCase{op: op, shapes: [][]int{{3, 4}}, positive: positive, f: func(e *Engine, in []*T) (*T, error) {
			x, err := e.mulScalar(in[0], scale)
			if err != nil {
				return nil, err
			}
			if x, err = e.addScalar(x, shift); err != nil {
				return nil, err
			}
			return ap(e, op, []*T{x}, nil, func() (*T, error) { return f(x) })
		}}
	}
	return []gradCase{
		un("log2", tensor.Log2, 1, 0, true),
		un("log10", tensor.Log10, 1, 0, true),
		un("asin", tensor.Asin, 0.9, 0, false),
		un("acos", tensor.Acos, 0.9, 0, false),
		un("atan", tensor.Atan, 2, 0, false),
		un("sinh", tensor.Sinh, 1.5, 0, false),
		un("cosh", tensor.Cosh, 1.5, 0, false),
		un("asinh", tensor.Asinh, 3, 0, false),
		un("acosh", tensor.Acosh, 1, 1, true),
		un("atanh", tensor.Atanh, 0.9, 0, false),
		un("exp2", tensor.Exp2, 2, 0, false),
		un("deg2rad", tensor.Deg2Rad, 1, 0, false),
		un("rad2deg", tensor.Rad2Deg, 1, 0, false),
		un("sinc", tensor.Sinc, 2.5, 0, false),
		binCase("hypot", tensor.Hypot, []int{2, 3}, []int{3}, false),
		binCase("fmax", tensor.Fmax, []int{2, 3}, []int{3}, false),
		binCase("fmin", tensor.Fmin, []int{2, 3}, []int{2, 3}, false),
		binCase("logaddexp", tensor.LogAddExp, []int{2, 1}, []int{2, 3}, false),
		binCase("logaddexp2", tensor.LogAddExp2, []int{2, 1}, []int{2, 3}, false),
		dimCase("cumprod", []int{3, 5}, 1, false, tensor.Cumprod),
		dimCase("cumprod", []int{4, 2, 3}, 0, false, tensor.Cumprod),
		dimCase("logcumsumexp", []int{3, 5}, 1, false, tensor.LogCumSumExp),
		dimCase("logcumsumexp", []int{4, 3}, 0, false, tensor.LogCumSumExp),
	}
}

// gradcheckAt is gradcheck at the given f64 inputs (for points such as
// zeros that random inputs never hit); the loss is sum(out * w).
func gradcheckAt(t *testing.T, op string, f func(e *Engine, in []*T) (*T, error), vals [][]float64, shapes [][]int) {
	t.Helper()
	e := NewEngine()
	ins := make([]*T, len(vals))
	for i := range vals {
		ins[i], _ = tensor.FromFloat64s(vals[i], shapes[i], tensor.F64)
		ins[i].SetRequiresGrad(true)
	}
	out, err := f(e, ins)
	if err != nil {
		t.Fatalf("%s forward: %v", op, err)
	}
	r := rand.New(rand.NewPCG(3, 9))
	w := randInput(r, out.Shape(), false, false)
	prod, err := e.mul(out, w)
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.sum(prod, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := e.Grad([]*T{l}, ins, nil, false, false)
	if err != nil {
		t.Fatalf("%s backward: %v", op, err)
	}
	noGrad := NewEngine()
	noGrad.SetGradEnabled(false)
	loss := func(args []*T) float64 {
		o, err := f(noGrad, args)
		if err != nil {
			t.Fatal(err)
		}
		ov, wv := o.ToFloat64s(), w.ToFloat64s()
		s := 0.0
		for i := range ov {
			s += ov[i] * wv[i]
		}
		return s
	}
	const h = 1e-6
	for k := range ins {
		an := grads[k].ToFloat64s()
		for i := range vals[k] {
			at := func(d float64) float64 {
				pv := append([]float64(nil), vals[k]...)
				pv[i] += d
				args := append([]*T(nil), ins...)
				args[k], _ = tensor.FromFloat64s(pv, shapes[k], tensor.F64)
				return loss(args)
			}
			num := (at(h) - at(-h)) / (2 * h)
			if d := math.Abs(num - an[i]); d > 1e-5*math.Max(1, math.Abs(num)) {
				t.Errorf("%s %v: d/d input%d[%d]: analytic %.10g, numeric %.10g", op, vals[k], k, i, an[i], num)
			}
		}
	}
}

// cumprod's gradient where the input has zeros (one, several, first,
// last), against finite differences and PyTorch 1.13's values.
func TestCumprodBackwardZeros(t *testing.T) {
	cp := func(dim int) func(e *Engine, in []*T) (*T, error) {
		return func(e *Engine, in []*T) (*T, error) {
			return ap(e, "cumprod", in, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cumprod(in[0], dim) })
		}
	}
	for _, v := range [][]float64{
		{2, 0, 3, 4}, {0, 1.5, -2, 0.5}, {1.5, -2, 0.5, 0}, {0, 0, 3, 2}, {2, 0, 3, 0}, {0.7, 1.3, -0.4, 2.2},
	} {
		gradcheckAt(t, "cumprod", cp(0), [][]float64{v}, [][]int{{4}})
	}
	gradcheckAt(t, "cumprod", cp(0), [][]float64{{2, 0, 0, 1.5, 3, -1}}, [][]int{{3, 2}})
	// torch: x = [[2, 0, 3, 4], [1.5, -2, 0.5, 0]] (f64), y = x.cumprod(1),
	// (y * w).sum().backward() with w = [[1, 2, 3, 4], [0.5, -1, 2, 3]]
	x, _ := tensor.FromFloat64s([]float64{2, 0, 3, 4, 1.5, -2, 0.5, 0}, []int{2, 4}, tensor.F64)
	x.SetRequiresGrad(true)
	w, _ := tensor.FromFloat64s([]float64{1, 2, 3, 4, 0.5, -1, 2, 3}, []int{2, 4}, tensor.F64)
	e := NewEngine()
	y, err := cp(1)(e, []*T{x})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := e.mul(y, w)
	l, _ := e.sum(p, nil, false)
	g, err := e.Grad([]*T{l}, []*T{x}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 118, 0, 0, 0.5, 0, -6, -4.5}
	for i, v := range g[0].ToFloat64s() {
		if v != want[i] {
			t.Errorf("cumprod grad = %v, want %v", g[0].ToFloat64s(), want)
			break
		}
	}
}
