package stdlib_test

import "testing"

// Regression tests (second fix round): each want is what PyTorch 1.13
// prints for the same program.

// div(rounding_mode="trunc") on integers divides exactly in integers,
// not through float32.
func TestDivTruncIntegerExact(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor([2147483647], dtype=i32).div(tensor([1], dtype=i32), rounding_mode="trunc"))`, "tensor([2147483647], dtype=i32)"},
		{`print(tensor([1099511627777]).div(tensor([3]), rounding_mode="trunc").tolist())`, "[366503875925]"},
		{`print(tensor([9007199254740993]).div(tensor([1]), rounding_mode="trunc").tolist())`, "[9007199254740993]"},
		{`print(tensor([-7, 7, -7, 7], dtype=i32).div(tensor([2, -2, -2, 2], dtype=i32), rounding_mode="trunc"))`, "tensor([-3, -3,  3,  3], dtype=i32)"},
		{`print(tensor([-128], dtype=i8).div(tensor([-1], dtype=i8), rounding_mode="trunc"))`, "tensor([-128], dtype=i8)"},
		{`print(tensor([5], dtype=u8).div(tensor([2], dtype=i8), rounding_mode="trunc"))`, "tensor([2], dtype=i16)"},
		{`print(tensor([200], dtype=u8).div(3, rounding_mode="trunc"))`, "tensor([66], dtype=u8)"},
		{`print(tensor([7]).div(2.0, rounding_mode="trunc"))`, "tensor([3.])"},
		{catchOf(`tensor([5], dtype=i32).div(tensor([0], dtype=i32), rounding_mode="trunc")`), "RuntimeError: ZeroDivisionError"},
		{catchOf(`tensor([5], dtype=i32).div(0, rounding_mode="trunc")`), "RuntimeError: ZeroDivisionError"},
		{catchOf(`tensor([true]).div(tensor([true]), rounding_mode="trunc")`), `RuntimeError: "div_trunc_cpu" not implemented for 'Bool'`},
	})
}

// sum/prod/cumsum/cumprod honour an integer or bool dtype= (computed and
// returned in that dtype, with its wraparound).
func TestReductionIntegerDType(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor([1.5, 2.5]).sum(dtype=i32))`, "tensor(3, dtype=i32)"},
		{`print(tensor([100, 100], dtype=i8).sum(dtype=i8), tensor([100, 100], dtype=i8).sum(0, dtype=i8))`, "tensor(-56, dtype=i8) tensor(-56, dtype=i8)"},
		{`print(tensor([1, 2], dtype=i32).sum(0, dtype=i32), tensor([1, 2], dtype=i32).nansum(dtype=i32))`, "tensor(3, dtype=i32) tensor(3, dtype=i32)"},
		{`print(tensor([200, 100], dtype=u8).sum(dtype=u8), tensor([70000, 70000]).sum(dtype=i16))`, "tensor(44, dtype=u8) tensor(8928, dtype=i16)"},
		{`print(tensor([1, 2]).sum(dtype=bool), tensor([0, 0]).sum(dtype=bool), zeros(0, dtype=i8).sum(dtype=bool))`, "tensor(true) tensor(false) tensor(false)"},
		{`print(tensor([1, 2, 0]).prod(dtype=bool), tensor([1, 2, 3]).prod(dtype=bool), zeros(0, dtype=i8).prod(dtype=bool))`, "tensor(false) tensor(true) tensor(true)"},
		{`print(tensor([100, 3], dtype=i8).prod(dtype=i8), tensor([100, 3], dtype=i8).prod(0, dtype=i16))`, "tensor(44, dtype=i8) tensor(300, dtype=i16)"},
		{`print(tensor([[1, 2], [3, 4]], dtype=i8).sum(1, dtype=i16))`, "tensor([3, 7], dtype=i16)"},
		{`print(tensor([1.5, 2.5]).cumsum(0, dtype=i32))`, "tensor([1, 3], dtype=i32)"},
		{`print(tensor([100, 100, 100], dtype=i8).cumsum(0, dtype=i8))`, "tensor([100, -56,  44], dtype=i8)"},
		{`print(tensor([100, 100, 100], dtype=i8).cumsum(0))`, "tensor([100, 200, 300])"},
		{`print(tensor([10, 10, 10], dtype=i8).cumprod(0, dtype=i8))`, "tensor([ 10, 100, -24], dtype=i8)"},
		{`print(sum(tensor([100, 100], dtype=i8), dtype=i8), prod(tensor([100, 3], dtype=i8), dtype=i8))`, "tensor(-56, dtype=i8) tensor(44, dtype=i8)"},
		{catchOf(`tensor([1, 2, 0, 3]).cumsum(0, dtype=bool)`), `RuntimeError: "cumsum_out_cpu" not implemented for 'Bool'`},
		{catchOf(`tensor([1, 2, 0, 3]).cumprod(0, dtype=bool)`), `RuntimeError: "cumprod_out_cpu" not implemented for 'Bool'`},
		{catchOf(`tensor([1.0, 2.0]).mean(dtype=i32)`), "RuntimeError: mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: i32"},
	})
}

// The 2-norm of a slice holding both NaN and Inf is NaN (Go's
// math.Max(NaN, +Inf) is +Inf).
func TestNormNaNWithInf(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(tensor([inf, nan]).norm(), tensor([nan, inf]).norm(), tensor([-inf, 1.0]).norm())`, "tensor(nan) tensor(nan) tensor(inf)"},
		{`print(linalg.vector_norm(tensor([nan, inf])), linalg.vector_norm(tensor([-inf, nan], dtype=f64)))`, "tensor(nan) tensor(nan, dtype=f64)"},
		{`print(linalg.matrix_norm(tensor([[inf, nan], [1.0, 2.0]])), linalg.norm(tensor([[inf, nan], [1.0, 2.0]])))`, "tensor(nan) tensor(nan)"},
		{`print(tensor([[inf, nan], [1.0, 2.0], [inf, 3.0]]).norm(dim=1))`, "tensor([   nan, 2.2361,    inf])"},
		{`print(tensor([inf, nan], dtype=f16).norm(), tensor([inf, nan]).expand(3, 2).norm(dim=1))`, "tensor(nan, dtype=f16) tensor([nan, nan, nan])"},
	})
}
