package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// TensorValue is a tensor as tsr programs see it: a *tensor.Tensor plus the
// autograd engine of the interpreter that made it, so that operators (which
// receive no thread) record into the right tape and honour that
// interpreter's no_grad blocks.
//
// It implements runtime.HasAttrs (metadata and methods), HasBinary,
// HasInplace, HasUnary, HasSetIndex, Sequence (iteration over dim 0),
// Formattable and Comparable (equality with non-tensors).
type TensorValue struct {
	t   *tensor.Tensor
	eng *autograd.Engine
	// newborn marks the result of an operator (Binary, Unary, a deferred
	// product) until the VM claims it (runtime.Recyclable).
	newborn bool
	// param marks a layer's parameter (torch.nn.Parameter): it prints as
	// "Parameter containing:" and then the tensor. Values computed from it
	// are plain tensors.
	param bool
	// kept is set once a host value's operator may have kept x
	// (runtime.Recyclable.Keep): Recycle declines.
	kept bool
}

var _ runtime.Recyclable = (*TensorValue)(nil)

// opResult wraps r, the result of an operator on operands a and b (nil
// for a unary operator), as a value the VM may claim: r is a new tensor
// unless the operator returned an operand.
func opResult(eng *autograd.Engine, r, a, b *tensor.Tensor) *TensorValue {
	v := wrap(eng, r)
	v.newborn = r != a && r != b
	return v
}

// Claim reports whether x is an operator's result (fresh < 0) or a
// FreshResults builtin's (storage allocated after the mark fresh) that
// only the VM holds: new, not requiring grad, the only tensor over a
// pooled storage it covers (no views, not saved by autograd; smaller
// buffers are not worth handing back). See runtime.Recyclable.
func (x *TensorValue) Claim(fresh int64) bool {
	t := x.t
	if fresh < 0 {
		if !x.newborn {
			return false
		}
		x.newborn = false
	} else if t.StorageSeq() <= fresh {
		return false // existed before the call (an argument, a receiver)
	}
	return t.Storage().Pooled() && !t.RequiresGrad() && t.OwnsStorage()
}

// Recycle hands x's storage back to the allocator (tensor.Tensor.Release)
// when nothing else can reach it; the VM calls it once the variable
// holding x, claimed, is overwritten (runtime.Recyclable).
func (x *TensorValue) Recycle() {
	if !x.kept && !x.t.RequiresGrad() {
		x.t.Release()
	}
}

// Keep makes Recycle decline: a host value's operator may have kept x
// (runtime.Recyclable).
func (x *TensorValue) Keep() { x.kept = true }

var (
	_ runtime.HasAttrs    = (*TensorValue)(nil)
	_ runtime.HasBinary   = (*TensorValue)(nil)
	_ runtime.HasInplace  = (*TensorValue)(nil)
	_ runtime.HasUnary    = (*TensorValue)(nil)
	_ runtime.HasSetIndex = (*TensorValue)(nil)
	_ runtime.Sequence    = (*TensorValue)(nil)
	_ runtime.Formattable = (*TensorValue)(nil)
)

// NewTensorValue wraps t for thread th (th may be nil: the value then uses a
// process-wide fallback engine). Hosts use it to pass Go tensors to tsr.
func NewTensorValue(th *runtime.Thread, t *tensor.Tensor) *TensorValue {
	return &TensorValue{t: t, eng: engineOf(th)}
}

// TensorOf returns the tensor inside v when v is a tensor value.
func TensorOf(v runtime.Value) (*tensor.Tensor, bool) {
	if x, ok := v.(*TensorValue); ok {
		return x.t, true
	}
	return nil, false
}

// Tensor returns the wrapped tensor.
func (x *TensorValue) Tensor() *tensor.Tensor { return x.t }

// Identity returns the wrapped *tensor.Tensor (runtime.HasIdentity): two
// values wrapping one tensor are the same object for `is`, so that
// `x.grad is x.grad` holds as in PyTorch.
func (x *TensorValue) Identity() any { return x.t }

func wrap(eng *autograd.Engine, t *tensor.Tensor) *TensorValue {
	return &TensorValue{t: t, eng: eng}
}

// String renders the tensor as PyTorch's repr does (see tensor.Tensor.String);
// a layer's parameter starts with "Parameter containing:" and a newline, as
// torch.nn.Parameter's repr.
func (x *TensorValue) String() string {
	s := x.t.String()
	if o, ok := printOptionsOf(x.eng); ok {
		s = x.t.Format(o)
	}
	if x.param {
		return "Parameter containing:\n" + s
	}
	return s
}

// newParamValue wraps t as a layer parameter (see TensorValue.param).
func newParamValue(th *runtime.Thread, t *tensor.Tensor) *TensorValue {
	v := NewTensorValue(th, t)
	v.param = true
	return v
}

// Type returns "tensor".
func (x *TensorValue) Type() string { return "tensor" }

// Truth reports the truth of a one-element tensor. For other sizes Go's
// bool cannot carry PyTorch's RuntimeError; TruthE does, and the VM should
// prefer it. Here a tensor of several elements counts as true, an empty
// one as false.
func (x *TensorValue) Truth() bool {
	b, err := x.TruthE()
	if err != nil {
		return x.t.Numel() > 0
	}
	return b
}

// TruthE is Truth with PyTorch's errors: a tensor with more than one element
// is RuntimeError "Boolean value of Tensor with more than one value is
// ambiguous"; an empty tensor is RuntimeError too.
func (x *TensorValue) TruthE() (bool, error) {
	switch x.t.Numel() {
	case 1:
		return x.t.FlatBool(0), nil
	case 0:
		return false, runtime.Errorf("RuntimeError", "Boolean value of Tensor with no values is ambiguous")
	}
	return false, runtime.Errorf("RuntimeError", "Boolean value of Tensor with more than one value is ambiguous")
}

