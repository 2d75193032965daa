package numfmt

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the element kind of a tensor being printed.
type Kind uint8

const (
	Float Kind = iota // floating point: printed with PyTorch's float rules
	Int               // integers
	Bool              // booleans, printed true/false
)

// TensorData describes a tensor for FormatTensor. Elements are addressed by
// their flat index in C (row-major) order; only the elements that appear in
// the output are read, each once, so summarising a huge tensor is cheap.
type TensorData struct {
	Shape []int
	Kind  Kind
	Float func(i int) float64 // Kind == Float (values already rounded to the dtype)
	Int   func(i int) int64   // Kind == Int
	Bool  func(i int) bool    // Kind == Bool
	// Suffix holds extra "key=value" parts printed after the data, in
	// order, e.g. "dtype=i32", "requires_grad=true", "grad_fn=<MulBackward0>".
	// PyTorch's rules for what to pass: "dtype=..." when the dtype is not
	// the default (f32, i64, bool); for an empty tensor whenever the dtype
	// is not f32 (so also "dtype=i64" and "dtype=bool"); then
	// "grad_fn=<...>" for a non-leaf, or "requires_grad=true" for a leaf
	// that requires grad. FormatTensor itself adds the "size=(...)" part of
	// an empty tensor that is not 1-d, before these.
	Suffix []string
}

// SciMode chooses between fixed and scientific notation for floats
// (PyTorch's set_printoptions(sci_mode=...)).
type SciMode uint8

const (
	SciAuto SciMode = iota // PyTorch's _Formatter decides (sci_mode=None)
	SciOn                  // always scientific (sci_mode=True)
	SciOff                 // never scientific (sci_mode=False)
)

// PrintOptions are PyTorch's print options (torch.set_printoptions), with
// the same names and meanings. The zero value is not useful: start from
// DefaultPrintOptions.
type PrintOptions struct {
	Precision int     // digits after the decimal point for floats (default 4)
	Threshold int     // summarise with "..." when numel > Threshold (default 1000)
	EdgeItems int     // items kept at each end of a summarised dimension (default 3)
	LineWidth int     // characters per line for wrapping (default 80)
	SciMode   SciMode // default SciAuto
}

// DefaultPrintOptions returns PyTorch's defaults: precision 4, threshold
// 1000, edgeitems 3, linewidth 80, automatic sci_mode.
func DefaultPrintOptions() PrintOptions {
	return PrintOptions{Precision: 4, Threshold: 1000, EdgeItems: 3, LineWidth: 80}
}

// PrintProfile returns the options of one of PyTorch's named profiles,
// "default", "short" (precision 2, edgeitems 2) or "full" (no
// summarisation), as set_printoptions(profile=...) sets them. An unknown
// name is an *Error of kind ValueError.
func PrintProfile(name string) (PrintOptions, error) {
	o := DefaultPrintOptions()
	switch name {
	case "default":
	case "short":
		o.Precision, o.EdgeItems = 2, 2
	case "full":
		o.Threshold = math.MaxInt
	default:
		return o, valueError("set_printoptions: unknown profile '%s' (expected 'default', 'short' or 'full')", name)
	}
	return o, nil
}

// FormatTensor renders t exactly as PyTorch's repr would (precision 4,
// scientific switch, 80-column line width, "..." summary above 1000
// elements with 3 edge items), with "tensor(" prefix and tsr's spelling of
// booleans (true/false) and dtype names. It is FormatTensorOpts with
// DefaultPrintOptions.
func FormatTensor(t TensorData) string { return FormatTensorOpts(t, DefaultPrintOptions()) }

// tensorPrefix is what PyTorch's _str_intern prints before a plain tensor.
const tensorPrefix = "tensor("

