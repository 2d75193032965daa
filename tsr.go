package tsr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
	"github.com/tsrlang/tsr/tensor"
	"gonum.org/v1/gonum/mat"
)

// Version is the tsr release.
const Version = "0.1.0-dev"

// Options configure an Interpreter. The zero value is a sandboxed
// interpreter: output to the process's stdout, no limits, no file access.
type Options struct {
	// Stdout receives print output; nil means os.Stdout. Use io.Discard
	// to silence a program.
	Stdout io.Writer
	// Stderr receives diagnostics from the library (nil means os.Stderr).
	Stderr io.Writer
	// MaxSteps bounds the VM steps (instructions) of each Eval, Run or
	// Call (0 = unlimited). Exceeding it stops the program with an *Error
	// of kind "LimitError" for which errors.Is(err, ErrStepLimit) holds.
	MaxSteps uint64
	// MaxMemory bounds, in bytes, the tensor storage that may be live at
	// once while this interpreter runs (0 = unlimited), counted as the
	// growth of tensor.LiveBytes since New. Exceeding it stops the program
	// after the operation that crossed it with an *Error of kind "MemoryError" for
	// which errors.Is(err, ErrMemoryLimit) holds; a run that ends with
	// more than the limit live fails the same way. See the package
	// documentation for what this bound can and cannot catch.
	MaxMemory int64
	// AllowDirs grants the program read and write access, through io.load,
	// io.save, plot and import, to the files inside these directories (and
	// their subdirectories). Symbolic links are resolved before the check.
	AllowDirs []string
	// AllowAllFiles grants access to every file (the tsr command does
	// this). It overrides AllowDirs.
	AllowAllFiles bool
}

// Error is a tsr runtime error: Kind ("TypeError", "LimitError", ...),
// Msg, and Frames, the tsr call stack (outermost first; Position() is the
// innermost frame with File, Pos.Line and Pos.Col). Obtain it from any
// error returned by Eval, Run or Call with errors.As. Its Error method
// prints a Python-style traceback.
type Error = runtime.EvalError

// SyntaxError is a parse or compile error with File, Pos (line and
// column), Msg and the offending source Line; Kind is "SyntaxError".
type SyntaxError = lang.SyntaxError

// Sentinel causes of the errors that stop a program from outside the
// language; test for them with errors.Is. The *Error carrying them has
// kind "LimitError", "MemoryError" or "Cancelled".
var (
	// ErrStepLimit: Options.MaxSteps was exceeded.
	ErrStepLimit = errors.New("tsr: step limit exceeded")
	// ErrMemoryLimit: Options.MaxMemory was exceeded.
	ErrMemoryLimit = errors.New("tsr: memory limit exceeded")
)

// Program is a compiled tsr source, ready to Run (possibly many times).
// A Program is immutable: it may be run concurrently by several
// interpreters, one goroutine each.
type Program struct {
	prog *runtime.Program
}

// Disassemble returns the bytecode listing of p.
func (p *Program) Disassemble() string { return lang.Disassemble(p.prog) }

// Name returns the file name p was compiled under.
func (p *Program) Name() string { return p.prog.Filename }

// Compile parses and compiles src; name is used in error messages and
// tracebacks (and as the directory that relative imports start from).
// A leading UTF-8 byte order mark (as some Windows editors write) is
// ignored. Errors are *SyntaxError values.
func Compile(name, src string) (*Program, error) {
	p, err := lang.Compile(name, stripBOM(src))
	if err != nil {
		return nil, err
	}
	return &Program{prog: p}, nil
}

// CompileScript is Compile for a whole script, run once, whose globals
// the host does not read afterwards (what the tsr command runs): a global
// the rest of the file never mentions may then be optimised away (the
// attention idiom's intermediates are never assigned). Use Compile for
// code whose globals a host or a later Eval reads.
func CompileScript(name, src string) (*Program, error) {
	p, err := lang.CompileScript(name, stripBOM(src))
	if err != nil {
		return nil, err
	}
	return &Program{prog: p}, nil
}

// stripBOM drops a leading UTF-8 byte order mark.
func stripBOM(src string) string { return strings.TrimPrefix(src, "\ufeff") }

