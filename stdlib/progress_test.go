package stdlib

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsrlang/tsr/runtime"
)

// fakeClock replaces progressNow for one test; advance moves it forward.
func fakeClock(t *testing.T) (advance func(time.Duration)) {
	t.Helper()
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	old := progressNow
	progressNow = func() time.Time { return now }
	t.Cleanup(func() { progressNow = old })
	return func(d time.Duration) { now = now.Add(d) }
}

// progressEnv is an env whose stderr is buf.
func progressEnv(t *testing.T, buf *bytes.Buffer) *env {
	e := newEnv(t)
	SetStderr(e.th, buf)
	return e
}

// kindOf returns the tsr error kind of err ("" if none).
func kindOf(err error) string {
	if k, ok := err.(interface{ ErrorKind() string }); ok {
		return k.ErrorKind()
	}
	return ""
}

func TestProgressSilentWhenNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	p := e.call("progress.bar", []runtime.Value{runtime.MakeInt(3)}, kw("description", runtime.String("svd")))
	for i := 0; i < 3; i++ {
		e.method(p, "add", nil)
	}
	e.method(p, "finish", nil)
	if buf.Len() != 0 {
		t.Fatalf("a bar on a non-terminal wrote %q", buf.String())
	}
	if v := e.attr(p, "visible"); v != runtime.Bool(false) {
		t.Errorf("visible = %v, want false", v)
	}
	if v := e.attr(p, "n"); v != runtime.MakeInt(3) {
		t.Errorf("n = %v, want 3 (counting works while silent)", v)
	}
}

func TestProgressForcedRendering(t *testing.T) {
	advance := fakeClock(t)
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	p := e.call("progress.bar", []runtime.Value{runtime.MakeInt(4)},
		kw("description", runtime.String("svd")), kw("force", runtime.Bool(true)), kw("width", runtime.MakeInt(8)))
	// Created: drawn at 0%, no rate, unknown ETA.
	want := "\rsvd   0%|        | 0/4 [00:00<?]"
	if got := buf.String(); got != want {
		t.Fatalf("initial draw\n got %q\nwant %q", got, want)
	}
	// Within the refresh interval: counted but not redrawn.
	buf.Reset()
	advance(10 * time.Millisecond)
	e.method(p, "add", nil)
	if buf.Len() != 0 {
		t.Fatalf("redrawn within %v: %q", progressRefresh, buf.String())
	}
	// After 2 s, 2 of 4 done: 50%, 1 it/s, 2 s left; half of 8 cells.
	advance(2*time.Second - 10*time.Millisecond)
	e.method(p, "add", nil)
	want = "\rsvd  50%|████    | 2/4 [00:02<00:02, 1.00it/s]"
	if got := buf.String(); got != want {
		t.Fatalf("half way\n got %q\nwant %q", got, want)
	}
	// 3/8 of the way (set) shows a partial cell; describe() redraws at once
	// and a shorter line is blanked with spaces (no ANSI off a terminal).
	buf.Reset()
	advance(time.Second)
	e.method(p, "set", []runtime.Value{runtime.MakeInt(3)})
	e.method(p, "describe", []runtime.Value{runtime.String("x")})
	got := buf.String()
	parts := strings.Split(got, "\r")
	if len(parts) != 3 {
		t.Fatalf("want two redraws, got %q", got)
	}
	if want := "svd  75%|██████  | 3/4 [00:03<00:01, 1.00it/s]"; parts[1] != want {
		t.Errorf("after set(3)\n got %q\nwant %q", parts[1], want)
	}
	if want := "x  75%|██████  | 3/4 [00:03<00:01, 1.00it/s]  "; parts[2] != want {
		t.Errorf("after describe\n got %q\nwant %q", parts[2], want)
	}
	// finish: final state and a newline, once.
	buf.Reset()
	advance(time.Second)
	e.method(p, "add", nil)
	e.method(p, "finish", nil)
	e.method(p, "finish", nil)
	if got, want := buf.String(), "\rx 100%|████████| 4/4 [00:04<00:00, 1.00it/s]\rx 100%|████████| 4/4 [00:04<00:00, 1.00it/s]\n"; got != want {
		t.Errorf("finish\n got %q\nwant %q", got, want)
	}
	if v := e.attr(p, "elapsed"); v != runtime.Float(4) {
		t.Errorf("elapsed = %v, want 4.0", v)
	}
	advance(time.Hour)
	if v := e.attr(p, "elapsed"); v != runtime.Float(4) {
		t.Errorf("elapsed after finish moved to %v", v)
	}
}

