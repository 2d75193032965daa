package repl

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/lang"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
	"github.com/tsrlang/tsr/tensor"
)

type command struct {
	name, args, help string
	run              func(s *Session, ctx context.Context, arg string)
}

var commands []command

func init() {
	commands = []command{
		{"help", "[name]", "this list, or the documentation of a builtin, module, method (zeros, linalg.svd, stride) or function", (*Session).cmdHelp},
		{"type", "expr", "the type of expr (dtype, shape and device for a tensor)", (*Session).cmdType},
		{"time", "expr", "run expr repeatedly and print the median time (devices synchronised)", (*Session).cmdTime},
		{"disasm", "expr|fn", "the bytecode of a function, or of expr compiled as an entry", (*Session).cmdDisasm},
		{"vars", "", "the global variables of the session", (*Session).cmdVars},
		{"load", "FILE", "run a file in the session (its globals stay)", (*Session).cmdLoad},
		{"reset", "", "forget all variables (a fresh interpreter)", (*Session).cmdReset},
		{"quit", "", "leave (also exit, quit or Ctrl-D)", (*Session).cmdQuit},
	}
}

// command runs a ':' command line.
func (s *Session) command(ctx context.Context, line string) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, ":"), " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "q", "exit":
		name = "quit"
	case "h", "?":
		name = "help"
	}
	var found []command
	for _, c := range commands {
		if c.name == name {
			found = []command{c}
			break
		}
		if name != "" && strings.HasPrefix(c.name, name) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		fmt.Fprintf(s.stderr, "unknown command :%s (try :help)\n", name)
		return
	}
	c := found[0]
	if c.args != "" && !strings.HasPrefix(c.args, "[") && arg == "" {
		fmt.Fprintf(s.stderr, "usage: :%s %s\n", c.name, c.args)
		return
	}
	c.run(s, ctx, arg)
}

func (s *Session) cmdQuit(context.Context, string) { s.quit = true }

func (s *Session) cmdReset(context.Context, string) {
	if err := s.reset(); err != nil {
		s.printErr(err)
		return
	}
	fmt.Fprintln(s.stdout, "session reset")
}

func (s *Session) cmdHelp(_ context.Context, arg string) {
	if arg == "" {
		fmt.Fprintln(s.stdout, "Enter tsr statements; an expression's value is printed and kept in _.")
		fmt.Fprintln(s.stdout, "An entry continues (prompt ...>) while a bracket, block or string is open.")
		fmt.Fprintln(s.stdout, "Tab completes names, module members and methods (x.<Tab>). Ctrl-C stops a")
		fmt.Fprintln(s.stdout, "running evaluation or clears the entry; Ctrl-D exits. Commands:")
		for _, c := range commands {
			fmt.Fprintf(s.stdout, "  :%-18s %s\n", strings.TrimSpace(c.name+" "+c.args), c.help)
		}
		return
	}
	doc, ok := s.doc(arg)
	if !ok {
		fmt.Fprintf(s.stderr, "no help for %s\n", arg)
		return
	}
	fmt.Fprintln(s.stdout, doc)
}

// doc finds the documentation of name: a global or dotted member
// (runtime.Builtin.Doc, the module's Doc and members, a tsr function's
// signature), else a tensor method or attribute of that name.
func (s *Session) doc(name string) (string, bool) {
	name = strings.TrimSuffix(strings.TrimSpace(name), "(")
	if v, ok := s.resolve(name); ok {
		return describe(name, v), true
	}
	probe := stdlib.NewTensorValue(s.in.Thread(), mustZeros())
	meth := strings.TrimPrefix(name, "tensor.")
	if v, err := probe.Attr(meth); err == nil && v != nil {
		if b, ok := v.(*runtime.Builtin); ok {
			return docOf("tensor."+meth, b), true
		}
		return "tensor." + meth + ": a tensor attribute (" + v.Type() + ")", true
	}
	return "", false
}

func mustZeros() *tensor.Tensor {
	t, err := tensor.Zeros([]int{1}, tensor.F32)
	if err != nil {
		panic(err)
	}
	return t
}

func docOf(name string, b *runtime.Builtin) string {
	if b.Doc == "" {
		return name + ": (no documentation)"
	}
	return b.Doc
}

// describe renders the help of a value.
func describe(name string, v runtime.Value) string {
	switch x := v.(type) {
	case *runtime.Builtin:
		return docOf(name, x)
	case *runtime.Module:
		var b strings.Builder
		fmt.Fprintf(&b, "module %s", x.ModName)
		if x.Doc != "" {
			fmt.Fprintf(&b, ": %s", x.Doc)
		}
		b.WriteString("\nmembers: ")
		b.WriteString(strings.Join(x.AttrNames(), ", "))
		return b.String()
	case *runtime.Function:
		fc := x.Funcode()
		return fmt.Sprintf("fn %s%s  (defined at %s:%s)", fc.Name, x.Signature(), fc.Prog.Filename, fc.Pos)
	}
	return fmt.Sprintf("%s: %s = %s", name, v.Type(), short(runtime.Repr(v)))
}

// typeOf describes a value's type: "tensor[f32, [2, 3], cpu]" for a
// tensor, else the type name.
func typeOf(v runtime.Value) string {
	if t, ok := stdlib.TensorOf(v); ok {
		shape := make([]string, len(t.Shape()))
		for i, d := range t.Shape() {
			shape[i] = fmt.Sprint(d)
		}
		grad := ""
		if t.RequiresGrad() {
			grad = ", requires_grad"
		}
		return fmt.Sprintf("tensor[%s, [%s], %s%s]", t.DType(), strings.Join(shape, ", "), t.Device(), grad)
	}
	return v.Type()
}

