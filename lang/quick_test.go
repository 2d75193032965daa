package lang

import "testing"

func TestQuick(t *testing.T) {
	src := "x = 1 + 2 * 3\nfn f(a, b=2) {\n  a ** -b\n}\nprint(f(2), [1, 2][0:1], {\"a\": 1})\n"
	f, err := Parse("q.tsr", src)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d stmts", len(f.Stmts))
	p, err := CompileFile(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(Disassemble(p))
}
