package tsr_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tsrlang/tsr"
)

func Example() {
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	if err := in.SetGlobal("xs", []float64{1, 2, 3.5}); err != nil {
		panic(err)
	}
	v, err := in.Eval(context.Background(), "sum.tsr", `
fn total(v) {
    s = 0.0
    for x in v { s += x }
    s
}
print("total:", total(xs))
total(xs) * 2
`)
	if err != nil {
		panic(err)
	}
	fmt.Println(tsr.FromValue(v))
	// Output:
	// total: 6.5
	// 13
}

func ExampleError() {
	in := tsr.New(tsr.Options{})
	_, err := in.Eval(context.Background(), "bad.tsr", "fn f(x) {\n    x // 0\n}\nf(1)\n")
	var e *tsr.Error
	if errors.As(err, &e) {
		fmt.Println(e.Kind, e.Position())
		fmt.Println(err)
	}
	// Output:
	// ZeroDivisionError bad.tsr:2:7: in f
	// Traceback (most recent call last):
	//   bad.tsr:4:1: in <toplevel>
	//   bad.tsr:2:7: in f
	// ZeroDivisionError: integer division or modulo by zero
}

func ExampleCompile() {
	_, err := tsr.Compile("attn.tsr", "x = 1\nscores = ein\"bhid,bhjd->bhik\"\n")
	fmt.Println(err)
	// Output:
	// attn.tsr:2:10: einsum: output index 'k' does not appear in any input
	//     scores = ein"bhid,bhjd->bhik"
	//              ^
}

func ExampleInterpreter_Run() {
	p, err := tsr.Compile("loop.tsr", "n = 0\nwhile true { n += 1 }\n")
	if err != nil {
		panic(err)
	}
	in := tsr.New(tsr.Options{MaxSteps: 10000})
	_, err = in.Run(context.Background(), p)
	var e *tsr.Error
	errors.As(err, &e)
	fmt.Println(e.Kind)
	// Output:
	// LimitError
}

func ExampleInterpreter_Eval() {
	in := tsr.New(tsr.Options{Stdout: os.Stdout})
	ctx := context.Background()
	// Globals persist across Evals: f sees the x assigned later.
	for _, src := range []string{"fn f() { x * 2 }", "x = 21", "print(f())"} {
		if _, err := in.Eval(ctx, "session.tsr", src); err != nil {
			panic(err)
		}
	}
	v, _ := in.Global("x")
	fmt.Println(v, in.Globals())
	// Output:
	// 42
	// 21 [f x]
}
