package stdlib_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// gcd, lcm, ldexp, nextafter (and in-place forms), addmv, addr, baddbmm,
// addmm_/addmv_/addr_/baddbmm_ and index_copy/index_copy_ against
// PyTorch 1.13 through testdata/gen_missing_fns.py
// (testdata/missing_fns.json): values, dtypes, shapes, strides,
// gradients, grad_fn names and errors; and the gradients of the new
// differentiable functions against central finite differences.

func loadMissingFns(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/missing_fns.json", 100, 14, 60)
}

func TestMissingFnsGolden(t *testing.T) { checkTorchCases(t, loadMissingFns(t)) }
func TestMissingFnsGradFn(t *testing.T) { checkTorchGradFns(t, loadMissingFns(t)) }
func TestMissingFnsErrors(t *testing.T) { checkTorchErrors(t, loadMissingFns(t)) }

// TestMissingFnsFiniteDifference checks each analytic gradient against
// central differences (checkFiniteDifferences).
func TestMissingFnsFiniteDifference(t *testing.T) {
	checkFiniteDifferences(t, []fdCase{
		{"addmv(s, m, v, beta=0.5, alpha=-2)", []fdLeaf{
			{"s", "2", []float64{0.5, -1.5}}, {"m", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}, {"v", "3", []float64{0.8, -2.1, 0.6}}}},
		{"(s * 1).addmv_(m, v, beta=-1.5)", []fdLeaf{
			{"s", "2", []float64{0.5, -1.5}}, {"m", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}, {"v", "3", []float64{0.8, -2.1, 0.6}}}},
		{"addr(s, a, b, beta=-0.5, alpha=1.5)", []fdLeaf{
			{"s", "2, 1", []float64{0.5, -1.5}}, {"a", "2", []float64{0.3, -0.7}}, {"b", "3", []float64{0.8, -2.1, 0.6}}}},
		{"baddbmm(s, p, q, beta=0.5, alpha=-2)", []fdLeaf{
			{"s", "2, 3", []float64{0.5, -1.5, 2, 1, 0.25, -3}}, {"p", "2, 2, 2", []float64{0.3, -0.7, 1.2, 0.4, -1.6, 0.9, 0.1, 2}},
			{"q", "2, 2, 3", []float64{0.8, -2.1, 0.6, 1.5, 0.2, -0.3, 0.7, 1.1, -1, 0.25, -0.5, 2}}}},
		{"(s * 1).addmm_(m, w, beta=2, alpha=0.5)", []fdLeaf{
			{"s", "2, 2", []float64{1, -1, 0.5, 2}}, {"m", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}, {"w", "3, 2", []float64{0.5, -1, 1.5, 0.25, 2, -3}}}},
		{"ldexp(x, y)", []fdLeaf{{"x", "3", []float64{1.5, -0.5, 2}}, {"y", "3", []float64{1, -2, 0.5}}}},
		{"index_copy(s, 0, tensor([2, 0]), c)", []fdLeaf{
			{"s", "3, 2", []float64{0.5, -1.5, 2, 1, 0.25, -3}}, {"c", "2, 2", []float64{1.5, -0.5, 3, 2}}}},
		{"(s * 1).index_copy_(1, tensor([1]), c)", []fdLeaf{
			{"s", "2, 2", []float64{0.5, -1.5, 2, 1}}, {"c", "2, 1", []float64{1.5, -0.5}}}},
	})
}

// fdLeaf is one f64 leaf of a finite-difference case: its name, its
// shape (as reshape's arguments) and its values.
type fdLeaf struct {
	name  string
	shape string
	vals  []float64
}

// fdCase is an expression of its leaves whose gradients are checked.
type fdCase struct {
	expr   string
	leaves []fdLeaf
}

// checkFiniteDifferences checks each case's analytic gradient (backward
// of sum(expr * w), w = 1, 2, 3, ..., in f64) against central
// differences with step 1e-6, leaf element by leaf element.
func checkFiniteDifferences(t *testing.T, cases []fdCase) {
	t.Helper()
	for _, c := range cases {
		prog := func(vals [][]float64, grad bool) string {
			var b strings.Builder
			for i, l := range c.leaves {
				rg := ""
				if grad {
					rg = ", requires_grad=true"
				}
				fmt.Fprintf(&b, "%s = tensor(%s, dtype=f64%s).reshape(%s)\n", l.name, floatListLiteral(vals[i]), rg, l.shape)
				if grad {
					fmt.Fprintf(&b, "%s.retain_grad()\n", l.name)
				}
			}
			fmt.Fprintf(&b, "out_ = %s\nl = (out_ * arange(1., out_.numel() + 1., dtype=f64).reshape(out_.shape)).sum()\n", c.expr)
			return b.String()
		}
		base := make([][]float64, len(c.leaves))
		for i, l := range c.leaves {
			base[i] = l.vals
		}
		const h = 1e-6
		for i, l := range c.leaves {
			got := evalTensor(t, prog(base, true)+"l.backward()\nr = "+l.name+".grad").ToFloat64s()
			for k := range l.vals {
				at := func(d float64) float64 {
					vals := slices.Clone(base)
					vals[i] = slices.Clone(l.vals)
					vals[i][k] += d
					return evalTensor(t, prog(vals, false)+"r = l").ToFloat64s()[0]
				}
				fd := (at(h) - at(-h)) / (2 * h)
				if math.Abs(fd-got[k]) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s d/d%s[%d]: analytic %v, finite difference %v", c.expr, l.name, k, got[k], fd)
				}
			}
		}
	}
}

// TestMissingFnsProgram runs the new functions as a user would write them
// (outputs from PyTorch 1.13).
func TestMissingFnsProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(gcd(tensor([-12, 0, 0, 4]), tensor([18, 0, -5, 6])), tensor([100], dtype=i8).lcm(tensor([3], dtype=i8)))
print(nextafter(tensor([1., 0., -0.]), tensor([2., -1., 1.])))
print(ldexp(tensor([1, 2]), tensor([3, -1])))`, `tensor([6, 0, 5, 2]) tensor([44], dtype=i8)
tensor([ 1.0000e+00, -1.4013e-45,  1.4013e-45])
tensor([8., 1.])`},
		{`x = zeros(3, 4, requires_grad=true)
y = x.index_copy(0, tensor([0, 2]), ones(2, 4))
print(y)
y.sum().backward()
print(x.grad)`, `tensor([[1., 1., 1., 1.],
        [0., 0., 0., 0.],
        [1., 1., 1., 1.]], grad_fn=<IndexCopyBackward0>)
tensor([[0., 0., 0., 0.],
        [1., 1., 1., 1.],
        [0., 0., 0., 0.]])`},
		{`M = arange(6.).reshape(2, 3).requires_grad_()
print(addmv(tensor([1., 1.]), M, tensor([1., 2., 3.])))
z = ones(2, 2)
z.addmm_(M.detach(), M.detach().t())
print(z, z._version)`, `tensor([ 9., 27.], grad_fn=<AddmvBackward0>)
tensor([[ 6., 15.],
        [15., 51.]]) 1`},
	})
}
