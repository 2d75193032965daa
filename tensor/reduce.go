package tensor

import (
	"math"
	"slices"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Reductions. dims lists the dims to reduce (negative wrap; nil or empty
// means all dims); keepdim keeps them as size 1. Floats accumulate in f64
// (so f16/bf16/f32 sums are accurate and not order-sensitive in practice),
// integers and bool in i64. A dim of size > 1 with stride 0 (an expanded
// view) is never materialised: every entry point reduces the un-broadcast
// slice and applies the closed form for the repetition (reduce_bcast.go).

type reducePlan struct {
	outShape    []int // result shape (keepdim applied)
	keptShape   []int
	keptStrides []int
	redShape    []int
	redStrides  []int
	inner       int    // elements per output
	outer       int    // number of outputs
	red         []bool // red[d]: dim d is reduced (one entry for a 0-d tensor)
}

func planReduce(t *Tensor, dims []int, keepdim bool) (*reducePlan, error) {
	n := len(t.shape)
	red := make([]bool, max(n, 1))
	if len(dims) == 0 {
		for i := range red {
			red[i] = true
		}
	} else {
		w, err := wrapDims(dims, n)
		if err != nil {
			return nil, err
		}
		for _, d := range w {
			red[d] = true
		}
	}
	p := &reducePlan{outShape: []int{}, red: red}
	for i := 0; i < n; i++ {
		if red[i] {
			p.redShape = append(p.redShape, t.shape[i])
			p.redStrides = append(p.redStrides, t.strides[i])
			if keepdim {
				p.outShape = append(p.outShape, 1)
			}
		} else {
			p.keptShape = append(p.keptShape, t.shape[i])
			p.keptStrides = append(p.keptStrides, t.strides[i])
			p.outShape = append(p.outShape, t.shape[i])
		}
	}
	if err := checkShape(p.outShape); err != nil {
		return nil, err
	}
	p.inner = numel(p.redShape)
	p.outer = numel(p.keptShape)
	return p, nil
}

// rowsF64 calls fn(o, row) for each output index o (C order) with the
// reduced elements converted to float64 (row is reused between calls).
func (p *reducePlan) rowsF64(t *Tensor, fn func(o int, row []float64)) {
	if p.outer == 0 {
		return
	}
	scratch := zeros([]int{p.inner}, F64)
	row := scratch.storage.F64()[:p.inner]
	p.rows(t, scratch, func(o int) { fn(o, row) })
}

// rowsI64 is rowsF64 with int64 values (exact for integer dtypes).
func (p *reducePlan) rowsI64(t *Tensor, fn func(o int, row []int64)) {
	if p.outer == 0 {
		return
	}
	scratch := zeros([]int{p.inner}, I64)
	row := scratch.storage.I64()[:p.inner]
	p.rows(t, scratch, func(o int) { fn(o, row) })
}

func (p *reducePlan) rows(t *Tensor, scratch *Tensor, fn func(o int)) {
	if p.outer == 0 {
		return
	}
	sub := &Tensor{storage: t.storage, shape: p.redShape, strides: p.redStrides, dtype: t.dtype}
	dst := &Tensor{storage: scratch.storage, shape: p.redShape, strides: contiguousStrides(p.redShape), dtype: scratch.dtype}
	// fast path: reduced dims form one contiguous row of the same dtype
	if p.inner == 0 {
		for o := 0; o < p.outer; o++ {
			fn(o)
		}
		return
	}
	o := 0
	kept := &Tensor{storage: t.storage, shape: p.keptShape, strides: p.keptStrides, offset: t.offset, dtype: t.dtype}
	walk1(kept, func(base, n, s int) {
		for i := 0; i < n; i++ {
			sub.offset = base + i*s
			castInto(dst, sub)
			fn(o)
			o++
		}
	})
}

func reduceOutDType(dt DType) DType {
	if dt == Bool || dt.IsInt() {
		return I64
	}
	return dt
}

// Sum returns the sum over dims. Bool and integer inputs give i64.
func Sum(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	return sumProd(t, dims, keepdim, false)
}

// Prod returns the product over dims. Bool and integer inputs give i64.
func Prod(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	return sumProd(t, dims, keepdim, true)
}

func sumProd(t *Tensor, dims []int, keepdim, prod bool) (*Tensor, error) {
	if !prod {
		if r, ok, err := smallSumMean(t, dims, keepdim, false); ok || err != nil {
			return r, err
		}
	}
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return bcastSumProd(t, bp, dims, keepdim, prod)
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	odt := reduceOutDType(t.dtype)
	if odt == I64 {
		out := zeros(p.outShape, I64)
		d := out.storage.I64()
		if fastPathsOn() && intRowsReduce(t, p, d, prod) {
			return out, nil
		}
		p.rowsI64(t, func(o int, row []int64) {
			var acc int64
			if prod {
				acc = 1
				for _, v := range row {
					acc *= v
				}
			} else {
				for _, v := range row {
					acc += v
				}
			}
			d[o] = acc
		})
		return out, nil
	}
	if !prod {
		if r := fastSumMean(t, p, false); r != nil {
			return r, nil
		}
	} else if r := fastProd(t, p); r != nil {
		return r, nil
	}
	out := zeros(p.outShape, F64)
	d := out.storage.F64()
	if !prod && t.dtype == F32 && t.IsContiguous() && len(p.keptShape) == 0 && p.inner > 0 {
		d[0] = sumF32(t.storage.F32()[t.offset : t.offset+p.inner])
		return out.toDType(odt), nil
	}
	p.rowsF64(t, func(o int, row []float64) {
		if prod {
			acc := 1.0
			for _, v := range row {
				acc *= v
			}
			d[o] = acc
		} else {
			d[o] = sumF64(row)
		}
	})
	return out.toDType(odt), nil
}

// sumF64 sums with four f64 accumulators.
func sumF64(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// sumF32 sums float32 values in f64 accumulators.
func sumF32(x []float32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i])
		s1 += float64(x[i+1])
		s2 += float64(x[i+2])
		s3 += float64(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func requireFloat(name string, t *Tensor) error {
	if !t.dtype.IsFloat() {
		return errorf(RuntimeError, "%s(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", name, pyTypeName(t.dtype))
	}
	return nil
}

// Mean returns the mean over dims. Integer and bool inputs are a
// RuntimeError, as in PyTorch. The mean of zero elements is NaN.
func Mean(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	if err := requireFloat("mean", t); err != nil {
		return nil, err
	}
	if r, ok, err := smallSumMean(t, dims, keepdim, true); ok || err != nil {
		return r, err
	}
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		r, err := Mean(bp.src, dims, keepdim) // the mean of repeats is the slice's
		return bp.finish(r), err
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	if r := fastSumMean(t, p, true); r != nil {
		return r, nil
	}
	out := zeros(p.outShape, F64)
	d := out.storage.F64()
	p.rowsF64(t, func(o int, row []float64) { d[o] = sumF64(row) / float64(len(row)) })
	return out.toDType(t.dtype), nil
}

// Var returns the variance over dims with Bessel's correction (correction
// 1 is the unbiased estimator, 0 the population variance), computed with
// a two-pass algorithm in f64. Fewer than correction+1 elements give NaN
// (PyTorch warns and returns nan/inf). Float inputs only.
func Var(t *Tensor, dims []int, correction int, keepdim bool) (*Tensor, error) {
	return varStd(t, dims, correction, keepdim, false)
}

// Std is the square root of Var.
func Std(t *Tensor, dims []int, correction int, keepdim bool) (*Tensor, error) {
	return varStd(t, dims, correction, keepdim, true)
}

func varStd(t *Tensor, dims []int, correction int, keepdim, std bool) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		return nil, errorf(RuntimeError, "std and var only support floating point and complex dtypes")
	}
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return bcastVarStd(t, bp, dims, correction, keepdim, std)
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	if r := fastVarStd(t, p, correction, std); r != nil {
		return r, nil
	}
	if p.outer == 1 && !t.IsContiguous() {
		// one output of a transposed/permuted dense tensor: PyTorch
		// reduces it in memory order, as the contiguous tensor
		if mo := memoryOrderView(t); mo != nil {
			if pm, err := planReduce(mo, nil, keepdim); err == nil && len(pm.outShape) == len(p.outShape) {
				if r := fastVarStd(mo, pm, correction, std); r != nil {
					return r, nil
				}
			}
		}
	}
	out := zeros(p.outShape, F64)
	d := out.storage.F64()
	single := len(d) == 1
	p.rowsF64(t, func(o int, row []float64) {
		n := float64(len(row))
		var ss float64
		if single || t.dtype != F64 {
			mean := sumF64(row) / n
			for _, v := range row {
				ss += (v - mean) * (v - mean)
			}
		} else {
			ss = welfordM2(row) // PyTorch's std_var kernel for several outputs
		}
		v := ss / math.Max(0, n-float64(correction))
		if std {
			v = math.Sqrt(v)
		}
		d[o] = v
	})
	return out.toDType(t.dtype), nil
}

// fastVarStd is varStd over the trailing dims of a contiguous f32 or f64
// tensor, reading the rows in place: the same two passes in float64 (the
// mean, then the squared deviations), each with four interleaved partial
// sums instead of one, and no float64 copy of the rows. nil when t does
// not qualify.
func fastVarStd(t *Tensor, pl *reducePlan, correction int, std bool) *Tensor {
	if !fastPathsOn() || t.dtype != F32 && t.dtype != F64 || pl.inner == 0 || !t.IsContiguous() || !trailingReduction(t, pl) {
		return nil
	}
	out := empty(pl.outShape, t.dtype)
	inner := pl.inner
	finish := func(ss float64) float64 {
		v := ss / math.Max(0, float64(inner-correction))
		if std {
			v = math.Sqrt(v)
		}
		return v
	}
	if pl.outer == 1 && inner <= torchVarAllMax {
		// PyTorch's std_var_all_cpu (one output element): the mean as
		// torch.mean computes it in the dtype, then Σ (x - mean)² in
		// float64, in order, unfused.
		var ss float64
		if t.dtype == F32 {
			x := t.storage.F32()[t.offset : t.offset+inner]
			mean := float64(cpu.SumTorchF32(x) / float32(inner))
			for _, v := range x {
				d := float64(v) - mean
				ss += float64(d * d)
			}
			out.storage.F32()[0] = float32(finish(ss))
		} else {
			x := t.storage.F64()[t.offset : t.offset+inner]
			mean := cpu.SumTorchF64(x) / float64(inner)
			for _, v := range x {
				d := v - mean
				ss += float64(d * d)
			}
			out.storage.F64()[0] = finish(ss)
		}
		return out
	}
	if t.dtype == F32 {
		x, od := t.storage.F32()[t.offset:t.offset+t.Numel()], out.storage.F32()
		parallelFor(pl.outer, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				od[o] = float32(finish(sqDev(x[o*inner : (o+1)*inner])))
			}
		})
		return out
	}
	x, od := t.storage.F64()[t.offset:t.offset+t.Numel()], out.storage.F64()
	small := t.Numel() <= torchSumMaxRow
	parallelFor(pl.outer, func(lo, hi int) {
		for o := lo; o < hi; o++ {
			// PyTorch's std_var kernel (WelfordOps), so that the f64
			// results are its bits (tensors of up to torchSumMaxRow
			// elements; f32 rows, accumulated in float64 by both, and
			// larger tensors keep the vector kernels).
			if small {
				od[o] = finish(welfordM2(x[o*inner : (o+1)*inner]))
			} else {
				od[o] = finish(sqDev(x[o*inner : (o+1)*inner]))
			}
		}
	})
	return out
}

