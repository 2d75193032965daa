package tsr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
)

// Version is the tsr release.
const Version = "0.1.0-dev"

// Options configure an Interpreter.
type Options struct {
	// Stdout receives print output; nil means os.Stdout. Use io.Discard
	// to silence a program.
	Stdout io.Writer
	// Stderr receives diagnostics from the library (nil means os.Stderr).
	Stderr io.Writer
	// MaxSteps bounds the VM steps of each Eval/Run (0 = unlimited);
	// exceeding it is a LimitError.
	MaxSteps uint64
}

// Error is a tsr runtime error with kind, message and call stack; obtain it
// from any error returned by Eval or Run with errors.As.
type Error = runtime.EvalError

// SyntaxError is a parse or compile error with file, line and column.
type SyntaxError = lang.SyntaxError

// Program is a compiled tsr source, ready to Run (possibly many times).
type Program struct {
	prog *runtime.Program
}

// Disassemble returns the bytecode listing of p.
func (p *Program) Disassemble() string { return lang.Disassemble(p.prog) }

// Compile parses and compiles src; name is used in error messages.
// Errors are *SyntaxError values.
func Compile(name, src string) (*Program, error) {
	p, err := lang.Compile(name, src)
	if err != nil {
		return nil, err
	}
	return &Program{prog: p}, nil
}

// Interpreter runs tsr programs sharing one set of global variables and one
// thread. It is not safe for concurrent use; create one per goroutine.
type Interpreter struct {
	th          *runtime.Thread
	stderr      io.Writer
	globals     *runtime.Globals
	predeclared map[string]runtime.Value
	modules     map[string]*runtime.Module
	loading     []string
}

// New returns an interpreter with the standard library installed.
func New(opts Options) *Interpreter {
	stdout := opts.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	in := &Interpreter{
		th:          &runtime.Thread{Name: "main", Stdout: stdout, MaxSteps: opts.MaxSteps},
		stderr:      stderr,
		predeclared: map[string]runtime.Value{},
		modules:     map[string]*runtime.Module{},
	}
	for k, v := range runtime.Universe {
		in.predeclared[k] = v
	}
	for k, v := range stdlib.Predeclared() {
		in.predeclared[k] = v
	}
	in.globals = runtime.NewGlobals(in.predeclared)
	in.th.Load = in.load
	stdlib.Setup(in.th)
	return in
}

// Thread returns the interpreter's thread (for installing hooks or state).
func (in *Interpreter) Thread() *runtime.Thread { return in.th }

// Eval compiles and runs src, returning the value of its last expression
// statement (None if it ends with another statement). ctx cancels the run.
func (in *Interpreter) Eval(ctx context.Context, name, src string) (runtime.Value, error) {
	p, err := Compile(name, src)
	if err != nil {
		return nil, err
	}
	return in.Run(ctx, p)
}

// RunFile reads, compiles and runs the file at path.
func (in *Interpreter) RunFile(ctx context.Context, path string) (runtime.Value, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return in.Eval(ctx, path, string(src))
}

// Run executes a compiled program in the interpreter's globals. When ctx
// is cancelled or its deadline passes, the program stops at its next loop
// iteration or call with a "Cancelled" error.
func (in *Interpreter) Run(ctx context.Context, p *Program) (runtime.Value, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in.th.ResetCancel()
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { in.th.Cancel(ctx.Err().Error()) })
		defer stop()
	}
	return in.th.ExecIn(p.prog, in.globals)
}

// SetGlobal binds a global variable to a Go value: nil, bool, ints,
// floats, string, slices of those ([]float64, []int, []string, []any, ...),
// map[string]any, or a runtime.Value.
func (in *Interpreter) SetGlobal(name string, v any) error {
	val, err := ToValue(v)
	if err != nil {
		return err
	}
	in.globals.Set(name, val)
	return nil
}

// Global returns the value of a global variable.
func (in *Interpreter) Global(name string) (runtime.Value, bool) {
	return in.globals.Get(name)
}

// Globals lists the names of the user-defined globals, sorted.
func (in *Interpreter) Globals() []string {
	var names []string
	for _, k := range in.globals.Names() {
		v, _ := in.globals.Get(k)
		if p, ok := in.predeclared[k]; ok && sameValue(p, v) {
			continue
		}
		names = append(names, k)
	}
	return names
}

