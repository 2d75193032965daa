package stdlib_test

import "testing"

// Fidelity checks written as a PyTorch user would write them from
// LANGUAGE.md; each want is what PyTorch 1.13 / CPython 3.11 prints for the
// equivalent Python program (spec spellings: true/false/none, short dtypes).

// Factories given requires_grad=true on an integer dtype use PyTorch's
// factory wording; requires_grad_() keeps its own (lower-case) wording.
func TestH3RequiresGradIntMessages(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`tensor([1, 2], requires_grad=true)`), "RuntimeError: Only Tensors of floating point and complex dtype can require gradients"},
		{catchOf(`zeros(2, dtype=i64, requires_grad=true)`), "RuntimeError: Only Tensors of floating point and complex dtype can require gradients"},
		{catchOf(`arange(3, requires_grad=true)`), "RuntimeError: Only Tensors of floating point and complex dtype can require gradients"},
		{catchOf(`tensor([1]).requires_grad_()`), "RuntimeError: only Tensors of floating point dtype can require gradients"},
	})
}

// nn.cross_entropy with class indices whose batch size differs from the
// input's raises PyTorch's ValueError (as nn.nll_loss already did).
func TestH3CrossEntropyBatchMismatch(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`nn.cross_entropy(ones(2, 3), tensor([0, 1, 2]))`), "ValueError: Expected input batch_size (2) to match target batch_size (3)."},
		{catchOf(`nn.cross_entropy(ones(2, 3, 4), tensor([[0, 1, 2]]))`), "ValueError: Expected input batch_size (2) to match target batch_size (1)."},
	})
}

// nn.cross_entropy's grad_fn is PyTorch's last node: NllLossBackward0 for
// class indices, AddBackward0 with label_smoothing, and for class
// probabilities DivBackward1 ("mean") or NegBackward0 ("sum", "none").
func TestH3CrossEntropyGradFn(t *testing.T) {
	const x = `x = tensor([[0.5, 1.5, -1.0], [2.0, 0.0, 0.3]], requires_grad=true); t = tensor([2, 0]); p = nn.softmax(ones(2, 3), 1); w = tensor([0.5, 1.0, 2.0]); `
	checkPrints(t, []printCase{
		{x + `print(nn.cross_entropy(x, t).grad_fn, nn.cross_entropy(x, t, reduction="none", weight=w).grad_fn)`, "<NllLossBackward0> <NllLossBackward0>"},
		{x + `l = nn.cross_entropy(x, t, label_smoothing=0.2, weight=w); l.backward(); print(l); print(x.grad)`,
			"tensor(2.2331, grad_fn=<AddBackward0>)\ntensor([[ 0.1727,  0.4791, -0.6518],\n        [ 0.0189, -0.0007, -0.0182]])"},
		{x + `print(nn.cross_entropy(x, t, label_smoothing=0.2, reduction="sum").grad_fn, nn.cross_entropy(x, t, label_smoothing=0.1, reduction="none").grad_fn)`, "<AddBackward0> <AddBackward0>"},
		{x + `print(nn.cross_entropy(x, p).grad_fn, nn.cross_entropy(x, p, reduction="sum").grad_fn, nn.cross_entropy(x, p, reduction="none", label_smoothing=0.2).grad_fn)`, "<DivBackward1> <NegBackward0> <NegBackward0>"},
	})
}

// nn.relu takes torch.nn.functional.relu's inplace= (relu_ on the input).
func TestH3NNReluInplace(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-1.0, 2.0]); y = nn.relu(x, inplace=true); print(x, x._version, y)`, "tensor([0., 2.]) 1 tensor([0., 2.])"},
		{`x = tensor([-1.0, 2.0]); print(nn.relu(x, inplace=false), x, nn.relu(input=tensor([-3, 3])))`, "tensor([0., 2.]) tensor([-1.,  2.]) tensor([0, 3])"},
		{catchOf(`nn.relu(tensor([1.0], requires_grad=true), inplace=true)`), "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."},
	})
}

// A layer's parameters print as torch.nn.Parameter's repr ("Parameter
// containing:" on its own line); tensors computed from them, detach() and
// .data are plain tensors.
func TestH3ParameterRepr(t *testing.T) {
	checkPrints(t, []printCase{
		{`manual_seed(0); l = nn.Linear(3, 2); print(l.weight); print(l.bias)`,
			"Parameter containing:\ntensor([[-0.0043,  0.3097, -0.4752],\n        [-0.4249, -0.2224,  0.1548]], requires_grad=true)\nParameter containing:\ntensor([-0.0114,  0.4578], requires_grad=true)"},
		{`manual_seed(0); l = nn.Linear(3, 2); print([l.bias]); print(f"{l.parameters()[1]}")`,
			"[Parameter containing:\ntensor([-0.0114,  0.4578], requires_grad=true)]\nParameter containing:\ntensor([-0.0114,  0.4578], requires_grad=true)"},
		{`manual_seed(0); l = nn.Linear(3, 2); print(l.bias * 1); print(l.bias.detach(), l.bias.data, l.bias[0])`,
			"tensor([-0.0114,  0.4578], grad_fn=<MulBackward0>)\ntensor([-0.0114,  0.4578]) tensor([-0.0114,  0.4578]) tensor(-0.0114, grad_fn=<SelectBackward0>)"},
	})
}