// welfordM2 returns Σ (row[i] - mean)² as ATen's WelfordOps accumulates it
// for a var/std with several outputs: for each x in order, n += 1,
// delta = x - mean, mean += delta/n, m2 += delta·(x - mean), the last
// product fused into the sum (as GCC contracts it).
func welfordM2[T vfloat](row []T) float64 {
	var mean, m2 float64
	for i, v := range row {
		x := float64(v)
		delta := x - mean
		mean += delta / float64(i+1)
		m2 = math.FMA(delta, x-mean, m2)
	}
	return m2
}

// torchVarAllMax bounds the tensors whose var/std with one output element
// follow PyTorch's std_var_all_cpu step for step: up to one ATen grain
// (32768 elements), which PyTorch sums on one thread.
const torchVarAllMax = 32768

// trailingReduction reports whether the plan reduces a suffix of t's dims.
func trailingReduction(t *Tensor, pl *reducePlan) bool {
	suffix := false
	for d := 0; d < len(t.shape); d++ {
		if pl.red[d] {
			suffix = true
		} else if suffix {
			return false
		}
	}
	return true
}

// sqDev returns Σ (row[i] - mean)² in float64, mean = Σ row[i] / n (n > 0):
// cpu.SqDevF32 / cpu.SqDevF64, two float64 passes over four interleaved
// partial sums (f32 rows through the widening vector kernels).
func sqDev[T vfloat](row []T) float64 {
	if r, ok := any(row).([]float32); ok {
		return cpu.SqDevF32(r)
	}
	return cpu.SqDevF64(any(row).([]float64))
}

