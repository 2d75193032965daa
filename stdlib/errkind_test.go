package stdlib_test

import (
	"errors"
	"testing"

	"github.com/tsrlang/tsr/runtime"
)

// TestTensorFormat: f-strings and format() of a 0-d tensor format its
// item, as PyTorch's Tensor.__format__ (outputs from PyTorch 1.13).
func TestTensorFormat(t *testing.T) {
	checkPrints(t, []printCase{
		{`print(f"{tensor(7)}|{tensor(2.5)}|{tensor(2.5)!s}|{tensor([1, 2])}")`, "7|2.5|tensor(2.5000)|tensor([1, 2])"},
		{"x = tensor(3.0, requires_grad=true)\nprint(f\"{x * 1}\", format(tensor(2.5)), f\"{tensor(2.25):.1f}\")", "3.0 2.5 2.2"},
		{`try { print(f"{tensor([1., 2.]):.2f}") } catch e { print(e.kind) }`, "TypeError"},
	})
}

// TestErrorKinds pins error kinds that PyTorch/Python users catch on.
func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct{ src, kind, msg string }{
		{"a, b = tensor(1)", "TypeError", "iteration over a 0-d tensor"},
		{"for v in tensor(2.0) { }", "TypeError", "iteration over a 0-d tensor"},
		{"round(inf)", "OverflowError", "cannot convert float infinity to integer"},
		{"randn(2, dtype=i64)", "RuntimeError", "\"normal_kernel_cpu\" not implemented for 'Long'"},
		{"rand(2, dtype=i64)", "RuntimeError", "\"check_uniform_bounds\" not implemented for 'Long'"},
	} {
		_, err := runTsr(t, tc.src)
		var e *runtime.EvalError
		if !errors.As(err, &e) || e.Kind != tc.kind || e.Msg != tc.msg {
			t.Errorf("%s: got %v, want %s: %s", tc.src, err, tc.kind, tc.msg)
		}
	}
}
