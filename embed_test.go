package tsr_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"gonum.org/v1/gonum/mat"
)

// limitSlack is how long after its trigger a limit may take to stop a
// program (the issue asks for 100 ms; the race detector and a loaded CI
// machine get the rest of the margin from the trigger time itself).
const limitSlack = 100 * time.Millisecond

// TestGonumRoundTrip: a host sets a gonum matrix, calls a tsr function and
// reads the resulting tensor back; values derived by hand.
func TestGonumRoundTrip(t *testing.T) {
	ctx := context.Background()
	in := tsr.New(tsr.Options{Stdout: &bytes.Buffer{}})
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	if err := in.SetGlobal("a", a); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(ctx, "lib.tsr", `
fn center(m) { m - m.mean(0, keepdim=true) }
fn gram(m) { m @ m.T }
`); err != nil {
		t.Fatal(err)
	}
	v, err := in.Call(ctx, "gram", a)
	if err != nil {
		t.Fatal(err)
	}
	var g *mat.Dense
	if err := tsr.Convert(v, &g); err != nil {
		t.Fatal(err)
	}
	// [1 2 3; 4 5 6] @ its transpose = [14 32; 32 77].
	want := mat.NewDense(2, 2, []float64{14, 32, 32, 77})
	if !mat.Equal(g, want) {
		t.Errorf("gram = %v, want %v", mat.Formatted(g), mat.Formatted(want))
	}
	// Through a global, into a caller-owned matrix.
	if _, err := in.Eval(ctx, "c.tsr", "c = center(a)"); err != nil {
		t.Fatal(err)
	}
	var c mat.Dense
	if err := in.GlobalTo("c", &c); err != nil {
		t.Fatal(err)
	}
	if want := mat.NewDense(2, 3, []float64{-1.5, -1.5, -1.5, 1.5, 1.5, 1.5}); !mat.Equal(&c, want) {
		t.Errorf("center = %v", mat.Formatted(&c))
	}
	// The tensor keeps float64 precision and shape.
	tt, err := in.GlobalTensor("a")
	if err != nil {
		t.Fatal(err)
	}
	if tt.DType() != tensor.F64 || fmt.Sprint(tt.Shape()) != "[2 3]" {
		t.Errorf("a: dtype %v shape %v", tt.DType(), tt.Shape())
	}
	// A strided view (non-contiguous gonum slice) converts too.
	big := mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	in.SetGlobal("s", big.Slice(1, 3, 1, 3))
	v, err = in.Eval(ctx, "s.tsr", "s.sum().item()")
	if err != nil || v != runtime.Float(5+6+8+9) {
		t.Errorf("slice sum = %v, %v", v, err)
	}
	// A vector becomes a 1-D tensor.
	in.SetGlobal("vec", mat.NewVecDense(3, []float64{1, 2, 3}))
	v, err = in.Eval(ctx, "v.tsr", "vec.shape")
	if err != nil || v.String() != "[3]" {
		t.Errorf("vec.shape = %v, %v", v, err)
	}
	// A 1-D tensor is not a matrix.
	in.Eval(ctx, "x.tsr", "x = arange(3)")
	if _, err := in.GlobalDense("x"); err == nil || !strings.Contains(err.Error(), "needs 2 dims") {
		t.Errorf("GlobalDense of 1-D: %v", err)
	}
}

