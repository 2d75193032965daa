package tensor

// In-place view ops (t_, transpose_, unsqueeze_, squeeze_) change a
// tensor's own geometry, as PyTorch's: every holder of the tensor sees the
// new shape.

// SetGeometryFrom gives t the shape, strides and storage offset of v, a
// view of t's storage, and bumps the version counter (PyTorch counts
// in-place view ops as in-place modifications).
func (t *Tensor) SetGeometryFrom(v *Tensor) error {
	if v.storage != t.storage {
		return errorf(RuntimeError, "SetGeometryFrom: the view does not share the tensor's storage")
	}
	t.shape = append([]int(nil), v.shape...)
	t.strides = append([]int(nil), v.strides...)
	t.offset = v.offset
	t.markWritten()
	return nil
}

// CanCast reports whether a result of dtype from may be written into a
// tensor of dtype to (PyTorch's canCast: no float -> integer, no
// non-bool -> bool).
func CanCast(from, to DType) bool { return canCast(from, to) }

// CastError is PyTorch's RuntimeError for a result of dtype from that an
// in-place op cannot write into a tensor of dtype to.
func CastError(from, to DType) error { return errCast(from, to) }

// CastErrorName is PyTorch's name for a dtype in cast and dtype-mismatch
// messages ("Float", "Long", ...).
func CastErrorName(d DType) string { return pyTypeName(d) }
