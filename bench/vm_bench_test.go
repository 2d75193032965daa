package bench

import (
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

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
