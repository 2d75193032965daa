package stdlib_test

import "testing"

// Regressions found by testing tsr as a new user reading LANGUAGE.md
// literally; each want is what Python 3 / PyTorch 1.13 prints for the same
// program (with tsr's spelling: true/false/none, short dtype names).

// f"{expr=}" is Python 3.8's self-documenting field: the expression's text
// (spaces kept), "=", then the value's repr, or the value formatted with the
// spec or conversion when one is given. "==", "!=", "<=", ">=" at the end of
// a field stay comparisons.
func TestFStringSelfDocumenting(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = 5; y = 2.5; s = "a"; print(f"{x=} {y = :.2f} {s=} {s=!s} {x + 1=}")`, "x=5 y = 2.50 s='a' s=a x + 1=6"},
		{`x = 5; print(f"{x==5} {x!=4} {x >= 2} {x<=1}|{x=:>4}|")`, "true true true false|x=   5|"},
		{`v = [1, "b"]; print(f"{v=}, {len(v) = }")`, "v=[1, 'b'], len(v) = 2"},
	})
}

// mode, msort, dist, isin, cov and corrcoef were missing; the wants are
// PyTorch 1.13's (testdata/gen_h1_stats.py), named tuples on one line.
func TestStatsOps(t *testing.T) {
	const x = "x = tensor([[1., 2, 4], [2, 3, 9.]])\n"
	checkPrints(t, []printCase{
		{`print(tensor([1, 2, 2, 3, 3]).mode())`, "mode(values=tensor(2), indices=tensor(2))"},
		{`print(tensor([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]]).mode(1))`, "mode(values=tensor([1., 4.]), indices=tensor([3, 4]))"},
		{`print(tensor([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]]).mode(0, keepdim=true))`,
			"mode(values=tensor([[3., 1., 3., 1., 2.]]), indices=tensor([[0, 0, 0, 0, 0]]))"},
		{`print(tensor([2., nan, nan]).mode(), tensor(5.).mode(), mode(tensor([true, false, false]), dim=0))`,
			"mode(values=tensor(2.), indices=tensor(0)) mode(values=tensor(5.), indices=tensor(0)) mode(values=tensor(false), indices=tensor(2))"},
		{`w = tensor([1.0, 5.0, 5.0, 2.0], requires_grad=true); r = w.mode(); r.values.backward(); print(r.values, w.grad)`,
			"tensor(5., grad_fn=<ModeBackward0>) tensor([0., 0., 1., 0.])"},
		{catchOf(`zeros(0).mode()`), "IndexError: mode(): Expected reduction dim 0 to have non-zero size."},
		{`print(isin(tensor([1, 2, 3, 4]), tensor([2, 4])), isin(tensor([1., 2]), 2.0), isin(tensor([1, 2]), tensor([2]), invert=true), isin(tensor([1, 2]), tensor([2.0])), isin(2, tensor([1, 2])))`,
			"tensor([false,  true, false,  true]) tensor([false,  true]) tensor([ true, false]) tensor([false,  true]) tensor(true)"},
		{x + `print(cov(x), corrcoef(x), x.cov(correction=0))`,
			"tensor([[ 2.3333,  5.6667],\n        [ 5.6667, 14.3333]]) tensor([[1.0000, 0.9799],\n        [0.9799, 1.0000]]) tensor([[1.5556, 3.7778],\n        [3.7778, 9.5556]])"},
		{`print(cov(tensor([1., 2, 4])), cov(tensor([1, 2, 4])), corrcoef(tensor([1., 2, 4])))`, "tensor(2.3333) tensor(2.3333) tensor(1.)"},
		{x + `print(cov(x, fweights=tensor([1, 2, 1]), aweights=tensor([0.5, 1, 1])))`, "tensor([[ 1.5000,  3.9444],\n        [ 3.9444, 10.8333]])"},
		{x + `print(cov(x, aweights=tensor([0.5, 1, 1])), cov(x, fweights=tensor([1, 2, 1])))`,
			"tensor([[ 2.2500,  5.7500],\n        [ 5.7500, 15.2500]]) tensor([[ 1.5833,  3.9167],\n        [ 3.9167, 10.2500]])"},
		{`q = tensor([[1.0, 2.0, 4.0], [2.0, 3.0, 9.0]], requires_grad=true); cov(q).sum().backward(); print(q.grad)`,
			"tensor([[-4.0000, -2.0000,  6.0000],\n        [-4.0000, -2.0000,  6.0000]])"},
		{`a = tensor([1.0, 2.0]); b = tensor([4.0, 6.0]); print(a.dist(b), dist(a, b, p=1), dist(a, b, inf), dist(a, b, 0))`,
			"tensor(5.) tensor(7.) tensor(4.) tensor(2.)"},
		{`z = tensor([1.0, 2.0], requires_grad=true); d = z.dist(tensor([4.0, 6.0])); d.backward(); print(d, z.grad)`,
			"tensor(5., grad_fn=<DistBackward0>) tensor([-0.6000, -0.8000])"},
		{catchOf(`dist(tensor([1, 2]), tensor([3, 4]))`), "RuntimeError: norm(): input dtype should be either floating point or complex. Got Long instead."},
		{`print(tensor([[3, 1], [1, 2]]).msort(), msort(tensor([2.0, 1.0])))`, "tensor([[1, 1],\n        [3, 2]]) tensor([1., 2.])"},
	})
}

// cov's weight checks run in ATen's order (rank, dtype, numel, sign; a NaN
// weight counts as negative) with its messages, a zero weight sum and a
// bool input are errors, and isin refuses bool inputs; cov computed
// nan/inf matrices and isin bool results. Messages from
// testdata/gen_h1_stats.py.
func TestStatsOpErrors(t *testing.T) {
	const x = "x = tensor([[0., 1, 2], [2, 1, 0]])\n"
	checkPrints(t, []printCase{
		{x + catchOf(`cov(x, fweights=ones(1, 3, dtype=i64))`), "RuntimeError: cov(): expected fweights to have one or fewer dimensions but got fweights with 2 dimensions"},
		{x + catchOf(`cov(x, aweights=ones(1, 3))`), "RuntimeError: cov(): expected aweights to have one or fewer dimensions but got aweights with 2 dimensions"},
		{x + catchOf(`cov(x, fweights=ones(3, dtype=bool))`), "RuntimeError: cov(): expected fweights to have integral dtype but got fweights with Bool dtype"},
		{x + catchOf(`cov(x, fweights=tensor([1., 2., 3.]))`), "RuntimeError: cov(): expected fweights to have integral dtype but got fweights with Float dtype"},
		{x + catchOf(`cov(x, fweights=tensor([1, 0, -1]))`), "RuntimeError: cov(): fweights cannot be negative"},
		{x + catchOf(`cov(x, aweights=tensor([1., nan, 1.]))`), "RuntimeError: cov(): aweights cannot be negative"},
		{x + catchOf(`cov(x, fweights=tensor([0, 0, 0]))`), "RuntimeError: cov(): weights sum to zero, can't be normalized"},
		{catchOf(`cov(zeros(2, 0), fweights=zeros(0, dtype=i64))`), "RuntimeError: cov(): weights sum to zero, can't be normalized"},
		{catchOf(`cov(ones(2, 2, dtype=bool))`), "RuntimeError: cov(): bool dtype is not supported for input"},
		{catchOf(`isin(tensor([1, 0]), tensor([true]))`), "RuntimeError: Unsupported input type encountered for isin(): Bool"},
		{catchOf(`isin(true, tensor([1]))`), "RuntimeError: Unsupported input type encountered for isin(): Bool"},
	})
}

// all/any keep uint8 for a uint8 input in PyTorch 1.13 (values 0/1).
func TestAllAnyUint8(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([[3, 0], [1, 2]], dtype=u8); print(x.all(), x.any(1), x.all(0, keepdim=true), tensor([], dtype=u8).all())`,
			"tensor(0, dtype=u8) tensor([1, 1], dtype=u8) tensor([[1, 0]], dtype=u8) tensor(1, dtype=u8)"},
		{`print(tensor([2, 0]).all(), tensor([true, false]).any())`, "tensor(false) tensor(true)"},
	})
}

// all and any were only the tensor reductions: all([...]) raised a
// TypeError where Python's builtins take any iterable.
func TestAllAnyIterables(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(all([true, 1]), any([0, false]), all([]), any([]), all("ab"), any((0, 0.0, none)), any([tensor(0.0), tensor(2.0)]))`,
			"true false true false true false true"},
		{`print(all(tensor([1, 0])), any(tensor([[1, 0]]), dim=1), all(input=tensor([true])), any(tensor([1, 0]), 0))`,
			"tensor(false) tensor([true]) tensor(true) tensor(true)"},
		{catchOf(`all([tensor([1, 2])])`), "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"},
		{catchOf(`any(5)`), "TypeError: 'int' object is not iterable"},
	})
}
