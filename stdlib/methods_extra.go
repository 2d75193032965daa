package stdlib

import (
	"github.com/tsrlang/tsr/tensor/autograd"
	"math"
	"slices"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Sorting, selection, comparison, construction and product methods that
// PyTorch users reach for: sort, argsort, topk, median, gather,
// index_select, roll, tile, broadcast_to, new_zeros/new_ones/new_full/
// new_empty/new_tensor, type_as, fmod, lerp, isclose, allclose, unique,
// and the functions meshgrid, tensordot and kron. Each follows the
// PyTorch 1.13 signature and result; differences are noted on the method.
//
// Autograd: values picked out of the input (sort, topk, median, gather,
// index_select) are recorded with a backward that scatter-adds the output
// gradient back to the positions read (takeAlongOp); roll's backward rolls
// back; fmod has a custom backward; broadcast_to, tile, lerp, meshgrid,
// tensordot and kron are composed from recorded ops. Indices, isclose,
// allclose and unique are not differentiable (integer or bool results, or
// no gradient in PyTorch either).

func init() {
	defMethodFunc("sort", "sort(dim=-1, descending=false, stable=false): the named tuple (values, indices) of the elements sorted along dim (always stable; NaN sorts as the largest value).", methodSort)
	defMethodFunc("argsort", "argsort(dim=-1, descending=false, stable=false): the i64 indices that sort the tensor along dim (stable).", methodArgsort)
	defMethodFunc("topk", "topk(k, dim=-1, largest=true, sorted=true): the named tuple (values, indices) of the k largest (or smallest) elements along dim, in sorted order.", methodTopk)
	defMethodFunc("median", "median(): the lower median of all elements (0-d; NaN when any is NaN); median(dim, keepdim=false): the named tuple (values, indices) along dim.", nodeNamed("MedianBackward0", methodMedian))
	defMethodFunc("gather", "gather(dim, index): out[i][j] = self[index[i][j]][j] for dim 0 (index: an i64 tensor of self's rank).", methodGather)
	defMethodFunc("index_select", "index_select(dim, index): the entries of dim listed by the 1-D integer tensor index (a copy).", nodeNamed("IndexSelectBackward0", methodIndexSelect))
	defMethodFunc("roll", "roll(shifts, dims=none): shift elements along dims, wrapping around; without dims the flattened tensor is rolled.", methodRoll)
	defMethodFunc("tile", "tile(dims): repeat the tensor dims[i] times along dim i (dims is padded with leading 1s to the rank).", nodeNamed("RepeatBackward0", methodTile))
	defMethodFunc("broadcast_to", "broadcast_to(shape): the tensor expanded to shape without copying (as expand).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		shape, err := shapeMethodArgs("broadcast_to", "size", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(expandOp(engineOf(th), x.t, shape))
	})
	for _, n := range []struct {
		name string
		make func(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error)
	}{{"new_zeros", makeZeros}, {"new_ones", makeOnes}, {"new_empty", makeEmpty}} {
		n := n
		defMethod(n.name, n.name+"(*size, dtype=self.dtype, requires_grad=false): a new tensor of that size with self's dtype (unless given).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return newFactory(th, x, n.name, args, kwargs, func(shape []int, dt tensor.DType) (*T, error) { return n.make(th, shape, dt) })
		})
	}
	defMethod("new_full", "new_full(size, fill_value, dtype=self.dtype, requires_grad=false): a new tensor of that size filled with fill_value.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var size shapeArg
		var fill runtime.Value
		var o creationOpts
		if err := runtime.UnpackArgs("new_full", args, kwargs, append([]any{"size", &size, "fill_value", &fill}, o.pairs()...)...); err != nil {
			return nil, err
		}
		t, err := fillTensor(size.shape, fill, o.dt(x.t.DType()))
		if err != nil {
			return nil, err
		}
		return o.finish(th, t)
	})
	defMethod("new_tensor", "new_tensor(data, dtype=self.dtype, requires_grad=false): a tensor from data (a copy) with self's dtype unless given.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var data runtime.Value
		var o creationOpts
		if err := runtime.UnpackArgs("new_tensor", args, kwargs, append([]any{"data", &data}, o.pairs()...)...); err != nil {
			return nil, err
		}
		dt := o.dt(x.t.DType())
		var t *T
		var err error
		if src, ok := data.(*TensorValue); ok {
			t, err = src.t.To(dt)
			if err == nil && t == src.t {
				t = t.Clone()
			}
		} else {
			t, err = tensorFromData(data, &dt)
		}
		if err != nil {
			return nil, err
		}
		return o.finish(th, t)
	})
	defMethod("type_as", "type_as(other): the tensor converted to other's dtype (itself when equal).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("type_as", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		if o.t.DType() == x.t.DType() {
			return x, nil
		}
		return x.result(toPreserveOp(engineOf(th), x.t, o.t.DType()))
	})
	defMethodFunc("fmod", "fmod(other): the C remainder x - trunc(x / other) * other (sign of x; ZeroDivisionError for integer division by zero).", methodFmod)
	defMethodFunc("lerp", "lerp(end, weight): self + weight * (end - self), computed as end - (end - self) * (1 - weight) where |weight| >= 0.5 (PyTorch's formula).", methodLerp)
	defMethodFunc("isclose", "isclose(other, rtol=1e-05, atol=1e-08, equal_nan=false): elementwise |self - other| <= atol + rtol * |other| (bool; equal infinities are close).", methodIsclose)
	defMethodFunc("allclose", "allclose(other, rtol=1e-05, atol=1e-08, equal_nan=false): whether isclose holds for every element (a bool).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		c, err := iscloseArgs("allclose", x, args, kwargs)
		if err != nil {
			return nil, err
		}
		for _, b := range c.ToBools() {
			if !b {
				return runtime.Bool(false), nil
			}
		}
		return runtime.Bool(true), nil
	})
	defMethodFunc("unique", "unique(sorted=true, return_inverse=false, return_counts=false, dim=none): the distinct elements, sorted (a 1-D tensor), or with dim the distinct slices along dim in lexicographic order; or the tuple (values, inverse?, counts?).", methodUnique)
	defGlobal("meshgrid", "meshgrid(*tensors, indexing=\"ij\"): coordinate grids of 0-D/1-D tensors as expanded views (\"xy\": the first two dims swapped, as numpy).", builtinMeshgrid)
	defGlobal("tensordot", "tensordot(a, b, dims=2): contract the last dims of a with the first dims of b (or the listed dims [[da...], [db...]]).", builtinTensordot)
	defGlobal("kron", "kron(a, b): the Kronecker product (shape a.shape[i] * b.shape[i], the shorter shape padded with leading 1s).", builtinKron)
}

