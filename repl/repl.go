// Package repl is tsr's interactive session: line editing behind the
// LineEditor interface (github.com/chzyer/readline by default),
// continuation lines while an entry is incomplete, persistent history,
// Tab completion of globals, module members and tensor methods, and the
// ':' commands (:help, :type, :time, :disasm, :vars, :load, :reset,
// :quit).
//
// An entry is read line by line until it compiles or fails for a reason
// other than ending early (lang.IsIncomplete), so the prompt changes from
// "tsr> " to "...> " inside an open bracket, block or string. The value of
// an entry that ends with an expression statement is printed (its repr;
// none is not printed) and bound to _. Globals persist from entry to
// entry. Ctrl-C at the prompt discards the current entry; during an
// evaluation it stops the program (the session continues); Ctrl-D, :quit,
// exit and quit (when not defined by the user) leave.
package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

// Prompts.
const (
	Prompt             = "tsr> "
	ContinuationPrompt = "...> "
)

// Config configures a Session.
type Config struct {
	// Options create the interpreter (again on :reset). Stdout and Stderr
	// default to os.Stdout and os.Stderr; the session writes its own
	// output (values, errors, command results) to the same writers.
	Options tsr.Options
	// Editor reads the input; nil opens a readline editor on the terminal
	// with the session's completion.
	Editor LineEditor
	// HistoryFile is where entries persist; "" means
	// DefaultHistoryFile(), "-" means no history file.
	HistoryFile string
	// Setup, if set, is called on each new interpreter (at start and on
	// :reset), e.g. to register Go functions.
	Setup func(*tsr.Interpreter) error
}

// Session is one interactive tsr session.
type Session struct {
	cfg     Config
	in      *tsr.Interpreter
	ed      LineEditor
	hist    *History
	stdout  io.Writer
	stderr  io.Writer
	entries int // numbers the <stdin:N> file names
	// notify installs the interrupt handler for the duration of an
	// evaluation; it returns a channel that receives on Ctrl-C and a stop
	// function (tests replace it).
	notify func() (<-chan os.Signal, func())
	quit   bool
}

// New creates a session: the interpreter, the history (loaded from its
// file), and, when cfg.Editor is nil, a readline editor on the terminal.
// A history file that cannot be read or written is reported once on
// stderr and the session continues without saving history.
func New(cfg Config) (*Session, error) {
	if cfg.Options.Stdout == nil {
		cfg.Options.Stdout = os.Stdout
	}
	if cfg.Options.Stderr == nil {
		cfg.Options.Stderr = os.Stderr
	}
	s := &Session{cfg: cfg, stdout: cfg.Options.Stdout, stderr: cfg.Options.Stderr}
	s.notify = func() (<-chan os.Signal, func()) {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		return ch, func() { signal.Stop(ch) }
	}
	if err := s.reset(); err != nil {
		return nil, err
	}
	path := cfg.HistoryFile
	switch path {
	case "":
		path = DefaultHistoryFile()
	case "-":
		path = ""
	}
	h, err := LoadHistory(path)
	if err != nil {
		fmt.Fprintf(s.stderr, "tsr: history: %v (history is not saved in this session)\n", err)
		h.path = ""
	}
	s.hist = h
	s.ed = cfg.Editor
	if s.ed == nil {
		ed, err := NewReadline(s.Complete)
		if err != nil {
			return nil, err
		}
		s.ed = ed
	}
	for _, e := range h.Entries() {
		s.ed.AddHistory(e)
	}
	return s, nil
}

// Interpreter returns the current interpreter (replaced by :reset).
func (s *Session) Interpreter() *tsr.Interpreter { return s.in }

// reset makes a fresh interpreter.
func (s *Session) reset() error {
	in := tsr.New(s.cfg.Options)
	if s.cfg.Setup != nil {
		if err := s.cfg.Setup(in); err != nil {
			return err
		}
	}
	s.in = in
	return nil
}

// Close closes the editor.
func (s *Session) Close() error { return s.ed.Close() }