func TestConvert(t *testing.T) {
	in := tsr.New(tsr.Options{})
	eval := func(src string) runtime.Value {
		t.Helper()
		v, err := in.Eval(context.Background(), "t.tsr", src)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var (
		i   int
		i8  int8
		u   uint
		f   float64
		f32 float32
		s   string
		b   bool
		fs  []float64
		f3  [3]float32
		is  []int
		ss  []string
		m   map[string]int
		nn  [][]int
		a   any
		tt  *tensor.Tensor
		pf  *float64
	)
	for _, tc := range []struct {
		src  string
		dst  any
		want any // dereferenced value, compared with fmt %v
		err  string
	}{
		{"7", &i, 7, ""},
		{"true", &i, 1, ""},
		{"300", &i8, nil, "overflows Go int8"},
		{"-1", &u, nil, "overflows Go uint"},
		{"2.5", &i, nil, "cannot convert tsr float to Go int"},
		{"2", &f, 2.0, ""},
		{"0.1", &f32, float32(0.1), ""},
		{`"hé"`, &s, "hé", ""},
		{"1", &s, nil, "cannot convert tsr int to Go string"},
		{"1 < 2", &b, true, ""},
		{"[1, 2.5]", &fs, []float64{1, 2.5}, ""},
		{"tensor([1.5, 2.0, 3.0])", &f3, [3]float32{1.5, 2, 3}, ""},
		{"tensor([1.5, 2.0])", &f3, nil, "2 elements"},
		{"arange(4)", &is, []int{0, 1, 2, 3}, ""},
		{"tensor([1.5])", &is, nil, "cannot convert a f32 tensor"},
		{"(\"a\", \"b\")", &ss, []string{"a", "b"}, ""},
		{`{"x": 1, "y": 2}`, &m, map[string]int{"x": 1, "y": 2}, ""},
		{"[[1, 2], [3]]", &nn, [][]int{{1, 2}, {3}}, ""},
		{"[1, \"a\", none]", &a, []any{int64(1), "a", nil}, ""},
		{"tensor(3.5)", &f, 3.5, ""},
		{"tensor([1.0, 2.0])", &f, nil, "it has 2 elements"},
		{"[[1, 2], [3, 4]]", &tt, "tensor([[1, 2],\n        [3, 4]])", ""},
		{"[[1, 2], [3]]", &tt, nil, "ragged"},
		{"none", &pf, (*float64)(nil), ""},
		{"4.0", &pf, 4.0, ""},
	} {
		err := tsr.Convert(eval(tc.src), tc.dst)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s → %T: err %v, want %q", tc.src, tc.dst, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s → %T: %v", tc.src, tc.dst, err)
			continue
		}
		got := deref(tc.dst)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s → %T = %v, want %v", tc.src, tc.dst, got, tc.want)
		}
	}
	if err := tsr.Convert(runtime.None, f); err == nil {
		t.Error("Convert into a non-pointer should fail")
	}
}

func deref(p any) any {
	switch p := p.(type) {
	case *int:
		return *p
	case *int8:
		return *p
	case *uint:
		return *p
	case *float64:
		return *p
	case *float32:
		return *p
	case *string:
		return *p
	case *bool:
		return *p
	case *[]float64:
		return *p
	case *[3]float32:
		return *p
	case *[]int:
		return *p
	case *[]string:
		return *p
	case *map[string]int:
		return *p
	case *[][]int:
		return *p
	case *any:
		return *p
	case **tensor.Tensor:
		return (*p).String()
	case **float64:
		if *p == nil {
			return (*float64)(nil)
		}
		return **p
	}
	return p
}

