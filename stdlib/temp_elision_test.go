package stdlib_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Temporary elision (BINARY_TMP, TensorValue.BinaryTemp): an operator
// applied to another operator's result computes into that result. Every
// expression here must print exactly what the same computation prints with
// the temporary bound to a name first (no elision), values, dtype, shape
// and strides alike.
func TestTempElisionSameResults(t *testing.T) {
	setup := "a = arange(24, dtype=f32).reshape(2, 3, 4) * 0.37 - 2\nb = arange(24, dtype=f32).reshape(2, 3, 4).flip(0) * 1.3 + 0.5\n" +
		"r = arange(4, dtype=f32) + 1\nc = arange(3, dtype=f32).reshape(3, 1)\nd = a.double()\ni = arange(24).reshape(2, 3, 4)\n" +
		"h = a.half()\nm = a > 0\nbt = b.transpose(0, 2)\n"
	for _, e := range []struct{ inner, rest string }{
		{"a * b", "+ 1.5"}, {"a * b", "- b"}, {"a + b", "* r"}, {"a - b", "/ 3"}, {"a * 2", "/ b"},
		{"a @ b.transpose(1, 2)", "+ 1"}, {"a * b", "+ c"}, // c broadcasts without growing
		{"a * b", "+ a.reshape(2, 1, 3, 4)"}, // grows: declined
		{"a * b", "+ d"},                     // promotes to f64: declined
		{"i * 2", "+ 1"}, {"i * 2", "/ 4"}, // ints: declined
		{"h * 2", "+ 1"},  // f16: declined
		{"a * 2", "+ m"},  // bool tensor
		{"a * 2", "- 7"},  // int number
		{"a * 2", "* true"},
		{"a * 2", "+ 16777217"},
		{"a * b", "+ bt.transpose(0, 2)"}, // transposed operand
		{"a / 0", "* 0"},                  // inf * 0 = nan
		{"-a", "* 2"}, {"(a + b) * (a - b)", "/ 2"}, {"a ** 2", "- 1"}, {"a // 1", "+ 1"},
		{"a.transpose(0, 2) * 2", "+ 1"}, // a transposed temporary: declined
		{"a[0] * 2", "+ 1"},
	} {
		src := setup + fmt.Sprintf("z1 = (%s) %s\ntmp = %s\nz2 = tmp %s\n", e.inner, e.rest, e.inner, e.rest) +
			"print(z1.dtype, z1.shape, z1.stride(), z2.dtype, z2.shape, z2.stride())\nprint(z1.tolist() == z2.tolist() or z1.isnan().any().item())\nprint(z1)\nprint(z2)"
		out := strings.Split(strings.TrimSpace(runPrint(t, src)), "\n")
		if len(out) < 2 {
			t.Fatalf("%s %s: %v", e.inner, e.rest, out)
		}
		f := strings.Fields(out[0])
		half := len(f) / 2
		if strings.Join(f[:half], " ") != strings.Join(f[half:], " ") || out[1] != "true" {
			t.Errorf("(%s) %s: elided and bound results differ:\n%s", e.inner, e.rest, strings.Join(out, "\n"))
		}
		rest := out[2:]
		if n := len(rest) / 2; strings.Join(rest[:n], "\n") != strings.Join(rest[n:], "\n") {
			t.Errorf("(%s) %s: printed results differ:\n%s", e.inner, e.rest, strings.Join(rest, "\n"))
		}
	}
}

// The elision happens (one storage for (x * 2) + 1 instead of two), never
// when autograd needs the temporary, and x - true still raises.
func TestTempElisionAllocatesOnce(t *testing.T) {
	// bytes of storage allocated by a program
	count := func(src string) int64 {
		t.Helper()
		_, b0, _ := tensor.PoolStats()
		runPrint(t, src)
		_, b1, _ := tensor.PoolStats()
		return b1 - b0
	}
	const x = "x = zeros(100000)\n" // 400 kB
	elided := count(x + "y = ((x * 2) + 1) / 3 - x\n")
	bound := count(x + "t1 = x * 2\nt2 = t1 + 1\nt3 = t2 / 3\ny = t3 - x\n")
	if d := bound - elided; d < 3*400000-100 || d > 3*400000+100 { // give or take the numbers' 0-d storages
		t.Errorf("((x * 2) + 1) / 3 - x allocated %d bytes, the bound form %d: want 3 results fewer", elided, bound)
	}
	checkPrints(t, []printCase{
		// autograd: the temporary is saved for backward, so no elision and right gradients
		{"w = tensor([1.0, 2.0], requires_grad=true)\ny = ((w * w) * 3 + 1).sum()\ny.backward()\nprint(w.grad, y)", "tensor([ 6., 12.]) tensor(17., grad_fn=<SumBackward0>)"},
		{"w = tensor([1.0, 2.0], requires_grad=true)\nprint(((w * 2) + 1).grad_fn)", "<AddBackward0>"},
		{catchOf("z = (zeros(3) * 2) - true"), "RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."},
		// the operand is never the temporary's alias: x stays untouched
		{"x = tensor([1.0, 2.0])\ny = (x + 0) * 10\nprint(x, y)", "tensor([1., 2.]) tensor([10., 20.])"},
	})
}
