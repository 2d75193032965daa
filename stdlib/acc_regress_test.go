package stdlib_test

import "testing"

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
