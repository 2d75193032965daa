package stdlib_test

import "testing"

// The fused layer_norm (one NativeLayerNormBackward0 node over
// tensor.LayerNorm) against the formula written out in float64 ops:
// values and the gradients of input, weight and bias, for odd sizes, 3-D
// inputs normalised over the last 1 or 2 dims, eps, no weight/bias, a
// permuted input, and float32 against the float64 reference.
func TestLayerNormFusedMatchesComposed(t *testing.T) {
	const ref = `
fn ref(x, k, w, b, eps) {
  dims = list(range(x.dim() - k, x.dim()))
  mu = x.mean(dims, keepdim=true)
  v = ((x - mu) ** 2).mean(dims, keepdim=true)
  y = (x - mu) / (v + eps).sqrt()
  if w != none { y = y * w }
  if b != none { y = y + b }
  return y
}
fn check(shape, k, hasw, hasb, eps, dt, tol) {
  x0 = randn(shape, dtype=f64)
  ns = shape[len(shape) - k:]
  w0 = randn(ns, dtype=f64)
  b0 = randn(ns, dtype=f64)
  g = randn(shape, dtype=f64)
  x = x0.clone().to(dt).requires_grad_()
  xr = x0.clone().requires_grad_()
  w = none; wr = none; b = none; br = none
  if hasw { w = w0.clone().to(dt).requires_grad_(); wr = w0.clone().requires_grad_() }
  if hasb { b = b0.clone().to(dt).requires_grad_(); br = b0.clone().requires_grad_() }
  y = nn.layer_norm(x, ns, weight=w, bias=b, eps=eps)
  yr = ref(xr, k, wr, br, eps)
  y.backward(g.to(dt))
  yr.backward(g)
  ok = (y.to(f64) - yr).abs().max().item() < tol and (x.grad.to(f64) - xr.grad).abs().max().item() < tol
  if hasw { ok = ok and (w.grad.to(f64) - wr.grad).abs().max().item() < tol * 10 }
  if hasb { ok = ok and (b.grad.to(f64) - br.grad).abs().max().item() < tol * 10 }
  return [ok, y.grad_fn.name(), y.is_contiguous()]
}
`
	checkPrints(t, []printCase{
		{ref + "print(check([7, 13], 1, true, true, 1e-5, f64, 1e-12))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([2, 5, 7], 2, true, true, 1e-5, f64, 1e-12))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([3, 4, 9], 1, false, false, 0.1, f64, 1e-12))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([5, 1], 1, true, false, 1e-5, f64, 1e-12))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([6, 33], 1, false, true, 1e-3, f64, 1e-12))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([3, 17, 40], 2, true, true, 1e-5, f32, 2e-5))", "[true, 'NativeLayerNormBackward0', true]"},
		{ref + "print(check([64, 1000], 1, true, true, 1e-5, f32, 2e-5))", "[true, 'NativeLayerNormBackward0', true]"},
		// a permuted input gives a contiguous result, and the same values
		{ref + "x = randn(4, 6, 5, dtype=f64).permute(2, 0, 1)\ny = nn.layer_norm(x, [4, 6])\nprint(y.is_contiguous(), (y - ref(x, 2, none, none, 1e-5)).abs().max().item() < 1e-12)", "true true"},
		// no grad recorded: no grad_fn
		{"x = randn(3, 4)\nprint(nn.layer_norm(x, [4]).grad_fn, nn.layer_norm(x, [4]).requires_grad)", "none false"},
	})
}

// The fused cross_entropy (log_softmax then one NllLossBackward0 node) on
// [N, C] logits against the composed path, which [N, C, 1] logits take:
// values and logit gradients for each reduction, class weights and
// ignore_index, in float32 and float64.
func TestCrossEntropyFusedMatchesComposed(t *testing.T) {
	const ref = `
fn check(n, c, dt, red, w, ig) {
  x0 = randn(n, c, dtype=f64)
  t = randint(0, c, [n])
  t[0] = 1
  a = x0.clone().to(dt).requires_grad_()
  b = x0.clone().to(dt).unsqueeze(2).clone().requires_grad_()
  la = nn.cross_entropy(a, t, weight=w, ignore_index=ig, reduction=red)
  lb = nn.cross_entropy(b, t.unsqueeze(1), weight=w, ignore_index=ig, reduction=red)
  g = randn(la.shape, dtype=dt)
  la.backward(g)
  lb.backward(g.reshape(lb.shape))
  return [la.shape, la.grad_fn.name(), allclose(la.flatten(), lb.flatten(), rtol=1e-6, atol=1e-7), allclose(a.grad, b.grad.squeeze(2), rtol=1e-6, atol=1e-7)]
}
`
	checkPrints(t, []printCase{
		{ref + "print(check(7, 11, f64, \"mean\", none, -100))", "[[], 'NllLossBackward0', true, true]"},
		{ref + "print(check(7, 11, f32, \"sum\", none, -100))", "[[], 'NllLossBackward0', true, true]"},
		{ref + "print(check(9, 5, f32, \"none\", none, -100))", "[[9], 'NllLossBackward0', true, true]"},
		{ref + "print(check(9, 5, f64, \"mean\", rand(5, dtype=f64) + 0.5, 1))", "[[], 'NllLossBackward0', true, true]"},
		{ref + "print(check(9, 5, f32, \"none\", rand(5) + 0.5, 1))", "[[9], 'NllLossBackward0', true, true]"},
		{ref + "print(check(6, 300, f32, \"sum\", none, 1))", "[[], 'NllLossBackward0', true, true]"},
		// every target ignored: the mean is 0/0
		{"x = randn(3, 4, requires_grad=true)\nl = nn.cross_entropy(x, tensor([2, 2, 2]), ignore_index=2)\nl.backward()\nprint(l.item(), x.grad.abs().sum().item())", "nan 0.0"},
		// unbatched [C] logits with a 0-d target
		{"x = tensor([1.0, 2.0, 3.0], requires_grad=true)\nl = nn.cross_entropy(x, tensor(2))\nl.backward()\nprint(l.shape, round(l.item(), 6), x.grad)", "[] 0.407606 tensor([ 0.0900,  0.2447, -0.3348])"},
		{"print(nn.cross_entropy(tensor([1.0, 2.0, 3.0]), tensor(0), reduction=\"none\").shape)", "[]"},
		{"try { nn.cross_entropy(randn(2, 3), tensor([0, 3])) } catch e { print(e.kind, e) }", "IndexError IndexError: Target 3 is out of bounds."},
	})
}

