package stdlib_test

import "testing"

// The aliases and small methods of ops_h5.go and ops_h5_more.go and the
// random fills of random_h5.go against PyTorch 1.13 through
// testdata/gen_h5.py (testdata/h5_fns.json): values (the random fills
// draw PyTorch's exact streams after manual_seed), dtypes, shapes,
// strides, gradients, grad_fn names and errors; and the gradients against
// central finite differences.

func loadH5Fns(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/h5_fns.json", 130, 17, 34)
}

func TestH5FnsGolden(t *testing.T) { checkTorchCases(t, loadH5Fns(t)) }
func TestH5FnsGradFn(t *testing.T) { checkTorchGradFns(t, loadH5Fns(t)) }
func TestH5FnsErrors(t *testing.T) { checkTorchErrors(t, loadH5Fns(t)) }

// TestH5FnsFiniteDifference checks the analytic gradients of the
// composites against central differences.
func TestH5FnsFiniteDifference(t *testing.T) {
	a := fdLeaf{"a", "2, 3", []float64{0.3, -0.7, 1.2, -1.6, 0.9, 0.1}}
	v := fdLeaf{"v", "3", []float64{0.5, 1.5, 3.25}}
	b1 := fdLeaf{"b1", "2, 2, 3", []float64{0.1, 0.2, -0.3, 0.4, 1, -1, 2, 0.5, 0.3, -0.2, 0.8, 0.6}}
	b2 := fdLeaf{"b2", "2, 3, 3", []float64{1.5, -0.5, 0.25, 2, 0.7, 0.1, -0.3, 0.9, 1.1, 0.2, -0.4, 0.6, 1.3, -1.2, 0.05, 0.8, 0.35, -0.9}}
	checkFiniteDifferences(t, []fdCase{
		{"(a * 1).cumsum_(1)", []fdLeaf{a}},
		{"(a * 1).cumprod_(0)", []fdLeaf{a}},
		{"a.sum_to_size(1, 3)", []fdLeaf{a}},
		{"rsub(a, v, alpha=2)", []fdLeaf{a, v}},
		{"diagflat(v, -1)", []fdLeaf{v}},
		{"combinations(v, with_replacement=true)", []fdLeaf{v}},
		{"frexp(a).mantissa", []fdLeaf{a}},
		{"renorm(a, 2, 0, 1.)", []fdLeaf{a}},
		{"renorm(a, 3, 1, 1.)", []fdLeaf{a}},
		{"addbmm(a, b1, b2, beta=0.5, alpha=2)", []fdLeaf{a, b1, b2}},
		{"slice_scatter(a, v[:2].reshape(2, 1), dim=1, start=1, end=2)", []fdLeaf{a, v}},
		{"select_scatter(a, v, 0, 1)", []fdLeaf{a, v}},
		{"diagonal_scatter(a, v[:2])", []fdLeaf{a, v}},
		{"index_put(a, (tensor([0, 1, 0]), tensor([2, 2, 2])), v, true)", []fdLeaf{a, v}},
		{"index_put(a, (tensor([1]),), v)", []fdLeaf{a, v}},
		{"gradient(a, spacing=[0.5, 2.])[1]", []fdLeaf{a}},
		{"gradient(a, dim=1, edge_order=2)[0]", []fdLeaf{a}},
		{"gradient(a, spacing=[tensor([0., 1.5, 2.], dtype=f64)], dim=1, edge_order=2)[0]", []fdLeaf{a}},
	})
}

// TestH5FnsProgram runs the new functions as a user would write them
// (outputs from PyTorch 1.13).
func TestH5FnsProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = arange(6.)
x.resize_(2, 2)
print(x, x._version)
x.resize_(3, 3)
print(x.shape, x[:2].tolist(), x._version)`, "tensor([[0., 1.],\n        [2., 3.]]) 1\n[3, 3] [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] 2"},
		{`g = ones(2, requires_grad=true)
y = g * 2
print(y.retains_grad)
y.retain_grad()
print(y.retains_grad, g.retains_grad, g.is_cpu, g.get_device())`, "false\ntrue false true -1"},
		{`print(is_nonzero(tensor([[0.]])), tensor([1]).is_same_size(tensor([2])), is_signed(tensor([1], dtype=u8)), tensor([1.]).is_signed())`,
			"false true false true"},
		{`print(frexp(tensor([8., 0.3])))`, "frexp(mantissa=tensor([0.5000, 0.6000]), exponent=tensor([ 4, -1], dtype=i32))"},
		{`print(slice_scatter(zeros(4), ones(2), start=0, step=2), gradient(tensor([1., 4., 9., 16.])))`,
			"tensor([1., 0., 1., 0.]) (tensor([3., 4., 6., 7.]),)"},
		{`manual_seed(0)
s = get_rng_state()
a = rand(3)
set_rng_state(s)
print(rand(3).equal(a), initial_seed(), s.shape, s.dtype)
t = seed()
print(initial_seed() == t)`, "true 0 [5056] u8\ntrue"},
	})
}

// TestH5RandomMoments checks the fills' distributions on large samples
// (a fixed seed keeps the test deterministic): means and variances
// within a few standard errors of the exact moments.
func TestH5RandomMoments(t *testing.T) {
	checkPrints(t, []printCase{
		{`manual_seed(123)
n = 200000
e = empty(n, dtype=f64).exponential_(4.)
print((e.mean() - 0.25).abs() < 0.002, (e.var() - 0.0625).abs() < 0.002)
l = empty(n, dtype=f64).log_normal_(0.5, 0.25)
print((l.log().mean() - 0.5).abs() < 0.003, (l.log().std() - 0.25).abs() < 0.003)
g = empty(n, dtype=f64).geometric_(0.2)
print((g.mean() - 5.).abs() < 0.05, g.min().item())
c = empty(n, dtype=f64).cauchy_(2., 3.)
print((c.median() - 2.).abs() < 0.05)
b = empty(n).bernoulli_(0.3)
print((b.mean() - 0.3).abs() < 0.005)
p = poisson(full([n], 4.5, dtype=f64))
print((p.mean() - 4.5).abs() < 0.03, (p.var() - 4.5).abs() < 0.1)
q = poisson(full([n], 40., dtype=f64))
print((q.mean() - 40.).abs() < 0.1, (q.var() - 40.).abs() < 1.)
r = empty(n, dtype=i64).random_(3, 7)
print(r.min().item(), r.max().item(), (r.to(f64).mean() - 4.5).abs() < 0.02)`,
			"tensor(true) tensor(true)\ntensor(true) tensor(true)\ntensor(true) 1.0\ntensor(true)\ntensor(true)\ntensor(true) tensor(true)\ntensor(true) tensor(true)\n3 6 tensor(true)"},
	})
}
