package stdlib

import (
	"math"
	"slices"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// PyTorch 1.13 aliases and small tensor methods tsr lacked (mH, H,
// arctan2, fix, multiply_, divide_, subtract_, cumsum_, cumprod_,
// logical_not_, bitwise_not_, retains_grad, is_cpu, get_device,
// new_empty_strided, sum_to_size, split_with_sizes, resize_, as_tensor,
// asarray, is_nonzero, is_same_size, is_signed, scalar_tensor, rsub, ger,
// diagflat, chain_matmul). The larger composites (combinations, frexp,
// renorm, addbmm, the *_scatter functions, index_put and gradient) are in
// ops_h5_more.go. Composites are built from recorded ops, so they are
// differentiable where PyTorch's are; their result node is renamed to
// PyTorch's.

// callChain runs a sequence of method and function calls, keeping the first
// error: once err is set, every later call is skipped and returns nil.
type callChain struct {
	th  *runtime.Thread
	err error
}

// m calls recv.name(args...).
func (c *callChain) m(recv runtime.Value, name string, args ...runtime.Value) runtime.Value {
	return c.mk(recv, name, args, nil)
}

// mk calls recv.name(args..., kwargs...).
func (c *callChain) mk(recv runtime.Value, name string, args []runtime.Value, kwargs []runtime.Kwarg) runtime.Value {
	if c.err != nil {
		return nil
	}
	v, err := callMethod(c.th, recv, name, args, kwargs)
	c.err = err
	return v
}

// g calls the global function name(args...).
func (c *callChain) g(name string, args ...runtime.Value) runtime.Value {
	if c.err != nil {
		return nil
	}
	v, err := callGlobal(c.th, name, args, nil)
	c.err = err
	return v
}

// done returns v, or c's error.
func (c *callChain) done(v runtime.Value) (runtime.Value, error) {
	if c.err != nil {
		return nil, c.err
	}
	return v, nil
}

// doneNamed is done with v's node renamed to PyTorch's name for the
// composite (when v is a tensor with history).
func (c *callChain) doneNamed(v runtime.Value, node string) (runtime.Value, error) {
	if c.err != nil {
		return nil, c.err
	}
	if tv, ok := v.(*TensorValue); ok && tv.t.GradFn() != nil {
		autograd.SetGradFnName(tv.t, node)
	}
	return v, nil
}

// aliasMethodH5 registers name as another spelling of the tensor method
// target (looked up at call time).
func aliasMethodH5(name, target string) {
	defMethod(name, name+": the same as "+target+".", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return callMethod(th, x, target, args, kwargs)
	})
}

// inplaceOfMethod registers name (an in-place method, e.g. cumsum_) as the
// out-of-place method target applied to self and written back into self
// (one version bump); node is PyTorch's grad_fn name for the in-place op.
func inplaceOfMethod(name, target, node, doc string) {
	defMethod(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		e := engineOf(th)
		err := inplaceVia(e, x.t, node, func(self *T) (*T, error) {
			r, err := callMethod(th, wrap(e, self), target, args, kwargs)
			if err != nil {
				return nil, err
			}
			return r.(*TensorValue).t, nil
		})
		if err != nil {
			return nil, err
		}
		return x, nil
	})
}