// FormatTensorOpts renders t as PyTorch's Tensor.__repr__ does under the
// print options o: a port of torch/_tensor_str.py (_Formatter, _tensor_str,
// _add_suffixes, get_summarized_data). In brief:
//
//   - Integers and booleans are right-aligned to the widest printed value.
//   - Floats: if every finite non-zero value is integral they print as
//     "3." (int mode); otherwise with o.Precision decimals; scientific
//     notation ("1.0000e-05") is chosen when max/min of the finite non-zero
//     magnitudes exceeds 1000, max exceeds 1e8, or (not in int mode) min is
//     below 1e-4. Only the printed elements take part when summarising.
//   - Rows wrap to o.LineWidth columns; higher dims are separated by
//     dim-1 blank lines; a tensor of more than o.Threshold elements keeps
//     o.EdgeItems items at each end of every longer dimension, with "...".
//   - An empty tensor prints "[]", plus "size=(d0, d1, ...)" unless it is
//     1-d, as PyTorch does (the size suffix is PyTorch's torch.Size repr,
//     even though tsr's shape values print as lists).
//   - Suffixes are joined with ", ", or with ",\n" and an indent of
//     len("tensor(") when the last line would pass o.LineWidth.
//
// Negative o.EdgeItems is taken as 0 and o.Precision is clamped to
// [0, 100]. With EdgeItems 0 a summarised last dimension prints " ..."
// followed by all its items (Python's self[-0:] is the whole row, as in
// PyTorch), and a summarised outer dimension prints "[...]" (PyTorch
// raises there). A nil accessor for t.Kind prints "?" for its elements rather
// than panicking.
func FormatTensorOpts(t TensorData, o PrintOptions) string {
	o.EdgeItems = max(o.EdgeItems, 0)
	o.Precision = min(max(o.Precision, 0), 100)
	numel := 1
	for _, d := range t.Shape {
		numel *= max(d, 0)
	}
	indent := len(tensorPrefix)
	var suffixes []string
	var body string
	if numel == 0 {
		body = "[]"
		if len(t.Shape) != 1 {
			suffixes = append(suffixes, "size="+shapeString(t.Shape))
		}
	} else {
		p := newPrinter(t, o, numel > o.Threshold)
		body = p.tensorStr(0, indent)
	}
	suffixes = append(suffixes, t.Suffix...)
	return addSuffixes(tensorPrefix+body, suffixes, indent, o.LineWidth)
}

// shapeString spells a shape as PyTorch prints a torch.Size in a tensor repr: "(0, 3)".
func shapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(')')
	return b.String()
}

// addSuffixes is _add_suffixes of torch/_tensor_str.py, including its
// reckoning of the last line as two characters longer than it is. A dtype
// suffix counts with PyTorch's spelling of the dtype (torchSuffixWidth),
// so that a tensor wraps its suffix where PyTorch's repr does.
func addSuffixes(s string, suffixes []string, indent, lineWidth int) string {
	var b strings.Builder
	b.WriteString(s)
	last := utf8.RuneCountInString(s[strings.LastIndexByte(s, '\n')+1:]) + 2
	for _, suf := range suffixes {
		n := torchSuffixWidth(suf)
		if last+n+2 > lineWidth {
			b.WriteString(",\n")
			b.WriteString(strings.Repeat(" ", indent))
			b.WriteString(suf)
			last = indent + n
		} else {
			b.WriteString(", ")
			b.WriteString(suf)
			last += n + 2
		}
	}
	b.WriteByte(')')
	return b.String()
}

// torchDTypes maps tsr's dtype names to PyTorch's.
var torchDTypes = map[string]string{
	"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
	"i8": "int8", "u8": "uint8", "i16": "int16", "i32": "int32", "i64": "int64", "bool": "bool",
}

// torchSuffixWidth is the width PyTorch's _add_suffixes reckons for a
// suffix: its length, except that "dtype=f64" counts as PyTorch's
// "dtype=torch.float64". tsr prints the short name (LANGUAGE.md), but a
// repr that PyTorch wraps before its dtype wraps here too.
func torchSuffixWidth(suf string) int {
	if name, ok := strings.CutPrefix(suf, "dtype="); ok {
		if t, ok := torchDTypes[name]; ok {
			return len("dtype=torch.") + len(t)
		}
	}
	return utf8.RuneCountInString(suf)
}

