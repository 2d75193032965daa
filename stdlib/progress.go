package stdlib

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tsrlang/tsr/runtime"
)

// Module progress: progress bars on stderr for long phases of a program.
//
//	p = progress.bar(10, description="svd")   # total steps (none: unknown)
//	for i in range(10) { work(i); p.add(1) }
//	p.finish()
//	for k in progress.track(range(64), description="ranks") { ... }
//
// A bar draws one line, redrawn in place with a carriage return, on the
// thread's stderr (os.Stderr unless the host installs another writer with
// SetStderr), at most every progressRefresh, and always on finish():
//
//	svd  60%|██████████████████            | 6/10 [00:03<00:02, 1.98it/s]
//
// It draws nothing when stderr is not a terminal (a pipe, a file, a test's
// buffer), so redirected output and golden tests stay clean; force=true
// draws anyway. Nothing is ever written to stdout.
//
// The renderer is written here rather than taken from
// github.com/schollz/progressbar: that module imports net/http and
// crypto/tls, which would add about 80 packages (a third more compile
// time from a clean cache) to the tsr binary for one line of output.

func init() {
	registerModule("progress", "Progress bars on stderr for long phases: bar(total, description=) with add/set/describe/finish, and track(iterable). Silent unless stderr is a terminal (force=true draws anyway).", map[string]runtime.Value{
		"bar": moduleFunc("progress", "bar", `progress.bar(total=none, description="", force=false, width=30, unit="it"):
a progress bar on stderr. total is the number of steps (an int >= 0) or none when
unknown (then only the count, elapsed time and rate are shown). Methods: add(n=1),
set(n), describe(text), finish(); attributes n, total, description, elapsed
(seconds), visible (whether it draws: stderr is a terminal, or force=true).`, progressBar),
		"track": moduleFunc("progress", "track", `progress.track(iterable, description="", total=none, force=false, width=30, unit="it"):
iterate over iterable while a progress bar on stderr counts its elements; the bar
finishes when the iteration ends. total defaults to len(iterable) when it has one.`, progressTrack),
	})
}

// stderrKey is the Thread.SetLocal key of the writer progress bars draw on.
const stderrKey = "stdlib.stderr"

// SetStderr installs w as the writer of th's diagnostics (progress bars);
// nil restores the default, os.Stderr. Bars draw only when w is a terminal
// (an *os.File for a character device) unless created with force=true.
func SetStderr(th *runtime.Thread, w io.Writer) {
	if th == nil {
		return
	}
	if w == nil {
		th.SetLocal(stderrKey, nil)
		return
	}
	th.SetLocal(stderrKey, w)
}

// stderrOf returns the diagnostics writer of th.
func stderrOf(th *runtime.Thread) io.Writer {
	if th != nil {
		if w, ok := th.Local(stderrKey).(io.Writer); ok && w != nil {
			return w
		}
	}
	return os.Stderr
}

// isTerminal reports whether w is a terminal: an *os.File whose mode is a
// character device (the same test as Python's isatty for the cases that
// matter here; /dev/null is a character device too, which costs nothing).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressRefresh is the shortest time between two redraws; progressNow is
// the clock (tests replace it).
var (
	progressRefresh = 100 * time.Millisecond
	progressNow     = time.Now
)

// progressBarValue is a tsr progress bar.
type progressBarValue struct {
	w           io.Writer
	visible     bool
	ansi        bool // clear to the end of line with ESC [K (terminals only)
	description string
	unit        string
	width       int
	total       int64 // -1: unknown
	n           int64
	start       time.Time
	lastDraw    time.Time
	lastLen     int // runes of the last line drawn (to blank leftovers without ANSI)
	drawn       bool
	finished    bool
	// finishedAfter is the elapsed time frozen by finish().
	finishedAfter time.Duration
}

// progressOpts are the keywords shared by bar() and track().
type progressOpts struct {
	description string
	force       bool
	width       int
	unit        string
	total       runtime.Value
}

func (o *progressOpts) pairs() []any {
	return []any{"description?", &o.description, "force?", &o.force, "width?", &o.width, "unit?", &o.unit}
}