func init() {
	defProp("mH", func(x *TensorValue) (runtime.Value, error) {
		if x.t.Dim() == 0 {
			return x, nil
		}
		if x.t.Dim() < 2 {
			return nil, runtime.Errorf("RuntimeError", "tensor.mH is only supported on matrices or batches of matrices. Got %d-D tensor.", x.t.Dim())
		}
		return x.result(transposeOp(x.eng, x.t, -2, -1))
	})
	defProp("H", func(x *TensorValue) (runtime.Value, error) {
		switch x.t.Dim() {
		case 0:
			return x, nil
		case 2:
			return x.result(transposeOp(x.eng, x.t, 0, 1))
		case 1:
			return nil, runtime.Errorf("RuntimeError", "tensor.H is only supported on matrices (2-D tensors). Got 1-D tensor.")
		}
		return nil, runtime.Errorf("RuntimeError", "tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor. For batches of matrices, consider using tensor.mH", x.t.Dim())
	})
	defProp("retains_grad", func(x *TensorValue) (runtime.Value, error) {
		return runtime.Bool(autograd.RetainsGrad(x.t)), nil
	})
	defProp("is_cpu", func(x *TensorValue) (runtime.Value, error) { return runtime.Bool(true), nil })

	for alias, target := range map[string]string{"arctan2": "atan2", "arctan2_": "atan2_", "fix": "trunc", "fix_": "trunc_",
		"multiply_": "mul_", "divide_": "div_", "subtract_": "sub_", "ger": "outer"} {
		aliasMethodH5(alias, target)
		if alias[len(alias)-1] != '_' {
			aliasGlobal(alias, target)
		}
	}
	inplaceOfMethod("cumsum_", "cumsum", "CumsumBackward0", "cumsum_(dim, dtype=none): cumsum in place (the sum cast back to self's dtype); returns self.")
	inplaceOfMethod("cumprod_", "cumprod", "CumprodBackward0", "cumprod_(dim, dtype=none): cumprod in place (the product cast back to self's dtype); returns self.")
	defMethod("logical_not_", "logical_not_(): self becomes 1 where it was 0 and 0 elsewhere, in self's dtype; returns self. Not differentiable.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("logical_not_", args, kwargs); err != nil {
			return nil, err
		}
		e := engineOf(th)
		if err := e.CheckInplace(x.t); err != nil {
			return nil, err
		}
		r, err := tensor.LogicalNot(x.t)
		if err == nil {
			err = e.ApplyInplace("copy", x.t, []*T{r}, nil, func() error { return x.t.CopyInplace(r) })
		}
		if err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("bitwise_not_", "bitwise_not_(): bitwise NOT in place (integer and bool tensors); returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("bitwise_not_", args, kwargs); err != nil {
			return nil, err
		}
		if x.t.DType().IsFloat() {
			return nil, notImplementedFor("bitwise_not_cpu", x.t.DType())
		}
		e := engineOf(th)
		if err := e.CheckInplace(x.t); err != nil {
			return nil, err
		}
		r, err := tensor.BitwiseNot(x.t)
		if err == nil {
			err = e.ApplyInplace("copy", x.t, []*T{r}, nil, func() error { return x.t.CopyInplace(r) })
		}
		if err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("get_device", "get_device(): the device index: -1 for a CPU tensor (tsr's tensors live on the CPU).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("get_device", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.Int(-1), nil
	})
	defMethod("new_empty_strided", "new_empty_strided(size, stride, dtype=none, device=none, requires_grad=false): empty_strided(size, stride) in self's dtype unless dtype is given (contents unspecified: tsr fills zeros).", methodNewEmptyStrided)
	defMethod("sum_to_size", "sum_to_size(*size): self summed down to size, which must be expandable to self's shape (the gradient of a broadcast); RuntimeError otherwise. grad_fn SumBackward1.", methodSumToSize)
	defMethodFunc("split_with_sizes", "split_with_sizes(split_sizes, dim=0): views of self along dim of the given sizes, which must sum to the size of dim.", methodSplitWithSizes)
	defMethod("resize_", "resize_(*sizes): self becomes a contiguous tensor of the given shape over its storage from its offset, which is reallocated (old elements kept, new ones zero) when too small; views of the old storage keep it. Bumps the version. RuntimeError for a tensor that requires grad.", methodResize)
	defMethodFunc("is_nonzero", "is_nonzero(): whether the single element of self is not zero (bool); RuntimeError for zero or several elements.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("is_nonzero", args, kwargs); err != nil {
			return nil, err
		}
		switch n := x.t.Numel(); {
		case n == 0:
			return nil, runtime.Errorf("RuntimeError", "Boolean value of Tensor with no values is ambiguous")
		case n > 1:
			return nil, runtime.Errorf("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous")
		}
		return runtime.Bool(x.t.FlatFloat64(0) != 0), nil
	})
	defMethodFunc("is_same_size", "is_same_size(other): whether self and other have the same shape.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("is_same_size", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return runtime.Bool(slices.Equal(x.t.Shape(), o.t.Shape())), nil
	})
	defMethodFunc("is_signed", "is_signed(): whether self's dtype is signed (float and signed integer dtypes; not u8 or bool).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("is_signed", args, kwargs); err != nil {
			return nil, err
		}
		dt := x.t.DType()
		return runtime.Bool(dt != tensor.U8 && dt != tensor.Bool), nil
	})
	defFunctional("rsub", "rsub(input, other, alpha=1): other - alpha * input (other a tensor or a number). grad_fn RsubBackward0 (tensor other) or RsubBackward1 (number).", methodRsub)
	defMethodFunc("diagflat", "diagflat(offset=0): the 2-D matrix with self flattened on diagonal offset (the same as diag(self.flatten(), offset)). grad_fn DiagBackward0.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		offset := 0
		if err := runtime.UnpackArgs("diagflat", args, kwargs, "offset?", &offset); err != nil {
			return nil, err
		}
		c := &callChain{th: th}
		return c.doneNamed(c.g("diag", c.m(x, "reshape", iv(-1)), iv(offset)), "DiagBackward0")
	})
	defGlobal("scalar_tensor", "scalar_tensor(s, dtype=f32, requires_grad=false): the 0-d tensor holding the number s (f32 unless dtype is given, also for int and bool s).", builtinScalarTensor)
	defGlobal("as_tensor", "as_tensor(data, dtype=none, device=none): data as a tensor without a copy where possible: a tensor of the requested dtype is returned itself, another tensor converted (.to(dtype)); anything else as tensor(data, dtype=dtype).", builtinAsTensor("as_tensor"))
	defGlobal("asarray", "asarray(obj, dtype=none, device=none, copy=none, requires_grad=false): as as_tensor; copy=true always copies, copy=false raises ValueError where a copy is needed.", builtinAsTensor("asarray"))
	defGlobal("chain_matmul", "chain_matmul(*matrices): the product of the 2-D matrices, in the cheapest order (linalg.multi_dot); one matrix is returned as a copy. Deprecated in PyTorch in favour of linalg.multi_dot.", builtinChainMatmul)
}

