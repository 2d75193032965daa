package autograd

import (
	"errors"
	"math"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Finite-difference checks of copysign, xlogy, logit and hardtanh (joined
// to gradCases, so TestGradcheckAllOps runs them), the derivative values at
// the special points random inputs never hit, and heaviside's backward
// error.
func torchMoreGradCases() []gradCase {
	// op applied to in[0]*scale + shift (to stay inside its domain)
	affine := func(op string, attrs Attrs, scale, shift float64, f func(*T) (*T, error)) gradCase {
		return gradCase{op: op, shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			x, err := e.mulScalar(in[0], scale)
			if err != nil {
				return nil, err
			}
			if x, err = e.addScalar(x, shift); err != nil {
				return nil, err
			}
			return ap(e, op, []*T{x}, attrs, func() (*T, error) { return f(x) })
		}}
	}
	return []gradCase{
		binCase("copysign", tensor.Copysign, []int{2, 3}, []int{3}, false),
		binCase("copysign", tensor.Copysign, []int{3}, []int{2, 3}, false),
		binCase("xlogy", tensor.Xlogy, []int{2, 3}, []int{3}, true),
		binCase("xlogy", tensor.Xlogy, []int{2, 1}, []int{2, 3}, true),
		affine("logit", Attrs{"eps": -1.0}, 0.4, 0.5, func(x *T) (*T, error) { return tensor.Logit(x, -1) }),
		affine("logit", Attrs{"eps": 0.25}, 0.45, 0.5, func(x *T) (*T, error) { return tensor.Logit(x, 0.25) }),
		affine("hardtanh", Attrs{"min_val": -0.5, "max_val": 1.2}, 2, 0, func(x *T) (*T, error) { return tensor.Hardtanh(x, -0.5, 1.2) }),
		affine("hardtanh", Attrs{"min_val": -1.0, "max_val": 1.0}, 1.5, 0.1, func(x *T) (*T, error) { return tensor.Hardtanh(x, -1, 1) }),
		affine("sgn", nil, 0.1, 2, tensor.Sgn),
		affine("sgn", nil, 0.1, -2, tensor.Sgn),
		affine("erfinv", nil, 0.8, 0, tensor.Erfinv),
		affine("lgamma", nil, 1, 2.5, tensor.Lgamma),
		affine("lgamma", nil, 0.2, -0.5, tensor.Lgamma),
		affine("digamma", nil, 1, 2.5, tensor.Digamma),
		affine("digamma", nil, 0.2, -1.5, tensor.Digamma),
		affine("mish", nil, 3, 0, tensor.Mish),
		// derivatives_special.go: erfc, special_ndtr, special_entr, polygamma
		affine("erfc", nil, 1.5, 0, tensor.Erfc),
		affine("special_ndtr", nil, 2, 0, tensor.Ndtr),
		affine("special_entr", nil, 0.4, 1, tensor.Entr),
		// i0 (I0Backward0: i1) and angle (zero on real inputs)
		affine("i0", nil, 3, 0, tensor.I0),
		affine("angle", nil, 2, 0.1, tensor.Angle),
		affine("polygamma", Attrs{"n": 0}, 1, 2.5, func(x *T) (*T, error) { return tensor.Polygamma(0, x) }),
		affine("polygamma", Attrs{"n": 2}, 1, 2.5, func(x *T) (*T, error) { return tensor.Polygamma(2, x) }),
		affine("polygamma", Attrs{"n": 3}, 0.2, -1.5, func(x *T) (*T, error) { return tensor.Polygamma(3, x) }),
	}
}

func TestTorchMoreSpecialGradients(t *testing.T) {
	e := NewEngine()
	f64 := func(v ...float64) *T {
		x, err := tensor.FromFloat64s(v, []int{len(v)}, tensor.F64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	grad := func(op string, attrs Attrs, x, other *T, f func() (*T, error)) []float64 {
		t.Helper()
		x.SetRequiresGrad(true)
		in := []*T{x}
		if other != nil {
			in = append(in, other)
		}
		out, err := e.Apply(op, in, attrs, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.sum(out, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.Grad([]*T{s}, []*T{x}, nil, false, false)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return g[0].ToFloat64s()
	}
	same := func(what string, got, want []float64) {
		t.Helper()
		for i := range want {
			if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) || math.Signbit(got[i]) != math.Signbit(want[i]) && !math.IsNaN(want[i]) {
				t.Errorf("%s: grad %v, want %v", what, got, want)
				return
			}
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	// PyTorch 1.13: logit's gradient is NaN outside [0, 1] and inf at 0
	// and 1 without eps; 0 outside [eps, 1 - eps] with eps.
	x := f64(-0.5, 0, 0.5, 1, 1.5)
	same("logit", grad("logit", Attrs{"eps": -1.0}, x, nil, func() (*T, error) { return tensor.Logit(x, -1) }), []float64{nan, inf, 4, inf, nan})
	x = f64(-0.5, 0.1, 0.5, 0.95, 1.5)
	lo := 0.1 // a variable: Go's constant arithmetic would be exact
	same("logit eps", grad("logit", Attrs{"eps": 0.1}, x, nil, func() (*T, error) { return tensor.Logit(x, 0.1) }), []float64{0, 1 / (lo * (1 - lo)), 4, 0, 0})
	// hardtanh: 0 at the bounds themselves, the gradient through NaN
	x = f64(-1, -0.5, 1, 2, nan)
	same("hardtanh", grad("hardtanh", Attrs{"min_val": -1.0, "max_val": 1.0}, x, nil, func() (*T, error) { return tensor.Hardtanh(x, -1, 1) }), []float64{0, 1, 0, 0, 1})
	// copysign: 0 where self is 0 (either sign)
	x = f64(0, math.Copysign(0, -1), 2, -3)
	b := f64(-1, 1, -1, -1)
	same("copysign", grad("copysign", nil, x, b, func() (*T, error) { return tensor.Copysign(x, b) }), []float64{0, 0, -1, 1})
	// xlogy: d/dself is xlogy(grad, other), 0 where self == 0 and
	// other <= 0 (PyTorch 1.13's formula: log(other) at self == 0 else)
	x = f64(0, 2, 0, 0)
	b = f64(0, 3, math.Inf(1), 4)
	same("xlogy", grad("xlogy", nil, x, b, func() (*T, error) { return tensor.Xlogy(x, b) }), []float64{0, math.Log(3), inf, math.Log(4)})

	// heaviside records a node named NotImplemented whose backward fails
	x = f64(-1, 0, 2)
	x.SetRequiresGrad(true)
	v := f64(0.5)
	out, err := e.Apply("heaviside", []*T{x, v}, nil, func() (*T, error) { return tensor.Heaviside(x, v) })
	if err != nil {
		t.Fatal(err)
	}
	if n := out.GradFn().(*Node).Name(); n != "NotImplemented" {
		t.Errorf("heaviside grad_fn %s, want NotImplemented", n)
	}
	s, _ := e.sum(out, nil, false)
	_, err = e.Grad([]*T{s}, []*T{x}, nil, false, false)
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != "RuntimeError" || ae.Msg != errHeavisideBackward {
		t.Errorf("heaviside backward: %v", err)
	}

	// floor_divide likewise (PyTorch 1.13: not_implemented)
	x = f64(1.5, -2.5)
	x.SetRequiresGrad(true)
	two := f64(2)
	out, err = e.Apply("floor_divide", []*T{x, two}, nil, func() (*T, error) { return tensor.FloorDivide(x, two) })
	if err != nil {
		t.Fatal(err)
	}
	if n := out.GradFn().(*Node).Name(); n != "NotImplemented" {
		t.Errorf("floor_divide grad_fn %s, want NotImplemented", n)
	}
	s, _ = e.sum(out, nil, false)
	_, err = e.Grad([]*T{s}, []*T{x}, nil, false, false)
	if !errors.As(err, &ae) || ae.Kind != "RuntimeError" || ae.Msg != errFloorDivideBackward {
		t.Errorf("floor_divide backward: %v", err)
	}
}

// secondGrad returns the gradient of sum(d sum(out)/d wrt) with respect to
// wrt: the elementwise second derivative of out (create_graph backward,
// then a second backward through the recorded gradient).
func secondGrad(t *testing.T, e *Engine, out, wrt *T) []*T {
	t.Helper()
	s, _ := e.sum(out, nil, false)
	g, err := e.Grad([]*T{s}, []*T{wrt}, nil, true, true)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := e.sum(g[0], nil, false)
	g2, err := e.Grad([]*T{s2}, []*T{wrt}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return g2
}

// TestTorchMoreDoubleBackward: the formulas are written in engine ops, so
// a create_graph backward differentiates them again: d²/dy² xlogy(x, y)
// = -x/y² and d²/dx² logit(x) = (2x - 1)/(x(1-x))².
func TestTorchMoreDoubleBackward(t *testing.T) {
	e := NewEngine()
	x, _ := tensor.FromFloat64s([]float64{0.3, 0.8}, []int{2}, tensor.F64)
	x.SetRequiresGrad(true)
	out, err := e.Apply("logit", []*T{x}, Attrs{"eps": -1.0}, func() (*T, error) { return tensor.Logit(x, -1) })
	if err != nil {
		t.Fatal(err)
	}
	g2 := secondGrad(t, e, out, x)
	for i, v := range []float64{0.3, 0.8} {
		want := (2*v - 1) / math.Pow(v*(1-v), 2)
		if got := g2[0].ToFloat64s()[i]; math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("logit'' at %v = %v, want %v", v, got, want)
		}
	}
	y, _ := tensor.FromFloat64s([]float64{2, 5}, []int{2}, tensor.F64)
	y.SetRequiresGrad(true)
	out, err = e.Apply("xlogy", []*T{x, y}, nil, func() (*T, error) { return tensor.Xlogy(x, y) })
	if err != nil {
		t.Fatal(err)
	}
	g2 = secondGrad(t, e, out, y)
	for i, v := range []float64{0.3, 0.8} {
		yv := []float64{2, 5}[i]
		want := -v / (yv * yv)
		if got := g2[0].ToFloat64s()[i]; math.Abs(got-want) > 1e-12 {
			t.Errorf("d²xlogy/dy² = %v, want %v", got, want)
		}
	}
}

// TestSpecialDoubleBackward: lgamma's derivative is recorded digamma, so a
// create_graph backward gives d²/dx² lgamma(x) = trigamma(x) (checked
// against the series sum 1/(x+k)²), and the special values at the poles
// match PyTorch 1.13's.
func TestSpecialDoubleBackward(t *testing.T) {
	e := NewEngine()
	x, _ := tensor.FromFloat64s([]float64{0.3, 2.5}, []int{2}, tensor.F64)
	x.SetRequiresGrad(true)
	out, err := e.Apply("lgamma", []*T{x}, nil, func() (*T, error) { return tensor.Lgamma(x) })
	if err != nil {
		t.Fatal(err)
	}
	g2 := secondGrad(t, e, out, x)
	for i, v := range []float64{0.3, 2.5} {
		want := 0.0
		for k := 0; k < 2000000; k++ {
			want += 1 / ((v + float64(k)) * (v + float64(k)))
		}
		want += 1 / (v + 2000000) // the tail of the series
		if got := g2[0].ToFloat64s()[i]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("lgamma'' at %v = %v, want %v", v, got, want)
		}
	}
	// PyTorch 1.13: lgamma's gradient at 0 is digamma(0) = -inf, NaN at
	// the negative integers; digamma's at 0 is trigamma(0) = inf;
	// erfinv's is inf at ±1; sgn's is 0 everywhere, NaN included.
	grad := func(op string, f func(*T) (*T, error), v ...float64) []float64 {
		t.Helper()
		x, _ := tensor.FromFloat64s(v, []int{len(v)}, tensor.F64)
		x.SetRequiresGrad(true)
		out, err := e.Apply(op, []*T{x}, nil, func() (*T, error) { return f(x) })
		if err != nil {
			t.Fatal(err)
		}
		s, _ := e.sum(out, nil, false)
		g, err := e.Grad([]*T{s}, []*T{x}, nil, false, false)
		if err != nil {
			t.Fatal(err)
		}
		return g[0].ToFloat64s()
	}
	inf, nan := math.Inf(1), math.NaN()
	check := func(what string, got, want []float64) {
		t.Helper()
		for i := range want {
			if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Errorf("%s: grad %v, want %v", what, got, want)
				return
			}
		}
	}
	check("lgamma", grad("lgamma", tensor.Lgamma, 0, -1, 1), []float64{-inf, nan, -0.5772156649015328})
	check("digamma", grad("digamma", tensor.Digamma, 0, math.Inf(1)), []float64{inf, 0})
	check("erfinv", grad("erfinv", tensor.Erfinv, 1, -1, 0), []float64{inf, inf, 0.8862269254527579})
	check("sgn", grad("sgn", tensor.Sgn, nan, 0, -2, inf), []float64{0, 0, 0, 0})
}
