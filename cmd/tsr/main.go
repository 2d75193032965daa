// Command tsr runs Tensor Script programs.
//
// Usage:
//
//	tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr)
//	tsr -c 'code'            run code given on the command line
//	tsr - [args...]          run the program read from standard input
//	tsr disasm FILE.tsr      print the compiled bytecode
//	tsr version              print version information
//	tsr                      start an interactive session (see package repl);
//	                         with standard input not a terminal, run it as a script
//
// Script errors are printed to stderr and exit with status 1; usage errors
// and files that cannot be read exit with status 2. Ctrl-C stops the
// program with a KeyboardInterrupt traceback and status 130 (a second
// Ctrl-C ends the process at once).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/backends"
	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/repl"
	"golang.org/x/term"
)

const usage = `usage:
  tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr [args...])
  tsr -c 'code'            run code given as an argument
  tsr - [args...]          run the program read from standard input
  tsr disasm FILE.tsr      print the compiled bytecode of every function
  tsr version              print version information
  tsr                      interactive session (also: tsr repl)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := backends.TierError(); err != nil {
		fmt.Fprintf(stderr, "tsr: warning: %v; using the %s kernels\n", err, backends.CPUTier())
	}
	if len(args) == 0 || args[0] == "repl" {
		if len(args) > 1 {
			fmt.Fprint(stderr, "tsr: repl takes no arguments\n"+usage)
			return 2
		}
		// The REPL handles Ctrl-C itself: it stops an evaluation, not the
		// session.
		return interactive(stdin, stdout, stderr)
	}
	switch args[0] {
	case "version", "-version", "--version":
		version(stdout)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "-c":
		if len(args) < 2 {
			fmt.Fprint(stderr, "tsr: -c needs an argument\n"+usage)
			return 2
		}
		return runSource(stdout, stderr, "<string>", args[1], "-c", args[2:])
	case "-":
		return runStdin(stdin, stdout, stderr, args[1:])
	case "disasm":
		if len(args) != 2 {
			fmt.Fprint(stderr, "tsr: disasm needs one file\n"+usage)
			return 2
		}
		src, err := readFile(args[1])
		if err != nil {
			fmt.Fprintln(stderr, "tsr:", err)
			return 2
		}
		p, err := tsr.CompileScript(args[1], src) // the code `tsr run` runs
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprint(stdout, p.Disassemble())
		return 0
	case "run":
		args = args[1:]
		if len(args) == 0 {
			fmt.Fprint(stderr, "tsr: run needs a file\n"+usage)
			return 2
		}
	}
	if strings.HasPrefix(args[0], "-") && args[0] != "-" {
		fmt.Fprintf(stderr, "tsr: unknown flag %s\n%s", args[0], usage)
		return 2
	}
	if args[0] == "-" {
		return runStdin(stdin, stdout, stderr, args[1:])
	}
	src, err := readFile(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "tsr:", err)
		return 2
	}
	return runSource(stdout, stderr, args[0], src, args[0], args[1:])
}

// runStdin runs the program read from stdin, with argv = ["-", rest...].
func runStdin(stdin io.Reader, stdout, stderr io.Writer, rest []string) int {
	src, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "tsr: reading standard input:", err)
		return 2
	}
	return runSource(stdout, stderr, "<stdin>", string(src), "-", rest)
}

// readFile reads a program; its errors say "cannot open FILE: why".
func readFile(path string) (string, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return "", fmt.Errorf("cannot open %s: is a directory", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("cannot open %s: %v", path, err)
	}
	return string(b), nil
}

// runSource runs one program with argv = [prog, rest...] in a fresh
// interpreter with file access, under Ctrl-C (see interruptible). It
// returns the exit status: 0, 1 after a script error (printed to stderr),
// or 130 after Ctrl-C.
func runSource(stdout, stderr io.Writer, name, src, prog string, rest []string) int {
	ctx, interrupted, stop := interruptible()
	defer stop()
	in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr, AllowAllFiles: true})
	_ = in.SetGlobal("argv", append([]string{prog}, rest...))
	_, err := in.EvalScript(ctx, name, src) // nothing reads its globals afterwards
	if err == nil {
		return 0
	}
	var e *tsr.Error
	if interrupted() && errors.As(err, &e) && e.Kind == "Cancelled" {
		e.Kind, e.Msg = "KeyboardInterrupt", "interrupted"
		fmt.Fprintln(stderr, err)
		return exitInterrupted
	}
	fmt.Fprintln(stderr, err)
	return 1
}

// exitInterrupted is the exit status after Ctrl-C (128 + SIGINT, as a
// shell reports a process killed by it).
const exitInterrupted = 130

// interruptible returns a context that the first Ctrl-C (SIGINT) cancels,
// which stops the program at its next loop iteration or call. That first
// signal also restores SIGINT's default action, so that a second Ctrl-C
// ends the process even while a long tensor kernel is still running.
// interrupted reports whether Ctrl-C came; stop releases the handler.
func interruptible() (ctx context.Context, interrupted func() bool, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var got atomic.Bool
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			got.Store(true)
			signal.Reset(os.Interrupt)
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	return ctx, got.Load, stop
}

// interactive starts the REPL on a terminal, or runs standard input as
// one script when it is not a terminal (piped or redirected input).
func interactive(stdin io.Reader, stdout, stderr io.Writer) int {
	f, isFile := stdin.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		return runStdin(stdin, stdout, stderr, nil)
	}
	opts := tsr.Options{Stdout: stdout, Stderr: stderr, AllowAllFiles: true}
	s, err := repl.New(repl.Config{Options: opts})
	if err != nil {
		fmt.Fprintln(stderr, "tsr:", err)
		return 1
	}
	defer s.Close()
	fmt.Fprintf(stdout, "tsr %s — :help for help, Ctrl-D to exit\n", tsr.Version)
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintln(stderr, "tsr:", err)
		return 1
	}
	return 0
}

// version prints the release, the Go toolchain and platform, the CPU
// kernels selected for this machine and the LAPACK engine.
func version(w io.Writer) {
	fmt.Fprintf(w, "tsr %s (%s %s/%s)\n", tsr.Version, goruntime.Version(), goruntime.GOOS, goruntime.GOARCH)
	fmt.Fprintf(w, "cpu kernels: %s\n", backends.Summary())
	for _, l := range backends.KernelTable() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	fmt.Fprintf(w, "lapack: %s\n", lapack.Backend())
}
