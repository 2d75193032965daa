package autograd

import (
	"fmt"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Elementwise ops on transposed/permuted inputs return results laid out
// like those inputs (TensorIterator's rule, tensor/layout.go); their
// gradients must still match finite differences.

func TestGradcheckPermutedLayouts(t *testing.T) {
	tr := func(e *Engine, x *T) *T {
		y, err := e.transpose(x, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	perm := func(e *Engine, x *T) *T {
		y, err := e.permute(x, []int{2, 0, 1})
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	bin := func(op string, f func(a, b *T) (*T, error), a, b func(e *Engine, in []*T) *T) func(e *Engine, in []*T) (*T, error) {
		return func(e *Engine, in []*T) (*T, error) {
			x, y := a(e, in), b(e, in)
			return ap(e, op, []*T{x, y}, nil, func() (*T, error) { return f(x, y) })
		}
	}
	un := func(op string, f func(a *T) (*T, error), a func(e *Engine, in []*T) *T) func(e *Engine, in []*T) (*T, error) {
		return func(e *Engine, in []*T) (*T, error) {
			x := a(e, in)
			return ap(e, op, []*T{x}, nil, func() (*T, error) { return f(x) })
		}
	}
	t0 := func(e *Engine, in []*T) *T { return tr(e, in[0]) }
	t1 := func(e *Engine, in []*T) *T { return tr(e, in[1]) }
	p0 := func(e *Engine, in []*T) *T { return perm(e, in[0]) }
	p1 := func(e *Engine, in []*T) *T { return perm(e, in[1]) }
	raw1 := func(e *Engine, in []*T) *T { return in[1] }
	cases := []gradCase{
		{op: "exp", shapes: [][]int{{3, 4}}, f: un("exp", tensor.Exp, t0)},
		{op: "sin", shapes: [][]int{{3, 4}}, f: un("sin", tensor.Sin, t0)},
		{op: "sigmoid", shapes: [][]int{{2, 3, 4}}, f: un("sigmoid", tensor.Sigmoid, p0)},
		{op: "mul", shapes: [][]int{{3, 4}, {3, 4}}, f: bin("mul", tensor.Mul, t0, t1)},
		{op: "add", shapes: [][]int{{3, 4}, {4, 3}}, f: bin("add", tensor.Add, t0, raw1)},
		{op: "sub", shapes: [][]int{{3, 4}, {4, 1}}, f: bin("sub", tensor.Sub, t0, raw1)},
		{op: "div", shapes: [][]int{{2, 3, 4}, {2, 3, 4}}, positive: true, f: bin("div", tensor.Div, p0, p1)},
		{op: "maximum", shapes: [][]int{{3, 4}, {3}}, distinct: true, f: bin("maximum", tensor.Maximum, t0, raw1)},
		{op: "where", shapes: [][]int{{3, 4}, {4, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			x := tr(e, in[0])
			cond, _ := tensor.Gt(x, tensor.ScalarFloat(0))
			return ap(e, "where", []*T{cond, x, in[1]}, nil, func() (*T, error) { return tensor.Where(cond, x, in[1]) })
		}},
	}
	for i, c := range cases {
		c := c
		t.Run(fmt.Sprintf("%s_%d", c.op, i), func(t *testing.T) {
			// the forward result really is permuted
			e := NewEngine()
			ins := make([]*T, len(c.shapes))
			for k, s := range c.shapes {
				ins[k], _ = tensor.Ones(s, tensor.F64)
			}
			out, err := c.f(e, ins)
			if err != nil {
				t.Fatal(err)
			}
			if out.IsContiguous() {
				t.Fatalf("%s: result is contiguous (strides %v), want the inputs' permuted layout", c.op, out.Strides())
			}
			gradcheck(t, c, uint64(100+i))
		})
	}
}

// A leaf's .grad follows PyTorch's gradient layout contract
// (AccumulateGrad's clone_obey_contract): a non-overlapping, dense leaf
// gets a grad with its own strides, whatever layout backward produced; a
// second backward accumulates into that layout.
func TestLeafGradObeysLayoutContract(t *testing.T) {
	e := NewEngine()
	x := must(tensor.FromFloat64s([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, []int{2, 3, 4}, tensor.F64))
	leaf := must(x.Permute(2, 0, 1)).ClonePreserve() // [4, 2, 3] strides (1, 12, 4)
	leaf.SetRequiresGrad(true)
	c := must(tensor.Ones([]int{4, 2, 3}, tensor.F64)) // contiguous
	for round := 1; round <= 2; round++ {
		out := must(ap(e, "mul", []*T{leaf, c}, nil, func() (*T, error) { return tensor.Mul(c, leaf) }))
		if err := e.Backward(out, c, false, false); err != nil {
			t.Fatal(err)
		}
		g := leaf.Grad()
		if got, want := fmt.Sprint(g.Strides()), fmt.Sprint(leaf.Strides()); got != want {
			t.Fatalf("round %d: leaf.grad strides %s, want the leaf's %s (PyTorch's layout contract)", round, got, want)
		}
		if round == 1 && g.Version() != 0 {
			t.Fatalf("leaf.grad._version %d after the first backward, want 0 as PyTorch", g.Version())
		}
		for _, v := range g.ToFloat64s() {
			if v != float64(round) {
				t.Fatalf("round %d: grad value %v, want %d", round, v, round)
			}
		}
	}
}