func TestToValue(t *testing.T) {
	type celsius float64
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "none"},
		{uint8(7), "7"},
		{celsius(21.5), "21.5"},
		{[]int{1, 2}, "[1, 2]"},
		{[2]string{"a", "b"}, `['a', 'b']`},
		{map[string]float64{"b": 2, "a": 1}, `{'a': 1.0, 'b': 2.0}`},
		{[][]float64{{1}, {2, 3}}, "[tensor([1.], dtype=f64), tensor([2., 3.], dtype=f64)]"},
		{[]float32{1, 2}, "tensor([1., 2.])"},
		{(*tensor.Tensor)(nil), "none"},
	} {
		v, err := tsr.ToValue(tc.in)
		if err != nil {
			t.Errorf("%T: %v", tc.in, err)
			continue
		}
		if got := runtime.Repr(v); got != tc.want {
			t.Errorf("ToValue(%#v) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, bad := range []any{uint64(math.MaxUint64), map[int]int{1: 1}, struct{}{}, make(chan int)} {
		if _, err := tsr.ToValue(bad); err == nil {
			t.Errorf("ToValue(%T) should fail", bad)
		}
	}
	tt, err := tsr.Tensor([]int32{1, 2, 3, 4}, 2, 2)
	if err != nil || tt.DType() != tensor.I32 || tt.String() != "tensor([[1, 2],\n        [3, 4]], dtype=i32)" {
		t.Errorf("Tensor(int32) = %v, %v", tt, err)
	}
	if _, err := tsr.Tensor([]float64{1, 2, 3}, 2, 2); err == nil {
		t.Error("Tensor with a wrong shape should fail")
	}
}

// TestLimits: each limit stops a runaway script with its own error, quickly,
// and the interpreter remains usable.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, in *tsr.Interpreter) {
		t.Helper()
		v, err := in.Eval(ctx, "after.tsr", "s = 0\nfor i in range(100) { s += i }\ns")
		if err != nil || v != runtime.Int(4950) {
			t.Fatalf("interpreter not usable after the limit: %v, %v", v, err)
		}
	}

	t.Run("steps", func(t *testing.T) {
		in := tsr.New(tsr.Options{MaxSteps: 100_000})
		start := time.Now()
		_, err := in.Eval(ctx, "spin.tsr", "n = 0\nwhile true {\n  n += 1\n}")
		if time.Since(start) > limitSlack {
			t.Errorf("took %v", time.Since(start))
		}
		var e *tsr.Error
		if !errors.As(err, &e) || e.Kind != "LimitError" || !errors.Is(err, tsr.ErrStepLimit) {
			t.Fatalf("err = %v", err)
		}
		if p := e.Position(); p.File != "spin.tsr" || p.Pos.Line < 2 {
			t.Errorf("position %v", p)
		}
		// try/catch cannot swallow it.
		_, err = in.Eval(ctx, "catch.tsr", "try { while true {} } catch e { print(e) }")
		if !errors.Is(err, tsr.ErrStepLimit) {
			t.Errorf("caught limit: %v", err)
		}
		check(t, in)
	})

	t.Run("deadline", func(t *testing.T) {
		in := tsr.New(tsr.Options{})
		const d = 30 * time.Millisecond
		c, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		start := time.Now()
		_, err := in.Eval(c, "spin.tsr", "fn f(i) { i + 1 }\nn = 0\nwhile true { n = f(n) }")
		el := time.Since(start)
		if el > d+limitSlack {
			t.Errorf("stopped after %v (deadline %v)", el, d)
		}
		var e *tsr.Error
		if !errors.As(err, &e) || e.Kind != "Cancelled" || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v", err)
		}
		check(t, in)
		// An already-expired context does not start the program.
		_, err = in.Eval(c, "x.tsr", "print(1)")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("expired ctx: %v", err)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		in := tsr.New(tsr.Options{})
		c, cancel := context.WithCancel(ctx)
		var fired time.Time
		go func() {
			time.Sleep(20 * time.Millisecond)
			fired = time.Now()
			cancel()
		}()
		_, err := in.Eval(c, "spin.tsr", "while true {}")
		if lag := time.Since(fired); lag > limitSlack {
			t.Errorf("stopped %v after cancel", lag)
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		check(t, in)
	})

	t.Run("memory", func(t *testing.T) {
		const limit = 64 << 20
		in := tsr.New(tsr.Options{MaxMemory: limit})
		start := time.Now()
		// 4 MiB per iteration, all kept alive: the limit is crossed after
		// 16 iterations.
		_, err := in.Eval(ctx, "hog.tsr", "xs = []\nwhile true { xs.append(zeros(2**20)) }")
		if el := time.Since(start); el > 2*limitSlack {
			t.Errorf("took %v", el)
		}
		var e *tsr.Error
		if !errors.As(err, &e) || e.Kind != "MemoryError" || !errors.Is(err, tsr.ErrMemoryLimit) {
			t.Fatalf("err = %v", err)
		}
		var n int
		in.Eval(ctx, "n.tsr", "n = len(xs)")
		if err := in.GlobalTo("n", &n); err != nil || n < 16 {
			t.Errorf("stopped after %d tensors (%v)", n, err)
		}
		// Dropping the tensors frees the budget: a loop that allocates
		// and drops 4 MiB per iteration (400 MiB in total) runs to the end.
		in.Eval(ctx, "free.tsr", "xs = none")
		v, err := in.Eval(ctx, "churn.tsr", "s = 0.0\nfor i in range(100) { s += ones(2**20).sum().item() }\ns")
		if err != nil || v != runtime.Float(100<<20) {
			t.Fatalf("after freeing: %v, %v", v, err)
		}
		check(t, in)
	})
}

