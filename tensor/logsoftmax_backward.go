package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// LogSoftmaxBackward returns the gradient of y = log_softmax(x, dim) with
// respect to x, g - exp(y)·Σ_dim g, given the output y and its gradient g

// the last dim and y is contiguous; ok is false otherwise (and for other
// dtypes), leaving the caller's composed formula to it. The row sum is
// cpu.SumTorchF32's (PyTorch's sum order), exp is tensor.Exp's kernel,
// and g - e·s rounds as the composed g - (e·s): the same values as the
// composed formula, without its three temporaries.
func LogSoftmaxBackward(g, y *Tensor, dim int) (gi *Tensor, ok bool) {
	if !fastPathsOn() || (y.dtype != F32 && y.dtype != F64) || g.dtype != y.dtype || y.Dim() == 0 ||
		dim != y.Dim()-1 || !y.IsContiguous() || !sameInts(g.shape, y.shape) || y.Numel() == 0 {
		return nil, false
	}
	n := y.shape[dim]
	gi = empty(y.shape, y.dtype)
	if y.dtype == F32 {
		logSoftmaxBackwardRows(flatData[float32](g), flatData[float32](y), typed[float32](gi.storage), n,
			cpu.SumTorchF32, cpu.ExpF32, cpu.MulScalarF32, cpu.AddF32)
	} else {
		logSoftmaxBackwardRows(flatData[float64](g), flatData[float64](y), typed[float64](gi.storage), n,
			cpu.SumTorchF64, cpu.ExpF64, cpu.MulScalarF64, cpu.AddF64)
	}
	return gi, true
}

func logSoftmaxBackwardRows[T vfloat](g, y, dst []T, n int, sum func([]T) T, exp func(dst, x []T), mulScalar func(dst, a []T, s T), add func(dst, a, b []T)) {
	parallelTasks(len(dst)/n, 3*n, grainMem, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			gr, d := g[r*n:(r+1)*n], dst[r*n:(r+1)*n]
			s := sum(gr)
			exp(d, y[r*n:(r+1)*n])
			mulScalar(d, d, -s)
			add(d, d, gr)
		}
	})
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CrossEntropyGrad describes cross_entropy with class-index targets for
// CrossEntropyBackward: Target holds each row's class (-1: ignore_index),
// Weight the class weights (nil: all 1), Reduction "mean", "sum" or
// "none", Smoothing the label_smoothing in [0, 1], and TotalWeight the
// mean's denominator (the summed weight, or count, of the rows not
// ignored).
type CrossEntropyGrad struct {
	Target      []int
	Weight      []float64
	Reduction   string
	Smoothing   float64
	TotalWeight float64
}

// CrossEntropyBackward returns the gradient of cross_entropy(x, target)
// with respect to the logits x ([N, C], or [C] with one target) in one
// pass over each row, given logp = log_softmax(x, -1) (contiguous F32 or
// F64) and the loss gradient g (a scalar, or [N] for reduction "none" on
// 2-d input, logp's dtype). ok is false (nothing done) for other layouts,
// dtypes or lengths.
//
// The values are PyTorch 1.13's two steps bit for bit, each rounded in
// logp's dtype: nll_loss_backward's row gl with gl[t] = w[t]·-(g'/W)
// (mean), w[t]·-g' (sum) or -w[t]·g'_n (none), g' = g·(1-ls) when
// label smoothing ls > 0, plus for ls > 0 the smoothing term's gradient
// -(g·(ls/C))/W (mean; no division otherwise), times w[c] when weighted,
// on every column of the rows not ignored; then log_softmax_backward
// (gl - exp(logp)·Σgl, the sum in ATen's vectorized order,
// cpu.SumTorchF32/F64). W is TotalWeight rounded to the dtype (PyTorch
// sums the weights in the dtype: the same number whenever that sum is
// exact, as for unweighted losses).
func CrossEntropyBackward(g, logp *Tensor, p *CrossEntropyGrad) (gi *Tensor, ok bool) {
	dt := logp.dtype
	if (dt != F32 && dt != F64) || g.dtype != dt || !logp.IsContiguous() || logp.Dim() < 1 || logp.Dim() > 2 {
		return nil, false
	}
	n := logp.shape[logp.Dim()-1]
	rows := logp.Numel() / max(n, 1)
	perRow := p.Reduction == "none" && logp.Dim() == 2
	if n == 0 || rows != len(p.Target) || (p.Weight != nil && len(p.Weight) != n) ||
		(perRow && g.Numel() != rows) || (!perRow && g.Numel() != 1) {
		return nil, false
	}
	for _, t := range p.Target {
		if t >= n {
			return nil, false
		}
	}
	gi = empty(logp.shape, dt)
	if dt == F32 {
		crossEntropyBackwardRows(flatData[float32](g), flatData[float32](logp), typed[float32](gi.storage), n, p, perRow,
			cpu.SumTorchF32, cpu.ExpF32, cpu.MulScalarF32, cpu.AddF32)
	} else {
		crossEntropyBackwardRows(flatData[float64](g), flatData[float64](logp), typed[float64](gi.storage), n, p, perRow,
			cpu.SumTorchF64, cpu.ExpF64, cpu.MulScalarF64, cpu.AddF64)
	}
	return gi, true
}