func methodNewEmptyStrided(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var size, stride runtime.Value
	var o creationOpts
	if err := runtime.UnpackArgs("new_empty_strided", args, kwargs, append([]any{"size", &size, "stride", &stride}, o.pairs()...)...); err != nil {
		return nil, err
	}
	kw := []runtime.Kwarg{{Name: "dtype", Value: dtypeValues[o.dt(x.t.DType()).String()]}}
	if o.requiresGrad {
		kw = append(kw, runtime.Kwarg{Name: "requires_grad", Value: runtime.Bool(true)})
	}
	return callGlobal(th, "empty_strided", []runtime.Value{size, stride}, kw)
}

func methodSumToSize(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "sum_to_size() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	size, err := shapeVarargs("sum_to_size", args)
	if err != nil {
		return nil, err
	}
	shape := x.t.Shape()
	lead := len(shape) - len(size)
	ok := lead >= 0
	for i := 0; ok && i < len(size); i++ {
		ok = size[i] == shape[lead+i] || size[i] == 1
	}
	if !ok {
		return nil, runtime.Errorf("RuntimeError", "size {%s} is not expandable to size {%s}.", fmtInts(size), fmtInts(shape))
	}
	var dims []runtime.Value
	for i := 0; i < lead; i++ {
		dims = append(dims, iv(i))
	}
	for i, s := range size {
		if s == 1 && shape[lead+i] != 1 {
			dims = append(dims, iv(lead+i))
		}
	}
	if len(dims) == 0 {
		return x, nil
	}
	c := &callChain{th: th}
	r := c.mk(x, "sum", []runtime.Value{runtime.NewList(dims)}, []runtime.Kwarg{{Name: "keepdim", Value: runtime.Bool(true)}})
	if lead > 0 {
		r = c.m(r, "reshape", intList(size))
	}
	return c.doneNamed(r, "SumBackward1")
}