// Amax returns the maximum over dims (NaN propagates). Zero elements in a
// reduced slice is an IndexError as PyTorch.
func Amax(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	return amaxmin(t, dims, keepdim, true)
}

// Amin returns the minimum over dims.
func Amin(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	return amaxmin(t, dims, keepdim, false)
}

func amaxmin(t *Tensor, dims []int, keepdim, isMax bool) (*Tensor, error) {
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		r, err := amaxmin(bp.src, dims, keepdim, isMax)
		return bp.finish(r), err
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	name := "amin"
	if isMax {
		name = "amax"
	}
	if p.inner == 0 && p.outer > 0 || t.Numel() == 0 && len(p.keptShape) == 0 {
		if len(dims) == 0 {
			return nil, errorf(RuntimeError, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
		}
		for d, red := range p.red {
			if red && d < len(t.shape) && t.shape[d] == 0 {
				return nil, errorf(IndexError, "%s(): Expected reduction dim %d to have non-zero size.", name, d)
			}
		}
	}
	vals, _ := argReduce(t, p, isMax, false)
	return vals, nil
}

// argReduce returns values (t's dtype) and, when wantIdx, i64 indices of
// the first max/min per row (NaN counts as the extreme, as PyTorch).
func argReduce(t *Tensor, p *reducePlan, isMax, wantIdx bool) (*Tensor, *Tensor) {
	if v, i, ok := fastArgReduce(t, p, isMax, wantIdx); ok {
		return v, i
	}
	var idx *Tensor
	var id []int64
	if wantIdx {
		idx = zeros(p.outShape, I64)
		id = idx.storage.I64()
	}
	better := func(v, best float64) bool {
		if best != best {
			return false
		}
		if v != v {
			return true
		}
		if isMax {
			return v > best
		}
		return v < best
	}
	if t.dtype.IsFloat() {
		vals := zeros(p.outShape, F64)
		d := vals.storage.F64()
		p.rowsF64(t, func(o int, row []float64) {
			bi := 0
			for i := 1; i < len(row); i++ {
				if better(row[i], row[bi]) {
					bi = i
				}
			}
			if len(row) > 0 {
				d[o] = row[bi]
			}
			if wantIdx {
				id[o] = int64(bi)
			}
		})
		return vals.toDType(t.dtype), idx
	}
	vals := zeros(p.outShape, I64)
	d := vals.storage.I64()
	p.rowsI64(t, func(o int, row []int64) {
		bi := 0
		for i := 1; i < len(row); i++ {
			if (isMax && row[i] > row[bi]) || (!isMax && row[i] < row[bi]) {
				bi = i
			}
		}
		if len(row) > 0 {
			d[o] = row[bi]
		}
		if wantIdx {
			id[o] = int64(bi)
		}
	})
	return vals.toDType(t.dtype), idx
}

// MaxDim returns (values, indices) of the maximum along dim; indices are
// i64 and point at the first maximum among ties (NaN wins), as PyTorch's
// max(dim).
func MaxDim(t *Tensor, dim int, keepdim bool) (*Tensor, *Tensor, error) {
	return maxMinDim(t, dim, keepdim, true)
}

// MinDim is MaxDim for the minimum.
func MinDim(t *Tensor, dim int, keepdim bool) (*Tensor, *Tensor, error) {
	return maxMinDim(t, dim, keepdim, false)
}

func maxMinDim(t *Tensor, dim int, keepdim, isMax bool) (*Tensor, *Tensor, error) {
	if bp, ok, err := unbroadcast(t, []int{dim}, keepdim); err != nil || ok {
		if err != nil {
			return nil, nil, err
		}
		// a shrunk reduced dim has size 1: its index is 0, the first occurrence
		v, i, err := maxMinDim(bp.src, dim, keepdim, isMax)
		return bp.finish(v), bp.finish(i), err
	}
	p, err := planReduce(t, []int{dim}, keepdim)
	if err != nil {
		return nil, nil, err
	}
	if p.inner == 0 {
		name := "min"
		if isMax {
			name = "max"
		}
		return nil, nil, errorf(IndexError, "%s(): Expected reduction dim %d to have non-zero size.", name, dim)
	}
	v, i := argReduce(t, p, isMax, true)
	return v, i, nil
}

// Max returns the maximum of all elements as a 0-d tensor (NaN
// propagates); an empty tensor is a RuntimeError.
func Max(t *Tensor) (*Tensor, error) { return fullExtreme(t, true) }

// Min returns the minimum of all elements as a 0-d tensor.
func Min(t *Tensor) (*Tensor, error) { return fullExtreme(t, false) }

func fullExtreme(t *Tensor, isMax bool) (*Tensor, error) {
	if t.Numel() == 0 {
		name := "min"
		if isMax {
			name = "max"
		}
		return nil, errorf(RuntimeError, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
	}
	if bp, ok, _ := unbroadcast(t, nil, false); ok {
		return fullExtreme(bp.src, isMax)
	}
	p, _ := planReduce(t, nil, false)
	v, _ := argReduce(t, p, isMax, false)
	return v, nil
}

// Argmax returns i64 indices of the first maximum along dim; dim nil means
// the flat index over all elements.
func Argmax(t *Tensor, dim *int, keepdim bool) (*Tensor, error) {
	return argmaxmin(t, dim, keepdim, true)
}

// Argmin is Argmax for the minimum.
func Argmin(t *Tensor, dim *int, keepdim bool) (*Tensor, error) {
	return argmaxmin(t, dim, keepdim, false)
}

func argmaxmin(t *Tensor, dim *int, keepdim, isMax bool) (*Tensor, error) {
	name := "argmin"
	if isMax {
		name = "argmax"
	}
	if t.dtype == Bool {
		return nil, errorf(RuntimeError, "\"%s_cpu\" not implemented for 'Bool'", name)
	}
	var bdims []int
	if dim != nil {
		bdims = []int{*dim}
	}
	if bp, ok, err := unbroadcast(t, bdims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		if dim == nil {
			return bcastArgFlat(t, bp, keepdim, isMax)
		}
		r, err := argmaxmin(bp.src, dim, keepdim, isMax)
		return bp.finish(r), err
	}
	src := t
	var dims []int
	if dim == nil {
		src = t.Contiguous()
		src = &Tensor{storage: src.storage, shape: []int{src.Numel()}, strides: []int{1}, offset: src.offset, dtype: src.dtype}
		dims = []int{0}
	} else {
		dims = []int{*dim}
	}
	p, err := planReduce(src, dims, keepdim && dim != nil)
	if err != nil {
		return nil, err
	}
	if p.inner == 0 {
		return nil, errorf(IndexError, "%s(): Expected reduction dim to be specified for input.numel() == 0.", name)
	}
	_, idx := argReduce(src, p, isMax, true)
	if dim == nil && keepdim {
		ones := make([]int, len(t.shape))
		for i := range ones {
			ones[i] = 1
		}
		return idx.Reshape(ones...)
	}
	return idx, nil
}

// All reports whether every element over dims is nonzero (bool result).
func All(t *Tensor, dims []int, keepdim bool) (*Tensor, error) { return allAny(t, dims, keepdim, true) }

// Any reports whether some element over dims is nonzero (bool result).
func Any(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	return allAny(t, dims, keepdim, false)
}

func allAny(t *Tensor, dims []int, keepdim, all bool) (*Tensor, error) {
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		r, err := allAny(bp.src, dims, keepdim, all)
		return bp.finish(r), err
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	if r := fastAllAny(t, p, all); r != nil {
		return r, nil
	}
	out := zeros(p.outShape, Bool)
	d := out.storage.Bools()
	p.rowsI64(t.toDType(Bool), func(o int, row []int64) {
		r := all
		for _, v := range row {
			if all && v == 0 {
				r = false
				break
			}
			if !all && v != 0 {
				r = true
				break
			}
		}
		d[o] = r
	})
	return out, nil
}

// Norm returns the vector p-norm over dims (all dims when empty):
// p = 2 (default, Euclidean), 1, +Inf (max |x|), -Inf (min |x|), 0 (count
// of nonzeros) or any other real p; "fro" is p = 2. Float inputs only.
func Norm(t *Tensor, p float64, dims []int, keepdim bool) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		return nil, errorf(RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", pyTypeName(t.dtype))
	}
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return bcastNorm(t, bp, p, dims, keepdim)
	}
	pl, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	if p == 2 {
		if r := fastNorm2(t, pl); r != nil {
			return r, nil
		}
		if r := permutedNorm2(t, pl); r != nil {
			return r, nil
		}
	}
	out := zeros(pl.outShape, F64)
	d := out.storage.F64()
	pl.rowsF64(t, func(o int, row []float64) {
		var r float64
		switch {
		case p == 2:
			r = norm2Seq(row, t.dtype)
		case p == 1:
			for _, v := range row {
				r += math.Abs(v)
			}
		case math.IsInf(p, 1):
			for _, v := range row {
				if a := math.Abs(v); a > r || a != a {
					r = a
				}
			}
		case math.IsInf(p, -1):
			r = math.Inf(1)
			for _, v := range row {
				if a := math.Abs(v); a < r || a != a {
					r = a
				}
			}
		case p == 0:
			for _, v := range row {
				if v != 0 {
					r++
				}
			}
		default:
			for _, v := range row {
				r += math.Pow(math.Abs(v), p)
			}
			r = math.Pow(r, 1/p)
		}
		d[o] = r
	})
	return out.toDType(t.dtype), nil
}

