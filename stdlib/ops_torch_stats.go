package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// PyTorch's histc, unique_consecutive, quantile and nanquantile
// (functions and tensor methods) with PyTorch 1.13's argument names,
// errors, result layouts and grad_fn names. quantile follows ATen's
// quantile_compute step by step (sort, ranks in the input's dtype,
// gather, lerp, then the views that move q's dim first), so its values,
// strides and gradients (to the input and to a tensor q) are PyTorch's.

func init() {
	defMethodFunc("histc", "histc(bins=100, min=0, max=0): counts of the elements in bins equal-width bins over [min, max] (min == max: the elements' own range), as a [bins] tensor of self's dtype (f32, f64, bf16); elements outside the range and NaN are ignored. Not differentiable.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		bins := 100
		var lo, hi floatOpt
		if err := runtime.UnpackArgs("histc", args, kwargs, "bins?", &bins, "min?", &lo, "max?", &hi); err != nil {
			return nil, err
		}
		return x.result(tensor.Histc(x.t, bins, lo.v, hi.v))
	})

	defMethodFunc("unique_consecutive", "unique_consecutive(return_inverse=false, return_counts=false, dim=none): self flattened with each run of equal neighbours reduced to one element (NaNs never equal), or with dim the runs of equal slices along dim; the tensor alone, or the tuple (output, inverse?, counts?): inverse (i64, self's shape, or [size of dim]) maps each element/slice to its output position, counts (i64) gives each run's length. grad_fn UniqueConsecutiveBackward0, whose backward raises (not differentiable, as PyTorch).", methodUniqueConsecutive)

	for _, nan := range []bool{false, true} {
		name := "quantile"
		doc := "quantile(q, dim=none, keepdim=false, interpolation=\"linear\"): the q-th quantiles (q a number or a 0-d/1-D tensor of self's dtype, in [0, 1]) of self (f32 or f64) flattened, or along dim; a 1-D q adds a first dim of its length. interpolation between the two nearest sorted values: linear, lower, higher, midpoint or nearest (round half to even). A NaN in a row makes that quantile NaN. Differentiable in self and a tensor q; grad_fn SqueezeBackward3."
		if nan {
			name = "nanquantile"
			doc = "nanquantile(q, dim=none, keepdim=false, interpolation=\"linear\"): quantile ignoring NaNs (a row of NaNs only gives NaN). grad_fn SqueezeBackward3."
		}
		nan := nan
		defMethodFunc(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var q runtime.Value
			var dim intOpt
			keepdim := false
			interp := "linear"
			if err := runtime.UnpackArgs(name, args, kwargs, "q", &q, "dim?", &dim, "keepdim?", &keepdim, "interpolation?", &interp); err != nil {
				return nil, err
			}
			var qt *T
			switch v := q.(type) {
			case *TensorValue:
				qt = v.t
			case runtime.Int, runtime.Float:
				f, _ := runtime.AsFloat(v)
				if !(f >= 0 && f <= 1) {
					return nil, runtime.Errorf("RuntimeError", "quantile() q must be in the range [0, 1] but got %s", tensor.CppDouble(f))
				}
				var err error
				if qt, err = tensor.FromFloat64s([]float64{f}, nil, x.t.DType()); err != nil {
					return nil, err
				}
			default:
				return nil, runtime.Errorf("TypeError", "%s(): argument 'q' must be a number or a tensor, not %s", name, q.Type())
			}
			return x.result(quantileOp(engineOf(th), x.t, qt, dim, keepdim, interp, nan))
		})
	}
}

