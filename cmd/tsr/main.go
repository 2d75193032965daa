// Command tsr runs Tensor Script programs.
//
// Usage:
//
//	tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr)
//	tsr -c 'code'            run code given on the command line
//	tsr disasm FILE.tsr      print the compiled bytecode
//	tsr version              print version information
//	tsr                      start an interactive session (see package repl);
//	                         with standard input not a terminal, run it as a script
//
// Script errors are printed to stderr and exit with status 1; usage errors
// exit with status 2.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	goruntime "runtime"
	"strings"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/backends"
	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/repl"
	"github.com/tsrlang/tsr/runtime"
	"golang.org/x/term"
)

const usage = `usage:
  tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr [args...])
  tsr -c 'code'            run code given as an argument
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
	if len(args) == 0 || len(args) == 1 && args[0] == "repl" {
		// The REPL handles Ctrl-C itself: it stops an evaluation, not the
		// session.
		return interactive(stdin, stdout, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
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
		in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr, AllowAllFiles: true})
		setArgv(in, "-c", args[2:])
		return report(in.Eval(ctx, "<string>", args[1]))
	case "disasm":
		if len(args) != 2 {
			fmt.Fprint(stderr, "tsr: disasm needs one file\n"+usage)
			return 2
		}
		src, err := os.ReadFile(args[1])
		if err != nil {
			fmt.Fprintln(stderr, "tsr:", err)
			return 2
		}
		p, err := tsr.Compile(args[1], string(src))
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
	if strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "tsr: unknown flag %s\n%s", args[0], usage)
		return 2
	}
	if _, err := os.Stat(args[0]); err != nil {
		fmt.Fprintln(stderr, "tsr:", err)
		return 2
	}
	in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr, AllowAllFiles: true})
	setArgv(in, args[0], args[1:])
	_, err := in.RunFile(ctx, args[0])
	return reportErr(stderr, err)
}

func setArgv(in *tsr.Interpreter, prog string, rest []string) {
	_ = in.SetGlobal("argv", append([]string{prog}, rest...))
}

var errOut io.Writer = os.Stderr

func report(_ runtime.Value, err error) int { return reportErr(errOut, err) }

func reportErr(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, err)
	return 1
}

// interactive starts the REPL on a terminal, or runs standard input as
// one script when it is not a terminal (piped or redirected input).
func interactive(stdin io.Reader, stdout, stderr io.Writer) int {
	opts := tsr.Options{Stdout: stdout, Stderr: stderr, AllowAllFiles: true}
	f, isFile := stdin.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return repl.RunScript(ctx, opts, "<stdin>", stdin)
	}
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