// norm2Seq is the 2-norm of row (values of a tensor of dtype dt) as
// PyTorch's generic norm reduction computes it: Σ x² with one fused
// multiply-add per element, in order, in dt (f32 and f64; other dtypes in
// float64), then the square root. A sum that overflows, or is small enough
// that squares may have underflowed, falls back to scaledNorm2.
func norm2Seq(row []float64, dt DType) float64 {
	var ss float64
	switch dt {
	case F32:
		var b float32
		for _, x := range row {
			b = fmaF32(float32(x), float32(x), b)
		}
		ss = float64(b)
		if ss > 0x1p-100 && ss <= math.MaxFloat32 || ss != ss {
			return float64(float32(math.Sqrt(ss)))
		}
		return scaledNorm2(row)
	case F64:
		ss = sumSqTorchF64(row)
		if ss > 0x1p-900 && ss <= math.MaxFloat64 || ss != ss {
			return math.Sqrt(ss)
		}
	}
	return scaledNorm2(row)
}

// scaledNorm2 returns sqrt(Σ row[i]²) without overflow or underflow in the
// squares: they are taken of row[i] / max|row| (the idea of LAPACK's
// dnrm2).
func scaledNorm2[T vfloat](row []T) float64 {
	scale := 0.0
	for _, v := range row {
		scale = math.Max(scale, math.Abs(float64(v)))
	}
	var s float64
	if scale == 0 || math.IsInf(scale, 0) || scale != scale {
		// Go's math.Max(NaN, +Inf) is +Inf, so a row holding both
		// lands here with scale +Inf: the plain sum of squares is
		// NaN for it (as PyTorch) and +Inf for an Inf without NaN.
		for _, v := range row {
			s += float64(v) * float64(v)
		}
		return math.Sqrt(s)
	}
	for _, v := range row {
		x := float64(v) / scale
		s += x * x
	}
	return scale * math.Sqrt(s)
}

