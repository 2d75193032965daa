package stdlib_test

import "testing"

// Regressions from the session-11 "new user" pass over LANGUAGE.md: programs
// a test author would write, checked against PyTorch 1.13 / CPython 3.11
// (testdata/acc/s11_*.cases hold the differential twins).

// A tensor's shape stands for a torch.Size: it is a list (it prints as
// [2, 3]) that also equals a tuple of the same ints, so the common
// `x.shape == (2, 3)` holds as in PyTorch; a plain list still never equals a
// tuple.
func TestShapeEqualsTuple(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(2, 3); print(x.shape == (2, 3), (2, 3) == x.shape, x.size() == (2, 3), x.shape != (2, 3), x.shape == (3, 2))`, "true true true false false"},
		{`x = zeros(2, 3); print(x.shape == [2, 3], x.shape, x.size(), [2, 3] == (2, 3), x.shape[0] == 2)`, "true [2, 3] [2, 3] false true"},
		{`x = zeros(4); assert x.shape == (4,), "shape"; print(tensor(1.0).shape == ())`, "true"},
		{`x = zeros(2, 3, 4); print(x.shape[1:] == (3, 4), x.shape[1:], [2, 3][1:] == (3,))`, "true [3, 4] false"},
	})
}

// int() and float() of an unsupported type carry CPython 3.11's texts.
func TestIntFloatTypeErrorTexts(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`int([1])`), "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'"},
		{catchOf(`float([1])`), "TypeError: float() argument must be a string or a real number, not 'list'"},
	})
}

// Float ** rounds as CPython's (glibc's pow), not as Go's math.Pow, which
// is one ulp off for about a fifth of ordinary arguments; logspace uses the
// same pow and ATen's conversions of start and end to the dtype.
func TestFloatPowLogspaceDigits(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(1.1 ** 2.2, 1.6 ** -17, 7.0 ** 19, 2 ** -3, 1.05 ** 30)`, "1.2332863005546628 0.0003388131789017198 1.1398895185373144e+16 0.125 4.321942375150668"},
		{`print(logspace(0, 2, 5, dtype=f64).tolist(), logspace(2.431, 12.631, 3).tolist(), logspace(2.438, 13.438, 1).tolist())`,
			"[1.0, 3.1622776601683795, 10.0, 31.622776601683793, 100.0] [269.77392578125, 33962500.0, 4275624476672.0] [274.15740966796875]"},
	})
}

// arange in f16/bf16 computes as ATen's kernel (float accumulation, 16-lane
// blocks from a rounded base, lanes base + j*step unfused).
func TestArangeHalfValues(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(arange(-1.777, 18.023, 0.3, dtype=bf16)[12:18].tolist(), arange(3.7, 22.5, 0.32, dtype=f16)[6:9].tolist())`,
			"[1.828125, 2.125, 2.421875, 2.71875, 3.015625, 3.3125] [5.62109375, 5.9375, 6.2578125]"},
	})
}

// A zero slice step is Python's ValueError; a negative one PyTorch's.
func TestTensorSliceStepErrors(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = arange(5)` + "\n" + catchOf(`x[::0]`) + "\n" + catchOf(`x[::-1]`) + "\n" + catchOf(`x[::0] = 1`),
			"ValueError: slice step cannot be zero\nValueError: step must be greater than zero\nValueError: slice step cannot be zero"},
	})
}

// set_printoptions is torch.set_printoptions, per interpreter: a later
// program (a fresh interpreter) prints with PyTorch's defaults again.
func TestSetPrintOptions(t *testing.T) {
	checkPrints(t, []printCase{
		{`set_printoptions(precision=2); print(tensor([3.14159, 2.5]), tensor([1e-5, 1.0]))`, "tensor([3.14, 2.50]) tensor([1.00e-05, 1.00e+00])"},
		{`print(tensor([3.14159, 2.5]))`, "tensor([3.1416, 2.5000])"},
		{`set_printoptions(sci_mode=false); print(tensor([1e-5, 1.0])); set_printoptions(); print(tensor([1e-5, 1.0]))`, "tensor([    0.0000,     1.0000])\ntensor([1.0000e-05, 1.0000e+00])"},
		{`set_printoptions(threshold=5, edgeitems=2); print(arange(10)); set_printoptions(profile="full"); print(arange(1001)[-2:])`, "tensor([0, 1,  ..., 8, 9])\ntensor([ 999, 1000])"},
		{`set_printoptions(linewidth=30, precision=1); print(arange(10.0) + 0.5)`, "tensor([0.5, 1.5, 2.5, 3.5,\n        4.5, 5.5, 6.5, 7.5,\n        8.5, 9.5])"},
		{catchOf(`set_printoptions(profile="long")`), "ValueError: set_printoptions: unknown profile 'long' (expected 'default', 'short' or 'full')"},
		{catchOf(`set_printoptions(precision="2")`), "TypeError: set_printoptions: precision must be an int, not 'str'"},
	})
}

