package repl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsrlang/tsr"
)

// script is a LineEditor that replays lines and records the prompts.
type script struct {
	lines   []string // "^C" is Ctrl-C at the prompt
	prompts []string
	history []string
}

func (s *script) Readline(prompt string) (string, error) {
	s.prompts = append(s.prompts, prompt)
	if len(s.lines) == 0 {
		return "", io.EOF
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	if l == "^C" {
		return "", ErrInterrupt
	}
	return l, nil
}
func (s *script) AddHistory(e string) { s.history = append(s.history, e) }
func (s *script) Close() error        { return nil }

func newTest(t *testing.T, hist string, lines ...string) (*Session, *script, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	ed := &script{lines: lines}
	if hist == "" {
		hist = "-"
	}
	s, err := New(Config{Options: tsr.Options{Stdout: &out, Stderr: &errb, AllowAllFiles: true}, Editor: ed, HistoryFile: hist})
	if err != nil {
		t.Fatal(err)
	}
	return s, ed, &out, &errb
}

func TestSessionBasics(t *testing.T) {
	s, ed, out, errb := newTest(t, "",
		"fn sq(a) {",
		"  a * a",
		"}",
		"sq(7)",
		"_ + 1",
		"x = [1,",
		"2]",
		"x",
		"none",
		`print("hi")`,
		"1 +",
		"^C", // discards the incomplete entry
		"y = )",
		"z",
		"[1, 2][5]",
		`"s"`,
	)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	wantOut := "49\n50\n[1, 2]\nhi\n's'\n"
	if out.String() != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, wantOut)
	}
	for _, want := range []string{
		"<stdin:8>:1:5: unexpected \")\"",
		"NameError: name 'z' is not defined",
		"IndexError",
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
	wantPrompts := []string{"tsr> ", "...> ", "...> ", "tsr> ", "tsr> ", "tsr> ", "...> ", "tsr> ", "tsr> ", "tsr> ", "tsr> ", "...> ", "tsr> "}
	if got := ed.prompts[:len(wantPrompts)]; fmt.Sprint(got) != fmt.Sprint(wantPrompts) {
		t.Errorf("prompts %q\nwant    %q", got, wantPrompts)
	}
	if ed.history[0] != "fn sq(a) {\n  a * a\n}" || ed.history[3] != "x = [1,\n2]" {
		t.Errorf("history %q", ed.history)
	}
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "lib.tsr")
	os.WriteFile(file, []byte("fn double(v) { v * 2 }\nloaded = true\n"), 0o644)
	s, _, out, errb := newTest(t, "",
		":help",
		":help zeros",
		":help stride",
		":help linalg",
		":help x.sum",
		":help nosuch",
		"x = ones(2, 3, dtype=f64)",
		":type x",
		":type 1.5",
		":load "+file,
		":help double",
		"double(21)",
		":disasm double",
		":disasm 1 + 2",
		":vars",
		":time x.sum()",
		":bogus",
		":type",
		":reset",
		":vars",
		":q",
		"print('not reached')",
	)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	for _, want := range []string{
		"  :help [name]",
		"  :time expr",
		"zeros(*size, dtype=f32", // builtin Doc
		"stride",                 // method Doc via a tensor
		"module linalg",
		"members: ",
		"tensor[f64, [2, 3], cpu]\nfloat\n",
		"fn double(v)  (defined at " + file + ":1:1)",
		"\n42\n",
		"RETURN",
		"x       tensor[f64, [2, 3], cpu]",
		"loaded  bool",
		"median ",
		"session reset\n(no variables)\n",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("stdout lacks %q:\n%s", want, o)
		}
	}
	if strings.Contains(o, "not reached") {
		t.Error(":q did not quit")
	}
	for _, want := range []string{"no help for nosuch", "unknown command :bogus", "usage: :type expr"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
}

func TestComplete(t *testing.T) {
	s, _, _, _ := newTest(t, "")
	ctx := context.Background()
	s.Eval(ctx, "x = zeros(2, 3)\nmy_list = [1]\nmy_var = 3\nfn my_fn() { 1 }")
	for _, tc := range []struct {
		line string
		want string // suffixes joined by |
		n    int
	}{
		{"x.str", "ide(", 3},
		{"y = x.resh", "ape(|ape_as(", 4},
		{"x.sha", "pe", 3},
		{"linalg.sv", "d(|dvals(", 2},
		{"my_", "fn(|list|var", 3},
		{"my_list.app", "end(", 3},
		{"whi", "le", 3},
		{"nosuch.x", "", 0},
		{":he", "lp ", 2},
		{":help zero", "s|s_like", 4},
		{":help linalg.sv", "d|dvals", 2},
	} {
		got, n := s.Complete(tc.line, len(tc.line))
		if strings.Join(got, "|") != tc.want || n != tc.n {
			t.Errorf("Complete(%q) = %q, %d; want %q, %d", tc.line, got, n, tc.want, tc.n)
		}
	}
	// Completion in the middle of a line.
	got, n := s.Complete("x.str + 1", 5)
	if strings.Join(got, "|") != "ide(" || n != 3 {
		t.Errorf("mid-line: %q %d", got, n)
	}
}

