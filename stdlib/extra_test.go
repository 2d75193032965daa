package stdlib_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// These tests run whole tsr programs (through the embedding API) for the
// bindings of methods_extra.go, the wrapped-number cast, bool/int/float of
// tensors, bench.timeit and shares_memory. Numeric expectations come from
// PyTorch 1.13 via testdata/gen_extra.py (testdata/extra_golden.json).

type extraCase struct {
	Name   string   `json:"name"`
	Tsr    string   `json:"tsr"`
	Torch  string   `json:"torch"`
	DType  string   `json:"dtype"`
	Shape  []int    `json:"shape"`
	Values []string `json:"values"`
}

func runTsr(t *testing.T, src string) (*tsr.Interpreter, error) {
	t.Helper()
	in := tsr.New(tsr.Options{MaxSteps: 1 << 24})
	_, err := in.Eval(context.Background(), "test.tsr", src)
	return in, err
}

func TestExtraGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/extra_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []extraCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 50 {
		t.Fatalf("only %d golden cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		t.Run(c.Name, func(t *testing.T) {
			in, err := runTsr(t, c.Tsr)
			if err != nil {
				t.Fatalf("%s\n%v", c.Tsr, err)
			}
			r, err := in.GlobalTensor("r")
			if err != nil {
				t.Fatalf("%s\nresult: %v", c.Tsr, err)
			}
			checkTensor(t, c, r)
		})
	}
}

func checkTensor(t *testing.T, c extraCase, r *tensor.Tensor) {
	t.Helper()
	if r.DType().String() != c.DType {
		t.Errorf("dtype %s, want %s (torch: %s)", r.DType(), c.DType, c.Torch)
	}
	if len(r.Shape()) != len(c.Shape) {
		t.Fatalf("shape %v, want %v", r.Shape(), c.Shape)
	}
	for i := range c.Shape {
		if r.Shape()[i] != c.Shape[i] {
			t.Fatalf("shape %v, want %v", r.Shape(), c.Shape)
		}
	}
	// f16/bf16 results must match exactly (the point of the wrapped-number
	// cases); f32 within a few ulps (summation order), f64 tightly.
	tol := map[string]float64{"f16": 0, "bf16": 0, "f32": 1e-6, "f64": 1e-12}[c.DType]
	switch {
	case r.DType() == tensor.Bool:
		got := r.ToBools()
		for i, w := range c.Values {
			if want := w == "True"; got[i] != want {
				t.Errorf("element %d = %v, want %v\n%s", i, got[i], want, c.Tsr)
			}
		}
	case r.DType().IsFloat():
		got := r.ToFloat64s()
		for i, w := range c.Values {
			want, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatal(err)
			}
			g := got[i]
			ok := g == want || (math.IsNaN(g) && math.IsNaN(want)) ||
				(!math.IsInf(want, 0) && math.Abs(g-want) <= tol*math.Max(1, math.Abs(want)))
			if !ok {
				t.Errorf("element %d = %v, want %v\n%s", i, g, want, c.Tsr)
			}
		}
	default:
		got := r.ToInt64s()
		for i, w := range c.Values {
			want, err := strconv.ParseInt(w, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got[i] != want {
				t.Errorf("element %d = %d, want %d\n%s", i, got[i], want, c.Tsr)
			}
		}
	}
}

