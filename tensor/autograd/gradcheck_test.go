package autograd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// gradCase is one finite-difference check: an op applied to f64 inputs of
// the given shapes. positive forces inputs into [0.5, 1.5] (log, sqrt, ...).
type gradCase struct {
	op       string
	shapes   [][]int
	positive bool
	distinct bool // keep values apart (max/min ties, abs at 0)
	f        func(e *Engine, in []*T) (*T, error)
}

func ap(e *Engine, op string, in []*T, attrs Attrs, f func() (*T, error)) (*T, error) {
	return e.Apply(op, in, attrs, f)
}

func unaryCase(op string, f func(*T) (*T, error), positive bool) gradCase {
	return gradCase{op: op, shapes: [][]int{{3, 4}}, positive: positive, distinct: true,
		f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, op, in, nil, func() (*T, error) { return f(in[0]) })
		}}
}

func binCase(op string, f func(a, b *T) (*T, error), sa, sb []int, positive bool) gradCase {
	return gradCase{op: op, shapes: [][]int{sa, sb}, positive: positive, distinct: true,
		f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, op, in, nil, func() (*T, error) { return f(in[0], in[1]) })
		}}
}

func gradCases() []gradCase {
	cs := []gradCase{
		binCase("add", tensor.Add, []int{2, 3}, []int{3}, false),
		binCase("sub", tensor.Sub, []int{2, 1}, []int{2, 3}, false),
		binCase("mul", tensor.Mul, []int{2, 3}, []int{2, 3}, false),
		binCase("div", tensor.Div, []int{4}, []int{2, 4}, true),
		binCase("pow", tensor.Pow, []int{3}, []int{3}, true),
		binCase("maximum", tensor.Maximum, []int{2, 3}, []int{3}, false),
		binCase("minimum", tensor.Minimum, []int{2, 3}, []int{2, 3}, false),
		binCase("atan2", tensor.Atan2, []int{3}, []int{3}, true),
		binCase("remainder", tensor.Remainder, []int{5}, []int{5}, true),
		unaryCase("neg", tensor.Neg, false),
		unaryCase("abs", tensor.Abs, false),
		unaryCase("square", tensor.Square, false),
		unaryCase("relu", tensor.Relu, false),
		unaryCase("exp", tensor.Exp, false),
		unaryCase("log", tensor.Log, true),
		unaryCase("log1p", tensor.Log1p, true),
		unaryCase("expm1", tensor.Expm1, false),
		unaryCase("sqrt", tensor.Sqrt, true),
		unaryCase("rsqrt", tensor.Rsqrt, true),
		unaryCase("sin", tensor.Sin, false),
		unaryCase("cos", tensor.Cos, false),
		unaryCase("tan", tensor.Tan, false),
		unaryCase("tanh", tensor.Tanh, false),
		unaryCase("sigmoid", tensor.Sigmoid, false),
		unaryCase("reciprocal", tensor.Reciprocal, true),
		unaryCase("erf", tensor.Erf, false),
		{op: "gelu", shapes: [][]int{{5}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "gelu", in, Attrs{"approximate": "none"}, func() (*T, error) { return tensor.Gelu(in[0], "none") })
		}},
		{op: "gelu", shapes: [][]int{{5}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "gelu", in, Attrs{"approximate": "tanh"}, func() (*T, error) { return tensor.Gelu(in[0], "tanh") })
		}},
		{op: "where", shapes: [][]int{{2, 3}, {3}}, f: func(e *Engine, in []*T) (*T, error) {
			cond, _ := tensor.Gt(in[0], tensor.ScalarFloat(0))
			return ap(e, "where", []*T{cond, in[0], in[1]}, nil, func() (*T, error) { return tensor.Where(cond, in[0], in[1]) })
		}},
		{op: "masked_fill", shapes: [][]int{{2, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			m, _ := tensor.Gt(in[0], tensor.ScalarFloat(0))
			return ap(e, "masked_fill", []*T{in[0], m}, Attrs{"value": 2.0}, func() (*T, error) {
				return tensor.MaskedFill(in[0], m, tensor.ScalarFloat(2))
			})
		}},
		{op: "masked_fill_tensor", shapes: [][]int{{2, 3}, {}}, f: func(e *Engine, in []*T) (*T, error) {
			m, _ := tensor.Gt(in[0], tensor.ScalarFloat(0))
			return ap(e, "masked_fill_tensor", []*T{in[0], m, in[1]}, nil, func() (*T, error) {
				return tensor.MaskedFill(in[0], m, in[1])
			})
		}},
		{op: "clamp", shapes: [][]int{{6}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "clamp", in, Attrs{"min": -0.3, "max": 0.4}, func() (*T, error) {
				return tensor.Clamp(in[0], tensor.ScalarFloat(-0.3), tensor.ScalarFloat(0.4))
			})
		}},
		{op: "to", shapes: [][]int{{3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "to", in, nil, func() (*T, error) { return in[0].To(tensor.F64) })
		}},
		{op: "contiguous", shapes: [][]int{{3, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			t, err := e.transpose(in[0], 0, 1)
			if err != nil {
				return nil, err
			}
			return ap(e, "contiguous", []*T{t}, nil, func() (*T, error) { return t.Contiguous(), nil })
		}},
		{op: "clone", shapes: [][]int{{3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "clone", in, nil, func() (*T, error) { return in[0].Clone(), nil })
		}},
		{op: "view", shapes: [][]int{{2, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "view", in, nil, func() (*T, error) { return in[0].View(3, 2) })
		}},
		{op: "reshape", shapes: [][]int{{2, 3}}, f: func(e *Engine, in []*T) (*T, error) { return e.reshape(in[0], []int{6}) }},
		{op: "flatten", shapes: [][]int{{2, 3, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "flatten", in, nil, func() (*T, error) { return in[0].Flatten(1, 2) })
		}},
		{op: "unflatten", shapes: [][]int{{2, 6}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "unflatten", in, nil, func() (*T, error) { return in[0].Unflatten(1, []int{3, 2}) })
		}},
		{op: "squeeze", shapes: [][]int{{2, 1, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "squeeze", in, nil, func() (*T, error) { return in[0].Squeeze() })
		}},
		{op: "transpose", shapes: [][]int{{2, 3, 4}}, f: func(e *Engine, in []*T) (*T, error) { return e.transpose(in[0], 0, 2) }},
		{op: "permute", shapes: [][]int{{2, 3, 4}}, f: func(e *Engine, in []*T) (*T, error) { return e.permute(in[0], []int{2, 0, 1}) }},
		{op: "expand", shapes: [][]int{{3, 1}}, f: func(e *Engine, in []*T) (*T, error) { return e.expand(in[0], []int{2, 3, 4}) }},
		{op: "unsqueeze", shapes: [][]int{{3}}, f: func(e *Engine, in []*T) (*T, error) { return e.unsqueeze(in[0], 1) }},
		{op: "narrow", shapes: [][]int{{4, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "narrow", in, nil, func() (*T, error) { return in[0].Narrow(0, 1, 2) })
		}},
		{op: "select", shapes: [][]int{{4, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "select", in, nil, func() (*T, error) { return in[0].Select(1, 2) })
		}},
		{op: "slice", shapes: [][]int{{7}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "slice", in, nil, func() (*T, error) { return in[0].Slice(0, 1, 7, 2) })
		}},
		{op: "diagonal", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "diagonal", in, nil, func() (*T, error) { return in[0].Diagonal(1, 0, 1) })
		}},
		{op: "unfold", shapes: [][]int{{7}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "unfold", in, nil, func() (*T, error) { return in[0].Unfold(0, 3, 2) })
		}},
		{op: "movedim", shapes: [][]int{{2, 3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "movedim", in, nil, func() (*T, error) { return in[0].Movedim([]int{0}, []int{2}) })
		}},
		{op: "as_strided", shapes: [][]int{{6}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "as_strided", in, nil, func() (*T, error) { return in[0].AsStrided([]int{3, 3}, []int{1, 1}, 0) })
		}},
		{op: "index", shapes: [][]int{{4, 5}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "index", in, nil, func() (*T, error) {
				s, err := in[0].Slice(1, 1, 5, 2)
				if err != nil {
					return nil, err
				}
				return s.Select(0, 2)
			})
		}},
		{op: "sum", shapes: [][]int{{2, 3, 4}}, f: func(e *Engine, in []*T) (*T, error) { return e.sum(in[0], []int{0, 2}, false) }},
		{op: "sum", shapes: [][]int{{2, 3}}, f: func(e *Engine, in []*T) (*T, error) { return e.sum(in[0], nil, false) }},
		{op: "mean", shapes: [][]int{{2, 3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "mean", in, Attrs{"dim": []int{1}, "keepdim": true}, func() (*T, error) { return tensor.Mean(in[0], []int{1}, true) })
		}},
		{op: "prod", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "prod", in, Attrs{"dim": 1}, func() (*T, error) { return tensor.Prod(in[0], []int{1}, false) })
		}},
		{op: "amax", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "amax", in, Attrs{"dim": []int{1}}, func() (*T, error) { return tensor.Amax(in[0], []int{1}, false) })
		}},
		{op: "amin", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "amin", in, Attrs{"dim": []int{0}, "keepdim": true}, func() (*T, error) { return tensor.Amin(in[0], []int{0}, true) })
		}},
		{op: "max_all", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "max_all", in, nil, func() (*T, error) { return tensor.Max(in[0]) })
		}},
		{op: "min_all", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "min_all", in, nil, func() (*T, error) { return tensor.Min(in[0]) })
		}},
		{op: "max", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			outs, err := e.ApplyMulti("max", in, Attrs{"dim": 1}, func() ([]*T, error) {
				v, i, err := tensor.MaxDim(in[0], 1, false)
				return []*T{v, i}, err
			})
			if err != nil {
				return nil, err
			}
			return outs[0], nil
		}},
		{op: "min", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			outs, err := e.ApplyMulti("min", in, Attrs{"dim": 0, "keepdim": true}, func() ([]*T, error) {
				v, i, err := tensor.MinDim(in[0], 0, true)
				return []*T{v, i}, err
			})
			if err != nil {
				return nil, err
			}
			return outs[0], nil
		}},
		{op: "var", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "var", in, Attrs{"dim": []int{1}, "correction": 1.0}, func() (*T, error) { return tensor.Var(in[0], []int{1}, 1, false) })
		}},
		{op: "std", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "std", in, Attrs{"correction": 0.0}, func() (*T, error) { return tensor.Std(in[0], nil, 0, false) })
		}},
		{op: "norm", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "norm", in, Attrs{"p": 2.0, "dim": []int{1}}, func() (*T, error) { return tensor.Norm(in[0], 2, []int{1}, false) })
		}},
		{op: "norm", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "norm", in, Attrs{"p": 3.0}, func() (*T, error) { return tensor.Norm(in[0], 3, nil, false) })
		}},
		{op: "norm", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "norm", in, Attrs{"p": 1.0}, func() (*T, error) { return tensor.Norm(in[0], 1, nil, false) })
		}},
		{op: "norm", shapes: [][]int{{3, 4}}, distinct: true, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "norm", in, Attrs{"p": math.Inf(1), "dim": []int{0}}, func() (*T, error) { return tensor.Norm(in[0], math.Inf(1), []int{0}, false) })
		}},
		{op: "cumsum", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "cumsum", in, Attrs{"dim": 1}, func() (*T, error) { return tensor.Cumsum(in[0], 1) })
		}},
		{op: "logsumexp", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "logsumexp", in, Attrs{"dim": []int{1}}, func() (*T, error) { return tensor.LogSumExp(in[0], []int{1}, false) })
		}},
		{op: "softmax", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "softmax", in, Attrs{"dim": 1}, func() (*T, error) { return tensor.Softmax(in[0], 1) })
		}},
		{op: "log_softmax", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "log_softmax", in, Attrs{"dim": 0}, func() (*T, error) { return tensor.LogSoftmax(in[0], 0) })
		}},
		binCase("matmul", tensor.Matmul, []int{2, 3, 4}, []int{4, 5}, false),
		binCase("matmul", tensor.Matmul, []int{4}, []int{2, 4, 3}, false),
		binCase("matmul", tensor.Matmul, []int{3, 4}, []int{4}, false),
		binCase("mm", tensor.Mm, []int{3, 4}, []int{4, 2}, false),
		binCase("bmm", tensor.Bmm, []int{2, 3, 4}, []int{2, 4, 2}, false),
		binCase("dot", tensor.Dot, []int{4}, []int{4}, false),
		binCase("outer", tensor.Outer, []int{3}, []int{4}, false),
		{op: "trace", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "trace", in, nil, func() (*T, error) { return tensor.Trace(in[0]) })
		}},
		{op: "diag", shapes: [][]int{{3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "diag", in, Attrs{"diagonal": 1}, func() (*T, error) { return tensor.Diag(in[0], 1) })
		}},
		{op: "diag", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "diag", in, Attrs{"diagonal": -1}, func() (*T, error) { return tensor.Diag(in[0], -1) })
		}},
		{op: "cat", shapes: [][]int{{2, 3}, {1, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "cat", in, Attrs{"dim": 0}, func() (*T, error) { return tensor.Cat(in, 0) })
		}},
		{op: "stack", shapes: [][]int{{2, 3}, {2, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "stack", in, Attrs{"dim": 1}, func() (*T, error) { return tensor.Stack(in, 1) })
		}},
		{op: "split", shapes: [][]int{{5, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			outs, err := e.ApplyMulti("split", in, Attrs{"dim": 0, "sizes": []int{2, 3}}, func() ([]*T, error) {
				a, err := in[0].Narrow(0, 0, 2)
				if err != nil {
					return nil, err
				}
				b, err := in[0].Narrow(0, 2, 3)
				return []*T{a, b}, err
			})
			if err != nil {
				return nil, err
			}
			return e.mul(outs[1], outs[1])
		}},
	}
	cs = append(cs, linalgGradCases()...)
	cs = append(cs, newGradCases()...)
	cs = append(cs, torchMoreGradCases()...)
	cs = append(cs, rot90GradCases()...)
	cs = append(cs, nnGradCases()...)
	cs = append(cs, createGradCases()...)
	return cs
}