// TestInterrupt: an interrupt during an evaluation stops it; the session
// goes on with its globals.
func TestInterrupt(t *testing.T) {
	s, _, out, errb := newTest(t, "", "n = 0", "while true { n += 1 }", "n > 0")
	sig := make(chan os.Signal, 1)
	s.notify = func() (<-chan os.Signal, func()) {
		go func() {
			time.Sleep(30 * time.Millisecond)
			sig <- os.Interrupt
		}()
		return sig, func() {}
	}
	start := time.Now()
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
	if !strings.Contains(errb.String(), "KeyboardInterrupt: interrupted") {
		t.Errorf("stderr: %s", errb)
	}
	if out.String() != "true\n" {
		t.Errorf("stdout: %q", out)
	}
}

func TestHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	s, _, _, _ := newTest(t, path, "fn f(a) {", `  "back\slash\n" + a`, "}", "f(\"x\")", "f(\"x\")", "   ")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `fn f(a) {\n  "back\\slash\\n" + a\n}` + "\n" + `f("x")` + "\n"
	if string(raw) != want {
		t.Errorf("file:\n%s\nwant:\n%s", raw, want)
	}
	// A new session loads the entries whole into the editor's history.
	_, ed, _, _ := newTest(t, path)
	if len(ed.history) != 2 || ed.history[0] != "fn f(a) {\n  \"back\\slash\\n\" + a\n}" {
		t.Errorf("reloaded %q", ed.history)
	}
	// Overlong files are trimmed to MaxHistory entries.
	var b strings.Builder
	for i := range MaxHistory + 10 {
		fmt.Fprintf(&b, "e%d\n", i)
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	h, err := LoadHistory(path)
	if err != nil || len(h.Entries()) != MaxHistory || h.Entries()[0] != "e10" {
		t.Fatalf("trim: %d entries, %v", len(h.Entries()), err)
	}
	raw, _ = os.ReadFile(path)
	if strings.Count(string(raw), "\n") != MaxHistory {
		t.Errorf("file not rewritten")
	}
}

func TestEscape(t *testing.T) {
	for _, s := range []string{"", "a", `a\b`, "a\nb", `\n`, "x\\\ny", "\r\n", `trailing\`} {
		e := escapeEntry(s)
		if strings.ContainsAny(e, "\n\r") || unescapeEntry(e) != s {
			t.Errorf("%q → %q → %q", s, e, unescapeEntry(e))
		}
	}
}

func TestRunScript(t *testing.T) {
	var out, errb bytes.Buffer
	opts := tsr.Options{Stdout: &out, Stderr: &errb}
	if code := RunScript(context.Background(), opts, "<stdin>", strings.NewReader("x = 2\nx * 3\nprint(x * 4)\n")); code != 0 || out.String() != "8\n" {
		t.Errorf("code %d out %q err %q", code, out.String(), errb.String())
	}
	if code := RunScript(context.Background(), opts, "<stdin>", strings.NewReader("1 / 0\n")); code != 1 || !strings.Contains(errb.String(), "ZeroDivisionError") {
		t.Errorf("code %d err %q", code, errb.String())
	}
}

// TestUnwritableHistory: a history file that cannot be written (a
// read-only or missing $HOME) is reported once, not after every entry,
// and the session goes on.
func TestUnwritableHistory(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory cannot be made under a regular file, even by root.
	s, _, out, errb := newTest(t, filepath.Join(blocker, "tsr", "history"), "x = 1", "x + 1", "x + 2", "x + 3")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "2\n3\n4\n" {
		t.Errorf("stdout %q", out.String())
	}
	if n := strings.Count(errb.String(), "tsr: history:"); n != 1 {
		t.Errorf("history error reported %d times:\n%s", n, errb.String())
	}
}

// TestExitWords: exit, quit, exit() and quit() leave the session as
// :quit does, unless the user bound the name.
func TestExitWords(t *testing.T) {
	for _, word := range []string{"exit", "quit", "exit()", " quit() "} {
		s, ed, out, errb := newTest(t, "", "print(1)", word, "print(2)")
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if out.String() != "1\n" || errb.Len() != 0 || len(ed.lines) != 1 {
			t.Errorf("%q: stdout %q stderr %q, left %q", word, out.String(), errb.String(), ed.lines)
		}
	}
	s, _, out, _ := newTest(t, "", "fn exit() { 7 }", "exit()", "exit", "quit", "print(2)")
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "7\n<function exit>\n" {
		t.Errorf("a user's exit function: stdout %q", out.String())
	}
}

// TestHelpSignature checks :help's rendering of a tsr function's
// parameters, as CPython 3.11's inspect.signature renders the Python twin
// (def f(a, b=2, /, c=[1, 'x'], *args, d, e=1.5, **kw), ...).
func TestHelpSignature(t *testing.T) {
	s, _, out, _ := newTest(t, "",
		`fn f(a, b=2, /, c=[1, "x"], *args, d, e=1.5, **kw) { a }`,
		`fn g(x, *, scale) { x }`,
		`fn h(p, /) { p }`,
		`fn k(*rest) { rest }`,
		`fn n() { none }`,
		`m = fn(u, v=none, **opts) { u }`,
		":help f", ":help g", ":help h", ":help k", ":help n", ":help m",
	)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	for _, want := range []string{
		`fn f(a, b=2, /, c=[1, 'x'], *args, d, e=1.5, **kw)  (defined at `,
		"fn g(x, *, scale)  (defined at ",
		"fn h(p, /)  (defined at ",
		"fn k(*rest)  (defined at ",
		"fn n()  (defined at ",
		"fn <fn>(u, v=none, **opts)  (defined at ",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("stdout lacks %q:\n%s", want, o)
		}
	}
}