// sigmoid is PyTorch's 1/(1+exp(-x)) with SLEEF's exp, bit for bit (values
// from torch 1.13: torch.sigmoid(x).tolist()), on both the vector path (a
// long tensor) and the per-element path (a strided view).
func TestSigmoidTorchBits(t *testing.T) {
	const want = "[0.22270013391971588, 0.09112296253442764, 0.024127019569277763, 0.0073915403336286545, 0.5249791741371155, 3.006635794144578e-39, 0.0]"
	checkPrints(t, []printCase{
		{`x = tensor([-1.25, -2.3, -3.7, -4.9, 0.1, -88.7, -100.0]); print(x.sigmoid().tolist()); print(nn.sigmoid(stack([x, x], 1)[:, 0]).tolist())`, want + "\n" + want},
		{`print(tensor([-1.25, 0.7], dtype=f64).sigmoid().tolist())`, "[0.22270013882530884, 0.6681877721681662]"},
	})
}

// norm (p=2) over a trailing dim sums squares in PyTorch 1.13's order (f32:
// 8 fused float lanes then an unfused tail; f64: fused, in order), so
// .item() and .tolist() print PyTorch's digits (values from torch 1.13).
func TestNormTorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = arange(1, 70, dtype=f32) / 7 - 3.3; y = x.reshape(3, 23).double()
print(x.norm().item(), linalg.vector_norm(x).item(), x.reshape(3, 23).norm(dim=1).tolist())
print(y.norm().item(), y.norm(dim=1).tolist(), linalg.matrix_norm(x.reshape(3, 23)).item())`,
			"27.531463623046875 27.531463623046875 [8.859251022338867, 9.33397388458252, 24.33869171142578]\n27.531462096920116 [8.85925064597734, 9.333973662774126, 24.33869386077523] 27.531463623046875"},
	})
}

// softmax, log_softmax, logsumexp and cross_entropy compute in PyTorch
// 1.13's order (vec::reduce_all lanes, at::sum's cascade, SLEEF's log,
// nll_loss's cascade), so .item() and .tolist() print PyTorch's digits.
func TestSoftmaxFamilyTorchBits(t *testing.T) {
	const xs = "x = (arange(1, 46, dtype=f32) * 0.37 % 5 - 2).reshape(5, 9); y = tensor([0, 8, 3, 3, 1]); d = x.double()\n"
	checkPrints(t, []printCase{
		{xs + `print(nn.cross_entropy(x, y).item(), nn.cross_entropy(x, y, weight=arange(1, 10) / 4.0, reduction="sum").item(), nn.log_softmax(x, 1)[1].tolist()[:3], logsumexp(x, 1).tolist()[:2])`,
			"3.1766433715820312 17.098600387573242 [-2.070950984954834, -1.7009508609771729, -1.3309509754180908] [2.4671053886413574, 3.7709507942199707]"},
		{xs + `print(nn.softmax(d, -1)[0].tolist()[:3], nn.log_softmax(d, 1)[2].tolist()[:2], nn.cross_entropy(d, y).item())`,
			"[0.016620719104490023, 0.02406239048290464, 0.03483595577975717] [-4.097104956640763, -3.727105071081681] 3.1766433625185106"},
	})
}

// var/std follow PyTorch 1.13's CPU algorithms: one output element is
// std_var_all_cpu (torch's mean, then Σ (x - mean)² in float64); several
// are WelfordOps (f64 bits differ otherwise). Values from torch 1.13.
func TestVarStdTorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = (arange(1, 61, dtype=f64) * 0.37 % 5 - 2).reshape(4, 15)
print(x.var().item(), x.std().item(), x.var(1).tolist()[:2], x.std(0).tolist()[:2], x.float().std().item(), x.std(1, unbiased=false).tolist()[:1])`,
			"2.097437853107345 1.4482533801470463 [2.39752380952381, 2.2665714285714285] [0.710046946804693, 0.7100469468046933] 1.4482533931732178 [1.495890667424892]"},
	})
}

