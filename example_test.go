package tsr_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tsrlang/tsr"
	"gonum.org/v1/gonum/mat"
)

func Example() {
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	if err := in.SetGlobal("xs", []float64{1, 2, 3.5}); err != nil {
		panic(err)
	}
	v, err := in.Eval(context.Background(), "sum.tsr", `
fn total(v) {
    s = 0.0
    for x in v.tolist() { s += x }
    s
}
print("total:", total(xs), xs.sum().item())
total(xs) * 2
`)
	if err != nil {
		panic(err)
	}
	fmt.Println(tsr.FromValue(v))
	// Output:
	// total: 6.5 6.5
	// 13
}

// A host hands a gonum matrix to tsr, calls a tsr function on it and reads
// the resulting tensor back as a matrix.
func Example_gonum() {
	ctx := context.Background()
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	if _, err := in.Eval(ctx, "gram.tsr", `fn gram(a) { a.T @ a }`); err != nil {
		panic(err)
	}
	a := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	v, err := in.Call(ctx, "gram", a)
	if err != nil {
		panic(err)
	}
	var g *mat.Dense
	if err := tsr.Convert(v, &g); err != nil {
		panic(err)
	}
	fmt.Printf("%v\n", mat.Formatted(g))
	// Output:
	// ⎡35  44⎤
	// ⎣44  56⎦
}

func ExampleNew() {
	in := tsr.New(tsr.Options{
		Stdout:    os.Stdout,
		MaxSteps:  1_000_000,
		MaxMemory: 64 << 20,
		AllowDirs: []string{os.TempDir()},
	})
	_, err := in.Eval(context.Background(), "loop.tsr", "while true {}")
	fmt.Println(errors.Is(err, tsr.ErrStepLimit))
	var e *tsr.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Position())
	}
	// Output:
	// true
	// LimitError loop.tsr:1:1: in <toplevel>
}

func ExampleCompile() {
	p, err := tsr.Compile("square.tsr", "x * x")
	if err != nil {
		panic(err)
	}
	// One compiled program, run by several interpreters (each may be on
	// its own goroutine).
	for _, x := range []int{3, 4} {
		in := tsr.New(tsr.Options{})
		in.SetGlobal("x", x)
		v, err := in.Run(context.Background(), p)
		if err != nil {
			panic(err)
		}
		fmt.Println(v)
	}
	_, err = tsr.Compile("bad.tsr", "x = (1 +")
	var se *tsr.SyntaxError
	fmt.Println(errors.As(err, &se), se.Pos.Line)
	// Output:
	// 9
	// 16
	// true 1
}

func ExampleInterpreter_Eval_deadline() {
	in := tsr.New(tsr.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := in.Eval(ctx, "spin.tsr", "n = 0\nwhile true { n += 1 }")
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	// The interpreter is still usable, and kept the global.
	v, _ := in.Eval(context.Background(), "check.tsr", "n > 0")
	fmt.Println(v)
	// Output:
	// true
	// true
}

func ExampleInterpreter_SetGlobal() {
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	t, err := tsr.Tensor([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		panic(err)
	}
	in.SetGlobal("t", t)
	in.SetGlobal("cfg", map[string]any{"scale": 0.5, "name": "demo"})
	if _, err := in.Eval(context.Background(), "main.tsr", `
print(cfg["name"], t.shape, t.dtype)
s = (t * cfg["scale"]).sum(1)
`); err != nil {
		panic(err)
	}
	var s []float32
	if err := in.GlobalTo("s", &s); err != nil {
		panic(err)
	}
	fmt.Println(s)
	// Output:
	// demo [2, 3] f32
	// [3 7.5]
}

func ExampleInterpreter_RegisterFunc() {
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	// Typed parameters, named so that tsr can pass them by keyword; sep
	// is optional with a default written in tsr.
	err := in.RegisterFunc("join", func(words []string, sep string) string {
		return strings.Join(words, sep)
	}, "words", `sep=", "`)
	if err != nil {
		panic(err)
	}
	// The raw form unpacks its own arguments.
	err = in.RegisterFunc("clip", func(a tsr.Args) (any, error) {
		var x, lo, hi float64 = 0, 0, 1
		if err := a.Unpack("x", &x, "lo?", &lo, "hi?", &hi); err != nil {
			return nil, err
		}
		return min(max(x, lo), hi), nil
	})
	if err != nil {
		panic(err)
	}
	_, err = in.Eval(context.Background(), "main.tsr", `
print(join(["a", "b"]), join(["a", "b"], sep="-"))
print(clip(1.5), clip(-3, lo=-1))
try { join(1) } catch e { print(e) }
`)
	if err != nil {
		panic(err)
	}
	// Output:
	// a, b a-b
	// 1.0 -1.0
	// TypeError: join(): words: cannot convert tsr int to Go []string
}

func ExampleInterpreter_Call() {
	ctx := context.Background()
	in := tsr.New(tsr.Options{})
	in.Eval(ctx, "lib.tsr", `fn scale(x, by=2) { x * by }`)
	v, _ := in.Call(ctx, "scale", 21)
	w, _ := in.Call(ctx, "scale", 1.5, tsr.Kwargs{"by": 3})
	fmt.Println(v, w)
	// Output: 42 4.5
}

func ExampleConvert() {
	in := tsr.New(tsr.Options{})
	v, err := in.Eval(context.Background(), "m.tsr", "arange(6).reshape(2, 3)")
	if err != nil {
		panic(err)
	}
	var flat []int
	var m *mat.Dense
	if err := tsr.Convert(v, &flat); err != nil {
		panic(err)
	}
	if err := tsr.Convert(v, &m); err != nil {
		panic(err)
	}
	fmt.Println(flat, m.At(1, 2))
	// Output: [0 1 2 3 4 5] 5
}

// EvalScript is for a whole program run once (what `tsr run` does): a
// global the rest of the script never mentions may be left unassigned.
func ExampleInterpreter_EvalScript() {
	in := tsr.New(tsr.Options{})
	_, err := in.EvalScript(context.Background(), "attn.tsr", `
q = ones(1, 2, 4, 8)
s = q @ q.mT / 4
p = softmax(s, dim=-1)
out = p @ q
print(out.shape)
`)
	fmt.Println(err)
	// Output:
	// [1, 2, 4, 8]
	// <nil>
}