// quantileOp is ATen's quantile_compute from recorded ops (see the file
// comment); nan selects nanquantile.
func quantileOp(e *Engine, x, q *T, dim intOpt, keepdim bool, interp string, nan bool) (*T, error) {
	switch interp {
	case "linear", "lower", "higher", "midpoint", "nearest":
	default:
		return nil, runtime.Errorf("RuntimeError", "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got %s", interp)
	}
	switch {
	case x.Numel() == 0:
		return nil, runtime.Errorf("RuntimeError", "quantile() input tensor must be non-empty")
	case q.Dim() > 1:
		return nil, runtime.Errorf("RuntimeError", "quantile() q must be a scalar or 1D tensor")
	case x.DType() != tensor.F32 && x.DType() != tensor.F64:
		return nil, runtime.Errorf("RuntimeError", "quantile() input tensor must be either float or double dtype")
	case q.DType() != x.DType():
		return nil, runtime.Errorf("RuntimeError", "quantile() q tensor must be same dtype as the input tensor")
	}
	d, err := normDim(dim.v, x.Dim())
	if err != nil {
		return nil, err
	}
	// the reduced shape (the result's shape without q's dim)
	var outShape []int
	switch {
	case dim.ok && x.Dim() > 0:
		outShape = append([]int(nil), x.Shape()...)
		if keepdim {
			outShape[d] = 1
		} else {
			outShape = append(outShape[:d], outShape[d+1:]...)
		}
	case keepdim:
		outShape = make([]int, x.Dim())
		for i := range outShape {
			outShape[i] = 1
		}
	}
	for _, v := range q.ToFloat64s() {
		if !(v >= 0 && v <= 1) {
			return nil, runtime.Errorf("RuntimeError", "quantile() q values must be in the range [0, 1]")
		}
	}
	// sort along the reduced dim, moved last
	var src *T
	switch {
	case !dim.ok:
		src, err = reshapeOp(e, x, []int{x.Numel()})
	case d == x.Dim()-1:
		src = x
	default:
		if src, err = unsqueezeOp(e, x, -1); err == nil {
			src, err = transposeOp(e, src, d, -1)
		}
	}
	if err != nil {
		return nil, err
	}
	last := src.Dim() - 1
	sv, si, err := tensor.Sort(src, last, false)
	if err != nil {
		return nil, err
	}
	sorted, err := takeAlongOp(e, "SortBackward", src, last, si, sv)
	if err != nil {
		return nil, err
	}
	n := sorted.Shape()[last]
	// view as the reduced shape plus the sorted dim (q's dim comes last
	// in the ranks, and is moved first at the end)
	inShape := append(append([]int(nil), outShape...), n)
	if sorted, err = viewOp(e, sorted, inShape); err != nil {
		return nil, err
	}
	if n > 1<<24 {
		return nil, runtime.Errorf("RuntimeError", "quantile() input tensor is too large")
	}
	lastDim := len(inShape) - 1
	isNaN, err := tensor.IsNan(sorted)
	if err != nil {
		return nil, err
	}
	// ranks in [0, n), in the input's dtype
	var ranks *T
	if nan {
		notNaN, err := tensor.LogicalNot(isNaN)
		if err != nil {
			return nil, err
		}
		cnt, err := tensor.Sum(notNaN, []int{lastDim}, true)
		if err != nil {
			return nil, err
		}
		if cnt, err = tensor.Sub(cnt, tensor.ScalarInt(1)); err != nil {
			return nil, err
		}
		if ranks, err = applyBinary(e, "mul", tensor.Mul, q, cnt); err != nil {
			return nil, err
		}
		neg, err := tensor.Lt(ranks, tensor.ScalarInt(0))
		if err != nil {
			return nil, err
		}
		if ranks, err = maskedFillOp(e, ranks, neg, tensor.ScalarInt(0)); err != nil {
			return nil, err
		}
	} else {
		qr, err := applyBinary(e, "mul", tensor.Mul, q, tensor.ScalarInt(int64(n-1)))
		if err != nil {
			return nil, err
		}
		anyNaN, err := tensor.Any(isNaN, []int{lastDim}, true)
		if err != nil {
			return nil, err
		}
		shape, err := tensor.BroadcastShapes(qr.Shape(), anyNaN.Shape())
		if err != nil {
			return nil, err
		}
		if qr, err = expandOp(e, qr, shape); err != nil {
			return nil, err
		}
		if anyNaN, err = anyNaN.Expand(shape...); err != nil {
			return nil, err
		}
		if ranks, err = maskedFillOp(e, qr, anyNaN, tensor.ScalarInt(int64(n-1))); err != nil {
			return nil, err
		}
	}
	switch interp {
	case "lower":
		ranks, err = unaryOp(e, "floor", ranks)
	case "higher":
		ranks, err = unaryOp(e, "ceil", ranks)
	case "nearest":
		ranks, err = unaryOp(e, "round", ranks)
	}
	if err != nil {
		return nil, err
	}
	below, err := ranks.To(tensor.I64)
	if err != nil {
		return nil, err
	}
	r, err := takeAlongOp(e, "GatherBackward", sorted, lastDim, below, nil)
	if err != nil {
		return nil, err
	}
	if interp == "linear" || interp == "midpoint" {
		var w *T
		if interp == "midpoint" {
			w, err = tensor.Full(ranks.Shape(), 0.5, ranks.DType())
		} else {
			w, err = applyBinary(e, "sub", tensor.Sub, ranks, below)
		}
		if err != nil {
			return nil, err
		}
		up, err := tensor.Ceil(ranks)
		if err != nil {
			return nil, err
		}
		if up, err = up.To(tensor.I64); err != nil {
			return nil, err
		}
		above, err := takeAlongOp(e, "GatherBackward", sorted, lastDim, up, nil)
		if err != nil {
			return nil, err
		}
		if r, err = lerpArgs(e, r, above, w); err != nil {
			return nil, err
		}
	}
	if q.Dim() > 0 {
		// move q's dim (last) first: unsqueeze(0), transpose(0, -1)
		if r, err = unsqueezeOp(e, r, 0); err != nil {
			return nil, err
		}
		if r, err = transposeOp(e, r, 0, -1); err != nil {
			return nil, err
		}
	}
	if r, err = squeezeOp(e, r, []int{-1}); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "SqueezeBackward3") // PyTorch's last step is squeeze_(-1)
	return r, nil
}

