package runtime_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// run compiles and executes src on th, returning printed output.
func run(t *testing.T, th *runtime.Thread, src string) (string, error) {
	t.Helper()
	prog, err := lang.Compile("t.tsr", src)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	var out bytes.Buffer
	th.Stdout = &out
	_, err = th.Exec(prog, map[string]runtime.Value{})
	return out.String(), err
}

func mustRun(t *testing.T, src string) string {
	t.Helper()
	out, err := run(t, &runtime.Thread{}, src)
	if err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	return out
}

func TestEval(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"print(7 / 2, 7 // 2, -7 // 2, 2 ** 10, -2 ** 2, 2 ** -1)", "3.5 3 -4 1024 -4 0.5"},
		// f-string conversions and nested spec fields (outputs from Python 3.11)
		{`v = 1234567.891; w = 12; print(f"[{v:>{w}.1f}]", f"[{v:{w}.{2}f}]", f"{'ab'!r}", f"{'ab'!s:>5}|", f"{[1, 'x']!r}", f"{1 != 2}")`,
			"[   1234567.9] [  1234567.89] 'ab'    ab| [1, 'x'] true"},
		{`x = 3; print(f"[{x!r:>4}|{x:{'>'}{4}}|{'a'!a}")`, "[   3|   3|'a'"},
		{`print(f"{'ünï'!a} {'😀'!a} {[1, 'é']!a} {'é'!s} {'é'!r}")`, `'\xfcn\xef' '\U0001f600' [1, '\xe9'] é 'é'`},
		{"print(-7 % 2, 7 % -2, -7.0 % 2, 5 // -2.0)", "1 -1 1.0 -3.0"},
		{"print(true and none, 0 or [], 1 and 2, none or 3)", "none [] 2 3"},
		{"print(1 == 1.0, [1, (2, 3)] == [1, (2, 3)], {1: 2} == {1.0: 2}, none == 0)", "true true true false"},
		{"print(3 in [1, 2, 3], \"b\" in {\"b\": 1}, \"ell\" in \"hello\", 5 in range(0, 10, 5), 2 in (1,))", "true true true true false"},
		{"x = [3, 1]; x += [2]; print(x, x * 2, \"ab\" * 2, (1,) * 2)", "[3, 1, 2] [3, 1, 2, 3, 1, 2] abab (1, 1)"},
		{"print(9223372036854775806 + 1, -9223372036854775807 - 1, -9223372036854775808)", "9223372036854775807 -9223372036854775808 -9223372036854775808"},
		{"a, (b, c) = 1, [2, 3]; print(a + b + c)", "6"},
		{"i = 3; print(0 <= i < 5, 0 <= i < 3, 5 > i > 1 > 0, 1 < 2 > 0 == 0, [1 < 2 < 3])", "true false true true [true]"},
		{"n = [0]; fn f() { n[0] += 1; 2 }\nprint(1 < f() < 3, n[0], 3 < f() < 5, n[0])", "true 1 false 2"},
	} {
		if got := strings.TrimSpace(mustRun(t, tc.src)); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestErrorsAndTraceback(t *testing.T) {
	src := "fn f(x) {\n    g(x)\n}\nfn g(y) {\n    y[5]\n}\nf([1])\n"
	_, err := run(t, &runtime.Thread{}, src)
	var e *runtime.EvalError
	if !errors.As(err, &e) {
		t.Fatalf("not an EvalError: %v", err)
	}
	if e.Kind != "IndexError" || len(e.Frames) != 3 {
		t.Fatalf("kind %s frames %v", e.Kind, e.Frames)
	}
	want := "Traceback (most recent call last):\n  t.tsr:7:1: in <toplevel>\n    f([1])\n    ^\n  t.tsr:2:5: in f\n    g(x)\n    ^\n  t.tsr:5:5: in g\n    y[5]\n    ^\nIndexError: list index 5 out of range (length 1)"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
	for _, tc := range []struct{ src, kind string }{
		{"x = undefined", "NameError"},
		{"fn f() { y = y + 1 }\nf()", "UnboundLocalError"},
		{"assert 1 > 2", "AssertionError"},
		{"round(float(\"inf\"))", "OverflowError"},
		{"format(none, \">5\")", "TypeError"},
		{"format([1], \"d\")", "TypeError"},
		{"round(float(\"nan\"))", "ValueError"},
		{"int(float(\"-inf\"))", "OverflowError"},
		{"2.0 ** 10000", "OverflowError"},
		{"(-10.0) ** 401", "OverflowError"},
		{"1 + \"a\"", "TypeError"},
		{"[1][\"a\"]", "TypeError"},
		{"{}[1]", "KeyError"},
		{"(1).foo", "AttributeError"},
		{"error(\"LinAlgError\", \"singular\")", "LinAlgError"},
		{"a, b = [1, 2, 3]", "ValueError"},
		{"a, b = 1", "TypeError"},
		{"fn r() { r() }\nr()", "RecursionError"},
		{"\"x\" * 1000000000000", "MemoryError"},
		{"[0] * 1000000000000", "MemoryError"},
		{"int(\"x\")", "ValueError"},
		{"range(1, 2, 0)", "ValueError"},
		{"sorted([1, \"a\"])", "TypeError"},
		{"no_grad { }", "RuntimeError"},
		{"ein\"ij->ji\"(1)", "RuntimeError"},
	} {
		_, err := run(t, &runtime.Thread{}, tc.src)
		var e *runtime.EvalError
		if !errors.As(err, &e) || e.Kind != tc.kind {
			t.Errorf("%q: got %v, want kind %s", tc.src, err, tc.kind)
		}
	}
}

func TestTryCatch(t *testing.T) {
	out := mustRun(t, `
fn f(i) {
    try {
        for j in range(10) {
            if j == i { error("ValueError", f"stop at {j}") }
        }
    } catch e {
        return e
    }
    "done"
}
e = f(3)
print(e.kind, e.message, type(e))
print(e)
print(f(20))
`)
	want := "ValueError stop at 3 error\nValueError: stop at 3\ndone\n"
	if out != want {
		t.Errorf("got %q want %q", out, want)
	}
}

func TestStepLimitAndCancel(t *testing.T) {
	th := &runtime.Thread{MaxSteps: 1000}
	_, err := run(t, th, "try { while true { } } catch e { print(\"caught\") }")
	var e *runtime.EvalError
	if !errors.As(err, &e) || e.Kind != "LimitError" {
		t.Fatalf("got %v", err)
	}
	// the counter is reset per run
	if _, err := run(t, th, "x = 1"); err != nil {
		t.Fatal(err)
	}
	th = &runtime.Thread{}
	go func() {
		time.Sleep(20 * time.Millisecond)
		th.Cancel("deadline exceeded")
	}()
	_, err = run(t, th, "while true { }")
	if !errors.As(err, &e) || e.Kind != "Cancelled" || e.Msg != "deadline exceeded" {
		t.Fatalf("got %v", err)
	}
}

// fakeHooks records block entries and exits and gradient sessions.
type fakeHooks struct{ log []string }

type fakeSession struct {
	h   *fakeHooks
	n   int
	val bool
}

func (h *fakeHooks) EnterBlock(th *runtime.Thread, name string) (func(), error) {
	h.log = append(h.log, "enter "+name)
	return func() { h.log = append(h.log, "exit "+name) }, nil
}

func (h *fakeHooks) BeginGrad(th *runtime.Thread, wrt []runtime.Value, withValue bool) (runtime.GradSession, error) {
	h.log = append(h.log, fmt.Sprintf("begin %d %v", len(wrt), withValue))
	return &fakeSession{h: h, n: len(wrt), val: withValue}, nil
}

func (s *fakeSession) Finish(result runtime.Value) (runtime.Value, error) {
	s.h.log = append(s.h.log, "finish "+result.String())
	grads := make(runtime.Tuple, s.n)
	for i := range grads {
		grads[i] = runtime.MakeInt(int64(i))
	}
	var g runtime.Value = grads
	if s.n == 1 {
		g = grads[0]
	}
	if s.val {
		return runtime.Tuple{result, g}, nil
	}
	return g, nil
}

func (s *fakeSession) Abort() { s.h.log = append(s.h.log, "abort") }

func TestBlockHooks(t *testing.T) {
	h := &fakeHooks{}
	th := &runtime.Thread{Hooks: h}
	out, err := run(t, th, `
for i in range(3) {
    no_grad {
        if i == 0 { continue }
        if i == 2 { break }
    }
}
fn f() { detect_anomaly { return 5 } }
print(f())
try { no_grad { 1 // 0 } } catch e { print(e.kind) }
gw, gb = grad(1, 2) { x = 3; x * 2 }
print(gw, gb)
v, g = value_and_grad(1) { 7 }
print(v, g)
for i in range(1) { g = grad(1) { break; 1 } }
try { grad(1) { 1 // 0 } } catch e { print(e.kind) }
`)
	if err != nil {
		t.Fatal(err)
	}
	if out != "5\nZeroDivisionError\n0 1\n7 0\nZeroDivisionError\n" {
		t.Errorf("output %q", out)
	}
	want := "enter no_grad,exit no_grad,enter no_grad,exit no_grad,enter no_grad,exit no_grad," +
		"enter detect_anomaly,exit detect_anomaly,enter no_grad,exit no_grad," +
		"begin 2 false,finish 6,begin 1 true,finish 7,begin 1 false,abort,begin 1 false,abort"
	if got := strings.Join(h.log, ","); got != want {
		t.Errorf("hook log\n got %s\nwant %s", got, want)
	}
}

// vec is a minimal tensor-like value exercising the optional interfaces.
type vec struct{ xs []float64 }

func (v *vec) String() string { return fmt.Sprint("vec", v.xs) }
func (*vec) Type() string     { return "vec" }
func (*vec) Truth() bool      { return true }
func (v *vec) Len() int       { return len(v.xs) }
func (v *vec) Iterate() runtime.Iterator {
	elems := make([]runtime.Value, len(v.xs))
	for i, x := range v.xs {
		elems[i] = runtime.Float(x)
	}
	return runtime.Tuple(elems).Iterate()
}
func (v *vec) Binary(op runtime.Op, y runtime.Value, side runtime.Side) (runtime.Value, error) {
	f, ok := runtime.AsFloat(y)
	if !ok || op != runtime.STAR {
		return nil, nil
	}
	out := &vec{xs: make([]float64, len(v.xs))}
	for i, x := range v.xs {
		out.xs[i] = x * f
	}
	return out, nil
}
func (v *vec) Inplace(op runtime.Op, y runtime.Value) (runtime.Value, error) {
	f, ok := runtime.AsFloat(y)
	if !ok || op != runtime.PLUS {
		return nil, nil
	}
	for i := range v.xs {
		v.xs[i] += f
	}
	return v, nil
}
func (v *vec) Index(key runtime.Value) (runtime.Value, error) {
	if s, ok := key.(*runtime.Slice); ok {
		return runtime.String(s.String()), nil
	}
	if t, ok := key.(runtime.Tuple); ok {
		return runtime.String(t.String()), nil
	}
	i, _ := runtime.AsInt(key)
	return runtime.Float(v.xs[i]), nil
}
func (v *vec) SetIndex(key, val runtime.Value) error {
	i, _ := runtime.AsInt(key)
	v.xs[i], _ = runtime.AsFloat(val)
	return nil
}

func TestValueInterfaces(t *testing.T) {
	v := &vec{xs: []float64{1, 2}}
	prog, err := lang.Compile("v.tsr", `
w = v
v += 1            # in place: w sees it
print(w, 2 * v, v * 3)
a, b = v
print(a, b, len(v), v[1:, ..., none], v[0])
v[0] = 10
for x in v { print(x) }
`)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	th := &runtime.Thread{Stdout: &out}
	if _, err := th.Exec(prog, map[string]runtime.Value{"v": v}); err != nil {
		t.Fatal(err)
	}
	want := "vec[2 3] vec[4 6] vec[6 9]\n2.0 3.0 2 (slice(1, none, none), ..., none) 2.0\n10.0\n3.0\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

func TestPanicIsInternalError(t *testing.T) {
	boom := runtime.NewBuiltin("boom", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var m map[string]int
		m["x"] = 1 // panics
		return nil, nil
	})
	prog, _ := lang.Compile("p.tsr", "x = 1\nboom()\n")
	th := &runtime.Thread{}
	_, err := th.Exec(prog, map[string]runtime.Value{"boom": boom})
	var e *runtime.EvalError
	if !errors.As(err, &e) || e.Kind != "InternalError" || e.Position().Pos.Line != 2 {
		t.Fatalf("got %v", err)
	}
}

func TestGlobalsPersist(t *testing.T) {
	env := map[string]runtime.Value{}
	th := &runtime.Thread{}
	for _, src := range []string{"x = 2\nfn sq(a) { a * a }", "y = sq(x) + 1"} {
		prog, err := lang.Compile("g.tsr", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := th.Exec(prog, env); err != nil {
			t.Fatal(err)
		}
	}
	if env["y"] != runtime.Int(5) {
		t.Errorf("y = %v", env["y"])
	}
}

// The traceback's caret counts characters, not bytes, and ignores the
// line's indentation (tabs included); a frame without source prints none.
func TestTracebackCaret(t *testing.T) {
	src := "fn f() {\n\t  s = \"héllo\" + 1\n}\nf()\n"
	_, err := run(t, &runtime.Thread{}, src)
	if err == nil {
		t.Fatal("no error")
	}
	want := "  t.tsr:2:16: in f\n    s = \"héllo\" + 1\n                ^\nTypeError"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("got\n%s\nwant it to contain\n%s", err, want)
	}
	e := &runtime.EvalError{Kind: "ValueError", Msg: "m", Frames: []runtime.Frame{{File: "x.tsr", Pos: runtime.Pos{Line: 3, Col: 2}, Func: "g"}}}
	if got := e.Error(); got != "Traceback (most recent call last):\n  x.tsr:3:2: in g\nValueError: m" {
		t.Fatalf("hand-built frame: %q", got)
	}
}

// print's keyword arguments: an unknown name is reported whatever its
// value; sep and end take a string or none; flush (Python's) is accepted.
func TestPrintKeywords(t *testing.T) {
	out := mustRun(t, `
try { print(1, color=true) } catch e { print(e) }
try { print(1, sep=3) } catch e { print(e) }
print(0, flush=true)
print(1, 2, sep=none, end=none)
print(1, 2, sep="-", end="!\n")
`)
	want := "TypeError: print() got an unexpected keyword argument 'color'\nTypeError: print(): sep must be a string or none, not int\n0\n1 2\n1-2!\n"
	if out != want {
		t.Errorf("got %q want %q", out, want)
	}
}

// Method calls on lists, dicts, strings and tuples go through METHOD,
// which reuses bound methods: nested calls (a sort key that calls
// methods), failing calls, and a method taken as a value must behave as
// before.
func TestMethodCalls(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`l = []; for i in range(3) { l.append(i * 10) }; print(l, l.pop(), l)`, "[0, 10] 20 [0, 10]"},
		{`seen = []; l = [3, 1, 2]; l.sort(key=fn(x) { seen.append(x); -x }); print(l, seen)`, "[3, 2, 1] [3, 1, 2]"},
		{`a = [1]; b = [2]; f = a.append; g = b.append; f(5); b.append(6); g(7); print(a, b, f)`,
			"[1, 5] [2, 6, 7] <built-in method append of list>"},
		{`d = {"a": 1}; print(d.get("a"), d.get("z", 0), ",".join(["x", "y"]).upper(), (1, 2, 1).count(1))`, "1 0 X,Y 2"},
		{`l = []; try { l.append(1, 2) } catch e { print(e.kind, e.message) }; l.append(3); print(l)`,
			"TypeError append() takes exactly 1 argument (2 given)\n[3]"},
		{`try { [].nope(1) } catch e { print(e.kind, e.message) }`, "AttributeError 'list' object has no attribute 'nope'"},
		{`l = []; try { l.append(undefined_name) } catch e { print(e.kind) }; l.append(1); print(l)`, "NameError\n[1]"},
		{`fn f(x) { x.append(len(x)); x }; print(f(f([])))`, "[0, 1]"},
	} {
		if got := strings.TrimSpace(mustRun(t, tc.src)); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// INDEX and SETINDEX take fast paths for an int into a list and any key
// into a dict; the other cases and the errors are the generic ones.
func TestIndexFastPaths(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`l = [1, 2, 3]; l[0] = 9; l[-1] = 7; l[true] = 5; print(l, l[-3], l[2], l[false], l[1:])`, "[9, 5, 7] 9 7 9 [5, 7]"},
		{`l = [1]; try { l[1] } catch e { print(e.kind, e.message) }`, "IndexError list index 1 out of range (length 1)"},
		{`l = [1]; try { l[-2] = 0 } catch e { print(e.kind, e.message) }`, "IndexError list index -2 out of range (length 1)"},
		{`try { [1]["a"] } catch e { print(e.kind, e.message) }`, "TypeError list indices must be integers or slices, not str"},
		{`d = {}; d[1] = "a"; d[1.0] = "b"; d[(1, 2)] = 3; print(d, d[true], d[(1.0, 2)])`, "{1: 'b', (1, 2): 3} b 3"},
		{`d = {"a": 1}; try { d["b"] } catch e { print(e.kind, e.message) }`, "KeyError 'b'"},
		{`d = {}; try { d[[1]] = 2 } catch e { print(e.kind, e.message) }`, "TypeError unhashable type: 'list'"},
	} {
		if got := strings.TrimSpace(mustRun(t, tc.src)); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
