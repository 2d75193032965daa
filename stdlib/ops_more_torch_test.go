package stdlib_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// nn.hardtanh, copysign, xlogy, float_power, logit and heaviside, and the
// result layout of lerp, fmod and isclose, against PyTorch 1.13 through
// testdata/gen_ops_more_torch.py (testdata/ops_more_torch.json): values
// (signed zeros, infinities and NaN exactly; f32 within 2 ulp of the
// largest magnitude, f64 within 1e-12 relative; f16/bf16 and integers
// exactly), dtypes, shapes, strides, gradients, grad_fn names and errors.
// Finite-difference checks of the formulas are in tensor/autograd.

type opsMoreTorchGolden struct {
	Cases []struct {
		extraCase
		Strides []int `json:"strides"`
	} `json:"cases"`
	GradFn []struct {
		Name   string `json:"name"`
		Tsr    string `json:"tsr"`
		GradFn string `json:"grad_fn"`
	} `json:"gradfn"`
	Errors []struct {
		Name  string `json:"name"`
		Tsr   string `json:"tsr"`
		Kind  string `json:"kind"`
		Msg   string `json:"msg"`
		Exact bool   `json:"exact"`
	} `json:"errors"`
}

// loadTorchGolden reads a golden file of the opsMoreTorchGolden format and
// fails unless it holds at least the given numbers of value cases,
// grad_fn names and errors (a truncated file must not pass quietly).
func loadTorchGolden(t *testing.T, path string, cases, gradFns, errs int) *opsMoreTorchGolden {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g opsMoreTorchGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < cases || len(g.GradFn) < gradFns || len(g.Errors) < errs {
		t.Fatalf("%s: only %d cases, %d grad_fn names, %d errors", path, len(g.Cases), len(g.GradFn), len(g.Errors))
	}
	return &g
}

func loadOpsMoreTorch(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/ops_more_torch.json", 100, 20, 10)
}

func TestOpsMoreTorchGolden(t *testing.T) { checkTorchCases(t, loadOpsMoreTorch(t)) }
func TestOpsMoreTorchGradFn(t *testing.T) { checkTorchGradFns(t, loadOpsMoreTorch(t)) }
func TestOpsMoreTorchErrors(t *testing.T) { checkTorchErrors(t, loadOpsMoreTorch(t)) }

// checkTorchCases evaluates each value case and compares dtype, shape,
// strides and values (floats within a dtype-scaled tolerance, signs of
// zero and NaN exactly; other dtypes exactly).
func checkTorchCases(t *testing.T, g *opsMoreTorchGolden) {
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			r := evalTensor(t, c.Tsr)
			if r.DType().String() != c.DType || !slices.Equal(r.Shape(), c.Shape) {
				t.Fatalf("%s\ndtype %s shape %v, want %s %v", c.Tsr, r.DType(), r.Shape(), c.DType, c.Shape)
			}
			if !slices.Equal(r.Strides(), c.Strides) {
				t.Errorf("%s\nstrides %v, want %v", c.Tsr, r.Strides(), c.Strides)
			}
			if !r.DType().IsFloat() {
				checkTensor(t, c.extraCase, r)
				return
			}
			checkTorchValues(t, c.Tsr, c.DType, c.Values, r.ToFloat64s())
		})
	}
}

// checkTorchGradFns compares each case's grad_fn name.
func checkTorchGradFns(t *testing.T, g *opsMoreTorchGolden) {
	for _, c := range g.GradFn {
		r := evalTensor(t, c.Tsr)
		fn := r.GradFn()
		if fn == nil {
			t.Errorf("%s: %s\nno grad_fn, want %s", c.Name, c.Tsr, c.GradFn)
			continue
		}
		if fn.Name() != c.GradFn {
			t.Errorf("%s: %s\ngrad_fn %s, want %s", c.Name, c.Tsr, fn.Name(), c.GradFn)
		}
	}
}

// checkTorchErrors compares each case's error kind (and message when exact).
func checkTorchErrors(t *testing.T, g *opsMoreTorchGolden) {
	for _, c := range g.Errors {
		_, err := runTsr(t, c.Tsr)
		var ee *runtime.EvalError
		if !errors.As(err, &ee) {
			t.Errorf("%s: %s: got %v, want %s", c.Name, c.Tsr, err, c.Kind)
			continue
		}
		if ee.Kind != c.Kind || (c.Exact && ee.Msg != c.Msg) {
			t.Errorf("%s: %s\ngot  %s: %s\nwant %s: %s", c.Name, c.Tsr, ee.Kind, ee.Msg, c.Kind, c.Msg)
		}
	}
}

