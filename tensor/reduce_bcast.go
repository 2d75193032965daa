package tensor

import "math"

// Reductions of broadcast (expanded) views.
//
// A dim of size n > 1 with stride 0 repeats one slice n times. Reducing
// such a view never materialises it: every reduction entry point first
// calls unbroadcast, which shrinks each such dim to size 1, runs the
// reduction on that (un-broadcast) slice and then corrects the result:
//
//   - reduced stride-0 dims repeat each reduced element rep times (rep is
//     the product of their sizes): amax/amin, max/min, all/any and mean
//     are unchanged; argmax/argmin/max(dim)/min(dim) pick index 0 of the
//     repeated dim (the first occurrence, PyTorch's tie rule); sum is
//     multiplied by rep; prod is raised to the power rep; var/std are
//     rep*ss / (rep*n - correction) from the slice's sum of squared
//     deviations ss over n elements (zero variance when the slice has one
//     element); logsumexp adds log(rep); a p-norm is multiplied by
//     rep^(1/p) (by rep for p = 0, unchanged for p = ±inf).
//   - kept stride-0 dims: the result is computed once on the slice and
//     then expanded, so only the output is materialised.
//
// Integer sums and products are exact (rep*s and s^rep wrap modulo 2^64
// exactly as the repeated sequential sum or product does). For floats the
// scaled result is computed in float64 and rounded once to the dtype; it
// can differ in the last bits from a sequential sum over the materialised
// tensor (whose own rounding depends on the summation order; PyTorch sums
// the expanded elements one by one), and it is often the more accurate.
// Sums and means of float32/float64 views of up to torchSumMaxRow
// elements do not come here: they replay PyTorch's order on the expanded
// view (smallSumMean).

// bcastPlan is the un-broadcast form of a reduction input.
type bcastPlan struct {
	src      *Tensor // t with every stride-0 dim of size > 1 shrunk to size 1
	rep      int     // product of the sizes of the shrunk reduced dims (1: none)
	n        int     // elements per output in src's reduction
	outShape []int   // shape of the reduction of t; nil when no kept dim was shrunk
}

// unbroadcast returns the plan for reducing t over dims (planReduce's
// conventions) when t has a stride-0 dim of size > 1 and at least one
// element, else ok = false. Errors are planReduce's (bad dims).
func unbroadcast(t *Tensor, dims []int, keepdim bool) (bp *bcastPlan, ok bool, err error) {
	if !t.hasInternalOverlap() || t.Numel() == 0 {
		return nil, false, nil
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, false, err
	}
	shape := append([]int(nil), t.shape...)
	bp = &bcastPlan{rep: 1, n: p.inner}
	keptShrunk := false
	for d, s := range t.shape {
		if s <= 1 || t.strides[d] != 0 {
			continue
		}
		shape[d] = 1
		if p.red[d] {
			bp.rep *= s
			bp.n /= s
		} else {
			keptShrunk = true
		}
	}
	if keptShrunk {
		bp.outShape = p.outShape
	}
	bp.src = &Tensor{storage: t.storage, shape: shape, strides: t.strides, offset: t.offset, dtype: t.dtype}
	return bp, true, nil
}

// finish expands a result computed on bp.src to the full result shape
// (a new contiguous tensor) when kept dims were shrunk.
func (bp *bcastPlan) finish(r *Tensor) *Tensor {
	if r == nil || bp.outShape == nil {
		return r
	}
	return broadcastTo(r, bp.outShape).Clone()
}

// srcF64 returns bp.src converted to f64 (a copy of the slice only).
func (bp *bcastPlan) srcF64() *Tensor { return bp.src.toDType(F64) }

// mapF64 applies f to every element of the contiguous f64 tensor r in
// place and returns r converted to dt.
func mapF64(r *Tensor, dt DType, f func(float64) float64) *Tensor {
	d := r.storage.F64()[r.offset : r.offset+r.Numel()]
	for i, v := range d {
		d[i] = f(v)
	}
	return r.toDType(dt)
}

// mapI64 applies f to every element of the contiguous i64 tensor r in place.
func mapI64(r *Tensor, f func(int64) int64) *Tensor {
	d := r.storage.I64()[r.offset : r.offset+r.Numel()]
	for i, v := range d {
		d[i] = f(v)
	}
	return r
}