// sumSqTorchF32 is Σ row[i]² as PyTorch 1.13's norm kernel for a reduced
// last dim computes it (binary_kernel_reduce_lastdim, AVX2 build): 8 float
// lanes accumulate fused multiply-adds over whole 8-element blocks, the
// lanes are added in order, then the tail's squares are added one by one
// (rounded, not fused).
func sumSqTorchF32(row []float32) float32 {
	const v = 8
	var acc [v]float32
	d := 0
	for ; d+v <= len(row); d += v {
		blk := row[d : d+v : d+v]
		for j := range v {
			// fmaF32(x, x, acc[j]), written out: x*x is exact in
			// float64, so the float64 sum is the float64 FMA
			x := float64(blk[j])
			s := x*x + float64(acc[j])
			if math.Float64bits(s)&(1<<29-1) == 1<<28 {
				acc[j] = fmaF32Tie(blk[j], blk[j], acc[j], s)
			} else {
				acc[j] = float32(s)
			}
		}
	}
	b := acc[0]
	for _, a := range acc[1:] {
		b += a
	}
	for _, x := range row[d:] {
		b += float32(x * x) // the conversion forbids fusing: the tail is not fused
	}
	return b
}

// sumSqTorchF64 is Σ row[i]² as PyTorch 1.13 computes a float64 norm (its
// generic reduction, not the float lanes): one fused multiply-add per
// element, in order.
func sumSqTorchF64(row []float64) float64 {
	var b float64
	for _, x := range row {
		b = math.FMA(x, x, b)
	}
	return b
}

