package tensor

import "slices"

// In-place ops. Each validates the receiver with checkWritable (rejecting
// internally overlapping tensors such as expanded views), writes, and then
// calls markWritten exactly once, which bumps the shared version counter.
// A result dtype that cannot be cast to the receiver's dtype (float into an
// integer tensor, anything but bool into bool) is a RuntimeError with
// PyTorch's text.

// checkWritable rejects writes into tensors whose elements overlap.
func (t *Tensor) checkWritable() error {
	if t.hasInternalOverlap() {
		return errOverlap()
	}
	return nil
}

// markWritten records one in-place modification of t (PyTorch's
// bump_version). Every in-place op goes through here exactly once.
func (t *Tensor) markWritten() {
	if t.version != nil {
		t.version.Add(1) // x.data: its own counter (WithOwnVersion)
		return
	}
	t.storage.BumpVersion()
}

func errCast(from, to DType) error {
	return errorf(RuntimeError, "result type %s can't be cast to the desired output type %s", pyTypeName(from), pyTypeName(to))
}

// binaryInplace computes t = t op other in place. An other that
// partially overlaps t is PyTorch's RuntimeError (CheckNoPartialOverlap).
func (t *Tensor) binaryInplace(op binOp, other *Tensor) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	// PyTorch's TensorIterator rejects an input that partially overlaps
	// the output (z[1:3].add_(z[0:2]), z.add_(z.t())) before anything
	// else; a full overlap (z.add_(z)) and strided or expanded views
	// ("too hard") pass.
	if err := CheckNoPartialOverlap(t, other); err != nil {
		return err
	}
	shape, err := BroadcastShapes(t.shape, other.shape)
	if err != nil {
		return err
	}
	if !shapeEq(shape, t.shape) {
		return errorf(RuntimeError, "output with shape %s doesn't match the broadcast shape %s", fmtList(t.shape), fmtList(shape))
	}
	rt := ResultType(t, other)
	ct, ot, err := binaryTypes(op, rt)
	if err != nil {
		return err
	}
	if op == opSub && (t.dtype == Bool || other.dtype == Bool) {
		// as binary: x -= true and x.sub_(mask) raise like x - true
		return errorf(RuntimeError, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	if !canCast(ot, t.dtype) {
		return errCast(ot, t.dtype)
	}
	if op == opPow && !ct.IsFloat() && other.wrapped && other.FlatInt64(0) < 0 {
		return errorf(RuntimeError, "Integers to negative integer powers are not allowed.")
	}
	if op == opPow {
		if r, ok, err := powScalarSpecial(t, other, ot); ok {
			if err != nil {
				return err
			}
			castInto(t, r)
			t.markWritten()
			return nil
		}
	}
	b := other
	if b.storage == t.storage && SharesMemory(t, b) {
		b = b.Clone()
	}
	bc := broadcastTo(b.toDType(ct), shape)
	if t.dtype == ct && !op.isCmp() {
		if err := binaryKernel(op, t, t, bc); err != nil {
			return err
		}
	} else {
		tmp, err := binary(op, t, b)
		if err != nil {
			return err
		}
		castInto(t, tmp)
	}
	t.markWritten()
	return nil
}

func shapeEq(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// AddInplace performs t += other (add_), broadcasting other to t's shape.
func (t *Tensor) AddInplace(other *Tensor) error { return t.binaryInplace(opAdd, other) }

// SubInplace performs t -= other (sub_).
func (t *Tensor) SubInplace(other *Tensor) error { return t.binaryInplace(opSub, other) }

// MulInplace performs t *= other (mul_).
func (t *Tensor) MulInplace(other *Tensor) error { return t.binaryInplace(opMul, other) }

// DivInplace performs t /= other (div_, true division; an integer receiver
// is a RuntimeError since the result is float).
func (t *Tensor) DivInplace(other *Tensor) error { return t.binaryInplace(opDiv, other) }

// BinaryInplace applies a named binary op in place: "add", "sub", "mul",
// "div", "floor_divide", "remainder", "pow", "maximum", "minimum", "atan2",
// "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or",
// "logical_xor", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_left_shift",
// "bitwise_right_shift". Unknown names are a ValueError.
func (t *Tensor) BinaryInplace(name string, other *Tensor) error {
	switch name {
	case "bitwise_left_shift":
		return t.binaryInplace(opLShift, other)
	case "bitwise_right_shift":
		return t.binaryInplace(opRShift, other)
	}
	for i, n := range binNames {
		if n == name {
			return t.binaryInplace(binOp(i), other)
		}
	}
	return errorf(ValueError, "unknown binary op %q", name)
}

// ZeroInplace sets every element to 0 (zero_).
func (t *Tensor) ZeroInplace() error { return t.FillInplace(ScalarInt(0)) }

// FillInplace sets every element to the single value v (fill_); v must
// have one element (a wrapped number or a 0-d/1-element tensor). The value
// is converted to t's dtype.
func (t *Tensor) FillInplace(v *Tensor) error {
	if v.Numel() != 1 {
		return errorf(RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", len(v.shape))
	}
	// PyTorch allows fill_ (and zero_) on an expanded view: every element
	// gets the same value. Write through the view with its broadcast
	// (stride-0) dims collapsed to size 1, so no location is written twice.
	dst := t
	if t.hasInternalOverlap() {
		sh := slices.Clone(t.shape)
		for i, st := range t.strides {
			if st == 0 && sh[i] > 1 {
				sh[i] = 1
			}
		}
		dst = &Tensor{storage: t.storage, shape: sh, strides: t.strides, offset: t.offset, dtype: t.dtype}
		if err := dst.checkWritable(); err != nil {
			return err
		}
	}
	one := &Tensor{storage: v.storage, shape: nil, strides: nil, offset: v.flatOffset(0), dtype: v.dtype}
	if fastPathsOn() {
		// convert once, then write the bits (the same conversion castInto
		// applies to every element)
		c := empty(nil, dst.dtype)
		castInto(c, one)
		fillFast(dst, c)
		t.markWritten()
		return nil
	}
	b, _ := one.Expand(dst.shape...)
	castInto(dst, b)
	t.markWritten()
	return nil
}

// CopyInplace copies src into t (copy_), broadcasting src to t's shape and
// converting its dtype (any dtype converts, as PyTorch's copy_). An
// overlapping src is read before t is written.
func (t *Tensor) CopyInplace(src *Tensor) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	shape, err := BroadcastShapes(t.shape, src.shape)
	if err != nil {
		return err
	}
	if !shapeEq(shape, t.shape) {
		return errorf(RuntimeError, "output with shape %s doesn't match the broadcast shape %s", fmtList(t.shape), fmtList(shape))
	}
	s := src
	if s.storage == t.storage && SharesMemory(t, s) {
		s = s.Clone()
	}
	castInto(t, broadcastTo(s, t.shape))
	t.markWritten()
	return nil
}

// StripLeadingOnes returns t without the leading size-1 dims that take
// it past ndim dims (a view; t itself when there are none), as PyTorch
// treats the value of an index assignment (slicePrefix1sSize): x[0] =
// tensor([[1, 2, 3]]) assigns a [1, 3] value to a [3] view.
func (t *Tensor) StripLeadingOnes(ndim int) *Tensor {
	k := 0
	for len(t.shape)-k > ndim && t.shape[k] == 1 {
		k++
	}
	if k == 0 {
		return t
	}
	return t.view(slices.Clone(t.shape[k:]), slices.Clone(t.strides[k:]), t.offset)
}

// AssignInplace is x[key] = src for the basic-index view t: src loses its
// leading size-1 dims beyond t's rank (StripLeadingOnes), must then expand
// to t's shape (else expand's RuntimeError, as PyTorch), and is copied in
// converted to t's dtype (copy_).
func (t *Tensor) AssignInplace(src *Tensor) error {
	s := src.StripLeadingOnes(len(t.shape))
	if _, err := s.Expand(t.shape...); err != nil {
		return err
	}
	return t.CopyInplace(s)
}

// ClampInplace clamps t in place to [min, max] (either may be nil).
func (t *Tensor) ClampInplace(min, max *Tensor) error {
	if l, h, ok := fastClampBounds(t, min, max); ok && (min != nil || max != nil) {
		// one pass of the clamp kernel over t's own storage (the values
		// of Clamp, which would also keep t's dtype here)
		if err := t.checkWritable(); err != nil {
			return err
		}
		if t.vecInplace(clampF32(float32(l), float32(h)), clampF64(l, h)) {
			return nil
		}
	}
	r, err := Clamp(t, min, max)
	if err != nil {
		return err
	}
	return t.assignResult(r)
}

// MaskedFillInplace sets t to value where mask is true (masked_fill_);
// mask (bool) broadcasts to t's shape, value has one element. An
// expanded (internally overlapping) t is allowed, as PyTorch 1.13 allows
// it (with a deprecation warning): where elements share memory the last
// one written in row-major order wins.
func (t *Tensor) MaskedFillInplace(mask, value *Tensor) error {
	r, err := MaskedFill(t, mask, value)
	if err != nil {
		return err
	}
	if !shapeEq(r.shape, t.shape) {
		return errorf(RuntimeError, "masked_fill_: mask of shape %s does not broadcast to the tensor's shape %s", fmtList(mask.shape), fmtList(t.shape))
	}
	castInto(t, r)
	t.markWritten()
	return nil
}

// ApplyInplace runs f on t and writes the result back into t (for ops
// without a dedicated in-place kernel: relu_, exp_, ...). The result must
// have t's shape and a dtype castable to t's dtype.
func (t *Tensor) ApplyInplace(f func(*Tensor) (*Tensor, error)) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	r, err := f(t)
	if err != nil {
		return err
	}
	return t.assignResult(r)
}

func (t *Tensor) assignResult(r *Tensor) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	if !shapeEq(r.shape, t.shape) {
		return errorf(RuntimeError, "output with shape %s doesn't match the broadcast shape %s", fmtList(t.shape), fmtList(r.shape))
	}
	if !canCast(r.dtype, t.dtype) {
		return errCast(r.dtype, t.dtype)
	}
	castInto(t, r)
	t.markWritten()
	return nil
}