func sameValue(a, b runtime.Value) (same bool) {
	if fa, ok := a.(runtime.Float); ok {
		fb, ok := b.(runtime.Float)
		return ok && math.Float64bits(float64(fa)) == math.Float64bits(float64(fb))
	}
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// load implements `import "path" as m`: the path is resolved relative to
// the importing file's directory; each module runs once and is cached;
// import cycles are an ImportError.
func (in *Interpreter) load(th *runtime.Thread, path string) (*runtime.Module, error) {
	full := path
	if !filepath.IsAbs(path) {
		full = filepath.Join(filepath.Dir(th.CurrentFile()), path)
	}
	if abs, err := filepath.Abs(full); err == nil {
		full = abs
	}
	if m, ok := in.modules[full]; ok {
		return m, nil
	}
	for i, l := range in.loading {
		if l == full {
			chain := append(append([]string{}, in.loading[i:]...), full)
			for j := range chain {
				chain[j] = filepath.Base(chain[j])
			}
			return nil, runtime.Errorf("ImportError", "import cycle: %s", strings.Join(chain, " -> "))
		}
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, runtime.Errorf("ImportError", "cannot import %q: %v", path, errors.Unwrap(err))
	}
	prog, err := lang.Compile(full, string(src))
	if err != nil {
		return nil, err
	}
	in.loading = append(in.loading, full)
	defer func() { in.loading = in.loading[:len(in.loading)-1] }()
	env := runtime.NewGlobals(in.predeclared)
	if _, err := th.ExecIn(prog, env); err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(full), filepath.Ext(full))
	m := &runtime.Module{ModName: name, Members: map[string]runtime.Value{}}
	for _, g := range prog.Globals {
		v, ok := env.Get(g)
		if !ok {
			continue
		}
		if p, pre := in.predeclared[g]; pre && sameValue(p, v) {
			continue
		}
		m.Members[g] = v
	}
	in.modules[full] = m
	return m, nil
}

// ToValue converts a Go value to a tsr value.
func ToValue(v any) (runtime.Value, error) {
	switch x := v.(type) {
	case nil:
		return runtime.None, nil
	case runtime.Value:
		return x, nil
	case bool:
		return runtime.Bool(x), nil
	case int:
		return runtime.MakeInt(int64(x)), nil
	case int8:
		return runtime.MakeInt(int64(x)), nil
	case int16:
		return runtime.MakeInt(int64(x)), nil
	case int32:
		return runtime.MakeInt(int64(x)), nil
	case int64:
		return runtime.MakeInt(x), nil
	case uint8:
		return runtime.MakeInt(int64(x)), nil
	case uint16:
		return runtime.MakeInt(int64(x)), nil
	case uint32:
		return runtime.MakeInt(int64(x)), nil
	case float32:
		return runtime.Float(x), nil
	case float64:
		return runtime.Float(x), nil
	case string:
		return runtime.String(x), nil
	case []float64:
		return sliceValue(x)
	case []float32:
		return sliceValue(x)
	case []int:
		return sliceValue(x)
	case []int64:
		return sliceValue(x)
	case []string:
		return sliceValue(x)
	case []bool:
		return sliceValue(x)
	case []any:
		return sliceValue(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := runtime.NewDict(len(x))
		for _, k := range keys {
			e, err := ToValue(x[k])
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(runtime.String(k), e); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("tsr: cannot convert %T to a tsr value", v)
}

func sliceValue[T any](xs []T) (runtime.Value, error) {
	elems := make([]runtime.Value, len(xs))
	for i, x := range xs {
		e, err := ToValue(x)
		if err != nil {
			return nil, err
		}
		elems[i] = e
	}
	return runtime.NewList(elems), nil
}

// FromValue converts a tsr value to a Go value: None → nil, bool, int64,
// float64, string, list/tuple → []any, dict → map[string]any (keys by
// their str()); other values are returned as they are.
func FromValue(v runtime.Value) any {
	switch x := v.(type) {
	case runtime.NoneType:
		return nil
	case runtime.Bool:
		return bool(x)
	case runtime.Int:
		return int64(x)
	case runtime.Float:
		return float64(x)
	case runtime.String:
		return string(x)
	case *runtime.List:
		return fromElems(x.Elems)
	case runtime.Tuple:
		return fromElems(x)
	case *runtime.Dict:
		m := map[string]any{}
		for _, kv := range x.Items() {
			m[kv[0].String()] = FromValue(kv[1])
		}
		return m
	}
	return v
}

func fromElems(elems []runtime.Value) []any {
	out := make([]any, len(elems))
	for i, e := range elems {
		out[i] = FromValue(e)
	}
	return out
}
