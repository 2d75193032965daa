package stdlib_test

import "testing"

// nn.interpolate / upsample, nn.pad's reflect/replicate/circular modes,
// Conv padding_mode and padding="same", ConvTranspose1d/2d, Upsample,
// Unflatten and the containers against PyTorch 1.13 through
// testdata/gen_widen_nn.py (testdata/widen_nn.json): values, gradients,
// grad_fn names and errors; and the gradients against central finite
// differences.

func loadWidenNN(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/widen_nn.json", 76, 12, 36)
}

func TestWidenNNGolden(t *testing.T) { checkTorchCases(t, loadWidenNN(t)) }
func TestWidenNNGradFn(t *testing.T) { checkTorchGradFns(t, loadWidenNN(t)) }
func TestWidenNNErrors(t *testing.T) { checkTorchErrors(t, loadWidenNN(t)) }

// TestWidenNNFiniteDifference checks the resampling backwards against
// central differences (f64).
func TestWidenNNFiniteDifference(t *testing.T) {
	x := fdLeaf{"x", "1, 1, 2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}
	v := fdLeaf{"v", "1, 2, 3", []float64{0.5, -1.5, 2, 0.25, 1.1, -0.4}}
	checkFiniteDifferences(t, []fdCase{
		{`nn.interpolate(x, size=(3, 5), mode="bilinear")`, []fdLeaf{x}},
		{`nn.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=true)`, []fdLeaf{x}},
		{`nn.interpolate(x, size=(5, 2))`, []fdLeaf{x}},
		{`nn.interpolate(v, size=7, mode="linear")`, []fdLeaf{v}},
		{`nn.pad(x, (2, 1, 1, 0), mode="reflect")`, []fdLeaf{x}},
		{`nn.pad(v, (3, 2), mode="replicate")`, []fdLeaf{v}},
		{`nn.pad(x, (3, 1, 1, 2), mode="circular")`, []fdLeaf{x}},
	})
}
