package stdlib

import (
	"math"
	"slices"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// PyTorch 1.13 functions tsr lacked: nanmedian (function and method),
// cumulative_trapezoid, histogram (function and method). Argument names,
// defaults, result dtypes, errors and grad_fn names are PyTorch's.
// nanmedian records NanmedianBackward0 (no dim: the gradient shared evenly
// among the elements equal to the result, ATen's
// evenly_distribute_backward) or NanmedianBackward1 (with dim: the
// gradient goes to the selected index); cumulative_trapezoid is composed
// of recorded ops as ATen's (so it is differentiable, CumsumBackward0);
// histogram is not differentiable.

func init() {
	defMethodFunc("nanmedian", "nanmedian(): the lower median of the non-NaN elements (0-d; NaN when all are NaN); nanmedian(dim, keepdim=false): the named tuple (values, indices) along dim, each row's median ignoring NaNs (a row of NaNs only: NaN, index 0). Integer tensors: the same as median. grad_fn NanmedianBackward0 / NanmedianBackward1.", methodNanmedian)
	defGlobal("cumulative_trapezoid", "cumulative_trapezoid(y, x=none, *, dx=none, dim=-1): the running trapezoidal-rule integral of y along dim (one element fewer than y along dim): cumsum((y[1:] + y[:-1]) * dx / 2) with the sample points x (1-D of y's size along dim, or broadcastable to y) or the constant spacing dx (default 1). Integer y gives f32 (f64 with an f64 x). grad_fn CumsumBackward0.", builtinCumulativeTrapezoid)
	defMethodFunc("histogram", "histogram(bins, *, range=none, weight=none, density=false): the named tuple (hist, bin_edges) of self's elements (flattened, f32 or f64): bins an int (that many equal-width bins over range, default self's min and max, widened by 0.5 on each side when equal; [0, 1] when self is empty) or a 1-D tensor of self's dtype holding the increasing bin edges. Each bin holds its left edge, the last one its right edge too; elements outside and NaN are not counted. weight (self's shape and dtype) counts each element by its weight; density divides by the total and the bin widths. Not differentiable.", methodHistogram)
}

// methodNanmedian is PyTorch's nanmedian: the element (k-1)/2 of each row
// in sorted order, k the count of non-NaN elements (NaNs sort last); k = 0
// gives the row's first NaN (index 0). Among equal values the index is
// the one a stable sort puts at that position (PyTorch leaves it
// unspecified). Integer and bool tensors hold no NaN: median's result.
func methodNanmedian(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var d intOpt
	keep := false
	if err := runtime.UnpackArgs("nanmedian", args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
		return nil, err
	}
	e := engineOf(th)
	if !x.t.DType().IsFloat() {
		if !d.ok && x.t.Numel() == 0 {
			// PyTorch 1.13 returns an uninitialised value here
			return nil, runtime.Errorf("RuntimeError", "nanmedian() input tensor cannot be empty")
		}
		r, err := methodMedian(th, x, args, kwargs)
		if nt, ok := r.(*runtime.NamedTuple); ok && err == nil {
			nt.TypeName = "nanmedian"
		}
		return r, err
	}
	if !d.ok {
		if x.t.Numel() == 0 {
			return x.result(tensor.Full([]int{}, math.NaN(), x.t.DType()))
		}
		vals := x.t.ToFloat64s()
		i := nanmedianIndex(vals, make([]int, len(vals)))
		v, err := tensor.Full([]int{}, vals[i], x.t.DType())
		if err != nil {
			return nil, err
		}
		src := x.t
		return x.result(e.ApplyCustom("NanmedianBackward0", []*T{src}, func() (*T, error) { return v, nil }, func(g *T) ([]*T, error) {
			gi, err := evenlyDistribute(g, src, v)
			return []*T{gi}, err
		}))
	}
	v, i, err := as1D(e, x.t, func(t *T, dim int) (*T, *T, error) {
		return nanmedianAlong(e, t, dim, keep && x.t.Dim() > 0)
	}, d.v)
	if err != nil {
		return nil, err
	}
	return valuesIndices("nanmedian", x.eng, v, i), nil
}

// nanmedianIndex returns the index in vals of their lower median ignoring
// NaNs (0 when all are NaN): the index a stable sort (NaNs last) puts at
// position (k-1)/2, k the number of non-NaN values. perm is scratch of
// len(vals). It selects the median value in linear expected time, then
// finds which of the values equal to it a stable sort puts there: the
// (p - #less)-th of them in input order.
func nanmedianIndex(vals []float64, perm []int) int {
	buf := make([]float64, 0, len(vals))
	for _, v := range vals {
		if !math.IsNaN(v) {
			buf = append(buf, v)
		}
	}
	k := len(buf)
	if k == 0 {
		for i := range perm {
			perm[i] = i
		}
		return allNaNNthElement(perm)
	}
	p := (k - 1) / 2
	m := selectKth(buf, p)
	less := 0
	for _, v := range vals {
		if v < m {
			less++
		}
	}
	j := p - less
	for i, v := range vals {
		if v == m {
			if j == 0 {
				return i
			}
			j--
		}
	}
	panic("nanmedianIndex: median not found")
}

// selectKth returns the k-th smallest (0-based) of a, which holds no NaN
// and is reordered: quickselect with a median-of-three pivot and a
// three-way partition, falling back to a sort after too many rounds.
func selectKth(a []float64, k int) float64 {
	lo, hi := 0, len(a) // the answer is in a[lo:hi]
	for rounds := 0; hi-lo > 16; rounds++ {
		if rounds > 64 {
			slices.Sort(a[lo:hi])
			return a[k]
		}
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi-1]
		if x > y {
			x, y = y, x
		}
		if y > z {
			y = z
			if x > y {
				y = x
			}
		}
		pivot := y
		// a[lo:lt] < pivot, a[lt:i] == pivot, a[gt:hi] > pivot
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch v := a[i]; {
			case v < pivot:
				a[lt], a[i] = a[i], a[lt]
				lt++
				i++
			case v > pivot:
				gt--
				a[gt], a[i] = a[i], a[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return pivot
		}
	}
	slices.Sort(a[lo:hi])
	return a[k]
}

// allNaNNthElement is the index libstdc++'s std::nth_element(first,
// first, last, comp) leaves at the front of a row when comp is always
// false (PyTorch's nanmedian of a row of NaNs: introselect, each round
// moving the middle element to the front and partitioning by swapping
// from both ends, until three elements or fewer remain). perm holds
// 0..n-1 and is permuted.
func allNaNNthElement(perm []int) int {
	first, last := 0, len(perm)
	for last-first > 3 {
		mid := first + (last-first)/2
		perm[first], perm[mid] = perm[mid], perm[first]
		lo, hi := first+1, last
		for {
			hi--
			if lo >= hi {
				break
			}
			perm[lo], perm[hi] = perm[hi], perm[lo]
			lo++
		}
		last = lo // the cut is past nth (= first): keep the left part
	}
	return perm[first]
}

// nanmedianAlong is nanmedian along dim of a float tensor with at least
// one dim: the values (recorded as NanmedianBackward1) and i64 indices.
func nanmedianAlong(e *Engine, x *T, dim int, keep bool) (*T, *T, error) {
	shape := x.Shape()
	n := shape[dim]
	if n == 0 {
		return nil, nil, runtime.Errorf("IndexError", "median(): Expected reduction dim %d to have non-zero size.", dim)
	}
	last := x.Dim() - 1
	moved, err := x.Movedim([]int{dim}, []int{last})
	if err != nil {
		return nil, nil, err
	}
	vals := moved.ToFloat64s() // C order of the moved view: rows along dim
	rows := len(vals) / n
	idx := make([]int64, rows)
	perm := make([]int, n)
	for r := range idx {
		idx[r] = int64(nanmedianIndex(vals[r*n:(r+1)*n], perm))
	}
	kshape := slices.Clone(shape)
	kshape[dim] = 1 // dropping dim and inserting 1 keeps the C order
	it, err := tensor.FromInt64s(idx, kshape, tensor.I64)
	if err != nil {
		return nil, nil, err
	}
	v, err := takeAlongOp(e, "NanmedianBackward1", x, dim, it, nil)
	if err != nil {
		return nil, nil, err
	}
	if !keep {
		if v, err = squeezeOp(e, v, []int{dim}); err != nil {
			return nil, nil, err
		}
		autograd.SetGradFnName(v, "NanmedianBackward1") // one node in PyTorch
		if it, err = it.Squeeze(dim); err != nil {
			return nil, nil, err
		}
	}
	return v, it, nil
}

// evenlyDistribute is ATen's evenly_distribute_backward for a 0-d result
// v of a full reduction of x: the gradient g split evenly among the
// elements equal to v (among the NaNs when v is NaN).
func evenlyDistribute(g, x, v *T) (*T, error) {
	var mask *T
	var err error
	if math.IsNaN(v.FlatFloat64(0)) {
		mask, err = tensor.IsNan(x)
	} else {
		mask, err = tensor.Eq(x, v)
	}
	if err != nil {
		return nil, err
	}
	mf, err := mask.To(g.DType())
	if err != nil {
		return nil, err
	}
	cnt, err := tensor.Sum(mf, nil, false)
	if err != nil {
		return nil, err
	}
	share, err := tensor.Div(g, cnt)
	if err != nil {
		return nil, err
	}
	return tensor.Mul(mf, share)
}

func builtinCumulativeTrapezoid(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const name = "cumulative_trapezoid"
	var y tensorArg
	var xv, dxv runtime.Value = runtime.None, runtime.None
	dim := -1
	if err := runtime.UnpackArgs(name, args, kwargs, "y", &y, "x?", &xv, "dx?", &dxv, "dim?", &dim); err != nil {
		return nil, err
	}
	if xv != runtime.None && dxv != runtime.None {
		return nil, runtime.Errorf("TypeError", "%s() received an invalid combination of arguments - got both x and dx", name)
	}
	if y.t.Dim() == 0 {
		return nil, runtime.Errorf("IndexError", "Dimension specified as %d but tensor has no dimensions", dim)
	}
	d, err := normDim(dim, y.t.Dim())
	if err != nil {
		return nil, err
	}
	m := func(recv runtime.Value, meth string, a ...runtime.Value) (runtime.Value, error) {
		return callMethod(th, recv, meth, a, nil)
	}
	yv := &TensorValue{t: y.t, eng: engineOf(th)}
	n := y.t.Shape()[d]
	// left = y.slice(dim, 0, -1), right = y.slice(dim, 1)
	slice := func(v runtime.Value, size int) (l, r runtime.Value, err error) {
		k := max(size-1, 0)
		if l, err = m(v, "narrow", iv(d), iv(0), iv(k)); err != nil {
			return nil, nil, err
		}
		r, err = m(v, "narrow", iv(d), iv(min(1, size)), iv(k))
		return l, r, err
	}
	if xv == runtime.None {
		if y.t.DType() == tensor.Bool {
			return nil, runtime.Errorf("RuntimeError", "cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
		}
		dx := 1.0
		if dxv != runtime.None {
			f, ok := runtime.AsFloat(dxv)
			if !ok || isBool(dxv) {
				return nil, runtime.Errorf("TypeError", "%s(): argument 'dx' must be Number, not %s", name, dxv.Type())
			}
			dx = f
		}
		l, r, err := slice(yv, n)
		if err != nil {
			return nil, err
		}
		// (dx / 2. * (left + right)).cumsum(dim)
		s, err := m(l, "add", r)
		if err == nil {
			s, err = m(s, "mul", runtime.Float(dx/2))
		}
		if err != nil {
			return nil, err
		}
		return m(s, "cumsum", iv(d))
	}
	xs, err := trapezoidX(th, "cumulative_trapezoid", name, y, xv, n, d)
	if err != nil {
		return nil, err
	}
	if d >= xs.(*TensorValue).t.Dim() {
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -xs.(*TensorValue).t.Dim(), xs.(*TensorValue).t.Dim()-1, dim)
	}
	xl, xr, err := slice(xs, xs.(*TensorValue).t.Shape()[d])
	if err != nil {
		return nil, err
	}
	dx, err := m(xr, "sub", xl)
	if err != nil {
		return nil, err
	}
	l, r, err := slice(yv, n)
	if err != nil {
		return nil, err
	}
	// ((dx * (left + right)) / 2.).cumsum(dim)
	s, err := m(l, "add", r)
	if err == nil {
		s, err = m(dx, "mul", s)
	}
	if err == nil {
		s, err = m(s, "cumsum", iv(d))
	}
	if err != nil {
		return nil, err
	}
	// PyTorch 1.13 divides after the cumsum (exact either way: / 2)
	s, err = m(s, "div", runtime.Float(2))
	return scalarNode(s, err, "DivBackward1")
}

// methodHistogram is torch.histogram, ATen's histogramdd kernel for one
// dimension: int bins take linspace edges and a bin found by linear
// interpolation in self's dtype corrected by a local search of the edges
// (LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH); tensor bins a binary search
// (upper_bound) of the edges. Counts and weights accumulate in self's
// dtype.
func methodHistogram(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var bins runtime.Value
	var rng runtime.Value = runtime.None
	var weight tensorOpt
	density := false
	if err := runtime.UnpackArgs("histogram", args, kwargs, "bins", &bins, "range?", &rng, "weight?", &weight, "density?", &density); err != nil {
		return nil, err
	}
	dt := x.t.DType()
	binsT, isTensor := bins.(*TensorValue)
	nbins, isInt := bins.(runtime.Int)
	switch {
	case isTensor && rng != runtime.None:
		return nil, runtime.Errorf("TypeError", "histogram() received an invalid combination of arguments - got (Tensor, Tensor, range=%s), but expected one of: (Tensor input, Tensor bins, *, Tensor weight, bool density) or (Tensor input, int bins, *, tuple of floats range, Tensor weight, bool density)", rng.Type())
	case !isTensor && !isInt:
		return nil, runtime.Errorf("TypeError", "histogram(): argument 'bins' must be int or Tensor, not %s", bins.Type())
	}
	if dt != tensor.F32 && dt != tensor.F64 {
		return nil, runtime.Errorf("RuntimeError", "\"histogramdd\" not implemented for '%s'", dt.TorchName())
	}
	if isTensor {
		if bt := binsT.t.DType(); bt != dt {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype %s and bins for dimension 0 with dtype %s", c10TypeName(dt), c10TypeName(bt))
		}
		if binsT.t.Dim() != 1 {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: bins tensor should have one dimension, but got %d dimensions in the bins tensor for dimension 0", binsT.t.Dim())
		}
		if binsT.t.Numel() < 2 {
			return nil, runtime.Errorf("RuntimeError", "torch.histogram(): bins must be > 0, but got %d for dimension 0", max(binsT.t.Numel()-1, 0))
		}
	} else if nbins <= 0 {
		return nil, runtime.Errorf("RuntimeError", "torch.histogram(): bins must be > 0, but got %d for dimension 0", int(nbins))
	}
	if weight.t != nil {
		if !sameShape(weight.t.Shape(), x.t.Shape()) {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape %s and weight with shape %s", intList([]int{x.t.Numel(), 1}), intList(weight.t.Shape()))
		}
		if weight.t.DType() != dt {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, but got input(%s), and weight(%s)", c10TypeName(dt), c10TypeName(weight.t.DType()))
		}
	}
	var edges *T
	var err error
	if isTensor {
		edges = binsT.t.Clone() // PyTorch's bin_edges is a copy of bins
	} else {
		lo, hi := 0.0, 1.0
		if rng != runtime.None {
			r, ok := floatPair(rng)
			if !ok {
				return nil, runtime.Errorf("TypeError", "histogram(): argument 'range' must be tuple of floats, not %s", rng.Type())
			}
			lo, hi = r[0], r[1]
		} else if x.t.Numel() > 0 {
			lo, hi = tensor.MinMaxFloat(x.t)
		}
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: dimension 0's range [%s, %s] is not finite", tensor.CppDouble(lo), tensor.CppDouble(hi))
		}
		if lo > hi {
			return nil, runtime.Errorf("RuntimeError", "torch.histogramdd: min should not exceed max, but got min %s max %s for dimension 0", tensor.CppDouble(lo), tensor.CppDouble(hi))
		}
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
		if edges, err = tensor.Linspace(lo, hi, int(nbins)+1, dt); err != nil {
			return nil, err
		}
	}
	ev := edges.ToFloat64s()
	nb := len(ev) - 1
	// r rounds an f32 accumulation; f64 is exact already
	r := func(v float64) float64 { return tensor.RoundToDType(v, dt) }
	hist := tensor.HistogramCounts(x.t, weight.t, ev, !isTensor)
	if density {
		var sum float64
		for _, h := range hist {
			sum = r(sum + h)
		}
		sum = r(sum)
		for i := range hist {
			hist[i] = r(r(hist[i]/sum) / r(ev[i+1]-ev[i]))
		}
	}
	ht, err := tensor.FromFloat64s(hist, []int{nb}, dt)
	if err != nil {
		return nil, err
	}
	return &runtime.NamedTuple{TypeName: "histogram", Fields: []string{"hist", "bin_edges"},
		Tuple: runtime.Tuple{wrap(x.eng, ht), wrap(x.eng, edges)}}, nil
}

// floatPair reads range=(min, max): a tuple or list of two numbers.
func floatPair(v runtime.Value) ([]float64, bool) {
	var items []runtime.Value
	switch s := v.(type) {
	case runtime.Tuple:
		items = s
	case *runtime.List:
		items = s.Elems
	default:
		return nil, false
	}
	if len(items) != 2 {
		return nil, false
	}
	out := make([]float64, 2)
	for i, it := range items {
		f, ok := runtime.AsFloat(it)
		if !ok || isBool(it) {
			return nil, false
		}
		out[i] = f
	}
	return out, true
}
