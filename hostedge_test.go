package tsr_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/runtime"
	"gonum.org/v1/gonum/mat"
)

// TestToValueTypedNil: a nil *mat.Dense or *mat.VecDense (a typed nil in
// a mat.Matrix / mat.Vector) converts to none instead of panicking in
// the host's SetGlobal.
func TestToValueTypedNil(t *testing.T) {
	in := tsr.New(tsr.Options{})
	for _, v := range []any{(*mat.Dense)(nil), (*mat.VecDense)(nil), (*runtime.List)(nil), (*int)(nil)} {
		if err := in.SetGlobal("m", v); err != nil {
			t.Errorf("SetGlobal(%T nil): %v", v, err)
			continue
		}
		if got, _ := in.Global("m"); got != runtime.None {
			t.Errorf("SetGlobal(%T nil) bound %v, want none", v, got)
		}
	}
}

// TestCyclicValues: Go values that contain themselves, and tsr lists that
// contain themselves, give errors (or stay tsr values) instead of
// overflowing the goroutine stack, which kills the whole host process.
func TestCyclicValues(t *testing.T) {
	ctx := context.Background()
	in := tsr.New(tsr.Options{})
	m := map[string]any{}
	m["self"] = m
	if err := in.SetGlobal("m", m); err == nil || !strings.Contains(err.Error(), "contain itself") {
		t.Errorf("SetGlobal(cyclic map) = %v, want a nesting error", err)
	}
	s := make([]any, 1)
	s[0] = s
	if _, err := in.Call(ctx, "print", s); err == nil {
		t.Error("Call with a cyclic slice should fail")
	}
	if _, err := in.Eval(ctx, "c.tsr", "a = [1]\na.append(a)\nd = {'k': 1}\nd['self'] = d\nb = [[a, a], d]"); err != nil {
		t.Fatal(err)
	}
	var x any
	if err := in.GlobalTo("a", &x); err != nil {
		t.Fatal(err)
	}
	xs, ok := x.([]any)
	if !ok || len(xs) != 2 || xs[0] != int64(1) {
		t.Fatalf("GlobalTo(a, *any) = %#v", x)
	}
	if _, ok := xs[1].(*runtime.List); !ok {
		t.Errorf("the recurring list should stay a *runtime.List, got %T", xs[1])
	}
	b, _ := in.Global("b")
	bs := tsr.FromValue(b).([]any)
	if inner := bs[0].([]any); len(inner) != 2 || len(inner[1].([]any)) != 2 {
		t.Errorf("a list appearing twice (not a cycle) converts twice: %#v", inner)
	}
	if dm := bs[1].(map[string]any); dm["k"] != int64(1) {
		t.Errorf("cyclic dict: %#v", dm)
	} else if _, ok := dm["self"].(*runtime.Dict); !ok {
		t.Errorf("the recurring dict should stay a *runtime.Dict, got %T", dm["self"])
	}
	if _, err := in.Eval(ctx, "c.tsr", "c = []\nc.append(c)"); err != nil {
		t.Fatal(err)
	}
	type rec []rec
	var r rec
	if err := in.GlobalTo("c", &r); err == nil || !strings.Contains(err.Error(), "contain itself") {
		t.Errorf("GlobalTo(cyclic, *rec) = %v, want a nesting error", err)
	}
	var sl []any
	if err := in.GlobalTo("c", &sl); err != nil || len(sl) != 1 {
		t.Errorf("GlobalTo(cyclic, *[]any) = %v, %v", sl, err)
	}
	if _, err := in.GlobalTensor("a"); err == nil {
		t.Error("GlobalTensor of a cyclic list should fail")
	}
	if err := in.RegisterFunc("norm", func(x []float64) float64 { return float64(len(x)) }); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(ctx, "c.tsr", "norm(a)"); err == nil {
		t.Error("passing a cyclic list to a Go []float64 parameter should fail")
	}
}

// TestConvertNilValue: a nil runtime.Value is none, not a panic.
func TestConvertNilValue(t *testing.T) {
	var f float64
	if err := tsr.Convert(nil, &f); err == nil {
		t.Error("Convert(nil, *float64) should fail")
	}
	p := new(float64)
	if err := tsr.Convert(nil, &p); err != nil || p != nil {
		t.Errorf("Convert(nil, **float64) = %v, %v; want nil pointer", p, err)
	}
}