// f64 log is SLEEF's log_u10, as torch.log (values from torch 1.13).
func TestLogF64TorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor([0.1, 2.5, 7.77, 123.456, 1e-300], dtype=f64).log().tolist())`, "[-2.3025850929940455, 0.9162907318741551, 2.050270164379556, 4.815884817283264, -690.7755278982137]"},
	})
}

// prod of a contiguous row multiplies in ATen's vectorised order (values
// from torch 1.13).
func TestProdTorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = 1 + (arange(1, 80, dtype=f32) * 0.37 % 5 - 2) / 40
print(x.prod().item(), x.double().prod().item(), x.reshape(1, 79)[:, :40].prod(1).tolist())`, "2.651596784591675 2.6515968885157877 [1.7439544200897217]"},
	})
}

// norm over a non-trailing dim (or a strided view) fuses the squares into
// the sum in order, in the tensor's dtype, as PyTorch's generic kernel.
func TestNormOuterDimTorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = (arange(1, 61, dtype=f32) * 0.37 % 5 - 2).reshape(4, 15)
print(x.norm(dim=0).tolist()[:3], x.double().norm(dim=0).tolist()[:2], x.t().norm(dim=1).tolist()[:2])`,
			"[2.0259811878204346, 1.5064526796340942, 1.2366892099380493] [2.0259811339004328, 1.5064526229636834] [2.0259811878204346, 1.5064526796340942]"},
	})
}

// sigmoid's last n mod 2V elements go through ATen's scalar loop (libm's
// exp), the rest through the vector loop (SLEEF's exp): the same value can
// round differently in the two (values from torch 1.13).
func TestSigmoidTailTorchBits(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-0.48, 2.6423, -2.59] * 6); r = x.sigmoid().tolist(); print(r[:3], r[15:])`,
			"[0.38225212693214417, 0.9335348606109619, 0.06978478282690048] [0.38225212693214417, 0.9335347414016724, 0.06978479027748108]"},
		{`d = tensor([-0.341, -3.0679, -0.428] * 3, dtype=f64); print(d.sigmoid().tolist()[6:])`,
			"[0.415566585578147, 0.04445093991993305, 0.3946040140896794]"},
	})
}

// nll_loss on [N, C] or [C] log-probabilities is the node cross_entropy
// ends in, so nll_loss(log_softmax(x, 1), t) is cross_entropy(x, t) bit for
// bit as in PyTorch (it was a one-hot product summed in another order: the
// last bit differed for about half of random inputs), for every reduction,
// with class weights and ignore_index, and with or without autograd.
func TestNLLLossIsCrossEntropysNode(t *testing.T) {
	prog := `
manual_seed(3)
bad = 0
for i in range(40) {
    x = randn(7, 13, dtype=[f32, f64][i % 2])
    t = randint(0, 13, [7])
    w = rand(13, dtype=x.dtype)
    for red in ["mean", "sum", "none"] {
        a = nn.cross_entropy(x, t, reduction=red, weight=w, ignore_index=3)
        b = nn.nll_loss(nn.log_softmax(x, 1), t, reduction=red, weight=w, ignore_index=3)
        c = nn.nll_loss(nn.log_softmax(x.requires_grad_(), 1), t, reduction=red)
        d = nn.cross_entropy(x, t, reduction=red)
        x = x.detach()
        if not equal(a, b) or not equal(c.detach(), d.detach()) { bad += 1 }
    }
}
print(bad, nn.nll_loss(nn.log_softmax(randn(5, requires_grad=true), 0), tensor(2)).grad_fn)
`
	checkPrints(t, []printCase{{prog, "0 <NllLossBackward0>"}})
}