func randInput(r *rand.Rand, shape []int, positive, distinct bool) *T {
	n := 1
	for _, s := range shape {
		n *= s
	}
	vals := make([]float64, n)
	for i := range vals {
		if positive {
			vals[i] = 0.5 + r.Float64()
		} else {
			vals[i] = r.Float64()*2 - 1
		}
		if distinct {
			// spread values apart so finite differences never cross a kink
			vals[i] = float64(i)*0.37 - float64(n)*0.15 + 0.05*r.Float64()
			if positive {
				vals[i] = 0.5 + float64(i)*0.21 + 0.05*r.Float64()
			}
		}
	}
	r.Shuffle(n, func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	t, err := tensor.FromFloat64s(vals, shape, tensor.F64)
	if err != nil {
		panic(err)
	}
	return t
}

// gradcheck compares the engine's gradient of sum(out * w) (w random) with
// central finite differences, in f64.
func gradcheck(t *testing.T, c gradCase, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	e := NewEngine()
	ins := make([]*T, len(c.shapes))
	for i, s := range c.shapes {
		ins[i] = randInput(r, s, c.positive, c.distinct)
		ins[i].SetRequiresGrad(true)
	}
	out, err := c.f(e, ins)
	if err != nil {
		t.Fatalf("%s forward: %v", c.op, err)
	}
	if out.GradFn() == nil {
		t.Fatalf("%s: output has no grad_fn", c.op)
	}
	w := randInput(r, out.Shape(), false, false)
	loss := func(o *T) float64 {
		ov, wv := o.ToFloat64s(), w.ToFloat64s()
		s := 0.0
		for i := range ov {
			s += ov[i] * wv[i]
		}
		return s
	}
	wt := w
	prod, err := e.mul(out, wt)
	if err != nil {
		t.Fatal(err)
	}
	scalarLoss, err := e.sum(prod, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := e.Grad([]*T{scalarLoss}, ins, nil, false, false)
	if err != nil {
		t.Fatalf("%s backward: %v", c.op, err)
	}
	const h = 1e-6
	noGrad := NewEngine()
	noGrad.SetGradEnabled(false)
	for k, in := range ins {
		vals := in.ToFloat64s()
		an := grads[k].ToFloat64s()
		if !sameShape(grads[k].Shape(), in.Shape()) {
			t.Fatalf("%s: grad %d shape %v, want %v", c.op, k, grads[k].Shape(), in.Shape())
		}
		for i := range vals {
			eval := func(delta float64) float64 {
				pv := append([]float64(nil), vals...)
				pv[i] += delta
				pt, _ := tensor.FromFloat64s(pv, in.Shape(), tensor.F64)
				args := append([]*T(nil), ins...)
				args[k] = pt
				o, err := c.f(noGrad, args)
				if err != nil {
					t.Fatalf("%s: %v", c.op, err)
				}
				return loss(o)
			}
			num := (eval(h) - eval(-h)) / (2 * h)
			if d := math.Abs(num - an[i]); d > 1e-5*math.Max(1, math.Abs(num)) {
				t.Errorf("%s: d/d input%d[%d]: analytic %.8g, numeric %.8g", c.op, k, i, an[i], num)
			}
		}
	}
}

func TestGradcheckAllOps(t *testing.T) {
	covered := map[string]bool{}
	for i, c := range gradCases() {
		c := c
		covered[c.op] = true
		t.Run(fmt.Sprintf("%s_%d", c.op, i), func(t *testing.T) { gradcheck(t, c, uint64(i+1)) })
	}
	// zero, fill, copy and index_put are in-place entries, checked in
	// version_test.go against PyTorch's values; the rounding ops have zero
	// gradients almost everywhere; heaviside's and floor_divide's backward
	// are errors, as PyTorch's (torch_more_test.go), and so is nextafter's (stdlib's
	// missing_fns_test.go).
	for _, name := range []string{"zero", "fill", "copy", "index_put", "floor_divide", "div_floor", "sign", "floor", "ceil", "round", "trunc", "heaviside", "nextafter"} {
		covered[name] = true
	}
	for _, op := range Ops() {
		if !covered[op] {
			t.Errorf("op %q has a derivative formula but no gradcheck case", op)
		}
	}
}
