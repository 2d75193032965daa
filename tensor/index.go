package tensor

// Indexing. Basic items (ints, slices, ellipsis, new axis) give views;
// tensor items (integer or bool tensors) make the access "advanced" and
// give a copy, following NumPy/PyTorch placement rules: the index tensors
// broadcast together to shape B; when all advanced items are adjacent, B
// replaces them in place, otherwise B comes first.

// IndexKind is the kind of one indexing item.
type IndexKind uint8

// Index item kinds.
const (
	IdxInt      IndexKind = iota // x[i]
	IdxSlice                     // x[a:b:c]
	IdxEllipsis                  // x[...]
	IdxNewAxis                   // x[None]
	IdxTensor                    // x[t] with an integer or bool tensor
)

// Index is one item of an indexing expression. Build it with At, Span,
// Ellipsis, NewAxis or Adv.
type Index struct {
	Kind              IndexKind
	I                 int     // IdxInt
	Start, Stop, Step int     // IdxSlice; SliceNone for omitted start/stop
	T                 *Tensor // IdxTensor
}

// At is the integer index i (negative counts from the end).
func At(i int) Index { return Index{Kind: IdxInt, I: i} }

// Span is the slice start:stop:step; use SliceNone for an omitted bound
// (step must be > 0).
func Span(start, stop, step int) Index {
	return Index{Kind: IdxSlice, Start: start, Stop: stop, Step: step}
}

// AllSlice is the full slice ":".
func AllSlice() Index { return Span(SliceNone, SliceNone, 1) }

// Ellipsis is "...".
func Ellipsis() Index { return Index{Kind: IdxEllipsis} }

// NewAxis is None/newaxis: inserts a size-1 dim.
func NewAxis() Index { return Index{Kind: IdxNewAxis} }

// Adv is an advanced index: an integer tensor (i8, i16, i32, i64) or a
// bool mask (u8 is also treated as a mask, as older PyTorch did).
func Adv(t *Tensor) Index { return Index{Kind: IdxTensor, T: t} }

type advInfo struct {
	v        *Tensor   // basic-indexed view
	dims     []int     // dims of v indexed by tensors
	idx      []*Tensor // i64 index tensors, broadcast to bshape
	bshape   []int
	adjacent bool
}

// applyBasic applies items to t; tensor items are recorded, not applied.
func (t *Tensor) applyBasic(items []Index) (*advInfo, error) {
	if len(t.shape) == 0 && len(items) == 1 {
		// PyTorch's single-index paths (applySelect, applySlice) on a 0-dim tensor
		switch it := items[0]; {
		case it.Kind == IdxInt && it.I == 0:
			return nil, errorf(IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
		case it.Kind == IdxInt:
			return nil, errorf(IndexError, "index %d is out of bounds for dimension 0 with size 0", it.I)
		case it.Kind == IdxSlice:
			return nil, errorf(IndexError, "slice() cannot be applied to a 0-dim tensor.")
		}
	}
	consumed := 0
	ell := 0
	for _, it := range items {
		switch it.Kind {
		case IdxInt, IdxSlice:
			consumed++
		case IdxTensor:
			if it.T == nil {
				return nil, errorf(TypeError, "index tensor is nil")
			}
			if it.T.dtype == Bool {
				consumed += max(len(it.T.shape), 0)
			} else {
				consumed++
			}
		case IdxEllipsis:
			ell++
		}
	}
	if ell > 1 {
		return nil, errorf(IndexError, "an index can only have a single ellipsis ('...')")
	}
	if consumed > len(t.shape) {
		return nil, errorf(IndexError, "too many indices for tensor of dimension %d", len(t.shape))
	}
	info := &advInfo{}
	v := t
	dim := 0
	var err error
	for pos, it := range items {
		switch it.Kind {
		case IdxInt:
			if v, err = v.selectIdx(dim, it.I, pos); err != nil {
				return nil, err
			}
		case IdxSlice:
			if v, err = v.Slice(dim, it.Start, it.Stop, it.Step); err != nil {
				return nil, err
			}
			dim++
		case IdxNewAxis:
			if v, err = v.Unsqueeze(dim); err != nil {
				return nil, err
			}
			dim++
		case IdxEllipsis:
			dim += len(t.shape) - consumed
		case IdxTensor:
			x := it.T
			if x.dtype == Bool || x.dtype == U8 {
				k := len(x.shape)
				for j := 0; j < k; j++ {
					if x.shape[j] != v.shape[dim+j] {
						return nil, errorf(IndexError, "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d", fmtList(x.shape), j, fmtList(v.shape), dim+j)
					}
				}
				nz := Nonzero(x)
				for j := 0; j < k; j++ {
					col, _ := nz.Select(1, j)
					info.dims = append(info.dims, dim+j)
					info.idx = append(info.idx, col)
				}
				if k == 0 { // 0-d bool: x[True] adds a dim of size 1 (or 0)
					if v, err = v.Unsqueeze(dim); err != nil {
						return nil, err
					}
					n := 0
					if x.FlatBool(0) {
						n = 1
					}
					info.dims = append(info.dims, dim)
					info.idx = append(info.idx, zeros([]int{n}, I64))
					k = 1
				}
				dim += k
				continue
			}
			if x.dtype.IsFloat() {
				return nil, errorf(IndexError, "tensors used as indices must be long, int, byte or bool tensors")
			}
			info.dims = append(info.dims, dim)
			info.idx = append(info.idx, x.toDType(I64))
			dim++
		}
	}
	info.v = v
	if len(info.idx) == 0 {
		return info, nil
	}
	shapes := make([][]int, len(info.idx))
	for i, x := range info.idx {
		shapes[i] = x.shape
	}
	b, err := BroadcastShapes(shapes...)
	if err != nil {
		return nil, errorf(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes %s", fmtShapes(shapes))
	}
	info.bshape = b
	for i, x := range info.idx {
		info.idx[i] = broadcastTo(x, b)
	}
	info.adjacent = true
	for i := 1; i < len(info.dims); i++ {
		if info.dims[i] != info.dims[i-1]+1 {
			info.adjacent = false
		}
	}
	return info, nil
}

func fmtShapes(s [][]int) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += fmtList(x)
	}
	return out
}

