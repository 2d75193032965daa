package stdlib_test

import "testing"

// TestPreserveFormatStrides: clone(), to(), the dtype methods and the
// *_like factories keep a dense input's strides (PyTorch's default
// memory_format=preserve_format); outputs from PyTorch 1.13.
func TestPreserveFormatStrides(t *testing.T) {
	const x = "x = arange(12, dtype=f32).reshape(3, 4)\n"
	checkPrints(t, []printCase{
		{x + "y = x.t().clone()\nprint(y.stride(), y.is_contiguous(), y.tolist())", "(1, 4) false [[0.0, 4.0, 8.0], [1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [3.0, 7.0, 11.0]]"},
		{x + "print(x.t().contiguous().stride(), x.t().double().stride(), x.t().to(f64).stride(), x.t().to(f64, copy=true).stride())", "(3, 1) (1, 4) (1, 4) (1, 4)"},
		{x + "print(zeros_like(x.t()).stride(), full_like(x.t(), 2).stride(), empty_like(x.t(), dtype=i32).stride(), randn_like(x.t()).stride())", "(1, 4) (1, 4) (1, 4) (1, 4)"},
		{x + "print(ones_like(x[:, ::2]).stride(), x[:, ::2].clone().stride(), x[0].expand(2, 4).clone().stride())", "(2, 1) (2, 1) (4, 1)"},
		{x + "print(x.reshape(3, 2, 2).permute(2, 0, 1).clone().stride(), full_like(x.t(), 2).tolist()[0])", "(1, 4, 2) [2.0, 2.0, 2.0]"},
		{x + "try { x.t().clone().view(-1) } catch e { print(e.kind) }", "RuntimeError"},
		{x + "print(zeros_like(x.t()[::2]).stride(), x.t()[:, ::2].clone().stride(), zeros(1, 5).t().clone().stride(), arange(24.).reshape(2, 3, 4).transpose(0, 2)[::2].clone().stride())", "(1, 2) (1, 4) (1, 5) (1, 2, 6)"},
	})
}
