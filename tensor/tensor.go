// Package tensor is tsr's tensor runtime core: strided storage and views,
// dtypes and PyTorch type promotion, broadcasting elementwise ops,
// reductions, matmul, indexing and joining.
//
// A Tensor is a view (storage, shape, strides, storage offset, dtype):
// element (i0, ..., in) lives at storage element offset + sum(ik*sk).
// View functions (View, Transpose, Permute, Expand, Narrow, AsStrided,
// Slice, basic indexing, ...) never copy: they share the storage and its
// version counter. Ops that compute return new contiguous tensors; in-place
// ops (methods ending in Inplace) write into the receiver and bump its
// version counter exactly once, through markWritten.
//
// Every fallible function returns an error of type *Error carrying a
// Python exception kind (RuntimeError, IndexError, ValueError, TypeError);
// no function panics on bad input.
//
// Tensors are not safe for concurrent mutation. Distinct tensors (and
// storages) may be used from different goroutines; the only shared mutable
// state is the allocator's pool and counters, which are synchronised.
package tensor

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/tsrlang/tsr/numfmt"
)

// Node is an autograd graph node (the grad_fn of a tensor). This is a
// placeholder the autograd code extends.
type Node interface{ Name() string }

// Tensor is a strided view of a Storage. See the package doc.
type Tensor struct {
	storage *Storage
	shape   []int
	strides []int // in elements; may be 0 (expand) but never negative
	offset  int   // storage offset in elements
	dtype   DType
	wrapped bool // a Python number wrapped as a 0-d tensor (promotion rules)
	// version is the tensor's own version counter (x.data, WithOwnVersion;
	// shared with its views), or nil for the storage's.
	version *atomic.Int64

	// Autograd slots, owned by the autograd code.
	requiresGrad bool
	grad         *Tensor
	gradFn       Node
	base         *Tensor // for views: the tensor whose storage this views; nil otherwise
	outputNr     int
	// attrVersion is, for a view, the version when its grad_fn was set
	// (or it was made): PyTorch's attr_version (see refreshView).
	attrVersion int64
	// creation (and creationOut, the output index for ViewMultiOutput)
	// records how a view was made, for autograd's in-place checks.
	creation    ViewCreation
	creationOut int
	// AutogradMeta holds anything else autograd needs per tensor.
	AutogradMeta any
}

// newTensor wraps storage s with the given metadata (no checks).
func newTensor(s *Storage, shape, strides []int, offset int, dt DType) *Tensor {
	s.refs.Add(1)
	return &Tensor{storage: s, shape: shape, strides: strides, offset: offset, dtype: dt}
}

// contiguousStrides returns C-order strides for shape.
func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= max(shape[i], 1)
	}
	return st
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		if s != 0 && n > math.MaxInt/s {
			// The count overflows an int: saturate (so an allocation
			// fails with a MemoryError instead of wrapping to a small
			// storage), unless a later dim is 0.
			if slices.Contains(shape, 0) {
				return 0
			}
			return math.MaxInt
		}
		n *= s
	}
	return n
}

// empty allocates a contiguous tensor (contents unspecified).
func empty(shape []int, dt DType) *Tensor {
	sh := append([]int(nil), shape...)
	return newTensor(newStorage(dt, numel(sh), false), sh, contiguousStrides(sh), 0, dt)
}

// zeros allocates a contiguous zero-filled tensor.
func zeros(shape []int, dt DType) *Tensor {
	sh := append([]int(nil), shape...)
	return newTensor(newStorage(dt, numel(sh), true), sh, contiguousStrides(sh), 0, dt)
}

// view makes a view of t with new metadata; base is t's root.
func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	v := newTensor(t.storage, shape, strides, offset, t.dtype)
	v.version = t.version
	v.attrVersion = v.Version()
	v.creation = t.creation // a view of a view keeps its origin (as output 0 of its own op)
	if t.base != nil {
		v.base = t.base
	} else {
		v.base = t
	}
	return v
}

// checkShape validates a user shape (no negative sizes).
func checkShape(shape []int) error {
	n := 1
	for _, s := range shape {
		if s < 0 {
			return errorf(RuntimeError, "Trying to create tensor with negative dimension %d: %s", s, fmtList(shape))
		}
		if s != 0 && n > math.MaxInt/s {
			n = -1 // overflow, unless a later size is 0
			continue
		}
		if n >= 0 {
			n *= s
		}
	}
	if n < 0 {
		for _, s := range shape {
			if s == 0 {
				return nil
			}
		}
		return errorf(RuntimeError, "numel: integer multiplication overflow: the shape %s has more elements than an int64 can count", fmtList(shape))
	}
	return nil
}

