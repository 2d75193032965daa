// Package tsr embeds the Tensor Script interpreter in Go programs.
//
// A program is compiled once (Compile) and run in an Interpreter, which
// holds the global variables and the standard library:
//
//	in := tsr.New(tsr.Options{Stdout: os.Stdout, MaxSteps: 1e9})
//	in.SetGlobal("lr", 0.1)
//	v, err := in.Eval(ctx, "train.tsr", "lr * 2")
//	var e *tsr.Error
//	if errors.As(err, &e) { fmt.Println(e.Kind, e.Position()) }
//
// Eval returns the value of the program's last expression statement.
// A script error is a *tsr.Error (kind, message and the tsr call stack);
// a compile error is a *tsr.SyntaxError with file, line and column. A
// cancelled ctx stops the program at its next loop iteration or call.
// Panics inside the runtime never reach the host: they come back as an
// "InternalError" with the tsr position.
//
// The pipeline is lang (lexer, participle grammar, AST, resolver, bytecode
// compiler) → runtime (value model, VM, builtins) → stdlib (tensors).
package tsr
