package stdlib_test

import "testing"

// Regression tests (third fix round): each want is what PyTorch 1.13 (or
// Python, for the scalar and container cases) prints for the same program.

// An out-of-range integer index names its position in the index tuple,
// as PyTorch's applySelect does, not the dim of the partly indexed view.
func TestIndexErrorNamesTuplePosition(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = arange(24).reshape(2, 3, 4)` + "\n" + catchOf(`x[0, 0, 4]`), "IndexError: index 4 is out of bounds for dimension 2 with size 4"},
		{`x = arange(24).reshape(2, 3, 4)` + "\n" + catchOf(`x[none, 0, 5]`), "IndexError: index 5 is out of bounds for dimension 2 with size 3"},
		{`x = arange(24).reshape(2, 3, 4)` + "\n" + catchOf(`x[..., 7]`), "IndexError: index 7 is out of bounds for dimension 1 with size 4"},
		{`x = arange(24).reshape(2, 3, 4)` + "\n" + catchOf(`x[tensor([true, false]), 5]`), "IndexError: index 5 is out of bounds for dimension 1 with size 3"},
		{`x = arange(24).reshape(2, 3, 4)` + "\n" + catchOf(`x[0][0][4]`), "IndexError: index 4 is out of bounds for dimension 0 with size 4"},
	})
}

// PyTorch names that forward to existing ops: Tensor methods and torch
// functions of linalg ops, broadcast_shapes/broadcast_tensors,
// empty_strided, promote_types/result_type, aminmax, std_mean/var_mean,
// atleast_Nd, column_stack/dstack, linalg.matmul/diagonal/vander.
func TestTorchAliases(t *testing.T) {
	A := `A = tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]])` + "\n"
	checkPrints(t, []printCase{
		{A + `print(A.det(), det(A), A.logdet(), logdet(-A), logdet(zeros(2, 2)))`, "tensor(44.) tensor(44.) tensor(3.7842) tensor(nan) tensor(-inf)"},
		{A + `print(A.slogdet())`, "slogdet(sign=tensor(1.), logabsdet=tensor(3.7842))"},
		{A + `print((A.inverse() @ A - eye(3)).abs().max() < 1e-6, A.matrix_power(2)[0], matrix_power(A, 0)[1])`, "tensor(true) tensor([21.0000,  8.0000, 18.5000]) tensor([0., 1., 0.])"},
		{A + `print(A.cholesky()[1], cholesky(A, upper=true)[0], A.pinverse().shape, A.matrix_exp().shape)`, "tensor([0.5000, 1.6583, 0.0000]) tensor([2.0000, 0.5000, 1.0000]) [3, 3] [3, 3]"},
		{`x = arange(6).reshape(2, 3); print(x.swapdims(0, 1).stride(), x.fliplr()[0], x.flipud()[0], x.mH.shape, x.H.shape, x.adjoint().shape, argwhere(x > 3))`, "(1, 3) tensor([2, 1, 0]) tensor([3, 4, 5]) [3, 2] [3, 2] [3, 2] tensor([[1, 1],\n        [1, 2]])"},
		{`x = arange(6).reshape(2, 3); print(x.aminmax(), aminmax(x, dim=-1).max, x.aminmax(dim=0, keepdim=true).min)`, "aminmax(min=tensor(0), max=tensor(5)) tensor([2, 5]) tensor([[0, 1, 2]])"},
		{A + `print(std_mean(A, dim=1, unbiased=false), var_mean(A, 1)[1])`, "(tensor([1.2472, 1.0801, 1.8708]), tensor([2.3333, 1.5000, 2.5000])) tensor([2.3333, 1.5000, 2.5000])"},
		{`print(arange(3).is_signed(), arange(3).to(u8).is_signed(), is_floating_point(ones(1)), ones(1).is_complex())`, "true false true false"},
		{`e = empty_strided([2, 3], [1, 2]); print(e.shape, e.stride(), e.is_contiguous(), empty_strided((2, 2), (0, 1), dtype=f64).dtype)`, "[2, 3] (1, 2) false f64"},
		{`print(broadcast_shapes([2, 1], [3, 1, 4]), broadcast_shapes(5, [1]))`, "[3, 2, 4] [5]"},
		{catchOf(`broadcast_shapes([2], [3])`), "RuntimeError: Shape mismatch: objects cannot be broadcast to a single shape"},
		{`a, b = broadcast_tensors(ones(3, 1), arange(4)); print(a.shape, b.shape, b.stride())`, "[3, 4] [3, 4] (0, 1)"},
		{`print(promote_types(i32, f16), promote_types(u8, i8), promote_types(bf16, f16), result_type(tensor([1, 2]), 1.0), result_type(tensor([1], dtype=i8), tensor(5)), get_default_dtype())`, "f16 i16 f32 f32 i8 f32"},
		{`print(atleast_1d(tensor(1.0)), atleast_2d(tensor([1, 2])).shape, atleast_3d(ones(2, 3)).shape, atleast_3d(tensor([1, 2])).shape)`, "tensor([1.]) [1, 2] [2, 3, 1] [1, 2, 1]"},
		{`print(column_stack([tensor([1, 2]), tensor([3, 4])]), dstack([tensor([1, 2]), tensor([3, 4])]).shape, concatenate([ones(1), ones(2)]).shape)`, "tensor([[1, 3],\n        [2, 4]]) [1, 2, 2] [3]"},
		{A + `print(linalg.matmul(A, A)[0], linalg.diagonal(A, offset=1), linalg.vander(tensor([1, 2, 3]))[2], linalg.vander(tensor([1.5, 2.0]), N=4)[0])`, "tensor([21.0000,  8.0000, 18.5000]) tensor([1.0000, 0.5000]) tensor([1, 3, 9]) tensor([1.0000, 1.5000, 2.2500, 3.3750])"},
	})
}

// einsum of integer operands keeps their promoted dtype (wrapping around)
// as PyTorch's mul/bmm path does; only an index summed within a single
// operand goes through sum and gives i64.
func TestEinsumIntegerDType(t *testing.T) {
	setup := "a = ones(2, 3, dtype=i8); v = ones(3, dtype=i8); w = ones(2, dtype=i32)\n"
	checkPrints(t, []printCase{
		{setup + `print(einsum("ij,j->i", a, v).dtype, einsum("ij,j->j", a, v).dtype, einsum("ij,k->ik", a, v).dtype, einsum("ij,j->ij", a, v).dtype)`, "i8 i64 i64 i8"},
		{setup + `print(einsum("ii->i", a[:, :2]).dtype, einsum("ij->ji", a).dtype, einsum("ij->j", a).dtype, einsum("ij,jk->ik", a, a.t()).dtype, einsum("i,j->ij", v, w).dtype)`, "i8 i8 i64 i8 i32"},
		{setup + `print(einsum("i,i", v * 100, v * 3), ein"ij,jk"(a.int(), a.t().int()))`, "tensor(-124, dtype=i8) tensor([[3, 3],\n        [3, 3]], dtype=i32)"},
		{`print(einsum("ij,jk->ik", arange(6).reshape(2, 3), arange(6).reshape(3, 2)), einsum("i,i->", arange(3.0), arange(3.0)))`, "tensor([[10, 13],\n        [28, 40]]) tensor(5.)"},
	})
}

// flatten of a 0-d tensor checks its dims as if the tensor were 1-D, as
// PyTorch does.
func TestFlattenZeroDimChecksDims(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor(3.0).flatten(), tensor(3.0).flatten(-1, 0), flatten(tensor(1), 0))`, "tensor([3.]) tensor([3.]) tensor([1])"},
		{catchOf(`tensor(3.0).flatten(5)`), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 5)"},
		{catchOf(`tensor(3.0).flatten(0, 1)`), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
	})
}

// permute with a repeated dim raises PyTorch's permute message (not the
// reductions' "dim appears multiple times").
func TestPermuteDuplicateDims(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`ones(2, 3).permute(0, 0)`), "RuntimeError: permute(): duplicate dims are not allowed."},
		{catchOf(`permute(ones(2, 3), [1, -1])`), "RuntimeError: permute(): duplicate dims are not allowed."},
		{catchOf(`ones(2, 3).sum([0, 0])`), "RuntimeError: dim 0 appears multiple times in the list of dims"},
	})
}