// ---- metadata ----

// Shape returns the sizes. The slice is the tensor's own: do not modify it.
func (t *Tensor) Shape() []int { return t.shape }

// Strides returns the strides in elements. The slice is the tensor's own:
// do not modify it.
func (t *Tensor) Strides() []int { return t.strides }

// Size returns the size of dim d (negative d counts from the end); an out
// of range dim is an IndexError.
func (t *Tensor) Size(d int) (int, error) {
	d, err := wrapDim(d, len(t.shape))
	if err != nil || len(t.shape) == 0 {
		return 0, err
	}
	return t.shape[d], nil
}

// Stride returns the stride of dim d in elements (negative d wraps).
func (t *Tensor) Stride(d int) (int, error) {
	d, err := wrapDim(d, len(t.shape))
	if err != nil || len(t.shape) == 0 {
		return 0, err
	}
	return t.strides[d], nil
}

// Dim returns the number of dimensions.
func (t *Tensor) Dim() int { return len(t.shape) }

// Numel returns the number of elements.
func (t *Tensor) Numel() int { return numel(t.shape) }

// StorageOffset returns the offset of element 0 in the storage, in elements.
func (t *Tensor) StorageOffset() int { return t.offset }

// DType returns the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Device returns "cpu".
func (t *Tensor) Device() string { return "cpu" }

// Storage returns the underlying storage.
func (t *Tensor) Storage() *Storage { return t.storage }

// ElementSize returns the size of one element in bytes.
func (t *Tensor) ElementSize() int { return t.dtype.ItemSize() }

// NBytes returns Numel()*ElementSize() (PyTorch's nbytes).
func (t *Tensor) NBytes() int { return t.Numel() * t.dtype.ItemSize() }

// DataPtr returns the address of element 0: storage base + offset*itemsize,
// or 0 for a tensor of no elements (PyTorch 1.13's data_ptr()).
func (t *Tensor) DataPtr() uintptr {
	if t.Numel() == 0 {
		return 0 // PyTorch's TensorImpl::data(): an empty tensor has no address
	}
	return t.storage.DataPtr() + uintptr(t.offset*t.dtype.ItemSize())
}

// Version returns the storage's version counter (PyTorch's _version).
// A tensor made by WithOwnVersion (and its views) has a counter of its own.
func (t *Tensor) Version() int64 {
	if t.version != nil {
		return t.version.Load()
	}
	return t.storage.Version()
}

// IsView reports whether t is a view of another tensor.
func (t *Tensor) IsView() bool { return t.base != nil }

// Base returns the tensor whose storage t views (nil when not a view).
func (t *Tensor) Base() *Tensor { return t.base }

// IsWrappedNumber reports whether t is a Python number wrapped as a 0-d
// tensor (see ScalarFloat), which promotes with lower priority.
func (t *Tensor) IsWrappedNumber() bool { return t.wrapped }

// IsContiguous reports C-contiguity; dims of size 1 ignore their stride and
// an empty tensor is contiguous, as in PyTorch.
func (t *Tensor) IsContiguous() bool { return isContiguous(t.shape, t.strides) }

func isContiguous(shape, strides []int) bool {
	for _, s := range shape {
		if s == 0 {
			return true
		}
	}
	exp := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] != 1 {
			if strides[i] != exp {
				return false
			}
			exp *= shape[i]
		}
	}
	return true
}

// OwnsStorage reports whether t is the only tensor ever created over its
// storage (no views, not a view) and covers all of it in row-major order:
// offset 0, C-order strides, as many elements of t's dtype as the storage
// holds. Writing into such a tensor changes no other tensor.
func (t *Tensor) OwnsStorage() bool {
	if t.base != nil || t.storage == nil || t.storage.refs.Load() != 1 || t.offset != 0 ||
		t.storage.dtype != t.dtype || t.storage.Len() != t.Numel() {
		return false
	}
	st := 1
	for d := len(t.shape) - 1; d >= 0; d-- {
		if t.strides[d] != st {
			return false
		}
		st *= t.shape[d]
	}
	return true
}

