// Command tsr runs Tensor Script programs.
//
// Usage:
//
//	tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr)
//	tsr -c 'code'            run code given on the command line
//	tsr disasm FILE.tsr      print the compiled bytecode
//	tsr version              print version information
//	tsr                      start an interactive session
//
// Script errors are printed to stderr and exit with status 1; usage errors
// exit with status 2.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	goruntime "runtime"
	"strings"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
)

const usage = `usage:
  tsr FILE.tsr [args...]   run a program (also: tsr run FILE.tsr [args...])
  tsr -c 'code'            run code given as an argument
  tsr disasm FILE.tsr      print the compiled bytecode of every function
  tsr version              print version information
  tsr                      interactive session
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(args) == 0 {
		return repl(ctx, stdin, stdout, stderr)
	}
	switch args[0] {
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "tsr %s (%s %s/%s)\n", tsr.Version, goruntime.Version(), goruntime.GOOS, goruntime.GOARCH)
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "-c":
		if len(args) < 2 {
			fmt.Fprint(stderr, "tsr: -c needs an argument\n"+usage)
			return 2
		}
		in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr})
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
	in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr})
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

// repl is a minimal line-by-line interactive loop: it keeps reading lines
// while the input is incomplete (open bracket or block), then runs it and
// prints the value of a final expression.
func repl(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	in := tsr.New(tsr.Options{Stdout: stdout, Stderr: stderr})
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var buf strings.Builder
	prompt := ">>> "
	n := 0
	for {
		fmt.Fprint(stdout, prompt)
		if !sc.Scan() {
			fmt.Fprintln(stdout)
			return 0
		}
		buf.WriteString(sc.Text())
		buf.WriteByte('\n')
		src := buf.String()
		if strings.TrimSpace(src) == "" {
			buf.Reset()
			continue
		}
		n++
		p, err := tsr.Compile(fmt.Sprintf("<stdin:%d>", n), src)
		if lang.IsIncomplete(err) {
			prompt = "... "
			continue
		}
		buf.Reset()
		prompt = ">>> "
		if err != nil {
			fmt.Fprintln(stderr, err)
			continue
		}
		v, err := in.Run(ctx, p)
		if err != nil {
			fmt.Fprintln(stderr, err)
			continue
		}
		if v != nil && v != runtime.None {
			fmt.Fprintln(stdout, runtime.Repr(v))
		}
	}
}
