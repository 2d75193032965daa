package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// put and put_ (PyTorch 1.13, ATen's put_ in TensorAdvancedIndexing.cpp):
// self is treated as flattened in row-major (logical) order whatever its
// strides; source's elements, in row-major order, are written (or added,
// accumulate=true) at the flat positions index gives, negative indices
// counting from the end. Autograd (PutBackward0): self's gradient is the
// output's with the written positions zeroed (unchanged when
// accumulating), source's is the output's gradient read at index
// (grad.take(index), so every duplicate receives it).

func init() {
	put := func(pos int) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			e := engineOf(th)
			index, source, accumulate, err := putArgs("put", pos, args, kwargs)
			if err != nil {
				return nil, err
			}
			if err := checkPut(x.t, index, source, false); err != nil {
				return nil, err
			}
			c, err := clonePreserveOp(e, x.t)
			if err != nil {
				return nil, err
			}
			cv := wrap(x.eng, c)
			if _, err := inplaceFrom(e, cv, func() (*T, error) { return putOp(e, c, index, source, accumulate) }); err != nil {
				return nil, err
			}
			if c.GradFn() != nil {
				autograd.SetGradFnName(c, "PutBackward0")
			}
			return cv, nil
		}
	}
	const putDoc = "put(index, source, accumulate=false): a copy of self (laid out as self) with self.flatten()[index[i]] = source.flatten()[i] (added when accumulate); index i64 of any shape with source's element count, negative entries counting from the end; source of self's dtype."
	defMethod("put", putDoc, put(1))
	defFunctional("put", putDoc, put(2))
	defMethod("put_", "put_(index, source, accumulate=false): put in place (self must not be an expanded view, nor overlap index or source); returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		e := engineOf(th)
		index, source, accumulate, err := putArgs("put_", 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		if err := e.CheckInplace(x.t); err != nil {
			return nil, err
		}
		if err := checkPut(x.t, index, source, true); err != nil {
			return nil, err
		}
		v, err := inplaceFrom(e, x, func() (*T, error) { return putOp(e, x.t, index, source, accumulate) })
		if err == nil && x.t.Base() == nil && x.t.GradFn() != nil {
			autograd.SetGradFnName(x.t, "PutBackward0")
		}
		return v, err
	})
}

// putArgs parses (index, source, accumulate=false) with PyTorch's
// TypeError for a non-tensor index or source.
// pos is index's argument position in the message (1 for a method, 2
// for the function).
func putArgs(name string, pos int, args []runtime.Value, kwargs []runtime.Kwarg) (index, source *T, accumulate bool, err error) {
	var iv, sv runtime.Value
	if err = runtime.UnpackArgs(name, args, kwargs, "index", &iv, "source", &sv, "accumulate?", &accumulate); err != nil {
		return nil, nil, false, err
	}
	for i, a := range []struct {
		v    runtime.Value
		name string
		t    **T
	}{{iv, "index", &index}, {sv, "source", &source}} {
		tv, ok := a.v.(*TensorValue)
		if !ok {
			return nil, nil, false, runtime.Errorf("TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", name, a.name, pos+i, a.v.Type())
		}
		*a.t = tv.t
	}
	return index, source, accumulate, nil
}

// checkPut makes put_'s checks in ATen's order: the index dtype, the
// source dtype, the element counts, an empty self, and (in place) the
// overlap of self with itself, index and source.
func checkPut(x, index, source *T, inplace bool) error {
	if index.DType() != tensor.I64 {
		return runtime.Errorf("RuntimeError", "put_(): Expected a long tensor for index, but got %s", kernels.TorchName(index.DType()))
	}
	if source.DType() != x.DType() {
		return runtime.Errorf("RuntimeError", "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s", kernels.TorchName(x.DType()), kernels.TorchName(source.DType()))
	}
	if source.Numel() != index.Numel() {
		return runtime.Errorf("IndexError", "put_(): Expected source and index to have the same number of elements, but got source.numel() = %d, index.numel() = %d", source.Numel(), index.Numel())
	}
	if x.Numel() == 0 && index.Numel() != 0 {
		return runtime.Errorf("IndexError", "put_(): Tried to put elements into an empty tensor")
	}
	if !inplace {
		return nil
	}
	if err := x.CheckNoInternalOverlap(); err != nil {
		return err
	}
	for _, o := range []*T{index, source} {
		if err := tensor.CheckNoOverlap(x, o); err != nil {
			return err
		}
	}
	return nil
}

// putOp returns x with source written (or added) at the flat positions
// index gives, recorded as one differentiable step (see scatterOp).
// Indices outside [-numel, numel) are PyTorch's IndexError.
func putOp(e *Engine, x, index, source *T, accumulate bool) (*T, error) {
	n := int64(x.Numel())
	iv := index.ToInt64s()
	dpos, spos := make([]int, len(iv)), make([]int, len(iv))
	for k, v := range iv {
		if v < -n || v >= n {
			return nil, runtime.Errorf("IndexError", "out of range: tried to access index %d on a tensor of %d elements.", v, n)
		}
		if v < 0 {
			v += n
		}
		dpos[k], spos[k] = int(v), k
	}
	return scatterOp(e, "PutBackward", x, source, 0, dpos, spos, accumulate, 1)
}
