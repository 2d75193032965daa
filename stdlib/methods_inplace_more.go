package stdlib

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// More of PyTorch's in-place methods: clamp_min_, clamp_max_, fmod_,
// hypot_, atan2_, nan_to_num_, frac_, addcmul_, addcdiv_, lerp_,
// index_fill_, masked_scatter_, div_ (with rounding_mode), and the in-place
// view ops t_, transpose_, unsqueeze_, squeeze_ (which change the tensor's
// own shape and strides).

// inplaceVia runs an in-place op on x as its recorded out-of-place form f
// applied to a snapshot of x, then writes the result back into x (one
// version bump). The result must have x's shape and a dtype castable to
// x's (PyTorch's "result type Float can't be cast to the desired output
// type Long"). Under grad mode the snapshot is a recorded clone, so that
// nodes saving self see the old value and gradients reach x's history;
// x's node is then named node (PyTorch's name for the in-place op).
func inplaceVia(e *Engine, x *T, node string, f func(self *T) (*T, error)) error {
	if err := e.CheckInplace(x); err != nil {
		return err
	}
	self := x
	if e.GradEnabled() {
		var err error
		if self, err = cloneOp(e, x); err != nil {
			return err
		}
	}
	r, err := f(self)
	if err != nil {
		return err
	}
	if !slices.Equal(r.Shape(), x.Shape()) {
		return runtime.Errorf("RuntimeError", "output with shape %s doesn't match the broadcast shape %s", shapeText(x.Shape()), shapeText(r.Shape()))
	}
	if !tensor.CanCast(r.DType(), x.DType()) {
		return tensor.CastError(r.DType(), x.DType())
	}
	if err := e.ApplyInplace("copy", x, []*T{r}, nil, func() error { return x.CopyInplace(r) }); err != nil {
		return err
	}
	if x.Base() == nil && x.GradFn() != nil && node != "" {
		autograd.SetGradFnName(x, node)
	}
	return nil
}

func shapeText(s []int) string {
	return strings.ReplaceAll(fmt.Sprint(s), " ", ", ")
}

// inplaceMethod registers name_ as inplaceVia with f reading the arguments.
func inplaceMethod(name, doc string, f func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error)) {
	inplaceMethodDst(name, doc, func(e *Engine, _, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		return f(e, self, args, kwargs)
	})
}

// inplaceMethodDst is inplaceMethod whose f also receives dst, the tensor
// the method writes (self may be a copy of it carrying its history), for
// overlap checks against the other arguments.
func inplaceMethodDst(name, doc string, f func(e *Engine, dst, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error)) {
	elementwise := !overlapUnchecked[name]
	defMethod(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if first := inplaceFirstCheck[name]; first != nil {
			if err := first(x.t, args, kwargs); err != nil {
				return nil, err
			}
		}
		if elementwise {
			if err := checkInplaceOperands(engineOf(th), x.t, args, kwargs); err != nil {
				return nil, err
			}
		}
		e := engineOf(th)
		node := ""
		err := inplaceVia(e, x.t, "", func(self *T) (*T, error) {
			r, n, err := f(e, x.t, self, args, kwargs)
			node = n
			return r, err
		})
		if err != nil {
			return nil, err
		}
		if x.t.Base() == nil && x.t.GradFn() != nil && node != "" {
			autograd.SetGradFnName(x.t, node)
		}
		return x, nil
	})
}

// inplaceFirstCheck holds, per in-place method, a check PyTorch makes
// before autograd's leaf check and the overlap checks (composite ops that
// validate their arguments before reaching the in-place kernel).
var inplaceFirstCheck = map[string]func(self *T, args []runtime.Value, kwargs []runtime.Kwarg) error{}

