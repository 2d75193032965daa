package stdlib

import (
	"errors"
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// This file is the differentiable op layer of the binding: every tensor
// computation a tsr program triggers goes through one of these helpers,
// which call the pure tensor op inside the engine's Apply so that autograd
// records it (op names and attrs as the autograd derivative table expects).

// T is a shorthand for the tensor type.
type T = tensor.Tensor

// Engine is a shorthand for the autograd engine type.
type Engine = autograd.Engine

// binFn is a pure binary tensor op.
type binFn func(a, b *T) (*T, error)

// binaryDef describes one operator: its autograd op name ("" for ops with
// no derivative, called directly) and the pure tensor function.
type binaryDef struct {
	name string
	fn   binFn
	grad bool
}

var binaryOps = map[runtime.Op]binaryDef{
	runtime.PLUS:       {"add", tensor.Add, true},
	runtime.MINUS:      {"sub", tensor.Sub, true},
	runtime.STAR:       {"mul", tensor.Mul, true},
	runtime.SLASH:      {"div", tensor.Div, true},
	runtime.SLASHSLASH: {"floor_divide", tensor.FloorDivide, true},
	runtime.PERCENT:    {"remainder", tensor.Remainder, true},
	runtime.STARSTAR:   {"pow", tensor.Pow, true},
	runtime.AT:         {"matmul", tensor.Matmul, true},
	runtime.AMP:        {"bitwise_and", tensor.BitwiseAnd, false},
	runtime.PIPE:       {"bitwise_or", tensor.BitwiseOr, false},
	runtime.CIRCUMFLEX: {"bitwise_xor", tensor.BitwiseXor, false},
	runtime.EQL:        {"eq", tensor.Eq, false},
	runtime.NEQ:        {"ne", tensor.Ne, false},
	runtime.LT:         {"lt", tensor.Lt, false},
	runtime.LE:         {"le", tensor.Le, false},
	runtime.GT:         {"gt", tensor.Gt, false},
	runtime.GE:         {"ge", tensor.Ge, false},
}

// binaryOp applies operator op to a and b (tensors or wrapped scalars).
func binaryOp(e *Engine, op runtime.Op, a, b *T) (*T, error) {
	d, ok := binaryOps[op]
	if !ok {
		return nil, nil
	}
	if op == runtime.STARSTAR {
		if err := powExponentFits(a, b); err != nil {
			return nil, err
		}
	}
	a, b = castWrapped(a, b)
	if !d.grad {
		return d.fn(a, b)
	}
	if op == runtime.AT && (a.IsWrappedNumber() || b.IsWrappedNumber()) {
		return nil, runtime.Errorf("TypeError", "unsupported operand type(s) for @: '%s' and '%s'", operandTypeName(a), operandTypeName(b))
	}
	return applyBinary(e, d.name, d.fn, a, b)
}

// operandTypeName is the tsr type name of a binary operator's operand:
// "tensor", or for a wrapped number the number's own type.
func operandTypeName(t *T) string {
	switch {
	case !t.IsWrappedNumber():
		return "tensor"
	case t.DType() == tensor.Bool:
		return "bool"
	case t.DType().IsFloat():
		return "float"
	}
	return "int"
}

func applyBinary(e *Engine, name string, fn binFn, a, b *T) (*T, error) {
	if name == "pow" {
		if err := powExponentFits(a, b); err != nil {
			return nil, err
		}
	}
	a, b = castWrapped(a, b)
	return e.Apply(name, []*T{a, b}, nil, func() (*T, error) { return fn(a, b) })
}

// castWrapped implements PyTorch's rule for a Python number (a wrapped
// 0-d tensor, see tensor.ScalarFloat) meeting a tensor in a binary op: the
// number is first converted to the op's common dtype, like every other
// input of a TensorIterator. For integer common dtypes the tensor package
// already wraps the value (i8 tensor + 300 adds 44); here float common
// dtypes narrower than f64 round the number to that dtype, so that
// tensor([2.25], dtype=bf16) * 3.3 multiplies by bf16(3.3) = 3.296875 and
// gives 7.40625 as torch 1.13 does (not bf16(2.25 * 3.3) = 7.4375), and
// bf16 2.25 == 2.2501 is true. Operands that are both or neither wrapped
// are returned unchanged; so is a number already exact in the dtype.
func castWrapped(a, b *T) (*T, *T) {
	aw, bw := a.IsWrappedNumber(), b.IsWrappedNumber()
	if aw == bw {
		return a, b
	}
	if aw {
		return roundWrapped(a, tensor.ResultType(a, b)), b
	}
	return a, roundWrapped(b, tensor.ResultType(a, b))
}

// roundWrapped returns the wrapped number s rounded to float dtype dt (s
// itself when dt is not a float narrower than f64, or s is exact in dt).
func roundWrapped(s *T, dt tensor.DType) *T {
	if !dt.IsFloat() || dt == tensor.F64 {
		return s
	}
	v := s.FlatFloat64(0)
	var r float64
	if s.DType() == tensor.I64 {
		// an int converts to the float type once (c10::Scalar::to<float>
		// is static_cast<float>(int64)), not through float64: 2**60 + 2**36
		// + 1 rounds up to 2**60 + 2**37 in f32, where float64's 2**60 +
		// 2**36 is a tie that rounds down to 2**60
		r = tensor.RoundToDType(float64(float32(s.FlatInt64(0))), dt)
	} else {
		r = tensor.RoundToDType(v, dt)
	}
	if r == v || r != r {
		return s
	}
	return tensor.ScalarFloat(r)
}

// binaryByName maps the functional/method names of binary ops.
var binaryByName = map[string]binaryDef{
	"add": {"add", tensor.Add, true}, "sub": {"sub", tensor.Sub, true},
	"mul": {"mul", tensor.Mul, true}, "div": {"div", tensor.Div, true},
	"true_divide": {"div", tensor.Div, true}, "floor_divide": {"floor_divide", tensor.FloorDivide, true},
	"remainder": {"remainder", tensor.Remainder, true}, "pow": {"pow", tensor.Pow, true},
	"maximum": {"maximum", tensor.Maximum, true}, "minimum": {"minimum", tensor.Minimum, true},
	"atan2": {"atan2", tensor.Atan2, true},
	"eq":    {"eq", tensor.Eq, false}, "ne": {"ne", tensor.Ne, false}, "lt": {"lt", tensor.Lt, false},
	"le": {"le", tensor.Le, false}, "gt": {"gt", tensor.Gt, false}, "ge": {"ge", tensor.Ge, false},
	"bitwise_and": {"bitwise_and", tensor.BitwiseAnd, false}, "bitwise_or": {"bitwise_or", tensor.BitwiseOr, false},
	"bitwise_xor": {"bitwise_xor", tensor.BitwiseXor, false},
	"logical_and": {"logical_and", tensor.LogicalAnd, false}, "logical_or": {"logical_or", tensor.LogicalOr, false},
	"logical_xor": {"logical_xor", tensor.LogicalXor, false},
}

// unaryFns are the elementwise unary ops with a derivative formula.
var unaryFns = map[string]func(*T) (*T, error){
	"neg": tensor.Neg, "abs": tensor.Abs, "sign": tensor.Sign, "square": tensor.Square,
	"relu": tensor.Relu, "floor": tensor.Floor, "ceil": tensor.Ceil, "round": tensor.Round,
	"trunc": tensor.Trunc, "exp": tensor.Exp, "log": tensor.Log, "log1p": tensor.Log1p,
	"expm1": tensor.Expm1, "sqrt": tensor.Sqrt, "rsqrt": tensor.Rsqrt, "sin": tensor.Sin,
	"cos": tensor.Cos, "tan": tensor.Tan, "tanh": tensor.Tanh, "sigmoid": tensor.Sigmoid,
	"reciprocal": tensor.Reciprocal, "erf": tensor.Erf,
}

// predicateFns are elementwise ops without a derivative (bool or integer
// results).
var predicateFns = map[string]func(*T) (*T, error){
	"isnan": tensor.IsNan, "isinf": tensor.IsInf, "isfinite": tensor.IsFinite,
	"logical_not": tensor.LogicalNot, "bitwise_not": tensor.BitwiseNot,
}

func unaryOp(e *Engine, name string, x *T) (*T, error) {
	if f, ok := predicateFns[name]; ok {
		return f(x)
	}
	f := unaryFns[name]
	return e.Apply(name, []*T{x}, nil, func() (*T, error) { return f(x) })
}

func geluOp(e *Engine, x *T, approximate string) (*T, error) {
	return e.Apply("gelu", []*T{x}, autograd.Attrs{"approximate": approximate}, func() (*T, error) { return tensor.Gelu(x, approximate) })
}

func toOp(e *Engine, x *T, dt tensor.DType) (*T, error) {
	if x.DType() == dt {
		return x, nil
	}
	return e.Apply("to", []*T{x}, nil, func() (*T, error) { return x.To(dt) })
}

// ---- views ----

func viewOp(e *Engine, x *T, shape []int) (*T, error) {
	return e.Apply("view", []*T{x}, nil, func() (*T, error) { return x.View(shape...) })
}

func reshapeOp(e *Engine, x *T, shape []int) (*T, error) {
	return e.Apply("reshape", []*T{x}, nil, func() (*T, error) { return x.Reshape(shape...) })
}

func transposeOp(e *Engine, x *T, d0, d1 int) (*T, error) {
	n0, err := normDim(d0, x.Dim())
	if err != nil {
		return nil, err
	}
	n1, err := normDim(d1, x.Dim())
	if err != nil {
		return nil, err
	}
	return e.Apply("transpose", []*T{x}, autograd.Attrs{"dim0": n0, "dim1": n1}, func() (*T, error) { return x.Transpose(n0, n1) })
}

func permuteOp(e *Engine, x *T, dims []int) (*T, error) {
	if len(dims) != x.Dim() {
		return nil, runtime.Errorf("RuntimeError", "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", x.Dim(), len(dims))
	}
	nd, err := normDims(dims, x.Dim())
	if err != nil {
		if ke, ok := err.(*runtime.KindError); ok && ke.Kind == "RuntimeError" {
			return nil, runtime.Errorf("RuntimeError", "permute(): duplicate dims are not allowed.")
		}
		return nil, err
	}
	return e.Apply("permute", []*T{x}, autograd.Attrs{"dims": nd}, func() (*T, error) { return x.Permute(nd...) })
}

func expandOp(e *Engine, x *T, shape []int) (*T, error) {
	return e.Apply("expand", []*T{x}, nil, func() (*T, error) { return x.Expand(shape...) })
}

func unsqueezeOp(e *Engine, x *T, d int) (*T, error) {
	n, err := normDim(d, x.Dim()+1)
	if err != nil {
		return nil, err
	}
	return e.Apply("unsqueeze", []*T{x}, autograd.Attrs{"dim": n}, func() (*T, error) { return x.Unsqueeze(n) })
}

func squeezeOp(e *Engine, x *T, dims []int) (*T, error) {
	nd, err := normDims(dims, x.Dim())
	if err != nil {
		return nil, err
	}
	var attrs autograd.Attrs
	if dims != nil {
		attrs = autograd.Attrs{"dim": nd} // names the node SqueezeBackward1, as PyTorch's squeeze(dim)
	}
	return e.Apply("squeeze", []*T{x}, attrs, func() (*T, error) { return x.Squeeze(nd...) })
}

func flattenOp(e *Engine, x *T, start, end int) (*T, error) {
	s, err := normDim(start, x.Dim())
	if err != nil {
		return nil, err
	}
	en, err := normDim(end, x.Dim())
	if err != nil {
		return nil, err
	}
	if s > en {
		return nil, runtime.Errorf("RuntimeError", "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	return e.Apply("flatten", []*T{x}, nil, func() (*T, error) { return x.Flatten(s, en) })
}

func unflattenOp(e *Engine, x *T, d int, sizes []int) (*T, error) {
	n, err := normDim(d, x.Dim())
	if err != nil {
		return nil, err
	}
	return e.Apply("unflatten", []*T{x}, nil, func() (*T, error) { return x.Unflatten(n, sizes) })
}

func narrowOp(e *Engine, x *T, d, start, length int) (*T, error) {
	n, err := normDim(d, x.Dim())
	if err != nil {
		return nil, err
	}
	if x.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "narrow() cannot be applied to a 0-dim tensor.")
	}
	size := x.Shape()[n]
	if start < -size || start > size {
		return nil, runtime.Errorf("IndexError", "start out of range (expected to be in range of [%d, %d], but got %d)", -size, size, start)
	}
	if start < 0 {
		start += size
	}
	if length < 0 || length > size-start {
		return nil, runtime.Errorf("RuntimeError", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size)
	}
	return e.Apply("narrow", []*T{x}, autograd.Attrs{"dim": n, "start": start, "length": length}, func() (*T, error) { return x.Narrow(n, start, length) })
}

func selectOp(e *Engine, x *T, d, i int) (*T, error) {
	if x.Dim() == 0 {
		return nil, runtime.Errorf("IndexError", "select() cannot be applied to a 0-dim tensor.")
	}
	n, err := normDim(d, x.Dim())
	if err != nil {
		return nil, err
	}
	size := x.Shape()[n]
	if i < -size || i >= size {
		return nil, runtime.Errorf("IndexError", "select(): index %d out of range for tensor of size %s at dimension %d", i, fmtInts(x.Shape()), n)
	}
	if i < 0 {
		i += size
	}
	return e.Apply("select", []*T{x}, autograd.Attrs{"dim": n, "index": i}, func() (*T, error) { return x.Select(n, i) })
}

func diagonalOp(e *Engine, x *T, offset, d1, d2 int) (*T, error) {
	n1, err := normDim(d1, x.Dim())
	if err != nil {
		return nil, err
	}
	n2, err := normDim(d2, x.Dim())
	if err != nil {
		return nil, err
	}
	if n1 == n2 {
		return nil, runtime.Errorf("RuntimeError", "diagonal dimensions cannot be identical %d, %d", d1, d2)
	}
	return e.Apply("diagonal", []*T{x}, nil, func() (*T, error) { return x.Diagonal(offset, n1, n2) })
}

func unfoldOp(e *Engine, x *T, d, size, step int) (*T, error) {
	n, err := normDim(d, x.Dim())
	if err != nil {
		return nil, err
	}
	return e.Apply("unfold", []*T{x}, nil, func() (*T, error) { return x.Unfold(n, size, step) })
}

func movedimOp(e *Engine, x *T, src, dst []int) (*T, error) {
	if len(src) != len(dst) {
		return nil, runtime.Errorf("RuntimeError", "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of dims as destination (%s dims)", intList(src), intList(dst))
	}
	s, err := normDims(src, x.Dim())
	if err != nil {
		return nil, err
	}
	d, err := normDims(dst, x.Dim())
	if err != nil {
		return nil, err
	}
	return e.Apply("movedim", []*T{x}, nil, func() (*T, error) { return x.Movedim(s, d) })
}

func asStridedOp(e *Engine, x *T, size, stride []int, offset int) (*T, error) {
	if len(size) != len(stride) {
		return nil, runtime.Errorf("RuntimeError", "mismatch in length of strides and shape")
	}
	return e.Apply("as_strided", []*T{x}, nil, func() (*T, error) { return x.AsStrided(size, stride, offset) })
}

func contiguousOp(e *Engine, x *T) (*T, error) {
	if x.IsContiguous() {
		return x, nil
	}
	return e.Apply("contiguous", []*T{x}, nil, func() (*T, error) { return x.Contiguous(), nil })
}

func cloneOp(e *Engine, x *T) (*T, error) {
	return e.Apply("clone", []*T{x}, nil, func() (*T, error) { return x.Clone(), nil })
}

// The user-facing copies (x.clone(), x.to(dtype), x.double(), ...,
// *_like) use PyTorch's default memory_format=preserve_format: a
// non-overlapping dense input's strides carry over (x.t().clone() stays
// transposed); internal callers use cloneOp/toOp, which copy row-major.

func clonePreserveOp(e *Engine, x *T) (*T, error) {
	return e.Apply("clone", []*T{x}, nil, func() (*T, error) { return x.ClonePreserve(), nil })
}

func toPreserveOp(e *Engine, x *T, dt tensor.DType) (*T, error) {
	if x.DType() == dt {
		return x, nil
	}
	return e.Apply("to", []*T{x}, nil, func() (*T, error) { return x.ToPreserve(dt) })
}

// preserveLayout returns t, a new contiguous tensor of like's shape, laid
// out as PyTorch's preserve_format lays out a tensor like like (the *_like
// factories): like's strides when it is dense, else dense strides in the
// order of like's.
func preserveLayout(like, t *T) (*T, error) {
	if like.IsContiguous() {
		return t, nil
	}
	out := tensor.EmptyPreserve(like, t.DType())
	if out.IsContiguous() {
		return t, nil
	}
	return out, out.CopyInplace(t)
}

// tOp is x.t(): a transpose for 2-D, the identity view for fewer dims.
func tOp(e *Engine, x *T) (*T, error) {
	if x.Dim() > 2 {
		return nil, runtime.Errorf("RuntimeError", "t() expects a tensor with <= 2 dimensions, but self is %dD", x.Dim())
	}
	var out *T
	var err error
	if x.Dim() < 2 {
		out, err = viewOp(e, x, x.Shape())
	} else {
		out, err = transposeOp(e, x, 0, 1)
	}
	if err == nil {
		autograd.SetGradFnName(out, "TBackward0") // PyTorch records t() as its own node
	}
	return out, err
}

// bigTOp is x.T: all dims reversed.
func bigTOp(e *Engine, x *T) (*T, error) {
	n := x.Dim()
	dims := make([]int, n)
	for i := range dims {
		dims[i] = n - 1 - i
	}
	return permuteOp(e, x, dims)
}

// ---- reductions ----

// allDims returns nil when dims should mean "every dim" (absent), else the
// normalised dims.
func reduceDims(x *T, d dimsOpt) ([]int, error) {
	if !d.ok {
		return nil, nil
	}
	return normDims(d.dims, x.Dim())
}

func reduceAttrs(dims []int, keepdim bool) autograd.Attrs {
	a := autograd.Attrs{"keepdim": keepdim}
	if dims != nil {
		a["dim"] = dims
	}
	return a
}

func sumOp(e *Engine, x *T, dims []int, keepdim bool) (*T, error) {
	return e.Apply("sum", []*T{x}, reduceAttrs(dims, keepdim), func() (*T, error) { return tensor.Sum(x, dims, keepdim) })
}

func meanOp(e *Engine, x *T, dims []int, keepdim bool) (*T, error) {
	if !x.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", x.DType().TorchName())
	}
	return e.Apply("mean", []*T{x}, reduceAttrs(dims, keepdim), func() (*T, error) { return tensor.Mean(x, dims, keepdim) })
}

