package stdlib_test

import (
	"errors"
	"testing"

	"github.com/tsrlang/tsr/runtime"
)

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
