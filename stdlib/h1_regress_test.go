package stdlib_test

import "testing"

// Regressions found by testing tsr as a new user reading LANGUAGE.md
// literally; each want is what Python 3 / PyTorch 1.13 prints for the same
// program (with tsr's spelling: true/false/none, short dtype names).

// f"{expr=}" is Python 3.8's self-documenting field: the expression's text
// (spaces kept), "=", then the value's repr, or the value formatted with the
// spec or conversion when one is given. "==", "!=", "<=", ">=" at the end of
// a field stay comparisons.
func TestFStringSelfDocumenting(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = 5; y = 2.5; s = "a"; print(f"{x=} {y = :.2f} {s=} {s=!s} {x + 1=}")`, "x=5 y = 2.50 s='a' s=a x + 1=6"},
		{`x = 5; print(f"{x==5} {x!=4} {x >= 2} {x<=1}|{x=:>4}|")`, "true true true false|x=   5|"},
		{`v = [1, "b"]; print(f"{v=}, {len(v) = }")`, "v=[1, 'b'], len(v) = 2"},
	})
}
