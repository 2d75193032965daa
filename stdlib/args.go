package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// The Unpackers below give runtime.UnpackArgs stdlib's argument rules.
// Each records whether the argument was given (ok) so that PyTorch's
// "None means default" convention works for both absent and none.

// dtypeOpt is a dtype= argument: a dtype value or none.
type dtypeOpt struct {
	dt tensor.DType
	ok bool
}

func (d *dtypeOpt) Unpack(v runtime.Value) error {
	if v == runtime.None {
		d.ok = false
		return nil
	}
	dt, ok := dtypeOf(v)
	if !ok {
		return runtime.Errorf("TypeError", "dtype must be a dtype (f32, i64, ...), not %s", v.Type())
	}
	d.dt, d.ok = dt, true
	return nil
}

// dimsOpt is a dim= argument that may be an int, a list/tuple of ints or
// none (all dims).
type dimsOpt struct {
	dims []int
	ok   bool
}

func (d *dimsOpt) Unpack(v runtime.Value) error {
	if v == runtime.None {
		d.ok = false
		return nil
	}
	dims, ok := runtime.AsInts(v)
	if !ok || isBool(v) {
		return runtime.Errorf("TypeError", "dim must be an int or a list of ints, not %s", v.Type())
	}
	d.dims, d.ok = dims, true
	return nil
}

// intOpt is an optional int (none allowed).
type intOpt struct {
	v  int
	ok bool
}

func (o *intOpt) Unpack(v runtime.Value) error {
	if v == runtime.None {
		o.ok = false
		return nil
	}
	i, ok := v.(runtime.Int)
	if !ok {
		return runtime.Errorf("TypeError", "expected an int, not %s", v.Type())
	}
	o.v, o.ok = int(i), true
	return nil
}

// floatOpt is an optional number (none allowed).
type floatOpt struct {
	v  float64
	ok bool
}

func (o *floatOpt) Unpack(v runtime.Value) error {
	if v == runtime.None {
		o.ok = false
		return nil
	}
	if t, ok := v.(*TensorValue); ok && t.t.Numel() == 1 {
		o.v, o.ok = t.t.FlatFloat64(0), true
		return nil
	}
	f, ok := runtime.AsFloat(v)
	if !ok {
		return runtime.Errorf("TypeError", "expected a number, not %s", v.Type())
	}
	o.v, o.ok = f, true
	return nil
}

// tensorArg is an argument that must be a tensor.
type tensorArg struct {
	t *tensor.Tensor
}

func (a *tensorArg) Unpack(v runtime.Value) error {
	x, ok := v.(*TensorValue)
	if !ok {
		return runtime.Errorf("TypeError", "expected a tensor, not %s", v.Type())
	}
	a.t = x.t
	return nil
}

// tensorOpt is an optional tensor (none allowed).
type tensorOpt struct {
	t *tensor.Tensor
}

func (a *tensorOpt) Unpack(v runtime.Value) error {
	if v == runtime.None {
		a.t = nil
		return nil
	}
	x, ok := v.(*TensorValue)
	if !ok {
		return runtime.Errorf("TypeError", "expected a tensor or none, not %s", v.Type())
	}
	a.t = x.t
	return nil
}

// operandArg is a tensor or a Python number (wrapped as a 0-d tensor that
// follows PyTorch's scalar promotion).
type operandArg struct {
	t *tensor.Tensor
}

func (a *operandArg) Unpack(v runtime.Value) error {
	t, ok := operand(v)
	if !ok {
		return runtime.Errorf("TypeError", "expected a tensor or a number, not %s", v.Type())
	}
	a.t = t
	return nil
}

// shapeArg is a shape given as a list or tuple of ints (or one int).
type shapeArg struct {
	shape []int
}

func (a *shapeArg) Unpack(v runtime.Value) error {
	s, ok := runtime.AsInts(v)
	if !ok || isBool(v) {
		return runtime.Errorf("TypeError", "expected a shape (a list of ints), not %s", v.Type())
	}
	a.shape = s
	return nil
}

func isBool(v runtime.Value) bool {
	_, ok := v.(runtime.Bool)
	return ok
}

// operand converts a tensor or a Python number to a tensor operand.
func operand(v runtime.Value) (*tensor.Tensor, bool) {
	switch x := v.(type) {
	case *TensorValue:
		return x.t, true
	case runtime.Int:
		return tensor.ScalarInt(int64(x)), true
	case runtime.Float:
		return tensor.ScalarFloat(float64(x)), true
	case runtime.Bool:
		return tensor.ScalarBool(bool(x)), true
	}
	return nil, false
}

// shapeVarargs reads a shape given as varargs (zeros(2, 3)) or as one list
// or tuple (zeros([2, 3])). Negative sizes are a RuntimeError.
func shapeVarargs(fname string, args []runtime.Value) ([]int, error) {
	if len(args) == 1 {
		switch args[0].(type) {
		case *runtime.List, runtime.Tuple:
			s, ok := runtime.AsInts(args[0])
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s(): size must be a list of ints", fname)
			}
			return s, nil
		}
	}
	out := make([]int, len(args))
	for i, a := range args {
		n, ok := a.(runtime.Int)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): size must be ints or one list of ints, not %s", fname, a.Type())
		}
		out[i] = int(n)
	}
	return out, nil
}

// checkSizes rejects negative sizes as PyTorch does.
func checkSizes(shape []int) error {
	for _, s := range shape {
		if s < 0 {
			return runtime.Errorf("RuntimeError", "Trying to create tensor with negative dimension %d: %s", s, intList(shape))
		}
	}
	return nil
}

// dimVarargs reads dims given as varargs (permute(2, 0, 1)) or one list.
func dimVarargs(fname string, args []runtime.Value) ([]int, error) {
	return shapeVarargs(fname, args)
}

// normDim normalises a possibly negative dim for a tensor of ndim dims
// (a 0-d tensor accepts dims 0 and -1, as PyTorch).
func normDim(d, ndim int) (int, error) {
	n := ndim
	if n == 0 {
		n = 1
	}
	if d < -n || d >= n {
		return 0, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, d)
	}
	if d < 0 {
		d += n
	}
	return d, nil
}

// errNoDims is PyTorch's IndexError for naming dim d of a 0-d tensor in
// ops that need a real dim (roll, unbind).
func errNoDims(d int) error {
	return runtime.Errorf("IndexError", "Dimension specified as %d but tensor has no dimensions", d)
}

// normDims normalises a list of dims; duplicates are a RuntimeError.
func normDims(dims []int, ndim int) ([]int, error) {
	out := make([]int, len(dims))
	seen := map[int]bool{}
	for i, d := range dims {
		n, err := normDim(d, ndim)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, runtime.Errorf("RuntimeError", "dim %d appears multiple times in the list of dims", n)
		}
		seen[n] = true
		out[i] = n
	}
	return out, nil
}

// splitInputKwarg removes a leading tensor from args (or the kwarg input=)
// for functional forms f(x, ...).
func splitInput(fname string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, []runtime.Value, []runtime.Kwarg, error) {
	if len(args) > 0 {
		return args[0], args[1:], kwargs, nil
	}
	for i, kw := range kwargs {
		if kw.Name == "input" {
			rest := append(append([]runtime.Kwarg(nil), kwargs[:i]...), kwargs[i+1:]...)
			return kw.Value, nil, rest, nil
		}
	}
	return nil, nil, nil, runtime.Errorf("TypeError", "%s() missing required argument 'input'", fname)
}