// ---- gather-shaped selection with a scatter-add backward ----

// takeAlongOp returns vals (or gather(x, dim, idx) when vals is nil),
// recorded as op name so that its gradient is the output gradient
// scatter-added into zeros of x's shape at idx along dim (repeated indices
// add up, as PyTorch's gather backward).
func takeAlongOp(e *Engine, name string, x *T, dim int, idx, vals *T) (*T, error) {
	shape := append([]int(nil), x.Shape()...)
	dt := x.DType()
	forward := func() (*T, error) {
		if vals != nil {
			return vals, nil
		}
		return tensor.Gather(x, dim, idx)
	}
	backward := func(g *T) ([]*T, error) {
		ids, err := tensor.ArangeInt(0, int64(numelOf(shape)), 1, tensor.I64)
		if err != nil {
			return nil, err
		}
		if ids, err = ids.View(shape...); err != nil {
			return nil, err
		}
		pos, err := tensor.Gather(ids, dim, idx)
		if err != nil {
			return nil, err
		}
		return []*T{scatterAdd(g, pos, shape, dt)}, nil
	}
	apply := func(us []*T) (*T, error) { return takeAlongOp(e, name, us[0], dim, idx, nil) }
	return e.ApplyLinear(name, []*T{x}, forward, backward, apply)
}

// numelOf is the product of the sizes in shape (1 for no dims).
func numelOf(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// as1D runs f on x viewed as 1-D when x is 0-d (PyTorch accepts dim 0 and
// -1 for a 0-d tensor in sort, topk and median), reshaping the results
// back to 0-d.
func as1D(e *Engine, x *T, f func(x *T, dim int) (*T, *T, error), dim int) (*T, *T, error) {
	if x.Dim() > 0 {
		d, err := normDim(dim, x.Dim())
		if err != nil {
			return nil, nil, err
		}
		return f(x, d)
	}
	if _, err := normDim(dim, 0); err != nil {
		return nil, nil, err
	}
	x1, err := reshapeOp(e, x, []int{1})
	if err != nil {
		return nil, nil, err
	}
	v, i, err := f(x1, 0)
	if err != nil {
		return nil, nil, err
	}
	if v, err = reshapeOp(e, v, []int{}); err != nil {
		return nil, nil, err
	}
	if i != nil {
		if i, err = i.Reshape(); err != nil {
			return nil, nil, err
		}
	}
	return v, i, nil
}

func valuesIndices(name string, eng *Engine, v, i *T) runtime.Value {
	return &runtime.NamedTuple{TypeName: name, Fields: []string{"values", "indices"},
		Tuple: runtime.Tuple{wrap(eng, v), wrap(eng, i)}}
}

func methodSort(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	dim, desc := -1, false
	var stable runtime.Value = runtime.None
	if err := runtime.UnpackArgs("sort", args, kwargs, "dim?", &dim, "descending?", &desc, "stable?", &stable); err != nil {
		return nil, err
	}
	e := engineOf(th)
	v, i, err := as1D(e, x.t, func(t *T, d int) (*T, *T, error) {
		v, i, err := tensor.Sort(t, d, desc)
		if err != nil {
			return nil, nil, err
		}
		v, err = takeAlongOp(e, "SortBackward", t, d, i, v)
		return v, i, err
	}, dim)
	if err != nil {
		return nil, err
	}
	return valuesIndices("sort", x.eng, v, i), nil
}

func methodArgsort(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	dim, desc := -1, false
	var stable runtime.Value = runtime.None
	if err := runtime.UnpackArgs("argsort", args, kwargs, "dim?", &dim, "descending?", &desc, "stable?", &stable); err != nil {
		return nil, err
	}
	_, i, err := as1D(engineOf(th), x.t, func(t *T, d int) (*T, *T, error) {
		i, err := tensor.Argsort(t, d, desc)
		return t, i, err
	}, dim)
	if err != nil {
		return nil, err
	}
	return wrap(x.eng, i), nil
}

func methodTopk(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var k int
	dim, largest, sorted := -1, true, true
	if err := runtime.UnpackArgs("topk", args, kwargs, "k", &k, "dim?", &dim, "largest?", &largest, "sorted?", &sorted); err != nil {
		return nil, err
	}
	e := engineOf(th)
	v, i, err := as1D(e, x.t, func(t *T, d int) (*T, *T, error) {
		size := 1
		if t.Dim() > 0 {
			size = t.Shape()[d]
		}
		if k < 0 || k > size {
			return nil, nil, runtime.Errorf("RuntimeError", "selected index k out of range")
		}
		v, i, err := tensor.Topk(t, k, d, largest)
		if err != nil {
			return nil, nil, err
		}
		v, err = takeAlongOp(e, "TopkBackward", t, d, i, v)
		return v, i, err
	}, dim)
	if err != nil {
		return nil, err
	}
	return valuesIndices("topk", x.eng, v, i), nil
}

// methodMedian is PyTorch's median: the lower of the two middle values for
// an even count (element (n-1)/2 of the sorted slice); a slice containing
// NaN has median NaN (index: its first NaN in sorted order). Ties give
// the index a stable sort puts at that position (PyTorch leaves it
// unspecified); median() without dim shares its gradient among ties, as
// PyTorch's.
func methodMedian(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var d intOpt
	keep := false
	if err := runtime.UnpackArgs("median", args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
		return nil, err
	}
	e := engineOf(th)
	if !d.ok {
		if x.t.Numel() == 0 {
			if !x.t.DType().IsFloat() {
				return nil, runtime.Errorf("RuntimeError", "median() input tensor cannot be empty")
			}
			return x.result(tensor.Full([]int{}, math.NaN(), x.t.DType()))
		}
		// The value is recorded with max()'s backward (PyTorch's
		// evenly_distribute_backward): ties share the gradient.
		return x.result(e.Apply("max_all", []*T{x.t}, nil, func() (*T, error) {
			flat, err := x.t.Reshape(-1)
			if err != nil {
				return nil, err
			}
			v, _, err := tensor.Median(flat, 0, false)
			return v, err
		}))
	}
	v, i, err := as1D(e, x.t, func(t *T, dim int) (*T, *T, error) {
		return medianAlong(e, t, dim, keep && x.t.Dim() > 0)
	}, d.v)
	if err != nil {
		return nil, err
	}
	return valuesIndices("median", x.eng, v, i), nil
}

// medianAlong returns the lower medians along dim of a tensor with at least
// one dim, and their i64 indices.
func medianAlong(e *Engine, x *T, dim int, keep bool) (*T, *T, error) {
	n := x.Shape()[dim]
	if n == 0 {
		return nil, nil, runtime.Errorf("IndexError", "median(): Expected reduction dim %d to have non-zero size.", dim)
	}
	// Selection, not a sort: the index is the one a stable sort puts at
	// the lower median (the first NaN when the row has one).
	_, i, err := tensor.Median(x, dim, true)
	if err != nil {
		return nil, nil, err
	}
	v, err := takeAlongOp(e, "MedianBackward1", x, dim, i, nil)
	if err != nil {
		return nil, nil, err
	}
	if !keep {
		if v, err = squeezeOp(e, v, []int{dim}); err != nil {
			return nil, nil, err
		}
		autograd.SetGradFnName(v, "MedianBackward1") // one node in PyTorch
		if i, err = i.Squeeze(dim); err != nil {
			return nil, nil, err
		}
	}
	return v, i, nil
}

func methodGather(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var dim int
	var index tensorArg
	sparse := false
	if err := runtime.UnpackArgs("gather", args, kwargs, "dim", &dim, "index", &index, "sparse_grad?", &sparse); err != nil {
		return nil, err
	}
	if index.t.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "gather(): Expected dtype int64 for index")
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	if index.t.Numel() != 0 && max(index.t.Dim(), 1) != max(x.t.Dim(), 1) { // an empty index: empty result, as PyTorch
		return nil, runtime.Errorf("RuntimeError", "Index tensor must have the same number of dimensions as input tensor")
	}
	return x.result(takeAlongOp(engineOf(th), "GatherBackward", x.t, d, index.t, nil))
}

