package tensor

import (
	"slices"
	"unsafe"
)

// Cat concatenates tensors along dim (negative wraps). All tensors must
// have the same rank and equal sizes except along dim; the result dtype is
// the promotion of all inputs. 1-D empty tensors (shape [0]) are skipped,
// as PyTorch's legacy rule.
func Cat(ts []*Tensor, dim int) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, errorf(RuntimeError, "torch.cat(): expected a non-empty list of Tensors")
	}
	var ref *Tensor
	dt := ts[0].dtype
	for i, t := range ts {
		if t == nil {
			return nil, errorf(TypeError, "cat(): tensor %d is nil", i)
		}
		if i > 0 {
			dt = Promote(dt, t.dtype)
		}
		if ref == nil && !(len(t.shape) == 1 && t.shape[0] == 0) {
			ref = t
		}
	}
	if ref == nil {
		return zeros([]int{0}, dt), nil
	}
	if len(ref.shape) == 0 {
		return nil, errorf(RuntimeError, "zero-dimensional tensor (at position 0) cannot be concatenated")
	}
	d, err := wrapDim(dim, len(ref.shape))
	if err != nil {
		return nil, err
	}
	total := 0
	for i, t := range ts {
		if len(t.shape) == 1 && t.shape[0] == 0 {
			continue
		}
		if len(t.shape) != len(ref.shape) {
			if len(t.shape) == 0 {
				return nil, errorf(RuntimeError, "zero-dimensional tensor (at position %d) cannot be concatenated", i)
			}
			return nil, errorf(RuntimeError, "Tensors must have same number of dimensions: got %d and %d", len(ref.shape), len(t.shape))
		}
		for k := range t.shape {
			if k != d && t.shape[k] != ref.shape[k] {
				return nil, errorf(RuntimeError, "Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.", d, ref.shape[k], t.shape[k], i)
			}
		}
		total += t.shape[d]
	}
	sh := slices.Clone(ref.shape)
	sh[d] = total
	out := empty(sh, dt)
	if catContiguous(out, ts, d) {
		return out, nil
	}
	pos := 0
	for _, t := range ts {
		if catSkipped(t) {
			continue
		}
		// a raw view: out keeps owning its storage (Release, in-place reuse)
		castInto(narrowRaw(out, d, pos, t.shape[d]), t)
		pos += t.shape[d]
	}
	return out, nil
}

// catSkipped reports whether Cat skips t (a 1-D empty tensor).
func catSkipped(t *Tensor) bool { return len(t.shape) == 1 && t.shape[0] == 0 }

// catContiguous is Cat's (and Stack's) path for inputs that are all
// contiguous and of out's dtype (stack of vectors, cat of whole tensors),
// none skipped when called from Stack: out, contiguous,
// is outer = prod(shape[:d]) rows, and row r is each input's r-th block
// of shape[d]·prod(shape[d+1:]) elements in turn, so every block is one
// copy (one store for blocks of one element, as stack(vs, 1)), rows split
// over goroutines. It reports false, having written nothing, when it does
// not apply.
func catContiguous(out *Tensor, ts []*Tensor, d int) bool {
	if out.Numel() == 0 || !catFast(ts, out.dtype) {
		return false
	}
	outer := numel(out.shape[:d])
	inner := numel(out.shape[d+1:])
	switch out.dtype.ItemSize() {
	case 1:
		catRows[uint8](out, ts, outer, inner)
	case 2:
		catRows[uint16](out, ts, outer, inner)
	case 4:
		catRows[uint32](out, ts, outer, inner)
	case 8:
		catRows[uint64](out, ts, outer, inner)
	default:
		return false
	}
	return true
}

// catFast reports whether catContiguous applies to the inputs ts for a
// result of dtype dt.
func catFast(ts []*Tensor, dt DType) bool {
	if !fastPathsOn() {
		return false
	}
	for _, t := range ts {
		if !catSkipped(t) && (t.dtype != dt || !t.IsContiguous()) {
			return false
		}
	}
	return true
}