// bcastSumProd is Sum or Prod of a broadcast view (see the file comment).
func bcastSumProd(t *Tensor, bp *bcastPlan, dims []int, keepdim, prod bool) (*Tensor, error) {
	rep := int64(bp.rep)
	if reduceOutDType(t.dtype) == I64 {
		r, err := sumProd(bp.src, dims, keepdim, prod)
		if err != nil {
			return nil, err
		}
		if rep != 1 {
			if prod {
				r = mapI64(r, func(v int64) int64 { return ipow(v, rep) })
			} else {
				r = mapI64(r, func(v int64) int64 { return v * rep })
			}
		}
		return bp.finish(r), nil
	}
	r, err := sumProd(bp.srcF64(), dims, keepdim, prod)
	if err != nil {
		return nil, err
	}
	fr := float64(rep)
	if prod {
		r = mapF64(r, t.dtype, func(v float64) float64 { return math.Pow(v, fr) })
	} else {
		r = mapF64(r, t.dtype, func(v float64) float64 { return v * fr })
	}
	return bp.finish(r), nil
}

// bcastVarStd is Var or Std of a broadcast view: the slice's population
// variance v0 over n elements gives ss = v0*n, and the repeated data has
// sum of squares rep*ss over rep*n elements with the same mean.
func bcastVarStd(t *Tensor, bp *bcastPlan, dims []int, correction int, keepdim, std bool) (*Tensor, error) {
	r, err := varStd(bp.srcF64(), dims, 0, keepdim, false)
	if err != nil {
		return nil, err
	}
	n, fr := float64(bp.n), float64(bp.rep)
	den := math.Max(0, n*fr-float64(correction))
	r = mapF64(r, t.dtype, func(v0 float64) float64 {
		v := v0 * n * fr / den
		if std {
			v = math.Sqrt(v)
		}
		return v
	})
	return bp.finish(r), nil
}

// bcastNorm is Norm of a broadcast view: Σ|x|^p over the repeated data is
// rep times the slice's, so the norm is the slice's times rep^(1/p).
func bcastNorm(t *Tensor, bp *bcastPlan, p float64, dims []int, keepdim bool) (*Tensor, error) {
	r, err := Norm(bp.srcF64(), p, dims, keepdim)
	if err != nil {
		return nil, err
	}
	fr := float64(bp.rep)
	var scale float64
	switch {
	case math.IsInf(p, 0):
		scale = 1
	case p == 0 || p == 1:
		scale = fr
	case p == 2:
		scale = math.Sqrt(fr)
	default:
		scale = math.Pow(fr, 1/p)
	}
	r = mapF64(r, t.dtype, func(v float64) float64 { return v * scale })
	return bp.finish(r), nil
}

// bcastLogSumExp is LogSumExp of a broadcast view: log(rep*Σexp(x)) =
// logsumexp(slice) + log(rep).
func bcastLogSumExp(t *Tensor, bp *bcastPlan, dims []int, keepdim bool) (*Tensor, error) {
	r, err := LogSumExp(bp.srcF64(), dims, keepdim)
	if err != nil {
		return nil, err
	}
	odt := t.dtype
	if !odt.IsFloat() {
		odt = DefaultFloat
	}
	lr := math.Log(float64(bp.rep))
	r = mapF64(r, odt, func(v float64) float64 { return v + lr })
	return bp.finish(r), nil
}

// bcastArgFlat is Argmax/Argmin over all elements (dim = None) of a
// broadcast view. The first extreme of t in C order is the first extreme
// of the slice with every shrunk coordinate 0 (inserting zero coordinates
// preserves C order), so the slice's flat index is re-raveled with t's
// shape.
func bcastArgFlat(t *Tensor, bp *bcastPlan, keepdim, isMax bool) (*Tensor, error) {
	r, err := argmaxmin(bp.src, nil, false, isMax)
	if err != nil {
		return nil, err
	}
	i := r.storage.I64()[r.offset]
	var flat int64
	mul := int64(1)
	for d := len(t.shape) - 1; d >= 0; d-- {
		s := int64(bp.src.shape[d])
		flat += (i % s) * mul
		i /= s
		mul *= int64(t.shape[d])
	}
	out := zeros(nil, I64)
	out.storage.I64()[0] = flat
	if keepdim {
		ones := make([]int, len(t.shape))
		for d := range ones {
			ones[d] = 1
		}
		return out.Reshape(ones...)
	}
	return out, nil
}