// overlapUnchecked are the in-place methods PyTorch runs without
// TensorIterator's overlap check on their tensor arguments (index and
// scatter kernels: masked_scatter_ and index_fill_ accept an overlapping
// source or value; the scatter ops make their own assert_no_overlap
// checks after validating shapes, see inplaceNoOverlap).
var overlapUnchecked = map[string]bool{"index_fill_": true, "masked_scatter_": true, "scatter_": true, "scatter_add_": true, "scatter_reduce_": true}

// checkInplaceOperands returns PyTorch's RuntimeError for an elementwise
// in-place op one of whose tensor arguments partially overlaps self
// (tensor.CheckNoPartialOverlap; TensorIterator checks every input
// against the output), after autograd's check of self (a leaf or a view
// of one that requires grad), which PyTorch makes first.
func checkInplaceOperands(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) error {
	if err := e.CheckInplace(self); err != nil {
		return err
	}
	check := func(v runtime.Value) error {
		if tv, ok := v.(*TensorValue); ok {
			return tensor.CheckNoPartialOverlap(self, tv.t)
		}
		return nil
	}
	for _, a := range args {
		if err := check(a); err != nil {
			return err
		}
	}
	for _, kw := range kwargs {
		if err := check(kw.Value); err != nil {
			return err
		}
	}
	return nil
}

// overload picks PyTorch's node name for a number (0) or tensor (1) operand.
func overload(base string, o *T) string {
	if o.IsWrappedNumber() {
		return base + "0"
	}
	return base + "1"
}