// catRows is catContiguous for elements of T's size. With short blocks
// (under a cache line on average: stack of vectors along the last dim) it
// fills tiles of rows whose output fits in L1, taking each input's blocks
// for the whole tile in one sequential read: row by row, the inputs'
// elements r would be hundreds of loads from lines that alias the same
// cache sets (page-aligned inputs) and miss.
func catRows[T uint8 | uint16 | uint32 | uint64](out *Tensor, ts []*Tensor, outer, inner int) {
	srcs := make([][]T, 0, len(ts))
	for _, t := range ts {
		if !catSkipped(t) && t.Numel() > 0 {
			srcs = append(srcs, typed[T](t.storage)[t.offset:t.offset+t.Numel()])
		}
	}
	o := typed[T](out.storage)[:out.Numel()]
	row := len(o) / outer
	var z T
	isz := int(unsafe.Sizeof(z))
	if row*isz >= 64*len(srcs) {
		parallelTasks(outer, row, parallelGrain, func(r0, r1 int) {
			for r := r0; r < r1; r++ {
				dst := o[r*row : (r+1)*row]
				p := 0
				for _, s := range srcs {
					c := len(s) / outer
					copy(dst[p:p+c], s[r*c:(r+1)*c])
					p += c
				}
			}
		})
		return
	}
	tile := max(1, (16<<10)/(row*isz)) // rows per tile: 16 KiB of output
	tiles := (outer + tile - 1) / tile
	parallelTasks(tiles, tile*row, parallelGrain, func(t0, t1 int) {
		for r0 := t0 * tile; r0 < min(t1*tile, outer); r0 += tile {
			r1 := min(r0+tile, outer)
			p := 0
			for _, s := range srcs {
				c := len(s) / outer
				if c == 1 {
					for r, v := range s[r0:r1] {
						o[(r0+r)*row+p] = v
					}
				} else {
					for r := r0; r < r1; r++ {
						copy(o[r*row+p:r*row+p+c], s[r*c:(r+1)*c])
					}
				}
				p += c
			}
		}
	})
}

// Stack joins tensors of identical shape along a new dim.
func Stack(ts []*Tensor, dim int) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, errorf(RuntimeError, "stack expects a non-empty TensorList")
	}
	d, err := wrapDim(dim, len(ts[0].shape)+1)
	if err != nil {
		return nil, err
	}
	for i, t := range ts {
		if t == nil {
			return nil, errorf(TypeError, "stack(): tensor %d is nil", i)
		}
		if !shapeEq(t.shape, ts[0].shape) {
			return nil, errorf(RuntimeError, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", fmtList(ts[0].shape), fmtList(t.shape), i)
		}
	}
	// inputs of one dtype, contiguous: straight into the result (t is
	// already laid out as t.unsqueeze(d))
	if catFast(ts, ts[0].dtype) {
		sh := slices.Insert(slices.Clone(ts[0].shape), d, len(ts))
		if out := empty(sh, ts[0].dtype); catContiguous(out, ts, d) {
			return out, nil
		}
	}
	us := make([]*Tensor, len(ts))
	for i, t := range ts {
		us[i], _ = t.Unsqueeze(d)
	}
	return Cat(us, d)
}

