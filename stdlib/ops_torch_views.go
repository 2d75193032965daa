package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// PyTorch's tensor_split, hsplit, vsplit, dsplit (tuples of views), rot90,
// take_along_dim, cartesian_prod, inner and vdot: functions and, where
// PyTorch has them, tensor methods, with PyTorch 1.13's argument names,
// errors, result layouts and grad_fn names. All are differentiable as
// compositions of recorded ops (the split pieces are narrow views,
// SliceBackward0; rot90 has its own node, Rot90Backward0).

func init() {
	defMethodFunc("tensor_split", "tensor_split(indices_or_sections, dim=0): a tuple of views of self along dim: an int n gives n pieces (the first size % n of them one longer), a list/tuple of ints (or a 1-D i64 tensor) the pieces between those indices (clamped like slices), a 0-d i64 tensor n pieces. PyTorch's keywords sections=, indices=, tensor_indices_or_sections= are accepted too. Each piece's grad_fn is SliceBackward0.", methodTensorSplit)
	for _, s := range []struct {
		name      string
		minDims   int
		dim       int // -1: dim 0 for 1-D tensors, else 1 (hsplit)
		docAlong  string
		docMinDim string
	}{
		{"hsplit", 1, -1, "dim 1 (dim 0 for a 1-D tensor)", "1"},
		{"vsplit", 2, 0, "dim 0", "2"},
		{"dsplit", 3, 2, "dim 2", "3"},
	} {
		s := s
		defMethodFunc(s.name, s.name+"(indices_or_sections): tensor_split along "+s.docAlong+"; an int must divide that dim's size; needs at least "+s.docMinDim+" dims (RuntimeError otherwise). Keywords sections= and indices= as PyTorch.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var a, sec, ind runtime.Value
			if err := runtime.UnpackArgs(s.name, args, kwargs, "indices_or_sections?", &a, "sections?", &sec, "indices?", &ind); err != nil {
				return nil, err
			}
			spec, err := oneOf(s.name, "indices_or_sections", a, sec, ind)
			if err != nil {
				return nil, err
			}
			if x.t.Dim() < s.minDims {
				return nil, runtime.Errorf("RuntimeError", "torch.%s requires a tensor with at least %d dimension, but got a tensor with %d dimensions!", s.name, s.minDims, x.t.Dim())
			}
			dim := s.dim
			if dim < 0 {
				dim = 1
				if x.t.Dim() == 1 {
					dim = 0
				}
			}
			if t, ok := spec.(*TensorValue); ok && t.t.Dim() == 0 && t.t.DType().IsInt() {
				spec = runtime.Int(t.t.FlatInt64(0)) // an int-valued 0-d tensor is an int (__index__)
			}
			switch v := spec.(type) {
			case runtime.Int:
				size := x.t.Shape()[dim]
				if v == 0 || size%int(v) != 0 {
					return nil, runtime.Errorf("RuntimeError", "torch.%s attempted to split along dimension %d, but the size of the dimension %d is not divisible by the split_size %d!", s.name, dim, size, v)
				}
				return tensorSplitSections(engineOf(th), x, int(v), dim)
			case *runtime.List, runtime.Tuple:
				ints, ok := runtime.AsInts(v)
				if !ok {
					return nil, runtime.Errorf("TypeError", "%s(): argument 'indices' must be a tuple of ints, not %s", s.name, v.Type())
				}
				return tensorSplitIndices(engineOf(th), x, ints, dim)
			}
			return nil, runtime.Errorf("TypeError", "%s(): argument 'indices_or_sections' must be an int or a list of ints, not %s", s.name, spec.Type())
		})
	}

	defMethodFunc("rot90", "rot90(k=1, dims=[0, 1]): self rotated by 90 degrees k times from dims[0] towards dims[1] (a copy; k modulo 4, negative k the other way). Needs 2 distinct dims of a tensor with at least 2 dims (RuntimeError otherwise). grad_fn Rot90Backward0.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		k := 1
		dims := shapeArg{shape: []int{0, 1}}
		if err := runtime.UnpackArgs("rot90", args, kwargs, "k?", &k, "dims?", &dims); err != nil {
			return nil, err
		}
		d := dims.shape
		return x.result(engineOf(th).Apply("rot90", []*T{x.t}, autograd.Attrs{"k": k, "dims": d}, func() (*T, error) { return tensor.Rot90(x.t, k, d) }))
	})

	defMethodFunc("take_along_dim", "take_along_dim(indices, dim=none): gather along dim after broadcasting self and indices (i64, same rank) against each other in every other dim; with dim none, the elements of self flattened (a view: a non-viewable self is a RuntimeError, as PyTorch) at the flattened indices. grad_fn GatherBackward0.", methodTakeAlongDim)

	defGlobal("cartesian_prod", "cartesian_prod(*tensors): the cartesian product of 1-D tensors of one dtype, as a [n1*n2*..., len(tensors)] tensor whose rows are the tuples in lexicographic order (one tensor: that tensor itself). grad_fn StackBackward0.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if len(kwargs) > 0 {
			return nil, runtime.Errorf("TypeError", "cartesian_prod() got an unexpected keyword argument '%s'", kwargs[0].Name)
		}
		ts := make([]*T, len(args))
		for i, a := range args {
			t, ok := a.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "cartesian_prod(): expected Tensor as element %d in argument 0, but got %s", i, a.Type())
			}
			ts[i] = t.t
		}
		r, err := cartesianProd(engineOf(th), ts)
		if err != nil {
			return nil, err
		}
		if len(args) == 1 {
			return args[0], nil
		}
		return NewTensorValue(th, r), nil
	})

	defMethodFunc("inner", "inner(other): the sum of products over the last dims of self and other (whose sizes must match), for every pair of their other indices: a tensor of shape self.shape[:-1] + other.shape[:-1]; a 0-d operand multiplies. Both must have one dtype (RuntimeError otherwise, as PyTorch). grad_fn ReshapeAliasBackward0 (MulBackward0 for a 0-d operand).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("inner", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(innerOp(engineOf(th), x.t, o.t))
	})
	defMethodFunc("vdot", "vdot(other): the dot product of two 1-D tensors of one dtype and size (for real tensors the same as dot; RuntimeError otherwise). grad_fn VdotBackward0.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("vdot", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		r, err := applyBinary(engineOf(th), "dot", tensor.Dot, x.t, o.t)
		if err == nil {
			autograd.SetGradFnName(r, "VdotBackward0")
		}
		return x.result(r, err)
	})
}

