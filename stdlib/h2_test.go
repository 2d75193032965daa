package stdlib_test

import "testing"

// Regression tests from testing tsr as a new user against LANGUAGE.md and
// PyTorch 1.13 (each want is what Python/PyTorch prints for the same
// program).

// x &= y, x |= y and x ^= y are augmented assignments like Python's: on
// tensors the in-place bitwise_and_/or_/xor_ (bumping _version), on ints
// the bitwise operators.
func TestAugmentedBitwiseAssign(t *testing.T) {
	checkPrints(t, []printCase{
		{`m = tensor([true, false, true]); v = m._version; m &= tensor([true, true, false]); print(m, m._version - v)`, "tensor([ true, false, false]) 1"},
		{`m = tensor([true, false]); m |= tensor([false, false]); m ^= tensor([true, true]); print(m)`, "tensor([false,  true])"},
		{`x = arange(4); x &= 2; print(x)`, "tensor([0, 0, 2, 2])"},
		{`i = 6; i &= 3; i |= 8; i ^= 1; print(i)`, "11"},
		{"b = 5\nb ^=\n  3\nprint(b)", "6"},
		{catchOf(`f = ones(2); f &= 1`), `RuntimeError: "bitwise_and_cpu" not implemented for 'Float'`},
	})
}
