package lang

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tsrlang/tsr/runtime"
)

// sexpr renders an expression with explicit grouping, for precedence tests.
func sexpr(x Expr) string {
	switch x := x.(type) {
	case *Ident:
		return x.Name
	case *Literal:
		if x.Value == nil {
			return "none"
		}
		return fmt.Sprint(x.Value)
	case *Unary:
		return "(" + x.Op.String() + " " + sexpr(x.X) + ")"
	case *Binary:
		op := x.Op.String()
		switch x.Op {
		case opAnd:
			op = "and"
		case opOr:
			op = "or"
		case opNotIn:
			op = "not in"
		}
		return "(" + sexpr(x.X) + " " + op + " " + sexpr(x.Y) + ")"
	case *Compare:
		out := sexpr(x.Operands[0])
		for i, op := range x.Ops {
			out += " " + op.String() + " " + sexpr(x.Operands[i+1])
		}
		return "chain(" + out + ")"
	case *Call:
		var parts []string
		for _, a := range x.Args {
			parts = append(parts, sexpr(a))
		}
		for _, k := range x.Kwargs {
			parts = append(parts, k.Name+"="+sexpr(k.Value))
		}
		return sexpr(x.Fn) + "(" + strings.Join(parts, ", ") + ")"
	case *Attr:
		return sexpr(x.X) + "." + x.Name
	case *Index:
		return sexpr(x.X) + "[" + sexpr(x.Key) + "]"
	case *SliceExpr:
		s := func(e Expr) string {
			if e == nil {
				return ""
			}
			return sexpr(e)
		}
		return s(x.Lo) + ":" + s(x.Hi) + ":" + s(x.Step)
	case *EllipsisExpr:
		return "..."
	case *TupleExpr:
		var parts []string
		for _, e := range x.Elems {
			parts = append(parts, sexpr(e))
		}
		return "tuple(" + strings.Join(parts, ", ") + ")"
	case *ListExpr:
		var parts []string
		for _, e := range x.Elems {
			parts = append(parts, sexpr(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprintf("%T", x)
}

func parseExpr(t *testing.T, src string) Expr {
	t.Helper()
	f, err := Parse("t.tsr", src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("%q: %d statements", src, len(f.Stmts))
	}
	es, ok := f.Stmts[0].(*ExprStmt)
	if !ok {
		t.Fatalf("%q: not an expression statement", src)
	}
	return es.X
}

func TestPrecedence(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"1 + 2 * 3", "(1 + (2 * 3))"},
		{"1 - 2 - 3", "((1 - 2) - 3)"},
		{"-2 ** 2", "(- (2 ** 2))"},
		{"2 ** -1", "(2 ** (- 1))"},
		{"2 ** 3 ** 2", "(2 ** (3 ** 2))"},
		{"-a * b", "((- a) * b)"},
		{"a ** -b * c", "((a ** (- b)) * c)"},
		{"not a == b and c", "((not (a == b)) and c)"},
		{"not not a", "(not (not a))"},
		{"not not a == b or c", "((not (not (a == b))) or c)"},
		{"a or b and c", "(a or (b and c))"},
		{"a | b ^ c & d", "(a | (b ^ (c & d)))"},
		{"a & b + c", "(a & (b + c))"},
		{"a in b or c not in d", "((a in b) or (c not in d))"},
		{"a @ b + c", "((a @ b) + c)"},
		{"x // 2 % 3", "((x // 2) % 3)"},
		{"f(a, k=v).m[1:, 0]", "f(a, k=v).m[tuple(1::, 0)]"},
		{"x[..., none, ::2]", "x[tuple(..., none, ::2)]"},
		{"x[-1]", "x[(- 1)]"},
		{"(1, 2) + (3,)", "(tuple(1, 2) + tuple(3))"},
		{"a.b.c(1)(2)", "a.b.c(1)(2)"},
		{"[1, 2,]", "[1, 2]"},
		{"0 <= i < n + 1 == m", "chain(0 <= i < (n + 1) == m)"},
		{"a < b and c > d > e", "((a < b) and chain(c > d > e))"},
	} {
		if got := sexpr(parseExpr(t, tc.src)); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

func TestStatements(t *testing.T) {
	src := `
fn f(a, b=1) { return a, b }
g = fn(x) { x * 2 }
if a { b } else if c { d } else { e }
for i, (j, k) in xs { continue }
while x { break }
try { y } catch err { z }
assert x > 0, "positive"
import "util.tsr" as util
no_grad { w -= 1 }
detect_anomaly { w }
gw, gb = grad(w, b) { loss }
v, g = value_and_grad(w) { loss }
x[1:, 0] = v; x.attr = 3; x @= y; x **= 2; x //= 3
m &= a; m |= b; m ^= c
long = 1 +
  2
`
	f, err := Parse("s.tsr", src)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	for _, s := range f.Stmts {
		kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", s), "*lang."))
	}
	want := "FuncDef AssignStmt IfStmt ForStmt WhileStmt TryStmt AssertStmt ImportStmt BlockStmt BlockStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt AssignStmt"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("statements:\n got %s\nwant %s", got, want)
	}
	g := f.Stmts[10].(*AssignStmt).RHS.(*GradExpr)
	if g.WithValue || len(g.Wrt) != 2 {
		t.Errorf("grad block: %+v", g)
	}
	// grad/no_grad stay ordinary names elsewhere
	if got := sexpr(parseExpr(t, "x.grad + grad(1) + no_grad")); got != "((x.grad + grad(1)) + no_grad)" {
		t.Errorf("contextual keywords: %s", got)
	}
}

func TestPositions(t *testing.T) {
	f, err := Parse("p.tsr", "x = 1\nfoo(a,\n    bar + 2)\n")
	if err != nil {
		t.Fatal(err)
	}
	call := f.Stmts[1].(*ExprStmt).X.(*Call)
	start, end := call.Span()
	if start != (Pos{Line: 2, Col: 1}) || end.Line != 3 {
		t.Errorf("call span %v-%v", start, end)
	}
	bin := call.Args[1].(*Binary)
	if bin.OpAt != (Pos{Line: 3, Col: 9}) {
		t.Errorf("operator position %v", bin.OpAt)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want  string
		incomplete bool
	}{
		{"x = (1 +", "t.tsr:1:5: '(' was never closed\n    x = (1 +\n        ^", true},
		{"fn f() {\n  x = 1\n", "t.tsr:1:8: '{' was never closed", true},
		{"fn f() {\n    x = (1 +\n", "t.tsr:2:9: '(' was never closed\n        x = (1 +\n            ^", true},
		{"y = [1,\n  {\"a\": (2,\n", "t.tsr:2:9: '(' was never closed", true},
		{"y = [1,\n  {\"a\": 2,\n", "t.tsr:2:3: '{' was never closed", true},
		{"y = [1, (2)\n", "t.tsr:1:5: '[' was never closed", true},
		{`s = "abc`, "t.tsr:1:5: unterminated string literal", true},
		{"x = 1 +", "unexpected end of input", true},
		{"a b", "t.tsr:1:3: unexpected name \"b\"", false},
		{"x = )", "t.tsr:1:5: unexpected \")\"", false},
		{"z = ein\"ij->k\"", "t.tsr:1:5: einsum: output index 'k' does not appear in any input", false},
		{"break", "t.tsr:1:1: 'break' outside a loop", false},
		{"return 1", "'return' outside a function", false},
		{"g = grad(w) { x = 1 }", "t.tsr:1:5: a gradient block must end with an expression", false},
		{"f(a=1, 2)", "positional argument follows keyword argument", false},
		{"fn f(a=1, b) { }", "without a default", false},
		{"1 = x", "cannot assign", false},
		{"x = 08a", "invalid numeric literal", false},
		{"x = \"\\q\"", "t.tsr:1:6: invalid escape", false},
		{"print(f\"{x:.2f\")", "f-string: expecting '}'", false},
		{"print(f\"{x:{y:{z}}}\")", "f-string: expressions nested too deeply", false},
		{"print(f\"a {1 +} b\")", "t.tsr:1:", false},
		{"x = $", "unexpected character", false},
		{"if x {\n} else {", "t.tsr:2:8: '{' was never closed", true},
	} {
		_, err := Compile("t.tsr", tc.src)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q does not contain %q", tc.src, err, tc.want)
		}
		if IsIncomplete(err) != tc.incomplete {
			t.Errorf("%q: IsIncomplete = %v, want %v (%v)", tc.src, IsIncomplete(err), tc.incomplete, err)
		}
		if !strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "^") {
			t.Errorf("%q: error lacks source line and caret: %q", tc.src, err)
		}
	}
}

func TestFStringFieldPositions(t *testing.T) {
	x := parseExpr(t, `f"a {b + c:>4} d"`)
	fs := x.(*FString)
	if len(fs.Parts) != 3 {
		t.Fatalf("parts: %#v", fs.Parts)
	}
	field := fs.Parts[1].(*FField)
	if field.Spec != ">4" || sexpr(field.X) != "(b + c)" {
		t.Errorf("field %q %s", field.Spec, sexpr(field.X))
	}
	if start, _ := field.X.Span(); start != (Pos{Line: 1, Col: 6}) {
		t.Errorf("field position %v", start)
	}
}

func TestResolveScopes(t *testing.T) {
	prog, err := Compile("r.tsr", `
g = 1
fn outer(a) {
    b = a
    fn inner() { b + g }
    inner
}
`)
	if err != nil {
		t.Fatal(err)
	}
	var outer, inner *runtime.Funcode
	for _, fc := range prog.Functions {
		switch fc.Name {
		case "outer":
			outer = fc
		case "inner":
			inner = fc
		}
	}
	if fmt.Sprint(outer.Locals, outer.Cells) != "[a b inner] [1]" {
		t.Errorf("outer locals %v cells %v", outer.Locals, outer.Cells)
	}
	if fmt.Sprint(inner.Freevars, inner.Locals) != "[b] []" {
		t.Errorf("inner free %v locals %v", inner.Freevars, inner.Locals)
	}
	dis := Disassemble(prog)
	for _, want := range []string{"LOAD_FREE", "LOAD_GLOBAL", "LOAD_CELLREF", "STORE_CELL", "MAKE_FUNC"} {
		if !strings.Contains(dis, want) {
			t.Errorf("disassembly lacks %s:\n%s", want, dis)
		}
	}
}

// TestInvalidUTF8 checks that a source that is not valid UTF-8 is a syntax
// error at its first bad byte, wherever that byte is.
func TestInvalidUTF8(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"print(\"\xff\xfe\")\n", "t.tsr:1:8: invalid UTF-8 encoding (byte \\xff)\n    print(\"\ufffd\ufffd\")\n           ^"},
		{"x = 1\n# caf\xe9\n", "t.tsr:2:6: invalid UTF-8 encoding (byte \\xe9)\n    # caf\ufffd\n         ^"},
		{"\xff = 1", "t.tsr:1:1: invalid UTF-8 encoding (byte \\xff)\n    \ufffd = 1\n    ^"},
		{"é = 'ü\xc3'", "t.tsr:1:7: invalid UTF-8 encoding (byte \\xc3)\n    é = 'ü\ufffd'\n          ^"},
		{"x = f\"{a\x80}\"", "t.tsr:1:9: invalid UTF-8 encoding (byte \\x80)"},
		{"s = \"\xed\xa0\x80\"", "t.tsr:1:6: invalid UTF-8 encoding (byte \\xed)"}, // a surrogate
		{"x = (1,\n\xff", "t.tsr:2:1: invalid UTF-8 encoding (byte \\xff)"},
	} {
		_, err := Parse("t.tsr", tc.src)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, err, tc.want)
		}
		if IsIncomplete(err) {
			t.Errorf("%q: reported as incomplete input", tc.src)
		}
		if se, ok := err.(*SyntaxError); !ok || !utf8.ValidString(se.Error()) {
			t.Errorf("%q: error is %T or not valid UTF-8", tc.src, err)
		}
	}
	// U+FFFD itself is valid text
	if _, err := Parse("t.tsr", "x = '\ufffd'"); err != nil {
		t.Errorf("U+FFFD in a string: %v", err)
	}
}

// An f-string or einsum literal whose text is an operator or keyword is a
// literal, never that token (participle matches untyped grammar literals by
// value; the lexer keeps the quotes in those tokens' values).
func TestFStringTextIsNotAnOperator(t *testing.T) {
	for _, src := range []string{`print(f"-")`, `print(f"+")`, `print(f"if")`, `x = f"="`, `print(f"(")`} {
		if _, err := Parse("t.tsr", src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	for _, src := range []string{`x = 1 f"+" 2`, `x = 1 ein"-" 2`} {
		if _, err := Parse("t.tsr", src); err == nil {
			t.Errorf("%s parsed: a literal acted as an operator", src)
		}
	}
}
