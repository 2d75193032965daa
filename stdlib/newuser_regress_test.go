package stdlib_test

import (
	"fmt"
	"testing"
)

// Regression tests from testing tsr as a new user against LANGUAGE.md and
// PyTorch 1.13 (each want is what Python/PyTorch prints for the same
// program).

// x &= y, x |= y and x ^= y are augmented assignments like Python's: on
// tensors the in-place bitwise_and_/or_/xor_ (bumping _version), on ints
// the bitwise operators.
func TestAugmentedBitwiseAssign(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = tensor([true, false, true]); v = m._version; m &= tensor([true, true, false]); print(m, m._version - v)`, "tensor([ true, false, false]) 1"},
		{`m = tensor([true, false]); m |= tensor([false, false]); m ^= tensor([true, true]); print(m)`, "tensor([false,  true])"},
		{`x = arange(4); x &= 2; print(x)`, "tensor([0, 0, 2, 2])"},
		{`i = 6; i &= 3; i |= 8; i ^= 1; print(i)`, "11"},
		{"b = 5\nb ^=\n  3\nprint(b)", "6"},
		{catchOf(`f = ones(2); f &= 1`), `RuntimeError: "bitwise_and_cpu" not implemented for 'Float'`},
	})
}

// grad_fn names as PyTorch 1.13 prints them for composite ops that used to
// show their last internal step (SubBackward0, SqueezeBackward1,
// SelectBackward0, IndexBackward0, CopyBackwards, ...).
func TestGradFnNamesComposite(t *testing.T) {
	const x = `x = tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=true); y = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); i = tensor([[0], [1]]); s = tensor([[9.0], [8.0]]); `
	checkPrints(t, []printCase{
		{x + `print(x.frac().grad_fn, x.kthvalue(2, 0).values.grad_fn, x.kthvalue(1, 1, keepdim=true).values.grad_fn)`,
			"<FracBackward0> <KthvalueBackward0> <KthvalueBackward0>"},
		{x + `print(x.unbind(1)[0].grad_fn, x.t().unbind()[1].grad_fn, x.nansum().grad_fn, x.nansum(1).grad_fn)`,
			"<UnbindBackward0> <UnbindBackward0> <NansumBackward0> <NansumBackward0>"},
		{x + `a, b = var_mean(x, 1); c, d = std_mean(x); print(a.grad_fn, b.grad_fn, c.grad_fn, d.grad_fn)`,
			"<VarMeanBackward0> <VarMeanBackward0> <StdMeanBackward0> <StdMeanBackward0>"},
		{x + `print(x.repeat_interleave(2).grad_fn, x.repeat_interleave(tensor([1, 2]), dim=0).grad_fn, x.take(tensor([0, 3])).grad_fn, x.masked_select(y > 2).grad_fn)`,
			"<IndexSelectBackward0> <IndexSelectBackward0> <TakeBackward0> <MaskedSelectBackward0>"},
		{x + `print(x[:, :2].scatter(1, i, s).grad_fn, x[:, :2].scatter_add(1, i, s).grad_fn, x.scatter(1, i, 0.0).grad_fn)`,
			"<ScatterBackward0> <ScatterAddBackward0> <ScatterBackward1>"},
		{x + `z = x[:, :2].mul(2); z.scatter_(1, i, s); print(z.grad_fn); z.scatter_add_(1, i, s); print(z.grad_fn); z.scatter_(1, i, 0.0); print(z.grad_fn); z.sum().backward(); print(x.grad)`,
			"<ScatterBackward0>\n<ScatterAddBackward0>\n<ScatterBackward1>\ntensor([[0., 2., 0.],\n        [2., 0., 0.]])"},
		{`z = zeros(2, 2); z.scatter_(1, tensor([[0], [1]]), tensor([[9.0], [8.0]])); print(z, z._version, z.grad_fn)`,
			"tensor([[9., 0.],\n        [0., 8.]]) 1 none"},
		{catchOf(`tensor([1.0], requires_grad=true).scatter_(0, tensor([0]), 2.0)`),
			"RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."},
	})
}

// clamp with tensor bounds is PyTorch's clamp.Tensor: a tie gives its whole
// gradient to the input (not half to the bound, as maximum/minimum do),
// lo gets it only where x < lo < hi, hi where x > hi or hi < lo; the node
// prints as ClampBackward0 and stays twice differentiable.
func TestClampTensorBoundsGrad(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([0.0, 1.0, -1.0, 2.0, 0.5], requires_grad=true)
lo = tensor([0.0, 0.0, 0.0, 0.0, 1.0], requires_grad=true)
hi = tensor([1.0, 1.0, 1.0, 1.0, 0.0], requires_grad=true)
y = x.clamp(lo, hi)
y.sum().backward()
print(y)
print(x.grad, lo.grad, hi.grad)`, "tensor([0., 1., 0., 1., 0.], grad_fn=<ClampBackward0>)\ntensor([1., 1., 0., 0., 0.]) tensor([0., 0., 1., 0., 0.]) tensor([0., 0., 0., 1., 1.])"},
		{`x = tensor([[0.0, 3.0], [-1.0, 0.5]], requires_grad=true)
lo = tensor([0.0, 1.0], requires_grad=true)
x.clamp(min=lo).sum().backward()
print(x.grad, lo.grad)`, "tensor([[1., 1.],\n        [0., 0.]]) tensor([1., 1.])"},
		{`x = tensor([0.0, 3.0, -1.0], requires_grad=true)
hi = tensor(1.0, requires_grad=true)
y = clamp(x, max=hi)
y.sum().backward()
print(y, x.grad, hi.grad)`, "tensor([ 0.,  1., -1.], grad_fn=<ClampBackward0>) tensor([1., 0., 1.]) tensor(1.)"},
		{`x = tensor([0.5, 2.0], requires_grad=true)
print(grad(x) { grad(x) { x.clamp(tensor([1.0, 1.0])).pow(2).sum() }.sum() })`, "tensor([0., 2.])"},
		{`print(tensor([1, 5, 9]).clamp(tensor([2]), tensor([6])), tensor([nan, 1.0]).clamp(tensor([0.0, 0.0]), tensor([0.5, 0.5])))`,
			"tensor([2, 5, 6]) tensor([   nan, 0.5000])"},
		{`x = arange(12.0).reshape(3, 4).t().requires_grad_(); print(x.clamp(full([4, 3], 3.0)).stride())`, "(1, 4)"},
	})
}