// Share records a reference to t kept outside the tensors created over its
// storage (autograd's saved tensors): from then on t does not own its
// storage (OwnsStorage) and Release declines.
func (t *Tensor) Share() {
	if t.storage != nil {
		t.storage.refs.Add(1)
	}
}

// Release hands t's storage buffer back to the allocator pool when t is the
// only tensor ever created over that storage (no views, not a view, not
// Shared) and reports whether it did. The caller asserts that t, and any slice obtained
// from its storage, is not used afterwards (t becomes an empty tensor).
// Dropping a tensor without Release is always safe: the GC reclaims it.
func (t *Tensor) Release() bool {
	if t.base != nil || t.storage == nil || t.storage.refs.Load() != 1 {
		return false
	}
	t.storage.release()
	t.shape, t.strides, t.offset = []int{0}, []int{1}, 0
	return true
}

// ReleaseShared is Release for a tensor whose storage was Shared exactly
// shares times, by holders the caller speaks for (autograd's saved
// tensors of nodes being freed): it hands the buffer back when t is
// otherwise the only tensor over its storage, and reports whether it did.
// The caller asserts that none of those holders reads t again.
func (t *Tensor) ReleaseShared(shares int32) bool {
	if t.base != nil || t.storage == nil || t.storage.refs.Load() != 1+shares {
		return false
	}
	t.storage.release()
	t.shape, t.strides, t.offset = []int{0}, []int{1}, 0
	return true
}

// ---- autograd slot accessors ----

// RequiresGrad reports whether gradients are tracked for t.
func (t *Tensor) RequiresGrad() bool {
	t.refreshView()
	return t.requiresGrad
}

// GradFn returns the node that produced t (nil for leaves). For a view
// whose storage was written in place since its grad_fn was set, that is
// a node on its base's current history (refreshView).
func (t *Tensor) GradFn() Node {
	t.refreshView()
	return t.gradFn
}

// viewGradFnHook is the autograd package's (SetViewGradFnHook).
var viewGradFnHook func(view *Tensor) Node

// SetViewGradFnHook installs f, which returns a view's grad_fn rebuilt on
// its base's current history (nil to keep the old one). The autograd
// package installs it.
func SetViewGradFnHook(f func(view *Tensor) Node) { viewGradFnHook = f }

// refreshView is PyTorch's VariableHooks::grad_fn for views: when t is a
// view with a grad_fn and the shared version counter moved since it was
// set (an in-place op on the base or another view), t's grad_fn is
// rebuilt on the base's current history. (A view recorded without a
// grad_fn, e.g. made under no_grad, is left alone; PyTorch rebuilds it
// when it was made in grad mode, and raises for one made under no_grad.)
func (t *Tensor) refreshView() {
	if t.base == nil || t.gradFn == nil || viewGradFnHook == nil {
		return
	}
	v := t.Version()
	if v == t.attrVersion {
		return
	}
	t.attrVersion = v
	if n := viewGradFnHook(t); n != nil {
		t.gradFn, t.outputNr, t.requiresGrad = n, 0, true
	}
}

// ViewCreation is how a view was made, as far as autograd's in-place
// checks care (PyTorch's CreationMeta): an in-place op with grad mode on
// is an error on a view made in no_grad mode from a tensor that requires
// grad, or on one of several views returned by one op (split, chunk,
// unbind). A view of such a view inherits its creation.
type ViewCreation uint8

const (
	ViewDefault     ViewCreation = iota
	ViewNoGrad                   // made with grad mode off from a tensor that requires grad
	ViewMultiOutput              // one of several views one op returned
)

// ViewCreation returns how t was made as a view and, for
// ViewMultiOutput, which of the op's outputs it is.
func (t *Tensor) ViewCreation() (ViewCreation, int) { return t.creation, t.creationOut }

// SetViewCreation records how t was made as a view (the autograd engine
// and multi-output view ops call it); out is t's output index for
// ViewMultiOutput.
func (t *Tensor) SetViewCreation(c ViewCreation, out int) { t.creation, t.creationOut = c, out }

// Grad returns the accumulated gradient (nil when none).
func (t *Tensor) Grad() *Tensor { return t.grad }

// IsLeaf reports whether t has no grad_fn (PyTorch's is_leaf).
func (t *Tensor) IsLeaf() bool { return t.GradFn() == nil }

