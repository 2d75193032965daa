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
		{catchOf(`tensor([1.0, 2.0]).mean(dtype=i32)`), "RuntimeError: mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: Int"},
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

// Numeric details as PyTorch computes them: x ** 0.5 / -0.5 / -1 are
// sqrt / rsqrt / reciprocal and x ** 2, 3, -2 are products in the dtype;
// rsqrt in f32 is 1/sqrt in float; relu(-0.0) is -0.0 and sign(-0.0) is
// +0.0; f16 round(decimals<0) divides by 10^-d in half; f16/bf16 lerp is
// computed in f32 and rounded once; linspace follows ATen's kernel.
func TestNumericDetailsAsPyTorch(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = tensor([-inf, -0.0, 0.0, inf, nan, -4.0])
print(x ** 0.5, x ** -0.5)`, "tensor([nan, -0., 0., inf, nan, nan]) tensor([nan, -inf, inf, 0., nan, nan])"},
		{`print(tensor([-inf, -0.0], dtype=f64).pow(0.5), tensor([-inf, -0.0], dtype=bf16) ** -0.5)`, "tensor([nan, -0.], dtype=f64) tensor([nan, -inf], dtype=bf16)"},
		{`print(tensor([-inf, -0.0]) ** tensor(0.5), tensor([-inf, -0.0], dtype=f16) ** 0.5)`, "tensor([inf, 0.]) tensor([inf, 0.], dtype=f16)"},
		{`y = tensor([-inf, -0.0, 4.0]); y **= 0.5; print(y)`, "tensor([nan, -0., 2.])"},
		{`x = tensor([1.7, -2.3]); print((x ** 3).tolist(), (x ** -2).tolist(), tensor([1.7, 3.3]).rsqrt().tolist())`,
			"[4.913000106811523, -12.166999816894531] [0.34602075815200806, 0.18903592228889465] [0.7669649720191956, 0.550481915473938]"},
		{`print(tensor([1.7, -2.3], dtype=bf16) ** 3, tensor([4, 0]) ** 0.5)`, "tensor([  4.9375, -12.1250], dtype=bf16) tensor([2., 0.])"},
		{`print(tensor([-0.0, 0.0, nan, -1.0]).relu().tolist(), tensor([-0.0, 0.0, nan, -2.0]).sign().tolist())`, "[-0.0, 0.0, nan, 0.0] [0.0, 0.0, 0.0, -1.0]"},
		{`print(tensor([-25.015625], dtype=f16).round(decimals=-1), tensor([-25.015625]).round(decimals=-1))`, "tensor([-30.], dtype=f16) tensor([-30.])"},
		{`print(tensor([2.62890625], dtype=f16).lerp(tensor([-5.8671875], dtype=f16), 0.3).tolist())`, "[0.080078125]"},
		{`print(tensor([2.62890625], dtype=bf16).lerp(tensor([-5.8671875], dtype=bf16), 0.3).tolist())`, "[0.0751953125]"},
		{`print(linspace(0, 1, 1001)[11].item(), linspace(-1, 1, 7)[3].item())`, "0.010999999940395355 -2.9802322387695312e-08"},
		{`print(linspace(0, 1, 1001, dtype=f64)[11].item(), linspace(-3.7, 12.2, 100, dtype=f16)[40].item())`, "0.011 2.7265625"},
	})
}

// Semantics and error kinds as PyTorch 1.13.
func TestSemanticsAndErrorKindsAsPyTorch(t *testing.T) {
	const overlap = "RuntimeError: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
	checkPrints(t, []printCase{
		{`z = zeros(5); y = z.expand(3, 5); y.fill_(2); print(y.tolist(), z._version)`, "[[2.0, 2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0, 2.0]] 1"},
		{`z = ones(2, 1); z.expand(2, 3).zero_(); print(z.tolist())`, "[[0.0], [0.0]]"},
		{catchOf(`zeros(5).expand(3, 5).add_(1)`), overlap},
		{catchOf(`zeros(5).expand(3, 5).copy_(ones(3, 5))`), overlap},
		{`print(zeros(3, 4)[[]], zeros(3, 4)[:, []].shape, zeros(3, 4)[[], 0].shape)`, "tensor([], size=(0, 4)) [3, 0] [0]"},
		{catchOf(`tensor([300], dtype=i8)`), "RuntimeError: value cannot be converted to type int8 without overflow"},
		{catchOf(`tensor([[1, 2], [3, -129]], dtype=i8)`), "RuntimeError: value cannot be converted to type int8 without overflow"},
		{catchOf(`tensor([256], dtype=u8)`), "RuntimeError: value cannot be converted to type uint8 without overflow"},
		{catchOf(`tensor([-1.0], dtype=u8)`), "RuntimeError: value cannot be converted to type uint8 without overflow"},
		{catchOf(`tensor([127.5], dtype=i8)`), "RuntimeError: value cannot be converted to type int8 without overflow"},
		{catchOf(`tensor([1e10], dtype=i32)`), "RuntimeError: value cannot be converted to type int32 without overflow"},
		{`print(tensor([-1, 2.5], dtype=u8), tensor([1e40]), tensor([-300], dtype=i16))`, "tensor([255,   2], dtype=u8) tensor([inf]) tensor([-300], dtype=i16)"},
		{catchOf(`where(tensor([true, false]), tensor([1, 2], dtype=i8), 1000)`), "RuntimeError: value cannot be converted to type int8_t without overflow"},
		{catchOf(`where(tensor([true, false]), 1000, tensor([1, 2], dtype=i8))`), "RuntimeError: value cannot be converted to type int8_t without overflow"},
		{catchOf(`full([2], 300, dtype=i8)`), "RuntimeError: value cannot be converted to type int8_t without overflow"},
		{`print(where(tensor([true, false]), tensor([1, 2], dtype=i8), 100), where(tensor([true, false]), tensor([1, 2], dtype=i8), 1000.0))`, "tensor([  1, 100], dtype=i8) tensor([   1., 1000.])"},
		{catchOf(`zeros(0).amax()`), "RuntimeError: amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
		{catchOf(`zeros(0, 3).amin()`), "RuntimeError: amin(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
		{catchOf(`zeros(0, 3).amax(0)`), "IndexError: amax(): Expected reduction dim 0 to have non-zero size."},
		{catchOf(`tensor([1.0]).div(tensor([2.0]), rounding_mode="foo")`), "RuntimeError: div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'foo'"},
		{catchOf(`tril(zeros(3))`), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got -2)"},
		{catchOf(`zeros(3).triu()`), "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got -2)"},
		{catchOf(`tril(tensor(1.0))`), "IndexError: Dimension specified as -2 but tensor has no dimensions"},
		{`print(searchsorted(tensor([1.0, 2.0, nan]), tensor([nan])), searchsorted(tensor([1.0, 2.0, nan]), tensor([nan]), right=true))`, "tensor([3]) tensor([3])"},
		{`print(searchsorted(tensor([1.0, 2.0, 3.0]), tensor([nan, 2.5])), bucketize(tensor([nan]), tensor([1.0, 2.0, 3.0])), searchsorted(tensor([1.0, nan, nan]), tensor([nan, 5.0])))`, "tensor([3, 2]) tensor([3]) tensor([3, 3])"},
	})
}

// range() lengths and iteration do not wrap around int64 (Python's values;
// a length beyond int64 is Python's OverflowError).
func TestHugeRanges(t *testing.T) {
	checkPrints(t, []printCase{
		{`M = 9223372036854775807
print(len(range(-M, M, 3)), len(range(M, -M, -3)), len(range(-M - 1, M, M)), len(range(M, -M - 1, -M - 1)))`, "6148914691236517205 6148914691236517205 3 2"},
		{`M = 9223372036854775807
s = []
for i in range(M - 5, M, 3) { s = s + [i]; if len(s) > 5 { break } }
for i in range(-M + 5, -M - 1, -4) { s = s + [i]; if len(s) > 10 { break } }
print(s)`, "[9223372036854775802, 9223372036854775805, -9223372036854775802, -9223372036854775806]"},
		{`M = 9223372036854775807
print(range(-M, M, 3)[-1], M - 1 in range(-M, M, 3), M - 2 in range(-M, M, 3), len(range(0, 10, 3)), len(range(10, 0, -3)))`, "9223372036854775805 false true 4 4"},
		{`M = 9223372036854775807
` + catchOf(`len(range(-M, M))`), "OverflowError: Python int too large to convert to C ssize_t"},
	})
}