// Run reads and evaluates entries until :quit, Ctrl-D or the end of input.
// ctx bounds the whole session.
func (s *Session) Run(ctx context.Context) error {
	var buf strings.Builder
	for !s.quit {
		if err := ctx.Err(); err != nil {
			return err
		}
		prompt := Prompt
		if buf.Len() > 0 {
			prompt = ContinuationPrompt
		}
		line, err := s.ed.Readline(prompt)
		switch {
		case errors.Is(err, ErrInterrupt):
			buf.Reset()
			continue
		case errors.Is(err, io.EOF):
			if buf.Len() > 0 {
				// Ctrl-D inside an incomplete entry drops it.
				buf.Reset()
				fmt.Fprintln(s.stdout)
				continue
			}
			return nil
		case err != nil:
			return err
		}
		if buf.Len() > 0 {
			buf.WriteByte('\n')
		}
		buf.WriteString(line)
		entry := buf.String()
		if strings.TrimSpace(entry) == "" {
			buf.Reset()
			continue
		}
		if !s.IsComplete(entry) {
			continue
		}
		buf.Reset()
		s.ed.AddHistory(entry)
		if err := s.hist.Add(entry); err != nil {
			// Once: an unwritable history (read-only $HOME, full disk)
			// must not repeat its error after every entry.
			fmt.Fprintf(s.stderr, "tsr: history: %v (history is not saved in this session)\n", err)
			s.hist.path = ""
		}
		s.Eval(ctx, entry)
	}
	return nil
}

// IsComplete reports whether entry is complete: a ':' command, or source
// that does not end early (lang.IsIncomplete).
func (s *Session) IsComplete(entry string) bool {
	if strings.HasPrefix(strings.TrimSpace(entry), ":") {
		return true
	}
	_, err := lang.Compile("<stdin>", entry)
	return !lang.IsIncomplete(err)
}

// Eval evaluates one complete entry (source or a ':' command), printing
// its result or error. It reports whether the session should go on.
func (s *Session) Eval(ctx context.Context, entry string) bool {
	t := strings.TrimSpace(entry)
	if strings.HasPrefix(t, ":") {
		s.command(ctx, t)
		return !s.quit
	}
	if s.isExit(t) {
		s.quit = true
		return false
	}
	s.entries++
	name := fmt.Sprintf("<stdin:%d>", s.entries)
	p, err := tsr.Compile(name, entry)
	if err != nil {
		s.printErr(err)
		return true
	}
	v, err := s.run(ctx, func(ctx context.Context) (runtime.Value, error) { return s.in.Run(ctx, p) })
	if err != nil {
		s.printErr(err)
		return true
	}
	s.show(v)
	return true
}

// isExit reports whether entry is exit, quit, exit() or quit() with that
// name not bound in the session: what Python's REPL users type to leave.
func (s *Session) isExit(entry string) bool {
	name := strings.TrimSpace(strings.TrimSuffix(entry, "()"))
	if name != "exit" && name != "quit" {
		return false
	}
	_, bound := s.in.Global(name)
	return !bound
}

// show prints a value's repr and binds it to _ (none is neither).
func (s *Session) show(v runtime.Value) {
	if v == nil || v == runtime.None {
		return
	}
	fmt.Fprintln(s.stdout, runtime.Repr(v))
	_ = s.in.SetGlobal("_", v)
}

// run calls f with a context that Ctrl-C cancels.
func (s *Session) run(ctx context.Context, f func(context.Context) (runtime.Value, error)) (runtime.Value, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sig, stop := s.notify()
	defer stop()
	done := make(chan struct{})
	defer close(done)
	interrupted := make(chan bool, 1)
	go func() {
		select {
		case <-sig:
			interrupted <- true
			cancel()
		case <-done:
		}
	}()
	v, err := f(ctx)
	var e *tsr.Error
	if err != nil && errors.As(err, &e) && e.Kind == "Cancelled" && errors.Is(err, context.Canceled) {
		select {
		case <-interrupted:
			e.Kind, e.Msg = "KeyboardInterrupt", "interrupted"
		default:
		}
	}
	return v, err
}

func (s *Session) printErr(err error) {
	fmt.Fprintln(s.stderr, err)
}

// RunScript runs all of r as one program in a new interpreter (the tsr
// command's behaviour when standard input is not a terminal: no prompts,
// no echo of values). It returns the exit status: 0, or 1 after printing
// the error to opts.Stderr.
func RunScript(ctx context.Context, opts tsr.Options, name string, r io.Reader) int {
	src, err := io.ReadAll(r)
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	if err != nil {
		fmt.Fprintln(stderr, "tsr:", err)
		return 1
	}
	in := tsr.New(opts)
	if _, err := in.Eval(ctx, name, string(src)); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