// OutputNr is the index of t among its grad_fn's outputs.
func (t *Tensor) OutputNr() int { return t.outputNr }

// ---- element access ----

// loadF64 reads storage element i of dtype dt as float64.
func loadF64(s *Storage, dt DType, i int) float64 {
	switch dt {
	case F32:
		return float64(s.F32()[i])
	case F64:
		return s.F64()[i]
	case F16:
		return float64(F16ToF32(s.U16()[i]))
	case BF16:
		return float64(BF16ToF32(s.U16()[i]))
	case I8:
		return float64(s.I8()[i])
	case I16:
		return float64(s.I16()[i])
	case I32:
		return float64(s.I32()[i])
	case I64:
		return float64(s.I64()[i])
	case U8:
		return float64(s.U8()[i])
	case Bool:
		if s.U8()[i] != 0 {
			return 1
		}
		return 0
	}
	return 0
}

// loadI64 reads storage element i as int64 (floats truncate toward zero).
func loadI64(s *Storage, dt DType, i int) int64 {
	switch dt {
	case I8:
		return int64(s.I8()[i])
	case I16:
		return int64(s.I16()[i])
	case I32:
		return int64(s.I32()[i])
	case I64:
		return s.I64()[i]
	case U8, Bool:
		return int64(s.U8()[i])
	}
	return f64ToI64(loadF64(s, dt, i))
}

// f64ToI64 converts like a C cast but defined for NaN/inf/out of range
// (saturating; NaN -> MinInt64, as x86 does).
func f64ToI64(v float64) int64 {
	if v != v || v >= 9.223372036854775807e18 || v < -9.223372036854775808e18 {
		return math.MinInt64
	}
	return int64(v)
}

// storeF64 writes v into storage element i, converting to dt (floats round
// to nearest; integers truncate toward zero and wrap; bool is v != 0).
func storeF64(s *Storage, dt DType, i int, v float64) {
	switch dt {
	case F32:
		s.F32()[i] = float32(v)
	case F64:
		s.F64()[i] = v
	case F16:
		s.U16()[i] = F32ToF16(float32(v))
	case BF16:
		s.U16()[i] = F32ToBF16(float32(v))
	case Bool:
		s.Bools()[i] = v != 0
	default:
		storeI64(s, dt, i, f64ToI64(v))
	}
}

// storeI64 writes integer v into storage element i of dtype dt.
func storeI64(s *Storage, dt DType, i int, v int64) {
	switch dt {
	case I8:
		s.I8()[i] = int8(v)
	case I16:
		s.I16()[i] = int16(v)
	case I32:
		s.I32()[i] = int32(v)
	case I64:
		s.I64()[i] = v
	case U8:
		s.U8()[i] = uint8(v)
	case Bool:
		s.Bools()[i] = v != 0
	default:
		storeF64(s, dt, i, float64(v))
	}
}

// elemOffset computes the storage index of idx, checking bounds.
func (t *Tensor) elemOffset(idx []int) (int, error) {
	if len(idx) != len(t.shape) {
		return 0, errorf(IndexError, "expected %d indices for a tensor of shape %s, got %d", len(t.shape), fmtList(t.shape), len(idx))
	}
	off := t.offset
	for d, i := range idx {
		n := t.shape[d]
		if i < -n || i >= n {
			return 0, errorf(IndexError, "index %d is out of bounds for dimension %d with size %d", i, d, n)
		}
		if i < 0 {
			i += n
		}
		off += i * t.strides[d]
	}
	return off, nil
}

// flatOffset returns the storage index of the element with C-order flat
// index i (no bounds check).
func (t *Tensor) flatOffset(i int) int {
	off := t.offset
	for d := len(t.shape) - 1; d >= 0; d-- {
		n := t.shape[d]
		off += (i % n) * t.strides[d]
		i /= n
	}
	return off
}

// Float64At returns element idx (negative indices wrap) as float64.
func (t *Tensor) Float64At(idx ...int) (float64, error) {
	off, err := t.elemOffset(idx)
	if err != nil {
		return 0, err
	}
	return loadF64(t.storage, t.dtype, off), nil
}

// Int64At returns element idx as int64 (floats truncate toward zero).
func (t *Tensor) Int64At(idx ...int) (int64, error) {
	off, err := t.elemOffset(idx)
	if err != nil {
		return 0, err
	}
	return loadI64(t.storage, t.dtype, off), nil
}

