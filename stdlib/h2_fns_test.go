package stdlib_test

import "testing"

// nanmedian, cumulative_trapezoid, histogram and the nn functions of
// nn_h2.go (cosine_similarity, pairwise_distance, smooth_l1_loss,
// huber_loss, kl_div, soft_margin_loss and the activations) against
// PyTorch 1.13 through testdata/gen_h2_fns.py (testdata/h2_fns.json):
// values, dtypes, shapes, strides, gradients, grad_fn names and errors;
// and the gradients against central finite differences.

func loadH2Fns(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/h2_fns.json", 133, 25, 28)
}

func TestH2FnsGolden(t *testing.T) { checkTorchCases(t, loadH2Fns(t)) }
func TestH2FnsGradFn(t *testing.T) { checkTorchGradFns(t, loadH2Fns(t)) }
func TestH2FnsErrors(t *testing.T) { checkTorchErrors(t, loadH2Fns(t)) }

// TestH2FnsFiniteDifference checks the analytic gradients against central
// differences (points away from the kinks of the piecewise functions).
func TestH2FnsFiniteDifference(t *testing.T) {
	a := fdLeaf{"a", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}
	b := fdLeaf{"b", "2, 3", []float64{0.8, -2.1, 0.6, 1.1, 0.25, -0.4}}
	v := fdLeaf{"v", "3", []float64{0.5, 1.5, 3.25}}
	x := fdLeaf{"x", "2, 4", []float64{-4.1, -2.2, -0.6, -0.1, 0.2, 0.7, 2.6, 3.3}}
	checkFiniteDifferences(t, []fdCase{
		{"nanmedian(a, 1).values", []fdLeaf{a}},
		{"nanmedian(a)", []fdLeaf{a}},
		{"cumulative_trapezoid(a, v)", []fdLeaf{a, v}},
		{"cumulative_trapezoid(a, dx=0.3, dim=0)", []fdLeaf{a}},
		{"nn.cosine_similarity(a, b)", []fdLeaf{a, b}},
		{"nn.pairwise_distance(a, b, p=3.)", []fdLeaf{a, b}},
		{"nn.smooth_l1_loss(a, b, beta=0.9)", []fdLeaf{a, b}},
		{"nn.huber_loss(a, b, delta=0.8)", []fdLeaf{a, b}},
		{"nn.kl_div(a, b.abs(), reduction=\"batchmean\")", []fdLeaf{a, b}},
		{"nn.kl_div(a, b, log_target=true)", []fdLeaf{a, b}},
		{"nn.soft_margin_loss(a, b)", []fdLeaf{a, b}},
		{"nn.logsigmoid(x)", []fdLeaf{x}},
		{"nn.hardsigmoid(x)", []fdLeaf{x}},
		{"nn.hardswish(x)", []fdLeaf{x}},
		{"nn.selu(x)", []fdLeaf{x}},
		{"nn.celu(x, 0.6)", []fdLeaf{x}},
		{"nn.softshrink(x, 0.4)", []fdLeaf{x}},
		{"nn.hardshrink(x, 0.4)", []fdLeaf{x}},
		{"nn.threshold(x, 0.3, 2.)", []fdLeaf{x}},
		{"nn.softsign(x)", []fdLeaf{x}},
		{"nn.tanhshrink(x)", []fdLeaf{x}},
		{"nn.softmin(x, 1)", []fdLeaf{x}},
		{"nn.glu(x)", []fdLeaf{x}},
	})
}

// TestH2FnsProgram runs the new functions as a user would write them
// (outputs from PyTorch 1.13).
func TestH2FnsProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([[nan, 2., 1.], [3., nan, nan]])
print(x.nanmedian(1))
print(nanmedian(x))`, "nanmedian(values=tensor([1., 3.]), indices=tensor([2, 0]))\ntensor(2.)"},
		{`h = histogram(tensor([1., 2., 1., 4., 2.5]), 3)
print(h.hist, h.bin_edges)`, "tensor([2., 2., 1.]) tensor([1., 2., 3., 4.])"},
		{`print(cumulative_trapezoid(tensor([1., 2., 4., 7.])))`, "tensor([ 1.5000,  4.5000, 10.0000])"},
	})
}