// cross_entropy with class indices and no gradient recorded gathers the
// targets' log-probabilities row by row (tensor.LogSoftmaxPick) instead of
// writing log_softmax: the same bits as the recorded path, for each
// reduction, weights, ignore_index, f32/f64, [C] and [N, C], a transposed
// input, and under no_grad; out-of-range targets still raise.
func TestCrossEntropyNoGradMatchesRecorded(t *testing.T) {
	const ref = `
fn check(x0, t, dt, red, w, ig) {
  a = x0.clone().to(dt)
  b = x0.clone().to(dt).requires_grad_()
  la = nn.cross_entropy(a, t, weight=w, ignore_index=ig, reduction=red)
  lb = nn.cross_entropy(b, t, weight=w, ignore_index=ig, reduction=red)
  no_grad { lc = nn.cross_entropy(b, t, weight=w, ignore_index=ig, reduction=red) }
  return [la.shape, la.grad_fn, lb.grad_fn.name(), lc.grad_fn, la.equal(lb.detach()), lc.equal(lb.detach())]
}
`
	checkPrints(t, []printCase{
		{ref + "print(check(randn(7, 11, dtype=f64), randint(0, 11, [7]), f64, \"mean\", none, -100))", "[[], none, 'NllLossBackward0', none, true, true]"},
		{ref + "print(check(randn(100, 1000, dtype=f64), randint(0, 1000, [100]), f32, \"mean\", none, -100))", "[[], none, 'NllLossBackward0', none, true, true]"},
		{ref + "print(check(randn(9, 300, dtype=f64), randint(0, 300, [9]), f32, \"sum\", rand(300) + 0.5, 3))", "[[], none, 'NllLossBackward0', none, true, true]"},
		{ref + "print(check(randn(9, 5, dtype=f64), tensor([1, 1, 0, 4, 1, 2, 3, 1, 0]), f32, \"none\", rand(5) + 0.5, 1))", "[[9], none, 'NllLossBackward0', none, true, true]"},
		{ref + "print(check(randn(5, 9, dtype=f64).t(), tensor([1, 1, 0, 4, 1, 2, 3, 1, 0]), f64, \"mean\", none, 4))", "[[], none, 'NllLossBackward0', none, true, true]"},
		{ref + "print(check(randn(17, dtype=f64), tensor(5), f32, \"mean\", none, -100))", "[[], none, 'NllLossBackward0', none, true, true]"},
		{"print(nn.cross_entropy(randn(3, 4), tensor([2, 2, 2]), ignore_index=2).item())", "nan"},
		{"try { nn.cross_entropy(randn(2, 3), tensor([0, 3])) } catch e { print(e.kind, e) }", "IndexError IndexError: Target 3 is out of bounds."},
	})
}

// nn.pad in constant mode with no gradient recorded writes the result in
// one pass (tensor.ConstantPad): the same values, shape and dtype as the
// recorded narrow/cat composite, for 1 to 3 padded dims, zero amounts,
// a value, integer and bool inputs, a transposed input; negative amounts
// (crops) keep the composite.
func TestConstantPadNoGradMatchesRecorded(t *testing.T) {
	const ref = `
fn check(x, p, v) {
  a = nn.pad(x, p, value=v)
  b = nn.pad(x.double().requires_grad_(), p, value=v)
  return [a.shape, a.dtype, a.is_contiguous(), a.grad_fn, b.grad_fn.name(), a.double().equal(b.detach())]
}
`
	checkPrints(t, []printCase{
		{ref + "print(check(randn(2, 3, 5, 4), [1, 2], 0.0))", "[[2, 3, 5, 7], f32, true, none, 'ConstantPadNdBackward0', true]"},
		{ref + "print(check(randn(2, 3, 5, 4), [1, 2, 0, 3], -1.5))", "[[2, 3, 8, 7], f32, true, none, 'ConstantPadNdBackward0', true]"},
		{ref + "print(check(randn(2, 3, 5, 4, dtype=f64), [2, 2, 1, 1, 3, 0], 0.25))", "[[2, 6, 7, 8], f64, true, none, 'ConstantPadNdBackward0', true]"},
		{ref + "print(check(randn(4, 6).t(), [0, 0, 2, 1], 7.0))", "[[9, 4], f32, true, none, 'ConstantPadNdBackward0', true]"},
		{ref + "print(check(randn(3, 0), [1, 1], 2.0))", "[[3, 2], f32, true, none, 'ConstantPadNdBackward0', true]"},
		{"x = arange(6).reshape(2, 3)\nprint(nn.pad(x, [1, 0, 0, 1], value=9))", "tensor([[9, 0, 1, 2],\n        [9, 3, 4, 5],\n        [9, 9, 9, 9]])"},
		{"print(nn.pad(tensor([true, false]), [1, 1]))", "tensor([false,  true, false, false])"},
		{"print(nn.pad(arange(5.0), [-1, 2], value=1))", "tensor([1., 2., 3., 4., 1., 1.])"},
	})
}