func init() {
	for _, c := range []struct {
		name string
		min  bool
	}{{"clamp_min", true}, {"clamp_max", false}} {
		c := c
		bound := "min"
		if !c.min {
			bound = "max"
		}
		node := "ClampMinBackward"
		if !c.min {
			node = "ClampMaxBackward"
		}
		clamp := func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			var o operandArg
			if err := runtime.UnpackArgs(c.name, args, kwargs, bound, &o); err != nil {
				return nil, "", err
			}
			var r *T
			var err error
			if c.min {
				r, err = clampOp(e, self, o.t, nil)
			} else {
				r, err = clampOp(e, self, nil, o.t)
			}
			return r, overload(node, o.t), err
		}
		defMethodFunc(c.name, c.name+"("+bound+"): clamp with only a "+bound+"imum bound (a number or a tensor).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			r, n, err := clamp(engineOf(th), x.t, args, kwargs)
			if err == nil && r.GradFn() != nil {
				autograd.SetGradFnName(r, n)
			}
			return x.result(r, err)
		})
		inplaceMethod(c.name+"_", c.name+"_("+bound+"): "+c.name+" in place; bumps the version counter and returns self.", clamp)
	}

	inplaceMethod("fmod_", "fmod_(other): fmod in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var o operandArg
		if err := runtime.UnpackArgs("fmod_", args, kwargs, "other", &o); err != nil {
			return nil, "", err
		}
		r, err := fmodOp(e, self, o.t)
		return r, overload("FmodBackward", o.t), err
	})
	for _, name := range []string{"hypot", "atan2"} {
		name := name
		d := binaryByName[name]
		node := map[string]string{"hypot": "HypotBackward0", "atan2": "Atan2Backward0"}[name]
		inplaceMethod(name+"_", name+"_(other): "+name+" in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			var o operandArg
			if err := runtime.UnpackArgs(name+"_", args, kwargs, "other", &o); err != nil {
				return nil, "", err
			}
			if name == "hypot" {
				if dt := tensor.ResultType(self, o.t); !dt.IsFloat() {
					return nil, "", notImplementedFor("hypot_cpu", dt)
				}
			}
			r, err := applyBinary(e, d.name, d.fn, self, o.t)
			return r, node, err
		})
	}
	inplaceMethod("nan_to_num_", "nan_to_num_(nan=0.0, posinf=none, neginf=none): nan_to_num in place; returns self (integer tensors are left as they are).", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var nan, posinf, neginf floatOpt
		if err := runtime.UnpackArgs("nan_to_num_", args, kwargs, "nan?", &nan, "posinf?", &posinf, "neginf?", &neginf); err != nil {
			return nil, "", err
		}
		if !self.DType().IsFloat() {
			return self, "", nil
		}
		r, err := nanToNumOp(e, self, nan, posinf, neginf)
		return r, "NanToNumBackward0", err
	})
	inplaceMethod("frac_", "frac_(): frac in place (float dtypes only); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		if err := noArgs("frac_", args, kwargs); err != nil {
			return nil, "", err
		}
		if !self.DType().IsFloat() {
			return nil, "", notImplementedFor("frac_cpu", self.DType())
		}
		tr, err := unaryOp(e, "trunc", self)
		if err != nil {
			return nil, "", err
		}
		r, err := applyBinary(e, "sub", tensor.Sub, self, tr)
		return r, "FracBackward0", err
	})
	for _, c := range []struct {
		name string
		div  bool
	}{{"addcmul", false}, {"addcdiv", true}} {
		c := c
		node := "AddcmulBackward0"
		if c.div {
			node = "AddcdivBackward0"
		}
		op := func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg, name string) (*T, error) {
			var t1, t2 tensorArg
			var v operandArg
			v.t = tensor.ScalarInt(1)
			if err := runtime.UnpackArgs(name, args, kwargs, "tensor1", &t1, "tensor2", &t2, "value?", &v); err != nil {
				return nil, err
			}
			return addcOp(e, self, t1.t, t2.t, v.t, c.div)
		}
		doc := "self + value * tensor1 * tensor2"
		if c.div {
			doc = "self + value * tensor1 / tensor2"
		}
		defMethodFunc(c.name, c.name+"(tensor1, tensor2, value=1): "+doc+" (broadcast; value is cast to the result dtype).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			r, err := op(engineOf(th), x.t, args, kwargs, c.name)
			if err == nil && r.GradFn() != nil {
				autograd.SetGradFnName(r, node)
			}
			return x.result(r, err)
		})
		inplaceMethod(c.name+"_", c.name+"_(tensor1, tensor2, value=1): "+c.name+" in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			r, err := op(e, self, args, kwargs, c.name+"_")
			return r, node, err
		})
	}
	inplaceMethod("lerp_", "lerp_(end, weight): lerp in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var end tensorArg
		var weight operandArg
		if err := runtime.UnpackArgs("lerp_", args, kwargs, "end", &end, "weight", &weight); err != nil {
			return nil, "", err
		}
		r, err := lerpArgs(e, self, end.t, weight.t)
		return r, overload("LerpBackward", weight.t), err
	})
	indexFill := func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg, name string) (*T, string, error) {
		var dim int
		var index tensorArg
		var v operandArg
		if err := runtime.UnpackArgs(name, args, kwargs, "dim", &dim, "index", &index, "value", &v); err != nil {
			return nil, "", err
		}
		r, err := indexFillOp(e, self, dim, index.t, v.t)
		return r, overload("IndexFillBackward", v.t), err
	}
	defMethodFunc("index_fill", "index_fill(dim, index, value): a copy of self with the slices at index (1-D or 0-d i64) along dim set to value (a number or a 0-d tensor).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		r, n, err := indexFill(engineOf(th), x.t, args, kwargs, "index_fill")
		if err == nil && r.GradFn() != nil {
			autograd.SetGradFnName(r, n)
		}
		return x.result(r, err)
	})
	inplaceMethod("index_fill_", "index_fill_(dim, index, value): index_fill in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		return indexFill(e, self, args, kwargs, "index_fill_")
	})
	maskedScatter := func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg, name string) (*T, error) {
		var mask, src tensorArg
		if err := runtime.UnpackArgs(name, args, kwargs, "mask", &mask, "source", &src); err != nil {
			return nil, err
		}
		return maskedScatterOp(e, self, mask.t, src.t)
	}
	defMethodFunc("masked_scatter", "masked_scatter(mask, source): a copy of self with the positions where mask (broadcast to self) is true filled, in row-major order, with source's leading elements.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(maskedScatter(engineOf(th), x.t, args, kwargs, "masked_scatter"))
	})
	inplaceMethod("masked_scatter_", "masked_scatter_(mask, source): masked_scatter in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		r, err := maskedScatter(e, self, args, kwargs, "masked_scatter_")
		return r, "MaskedScatterBackward0", err
	})
	for _, name := range []string{"logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"} {
		name := name
		defMethod(name+"_", name+"_(other): "+name+" in place, the result cast to self's dtype; returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var o operandArg
			if err := runtime.UnpackArgs(name+"_", args, kwargs, "other", &o); err != nil {
				return nil, err
			}
			if err := checkInplaceOperands(engineOf(th), x.t, args, kwargs); err != nil {
				return nil, err
			}
			if err := inplaceBinary(engineOf(th), name, x.t, o.t); err != nil {
				return nil, err
			}
			return x, nil
		})
	}
	defMethod("true_divide_", "true_divide_(other): div_ without a rounding mode; returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o operandArg
		if err := runtime.UnpackArgs("true_divide_", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		if err := inplaceWithAlpha(engineOf(th), "div", x.t, o.t, nil); err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("div_", "div_(other, rounding_mode=none): in place div (\"trunc\" or \"floor\" rounds the quotient); bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o operandArg
		mode := runtime.Value(runtime.None)
		if err := runtime.UnpackArgs("div_", args, kwargs, "other", &o, "rounding_mode?", &mode); err != nil {
			return nil, err
		}
		e := engineOf(th)
		s, ok := mode.(runtime.String)
		if !ok {
			if err := inplaceWithAlpha(e, "div", x.t, o.t, nil); err != nil {
				return nil, err
			}
			return x, nil
		}
		if s != "floor" && s != "trunc" {
			return nil, runtime.Errorf("RuntimeError", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", string(s))
		}
		if err := checkInplaceOperands(e, x.t, []runtime.Value{wrap(e, o.t)}, nil); err != nil {
			return nil, err
		}
		if err := inplaceVia(e, x.t, "DivBackward2", func(self *T) (*T, error) { return divRounding(e, self, o.t, string(s)) }); err != nil {
			return nil, err
		}
		return x, nil
	})

	// ---- in-place view ops ----
	defMethod("t_", "t_(): t() in place: the tensor itself becomes its transpose (at most 2 dims); bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("t_", args, kwargs); err != nil {
			return nil, err
		}
		if x.t.Dim() > 2 {
			return nil, runtime.Errorf("RuntimeError", "t_() expects a tensor with <= 2 dimensions, but self is %dD", x.t.Dim())
		}
		return inplaceView(engineOf(th), x, "TBackward1", func(e *Engine, s *T) (*T, error) {
			if s.Dim() < 2 {
				return viewOp(e, s, s.Shape())
			}
			return transposeOp(e, s, 0, 1)
		})
	})
	defMethod("transpose_", "transpose_(dim0, dim1): transpose in place: the tensor itself swaps two dims; bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d0, d1 int
		if err := runtime.UnpackArgs("transpose_", args, kwargs, "dim0", &d0, "dim1", &d1); err != nil {
			return nil, err
		}
		return inplaceView(engineOf(th), x, "TransposeBackward1", func(e *Engine, s *T) (*T, error) { return transposeOp(e, s, d0, d1) })
	})
	tensorMethods["swapaxes_"] = tensorMethods["transpose_"]
	tensorMethods["swapdims_"] = tensorMethods["transpose_"]
	defMethod("unsqueeze_", "unsqueeze_(dim): unsqueeze in place: the tensor itself gains a size-1 dim; bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d int
		if err := runtime.UnpackArgs("unsqueeze_", args, kwargs, "dim", &d); err != nil {
			return nil, err
		}
		return inplaceView(engineOf(th), x, "UnsqueezeBackward1", func(e *Engine, s *T) (*T, error) { return unsqueezeOp(e, s, d) })
	})
	defMethod("squeeze_", "squeeze_(dim=none): squeeze in place: the tensor itself loses its size-1 dims (all, or dim); bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		if err := runtime.UnpackArgs("squeeze_", args, kwargs, "dim?", &d); err != nil {
			return nil, err
		}
		node := "SqueezeBackward2"
		if d.dims != nil {
			node = "SqueezeBackward3"
		}
		return inplaceView(engineOf(th), x, node, func(e *Engine, s *T) (*T, error) { return squeezeOp(e, s, d.dims) })
	})
}

