package lang

import (
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// dumpNode renders a syntax tree deterministically: every node with its
// concrete type and all its fields, positions included.
func dumpNode(b *strings.Builder, v reflect.Value, indent string) {
	switch v.Kind() {
	case reflect.Invalid:
		b.WriteString("nil")
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpNode(b, v.Elem(), indent)
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Type() == reflect.TypeOf((*big.Int)(nil)) && v.CanInterface() {
			fmt.Fprintf(b, "big.Int(%s)", v.Interface().(*big.Int).String())
			return
		}
		b.WriteString("&")
		dumpNode(b, v.Elem(), indent)
	case reflect.Struct:
		t := v.Type()
		if t == reflect.TypeOf(Pos{}) {
			fmt.Fprintf(b, "%d:%d", v.FieldByName("Line").Int(), v.FieldByName("Col").Int())
			return
		}
		if t == reflect.TypeOf(span{}) {
			st, en := v.Field(0), v.Field(1)
			fmt.Fprintf(b, "%d:%d-%d:%d", st.FieldByName("Line").Int(), st.FieldByName("Col").Int(),
				en.FieldByName("Line").Int(), en.FieldByName("Col").Int())
			return
		}
		b.WriteString(t.Name() + "{")
		in := indent + "  "
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).Name == "Src" {
				continue
			}
			b.WriteString("\n" + in + t.Field(i).Name + ": ")
			dumpNode(b, v.Field(i), in)
		}
		b.WriteString("\n" + indent + "}")
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Len() == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		in := indent + "  "
		for i := 0; i < v.Len(); i++ {
			b.WriteString("\n" + in)
			dumpNode(b, v.Index(i), in)
		}
		b.WriteString("\n" + indent + "]")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprintf(b, "%s(%v)", v.Type(), v)
	}
}

// dumpParse parses src and renders its syntax tree, or its error and
// whether the error asks for more input.
func dumpParse(name, src string) string {
	f, err := Parse(name, src)
	if err != nil {
		return fmt.Sprintf("ERROR incomplete=%v\n%s\n", IsIncomplete(err), err)
	}
	var b strings.Builder
	dumpNode(&b, reflect.ValueOf(f), "")
	b.WriteString("\n")
	return b.String()
}

// checkGolden compares got with testdata/golden/name (or rewrites it).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: got %d lines, want %d", path, len(gl), len(wl))
	}
}

// goldenSources returns every .tsr file in the repository (examples,
// testdata directories, bench programs) and the fuzz corpus entries.
func goldenSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "xscratch", "out":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".tsr") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(path)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, path := range corpus {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 {
			continue
		}
		var s string
		if _, err := fmt.Sscanf(strings.TrimSpace(lines[1]), "string(%q)", &s); err == nil {
			out[filepath.ToSlash(path)] = s
		}
	}
	for i, s := range seedSources {
		out[fmt.Sprintf("seed#%02d", i)] = s
	}
	return out
}

// The repository's own .tsr files are not pinned by a golden file (editing
// an example must not break the parser's tests): TestFastParseMatchesParticiple
// parses each of them with both parsers and compares the trees.