// oneOf returns the one given value among PyTorch's alternative spellings
// of an argument (a TypeError when none or several are given).
func oneOf(fname, name string, vals ...runtime.Value) (runtime.Value, error) {
	var got runtime.Value
	for _, v := range vals {
		if v == nil {
			continue
		}
		if got != nil {
			return nil, runtime.Errorf("TypeError", "%s() got multiple values for argument '%s'", fname, name)
		}
		got = v
	}
	if got == nil {
		return nil, runtime.Errorf("TypeError", "%s() missing required argument '%s'", fname, name)
	}
	return got, nil
}

func methodTensorSplit(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var a, sec, ind, tio runtime.Value
	d := 0
	if err := runtime.UnpackArgs("tensor_split", args, kwargs, "indices_or_sections?", &a, "dim?", &d,
		"sections?", &sec, "indices?", &ind, "tensor_indices_or_sections?", &tio); err != nil {
		return nil, err
	}
	spec, err := oneOf("tensor_split", "indices_or_sections", a, sec, ind, tio)
	if err != nil {
		return nil, err
	}
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	e := engineOf(th)
	switch v := spec.(type) {
	case runtime.Int:
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return tensorSplitSections(e, x, int(v), nd)
	case *runtime.List, runtime.Tuple:
		ints, ok := runtime.AsInts(v)
		if !ok {
			return nil, runtime.Errorf("TypeError", "tensor_split(): argument 'indices' must be a tuple of ints, not %s", v.Type())
		}
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return tensorSplitIndices(e, x, ints, nd)
	case *TensorValue:
		if v.t.DType() != tensor.I64 {
			return nil, runtime.Errorf("RuntimeError", "tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s", kernels.TorchName(v.t.DType()))
		}
		if v.t.Dim() > 1 {
			return nil, runtime.Errorf("RuntimeError", "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with %d dims", v.t.Dim())
		}
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		if v.t.Dim() == 0 {
			return tensorSplitSections(e, x, int(v.t.FlatInt64(0)), nd)
		}
		ints := make([]int, v.t.Numel())
		for i, iv := range v.t.ToInt64s() {
			ints[i] = int(iv)
		}
		return tensorSplitIndices(e, x, ints, nd)
	}
	return nil, runtime.Errorf("TypeError", "tensor_split(): argument 'indices_or_sections' must be an int, a list of ints or a tensor, not %s", spec.Type())
}