// selectIdx is Select with PyTorch's indexing error text; like PyTorch's
// applySelect, an out-of-range index names pos, the item's position in the
// index tuple (x[0, 0, 4] names dimension 2, x[None, 0, 5] dimension 2).
func (t *Tensor) selectIdx(d, i, pos int) (*Tensor, error) {
	if d >= len(t.shape) {
		return nil, errorf(IndexError, "too many indices for tensor of dimension %d", len(t.shape))
	}
	size := t.shape[d]
	if i < -size || i >= size {
		return nil, errorf(IndexError, "index %d is out of bounds for dimension %d with size %d", i, pos, size)
	}
	return t.Select(d, i)
}

// restView returns the metadata of v without the advanced dims.
func (a *advInfo) rest() (shape, strides []int) {
	isAdv := make([]bool, len(a.v.shape))
	for _, d := range a.dims {
		isAdv[d] = true
	}
	for i := range a.v.shape {
		if !isAdv[i] {
			shape = append(shape, a.v.shape[i])
			strides = append(strides, a.v.strides[i])
		}
	}
	return
}

// offsets computes the storage offset of v's element for each index
// combination in B (C order), checking bounds.
func (a *advInfo) offsets() ([]int, error) {
	nb := numel(a.bshape)
	offs := make([]int, nb)
	for i := range offs {
		offs[i] = a.v.offset
	}
	for j, x := range a.idx {
		d := a.dims[j]
		size, st := a.v.shape[d], a.v.strides[d]
		vals := x.ToInt64s()
		for i, iv := range vals {
			if iv < -int64(size) || iv >= int64(size) {
				return nil, errorf(IndexError, "index %d is out of bounds for dimension %d with size %d", iv, d, size)
			}
			if iv < 0 {
				iv += int64(size)
			}
			offs[i] += int(iv) * st
		}
	}
	return offs, nil
}

// firstAdvPos is where B goes in the result.
func (a *advInfo) firstAdvPos() int {
	if a.adjacent {
		return a.dims[0]
	}
	return 0
}

// Index applies an indexing expression. With only basic items the result
// is a view; with tensor items it is a new tensor. Errors: IndexError for
// out-of-range ints/indices, too many indices, bad masks; ValueError for a
// slice step <= 0.
func (t *Tensor) Index(items ...Index) (*Tensor, error) {
	if len(items) == 1 && items[0].Kind == IdxTensor && items[0].T != nil {
		if r, ok, err := t.indexFast(items[0].T); ok {
			return r, err
		}
	}
	a, err := t.applyBasic(items)
	if err != nil {
		return nil, err
	}
	if len(a.idx) == 0 {
		if a.v == t {
			return t.view(append([]int(nil), t.shape...), append([]int(nil), t.strides...), t.offset), nil
		}
		return a.v, nil
	}
	offs, err := a.offsets()
	if err != nil {
		return nil, err
	}
	rs, rst := a.rest()
	r0shape := append(append([]int(nil), a.bshape...), rs...)
	out := empty(r0shape, t.dtype)
	rn := numel(rs)
	dst := &Tensor{storage: out.storage, shape: rs, strides: contiguousStrides(rs), dtype: t.dtype}
	src := &Tensor{storage: t.storage, shape: rs, strides: rst, dtype: t.dtype}
	for i, off := range offs {
		dst.offset = i * rn
		src.offset = off
		copySame(dst, src)
	}
	p := a.firstAdvPos()
	if p == 0 {
		return out, nil
	}
	nb := len(a.bshape)
	src2 := make([]int, nb)
	dst2 := make([]int, nb)
	for i := 0; i < nb; i++ {
		src2[i], dst2[i] = i, p+i
	}
	m, err := out.Movedim(src2, dst2)
	if err != nil {
		return nil, err
	}
	c := m.Clone()
	return c, nil
}