// Overload names: x % y is RemainderBackward1 (x % 2 RemainderBackward0),
// div(rounding_mode=) is DivBackward2 (zero gradient), and the nn
// functions and ops below print PyTorch's node, not their last step.
func TestGradFnNamesOverloadsAndNN(t *testing.T) {
	const x = `x = tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=true); y = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]); `
	checkPrints(t, []printCase{
		{x + `print((x % y).grad_fn, (x % 2).grad_fn, x.div(y, rounding_mode="floor").grad_fn, x.div(2, rounding_mode="trunc").grad_fn)`,
			"<RemainderBackward1> <RemainderBackward0> <DivBackward2> <DivBackward2>"},
		{x + `x.div(y, rounding_mode="floor").sum().backward(); print(x.grad)`, "tensor([[0., 0., 0.],\n        [0., 0., 0.]])"},
		{x + `print(nn.silu(x).grad_fn, nn.leaky_relu(x).grad_fn, nn.elu(x).grad_fn, nn.softplus(x).grad_fn)`,
			"<SiluBackward0> <LeakyReluBackward0> <EluBackward0> <SoftplusBackward0>"},
		{x + `print(nn.nll_loss(x, tensor([0, 1])).grad_fn, nn.nll_loss(x, tensor([0, 1]), reduction="none").grad_fn, nn.binary_cross_entropy_with_logits(x, y / 6).grad_fn)`,
			"<NllLossBackward0> <NllLossBackward0> <BinaryCrossEntropyWithLogitsBackward0>"},
		{x + `print(nn.pad(x, (1, 1)).grad_fn, cdist(x, x).grad_fn, x.tile((2, 1)).grad_fn, linalg.lstsq(x.t(), y.t()).solution.grad_fn)`,
			"<ConstantPadNdBackward0> <CdistBackward0> <RepeatBackward0> <LinalgLstsqBackward0>"},
	})
}

