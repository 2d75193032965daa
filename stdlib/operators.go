package stdlib

import (
	"slices"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Binary implements the arithmetic, bitwise, matmul and comparison
// operators with a tensor on either side; the other operand may be a
// tensor or a Python number (wrapped so that it follows PyTorch's scalar
// promotion: it never upcasts a float tensor). Comparisons return bool
// tensors. `v in t` is (t == v).any(). Other operand types decline (nil,
// nil) so the VM reports a TypeError.
func (x *TensorValue) Binary(op runtime.Op, y runtime.Value, side runtime.Side) (runtime.Value, error) {
	if op == runtime.IN {
		if side != runtime.Right {
			return nil, nil
		}
		v, ok := operand(y)
		if !ok {
			return nil, nil
		}
		eq, err := tensor.Eq(x.t, v)
		if err != nil {
			return nil, err
		}
		return runtime.Bool(anyTrue(eq)), nil
	}
	other, ok := operand(y)
	if !ok {
		return nil, nil
	}
	a, b := x.t, other
	if side == runtime.Right {
		a, b = b, a
	}
	r, err := binaryOp(x.eng, op, a, b)
	if err != nil || r == nil {
		return nil, err
	}
	return opResult(x.eng, r, a, b), nil
}

// BinaryTemp computes x op y (+ - * /) into x when the VM knows x is an
// operator's or a builtin call's temporary (runtime.HasBinaryTemp; for a
// call, x's storage must have been allocated by the call): (a * b) + c and
// x.exp() * 2 then allocate one result instead of two, as NumPy elides
// temporaries. It declines (nil, nil) unless the in-place result is
// exactly Binary's: f32/f64 x and a result of x's dtype and shape (no
// promotion, no broadcast growth), no gradient on either side, x the sole
// owner of its storage in row-major order (so the result's layout is
// Binary's contiguous one), y not overlapping x, and not the bool
// subtraction that raises.
func (x *TensorValue) BinaryTemp(op runtime.Op, y runtime.Value, after int64) (runtime.Value, error) {
	t := x.t
	if dt := t.DType(); dt != tensor.F32 && dt != tensor.F64 || t.RequiresGrad() || t.StorageSeq() <= after {
		return nil, nil
	}
	other, ok := operand(y)
	if !ok || other.RequiresGrad() || op == runtime.MINUS && other.DType() == tensor.Bool {
		return nil, nil
	}
	if tensor.ResultType(t, other) != t.DType() || !t.OwnsStorage() {
		return nil, nil
	}
	if shape, err := tensor.BroadcastShapes(t.Shape(), other.Shape()); err != nil || !slices.Equal(shape, t.Shape()) {
		return nil, nil
	}
	if !other.IsWrappedNumber() && tensor.SharesMemory(t, other) {
		return nil, nil
	}
	// Binary's result layout follows TensorIterator, which may give a
	// size-1 dim of a row-major x another stride when other is a strided
	// tensor ([1, 3, 1, 2] + a permuted one: (6, 2, 6, 1), not (6, 2, 2, 1)):
	// with a size-1 dim, only a 0-d other (or a number) keeps x's layout.
	if other.Dim() > 0 && slices.Contains(t.Shape(), 1) {
		return nil, nil
	}
	// A number is rounded as Binary rounds it (castWrapped), so that both
	// paths agree whatever the kernels' own conversions do.
	_, other = castWrapped(t, other)
	// The result must look new: its version stays as Binary's (0).
	version := t.Version()
	var err error
	switch op {
	case runtime.PLUS:
		err = t.AddInplace(other)
	case runtime.MINUS:
		err = t.SubInplace(other)
	case runtime.STAR:
		err = t.MulInplace(other)
	case runtime.SLASH:
		err = t.DivInplace(other)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t.RestoreVersion(version)
	return x, nil
}

func anyTrue(t *T) bool {
	for _, b := range t.ToBools() {
		if b {
			return true
		}
	}
	return false
}

// Compare makes tensors usable as dict values and in == with non-tensor
// values (unequal); ordering is done by Binary.
func (x *TensorValue) Compare(op runtime.Op, y runtime.Value) (bool, error, bool) {
	switch op {
	case runtime.EQL:
		return x == y, nil, true
	case runtime.NEQ:
		return x != y, nil, true
	}
	return false, nil, false
}

// inplaceOps maps augmented assignment operators to in-place ops.
var inplaceOps = map[runtime.Op]string{
	runtime.PLUS: "add", runtime.MINUS: "sub", runtime.STAR: "mul", runtime.SLASH: "div",
	runtime.SLASHSLASH: "floor_divide", runtime.PERCENT: "remainder", runtime.STARSTAR: "pow",
	runtime.AMP: "bitwise_and", runtime.PIPE: "bitwise_or", runtime.CIRCUMFLEX: "bitwise_xor",
}

// Inplace implements x += y and friends as PyTorch's in-place ops (add_,
// sub_, ...): x is updated, its version counter bumped, and x returned.
// x @= y is not in-place (the VM falls back to x = x @ y).
func (x *TensorValue) Inplace(op runtime.Op, y runtime.Value) (runtime.Value, error) {
	name, ok := inplaceOps[op]
	if !ok {
		return nil, nil
	}
	other, ok := operand(y)
	if !ok {
		return nil, nil
	}
	if err := inplaceBinary(x.eng, name, x.t, other); err != nil {
		return nil, err
	}
	return x, nil
}

// inplaceBinary runs self op= other through the engine.
func inplaceBinary(e *Engine, name string, self, other *T) error {
	if name == "pow" {
		if err := powExponentFits(self, other); err != nil {
			return err
		}
	}
	_, other = castWrapped(self, other)
	var fwd func() error
	switch name {
	case "add":
		fwd = func() error { return self.AddInplace(other) }
	case "sub":
		fwd = func() error { return self.SubInplace(other) }
	case "mul":
		fwd = func() error { return self.MulInplace(other) }
	case "div":
		fwd = func() error { return self.DivInplace(other) }
	default:
		fwd = func() error { return self.BinaryInplace(name, other) }
	}
	return e.ApplyInplace(name, self, []*T{other}, nil, fwd)
}

// Unary implements -x, +x and ~x (bitwise not, for bool and integer
// tensors).
func (x *TensorValue) Unary(op runtime.Op) (runtime.Value, error) {
	var r *T
	var err error
	switch op {
	case runtime.UMINUS:
		if x.t.DType() == tensor.Bool {
			return nil, runtime.Errorf("RuntimeError", "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
		}
		r, err = unaryOp(x.eng, "neg", x.t)
	case runtime.UPLUS:
		x.newborn = false // the operand itself: never claimed as a new value
		return x, nil
	case runtime.TILDE:
		r, err = tensor.BitwiseNot(x.t)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return opResult(x.eng, r, x.t, nil), nil
}

// inplaceValue runs an in-place op given by name with a tensor or number
// other (the add_/sub_/... methods).
func inplaceWithAlpha(e *Engine, name string, self, other *T, alpha runtime.Value) error {
	if err := e.CheckInplace(self); err != nil {
		return err // autograd's check comes first in PyTorch
	}
	if err := tensor.CheckNoPartialOverlap(self, other); err != nil {
		return err // checked before other*alpha makes a copy, as PyTorch
	}
	other, err := scaleAlpha(e, self, other, alpha)
	if err != nil {
		return err
	}
	return inplaceBinary(e, name, self, other)
}

var _ = autograd.Attrs{}