// Len returns the size of dim 0 (0 for a 0-d tensor; len() reports the
// TypeError for that case).
func (x *TensorValue) Len() int {
	if x.t.Dim() == 0 {
		return 0
	}
	return x.t.Shape()[0]
}

// Iterate yields the sub-tensors along dim 0 (views recorded as select).
// A 0-d tensor yields nothing; IterateE reports PyTorch's TypeError.
func (x *TensorValue) Iterate() runtime.Iterator {
	return &tensorIter{x: x, n: x.Len()}
}

// IterateE is Iterate with the error for a 0-d tensor: TypeError
// "iteration over a 0-d tensor".
func (x *TensorValue) IterateE() (runtime.Iterator, error) {
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("TypeError", "iteration over a 0-d tensor")
	}
	return x.Iterate(), nil
}

type tensorIter struct {
	x    *TensorValue
	i, n int
	err  error
}

func (it *tensorIter) Next() (runtime.Value, bool) {
	if it.i >= it.n {
		return nil, false
	}
	i := it.i
	it.i++
	r, err := selectOp(it.x.eng, it.x.t, 0, i)
	if err != nil {
		it.err = err
		return nil, false
	}
	return wrap(it.x.eng, r), true
}

// Format formats a 0-d tensor with a Python format spec, as
// format(t.item(), spec) would; an empty spec gives the repr. Any other
// tensor (one-element 1-d tensors included) with a non-empty spec is
// TypeError "unsupported format string passed to Tensor.__format__", as
// torch 1.13's Tensor.__format__ falls back to object.__format__.
func (x *TensorValue) Format(spec string) (string, error) {
	if x.t.Dim() != 0 {
		if spec == "" {
			return x.String(), nil
		}
		return "", runtime.Errorf("TypeError", "unsupported format string passed to Tensor.__format__")
	}
	// PyTorch's Tensor.__format__: a 0-d tensor formats its item, with any
	// spec (f"{tensor(2.5)}" is "2.5", f"{loss:.4f}" its value)
	v, err := itemOf(x.t)
	if err != nil {
		return "", err
	}
	return runtime.FormatValue(v, spec)
}

// itemOf is t.item(): the value of a one-element tensor as an int, float
// or bool; any other size is ValueError "only one element tensors can be
// converted to Python scalars" (torch 1.13's kind and message).
func itemOf(t *tensor.Tensor) (runtime.Value, error) {
	if t.Numel() != 1 {
		return nil, runtime.Errorf("ValueError", "only one element tensors can be converted to Python scalars")
	}
	v, err := t.Item()
	if err != nil {
		return nil, err
	}
	return itemValue(v), nil
}

// itemValue converts a Go scalar from Tensor.Item to a tsr value.
func itemValue(v any) runtime.Value {
	switch v := v.(type) {
	case float64:
		return runtime.Float(v)
	case int64:
		return runtime.MakeInt(v)
	case bool:
		return runtime.Bool(v)
	}
	return runtime.None
}

// tolist converts t to nested tsr lists of ints, floats or bools; a 0-d
// tensor gives a scalar.
func tolist(t *tensor.Tensor) runtime.Value {
	shape := t.Shape()
	n := t.Numel()
	var elem func(i int) runtime.Value
	var floats []float64 // a float tensor's values: rows are boxed at once
	switch dt := t.DType(); {
	case dt.IsFloat():
		vals := t.ToFloat64s()
		floats = vals
		elem = func(i int) runtime.Value { return runtime.Float(vals[i]) }
	case dt == tensor.Bool:
		vals := t.ToBools()
		elem = func(i int) runtime.Value { return runtime.Bool(vals[i]) }
	default:
		vals := t.ToInt64s()
		elem = func(i int) runtime.Value { return runtime.MakeInt(vals[i]) }
	}
	if len(shape) == 0 {
		return elem(0)
	}
	_ = n
	var build func(d, base int) runtime.Value
	build = func(d, base int) runtime.Value {
		size := shape[d]
		if floats != nil && d == len(shape)-1 {
			// one allocation for the row's payloads (runtime.BoxFloats)
			return runtime.NewList(runtime.BoxFloats(floats[base : base+size]))
		}
		inner := 1
		for _, s := range shape[d+1:] {
			inner *= s
		}
		out := make([]runtime.Value, size)
		for i := range out {
			if d == len(shape)-1 {
				out[i] = elem(base + i)
			} else {
				out[i] = build(d+1, base+i*inner)
			}
		}
		return runtime.NewList(out)
	}
	return build(0, 0)
}

// intList returns xs as a tsr list of ints (shapes print as [3, 4]).
func intList(xs []int) *runtime.List {
	out := make([]runtime.Value, len(xs))
	for i, x := range xs {
		out[i] = runtime.MakeInt(int64(x))
	}
	return runtime.NewList(out)
}

// shapeList returns a tensor shape as a tsr list of ints marked SizeLike, so
// it also equals a tuple of the same ints (x.shape == (3, 4)), as torch.Size
// does.
func shapeList(xs []int) *runtime.List {
	l := intList(xs)
	l.SizeLike = true
	return l
}

// intTuple returns xs as a tsr tuple of ints (strides print as (4, 1)).
func intTuple(xs []int) runtime.Tuple {
	out := make(runtime.Tuple, len(xs))
	for i, x := range xs {
		out[i] = runtime.MakeInt(int64(x))
	}
	return out
}
