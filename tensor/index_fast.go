package tensor

// Fast paths of advanced indexing with a single tensor item, x[mask] and
// x[idx]: typed element (or row) copies in C order instead of the general
// path's per-index sub-tensor copies.

// bitsT is the raw-bits element type of a copy, chosen by element size.
type bitsT interface {
	uint8 | uint16 | uint32 | uint64
}

// indexFast handles t[x] for one tensor item x: a bool/u8 mask over t's
// leading dims or an integer index along dim 0. ok = false leaves the
// case (and its error messages) to the general path.
func (t *Tensor) indexFast(x *Tensor) (r *Tensor, ok bool, err error) {
	if !fastPathsOn() || len(t.shape) == 0 || len(x.shape) == 0 {
		return nil, false, nil
	}
	if x.dtype == Bool || x.dtype == U8 {
		k := len(x.shape)
		if k > len(t.shape) || !shapeEq(x.shape, t.shape[:k]) {
			return nil, false, nil
		}
		return t.maskedSelect(x), true, nil
	}
	if x.dtype.IsFloat() {
		return nil, false, nil
	}
	r, err = t.takeDim0(x)
	return r, true, err
}

// cOrderRows calls fn(p, n, s) for the rows of the index space (shape,
// strides, offset) in C order, after merging contiguous dims (unlike walk,
// it never tiles, so the order is kept).
func cOrderRows(shape, strides []int, off int, fn func(p, n, s int)) {
	for _, s := range shape {
		if s == 0 {
			return
		}
	}
	cs, cst := coalesce(shape, [3][]int{strides}, 1)
	nd := len(cs)
	if nd == 0 {
		fn(off, 1, 0)
		return
	}
	st := cst[0]
	idx := make([]int, nd-1)
	for {
		fn(off, cs[nd-1], st[nd-1])
		d := nd - 2
		for ; d >= 0; d-- {
			idx[d]++
			off += st[d]
			if idx[d] < cs[d] {
				break
			}
			off -= st[d] * cs[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// maskedSelect returns t[mask] for a bool (or u8) mask whose shape equals
// t's leading dims: shape [count] + t.shape[mask.Dim():], the selected
// elements (or trailing sub-tensors) in C order.
func (t *Tensor) maskedSelect(mask *Tensor) *Tensor {
	k := len(mask.shape)
	mc := mask.Contiguous()
	m := mc.storage.U8()[mc.offset : mc.offset+mc.Numel()]
	count := 0
	for _, b := range m {
		count += int((b | -b) >> 7)
	}
	rest := t.shape[k:]
	out := empty(append([]int{count}, rest...), t.dtype)
	if count == 0 || out.Numel() == 0 {
		return out
	}
	switch t.dtype.ItemSize() {
	case 1:
		maskCopy(typed[uint8](out.storage), typed[uint8](t.storage), m, t, out, k)
	case 2:
		maskCopy(typed[uint16](out.storage), typed[uint16](t.storage), m, t, out, k)
	case 4:
		maskCopy(typed[uint32](out.storage), typed[uint32](t.storage), m, t, out, k)
	case 8:
		maskCopy(typed[uint64](out.storage), typed[uint64](t.storage), m, t, out, k)
	}
	return out
}

func maskCopy[T bitsT](d, s []T, m []uint8, t, out *Tensor, k int) {
	rest, rst := t.shape[k:], t.strides[k:]
	R := numel(rest)
	restContig := isContiguous(rest, rst)
	var dst, src *Tensor
	if !restContig {
		dst = &Tensor{storage: out.storage, shape: rest, strides: contiguousStrides(rest), dtype: t.dtype}
		src = &Tensor{storage: t.storage, shape: rest, strides: rst, dtype: t.dtype}
	}
	j, mi := 0, 0 // output row, mask position
	cOrderRows(t.shape[:k], t.strides[:k], t.offset, func(p, n, st int) {
		mr := m[mi : mi+n]
		mi += n
		switch {
		case R == 1 && st == 1:
			// branch free up to the row's last set bit L: always store,
			// advance on set bits (while the set bit at L is pending,
			// j < count, so every store is in range)
			L := n - 1
			for L >= 0 && mr[L] == 0 {
				L--
			}
			if L < 0 {
				return
			}
			sr := s[p : p+n]
			for q, b := range mr[:L] {
				d[j] = sr[q]
				j += int((b | -b) >> 7)
			}
			d[j] = sr[L]
			j++
		case R == 1:
			for q, b := range mr {
				if b != 0 {
					d[j] = s[p+q*st]
					j++
				}
			}
		case restContig:
			for q, b := range mr {
				if b != 0 {
					o := p + q*st
					copy(d[j*R:(j+1)*R], s[o:o+R])
					j++
				}
			}
		default:
			for q, b := range mr {
				if b != 0 {
					dst.offset, src.offset = j*R, p+q*st
					copySame(dst, src)
					j++
				}
			}
		}
	})
}

// takeDim0 returns t[idx] for an integer index tensor (negative indices
// wrap): shape idx.shape + t.shape[1:]. An index outside [-size, size)
// is an IndexError.
func (t *Tensor) takeDim0(idx *Tensor) (*Tensor, error) {
	ic := idx.toDType(I64).Contiguous()
	iv := ic.storage.I64()[ic.offset : ic.offset+ic.Numel()]
	rest := t.shape[1:]
	out := empty(append(append([]int(nil), idx.shape...), rest...), t.dtype)
	var err error
	switch t.dtype.ItemSize() {
	case 1:
		err = takeCopy(typed[uint8](out.storage), typed[uint8](t.storage), iv, t, out)
	case 2:
		err = takeCopy(typed[uint16](out.storage), typed[uint16](t.storage), iv, t, out)
	case 4:
		err = takeCopy(typed[uint32](out.storage), typed[uint32](t.storage), iv, t, out)
	case 8:
		err = takeCopy(typed[uint64](out.storage), typed[uint64](t.storage), iv, t, out)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func takeCopy[T bitsT](d, s []T, iv []int64, t, out *Tensor) error {
	size, st0 := int64(t.shape[0]), t.strides[0]
	rest, rst := t.shape[1:], t.strides[1:]
	R := numel(rest)
	restContig := isContiguous(rest, rst)
	var dst, src *Tensor
	if !restContig {
		dst = &Tensor{storage: out.storage, shape: rest, strides: contiguousStrides(rest), dtype: t.dtype}
		src = &Tensor{storage: t.storage, shape: rest, strides: rst, dtype: t.dtype}
	}
	for i, v := range iv {
		if v < -size || v >= size {
			return errorf(IndexError, "index %d is out of bounds for dimension 0 with size %d", v, size)
		}
		if v < 0 {
			v += size
		}
		o := t.offset + int(v)*st0
		switch {
		case R == 1:
			d[i] = s[o]
		case R == 0:
		case restContig:
			copy(d[i*R:(i+1)*R], s[o:o+R])
		default:
			dst.offset, src.offset = i*R, o
			copySame(dst, src)
		}
	}
	return nil
}