// Gradients at degenerate points, as PyTorch 1.13: std of a constant slice
// has gradient 0 (std_backward masks std == 0), not NaN; median() without
// dim shares the gradient among the elements equal to the median
// (evenly_distribute_backward), like max().
func TestStdZeroAndMedianTiesGrad(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([[1.0, 1.0, 1.0], [2.0, 1.0, 2.0]], requires_grad=true); print(grad(x) { x.std(1).sum() })`,
			"tensor([[ 0.0000,  0.0000,  0.0000],\n        [ 0.2887, -0.5774,  0.2887]])"},
		{`x = tensor([3.0, 3.0], requires_grad=true); print(grad(x) { x.std() }, grad(x) { std_mean(x)[0] }, grad(x) { x.std(correction=0) })`,
			"tensor([0., 0.]) tensor([0., 0.]) tensor([0., 0.])"},
		{`x = tensor([[1.0, 1.0, 0.0], [2.0, 1.0, 2.0]], requires_grad=true); m = x.median(); m.backward(); print(m, x.grad)`,
			"tensor(1., grad_fn=<MedianBackward0>) tensor([[0.3333, 0.3333, 0.0000],\n        [0.0000, 0.3333, 0.0000]])"},
		{`x = tensor([[1.0, 1.0, 0.0], [2.0, 1.0, 2.0]], requires_grad=true); print(grad(x) { x.median(1).values.sum() }, tensor([4.0, 1.0, 2.0, 3.0]).median(), median(tensor([3, 1, 2])))`,
			"tensor([[1., 0., 0.],\n        [1., 0., 0.]]) tensor(2.) tensor(2)"},
	})
}

// vector_norm's gradient for a general p is PyTorch's norm_backward: 0 at
// a zero vector (not NaN), and finite at zero entries for p < 2 (wants
// from PyTorch 1.13).
func TestVectorNormGeneralPGrad(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(3, dtype=f64, requires_grad=true); print(grad(x) { linalg.vector_norm(x, 3) }, grad(x) { linalg.vector_norm(x, 0.5) }, grad(x) { x.norm(p=1.5) })`,
			"tensor([0., 0., 0.], dtype=f64) tensor([0., 0., 0.], dtype=f64) tensor([0., 0., 0.], dtype=f64)"},
		{`x = tensor([0.0, -4.0, 4.0], dtype=f64, requires_grad=true); print(grad(x) { linalg.vector_norm(x, 0.5) }.tolist(), grad(x) { linalg.vector_norm(x, 1.5) }.tolist(), grad(x) { linalg.vector_norm(x, 3) }.tolist())`,
			"[0.0, -2.0, 2.0] [0.0, -0.7937005259840997, 0.7937005259840997] [0.0, -0.6299605249474368, 0.6299605249474368]"},
	})
}

// PyTorch's Scalar-self overloads: pow(2, t), add(2, t), sub(2.5, i), ...
// take a number first (a wrapped number: t's dtype wins), with PyTorch's
// grad_fn names for that form; functions without such an overload still
// reject a number input.
func TestScalarSelfFunctions(t *testing.T) {
	const x = "t = tensor([1.0, 2.0, 3.0]); i = tensor([1, 2, 3]); h = tensor([1.0, 2.0], dtype=f16); g = tensor([1.0, 2.0], requires_grad=true); "
	checkPrints(t, []printCase{
		{x + "print(pow(2, t), pow(2, i), pow(2.5, i), pow(2, h))",
			"tensor([2., 4., 8.]) tensor([2, 4, 8]) tensor([ 2.5000,  6.2500, 15.6250]) tensor([2., 4.], dtype=f16)"},
		{x + "print(add(2, t), add(2, i, alpha=3), sub(2, t), sub(2.5, i), mul(3, i), mul(0.5, h))",
			"tensor([3., 4., 5.]) tensor([ 5,  8, 11]) tensor([ 1.,  0., -1.]) tensor([ 1.5000,  0.5000, -0.5000]) tensor([3, 6, 9]) tensor([0.5000, 1.0000], dtype=f16)"},
		{x + "print(div(2, t), div(7, i), div(7, i, rounding_mode=\"floor\"), true_divide(1, i))",
			"tensor([2.0000, 1.0000, 0.6667]) tensor([7.0000, 3.5000, 2.3333]) tensor([7, 3, 2]) tensor([1.0000, 0.5000, 0.3333])"},
		{x + "print(floor_divide(7, i), remainder(7, i), remainder(-7.5, t))",
			"tensor([7, 3, 2]) tensor([0, 1, 1]) tensor([0.5000, 0.5000, 1.5000])"},
		{x + "y = pow(2, g); y.sum().backward(); print(y, g.grad)",
			"tensor([2., 4.], grad_fn=<PowBackward2>) tensor([1.3863, 2.7726])"},
		{x + "print(sub(2, g, alpha=2), add(2, g).grad_fn, div(2, g).grad_fn, (2 - g).grad_fn, (2 ** g).grad_fn)",
			"tensor([ 0., -2.], grad_fn=<SubBackward0>) <AddBackward0> <DivBackward0> <RsubBackward1> <PowBackward1>"},
		{catchOf("t = tensor([1.0]); atan2(2, t)"), "TypeError: atan2(): argument 'input' must be a tensor, not int"},
	})
}

