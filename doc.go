// Package tsr embeds the Tensor Script interpreter in Go programs.
//
// The five-line embedding:
//
//	in := tsr.New(tsr.Options{MaxSteps: 1e8, MaxMemory: 1 << 30})
//	in.SetGlobal("x", mat.NewDense(2, 2, []float64{1, 2, 3, 4}))   // an f64 tensor [2, 2]
//	if _, err := in.Eval(ctx, "main.tsr", "y = x @ x.T"); err != nil { return err } // a *tsr.Error
//	y, err := in.GlobalDense("y")                                    // back to a *mat.Dense
//	fmt.Println(mat.Formatted(y), err)
//
// A program is compiled once (Compile) and run (Run) in an Interpreter,
// which holds the global variables, the standard library's per-interpreter
// state (random generator, autograd mode) and the limits of its Options.
// Eval is Compile plus Run. A compiled *Program is immutable and may run
// concurrently in many interpreters; an Interpreter is used by one
// goroutine at a time.
//
// # Values
//
// SetGlobal, Call and the results of registered Go functions convert Go
// values with ToValue: scalars, strings, []float32 and []float64 (copied
// into 1-D f32 / f64 tensors), other slices (lists) and string-keyed maps,
// *tensor.Tensor (shared), gonum matrices and vectors (copied into f64
// tensors). Tensor(data, shape...) makes a tensor from a []float32,
// []float64, ... in row-major order. Going back, FromValue gives a
// natural Go value and Convert (GlobalTo, GlobalDense, GlobalTensor) fills a
// Go variable of a chosen type. RegisterFunc exposes a Go function, with
// its arguments converted by reflection from its signature and optionally
// named for keyword use.
//
// # Errors
//
// A script error is an *Error (alias of runtime.EvalError): Kind
// ("TypeError", "IndexError", ...), Msg and the tsr call stack in Frames;
// Position() gives file, line and column; Error() prints a Python-style
// traceback. A compile error is a *SyntaxError with file, line and column.
// A Go panic inside a builtin or a registered function comes back as an
// *Error of kind "InternalError"; it never reaches the host.
//
// # Limits and sandboxing
//
// MaxSteps bounds the VM instructions per Eval/Run/Call ("LimitError",
// errors.Is(err, ErrStepLimit)). A context.Context cancels a run or gives it
// a deadline ("Cancelled", errors.Is(err, ctx.Err())). MaxMemory bounds the
// tensor storage live at once ("MemoryError", errors.Is(err,
// ErrMemoryLimit)). All three stop the program at its next loop iteration
// or call, within milliseconds of the trigger; a tensor kernel that is
// already running finishes first, and try/catch in the program cannot
// intercept them. A run that ends with more tensor storage live than
// MaxMemory also returns the MemoryError. The interpreter remains usable
// afterwards.
//
// MaxMemory compares the growth of the process-wide tensor.LiveBytes
// counter since New with the limit. It is checked on the allocating
// goroutine when an allocation crosses the limit (tensor.SetLiveBytesAlarm;
// a garbage collection runs first, since dropped tensors count until
// collected), so a program stops within the operation that crossed it, and
// by a watcher every 2 ms while a program runs. Storages of 64 KiB and more
// count exactly; smaller ones are sampled (an unbiased estimate, a few
// percent off over tens of MiB of small tensors), so a limit of a few
// hundred KiB is too fine for it. It therefore counts the tensors of every
// interpreter running at the same time, and it
// cannot refuse a single allocation before it happens: a program asking for
// more memory than the machine has in one op can still exhaust it. Hosts
// running untrusted programs should also bound the process (cgroups,
// GOMEMLIMIT).
//
// File access is off by default: io.load, io.save, plot output and import
// fail with a PermissionError until the host grants directories
// (Options.AllowDirs) or everything (Options.AllowAllFiles, as the tsr
// command does).
//
// The pipeline is lang (lexer, participle grammar, AST, resolver, bytecode
// compiler) → runtime (value model, VM, builtins) → stdlib (tensors). The
// repl package builds the interactive session on this API.
package tsr
