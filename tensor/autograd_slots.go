package tensor

import "sync/atomic"

// This file holds the setters the autograd engine (package
// github.com/tsrlang/tsr/tensor/autograd) uses on a tensor's autograd slots.
// They change no data and no version counter; user code should go through
// the autograd package (RequiresGrad_, Detach, Backward), which enforces
// PyTorch's rules.

// SetRequiresGrad sets the requires_grad flag without any check.
func (t *Tensor) SetRequiresGrad(on bool) { t.requiresGrad = on }

// SetGrad sets the accumulated gradient (.grad); nil clears it.
func (t *Tensor) SetGrad(g *Tensor) { t.grad = g }

// SetGradFn sets the autograd node that produced t and t's output index in
// it; a nil node makes t a leaf again.
func (t *Tensor) SetGradFn(n Node, outputNr int) {
	t.gradFn = n
	t.outputNr = outputNr
	if t.base != nil {
		t.attrVersion = t.Version()
	}
}

// ShallowCopy returns a new Tensor header over the same storage, shape,
// strides and offset, with empty autograd slots (the basis of detach()).
// It is not recorded as a view (Base() is nil) but shares the version counter.
func (t *Tensor) ShallowCopy() *Tensor {
	c := newTensor(t.storage, append([]int(nil), t.shape...), append([]int(nil), t.strides...), t.offset, t.dtype)
	c.version = t.version
	return c
}

// Alias returns a new Tensor header over the same storage, shape, strides
// and offset with empty autograd slots, recorded as a view of t (of t's
// base when t is itself a view): the output of an op that returns its
// input unchanged (flatten(d, d), to(same dtype)), so that an in-place
// write through it rebases t's history as PyTorch's, where that output is
// t itself.
func (t *Tensor) Alias() *Tensor {
	return t.view(append([]int(nil), t.shape...), append([]int(nil), t.strides...), t.offset)
}

// WithOwnVersion is ShallowCopy with a version counter of its own,
// starting at 0 and shared only with the copy's views: PyTorch's x.data
// (variable_data), whose in-place writes autograd's version check does
// not see.
func (t *Tensor) WithOwnVersion() *Tensor {
	c := t.ShallowCopy()
	c.version = new(atomic.Int64)
	return c
}

// SetData makes t a header over src's storage, shape, strides, storage
// offset and dtype, as PyTorch's x.data = src (VariableHooks::set_data,
// shallow_copy_from): t stays the same object, keeps its autograd slots
// (requires_grad, grad, grad_fn, base) and continues its version count,
// on a counter of its own (writes through t bump neither src's counter
// nor that of t's old storage; t's existing views keep the old storage's
// counter, where PyTorch's would follow t). The shape may change. The
// caller checks PyTorch's rules (a tensor that requires grad takes a
// float src only); SetData itself checks nothing.
func (t *Tensor) SetData(src *Tensor) {
	if t == src {
		return
	}
	v := new(atomic.Int64)
	v.Store(t.Version())
	src.storage.refs.Add(1)
	t.storage = src.storage
	t.shape = append([]int(nil), src.shape...)
	t.strides = append([]int(nil), src.strides...)
	t.offset = src.offset
	t.dtype = src.dtype
	t.wrapped = false
	t.version = v
}
