package stdlib_test

import "testing"

// A tsr function's body runs in the caller's VM: the FRESH_MARKs of the
// calls inside it must not stand for the mark of the call to the function
// itself. Otherwise y = f() claims (and f() + 1 computes in place into) a
// tensor f created during one of its builtin calls, kept elsewhere and
// returned: the kept tensor is recycled or overwritten.
func TestRecycleFunctionCallMark(t *testing.T) {
	pre := "z = ones(20000)\nkeep = []\n"
	checkPrints(t, []printCase{
		{pre + "fn f() {\n  t = z.relu()\n  keep.append(t)\n  return t\n}\ny = f()\ny = z * 3\nprint(keep[0].sum().item(), y.sum().item())", "20000.0 60000.0"},
		{pre + "fn f() {\n  t = z.relu()\n  keep.append(t)\n  return t\n}\nfn g() {\n  y = f()\n  y = z * 3\n  return y.sum().item()\n}\nprint(g(), keep[0].sum().item())", "60000.0 20000.0"},
		{pre + "fn f() {\n  t = z.relu()\n  keep.append(t)\n  return t\n}\ny = f() + 1\nprint(keep[0].sum().item(), y.sum().item())", "20000.0 40000.0"},
		{pre + "fn f() {\n  t = z.relu() * 1\n  keep.append(t)\n  return t\n}\ny = f() * 5\nprint(keep[0].sum().item(), y.sum().item())", "20000.0 100000.0"},
		// a builtin running tsr code (a key function) while it computes
		{pre + "fn k(a) {\n  t = a.abs()\n  keep.append(t)\n  return t.sum().item()\n}\ny = max([z, z * 2], key=k)\ny = z * 3\nprint(keep[0].sum().item(), keep[1].sum().item())", "20000.0 40000.0"},
	})
}

// relu's gradient is PyTorch's threshold_backward(grad, result, 0): zero
// where result <= 0, grad elsewhere, so a NaN input passes its gradient
// (expected values: PyTorch 1.13, relu and relu_ of f32 and f64).
func TestReluGradAtNaN(t *testing.T) {
	pre := "x = tensor([-1.0, -0.0, 0.0, 0.5, nan], requires_grad=true)\n"
	want := "[0.0, 0.0, 0.0, 1.0, 1.0]"
	checkPrints(t, []printCase{
		{pre + "x.relu().sum().backward()\nprint(x.grad.tolist())", want},
		{pre + "y = x * 1\ny.relu_()\ny.sum().backward()\nprint(x.grad.tolist())", want},
		{pre + "nn.relu(x.double()).sum().backward()\nprint(x.grad.tolist())", want},
		{pre + "g = ones(5, requires_grad=true)\ngx = grad(x) { (x.relu() * g).sum() }\nprint(gx.tolist())", want},
	})
}
