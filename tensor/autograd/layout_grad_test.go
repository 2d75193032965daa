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

// An in-place op on a view of a permuted (non-overlapping, dense) non-leaf
// is recorded through CopySlices as on a contiguous one: z =
// x.permute(2, 0, 1) * 2 is laid out like the permute since elementwise
// results follow TensorIterator, and z[1] *= 10 then backward must work
// (it raised "view of a non-contiguous base") with PyTorch's gradients.
func TestInplaceViewOfPermutedResult(t *testing.T) {
	e := NewEngine()
	vals := make([]float64, 24)
	for i := range vals {
		vals[i] = float64(i)
	}
	x := must(tensor.FromFloat64s(vals, []int{2, 3, 4}, tensor.F64))
	x.SetRequiresGrad(true)
	p := must(e.permute(x, []int{2, 0, 1}))
	z := must(e.mulScalar(p, 2)) // [4, 2, 3], strides (1, 12, 4)
	if z.IsContiguous() {
		t.Fatalf("setup: z has strides %v, want a permuted layout", z.Strides())
	}
	v := must(e.Apply("select", []*T{z}, nil, func() (*T, error) { return z.Select(0, 1) }))
	ten := tensor.ScalarFloat(10)
	if err := e.ApplyInplace("mul", v, []*T{ten}, nil, func() error { return v.MulInplace(ten) }); err != nil {
		t.Fatal(err)
	}
	// loss = sum(z * w), w[i, j, k] = i*6 + j*3 + k
	w := must(tensor.FromFloat64s(vals, []int{4, 2, 3}, tensor.F64))
	if err := e.Backward(sumAll(e, must(e.mul(z, w))), nil, false, false); err != nil {
		t.Fatal(err)
	}
	// d loss / d x[a, b, c] = 2 * w[c, a, b] * (10 if c == 1 else 1)
	g := x.Grad().ToFloat64s()
	for a := 0; a < 2; a++ {
		for b := 0; b < 3; b++ {
			for c := 0; c < 4; c++ {
				want := 2 * float64(c*6+a*3+b)
				if c == 1 {
					want *= 10
				}
				if got := g[(a*3+b)*4+c]; got != want {
					t.Fatalf("x.grad[%d, %d, %d] = %v, want %v", a, b, c, got, want)
				}
			}
		}
	}
	// and the forward values: z[1] was scaled in place
	zv := must(z.Contiguous(), nil).ToFloat64s()
	if zv[6] != 2*1*10 || zv[0] != 0 || zv[7] != 2*5*10 {
		t.Fatalf("z after z[1] *= 10: %v", zv[:8])
	}
}
