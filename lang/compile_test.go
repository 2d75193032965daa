package lang

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// TestNumericLiteralEdges checks literals at the edges of int64 and float64:
// an int literal outside int64 parses to a *big.Int whose evaluation raises
// OverflowError (except 2**63 under unary minus, folded to MinInt64), and a
// float literal beyond float64's range is inf, as Python's float literals.
func TestNumericLiteralEdges(t *testing.T) {
	f, err := Parse("lit.tsr", "a = 9223372036854775807\nb = 0xFFFFFFFFFFFFFFFF\nc = 1e400\nd = 1_000e-400\n")
	if err != nil {
		t.Fatal(err)
	}
	lit := func(i int) any { return f.Stmts[i].(*AssignStmt).RHS.(*Literal).Value }
	if v, ok := lit(0).(int64); !ok || v != math.MaxInt64 {
		t.Errorf("max int64 literal = %#v", lit(0))
	}
	if v, ok := lit(1).(*big.Int); !ok || v.Text(16) != "ffffffffffffffff" {
		t.Errorf("0xFFFFFFFFFFFFFFFF = %#v, want a *big.Int", lit(1))
	}
	if v, ok := lit(2).(float64); !ok || !math.IsInf(v, 1) {
		t.Errorf("1e400 = %#v, want +inf", lit(2))
	}
	if v, ok := lit(3).(float64); !ok || v != 0 {
		t.Errorf("1_000e-400 = %#v, want 0", lit(3))
	}

	prog, err := Compile("lit.tsr", "x = -9223372036854775808\ny = 9223372036854775808\n")
	if err != nil {
		t.Fatal(err)
	}
	dis := Disassemble(prog)
	for _, want := range []string{"# -9223372036854775808", "# OverflowError: int64 overflow", "RAISE"} {
		if !strings.Contains(dis, want) {
			t.Errorf("disassembly lacks %q:\n%s", want, dis)
		}
	}
}