func methodUniqueConsecutive(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	inverse, counts := false, false
	var dim intOpt
	if err := runtime.UnpackArgs("unique_consecutive", args, kwargs, "return_inverse?", &inverse, "return_counts?", &counts, "dim?", &dim); err != nil {
		return nil, err
	}
	var res runtime.Value
	var err error
	if dim.ok && !(dim.v == 0 && x.t.Dim() == 1) {
		res, err = uniqueDim(x, dim.v, inverse, counts, true)
	} else {
		res, err = uniqueConsecutiveFlat(x, inverse, counts)
	}
	if err != nil {
		return nil, err
	}
	// PyTorch records a node whose backward raises
	e := engineOf(th)
	out := res
	if tup, ok := res.(runtime.Tuple); ok {
		out = tup[0]
	}
	ot := out.(*TensorValue)
	node, err := e.ApplyCustom("UniqueConsecutiveBackward", []*T{x.t}, func() (*T, error) { return ot.t, nil }, func(*T) ([]*T, error) {
		return nil, runtime.Errorf("NotImplementedError", "the derivative for 'unique_consecutive' is not implemented.")
	})
	if err != nil {
		return nil, err
	}
	if node != ot.t {
		nv := wrap(x.eng, node)
		if tup, ok := res.(runtime.Tuple); ok {
			tup[0] = nv
			return tup, nil
		}
		return nv, nil
	}
	return res, nil
}

// uniqueConsecutiveFlat is unique_consecutive without dim: x in C order
// with runs of equal elements (!= as C++: NaNs never equal) kept once.
func uniqueConsecutiveFlat(x *TensorValue, inverse, counts bool) (runtime.Value, error) {
	t := x.t
	if t.DType() == tensor.F16 {
		return nil, runtime.Errorf("RuntimeError", "\"unique\" not implemented for 'Half'")
	}
	flat, err := t.Reshape(-1)
	if err != nil {
		return nil, err
	}
	n := flat.Numel()
	var same func(i, j int) bool
	if t.DType().IsFloat() {
		v := flat.ToFloat64s()
		same = func(i, j int) bool { return v[i] == v[j] }
	} else {
		v := flat.ToInt64s()
		same = func(i, j int) bool { return v[i] == v[j] }
	}
	var keep, cnt []int64
	inv := make([]int64, n)
	for i := 0; i < n; i++ {
		if i == 0 || !same(int(keep[len(keep)-1]), i) {
			keep = append(keep, int64(i))
			cnt = append(cnt, 0)
		}
		cnt[len(cnt)-1]++
		inv[i] = int64(len(keep) - 1)
	}
	idx, err := tensor.FromInt64s(keep, []int{len(keep)}, tensor.I64)
	if err != nil {
		return nil, err
	}
	out, err := flat.Index(tensor.Adv(idx))
	if err != nil {
		return nil, err
	}
	return uniqueResult(x, out, inverse, inv, t.Shape(), counts, cnt)
}