// goldenSnippets are small inputs, most of them malformed: unclosed
// brackets, bad literals, stray tokens, unfinished input.
var goldenSnippets = []string{
	// unclosed brackets and unfinished input
	"x = (1 +", "x = (1,\n", "f(", "f(a,", "f(a, b", "x[", "x[1:", "x[1, ", "[1, 2", "{", "{\"a\": 1",
	"fn f() {", "fn f() {\n  x = 1\n", "fn f(", "fn f(a, b=", "if x {", "if x { } else {", "if x { } else",
	"for i in xs {", "while x {\n", "try { x }", "try { x } catch", "try { x } catch e", "try { x } catch e {",
	"no_grad {", "g = grad(w) {", "g = grad(w", "x = 1 +", "x = 1 +\n", "x = ", "x =\n", "a.", "a.\n",
	"x = not", "x = a and", "x = a or\n", "a in", "s = \"abc", "s = 'abc\n", "f\"{x", "f\"abc", "ein\"ij",
	"x = 1 \\\n", "return", "assert", "assert x,", "import", "import \"m.tsr\"", "import \"m.tsr\" as",
	"fn", "fn (", "fn f", "if", "for", "for i", "for i in", "while", "x = [1,\n2,\n", "y = [1, (2)\n",
	// stray and unexpected tokens
	"a b", "x = )", "x = ]", "}", ")", "]", "x = 1)", "x = [1)", "x = (1]", "f(a b)", "x = 1 2",
	"1 = x", "f() = 1", "a + b = 3", "(a, b) += 1", "a, b += 1", "x = = 1", "x == = 1", "x +* 2",
	"x = 1;;", ";", ";;x", "x = 1; y =", "$", "x = 1 ? 2", "x = `a`", "@", "x @", "x ** ", "x = ...",
	"x[...] = 1", "x[:,::,:::]", "x[]", "f(,)", "f(a,,b)", "f(x=1, 2)", "f(x=1, x=2)", "f(1=2)",
	"[,]", "(,)", "{,}", "{1}", "{1: 2, 3}", "{a: }", "fn f(a=1, b) { }", "fn f(a, a) { }", "fn 1() {}",
	"fn f() x", "if x y", "if x { } else y", "if x { } elif y { }", "for 1 in x { }", "for (a, 1) in x { }",
	"if x { y } z", "fn f(n) { if n { return 1 } n * 2 }", "for i in xs { } print(i)", "while c { } x = 1", "if a { } else { } b",
	"try { } catch e { } 1", "if a { } , b", "if a { } + b",
	"fn f() { 1 } f()", "fn f() { } fn g() { } g()", "fn f() { } else { }", "x = fn() { 1 }()", "fn f(a, /) { a } f(1)",
	"for a, in x { }", "while { }", "break 1", "continue x", "return return", "try x catch e { }",
	"try { } catch 1 { }", "try { } catch (e) { }", "import x as y", "import \"a\" as 1", "import \"a\" y",
	"no_grad x", "detect_anomaly", "grad() { x }", "grad(w) x", "value_and_grad(w) { }", "x.1", "x..y",
	"x.(y)", "not", "- ", "~", "a not b", "a not in", "a is b", "else { }", "catch e { }", "in x",
	"x = true = 1", "none = 1", "true()", "fn() { }()", "x = fn { }", "lambda x: x",
	// literals
	"0x", "0xg", "1__0", "1_", "1e", "1e+", "1.e5", "1.5.2", "1..2", "..", ".5", "5.", "123abc", "0x_1",
	"99999999999999999999999", "1e999", "1e-999", "x = 'a\\qb'", "x = \"\\x4\"", "x = \"\\u12\"",
	"x = \"\\\"", "x = 'it''s'", "x = \"a\" \"b\"", "ein\"ij,jk\"", "ein\"i...->\"", "ein\"ij->k\"",
	"ein\"ij,jk->ik\"(a, b)", "ein\"\"", "ein\"->\"", "ein\"ii\"", "ein\"i j->ij\"", "ein\"IJ->J\"",
	"ein\"ab..c->\"", "ein'ij->ji'(x)", "ein\"ij->ij\" + 1",
	// f-strings
	"f\"{}\"", "f\"{ }\"", "f\"}\"", "f\"{x}}\"", "f\"{{x}}\"", "f\"{x!r}\"", "f\"{x!q}\"", "f\"{x:>{w}}\"",
	"f\"{a:{b:{c}}}\"", "f\"{(}\"", "f\"{x y}\"", "f\"{x = }\"", "f\"{'a'}\"", "f\"{\"a\"}\"", "f\"\\q{x}\"",
	"f\"{x}\\q\"", "f\"{1 +}\"", "f\"{x:{}}\"", "f'{x[\"k\"]}'", "f\"{$}\"", "f\"{x}\" f\"{y}\"",
	// valid odds and ends (trees are checked too)
	"x = 1\ny = 2", "a, b = b, a", "x[1:, 0] = v", "x[..., none, ::2]", "a < b <= c != d",
	"not not a", "-2 ** -2", "x = fn(a, b=2,) { a + b }", "f(*x)", "f(**x)", "a if b else c",
	"x = {}", "x = {1: 2,}", "x = []", "x = ()", "x = (1,)", "x = (1)", "for (a, b), c in z { }",
	"if a { } else if b { } else { }", "try {\n x\n}\ncatch e {\n y\n}", "if a {\n}\nelse {\n}",
	"x = grad(w, b) { loss }", "grad = 1\ngrad(w)", "x.grad(w) { }", "no_grad = 3", "x = no_grad",
	"return 1, 2", "fn f() { return }", "x = 1 # c\n# d\n", "\n\n\n", "", "   ", "#", "x = 1\r\ny = 2\r\n",
	"x = \"\\u00e9\\x41\"", "é = 1", "x = 'é'", "\tx = 1", "x = [\n1,\n2\n]", "x = 1 +\n  2",
	"x = a\n.b", "x = a.\nb", "x = {\n'a':\n1\n}", "f(\na\n=\n1\n)", "a; b; c", "a;\nb",
	// comprehensions, conditional expressions, is / is not (beyond the spec)
	"[x for x in xs]", "[a * b for a in xs for b in ys if a != b]", "{k: v for k, v in zip(a, b)}",
	"[x for (a, b), c in z if a if b]", "a if b else c if d else e", "x = a if c else {}",
	"x = a if c else {1: 2}", "x = (a if c else b)", "x is not none", "a is b is not c", "a < b is c",
	"[fn() { i } for i in range(3)]", "f(x if c else y, k=1 if c else 2)", "x[a if c else b]",
	"x = 1\nif c { }", "[\n x\n for x in xs\n if x\n]", "{k: v for k in a for v in b}",
	"[x for x in a if b else c]", "[x if c else d for x in xs if e]", "[[y for y in x] for x in xs]",
	"[x for x in y in z]", "not a is b", "a if not b else c", "fn f(a=1 if c else 2) { }",
	"[x, y,]", "[x,]", "{a: b,}", "{a: b, c: d}", "y = lambda if a else b",
	"a if b", "x = a if b\n", "[x if c for x in xs]", "[x for x in xs if]", "[x for in xs]",
	"[x for x xs]", "[x for x in]", "{k for k in xs}", "{k: v for k in}", "a if b else", "x is",
	"x is not", "[x for x in a, b]", "if a if b { }", "[x, y for x in xs]", "[for x in xs]",
	"[x for 1 in xs]", "a if b else c = 1", "[x for x in xs] = 1", "a is not not b", "a is in b",
	"a if b else c else d", "[x for x in xs for]", "x = [a for a in\n", "a if b if c else d else e",
	"fn f() { [grad(w) { return 1 } for w in ws] }", "[x for x in xs if a if]",
	// generator expressions as a call's only argument
	"sum(x for x in xs)", "f(a * b for a in xs for b in ys if a)", "f(x for x in xs, 1)",
	"f(1, x for x in xs)", "f(k=x for x in xs)", "f(x for x in)", "f(x for)",
	// *args, **kwargs, keyword-only parameters, starred displays and targets
	"fn f(a, *r, k=1, **o) { }", "fn f(*, k) { }", "fn f(*) { }", "fn f(*, **o) { }", "fn f(**) { }",
	"fn f(**o, a) { }", "fn f(*a, *b) { }", "fn f(*a=1) { }", "fn f(**o=1) { }", "fn f(*a, k, m=1, n) { }",
	"g = fn(*a, **k) { a }", "fn f(a, *a) { }", "f(*a, b, *c, k=1, **d, m=2)", "f(**d, *x)", "f(**d, x)",
	"f(k=1, *x)", "f(*)", "f(**)", "f(* *x)", "f(*x for x in y)", "f(***x)",
	"a, *b = c", "*a, b = c", "*a, *b = c", "*a = c", "[a, *b] = c", "a, *b.c = d", "(*a) = b",
	"[*a, *b]", "(*a, b)", "(*a)", "*a", "x = *a,", "[*a for a in b]", "x = *a", "return *a, b",
	"x[*a]", "{*a: 1}", "f(x=*a)", "a, *b += 1", "for *a in b { }", "for a, *b in c { }",
	"[b for a, *b in c]",
	// else after the body of a function literal or gradient block: a conditional expression's
	"v = 1 if fn(x) { x } else {\"a\": 2}", "v = 1 if grad(w) { w } else {}", "if c { f = fn(x) { x } } else { }",
	"v = a if fn() { } else {}\nif b { } else { }",
	// sets and generator expressions
	"{1, 2}", "{1, *a, 2,}", "{x for x in xs if x}", "{1: 2, 3}", "{1, 2: 3}", "{a, b: c for x in y}",
	"del x", "del d[k], l[1:2]", "del (a, [b])", "del f()", "del x.y", "del", "del = 1", "del *a",
	"g = (x * x for x in xs)", "(x for x in xs, 1)", "(x, y for x in xs)", "((a, b) for a, b in z)", "(*a for a in b)", "if f(fn(x) { x }) { } else { }", "fn f() { } else { }", "for a, (b, *c) in d { }", "for *a, *b in c { }",
	// session 11: {**d} in dict displays, positional-only parameters, del x.attr
	"{**d, \"k\": v}", "{**a, **b}", "{\"a\": 1, **d,}", "{**d}", "{**d: 1}", "{1, **d}", "{**d, 1}",
	"{**d for d in x}", "{k: v for k, v in x, **d}", "{***d}", "{**}", "f({**d})",
	"fn f(a, b, /, c) { }", "fn f(a, /) { }", "fn f(a=1, /, b=2, *, c, **k) { }", "g = fn(x, /) { x }",
	"fn f(/, a) { }", "fn f(a, /, b, /) { }", "fn f(*, a, /) { }", "fn f(*a, /) { }", "fn f(**k, /) { }",
	"fn f(a=1, /, b) { }", "fn f(a, /=1) { }", "fn f(/) { }", "fn f(a, //) { }",
	"del m.bias", "del a.b.c, d[0].e", "del (m.w, x)",
	// chained assignment (a = b = rhs, as Python)
	"a = b = 0", "a = b = c = d", "a, b = c = 1, 2", "x.y = z[0] = w[1:] = v", "[a, *b] = (c, d) = e",
	"a = (b) = 1", "a = b =", "a = b = \n", "a += b = 1", "a = b += 1", "a = *b = 1", "*a = b = 1",
	"a = b = *c", "a = 1 = b", "a = f() = 1", "a, *b = c, *d = e", "a = b == c = d", "a = b = c,",
	"a = b = fn() { 1 }", "a = b = x if c else y",
}

// TestGoldenSnippets compares the trees and errors of goldenSnippets with
// testdata/golden/snippets.txt.
func TestGoldenSnippets(t *testing.T) {
	var b strings.Builder
	for _, src := range goldenSnippets {
		fmt.Fprintf(&b, "==== %q\n%s", src, dumpParse("t.tsr", src))
	}
	checkGolden(t, "snippets.txt", b.String())
}