// TestTailValueCode checks the code of a tail if/else: each branch returns
// its own value (no jump to a shared RETURN), and the stack model stays
// balanced through else-if chains and try/catch.
func TestTailValueCode(t *testing.T) {
	prog, err := Compile("tail.tsr", `
fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }
fn chain(x) { if x < 0 { -1 } else if x == 0 { 0 } }
fn guarded(x) { try { 1 / x } catch e { e.kind } }
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range prog.Functions {
		var b strings.Builder
		DisassembleFunc(&b, fc)
		dis := b.String()
		if fc.Name == "fib" {
			if strings.Count(dis, "RETURN") != 2 || strings.Contains(dis, " JMP ") {
				t.Errorf("fib should return from each branch:\n%s", dis)
			}
		}
		if fc.MaxStack > 8 {
			t.Errorf("%s: MaxStack %d looks unbalanced:\n%s", fc.Name, fc.MaxStack, dis)
		}
	}
	// A gradient block may end in an if; other statements stay an error.
	if _, err := Compile("g.tsr", "g = grad(w) { if c { w } else { w * 2 } }"); err != nil {
		t.Errorf("grad block ending in if/else: %v", err)
	}
	if _, err := Compile("g.tsr", "g = grad(w) { x = w }"); err == nil {
		t.Error("grad block ending in an assignment compiled")
	}
}

// BINARY_TMP marks + - * / whose left operand is another arithmetic
// operator's result (or unary minus): only then may the VM compute into it.
func TestBinaryTmpEmitted(t *testing.T) {
	for src, want := range map[string]int{
		"y = (a * b) + c":       1,
		"y = a * b + c":         1,
		"y = ((a * 2) + 1) / 3": 2,
		"y = -a * 2":            1,
		"y = (a @ b) - c":       1,
		"y = a + b":             0, // a name
		"y = (a or b) + c":      0, // or returns an operand
		"y = (+a) + c":          0, // unary plus returns its operand
		"y = f(a) + c":          1, // a call: FRESH_MARK decides at run time
		"y = a.exp() * 2 - 1":   2,
		"y = a[0] * 2 + 1":      1, // a[0] is a view, but a[0] * 2 is new
		"y = c + (a * b)":       0, // only the left operand
		"y = (a * b) % c":       0, // only + - * /
		"y = (a < b) + c":       0, // a comparison
	} {
		prog, err := Compile("t.tsr", src)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		DisassembleFunc(&b, prog.Toplevel)
		if got := strings.Count(b.String(), "BINARY_TMP"); got != want {
			t.Errorf("%s: %d BINARY_TMP, want %d\n%s", src, got, want, b.String())
		}
		// every call feeding a BINARY_TMP is preceded by its FRESH_MARK
		if marks, calls := strings.Count(b.String(), "FRESH_MARK"), strings.Count(b.String(), "a call's result"); marks != calls {
			t.Errorf("%s: %d FRESH_MARK for %d call temporaries\n%s", src, marks, calls, b.String())
		}
	}
}

// TestComprehensionCode checks the code of a comprehension: a function
// <listcomp>/<dictcomp> of one parameter (.0, the first iterable) whose
// targets are its locals, a loop per clause with LIST_APPEND/DICT_SET into
// the result under the iterators, and no name of it left in the enclosing
// function.
func TestComprehensionCode(t *testing.T) {
	prog, err := Compile("c.tsr", `
fn f(xs, ys) {
    a = [x * y for x in xs for y in ys if x != y]
    b = {k: v for k, v in zip(xs, ys)}
    c = x if a is not none else y
}
`)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, fc := range prog.Functions {
		var b strings.Builder
		DisassembleFunc(&b, fc)
		byName[fc.Name] = b.String()
		if fc.MaxStack > 8 {
			t.Errorf("%s: MaxStack %d looks unbalanced:\n%s", fc.Name, fc.MaxStack, b.String())
		}
	}
	for name, wants := range map[string][]string{
		"f":          {"MAKE_FUNC", "# <listcomp>", "# <dictcomp>", "CALL", "IS               not", "locals=[xs ys a b c]"},
		"<listcomp>": {"params=1", "locals=[.0 x y]", "LIST_APPEND      2", "ITER_NEXT", "CMP_NE"},
		"<dictcomp>": {"params=1", "locals=[.0 k v]", "DICT_SET         1", "UNPACK"},
	} {
		dis, ok := byName[name]
		if !ok {
			t.Fatalf("no function %s in %v", name, byName)
		}
		for _, w := range wants {
			if !strings.Contains(dis, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, dis)
			}
		}
	}
	if strings.Count(byName["<listcomp>"], "ITER_PUSH") != 2 || strings.Count(byName["<listcomp>"], "POP ") != 2 {
		t.Errorf("<listcomp> should push and pop two iterators:\n%s", byName["<listcomp>"])
	}
	// a return inside a comprehension (in a grad block) is an error
	_, err = Compile("r.tsr", "fn f(ws) { [grad(w) { if c { return 1 }; w } for w in ws] }")
	if err == nil || !strings.Contains(err.Error(), "r.tsr:1:30: 'return' inside a comprehension") {
		t.Errorf("return in a comprehension: %v", err)
	}
	_, err = Compile("b.tsr", "for i in xs { [grad(w) { if c { break }; w } for w in ws] }")
	if err == nil || !strings.Contains(err.Error(), "'break' outside a loop") {
		t.Errorf("break in a comprehension: %v", err)
	}
}

// TestWalkNewForms checks that the walker visits every name inside
// comprehensions and conditional expressions (the attention idiom's
// liveness counts names with it), and that statements still end at a
// newline before `if`.
func TestWalkNewForms(t *testing.T) {
	f, err := Parse("w.tsr", "r = [a + b for a in xs if c for b in ys] if d is not e else {k: v for k in g}\nif h { }")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Stmts) != 2 {
		t.Fatalf("%d statements, want 2", len(f.Stmts))
	}
	for _, name := range []string{"r", "a", "b", "xs", "c", "ys", "d", "e", "k", "v", "g", "h"} {
		if n := countName(f.Stmts, name); n == 0 {
			t.Errorf("walker does not reach %q", name)
		}
	}
	if n := countName(f.Stmts, "a"); n != 2 {
		t.Errorf("a counted %d times, want 2 (target and use)", n)
	}
}
