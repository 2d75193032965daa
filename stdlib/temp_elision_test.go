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
		{"i * 2", "+ 1"}, {"i * 2", "/ 4"},   // ints: declined
		{"h * 2", "+ 1"}, // f16: declined
		{"a * 2", "+ m"}, // bool tensor
		{"a * 2", "- 7"}, // int number
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
	const x = "x = zeros(100000)\n" // 400 kB
	elided := storageBytes(t, x+"y = ((x * 2) + 1) / 3 - x\n")
	bound := storageBytes(t, x+"t1 = x * 2\nt2 = t1 + 1\nt3 = t2 / 3\ny = t3 - x\n")
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

// A call's result is computed into only when a builtin created it during
// the call: a tsr function's result (it may be a global), a builtin
// returning its receiver or an existing value, and an einsum that returns
// its operand are never overwritten.
func TestTempElisionCalls(t *testing.T) {
	checkPrints(t, []printCase{
		{"x = tensor([1.0, 2.0])\nfn f() { return x }\ny = f() + 1\nprint(x, y)", "tensor([1., 2.]) tensor([2., 3.])"},
		{"x = tensor([1.0, 2.0])\ncache = []\nfn g() { t = x * 2\ncache.append(t)\nreturn t }\ny = g() + 1\nprint(cache[0], y)", "tensor([2., 4.]) tensor([3., 5.])"},
		{"x = tensor([1.0, 2.0])\ny = x.contiguous() * 10\nz = x.float() - 1\nw = x.detach() / 2\nprint(x, y, z, w)", "tensor([1., 2.]) tensor([10., 20.]) tensor([0., 1.]) tensor([0.5000, 1.0000])"},
		{"x = tensor([[1.0, 2.0], [3.0, 4.0]])\ne = ein\"ij->ij\"(x) - 1\nprint(x.tolist(), e.tolist())", "[[1.0, 2.0], [3.0, 4.0]] [[0.0, 1.0], [2.0, 3.0]]"},
		{"x = tensor([1.0, 2.0])\nl = [x * 1]\nd = {\"k\": x * 1}\nv = l.pop() * 3\nu = d.get(\"k\") * 3\nprint(v, u, d[\"k\"])", "tensor([3., 6.]) tensor([3., 6.]) tensor([1., 2.])"},
		{"x = tensor([1.0, 2.0])\nd = {}\nv = d.setdefault(\"k\", x * 1) + 5\nprint(v, d[\"k\"])", "tensor([6., 7.]) tensor([1., 2.])"},
		{"x = tensor([1.0, 2.0], requires_grad=true)\ny = (x.exp() * 2).sum()\ny.backward()\nprint(x.grad)", "tensor([ 5.4366, 14.7781])"},
		{"x = tensor([1.0, 2.0])\ny = x.exp() * 2\nprint(x, y)", "tensor([1., 2.]) tensor([ 5.4366, 14.7781])"},
	})
	// x.exp() * 2 allocates one result (the exp's), not two
	const x = "x = zeros(100000)\n"
	elided := storageBytes(t, x+"y = x.exp() * 2 - ein\"i->i\"(x)\n")
	bound := storageBytes(t, x+"t1 = x.exp()\nt2 = t1 * 2\ny = t2 - ein\"i->i\"(x)\n")
	if d := bound - elided; d < 2*400000-100 || d > 2*400000+100 {
		t.Errorf("x.exp() * 2 - x allocated %d bytes, the bound form %d: want 2 results fewer", elided, bound)
	}
}

// A computed-into temporary looks like a new result: its version counter
// is 0 as Binary's result's, and a Python number is rounded as Binary
// rounds it (castWrapped, twice through f64 for a large int into f32).
func TestTempElisionVersionAndNumbers(t *testing.T) {
	checkPrints(t, []printCase{
		{"a = arange(4, dtype=f32)\ny = (a * 2) + 1\nz = a.exp() + 1\nw = ((a * 2) + 1) / 3 - a\nprint(y._version, z._version, w._version)", "0 0 0"},
		{"z = zeros(3)\nn = 1152921573326323713\ny1 = (z * 1) + n\nt = z * 1\ny2 = t + n\nprint(y1.tolist() == y2.tolist(), (z.exp() - n).tolist() == (t.exp() - n).tolist())", "true true"},
	})
}

// A row-major temporary with a size-1 dim meeting a strided operand: the
// result's strides are Binary's (TensorIterator's layout), not the
// temporary's ((6, 2, 6, 1) here, not (6, 2, 2, 1)).
func TestTempElisionSizeOneStrides(t *testing.T) {
	checkPrints(t, []printCase{
		{"a = ones(1, 3, 1, 2)\ny = ones(2, 1, 3, 1).permute(3, 2, 1, 0)\nz1 = (a * 1) + y\nt = a * 1\nz2 = t + y\nz3 = a.exp() * y\nt = a.exp()\nz4 = t * y\nprint(z1.stride() == z2.stride(), z3.stride() == z4.stride(), z2.stride())", "true true (6, 2, 6, 1)"},
	})
}

// A Python int meets a float tensor converted once to the tensor's dtype,
// as PyTorch's c10::Scalar::to<float>: (torch.zeros(3) + (2**60 + 2**36 +
// 1)).tolist()[0] is 1.1529216420458004e+18 (2**60 + 2**37), in the elided
// and the bound form alike.
func TestIntScalarRoundsOnce(t *testing.T) {
	checkPrints(t, []printCase{
		{"n = 2**60 + 2**36 + 1\nt = zeros(3) * 1\nprint((zeros(3) + n).tolist()[0], ((zeros(3) * 1) + n).tolist()[0], (t + n).tolist()[0], (zeros(1, dtype=f64) + n).tolist()[0])",
			"1.1529216420458004e+18 1.1529216420458004e+18 1.1529216420458004e+18 1.1529215733263237e+18"},
		{"print((zeros(2, dtype=f16) + 65519).tolist(), (zeros(2, dtype=bf16) + 16777217).tolist())", "[65504.0, 65504.0] [16777216.0, 16777216.0]"},
	})
}

// storageBytes returns the bytes of tensor storage a program allocates.
func storageBytes(t *testing.T, src string) int64 {
	t.Helper()
	_, b0, _ := tensor.PoolStats()
	runPrint(t, src)
	_, b1, _ := tensor.PoolStats()
	return b1 - b0
}
