package bench

import (
	"context"
	"io"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// Each benchmark runs the same program on tsr and on go.starlark.net.

const fibTSR = `
fn fib(n) {
    if n < 2 { return n }
    fib(n - 1) + fib(n - 2)
}
result = fib(27)
`

const fibStarlark = `
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
result = fib(27)
`

const loopTSR = `
s = 0
i = 0
while i < 10000000 {
    s += i
    i += 1
}
result = s
`

const loopStarlark = `
def loop():
    s = 0
    i = 0
    while i < 10000000:
        s += i
        i += 1
    return s
result = loop()
`

// loopFnTSR is the loop inside a function (locals instead of globals), as
// the starlark twin must be written.
const loopFnTSR = `
fn loop() {
    s = 0
    i = 0
    while i < 10000000 {
        s += i
        i += 1
    }
    s
}
result = loop()
`

const builtinTSR = `
fn calls() {
    n = 0
    for i in range(1000000) { n += abs(-1) }
    n
}
result = calls()
`

const builtinStarlark = `
def calls():
    n = 0
    for i in range(1000000):
        n += abs(-1)
    return n
result = calls()
`

func runTSR(b *testing.B, src string, want int64) {
	prog, err := lang.Compile("bench.tsr", src)
	if err != nil {
		b.Fatal(err)
	}
	th := &runtime.Thread{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env := map[string]runtime.Value{}
		if _, err := th.Exec(prog, env); err != nil {
			b.Fatal(err)
		}
		if env["result"] != runtime.Int(want) {
			b.Fatalf("result = %v, want %d", env["result"], want)
		}
	}
}

func runStarlark(b *testing.B, src string, want int64) {
	opts := &syntax.FileOptions{While: true, Recursion: true, GlobalReassign: true, TopLevelControl: true}
	_, prog, err := starlark.SourceProgramOptions(opts, "bench.star", src, func(name string) bool { return name == "abs" })
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		th := &starlark.Thread{}
		g, err := prog.Init(th, starlark.StringDict{"abs": starlark.NewBuiltin("abs", starAbs)})
		if err != nil {
			b.Fatal(err)
		}
		if got, _ := starlark.AsInt32(g["result"]); int64(got) != want && g["result"].String() != starlark.MakeInt64(want).String() {
			b.Fatalf("result = %v, want %d", g["result"], want)
		}
	}
}

// starAbs is abs for the starlark twin (starlark has no abs builtin).
func starAbs(th *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Int
	if err := starlark.UnpackPositionalArgs("abs", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	if x.Sign() < 0 {
		return starlark.MakeInt(0).Sub(x), nil
	}
	return x, nil
}

func BenchmarkFib27TSR(b *testing.B)      { runTSR(b, fibTSR, 196418) }
func BenchmarkFib27Starlark(b *testing.B) { runStarlark(b, fibStarlark, 196418) }
func BenchmarkLoop10MTSR(b *testing.B)    { runTSR(b, loopTSR, 49999995000000) }
func BenchmarkLoop10MFnTSR(b *testing.B)  { runTSR(b, loopFnTSR, 49999995000000) }
func BenchmarkLoop10MStarlark(b *testing.B) {
	runStarlark(b, loopStarlark, 49999995000000)
}
func BenchmarkBuiltin1MTSR(b *testing.B)      { runTSR(b, builtinTSR, 1000000) }
func BenchmarkBuiltin1MStarlark(b *testing.B) { runStarlark(b, builtinStarlark, 1000000) }

// vmCases are ordinary (non-tensor) programs, each with a CPython twin in
// bench/vm_python.py under the same name: the interpreter's hot paths for
// calls, containers, strings and closures. Each program's last expression
// is checked against want. Run them with
//
//	go test ./bench -run '^$' -bench 'VM/' -count 5
//	python3 bench/vm_python.py          # CPython's table, and tsr/CPython ratios
var vmCases = []struct {
	name, src string
	want      int64
}{
	{"fib27", `
fn fib(n) {
    if n < 2 { return n }
    fib(n - 1) + fib(n - 2)
}
fib(27)`, 196418},
	{"append300k", `
fn f() {
    l = []
    for i in range(300000) { l.append(i) }
    len(l)
}
f()`, 300000},
	{"dictset300k", `
fn f() {
    d = {}
    for i in range(300000) { d[i] = i }
    len(d)
}
f()`, 300000},
	{"dictget300k", `
fn f() {
    d = {}
    for i in range(1000) { d[i] = i }
    s = 0
    for i in range(300000) { s += d[i % 1000] }
    s
}
f()`, 149850000},
	{"wordcount300k", `
fn f() {
    words = []
    for i in range(1000) { words.append(f"w{i}") }
    counts = {}
    for i in range(300000) {
        w = words[i % 1000]
        counts[w] = counts.get(w, 0) + 1
    }
    len(counts) + counts["w7"]
}
f()`, 1300},
	{"strbuild100k", `
fn f() {
    parts = []
    for i in range(100000) { parts.append(f"{i},") }
    s = "".join(parts)
    len(s)
}
f()`, 588890},
	{"unpack1M", `
fn f() {
    s = 0
    for i in range(1000000) {
        p = (i, 2 * i)
        a, b = p
        s += a + b
    }
    s
}
f()`, 1499998500000},
	{"closure1M", `
fn make(k) { fn(x) { x + k } }
fn f() {
    add = make(3)
    s = 0
    for i in range(1000000) { s = add(s) % 1000 }
    s
}
f()`, 0},
	{"listindex1M", `
fn f() {
    l = [0] * 1000
    for i in range(1000000) { l[i % 1000] = l[i % 1000] + 1 }
    l[7]
}
f()`, 1000},
	{"arith3M", `
fn f() {
    s = 0
    for i in range(3000000) { s += i * 2 % 7 }
    s
}
f()`, 8999997},
	{"appendloop1M", `
fn f() {
    l = []
    for i in range(1000000) { l.append(i * 2) }
    len(l)
}
f()`, 1000000},
	{"listcomp1M", `
fn f() {
    l = [i * 2 for i in range(1000000)]
    len(l)
}
f()`, 1000000},
	{"listcompif1M", `
fn f() {
    l = [i for i in range(1000000) if i % 3 == 0]
    len(l)
}
f()`, 333334},
	{"dictcomp300k", `
fn f() {
    d = {i: i for i in range(300000)}
    len(d)
}
f()`, 300000},
	{"condexpr1M", `
fn f() {
    s = 0
    for i in range(1000000) { s += 1 if i % 2 == 0 else 2 }
    s
}
f()`, 1500000},
}

// BenchmarkVM runs vmCases through the embedding API (tsr.New, Run), as a
// host would: stdlib installed, compiled once.
func BenchmarkVM(b *testing.B) {
	for _, c := range vmCases {
		b.Run(c.name, func(b *testing.B) {
			p, err := tsr.CompileScript(c.name+".tsr", c.src)
			if err != nil {
				b.Fatal(err)
			}
			in := tsr.New(tsr.Options{Stdout: io.Discard})
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				v, err := in.Run(ctx, p)
				if err != nil {
					b.Fatal(err)
				}
				if v != runtime.Int(c.want) {
					b.Fatalf("result = %v, want %d", v, c.want)
				}
			}
		})
	}
}