// TestFilePolicy: io.load and import are refused outside granted
// directories.
func TestFilePolicy(t *testing.T) {
	ctx := context.Background()
	granted, other := t.TempDir(), t.TempDir()
	// Make a file in each directory with a trusted interpreter.
	all := tsr.New(tsr.Options{AllowAllFiles: true})
	for _, d := range []string{granted, other} {
		all.SetGlobal("p", filepath.Join(d, "x.npy"))
		if _, err := all.Eval(ctx, "save.tsr", "io.save(p, arange(3))"); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "m.tsr"), []byte("k = 42\n"), 0o644)
	}

	in := tsr.New(tsr.Options{AllowDirs: []string{granted}})
	in.SetGlobal("p", filepath.Join(granted, "x.npy"))
	v, err := in.Eval(ctx, "load.tsr", "io.load(p).sum().item()")
	if err != nil || v != runtime.Int(3) {
		t.Fatalf("load inside granted dir: %v, %v", v, err)
	}
	for _, path := range []string{
		filepath.Join(other, "x.npy"),
		filepath.Join(granted, "..", filepath.Base(other), "x.npy"),
	} {
		in.SetGlobal("p", path)
		_, err = in.Eval(ctx, "load.tsr", "io.load(p)")
		var e *tsr.Error
		if !errors.As(err, &e) || e.Kind != "PermissionError" {
			t.Errorf("load %s: %v", path, err)
		}
	}
	// A symbolic link inside the granted directory pointing outside it.
	link := filepath.Join(granted, "link.npy")
	if os.Symlink(filepath.Join(other, "x.npy"), link) == nil {
		in.SetGlobal("p", link)
		if _, err := in.Eval(ctx, "load.tsr", "io.load(p)"); err == nil || !strings.Contains(err.Error(), "PermissionError") {
			t.Errorf("symlink escape: %v", err)
		}
	}
	// import follows the same policy.
	if _, err := in.Eval(ctx, filepath.Join(granted, "main.tsr"), `import "m.tsr" as m`+"\nk = m.k"); err != nil {
		t.Errorf("import inside: %v", err)
	}
	if _, err := in.Eval(ctx, filepath.Join(other, "main.tsr"), `import "m.tsr" as m`); err == nil || !strings.Contains(err.Error(), "PermissionError") {
		t.Errorf("import outside: %v", err)
	}
	// Nothing is granted by default.
	none := tsr.New(tsr.Options{})
	none.SetGlobal("p", filepath.Join(granted, "x.npy"))
	if _, err := none.Eval(ctx, "load.tsr", "io.load(p)"); err == nil || !strings.Contains(err.Error(), "PermissionError") {
		t.Errorf("default policy: %v", err)
	}
}

