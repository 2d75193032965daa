package stdlib

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // registers the png format
	_ "gonum.org/v1/plot/vg/vgsvg" // registers the svg format

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Module plot: line, heatmap, hist and spectrum, drawn with gonum.org/v1/plot
// and written as PNG (96 dpi raster) or SVG (vector) by the extension of
// path, atomically and through the thread's FSPolicy. Every function
// returns none. Common keywords: path (required; also accepted as the last
// positional argument, since no data argument is a string), title, xlabel,
// ylabel, figsize=(width, height) in inches (default (6, 4)).

func init() {
	registerModule("plot", "Plots written to PNG or SVG files: line, heatmap, hist, spectrum.", map[string]runtime.Value{
		"line": moduleFunc("plot", "line", `plot.line(ys, path) or plot.line(xs, ys, path), title=, xlabel=, ylabel=, labels=none, logy=false, figsize=(6, 4):
a line plot. ys is 1-D [N] (one line) or 2-D [N, K] (K lines, one per column,
named by labels=); xs defaults to 0..N-1. Values are tensors or lists of numbers.`, plotLine),
		"heatmap": moduleFunc("plot", "heatmap", `plot.heatmap(matrix, path, title=, xlabel=, ylabel=, cmap="kindlmann", figsize=(6, 4)):
a 2-D tensor [rows, cols] as colored cells, row 0 at the top (like an image),
with a color bar. cmap: "kindlmann", "blackbody", "gray" or "bluered" (diverging).`, plotHeatmap),
		"hist": moduleFunc("plot", "hist", `plot.hist(values, path, bins=10, title=, xlabel=, ylabel="count", figsize=(6, 4)):
a histogram of all elements of values in bins equal-width bins.`, plotHist),
		"spectrum": moduleFunc("plot", "spectrum", `plot.spectrum(singular_values, path, title=, figsize=(9, 4)):
two panels for a 1-D tensor of singular values (descending, e.g. linalg.svdvals(A)):
sigma_i against rank i on a log scale (zeros are left out), and the retained
energy sum(sigma_1..k^2) / sum(sigma^2) against rank k.`, plotSpectrum),
	})
}

// plotOpts are the keywords every plot function takes.
type plotOpts struct {
	path, title, xlabel, ylabel string
	figsize                     runtime.Value
	w, h                        vg.Length
}

// pathArg takes the output path when it was passed positionally: a string
// as the last of two or more positional arguments (plot.line(ys, "p.png"),
// plot.line(xs, ys, "p.png"), plot.hist(v, "h.svg")). No data argument of a
// plot function is a string, so this is unambiguous. It returns the
// remaining positional arguments; o.path is set. Passing path both ways is
// a TypeError.
func (o *plotOpts) pathArg(fname string, args []runtime.Value, kwargs []runtime.Kwarg) ([]runtime.Value, error) {
	n := len(args)
	if n < 2 {
		return args, nil
	}
	p, ok := args[n-1].(runtime.String)
	if !ok {
		return args, nil
	}
	for _, kw := range kwargs {
		if kw.Name == "path" {
			return nil, runtime.Errorf("TypeError", "%s() got multiple values for argument 'path'", fname)
		}
	}
	o.path = string(p)
	return args[:n-1], nil
}

// pairs returns the UnpackArgs pairs of the common keywords.
func (o *plotOpts) pairs() []any {
	return []any{"path?", &o.path, "title?", &o.title, "xlabel?", &o.xlabel, "ylabel?", &o.ylabel, "figsize?", &o.figsize}
}

