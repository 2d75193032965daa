package tensor

import (
	"fmt"
	"math"
	"slices"
)

// Views. Every function here returns a tensor that shares t's storage (and
// version counter) without copying, except Reshape and Flatten, which copy
// only when the strides cannot express the new shape (as PyTorch), and
// Contiguous/Clone.

// inferSize resolves one -1 in shape against numel n.
func inferSize(shape []int, n int) ([]int, error) {
	out := append([]int(nil), shape...)
	infer := -1
	prod := 1
	for i, s := range out {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, errorf(RuntimeError, "only one dimension can be inferred")
			}
			infer = i
		case s < 0:
			return nil, errorf(RuntimeError, "invalid shape dimension %d", s)
		default:
			prod = numel([]int{prod, s}) // saturates instead of wrapping
		}
	}
	if prod == math.MaxInt && n != math.MaxInt {
		return nil, errorf(RuntimeError, "shape '%s' is invalid for input of size %d", fmtShapeArg(shape), n)
	}
	if infer >= 0 {
		if prod == 0 || n%prod != 0 {
			if prod == 0 {
				return nil, errorf(RuntimeError, "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", fmtShapeArg(shape))
			}
			return nil, errorf(RuntimeError, "shape '%s' is invalid for input of size %d", fmtShapeArg(shape), n)
		}
		out[infer] = n / prod
		return out, nil
	}
	if prod != n {
		return nil, errorf(RuntimeError, "shape '%s' is invalid for input of size %d", fmtShapeArg(shape), n)
	}
	return out, nil
}

func fmtShapeArg(shape []int) string { return fmtList(shape) }