// fmaF32 is C's fmaf: a*b + c rounded once to float32. The float64 FMA
// rounds the exact value once; rounding that to float32 is the single
// rounding unless the float64 result lies exactly halfway between two
// float32 values (its low 29 mantissa bits are 1 followed by zeros), in
// which case the float64 rounding error decides (fmaF32Tie).
func fmaF32(a, b, c float32) float32 {
	s := math.FMA(float64(a), float64(b), float64(c))
	if math.Float64bits(s)&(1<<29-1) != 1<<28 {
		return float32(s)
	}
	return fmaF32Tie(a, b, c, s)
}

// fmaF32Tie resolves fmaF32's halfway case: the product is exact in
// float64, so TwoSum recovers the error of s = p + c.
func fmaF32Tie(a, b, c float32, s float64) float32 {
	p, c64 := float64(a)*float64(b), float64(c)
	bb := s - p
	e := (p - (s - bb)) + (c64 - bb)
	r := float32(s)
	if e == 0 || math.IsInf(s, 0) {
		return r
	}
	toward := float32(math.Inf(1))
	if s < float64(r) {
		toward = float32(math.Inf(-1))
	}
	if float64(r) == s {
		return r
	}
	if o := math.Nextafter32(r, toward); (e > 0) == (o > r) {
		return o // the exact value is past the halfway point, toward o
	}
	return r
}

// fastNorm2 is Norm with p = 2 over the trailing dims of a contiguous f32
// or f64 tensor: each output is the square root of the row's dot product
// with itself: for tensors of up to torchSumMaxRow elements summed in
// PyTorch's order (sumSqTorchF32/F64, so the results are PyTorch's bits),
// larger ones with the SIMD dot kernels (4096-element blocks in vector
// lanes, block sums in float64); nil when the tensor does not qualify. A row
// whose sum of squares overflows, or is so small that squares may have
// underflowed, takes scaledNorm2 instead. The result may differ from
// scaledNorm2's in the last bit (PyTorch's own vectorised kernel sums
// squares in float lanes too).
func fastNorm2(t *Tensor, pl *reducePlan) *Tensor {
	if !fastPathsOn() || t.dtype != F32 && t.dtype != F64 || pl.inner == 0 || !t.IsContiguous() {
		return nil
	}
	if !trailingReduction(t, pl) {
		return nil
	}
	out := empty(pl.outShape, t.dtype)
	inner := pl.inner
	// PyTorch's order for tensors of up to torchSumMaxRow elements (what
	// prints); larger ones take the SIMD dot kernels.
	small := t.Numel() <= torchSumMaxRow
	if t.dtype == F32 {
		x, od := t.storage.F32()[t.offset:t.offset+t.Numel()], out.storage.F32()
		parallelFor(pl.outer, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				row := x[o*inner : (o+1)*inner]
				var ss float64
				if small {
					ss = float64(sumSqTorchF32(row))
				} else {
					ss = float64(cpu.DotF32(row, row))
				}
				if ss > 0x1p-100 && ss <= math.MaxFloat32 || ss != ss {
					od[o] = float32(math.Sqrt(ss))
				} else {
					od[o] = float32(scaledNorm2(row))
				}
			}
		})
		return out
	}
	x, od := t.storage.F64()[t.offset:t.offset+t.Numel()], out.storage.F64()
	for o := range pl.outer {
		row := x[o*inner : (o+1)*inner]
		var ss float64
		if small {
			ss = sumSqTorchF64(row)
		} else {
			ss = cpu.DotF64(row, row)
		}
		if ss > 0x1p-900 && ss <= math.MaxFloat64 || ss != ss {
			od[o] = math.Sqrt(ss)
		} else {
			od[o] = scaledNorm2(row)
		}
	}
	return out
}

// permutedNorm2 is Norm with p = 2 of a non-contiguous f32/f64 tensor
// whose reduced dims are, in memory, its innermost dense block (x.t()
// reduced over dim 0, a permuted tensor reduced over its stride-1 dims):
// TensorIterator reorders such a reduction into contiguous rows, so it runs
// fastNorm2 on the tensor permuted to memory order (kept dims, then
// reduced dims, each by decreasing stride) and puts the kept dims back in
// their order. nil when the permuted tensor is not contiguous.
func permutedNorm2(t *Tensor, pl *reducePlan) *Tensor {
	if t.dtype != F32 && t.dtype != F64 || t.IsContiguous() || len(t.shape) < 2 {
		return nil
	}
	var kept, red []int
	for d := range t.shape {
		if pl.red[d] {
			red = append(red, d)
		} else {
			kept = append(kept, d)
		}
	}
	byStride := func(a, b int) int { return t.strides[b] - t.strides[a] }
	ks := slices.Clone(kept)
	slices.SortStableFunc(ks, byStride)
	slices.SortStableFunc(red, byStride)
	perm := append(slices.Clone(ks), red...)
	pt, err := t.Permute(perm...)
	if err != nil {
		return nil
	}
	if !pt.IsContiguous() {
		// rows dense in memory but spaced apart (x[::2] over its last
		// dim): PyTorch reduces each row in place; a compacting copy
		// keeps every row's values and order
		if !denseSuffix(pt.shape[len(ks):], pt.strides[len(ks):]) {
			return nil
		}
		pt = pt.Contiguous()
	}
	trailing := make([]int, len(red))
	for i := range red {
		trailing[i] = len(ks) + i
	}
	pl2, err := planReduce(pt, trailing, false)
	if err != nil {
		return nil
	}
	r := fastNorm2(pt, pl2) // shape: the kept dims in ks order
	if r == nil {
		return nil
	}
	if len(ks) > 1 {
		inv := make([]int, len(ks))
		for i, d := range kept {
			inv[i] = slices.Index(ks, d)
		}
		rp, err := r.Permute(inv...)
		if err != nil {
			return nil
		}
		r = rp.Contiguous()
	}
	rr, err := r.Reshape(pl.outShape...)
	if err != nil {
		return nil
	}
	return rr
}