func amaxOp(e *Engine, name string, x *T, dims []int, keepdim bool) (*T, error) {
	f := tensor.Amax
	if name == "amin" {
		f = tensor.Amin
	}
	attrs := autograd.Attrs{"keepdim": keepdim, "dim": dims}
	if dims == nil {
		all := make([]int, x.Dim())
		for i := range all {
			all[i] = i
		}
		attrs["dim"] = all
	}
	return e.Apply(name, []*T{x}, attrs, func() (*T, error) { return f(x, dims, keepdim) })
}

func logsumexpOp(e *Engine, x *T, dims []int, keepdim bool) (*T, error) {
	return e.Apply("logsumexp", []*T{x}, autograd.Attrs{"dim": dims, "keepdim": keepdim}, func() (*T, error) { return tensor.LogSumExp(x, dims, keepdim) })
}

func softmaxOp(e *Engine, name string, x *T, dim int) (*T, error) {
	d, err := normDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	f := tensor.Softmax
	if name == "log_softmax" {
		f = tensor.LogSoftmax
	}
	return e.Apply(name, []*T{x}, autograd.Attrs{"dim": d}, func() (*T, error) { return f(x, d) })
}

func whereOp(e *Engine, cond, a, b *T) (*T, error) {
	if cond.DType() != tensor.Bool {
		return nil, runtime.Errorf("RuntimeError", "where expected condition to be a boolean tensor, but got a tensor with dtype %s", cond.DType().TorchName())
	}
	// a Python number converts to the result dtype with PyTorch's overflow
	// check: where(m, i8_tensor, 1000) and where(m, f16_tensor, 70000.) are
	// RuntimeErrors
	rt := tensor.ResultType(a, b)
	for _, s := range []*T{a, b} {
		if err := wrappedFits(s, rt); err != nil {
			return nil, err
		}
	}
	return e.Apply("where", []*T{cond, a, b}, nil, func() (*T, error) { return tensor.Where(cond, a, b) })
}

