package stdlib_test

import "testing"

// unique(dim=) as torch.unique(x, dim=...): distinct slices in
// lexicographic order, inverse over the dim, counts; outputs from PyTorch
// 1.13 (booleans print as tsr's true/false).
func TestUniqueDimLikeTorch(t *testing.T) {
	const x = "x = tensor([[1, 2, 1], [3, 0, 3], [1, 2, 1]])\n"
	checkPrints(t, []printCase{
		{x + "print(x.unique(dim=0).tolist(), x.unique(dim=1).tolist())", "[[1, 2, 1], [3, 0, 3]] [[1, 2], [3, 0], [1, 2]]"},
		{x + "v, i, c = unique(x, dim=1, return_inverse=true, return_counts=true)\nprint(v.tolist(), i.tolist(), c.tolist())", "[[1, 2], [3, 0], [1, 2]] [0, 1, 0] [2, 1]"},
		{"y = tensor([[2.0, 1.0], [1.0, 5.0], [2.0, 1.0], [1.0, 4.0]])\nv, i = y.unique(dim=0, return_inverse=true)\nprint(v.tolist(), i.tolist())", "[[1.0, 4.0], [1.0, 5.0], [2.0, 1.0]] [2, 1, 2, 0]"},
		{"z = arange(8).reshape(2, 2, 2) % 3\nv, c = z.unique(dim=2, return_counts=true)\nprint(v.tolist(), c.tolist())", "[[[0, 1], [2, 0]], [[1, 2], [0, 1]]] [1, 1]"},
		{"print(zeros(0, 3).unique(dim=0).shape, tensor([true, false, true]).unique(dim=0), tensor([[1.0, 2.0]]).unique(dim=-1).tolist())", "[0, 3] tensor([false,  true]) [[1.0, 2.0]]"},
		{catchOf("zeros(3, 0).unique(dim=0)"), "RuntimeError: There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"},
		{catchOf("tensor(3).unique(dim=0)"), "IndexError: Dimension specified as 0 but tensor has no dimensions"},
	})
}

// NaN and -0.0 as PyTorch 1.13's unique_dim: slices compare by < and >
// (NaN ties), and a NaN slice never equals another, so it is never merged;
// f16 is not implemented there.
func TestUniqueDimNaNLikeTorch(t *testing.T) {
	checkPrints(t, []printCase{
		{"v, i, c = unique(tensor([0.0, -0.0, nan, nan, 1.0]), dim=0, return_inverse=true, return_counts=true)\nprint(v, i.tolist(), c.tolist())", "tensor([0., nan, nan, 1.]) [0, 0, 1, 2, 3] [2, 1, 1, 1]"},
		{"v, i, c = unique(tensor([[0.0, nan], [-0.0, nan], [0.0, 1.0], [-inf, 2.0]]), dim=0, return_inverse=true, return_counts=true)\nprint(v.tolist(), i.tolist(), c.tolist())", "[[-inf, 2.0], [0.0, nan], [-0.0, nan], [0.0, 1.0]] [1, 2, 3, 0] [1, 1, 1, 1]"},
		{"v, i = unique(tensor([[0.0, nan], [-0.0, nan], [0.0, 1.0], [-inf, 2.0]]), dim=1, return_inverse=true)\nprint(i.tolist())", "[0, 1]"},
		{catchOf("ones(2, 2, dtype=f16).unique(dim=0)"), "RuntimeError: \"unique_dim\" not implemented for 'Half'"},
	})
}

// An empty index scatters and gathers nothing and checks no shapes, as
// PyTorch 1.13 (zeros(2, 3).scatter(0, zeros(0).long(), zeros(0)) is self).
func TestEmptyIndexScatterGather(t *testing.T) {
	const z = "z = zeros(2, 3)\ni = zeros(0, dtype=i64)\n"
	checkPrints(t, []printCase{
		{z + "print(z.scatter(0, i, zeros(0)).tolist(), z.scatter_add(0, i, zeros(0)).tolist(), z.scatter_reduce(0, i, zeros(0), \"sum\").tolist())", "[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]] [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]] [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]"},
		{z + "print(z.gather(0, i).shape, z.gather(1, zeros(2, 0, dtype=i64)).shape, z.gather(0, zeros(1, 1, 0, dtype=i64)).shape)", "[0] [2, 0] [1, 1, 0]"},
	})
}