// Interpreter runs tsr programs sharing one set of global variables, one
// thread (random generator, grad mode) and the limits of its Options. It is
// not safe for concurrent use; create one per goroutine (they are cheap:
// a few microseconds and a few kilobytes).
type Interpreter struct {
	th          *runtime.Thread
	stdout      io.Writer
	stderr      io.Writer
	opts        Options
	globals     *runtime.Globals
	predeclared map[string]runtime.Value
	modules     map[string]*runtime.Module
	loading     []string
	fs          stdlib.FSPolicy
	memBase     atomic.Int64 // the lowest tensor.LiveBytes seen since New
	registered  map[*runtime.Builtin]bool
	// run state, valid while a top-level Eval/Run/Call is active
	depth int
	ctx   context.Context
}

// New returns an interpreter with the standard library installed and the
// options applied.
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
		stdout:      stdout,
		stderr:      stderr,
		opts:        opts,
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
	in.memBase.Store(tensor.LiveBytes())
	in.th.Load = in.load
	stdlib.Setup(in.th)
	stdlib.SetStderr(in.th, stderr) // progress bars and other diagnostics
	switch {
	case opts.AllowAllFiles:
		in.fs = stdlib.AllowAll()
	case len(opts.AllowDirs) > 0:
		in.fs = stdlib.AllowDirs(opts.AllowDirs...)
	}
	if in.fs != nil {
		stdlib.SetFSPolicy(in.th, in.fs)
	}
	return in
}

// Options returns the options the interpreter was created with.
func (in *Interpreter) Options() Options { return in.opts }

// Thread returns the interpreter's thread (for installing hooks or state).
func (in *Interpreter) Thread() *runtime.Thread { return in.th }

// Stdout returns the writer print() writes to.
func (in *Interpreter) Stdout() io.Writer { return in.stdout }

// Stderr returns the writer for diagnostics.
func (in *Interpreter) Stderr() io.Writer { return in.stderr }

// Eval compiles and runs src, returning the value of its last expression
// statement (None if it ends with another statement). name labels the
// source in errors. ctx cancels the run (see Run).
func (in *Interpreter) Eval(ctx context.Context, name, src string) (runtime.Value, error) {
	p, err := Compile(name, src)
	if err != nil {
		return nil, err
	}
	return in.Run(ctx, p)
}

// EvalScript is Eval for a whole script (see CompileScript): after it, a
// global that the script assigns and never mentions again may be unset or
// hold an earlier value.
func (in *Interpreter) EvalScript(ctx context.Context, name, src string) (runtime.Value, error) {
	p, err := CompileScript(name, src)
	if err != nil {
		return nil, err
	}
	return in.Run(ctx, p)
}

// RunFile reads, compiles and runs the file at path. The host reads the
// file; Options.AllowDirs does not apply to it (it does to the file's
// imports).
func (in *Interpreter) RunFile(ctx context.Context, path string) (runtime.Value, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return in.Eval(ctx, path, string(src))
}

// Run executes a compiled program in the interpreter's globals and
// returns the value of its last expression statement.
//
// When ctx is cancelled or its deadline passes, the program stops at its
// next loop iteration or call (a long-running tensor kernel finishes
// first) with an *Error of kind "Cancelled" that wraps ctx.Err(), so
// errors.Is(err, context.DeadlineExceeded) works. Limits and cancellation
// cannot be caught by the program's try/catch. After any error the
// interpreter remains usable: globals keep the values assigned before the
// error.
func (in *Interpreter) Run(ctx context.Context, p *Program) (runtime.Value, error) {
	if p == nil {
		return nil, errors.New("tsr: Run of a nil *Program")
	}
	return in.guard(ctx, func() (runtime.Value, error) {
		return in.th.ExecIn(p.prog, in.globals)
	})
}

// Call calls the tsr function (or any callable) bound to the global name
// with Go arguments, converted by ToValue, and returns its result. Keyword
// arguments are passed as a final argument of type Kwargs. Limits and ctx
// apply as in Run.
func (in *Interpreter) Call(ctx context.Context, name string, args ...any) (runtime.Value, error) {
	fn, ok := in.globals.Get(name)
	if !ok {
		return nil, fmt.Errorf("tsr: Call: no global named %q", name)
	}
	var kw []runtime.Kwarg
	if n := len(args); n > 0 {
		if k, ok := args[n-1].(Kwargs); ok {
			args = args[:n-1]
			for _, key := range sortedKeys(k) {
				v, err := in.ToValue(k[key])
				if err != nil {
					return nil, fmt.Errorf("tsr: Call %s: keyword argument %s: %w", name, key, err)
				}
				kw = append(kw, runtime.Kwarg{Name: key, Value: v})
			}
		}
	}
	vals := make([]runtime.Value, len(args))
	for i, a := range args {
		v, err := in.ToValue(a)
		if err != nil {
			return nil, fmt.Errorf("tsr: Call %s: argument %d: %w", name, i+1, err)
		}
		vals[i] = v
	}
	return in.guard(ctx, func() (runtime.Value, error) {
		return in.th.CallValue(fn, vals, kw)
	})
}

