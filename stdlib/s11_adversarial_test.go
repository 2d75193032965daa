package stdlib_test

import (
	"encoding/json"
	"os"
	"testing"
)

// Regressions from the session-11 adversarial-user pass (helper h8),
// checked against PyTorch 1.13 / CPython 3.11.

// torch.Size arithmetic: Size + tuple and Size * n are Sizes (so
// `x.shape[:-1] + (n,)` builds a shape), tuple + Size is a tuple, and a
// Size orders against a tuple.
func TestShapePlusTuple(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(2, 3, 4); s = x.shape[:-1] + (5,); print(s, s == (2, 3, 5), zeros(s).shape)`, "[2, 3, 5] true [2, 3, 5]"},
		{`x = zeros(2, 3); print((1,) + x.shape, x.shape * 2 == (2, 3, 2, 3), 2 * x.shape == (2, 3, 2, 3), x.shape + [1])`, "(1, 2, 3) true true [2, 3, 1]"},
		{`x = zeros(2, 3); print(x.shape < (3,), (3,) > x.shape, x.shape >= (2, 3))`, "true true true"},
		{`x = zeros(2, 3)` + "\n" + catchOf(`x.shape + 1`) + "\n" + catchOf(`[2, 3] + (1,)`),
			"TypeError: can only concatenate list (not \"int\") to list\nTypeError: can only concatenate list (not \"tuple\") to list"},
	})
}

// del pd[key] of an absent key is torch's KeyError (its __delitem__ deletes
// from _keys first); pop and del pd.attr keep the AttributeError.
func TestParameterDictDelMissingKey(t *testing.T) {
	checkPrints(t, []printCase{
		{`pd = nn.ParameterDict({"a": nn.Parameter(ones(2))})` + "\n" + catchOf(`del pd["zz"]`) + "\n" + catchOf(`del pd[3]`) + "\n" +
			catchOf(`pd.pop("zz")`) + "\n" + catchOf(`del pd.zz`) + "\n" + `del pd["a"]; print(len(pd))`,
			"KeyError: 'zz'\nKeyError: 3\nAttributeError: 'ParameterDict' object has no attribute 'zz'\nAttributeError: 'ParameterDict' object has no attribute 'zz'\n0"},
	})
}

// Cosine schedules evaluate cos as CPython's math.cos (xmath.Cos): Go's
// math.Cos put OneCycleLR's fourth lr and CosineAnnealingLR's sixth and
// seventh one ulp off torch 1.13's (values printed by torch).
func TestCosineScheduleDigits(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = nn.Linear(2, 2); opt = optim.SGD(m.parameters(), lr=0.1)
s = optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=5)
l = []
for i in range(5) { l.append(opt.param_groups[0]["lr"]); opt.step(); s.step() }
print(l)`, "[0.040000000000000036, 0.9504846320134737, 0.6112620219362893, 0.18825834605023697, 4e-06]"},
		{`m = nn.Linear(2, 2); opt = optim.SGD(m.parameters(), lr=0.1)
s = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=7, eta_min=0.001)
l = []
for i in range(8) { l.append(opt.param_groups[0]["lr"]); opt.step(); s.step() }
print(l)`, "[0.1, 0.09509795896116975, 0.08136274519200731, 0.061514786230837566, 0.03948521376916245, 0.019637254807992697, 0.005902041038830259, 0.001]"},
	})
}

