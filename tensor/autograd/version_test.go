package autograd

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

type versionCase struct {
	Name      string         `json:"name"`
	Error     bool           `json:"error"`
	Found     int64          `json:"found"`
	Expected  int64          `json:"expected"`
	LeafError bool           `json:"leaf_error"`
	Grads     map[string]any `json:"grads"`
}

func vec(t *testing.T, vals ...float64) *T {
	t.Helper()
	x, err := tensor.FromFloat64s(vals, []int{len(vals)}, tensor.F32)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func leaf(t *testing.T, vals ...float64) *T {
	x := vec(t, vals...)
	x.SetRequiresGrad(true)
	return x
}

// must unwraps a (tensor, error) pair in test programs; an error fails the
// test through the panic.
func must(x *T, err error) *T {
	if err != nil {
		panic(err)
	}
	return x
}

func sumAll(e *Engine, x *T) *T { return must(e.sum(x, nil, false)) }

// versionPrograms mirror testdata/gen_version_golden.py case by case. Each
// returns the error of backward (or of the in-place op) and the gradients.
var versionPrograms = map[string]func(t *testing.T, e *Engine) (map[string]*T, error){
	"pow_then_add_": func(t *testing.T, e *Engine) (map[string]*T, error) {
		x := leaf(t, 1, 2, 3)
		y := must(e.Apply("pow", []*T{x, tensor.ScalarFloat(2)}, nil, func() (*T, error) { return tensor.Pow(x, tensor.ScalarFloat(2)) }))
		exit := e.EnterNoGrad()
		if err := e.ApplyInplace("add", x, []*T{tensor.ScalarFloat(5)}, nil, func() error { return x.AddInplace(tensor.ScalarFloat(5)) }); err != nil {
			t.Fatal(err)
		}
		exit()
		return map[string]*T{"x": x.Grad()}, e.Backward(sumAll(e, y), nil, false, false)
	},
	"mul_self_then_add_": func(t *testing.T, e *Engine) (map[string]*T, error) {
		x := leaf(t, 1, 2, 3)
		y := must(e.mul(x, x))
		exit := e.EnterNoGrad()
		if err := e.ApplyInplace("add", x, []*T{tensor.ScalarFloat(5)}, nil, func() error { return x.AddInplace(tensor.ScalarFloat(5)) }); err != nil {
			t.Fatal(err)
		}
		exit()
		return map[string]*T{"x": x.Grad()}, e.Backward(sumAll(e, y), nil, false, false)
	},
	"sigmoid_then_mul_": func(t *testing.T, e *Engine) (map[string]*T, error) {
		a := leaf(t, 0.5, -1, 2)
		s := must(e.unary("sigmoid", tensor.Sigmoid, a))
		two := tensor.ScalarFloat(2)
		if err := e.ApplyInplace("mul", s, []*T{two}, nil, func() error { return s.MulInplace(two) }); err != nil {
			t.Fatal(err)
		}
		return map[string]*T{"a": a.Grad()}, e.Backward(sumAll(e, s), nil, false, false)
	},
	"detach_zero_": func(t *testing.T, e *Engine) (map[string]*T, error) {
		w := leaf(t, 1, 2, 3)
		y := must(e.exp(w))
		d := Detach(y)
		if err := e.ApplyInplace("zero", d, nil, nil, d.ZeroInplace); err != nil {
			t.Fatal(err)
		}
		return map[string]*T{"w": w.Grad()}, e.Backward(sumAll(e, y), nil, false, false)
	},
	"slice_inplace": func(t *testing.T, e *Engine) (map[string]*T, error) {
		a := leaf(t, 1, 1, 1)
		b := must(e.Apply("clone", []*T{a}, nil, func() (*T, error) { return a.Clone(), nil }))
		v := must(e.Apply("select", []*T{b}, nil, func() (*T, error) { return b.Select(0, 0) }))
		ten := tensor.ScalarFloat(10)
		if err := e.ApplyInplace("mul", v, []*T{ten}, nil, func() error { return v.MulInplace(ten) }); err != nil {
			t.Fatal(err)
		}
		err := e.Backward(sumAll(e, b), nil, false, false)
		return map[string]*T{"a": a.Grad()}, err
	},
	"slice_inplace_mul_by_tensor": func(t *testing.T, e *Engine) (map[string]*T, error) {
		a := leaf(t, 1, 2, 3)
		k := must(tensor.FromFloat64s([]float64{4}, []int{}, tensor.F32))
		k.SetRequiresGrad(true)
		b := must(e.mulScalar(a, 1))
		v := must(e.Apply("slice", []*T{b}, nil, func() (*T, error) { return b.Slice(0, 1, 3, 1) }))
		if err := e.ApplyInplace("mul", v, []*T{k}, nil, func() error { return v.MulInplace(k) }); err != nil {
			t.Fatal(err)
		}
		sq := must(e.mul(b, b))
		err := e.Backward(sumAll(e, sq), nil, false, false)
		return map[string]*T{"a": a.Grad(), "k": k.Grad()}, err
	},
	"expand_grad": func(t *testing.T, e *Engine) (map[string]*T, error) {
		x := leaf(t, 1, 2)
		y := must(e.expand(x, []int{3, 2}))
		w := must(tensor.Arange(0, 6, 1, tensor.F32))
		w = must(w.Reshape(3, 2))
		err := e.Backward(sumAll(e, must(e.mul(y, w))), nil, false, false)
		return map[string]*T{"x": x.Grad()}, err
	},
	"as_strided_overlap": func(t *testing.T, e *Engine) (map[string]*T, error) {
		x := leaf(t, 0, 1, 2, 3, 4, 5)
		y := must(e.Apply("as_strided", []*T{x}, nil, func() (*T, error) { return x.AsStrided([]int{2, 3}, []int{1, 1}, 0) }))
		err := e.Backward(sumAll(e, y), nil, false, false)
		return map[string]*T{"x": x.Grad()}, err
	},
	"leaf_inplace": func(t *testing.T, e *Engine) (map[string]*T, error) {
		w := leaf(t, 1, 2)
		one := tensor.ScalarFloat(1)
		return nil, e.ApplyInplace("add", w, []*T{one}, nil, func() error { return w.AddInplace(one) })
	},
	"versions": func(t *testing.T, e *Engine) (map[string]*T, error) {
		x := must(tensor.Zeros([]int{3}, tensor.F32))
		var vs []float64
		vs = append(vs, float64(x.Version()))
		if err := x.AddInplace(tensor.ScalarFloat(1)); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, float64(x.Version()))
		v := must(x.Slice(0, 1, 3, 1))
		if err := v.MulInplace(tensor.ScalarFloat(2)); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, float64(x.Version()))
		x0 := must(x.Select(0, 0))
		if err := x0.CopyInplace(tensor.ScalarFloat(5)); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, float64(x.Version()))
		if err := x.ZeroInplace(); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, float64(x.Version()))
		if err := x.CopyInplace(must(tensor.Ones([]int{3}, tensor.F32))); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, float64(x.Version()))
		return map[string]*T{"versions": must(tensor.FromFloat64s(vs, []int{len(vs)}, tensor.F64))}, nil
	},
}

func TestVersionCountersAgainstPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/version_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []versionCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != len(versionPrograms) {
		t.Fatalf("golden has %d cases, test has %d programs", len(cases), len(versionPrograms))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			prog := versionPrograms[c.Name]
			if prog == nil {
				t.Fatalf("no program for %s", c.Name)
			}
			grads, err := prog(t, NewEngine())
			if c.Error {
				if err == nil {
					t.Fatalf("expected an error, got none")
				}
				msg := err.Error()
				if c.LeafError && !strings.Contains(msg, "a leaf Variable that requires grad is being used in an in-place operation") {
					t.Fatalf("want leaf in-place error, got %q", msg)
				}
				if !c.LeafError {
					want := fmt.Sprintf("is at version %d; expected version %d instead", c.Found, c.Expected)
					if !strings.Contains(msg, want) || !strings.Contains(msg, "modified by an inplace operation") {
						t.Fatalf("want %q in %q", want, msg)
					}
					if !strings.Contains(msg, "[f32 [3]]") || !strings.Contains(msg, "Backward") {
						t.Fatalf("message must name dtype, shape and node: %q", msg)
					}
				}
				if k, ok := err.(interface{ ErrorKind() string }); !ok || k.ErrorKind() != "RuntimeError" {
					t.Fatalf("want RuntimeError kind, got %#v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			for name, want := range c.Grads {
				got := grads[name]
				if got == nil {
					t.Fatalf("%s: no gradient", name)
				}
				var wv []float64
				switch w := want.(type) {
				case float64:
					wv = []float64{w}
				case []any:
					for _, x := range w {
						wv = append(wv, x.(float64))
					}
				}
				gv := got.ToFloat64s()
				if len(gv) != len(wv) {
					t.Fatalf("%s: got %v, want %v", name, gv, wv)
				}
				for i := range wv {
					if d := gv[i] - wv[i]; d > 1e-5 || d < -1e-5 {
						t.Fatalf("%s: got %v, want %v", name, gv, wv)
					}
				}
			}
		})
	}
}

