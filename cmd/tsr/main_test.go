package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
	for _, tc := range []struct {
		args           []string
		stdin          string
		code           int
		stdout, stderr string
	}{
		{[]string{script, "a", "b"}, "", 0, "['a', 'b'] 42\n", ""},
		{[]string{"run", script}, "", 0, "[] 42\n", ""},
		{[]string{"-c", "print(1 + 1)"}, "", 0, "2\n", ""},
		{[]string{"-c", "1 // 0"}, "", 1, "", "ZeroDivisionError: integer division or modulo by zero"},
		{[]string{bad}, "", 1, "", "bad.tsr:2:1: in <toplevel>\nAttributeError: 'int' object has no attribute 'nope'"},
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
		{nil, "x = 1\nx.nope\n", 1, "", "<stdin>:2:1: in <toplevel>\nAttributeError"},
		{[]string{"repl"}, "print(6 * 7)\n", 0, "42\n", ""},
	} {
		var out, errb bytes.Buffer
		errOut = &errb
		code := run(tc.args, strings.NewReader(tc.stdin), &out, &errb)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
			t.Errorf("%v: code %d stdout %q stderr %q", tc.args, code, out.String(), errb.String())
		}
	}
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
