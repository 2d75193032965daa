package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// dataKind orders the element kinds of literal data: bool < int < float.
type dataKind int

const (
	kindNone dataKind = iota
	kindBool
	kindInt
	kindFloat
)

// tensorFromData builds a tensor from nested lists/tuples of numbers and
// bools (or a tensor, copied). Without dt the dtype is inferred as PyTorch
// does: bool for bools, i64 for ints, f32 when any float is present.
// Ragged data is a ValueError; other element types are a TypeError.
func tensorFromData(v runtime.Value, dt *tensor.DType) (*T, error) {
	if x, ok := v.(*TensorValue); ok {
		c := x.t.Clone()
		if dt != nil {
			return c.To(*dt)
		}
		return c, nil
	}
	var shape []int
	var floats []float64
	var ints []int64
	var bools []bool
	var isF []bool // element i came from a float (checked as a double)
	kind := kindNone
	// first pass: shape and kind
	var walk func(v runtime.Value, d int) error
	walk = func(v runtime.Value, d int) error {
		var elems []runtime.Value
		switch s := v.(type) {
		case *runtime.List:
			elems = s.Elems
		case runtime.Tuple:
			elems = s
		default:
			if d < len(shape) {
				return runtime.Errorf("ValueError", "expected sequence of length %d at dim %d (got %s)", shape[d], d, v.Type())
			}
			if d > len(shape) {
				return runtime.Errorf("ValueError", "expected a number at dim %d (got a sequence)", len(shape))
			}
			switch e := v.(type) {
			case runtime.Bool:
				kind = max(kind, kindBool)
				isF = append(isF, false)
				bools = append(bools, bool(e))
				ints = append(ints, boolInt(bool(e)))
				floats = append(floats, float64(boolInt(bool(e))))
			case runtime.Int:
				kind = max(kind, kindInt)
				isF = append(isF, false)
				bools = append(bools, e != 0)
				ints = append(ints, int64(e))
				floats = append(floats, float64(e))
			case runtime.Float:
				kind = max(kind, kindFloat)
				isF = append(isF, true)
				bools = append(bools, e != 0)
				ints = append(ints, int64(e))
				floats = append(floats, float64(e))
			case *TensorValue:
				if e.t.Numel() != 1 {
					return runtime.Errorf("ValueError", "only one element tensors can be converted to Python scalars")
				}
				switch edt := e.t.DType(); {
				case edt.IsFloat():
					kind = max(kind, kindFloat)
				case edt == tensor.Bool:
					kind = max(kind, kindBool)
				default:
					kind = max(kind, kindInt)
				}
				f := e.t.FlatFloat64(0)
				isF = append(isF, e.t.DType().IsFloat())
				bools = append(bools, f != 0)
				ints = append(ints, e.t.FlatInt64(0))
				floats = append(floats, f)
			default:
				return runtime.Errorf("TypeError", "new(): invalid data type '%s'", v.Type())
			}
			return nil
		}
		if d == len(shape) {
			if len(floats) > 0 {
				return runtime.Errorf("ValueError", "expected a number at dim %d (got a sequence)", d)
			}
			shape = append(shape, len(elems))
		} else if d > len(shape) || shape[d] != len(elems) {
			want := 0
			if d < len(shape) {
				want = shape[d]
			}
			return runtime.Errorf("ValueError", "expected sequence of length %d at dim %d (got %d)", want, d, len(elems))
		}
		for _, e := range elems {
			if err := walk(e, d+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(v, 0); err != nil {
		return nil, err
	}
	// PyTorch checks each element against an integer dtype's range
	if dt != nil && !dt.IsFloat() && *dt != tensor.Bool {
		for i := range ints {
			if intOverflows(*dt, ints[i], floats[i], isF[i]) {
				return nil, errIntOverflow(*dt, false)
			}
		}
	}
	// a list that is empty at some level fixes the shape there
	var out *T
	var err error
	switch kind {
	case kindBool:
		out, err = tensor.FromBools(bools, shape)
		if err == nil && dt != nil {
			out, err = out.To(*dt)
		}
	case kindInt:
		target := tensor.I64
		if dt != nil {
			target = *dt
		}
		if target.IsFloat() {
			out, err = tensor.FromFloat64s(floats, shape, target)
		} else {
			out, err = tensor.FromInt64s(ints, shape, target)
		}
	default:
		target := tensor.DefaultFloat
		if dt != nil {
			target = *dt
		}
		if target.IsFloat() {
			out, err = tensor.FromFloat64s(floats, shape, target)
		} else if target == tensor.Bool {
			out, err = tensor.FromBools(bools, shape)
		} else {
			out, err = tensor.FromInt64s(ints, shape, target)
		}
	}
	return out, err
}

// intOverflows is c10's overflows<To, From>: whether the number (the
// int64 i, or the double f when isFloat) is out of the range of integer
// dtype dt. A negative int wraps into u8 when its magnitude fits; NaN is
// not checked.
func intOverflows(dt tensor.DType, i int64, f float64, isFloat bool) bool {
	var lo, hi int64
	switch dt {
	case tensor.I8:
		lo, hi = math.MinInt8, math.MaxInt8
	case tensor.I16:
		lo, hi = math.MinInt16, math.MaxInt16
	case tensor.I32:
		lo, hi = math.MinInt32, math.MaxInt32
	case tensor.U8:
		lo, hi = 0, math.MaxUint8
	case tensor.I64:
		if isFloat {
			return f < -0x1p63 || f >= 0x1p63
		}
		return false
	default:
		return false
	}
	if isFloat {
		return f < float64(lo) || f > float64(hi)
	}
	if dt == tensor.U8 {
		return i > hi || (i < 0 && (i < -hi))
	}
	return i < lo || i > hi
}

// errIntOverflow is PyTorch's RuntimeError for a number out of an integer
// dtype's range: tensor() names the dtype ("int8"), a Scalar conversion
// (where, full) the C type ("int8_t").
func errIntOverflow(dt tensor.DType, cType bool) error {
	names := map[tensor.DType][2]string{
		tensor.I8: {"int8", "int8_t"}, tensor.I16: {"int16", "int16_t"}, tensor.I32: {"int32", "int"},
		tensor.I64: {"int64", "int64_t"}, tensor.U8: {"uint8", "uint8_t"},
	}
	n := names[dt][0]
	if cType {
		n = names[dt][1]
	}
	return runtime.Errorf("RuntimeError", "value cannot be converted to type %s without overflow", n)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// creationOpts are the keyword arguments every factory accepts.
type creationOpts struct {
	dtype        dtypeOpt
	device       runtime.Value
	requiresGrad bool
	pin          bool
}

// kwargs returns the UnpackArgs pairs of the options.
func (o *creationOpts) pairs() []any {
	return []any{"dtype?", &o.dtype, "device?", &o.device, "requires_grad?", &o.requiresGrad, "pin_memory?", &o.pin}
}

// finish checks the device and applies requires_grad.
func (o *creationOpts) finish(th *runtime.Thread, t *T) (runtime.Value, error) {
	d, err := deviceArg(o.device)
	if err != nil {
		return nil, err
	}
	if err := checkCPU(d); err != nil {
		return nil, err
	}
	if o.pin {
		return nil, pinError()
	}
	if o.requiresGrad {
		if !t.DType().IsFloat() {
			// PyTorch's factories word it differently from requires_grad_().
			return nil, runtime.Errorf("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients")
		}
		if err := autograd.RequiresGrad_(t, true); err != nil {
			return nil, err
		}
	}
	return NewTensorValue(th, t), nil
}

func (o *creationOpts) dt(def tensor.DType) tensor.DType {
	if o.dtype.ok {
		return o.dtype.dt
	}
	return def
}

func pinError() error {
	return runtime.Errorf("RuntimeError", "pin_memory: pinned (page-locked) host memory needs the CUDA driver library (libcuda.so), which is not available on this machine")
}

func builtinTensor(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var data runtime.Value
	var o creationOpts
	if err := runtime.UnpackArgs("tensor", args, kwargs, append([]any{"data", &data}, o.pairs()...)...); err != nil {
		return nil, err
	}
	var dt *tensor.DType
	if o.dtype.ok {
		dt = &o.dtype.dt
	}
	t, err := tensorFromData(data, dt)
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

// sizeAndOpts parses the arguments of a creation function: the size as
// varargs or one list (or size=), then dtype=, device=, requires_grad=.
func sizeAndOpts(name string, args []runtime.Value, kwargs []runtime.Kwarg) ([]int, creationOpts, error) {
	var o creationOpts
	var size shapeArg
	pairs := o.pairs()
	if len(args) == 0 {
		pairs = append([]any{"size", &size}, pairs...)
	}
	if err := runtime.UnpackArgs(name, nil, kwargs, pairs...); err != nil {
		return nil, o, err
	}
	shape := size.shape
	if len(args) > 0 {
		var err error
		if shape, err = shapeVarargs(name, args); err != nil {
			return nil, o, err
		}
	}
	return shape, o, checkSizes(shape)
}

// factory makes zeros/ones/empty/rand/randn: f(*size, dtype=, device=,
// requires_grad=).
func factory(name string, make func(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error)) func(*runtime.Thread, *runtime.Builtin, []runtime.Value, []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		shape, o, err := sizeAndOpts(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		t, err := make(th, shape, o.dt(tensor.DefaultFloat))
		if err != nil {
			return nil, err
		}
		return o.finish(th, t)
	}
}

// likeFactory makes zeros_like and friends: f(input, dtype=, ...).
func likeFactory(name string, make func(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error)) func(*runtime.Thread, *runtime.Builtin, []runtime.Value, []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o creationOpts
		var x tensorArg
		if err := runtime.UnpackArgs(name, args, kwargs, append([]any{"input", &x}, o.pairs()...)...); err != nil {
			return nil, err
		}
		t, err := make(th, x.t.Shape(), o.dt(x.t.DType()))
		if err == nil {
			t, err = preserveLayout(x.t, t)
		}
		if err != nil {
			return nil, err
		}
		return o.finish(th, t)
	}
}

func makeZeros(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error) {
	return tensor.Zeros(shape, dt)
}
func makeOnes(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error) {
	return tensor.Ones(shape, dt)
}
func makeEmpty(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error) {
	return tensor.Empty(shape, dt)
}
func makeRand(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error) {
	return tensor.Rand(stateOf(th).gen, shape, dt)
}
func makeRandn(th *runtime.Thread, shape []int, dt tensor.DType) (*T, error) {
	return tensor.Randn(stateOf(th).gen, shape, dt)
}

// fillDType infers full()'s dtype from the fill value.
func fillDType(v runtime.Value) tensor.DType {
	switch v.(type) {
	case runtime.Bool:
		return tensor.Bool
	case runtime.Int:
		return tensor.I64
	}
	return tensor.DefaultFloat
}

func fillTensor(shape []int, v runtime.Value, dt tensor.DType) (*T, error) {
	if err := checkSizes(shape); err != nil {
		return nil, err
	}
	if err := numberFits(v, dt); err != nil {
		return nil, err
	}
	switch f := v.(type) {
	case runtime.Int:
		if !dt.IsFloat() {
			return tensor.FullInt(shape, int64(f), dt)
		}
		return tensor.Full(shape, float64(f), dt)
	case runtime.Bool:
		return tensor.FullInt(shape, boolInt(bool(f)), dt)
	case runtime.Float:
		return tensor.Full(shape, float64(f), dt)
	case *TensorValue:
		if f.t.Numel() == 1 {
			if err := valueFits(f.t, dt); err != nil {
				return nil, err
			}
			return tensor.Full(shape, f.t.FlatFloat64(0), dt)
		}
	}
	return nil, runtime.Errorf("TypeError", "full(): fill_value must be a number, not %s", v.Type())
}

func builtinFull(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var size shapeArg
	var fill runtime.Value
	var o creationOpts
	if err := runtime.UnpackArgs("full", args, kwargs, append([]any{"size", &size, "fill_value", &fill}, o.pairs()...)...); err != nil {
		return nil, err
	}
	t, err := fillTensor(size.shape, fill, o.dt(fillDType(fill)))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinFullLike(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var fill runtime.Value
	var o creationOpts
	if err := runtime.UnpackArgs("full_like", args, kwargs, append([]any{"input", &x, "fill_value", &fill}, o.pairs()...)...); err != nil {
		return nil, err
	}
	t, err := fillTensor(x.t.Shape(), fill, o.dt(x.t.DType()))
	if err == nil {
		t, err = preserveLayout(x.t, t)
	}
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinArange(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var start, end, step runtime.Value = runtime.MakeInt(0), nil, runtime.MakeInt(1)
	var o creationOpts
	pairs := o.pairs()
	switch len(args) {
	case 0:
		pairs = append([]any{"start?", &start, "end", &end, "step?", &step}, pairs...)
	case 1:
		end = args[0]
		args = nil
		pairs = append([]any{"step?", &step}, pairs...)
	default:
		pairs = append([]any{"start", &start, "end", &end, "step?", &step}, pairs...)
	}
	if err := runtime.UnpackArgs("arange", args, kwargs, pairs...); err != nil {
		return nil, err
	}
	allInt := true
	for _, v := range []runtime.Value{start, end, step} {
		if _, ok := v.(runtime.Int); !ok {
			if _, isNum := runtime.AsFloat(v); !isNum {
				return nil, runtime.Errorf("TypeError", "arange(): start, end and step must be numbers, not %s", v.Type())
			}
			allInt = false
		}
	}
	def := tensor.DefaultFloat
	if allInt {
		def = tensor.I64
	}
	dt := o.dt(def)
	var t *T
	var err error
	if allInt {
		s, _ := runtime.AsInt(start)
		e, _ := runtime.AsInt(end)
		st, _ := runtime.AsInt(step)
		if st == 0 {
			return nil, runtime.Errorf("RuntimeError", "step must be nonzero")
		}
		t, err = tensor.ArangeInt(s, e, st, dt)
	} else {
		s, _ := runtime.AsFloat(start)
		e, _ := runtime.AsFloat(end)
		st, _ := runtime.AsFloat(step)
		if math.IsNaN(s) || math.IsNaN(e) || math.IsInf(s, 0) || math.IsInf(e, 0) {
			return nil, runtime.Errorf("RuntimeError", "unsupported range: %s -> %s", runtime.Float(s), runtime.Float(e))
		}
		t, err = tensor.Arange(s, e, st, dt)
	}
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinLinspace(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var start, end float64
	var steps int
	var o creationOpts
	if err := runtime.UnpackArgs("linspace", args, kwargs, append([]any{"start", &start, "end", &end, "steps", &steps}, o.pairs()...)...); err != nil {
		return nil, err
	}
	for _, v := range []float64{start, end} {
		if err := numberFits(runtime.Float(v), o.dt(tensor.DefaultFloat)); err != nil {
			return nil, err
		}
	}
	t, err := tensor.Linspace(start, end, steps, o.dt(tensor.DefaultFloat))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinEye(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var n int
	var m intOpt
	var o creationOpts
	if err := runtime.UnpackArgs("eye", args, kwargs, append([]any{"n", &n, "m?", &m}, o.pairs()...)...); err != nil {
		return nil, err
	}
	mm := n
	if m.ok {
		mm = m.v
	}
	if n < 0 {
		return nil, runtime.Errorf("RuntimeError", "n must be greater or equal to 0, got %d", n)
	}
	if mm < 0 {
		return nil, runtime.Errorf("RuntimeError", "m must be greater or equal to 0, got %d", mm)
	}
	t, err := tensor.Eye(n, mm, o.dt(tensor.DefaultFloat))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

// builtinRandint is randint(high, size) or randint(low, high, size).
func builtinRandint(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var low, high int64
	var size shapeArg
	var o creationOpts
	pairs := o.pairs()
	if len(args) == 2 {
		pairs = append([]any{"high", &high, "size", &size}, pairs...)
	} else {
		pairs = append([]any{"low", &low, "high", &high, "size", &size}, pairs...)
	}
	if err := runtime.UnpackArgs("randint", args, kwargs, pairs...); err != nil {
		return nil, err
	}
	t, err := tensor.Randint(stateOf(th).gen, low, high, size.shape, o.dt(tensor.I64))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinRandintLike(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var low, high int64
	var o creationOpts
	var err error
	if len(args) == 2 {
		err = runtime.UnpackArgs("randint_like", args, kwargs, append([]any{"input", &x, "high", &high}, o.pairs()...)...)
	} else {
		err = runtime.UnpackArgs("randint_like", args, kwargs, append([]any{"input", &x, "low", &low, "high", &high}, o.pairs()...)...)
	}
	if err != nil {
		return nil, err
	}
	t, err := tensor.Randint(stateOf(th).gen, low, high, x.t.Shape(), o.dt(x.t.DType()))
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}

func builtinManualSeed(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var seed int64
	if err := runtime.UnpackArgs("manual_seed", args, kwargs, "seed", &seed); err != nil {
		return nil, err
	}
	stateOf(th).gen.ManualSeed(uint64(seed))
	return runtime.None, nil
}

func builtinSharesMemory(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	if err := runtime.UnpackArgs("shares_memory", args, kwargs, "a", &x, "b", &y); err != nil {
		return nil, err
	}
	return runtime.Bool(tensor.SharesMemory(x.t, y.t)), nil
}

func builtinDevice(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var s string
	var idx intOpt
	if err := runtime.UnpackArgs("device", args, kwargs, "type", &s, "index?", &idx); err != nil {
		return nil, err
	}
	d, err := parseDevice(s)
	if err != nil {
		return nil, err
	}
	if idx.ok {
		d = &DeviceValue{typ: d.typ, index: idx.v}
	}
	return d, nil
}