// The Scalar-self forms as PyTorch 1.13 has them: no pow or remainder of
// two numbers (torch.add(2, 3) is a tensor, torch.pow(2, 3) a TypeError);
// a rounding_mode (none too) is div.Tensor_mode, DivBackward2, whatever
// the input; 2 % x and remainder(2, x) are remainder.Scalar_Tensor, which
// has no derivative (<NotImplemented>, backward raises).
func TestScalarSelfAsPyTorch(t *testing.T) {
	const x = "g = tensor([1.0, 2.0], requires_grad=true); t = tensor([2.0, 2.0]); "
	checkPrints(t, []printCase{
		{catchOf("pow(2, 3)"), "TypeError: pow() received an invalid combination of arguments - got (int, int), but expected one of: (Tensor input, Tensor exponent), (Number self, Tensor exponent), (Tensor input, Number exponent)"},
		{catchOf("remainder(7.5, 2)"), "TypeError: remainder() received an invalid combination of arguments - got (float, int), but expected one of: (Tensor input, Tensor other), (Number self, Tensor other), (Tensor input, Number other)"},
		{catchOf("pow(2, [1, 2])"), "TypeError: pow() received an invalid combination of arguments - got (int, list), but expected one of: (Tensor input, Tensor exponent), (Number self, Tensor exponent), (Tensor input, Number exponent)"},
		{"print(add(2, 3), sub(2, 3.5), div(7, 2, rounding_mode=\"floor\"), floor_divide(7, 2))", "tensor(5) tensor(-1.5000) tensor(3) tensor(3)"},
		{x + "print(div(2, g, rounding_mode=\"trunc\").grad_fn, div(2, g, rounding_mode=\"floor\").grad_fn, div(2, g, rounding_mode=none).grad_fn, div(2, g).grad_fn)",
			"<DivBackward2> <DivBackward2> <DivBackward2> <DivBackward0>"},
		{x + "print(div(t, g, rounding_mode=none).grad_fn, g.div(2, rounding_mode=none).grad_fn, div(t, g).grad_fn)", "<DivBackward2> <DivBackward2> <DivBackward0>"},
		{x + "print(remainder(2, g), (2 % g).grad_fn, (g % 2).grad_fn, (t % g).grad_fn)",
			"tensor([0., 0.], grad_fn=<NotImplemented>) <NotImplemented> <RemainderBackward0> <RemainderBackward1>"},
		{x + catchOf("remainder(2.5, g).sum().backward()"), "RuntimeError: derivative for aten::remainder is not implemented"},
		{x + "(t % g).sum().backward(); print(g.grad)", "tensor([-2., -1.])"},
	})
}

// pow's second argument is named exponent, as in PyTorch.
func TestPowExponentKeyword(t *testing.T) {
	checkPrints(t, []printCase{
		{"t = tensor([1.0, 2.0]); print(t.pow(exponent=2), pow(t, exponent=3)); t.pow_(exponent=2); print(t)",
			"tensor([1., 4.]) tensor([1., 8.])\ntensor([1., 4.])"},
		{catchOf("t = tensor([1.0]); t.pow(other=2)"), "TypeError: pow() got an unexpected keyword argument 'other'"},
	})
}

// PyTorch's spelled-out aliases: multiply, subtract (alpha=), divide
// (rounding_mode=), absolute, negative, as functions and methods.
func TestSpelledOutAliases(t *testing.T) {
	checkPrints(t, []printCase{
		{"t = tensor([1.0, -2.0, 3.0], requires_grad=true); print(multiply(t, 2), subtract(t, 1, alpha=2))",
			"tensor([ 2., -4.,  6.], grad_fn=<MulBackward0>) tensor([-1., -4.,  1.], grad_fn=<SubBackward0>)"},
		{"t = tensor([1.0, -2.0, 3.0], requires_grad=true); print(divide(t, 2), divide(t, 2, rounding_mode=\"floor\"))",
			"tensor([ 0.5000, -1.0000,  1.5000], grad_fn=<DivBackward0>) tensor([ 0., -1.,  1.], grad_fn=<DivBackward2>)"},
		{"t = tensor([1.0, -2.0, 3.0], requires_grad=true); print(absolute(t), negative(t), t.absolute(), t.negative())",
			"tensor([1., 2., 3.], grad_fn=<AbsBackward0>) tensor([-1.,  2., -3.], grad_fn=<NegBackward0>) tensor([1., 2., 3.], grad_fn=<AbsBackward0>) tensor([-1.,  2., -3.], grad_fn=<NegBackward0>)"},
		{"t = tensor([1.0, -2.0, 3.0], requires_grad=true); print(subtract(5, t), multiply(2, tensor([1, 2])))",
			"tensor([4., 7., 2.], grad_fn=<SubBackward0>) tensor([2, 4])"},
	})
}

