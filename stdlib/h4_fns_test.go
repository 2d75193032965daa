package stdlib_test

import "testing"

// logaddexp2, bitwise_left_shift/bitwise_right_shift, i0, angle,
// isposinf, isneginf, isreal, positive, diag_embed, block_diag, vander,
// trapezoid/trapz and Tensor.register_hook against PyTorch 1.13 through
// testdata/gen_h4_fns.py (testdata/h4_fns.json): values, dtypes, shapes,
// strides, gradients, grad_fn names and errors; and the gradients of the
// differentiable ones against central finite differences.

func loadH4Fns(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/h4_fns.json", 107, 12, 20)
}

func TestH4FnsGolden(t *testing.T) { checkTorchCases(t, loadH4Fns(t)) }
func TestH4FnsGradFn(t *testing.T) { checkTorchGradFns(t, loadH4Fns(t)) }
func TestH4FnsErrors(t *testing.T) { checkTorchErrors(t, loadH4Fns(t)) }

// TestH4FnsFiniteDifference checks the analytic gradients against central
// differences, vander's included (PyTorch 1.13's own vander backward
// fails with an in-place modification error, so it has no golden).
func TestH4FnsFiniteDifference(t *testing.T) {
	v := fdLeaf{"v", "3", []float64{0.5, -1.5, 2}}
	a := fdLeaf{"a", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}
	checkFiniteDifferences(t, []fdCase{
		{"logaddexp2(a, v)", []fdLeaf{a, v}},
		{"i0(v * 3)", []fdLeaf{v}},
		{"diag_embed(a, -1, 2, 0)", []fdLeaf{a}},
		{"block_diag(a, v, a[1, 2])", []fdLeaf{a, v}},
		{"vander(v)", []fdLeaf{v}},
		{"vander(v, N=4, increasing=true)", []fdLeaf{v}},
		{"trapezoid(a, v, dim=1)", []fdLeaf{a, v}},
		{"trapz(a, dx=0.25, dim=0)", []fdLeaf{a}},
	})
}

// TestRegisterHookProgram runs register_hook as a user would (outputs
// from PyTorch 1.13: a hook that prints sees the summed gradient).
func TestRegisterHookProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([1., 2.], requires_grad=true)
x.register_hook(fn(g) { print("leaf", g) })
h = x.register_hook(fn(g) { g + 1 })
(x * 3).sum().backward()
print(x.grad)
h.remove()
x.grad = none
(x * 3 + x).sum().backward()
print(x.grad)`, "leaf tensor([3., 3.])\ntensor([4., 4.])\nleaf tensor([4., 4.])\ntensor([4., 4.])"},
		{`x = tensor([1., 2.], requires_grad=true)
y = x * 2
y.register_hook(fn(g) { print("h1", g) })
y.register_hook(fn(g) { g + 1 })
y.register_hook(fn(g) { print("h3", g) })
(y * y).sum().backward()
print(x.grad)`, "h1 tensor([4., 8.])\nh3 tensor([5., 9.])\ntensor([10., 18.])"},
	})
}

// Backward runs nodes in PyTorch's engine order (a node is ready once
// all its inputs are in; the most recently created ready node first) and
// finishes a leaf (its hooks, then .grad) as soon as its gradient is
// complete, as AccumulateGrad does: the hooks below print in PyTorch
// 1.13's order (a DFS order ran b's hook first and every leaf hook last).
func TestHookOrderAsPyTorch(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([1.], requires_grad=true)
w = tensor([1.], requires_grad=true)
b = w * 3
a = x * 2
x.register_hook(fn(g) { print("x", g.item()) })
b.register_hook(fn(g) { print("b", g.item()) })
w.register_hook(fn(g) { print("w", g.item()) })
(a.sum() + (b * 4).sum()).backward()`, "x 2.0\nb 4.0\nw 12.0"},
		{`p = tensor([0.1], requires_grad=true)
q = p * 0.3
r = p * 0.7
s = q * r
q.register_hook(fn(g) { print("q", g.item()) })
r.register_hook(fn(g) { print("r", g.item()) })
(s + p * 1e-8 + q).sum().backward()
print(p.grad.item())`, "r 0.030000001192092896\nq 1.0700000524520874\n0.3420000374317169"},
	})
}