// printer holds the elements that will be printed (the summarised data, in
// C order of the kept indices) and the formatter derived from them.
type printer struct {
	t         TensorData
	o         PrintOptions
	summarize bool
	kept      [][]int // kept[d]: the indices printed along dim d
	strides   []int

	// Flattened printed elements, in the order tensorStr visits them.
	fvals []float64
	ivals []int64
	bvals []bool
	next  int

	// _Formatter state.
	intMode  bool
	sciMode  bool
	maxWidth int
}

func newPrinter(t TensorData, o PrintOptions, summarize bool) *printer {
	p := &printer{t: t, o: o, summarize: summarize}
	nd := len(t.Shape)
	p.strides = make([]int, nd)
	st := 1
	for d := nd - 1; d >= 0; d-- {
		p.strides[d] = st
		st *= t.Shape[d]
	}
	p.kept = make([][]int, nd)
	e := o.EdgeItems
	for d, n := range t.Shape {
		if summarize && n > 2*e {
			idx := make([]int, 0, 2*e)
			for i := 0; i < e; i++ {
				idx = append(idx, i)
			}
			tail := n - e
			if d == nd-1 && e == 0 {
				// Python's self[-0:] is the whole vector.
				tail = 0
			}
			for i := tail; i < n; i++ {
				idx = append(idx, i)
			}
			p.kept[d] = idx
		} else {
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			p.kept[d] = idx
		}
	}
	p.gather()
	p.initFormatter()
	return p
}