// In-place arithmetic rejects an operand that partially overlaps the
// written-to tensor, as PyTorch's TensorIterator does (outputs checked
// with torch 1.13): a full overlap and strided views pass.
func TestInplacePartialOverlap(t *testing.T) {
	const msg = "RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
	checkPrints(t, []printCase{
		{catchOf(`z = arange(6.0); z[1:3].add_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3] += z[0:2]`), msg},
		{catchOf(`z = arange(6.0); z[0:1].add_(z[0])`), msg},
		{catchOf(`z = arange(6.0); s = z[:4].view(2, 2); s.add_(s.t())`), msg},
		{catchOf(`z = arange(6.0); z[1:3].eq_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].pow_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].add_(z[0:3])`), msg}, // before the shape error, as PyTorch
		{catchOf(`z = arange(6.0); z[1:3].add_(z[0:2], alpha=2)`), msg},
		{catchOf(`z = arange(6.0); z[1:3].lerp_(z[0:2], 0.5)`), msg},
		{catchOf(`z = arange(6.0); z[1:3].lerp_(ones(2), z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].fmod_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].copysign_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].xlogy_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].heaviside_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].atan2_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].hypot_(z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].clamp_(min=z[0:2])`), msg},
		{catchOf(`z = arange(6.0); z[1:3].addcmul_(z[0:2], ones(2))`), msg},
		{`z = arange(6.0); z[1:3].masked_scatter_(tensor([true, true]), z[0:2]); print("no check")`, "no check"}, // values depend on the aliasing order
		{`z = arange(6.0); z[1:4].index_fill_(0, tensor([0]), z[0]); print(z)`, "tensor([0., 0., 2., 3., 4., 5.])"},
		{`z = arange(6.0); v = z._version; z.add_(z); print(z, z._version - v)`, "tensor([ 0.,  2.,  4.,  6.,  8., 10.]) 1"},
		{`z = arange(6.0); z[0:3].mul_(z[::2]); print(z)`, "tensor([0., 2., 8., 3., 4., 5.])"},
		{`z = arange(6.0); z[0:2].sub_(z[2:4]); print(z)`, "tensor([-2., -2.,  2.,  3.,  4.,  5.])"},
		{`z = arange(6.0); v = z._version; try { z[1:3].add_(z[0:2]) } catch e { }; print(z, z._version - v)`, "tensor([0., 1., 2., 3., 4., 5.]) 0"},
	})
}

// x @ number names both operand types in order, as PyTorch does.
func TestMatmulNumberTypeError(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`ones(2) @ 3`), "TypeError: unsupported operand type(s) for @: 'tensor' and 'int'"},
		{catchOf(`2.5 @ ones(2)`), "TypeError: unsupported operand type(s) for @: 'float' and 'tensor'"},
		{catchOf(`ones(2) @ true`), "TypeError: unsupported operand type(s) for @: 'tensor' and 'bool'"},
	})
}

// The overlap check comes after autograd's leaf check (PyTorch's
// VariableType runs before the kernel's TensorIterator), and covers
// div_ with a rounding mode and masked_fill_'s mask (outputs checked with
// torch 1.13).
func TestInplaceOverlapOrderAndCoverage(t *testing.T) {
	const msg = "RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
	const viewLeaf = "RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation."
	const leaf = "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."
	checkPrints(t, []printCase{
		{catchOf(`z = randn(6, requires_grad=true); z[1:3].add_(z[0:2])`), viewLeaf},
		{catchOf(`z = randn(6, requires_grad=true); z[1:3].sub_(z[0:2], alpha=2)`), viewLeaf},
		{catchOf(`z = randn(6, requires_grad=true); z[1:3].lerp_(z[0:2], 0.5)`), viewLeaf},
		{catchOf(`z = randn(6, requires_grad=true); z[1:3].clamp_(z[0:2])`), viewLeaf},
		{catchOf(`z = randn(6, requires_grad=true); z.add_(z[0])`), leaf},
		{catchOf(`z = randn(3, 3, requires_grad=true); z.add_(z.t())`), leaf},
		{catchOf(`z = randn(6, requires_grad=true); no_grad { z[1:3].add_(z[0:2]) }`), msg},
		{catchOf(`z = arange(6.0); z[1:3].div_(z[0:2], rounding_mode="trunc")`), msg},
		{catchOf(`z = arange(6.0); z[1:3].div_(z[0:2], rounding_mode="floor")`), msg},
		{catchOf(`z = randn(6, requires_grad=true); z[1:3].div_(z[0:2], rounding_mode="floor")`), viewLeaf},
		{catchOf(`z = arange(6.0) > 2; z[1:3].masked_fill_(z[0:2], true)`), msg},
		{`z = arange(6.0); z[0:2].div_(z[2:4], rounding_mode="floor"); z.masked_fill_(z > 4, 0.0); print(z)`, "tensor([0., 0., 2., 3., 4., 0.])"},
		{`z = arange(6.0) > 2; z.masked_fill_(z, false); print(z)`, "tensor([false, false, false, false, false, false])"},
	})
}

