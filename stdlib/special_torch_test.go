package stdlib_test

import "testing"

// The special module, polygamma, and nn.binary_cross_entropy's result
// layout against PyTorch 1.13 through testdata/gen_special_torch.py
// (testdata/special_torch.json): values, dtypes, shapes, strides,
// gradients, grad_fn names and errors.

func loadSpecialTorch(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/special_torch.json", 8, 1, 0)
}

func TestSpecialTorchGolden(t *testing.T) { checkTorchCases(t, loadSpecialTorch(t)) }
func TestSpecialTorchGradFn(t *testing.T) { checkTorchGradFns(t, loadSpecialTorch(t)) }
func TestSpecialTorchErrors(t *testing.T) { checkTorchErrors(t, loadSpecialTorch(t)) }
