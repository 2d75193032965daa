package stdlib_test

import "testing"

// linalg.lu_factor, lu_factor_ex, lu, lu_solve, solve_ex, inv_ex,
// cholesky_ex, tensorinv, tensorsolve and the top-level lu_unpack,
// cholesky_solve, cholesky_inverse and triangular_solve against PyTorch
// 1.13 through testdata/gen_linalg_lu.py (testdata/linalg_lu.json):
// values, dtypes, shapes, pivots and info exactly, gradients, grad_fn
// names and errors; and the gradients against central finite differences.

func loadLinalgLU(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/linalg_lu.json", 104, 13, 33)
}

func TestLinalgLUGolden(t *testing.T) { checkTorchCases(t, loadLinalgLU(t)) }
func TestLinalgLUGradFn(t *testing.T) { checkTorchGradFns(t, loadLinalgLU(t)) }
func TestLinalgLUErrors(t *testing.T) { checkTorchErrors(t, loadLinalgLU(t)) }

// TestLinalgLUFiniteDifference checks the analytic gradients (including
// the custom lu_factor, cholesky_solve and cholesky_inverse backwards)
// against central differences. PyTorch's cholesky_solve and
// cholesky_inverse gradients treat the factor as a full matrix while only
// its triangle is read, so those are checked through c.tril().
func TestLinalgLUFiniteDifference(t *testing.T) {
	sq := fdLeaf{"a", "3, 3", []float64{1, 5, 2, 4, 3, 7, 2, 9, 1}}
	wide := fdLeaf{"a", "3, 4", []float64{1, 2, 3, 4, 5, 6, 7, 9, 1, 1, 2, 1}}
	tall := fdLeaf{"a", "4, 3", []float64{1, 5, 1, 2, 6, 1, 3, 7, 2, 4, 9, 1}}
	b := fdLeaf{"b", "3, 2", []float64{1, 2, 3, 4, 5, 6}}
	c := fdLeaf{"c", "3, 3", []float64{2, 0, 0, 0.5, 3, 0, -1, 0.25, 1.5}}
	checkFiniteDifferences(t, []fdCase{
		{"linalg.lu_factor(a).LU", []fdLeaf{sq}},
		{"linalg.lu_factor(a).LU", []fdLeaf{wide}},
		{"linalg.lu_factor(a).LU", []fdLeaf{tall}},
		{"linalg.lu(a).L[:3] * 2. + linalg.lu(a).U", []fdLeaf{tall}},
		{"linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b, adjoint=true)", []fdLeaf{sq, b}},
		{"linalg.lu_solve(linalg.lu_factor(a).LU, linalg.lu_factor(a).pivots, b.mT, left=false)", []fdLeaf{sq, b}},
		{"cholesky_solve(b, c.tril())", []fdLeaf{c, b}},
		{"cholesky_solve(b, c.tril().mT, upper=true)", []fdLeaf{c, b}},
		{"cholesky_inverse(c.tril())", []fdLeaf{c}},
		{"triangular_solve(b, a, transpose=true, unitriangular=true).solution", []fdLeaf{sq, b}},
		{"linalg.tensorsolve(a.reshape(3, 3, 1), b[:, 1])", []fdLeaf{sq, b}},
	})
}

// TestLinalgLUProgram runs the functions as a user would write them
// (outputs from PyTorch 1.13).
func TestLinalgLUProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`A = tensor([[1., 5., 2.], [4., 3., 7.], [2., 9., 1.]])
LU, piv = linalg.lu_factor(A)
print(piv)
P, L, U = linalg.lu(A)
print(P)
print((P @ L @ U - A).abs().max() < 1e-6)`, "tensor([2, 3, 3], dtype=i32)\ntensor([[0., 0., 1.],\n        [1., 0., 0.],\n        [0., 1., 0.]])\ntensor(true)"},
		{`r = linalg.lu_factor_ex(tensor([[1., 2., 3.], [2., 4., 6.], [1., 1., 1.]]))
print(r.pivots, r.info)`, "tensor([2, 3, 3], dtype=i32) tensor(3, dtype=i32)"},
		{`print(linalg.solve_ex(zeros(2, 3, 3), zeros(2, 3, 2)).info)`, "tensor([1, 1], dtype=i32)"},
		{`print(linalg.cholesky_ex(tensor([[4., 2., 1.], [2., 1., 3.], [1., 3., 5.]])))`,
			"linalg_cholesky_ex(L=tensor([[2.0000, 0.0000, 0.0000],\n        [1.0000, 0.0000, 0.0000],\n        [0.5000, 3.0000, 5.0000]]), info=tensor(2, dtype=i32))"},
	})
}
