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
