package stdlib_test

import (
	"testing"
)

// put/put_, x.data = t, x.view(dtype), the overlap errors of the in-place
// index and scatter ops, masked_fill's 0-d value, float_power_'s first
// check, and tril_/triu_ against PyTorch 1.13 through
// testdata/gen_put_view_fns.py (testdata/put_view_fns.json): values,
// dtypes, shapes, strides, gradients, grad_fn names and errors; and put's
// gradients against central finite differences.

func loadPutViewFns(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/put_view_fns.json", 93, 7, 78)
}

func TestPutViewFnsGolden(t *testing.T) { checkTorchCases(t, loadPutViewFns(t)) }
func TestPutViewFnsGradFn(t *testing.T) { checkTorchGradFns(t, loadPutViewFns(t)) }
func TestPutViewFnsErrors(t *testing.T) { checkTorchErrors(t, loadPutViewFns(t)) }

// TestPutFiniteDifference checks put's and put_'s gradients (assigning
// and accumulating, negative and duplicate indices; a duplicate
// assigned index has no finite difference to match, see the golden
// put_dup case) against central
// differences.
func TestPutFiniteDifference(t *testing.T) {
	s := fdLeaf{"s", "2, 3", []float64{0.5, -1.5, 2, 1, 0.25, -3}}
	c := fdLeaf{"c", "4", []float64{1.5, -0.5, 3, 2}}
	checkFiniteDifferences(t, []fdCase{
		{"put(s, tensor([[0, -1], [4, 2]]), c)", []fdLeaf{s, c}},
		{"put(s, tensor([1, 1, -2, 0]), c, accumulate=true)", []fdLeaf{s, c}},
		{"(s * 1).t().put_(tensor([0, 1, 2, 3]), c, accumulate=true)", []fdLeaf{s, c}},
		{"(s * 1).put_(tensor([5, 4, 3, 2]), c)", []fdLeaf{s, c}},
	})
}

// TestPutViewFnsProgram runs put, x.data = t and view(dtype) as a user
// would write them (outputs from PyTorch 1.13, except viewing bytes other
// than 0 and 1 as bool, which tsr refuses: PyTorch reads them as true).
func TestPutViewFnsProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(2, 3, requires_grad=true)
y = x.put(tensor([0, -1]), tensor([1., 2.]))
print(y)
y.sum().backward()
print(x.grad)`, `tensor([[1., 0., 0.],
        [0., 0., 2.]], grad_fn=<PutBackward0>)
tensor([[0., 1., 1.],
        [1., 1., 0.]])`},
		{`x = zeros(3, requires_grad=true)
y = ones(2, 2)
x.data = y
y[0, 0] = 5.
print(x, x.requires_grad, x.is_leaf, x.data_ptr() == y.data_ptr())`, `tensor([[5., 1.],
        [1., 1.]], requires_grad=true) true true true`},
		{`x = tensor([1., -2., 0.5, 3.])
h = x.view(f16)
print(h.shape, x.view(i32))
h[1] = 0.
print(x, x.view(i32).dtype)
try { tensor([1, 2], dtype=u8).view(bool) } catch e { print(e.kind, e.message) }
print(tensor([1, 0], dtype=u8).view(bool))`, `[8] tensor([ 1065353216, -1073741824,  1056964608,  1077936128], dtype=i32)
tensor([ 0.0000, -2.0000,  0.5000,  3.0000]) i32
RuntimeError view(dtype): tsr can view as Bool only bytes holding 0 or 1, but got 2
tensor([ true, false])`},
		{`x = tensor([1., -2., 0.5, 3.])
h = x.view(f16)
print(h.shape, x.view(i32))
h[1] = 0.
print(x, x.view(i32).dtype)
try { tensor([1, 2], dtype=u8).view(bool) } catch e { print(e.kind, e.message) }
print(tensor([1, 0], dtype=u8).view(bool))`, `[8] tensor([ 1065353216, -1073741824,  1056964608,  1077936128], dtype=i32)
tensor([ 0.0000, -2.0000,  0.5000,  3.0000]) i32
RuntimeError view(dtype): tsr can view as Bool only bytes holding 0 or 1, but got 2
tensor([ true, false])`},
	})
}