// norm(p=2) of a transposed or permuted tensor over its memory-inner dims
// reduces the same rows as the contiguous tensor (TensorIterator reorders
// the reduction), so x.t().norm(dim=0) has x.norm(dim=1)'s bits, as in
// PyTorch 1.13 (values printed by torch).
func TestNormPermutedRows(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = (((arange(210) * 7919) % 1000) / 37.0 - 13.0).reshape(3, 70)
print(x.t().norm(dim=0).tolist(), x.t().norm(dim=0, keepdim=true).shape)`, "[65.26898193359375, 66.96430206298828, 63.75053405761719] [1, 3]"},
		{`z = (((arange(120) * 7919) % 1000) / 37.0 - 13.0).reshape(4, 5, 6)
print(z.permute(1, 2, 0).norm(dim=[0, 1]).tolist(), z.permute(2, 1, 0).norm(dim=[0, 1]).tolist(), z.permute(2, 1, 0).norm(dim=0, keepdim=true).shape)`,
			"[44.65806198120117, 39.78718948364258, 46.02580642700195, 39.7302360534668] [44.65806198120117, 39.78718948364258, 46.02580642700195, 39.7302360534668] [1, 5, 4]"},
	})
}

// softmax / log_softmax over a non-last dim with fewer columns than a
// vector holds (inner < 8 f32, < 4 f64) are PyTorch 1.13's scalar column
// loop bit for bit (libm exp, in-order sum in the dtype, divide; log_softmax
// (x - max) - log(sum)); torch goldens from testdata/gen_softmax_cols.py.
func TestSoftmaxShortColumnsTorchBits(t *testing.T) {
	b, err := os.ReadFile("testdata/softmax_cols.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, Src, Want string }
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { checkPrints(t, []printCase{{c.Src, c.Want}}) })
	}
}

// Second derivatives at the kinks as PyTorch 1.13's derivatives.yaml:
// hardswish's is 1/3 only strictly inside (-3, 3), celu's and selu's
// (elu_double_backward) only where x < 0, so all are 0 at x = ±3 and 0.
func TestActivationSecondDerivativeAtKinks(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-3.0, 3.0, 0.0, -4.0, 4.0], dtype=f64, requires_grad=true)
y = nn.functional.hardswish(x)
y.sum().backward(create_graph=true); g = x.grad; del x.grad
g.sum().backward(); print(g.tolist(), x.grad.tolist())`, "[-0.5, 1.5, 0.5, 0.0, 1.0] [0.0, 0.0, 0.3333333333333333, 0.0, 0.0]"},
		{`for f in [nn.functional.celu, nn.functional.selu] {
  x = tensor([-1.0, 1.0, 0.0], dtype=f64, requires_grad=true)
  y = f(x); y.sum().backward(create_graph=true); g = x.grad; del x.grad
  g.sum().backward(); print(x.grad.tolist())
}`, "[0.36787944117144233, 0.0, 0.0]\n[0.646768603034814, 0.0, 0.0]"},
	})
}

// nn.ParameterDict and nn.ModuleDict are mappings (keys() and m[key]) to
// {**m} and f(**m), as in Python; other non-dicts keep CPython's errors.
func TestModuleDictsUnpackAsMappings(t *testing.T) {
	checkPrints(t, []printCase{
		{`pd = nn.ParameterDict({"a": nn.Parameter(ones(1)), "b": nn.Parameter(zeros(2))})
md = nn.ModuleDict({"l": nn.Identity()})
fn f(**kw) { list(kw.keys()) }
d = {**pd, "c": 1}
print(list(d.keys()), d["b"].shape, {**md}, f(**pd), f(**md, z=1))` + "\n" + catchOf(`f(**pd, a=1)`) + "\n" + catchOf(`{**"ab"}`),
			"['a', 'b', 'c'] [2] {'l': Identity()} ['a', 'b'] ['l', 'z']\nTypeError: f() got multiple values for keyword argument 'a'\nTypeError: 'str' object is not a mapping"},
	})
}

// Reductions PyTorch walks in memory order: norm and logsumexp of rows
// that are dense but spaced apart (x[::2] over dim 1) and the one-output var of a
// transposed tensor have the contiguous tensor's bits (torch's values).
func TestReductionsInMemoryOrder(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = (((arange(148) * 7919) % 1000) / 377.0 - 1.3).reshape(4, 37)
print(x[::2].norm(dim=1).tolist(), x.double().t().var().item(), x.double().var().item())`,
			"[4.653914928436279, 4.654199123382568] 0.5894053611993159 0.5894053611993159"},
		{`x = (((arange(222) * 7919) % 1000) / 77.0 - 6.3).reshape(6, 37)
print(logsumexp(x[::2], 1).tolist())`, "[7.570551872253418, 7.648473739624023, 7.726395606994629]"},
	})
}