// Kwargs holds keyword arguments for Interpreter.Call: the last argument
// of Call may be a Kwargs.
type Kwargs map[string]any

// SetGlobal binds a global variable to a Go value converted by ToValue:
// nil, bool, integers, floats, string, slices and maps of those, a
// *tensor.Tensor, a gonum mat.Matrix (an f64 tensor [r, c]) or a
// runtime.Value. name must be a tsr identifier that is not a keyword.
func (in *Interpreter) SetGlobal(name string, v any) error {
	if !isIdent(name) || isKeyword(name) {
		return fmt.Errorf("tsr.SetGlobal: %q is not a valid tsr name", name)
	}
	val, err := in.ToValue(v)
	if err != nil {
		return err
	}
	in.globals.Set(name, val)
	return nil
}

// Global returns the value of a global variable, as the program sees it.
// Use GlobalTo, GlobalDense or GlobalTensor (or Convert / FromValue) for a
// Go value.
func (in *Interpreter) Global(name string) (runtime.Value, bool) {
	return in.globals.Get(name)
}

// GlobalTo converts the global name into the Go variable dst points to
// (see Convert).
func (in *Interpreter) GlobalTo(name string, dst any) error {
	v, ok := in.globals.Get(name)
	if !ok {
		return fmt.Errorf("tsr: no global named %q", name)
	}
	if err := Convert(v, dst); err != nil {
		return fmt.Errorf("tsr: global %s: %w", name, err)
	}
	return nil
}

// GlobalDense returns the global name, a 2-D tensor (any real dtype) or a
// list of lists of numbers, as a new gonum matrix.
func (in *Interpreter) GlobalDense(name string) (*mat.Dense, error) {
	var m *mat.Dense
	if err := in.GlobalTo(name, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// GlobalTensor returns the tensor bound to the global name (shared, not
// copied: in-place changes by either side are visible to the other).
func (in *Interpreter) GlobalTensor(name string) (*tensor.Tensor, error) {
	var t *tensor.Tensor
	if err := in.GlobalTo(name, &t); err != nil {
		return nil, err
	}
	return t, nil
}

// DeleteGlobal unbinds a global variable (a predeclared name reverts to
// its predeclared value).
func (in *Interpreter) DeleteGlobal(name string) {
	if v, ok := in.predeclared[name]; ok {
		in.globals.Set(name, v)
		return
	}
	in.globals.Set(name, nil)
}

// Globals lists the names of the user-defined globals (those set by
// programs, SetGlobal or RegisterFunc and not equal to a predeclared
// value), sorted.
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

// Predeclared lists the names every program sees before it assigns
// anything: the runtime's builtins and constants, stdlib's functions,
// dtypes and modules; sorted.
func (in *Interpreter) Predeclared() []string {
	return sortedKeys(in.predeclared)
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
// the importing file's directory and vetted by the file policy (imports
// are refused when the host granted no directories); each module runs once
// and is cached; import cycles are an ImportError.
func (in *Interpreter) load(th *runtime.Thread, path string) (*runtime.Module, error) {
	full := path
	if !filepath.IsAbs(path) {
		full = filepath.Join(filepath.Dir(th.CurrentFile()), path)
	}
	if abs, err := filepath.Abs(full); err == nil {
		full = abs
	}
	if in.fs == nil {
		return nil, runtime.Errorf("PermissionError", "cannot import %q: file-system access is disabled; the host must grant directories", path)
	}
	if _, err := in.fs.Check(full, false); err != nil {
		return nil, runtime.Errorf("PermissionError", "cannot import %q: %v", path, err)
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
	prog, err := lang.Compile(full, stripBOM(string(src)))
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
	m := &runtime.Module{ModName: name, Members: map[string]runtime.Value{}, Env: env}
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