// denseSuffix reports whether dims of these sizes and strides are laid out
// row-major with the last stride 1 (size-1 dims ignored).
func denseSuffix(shape, strides []int) bool {
	want := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 1 {
			continue
		}
		if strides[i] != want {
			return false
		}
		want *= shape[i]
	}
	return true
}

// memoryOrderView returns t permuted so that its strides decrease, when
// that view is contiguous (t is a transpose or permutation of a dense
// tensor), else nil: the order in which PyTorch's TensorIterator walks a
// full reduction of t.
func memoryOrderView(t *Tensor) *Tensor {
	perm := make([]int, len(t.shape))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return t.strides[b] - t.strides[a] })
	pt, err := t.Permute(perm...)
	if err != nil || !pt.IsContiguous() {
		return nil
	}
	return pt
}

// LogSumExp returns log(sum(exp(t))) over dims, computed as
// m + log(sum(exp(t - m))) with m the max, so 1e4 logits do not overflow.
// Integer inputs give f32.
func LogSumExp(t *Tensor, dims []int, keepdim bool) (*Tensor, error) {
	if bp, ok, err := unbroadcast(t, dims, keepdim); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return bcastLogSumExp(t, bp, dims, keepdim)
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, err
	}
	if r := fastLogSumExp(t, p); r != nil {
		return r, nil
	}
	if (t.dtype == F32 || t.dtype == F64) && !t.IsContiguous() && trailingReduction(t, p) && denseSuffix(p.redShape, p.redStrides) {
		// dense rows spaced apart (x[::2] over its last dim): PyTorch's
		// exp(x - max) is a contiguous tensor, summed row by row; a
		// compacting copy gives the same rows
		c := t.Contiguous()
		if pc, err := planReduce(c, dims, keepdim); err == nil {
			if r := fastLogSumExp(c, pc); r != nil {
				return r, nil
			}
		}
	}
	odt := t.dtype
	if !odt.IsFloat() {
		odt = DefaultFloat
	}
	out := zeros(p.outShape, F64)
	d := out.storage.F64()
	p.rowsF64(t, func(o int, row []float64) {
		m := math.Inf(-1)
		for _, v := range row {
			if v > m || v != v {
				m = v
			}
		}
		if math.IsInf(m, 0) {
			m = 0 // all -inf gives -inf; +inf gives +inf
		}
		var s float64
		for _, v := range row {
			s += math.Exp(v - m)
		}
		d[o] = m + math.Log(s)
	})
	return out.toDType(odt), nil
}

// scanDim applies a running operation along dim: fn(row) rewrites the
// row (gathered contiguous) in place.
func scanDim(t *Tensor, dim int, odt DType, fn func(row []float64)) (*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	src := t.toDType(F64).Contiguous()
	out := src.Clone()
	if len(out.shape) == 0 || out.Numel() == 0 {
		return out.toDType(odt), nil
	}
	// move dim last
	perm := make([]int, 0, len(t.shape))
	for i := range t.shape {
		if i != d {
			perm = append(perm, i)
		}
	}
	perm = append(perm, d)
	pv, _ := out.Permute(perm...)
	n := t.shape[d]
	st := pv.strides[len(pv.strides)-1]
	row := make([]float64, n)
	buf := out.storage.F64()
	outer := &Tensor{storage: out.storage, shape: pv.shape[:len(pv.shape)-1], strides: pv.strides[:len(pv.strides)-1], offset: 0, dtype: F64}
	walk1(outer, func(base, m, s int) {
		for i := 0; i < m; i++ {
			b := base + i*s
			for k := 0; k < n; k++ {
				row[k] = buf[b+k*st]
			}
			fn(row)
			for k := 0; k < n; k++ {
				buf[b+k*st] = row[k]
			}
		}
	})
	return out.toDType(odt), nil
}

// Cumsum returns running sums along dim (bool/int inputs give i64, with
// wrap-around; floats accumulate in f64, as PyTorch's CPU kernel).
func Cumsum(t *Tensor, dim int) (*Tensor, error) {
	if d, err := wrapDim(dim, len(t.shape)); err == nil {
		if r := fastScan(t, d, false); r != nil {
			return r, nil
		}
	}
	if !t.dtype.IsFloat() {
		return scanInt(t, dim, false)
	}
	return scanDim(t, dim, t.dtype, func(r []float64) {
		for k := 1; k < len(r); k++ {
			r[k] += r[k-1]
		}
	})
}

