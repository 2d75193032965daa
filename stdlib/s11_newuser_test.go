package stdlib_test

import "testing"

// Regressions from the session-11 "new user" pass over LANGUAGE.md: programs
// a test author would write, checked against PyTorch 1.13 / CPython 3.11
// (testdata/acc/s11_*.cases hold the differential twins).

// A tensor's shape stands for a torch.Size: it is a list (it prints as
// [2, 3]) that also equals a tuple of the same ints, so the common
// `x.shape == (2, 3)` holds as in PyTorch; a plain list still never equals a
// tuple.
func TestShapeEqualsTuple(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(2, 3); print(x.shape == (2, 3), (2, 3) == x.shape, x.size() == (2, 3), x.shape != (2, 3), x.shape == (3, 2))`, "true true true false false"},
		{`x = zeros(2, 3); print(x.shape == [2, 3], x.shape, x.size(), [2, 3] == (2, 3), x.shape[0] == 2)`, "true [2, 3] [2, 3] false true"},
		{`x = zeros(4); assert x.shape == (4,), "shape"; print(tensor(1.0).shape == ())`, "true"},
	})
}

// int() and float() of an unsupported type carry CPython 3.11's texts.
func TestIntFloatTypeErrorTexts(t *testing.T) {
	checkPrints(t, []printCase{
		{catchOf(`int([1])`), "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'"},
		{catchOf(`float([1])`), "TypeError: float() argument must be a string or a real number, not 'list'"},
	})
}