// checkMaskedFill is ATen's masked_fill__cpu argument checks, in its
// order: a 0-d value, a bool mask, a value that fits x's dtype.
func checkMaskedFill(x, mask, value *T) error {
	if value.Dim() != 0 {
		return runtime.Errorf("RuntimeError", "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value.Dim())
	}
	if mask.DType() != tensor.Bool {
		return runtime.Errorf("RuntimeError", "masked_fill_ only supports boolean masks, but got mask with dtype %s", mask.DType())
	}
	return valueFits(value, x.DType())
}

func maskedFillOp(e *Engine, x, mask *T, value *T) (*T, error) {
	if err := checkMaskedFill(x, mask, value); err != nil {
		return nil, err
	}
	fwd := func() (*T, error) { return tensor.MaskedFill(x, mask, value) }
	if !value.IsWrappedNumber() { // PyTorch's masked_fill.Tensor overload
		return e.Apply("masked_fill_tensor", []*T{x, mask, value}, nil, fwd)
	}
	return e.Apply("masked_fill", []*T{x, mask}, autograd.Attrs{"value": value.FlatFloat64(0)}, fwd)
}

// clampOp clamps x to [lo, hi]; a nil bound is absent. Number bounds are
// recorded as clamp attrs; tensor bounds are composed from maximum and
// minimum so that their gradients flow too.
func clampOp(e *Engine, x, lo, hi *T) (*T, error) {
	if lo == nil && hi == nil {
		return nil, runtime.Errorf("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None")
	}
	scalar := func(b *T) bool { return b == nil || b.IsWrappedNumber() }
	if err := clampBoundsFit(x, lo, hi); err != nil {
		return nil, err
	}
	if scalar(lo) && scalar(hi) {
		attrs := autograd.Attrs{}
		if lo != nil {
			attrs["min"] = lo.FlatFloat64(0)
		}
		if hi != nil {
			attrs["max"] = hi.FlatFloat64(0)
		}
		return e.Apply("clamp", []*T{x}, attrs, func() (*T, error) { return tensor.Clamp(x, lo, hi) })
	}
	return clampTensorOp(e, x, lo, hi)
}

// clampTensorOp is PyTorch's clamp.Tensor: min(max(x, lo), hi) (either
// bound may be nil, or a number), with clamp_backward's gradients: x gets
// g where lo <= x <= hi, lo where x < lo (and lo < hi), hi where x > hi (or
// hi < lo), nothing elsewhere, so that a tie gives its whole gradient to x
// (maximum and minimum would split it). It is recorded as recorded wheres
// (twice differentiable) whose last node prints as ClampBackward0.
func clampTensorOp(e *Engine, x, lo, hi *T) (*T, error) {
	if lo != nil {
		x, lo = castWrapped(x, lo)
	}
	if hi != nil {
		x, hi = castWrapped(x, hi)
	}
	val := x
	var err error
	if lo != nil {
		if val, err = tensor.Maximum(val, lo); err != nil {
			return nil, err
		}
	}
	if hi != nil {
		if val, err = tensor.Minimum(val, hi); err != nil {
			return nil, err
		}
	}
	recorded := e.GradEnabled() && val.DType().IsFloat() &&
		(x.RequiresGrad() || lo != nil && lo.RequiresGrad() || hi != nil && hi.RequiresGrad())
	if !recorded {
		return val, nil
	}
	both := func(f func(a, b *T) (*T, error), a, b *T, err1, err2 error) (*T, error) {
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		return f(a, b)
	}
	var inX, toLo, toHi *T
	switch {
	case lo != nil && hi != nil:
		ge, err1 := tensor.Ge(x, lo)
		le, err2 := tensor.Le(x, hi)
		if inX, err = both(tensor.LogicalAnd, ge, le, err1, err2); err != nil {
			return nil, err
		}
		lt, err1 := tensor.Lt(x, lo)
		loLtHi, err2 := tensor.Lt(lo, hi)
		if toLo, err = both(tensor.LogicalAnd, lt, loLtHi, err1, err2); err != nil {
			return nil, err
		}
		gt, err1 := tensor.Gt(x, hi)
		hiLtLo, err2 := tensor.Lt(hi, lo)
		if toHi, err = both(tensor.LogicalOr, gt, hiLtLo, err1, err2); err != nil {
			return nil, err
		}
	case lo != nil:
		if inX, err = tensor.Ge(x, lo); err != nil {
			return nil, err
		}
		if toLo, err = tensor.Lt(x, lo); err != nil {
			return nil, err
		}
	default:
		if inX, err = tensor.Le(x, hi); err != nil {
			return nil, err
		}
		if toHi, err = tensor.Gt(x, hi); err != nil {
			return nil, err
		}
	}
	// val (not recorded) where no input gets the gradient (NaN, lo == hi)
	r := val
	if hi != nil {
		if r, err = whereOp(e, toHi, hi, r); err != nil {
			return nil, err
		}
	}
	if lo != nil {
		if r, err = whereOp(e, toLo, lo, r); err != nil {
			return nil, err
		}
	}
	if r, err = whereOp(e, inX, x, r); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "ClampBackward0")
	return r, nil
}

