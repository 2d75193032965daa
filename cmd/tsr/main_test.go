package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

// cliCase is one tsr command line: its arguments and standard input, and
// the exit status and the text its stdout and stderr must contain.
type cliCase struct {
	args           []string
	stdin          string
	code           int
	stdout, stderr string
}

// runCLICases runs each case through run and reports the mismatches.
func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(tc.stdin), &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
			t.Errorf("%v: code %d stdout %q stderr %q", tc.args, code, out.String(), errb.String())
		}
	}
}

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.tsr")
	if err := os.WriteFile(script, []byte("print(argv[1:], 6 * 7)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.tsr")
	if err := os.WriteFile(bad, []byte("x = 1\nx.nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLICases(t, []cliCase{
		{[]string{script, "a", "b"}, "", 0, "['a', 'b'] 42\n", ""},
		{[]string{"run", script}, "", 0, "[] 42\n", ""},
		{[]string{"-c", "print(1 + 1)"}, "", 0, "2\n", ""},
		{[]string{"-c", "1 // 0"}, "", 1, "", "ZeroDivisionError: integer division or modulo by zero"},
		{[]string{bad}, "", 1, "", "bad.tsr:2:1: in <toplevel>\n    x.nope\n    ^\nAttributeError: 'int' object has no attribute 'nope'"},
		{[]string{"-c", "x = (1"}, "", 1, "", "'(' was never closed"},
		{[]string{"disasm", script}, "", 0, "CALL", ""},
		{[]string{"version"}, "", 0, "tsr ", ""},
		{[]string{"version"}, "", 0, "\ncpu kernels: cpu tier ", ""},
		{[]string{"version"}, "", 0, "\nlapack: ", ""},
		{[]string{"-c"}, "", 2, "", "usage"},
		{[]string{"--bogus"}, "", 2, "", "unknown flag"},
		{[]string{"missing.tsr"}, "", 2, "", "no such file"},
		// Piped standard input is one script: no prompts, values of
		// expression statements are not echoed.
		{nil, "x = [1,\n2]\nx\nprint(x)\n", 0, "[1, 2]\n", ""},
		{nil, "x = 1\nx.nope\n", 1, "", "<stdin>:2:1: in <toplevel>\n    x.nope\n    ^\nAttributeError"},
		{[]string{"repl"}, "print(6 * 7)\n", 0, "42\n", ""},
	})
}

// TestBadTSRCPUWarns: an invalid TSR_CPU is reported on stderr (the tier
// is read once per process, so this runs the test binary again).
func TestBadTSRCPUWarns(t *testing.T) {
	if os.Getenv("TSR_TEST_CHILD") == "1" {
		os.Exit(run([]string{"-c", "print(1)"}, strings.NewReader(""), os.Stdout, os.Stderr))
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBadTSRCPUWarns$")
	cmd.Env = append(os.Environ(), "TSR_TEST_CHILD=1", "TSR_CPU=avx3")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if out.String() != "1\n" || !strings.Contains(errb.String(), `warning: backends: unknown CPU tier "avx3"`) {
		t.Fatalf("stdout %q stderr %q", out.String(), errb.String())
	}
}

// TestInputsAndFiles: `tsr -` reads the program from standard input with
// argv[0] "-"; files that cannot be read, directories included, are
// reported as "tsr: cannot open ..." with status 2; stray arguments to
// repl are a usage error; a UTF-8 byte order mark is ignored.
func TestInputsAndFiles(t *testing.T) {
	dir := t.TempDir()
	bom := filepath.Join(dir, "bom.tsr")
	if err := os.WriteFile(bom, []byte("\ufeffprint(\"bom\")\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLICases(t, []cliCase{
		{[]string{"-", "a"}, "print(argv)\n", 0, "['-', 'a']\n", ""},
		{[]string{"run", "-"}, "print(argv)\n", 0, "['-']\n", ""},
		{[]string{"-"}, "1 // 0\n", 1, "", "<stdin>:1:3: in <toplevel>\n    1 // 0\n      ^\nZeroDivisionError"},
		{nil, "print(argv)\n", 0, "['-']\n", ""},
		{[]string{dir}, "", 2, "", "tsr: cannot open " + dir + ": is a directory"},
		{[]string{"disasm", dir}, "", 2, "", "tsr: cannot open " + dir + ": is a directory"},
		{[]string{filepath.Join(dir, "nope.tsr")}, "", 2, "", "tsr: cannot open " + filepath.Join(dir, "nope.tsr") + ": no such file or directory"},
		{[]string{"repl", "x"}, "", 2, "", "repl takes no arguments"},
		{[]string{bom}, "", 0, "bom\n", ""},
	})
}

// TestCtrlC: Ctrl-C stops a running program with a KeyboardInterrupt
// traceback and status 130, and a second Ctrl-C ends a process whose
// program does not stop (a long tensor kernel) at once. Both run the test
// binary again as a child.
func TestCtrlC(t *testing.T) {
	switch os.Getenv("TSR_TEST_CHILD") {
	case "loop":
		os.Exit(run([]string{"-c", "print('ready')\nwhile true { }"}, strings.NewReader(""), os.Stdout, os.Stderr))
	case "stuck":
		_, _, stop := interruptible()
		defer stop()
		fmt.Println("ready")
		time.Sleep(time.Minute) // a kernel that never looks at the context
		os.Exit(0)
	}
	if goruntime.GOOS == "windows" {
		t.Skip("no SIGINT to send on windows")
	}
	child := func(mode string, signals int) (*exec.ExitError, string) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestCtrlC$")
		cmd.Env = append(os.Environ(), "TSR_TEST_CHILD="+mode)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || line != "ready\n" {
			t.Fatalf("%s: child said %q, %v", mode, line, err)
		}
		for i := 0; i < signals; i++ {
			time.Sleep(50 * time.Millisecond)
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s: child ended with %v, stderr %s", mode, err, errb.String())
			}
			return ee, errb.String()
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%s: child did not stop; stderr %s", mode, errb.String())
		}
		return nil, ""
	}
	ee, stderr := child("loop", 1)
	if ee.ExitCode() != exitInterrupted || !strings.Contains(stderr, "<string>:2:1: in <toplevel>\n    while true { }\n    ^\nKeyboardInterrupt: interrupted") {
		t.Errorf("loop: exit %d, stderr %q", ee.ExitCode(), stderr)
	}
	ee, _ = child("stuck", 2)
	if ee.ExitCode() != -1 || !strings.Contains(ee.Error(), "interrupt") {
		t.Errorf("stuck: %v, want killed by SIGINT", ee)
	}
}