// TestByteOrderMark: a file written with a UTF-8 BOM runs (via RunFile,
// Eval and import).
func TestByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	bom := "\ufeff"
	if err := os.WriteFile(filepath.Join(dir, "util.tsr"), []byte(bom+"k = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.tsr")
	if err := os.WriteFile(main, []byte(bom+"import \"util.tsr\" as u\nz = u.k + 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := tsr.New(tsr.Options{AllowDirs: []string{dir}})
	if _, err := in.RunFile(context.Background(), main); err != nil {
		t.Fatal(err)
	}
	var z int
	if err := in.GlobalTo("z", &z); err != nil || z != 3 {
		t.Errorf("z = %d, %v", z, err)
	}
	if v, err := in.Eval(context.Background(), "e.tsr", bom+"1 + 1"); err != nil || runtime.Repr(v) != "2" {
		t.Errorf("Eval with a BOM: %v, %v", v, err)
	}
	// A BOM elsewhere is still an error.
	if _, err := tsr.Compile("x.tsr", "x = 1\n"+bom+"y = 2"); err == nil {
		t.Error("a BOM inside the source should be a syntax error")
	}
}

// TestGlobalNames: SetGlobal and RegisterFunc refuse names a program
// cannot refer to.
func TestGlobalNames(t *testing.T) {
	in := tsr.New(tsr.Options{})
	for _, name := range []string{"", "1x", "a-b", "if", "none", "fn"} {
		if err := in.SetGlobal(name, 1); err == nil {
			t.Errorf("SetGlobal(%q) should fail", name)
		}
		if err := in.RegisterFunc(name, func() {}); err == nil {
			t.Errorf("RegisterFunc(%q) should fail", name)
		}
	}
	if err := in.RegisterFunc("f", func(a int) int { return a }, "in"); err == nil {
		t.Error("a keyword as a parameter name should fail")
	}
	for _, name := range []string{"_", "x1", "_tmp", "argv"} {
		if err := in.SetGlobal(name, 1); err != nil {
			t.Errorf("SetGlobal(%q): %v", name, err)
		}
	}
}

// TestCallKwargError names both the function and the keyword.
func TestCallKwargError(t *testing.T) {
	in := tsr.New(tsr.Options{})
	if _, err := in.Eval(context.Background(), "f.tsr", "fn f(a, b=1) { a + b }"); err != nil {
		t.Fatal(err)
	}
	_, err := in.Call(context.Background(), "f", 1, tsr.Kwargs{"b": make(chan int)})
	if err == nil || !strings.Contains(err.Error(), "Call f: keyword argument b") {
		t.Errorf("got %v", err)
	}
}

// TestMaxMemoryAtTheEnd: a run whose last statement allocates past
// MaxMemory fails even when it ends before the watcher's next sample.
func TestMaxMemoryAtTheEnd(t *testing.T) {
	ctx := context.Background()
	// Collect earlier tests' garbage first: collected after New, it would
	// offset this test's allocations (MaxMemory counts growth since New).
	goruntime.GC()
	time.Sleep(5 * time.Millisecond)
	in := tsr.New(tsr.Options{MaxMemory: 1 << 20})
	for i := 0; i < 20; i++ { // the watcher may catch some runs itself
		in.DeleteGlobal("x")
		_, err := in.Eval(ctx, "m.tsr", "x = zeros(4000000)")
		var e *tsr.Error
		if !errors.Is(err, tsr.ErrMemoryLimit) || !errors.As(err, &e) || e.Kind != "MemoryError" {
			t.Fatalf("run %d: got %v, want a MemoryError", i, err)
		}
	}
	in.DeleteGlobal("x")
	if _, err := in.Eval(ctx, "m.tsr", "y = zeros(1000).sum()"); err != nil {
		t.Fatalf("a small run after the limit: %v", err)
	}
	if _, err := in.Call(ctx, "zeros", 4000000); !errors.Is(err, tsr.ErrMemoryLimit) {
		t.Errorf("Call returning a tensor over the limit: %v", err)
	}
}

// TestMaxMemoryStopsAtTheCrossing: the limit is checked when an allocation
// crosses it, not only by the periodic watcher, so a fast loop of
// 400 kB tensors kept alive stops at the iteration that crosses 16 MiB
// (the 2 ms poll alone let such a loop reach 60-440 MB).
func TestMaxMemoryStopsAtTheCrossing(t *testing.T) {
	ctx := context.Background()
	goruntime.GC()
	time.Sleep(5 * time.Millisecond)
	const limit = 16 << 20
	in := tsr.New(tsr.Options{MaxMemory: limit})
	_, err := in.Eval(ctx, "hog.tsr", "xs = []\nwhile true { xs.append(zeros(100000)) }")
	if !errors.Is(err, tsr.ErrMemoryLimit) {
		t.Fatalf("err = %v, want a MemoryError", err)
	}
	var n int
	in.Eval(ctx, "n.tsr", "n = len(xs)") // fails too (still over the limit), after assigning n
	if err := in.GlobalTo("n", &n); err != nil {
		t.Fatal(err)
	}
	// Crossing happens at tensor limit/400000 + 1 = 42; allow a few more
	// for storages of earlier tests collected during the run.
	if max := limit/400000 + 4; n < limit/400000 || n > max {
		t.Errorf("stopped after %d tensors (%d bytes), want %d..%d", n, n*400000, limit/400000, max)
	}
}