func methodIndexSelect(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var dim int
	var index tensorArg
	if err := runtime.UnpackArgs("index_select", args, kwargs, "dim", &dim, "index", &index); err != nil {
		return nil, err
	}
	if dt := index.t.DType(); dt != tensor.I64 && dt != tensor.I32 {
		return nil, runtime.Errorf("RuntimeError", "index_select(): Expected dtype int32 or int64 for index")
	}
	if index.t.Dim() > 1 {
		return nil, runtime.Errorf("IndexError", "index_select(): Index is supposed to be a vector")
	}
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("IndexError", "index_select() cannot be applied to a 0-dim tensor.")
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	idx, err := index.t.Reshape(-1)
	if err != nil {
		return nil, err
	}
	size := x.t.Shape()[d]
	for _, v := range idx.ToInt64s() {
		if v < 0 || v >= int64(size) {
			return nil, runtime.Errorf("IndexError", "index out of range in self")
		}
	}
	items := indexAlong(d, idx)
	return x.result(advancedIndex(engineOf(th), x.t, items))
}

func methodRoll(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var shifts shapeArg
	var dims dimsOpt
	if err := runtime.UnpackArgs("roll", args, kwargs, "shifts", &shifts, "dims?", &dims); err != nil {
		return nil, err
	}
	var nd []int
	if dims.ok {
		if len(dims.dims) != len(shifts.shape) {
			return nil, runtime.Errorf("RuntimeError", "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts.shape), len(dims.dims))
		}
		if x.t.Dim() == 0 && len(dims.dims) > 0 {
			return nil, errNoDims(dims.dims[0])
		}
		nd = make([]int, len(dims.dims))
		for i, d := range dims.dims {
			n, err := normDim(d, x.t.Dim())
			if err != nil {
				return nil, err
			}
			nd[i] = n
		}
	} else if len(shifts.shape) != 1 {
		return nil, runtime.Errorf("RuntimeError", "shifts and dimensions must align. shifts: %d, dims:0", len(shifts.shape))
	}
	sh := shifts.shape
	back := make([]int, len(sh))
	for i, s := range sh {
		back[i] = -s
	}
	return x.result(rollOp(engineOf(th), x.t, sh, back, nd))
}

// rollOp is roll(x, shifts, dims) recorded as RollBackward0; back holds the
// negated shifts (its backward, and differentiable again).
func rollOp(e *Engine, x *T, shifts, back, dims []int) (*T, error) {
	return e.ApplyLinear("RollBackward", []*T{x},
		func() (*T, error) { return tensor.Roll(x, shifts, dims) },
		func(g *T) ([]*T, error) {
			r, err := rollOp(e, g, back, shifts, dims)
			return []*T{r}, err
		}, func(us []*T) (*T, error) { return rollOp(e, us[0], shifts, back, dims) })
}

func methodTile(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	reps, err := shapeMethodArgs("tile", "dims", args, kwargs)
	if err != nil {
		return nil, err
	}
	for len(reps) < x.t.Dim() {
		reps = append([]int{1}, reps...)
	}
	return x.result(repeatOp(engineOf(th), x.t, reps))
}

// newFactory implements new_zeros/new_ones/new_empty: size as varargs or
// one list, dtype defaulting to x's.
func newFactory(th *runtime.Thread, x *TensorValue, name string, args []runtime.Value, kwargs []runtime.Kwarg, make func([]int, tensor.DType) (*T, error)) (runtime.Value, error) {
	shape, o, err := sizeAndOpts(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	t, err := make(shape, o.dt(x.t.DType()))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

// ---- fmod and lerp ----

// methodFmod computes the C fmod (tensor.Fmod: math.Mod for floats,
// truncated % for integers) in the promoted dtype, laid out as PyTorch's
// TensorIterator lays out an elementwise result (x.t().fmod(2) keeps
// x.t()'s strides). The gradient is g for self and -trunc(self/other) * g
// for other, as PyTorch.
func methodFmod(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var o operandArg
	if err := runtime.UnpackArgs("fmod", args, kwargs, "other", &o); err != nil {
		return nil, err
	}
	return x.result(fmodOp(engineOf(th), x.t, o.t))
}

// fmodOp is x.fmod(other), recorded (FmodBackward0 for a number other,
// FmodBackward1 for a tensor, as PyTorch's overloads).
func fmodOp(e *Engine, self, other *T) (*T, error) {
	a, b := castWrapped(self, other)
	forward := func() (*T, error) { return tensor.Fmod(a, b) }
	if dt := tensor.ResultType(a, b); !dt.IsFloat() {
		return forward()
	}
	aShape, bShape := a.Shape(), b.Shape()
	backward := func(g *T) ([]*T, error) {
		ga, err := sumToShape(g, aShape)
		if err != nil {
			return nil, err
		}
		// other: -grad * self.div(other, rounding_mode="trunc")
		q, err := tensor.TruncDivide(a, b)
		if err != nil {
			return nil, err
		}
		if q, err = tensor.Mul(q, g); err != nil {
			return nil, err
		}
		if q, err = tensor.Neg(q); err != nil {
			return nil, err
		}
		if q.DType() != g.DType() {
			if q, err = q.To(g.DType()); err != nil {
				return nil, err
			}
		}
		gb, err := sumToShape(q, bShape)
		if err != nil {
			return nil, err
		}
		return []*T{ga, gb}, nil
	}
	name := "FmodBackward1"
	if b.IsWrappedNumber() {
		name = "FmodBackward0"
	}
	// piecewise linear: the gradient does not depend on a, b (almost
	// everywhere); the tangent is u_a - trunc(a / b) u_b
	tangent := func(us []*T) (*T, error) {
		q, err := tensor.TruncDivide(a, b)
		if err != nil {
			return nil, err
		}
		if q.DType() != us[1].DType() {
			if q, err = q.To(us[1].DType()); err != nil {
				return nil, err
			}
		}
		qu, err := e.Apply("mul", []*T{q, us[1]}, nil, func() (*T, error) { return tensor.Mul(q, us[1]) })
		if err != nil {
			return nil, err
		}
		return e.Apply("sub", []*T{us[0], qu}, nil, func() (*T, error) { return tensor.Sub(us[0], qu) })
	}
	return e.ApplyLinear(name, []*T{a, b}, forward, backward, tangent)
}

// sumToShape sums g (of a broadcast shape) down to shape: the leading
// extra dims and the dims where shape has size 1.
func sumToShape(g *T, shape []int) (*T, error) {
	gs := g.Shape()
	lead := len(gs) - len(shape)
	var dims []int
	for i := range gs {
		if i < lead || (shape[i-lead] == 1 && gs[i] != 1) {
			dims = append(dims, i)
		}
	}
	if len(dims) == 0 {
		return g, nil
	}
	r, err := tensor.Sum(g, dims, true)
	if err != nil {
		return nil, err
	}
	return r.Reshape(shape...)
}

// methodLerp is torch.lerp composed from recorded sub, mul, add and where,
// so it is differentiable in self, end and a tensor weight. It uses
// PyTorch's two-sided formula (exact at weight 0 and 1); f16/bf16 compute
// in f32 and round once, as PyTorch's kernel.
func methodLerp(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var end tensorArg
	var weight operandArg
	if err := runtime.UnpackArgs("lerp", args, kwargs, "end", &end, "weight", &weight); err != nil {
		return nil, err
	}
	return x.result(lerpArgs(engineOf(th), x.t, end.t, weight.t))
}

// lerpArgs checks lerp's dtypes and computes it, recorded.
func lerpArgs(e *Engine, x, end, weight *T) (*T, error) {
	if end.DType() != x.DType() {
		return nil, runtime.Errorf("RuntimeError", "expected dtype %s for `end` but got dtype %s", c10TypeName(x.DType()), c10TypeName(end.DType()))
	}
	if !x.DType().IsFloat() {
		kernel := "lerp_kernel_scalar"
		if !weight.IsWrappedNumber() {
			kernel = "lerp_kernel_tensor"
		}
		return nil, notImplementedFor(kernel, x.DType())
	}
	var r *T
	var err error
	if dt := x.DType(); dt.IsHalf() {
		// PyTorch's kernel computes in float (opmath) and rounds once
		r, err = lerpHalf(e, x, end, weight, dt)
	} else {
		r, err = lerpOp(e, x, end, weight)
	}
	if err != nil {
		return nil, err
	}
	// The steps lay out their results by their own operands; the result
	// takes TensorIterator's layout over (self, end, weight), as PyTorch's
	// lerp kernel (a transposed self gives a transposed result).
	if st := tensor.ElementwiseStrides(r.Shape(), x, end, weight); !slices.Equal(st, r.Strides()) {
		if r, err = e.Apply("clone", []*T{r}, nil, func() (*T, error) { return r.WithStrides(st) }); err != nil {
			return nil, err
		}
	}
	if r.GradFn() != nil {
		autograd.SetGradFnName(r, overload("LerpBackward", weight))
	}
	return r, nil
}

// lerpHalf is lerp of f16/bf16 tensors computed in f32 and rounded to dt
// once, as PyTorch's opmath kernel (a scalar weight is taken as f32).
func lerpHalf(e *Engine, x, end, w *T, dt tensor.DType) (*T, error) {
	x32, err := toOp(e, x, tensor.F32)
	if err != nil {
		return nil, err
	}
	end32, err := toOp(e, end, tensor.F32)
	if err != nil {
		return nil, err
	}
	if !w.IsWrappedNumber() && w.DType() != tensor.F32 {
		if w, err = toOp(e, w, tensor.F32); err != nil {
			return nil, err
		}
	}
	r, err := lerpOp(e, x32, end32, w)
	if err != nil {
		return nil, err
	}
	return toOp(e, r, dt)
}

// lerpOp is PyTorch's two-sided lerp formula from recorded ops.
func lerpOp(e *Engine, x, end, w *T) (*T, error) {
	diff, err := applyBinary(e, "sub", tensor.Sub, end, x)
	if err != nil {
		return nil, err
	}
	low := func() (*T, error) { // self + w * diff
		m, err := applyBinary(e, "mul", tensor.Mul, w, diff)
		if err != nil {
			return nil, err
		}
		return applyBinary(e, "add", tensor.Add, x, m)
	}
	high := func() (*T, error) { // end - diff * (1 - w)
		one := tensor.ScalarFloat(1)
		omw, err := applyBinary(e, "sub", tensor.Sub, one, w)
		if err != nil {
			return nil, err
		}
		m, err := applyBinary(e, "mul", tensor.Mul, diff, omw)
		if err != nil {
			return nil, err
		}
		return applyBinary(e, "sub", tensor.Sub, end, m)
	}
	if w.IsWrappedNumber() {
		if math.Abs(w.FlatFloat64(0)) < 0.5 {
			return low()
		}
		return high()
	}
	lo, err := low()
	if err != nil {
		return nil, err
	}
	hi, err := high()
	if err != nil {
		return nil, err
	}
	aw, err := tensor.Abs(w)
	if err != nil {
		return nil, err
	}
	small, err := tensor.Lt(aw, tensor.ScalarFloat(0.5))
	if err != nil {
		return nil, err
	}
	return whereOp(e, small, lo, hi)
}

// ---- isclose / allclose ----

func methodIsclose(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return x.result(iscloseArgs("isclose", x, args, kwargs))
}

func iscloseArgs(name string, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
	var o operandArg
	rtol, atol, equalNan := 1e-05, 1e-08, false
	if err := runtime.UnpackArgs(name, args, kwargs, "other", &o, "rtol?", &rtol, "atol?", &atol, "equal_nan?", &equalNan); err != nil {
		return nil, err
	}
	return isclose(x.t, o.t, rtol, atol, equalNan)
}

// isclose is torch.isclose: close where self == other (equal infinities
// included), or where |self - other| is finite and <= atol + |rtol *
// other|; NaNs are close to each other only with equal_nan. For float
// dtypes every step is rounded to the dtype as PyTorch computes it (so f32
// 1.0 and 1.0 + 1e-5 are not close); integer and bool tensors compare in
// float64. The operands must have the same dtype (RuntimeError otherwise,
// as PyTorch); a Python number other is converted to self's dtype.
func isclose(a, b *T, rtol, atol float64, equalNan bool) (*T, error) {
	if b.IsWrappedNumber() {
		v, err := b.To(a.DType())
		if err != nil {
			return nil, err
		}
		b = v
	}
	if a.DType() != b.DType() {
		return nil, runtime.Errorf("RuntimeError", "%s did not match %s", a.DType(), b.DType())
	}
	if rtol < 0 {
		return nil, runtime.Errorf("RuntimeError", "rtol must be greater than or equal to zero, but got %v", rtol)
	}
	if atol < 0 {
		return nil, runtime.Errorf("RuntimeError", "atol must be greater than or equal to zero, but got %v", atol)
	}
	shape, err := tensor.BroadcastShapes(a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	ae, err := a.Expand(shape...)
	if err != nil {
		return nil, err
	}
	be, err := b.Expand(shape...)
	if err != nil {
		return nil, err
	}
	dt := a.DType()
	out := make([]bool, numelOf(shape))
	if !dt.IsFloat() {
		av, bv := ae.ToInt64s(), be.ToInt64s()
		for i := range out {
			if av[i] == bv[i] {
				out[i] = true
				continue
			}
			out[i] = math.Abs(float64(av[i])-float64(bv[i])) <= atol+math.Abs(rtol*float64(bv[i]))
		}
		return iscloseResult(out, shape, a, b)
	}
	r := func(v float64) float64 { return tensor.RoundToDType(v, dt) }
	rt, at := r(rtol), r(atol)
	av, bv := ae.ToFloat64s(), be.ToFloat64s()
	for i := range out {
		x, y := av[i], bv[i]
		switch {
		case x == y:
			out[i] = true
		case x != x || y != y:
			out[i] = equalNan && x != x && y != y
		default:
			diff := r(math.Abs(r(x - y)))
			allowed := r(at + math.Abs(r(rt*y)))
			out[i] = !math.IsInf(diff, 0) && diff <= allowed
		}
	}
	return iscloseResult(out, shape, a, b)
}

// iscloseResult is the bool tensor of isclose's values (in row-major
// order) laid out as PyTorch's isclose result, self == other's
// TensorIterator layout (isclose(x.t(), y.t()) is transposed).
func iscloseResult(vals []bool, shape []int, a, b *T) (*T, error) {
	r, err := tensor.FromBools(vals, shape)
	if err != nil {
		return nil, err
	}
	return r.WithStrides(tensor.ElementwiseStrides(shape, a, b))
}

// ---- unique ----

// methodUnique returns the distinct elements in ascending order (PyTorch's
// CPU kernel also sorts; sorted=false is accepted and gives the same
// order). NaNs are all distinct, as in PyTorch. Not differentiable.
func methodUnique(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	sorted, inverse, counts := true, false, false
	var dim runtime.Value = runtime.None
	if err := runtime.UnpackArgs("unique", args, kwargs, "sorted?", &sorted, "return_inverse?", &inverse, "return_counts?", &counts, "dim?", &dim); err != nil {
		return nil, err
	}
	if dim != runtime.None {
		d, ok := runtime.AsInt(dim)
		if !ok {
			return nil, runtime.Errorf("TypeError", "unique(): argument 'dim' must be int, not %s", dim.Type())
		}
		return uniqueDim(x, int(d), inverse, counts, false)
	}
	if out, inv, cnt, ok := uniqueCounting(x.t, inverse); ok {
		return uniqueResult(x, out, inverse, inv, x.t.Shape(), counts, cnt)
	}
	out, inv, cnt, err := uniqueSorted(x.t, inverse)
	if err != nil {
		return nil, err
	}
	return uniqueResult(x, out, inverse, inv, x.t.Shape(), counts, cnt)
}

// uniqueCountingSlack bounds uniqueCounting's table: at most
// max(2n, uniqueCountingSlack) counters for n elements.
const uniqueCountingSlack = 1 << 16

// uniqueCounting is flat unique for an integer or bool t whose values span
// a short range (max-min < max(2n, uniqueCountingSlack)): a counting pass
// over a table indexed by value-min gives the sorted distinct values,
// their counts and (with inverse) each element's rank in O(n + range),
// where uniqueSorted sorts. ok is false for other inputs. The results are
// uniqueSorted's (exact integers either way).
func uniqueCounting(t *T, inverse bool) (out *T, inv, cnt []int64, ok bool) {
	if t.DType().IsFloat() || t.Numel() == 0 {
		return nil, nil, nil, false
	}
	var iv []int64 // read only
	if t.DType() == tensor.I64 && t.IsContiguous() {
		iv = t.Storage().I64()[t.StorageOffset() : t.StorageOffset()+t.Numel()] // no copy
	} else {
		iv = t.ToInt64s()
	}
	lo, hi := iv[0], iv[0]
	for _, v := range iv {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := uint64(hi) - uint64(lo) // no overflow in unsigned arithmetic
	if span >= uint64(max(2*len(iv), uniqueCountingSlack)) {
		return nil, nil, nil, false
	}
	table := make([]int64, span+1)
	for _, v := range iv {
		table[v-lo]++
	}
	var vals []int64
	for j, c := range table {
		if c > 0 {
			vals = append(vals, lo+int64(j))
			cnt = append(cnt, c)
			table[j] = int64(len(vals) - 1) // now the value's rank
		}
	}
	if inverse {
		inv = make([]int64, len(iv))
		for i, v := range iv {
			inv[i] = table[v-lo]
		}
	}
	out, err := tensor.FromInt64s(vals, []int{len(vals)}, t.DType())
	if err != nil {
		return nil, nil, nil, false
	}
	return out, inv, cnt, true
}

// uniqueSorted is flat unique by a stable sort of the elements: the
// distinct values in ascending order (t's dtype), with inverse each
// element's group, and each group's count.
func uniqueSorted(t *T, inverse bool) (out *T, inv, cnt []int64, err error) {
	flat, err := t.Reshape(-1)
	if err != nil {
		return nil, nil, nil, err
	}
	vals, idx, err := tensor.Sort(flat, 0, false)
	if err != nil {
		return nil, nil, nil, err
	}
	n := vals.Numel()
	var same func(i, j int) bool
	if vals.DType().IsFloat() {
		fv := vals.ToFloat64s()
		same = func(i, j int) bool { return fv[i] == fv[j] }
	} else {
		iv := vals.ToInt64s()
		same = func(i, j int) bool { return iv[i] == iv[j] }
	}
	var starts []int64
	group := make([]int64, n)
	for i := 0; i < n; i++ {
		if i == 0 || !same(i-1, i) {
			starts = append(starts, int64(i))
			cnt = append(cnt, 0)
		}
		cnt[len(cnt)-1]++
		group[i] = int64(len(starts) - 1)
	}
	st, err := tensor.FromInt64s(starts, []int{len(starts)}, tensor.I64)
	if err != nil {
		return nil, nil, nil, err
	}
	if out, err = tensor.Gather(vals, 0, st); err != nil {
		return nil, nil, nil, err
	}
	if inverse {
		inv = make([]int64, n)
		for p, i := range idx.ToInt64s() {
			inv[i] = group[p]
		}
	}
	return out, inv, cnt, nil
}

// uniqueResult is unique's return value: out alone, or the tuple (out,
// inverse?, counts?) with inv shaped invShape and cnt 1-D, both i64.
func uniqueResult(x *TensorValue, out *T, inverse bool, inv []int64, invShape []int, counts bool, cnt []int64) (runtime.Value, error) {
	if !inverse && !counts {
		return wrap(x.eng, out), nil
	}
	res := runtime.Tuple{wrap(x.eng, out)}
	if inverse {
		it, err := tensor.FromInt64s(inv, invShape, tensor.I64)
		if err != nil {
			return nil, err
		}
		res = append(res, wrap(x.eng, it))
	}
	if counts {
		ct, err := tensor.FromInt64s(cnt, []int{len(cnt)}, tensor.I64)
		if err != nil {
			return nil, err
		}
		res = append(res, wrap(x.eng, ct))
	}
	return res, nil
}

// indexAlong returns the index items that select the entries idx (a 1-D
// integer tensor) along dim d: x[:, ..., :, idx] with d full slices first.
func indexAlong(d int, idx *T) []tensor.Index {
	items := make([]tensor.Index, d+1)
	for i := 0; i < d; i++ {
		items[i] = tensor.AllSlice()
	}
	items[d] = tensor.Adv(idx)
	return items
}

// uniqueDim is torch.unique(x, dim=d): the distinct slices along d (each
// slice is x.select(d, i)), in lexicographic order of their elements in C
// order, stacked along d; inverse maps each i to its slice's position,
// counts gives how often each occurs. As PyTorch, a 0-d x is an
// IndexError and a zero-size dim other than d a RuntimeError. With
// consecutive (unique_consecutive(dim=d)) the slices are not sorted: only
// runs of equal neighbours merge, and the result is laid out as
// PyTorch's (the kept slices stacked, then moved back to dim d).
func uniqueDim(x *TensorValue, dim int, inverse, counts, consecutive bool) (runtime.Value, error) {
	t := x.t
	if t.Dim() == 0 {
		return nil, runtime.Errorf("IndexError", "Dimension specified as %d but tensor has no dimensions", dim)
	}
	d, err := normDim(dim, t.Dim())
	if err != nil {
		return nil, err
	}
	for k, s := range t.Shape() {
		if s == 0 && k != d {
			return nil, runtime.Errorf("RuntimeError", "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
		}
	}
	n := t.Shape()[d]
	moved, err := t.Movedim([]int{d}, []int{0})
	if err != nil {
		return nil, err
	}
	w := 1 // elements per slice
	for k, s := range t.Shape() {
		if k != d {
			w *= s
		}
	}
	rows, err := moved.Contiguous().Reshape(n, w)
	if err != nil {
		return nil, err
	}
	if t.DType() == tensor.F16 {
		return nil, runtime.Errorf("RuntimeError", "\"unique_dim\" not implemented for 'Half'")
	}
	// As PyTorch's kernel: slices ordered by < and > of their elements (a
	// NaN is neither, so it ties with anything), a new group wherever a
	// slice is not == the group's first slice (so NaN slices never merge).
	var cmp func(i, j int) int
	var equal func(i, j int) bool
	if t.DType().IsFloat() {
		v := rows.ToFloat64s()
		cmp = func(i, j int) int {
			for k := 0; k < w; k++ {
				a, b := v[i*w+k], v[j*w+k]
				if a < b {
					return -1
				} else if a > b {
					return 1
				}
			}
			return 0
		}
		equal = func(i, j int) bool {
			for k := 0; k < w; k++ {
				if v[i*w+k] != v[j*w+k] {
					return false
				}
			}
			return true
		}
	} else {
		v := rows.ToInt64s()
		cmp = func(i, j int) int { return slices.Compare(v[i*w:(i+1)*w], v[j*w:(j+1)*w]) }
		equal = func(i, j int) bool { return cmp(i, j) == 0 }
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !consecutive {
		slices.SortStableFunc(order, cmp)
	}
	var firsts, cnt []int64
	inv := make([]int64, n)
	for p, i := range order {
		if p == 0 || !equal(int(firsts[len(firsts)-1]), i) {
			firsts = append(firsts, int64(i))
			cnt = append(cnt, 0)
		}
		cnt[len(cnt)-1]++
		inv[i] = int64(len(firsts) - 1)
	}
	idx, err := tensor.FromInt64s(firsts, []int{len(firsts)}, tensor.I64)
	if err != nil {
		return nil, err
	}
	var out *T
	if consecutive {
		kept, err := rows.Index(tensor.Adv(idx))
		if err != nil {
			return nil, err
		}
		shape := append([]int{len(firsts)}, moved.Shape()[1:]...)
		if kept, err = kept.Reshape(shape...); err != nil {
			return nil, err
		}
		if out, err = kept.Movedim([]int{0}, []int{d}); err != nil {
			return nil, err
		}
	} else if out, err = t.Index(indexAlong(d, idx)...); err != nil {
		return nil, err
	}
	return uniqueResult(x, out, inverse, inv, []int{n}, counts, cnt)
}

// ---- meshgrid, tensordot, kron ----

func builtinMeshgrid(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	indexing := "ij"
	if err := runtime.UnpackArgs("meshgrid", nil, kwargs, "indexing?", &indexing); err != nil {
		return nil, err
	}
	if indexing != "ij" && indexing != "xy" {
		return nil, runtime.Errorf("RuntimeError", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing)
	}
	if len(args) == 1 {
		if _, ok := args[0].(*TensorValue); !ok {
			elems, err := runtime.Elements(args[0])
			if err != nil {
				return nil, runtime.Errorf("TypeError", "meshgrid(): expected tensors or one list of tensors, not %s", args[0].Type())
			}
			args = elems
		}
	}
	if len(args) == 0 {
		return nil, runtime.Errorf("RuntimeError", "torch.meshgrid: Expected at least one tensor")
	}
	ts := make([]*T, len(args))
	for i, a := range args {
		t, ok := a.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "meshgrid(): expected tensors, but argument %d is %s", i, a.Type())
		}
		if t.t.Dim() > 1 {
			return nil, runtime.Errorf("RuntimeError", "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s", t.t.String())
		}
		if i > 0 && t.t.DType() != ts[0].DType() {
			return nil, runtime.Errorf("RuntimeError", "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype")
		}
		ts[i] = t.t
	}
	n := len(ts)
	axis := make([]int, n) // output dim of input i
	for i := range axis {
		axis[i] = i
	}
	if indexing == "xy" && n >= 2 {
		axis[0], axis[1] = 1, 0
	}
	out := make([]int, n)
	for i, t := range ts {
		out[axis[i]] = t.Numel()
	}
	e := engineOf(th)
	res := make(runtime.Tuple, n)
	for i, t := range ts {
		vs := make([]int, n)
		for j := range vs {
			vs[j] = 1
		}
		vs[axis[i]] = -1
		v, err := reshapeOp(e, t, vs)
		if err != nil {
			return nil, err
		}
		if v, err = expandOp(e, v, out); err != nil {
			return nil, err
		}
		res[i] = NewTensorValue(th, v)
	}
	return res, nil
}

// builtinTensordot is torch.tensordot: the contracted dims of a are moved
// last and those of b first, both are reshaped to matrices and multiplied
// (one matmul, differentiable), and the product is reshaped to a's free
// dims followed by b's.
func builtinTensordot(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	var dims runtime.Value = runtime.MakeInt(2)
	if err := runtime.UnpackArgs("tensordot", args, kwargs, "a", &x, "b", &y, "dims?", &dims); err != nil {
		return nil, err
	}
	a, bt := x.t, y.t
	var da, db []int
	if n, ok := dims.(runtime.Int); ok {
		if n < 0 {
			return nil, runtime.Errorf("RuntimeError", "tensordot expects dims >= 0, but got dims=%d", int(n))
		}
		if int(n) > a.Dim() || int(n) > bt.Dim() {
			return nil, runtime.Errorf("RuntimeError", "tensordot expects dims < ndim_a or ndim_b, but got dims=%d", int(n))
		}
		for i := 0; i < int(n); i++ {
			da = append(da, a.Dim()-int(n)+i)
			db = append(db, i)
		}
	} else {
		pair, err := runtime.Elements(dims)
		if err != nil || len(pair) != 2 {
			return nil, runtime.Errorf("TypeError", "tensordot(): dims must be an int or a pair of lists of dims")
		}
		var ok1, ok2 bool
		da, ok1 = intsOrInt(pair[0])
		db, ok2 = intsOrInt(pair[1])
		if !ok1 || !ok2 {
			return nil, runtime.Errorf("TypeError", "tensordot(): dims must be an int or a pair of lists of dims")
		}
		if len(da) != len(db) {
			return nil, runtime.Errorf("RuntimeError", "both dimension lists should have same length")
		}
		if da, err = normDims(da, a.Dim()); err != nil {
			return nil, err
		}
		if db, err = normDims(db, bt.Dim()); err != nil {
			return nil, err
		}
	}
	K := 1
	for i := range da {
		sa, sb := a.Shape()[da[i]], bt.Shape()[db[i]]
		if sa != sb {
			return nil, runtime.Errorf("RuntimeError", "contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d", sa, da[i], sb, db[i])
		}
		K *= sa
	}
	free := func(t *T, contracted []int) []int {
		used := map[int]bool{}
		for _, d := range contracted {
			used[d] = true
		}
		var f []int
		for d := 0; d < t.Dim(); d++ {
			if !used[d] {
				f = append(f, d)
			}
		}
		return f
	}
	fa, fb := free(a, da), free(bt, db)
	var outShape []int
	M, N := 1, 1
	for _, d := range fa {
		outShape = append(outShape, a.Shape()[d])
		M *= a.Shape()[d]
	}
	for _, d := range fb {
		outShape = append(outShape, bt.Shape()[d])
		N *= bt.Shape()[d]
	}
	e := engineOf(th)
	am, err := permuteOp(e, a, append(append([]int(nil), fa...), da...))
	if err != nil {
		return nil, err
	}
	if am, err = reshapeOp(e, am, []int{M, K}); err != nil {
		return nil, err
	}
	bm, err := permuteOp(e, bt, append(append([]int(nil), db...), fb...))
	if err != nil {
		return nil, err
	}
	if bm, err = reshapeOp(e, bm, []int{K, N}); err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "matmul", tensor.Matmul, am, bm)
	if err != nil {
		return nil, err
	}
	if outShape == nil {
		outShape = []int{}
	}
	r, err = reshapeOp(e, r, outShape)
	if err != nil {
		return nil, err
	}
	return NewTensorValue(th, r), nil
}

// intsOrInt reads one dim or a list of dims.
func intsOrInt(v runtime.Value) ([]int, bool) {
	if n, ok := v.(runtime.Int); ok {
		return []int{int(n)}, true
	}
	return runtime.AsInts(v)
}

// builtinKron is torch.kron, composed as reshape(a, [a0, 1, a1, 1, ...]) *
// reshape(b, [1, b0, 1, b1, ...]) reshaped to [a0*b0, a1*b1, ...], so that
// it is differentiable in both operands.
func builtinKron(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	if err := runtime.UnpackArgs("kron", args, kwargs, "input", &x, "other", &y); err != nil {
		return nil, err
	}
	a, bt := x.t, y.t
	nd := max(a.Dim(), bt.Dim())
	pad := func(s []int) []int {
		out := make([]int, nd)
		for i := range out {
			out[i] = 1
		}
		copy(out[nd-len(s):], s)
		return out
	}
	sa, sb := pad(a.Shape()), pad(bt.Shape())
	ia, ib := make([]int, 0, 2*nd), make([]int, 0, 2*nd)
	final := make([]int, nd)
	for i := 0; i < nd; i++ {
		ia = append(ia, sa[i], 1)
		ib = append(ib, 1, sb[i])
		final[i] = sa[i] * sb[i]
	}
	e := engineOf(th)
	ar, err := reshapeOp(e, a, ia)
	if err != nil {
		return nil, err
	}
	br, err := reshapeOp(e, bt, ib)
	if err != nil {
		return nil, err
	}
	p, err := applyBinary(e, "mul", tensor.Mul, ar, br)
	if err != nil {
		return nil, err
	}
	if p, err = reshapeOp(e, p, final); err != nil {
		return nil, err
	}
	return NewTensorValue(th, p), nil
}

// c10TypeName is the C++ scalar type name PyTorch prints in some dtype
// messages ("float", "double", "long int", ...).
func c10TypeName(d tensor.DType) string {
	switch d {
	case tensor.F16:
		return "c10::Half"
	case tensor.BF16:
		return "c10::BFloat16"
	case tensor.F32:
		return "float"
	case tensor.F64:
		return "double"
	case tensor.I8:
		return "signed char"
	case tensor.I16:
		return "short int"
	case tensor.I32:
		return "int"
	case tensor.I64:
		return "long int"
	case tensor.U8:
		return "unsigned char"
	case tensor.Bool:
		return "bool"
	}
	return d.String()
}