// inplaceView runs an in-place view op: f computes the view (recorded) of
// an alias of x carrying x's history, and x itself then takes the view's
// shape, strides and offset (every holder of x sees them) and, where
// recorded, its node, named node as PyTorch's in-place overloads. As in
// PyTorch, a leaf that requires grad (or a view of one) is rejected while
// grad mode is on, and the version counter is bumped.
func inplaceView(e *Engine, x *TensorValue, node string, f func(e *Engine, s *T) (*T, error)) (runtime.Value, error) {
	if err := e.CheckInplace(x.t); err != nil {
		return nil, err
	}
	alias := x.t.ShallowCopy()
	if gf := x.t.GradFn(); gf != nil {
		alias.SetGradFn(gf, x.t.OutputNr())
	}
	alias.SetRequiresGrad(x.t.RequiresGrad())
	r, err := f(e, alias)
	if err != nil {
		return nil, err
	}
	gf, nr := r.GradFn(), r.OutputNr() // before the version bump, which would rebuild r's
	if err := x.t.SetGeometryFrom(r); err != nil {
		return nil, err
	}
	if gf != nil && gf != x.t.GradFn() {
		x.t.SetGradFn(gf, nr)
		autograd.SetGradFnName(x.t, node)
	}
	return x, nil
}

// addcOp is self + value * t1 * t2 (or / t2), evaluated as PyTorch's
// kernel: (value * t1) op t2, then added to self; value is cast to the
// common dtype of the three tensors.
func addcOp(e *Engine, self, t1, t2, value *T, div bool) (*T, error) {
	if value.Numel() != 1 || !value.IsWrappedNumber() {
		return nil, runtime.Errorf("TypeError", "value must be a number")
	}
	if div && !t1.DType().IsFloat() && !t2.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
	}
	dt := tensor.ResultType(self, t1, t2)
	if dt == tensor.Bool && !div {
		dt = tensor.I64
	}
	v := value
	if dt.IsFloat() {
		v = tensor.ScalarFloat(value.FlatFloat64(0))
	} else {
		v = tensor.ScalarInt(int64(value.FlatFloat64(0)))
	}
	a, err := applyBinary(e, "mul", tensor.Mul, v, t1)
	if err != nil {
		return nil, err
	}
	if div {
		a, err = applyBinary(e, "div", tensor.Div, a, t2)
	} else {
		a, err = applyBinary(e, "mul", tensor.Mul, a, t2)
	}
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "add", tensor.Add, self, a)
}

