package tensor

// CheckValid reports whether t can be used: nil for a tensor made by this
// package's constructors and ops. A Tensor built outside them — the zero
// value &Tensor{} (no storage), or one whose metadata disagree (an
// invalid dtype, shape and strides of different lengths, a negative size,
// stride or offset, elements beyond the end of the storage) — gives a
// ValueError naming the problem, so that a host handing such a value to an
// interpreter gets an error instead of a nil-pointer panic. A nil *Tensor
// is a ValueError too.
func (t *Tensor) CheckValid() error {
	switch {
	case t == nil:
		return errorf(ValueError, "nil *tensor.Tensor")
	case t.storage == nil:
		return errorf(ValueError, "tensor has no storage (a zero tensor.Tensor{}: build tensors with tsr.Tensor, tensor.FromFloat64s, tensor.Zeros, ...)")
	case !t.dtype.Valid():
		return errorf(ValueError, "tensor has an invalid dtype (%d)", int(t.dtype))
	case len(t.shape) != len(t.strides):
		return errorf(ValueError, "tensor has %d sizes but %d strides", len(t.shape), len(t.strides))
	case t.offset < 0:
		return errorf(ValueError, "tensor has a negative storage offset %d", t.offset)
	}
	last, empty := t.offset, false // the largest element index the view reaches
	for i, n := range t.shape {
		if n < 0 {
			return errorf(ValueError, "tensor has a negative size %d in shape %s", n, fmtList(t.shape))
		}
		if t.strides[i] < 0 {
			return errorf(ValueError, "tensor has a negative stride %d", t.strides[i])
		}
		if n == 0 {
			empty = true // no elements: nothing is read
			continue
		}
		last += (n - 1) * t.strides[i]
	}
	if empty {
		return nil
	}
	if need := (last + 1) * t.dtype.ItemSize(); need > t.storage.nbytes {
		return errorf(ValueError, "tensor of shape %s with strides %s and offset %d needs %d bytes of storage, but the storage has %d",
			fmtList(t.shape), fmtList(t.strides), t.offset, need, t.storage.nbytes)
	}
	return nil
}