// A product saves an operand for backward only when another operand
// needs its gradient (PyTorch's conditional SavedVariables): changing a
// constant factor's partner in place afterwards is no version error
// (outputs checked with torch 1.13).
func TestProductSavesOnlyNeededOperands(t *testing.T) {
	modified := func(stmt string) string {
		return "try { " + stmt + ` } catch e { print(e.kind, e.message.startswith("one of the variables needed for gradient computation has been modified by an inplace operation")) }`
	}
	checkPrints(t, []printCase{
		{`x = tensor([1.0, 2.0], requires_grad=true); y = x * 1; y[0:1] = y[0:1] * 3; y.sum().backward(); print(x.grad)`, "tensor([3., 1.])"},
		{`x = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true); y = x * 1; z = y @ tensor([[1.0, 0.5], [2.0, 1.0]]); y.add_(1); z.sum().backward(); print(x.grad)`,
			"tensor([[1.5000, 3.0000],\n        [1.5000, 3.0000]])"},
		{`x = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true); y = x * 1; z = ein"ij,jk->ik"(tensor([[1.0, 0.5], [2.0, 1.0]]), y); y.mul_(2); z.sum().backward(); print(x.grad)`,
			"tensor([[3.0000, 3.0000],\n        [1.5000, 1.5000]])"},
		{`x = tensor([1.0, 2.0], requires_grad=true); y = x * 1; z = y / 4; w = 2 * y; y.zero_(); (z + w).sum().backward(); print(x.grad)`, "tensor([2.2500, 2.2500])"},
		{`x = tensor([1.0, 2.0], requires_grad=true); y = x * 1; z = tensor([3.0, 4.0]).dot(y) + outer(y, tensor([1.0, 1.0])).sum(); y.zero_(); z.backward(); print(x.grad)`, "tensor([5., 6.])"},
		{`x = tensor([[1.0, 2.0]], requires_grad=true); y = x * 1; z = nn.linear(ones(3, 2), y); y.add_(1); z.sum().backward(); print(x.grad)`, "tensor([[3., 3.]])"},
		// still saved where the gradient needs it
		{modified(`x = tensor([1.0, 2.0], requires_grad=true); c = ones(2); y = x * 1; z = c * y; c.add_(1); z.sum().backward()`), "RuntimeError true"},
		{modified(`x = tensor([1.0, 2.0], requires_grad=true); y = x * 1; z = tensor([3.0, 4.0]) / y; y.add_(1); z.sum().backward()`), "RuntimeError true"},
		{modified(`x = tensor([[1.0, 2.0]], requires_grad=true); w = ones(2, 2); y = x * 1; z = y @ w; w.add_(1); z.sum().backward()`), "RuntimeError true"},
	})
}

// Second-order gradients flow through a product with a 1-D operand and
// through outer (the backward's unsqueeze is recorded); values from torch
// 1.13 (autograd.grad with create_graph=True).
func TestMatmulVectorSecondOrder(t *testing.T) {
	const setup = "x = tensor([1.0, 2.0], requires_grad=true); w = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true)\n"
	checkPrints(t, []printCase{
		{setup + `print(grad(x) { g = grad(w) { (x @ w).sum() }; g.sum() })`, "tensor([2., 2.])"},
		{setup + `print(grad(x) { g = grad(w) { (w @ x).sum() }; g.sum() })`, "tensor([2., 2.])"},
		{setup + `print(grad(x) { g = grad(x) { outer(x, x).sum() }; g.sum() })`, "tensor([4., 4.])"},
		{setup + `print(grad(x) { g = grad(x) { outer(x, x).sum() + x.dot(x) }; g.sum() })`, "tensor([6., 6.])"},
		{setup + `print(grad(w) { g = grad(x) { (x @ w).sum() }; g.sum() })`, "tensor([[1., 1.],\n        [1., 1.]])"},
	})
}

