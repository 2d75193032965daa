package stdlib_test

import "testing"

// Regressions from the session-11 adversarial-user pass (helper h8),
// checked against PyTorch 1.13 / CPython 3.11.

// torch.Size arithmetic: Size + tuple and Size * n are Sizes (so
// `x.shape[:-1] + (n,)` builds a shape), tuple + Size is a tuple, and a
// Size orders against a tuple.
func TestShapePlusTuple(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = zeros(2, 3, 4); s = x.shape[:-1] + (5,); print(s, s == (2, 3, 5), zeros(s).shape)`, "[2, 3, 5] true [2, 3, 5]"},
		{`x = zeros(2, 3); print((1,) + x.shape, x.shape * 2 == (2, 3, 2, 3), 2 * x.shape == (2, 3, 2, 3), x.shape + [1])`, "(1, 2, 3) true true [2, 3, 1]"},
		{`x = zeros(2, 3); print(x.shape < (3,), (3,) > x.shape, x.shape >= (2, 3))`, "true true true"},
		{`x = zeros(2, 3)` + "\n" + catchOf(`x.shape + 1`) + "\n" + catchOf(`[2, 3] + (1,)`),
			"TypeError: can only concatenate list (not \"int\") to list\nTypeError: can only concatenate list (not \"tuple\") to list"},
	})
}
