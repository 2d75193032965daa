package stdlib

import (
	"fmt"
	"math"
	"strings"

	"github.com/tsrlang/tsr/backends/cpu"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Resampling along the trailing dims of torch.nn.functional (PyTorch
// 1.13): interpolate (modes nearest, nearest-exact, linear, bilinear,
// trilinear and area), the deprecated upsample, upsample_nearest and
// upsample_bilinear, and pad's non-constant modes reflect, replicate and
// circular.
//
// All of them are separable: each output index along one dim reads one
// input index (nearest, pads) or two with weights (linear), so an op is a
// list of per-dim maps (axisMap) applied from the last dim to the first,
// which is the order of ATen's generic upsample kernel (for bilinear,
// h0λ·(w0λ·x00 + w1λ·x01) + h1λ·(w0λ·x10 + w1λ·x11)). Arithmetic is done in
// float64 and rounded to the input's dtype after every operation, as the
// kernels' scalar_t arithmetic (f32, bf16) rounds, weights included. The
// backward applies the transposed maps (scatter-adds) in reverse order.

// axisMap maps output index j along dim to input index idx0[j] (weight
// w0[j]) plus idx1[j] (weight w1[j]); w0 nil means a plain copy of idx0.
//
// A cubic map (taps != nil, bicubic) maps output j to the four inputs
// taps[0..3][j] with weights tw[0..3][j]; idx0 then holds taps[0] (only
// its length, the output size, is read).
type axisMap struct {
	dim        int
	idx0, idx1 []int
	w0, w1     []float64
	taps       *[4][]int
	tw         *[4][]float64
}

// applyAxisMaps computes the maps' forward on x's values (row-major)
// and returns the values and the output shape. rd rounds to the dtype.
func applyAxisMaps(vals []float64, shape []int, maps []axisMap, rd func(float64) float64) ([]float64, []int) {
	shape = append([]int(nil), shape...)
	for _, m := range maps {
		outer, inner := numelOf(shape[:m.dim]), numelOf(shape[m.dim+1:])
		n, on := shape[m.dim], len(m.idx0)
		out := make([]float64, outer*on*inner)
		for o := 0; o < outer; o++ {
			src := vals[o*n*inner : (o+1)*n*inner]
			dst := out[o*on*inner : (o+1)*on*inner]
			for j := 0; j < on; j++ {
				d := dst[j*inner : (j+1)*inner]
				if m.taps != nil {
					// x0*w0 + x1*w1 + x2*w2 + x3*w3, left to right
					for k := range d {
						acc := 0.0
						for q := 0; q < 4; q++ {
							i := m.taps[q][j]
							if p := rd(src[i*inner+k] * m.tw[q][j]); q == 0 {
								acc = p
							} else {
								acc = rd(acc + p)
							}
						}
						d[k] = acc
					}
					continue
				}
				a := src[m.idx0[j]*inner : (m.idx0[j]+1)*inner]
				if m.w0 == nil {
					copy(d, a)
					continue
				}
				b := src[m.idx1[j]*inner : (m.idx1[j]+1)*inner]
				w0, w1 := m.w0[j], m.w1[j]
				for k := range d {
					d[k] = rd(rd(a[k]*w0) + rd(b[k]*w1))
				}
			}
		}
		vals = out
		shape[m.dim] = on
	}
	return vals, shape
}

// transposeAxisMaps is the backward of applyAxisMaps: the output gradient
// g (of shape outShape) scattered back through the maps in reverse
// order, summed in float64.
func transposeAxisMaps(g []float64, outShape []int, inShape []int, maps []axisMap) []float64 {
	shape := append([]int(nil), outShape...)
	for mi := len(maps) - 1; mi >= 0; mi-- {
		m := maps[mi]
		// the size along m.dim before this map: the input's for the first
		// map, else unchanged by the maps applied before it
		n := inShape[m.dim]
		outer, inner := numelOf(shape[:m.dim]), numelOf(shape[m.dim+1:])
		on := shape[m.dim]
		out := make([]float64, outer*n*inner)
		for o := 0; o < outer; o++ {
			src := g[o*on*inner : (o+1)*on*inner]
			dst := out[o*n*inner : (o+1)*n*inner]
			for j := 0; j < on; j++ {
				s := src[j*inner : (j+1)*inner]
				if m.taps != nil {
					for q := 0; q < 4; q++ {
						a := dst[m.taps[q][j]*inner : (m.taps[q][j]+1)*inner]
						w := m.tw[q][j]
						for k, v := range s {
							a[k] += v * w
						}
					}
					continue
				}
				a := dst[m.idx0[j]*inner : (m.idx0[j]+1)*inner]
				if m.w0 == nil {
					for k, v := range s {
						a[k] += v
					}
					continue
				}
				b := dst[m.idx1[j]*inner : (m.idx1[j]+1)*inner]
				w0, w1 := m.w0[j], m.w1[j]
				for k, v := range s {
					a[k] += v * w0
					b[k] += v * w1
				}
			}
		}
		g = out
		shape[m.dim] = n
	}
	return g
}

// applyAxisMapsTyped is applyAxisMaps in the dtype's own arithmetic
// (float32 or float64; each product converted explicitly, so no fused
// multiply-add): the same results without the float64 round trips. The
// last map writes into dst.
func applyAxisMapsTyped[F float32 | float64](vals []F, shape []int, maps []axisMap, dst []F) {
	shape = append([]int(nil), shape...)
	nd := len(shape)
	if len(maps) >= 2 && maps[0].dim == nd-1 && maps[1].dim == nd-2 && maps[0].taps == nil && maps[1].taps == nil {
		// the last dim's map, then the one before, in one pass
		// (applyRowsColsTyped), then the others
		out := dst
		if len(maps) > 2 {
			sh := append([]int(nil), shape...)
			sh[nd-1], sh[nd-2] = len(maps[0].idx0), len(maps[1].idx0)
			out = make([]F, numelOf(sh))
			defer func() { applyAxisMapsTyped(out, sh, maps[2:], dst) }()
		}
		applyRowsColsTyped(vals, shape, maps[0], maps[1], out)
		return
	}
	for mi, m := range maps {
		outer, inner := numelOf(shape[:m.dim]), numelOf(shape[m.dim+1:])
		n, on := shape[m.dim], len(m.idx0)
		var out []F
		if mi == len(maps)-1 {
			out = dst
		} else {
			out = make([]F, outer*on*inner)
		}
		for o := 0; o < outer; o++ {
			src := vals[o*n*inner : (o+1)*n*inner]
			dsto := out[o*on*inner : (o+1)*on*inner]
			if m.taps != nil {
				cubicAxisTyped(src, dsto, inner, m)
				continue
			}
			if inner == 1 && m.w0 == nil { // a gather along the last dim
				for j, i := range m.idx0 {
					dsto[j] = src[i]
				}
				continue
			}
			if inner == 1 { // linear along the last dim
				for j := range dsto {
					dsto[j] = F(src[m.idx0[j]]*F(m.w0[j])) + F(src[m.idx1[j]]*F(m.w1[j]))
				}
				continue
			}
			for j := 0; j < on; j++ {
				d := dsto[j*inner : (j+1)*inner]
				a := src[m.idx0[j]*inner : (m.idx0[j]+1)*inner]
				if m.w0 == nil {
					copy(d, a)
					continue
				}
				b := src[m.idx1[j]*inner : (m.idx1[j]+1)*inner]
				w0, w1 := F(m.w0[j]), F(m.w1[j])
				b = b[:len(a)]
				d = d[:len(a)]
				for k := range a {
					d[k] = F(a[k]*w0) + F(b[k]*w1)
				}
			}
		}
		vals = out
		shape[m.dim] = on
	}
}

// cubicAxisTyped applies a cubic map to one outer slice:
// x0*w0 + x1*w1 + x2*w2 + x3*w3 (ATen's cubic_interp1d) summed in float64
// and rounded once to the dtype, one axis after the other (width first).
func cubicAxisTyped[F float32 | float64](src, dst []F, inner int, m axisMap) {
	t0, t1, t2, t3 := m.taps[0], m.taps[1], m.taps[2], m.taps[3]
	w0, w1, w2, w3 := m.tw[0], m.tw[1], m.tw[2], m.tw[3]
	for j := range t0 {
		a, b, c, d := src[t0[j]*inner:], src[t1[j]*inner:], src[t2[j]*inner:], src[t3[j]*inner:]
		x0, x1, x2, x3 := F(w0[j]), F(w1[j]), F(w2[j]), F(w3[j])
		out := dst[j*inner : (j+1)*inner]
		for k := range out {
			acc := float64(a[k])*float64(x0) + float64(b[k])*float64(x1) + float64(c[k])*float64(x2) + float64(d[k])*float64(x3)
			out[k] = F(acc)
		}
	}
}

// cubicMap gives the taps and weights of PyTorch 1.13's bicubic
// upsampling along one dim (upsample_bicubic2d, compute_indices_weights_cubic): scale as linearMap's;
// source x = scale*j (align_corners) or scale*(j+0.5)-0.5 (not clamped:
// cubic); i = floor(x) (floorf, through float32), t = x - i; taps
// i-1..i+2 clamped to [0, n-1] (upsample_get_value_bounded: the border is
// replicated); weights Keys' cubic convolution with A = -0.75: W2(t+1),
// W1(t), W1(1-t), W2(2-t), W1(x) = ((A+2)x - (A+3))x^2 + 1 on [0, 1],
// W2(x) = ((Ax - 5A)x + 8A)x - 4A on [1, 2]. Source indices are
// computed in float32 for f32 and bf16 (opmath) and in float64 for f64;
// the weights in float64, then rounded to the input's dtype. In f32 the
// results are within 5 ulps (of the largest value) of PyTorch 1.13's,
// whose compiled kernel rounds differently; in f64 they agree to 1e-12.
func cubicMap(n, on int, scale *float64, align bool, dt tensor.DType) axisMap {
	op := func(v float64) float64 { return float64(float32(v)) }
	if dt == tensor.F64 {
		op = func(v float64) float64 { return v }
	}
	var s float64
	switch {
	case align && on > 1:
		s = op(op(float64(n-1)) / float64(on-1))
	case align:
		s = 0
	case scale != nil && *scale > 0:
		s = op(1.0 / *scale)
	default:
		s = op(op(float64(n)) / float64(on))
	}
	const A = -0.75
	w1 := func(x float64) float64 { return ((A+2)*x-(A+3))*x*x + 1 }
	w2 := func(x float64) float64 { return ((A*x-5*A)*x+8*A)*x - 4*A }
	var taps [4][]int
	var tw [4][]float64
	for q := range taps {
		taps[q], tw[q] = make([]int, on), make([]float64, on)
	}
	for j := 0; j < on; j++ {
		var src float64
		if align {
			src = op(s * op(float64(j)))
		} else {
			src = op(s*(float64(j)+0.5) - 0.5)
		}
		i := int(math.Floor(float64(float32(src))))
		t := op(src - float64(i))
		w := [4]float64{w2(op(t + 1)), w1(t), w1(op(1 - t)), w2(op(op(1-t) + 1))}
		for q := 0; q < 4; q++ {
			taps[q][j] = min(max(i-1+q, 0), n-1)
			tw[q][j] = tensor.RoundToDType(w[q], dt)
		}
	}
	return axisMap{idx0: taps[0], taps: &taps, tw: &tw}
}

// applyRowsColsTyped is applyAxisMapsTyped for two maps, mw along the
// last dim and then mh along the one before, without the intermediate
// tensor: each output row is mh's blend of the mw-mapped source rows
// (each mapped once into a two-row cache, as mh's sources never go
// back), with the same float operations as the two-pass walk; a nearest
// mh maps its source row straight into the output and copies the previous
// output row when the source repeats. Planes split over GetNumThreads
// goroutines.
func applyRowsColsTyped[F float32 | float64](vals []F, shape []int, mw, mh axisMap, dst []F) {
	nd := len(shape)
	planes := numelOf(shape[:nd-2])
	h, w := shape[nd-2], shape[nd-1]
	oh, ow := len(mh.idx0), len(mw.idx0)
	if planes == 0 || oh == 0 || ow == 0 {
		return
	}
	// mw's weights in F, converted once (F(w) as the per-map pass uses them)
	var w0s, w1s []F
	if mw.w0 != nil {
		w0s, w1s = make([]F, ow), make([]F, ow)
		for k := range w0s {
			w0s[k], w1s[k] = F(mw.w0[k]), F(mw.w1[k])
		}
	}
	rowMap := func(d, r []F) {
		i0 := mw.idx0[:len(d)]
		if mw.w0 == nil {
			for k, i := range i0 {
				d[k] = r[i]
			}
			return
		}
		i1, a, b := mw.idx1[:len(d)], w0s[:len(d)], w1s[:len(d)]
		for k, i := range i0 {
			d[k] = F(r[i]*a[k]) + F(r[i1[k]]*b[k])
		}
	}
	work := func(p0, p1 int) {
		var cache [2][]F
		var cached [2]int
		var tmp []F
		if mh.w0 != nil {
			cache = [2][]F{make([]F, ow), make([]F, ow)}
			tmp = make([]F, ow)
		}
		for p := p0; p < p1; p++ {
			src := vals[p*h*w : (p+1)*h*w]
			out := dst[p*oh*ow : (p+1)*oh*ow]
			cached = [2]int{-1, -1}
			row := func(i int) []F { // mw applied to source row i, cached
				for c := range cached {
					if cached[c] == i {
						return cache[c]
					}
				}
				c := 0
				if cached[0] > cached[1] {
					c = 1 // replace the older (lower) source row
				}
				cached[c] = i
				rowMap(cache[c], src[i*w:(i+1)*w])
				return cache[c]
			}
			for j := 0; j < oh; j++ {
				d := out[j*ow : (j+1)*ow]
				if mh.w0 == nil {
					if j > 0 && mh.idx0[j] == mh.idx0[j-1] {
						copy(d, out[(j-1)*ow:j*ow])
					} else {
						rowMap(d, src[mh.idx0[j]*w:(mh.idx0[j]+1)*w])
					}
					continue
				}
				blendRows(d, row(mh.idx0[j]), row(mh.idx1[j]), tmp, F(mh.w0[j]), F(mh.w1[j]))
			}
		}
	}
	k := min(tensor.GetNumThreads(), planes, max(1, planes*oh*ow/(1<<16)))
	if k <= 1 {
		work(0, planes)
		return
	}
	cpu.ParallelFor(k, func(i int) { work(planes*i/k, planes*(i+1)/k) })
}

// blendRows sets d = F(a·w0) + F(b·w1) elementwise (two rounded products,
// then their rounded sum: no FMA) with the vector kernels, tmp a scratch
// row of d's length.
func blendRows[F float32 | float64](d, a, b, tmp []F, w0, w1 F) {
	switch dd := any(d).(type) {
	case []float32:
		t := any(tmp).([]float32)
		cpu.MulScalarF32(dd, any(a).([]float32), float32(w0))
		cpu.MulScalarF32(t, any(b).([]float32), float32(w1))
		cpu.AddF32(dd, dd, t)
	case []float64:
		t := any(tmp).([]float64)
		cpu.MulScalarF64(dd, any(a).([]float64), float64(w0))
		cpu.MulScalarF64(t, any(b).([]float64), float64(w1))
		cpu.AddF64(dd, dd, t)
	}
}

// axisMapOp records the maps as one node named name (PyTorch's grad_fn
// name) whose backward is transposeAxisMaps.
func axisMapOp(e *Engine, name string, x *T, maps []axisMap) (*T, error) {
	dt := x.DType()
	rd := func(v float64) float64 { return tensor.RoundToDType(v, dt) }
	inShape := append([]int(nil), x.Shape()...)
	outShape := append([]int(nil), inShape...)
	for _, m := range maps {
		outShape[m.dim] = len(m.idx0)
	}
	forward := func() (*T, error) {
		if err := checkElems(outShape); err != nil {
			return nil, err
		}
		if dt == tensor.F32 || dt == tensor.F64 {
			out, err := tensor.Empty(outShape, dt)
			if err != nil {
				return nil, err
			}
			c := x.Contiguous()
			off, n := c.StorageOffset(), c.Numel()
			if dt == tensor.F32 {
				applyAxisMapsTyped(c.Storage().F32()[off:off+n], inShape, maps, out.Storage().F32()[:out.Numel()])
			} else {
				applyAxisMapsTyped(c.Storage().F64()[off:off+n], inShape, maps, out.Storage().F64()[:out.Numel()])
			}
			return out, nil
		}
		vals, shape := applyAxisMaps(x.ToFloat64s(), inShape, maps, rd)
		return tensor.FromFloat64s(vals, shape, dt)
	}
	backward := func(g *T) ([]*T, error) {
		gi := transposeAxisMaps(g.Contiguous().ToFloat64s(), outShape, inShape, maps)
		r, err := tensor.FromFloat64s(gi, inShape, g.DType())
		return []*T{r}, err
	}
	apply := func(us []*T) (*T, error) { return axisMapOp(e, name, us[0], maps) }
	return e.ApplyLinear(name, []*T{x}, forward, backward, apply)
}

// checkElems refuses a result of more elements than a tensor may hold.
func checkElems(shape []int) error {
	n := 1
	for _, s := range shape {
		if s != 0 && n > math.MaxInt32*64/s {
			return runtime.Errorf("RuntimeError", "resampled tensor of shape %s is too large", intList(shape))
		}
		n *= s
	}
	return nil
}

// ---- pad: reflect, replicate, circular ----

// padIndex maps output position j (of n + before + after) to an input
// index of a dim of size n for mode reflect, replicate or circular.
func padIndex(mode string, j, before, n int) int {
	i := j - before
	switch mode {
	case "reflect":
		if i < 0 {
			i = -i
		}
		if i >= n {
			i = 2*(n-1) - i
		}
	case "replicate":
		i = min(max(i, 0), n-1)
	case "circular":
		i = ((i % n) + n) % n
	}
	return i
}

// nnPadMode is nn.pad for the modes reflect, replicate and circular
// (PyTorch 1.13's reflection_padNd, replication_padNd and _pad_circular):
// len(pad)/2 = k of 1, 2 or 3 trailing dims, on a (k+1)- or (k+2)-d input
// (circular: (k+2)-d only). Reflect needs each amount below the dim's
// size, circular at most the size; negative amounts crop.
func nnPadMode(th *runtime.Thread, x *T, p []int, mode string, valueGiven bool) (runtime.Value, error) {
	if valueGiven {
		return nil, runtime.Errorf("RuntimeError", "Padding mode \"%s\" doesn't take in value argument", mode)
	}
	if len(p)%2 != 0 {
		return nil, runtime.Errorf("RuntimeError", "Padding length must be divisible by 2")
	}
	k := len(p) / 2
	if k > x.Dim() {
		return nil, runtime.Errorf("RuntimeError", "Padding length too large")
	}
	nd := x.Dim()
	if k < 1 || k > 3 || (nd != k+1 && nd != k+2) {
		return nil, runtime.Errorf("NotImplementedError", "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
	}
	shape := x.Shape()
	dt := x.DType()
	switch mode {
	case "circular":
		if nd != k+2 {
			return nil, runtime.Errorf("RuntimeError", "Invalid padding size, expected %d but got %d", 2*(nd-2), len(p))
		}
		for i := 0; i < k; i++ {
			n := shape[nd-1-i]
			if p[2*i] > n || p[2*i+1] > n {
				return nil, runtime.Errorf("RuntimeError", "Padding value causes wrapping around more than once.")
			}
		}
	default:
		kernel := fmt.Sprintf("reflection_pad%dd", k)
		if mode == "replicate" {
			kernel = fmt.Sprintf("replication_pad%dd_cpu", k)
		}
		if dt != tensor.F32 && dt != tensor.F64 {
			return nil, runtime.Errorf("RuntimeError", "\"%s\" not implemented for '%s'", kernel, dt.TorchName())
		}
		for i := nd - k; i < nd; i++ {
			if shape[i] == 0 {
				return nil, runtime.Errorf("RuntimeError", "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s", k+1, k+2, intList(shape))
			}
		}
		if mode == "reflect" {
			for i := 0; i < k; i++ {
				d := nd - 1 - i
				if p[2*i] >= shape[d] || p[2*i+1] >= shape[d] {
					in := fmt.Sprint(nd)
					if k == 1 {
						in = intList(shape).String()
					}
					return nil, runtime.Errorf("RuntimeError", "Argument #%d: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %s", 4+2*i, p[2*i], p[2*i+1], d, in)
				}
			}
		}
	}
	var maps []axisMap
	for i := 0; i < k; i++ {
		d := nd - 1 - i
		n, before, after := shape[d], p[2*i], p[2*i+1]
		on := n + before + after
		if on < 0 {
			return nil, runtime.Errorf("RuntimeError", "input tensor size along dim %d is %d, which is too small for padding (%d, %d)", d, n, before, after)
		}
		idx := make([]int, on)
		if mode == "circular" {
			// torch's _pad_circular crops negative amounts first, then
			// wraps around what is left
			cs, m := max(-before, 0), n-max(-before, 0)-max(-after, 0)
			for j := range idx {
				idx[j] = cs + padIndex(mode, j, max(before, 0), m)
			}
		} else {
			for j := range idx {
				idx[j] = padIndex(mode, j, before, n)
			}
		}
		maps = append(maps, axisMap{dim: d, idx0: idx})
	}
	name := map[string]string{"reflect": "ReflectionPad%dDBackward", "replicate": "ReplicationPad%dDBackward"}[mode]
	if name == "" {
		name = "CopySlices"
	} else {
		name = fmt.Sprintf(name, k)
	}
	r, err := axisMapOp(engineOf(th), name, x, maps)
	return tensorResult(th, r, err)
}

// ---- interpolate ----

// interpModes lists the modes of interpolate, in PyTorch's error order.
const interpModes = "nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact"

// floatsArg reads an int/float or a list/tuple of them (interpolate's
// scale_factor) into n values; given reports more than n as a mismatch.
func floatsOf(v runtime.Value) ([]float64, bool, bool) {
	var elems []runtime.Value
	seq := false
	switch x := v.(type) {
	case runtime.Tuple:
		elems, seq = x, true
	case *runtime.List:
		elems, seq = x.Elems, true
	default:
		elems = []runtime.Value{v}
	}
	out := make([]float64, len(elems))
	for i, e := range elems {
		f, ok := runtime.AsFloat(e)
		if !ok || isBool(e) {
			return nil, seq, false
		}
		out[i] = f
	}
	return out, seq, true
}

// nnInterpolate is torch.nn.functional.interpolate (PyTorch 1.13).
func nnInterpolate(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var size, scale, align, recompute runtime.Value = runtime.None, runtime.None, runtime.None, runtime.None
	mode := "nearest"
	antialias := false
	if err := runtime.UnpackArgs(b.Name(), args, kwargs, "input", &x, "size?", &size, "scale_factor?", &scale, "mode?", &mode,
		"align_corners?", &align, "recompute_scale_factor?", &recompute, "antialias?", &antialias); err != nil {
		return nil, err
	}
	return interpolate(th, x.t, size, scale, mode, align, recompute, antialias)
}

// interpolate resizes the spatial dims (all but the first two) of x.
func interpolate(th *runtime.Thread, x *T, size, scale runtime.Value, mode string, align, recompute runtime.Value, antialias bool) (runtime.Value, error) {
	nd := x.Dim() - 2
	shape := x.Shape()
	spatial := func() string {
		if nd < 0 {
			return "[]"
		}
		return intList(shape[2:]).String()
	}
	var outSize []int
	var scales []float64
	switch {
	case size != runtime.None && scale != runtime.None:
		return nil, runtime.Errorf("ValueError", "only one of size or scale_factor should be defined")
	case size != runtime.None:
		s, ok := runtime.AsInts(size)
		if !ok || isBool(size) {
			return nil, runtime.Errorf("TypeError", "interpolate(): size must be an int or a tuple of ints, not %s", runtime.Repr(size))
		}
		_, isInt := size.(runtime.Int)
		if isInt {
			for len(s) < nd {
				s = append(s, s[0])
			}
		} else if len(s) != nd {
			return nil, runtime.Errorf("ValueError", "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of %s and output size of %s. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.", spatial(), runtime.Repr(size))
		}
		outSize = s
	case scale != runtime.None:
		f, seq, ok := floatsOf(scale)
		if !ok {
			return nil, runtime.Errorf("TypeError", "interpolate(): scale_factor must be a number or a tuple of numbers, not %s", runtime.Repr(scale))
		}
		if !seq {
			for len(f) < nd {
				f = append(f, f[0])
			}
		} else if len(f) != nd {
			return nil, runtime.Errorf("ValueError", "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of %s and scale_factor of shape %s. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.", spatial(), runtime.Repr(scale))
		}
		scales = f
	default:
		return nil, runtime.Errorf("ValueError", "either size or scale_factor should be defined")
	}
	if recompute != runtime.None && recompute.Truth() && size != runtime.None {
		return nil, runtime.Errorf("ValueError", "recompute_scale_factor is not meaningful with an explicit size.")
	}
	linear := mode == "linear" || mode == "bilinear" || mode == "trilinear" || mode == "bicubic"
	alignCorners := false
	if align != runtime.None {
		if !linear {
			return nil, runtime.Errorf("ValueError", "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
		}
		alignCorners = align.Truth()
	}
	if mode == "area" && outSize == nil {
		recompute = runtime.Bool(true)
	}
	if scales != nil && recompute != runtime.None && recompute.Truth() {
		outSize = make([]int, nd)
		for i := range outSize {
			outSize[i] = int(math.Floor(float64(shape[i+2]) * scales[i]))
		}
		scales = nil
	}
	if antialias && !(mode == "bilinear" || mode == "bicubic") && x.Dim() == 4 {
		return nil, runtime.Errorf("ValueError", "Anti-alias option is only supported for bilinear and bicubic modes")
	}
	need := map[string]int{"linear": 1, "bilinear": 2, "trilinear": 3} // PyTorch 1.13 does not check bicubic's here
	if k, ok := need[mode]; ok && x.Dim() >= 3 && x.Dim() <= 5 && nd != k {
		return nil, runtime.Errorf("NotImplementedError", "Got %dD input, but %s mode needs %dD input", x.Dim(), mode, k+2)
	}
	known := mode == "nearest" || mode == "nearest-exact" || mode == "area" || linear && (mode != "bicubic" || x.Dim() == 4)
	if x.Dim() < 3 || x.Dim() > 5 || !known {
		return nil, runtime.Errorf("NotImplementedError", "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: %s (got %s)", x.Dim(), interpModes, mode)
	}
	if antialias {
		return nil, runtime.Errorf("NotImplementedError", "interpolate(): mode='%s' (antialias=%s) is not supported yet", mode, runtime.Bool(antialias))
	}
	if outSize == nil {
		outSize = make([]int, nd)
		for i := range outSize {
			outSize[i] = int(float64(shape[i+2]) * scales[i]) // ATen's compute_output_size truncates
		}
	}
	if mode == "area" {
		fname := fmt.Sprintf("adaptive_avg_pool%dd", nd)
		if nd == 3 {
			return nil, runtime.Errorf("NotImplementedError", "interpolate(): mode='area' on 5-D input is not supported yet")
		}
		sz := make(runtime.Tuple, nd)
		for i, s := range outSize {
			sz[i] = runtime.MakeInt(int64(s))
		}
		return callNN(th, fname, []runtime.Value{wrap(engineOf(th), x), sz}, nil)
	}
	bad := false
	for i := range outSize {
		bad = bad || outSize[i] <= 0 || shape[i+2] <= 0
	}
	if bad {
		names := []string{"D", "H", "W"}[3-nd:]
		var in, out []string
		for i, n := range names {
			in = append(in, fmt.Sprintf("%s: %d", n, shape[i+2]))
			out = append(out, fmt.Sprintf("%s: %d", n, outSize[i]))
		}
		return nil, runtime.Errorf("RuntimeError", "Input and output sizes should be greater than 0, but got input (%s) output (%s)", strings.Join(in, ", "), strings.Join(out, ", "))
	}
	dt := x.DType()
	kernel := "compute_indices_weights_nearest"
	switch {
	case mode == "bicubic":
		kernel = "compute_indices_weights_cubic"
	case linear:
		kernel = "compute_indices_weights_linear"
	}
	if dt != tensor.F32 && dt != tensor.F64 && dt != tensor.BF16 {
		return nil, runtime.Errorf("RuntimeError", "\"%s\" not implemented for '%s'", kernel, dt.TorchName())
	}
	var maps []axisMap
	for i := nd - 1; i >= 0; i-- {
		var sc *float64
		if scales != nil {
			sc = &scales[i]
		}
		n, on := shape[i+2], outSize[i]
		var m axisMap
		switch mode {
		case "nearest", "nearest-exact":
			m = nearestMap(n, on, sc, mode == "nearest-exact")
		case "bicubic":
			m = cubicMap(n, on, sc, alignCorners, dt)
		default:
			m = linearMap(n, on, sc, alignCorners, dt)
		}
		m.dim = i + 2
		maps = append(maps, m)
	}
	name := map[string]string{"nearest": "Nearest", "nearest-exact": "NearestExact", "linear": "Linear",
		"bilinear": "Bilinear", "trilinear": "Trilinear", "bicubic": "Bicubic"}[mode]
	r, err := axisMapOp(engineOf(th), fmt.Sprintf("Upsample%s%dDBackward1", name, nd), x, maps)
	return tensorResult(th, r, err)
}

// nearestMap is ATen's nearest_idx / nearest_exact_idx: the source of
// output j is min(floor(j * scale), n - 1) (exact: floor((j + 0.5) *
// scale)) with scale = 1/scale_factor or n/on, in float32; plain nearest
// short-cuts on == n and on == 2n.
func nearestMap(n, on int, scale *float64, exact bool) axisMap {
	idx := make([]int, on)
	s := float32(n) / float32(on)
	if scale != nil && *scale > 0 {
		s = float32(1.0 / *scale)
	}
	for j := range idx {
		switch {
		case !exact && on == n:
			idx[j] = j
		case !exact && on == 2*n:
			idx[j] = j >> 1
		case exact:
			idx[j] = min(int(math.Floor(float64(float32((float64(j)+0.5)*float64(s))))), n-1)
		default:
			idx[j] = min(int(math.Floor(float64(float32(j)*s))), n-1)
		}
	}
	return axisMap{idx0: idx}
}

// linearMap is ATen's compute_indices_weights_linear in the dtype's
// arithmetic (scalar_t): scale (n-1)/(on-1) with align_corners, else
// 1/scale_factor or n/on; source x = scale*j (align_corners) or
// max(scale*(j+0.5)-0.5, 0); idx0 = floor(x), idx1 = idx0 + 1 unless at
// the last input, λ1 = x - idx0, λ0 = 1 - λ1.
func linearMap(n, on int, scale *float64, align bool, dt tensor.DType) axisMap {
	rd := func(v float64) float64 { return tensor.RoundToDType(v, dt) }
	var s float64
	switch {
	case align && on > 1:
		s = rd(rd(float64(n-1)) / rd(float64(on-1)))
	case align:
		s = 0
	case scale != nil && *scale > 0:
		s = rd(1.0 / *scale)
	default:
		s = rd(rd(float64(n)) / rd(float64(on)))
	}
	m := axisMap{idx0: make([]int, on), idx1: make([]int, on), w0: make([]float64, on), w1: make([]float64, on)}
	for j := 0; j < on; j++ {
		if on == n { // ATen's compute_source_index_and_lambda copies
			m.idx0[j], m.idx1[j], m.w0[j], m.w1[j] = j, j, 1, 0
			continue
		}
		var src float64
		if align {
			src = rd(s * rd(float64(j)))
		} else {
			src = rd(s*(float64(j)+0.5) - 0.5)
			if src < 0 {
				src = 0
			}
		}
		i0 := int(src)
		off := 0
		if i0 < n-1 {
			off = 1
		}
		l1 := rd(src - rd(float64(i0)))
		m.idx0[j], m.idx1[j] = i0, i0+off
		m.w0[j], m.w1[j] = rd(1-l1), l1
	}
	return m
}

// nnUpsampleAlias is the deprecated upsample (interpolate),
// upsample_nearest (mode nearest) and upsample_bilinear (align_corners).
func nnUpsampleAlias(mode string) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		var size, scale runtime.Value = runtime.None, runtime.None
		if mode == "" {
			return nnInterpolate(th, b, args, kwargs)
		}
		if err := runtime.UnpackArgs(b.Name(), args, kwargs, "input", &x, "size?", &size, "scale_factor?", &scale); err != nil {
			return nil, err
		}
		var align runtime.Value = runtime.None
		if mode == "bilinear" {
			align = runtime.Bool(true)
		}
		return interpolate(th, x.t, size, scale, mode, align, runtime.None, false)
	}
}

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_resample.go initialised before nn.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("nn", name, doc, f) }
	fn("pad", "pad(input, pad, mode=\"constant\", value=0): pad (or crop, for negative amounts) the last len(pad)/2 dims; pad lists (before, after) pairs starting from the last dim. mode \"constant\" fills with value (any number of dims); \"reflect\" (mirror without repeating the edge, amounts below the size), \"replicate\" (repeat the edge) and \"circular\" (wrap around, amounts at most the size) pad 1, 2 or 3 trailing dims of a (k+1)- or (k+2)-d input (circular: batched only), f32/f64 (circular: any dtype). grad_fn ConstantPadNdBackward0, ReflectionPad{1,2,3}DBackward0, ReplicationPad{1,2,3}DBackward0, CopySlices (circular).", nnPadDispatch)
	fn("interpolate", "interpolate(input, size=none, scale_factor=none, mode=\"nearest\", align_corners=none, recompute_scale_factor=none, antialias=false): resize the spatial dims of input [N, C, d1, ..., dk] (k = 1, 2, 3) to size, or to floor(d * scale_factor). Modes: \"nearest\" (source floor(j * in/out), PyTorch's legacy rule), \"nearest-exact\" (floor((j + 0.5) * in/out)), \"linear\" (3-D), \"bilinear\" (4-D), \"bicubic\" (4-D; cubic convolution, A = -0.75, border taps clamped), \"trilinear\" (5-D) with align_corners (corner pixels' centres aligned: source j*(in-1)/(out-1)) or not (half-pixel: (j + 0.5)*in/out - 0.5, clamped at 0), and \"area\" (adaptive_avg_pool). A given scale_factor is used for the source coordinates unless recompute_scale_factor. f32, f64, bf16 (ATen's scalar_t arithmetic). grad_fn Upsample<Mode><k>DBackward1.", nnInterpolate)
	fn("upsample", "upsample(input, size=none, scale_factor=none, mode=\"nearest\", align_corners=none): deprecated alias of interpolate.", nnUpsampleAlias(""))
	fn("upsample_nearest", "upsample_nearest(input, size=none, scale_factor=none): deprecated; interpolate with mode \"nearest\".", nnUpsampleAlias("nearest"))
	fn("upsample_bilinear", "upsample_bilinear(input, size=none, scale_factor=none): deprecated; interpolate with mode \"bilinear\" and align_corners=true (4-D input).", nnUpsampleAlias("bilinear"))
}

// nnPadDispatch is nn.pad: constant mode (nnPad, any dims) or the
// reflect/replicate/circular modes (nnPadMode).
func nnPadDispatch(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var pads shapeArg
	mode := "constant"
	var value floatOpt
	if err := runtime.UnpackArgs("pad", args, kwargs, "input", &x, "pad", &pads, "mode?", &mode, "value?", &value); err != nil {
		return nil, err
	}
	switch mode {
	case "constant":
		return builtinNamed("ConstantPadNdBackward0", nnPad)(th, b, args, kwargs)
	case "reflect", "replicate", "circular":
		return nnPadMode(th, x.t, pads.shape, mode, value.ok && value.v != 0)
	}
	return nil, runtime.Errorf("NotImplementedError", "Unrecognised padding mode %s", mode)
}