func TestProgressUnknownTotal(t *testing.T) {
	advance := fakeClock(t)
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	p := e.call("progress.bar", nil, kw("force", runtime.Bool(true)), kw("unit", runtime.String("run")))
	if v := e.attr(p, "total"); v != runtime.None {
		t.Errorf("total = %v, want none", v)
	}
	buf.Reset()
	advance(4 * time.Second)
	e.method(p, "add", []runtime.Value{runtime.MakeInt(2)})
	if got, want := buf.String(), "\r2run [00:04, 2.00s/run]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestProgressTrack(t *testing.T) {
	advance := fakeClock(t)
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	tr := e.call("progress.track", []runtime.Value{runtime.NewRange(0, 3, 1)},
		kw("description", runtime.String("ranks")), kw("force", runtime.Bool(true)), kw("width", runtime.MakeInt(3)))
	bar := e.attr(tr, "bar")
	if v := e.attr(bar, "total"); v != runtime.MakeInt(3) {
		t.Fatalf("total = %v, want 3 (from len)", v)
	}
	it, err := runtime.Iterate(tr)
	if err != nil {
		t.Fatal(err)
	}
	var seen []runtime.Value
	for {
		advance(time.Second)
		v, ok := it.Next()
		if !ok {
			break
		}
		// The element being processed is not counted yet (tqdm's rule).
		if n := e.attr(bar, "n"); n != runtime.MakeInt(int64(len(seen))) {
			t.Errorf("while at element %d, n = %v", len(seen), n)
		}
		seen = append(seen, v)
	}
	if len(seen) != 3 || seen[2] != runtime.MakeInt(2) {
		t.Fatalf("elements %v, want [0, 1, 2]", seen)
	}
	if n := e.attr(bar, "n"); n != runtime.MakeInt(3) {
		t.Errorf("n at the end = %v, want 3", n)
	}
	out := buf.String()
	if !strings.HasSuffix(out, "\rranks 100%|███| 3/3 [00:04<00:00, 1.33s/it]\n") {
		t.Errorf("track did not finish the bar: %q", out)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want exactly one newline (at finish), got %q", out)
	}
}

func TestProgressErrors(t *testing.T) {
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	cases := []struct {
		name   string
		fn     string
		args   []runtime.Value
		kwargs []runtime.Kwarg
		kind   string
	}{
		{"negative total", "progress.bar", []runtime.Value{runtime.MakeInt(-1)}, nil, "ValueError"},
		{"float total", "progress.bar", []runtime.Value{runtime.Float(3)}, nil, "TypeError"},
		{"zero width", "progress.bar", []runtime.Value{runtime.MakeInt(3)}, []runtime.Kwarg{kw("width", runtime.MakeInt(0))}, "ValueError"},
		{"two-line description", "progress.bar", nil, []runtime.Kwarg{kw("description", runtime.String("a\nb"))}, "ValueError"},
		{"unknown keyword", "progress.bar", nil, []runtime.Kwarg{kw("totl", runtime.MakeInt(3))}, "TypeError"},
		{"not iterable", "progress.track", []runtime.Value{runtime.MakeInt(3)}, nil, "TypeError"},
		{"track without iterable", "progress.track", nil, nil, "TypeError"},
	}
	for _, c := range cases {
		_, err := e.try(c.fn, c.args, c.kwargs...)
		if err == nil || kindOf(err) != c.kind {
			t.Errorf("%s: got %v, want a %s", c.name, err, c.kind)
		}
	}
	p := e.call("progress.bar", []runtime.Value{runtime.MakeInt(3)})
	if _, err := e.tryMethod(p, "set", []runtime.Value{runtime.MakeInt(-2)}); kindOf(err) != "ValueError" {
		t.Errorf("set(-2): got %v, want ValueError", err)
	}
	if _, err := e.tryMethod(p, "describe", []runtime.Value{runtime.String("a\rb")}); kindOf(err) != "ValueError" {
		t.Errorf("describe with \\r: got %v, want ValueError", err)
	}
	if _, err := e.tryMethod(p, "add", []runtime.Value{runtime.String("x")}); kindOf(err) != "TypeError" {
		t.Errorf("add(\"x\"): got %v, want TypeError", err)
	}
	if buf.Len() != 0 {
		t.Errorf("errors wrote to stderr: %q", buf.String())
	}
}