// Split splits t along dim into views of splitSize elements (the last may
// be smaller).
func (t *Tensor) Split(splitSize, dim int) ([]*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if len(t.shape) == 0 {
		return nil, errorf(RuntimeError, "split expects at least a 1-dimensional tensor")
	}
	if splitSize < 0 || (splitSize == 0 && t.shape[d] != 0) {
		return nil, errorf(RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of %d", t.shape[d])
	}
	n := t.shape[d]
	var out []*Tensor
	if n == 0 {
		v, _ := t.Narrow(d, 0, 0)
		return []*Tensor{v}, nil
	}
	for s := 0; s < n; s += splitSize {
		v, _ := t.Narrow(d, s, min(splitSize, n-s))
		out = append(out, v)
	}
	return out, nil
}

// SplitSizes splits t along dim into views with the given sizes, which
// must sum to the dim's size.
func (t *Tensor) SplitSizes(sizes []int, dim int) ([]*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if len(t.shape) == 0 {
		return nil, errorf(RuntimeError, "split expects at least a 1-dimensional tensor")
	}
	sum := 0
	for _, s := range sizes {
		if s < 0 {
			return nil, errorf(RuntimeError, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", fmtList(sizes))
		}
		sum += s
	}
	if sum != t.shape[d] {
		return nil, errorf(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", t.shape[d], d, fmtList(sizes))
	}
	out := make([]*Tensor, len(sizes))
	pos := 0
	for i, s := range sizes {
		out[i], _ = t.Narrow(d, pos, s)
		pos += s
	}
	return out, nil
}

// Chunk splits t into at most n views along dim of size ceil(size/n);
// an empty dim gives n empty views, as PyTorch's chunk.
func (t *Tensor) Chunk(n, dim int) ([]*Tensor, error) {
	if n <= 0 {
		return nil, errorf(RuntimeError, "chunk expects `chunks` to be greater than 0, got: %d", n)
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if len(t.shape) == 0 {
		return nil, errorf(RuntimeError, "chunk expects at least a 1-dimensional tensor")
	}
	size := 0
	if t.shape[d] > 0 {
		size = (t.shape[d]-1)/n + 1 // ceil without overflowing for huge n
	}
	if size == 0 {
		size = 1
		if t.shape[d] == 0 {
			// PyTorch: n empty chunks of an empty dim
			if n > 1<<24 {
				return nil, errorf(RuntimeError, "chunk: %d empty chunks of an empty dimension are too many", n)
			}
			out := make([]*Tensor, n)
			for i := range out {
				out[i], _ = t.Narrow(d, 0, 0)
			}
			return out, nil
		}
	}
	return t.Split(size, d)
}

// Sort sorts t along dim (negative wraps; a 0-d t is one element),
// returning the values (t's dtype) and their i64 indices along dim, both
// new tensors of t's shape laid out like a dense t (else contiguous), as
// PyTorch's. The sort is stable: equal values
// keep their input order, also when descending. NaN sorts last ascending
// and first descending, and -0.0 equals 0.0, as PyTorch's
// sort(stable=True). Algorithm: each row is mapped to integer order keys
// (sortkeys.go) and sorted by an LSD radix sort (pdqsort for rows shorter
// than 256), rows in parallel.
func Sort(t *Tensor, dim int, descending bool) (*Tensor, *Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, nil, err
	}
	n := 1
	if len(t.shape) > 0 {
		n = t.shape[d]
	}
	v, i := sortedSelect(t, d, n, descending)
	return layoutLike(v, t), layoutLike(i, t), nil
}

// layoutLike returns r, a new contiguous result of t's shape, laid out as
// PyTorch lays out ops that keep their input's memory format (sort, flip:
// they allocate with empty_like): r itself when t is contiguous or not
// dense, else a copy with t's strides (x.t().sort(1) is transposed).
func layoutLike(r, t *Tensor) *Tensor {
	if t.IsContiguous() || !t.IsNonOverlappingAndDense() {
		return r
	}
	return r.CloneLayoutOf(t)
}

// Argsort returns the i64 indices that sort t along dim (Sort's order).
func Argsort(t *Tensor, dim int, descending bool) (*Tensor, error) {
	_, i, err := Sort(t, dim, descending)
	return i, err
}

// Topk returns the k largest (largest) or smallest elements along dim and
// their i64 indices, in sorted order (descending for largest): shape t's
// with dim of size k. Among equal values the lower index comes first, the
// order of Sort (PyTorch's order among ties depends on its partial sort
// and is unspecified); NaN counts as larger than every number. k outside
// [0, size] is a RuntimeError. Algorithm: a bounded max-heap of the k
// best (key, index) pairs streamed over each row when k <= size/8, else a
// full row sort; rows in parallel.
func Topk(t *Tensor, k, dim int, largest bool) (*Tensor, *Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, nil, err
	}
	size := 1
	if len(t.shape) > 0 {
		size = t.shape[d]
	}
	if k < 0 || k > size {
		return nil, nil, errorf(RuntimeError, "selected index k out of range")
	}
	v, i := sortedSelect(t, d, k, largest)
	return v, i, nil
}

// Flip reverses the order of elements along dims: a copy laid out like a
// dense t (else contiguous), as PyTorch's.
func Flip(t *Tensor, dims []int) (*Tensor, error) {
	w, err := wrapDims(dims, len(t.shape))
	if err != nil {
		return nil, err
	}
	if t.Numel() == 0 || len(t.shape) == 0 {
		return t.Clone(), nil
	}
	flip := make([]bool, len(t.shape))
	for _, d := range w {
		flip[d] = true
	}
	if fastPathsOn() {
		return flipFast(t, flip), nil
	}
	return flipGeneric(t, flip), nil
}

// flipGeneric is Flip's reference path: one element at a time, by offsets.
func flipGeneric(t *Tensor, flip []bool) *Tensor {
	out := t.Clone()
	// negative strides are internal only here: build via element offsets
	n := t.Numel()
	isz := t.dtype.ItemSize()
	src := t.Contiguous().storage.Bytes()
	so := t.Contiguous().offset
	dst := out.storage.Bytes()
	idx := make([]int, len(t.shape))
	cs := contiguousStrides(t.shape)
	for i := 0; i < n; i++ {
		rem := i
		off := 0
		for k := len(t.shape) - 1; k >= 0; k-- {
			idx[k] = rem % t.shape[k]
			rem /= t.shape[k]
			j := idx[k]
			if flip[k] {
				j = t.shape[k] - 1 - j
			}
			off += j * cs[k]
		}
		copy(dst[i*isz:(i+1)*isz], src[(so+off)*isz:(so+off+1)*isz])
	}
	return layoutLike(out, t)
}

// Roll shifts elements along dims by shifts (wrapping around); with no
// dims the tensor is flattened, rolled and reshaped.
func Roll(t *Tensor, shifts, dims []int) (*Tensor, error) {
	if len(dims) == 0 {
		if len(shifts) != 1 {
			return nil, errorf(RuntimeError, "shifts and dimensions must align. shifts: %d, dims:0", len(shifts))
		}
		f, _ := t.Contiguous().Reshape(-1)
		r, err := Roll(f, shifts, []int{0})
		if err != nil {
			return nil, err
		}
		return r.Reshape(t.shape...)
	}
	if len(shifts) != len(dims) {
		return nil, errorf(RuntimeError, "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims))
	}
	if len(t.shape) == 0 {
		return nil, errNoDims(dims[0])
	}
	cur := t
	for i, dim := range dims {
		d, err := wrapDim(dim, len(t.shape))
		if err != nil {
			return nil, err
		}
		n := cur.shape[d]
		if n == 0 {
			continue
		}
		s := ((shifts[i] % n) + n) % n
		if s == 0 {
			continue
		}
		if fastPathsOn() {
			cur = rollDim(cur, d, s)
			continue
		}
		a, _ := cur.Narrow(d, n-s, s)
		b, _ := cur.Narrow(d, 0, n-s)
		if cur, err = Cat([]*Tensor{a, b}, d); err != nil {
			return nil, err
		}
	}
	if cur == t {
		return t.Clone(), nil
	}
	return cur, nil
}

// Repeat tiles t: repeats has at least t.Dim() entries (extra leading
// entries add dims); the result has size shape[i]*repeats[i].
func (t *Tensor) Repeat(repeats ...int) (*Tensor, error) {
	if len(repeats) < len(t.shape) {
		return nil, errorf(RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	for _, r := range repeats {
		if r < 0 {
			return nil, errorf(RuntimeError, "Trying to create tensor with negative dimension %d: %s", r, fmtList(repeats))
		}
	}
	pad := len(repeats) - len(t.shape)
	src := t
	for i := 0; i < pad; i++ {
		src, _ = src.Unsqueeze(0)
	}
	// view as [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...]
	var esh, xsh, fin []int
	for i, s := range src.shape {
		esh = append(esh, 1, s)
		xsh = append(xsh, repeats[i], s)
		fin = append(fin, repeats[i]*s)
	}
	v, err := src.Reshape(esh...)
	if err != nil {
		return nil, err
	}
	e, err := v.Expand(xsh...)
	if err != nil {
		return nil, err
	}
	return e.Contiguous().Reshape(fin...)
}

// Gather picks values along dim: out[i][j] = t[index[i][j]][j] (dim 0),
// with index an integer tensor of t's rank whose sizes do not exceed t's
// outside dim; the result has index's shape and t's dtype. An index
// outside [0, size) is a RuntimeError, as PyTorch's gather. The copy walks
// index in C order with typed element loads (raw bits by element size).
func Gather(t *Tensor, dim int, index *Tensor) (*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if index.dtype.IsFloat() || index.dtype == Bool {
		return nil, errorf(RuntimeError, "gather(): Expected dtype int64 for index")
	}
	out := empty(index.shape, t.dtype)
	if index.Numel() == 0 { // checks no shapes, as PyTorch's gather
		return out, nil
	}
	if len(index.shape) != len(t.shape) && t.Numel() > 0 {
		return nil, errorf(RuntimeError, "Index tensor must have the same number of dimensions as input tensor")
	}
	for k := range index.shape {
		if k != d && index.shape[k] > t.shape[k] {
			return nil, errorf(RuntimeError, "Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d", k, fmtList(index.shape), fmtList(t.shape), d)
		}
	}
	if fastPathsOn() && len(index.shape) > 0 && len(index.shape) == len(t.shape) {
		ix := index.toDType(I64)
		iv := ix.storage.I64()
		switch t.dtype.ItemSize() {
		case 1:
			err = gatherFast(typed[uint8](out.storage), typed[uint8](t.storage), iv, ix, t, d)
		case 2:
			err = gatherFast(typed[uint16](out.storage), typed[uint16](t.storage), iv, ix, t, d)
		case 4:
			err = gatherFast(typed[uint32](out.storage), typed[uint32](t.storage), iv, ix, t, d)
		case 8:
			err = gatherFast(typed[uint64](out.storage), typed[uint64](t.storage), iv, ix, t, d)
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	ic := index.toDType(I64).Contiguous()
	iv := ic.storage.I64()[ic.offset : ic.offset+ic.Numel()]
	switch t.dtype.ItemSize() {
	case 1:
		err = gatherBits(typed[uint8](out.storage), typed[uint8](t.storage), iv, t, index.shape, d)
	case 2:
		err = gatherBits(typed[uint16](out.storage), typed[uint16](t.storage), iv, t, index.shape, d)
	case 4:
		err = gatherBits(typed[uint32](out.storage), typed[uint32](t.storage), iv, t, index.shape, d)
	case 8:
		err = gatherBits(typed[uint64](out.storage), typed[uint64](t.storage), iv, t, index.shape, d)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// gatherBits copies s[offset(i with coordinate d replaced by iv[i])] to
// d[i] for every C-order position i of shape: an odometer over all dims
// but the last gives each row's base offset (without dim d), the inner
// loop runs along the last dim.
func gatherBits[T bitsT](o, s []T, iv []int64, t *Tensor, shape []int, d int) error {
	nd := len(shape)
	if nd == 0 {
		v := iv[0]
		if v != 0 {
			return errorf(RuntimeError, "index %d is out of bounds for dimension 0 with size 1", v)
		}
		o[0] = s[t.offset]
		return nil
	}
	last := nd - 1
	n := shape[last]
	size, std := int64(t.shape[d]), t.strides[d]
	stl := t.strides[last]
	if last == d {
		stl = 0
	}
	idx := make([]int, last)
	base := t.offset
	for r := 0; ; r++ {
		row := iv[r*n : (r+1)*n]
		orow := o[r*n : (r+1)*n]
		for j, v := range row {
			if v < 0 || v >= size {
				return errorf(RuntimeError, "index %d is out of bounds for dimension %d with size %d", v, d, size)
			}
			orow[j] = s[base+j*stl+int(v)*std]
		}
		k := last - 1
		for ; k >= 0; k-- {
			sk := t.strides[k]
			if k == d {
				sk = 0 // dim d's coordinate comes from the index values
			}
			idx[k]++
			base += sk
			if idx[k] < shape[k] {
				break
			}
			base -= sk * shape[k]
			idx[k] = 0
		}
		if k < 0 {
			return nil
		}
	}
}