func TestIndexPutGradient(t *testing.T) {
	// PyTorch: a = [1,2,3,4] (requires grad); b = a * 1; b[[0, 2]] = v (v = [5, 6]
	// requires grad); (b * [1,2,3,4]).sum().backward() gives a.grad = [0, 2, 0, 4]
	// and v.grad = [1, 3].
	e := NewEngine()
	a := leaf(t, 1, 2, 3, 4)
	v := leaf(t, 5, 6)
	b := must(e.mulScalar(a, 1))
	idx := must(tensor.FromInt64s([]int64{0, 2}, []int{2}, tensor.I64))
	items := []tensor.Index{tensor.Adv(idx)}
	if err := e.ApplyInplace("index_put", b, []*T{v}, Attrs{"indices": items}, func() error { return b.IndexPut(items, v) }); err != nil {
		t.Fatal(err)
	}
	w := vec(t, 1, 2, 3, 4)
	if err := e.Backward(sumAll(e, must(e.mul(b, w))), nil, false, false); err != nil {
		t.Fatal(err)
	}
	if got := a.Grad().ToFloat64s(); got[0] != 0 || got[1] != 2 || got[2] != 0 || got[3] != 4 {
		t.Fatalf("a.grad = %v, want [0 2 0 4]", got)
	}
	if got := v.Grad().ToFloat64s(); got[0] != 1 || got[1] != 3 {
		t.Fatalf("v.grad = %v, want [1 3]", got)
	}
}

func TestSecondBackwardWithoutRetainGraph(t *testing.T) {
	e := NewEngine()
	x := leaf(t, 1, 2)
	y := sumAll(e, must(e.mul(x, x)))
	if err := e.Backward(y, nil, false, false); err != nil {
		t.Fatal(err)
	}
	err := e.Backward(y, nil, false, false)
	if err == nil || !strings.Contains(err.Error(), "backward through the graph a second time") {
		t.Fatalf("want second-backward error, got %v", err)
	}
}

// PyTorch frees only saved tensors: a second backward through nodes that
// saved none (x + 1 -> AddBackward0, sum -> SumBackward0) runs and
// accumulates again; x.grad = [2, 2] after two passes.
func TestSecondBackwardWithoutSavedTensors(t *testing.T) {
	e := NewEngine()
	x := leaf(t, 1, 2)
	y := sumAll(e, must(e.addScalar(x, 1)))
	for i := 0; i < 2; i++ {
		if err := e.Backward(y, nil, false, false); err != nil {
			t.Fatalf("backward %d: %v", i, err)
		}
	}
	if got := x.Grad().ToFloat64s(); got[0] != 2 || got[1] != 2 {
		t.Fatalf("accumulated grad %v, want [2 2]", got)
	}
}

func TestRetainGraphAccumulates(t *testing.T) {
	e := NewEngine()
	x := leaf(t, 1, 2)
	y := sumAll(e, must(e.mul(x, x)))
	for i := 0; i < 2; i++ {
		if err := e.Backward(y, nil, true, false); err != nil {
			t.Fatal(err)
		}
	}
	if got := x.Grad().ToFloat64s(); got[0] != 4 || got[1] != 8 {
		t.Fatalf("accumulated grad %v, want [4 8]", got)
	}
}

func TestNonScalarBackwardNeedsGradient(t *testing.T) {
	e := NewEngine()
	x := leaf(t, 1, 2)
	y := must(e.mul(x, x))
	if err := e.Backward(y, nil, false, false); err == nil || !strings.Contains(err.Error(), "only for scalar outputs") {
		t.Fatalf("got %v", err)
	}
}

