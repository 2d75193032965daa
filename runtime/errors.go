package runtime

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Frame is one entry of a tsr call stack: where a function was executing.
type Frame struct {
	File string
	Pos  Pos
	Func string // "<toplevel>" for the module body
	src  string // the file's source text, for SourceLine ("" if unknown)
}

func (f Frame) String() string {
	return fmt.Sprintf("%s:%d:%d: in %s", f.File, f.Pos.Line, f.Pos.Col, f.Func)
}

// SourceLine returns the text of the frame's source line without its line
// break, or "" when the source is not known (a frame built by hand).
func (f Frame) SourceLine() string {
	line, src := int(f.Pos.Line), f.src
	for ; line > 1 && src != ""; line-- {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return ""
		}
		src = src[i+1:]
	}
	if line != 1 {
		return ""
	}
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return strings.TrimRight(src, "\r")
}

// writeSource writes the frame's source line, its indentation removed, and
// a caret under the column, as Python's traceback does:
//
//	y = x @ zeros(4, 5)
//	      ^
func (f Frame) writeSource(b *strings.Builder) {
	line := strings.ReplaceAll(f.SourceLine(), "\t", " ")
	text := strings.TrimLeft(line, " ")
	if strings.TrimSpace(text) == "" {
		return
	}
	// Columns count characters (runes) from 1; the indentation is spaces.
	col := min(int(f.Pos.Col)-1, utf8.RuneCountInString(line)) - (len(line) - len(text))
	b.WriteString("    " + text + "\n")
	if col >= 0 && col <= utf8.RuneCountInString(text) {
		b.WriteString("    " + strings.Repeat(" ", col) + "^\n")
	}
}

// EvalError is a tsr runtime error: its kind ("TypeError", "IndexError",
// ...), message and the tsr call stack at the point it was raised,
// outermost frame first. Use errors.As to obtain it from a host error.
type EvalError struct {
	Kind   string
	Msg    string
	Frames []Frame
	// Cause is the Go error returned by a builtin, if any.
	Cause error
}

// Error prints the error like Python (the kind alone when the message is
// empty, as for a bare assert), each frame with its source line and a caret
// under the column when the source is known:
//
//	Traceback (most recent call last):
//	  main.tsr:7:1: in <toplevel>
//	    f(0)
//	    ^
//	  main.tsr:3:12: in f
//	    return 1 / x
//	             ^
//	ZeroDivisionError: division by zero
func (e *EvalError) Error() string {
	var b strings.Builder
	if len(e.Frames) > 0 {
		b.WriteString("Traceback (most recent call last):\n")
		for i, f := range e.Frames {
			// Deep recursion: show the outermost and innermost frames.
			if n := len(e.Frames); n > 2*tracebackEdge && i >= tracebackEdge && i < n-tracebackEdge {
				if i == tracebackEdge {
					fmt.Fprintf(&b, "  ... %d more frames ...\n", n-2*tracebackEdge)
				}
				continue
			}
			b.WriteString("  " + f.String() + "\n")
			f.writeSource(&b)
		}
	}
	b.WriteString(e.Kind)
	if e.Msg != "" {
		b.WriteString(": " + e.Msg)
	}
	return b.String()
}

// tracebackEdge is how many outermost and innermost frames Error shows.
const tracebackEdge = 10

// ErrorKind returns the tsr error kind.
func (e *EvalError) ErrorKind() string { return e.Kind }

// Unwrap returns the underlying Go error, if any.
func (e *EvalError) Unwrap() error { return e.Cause }

// Position returns the innermost frame's position (zero Frame if none).
func (e *EvalError) Position() Frame {
	if len(e.Frames) == 0 {
		return Frame{}
	}
	return e.Frames[len(e.Frames)-1]
}

// Value returns the tsr error value bound by `catch e`.
func (e *EvalError) Value() *ErrorValue {
	tb := make([]string, len(e.Frames))
	for i, f := range e.Frames {
		tb[i] = f.String()
	}
	return &ErrorValue{Kind: e.Kind, Message: e.Msg, Traceback: tb}
}

// catchable reports whether try/catch may intercept err: limits and
// cancellation always reach the host.
func catchable(err error) bool {
	var e *EvalError
	if !errors.As(err, &e) {
		return false
	}
	switch e.Kind {
	case "LimitError", "Cancelled", "InternalError":
		return false
	}
	return true
}

// ErrorValue implements error so that a caught error can be re-raised by a
// builtin returning it.
func (e *ErrorValue) Error() string { return e.Message }

// ErrorKind returns the error value's kind.
func (e *ErrorValue) ErrorKind() string { return e.Kind }

// traceback returns the active tsr frames, outermost first.
func (th *Thread) traceback() []Frame {
	vm := &th.vm
	out := make([]Frame, 0, vm.depth)
	for _, fr := range vm.frames[:vm.depth] {
		fc := fr.fn.code
		out = append(out, Frame{File: fc.Prog.Filename, Pos: fc.Position(fr.pc), Func: fc.Name, src: fc.Prog.Src})
	}
	return out
}

// wrapError turns an error from a builtin or the VM into an *EvalError
// carrying the current tsr call stack; an *EvalError passes unchanged.
func (th *Thread) wrapError(err error) error {
	var ee *EvalError
	if errors.As(err, &ee) {
		return ee
	}
	kind := "RuntimeError"
	var hk HasKind
	if errors.As(err, &hk) {
		kind = hk.ErrorKind()
	}
	return &EvalError{Kind: kind, Msg: err.Error(), Frames: th.traceback(), Cause: err}
}

// internalError reports a Go panic inside the runtime as a positioned error.
func (th *Thread) internalError(r any) error {
	// A library that cannot report an allocation failure through an error
	// return panics with a MemoryError-kind error (tensor.SetMaxAllocBytes).
	if k, ok := r.(HasKind); ok && k.ErrorKind() == "MemoryError" {
		return &EvalError{Kind: "MemoryError", Msg: k.Error(), Frames: th.traceback()}
	}
	msg := fmt.Sprint(r)
	if e, ok := r.(error); ok {
		msg = e.Error()
	}
	return &EvalError{Kind: "InternalError", Msg: "internal error: " + msg + " (please report this bug)", Frames: th.traceback()}
}