// gather reads every printed element once, in C order of the kept indices.
func (p *printer) gather() {
	count := 1
	for _, k := range p.kept {
		count *= len(k)
	}
	switch p.t.Kind {
	case Float:
		p.fvals = make([]float64, 0, count)
	case Int:
		p.ivals = make([]int64, 0, count)
	default:
		p.bvals = make([]bool, 0, count)
	}
	if count == 0 {
		return
	}
	nd := len(p.kept)
	pos := make([]int, nd)
	for {
		flat := 0
		for d := 0; d < nd; d++ {
			flat += p.kept[d][pos[d]] * p.strides[d]
		}
		switch p.t.Kind {
		case Float:
			v := math.NaN()
			if p.t.Float != nil {
				v = p.t.Float(flat)
			}
			p.fvals = append(p.fvals, v)
		case Int:
			var v int64
			if p.t.Int != nil {
				v = p.t.Int(flat)
			}
			p.ivals = append(p.ivals, v)
		default:
			var v bool
			if p.t.Bool != nil {
				v = p.t.Bool(flat)
			}
			p.bvals = append(p.bvals, v)
		}
		d := nd - 1
		for ; d >= 0; d-- {
			pos[d]++
			if pos[d] < len(p.kept[d]) {
				break
			}
			pos[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

func (p *printer) accessorMissing() bool {
	switch p.t.Kind {
	case Float:
		return p.t.Float == nil
	case Int:
		return p.t.Int == nil
	default:
		return p.t.Bool == nil
	}
}

// initFormatter is _Formatter.__init__.
func (p *printer) initFormatter() {
	p.intMode, p.sciMode, p.maxWidth = true, false, 1
	if p.accessorMissing() {
		return
	}
	switch p.t.Kind {
	case Int:
		for _, v := range p.ivals {
			p.maxWidth = max(p.maxWidth, len(strconv.FormatInt(v, 10)))
		}
		return
	case Bool:
		for _, v := range p.bvals {
			p.maxWidth = max(p.maxWidth, len(boolString(v)))
		}
		return
	}
	var lo, hi float64
	seen := false
	for _, v := range p.fvals {
		if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		a := math.Abs(v)
		if !seen {
			lo, hi, seen = a, a, true
		} else {
			lo, hi = min(lo, a), max(hi, a)
		}
		if v != math.Ceil(v) {
			p.intMode = false
		}
	}
	if !seen {
		return // no finite non-zero value: int mode, width 1, sci_mode ignored
	}
	prec := p.o.Precision
	each := func(f func(v float64) int) {
		for _, v := range p.fvals {
			if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			p.maxWidth = max(p.maxWidth, f(v))
		}
	}
	if p.intMode {
		if hi/lo > 1000 || hi > 1e8 {
			p.sciMode = true
			each(func(v float64) int { return len(doubleToString(v, 'e', prec, floatFlags{})) })
		} else {
			each(func(v float64) int { return len(doubleToString(v, 'f', 0, floatFlags{})) + 1 })
		}
	} else {
		if hi/lo > 1000 || hi > 1e8 || lo < 1e-4 {
			p.sciMode = true
			each(func(v float64) int { return len(doubleToString(v, 'e', prec, floatFlags{})) })
		} else {
			each(func(v float64) int { return len(doubleToString(v, 'f', prec, floatFlags{})) })
		}
	}
	switch p.o.SciMode {
	case SciOn:
		p.sciMode = true
	case SciOff:
		p.sciMode = false
	}
}

func boolString(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

// format is _Formatter.format applied to the next gathered element.
func (p *printer) format() string {
	i := p.next
	p.next++
	var s string
	switch {
	case p.accessorMissing():
		s = "?"
	case p.t.Kind == Int:
		s = strconv.FormatInt(p.ivals[i], 10)
	case p.t.Kind == Bool:
		s = boolString(p.bvals[i])
	default:
		v := p.fvals[i]
		switch {
		case p.sciMode:
			s = doubleToString(v, 'e', p.o.Precision, floatFlags{})
		case p.intMode:
			s = doubleToString(v, 'f', 0, floatFlags{})
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				s += "."
			}
		default:
			s = doubleToString(v, 'f', p.o.Precision, floatFlags{})
		}
	}
	if n := len(s); n < p.maxWidth {
		s = strings.Repeat(" ", p.maxWidth-n) + s
	}
	return s
}

// tensorStr is _tensor_str_with_formatter for the next sub-tensor at
// dimension level (0 = outermost), consuming its gathered elements.
func (p *printer) tensorStr(level, indent int) string {
	dim := len(p.t.Shape) - level
	if dim == 0 {
		return p.format()
	}
	if dim == 1 {
		return p.vectorStr(level, indent)
	}
	var slices []string
	n, e := p.t.Shape[level], p.o.EdgeItems
	summarized := p.summarize && n > 2*e
	for j := range p.kept[level] {
		if summarized && j == e {
			slices = append(slices, "...")
		}
		slices = append(slices, p.tensorStr(level+1, indent+1))
	}
	if summarized && len(p.kept[level]) == e {
		slices = append(slices, "...") // e == 0: nothing kept around it
	}
	sep := "," + strings.Repeat("\n", dim-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(slices, sep) + "]"
}

// vectorStr is _vector_str.
func (p *printer) vectorStr(level, indent int) string {
	elemLen := p.maxWidth + 2
	perLine := max(1, int(math.Floor(float64(p.o.LineWidth-indent)/float64(elemLen))))
	n, e := p.t.Shape[level], p.o.EdgeItems
	summarized := p.summarize && n > 2*e
	kept := p.kept[level]
	data := make([]string, 0, len(kept)+1)
	for j := range kept {
		if summarized && j == e {
			data = append(data, " ...")
		}
		data = append(data, p.format())
	}
	var b strings.Builder
	b.WriteByte('[')
	lineSep := ",\n" + strings.Repeat(" ", indent+1)
	for i := 0; i < len(data); i += perLine {
		if i > 0 {
			b.WriteString(lineSep)
		}
		b.WriteString(strings.Join(data[i:min(i+perLine, len(data))], ", "))
	}
	b.WriteByte(']')
	return b.String()
}
