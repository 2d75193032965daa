package stdlib_test

import "testing"

// TestAccumulateGradInPlace checks .grad accumulation against PyTorch
// 1.13's AccumulateGrad (outputs from the same program run in torch):
// without create_graph an existing .grad is added to in place (the same
// tensor, a reference saved before backward sees the sum, its version
// bumped once); with create_graph the sum is a new tensor and the old one
// is left alone; zero_grad(set_to_none=false) keeps the tensor, and
// set_to_none=true drops it. A first gradient becomes .grad without a
// copy only when nothing else holds it: two leaves fed the same gradient
// (x + w), a gradient a hook kept, and a user's gradient for a leaf root
// all give .grad a tensor of its own.
func TestAccumulateGradInPlace(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
(x * 2).sum().backward()
g = x.grad
v0 = g._version
(x * 3).sum().backward()
print(g is x.grad, g, x.grad._version - v0)`, "true tensor([5., 5., 5.]) 1"},
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
(x * 1).sum().backward()
g = x.grad
(x * 2).sum().backward(create_graph=true)
print(g is x.grad, g, x.grad)
g = x.grad
(x * 2).sum().backward()
print(g is x.grad, g)`, "false tensor([1., 1., 1.]) tensor([3., 3., 3.])\ntrue tensor([5., 5., 5.])"},
		// a .grad with a history of its own (create_graph) is still
		// added to in place by a plain backward
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
(x * x).sum().backward(create_graph=true)
g = x.grad
print(g.requires_grad, g.grad_fn != none)
(x * 5).sum().backward()
print(g is x.grad, g.detach())`, "true true\ntrue tensor([ 7.,  9., 11.])"},
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
opt = optim.SGD([x], lr=0.1)
(x * 3).sum().backward()
g = x.grad
opt.zero_grad(set_to_none=false)
print(g is x.grad, g)
(x * 2).sum().backward()
print(g is x.grad, g)
opt.zero_grad(set_to_none=true)
print(x.grad, g)
(x * 2).sum().backward()
print(x.grad, x.grad is g)`, "true tensor([0., 0., 0.])\ntrue tensor([2., 2., 2.])\nnone tensor([2., 2., 2.])\ntensor([2., 2., 2.]) false"},
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
w = tensor([1.0, 1.0, 1.0], requires_grad=true)
(x + w).sum().backward()
x.grad.add_(1)
print(x.grad is w.grad, x.grad, w.grad)`, "false tensor([2., 2., 2.]) tensor([1., 1., 1.])"},
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
saved = []
h = x.register_hook(fn(t) { saved.append(t) })
(x * 4).sum().backward()
print(saved[0] is x.grad)
x.grad.zero_()
print(saved[0], x.grad)`, "false\ntensor([4., 4., 4.]) tensor([0., 0., 0.])"},
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
gr = ones(3)
x.backward(gr)
print(x.grad is gr)
gr.add_(1)
print(x.grad)`, "false\ntensor([1., 1., 1.])"},
		// the engine's in-place input buffers and recycled temporaries
		// leave values alone: a tensor used twice, a retained gradient
		// and repeated steps
		{`x = tensor([1.0, 2.0, 3.0], requires_grad=true)
for i in range(3) {
  y = x * 2
  y.retain_grad()
  z = (y * x + y * 3 + (x * x).exp().log()).sum()
  z.backward()
}
print(x.grad, y.grad)`, "tensor([36., 54., 72.]) tensor([4., 5., 6.])"},
	})
}