// scalarOf wraps a float as a Python-number operand.
func scalarOf(v float64) *T { return tensor.ScalarFloat(v) }

func mulScalar(e *Engine, x *T, v float64) (*T, error) {
	return applyBinary(e, "mul", tensor.Mul, x, scalarOf(v))
}

// scaleAlpha returns alpha * other for self.add(other, alpha=) and sub,
// following ATen's add: alpha (a runtime.Int, Float or Bool; nil when
// absent) is checked against the op's result dtype rt (alloc_sub_check:
// a bool alpha needs a bool result, a float alpha a float one) and
// converted to rt with c10's overflow check; other is converted to rt and
// multiplied there, so an integer result wraps (i64 2**62 * 4 is 0) and a
// float one does not (f32 + 2**62 * 4 adds 1.8e19).
func scaleAlpha(e *Engine, self, other *T, alpha runtime.Value) (*T, error) {
	if alpha == nil {
		return other, nil
	}
	rt := tensor.ResultType(self, other)
	switch a := alpha.(type) {
	case runtime.Bool:
		if rt != tensor.Bool {
			return nil, runtime.Errorf("RuntimeError", "Boolean alpha only supported for Boolean results.")
		}
		if a {
			return other, nil
		}
		return tensor.ZerosLike(other), nil
	case runtime.Float:
		if !rt.IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "For integral input tensors, argument alpha must not be a floating point number.")
		}
	case runtime.Int:
	default:
		return nil, runtime.Errorf("TypeError", "add(): argument 'alpha' must be Number, not %s", alpha.Type())
	}
	if err := numberFits(alpha, rt); err != nil {
		return nil, err
	}
	if rt == tensor.Bool { // an int alpha: b + b * alpha is b or (b and alpha != 0)
		if alpha.(runtime.Int) != 0 {
			return other, nil
		}
		return tensor.ZerosLike(other), nil
	}
	if f, ok := alpha.(runtime.Float); ok && f == 1 || alpha == runtime.Int(1) {
		return other, nil
	}
	o := other
	if o.DType() != rt {
		var err error
		if o, err = toOp(e, o, rt); err != nil {
			return nil, err
		}
	}
	s, _ := operand(alpha)
	return applyBinary(e, "mul", tensor.Mul, o, s)
}

