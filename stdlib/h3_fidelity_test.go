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
