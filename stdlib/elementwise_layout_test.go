package stdlib_test

import "testing"

// TestElementwiseOutputLayout: elementwise ops lay out their results as
// PyTorch's TensorIterator does (a transposed, permuted or channels-last
// input's layout carries over; non-dense inputs give dense results in the
// order of their strides); outputs from PyTorch 1.13.
func TestElementwiseOutputLayout(t *testing.T) {
	const x = "x = arange(12, dtype=f32).reshape(3, 4)\ny = arange(12, dtype=f32).reshape(4, 3)\n"
	checkPrints(t, []printCase{
		{x + "z = x.t() + 1\nprint(z.stride(), z.is_contiguous(), z.tolist())", "(1, 4) false [[1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [3.0, 7.0, 11.0], [4.0, 8.0, 12.0]]"},
		{x + "print(x.t().exp().stride(), (x.t() * x.t()).stride(), (x.t() + y).stride(), (y + x.t()).stride(), (x.t() + y).is_contiguous(), (y + x.t()).is_contiguous())", "(1, 4) (1, 4) (1, 4) (3, 1) false true"},
		{x + "w = arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\nprint((w * 2).stride(), (w > 3).stride(), where(w > 3, w, 0.).stride(), (x[:, ::2] + 1).stride(), (x.t()[:, ::2] - 1).stride())", "(1, 12, 4) (1, 12, 4) (1, 12, 4) (2, 1) (1, 4)"},
		{"c = arange(120.).reshape(2, 4, 5, 3).permute(0, 3, 1, 2)\nprint(c.stride(), (c + 1).stride(), c.sigmoid().stride(), (c + c).is_contiguous())", "(60, 1, 15, 3) (60, 1, 15, 3) (60, 1, 15, 3) false"},
		{x + "print((x.t().long() + 0.5).stride(), (x.t() + arange(3.)).stride(), x.t().clamp(1, 3).stride(), (-x.t()).stride())", "(1, 4) (1, 4) (1, 4) (1, 4)"},
		// gradients through a transposed result
		{"a = arange(12.).reshape(3, 4).requires_grad_()\nb = a.t().exp()\nprint(b.stride())\n(b * arange(12.).reshape(4, 3)).sum().backward()\nprint(allclose(a.grad, a.detach().exp() * arange(12.).reshape(4, 3).t()), a.grad.shape)", "(1, 4)\ntrue [3, 4]"},
	})
}

// TestCompositeOpsLayoutLikeTorch: ops that PyTorch computes into a fresh
// contiguous tensor stay contiguous when tsr builds them from elementwise
// ops, whatever the input's layout: tril/triu (a where) and layer_norm
// (torch normalizes input.contiguous()); view(-1) on the result works as
// in PyTorch 1.13.
func TestCompositeOpsLayoutLikeTorch(t *testing.T) {
	const p = "p = arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\n"
	checkPrints(t, []printCase{
		{p + "print(p.tril().stride(), p.triu(1).stride(), p.transpose(1, 2).tril().stride(), p.tril().view(-1).shape)", "(6, 3, 1) (6, 3, 1) (6, 2, 1) [24]"},
		{p + "print(nn.layer_norm(p, [3]).stride(), nn.layer_norm(p, [2, 3]).stride(), nn.layer_norm(p, [3]).view(-1).shape)", "(6, 3, 1) (6, 3, 1) [24]"},
		{"a = arange(24.).reshape(2, 3, 4).requires_grad_()\nb = nn.layer_norm(a.permute(2, 0, 1), [3])\n(b * arange(24.).reshape(4, 2, 3)).sum().backward()\nc = a.detach().clone().requires_grad_()\nd = nn.layer_norm(c.permute(2, 0, 1).contiguous(), [3])\n(d * arange(24.).reshape(4, 2, 3)).sum().backward()\nprint(allclose(a.grad, c.grad), allclose(b, d))", "true true"},
	})
}

// sort and flip keep a dense input's layout (PyTorch allocates their
// results with empty_like); topk, and non-dense inputs, give contiguous
// results. Strides from PyTorch 1.13.
func TestSortFlipLayoutLikeTorch(t *testing.T) {
	checkPrints(t, []printCase{
		{"x = arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\nprint(x.flip(0).stride(), x.flip(2).stride(), x.sort(0).values.stride(), x.sort(-1).indices.stride())", "(1, 12, 4) (1, 12, 4) (1, 12, 4) (1, 12, 4)"},
		{"y = arange(12.).reshape(3, 4).t()\nprint(y.flip(0, 1).stride(), y.sort(1).values.stride(), y.argsort(1).stride(), y.topk(2, 1).values.stride())", "(1, 4) (1, 4) (1, 4) (2, 1)"},
		{"z = arange(12.).reshape(3, 4)[:, ::2]\nprint(z.flip(0).stride(), z.sort(1).values.stride())", "(2, 1) (2, 1)"},
		{"y = arange(12.).reshape(3, 4).t()\nprint(y.sort(1, descending=true).values.tolist(), y.flip(0).tolist())", "[[8.0, 4.0, 0.0], [9.0, 5.0, 1.0], [10.0, 6.0, 2.0], [11.0, 7.0, 3.0]] [[3.0, 7.0, 11.0], [2.0, 6.0, 10.0], [1.0, 5.0, 9.0], [0.0, 4.0, 8.0]]"},
	})
}