// Cumprod returns running products along dim (bool/int inputs give i64).
func Cumprod(t *Tensor, dim int) (*Tensor, error) {
	if d, err := wrapDim(dim, len(t.shape)); err == nil {
		if r := fastScan(t, d, true); r != nil {
			return r, nil
		}
	}
	if !t.dtype.IsFloat() {
		return scanInt(t, dim, true)
	}
	return scanDim(t, dim, t.dtype, func(r []float64) {
		for k := 1; k < len(r); k++ {
			r[k] *= r[k-1]
		}
	})
}

func scanInt(t *Tensor, dim int, prod bool) (*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	out := t.toDType(I64).Clone()
	if len(out.shape) == 0 || out.Numel() == 0 {
		return out, nil
	}
	buf := out.storage.I64()
	n, st := out.shape[d], out.strides[d]
	sh := slices.Clone(out.shape)
	sh[d] = 1
	outer := &Tensor{storage: out.storage, shape: sh, strides: out.strides, dtype: I64}
	walk1(outer, func(base, m, s int) {
		for i := 0; i < m; i++ {
			b := base + i*s
			for k := 1; k < n; k++ {
				if prod {
					buf[b+k*st] *= buf[b+(k-1)*st]
				} else {
					buf[b+k*st] += buf[b+(k-1)*st]
				}
			}
		}
	})
	return out, nil
}

// Softmax returns exp(t - max) / sum(exp(t - max)) along dim, stable for
// large logits; f16/bf16 compute in f32 (here f64) and round once. Integer
// inputs are a RuntimeError as in PyTorch.
func Softmax(t *Tensor, dim int) (*Tensor, error) { return softmax(t, dim, false) }

// LogSoftmax returns t - max - log(sum(exp(t - max))) along dim.
func LogSoftmax(t *Tensor, dim int) (*Tensor, error) { return softmax(t, dim, true) }

func softmax(t *Tensor, dim int, logsm bool) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		name := "softmax"
		if logsm {
			name = "log_softmax"
		}
		return nil, errorf(RuntimeError, "\"%s_lastdim_kernel_impl\" not implemented for '%s'", name, pyTypeName(t.dtype))
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if r := fastSoftmax(t, d, logsm); r != nil {
		return r, nil
	}
	return scanDim(t, dim, t.dtype, func(r []float64) {
		m := math.Inf(-1)
		for _, v := range r {
			if v > m || v != v {
				m = v
			}
		}
		if math.IsInf(m, -1) {
			m = 0
		}
		var s float64
		for _, v := range r {
			s += math.Exp(v - m)
		}
		if logsm {
			ls := math.Log(s)
			for k, v := range r {
				r[k] = v - m - ls
			}
			return
		}
		for k, v := range r {
			r[k] = math.Exp(v-m) / s
		}
	})
}

// intRowsReduce is sum/prod of an integer or bool t whose reduced dims
// are the trailing ones of a contiguous layout (the whole tensor, or
// rows): each output d[o] is accumulated straight from the storage in
// int64 (wrapping as PyTorch's int64 accumulation), with no per-row copy
// into a scratch row. It reports false for other layouts.
func intRowsReduce(t *Tensor, p *reducePlan, d []int64, prod bool) bool {
	if !t.IsContiguous() || p.outer == 0 {
		return false
	}
	seenRed := false
	for i := range t.shape {
		if p.red[i] {
			seenRed = true
		} else if seenRed && t.shape[i] != 1 {
			return false // a kept dim after a reduced one
		}
	}
	n := p.inner
	off := t.offset
	switch t.dtype {
	case I64:
		x := t.storage.I64()[off : off+n*p.outer]
		if !prod { // the vector kernel: wrapping sums are order-free
			for o := range d {
				d[o] = cpu.SumI64(x[o*n : o*n+n])
			}
			break
		}
		intRows(x, n, d, prod)
	case I32:
		intRows(t.storage.I32()[off:off+n*p.outer], n, d, prod)
	case I16:
		intRows(t.storage.I16()[off:off+n*p.outer], n, d, prod)
	case I8:
		intRows(t.storage.I8()[off:off+n*p.outer], n, d, prod)
	case U8:
		intRows(t.storage.U8()[off:off+n*p.outer], n, d, prod)
	case Bool:
		b := t.storage.Bools()[off : off+n*p.outer]
		u := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(b))), len(b)) // bools are 0/1 bytes
		intRows(u, n, d, prod)
	default:
		return false
	}
	return true
}

// intRows sets d[o] to the int64 sum (or product) of x[o*n : (o+1)*n].
func intRows[T int8 | int16 | int32 | int64 | uint8](x []T, n int, d []int64, prod bool) {
	for o := range d {
		row := x[o*n : o*n+n]
		if prod {
			acc := int64(1)
			for _, v := range row {
				acc *= int64(v)
			}
			d[o] = acc
			continue
		}
		// four independent accumulators (integer addition is associative,
		// so the wrapped result is the sequential one)
		var a0, a1, a2, a3 int64
		i := 0
		for ; i+4 <= len(row); i += 4 {
			r := row[i : i+4 : i+4]
			a0 += int64(r[0])
			a1 += int64(r[1])
			a2 += int64(r[2])
			a3 += int64(r[3])
		}
		for ; i < len(row); i++ {
			a0 += int64(row[i])
		}
		d[o] = a0 + a1 + a2 + a3
	}
}
