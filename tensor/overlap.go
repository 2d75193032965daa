package tensor

import "slices"

// PyTorch's memory-overlap checks for writes (ATen's MemoryOverlap.cpp):
// copy_ rejects a source that partially overlaps the destination
// (assert_no_partial_overlap), index_put_ any overlap between the
// written-to tensor and the value or an index (assert_no_overlap).
// Overlap is decided as get_overlap_status does: only for two
// non-overlapping, dense tensors of one storage, by their byte ranges;
// anything else (a strided slice, an expanded view) is "too hard" and
// allowed. The CopyInplace and IndexPut kernels themselves stay lenient
// (they clone an overlapping source); the interpreter runs these checks
// before them, as PyTorch's copy_ and x[i] = v do.

// overlapKind is get_overlap_status's answer.
type overlapKind uint8

const (
	overlapNo      overlapKind = iota
	overlapFull                // the same elements in the same order
	overlapPartial             // shared bytes, but not element for element
	overlapTooHard             // not both non-overlapping and dense
)

// overlapStatus is ATen's get_overlap_status(a, b).
func overlapStatus(a, b *Tensor) overlapKind {
	if a == b {
		return overlapFull
	}
	if a.Numel() == 0 || b.Numel() == 0 {
		return overlapNo
	}
	if !a.IsNonOverlappingAndDense() || !b.IsNonOverlappingAndDense() {
		return overlapTooHard
	}
	if a.storage != b.storage {
		return overlapNo
	}
	aBegin, bBegin := a.offset*a.dtype.ItemSize(), b.offset*b.dtype.ItemSize()
	aEnd, bEnd := aBegin+a.Numel()*a.dtype.ItemSize(), bBegin+b.Numel()*b.dtype.ItemSize()
	if aBegin == bBegin && aEnd == bEnd {
		if slices.Equal(a.strides, b.strides) {
			return overlapFull
		}
		return overlapPartial
	}
	if aBegin < bEnd && bBegin < aEnd {
		return overlapPartial
	}
	return overlapNo
}

func errPartialOverlap() error {
	return errorf(RuntimeError, "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.")
}

// CheckNoPartialOverlap returns PyTorch's RuntimeError ("unsupported
// operation: some elements of the input tensor and the written-to tensor
// refer to a single memory location. Please clone() the tensor before
// performing the operation.") when src partially overlaps dst, the check
// copy_(dst, src) makes: both must be non-overlapping and dense views of
// one storage whose byte ranges intersect without being the same
// elements with the same strides. dst == src, disjoint ranges, and
// strided or expanded views (PyTorch's "too hard" case) pass.
func CheckNoPartialOverlap(dst, src *Tensor) error {
	if overlapStatus(dst, src) == overlapPartial {
		return errPartialOverlap()
	}
	return nil
}

// CheckNoOverlap is CheckNoPartialOverlap that also rejects a full
// overlap (the same elements), as PyTorch's assert_no_overlap (index_put_
// between the written-to tensor and its value or index tensors).
func CheckNoOverlap(dst, src *Tensor) error {
	if s := overlapStatus(dst, src); s == overlapPartial || s == overlapFull {
		return errPartialOverlap()
	}
	return nil
}

// CheckAssignOverlap returns the overlap error PyTorch raises for the
// basic-index assignment view[...] = src (at::indexing::copy_to): src of
// view's shape is checked as copy_ checks it; a 0-d src is a fill and
// never overlaps; any other src is first stripped of leading size-1 dims
// and expanded to view's shape (a broadcast view is "too hard" and
// passes). An src that cannot expand is left to AssignInplace's error.
func CheckAssignOverlap(view, src *Tensor) error {
	if slices.Equal(view.shape, src.shape) {
		return CheckNoPartialOverlap(view, src)
	}
	if len(src.shape) == 0 {
		return nil
	}
	b, err := src.StripLeadingOnes(len(view.shape)).Expand(view.shape...)
	if err != nil {
		return nil
	}
	return CheckNoPartialOverlap(view, b)
}

// CheckIndexPutOverlap returns the overlap error PyTorch's index_put_
// raises for t[items] = value with advanced (tensor) items: the view left
// by the basic items must not overlap value or any index tensor
// (CheckNoOverlap), unless the assignment is a masked fill (a single
// bool/u8 index and a one-element value), which PyTorch does not check.
// Malformed items are left to IndexPut's errors.
func (t *Tensor) CheckIndexPutOverlap(items []Index, value *Tensor) error {
	var tensors []*Tensor
	mask := false
	for _, it := range items {
		if it.Kind == IdxTensor && it.T != nil {
			tensors = append(tensors, it.T)
			mask = it.T.dtype == Bool || it.T.dtype == U8
		}
	}
	if len(tensors) == 1 && mask && value.Numel() == 1 {
		return nil
	}
	v, ok := t.basicView(items)
	if !ok {
		return nil
	}
	if err := CheckNoOverlap(v, value); err != nil {
		return err
	}
	for _, x := range tensors {
		if err := CheckNoOverlap(v, x); err != nil {
			return err
		}
	}
	return nil
}

// basicView applies the basic items of an advanced index to t, skipping
// the dims the tensor items index (a 0-d bool item inserts a dim, as in
// applyBasic); false when the items do not fit t.
func (t *Tensor) basicView(items []Index) (*Tensor, bool) {
	consumed := 0
	for _, it := range items {
		switch it.Kind {
		case IdxInt, IdxSlice:
			consumed++
		case IdxTensor:
			if it.T == nil {
				return nil, false
			}
			if it.T.dtype == Bool || it.T.dtype == U8 {
				consumed += len(it.T.shape)
			} else {
				consumed++
			}
		}
	}
	if consumed > len(t.shape) {
		return nil, false
	}
	v, dim := t, 0
	var err error
	for _, it := range items {
		switch it.Kind {
		case IdxInt:
			if dim >= len(v.shape) {
				return nil, false
			}
			v, err = v.Select(dim, it.I)
		case IdxSlice:
			v, err = v.Slice(dim, it.Start, it.Stop, it.Step)
			dim++
		case IdxNewAxis:
			v, err = v.Unsqueeze(dim)
			dim++
		case IdxEllipsis:
			dim += len(t.shape) - consumed
		case IdxTensor:
			if (it.T.dtype == Bool || it.T.dtype == U8) && len(it.T.shape) == 0 {
				v, err = v.Unsqueeze(dim)
				dim++
			} else if it.T.dtype == Bool || it.T.dtype == U8 {
				dim += len(it.T.shape)
			} else {
				dim++
			}
		}
		if err != nil {
			return nil, false
		}
	}
	return v, true
}

// CheckNoInternalOverlap returns PyTorch's RuntimeError ("unsupported
// operation: more than one element of the written-to tensor refers to a
// single memory location. Please clone() the tensor before performing
// the operation.") when two elements of t share memory through a
// stride-0 dim of size > 1 (an expanded view), ATen's
// assert_no_internal_overlap.
func (t *Tensor) CheckNoInternalOverlap() error {
	return t.checkWritable()
}