// numberFits is c10::checked_convert of the Python number v (a
// runtime.Int, Float or Bool) to dtype dt, as Scalar.to<T>() does for
// alpha=, where's and fill's values and a half/bf16 pow exponent: nil when
// it fits (infinities and NaN fit every float dtype; any number fits bool
// and f64), else PyTorch's RuntimeError naming the C type.
func numberFits(v runtime.Value, dt tensor.DType) error {
	var f float64
	isFloat := false
	switch x := v.(type) {
	case runtime.Int:
		if !dt.IsFloat() {
			if intOverflows(dt, int64(x), 0, false) {
				return errIntOverflow(dt, true)
			}
			return nil
		}
		f = float64(x)
	case runtime.Float:
		f, isFloat = float64(x), true
	default:
		return nil
	}
	switch dt {
	case tensor.F64, tensor.Bool:
		return nil
	case tensor.F16, tensor.BF16, tensor.F32:
		fi, _ := tensor.Finfo(dt)
		if !math.IsInf(f, 0) && math.Abs(f) > fi.Max {
			return runtime.Errorf("RuntimeError", "value cannot be converted to type %s without overflow",
				map[tensor.DType]string{tensor.F16: "at::Half", tensor.BF16: "at::BFloat16", tensor.F32: "float"}[dt])
		}
		return nil
	}
	if isFloat && (math.IsNaN(f) || intOverflows(dt, 0, f, true)) {
		return errIntOverflow(dt, true)
	}
	return nil
}

