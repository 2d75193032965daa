package tensor

import "math"

// Signbit returns, as a bool tensor of t's shape, whether each element's
// sign bit is set (torch.signbit): true for negative floats, -0.0, -inf
// and NaNs carrying the sign bit; for signed integers x < 0; always false
// for u8 and bool. The result has TensorIterator's layout (a dense t's
// strides). It never fails; the error is for symmetry with the other
// elementwise ops.
func Signbit(t *Tensor) (*Tensor, error) {
	out := emptyIter(t.shape, Bool, opOf(t))
	o := out.storage.Bools()
	switch t.dtype {
	case F32:
		mapUn(o, t.storage.F32(), out, t, func(v float32) bool { return math.Float32bits(v)>>31 != 0 })
	case F64:
		mapUn(o, t.storage.F64(), out, t, math.Signbit)
	case F16, BF16:
		mapUn(o, t.storage.U16(), out, t, func(v uint16) bool { return v>>15 != 0 })
	case I8:
		mapUn(o, t.storage.I8(), out, t, func(v int8) bool { return v < 0 })
	case I16:
		mapUn(o, t.storage.I16(), out, t, func(v int16) bool { return v < 0 })
	case I32:
		mapUn(o, t.storage.I32(), out, t, func(v int32) bool { return v < 0 })
	case I64:
		mapUn(o, t.storage.I64(), out, t, func(v int64) bool { return v < 0 })
	default: // u8, bool
		fillRaw(out, 0)
	}
	return out, nil
}
