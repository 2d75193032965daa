package stdlib_test

import "testing"

// Python numbers as op arguments against PyTorch 1.13 through
// testdata/gen_scalar_args_torch.py (testdata/scalar_args_torch.json):
// add/sub's alpha= (int results wrap, float ones do not; float and bool
// alphas checked against the result dtype) and c10's overflow check when a
// number is converted to f16/bf16/f32 or an integer dtype (where, pow,
// fill_, full, masked_fill, index_fill, scatter, linspace, clamp), next to
// the ops that give inf instead.

func loadScalarArgsTorch(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/scalar_args_torch.json", 60, 1, 60)
}

func TestScalarArgsTorchGolden(t *testing.T) { checkTorchCases(t, loadScalarArgsTorch(t)) }
func TestScalarArgsTorchGradFn(t *testing.T) { checkTorchGradFns(t, loadScalarArgsTorch(t)) }
func TestScalarArgsTorchErrors(t *testing.T) { checkTorchErrors(t, loadScalarArgsTorch(t)) }
