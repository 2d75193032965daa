package tensor

// Where returns a where cond is true, else b (broadcasting all three; the
// result dtype is ResultType(a, b)). cond must be bool (or u8, as older
// PyTorch accepted). The result is laid out by TensorIterator's rule over
// (cond, a, b) (ElementwiseStrides): where(x.t() > 0, x.t(), y) is
// transposed like x.t().
func Where(cond, a, b *Tensor) (*Tensor, error) {
	if cond.dtype != Bool && cond.dtype != U8 {
		return nil, errorf(RuntimeError, "where expected condition to be a boolean tensor, but got a tensor with dtype %s", pyTypeName(cond.dtype))
	}
	shape, err := BroadcastShapes(cond.shape, a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	rt := ResultType(a, b)
	out := emptyIter(shape, rt, opAs(cond, Bool), opAs(a, rt), opAs(b, rt))
	if fastWhere(out, cond, a.toDType(rt), b.toDType(rt)) {
		return out, nil
	}
	castInto(out, broadcastTo(b, shape))
	ac := broadcastTo(a.toDType(rt), shape)
	selectInto(out, broadcastTo(cond, shape), ac)
	return out, nil
}

// selectInto copies src into out where mask (bool/u8, same shape) is set.
func selectInto(out, mask, src *Tensor) {
	m := mask.storage.U8()
	switch out.dtype.ItemSize() {
	case 1:
		selectBits(typed[uint8](out.storage), m, typed[uint8](src.storage), out, mask, src)
	case 2:
		selectBits(typed[uint16](out.storage), m, typed[uint16](src.storage), out, mask, src)
	case 4:
		selectBits(typed[uint32](out.storage), m, typed[uint32](src.storage), out, mask, src)
	case 8:
		selectBits(typed[uint64](out.storage), m, typed[uint64](src.storage), out, mask, src)
	}
}

func selectBits[T uint8 | uint16 | uint32 | uint64](o []T, m []uint8, s []T, out, mask, src *Tensor) {
	walk(out.shape, 3, [3][]int{out.strides, mask.strides, src.strides}, [3]int{out.offset, mask.offset, src.offset},
		func(po, pm, ps, n, so, sm, ss int) {
			for i := 0; i < n; i++ {
				if m[pm+i*sm] != 0 {
					o[po+i*so] = s[ps+i*ss]
				}
			}
		})
}

// MaskedFill returns a copy of t with value (a 0-d tensor, converted to
// t's dtype) where mask (Bool) is true; t and mask broadcast together. A
// value of any other rank, then a non-bool mask, is PyTorch's
// RuntimeError.
func MaskedFill(t, mask, value *Tensor) (*Tensor, error) {
	if len(value.shape) != 0 {
		return nil, errorf(RuntimeError, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(value.shape))
	}
	if mask.dtype != Bool {
		return nil, errorf(RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype %s", pyTypeName(mask.dtype))
	}
	shape, err := BroadcastShapes(t.shape, mask.shape)
	if err != nil {
		return nil, err
	}
	out := empty(shape, t.dtype)
	v := empty(nil, t.dtype)
	castInto(v, &Tensor{storage: value.storage, offset: value.flatOffset(0), dtype: value.dtype})
	if fastPathsOn() {
		maskedFillFast(out, broadcastTo(mask, shape), broadcastTo(t, shape), v)
		return out, nil
	}
	castInto(out, broadcastTo(t, shape))
	selectInto(out, broadcastTo(mask, shape), broadcastTo(v, shape))
	return out, nil
}

// Triu returns a copy of t (>= 2-D) with elements below the given diagonal
// of the last two dims set to zero (diagonal > 0 is above the main one).
func Triu(t *Tensor, diagonal int) (*Tensor, error) { return triangle(t, diagonal, true) }

// Tril returns a copy with elements above the given diagonal zeroed.
func Tril(t *Tensor, diagonal int) (*Tensor, error) { return triangle(t, diagonal, false) }

func triangle(t *Tensor, k int, upper bool) (*Tensor, error) {
	if len(t.shape) < 2 {
		name := "tril"
		if upper {
			name = "triu"
		}
		return nil, errorf(RuntimeError, "%s: input tensor must have at least 2 dimensions", name)
	}
	if fastPathsOn() && t.Numel() > 0 {
		return triangleFast(t, k, upper), nil
	}
	out := t.Clone()
	r, c := t.shape[len(t.shape)-2], t.shape[len(t.shape)-1]
	if r*c == 0 {
		return out, nil
	}
	batch := out.Numel() / (r * c)
	z := make([]byte, out.dtype.ItemSize())
	b := out.storage.Bytes()
	isz := len(z)
	for q := 0; q < batch; q++ {
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				keep := j-i >= k
				if !upper {
					keep = j-i <= k
				}
				if !keep {
					p := ((q*r+i)*c + j) * isz
					copy(b[p:p+isz], z)
				}
			}
		}
	}
	return out, nil
}

// Clamp limits t to [min, max]; either bound may be nil (both nil is a
// RuntimeError). Bounds broadcast; the result dtype is ResultType(t, min,
// max). NaN in t propagates; where min > max the result is max, as torch.
func Clamp(t, min, max *Tensor) (*Tensor, error) {
	if min == nil && max == nil {
		return nil, errorf(RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None")
	}
	if r := fastClamp(t, min, max); r != nil {
		return r, nil
	}
	var err error
	r := t
	if min != nil {
		if r, err = binaryClamp(opMax, r, min, t, max); err != nil {
			return nil, err
		}
	}
	if max != nil {
		if r, err = binaryClamp(opMin, r, max, t, min); err != nil {
			return nil, err
		}
	}
	if r == t {
		r = t.Clone()
	}
	return r, nil
}

// binaryClamp applies max/min but keeps the dtype of ResultType over all
// three clamp operands (so an integer tensor clamped by a float becomes f32).
func binaryClamp(op binOp, x, bound, t, other *Tensor) (*Tensor, error) {
	rt := ResultType(t, bound, other)
	xx := x.toDType(rt)
	bb := bound.toDType(rt)
	if bound.wrapped {
		bb.wrapped = true
	}
	if bound.Dim() == 0 {
		// max(bound, x): our maximum/minimum return the second operand on a
		// tie, so x is kept, as PyTorch's clamp keeps -0.0 against a 0 bound
		// (vec::clamp: VMAXPS(min, x), VMINPS(max, ·)). A 0-d bound has no
		// say in the output layout, so the operand order does not change it.
		return binary(op, bb, xx)
	}
	return binary(op, xx, bb)
}
