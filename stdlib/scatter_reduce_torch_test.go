package stdlib_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/runtime"
)

// scatter_reduce / scatter_reduce_ against PyTorch 1.13 through
// testdata/gen_scatter_reduce_torch.py (testdata/scatter_reduce_torch.json):
// values (NaN and signed zeros exactly, f32 within 2 ulp of the largest
// magnitude, f64 within 1e-12 relative, f16 and integers exactly), dtypes,
// shapes, strides, gradients, grad_fn names and errors; and the gradients
// of every reduction against central finite differences.

func loadScatterReduceTorch(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	data, err := os.ReadFile("testdata/scatter_reduce_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var g opsMoreTorchGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 100 || len(g.GradFn) < 10 || len(g.Errors) < 10 {
		t.Fatalf("only %d cases, %d grad_fn names, %d errors", len(g.Cases), len(g.GradFn), len(g.Errors))
	}
	return &g
}

func TestScatterReduceTorchGolden(t *testing.T) {
	for _, c := range loadScatterReduceTorch(t).Cases {
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
			got := r.ToFloat64s()
			scale := 0.0
			want := make([]float64, len(c.Values))
			for i, w := range c.Values {
				v, err := strconv.ParseFloat(w, 64)
				if err != nil {
					t.Fatal(err)
				}
				want[i] = v
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					scale = math.Max(scale, math.Abs(v))
				}
			}
			tol := map[string]float64{"f32": 2 * 0x1p-23 * scale, "f64": 1e-12 * scale}[c.DType]
			for i, w := range want {
				g := got[i]
				ok := g == w && math.Signbit(g) == math.Signbit(w) || math.IsNaN(g) && math.IsNaN(w) ||
					w != 0 && !math.IsInf(w, 0) && math.Abs(g-w) <= tol
				if !ok {
					t.Errorf("%s\nelement %d = %v, want %v (all: %v)", c.Tsr, i, g, w, c.Values)
				}
			}
		})
	}
}

func TestScatterReduceTorchGradFn(t *testing.T) {
	for _, c := range loadScatterReduceTorch(t).GradFn {
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

func TestScatterReduceTorchErrors(t *testing.T) {
	for _, c := range loadScatterReduceTorch(t).Errors {
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

// TestScatterReduceFiniteDifference checks the analytic gradients of
// every reduction (self and src, include_self true and false) against
// central differences of sum(scatter_reduce(...) * w) in f64. Values are
// distinct (amax/amin have no ties) and nonzero except one self element
// and one src element for prod, whose exclusive products are exercised.
func TestScatterReduceFiniteDifference(t *testing.T) {
	a := []float64{0.7, -1.3, 2.1, 0.4, 1.9, -0.6}
	b := []float64{1.1, -0.8, 2.6, -1.7, 0.3, 1.45, -2.2, 0.9}
	az := []float64{0, -1.3, 2.1, 0.4, 1.9, -0.6}
	bz := []float64{1.1, -0.8, 0, -1.7, 0.3, 1.45, -2.2, 0.9}
	const idx = "tensor([[0, 2, 1, 0], [2, 2, 0, 1]])"
	const w = "tensor([[1., -2., 0.5], [3., 0.25, -1.5]], dtype=f64)"
	list := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.FormatFloat(x, 'e', -1, 64)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	expr := func(av, bv []float64, reduce, inc string, grad bool) string {
		rg := ""
		if grad {
			rg = ", requires_grad=true"
		}
		return fmt.Sprintf("a0 = tensor(%s, dtype=f64%s)\nb0 = tensor(%s, dtype=f64%s)\n"+
			"l = (a0.reshape(2, 3).scatter_reduce(1, %s, b0.reshape(2, 4), %q, include_self=%s) * %s).sum()\n", list(av), rg, list(bv), rg, idx, reduce, inc, w)
	}
	loss := func(av, bv []float64, reduce, inc string) float64 {
		return evalTensor(t, expr(av, bv, reduce, inc, false)+"r = l").ToFloat64s()[0]
	}
	const h = 1e-6
	for _, reduce := range []string{"sum", "prod", "mean", "amax", "amin"} {
		for _, inc := range []string{"true", "false"} {
			av, bv := a, b
			if reduce == "prod" {
				av, bv = az, bz
			}
			for wrt, vals := range map[string][]float64{"a": av, "b": bv} {
				got := evalTensor(t, expr(av, bv, reduce, inc, true)+"l.backward()\nr = "+wrt+"0.grad").ToFloat64s()
				for i := range vals {
					p := slices.Clone(vals)
					m := slices.Clone(vals)
					p[i] += h
					m[i] -= h
					var fp, fm float64
					if wrt == "a" {
						fp, fm = loss(p, bv, reduce, inc), loss(m, bv, reduce, inc)
					} else {
						fp, fm = loss(av, p, reduce, inc), loss(av, m, reduce, inc)
					}
					fd := (fp - fm) / (2 * h)
					if math.Abs(fd-got[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
						t.Errorf("%s include_self=%s d/d%s[%d]: analytic %v, finite difference %v", reduce, inc, wrt, i, got[i], fd)
					}
				}
			}
		}
	}
}