// x.data shares x's storage but has a version counter of its own (PyTorch's
// variable_data), so writes through it are invisible to autograd's check;
// detach() shares the counter (outputs checked with torch 1.13).
func TestDataOwnVersionCounter(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([1.0, 2.0], requires_grad=true); y = x.exp(); y.data.mul_(2); y.sum().backward(); print(x.grad)`, "tensor([ 5.4366, 14.7781])"},
		{`x = zeros(3); d = x.data; d.add_(1); print(x._version, d._version); x.add_(1); print(x._version, d._version); d[0].add_(1); print(d._version, x._version, x)`,
			"0 1\n1 1\n2 1 tensor([3., 2., 2.])"},
		{`x = zeros(3); d = x.detach(); d.add_(1); print(x._version, d._version)`, "1 1"},
		{`w = tensor([1.0, 2.0], requires_grad=true); loss = (w * w).sum(); w.data.sub_(0.1 * tensor([1.0, 1.0])); loss.backward(); print(w.grad, w._version, w.data._version)`,
			"tensor([1.8000, 3.8000]) 0 0"},
		{`x = zeros(3); x.add_(1); x.add_(1); print(x.data._version, x.data.data._version, x.data.requires_grad)`, "0 0 false"},
		{catchOf(`z = arange(6.0); z.data[1:3].add_(z.data[0:2])`), "RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."},
	})
}

// x[key] = number converts the number to x's dtype with PyTorch's overflow
// check (valueToTensor's scalar_tensor), for basic, advanced and mask
// indices (outputs checked with torch 1.13).
func TestSetIndexNumberOverflow(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`z = ones(2, 3, dtype=i32); z[0] = 2 ** 40`), "RuntimeError: value cannot be converted to type int without overflow"},
		{catchOf(`z = ones(3, dtype=i32); z[tensor([0])] = 2 ** 31`), "RuntimeError: value cannot be converted to type int without overflow"},
		{catchOf(`z = ones(3, dtype=i32); z[z > 0] = 2 ** 31`), "RuntimeError: value cannot be converted to type int without overflow"},
		{catchOf(`z = ones(3, dtype=i32); z[0] = nan`), "RuntimeError: value cannot be converted to type int without overflow"},
		{catchOf(`z = ones(2, 3, dtype=u8); z[0] = 300`), "RuntimeError: value cannot be converted to type uint8_t without overflow"},
		{catchOf(`z = ones(2, 3, dtype=f16); z[0] = 1e6`), "RuntimeError: value cannot be converted to type at::Half without overflow"},
		{catchOf(`z = ones(3); z[0] = 1e39`), "RuntimeError: value cannot be converted to type float without overflow"},
		{catchOf(`z = ones(3, dtype=i8); z[1:] = 128`), "RuntimeError: value cannot be converted to type int8_t without overflow"},
		{`z = ones(3); v = z._version; try { z[0] = 1e39 } catch e { }; print(z, z._version - v)`, "tensor([1., 1., 1.]) 0"},
		{`z = ones(3, dtype=u8); z[0] = -1; y = ones(3); y[0] = inf; b = ones(3, dtype=bool); b[0] = 5; w = ones(3, dtype=i32); w[1] = tensor(2 ** 40); print(z, y, b, w)`,
			"tensor([255,   1,   1], dtype=u8) tensor([inf, 1., 1.]) tensor([true, true, true]) tensor([1, 0, 1], dtype=i32)"},
	})
}

// A view whose storage was modified in place after its grad_fn was set
// (through its base or another view) gets a fresh AsStridedBackward0 on
// the base's current history, as PyTorch's VariableHooks::grad_fn: its
// gradient sees the in-place op (outputs checked with torch 1.13).
func TestViewGradFnAfterBaseInplace(t *testing.T) {
	const x = "x = tensor([1.0, 2.0, 3.0], requires_grad=true); "
	checkPrints(t, []printCase{
		{x + `y = x * 1; v = y[0:2]; y.mul_(2); v.sum().backward(); print(x.grad, v.grad_fn)`, "tensor([2., 2., 0.]) <AsStridedBackward0>"},
		{x + `y = x * 1; v = y[0:2]; y.mul_(2); print(v)`, "tensor([2., 4.], grad_fn=<AsStridedBackward0>)"},
		{x + `y = x * 1; a = y[0:2]; b = y[1:3]; a.mul_(2); b.sum().backward(); print(x.grad, b.grad_fn, a.grad_fn)`, "tensor([0., 2., 1.]) <AsStridedBackward0> <AsStridedBackward0>"},
		{`a = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true); no_grad { a.t_() }; print(a.is_leaf, a.requires_grad, a.grad_fn)`, "true true none"},
		{x + `y = x * 1; v = y[0:2]; print(v.grad_fn); z = x * 1; z.add_(1); print(v.grad_fn)`, "<SliceBackward0>\n<SliceBackward0>"},
		{x + `y = x * 1; v = y.view(3, 1)[1:]; y.mul_(x); w = v * 3; w.sum().backward(); print(x.grad, v.grad_fn)`, "tensor([ 0., 12., 18.]) <AsStridedBackward0>"},
		{`x = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=true); y = x * 1; v = y.t(); y[0, 0] = 10; (v * tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward(); print(x.grad)`,
			"tensor([[0., 3.],\n        [2., 4.]])"},
	})
}

// logical_*_, bitwise_*_, clip_ and true_divide_ in place, as PyTorch 1.13
// prints them.
func TestMoreInplaceMethods(t *testing.T) {
	const a, i = "a = tensor([0.0, 1.0, 2.0, 0.0]); ", "i = tensor([12, 10, 7]); "
	checkPrints(t, []printCase{
		{a + `a.logical_and_(tensor([1.0, 0.0, 3.0, 0.0])); print(a)`, "tensor([0., 0., 1., 0.])"},
		{a + `a.logical_or_(tensor([1.0, 0.0, 3.0, 0.0])); print(a)`, "tensor([1., 1., 1., 0.])"},
		{a + `a.logical_xor_(tensor([1.0, 0.0, 3.0, 0.0])); print(a)`, "tensor([1., 1., 0., 0.])"},
		{i + `i.bitwise_and_(tensor([10, 6, 1])); print(i)`, "tensor([8, 2, 1])"},
		{i + `i.bitwise_or_(tensor([10, 6, 1])); print(i)`, "tensor([14, 14,  7])"},
		{i + `i.bitwise_xor_(3); print(i)`, "tensor([15,  9,  4])"},
		{a + `v = a._version; a.clip_(0.5, 1.5); print(a, a._version - v)`, "tensor([0.5000, 1.0000, 1.5000, 0.5000]) 1"},
		{a + `a.true_divide_(2); print(a)`, "tensor([0.0000, 0.5000, 1.0000, 0.0000])"},
		{catchOf(i + `i.true_divide_(2)`), "RuntimeError: result type Float can't be cast to the desired output type Long"},
		{catchOf(a + `a.bitwise_and_(a)`), `RuntimeError: "bitwise_and_cpu" not implemented for 'Float'`},
	})
}

// In-place ops on views autograd cannot rebase raise PyTorch's errors
// (its CreationMeta): a view made in no_grad mode from a tensor that
// requires grad, modified with grad mode on, and an output of split,
// chunk or unbind (or a view of one); tensor_split pieces, views of
// tensors that need no grad and detached views pass.
func TestInplaceOnSpecialViews(t *testing.T) {
	const noGrad = "RuntimeError: A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked)."
	multi := func(nr int, node string) string {
		return fmt.Sprintf("RuntimeError: Output %d of %s is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.", nr, node)
	}
	const y = "x = randn(4, requires_grad=true); y = x * 2; "
	checkPrints(t, []printCase{
		{catchOf(y + `no_grad { v = y[0:2] }; v.mul_(2)`), noGrad},
		{catchOf(`x = randn(3, requires_grad=true); no_grad { v = x[0:2] }; v.mul_(2)`), noGrad},
		{catchOf(y + `no_grad { a, b = y.chunk(2) }; a.mul_(2)`), noGrad},
		{catchOf(y + `a, b, c, d = y.unbind(); a.mul_(2)`), multi(0, "UnbindBackward0")},
		{catchOf(y + `a, b, c, d = y.unbind(); b.add_(1)`), multi(1, "UnbindBackward0")},
		{catchOf(y + `a, b = y.split(2); b.mul_(2)`), multi(1, "SplitBackward0")},
		{catchOf(y + `a, b = y.chunk(2); a += 1`), multi(0, "SplitBackward0")},
		{catchOf(y + `(v,) = y.split(10); v.mul_(2)`), multi(0, "SplitBackward0")},
		{catchOf(y + `a, b = y.split(2); w = a[0:1]; w.mul_(2)`), multi(0, "SliceBackward0")},
		{y + `no_grad { v = y[0:2] }; no_grad { v.mul_(2) }; print("ok")`, "ok"},
		{`x = randn(4); y = x * 2; a, b = y.chunk(2); no_grad { v = y[0:2] }; a.mul_(2); v.mul_(2); print("ok")`, "ok"},
		{y + `a, b = y.tensor_split(2); a.mul_(2); a.sum().backward(); print(x.grad)`, "tensor([4., 4., 0., 0.])"},
		{y + `a, b = y.split(2); a.detach().mul_(2); print("ok")`, "ok"},
	})
}