// TestConcurrentPrograms: 100 goroutines run one compiled program, each in
// its own interpreter, and agree (run with -race).
func TestConcurrentPrograms(t *testing.T) {
	p, err := tsr.Compile("work.tsr", `
manual_seed(seed)
x = randn(8, 8, dtype=f64)
g = x @ x.T
acc = 0
for i in range(200) { acc = (acc * 31 + i) % 1000003 }
[g.trace().item(), acc, f"{g.sum().item():.6f}"]
`)
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	results := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := tsr.New(tsr.Options{Stdout: &bytes.Buffer{}, MaxSteps: 1e6})
			in.SetGlobal("seed", 7)
			v, err := in.Run(context.Background(), p)
			if err != nil {
				results[i] = err.Error()
				return
			}
			results[i] = runtime.Repr(v)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r != results[0] {
			t.Fatalf("goroutine %d: %s, goroutine 0: %s", i, r, results[0])
		}
	}
	if !strings.HasPrefix(results[0], "[") {
		t.Fatalf("result: %s", results[0])
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	in := tsr.New(tsr.Options{})
	_, err := in.Eval(ctx, "main.tsr", "fn f(x) {\n  x[5]\n}\nf([1, 2])")
	var e *tsr.Error
	if !errors.As(err, &e) || e.Kind != "IndexError" {
		t.Fatalf("err = %v", err)
	}
	if len(e.Frames) != 2 || e.Frames[0].Func != "<toplevel>" || e.Frames[1].Func != "f" {
		t.Errorf("frames %v", e.Frames)
	}
	if p := e.Position(); p.File != "main.tsr" || p.Pos.Line != 2 || p.Pos.Col != 3 {
		t.Errorf("position %v", p)
	}
	if !strings.Contains(err.Error(), "Traceback (most recent call last):\n  main.tsr:4:1: in <toplevel>\n    f([1, 2])\n    ^\n  main.tsr:2:3: in f\n    x[5]\n    ^\nIndexError") {
		t.Errorf("traceback:\n%s", err)
	}

	_, err = in.Eval(ctx, "bad.tsr", "x = 1\ny = )")
	var se *tsr.SyntaxError
	if !errors.As(err, &se) || se.File != "bad.tsr" || se.Pos.Line != 2 {
		t.Errorf("syntax error: %v", err)
	}

	// Errors and panics from Go functions.
	sentinel := errors.New("disk on fire")
	in.RegisterFunc("fail", func() error { return sentinel })
	in.RegisterFunc("boom", func(xs []int) int { return xs[10] })
	in.RegisterFunc("kinded", func() error { return runtime.Errorf("ValueError", "bad value") })
	_, err = in.Eval(ctx, "go.tsr", "fail()")
	if !errors.Is(err, sentinel) || !errors.As(err, &e) || e.Kind != "RuntimeError" {
		t.Errorf("fail(): %v", err)
	}
	v, err := in.Eval(ctx, "go.tsr", "k = none\ntry { kinded() } catch e { k = e.kind }\nk")
	if err != nil || v != runtime.String("ValueError") {
		t.Errorf("kinded(): %v, %v", v, err)
	}
	_, err = in.Eval(ctx, "go.tsr", "try { boom([1]) } catch e { print(e) }")
	if !errors.As(err, &e) || e.Kind != "InternalError" || !strings.Contains(e.Msg, "panic in Go function boom") || !strings.Contains(e.Msg, "index out of range") {
		t.Errorf("boom(): %v", err)
	}
	if _, err := in.Eval(ctx, "ok.tsr", "1 + 1"); err != nil {
		t.Errorf("after panic: %v", err)
	}
}

