package tensor

import (
	"math"
	"sync"

	"github.com/tsrlang/tsr/backends/cpu"
)

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
			cpu.ExpF32, cpu.MulScalarF32, cpu.FMA32, fmaRowF32)
	} else {
		crossEntropyBackwardRows(flatData[float64](g), flatData[float64](logp), typed[float64](gi.storage), n, p, perRow,
			cpu.ExpF64, cpu.MulScalarF64, math.FMA, fmaRowF64)
	}
	return gi, true
}

func crossEntropyBackwardRows[T vfloat](g, y, dst []T, n int, p *CrossEntropyGrad, perRow bool, exp func(dst, x []T), mulScalar func(dst, a []T, s T), fma func(a, b, c T) T, fmaRow func(dst []T, s T, gl []T)) {
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
		var gl []T // the row of nll_loss_backward plus the smoothing term
		if ls > 0 {
			gl = make([]T, n)
		}
		for r := r0; r < r1; r++ {
			d, yr := dst[r*n:(r+1)*n], y[r*n:(r+1)*n]
			t := p.Target[r]
			if ls == 0 {
				// the nll row is v at t and +0 elsewhere: its vectorized
				// sum is v + 0 (v alone for one class), and off t the
				// contracted 0 - e·s is -(e·s) rounded, +0 for a zero
				// product
				var v T
				if t >= 0 {
					v = crossEntropyNLL(t, g, r, w, perRow, mean, ls, keep, W)
				}
				s := v
				if n > 1 {
					s = v + 0
				}
				exp(d, yr)
				var et T
				if t >= 0 {
					et = d[t]
				}
				negScaleRow(d, s, mulScalar)
				if t >= 0 {
					d[t] = fma(-et, s, v)
				}
				continue
			}
			if t < 0 { // ignored: nothing flows into the row
				clear(gl)
			} else {
				crossEntropySmoothRow(gl, t, crossEntropyNLL(t, g, r, w, perRow, mean, ls, keep, W), g, r, w, perRow, mean, spread, W)
			}
			s := cpu.ReduceSumTorch(gl)
			exp(d, yr)
			fmaRow(d, s, gl)
		}
	})
}

// negScaleRow sets e[i] = 0 - e[i]·s rounded once, as a fused
// multiply-add on a zero addend rounds it: -(e·s), but +0 where e·s is
// exactly zero (and NaN for NaN).
func negScaleRow[T vfloat](e []T, s T, mulScalar func(dst, a []T, s T)) {
	switch {
	case s < 0: // e ≥ 0: e·(-s) is never -0
		mulScalar(e, e, -s)
	case s > 0: // (0 - e)·s: +0 for e = 0, -0 only for an underflow
		var zero T
		for i, v := range e {
			e[i] = (zero - v) * s
		}
	default: // s is ±0 or NaN
		var zero T
		for i, v := range e {
			e[i] = zero - v*s
		}
	}
}

// fmaRowF32 sets e[i] = gl[i] - e[i]·s with one rounding (ATen's
// x - y.exp()·sum, contracted to a fused multiply-add by the compiler),
// leaving gl holding the result too: cpu.AxpyF32 on the longest prefix of
// whole 16-lane vectors where its SIMD kernels fuse (axpyFused), FMA32
// on the rest.
func fmaRowF32(e []float32, s float32, gl []float32) {
	gl = gl[:len(e)]
	pre := 0
	if axpyFused() {
		pre = len(e) - len(e)%16
		cpu.AxpyF32(gl[:pre], -s, e[:pre])
	}
	for i := pre; i < len(e); i++ {
		v, g := e[i], gl[i]
		r, ok := cpu.FMA32Quick(-v, s, g)
		if !ok {
			r = cpu.FMA32(-v, s, g)
		}
		gl[i] = r
	}
	copy(e, gl)
}

// fmaRowF64 is fmaRowF32 for float64.
func fmaRowF64(e []float64, s float64, gl []float64) {
	gl = gl[:len(e)]
	pre := 0
	if axpyFused() {
		pre = len(e) - len(e)%16
		cpu.AxpyF64(gl[:pre], -s, e[:pre])
	}
	for i := pre; i < len(e); i++ {
		gl[i] = math.FMA(-e[i], s, gl[i])
	}
	copy(e, gl)
}

// axpyFused reports whether cpu.AxpyF32 and cpu.AxpyF64 round each
// dst + alpha·x once on 16 elements (their SIMD kernels use VFMADD; the
// pure-Go kernel rounds the product first), probed once on operands
// where the two differ.
var axpyFused = sync.OnceValue(func() bool {
	const a = 1 + 0x1p-12 // a·a = 1 + 2^-11 + 2^-24: exact only when fused
	d32, x32 := make([]float32, 16), make([]float32, 16)
	const b = 1 + 0x1p-27 // b·b = 1 + 2^-26 + 2^-54 in float64
	d64, x64 := make([]float64, 16), make([]float64, 16)
	for i := range d32 {
		d32[i], x32[i] = -1, a
		d64[i], x64[i] = -1, b
	}
	cpu.AxpyF32(d32, a, x32)
	cpu.AxpyF64(d64, b, x64)
	for i := range d32 {
		if d32[i] != 0x1p-11+0x1p-24 || d64[i] != 0x1p-26+0x1p-54 {
			return false
		}
	}
	return true
})

// crossEntropyNLL is row r's nll_loss_backward value at its target t,
// rounded as PyTorch's: w[t]·-(g'/W) (mean), w[t]·-g' (sum) or -w[t]·g'_r
// (none), where g' is the loss gradient times 1-ls for label smoothing.
func crossEntropyNLL[T vfloat](t int, g []T, r int, w []T, perRow, mean bool, ls float64, keep, W T) T {
	gr := g[0]
	if perRow {
		gr = g[r]
	}
	gn := gr
	if ls > 0 {
		gn = T(gr * keep)
	}
	if perRow {
		if w != nil {
			return T(-w[t] * gn)
		}
		return -gn
	}
	q := -gn
	if mean {
		q = -T(gn / W)
	}
	if w != nil {
		return T(w[t] * q)
	}
	return q
}

// crossEntropySmoothRow writes into gl row r's gradient with respect to
// logp of the label-smoothed loss: the smoothing term
// smooth_loss = -(logp·w).sum(C), scaled by ls/C (and 1/W for the mean),
// has gradient -(g·(ls/C) [/ W]) (times w[c]) on every column; the
// engine adds it to the nll row (v at t, +0 elsewhere).
func crossEntropySmoothRow[T vfloat](gl []T, t int, v T, g []T, r int, w []T, perRow, mean bool, spread, W T) {
	gr := g[0]
	if perRow {
		gr = g[r]
	}
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