// SetFloat64At writes v (converted to the dtype) at idx. It is a raw
// store: it does not bump the version counter (use IndexPut/FillInplace for
// tracked writes).
func (t *Tensor) SetFloat64At(v float64, idx ...int) error {
	off, err := t.elemOffset(idx)
	if err != nil {
		return err
	}
	storeF64(t.storage, t.dtype, off, v)
	return nil
}

// FlatFloat64 returns the element with C-order flat index i as float64.
func (t *Tensor) FlatFloat64(i int) float64 { return loadF64(t.storage, t.dtype, t.flatOffset(i)) }

// FlatInt64 returns the element with C-order flat index i as int64.
func (t *Tensor) FlatInt64(i int) int64 { return loadI64(t.storage, t.dtype, t.flatOffset(i)) }

// FlatBool returns whether the element with C-order flat index i is nonzero.
func (t *Tensor) FlatBool(i int) bool { return loadF64(t.storage, t.dtype, t.flatOffset(i)) != 0 }

// Item returns the value of a one-element tensor: float64 for float dtypes,
// int64 for integer dtypes, bool for bool. Other sizes are a RuntimeError
// with PyTorch's text.
func (t *Tensor) Item() (any, error) {
	if t.Numel() != 1 {
		return nil, errorf(RuntimeError, "a Tensor with %d elements cannot be converted to Scalar", t.Numel())
	}
	switch {
	case t.dtype.IsFloat():
		return t.FlatFloat64(0), nil
	case t.dtype == Bool:
		return t.FlatBool(0), nil
	default:
		return t.FlatInt64(0), nil
	}
}

// ToFloat64s returns all elements in C order as float64 (a copy).
func (t *Tensor) ToFloat64s() []float64 {
	out := make([]float64, t.Numel())
	if len(out) == 0 {
		return out
	}
	c := t
	if t.dtype != F64 {
		c, _ = t.To(F64)
	}
	c = c.Contiguous()
	copy(out, c.storage.F64()[c.offset:c.offset+len(out)])
	return out
}

// ToInt64s returns all elements in C order as int64 (a copy; floats
// truncate toward zero).
func (t *Tensor) ToInt64s() []int64 {
	out := make([]int64, t.Numel())
	if len(out) == 0 {
		return out
	}
	c := t
	if t.dtype != I64 {
		c, _ = t.To(I64)
	}
	c = c.Contiguous()
	copy(out, c.storage.I64()[c.offset:c.offset+len(out)])
	return out
}

// ToBools returns all elements in C order as bool (nonzero is true).
func (t *Tensor) ToBools() []bool {
	out := make([]bool, t.Numel())
	for i := range out {
		out[i] = t.FlatBool(i)
	}
	return out
}

// String renders t the way PyTorch prints it under its default print
// options (Format with numfmt.DefaultPrintOptions).
func (t *Tensor) String() string { return t.Format(numfmt.DefaultPrintOptions()) }

// Format renders t the way PyTorch prints it under print options o (via
// numfmt.FormatTensorOpts), with a dtype suffix unless the dtype is f32,
// i64 or bool, and requires_grad / grad_fn suffixes.
func (t *Tensor) Format(o numfmt.PrintOptions) string {
	td := numfmt.TensorData{Shape: t.shape}
	switch {
	case t.dtype.IsFloat():
		td.Kind = numfmt.Float
		td.Float = t.FlatFloat64
	case t.dtype == Bool:
		td.Kind = numfmt.Bool
		td.Bool = t.FlatBool
	default:
		td.Kind = numfmt.Int
		td.Int = t.FlatInt64
	}
	// PyTorch omits the default dtypes (and bool, which reads from the
	// values) — except for an empty tensor, whose dtype cannot be read off
	// its values: there only the default float is implied.
	if t.dtype != F32 && (t.Numel() == 0 || t.dtype != I64 && t.dtype != Bool) {
		td.Suffix = append(td.Suffix, "dtype="+t.dtype.String())
	}
	if gf := t.GradFn(); gf != nil {
		td.Suffix = append(td.Suffix, "grad_fn=<"+gf.Name()+">")
	} else if t.requiresGrad {
		td.Suffix = append(td.Suffix, "requires_grad=true")
	}
	return numfmt.FormatTensorOpts(td, o)
}