// finish validates the common keywords; defW/defH are the default size in
// inches.
func (o *plotOpts) finish(fname string, defW, defH float64) error {
	if o.path == "" {
		return runtime.Errorf("TypeError", "%s() missing required argument 'path' (the .png or .svg file to write), e.g. %s(..., \"plot.png\") or path=\"plot.png\"", fname, fname)
	}
	if _, err := plotFormat(fname, o.path); err != nil {
		return err
	}
	w, h := defW, defH
	if o.figsize != nil && o.figsize != runtime.None {
		elems, err := runtime.Elements(o.figsize)
		if err != nil || len(elems) != 2 {
			return runtime.Errorf("TypeError", "%s: figsize must be (width, height) in inches", fname)
		}
		var ok1, ok2 bool
		w, ok1 = runtime.AsFloat(elems[0])
		h, ok2 = runtime.AsFloat(elems[1])
		if !ok1 || !ok2 {
			return runtime.Errorf("TypeError", "%s: figsize must be (width, height) in inches", fname)
		}
	}
	if !(w > 0 && h > 0 && w <= 100 && h <= 100) {
		return runtime.Errorf("ValueError", "%s: figsize must be between 0 and 100 inches, got (%g, %g)", fname, w, h)
	}
	o.w, o.h = vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch
	return nil
}

// newPlot makes a plot with the title and axis labels of o.
func (o *plotOpts) newPlot() *plot.Plot {
	p := plot.New()
	p.Title.Text = o.title
	p.X.Label.Text = o.xlabel
	p.Y.Label.Text = o.ylabel
	return p
}

// plotFormat returns "png" or "svg" from path's extension.
func plotFormat(fname, path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png", nil
	case ".svg":
		return "svg", nil
	}
	return "", runtime.Errorf("ValueError", "%s: cannot tell the image format of '%s': use a .png or .svg file name", fname, path)
}

// render draws with draw (on a canvas of o's size) and writes the result
// to o.path atomically.
func (o *plotOpts) render(th *runtime.Thread, fname string, drawFn func(dc draw.Canvas)) (err error) {
	format, err := plotFormat(fname, o.path)
	if err != nil {
		return err
	}
	abs, err := checkPath(th, fname, o.path, true)
	if err != nil {
		return err
	}
	// gonum/plot reports some impossible inputs by panicking; the inputs
	// are checked before, so a panic here is a bug, reported as an error.
	defer func() {
		if r := recover(); r != nil {
			err = runtime.Errorf("RuntimeError", "%s: drawing failed: %v", fname, r)
		}
	}()
	c, err := draw.NewFormattedCanvas(o.w, o.h, format)
	if err != nil {
		return runtime.Errorf("ValueError", "%s: %v", fname, err)
	}
	drawFn(draw.New(c))
	if err := writeAtomic(abs, func(w io.Writer) error { _, err := c.WriteTo(w); return err }); err != nil {
		return ioError(fname, o.path, err)
	}
	return nil
}

// writeAtomic writes the output of write to a temporary file next to path,
// fsyncs it and renames it over path; on error path is left untouched.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return &fs.PathError{Op: "write", Path: path, Err: fmt.Errorf("not a regular file")}
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// plotData converts a tensor or a (nested) list of numbers to a tensor.
func plotData(th *runtime.Thread, fname, what string, v runtime.Value) (*tensor.Tensor, error) {
	if t, ok := v.(*TensorValue); ok {
		return t.t, nil
	}
	switch v.(type) {
	case *runtime.List, runtime.Tuple:
		r, err := globals["tensor"].(*runtime.Builtin).Call(th, []runtime.Value{v}, nil)
		if err != nil {
			return nil, err
		}
		if t, ok := r.(*TensorValue); ok {
			return t.t, nil
		}
	}
	return nil, runtime.Errorf("TypeError", "%s: %s must be a tensor or a list of numbers, not %s", fname, what, v.Type())
}

// checkFinite rejects NaN and infinite values, which gonum/plot cannot place.
func checkFinite(fname, what string, vals []float64) error {
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return runtime.Errorf("ValueError", "%s: %s has a non-finite value (%v) at flat index %d", fname, what, v, i)
		}
	}
	return nil
}