func TestGradBlockHigherOrder(t *testing.T) {
	// d/dx (d/dx x^3) = 6x, via nested gradient blocks.
	e := NewEngine()
	x := vec(t, 2)
	outer, err := e.BeginGrad([]*T{x})
	if err != nil {
		t.Fatal(err)
	}
	inner, err := e.BeginGrad([]*T{x})
	if err != nil {
		t.Fatal(err)
	}
	cube := must(e.mul(must(e.mul(x, x)), x))
	gs, err := inner.Finish(sumAll(e, cube))
	if err != nil {
		t.Fatal(err)
	}
	if v := gs[0].ToFloat64s()[0]; v != 12 {
		t.Fatalf("first derivative %v, want 12", v)
	}
	gs2, err := outer.Finish(sumAll(e, gs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if v := gs2[0].ToFloat64s()[0]; v != 12 {
		t.Fatalf("second derivative %v, want 12", v)
	}
	if x.RequiresGrad() {
		t.Fatal("grad block must restore requires_grad")
	}
	if x.Grad() != nil {
		t.Fatal("grad block must not touch .grad")
	}
}

func TestGradDuplicateAndLeafOutputs(t *testing.T) {
	// torch.autograd.grad((x*x).sum(), [x, x]) gives 2x twice; the gradient
	// of a leaf with respect to itself is ones.
	e := NewEngine()
	x := leaf(t, 1, 2)
	gs, err := e.Grad([]*T{sumAll(e, must(e.mul(x, x)))}, []*T{x, x}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if v := g.ToFloat64s(); v[0] != 2 || v[1] != 4 {
			t.Fatalf("grads %v %v, want [2 4] twice", gs[0].ToFloat64s(), gs[1].ToFloat64s())
		}
	}
	s := must(tensor.FromFloat64s([]float64{3}, []int{}, tensor.F64))
	s.SetRequiresGrad(true)
	gs, err = e.Grad([]*T{s}, []*T{s}, nil, false, false)
	if err != nil || gs[0].ToFloat64s()[0] != 1 {
		t.Fatalf("d s/d s = %v, %v", gs, err)
	}
}

func TestGradBlockRejectsNonScalar(t *testing.T) {
	e := NewEngine()
	x := vec(t, 1, 2)
	b, err := e.BeginGrad([]*T{x})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Finish(must(e.mul(x, x))); err == nil || !strings.Contains(err.Error(), "scalar") {
		t.Fatalf("got %v", err)
	}
}

func TestEinsumGradient(t *testing.T) {
	e := NewEngine()
	a := must(tensor.FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, tensor.F64))
	b := must(tensor.FromFloat64s([]float64{1, 0, -1, 2, 0.5, 1}, []int{3, 2}, tensor.F64))
	a.SetRequiresGrad(true)
	b.SetRequiresGrad(true)
	out := must(Einsum(e, "ij,jk->ik", []*T{a, b}))
	gs, err := e.Grad([]*T{sumAll(e, out)}, []*T{a, b}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	// d sum(AB)/dA = 1 B^T: row sums of B; d/dB = A^T 1: column sums of A.
	wantA := []float64{1, 1, 1.5, 1, 1, 1.5}
	wantB := []float64{5, 5, 7, 7, 9, 9}
	for i, v := range gs[0].ToFloat64s() {
		if v != wantA[i] {
			t.Fatalf("dA = %v, want %v", gs[0].ToFloat64s(), wantA)
		}
	}
	for i, v := range gs[1].ToFloat64s() {
		if v != wantB[i] {
			t.Fatalf("dB = %v, want %v", gs[1].ToFloat64s(), wantB)
		}
	}
}

func TestAnomalyNamesForwardPosition(t *testing.T) {
	e := NewEngine()
	e.Pos = func() string { return "prog.tsr:3:5" }
	exit := e.EnterAnomaly()
	defer exit()
	x := leaf(t, 0)
	y := must(e.unary("sqrt", tensor.Sqrt, x)) // d sqrt/dx at 0 = inf; times 0 -> nan
	z := must(e.mulScalar(y, 0))
	err := e.Backward(sumAll(e, z), nil, false, false)
	if err == nil || !strings.Contains(err.Error(), "nan") || !strings.Contains(err.Error(), "prog.tsr:3:5") {
		t.Fatalf("got %v", err)
	}
}
