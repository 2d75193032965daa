package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
)

// Regressions found by differential acceptance programs
// (testdata/acc/*.cases, run with testdata/acc/harness.py against PyTorch
// 1.13 / CPython 3.11); each want is what the Python twin prints, in tsr's
// spellings.

// linalg.lstsq reports its fields as PyTorch 1.13's CPU drivers do: the
// default gelsy computes no residuals and no singular values, gels no rank,
// and refuses a rank-deficient input.
func TestLstsqDriverFields(t *testing.T) {
	const ab = "A = tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]); B = tensor([[1.0], [2.0], [3.0]])\n"
	checkPrints(t, []printCase{
		{ab + `print(linalg.lstsq(A, B))`, "linalg_lstsq(solution=tensor([[1.0000],\n        [2.0000]]), residuals=tensor([]), rank=tensor(2), singular_values=tensor([]))"},
		{ab + `r = linalg.lstsq(A, B, driver="gelsd"); print(r.residuals, r.rank, r.singular_values)`, "tensor([0.]) tensor(2) tensor([1.7321, 1.0000])"},
		{ab + `r = linalg.lstsq(A, B, driver="gelss"); print(r.residuals, r.singular_values)`, "tensor([0.]) tensor([1.7321, 1.0000])"},
		{ab + `r = linalg.lstsq(A, B, driver="gels"); print(r.residuals, r.rank, r.singular_values)`, "tensor([0.]) tensor([], dtype=i64) tensor([])"},
		{`r = linalg.lstsq(randn(2, 3, 2), randn(2, 3, 4)); print(r.solution.shape, r.residuals.shape, r.rank.shape, r.singular_values.shape)`, "[2, 2, 4] [0] [2] [0]"},
		{`r = linalg.lstsq(tensor([[1., 2], [2, 4], [3, 6]]), tensor([[1.], [2], [3]]), driver="gelsd"); print(r.residuals, r.rank)`, "tensor([]) tensor(1)"},
		{catchOf(`linalg.lstsq(tensor([[1., 2], [2, 4], [3, 6]]), tensor([[1.], [2], [3]]), driver="gels")`),
			"LinAlgError: torch.linalg.lstsq: The least squares solution could not be computed because the input matrix does not have full rank (error code: 2)."},
	})
}

// Indexing errors carry PyTorch's kinds and texts: x.select out of range
// is at::select's message, one int or slice on a 0-dim tensor takes
// PyTorch's single-index paths, and a string index is a TypeError.
func TestIndexErrorTexts(t *testing.T) {
	const a = "a = arange(6).reshape(2, 3)\n"
	checkPrints(t, []printCase{
		{a + catchOf(`a.select(1, 5)`), "IndexError: select(): index 5 out of range for tensor of size [2, 3] at dimension 1"},
		{a + catchOf(`a.select(-3, 0)`), "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
		{catchOf(`tensor(5)[0]`), "IndexError: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"},
		{catchOf(`tensor(5)[-1]`), "IndexError: index -1 is out of bounds for dimension 0 with size 0"},
		{catchOf(`tensor(5)[:]`), "IndexError: slice() cannot be applied to a 0-dim tensor."},
		{catchOf(`tensor(5)[0, 0]`), "IndexError: too many indices for tensor of dimension 0"},
		{catchOf(`x = tensor(5); x[0] = 1`), "IndexError: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"},
		{`x = tensor(5); x[...] = 3; print(x, x[none], tensor(5)[...])`, "tensor(3) tensor([3]) tensor(5)"},
		{a + catchOf(`a["x"]`), "TypeError: new(): invalid data type 'str'"},
		{a + catchOf(`a[1.5]`), "IndexError: only integers, slices (`:`), ellipsis (`...`), none and long or bool tensors are valid indices (got float)"},
	})
}

// matmul's shape errors are PyTorch 1.13's, which depend on how ATen
// dispatches: mv for 2-D @ 1-D, an N-D operand folded against a 1-D/2-D
// one (mv or mm with the folded sizes), bmm or the batch broadcast for two
// N-D operands.
func TestMatmulShapeErrors(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`ones(2, 3) @ ones(4)`), "RuntimeError: size mismatch, got 2, 2x3,4"},
		{catchOf(`ones(2, 3).matmul(ones(4))`), "RuntimeError: size mismatch, got 2, 2x3,4"},
		{catchOf(`ones(4) @ ones(2, 3)`), "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x4 and 2x3)"},
		{catchOf(`ones(5, 2, 3) @ ones(4)`), "RuntimeError: size mismatch, got 10, 10x3,4"},
		{catchOf(`ones(4) @ ones(5, 2, 3)`), "RuntimeError: size mismatch, got 15, 15x2,4"},
		{catchOf(`ones(5, 2, 3) @ ones(4, 2)`), "RuntimeError: mat1 and mat2 shapes cannot be multiplied (10x3 and 4x2)"},
		{catchOf(`ones(3, 3) @ ones(2, 4, 5)`), "RuntimeError: mat1 and mat2 shapes cannot be multiplied (10x4 and 3x3)"},
		{catchOf(`ones(5, 2, 3) @ ones(4, 3, 2)`), "RuntimeError: The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0"},
		{catchOf(`ones(2, 5, 2, 3) @ ones(5, 4, 2)`), "RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [10, 3] but got: [10, 4]."},
		{catchOf(`ones(5, 3, 2).permute(0, 2, 1) @ ones(4, 2)`), "RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [5, 4]."},
		{`print((ones(2, 3) @ ones(5, 2, 3).permute(0, 2, 1)).shape)`, "[5, 2, 2]"},
	})
}