// indexFillOp sets the slices of x at index along dim to value (a number,
// or a 0-d tensor whose gradient is the sum of the filled positions').
func indexFillOp(e *Engine, x *T, dim int, index, value *T) (*T, error) {
	n, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	if index.DType() != tensor.I64 {
		return nil, runtime.Errorf("IndexError", "index_fill_(): Expected dtype int64 for index.")
	}
	if index.Dim() > 1 {
		return nil, runtime.Errorf("RuntimeError", "Index has to be a vector/scalar")
	}
	if !value.IsWrappedNumber() && value.Dim() != 0 {
		return nil, runtime.Errorf("RuntimeError", "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value.Dim())
	}
	if err := valueFits(value, x.DType()); err != nil {
		return nil, err
	}
	size := 1
	mshape := make([]int, x.Dim())
	for i := range mshape {
		mshape[i] = 1
	}
	if x.Dim() > 0 {
		size = x.Shape()[n]
		mshape[n] = size
	}
	sel := make([]bool, size)
	for _, i := range index.ToInt64s() {
		j := i
		if j < 0 {
			j += int64(size)
		}
		if j < 0 || j >= int64(size) {
			return nil, runtime.Errorf("IndexError", "index %d is out of bounds for dimension %d with size %d", i, n, size)
		}
		sel[j] = true
	}
	mask, err := tensor.FromBools(sel, mshape)
	if err != nil {
		return nil, err
	}
	if value.IsWrappedNumber() || !value.RequiresGrad() {
		v := value
		if !v.IsWrappedNumber() {
			if v.DType().IsFloat() {
				v = tensor.ScalarFloat(v.FlatFloat64(0))
			} else {
				v = tensor.ScalarInt(v.FlatInt64(0))
			}
		}
		return maskedFillOp(e, x, mask, v)
	}
	v, err := toOp(e, value, x.DType())
	if err != nil {
		return nil, err
	}
	return e.Apply("where", []*T{mask, v, x}, nil, func() (*T, error) { return tensor.Where(mask, v, x) })
}

// maskedScatterOp fills the positions where mask (bool, broadcast to x's
// shape) is true, in row-major order, with source's leading elements.
func maskedScatterOp(e *Engine, x, mask, src *T) (*T, error) {
	if src.DType() != x.DType() {
		return nil, runtime.Errorf("RuntimeError", "masked_scatter: expected self and source to have same dtypes but got%s and %s", tensor.CastErrorName(x.DType()), tensor.CastErrorName(src.DType()))
	}
	if mask.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "masked_scatter_ only supports boolean masks, but got mask with dtype %s", mask.DType())
	}
	shape := x.Shape()
	me, err := mask.Expand(shape...)
	if err != nil {
		return nil, err
	}
	sel := me.ToInt64s()
	count := 0
	for _, m := range sel {
		if m != 0 {
			count++
		}
	}
	if count > src.Numel() {
		return nil, runtime.Errorf("RuntimeError", "Number of elements of source < number of ones in mask")
	}
	dt := x.DType()
	forward := func() (*T, error) {
		if !dt.IsFloat() {
			return tensor.FromInt64s(maskedFill(x.ToInt64s(), src.ToInt64s(), sel), shape, dt)
		}
		return tensor.FromFloat64s(maskedFill(x.ToFloat64s(), src.ToFloat64s(), sel), shape, dt)
	}
	srcShape, srcN := src.Shape(), src.Numel()
	backward := func(g *T) ([]*T, error) {
		gv := g.ToFloat64s()
		gx := make([]float64, len(gv))
		gs := make([]float64, srcN)
		k := 0
		for i, m := range sel {
			if m != 0 {
				gs[k] = gv[i]
				k++
			} else {
				gx[i] = gv[i]
			}
		}
		a, err := tensor.FromFloat64s(gx, shape, g.DType())
		if err != nil {
			return nil, err
		}
		b, err := tensor.FromFloat64s(gs, srcShape, g.DType())
		if err != nil {
			return nil, err
		}
		return []*T{a, b}, nil
	}
	// linear in (x, src): the tangent scatters src's tangent into x's
	tangent := func(us []*T) (*T, error) {
		return tensor.FromFloat64s(maskedFill(us[0].ToFloat64s(), us[1].ToFloat64s(), sel), shape, us[0].DType())
	}
	return e.ApplyLinear("MaskedScatterBackward", []*T{x, src}, forward, backward, tangent)
}

// maskedFill sets out[i] to the next element of src, in order, for each i
// where mask[i] != 0 (masked_scatter's copy), and returns out.
func maskedFill[E int64 | float64](out, src []E, mask []int64) []E {
	k := 0
	for i, m := range mask {
		if m != 0 {
			out[i] = src[k]
			k++
		}
	}
	return out
}