// TestOpsMoreTorchProgram runs the new ops through the interpreter as a
// user would write them (outputs from PyTorch 1.13).
func TestOpsMoreTorchProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-2., 0.5, 3.], requires_grad=true)
y = nn.hardtanh(x, -1., 2.)
print(y)
y.sum().backward()
print(x.grad)`, "tensor([-1.0000,  0.5000,  2.0000], grad_fn=<HardtanhBackward0>)\ntensor([0., 1., 0.])"},
		{`print(copysign(tensor([1., -2.]), -0.0), xlogy(tensor([0., 2.]), tensor([0., 1.])), float_power(tensor([2]), 3))`,
			"tensor([-1., -2.]) tensor([0., 0.]) tensor([8.], dtype=f64)"},
		{`print(logit(tensor([0., 0.5, 1.])), logit(tensor([0., 0.5, 1.]), eps=0.25))`,
			"tensor([-inf, 0., inf]) tensor([-1.0986,  0.0000,  1.0986])"},
		{`x = tensor([-1., 0., 2.], requires_grad=true)
h = heaviside(x, tensor(0.5))
print(h)
try { h.sum().backward() } catch e { print(e.kind, e.message) }`,
			"tensor([0.0000, 0.5000, 1.0000], grad_fn=<NotImplemented>)\nRuntimeError derivative for aten::heaviside is not implemented"},
		{`x = arange(12.).reshape(3, 4)
print(x.t().lerp(x.t() * 2, 0.5).stride(), fmod(x.t(), 3).stride(), isclose(x.t(), x.t()).stride(), x.t().xlogy(2).stride())`,
			"(1, 4) (1, 4) (1, 4) (1, 4)"},
		{`x = tensor([1., 2.], dtype=f64)
x.float_power_(2)
x.copysign_(-1)
print(x, x._version)`, "tensor([-1., -4.], dtype=f64) 2"},
	})
}

// The tensor-level functions keep the golden's layout without the
// interpreter (WithStrides is what lerp and isclose finish with).
func TestWithStrides(t *testing.T) {
	x, _ := tensor.Arange(0, 12, 1, tensor.F32)
	x, _ = x.Reshape(3, 4)
	y, err := x.WithStrides([]int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(y.Strides(), []int{1, 3}) || !slices.Equal(y.ToFloat64s(), x.ToFloat64s()) {
		t.Errorf("WithStrides: strides %v values %v", y.Strides(), y.ToFloat64s())
	}
	if same, _ := x.WithStrides([]int{4, 1}); same != x {
		t.Error("WithStrides with the tensor's own strides copied")
	}
	if _, err := x.WithStrides([]int{1, 1}); err == nil {
		t.Error("WithStrides accepted overlapping strides")
	}
}

// TestSpecialOpsProgram runs sgn, erfinv, lgamma, digamma and nn.mish
// through the interpreter (outputs from PyTorch 1.13).
func TestSpecialOpsProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-2., 0.5, 0.], requires_grad=true)
print(sgn(x), erfinv(tensor([0.5, 1., -1., 2.])), lgamma(tensor([0., -1., 0.5])), digamma(tensor([0., -0.0, 1.])))
y = tensor([0.1, 0.5], requires_grad=true)
lgamma(y).sum().backward()
print(y.grad)
z = tensor([-1., 0.5], requires_grad=true)
nn.mish(z).sum().backward()
print(z.grad)`, "tensor([-1.,  1.,  0.], grad_fn=<SgnBackward0>) tensor([0.4769,    inf,   -inf,    nan]) tensor([   inf,    inf, 0.5724]) tensor([   -inf,     inf, -0.5772])\ntensor([-10.4238,  -1.9635])\ntensor([0.0592, 0.8864])"},
		{`x = tensor([0.5, 4.])
x.lgamma_()
x.digamma_()
print(x, x._version, tensor([-3, 0, 2]).sgn_())`, "tensor([-1.6451,  0.2789]) 2 tensor([-1,  0,  1])"},
	})
}

// checkTorchValues compares got with PyTorch's values (Python reprs, so
// nan, inf and -0.0 survive): signed zeros, infinities and NaN exactly;
// f16/bf16 and integers exactly; f32 within 2 ulp of the largest
// magnitude (summation order), f64 within 1e-12 relative.
func checkTorchValues(t *testing.T, label, dtype string, values []string, got []float64) {
	t.Helper()
	want := make([]float64, len(values))
	scale := 0.0
	for k, s := range values {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		want[k] = v
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	tol := map[string]float64{"f32": 2 * 0x1p-23 * scale, "f64": 1e-12 * scale}[dtype]
	for k, wv := range want {
		g := got[k]
		ok := g == wv && math.Signbit(g) == math.Signbit(wv) || math.IsNaN(g) && math.IsNaN(wv) ||
			wv != 0 && !math.IsInf(wv, 0) && math.Abs(g-wv) <= tol
		if !ok {
			t.Errorf("%s\nelement %d = %v, want %v (all: %v)", label, k, g, wv, values)
		}
	}
}
