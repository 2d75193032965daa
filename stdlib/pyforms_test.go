package stdlib_test

import "testing"

// TestPythonFormsWithTensors checks comprehensions, conditional
// expressions and `is` over tensors and gradient blocks. Each expected
// output is PyTorch 1.13's for the program in the comment (with
// torch.autograd.grad for a grad block, and shapes printed as tsr's lists).
func TestPythonFormsWithTensors(t *testing.T) {
	checkPrints(t, []printCase{
		// ws = [torch.tensor(v, requires_grad=True) for v in (1., 2., 3.)]
		// print([torch.autograd.grad(w * w * 3, w)[0].item() for w in ws])
		{`ws = [tensor(v, requires_grad=true) for v in [1.0, 2.0, 3.0]]
print([g.item() for g in [grad(w) { w * w * 3 } for w in ws]])`,
			"[6.0, 12.0, 18.0]"},
		// a grad block's names bind in the comprehension's scope, not the
		// function's (y is then a global there: NameError, as Python's)
		{`fn f(ws) {
    gs = [grad(w) { y = w ** 3; y.sum() } for w in ws]
    try { y } catch e { print(e.kind) }
    gs
}
print([g.tolist() for g in f([tensor([1.0, 2.0], requires_grad=true)])])`,
			"NameError\n[[3.0, 12.0]]"},
		// w = torch.tensor([1., 2., 3.], requires_grad=True)
		// print(torch.autograd.grad(sum([w[i] * i for i in range(3)]), w)[0])
		{`w = tensor([1.0, 2.0, 3.0], requires_grad=true)
print(grad(w) { sum([w[i] * i for i in range(3)]) })`,
			"tensor([0., 1., 2.])"},
		// value_and_grad inside a dict comprehension
		{`ps = {"a": tensor(2.0, requires_grad=true), "b": tensor(-1.0, requires_grad=true)}
r = {k: value_and_grad(p) { p * p * p } for k, p in ps.items()}
print({k: [v[0].item(), v[1].item()] for k, v in r.items()})`,
			"{'a': [8.0, 12.0], 'b': [-1.0, 3.0]}"},
		// iteration over a tensor's dim 0; torch.arange(6.).reshape(2, 3)
		{`print([r.sum().item() for r in arange(6, dtype=f32).reshape(2, 3)], {i: t.shape for i, t in enumerate([zeros(2, 3), ones(4)])})`,
			"[3.0, 12.0] {0: [2, 3], 1: [4]}"},
		// x = torch.tensor([1.], requires_grad=True); (x * 2).sum().backward()
		// print(x.grad is x.grad, x is x, x is x.detach(), x.grad is not None, x.grad is x)
		{`x = tensor([1.0], requires_grad=true)
(x * 2).sum().backward()
print(x.grad is x.grad, x is x, x is x.detach(), x.grad is not none, x.grad is x)`,
			"true true false true false"},
		// conditional expressions choose a tensor; only the branch taken runs
		{`x = tensor([1.0, -2.0])
print(x if x.sum() > 0 else -x, (x * 2).tolist() if x[0] > 0 else error("ValueError", "not evaluated"))`,
			"tensor([-1.,  2.]) [2.0, -4.0]"},
	})
}