// wrappedFits is numberFits for a wrapped number (tensor.ScalarInt and
// friends); other tensors always fit.
func wrappedFits(s *T, dt tensor.DType) error {
	if !s.IsWrappedNumber() {
		return nil
	}
	switch s.DType() {
	case tensor.I64:
		return numberFits(runtime.Int(s.FlatInt64(0)), dt)
	case tensor.F64:
		return numberFits(runtime.Float(s.FlatFloat64(0)), dt)
	}
	return nil
}

// valueFits is numberFits for a fill value given as a wrapped number or a
// one-element tensor (masked_fill, fill_, index_fill convert its item()).
func valueFits(v *T, dt tensor.DType) error {
	if v.IsWrappedNumber() {
		return wrappedFits(v, dt)
	}
	switch {
	case v.Numel() != 1:
		return nil
	case v.DType().IsFloat():
		return numberFits(runtime.Float(v.FlatFloat64(0)), dt)
	case v.DType() != tensor.Bool:
		return numberFits(runtime.Int(v.FlatInt64(0)), dt)
	}
	return nil
}

// powExponentFits is ATen's pow(Tensor, Scalar) check: a Python-number
// exponent is converted to the result dtype with c10's overflow check when
// that is f16, bf16 or an integer dtype (f32 and f64 take it as a double):
// f16.pow(70000.) and i8.pow(300) are RuntimeErrors, f32.pow(1e39) is not.
func powExponentFits(base, exp *T) error {
	if base.IsWrappedNumber() || !exp.IsWrappedNumber() {
		return nil
	}
	rt := tensor.ResultType(base, exp)
	if rt == tensor.F32 || rt == tensor.F64 || rt == tensor.Bool {
		return nil
	}
	return wrappedFits(exp, rt)
}

// clampBoundsFit checks clamp's number bounds (nil when absent): each
// converts to the result dtype with c10's overflow check, so
// bf16.clamp(max=1e39) and i8.clamp(min=300) are RuntimeErrors.
func clampBoundsFit(x, lo, hi *T) error {
	for _, b := range []*T{lo, hi} {
		if b != nil && b.IsWrappedNumber() {
			if err := wrappedFits(b, tensor.ResultType(x, b)); err != nil {
				return err
			}
		}
	}
	return nil
}