// tensorSplitSections is tensor_split(x, n, dim): n narrow views, the
// first size % n of them one element longer.
func tensorSplitSections(e *Engine, x *TensorValue, n, dim int) (runtime.Value, error) {
	if n <= 0 {
		return nil, runtime.Errorf("RuntimeError", "number of sections must be larger than 0, got %d", n)
	}
	size := x.t.Shape()[dim]
	lo, extra := size/n, size%n
	bounds := make([]int, 0, n-1)
	start := 0
	for i := 0; i < n-1; i++ {
		start += lo
		if i < extra {
			start++
		}
		bounds = append(bounds, start)
	}
	return tensorSplitIndices(e, x, bounds, dim)
}

// tensorSplitIndices is tensor_split(x, indices, dim): the views
// x[prev:idx] along dim for each index and x[last:], with slice
// semantics (negative indices count from the end, bounds are clamped,
// a start past the end gives an empty view).
func tensorSplitIndices(e *Engine, x *TensorValue, indices []int, dim int) (runtime.Value, error) {
	size := x.t.Shape()[dim]
	clamp := func(v int) int {
		if v < 0 {
			v += size
		}
		return min(max(v, 0), size)
	}
	out := make(runtime.Tuple, 0, len(indices)+1)
	start := 0
	piece := func(end int) error {
		s := clamp(start)
		en := max(clamp(end), s)
		r, err := e.Apply("narrow", []*T{x.t}, autograd.Attrs{"dim": dim, "start": s, "length": en - s}, func() (*T, error) { return x.t.Narrow(dim, s, en-s) })
		if err != nil {
			return err
		}
		out = append(out, wrap(x.eng, r))
		return nil
	}
	for _, idx := range indices {
		if err := piece(idx); err != nil {
			return nil, err
		}
		start = idx
	}
	if err := piece(size); err != nil {
		return nil, err
	}
	return out, nil
}

func methodTakeAlongDim(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var idx tensorArg
	var dim intOpt
	if err := runtime.UnpackArgs("take_along_dim", args, kwargs, "indices", &idx, "dim?", &dim); err != nil {
		return nil, err
	}
	e := engineOf(th)
	if !dim.ok {
		flat, err := viewOp(e, x.t, []int{-1})
		if err != nil {
			return nil, err
		}
		fi, err := idx.t.View(-1)
		if err != nil {
			return nil, err
		}
		if fi.DType() != tensor.I64 {
			return nil, runtime.Errorf("RuntimeError", "gather(): Expected dtype int64 for index")
		}
		return x.result(takeAlongOp(e, "GatherBackward", flat, 0, fi, nil))
	}
	if x.t.Dim() != idx.t.Dim() {
		return nil, runtime.Errorf("RuntimeError", "torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices", x.t.Dim(), idx.t.Dim())
	}
	if idx.t.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "torch.take_along_dim(): dtype of indices should be Long but got %s", kernels.TorchName(idx.t.DType()))
	}
	d, err := normDim(dim.v, x.t.Dim())
	if err != nil {
		return nil, err
	}
	if x.t.Dim() == 0 {
		return nil, errNoDims(d)
	}
	selfSizes := append([]int(nil), x.t.Shape()...)
	selfSizes[d] = idx.t.Shape()[d]
	ishape, err := tensor.BroadcastShapes(selfSizes, idx.t.Shape())
	if err != nil {
		return nil, err
	}
	bi, err := idx.t.Expand(ishape...)
	if err != nil {
		return nil, err
	}
	idxSizes := append([]int(nil), idx.t.Shape()...)
	idxSizes[d] = x.t.Shape()[d]
	xshape, err := tensor.BroadcastShapes(idxSizes, x.t.Shape())
	if err != nil {
		return nil, err
	}
	bx, err := expandOp(e, x.t, xshape)
	if err != nil {
		return nil, err
	}
	return x.result(takeAlongOp(e, "GatherBackward", bx, d, bi, nil))
}