// TestExtraErrors checks the kinds (and PyTorch's messages where they
// matter) of bad calls.
func TestExtraErrors(t *testing.T) {
	for _, c := range []struct{ src, kind, msg string }{
		{"bool(tensor([1, 2]))", "RuntimeError", "Boolean value of Tensor with more than one value is ambiguous"},
		{"bool(zeros(0))", "RuntimeError", "Boolean value of Tensor with no values is ambiguous"},
		{"int(tensor([1, 2]))", "ValueError", "only one element tensors can be converted to Python scalars"},
		{"float(zeros(2, 2))", "ValueError", "only one element tensors can be converted to Python scalars"},
		{"int(zeros(0))", "ValueError", "only one element tensors can be converted to Python scalars"},
		{"tensor([1., 2.]).topk(3)", "RuntimeError", "selected index k out of range"},
		{"tensor([1., 2.]).sort(dim=1)", "IndexError", ""},
		{"tensor([1., 2.]).gather(0, tensor([0], dtype=i32))", "RuntimeError", "gather(): Expected dtype int64 for index"},
		{"tensor([1., 2.]).gather(0, tensor([[0]]))", "RuntimeError", ""},
		{"tensor([1., 2.]).gather(0, tensor([2]))", "RuntimeError", "index 2 is out of bounds for dimension 0 with size 2"},
		{"tensor([1., 2.]).index_select(0, tensor([[0]]))", "IndexError", "index_select(): Index is supposed to be a vector"},
		{"tensor([1., 2.]).index_select(0, tensor([2]))", "IndexError", "index out of range in self"},
		{"tensor([1., 2.]).index_select(0, tensor([0.]))", "RuntimeError", ""},
		{"zeros(2, 2).roll([1, 1], [0])", "RuntimeError", "shifts and dimensions must align. shifts: 2, dims:1"},
		{"isclose(tensor([1.]), tensor([1]))", "RuntimeError", "f32 did not match i64"},
		{"isclose(tensor([1.]), tensor([1.]), rtol=-1)", "RuntimeError", ""},
		{"allclose(zeros(2), zeros(3))", "RuntimeError", ""},
		{"fmod(tensor([3]), 0)", "RuntimeError", "ZeroDivisionError"},
		{"lerp(tensor([1.]), tensor([1], dtype=f64), 0.5)", "RuntimeError", ""},
		{"meshgrid(zeros(2, 2))", "RuntimeError", ""},
		{"meshgrid(zeros(2), zeros(2), indexing=\"yx\")", "RuntimeError", ""},
		{"tensordot(zeros(2, 3), zeros(4, 2), 1)", "RuntimeError", "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 4 in dim 0"},
		{"tensordot(zeros(2), zeros(2), 3)", "RuntimeError", ""},
		{"zeros(0, 2).median(0)", "IndexError", ""},
		{"zeros(0, dtype=i64).median()", "RuntimeError", ""},
		{"zeros(2).new_zeros(-1)", "RuntimeError", ""},
		{"bench.timeit(fn() { 1 }, iters=0)", "ValueError", ""},
	} {
		_, err := runTsr(t, c.src)
		var ee *runtime.EvalError
		if !errors.As(err, &ee) {
			t.Errorf("%s: got %v, want %s", c.src, err, c.kind)
			continue
		}
		if ee.Kind != c.kind || (c.msg != "" && ee.Msg != c.msg) {
			t.Errorf("%s: got %s: %s, want %s: %s", c.src, ee.Kind, ee.Msg, c.kind, c.msg)
		}
	}
}

// TestExtraValues checks results that are not tensors.
func TestExtraValues(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"r = bool(tensor([2]))", "true"},
		{"r = bool(tensor(0.))", "false"},
		{"r = int(tensor([[2.7]]))", "2"},
		{"r = float(tensor([3]))", "3.0"},
		{"r = allclose(tensor([1., 2.]), tensor([1., 2.]))", "true"},
		{"r = tensor([1., 2.]).allclose(tensor([1., 2.1]))", "false"},
		// NaNs are distinct and sort last (PyTorch's order with NaN is
		// unspecified: its CPU kernel gives [1, nan, nan, 2])
		{"r = tensor([2., nan, 1., nan, 2.]).unique().tolist()", "[1.0, 2.0, nan, nan]"},
		// bench.timeit: a named tuple (min, median, max) in ms
		{"t = bench.timeit(fn() { 1 + 1 }, iters=5, warmup=0)\nlo, med, hi = t\nr = [len(t), lo <= med, med <= hi, lo >= 0, t.min == lo, t.median == med, t.max == hi, t[1] == med]", "[3, true, true, true, true, true, true, true]"},
		{"r = type(bench.timeit(fn() { none }, iters=1)) == \"tuple\"", "true"},
		// shares_memory is exact: views with no common element do not share
		{"x = arange(10.)\nr = [shares_memory(x[::2], x[1::2]), shares_memory(x[::2], x[2::4]), shares_memory(x, x[3:4]), shares_memory(x[:5], x[5:]), shares_memory(x, arange(10.))]", "[false, true, true, false, false]"},
		{"m = zeros(4, 6)\nr = [shares_memory(m[:, 0], m[:, 1]), shares_memory(m[:, 0], m[1]), shares_memory(m[:, :3], m[:, 3:]), shares_memory(m.T[2], m[:, 2]), shares_memory(m[1:3, 1:3], m[0, ::5])]", "[false, true, false, true, false]"},
		{"x = arange(12.)\nr = [shares_memory(x.as_strided([3], [4], 1), x.as_strided([2], [6], 2)), shares_memory(x.as_strided([3], [4], 1), x.as_strided([2], [6], 5))]", "[false, true]"},
	} {
		in, err := runTsr(t, c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		v, ok := in.Global("r")
		if !ok {
			t.Fatalf("%s: no result", c.src)
		}
		if got := runtime.Repr(v); got != c.want {
			t.Errorf("%s\n= %s, want %s", c.src, got, c.want)
		}
	}
}

// TestExtraNoGrad checks that results of index-valued or comparison
// methods do not require grad, and that values picked from a leaf do.
func TestExtraNoGrad(t *testing.T) {
	in, err := runTsr(t, "w = tensor([3., 1., 2.], requires_grad=true)\nr = [w.sort().values.requires_grad, w.sort().indices.requires_grad, w.argsort().requires_grad, w.isclose(w).requires_grad, w.unique().requires_grad, w.median().requires_grad, w.roll(1).requires_grad, w.broadcast_to([2, 3]).requires_grad]")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := in.Global("r")
	if got, want := runtime.Repr(v), "[true, false, false, false, false, true, true, true]"; got != want {
		t.Errorf("requires_grad = %s, want %s", got, want)
	}
}
