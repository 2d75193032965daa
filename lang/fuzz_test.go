package lang

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// seedSources are LANGUAGE.md snippets and tricky inputs.
var seedSources = []string{
	"x = arange(12, dtype=f32).reshape(3, 4)\nprint(x.shape, x.stride(), x.is_contiguous())\n",
	"fn sliding_window_1d(x, window, step=1) {\n    assert x.ndim == 1, \"input must be 1-D\"\n    n = (x.size(0) - window) // step + 1\n    as_strided(x, [n, window], [step * x.stride(0), x.stride(0)])\n}\n",
	"try { as_strided(s, [4, 4], [3, 1]) } catch e { print(e.kind) }\n",
	"print(ein\"bii->b\"(ones(8, 16, 16))[0].item())\n",
	"print(f\"{logsumexp(tensor([1000.0, 1001.0, 1002.0]), 0).item():.4f}\")\n",
	"gw, gb = grad(w, b) {\n    pred = x @ w + b\n    ((pred - y) ** 2).mean()\n}\nno_grad {\n    w -= 0.1 * gw\n    b -= 0.1 * gb\n}\n",
	"x[1:, 0] = v\na, b = t\nfor i, v in enumerate(xs) { }\nwhile c { break }\nimport \"util.tsr\" as util\n",
	"ys = [x * 2 for x in xs if x is not none]\nd = {k: v for k, (v, w) in zip(a, b) for q in w if q}\n",
	"fs = [fn() { i } for i in range(3)]\nm = [[i * j for j in range(i)] for i in range(4)]\ng = [grad(w) { y = w * w; y.sum() } for w in ws]\n",
	"s = \"a\" if v == 0 else \"b\" if v == 1 else {\"c\": v}\nprint(x is y, x is not y, not x is y, a < b is c)\nif s is none { }\n",
	"fn f(a, *rest, k=1, **opts) { g(*rest, a, **opts, k=k) }\nfn h(*, m) { m }\nfirst, *mid, last = [*xs, *ys]\nfor a, *b in rows { }\n",
	"s = {1, *t}\nu = {x % 3 for x in xs}\ng = (x * x for x in xs)\nmsg = \"%d items, %.3f s %(k)s\" % (n, t)\ndel d[k], l[1:2], x\n",
	"v = 1 if fn(x) { x } else {\"a\": 2}\nif c { f = fn(x) { x } } else { f = grad(w) { w } }\n",
	"e = {**d, \"k\": v, **{}}\nfn f(a, b=1, /, c=2, *r, k, **o) { }\ng = fn(x, /) { x }\ndel m.bias, d[k], l[1:2]\n",
	"a = b = 0\nx.y = z[i] = w[1:] = v\np, q = r = (1, 2)\nfirst, *rest = s = [1, 2, 3]\n",
	"f\"{{}} {a:{b}} {\"x\"}\"", "f\"{v!r:>{w}.{p}f} {x!s} {y != z} {q!a:{{}}}\"", "f\"{a:{b:{c}}}\"", "x = (1,\n", "\"abc", "ein\"ij,jk\"", "ein\"i...->\"", "a.b[...]", "0x", "1__0", "..",
}

func addSeeds(f *testing.F) {
	for _, s := range seedSources {
		f.Add(s)
	}
	files, _ := filepath.Glob("../examples/*.tsr")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
}

// FuzzParse checks that parsing and compiling arbitrary input never panics
// and that every error is a positioned *SyntaxError.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Compile("fuzz.tsr", src)
		if err == nil {
			return
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error is %T, not *SyntaxError: %v", err, err)
		}
		if se.Pos.Line < 1 || se.Pos.Col < 1 {
			t.Fatalf("error without position: %v", err)
		}
	})
}