// cartesianProd is torch.cartesian_prod of 1-D tensors: each tensor
// viewed along its own dim of the grid, expanded, flattened, and the
// columns stacked (one tensor is returned as it is).
func cartesianProd(e *Engine, ts []*T) (*T, error) {
	for _, t := range ts {
		if t.Dim() != 1 {
			return nil, runtime.Errorf("RuntimeError", "Expect a 1D vector, but got shape %s", shapeText(t.Shape()))
		}
	}
	if len(ts) == 1 {
		return ts[0], nil
	}
	if len(ts) == 0 {
		return nil, runtime.Errorf("RuntimeError", "meshgrid expects a non-empty TensorList")
	}
	shape := make([]int, len(ts))
	for i, t := range ts {
		if t.DType() != ts[0].DType() {
			return nil, runtime.Errorf("RuntimeError", "meshgrid expects all tensors to have the same dtype")
		}
		shape[i] = t.Numel()
	}
	cols := make([]*T, len(ts))
	for i, t := range ts {
		vs := make([]int, len(ts))
		for j := range vs {
			vs[j] = 1
		}
		vs[i] = shape[i]
		v, err := viewOp(e, t, vs)
		if err != nil {
			return nil, err
		}
		if v, err = expandOp(e, v, shape); err != nil {
			return nil, err
		}
		if cols[i], err = reshapeOp(e, v, []int{numelOf(shape)}); err != nil {
			return nil, err
		}
	}
	return e.Apply("stack", cols, autograd.Attrs{"dim": 1}, func() (*T, error) { return tensor.Stack(cols, 1) })
}

// innerOp is torch.inner: a * b when either is 0-d, else tensordot over
// the last dims, as a matrix product of a [M, K] and b [N, K]^T reshaped
// to a.shape[:-1] + b.shape[:-1].
func innerOp(e *Engine, a, b *T) (*T, error) {
	if a.Dim() == 0 || b.Dim() == 0 {
		return applyBinary(e, "mul", tensor.Mul, a, b)
	}
	as, bs := a.Shape(), b.Shape()
	k := as[len(as)-1]
	if k != bs[len(bs)-1] {
		return nil, runtime.Errorf("RuntimeError", "inner() the last dimension must match on both input tensors but got shapes %s and %s", shapeText(as), shapeText(bs))
	}
	if a.DType() != b.DType() {
		return nil, runtime.Errorf("RuntimeError", "expected scalar type %s but found %s", kernels.TorchName(a.DType()), kernels.TorchName(b.DType()))
	}
	m, n := numelOf(as[:len(as)-1]), numelOf(bs[:len(bs)-1])
	a2, err := reshapeOp(e, a, []int{m, k})
	if err != nil {
		return nil, err
	}
	b2, err := reshapeOp(e, b, []int{n, k})
	if err != nil {
		return nil, err
	}
	bt, err := transposeOp(e, b2, 0, 1)
	if err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "mm", tensor.Mm, a2, bt)
	if err != nil {
		return nil, err
	}
	out := append(append([]int(nil), as[:len(as)-1]...), bs[:len(bs)-1]...)
	if r, err = reshapeOp(e, r, out); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "ReshapeAliasBackward0")
	return r, nil
}