// IndexPut assigns value (broadcast to the indexed shape, converted to t's
// dtype) to t[items] in place and bumps t's version once. Basic items copy
// into the view; tensor items scatter (with repeated indices the last
// write wins).
func (t *Tensor) IndexPut(items []Index, value *Tensor) error {
	a, err := t.applyBasic(items)
	if err != nil {
		return err
	}
	if len(a.idx) == 0 {
		if value.Numel() == 1 && len(value.shape) == 0 {
			return a.v.FillInplace(value)
		}
		return a.v.AssignInplace(value)
	}
	if err := t.checkWritable(); err != nil {
		return err
	}
	offs, err := a.offsets()
	if err != nil {
		return err
	}
	rs, rst := a.rest()
	// final result shape, to broadcast value against
	p := a.firstAdvPos()
	fin := append(append(append([]int(nil), rs[:p]...), a.bshape...), rs[p:]...)
	value = value.StripLeadingOnes(len(fin))
	if _, err := BroadcastShapes(fin, value.shape); err != nil || len(value.shape) > len(fin) {
		return errorf(RuntimeError, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s", fmtList(value.shape), fmtList(fin))
	}
	vb, err := value.Expand(fin...)
	if err != nil {
		return errorf(RuntimeError, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s", fmtList(value.shape), fmtList(fin))
	}
	if value.storage == t.storage {
		vb = vb.Clone()
	}
	nb := len(a.bshape)
	if p != 0 {
		src2 := make([]int, nb)
		dst2 := make([]int, nb)
		for i := 0; i < nb; i++ {
			src2[i], dst2[i] = p+i, i
		}
		vb, _ = vb.Movedim(src2, dst2)
	}
	// vb now has shape B + rest
	flatB := &Tensor{storage: vb.storage, shape: a.bshape, strides: vb.strides[:nb], offset: vb.offset, dtype: vb.dtype}
	bOffs := make([]int, 0, len(offs))
	flatB.Offsets(func(o int) { bOffs = append(bOffs, o) })
	dst := &Tensor{storage: t.storage, shape: rs, strides: rst, dtype: t.dtype}
	src := &Tensor{storage: vb.storage, shape: rs, strides: vb.strides[nb:], dtype: vb.dtype}
	for i, off := range offs {
		dst.offset = off
		src.offset = bOffs[i]
		castInto(dst, src)
	}
	t.markWritten()
	return nil
}

// IndexBool returns the elements of t where mask is true, as t[mask]:
// a mask with t's leading dims selects along them (result dims [count] +
// the remaining dims).
func (t *Tensor) IndexBool(mask *Tensor) (*Tensor, error) {
	if mask.dtype != Bool {
		return nil, errorf(IndexError, "IndexBool: mask must be a bool tensor, got %s", mask.dtype)
	}
	return t.Index(Adv(mask))
}

// IndexTensor returns t[idx] for an integer index tensor along dim 0.
func (t *Tensor) IndexTensor(idx *Tensor) (*Tensor, error) { return t.Index(Adv(idx)) }

// Nonzero returns the i64 indices of the nonzero elements of t as a
// [count, ndim] tensor in C order (NaN counts as nonzero).
func Nonzero(t *Tensor) *Tensor {
	nd := len(t.shape)
	b := t.toDType(Bool).Contiguous()
	m := b.storage.U8()[b.offset : b.offset+b.Numel()]
	cnt := 0
	for _, v := range m {
		cnt += int((v | -v) >> 7)
	}
	out := empty([]int{cnt, nd}, I64)
	if cnt == 0 || nd == 0 {
		return out
	}
	d := out.storage.I64()
	idx := make([]int64, nd)
	r := 0
	last := nd - 1
	n := t.shape[last]
	for i0 := 0; i0 < len(m); i0 += n {
		for j, v := range m[i0 : i0+n] {
			if v != 0 {
				idx[last] = int64(j)
				copy(d[r:r+nd], idx)
				r += nd
			}
		}
		for k := last - 1; k >= 0; k-- { // next row of the leading dims
			idx[k]++
			if idx[k] < int64(t.shape[k]) {
				break
			}
			idx[k] = 0
		}
	}
	return out
}