func crossEntropyBackwardRows[T vfloat](g, y, dst []T, n int, p *CrossEntropyGrad, perRow bool, sum func([]T) T, exp func(dst, x []T), mulScalar func(dst, a []T, s T), add func(dst, a, b []T)) {
	ls := p.Smoothing
	mean := p.Reduction == "mean"
	W := T(p.TotalWeight)
	var w []T
	if p.Weight != nil {
		w = make([]T, n)
		for i, v := range p.Weight {
			w[i] = T(v)
		}
	}
	keep, spread := T(1-ls), T(ls/float64(n))
	parallelTasks(len(dst)/n, 4*n, grainMem, func(r0, r1 int) {
		gl := make([]T, n) // the row of nll_loss_backward (+ the smoothing term)
		for r := r0; r < r1; r++ {
			d := dst[r*n : (r+1)*n]
			t := p.Target[r]
			if t < 0 { // ignored: nothing flows into the row
				clear(gl)
			} else {
				crossEntropyRow(gl, t, g, r, w, perRow, mean, ls, keep, spread, W)
			}
			s := sum(gl)
			exp(d, y[r*n:(r+1)*n])
			mulScalar(d, d, -s)
			add(d, d, gl)
		}
	})
}

// crossEntropyRow writes row r's gradient of the loss with respect to
// logp into gl (target t >= 0), rounding as PyTorch's nll_loss_backward
// plus, for label smoothing, the smoothing term's backward and the
// engine's sum of the two (see CrossEntropyBackward).
func crossEntropyRow[T vfloat](gl []T, t int, g []T, r int, w []T, perRow, mean bool, ls float64, keep, spread, W T) {
	gr := g[0]
	if perRow {
		gr = g[r]
	}
	gn := gr
	if ls > 0 {
		gn = T(gr * keep)
	}
	// nll_loss_backward's value at the target
	var v T
	if perRow {
		v = -gn
		if w != nil {
			v = T(-w[t] * gn)
		}
	} else {
		q := -gn
		if mean {
			q = -T(gn / W)
		}
		v = q
		if w != nil {
			v = T(w[t] * q)
		}
	}
	if ls == 0 {
		clear(gl)
		gl[t] = v
		return
	}
	// smooth_loss = -(logp·w).sum(C) scaled by ls/C (and 1/W for the
	// mean): -(g·(ls/C) [/ W]) (times w[c]) on every column, added to
	// the nll row (zero but at t)
	s := T(gr * spread)
	if mean {
		s = T(s / W)
	}
	s = -s
	if w != nil {
		for c := range gl {
			gl[c] = T(s*w[c]) + 0
		}
		gl[t] = T(s*w[t]) + v
	} else {
		for c := range gl {
			gl[c] = s + 0
		}
		gl[t] = s + v
	}
}