func plotLine(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const fname = "plot.line"
	var (
		o             plotOpts
		a0, a1        runtime.Value
		labels        runtime.Value = runtime.None
		logy          bool
		xsv, ysv      runtime.Value
		xs, ys        *tensor.Tensor
		err           error
		labelNames    []string
		nlines, npnts int
	)
	pairs := append([]any{"xs_or_ys", &a0, "ys?", &a1}, o.pairs()...)
	pairs = append(pairs, "labels?", &labels, "logy?", &logy)
	if args, err = o.pathArg(fname, args, kwargs); err != nil {
		return nil, err
	}
	if err := runtime.UnpackArgs(fname, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if err := o.finish(fname, 6, 4); err != nil {
		return nil, err
	}
	if a1 != nil && a1 != runtime.None {
		xsv, ysv = a0, a1
	} else {
		ysv = a0
	}
	if ys, err = plotData(th, fname, "ys", ysv); err != nil {
		return nil, err
	}
	switch ys.Dim() {
	case 1:
		npnts, nlines = ys.Shape()[0], 1
	case 2:
		npnts, nlines = ys.Shape()[0], ys.Shape()[1]
	default:
		return nil, runtime.Errorf("ValueError", "%s: ys must be 1-D [N] or 2-D [N, K], got shape %s", fname, intList(ys.Shape()))
	}
	yv := ys.ToFloat64s()
	if err := checkFinite(fname, "ys", yv); err != nil {
		return nil, err
	}
	xv := make([]float64, npnts)
	if xsv != nil {
		if xs, err = plotData(th, fname, "xs", xsv); err != nil {
			return nil, err
		}
		if xs.Dim() != 1 || xs.Shape()[0] != npnts {
			return nil, runtime.Errorf("ValueError", "%s: xs must be 1-D with %d elements (one per row of ys), got shape %s", fname, npnts, intList(xs.Shape()))
		}
		xv = xs.ToFloat64s()
		if err := checkFinite(fname, "xs", xv); err != nil {
			return nil, err
		}
	} else {
		for i := range xv {
			xv[i] = float64(i)
		}
	}
	if labels != runtime.None {
		elems, err := runtime.Elements(labels)
		if err != nil || len(elems) != nlines {
			return nil, runtime.Errorf("ValueError", "%s: labels must be a list of %d strings (one per line)", fname, nlines)
		}
		for _, e := range elems {
			s, ok := e.(runtime.String)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s: labels must be strings, not %s", fname, e.Type())
			}
			labelNames = append(labelNames, string(s))
		}
	}
	if logy {
		for i, v := range yv {
			if v <= 0 {
				return nil, runtime.Errorf("ValueError", "%s: logy=true needs positive values, ys has %v at flat index %d", fname, v, i)
			}
		}
	}
	p := o.newPlot()
	if logy {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for k := 0; k < nlines; k++ {
		pts := make(plotter.XYs, npnts)
		for i := range pts {
			pts[i].X = xv[i]
			pts[i].Y = yv[i*nlines+k]
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, runtime.Errorf("ValueError", "%s: %v", fname, err)
		}
		l.Color = seriesColor(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		if labelNames != nil {
			p.Legend.Add(labelNames[k], l)
		}
	}
	if labelNames != nil {
		p.Legend.Top = true
	}
	p.Add(plotter.NewGrid())
	return runtime.None, o.render(th, fname, p.Draw)
}

// seriesColor is the k-th color of the default cycle (matplotlib's tab10).
func seriesColor(k int) color.Color {
	tab10 := [...]uint32{0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf}
	c := tab10[k%len(tab10)]
	return color.RGBA{R: uint8(c >> 16), G: uint8(c >> 8), B: uint8(c), A: 255}
}

// grid is a [rows, cols] matrix seen by gonum/plot's heat map, flipped so
// that row 0 is drawn at the top.
type grid struct {
	v          []float64
	rows, cols int
}

func (g grid) Dims() (c, r int)   { return g.cols, g.rows }
func (g grid) Z(c, r int) float64 { return g.v[(g.rows-1-r)*g.cols+c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// cellTicks puts integer ticks on the cell centres of a heat map axis of n
// cells (at most about 8 labelled ones); flip numbers them from the far end
// (the y axis, where row 0 is drawn at the top).
type cellTicks struct {
	n    int
	flip bool
}

func (c cellTicks) Ticks(min, max float64) []plot.Tick {
	// Label steps 1, 2, 5, 10, 20, 50, ... with at most 8 labels.
	step, mant := 1, 1
	for c.n/step > 8 {
		switch mant {
		case 1:
			step, mant = step*2, 2
		case 2:
			step, mant = step/2*5, 5
		default:
			step, mant = step*2, 1
		}
	}
	var ticks []plot.Tick
	for i := 0; i < c.n; i++ {
		label := ""
		if i%step == 0 {
			label = strconv.Itoa(i)
		} else if step > 5 {
			continue // unlabelled ticks only when every cell gets one
		}
		pos := i
		if c.flip {
			pos = c.n - 1 - i
		}
		ticks = append(ticks, plot.Tick{Value: float64(pos), Label: label})
	}
	return ticks
}

// colorMap returns the named color map.
func colorMap(fname, name string) (palette.ColorMap, error) {
	switch name {
	case "kindlmann", "":
		return moreland.Kindlmann(), nil
	case "blackbody":
		return moreland.BlackBody(), nil
	case "bluered":
		return moreland.SmoothBlueRed(), nil
	case "gray", "grey":
		return moreland.NewLuminance([]color.Color{color.Gray{Y: 0}, color.Gray{Y: 255}})
	}
	return nil, runtime.Errorf("ValueError", "%s: unknown cmap %q (use kindlmann, blackbody, gray or bluered)", fname, name)
}

func plotHeatmap(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const fname = "plot.heatmap"
	var (
		o    plotOpts
		mv   runtime.Value
		cmap = "kindlmann"
	)
	pairs := append([]any{"matrix", &mv}, o.pairs()...)
	pairs = append(pairs, "cmap?", &cmap)
	args, perr := o.pathArg(fname, args, kwargs)
	if perr != nil {
		return nil, perr
	}
	if err := runtime.UnpackArgs(fname, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if err := o.finish(fname, 6, 4); err != nil {
		return nil, err
	}
	m, err := plotData(th, fname, "matrix", mv)
	if err != nil {
		return nil, err
	}
	if m.Dim() != 2 || m.Numel() == 0 {
		return nil, runtime.Errorf("ValueError", "%s: matrix must be 2-D and non-empty, got shape %s", fname, intList(m.Shape()))
	}
	cm, err := colorMap(fname, cmap)
	if err != nil {
		return nil, err
	}
	g := grid{v: m.ToFloat64s(), rows: m.Shape()[0], cols: m.Shape()[1]}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range g.v {
		if math.IsNaN(v) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, runtime.Errorf("ValueError", "%s: matrix must have finite values (NaN cells are drawn blank, but not all of them)", fname)
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	hm := plotter.NewHeatMap(g, cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	// Small matrices are drawn cell by cell (sharp edges); large ones as one
	// raster image, where cells are at most a few pixels anyway.
	hm.Rasterized = g.rows*g.cols > 128*128
	hm.NaN = color.Transparent
	p := o.newPlot()
	p.Add(hm)
	p.X.Tick.Marker = cellTicks{n: g.cols}
	p.Y.Tick.Marker = cellTicks{n: g.rows, flip: true}
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Padding = 0
	bar.Title.Text = " "
	return runtime.None, o.render(th, fname, func(dc draw.Canvas) {
		w := dc.Max.X - dc.Min.X
		p.Draw(draw.Crop(dc, 0, -w*0.16, 0, 0))
		bar.Draw(draw.Crop(dc, w*0.86, 0, 0, 0))
	})
}

func plotHist(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const fname = "plot.hist"
	var (
		o    plotOpts
		vv   runtime.Value
		bins = 10
	)
	o.ylabel = "count"
	pairs := append([]any{"values", &vv, "bins?", &bins}, o.pairs()...)
	args, perr := o.pathArg(fname, args, kwargs)
	if perr != nil {
		return nil, perr
	}
	if err := runtime.UnpackArgs(fname, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if err := o.finish(fname, 6, 4); err != nil {
		return nil, err
	}
	if bins < 1 || bins > 100000 {
		return nil, runtime.Errorf("ValueError", "%s: bins must be in 1..100000, got %d", fname, bins)
	}
	t, err := plotData(th, fname, "values", vv)
	if err != nil {
		return nil, err
	}
	if t.Numel() == 0 {
		return nil, runtime.Errorf("ValueError", "%s: values is empty", fname)
	}
	vals := t.ToFloat64s()
	if err := checkFinite(fname, "values", vals); err != nil {
		return nil, err
	}
	h, err := plotter.NewHist(plotter.Values(vals), bins)
	if err != nil {
		return nil, runtime.Errorf("ValueError", "%s: %v", fname, err)
	}
	h.FillColor = seriesColor(0)
	p := o.newPlot()
	p.Add(h)
	return runtime.None, o.render(th, fname, p.Draw)
}

func plotSpectrum(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const fname = "plot.spectrum"
	var (
		o  plotOpts
		sv runtime.Value
	)
	pairs := append([]any{"singular_values", &sv}, o.pairs()...)
	args, perr := o.pathArg(fname, args, kwargs)
	if perr != nil {
		return nil, perr
	}
	if err := runtime.UnpackArgs(fname, args, kwargs, pairs...); err != nil {
		return nil, err
	}
	if err := o.finish(fname, 9, 4); err != nil {
		return nil, err
	}
	t, err := plotData(th, fname, "singular_values", sv)
	if err != nil {
		return nil, err
	}
	if t.Dim() != 1 || t.Numel() == 0 {
		return nil, runtime.Errorf("ValueError", "%s: singular_values must be 1-D and non-empty, got shape %s", fname, intList(t.Shape()))
	}
	s := t.ToFloat64s()
	if err := checkFinite(fname, "singular_values", s); err != nil {
		return nil, err
	}
	total := 0.0
	for i, v := range s {
		if v < 0 {
			return nil, runtime.Errorf("ValueError", "%s: singular values must be non-negative, got %v at index %d", fname, v, i)
		}
		total += v * v
	}
	var sig, energy plotter.XYs
	acc := 0.0
	for i, v := range s {
		acc += v * v
		if v > 0 {
			sig = append(sig, plotter.XY{X: float64(i + 1), Y: v})
		}
		e := 0.0
		if total > 0 {
			e = acc / total
		}
		energy = append(energy, plotter.XY{X: float64(i + 1), Y: e})
	}
	left := plot.New()
	left.Title.Text = "singular values"
	left.X.Label.Text = "rank i"
	left.Y.Label.Text = "σ_i"
	if len(sig) > 0 {
		lo, hi := sig[0].Y, sig[0].Y
		for _, p := range sig {
			lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		}
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		left.Y.Min, left.Y.Max = lo, hi
		left.Y.Scale = plot.LogScale{}
		left.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		l, err := plotter.NewLine(sig)
		if err != nil {
			return nil, runtime.Errorf("ValueError", "%s: %v", fname, err)
		}
		l.Color = seriesColor(0)
		left.Add(l)
	}
	left.Add(plotter.NewGrid())
	right := plot.New()
	right.Title.Text = "retained energy"
	right.X.Label.Text = "rank k"
	right.Y.Label.Text = "Σσ²(≤k) / Σσ²"
	right.Y.Min, right.Y.Max = 0, 1
	l, err := plotter.NewLine(energy)
	if err != nil {
		return nil, runtime.Errorf("ValueError", "%s: %v", fname, err)
	}
	l.Color = seriesColor(1)
	right.Add(l, plotter.NewGrid())
	return runtime.None, o.render(th, fname, func(dc draw.Canvas) {
		top := dc
		if o.title != "" {
			// A figure title above both panels.
			h := dc.Max.Y - dc.Min.Y
			title := plot.New()
			title.Title.Text = o.title
			title.HideAxes()
			title.Draw(draw.Crop(dc, 0, 0, h-vg.Points(22), 0))
			top = draw.Crop(dc, 0, 0, 0, -vg.Points(22))
		}
		tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Points(12)}
		cs := plot.Align([][]*plot.Plot{{left, right}}, tiles, top)
		left.Draw(cs[0][0])
		right.Draw(cs[0][1])
	})
}
