package stdlib_test

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// scatter_reduce / scatter_reduce_ against PyTorch 1.13 through
// testdata/gen_scatter_reduce_torch.py (testdata/scatter_reduce_torch.json):
// values (NaN and signed zeros exactly, f32 within 2 ulp of the largest
// magnitude, f64 within 1e-12 relative, f16 and integers exactly), dtypes,
// shapes, strides, gradients, grad_fn names and errors; and the gradients
// of every reduction against central finite differences.

func loadScatterReduceTorch(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/scatter_reduce_torch.json", 100, 10, 10)
}

func TestScatterReduceTorchGolden(t *testing.T) { checkTorchCases(t, loadScatterReduceTorch(t)) }
func TestScatterReduceTorchGradFn(t *testing.T) { checkTorchGradFns(t, loadScatterReduceTorch(t)) }
func TestScatterReduceTorchErrors(t *testing.T) { checkTorchErrors(t, loadScatterReduceTorch(t)) }

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
	expr := func(av, bv []float64, reduce, inc string, grad bool) string {
		rg := ""
		if grad {
			rg = ", requires_grad=true"
		}
		return fmt.Sprintf("a0 = tensor(%s, dtype=f64%s)\nb0 = tensor(%s, dtype=f64%s)\n"+
			"l = (a0.reshape(2, 3).scatter_reduce(1, %s, b0.reshape(2, 4), %q, include_self=%s) * %s).sum()\n", floatListLiteral(av), rg, floatListLiteral(bv), rg, idx, reduce, inc, w)
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

// floatListLiteral is v as a tsr list literal whose floats round-trip
// exactly ([1.5e+00, -2e-01]).
func floatListLiteral(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'e', -1, 64)
	}
	return "[" + strings.Join(s, ", ") + "]"
}
