package runtime_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// FuzzRun compiles and runs arbitrary source with a step limit and no
// output: the VM must never panic or hang, and errors must be EvalErrors.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"fn f(n) { if n < 2 { return n }; f(n-1) + f(n-2) }\nprint(f(10))",
		"x = [1, 2]; x[0] += 1; a, b = x; print(a ** b, 7 // -2, {\"k\": (1,)})",
		"try { error(\"ValueError\", \"m\") } catch e { print(e) }",
		"s = \"ab\" * 3; print(s[::-1], f\"{1.5:.2f}\", sorted([3, 1]))",
		"w = 7; print(f\"{3.25!r:>{w}} {[1]!s:^{w}} {\"q\"!a}\")",
		"for i in range(3) { while true { break } }",
		"xs = [i * i for i in range(5) if i is not 3]\nd = {k: v for k, v in zip(xs, \"abcde\")}\nprint(xs, d, [[a, b] for a in xs for b in d if a < b], 1 if xs else 2)",
		"fs = [fn() { i } for i in range(3)]\nprint([f() for f in fs], [x for x in [] if x is none], \"y\" if none is none else \"n\")",
		"fn f(a, *r, k=1, **o) { [a, r, k, o] }\nprint(f(*[1, 2], **{\"k\": 3, \"z\": 4}), f(1, *\"ab\"))\na, *b = range(4)\nprint({*b, 9} | {a}, \"%5.2f|%-3d|%s\" % (1.5, 2, b))\ndel b[0]\nprint(sum(x for x in (y * 2 for y in b)))",
		"fn f(q, k, v) {\n s = ein\"ij,kj->ik\"(q, k) * 2\n p = softmax(s, -1)\n ein\"ik,kl->il\"(p, v)\n}\nprint(f(1, 2, 3))",
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob("../examples/*.tsr")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := lang.Compile("fuzz.tsr", src)
		if err != nil {
			return
		}
		th := &runtime.Thread{Stdout: io.Discard, MaxSteps: 20000, MaxDepth: 200}
		th.Load = func(*runtime.Thread, string) (*runtime.Module, error) {
			return nil, runtime.Errorf("ImportError", "no imports while fuzzing")
		}
		_, err = th.Exec(prog, map[string]runtime.Value{})
		if err != nil {
			var e *runtime.EvalError
			if !errors.As(err, &e) {
				t.Fatalf("error is %T: %v", err, err)
			}
			if e.Kind == "InternalError" {
				t.Fatalf("internal error: %v\nsource:\n%s", err, src)
			}
		}
	})
}