// newBar validates o and makes a bar writing to th's stderr.
func (o *progressOpts) newBar(th *runtime.Thread, fname string) (*progressBarValue, error) {
	total := int64(-1)
	if o.total != nil && o.total != runtime.None {
		t, ok := o.total.(runtime.Int)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s: total must be an int or none, not %s", fname, o.total.Type())
		}
		v, _ := runtime.AsInt(t)
		if v < 0 {
			return nil, runtime.Errorf("ValueError", "%s: total must be non-negative, got %d", fname, v)
		}
		total = v
	}
	if o.width < 1 || o.width > 200 {
		return nil, runtime.Errorf("ValueError", "%s: width must be between 1 and 200, got %d", fname, o.width)
	}
	if strings.ContainsAny(o.description, "\r\n") || strings.ContainsAny(o.unit, "\r\n") {
		return nil, runtime.Errorf("ValueError", "%s: description and unit must be one line", fname)
	}
	w := stderrOf(th)
	tty := isTerminal(w)
	now := progressNow()
	return &progressBarValue{
		w:           w,
		visible:     tty || o.force,
		ansi:        tty,
		description: o.description,
		unit:        o.unit,
		width:       o.width,
		total:       total,
		start:       now,
	}, nil
}

func defaultProgressOpts() progressOpts { return progressOpts{width: 30, unit: "it"} }

func progressBar(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	o := defaultProgressOpts()
	pairs := append([]any{"total?", &o.total}, o.pairs()...)
	if err := runtime.UnpackArgs("progress.bar", args, kwargs, pairs...); err != nil {
		return nil, err
	}
	p, err := o.newBar(th, "progress.bar")
	if err != nil {
		return nil, err
	}
	p.draw(true)
	return p, nil
}