func methodSplitWithSizes(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var sizes []int
	dim := 0
	if err := runtime.UnpackArgs("split_with_sizes", args, kwargs, "split_sizes", &sizes, "dim?", &dim); err != nil {
		return nil, err
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	sum := 0
	for _, s := range sizes {
		if s < 0 {
			return nil, runtime.Errorf("RuntimeError", "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", fmtInts(sizes))
		}
		sum += s
	}
	if n := x.t.Shape()[d]; sum != n {
		return nil, runtime.Errorf("RuntimeError", "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", n, dim, fmtInts(sizes))
	}
	return callMethod(th, x, "split", []runtime.Value{intList(sizes), iv(d)}, nil)
}

// methodResize is Tensor.resize_: PyTorch's resize_ keeps the storage
// (from the storage offset) when it holds enough elements and otherwise
// grows it, keeping the old bytes; tsr fills the new elements with zeros
// where PyTorch leaves them uninitialised.
func methodResize(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if len(kwargs) > 0 && kwargs[0].Name != "memory_format" {
		return nil, runtime.Errorf("TypeError", "resize_() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	size, err := shapeVarargs("resize_", args)
	if err != nil {
		return nil, err
	}
	if err := checkSizes(size); err != nil {
		return nil, err
	}
	if x.t.RequiresGrad() {
		return nil, runtime.Errorf("RuntimeError", "cannot resize variables that require grad")
	}
	n := 1
	for _, s := range size {
		n *= s
	}
	strides := make([]int, len(size))
	for i, st := len(size)-1, 1; i >= 0; i-- {
		strides[i] = st
		st *= max(size[i], 1)
	}
	off := x.t.StorageOffset()
	if have := x.t.Storage().Len(); off+n > have {
		grown, err := tensor.Zeros([]int{off + n}, x.t.DType())
		if err != nil {
			return nil, err
		}
		if have > 0 {
			old, err := x.t.AsStrided([]int{have}, []int{1}, 0)
			if err != nil {
				return nil, err
			}
			dst, err := grown.Narrow(0, 0, have)
			if err == nil {
				err = dst.CopyInplace(old)
			}
			if err != nil {
				return nil, err
			}
		}
		x.t.SetData(grown)
	}
	v, err := x.t.AsStrided(size, strides, off)
	if err != nil {
		return nil, err
	}
	if err := x.t.SetGeometryFrom(v); err != nil {
		return nil, err
	}
	return x, nil
}

func methodRsub(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var other runtime.Value
	var alpha runtime.Value = runtime.Int(1)
	if err := runtime.UnpackArgs("rsub", args, kwargs, "other", &other, "alpha?", &alpha); err != nil {
		return nil, err
	}
	node := "RsubBackward0"
	o, isTensor := other.(*TensorValue)
	if !isTensor {
		w, ok := operand(other)
		if !ok {
			return nil, runtime.Errorf("TypeError", "rsub(): argument 'other' must be Tensor or Number, not %s", other.Type())
		}
		o, node = wrap(x.eng, w), "RsubBackward1"
	}
	c := &callChain{th: th}
	return c.doneNamed(c.mk(o, "sub", []runtime.Value{x}, []runtime.Kwarg{{Name: "alpha", Value: alpha}}), node)
}

func builtinScalarTensor(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var s runtime.Value
	var o creationOpts
	if err := runtime.UnpackArgs("scalar_tensor", args, kwargs, append([]any{"s", &s}, o.pairs()...)...); err != nil {
		return nil, err
	}
	var v float64
	switch n := s.(type) {
	case runtime.Int:
		v = float64(n)
	case runtime.Float:
		v = float64(n)
	case runtime.Bool:
		if n {
			v = 1
		}
	default:
		return nil, runtime.Errorf("TypeError", "scalar_tensor(): argument 's' (position 1) must be Number, not %s", s.Type())
	}
	dt := o.dt(tensor.F32)
	var t *T
	var err error
	if dt.IsFloat() {
		t, err = tensor.Full(nil, v, dt)
	} else {
		t, err = tensor.FullInt(nil, int64(math.Trunc(v)), dt)
	}
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinAsTensor(name string) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var data runtime.Value
		var dt dtypeOpt
		var device, cp runtime.Value = runtime.None, runtime.None
		rg := false
		pairs := []any{"data", &data, "dtype?", &dt, "device?", &device}
		if name == "asarray" {
			pairs = []any{"obj", &data, "dtype?", &dt, "device?", &device, "copy?", &cp, "requires_grad?", &rg}
		}
		if err := runtime.UnpackArgs(name, args, kwargs, pairs...); err != nil {
			return nil, err
		}
		d, err := deviceArg(device)
		if err == nil {
			err = checkCPU(d)
		}
		if err != nil {
			return nil, err
		}
		x, isTensor := data.(*TensorValue)
		var r runtime.Value
		switch {
		case isTensor && (!dt.ok || dt.dt == x.t.DType()):
			r = x
			if cp == runtime.Bool(true) {
				r, err = callMethod(th, x, "clone", nil, nil)
			}
		case isTensor:
			if cp == runtime.Bool(false) {
				return nil, runtime.Errorf("ValueError", "can't satisfy the requested dtype without a copy (copy=false)")
			}
			r, err = callMethod(th, x, "to", []runtime.Value{dtypeValues[dt.dt.String()]}, nil)
		default:
			var kw []runtime.Kwarg
			if dt.ok {
				kw = append(kw, runtime.Kwarg{Name: "dtype", Value: dtypeValues[dt.dt.String()]})
			}
			r, err = callGlobal(th, "tensor", []runtime.Value{data}, kw)
		}
		if err != nil || !rg {
			return r, err
		}
		return callMethod(th, r, "requires_grad_", nil, nil)
	}
}

func builtinChainMatmul(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "chain_matmul() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	if len(args) == 1 {
		if l, ok := args[0].(*runtime.List); ok {
			args = l.Elems
		} else if tp, ok := args[0].(runtime.Tuple); ok {
			args = tp
		}
	}
	if len(args) == 0 {
		return nil, runtime.Errorf("RuntimeError", "chain_matmul(): Expected one or more matrices")
	}
	for _, a := range args {
		t, ok := a.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "chain_matmul(): argument 'matrices' must be tuple of Tensors, not %s", a.Type())
		}
		if t.t.Dim() != 2 {
			return nil, runtime.Errorf("RuntimeError", "Tensor dimension is %d, expected 2 instead.", t.t.Dim())
		}
	}
	if len(args) == 1 {
		return callMethod(th, args[0], "clone", nil, nil)
	}
	return callLinalg(th, "multi_dot", []runtime.Value{runtime.NewList(args)}, nil)
}