// evalExpr compiles src as an entry and runs it, interruptibly.
func (s *Session) evalExpr(ctx context.Context, src string) (runtime.Value, bool) {
	s.entries++
	p, err := tsr.Compile(fmt.Sprintf("<stdin:%d>", s.entries), src)
	if err != nil {
		s.printErr(err)
		return nil, false
	}
	v, err := s.run(ctx, func(ctx context.Context) (runtime.Value, error) { return s.in.Run(ctx, p) })
	if err != nil {
		s.printErr(err)
		return nil, false
	}
	return v, true
}

func (s *Session) cmdType(ctx context.Context, arg string) {
	if v, ok := s.evalExpr(ctx, arg); ok {
		fmt.Fprintln(s.stdout, typeOf(v))
	}
}

func (s *Session) cmdDisasm(ctx context.Context, arg string) {
	if v, ok := s.resolve(arg); ok {
		if f, ok := v.(*runtime.Function); ok {
			var b strings.Builder
			lang.DisassembleFunc(&b, f.Funcode())
			fmt.Fprint(s.stdout, b.String())
			return
		}
	}
	p, err := tsr.Compile("<disasm>", arg)
	if err != nil {
		s.printErr(err)
		return
	}
	fmt.Fprint(s.stdout, p.Disassemble())
}

func (s *Session) cmdVars(context.Context, string) {
	names := s.in.Globals()
	if len(names) == 0 {
		fmt.Fprintln(s.stdout, "(no variables)")
		return
	}
	w := 0
	for _, n := range names {
		w = max(w, len(n))
	}
	for _, n := range names {
		v, _ := s.in.Global(n)
		fmt.Fprintf(s.stdout, "%-*s  %-24s %s\n", w, n, typeOf(v), short(runtime.Repr(v)))
	}
}

// short returns the first line of s, cut to 60 characters.
func short(s string) string {
	line, _, more := strings.Cut(s, "\n")
	if r := []rune(line); len(r) > 60 {
		line, more = string(r[:57]), true
	}
	if more {
		line += " ..."
	}
	return line
}

func (s *Session) cmdLoad(ctx context.Context, arg string) {
	path := strings.Trim(arg, `"'`)
	src, err := os.ReadFile(path)
	if err != nil {
		s.printErr(err)
		return
	}
	p, err := tsr.Compile(path, string(src))
	if err != nil {
		s.printErr(err)
		return
	}
	if _, err := s.run(ctx, func(ctx context.Context) (runtime.Value, error) { return s.in.Run(ctx, p) }); err != nil {
		s.printErr(err)
	}
}

// Timing policy of :time: at least timeMinRuns runs and about timeBudget
// of running, at most timeMaxRuns runs.
const (
	timeMinRuns = 5
	timeMaxRuns = 10000
	timeBudget  = 500 * time.Millisecond
)

func (s *Session) cmdTime(ctx context.Context, arg string) {
	s.entries++
	p, err := tsr.Compile(fmt.Sprintf("<stdin:%d>", s.entries), arg)
	if err != nil {
		s.printErr(err)
		return
	}
	var ds []time.Duration
	_, err = s.run(ctx, func(ctx context.Context) (runtime.Value, error) {
		// One untimed warm-up run, which also sizes the loop.
		start := time.Now()
		if _, err := s.in.Run(ctx, p); err != nil {
			return nil, err
		}
		if err := s.sync(ctx); err != nil {
			return nil, err
		}
		first := time.Since(start)
		n := timeMinRuns
		if first > 0 {
			n = int(math.Min(timeMaxRuns, math.Max(timeMinRuns, float64(timeBudget/first))))
		}
		for range n {
			start := time.Now()
			if _, err := s.in.Run(ctx, p); err != nil {
				return nil, err
			}
			if err := s.sync(ctx); err != nil {
				return nil, err
			}
			ds = append(ds, time.Since(start))
		}
		return nil, nil
	})
	if err != nil {
		s.printErr(err)
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	med := ds[len(ds)/2]
	if len(ds)%2 == 0 {
		med = (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
	}
	fmt.Fprintf(s.stdout, "median %s over %d runs (min %s, max %s)\n", fmtDur(med), len(ds), fmtDur(ds[0]), fmtDur(ds[len(ds)-1]))
}

// sync waits for queued device work: each device module (cuda, mps) whose
// is_available() is true is synchronised. The cpu needs nothing.
func (s *Session) sync(ctx context.Context) error {
	for _, mod := range []string{"cuda", "mps"} {
		v, ok := s.in.Global(mod)
		if !ok {
			continue
		}
		m, ok := v.(*runtime.Module)
		if !ok {
			continue
		}
		avail, _ := m.Attr("is_available")
		sync, _ := m.Attr("synchronize")
		if avail == nil || sync == nil {
			continue
		}
		r, err := s.in.Thread().Call(avail, nil, nil)
		if err != nil || !r.Truth() {
			continue
		}
		if _, err := s.in.Thread().Call(sync, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// fmtDur prints a duration with 4 significant digits in ns, µs, ms or s.
func fmtDur(d time.Duration) string {
	ns := float64(d.Nanoseconds())
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.4g µs", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.4g ms", ns/1e6)
	}
	return fmt.Sprintf("%.4g s", ns/1e9)
}