// linalg.solve's singular-matrix error has PyTorch 1.13's "torch." prefix.
func TestSolveSingularText(t *testing.T) {
	const a = "A = tensor([[1.0, 2.0], [2.0, 4.0]])\n"
	checkPrints(t, []printCase{
		{a + catchOf(`linalg.solve(A, tensor([1.0, 2.0]))`), "LinAlgError: torch.linalg.solve: The solver failed because the input matrix is singular."},
		{a + catchOf(`linalg.solve(stack([A, A]), ones(2, 2))`), "LinAlgError: torch.linalg.solve: (Batch element 0): The solver failed because the input matrix is singular."},
	})
}

// f32 log is SLEEF's logf_u10 as torch.log's, so exp().log() of small
// integers prints PyTorch's digits (1 is 0.99999994 there).
func TestLogF32Sleef(t *testing.T) {
	const x = "x = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\n"
	checkPrints(t, []printCase{
		{x + `print(x.exp().log())`, "tensor([[1.0000, 2.0000, 3.0000],\n        [4.0000, 5.0000, 6.0000]])"},
		{x + `print(x.exp().t().log()[0], x.exp().log().tolist()[0], log(tensor(2.7182817459106445)).item())`, "tensor([1.0000, 4.0000]) [0.9999999403953552, 2.0, 3.0] 0.9999999403953552"},
	})
}

// Dtype names in PyTorch-mirrored error texts are its ScalarType names
// (Long, Float, Int), and cross_entropy decides between class indices and
// probabilities by the target's shape, as PyTorch 1.13 does.
func TestTorchDTypeNamesInErrors(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`tensor([3, 1, 2]).mean()`), "RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"},
		{catchOf(`tensor([1, 2]).norm()`), "RuntimeError: norm(): input dtype should be either floating point or complex. Got Long instead."},
		{catchOf(`x = tensor([1.0, 2.0]); where(x, x, x)`), "RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype Float"},
		{catchOf(`nn.cross_entropy(tensor([[1, 2]]), tensor([0]))`), "RuntimeError: \"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'"},
		{catchOf(`nn.cross_entropy(ones(1, 2), tensor([0.5]))`), "RuntimeError: expected scalar type Long but found Float"},
		{catchOf(`nn.cross_entropy(ones(2, 3), tensor([0, 1], dtype=i32))`), "RuntimeError: expected scalar type Long but found Int"},
		{catchOf(`nn.cross_entropy(ones(2, 3), tensor([[0.0, 1.0]]))`), "ValueError: Expected input batch_size (2) to match target batch_size (1)."},
		{`print(nn.cross_entropy(tensor([[1.0, 2.0]]), tensor([[0.25, 0.75]])))`, "tensor(0.5633)"},
	})
}

