package lang

import (
	"strings"
	"testing"
)

// The attention idiom compiles to an ATTN guard only when the scores and
// probabilities are dead everywhere else in the function (any mention
// counts, nested functions included) or the idiom is one expression.
func TestAttnIdiomEmitted(t *testing.T) {
	body := func(extra string) string {
		return "fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k) * 0.5\n p = softmax(s, dim=-1)\n o = ein\"bhij,bhjd->bhid\"(p, v)\n" + extra + "\n return o\n}\n"
	}
	cases := []struct {
		name, src string
		want      bool
	}{
		{"statements", body(""), true},
		{"nested at top level", "o = ein\"bhij,bhjd->bhid\"(softmax(ein\"bhid,bhjd->bhij\"(q, k) / 8, -1), v)", true},
		{"matmul nested", "o = softmax(q @ k.transpose(-2, -1) * 0.5, dim=-1) @ v", true},
		{"top-level statements", "s = ein\"bhid,bhjd->bhij\"(q, k) * 0.5\np = softmax(s, dim=-1)\no = ein\"bhij,bhjd->bhid\"(p, v)", false},
		{"f-string", body("print(f\"{p}\")"), false},
		{"f-string spec", body("print(f\"{o:>{s}}\")"), false},
		{"list", body("l = [1, p]"), false},
		{"dict", body("d = {\"k\": s}"), false},
		{"compare", body("b = 1 < s < 2"), false},
		{"slice", body("o = o[s:]"), false},
		{"attribute", body("x = p.shape"), false},
		{"nested fn param", body("g = fn(p) { p }"), false},
		{"nested fn default", body("g = fn(x=s) { x }"), false},
		{"closure", body("g = fn() { s }"), false},
		{"for target", body("for s in range(2) { }"), false},
		{"catch name", body("try { o = o } catch p { }"), false},
		{"while", body("while s { }"), false},
		{"assert message", body("assert true, p"), false},
		{"grad block", body("g = grad(q) { (p * q).sum() }"), false},
		{"no_grad block", body("no_grad { p = 1 }"), false},
		{"if", body("if p { } else { s = 1 }"), false},
		{"index key", body("x = o[p]"), false},
		{"tuple target", body("s, z = 1, 2"), false},
		{"augmented", body("p += 1"), false},
		{"unpure operand", "fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k) * g()\n p = softmax(s, -1)\n ein\"bhij,bhjd->bhid\"(p, v)\n}", false},
		{"softmax dtype", "fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k)\n p = softmax(s, -1, dtype=f64)\n ein\"bhij,bhjd->bhid\"(p, v)\n}", false},
		{"other function", "fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k)\n p = log_softmax(s, -1)\n ein\"bhij,bhjd->bhid\"(p, v)\n}", false},
		{"value first einsum", "fn f(q, k, v) {\n s = q @ k.mT\n p = softmax(s, -1)\n ein\"bhjd,bhij->bhid\"(v, p)\n}", false},
		{"value first nested", "o = ein\"bhjd,bhij->bhid\"(v, softmax(q @ k.mT, -1))", false},
		{"value first matmul", "fn f(q, k, v) {\n s = q @ k.mT\n p = softmax(s, -1)\n v @ p\n}", false},
		{"tail", "fn f(q, k, v) {\n s = q @ k.mT\n p = softmax(s, -1)\n p @ v\n}", true},
		{"name reused", "fn f(q, k, v) {\n x = q @ k.mT / 8\n x = x.softmax(-1)\n return x @ v\n}", true},
		{"two statements: scores, then nested", "fn f(q, k, v) {\n s = ein\"bhid,bhjd->bhij\"(q, k) * 0.5\n ein\"bhij,bhjd->bhid\"(nn.softmax(s, dim=-1), v)\n}", true},
		{"two statements: probabilities, then product", "fn f(q, k, v) {\n p = softmax(q @ k.mT / 8, -1)\n return p @ v\n}", true},
		{"two statements, then more", "fn f(q, k, v) {\n p = softmax(q @ k.mT / 8, -1)\n o = p @ v\n print(o)\n}", true},
		{"unrelated statement before", "fn f(q, k, v) {\n a = 1\n p = softmax(q @ k.mT / 8, -1)\n o = p @ v\n return o + a\n}", true},
		{"two statements, name read again", "fn f(q, k, v) {\n p = softmax(q @ k.mT / 8, -1)\n o = p @ v\n return p\n}", false},
		{"reused and read again", "fn f(q, k, v) {\n x = q @ k.mT / 8\n x = x.softmax(-1)\n y = x @ v\n return x\n}", false},
	}
	for _, c := range cases {
		prog, err := Compile("a.tsr", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Contains(Disassemble(prog), "ATTN"); got != c.want {
			t.Errorf("%s: ATTN emitted %v, want %v\n%s", c.name, got, c.want, c.src)
		}
	}
}

// In a script (CompileScript) top-level statements qualify too, with the
// whole file (functions included) as the liveness scope; Compile never
// fuses them (a REPL line or a host may read the globals afterwards).
func TestAttnIdiomScript(t *testing.T) {
	seed := "for i in range(3) {\n scores = ein\"bhid,bhjd->bhij\"(Q, K) * (d_k ** -0.5)\n probs = softmax(scores, dim=-1)\n _ = ein\"bhij,bhjd->bhid\"(probs, V)\n}\n"
	cases := []struct {
		name, src string
		want      bool
	}{
		{"seed loop", seed, true},
		{"straight statements", "s = Q @ K.mT / 8\np = softmax(s, -1)\no = p @ V\nprint(o)", true},
		{"last expression", "s = Q @ K.mT / 8\np = softmax(s, -1)\np @ V", true},
		{"read after the loop", seed + "print(probs.shape)", false},
		{"read in a function", "fn f() { return scores }\n" + seed, false},
		{"a local of that name in a function", "fn f() { probs = 1 }\n" + seed, false}, // any mention counts (conservative)
	}
	for _, c := range cases {
		prog, err := CompileScript("a.tsr", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Contains(Disassemble(prog), "ATTN"); got != c.want {
			t.Errorf("%s: script: ATTN emitted %v, want %v\n%s", c.name, got, c.want, c.src)
		}
		plain, err := Compile("a.tsr", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(Disassemble(plain), "ATTN") {
			t.Errorf("%s: Compile emitted ATTN for top-level statements", c.name)
		}
	}
}