// computeStride is ATen's at::detail::computeStride: the strides that let a
// tensor of (oldshape, oldstride) be viewed as newshape, or ok=false when
// some new dim would span two non-contiguous chunks.
func computeStride(oldshape, oldstride, newshape []int) ([]int, bool) {
	newstride := make([]int, len(newshape))
	if len(oldshape) == 0 {
		for i := range newstride {
			newstride[i] = 1
		}
		return newstride, true
	}
	n := numel(oldshape)
	if n == 0 && slices.Equal(oldshape, newshape) {
		return append([]int(nil), oldstride...), true
	}
	if n == 0 {
		for d := len(newshape) - 1; d >= 0; d-- {
			if d == len(newshape)-1 {
				newstride[d] = 1
			} else {
				newstride[d] = max(newshape[d+1], 1) * newstride[d+1]
			}
		}
		return newstride, true
	}
	viewD := len(newshape) - 1
	chunkBase := oldstride[len(oldstride)-1]
	tensorNumel, viewNumel := 1, 1
	for td := len(oldshape) - 1; td >= 0; td-- {
		tensorNumel *= oldshape[td]
		if td == 0 || (oldshape[td-1] != 1 && oldstride[td-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newshape[viewD] == 1) {
				newstride[viewD] = viewNumel * chunkBase
				viewNumel *= newshape[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if td > 0 {
				chunkBase = oldstride[td-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return newstride, true
}

// View returns a view with the given shape (one entry may be -1). When the
// strides cannot express it, a RuntimeError says to use reshape.
func (t *Tensor) View(shape ...int) (*Tensor, error) {
	sh, err := inferSize(shape, t.Numel())
	if err != nil {
		return nil, err
	}
	st, ok := computeStride(t.shape, t.strides, sh)
	if !ok {
		return nil, errorf(RuntimeError, "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
	}
	return t.view(sh, st, t.offset), nil
}

// Reshape returns a view with the given shape when the strides allow (as
// View), else a contiguous copy with that shape.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	sh, err := inferSize(shape, t.Numel())
	if err != nil {
		return nil, err
	}
	if st, ok := computeStride(t.shape, t.strides, sh); ok {
		return t.view(sh, st, t.offset), nil
	}
	c := t.Clone()
	c.shape, c.strides = sh, contiguousStrides(sh)
	return c, nil
}

// Transpose swaps dims d0 and d1 (negative dims wrap).
func (t *Tensor) Transpose(d0, d1 int) (*Tensor, error) {
	n := len(t.shape)
	a, err := wrapDim(d0, n)
	if err != nil {
		return nil, err
	}
	b, err := wrapDim(d1, n)
	if err != nil {
		return nil, err
	}
	sh := slices.Clone(t.shape)
	st := slices.Clone(t.strides)
	if n > 0 {
		sh[a], sh[b] = sh[b], sh[a]
		st[a], st[b] = st[b], st[a]
	}
	return t.view(sh, st, t.offset), nil
}

// T transposes a tensor of at most 2 dims (PyTorch's t()); more dims is a
// RuntimeError.
func (t *Tensor) T() (*Tensor, error) {
	if len(t.shape) > 2 {
		return nil, errorf(RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", len(t.shape))
	}
	if len(t.shape) < 2 {
		return t.view(slices.Clone(t.shape), slices.Clone(t.strides), t.offset), nil
	}
	return t.Transpose(0, 1)
}

// MT transposes the last two dims (PyTorch's mT); needs >= 2 dims.
func (t *Tensor) MT() (*Tensor, error) {
	if len(t.shape) < 2 {
		return nil, errorf(RuntimeError, "tensor.mT is only supported on matrices or batches of matrices. Got %dD tensor.", len(t.shape))
	}
	return t.Transpose(-2, -1)
}

// Permute reorders dims: result dim i is t's dim dims[i].
func (t *Tensor) Permute(dims ...int) (*Tensor, error) {
	n := len(t.shape)
	if len(dims) != n {
		return nil, errorf(RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", n, len(dims))
	}
	w, err := wrapDims(dims, n)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Kind == RuntimeError {
			return nil, errorf(RuntimeError, "permute(): duplicate dims are not allowed.")
		}
		return nil, err
	}
	sh := make([]int, n)
	st := make([]int, n)
	for i, d := range w {
		sh[i], st[i] = t.shape[d], t.strides[d]
	}
	return t.view(sh, st, t.offset), nil
}

// Expand broadcasts t to shape without copying: size-1 dims get stride 0,
// new leading dims are added, and -1 keeps a size. Incompatible sizes are
// a RuntimeError with PyTorch's text.
func (t *Tensor) Expand(shape ...int) (*Tensor, error) {
	nd, td := len(shape), len(t.shape)
	if nd < td {
		return nil, errorf(RuntimeError, "expand(torch.%sTensor{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", pyTypeName(t.dtype), fmtList(t.shape), fmtList(shape), nd, td)
	}
	sh := make([]int, nd)
	st := make([]int, nd)
	for i := nd - 1; i >= 0; i-- {
		off := nd - 1 - i
		d := td - 1 - off
		size, stride := 1, 0
		if d >= 0 {
			size, stride = t.shape[d], t.strides[d]
		} else if i+1 < nd {
			stride = sh[i+1] * st[i+1]
		}
		// else: the last dim of an expanded 0-d tensor has stride 0, as
		// in PyTorch (tensor(5).expand(1).stride() == (0,))
		target := shape[i]
		if target == -1 {
			if d < 0 {
				return nil, errorf(RuntimeError, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)
			}
			target = size
		}
		if target < 0 {
			return nil, errorf(RuntimeError, "Trying to create tensor with negative dimension %d: %s", target, fmtList(shape))
		}
		if size != target {
			if size != 1 {
				return nil, errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", target, size, i, fmtList(shape), fmtList(t.shape))
			}
			size, stride = target, 0
		}
		sh[i], st[i] = size, stride
	}
	if err := checkShape(sh); err != nil {
		return nil, err
	}
	return t.view(sh, st, t.offset), nil
}

// ExpandAs expands t to other's shape.
func (t *Tensor) ExpandAs(other *Tensor) (*Tensor, error) { return t.Expand(other.shape...) }

// Unsqueeze inserts a size-1 dim at d (d in [-ndim-1, ndim]).
func (t *Tensor) Unsqueeze(d int) (*Tensor, error) {
	n := len(t.shape)
	d, err := wrapDim(d, n+1)
	if err != nil {
		return nil, err
	}
	st := 1
	if d < n {
		st = t.shape[d] * t.strides[d]
	}
	sh := slices.Insert(slices.Clone(t.shape), d, 1)
	sts := slices.Insert(slices.Clone(t.strides), d, st)
	return t.view(sh, sts, t.offset), nil
}

// Squeeze removes size-1 dims: all of them when dims is empty, else only
// the listed dims that have size 1.
func (t *Tensor) Squeeze(dims ...int) (*Tensor, error) {
	n := len(t.shape)
	drop := make([]bool, n)
	if len(dims) == 0 {
		for i, s := range t.shape {
			drop[i] = s == 1
		}
	} else {
		for _, d := range dims {
			w, err := wrapDim(d, n)
			if err != nil {
				return nil, err
			}
			if n > 0 && t.shape[w] == 1 {
				drop[w] = true
			}
		}
	}
	var sh, st []int
	for i := range t.shape {
		if !drop[i] {
			sh = append(sh, t.shape[i])
			st = append(st, t.strides[i])
		}
	}
	if sh == nil {
		sh, st = []int{}, []int{}
	}
	return t.view(sh, st, t.offset), nil
}

// Flatten merges dims start..end (inclusive) into one, via Reshape (a view
// when possible, else a copy). A 0-d tensor becomes shape [1].
func (t *Tensor) Flatten(start, end int) (*Tensor, error) {
	n := len(t.shape)
	if n == 0 {
		return t.Reshape(1)
	}
	s, err := wrapDim(start, n)
	if err != nil {
		return nil, err
	}
	e, err := wrapDim(end, n)
	if err != nil {
		return nil, err
	}
	if s > e {
		return nil, errorf(RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if s == e {
		return t, nil
	}
	merged := t.shape[s : e+1]
	if !slices.Contains(merged, 0) {
		if err := checkShape(merged); err != nil {
			return nil, err
		}
	}
	sh := slices.Clone(t.shape[:s])
	sh = append(sh, numel(merged))
	sh = append(sh, t.shape[e+1:]...)
	return t.Reshape(sh...)
}

// Unflatten splits dim d into sizes (one may be -1) as a view.
func (t *Tensor) Unflatten(d int, sizes []int) (*Tensor, error) {
	n := len(t.shape)
	d, err := wrapDim(d, n)
	if err != nil {
		return nil, err
	}
	if len(sizes) == 0 {
		return nil, errorf(RuntimeError, "unflatten: sizes must be non-empty")
	}
	if n == 0 {
		return nil, errorf(RuntimeError, "unflatten: cannot unflatten a 0-d tensor")
	}
	inner, err := inferSize(sizes, t.shape[d])
	if err != nil {
		return nil, errorf(RuntimeError, "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%d) in the input tensor", fmtList(sizes), d, t.shape[d])
	}
	sh := slices.Clone(t.shape[:d])
	sh = append(sh, inner...)
	sh = append(sh, t.shape[d+1:]...)
	return t.View(sh...)
}

// Narrow returns elements start..start+length-1 of dim d as a view (start
// may be negative).
func (t *Tensor) Narrow(d, start, length int) (*Tensor, error) {
	n := len(t.shape)
	if n == 0 {
		return nil, errorf(RuntimeError, "narrow() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(d, n)
	if err != nil {
		return nil, err
	}
	size := t.shape[d]
	if start < -size || start > size {
		return nil, errorf(IndexError, "start out of range (expected to be in range of [%d, %d], but got %d)", -size, size, start)
	}
	if start < 0 {
		start += size
	}
	if length < 0 || length > size-start {
		return nil, errorf(RuntimeError, "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size)
	}
	sh := slices.Clone(t.shape)
	sh[d] = length
	return t.view(sh, slices.Clone(t.strides), t.offset+start*t.strides[d]), nil
}

// Select indexes dim d at index i (negative wraps), removing the dim.
func (t *Tensor) Select(d, i int) (*Tensor, error) {
	n := len(t.shape)
	if n == 0 {
		return nil, errorf(IndexError, "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(d, n)
	if err != nil {
		return nil, err
	}
	size := t.shape[d]
	if i < -size || i >= size {
		return nil, errorf(IndexError, "index %d is out of bounds for dimension %d with size %d", i, d, size)
	}
	if i < 0 {
		i += size
	}
	sh := slices.Delete(slices.Clone(t.shape), d, d+1)
	st := slices.Delete(slices.Clone(t.strides), d, d+1)
	return t.view(sh, st, t.offset+i*t.strides[d]), nil
}

// Diagonal returns the diagonal of dims dim1, dim2 with the given offset
// (>0 above the main diagonal) as a view; the two dims are removed and the
// diagonal is appended as the last dim (PyTorch semantics).
func (t *Tensor) Diagonal(offset, dim1, dim2 int) (*Tensor, error) {
	n := len(t.shape)
	a, err := wrapDim(dim1, n)
	if err != nil {
		return nil, err
	}
	b, err := wrapDim(dim2, n)
	if err != nil {
		return nil, err
	}
	if a == b {
		return nil, errorf(RuntimeError, "diagonal dimensions cannot be identical %d, %d", dim1, dim2)
	}
	off := t.offset
	var size int
	if offset >= 0 {
		size = max(min(t.shape[a], t.shape[b]-offset), 0)
	} else {
		size = max(min(t.shape[a]+offset, t.shape[b]), 0)
	}
	if size > 0 {
		if offset >= 0 {
			off += offset * t.strides[b]
		} else {
			off -= offset * t.strides[a]
		}
	}
	var sh, st []int
	for i := range t.shape {
		if i != a && i != b {
			sh = append(sh, t.shape[i])
			st = append(st, t.strides[i])
		}
	}
	sh = append(sh, size)
	st = append(st, t.strides[a]+t.strides[b])
	return t.view(sh, st, off), nil
}

// Unfold returns all slices of length size with the given step along dim d
// as a view: dim d becomes (n-size)/step+1 and a new last dim of length size
// is appended.
func (t *Tensor) Unfold(d, size, step int) (*Tensor, error) {
	n := len(t.shape)
	d, err := wrapDim(d, n)
	if err != nil {
		return nil, err
	}
	dimSize, dimStride := 1, 1
	if n > 0 {
		dimSize, dimStride = t.shape[d], t.strides[d]
	}
	if size > dimSize {
		return nil, errorf(RuntimeError, "maximum size for tensor at dimension %d is %d but size is %d", d, dimSize, size)
	}
	if size < 0 {
		return nil, errorf(RuntimeError, "size is %d but must be >= 0", size)
	}
	if step <= 0 {
		return nil, errorf(RuntimeError, "step is %d but must be > 0", step)
	}
	sh := slices.Clone(t.shape)
	st := slices.Clone(t.strides)
	if n > 0 {
		sh[d] = (dimSize-size)/step + 1
		if s, ok := mulNoOverflow(dimStride, step); ok {
			st[d] = s
		} // else sh[d] == 1: the source stride addresses it
	}
	sh = append(sh, size)
	st = append(st, dimStride)
	return t.view(sh, st, t.offset), nil
}

// Movedim moves dims src[i] to positions dst[i]; the other dims keep their
// relative order.
func (t *Tensor) Movedim(src, dst []int) (*Tensor, error) {
	n := len(t.shape)
	if len(src) != len(dst) {
		return nil, errorf(RuntimeError, "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of dims as destination (%s dims)", fmtList(src), fmtList(dst))
	}
	s, err := wrapDims(src, n)
	if err != nil {
		return nil, err
	}
	d, err := wrapDims(dst, n)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		// A 0-d tensor: dims -1 and 0 both name its only (virtual) dim, and
		// moving it anywhere is the identity (PyTorch returns it unchanged).
		return t.view(nil, nil, t.offset), nil
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = -1
	}
	used := make([]bool, n)
	for i := range s {
		perm[d[i]] = s[i]
		used[s[i]] = true
	}
	next := 0
	for i := range perm {
		if perm[i] >= 0 {
			continue
		}
		for used[next] {
			next++
		}
		perm[i] = next
		next++
	}
	return t.Permute(perm...)
}

// AsStrided returns a view with arbitrary sizes, strides (elements) and
// storage offset. It is checked: negative sizes, strides or offset are a
// RuntimeError, and unless the view has no elements the furthest element,
// offset + sum((size_k-1)*stride_k), must lie inside the storage, else
// RuntimeError "as_strided: view of size [..] with stride [..] and offset N
// needs storage of M elements, but the storage has K".
func (t *Tensor) AsStrided(size, stride []int, offset int) (*Tensor, error) {
	if len(size) != len(stride) {
		return nil, errorf(RuntimeError, "mismatch in length of strides and shape")
	}
	for _, s := range stride {
		if s < 0 {
			return nil, errorf(RuntimeError, "as_strided: Negative strides are not supported at the moment, got strides: %s", fmtList(stride))
		}
	}
	if err := checkShape(size); err != nil {
		return nil, err
	}
	if offset < 0 {
		return nil, errorf(RuntimeError, "Tensor: invalid storage offset %d", offset)
	}
	if numel(size) > 0 {
		have := t.storage.nbytes / t.dtype.ItemSize()
		// need = offset + 1 + sum((size_k-1)*stride_k), computed without
		// wrapping around int64 (every term is >= 0).
		need, overflow := offset, offset == math.MaxInt
		for i := range size {
			span := size[i] - 1
			if overflow || span == 0 || stride[i] == 0 {
				continue
			}
			if stride[i] > (math.MaxInt-1-need)/span {
				overflow = true
				continue
			}
			need += span * stride[i]
		}
		if overflow {
			return nil, errorf(RuntimeError, "as_strided: view of size %s with stride %s and offset %d needs storage of more elements than an int64 can count (the storage size calculation overflows), but the storage has %d", fmtList(size), fmtList(stride), offset, have)
		}
		need++
		if need > have {
			return nil, errorf(RuntimeError, "as_strided: view of size %s with stride %s and offset %d needs storage of %d elements, but the storage has %d", fmtList(size), fmtList(stride), offset, need, have)
		}
	}
	return t.view(slices.Clone(size), slices.Clone(stride), offset), nil
}

// SliceNone in Slice's start or stop means "omitted" (Python's None).
const SliceNone = -1 << 62

// Slice applies Python slice start:stop:step to dim d as a view. start and
// stop may be negative (counting from the end) or SliceNone, and are
// clamped to the dim; step must be > 0 (ValueError "step must be greater
// than zero"), as PyTorch.
func (t *Tensor) Slice(d, start, stop, step int) (*Tensor, error) {
	n := len(t.shape)
	if n == 0 {
		return nil, errorf(IndexError, "slice() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(d, n)
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, errorf(ValueError, "step must be greater than zero")
	}
	size := t.shape[d]
	lo, hi := sliceBounds(start, stop, size)
	sh := slices.Clone(t.shape)
	st := slices.Clone(t.strides)
	sh[d] = sliceLen(lo, hi, step)
	// A dim of length <= 1 never steps, so any stride addresses it; keep the
	// source stride when stride*step would overflow.
	if s, ok := mulNoOverflow(t.strides[d], step); ok {
		st[d] = s
	} else {
		st[d] = t.strides[d]
	}
	// The offset moves to the (clamped) start even when the slice is
	// empty, as PyTorch's slice: arange(3)[5:].storage_offset() == 3.
	off := t.offset
	if p, ok := mulNoOverflow(lo, t.strides[d]); ok && (sh[d] > 0 || off <= math.MaxInt-max(p, 0)) {
		off += p
	}
	return t.view(sh, st, off), nil
}

// sliceLen is the number of elements of lo:hi:step (0 <= lo <= hi, step >
// 0), ceil((hi-lo)/step) computed without overflow for any step (Python's
// rule: arange(6)[::2**63-1] has one element).
func sliceLen(lo, hi, step int) int {
	if hi <= lo {
		return 0
	}
	return (hi-lo-1)/step + 1
}

// mulNoOverflow returns a*b and whether it fits in an int.
func mulNoOverflow(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt) || (b == -1 && a == math.MinInt) {
		return 0, false
	}
	return p, true
}

func sliceBounds(start, stop, size int) (int, int) {
	lo, hi := 0, size
	if start != SliceNone {
		lo = start
		if lo < 0 {
			lo += size
		}
		lo = min(max(lo, 0), size)
	}
	if stop != SliceNone {
		hi = stop
		if hi < 0 {
			hi += size
		}
		hi = min(max(hi, 0), size)
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// Contiguous returns t when it is already contiguous, else a contiguous copy.
func (t *Tensor) Contiguous() *Tensor {
	if t.IsContiguous() {
		return t
	}
	return t.Clone()
}

// Clone returns a contiguous copy with the same shape and dtype.
func (t *Tensor) Clone() *Tensor {
	out := empty(t.shape, t.dtype)
	copySame(out, t)
	return out
}

// copySame copies src into dst elementwise (same shape and dtype, any
// strides) as raw bits.
func copySame(dst, src *Tensor) {
	switch dst.dtype.ItemSize() {
	case 1:
		copyBits(typed[uint8](dst.storage), typed[uint8](src.storage), dst, src)
	case 2:
		copyBits(typed[uint16](dst.storage), typed[uint16](src.storage), dst, src)
	case 4:
		copyBits(typed[uint32](dst.storage), typed[uint32](src.storage), dst, src)
	case 8:
		copyBits(typed[uint64](dst.storage), typed[uint64](src.storage), dst, src)
	}
}

func copyBits[T uint8 | uint16 | uint32 | uint64](d, s []T, dst, src *Tensor) {
	if fastPathsOn() && len(dst.shape) >= 2 && copyTransposed(d, s, dst, src) {
		return
	}
	walk2(dst.shape, dst, src, func(pd, ps, n, sd, ss int) {
		if sd == 1 && ss == 1 {
			copy(d[pd:pd+n], s[ps:ps+n])
			return
		}
		if sd == 1 && ss == -1 && fastPathsOn() { // a flip of the last dim
			dd, sr := d[pd:pd+n], s[ps-n+1:ps+1]
			for i := range dd {
				dd[i] = sr[n-1-i]
			}
			return
		}
		for i := 0; i < n; i++ {
			d[pd+i*sd] = s[ps+i*ss]
		}
	})
}

// SharesMemory reports whether a and b have an element in common: some
// byte of the storage is read by both views (LANGUAGE.md section 5: "true
// when the two views overlap in one storage"). Views of different
// storages, and empty views, share nothing; x[::2] and x[1::2] share
// nothing either. The cheap byte-extent test runs first; when the extents
// meet, an exact test follows (gcd of the strides, dense views, then a
// bitmap over the common range: see shares_memory.go). Only when that
// bitmap would exceed 2^24 cells or 2^24 visited elements is the answer
// the conservative extent test's true.
func SharesMemory(a, b *Tensor) bool {
	if a.storage != b.storage || a.Numel() == 0 || b.Numel() == 0 {
		return false
	}
	lo1, hi1 := a.byteExtent()
	lo2, hi2 := b.byteExtent()
	if !(lo1 < hi2 && lo2 < hi1) {
		return false
	}
	return sharesMemoryExact(a, b, lo1, hi1, lo2, hi2)
}

// byteExtent returns [lo, hi) bytes touched by t's elements.
func (t *Tensor) byteExtent() (int, int) {
	isz := t.dtype.ItemSize()
	lo := t.offset * isz
	hi := t.offset
	for i, s := range t.shape {
		hi += (s - 1) * t.strides[i]
	}
	return lo, (hi + 1) * isz
}

// hasInternalOverlap reports whether two elements of t share memory because
// of a stride-0 dim of size > 1 (PyTorch's MemOverlap::Yes test). An
// empty tensor has no elements to share (PyTorch: it is contiguous, hence
// non-overlapping and dense).
func (t *Tensor) hasInternalOverlap() bool {
	if slices.Contains(t.shape, 0) {
		return false
	}
	for i, s := range t.shape {
		if s > 1 && t.strides[i] == 0 {
			return true
		}
	}
	return false
}

func errOverlap() error {
	return errorf(RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
}

// ViewDType returns a view of t's bytes as dtype dt, PyTorch 1.13's
// Tensor.view(dtype) (view_dtype in TensorConversions.cpp): the same
// storage and version counter, not recorded as a view (Base() is nil) and
// with empty autograd slots (PyTorch's output is not differentiable).
// With the same element size the shape, strides and offset stay. With a
// smaller one (k = itemsize(t)/itemsize(dt)) the last dim must have
// stride 1 and becomes k times longer, the other strides and the offset
// are multiplied by k. With a larger one (k = itemsize(dt)/itemsize(t))
// the last dim's size and the storage offset must be divisible by k, its
// stride must be 1, and the other strides divisible by k; sizes, strides
// and offset are divided by k. A 0-d t needs the same element size.
// Errors are RuntimeErrors with PyTorch's text, checked in its order.
// Viewing as Bool bytes other than 0 and 1 is a RuntimeError (PyTorch
// reads them as true; a Go bool cannot hold them).
func (t *Tensor) ViewDType(dt DType) (*Tensor, error) {
	if !dt.Valid() {
		return nil, errorf(TypeError, "invalid dtype")
	}
	from, to := t.dtype.ItemSize(), dt.ItemSize()
	shape := slices.Clone(t.shape)
	strides := slices.Clone(t.strides)
	offset := t.offset
	what := func() string {
		return fmt.Sprintf("to view %s as %s (different element sizes)", pyTypeName(t.dtype), pyTypeName(dt))
	}
	n := len(shape)
	switch {
	case from == to:
	case n == 0:
		return nil, errorf(RuntimeError, "self.dim() cannot be 0 %s", what())
	case from > to:
		k := from / to
		if strides[n-1] != 1 {
			return nil, errorf(RuntimeError, "self.stride(-1) must be 1 %s, but got %d", what(), strides[n-1])
		}
		for i := range n - 1 {
			strides[i] *= k
		}
		shape[n-1] *= k
		offset *= k
	default:
		k := to / from
		if shape[n-1]%k != 0 {
			return nil, errorf(RuntimeError, "self.size(-1) must be divisible by %d %s, but got %d", k, what(), shape[n-1])
		}
		if offset%k != 0 {
			return nil, errorf(RuntimeError, "self.storage_offset() must be divisible by %d %s, but got %d", k, what(), offset)
		}
		if strides[n-1] != 1 {
			return nil, errorf(RuntimeError, "self.stride(-1) must be 1 %s, but got %d", what(), strides[n-1])
		}
		for i := range n - 1 {
			if strides[i]%k != 0 {
				return nil, errorf(RuntimeError, "self.stride(%d) must be divisible by %d %s, but got %d", i, k, what(), strides[i])
			}
			strides[i] /= k
		}
		shape[n-1] /= k
		offset /= k
	}
	v := newTensor(t.storage, shape, strides, offset, dt)
	v.version = t.version
	if dt == Bool && t.dtype != Bool && v.Numel() > 0 {
		// A Go bool must hold 0 or 1: refuse other bytes rather than let
		// ops disagree on their truth (PyTorch reads them as true).
		b := t.storage.U8()
		var bad error
		eachOffset(v, func(off int) bool {
			if b[off] > 1 {
				bad = errorf(RuntimeError, "view(dtype): tsr can view as Bool only bytes holding 0 or 1, but got %d", b[off])
				return false
			}
			return true
		})
		if bad != nil {
			return nil, bad
		}
	}
	return v, nil
}