func progressTrack(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	o := defaultProgressOpts()
	var iterable runtime.Value
	pairs := append([]any{"iterable", &iterable, "description?", &o.description, "total?", &o.total}, o.pairs()[2:]...)
	if err := runtime.UnpackArgs("progress.track", args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if o.total == nil || o.total == runtime.None {
		if n, ok := runtime.Len(iterable); ok {
			o.total = runtime.MakeInt(int64(n))
		}
	}
	// Fail now, not at the first loop iteration, on a value that cannot be
	// iterated.
	if _, err := runtime.Iterate(iterable); err != nil {
		return nil, err
	}
	p, err := o.newBar(th, "progress.track")
	if err != nil {
		return nil, err
	}
	return &progressTrackValue{inner: iterable, bar: p}, nil
}

// add advances the bar by k steps and redraws when due.
func (p *progressBarValue) add(k int64) {
	before := p.n
	p.n += k
	if p.n < 0 {
		p.n = 0
	}
	p.draw(p.total >= 0 && before < p.total && p.n >= p.total)
}

// finish draws the final state and ends the line; later calls do nothing.
func (p *progressBarValue) finish() {
	if p.finished {
		return
	}
	p.finishedAfter = progressNow().Sub(p.start)
	p.finished = true
	if p.visible {
		p.render(p.finishedAfter)
		io.WriteString(p.w, "\n")
	}
}

// elapsed is the time since the bar started (frozen at finish).
func (p *progressBarValue) elapsed() time.Duration {
	if p.finished {
		return p.finishedAfter
	}
	return progressNow().Sub(p.start)
}

// draw redraws the line if the bar is visible and a redraw is due: always
// when force is set, else at most every progressRefresh.
func (p *progressBarValue) draw(force bool) {
	if !p.visible || p.finished {
		return
	}
	now := progressNow()
	if !force && p.drawn && now.Sub(p.lastDraw) < progressRefresh {
		return
	}
	p.lastDraw = now
	p.render(now.Sub(p.start))
}

// render writes the line for the current state: "\r" + line, then either
// ESC [K (terminals) or spaces over what is left of a longer previous line.
func (p *progressBarValue) render(el time.Duration) {
	line := p.line(el, progressColumns()-1)
	n := utf8.RuneCountInString(line)
	var sb strings.Builder
	sb.WriteByte('\r')
	sb.WriteString(line)
	if p.ansi {
		sb.WriteString("\x1b[K")
	} else if n < p.lastLen {
		sb.WriteString(strings.Repeat(" ", p.lastLen-n))
	}
	p.lastLen = n
	p.drawn = true
	io.WriteString(p.w, sb.String())
}

// progressColumns is the terminal width assumed: $COLUMNS when it holds a
// number from 20 on, else 80. (Asking the terminal needs an ioctl per OS;
// a line that wraps would break the carriage-return redraw, so the line is
// kept within this width instead.)
func progressColumns() int {
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c >= 20 {
		return c
	}
	return 80
}

// line formats the bar like tqdm, in at most maxw columns:
// "desc  60%|██████      | 6/10 [00:03<00:02, 1.98it/s]"; with an unknown
// total: "desc 6it [00:03, 1.98it/s]". When the line would be wider, the
// bar shrinks (down to 10 cells) and then the description is cut with "…".
func (p *progressBarValue) line(el time.Duration, maxw int) string {
	secs := el.Seconds()
	rate := ""
	if secs > 0 && p.n > 0 {
		rate = ", " + formatRate(float64(p.n)/secs, p.unit)
	}
	desc := p.description
	if p.total < 0 {
		stats := fmt.Sprintf("%d%s [%s%s]", p.n, p.unit, formatClock(secs), rate)
		desc = fitDescription(desc, maxw-utf8.RuneCountInString(stats))
		return desc + stats
	}
	frac := 1.0
	if p.total > 0 {
		frac = math.Min(float64(p.n)/float64(p.total), 1)
	}
	eta := "?"
	switch {
	case p.n >= p.total:
		eta = "00:00"
	case p.n > 0 && secs > 0:
		eta = formatClock(secs / float64(p.n) * float64(p.total-p.n))
	}
	pct := fmt.Sprintf("%3d%%|", int(frac*100))
	stats := fmt.Sprintf("| %d/%d [%s<%s%s]", p.n, p.total, formatClock(secs), eta, rate)
	fixed := utf8.RuneCountInString(pct) + utf8.RuneCountInString(stats)
	width := p.width
	if need := utf8.RuneCountInString(desc) + 1; desc != "" && fixed+width+need > maxw {
		width = max(min(p.width, 10), maxw-fixed-need)
	}
	desc = fitDescription(desc, maxw-fixed-width)
	return desc + pct + barCells(frac, width) + stats
}

// fitDescription returns "desc " cut to at most room runes (ending in "…"
// when cut), or "" when desc is empty or there is no room for two runes.
func fitDescription(desc string, room int) string {
	if desc == "" || room < 3 {
		return ""
	}
	if r := []rune(desc); len(r)+1 > room {
		return strings.TrimRight(string(r[:room-2]), " ") + "… "
	}
	return desc + " "
}

// barCells draws frac (0..1) in width cells with eighth-block precision.
func barCells(frac float64, width int) string {
	eighths := int(frac * float64(width*8))
	full, part := eighths/8, eighths%8
	var sb strings.Builder
	sb.WriteString(strings.Repeat("█", full))
	if full < width {
		if part > 0 {
			sb.WriteRune([]rune(" ▏▎▍▌▋▊▉")[part])
		} else {
			sb.WriteByte(' ')
		}
		sb.WriteString(strings.Repeat(" ", width-full-1))
	}
	return sb.String()
}

// formatClock formats seconds as mm:ss, or h:mm:ss from an hour on.
func formatClock(secs float64) string {
	if math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 {
		return "?"
	}
	s := int64(secs)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// formatRate formats a rate per second, switching to seconds per unit below
// one per second (as tqdm does).
func formatRate(perSec float64, unit string) string {
	if perSec >= 1 {
		return fmt.Sprintf("%.2f%s/s", perSec, unit)
	}
	return fmt.Sprintf("%.2fs/%s", 1/perSec, unit)
}

func (p *progressBarValue) String() string {
	total := "none"
	if p.total >= 0 {
		total = fmt.Sprint(p.total)
	}
	return fmt.Sprintf("progress.bar(description=%s, n=%d, total=%s)", runtime.QuoteString(p.description), p.n, total)
}
func (p *progressBarValue) Type() string { return "progress.bar" }
func (p *progressBarValue) Truth() bool  { return true }

var progressBarAttrs = []string{"add", "describe", "description", "elapsed", "finish", "n", "set", "total", "visible"}

// AttrNames lists the attributes and methods, sorted.
func (p *progressBarValue) AttrNames() []string { return progressBarAttrs }

// Attr returns a field or a bound method.
func (p *progressBarValue) Attr(name string) (runtime.Value, error) {
	switch name {
	case "n":
		return runtime.MakeInt(p.n), nil
	case "total":
		if p.total < 0 {
			return runtime.None, nil
		}
		return runtime.MakeInt(p.total), nil
	case "description":
		return runtime.String(p.description), nil
	case "elapsed":
		return runtime.Float(p.elapsed().Seconds()), nil
	case "visible":
		return runtime.Bool(p.visible), nil
	case "add":
		return p.method("add", "add(n=1): advance by n steps and redraw when due.", func(args []runtime.Value, kwargs []runtime.Kwarg) error {
			k := int64(1)
			if err := runtime.UnpackArgs("add", args, kwargs, "n?", &k); err != nil {
				return err
			}
			p.add(k)
			return nil
		}), nil
	case "set":
		return p.method("set", "set(n): move to step n (>= 0) and redraw when due.", func(args []runtime.Value, kwargs []runtime.Kwarg) error {
			var k int64
			if err := runtime.UnpackArgs("set", args, kwargs, "n", &k); err != nil {
				return err
			}
			if k < 0 {
				return runtime.Errorf("ValueError", "set: n must be non-negative, got %d", k)
			}
			p.add(k - p.n)
			return nil
		}), nil
	case "describe":
		return p.method("describe", "describe(text): change the description and redraw.", func(args []runtime.Value, kwargs []runtime.Kwarg) error {
			var s string
			if err := runtime.UnpackArgs("describe", args, kwargs, "text", &s); err != nil {
				return err
			}
			if strings.ContainsAny(s, "\r\n") {
				return runtime.Errorf("ValueError", "describe: the description must be one line")
			}
			p.description = s
			p.draw(true)
			return nil
		}), nil
	case "finish":
		return p.method("finish", "finish(): draw the final state and end the line (later calls do nothing).", func(args []runtime.Value, kwargs []runtime.Kwarg) error {
			if err := runtime.UnpackArgs("finish", args, kwargs); err != nil {
				return err
			}
			p.finish()
			return nil
		}), nil
	}
	return nil, nil
}

// method makes a bound method returning none.
func (p *progressBarValue) method(name, doc string, fn func(args []runtime.Value, kwargs []runtime.Kwarg) error) *runtime.Builtin {
	b := runtime.NewBuiltin("progress.bar."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := fn(args, kwargs); err != nil {
			return nil, err
		}
		return runtime.None, nil
	})
	b.Doc = doc
	return b
}

// progressTrackValue is the iterable progress.track returns.
type progressTrackValue struct {
	inner runtime.Value
	bar   *progressBarValue
}

func (t *progressTrackValue) String() string { return "progress.track(" + t.bar.String() + ")" }
func (t *progressTrackValue) Type() string   { return "progress.track" }
func (t *progressTrackValue) Truth() bool    { return true }

// Attr exposes the bar (t.bar) so a loop can describe() it.
func (t *progressTrackValue) Attr(name string) (runtime.Value, error) {
	if name == "bar" {
		return t.bar, nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (t *progressTrackValue) AttrNames() []string { return []string{"bar"} }

// Iterate implements runtime.Iterable.
func (t *progressTrackValue) Iterate() runtime.Iterator {
	it, err := t.IterateE()
	if err != nil {
		return &progressIter{bar: t.bar}
	}
	return it
}

// IterateE implements runtime.IterableE: the inner iteration's error (a
// 0-d tensor, say) is reported as is.
func (t *progressTrackValue) IterateE() (runtime.Iterator, error) {
	it, err := runtime.Iterate(t.inner)
	if err != nil {
		return nil, err
	}
	return &progressIter{inner: it, bar: t.bar}, nil
}

// progressIter counts an element as done when the next one is asked for,
// as tqdm does, and finishes the bar when the inner iterator ends.
type progressIter struct {
	inner   runtime.Iterator
	bar     *progressBarValue
	started bool
}

func (it *progressIter) Next() (runtime.Value, bool) {
	if it.started {
		it.bar.add(1)
	}
	if it.inner == nil {
		it.bar.finish()
		return nil, false
	}
	v, ok := it.inner.Next()
	if !ok {
		it.bar.finish()
		return nil, false
	}
	it.started = true
	return v, true
}