// Chained assignment a = b = rhs is Python's: rhs is evaluated once and
// stored into each target left to right (names, attributes, subscripts,
// slices, unpacking), so that every target holds the same object. The
// wants are CPython 3.11's / PyTorch 1.13's output (testdata/acc/s3_stmt.cases,
// "chained assignment").
func TestChainedAssignment(t *testing.T) {
	checkPrints(t, []printCase{
		{"a = b = 0\nprint(a, b)", "0 0"},
		{"x = y = zeros(3)\nx[0] = 5.0\ny[1] += 2.0\nprint(x, y, x is y)", "tensor([5., 2., 0.]) tensor([5., 2., 0.]) true"},
		{"p, q = r = (1, 2)\nprint(p, q, r)", "1 2 (1, 2)"},
		{"h, *t = u = [1, 2, 3]\nt.append(9)\nprint(h, t, u)", "1 [2, 3, 9] [1, 2, 3]"},
		{"d = {}\nl = [0, 0, 0]\nd[\"k\"] = l[1] = l[2:] = [7]\nprint(d, l, d[\"k\"] is l[1])", "{'k': [7]} [0, [7], 7] true"},
		// left to right: i is rebound before xs[i] is evaluated
		{"i = 0\nxs = [5, 6]\ni = xs[i] = 1\nprint(i, xs)", "1 [5, 1]"},
		{"fn f() {\n    v = w = []\n    v.append(1)\n    return w\n}\nprint(f())", "[1]"},
		{"fn f() { a = b = c = 2; return [a, b, c] }\nprint(f())", "[2, 2, 2]"},
		{"lin = nn.Linear(2, 2)\nlin.weight.requires_grad = lin.bias.requires_grad = false\nprint(lin.weight.requires_grad, lin.bias.requires_grad)", "false false"},
		// the value is computed once
		{"cnt = [0]\nfn nxt() { cnt[0] += 1; return cnt[0] }\nk = m = nxt()\nprint(k, m, cnt)", "1 1 [1]"},
		{"x = s = arange(4.0) * 2\ns += 1\nprint(x is s, x)", "true tensor([1., 3., 5., 7.])"},
		// an operator's or a call's fresh result bound to two names is
		// not recycled when one of them is rebound
		{"a = arange(4.0)\nb = ones(4)\nfn f(a, b) {\n    x = y = a + b\n    x = a * b\n    x = x + 1\n    return y\n}\nprint(f(a, b), f(a, b))\nz = w = exp(a)\nz = z * 2\nprint(w)",
			"tensor([1., 2., 3., 4.]) tensor([1., 2., 3., 4.])\ntensor([ 1.0000,  2.7183,  7.3891, 20.0855])"},
		{catchOf("e1, e2 = e3 = [1, 2, 3]"), "ValueError: too many values to unpack (expected 2)"},
		{"e3 = 0\n" + catchOf("e3 = (e1, e2) = [1, 2, 3]") + "\nprint(e3)", "ValueError: too many values to unpack (expected 2)\n[1, 2, 3]"},
	})
	// CPython's SyntaxErrors (the texts differ: tsr's parser names the token)
	for _, c := range []struct{ src, want string }{
		{"a += b = 1", "1:8: invalid syntax (an augmented assignment cannot be chained)"},
		{"a = b += 1", "1:7: unexpected \"+=\""},
		{"a = *b = 1", "1:5: starred assignment target must be in a list or tuple"},
		{"a = 1 = b", "1:5: cannot assign to this expression"},
		{"a = f() = 1", "1:5: cannot assign to this expression"},
		{"a = b = *c", "1:9: can't use starred expression here"},
	} {
		in := tsr.New(tsr.Options{})
		_, err := in.Eval(context.Background(), "test.tsr", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one containing %q", c.src, err, c.want)
		}
	}
}

