package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// firstGrads returns the gradients of sum(c.f(ins) * w) with respect to
// ins, recorded (create_graph) when create is set.
func firstGrads(e *Engine, c gradCase, ins []*T, w *T, create bool) ([]*T, error) {
	out, err := c.f(e, ins)
	if err != nil {
		return nil, err
	}
	// sum(w * out²): the output gradient 2 w out then depends on the
	// inputs, so the double backward runs each formula with a gradient
	// that requires grad (the path linear ops' formulas need)
	prod, err := e.mul(out, w)
	if err != nil {
		return nil, err
	}
	if prod, err = e.mul(prod, out); err != nil {
		return nil, err
	}
	l, err := e.sum(prod, nil, false)
	if err != nil {
		return nil, err
	}
	if !l.RequiresGrad() {
		gs := make([]*T, len(ins))
		for i, in := range ins {
			gs[i], _ = tensor.Zeros(in.Shape(), tensor.F64)
		}
		return gs, nil
	}
	return e.Grad([]*T{l}, ins, nil, create, create)
}

// gradgradcheck checks second derivatives (PyTorch's gradgradcheck, in one
// random direction): with g(x) the gradient of L = sum(w f(x)²), the
// create_graph gradient of sum_k <g_k(x), v_k> is the Hessian-vector
// product H v, compared with the central difference
// (g(x + h v) - g(x - h v)) / 2h.
func gradgradcheck(t *testing.T, c gradCase, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	ins := make([]*T, len(c.shapes))
	for i, s := range c.shapes {
		ins[i] = randInput(r, s, c.positive, c.distinct)
		ins[i].SetRequiresGrad(true)
	}
	e := NewEngine()
	out, err := c.f(e, ins)
	if err != nil {
		t.Fatalf("%s forward: %v", c.op, err)
	}
	w := randInput(r, out.Shape(), false, false)
	vs := make([]*T, len(ins))
	for i, in := range ins {
		vs[i] = randInput(r, in.Shape(), false, false)
	}
	gs, err := firstGrads(e, c, ins, w, true)
	if err != nil {
		t.Fatalf("%s first backward: %v", c.op, err)
	}
	var s *T
	for k, g := range gs {
		d, err := e.mul(g, vs[k])
		if err != nil {
			t.Fatal(err)
		}
		if d, err = e.sum(d, nil, false); err != nil {
			t.Fatal(err)
		}
		if s == nil {
			s = d
		} else if s, err = e.add(s, d); err != nil {
			t.Fatal(err)
		}
	}
	hv := make([][]float64, len(ins))
	if s.RequiresGrad() {
		h2, err := e.Grad([]*T{s}, ins, nil, false, false)
		if err != nil {
			t.Fatalf("%s double backward: %v", c.op, err)
		}
		for k := range h2 {
			hv[k] = h2[k].ToFloat64s()
		}
	} else {
		for k, in := range ins {
			hv[k] = make([]float64, in.Numel())
		}
	}
	const h = 1e-5
	at := func(sign float64) [][]float64 {
		args := make([]*T, len(ins))
		for k, in := range ins {
			iv, vv := in.ToFloat64s(), vs[k].ToFloat64s()
			for i := range iv {
				iv[i] += sign * h * vv[i]
			}
			args[k], _ = tensor.FromFloat64s(iv, in.Shape(), tensor.F64)
			args[k].SetRequiresGrad(true)
		}
		g, err := firstGrads(NewEngine(), c, args, w, false)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		res := make([][]float64, len(g))
		for k := range g {
			res[k] = g[k].ToFloat64s()
		}
		return res
	}
	p, m := at(1), at(-1)
	for k := range ins {
		for i := range hv[k] {
			num := (p[k][i] - m[k][i]) / (2 * h)
			if d := math.Abs(num - hv[k][i]); d > 1e-5*math.Max(1, math.Abs(num)) {
				t.Errorf("%s: (H v) input%d[%d]: analytic %.8g, numeric %.8g", c.op, k, i, hv[k][i], num)
			}
		}
	}
}

// createGradCases are the cases of ops added for double backward
// (derivatives_create.go), and a cumprod / logcumsumexp / norm / gelu
// layout the older cases miss.
func createGradCases() []gradCase {
	return []gradCase{
		unaryCase("special_i1", tensor.I1, false),
		{op: "special_i1", shapes: [][]int{{3}}, f: func(e *Engine, in []*T) (*T, error) {
			x, err := e.mulScalar(in[0], 3) // beyond the small-argument series
			if err != nil {
				return nil, err
			}
			return ap(e, "special_i1", []*T{x}, nil, func() (*T, error) { return tensor.I1(x) })
		}},
		{op: "norm", shapes: [][]int{{2, 5}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "norm", in, Attrs{"p": 1.5, "dim": []int{1}, "keepdim": true}, func() (*T, error) { return tensor.Norm(in[0], 1.5, []int{1}, true) })
		}},
		{op: "cumprod", shapes: [][]int{{2, 4}}, positive: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "cumprod", in, Attrs{"dim": 0}, func() (*T, error) { return tensor.Cumprod(in[0], 0) })
		}},
	}
}

// noGradgrad lists the ops whose second derivative is known wrong or
// missing, with the reason; every other op of gradCases must pass
// gradgradcheck.
var noGradgrad = map[string]string{}

func TestGradgradcheckAllOps(t *testing.T) {
	for i, c := range gradCases() {
		if _, skip := noGradgrad[c.op]; skip {
			continue
		}
		t.Run(fmt.Sprintf("%s_%d", c.op, i), func(t *testing.T) { gradgradcheck(t, c, uint64(i+1)) })
	}
}