func TestRegisterFunc(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	in := tsr.New(tsr.Options{Stdout: &out})
	type key struct{}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(in.RegisterFunc("axpy", func(a float64, x, y *tensor.Tensor) (*tensor.Tensor, error) {
		ax, err := tensor.Mul(tensor.ScalarFloat(a), x)
		if err != nil {
			return nil, err
		}
		return tensor.Add(ax, y)
	}, "alpha", "x", "y"))
	must(in.RegisterFunc("total", func(xs ...float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	}))
	must(in.RegisterFunc("divmod", func(a, b int) (int, int) { return a / b, a % b }))
	must(in.RegisterFunc("ctxval", func(ctx context.Context) string { return fmt.Sprint(ctx.Value(key{})) }))
	must(in.RegisterFunc("greet", func(name string, times int, loud bool) string {
		s := strings.Repeat("hi "+name+" ", times)
		if loud {
			s = strings.ToUpper(s)
		}
		return strings.TrimSpace(s)
	}, "name", "times=1", "loud?"))
	must(in.SetDoc("greet", "greet(name, times=1, loud=false): a greeting."))
	c := context.WithValue(ctx, key{}, "from-ctx")
	_, err := in.Eval(c, "main.tsr", `
print(axpy(2.0, tensor([1.0, 2.0]), y=tensor([10.0, 20.0])))
print(total(), total(1, 2.5, 3))
print(divmod(17, 5))
print(ctxval())
print(greet("bo"), greet("bo", loud=true, times=2))
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "tensor([12., 24.])\n0.0 6.5\n(3, 2)\nfrom-ctx\nhi bo HI BO HI BO\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	for src, msg := range map[string]string{
		`greet()`:                 "TypeError: greet() missing required argument 'name' (pos 1)",
		`greet(1)`:                "TypeError: greet(): name: cannot convert tsr int to Go string",
		`greet("a", nope=1)`:      "TypeError: greet() got an unexpected keyword argument 'nope'",
		`greet("a", name="b")`:    "TypeError: greet() got multiple values for argument 'name'",
		`total("x")`:              "TypeError: total(): argument 1: cannot convert tsr str to Go float64",
		`divmod(1, 2, 3)`:         "TypeError: divmod() takes 2 positional arguments but 3 were given",
		`divmod(a=1, b=2)`:        "TypeError: divmod() got an unexpected keyword argument 'a'",
		`axpy(1.0, [1.0], [2.0])`: "",
	} {
		_, err := in.Eval(ctx, "call.tsr", src)
		if msg == "" {
			if err != nil {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), msg) {
			t.Errorf("%s: %v\nwant %s", src, err, msg)
		}
	}
	b, _ := in.Global("greet")
	if b.(*runtime.Builtin).Doc != "greet(name, times=1, loud=false): a greeting." {
		t.Error("SetDoc did not set the doc")
	}
	if err := in.SetDoc("zeros", "x"); err == nil {
		t.Error("SetDoc on a stdlib builtin should fail")
	}
	for _, bad := range []struct {
		fn     any
		params []string
	}{
		{42, nil},
		{func(a, b int) {}, []string{"a"}},
		{func(a, b int) {}, []string{"a?", "b"}},
		{func(a int) {}, []string{"a=)"}},
		{func(a int) {}, []string{"1a"}},
		{func() (error, int) { return nil, 0 }, nil},
	} {
		if err := in.RegisterFunc("bad", bad.fn, bad.params...); err == nil {
			t.Errorf("RegisterFunc(%T, %v) should fail", bad.fn, bad.params)
		}
	}
	if got := in.Globals(); strings.Join(got, ",") != "axpy,ctxval,divmod,greet,total" {
		t.Errorf("Globals() = %v", got)
	}
}

// A host function's result is never computed into by the operator that
// consumes it (temporary elision): the host may keep what it returns.
func TestHostResultNotElided(t *testing.T) {
	in := tsr.New(tsr.Options{})
	var kept *tensor.Tensor
	if err := in.RegisterFunc("weights", func() *tensor.Tensor {
		if kept == nil {
			kept, _ = tensor.FromFloat64s([]float64{1, 2, 3}, []int{3}, tensor.F32)
		}
		return kept
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(context.Background(), "t.tsr", "y = weights() * 10\nz = weights() + 1"); err != nil {
		t.Fatal(err)
	}
	if got := kept.ToFloat64s(); got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("the host's tensor was overwritten: %v", got)
	}
}