// The in-place activations write into the input's own storage (same
// data_ptr, one version bump, the input returned) with PyTorch 1.13's
// values on NaN, ±0, ±Inf and subnormals, and keep torch's autograd
// behaviour: the leaf error, no grad_fn under no_grad, the in-place node
// and its gradient on a non-leaf (testdata/acc/s8_nn.cases, "in-place
// activations into the input's storage").
func TestInplaceActivationsIntoStorage(t *testing.T) {
	const sp = "x = tensor([-0.0, 0.0, nan, -2.0, 3.0, -inf, inf, 7.0])\n"
	checkPrints(t, []printCase{
		{sp + "p = x.data_ptr()\ny = nn.ReLU(inplace=true)(x)\nprint(y is x, x.data_ptr() == p, x._version, x)", "true true 1 tensor([-0., 0., nan, 0., 3., 0., inf, 7.])"},
		{sp + "nn.relu_(x)\nx.relu_()\nrelu_(x)\nnn.relu(x, inplace=true)\nprint(x._version, x)", "4 tensor([-0., 0., nan, 0., 3., 0., inf, 7.])"},
		{sp + "nn.leaky_relu_(x, 0.5)\nprint(x, x._version)", "tensor([-0.,  0., nan, -1.,  3., -inf, inf,  7.]) 1"},
		{sp + "x = x.double()\nnn.LeakyReLU(0.0, inplace=true)(x)\nprint(x, x._version)", "tensor([-0., 0., nan, -0., 3., nan, inf, 7.], dtype=f64) 1"},
		{sp + "nn.hardtanh(x, -1.0, 1.0, inplace=true)\nprint(x, x._version)", "tensor([-0.,  0., nan, -1.,  1., -1.,  1.,  1.]) 1"},
		{sp + "nn.relu6(x, inplace=true)\nprint(x, x._version)", "tensor([-0., 0., nan, 0., 3., 0., 6., 6.]) 1"},
		{sp + "x = x.t()\nx.clamp_(-1.0, 1.0)\nprint(x, x._version)", "tensor([-0.,  0., nan, -1.,  1., -1.,  1.,  1.]) 1"},
		{sp + "print(nn.leaky_relu(x), nn.leaky_relu(x, 0.0), relu(x), nn.hardtanh(x))",
			"tensor([-0.0000,  0.0000,     nan, -0.0200,  3.0000,    -inf,     inf,  7.0000]) tensor([-0., 0., nan, -0., 3., nan, inf, 7.]) tensor([-0., 0., nan, 0., 3., 0., inf, 7.]) tensor([-0.,  0., nan, -1.,  1., -1.,  1.,  1.])"},
		// a strided (not dense) input goes the general way, same values
		{"b = tensor([[-1.0, 2.0], [3.0, -4.0]])\nc = b[:, 0]\nnn.leaky_relu_(c, 0.5)\nprint(b, b._version)", "tensor([[-0.5000,  2.0000],\n        [ 3.0000, -4.0000]]) 1"},
		{"w = randn(3, requires_grad=true)\n" + catchOf("nn.relu(w, inplace=true)") + "\nno_grad { nn.relu_(w) }\nprint(w.grad_fn, w._version, w.min().item() >= 0)",
			"RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\nnone 1 true"},
		{"h = tensor([-1.0, 2.0, -3.0], requires_grad=true)\ng = h * 2\nnn.leaky_relu(g, 0.1, inplace=true)\nprint(g.grad_fn, g)\ng.sum().backward()\nprint(h.grad)",
			"<LeakyReluBackward1> tensor([-0.2000,  4.0000, -0.6000], grad_fn=<LeakyReluBackward1>)\ntensor([0.2000, 2.0000, 0.2000])"},
	})
}