func TestProgressHelpers(t *testing.T) {
	for _, c := range []struct {
		secs float64
		want string
	}{{0, "00:00"}, {59.9, "00:59"}, {61, "01:01"}, {3600, "1:00:00"}, {3725, "1:02:05"}, {-1, "?"}} {
		if got := formatClock(c.secs); got != c.want {
			t.Errorf("formatClock(%v) = %q, want %q", c.secs, got, c.want)
		}
	}
	if got := formatRate(2.5, "it"); got != "2.50it/s" {
		t.Errorf("formatRate(2.5) = %q", got)
	}
	if got := formatRate(0.25, "it"); got != "4.00s/it" {
		t.Errorf("formatRate(0.25) = %q", got)
	}
	for _, c := range []struct {
		frac  float64
		width int
		want  string
	}{{0, 4, "    "}, {1, 4, "████"}, {0.5, 4, "██  "}, {1.0 / 16, 2, "▏ "}, {0.25, 2, "▌ "}, {0.99, 1, "▉"}} {
		if got := barCells(c.frac, c.width); got != c.want {
			t.Errorf("barCells(%v, %d) = %q, want %q", c.frac, c.width, got, c.want)
		}
	}
	// A regular file is not a terminal; a bytes.Buffer is not either.
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("isTerminal true for a file or a buffer")
	}
	// Without SetStderr the bar writes to os.Stderr.
	if w := stderrOf(newThread()); w != os.Stderr {
		t.Errorf("default stderr = %v", w)
	}
}

func TestProgressFitsTheTerminal(t *testing.T) {
	fakeClock(t)
	t.Setenv("COLUMNS", "40")
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	e.call("progress.bar", []runtime.Value{runtime.MakeInt(10)},
		kw("description", runtime.String("a long description here")), kw("force", runtime.Bool(true)))
	// 39 columns: the bar shrinks to 10 cells, then the description is cut.
	if got, want := buf.String(), "\ra long…   0%|          | 0/10 [00:00<?]"; got != want {
		t.Errorf("narrow terminal\n got %q\nwant %q", got, want)
	}
	buf.Reset()
	e.call("progress.bar", nil, kw("description", runtime.String("a much longer description than fits")), kw("force", runtime.Bool(true)))
	if got, want := buf.String(), "\ra much longer description… 0it [00:00]"; got != want {
		t.Errorf("narrow terminal, unknown total\n got %q\nwant %q", got, want)
	}
	// No room at all for the description: it is dropped.
	if got := fitDescription("abc", 2); got != "" {
		t.Errorf("fitDescription with no room = %q", got)
	}
	t.Setenv("COLUMNS", "junk")
	if got := progressColumns(); got != 80 {
		t.Errorf("COLUMNS=junk: %d columns, want 80", got)
	}
}

func TestProgressThrottlesPastTheTotal(t *testing.T) {
	advance := fakeClock(t)
	var buf bytes.Buffer
	e := progressEnv(t, &buf)
	p := e.call("progress.bar", []runtime.Value{runtime.MakeInt(2)}, kw("force", runtime.Bool(true)))
	advance(time.Millisecond)
	e.method(p, "add", []runtime.Value{runtime.MakeInt(2)}) // reaching the total draws at once
	buf.Reset()
	for i := 0; i < 100; i++ {
		e.method(p, "add", nil) // past the total: throttled like any other step
	}
	if buf.Len() != 0 {
		t.Errorf("steps past the total redrew within the refresh interval: %q", buf.String())
	}
}
