package stdlib

import (
	"fmt"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Metadata and memory attributes of tensors (LANGUAGE.md section 5).

func init() {
	defProp("shape", func(x *TensorValue) (runtime.Value, error) { return shapeList(x.t.Shape()), nil })
	defProp("ndim", func(x *TensorValue) (runtime.Value, error) { return runtime.MakeInt(int64(x.t.Dim())), nil })
	defProp("dtype", func(x *TensorValue) (runtime.Value, error) { return dtypeVal(x.t.DType()), nil })
	defProp("device", func(x *TensorValue) (runtime.Value, error) { return cpuDevice, nil })
	defProp("is_cuda", func(x *TensorValue) (runtime.Value, error) { return runtime.Bool(false), nil })
	defProp("nbytes", func(x *TensorValue) (runtime.Value, error) { return runtime.MakeInt(int64(x.t.NBytes())), nil })
	defProp("itemsize", func(x *TensorValue) (runtime.Value, error) { return runtime.MakeInt(int64(x.t.ElementSize())), nil })
	defProp("_version", func(x *TensorValue) (runtime.Value, error) { return runtime.MakeInt(x.t.Version()), nil })
	defProp("T", func(x *TensorValue) (runtime.Value, error) { return x.result(bigTOp(x.eng, x.t)) })
	defProp("mT", func(x *TensorValue) (runtime.Value, error) {
		if x.t.Dim() < 2 {
			return nil, runtime.Errorf("RuntimeError", "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", x.t.Dim())
		}
		return x.result(transposeOp(x.eng, x.t, -2, -1))
	})
	// x.data: detached, with a version counter of its own (PyTorch's
	// variable_data; detach() shares x's counter).
	defProp("data", func(x *TensorValue) (runtime.Value, error) { return wrap(x.eng, x.t.WithOwnVersion()), nil })

	defMethod("size", "size(dim=none): the shape as a list, or the size of one dim (int).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d intOpt
		if err := runtime.UnpackArgs("size", args, kwargs, "dim?", &d); err != nil {
			return nil, err
		}
		if !d.ok {
			return shapeList(x.t.Shape()), nil
		}
		n, err := normDimStrict(d.v, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return runtime.MakeInt(int64(x.t.Shape()[n])), nil
	})
	defMethod("stride", "stride(dim=none): the strides (in elements) as a tuple, or one dim's stride.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d intOpt
		if err := runtime.UnpackArgs("stride", args, kwargs, "dim?", &d); err != nil {
			return nil, err
		}
		if !d.ok {
			return intTuple(x.t.Strides()), nil
		}
		n, err := normDimStrict(d.v, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return runtime.MakeInt(int64(x.t.Strides()[n])), nil
	})
	intMethod := func(name, doc string, f func(t *T) int64) {
		defMethod(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := runtime.UnpackArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			return runtime.MakeInt(f(x.t)), nil
		})
	}
	boolMethod := func(name, doc string, f func(t *T) bool) {
		defMethod(name, doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := runtime.UnpackArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			return runtime.Bool(f(x.t)), nil
		})
	}
	intMethod("dim", "dim(): the number of dims.", func(t *T) int64 { return int64(t.Dim()) })
	intMethod("ndimension", "ndimension(): the number of dims.", func(t *T) int64 { return int64(t.Dim()) })
	intMethod("numel", "numel(): the number of elements.", func(t *T) int64 { return int64(t.Numel()) })
	intMethod("nelement", "nelement(): the number of elements.", func(t *T) int64 { return int64(t.Numel()) })
	intMethod("storage_offset", "storage_offset(): offset of element 0 in the storage, in elements.", func(t *T) int64 { return int64(t.StorageOffset()) })
	intMethod("data_ptr", "data_ptr(): address of element 0 (storage base + offset * element_size); 0 for an empty tensor.", func(t *T) int64 { return int64(t.DataPtr()) })
	intMethod("element_size", "element_size(): bytes per element.", func(t *T) int64 { return int64(t.ElementSize()) })
	boolMethod("is_contiguous", "is_contiguous(): whether the strides are C-contiguous.", func(t *T) bool { return t.IsContiguous() })
	boolMethod("is_pinned", "is_pinned(): whether the memory is page-locked (never, on the cpu build).", func(t *T) bool { return false })
	boolMethod("is_floating_point", "is_floating_point(): whether the dtype is a float dtype.", func(t *T) bool { return t.DType().IsFloat() })

	defMethod("untyped_storage", "untyped_storage(): the storage the tensor views (data_ptr(), nbytes(), size()).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("untyped_storage", args, kwargs); err != nil {
			return nil, err
		}
		return &storageValue{s: x.t.Storage()}, nil
	})
	defMethod("pin_memory", "pin_memory(): copy into page-locked memory (needs CUDA: a RuntimeError on this machine).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("pin_memory", args, kwargs); err != nil {
			return nil, err
		}
		return nil, pinError()
	})
	defMethod("item", "item(): the value of a one-element tensor as an int, float or bool.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("item", args, kwargs); err != nil {
			return nil, err
		}
		return itemOf(x.t)
	})
	defMethod("tolist", "tolist(): nested lists of ints, floats or bools (a scalar for 0-d).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("tolist", args, kwargs); err != nil {
			return nil, err
		}
		return tolist(x.t), nil
	})
	defMethod("to", "to(device|dtype|tensor, dtype=, device=, non_blocking=false, copy=false): convert dtype (device must be cpu).", methodTo)
	defMethod("cpu", "cpu(): the tensor itself (tensors live on the cpu).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("cpu", args, kwargs); err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("cuda", "cuda(): move to the GPU (not available in this build: RuntimeError).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return nil, checkCPU(&DeviceValue{typ: "cuda", index: -1})
	})
	for _, c := range []struct {
		name string
		dt   tensor.DType
	}{{"half", tensor.F16}, {"bfloat16", tensor.BF16}, {"float", tensor.F32}, {"double", tensor.F64},
		{"int", tensor.I32}, {"long", tensor.I64}, {"short", tensor.I16}, {"char", tensor.I8},
		{"byte", tensor.U8}, {"bool", tensor.Bool}} {
		c := c
		defMethod(c.name, fmt.Sprintf("%s(): convert to %s.", c.name, c.dt), func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := runtime.UnpackArgs(c.name, args, kwargs); err != nil {
				return nil, err
			}
			return x.result(toPreserveOp(engineOf(th), x.t, c.dt))
		})
	}
	defMethod("type", "type(dtype=none): with no argument the dtype's name, else to(dtype).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dtypeOpt
		if err := runtime.UnpackArgs("type", args, kwargs, "dtype?", &d); err != nil {
			return nil, err
		}
		if !d.ok {
			return runtime.String(x.t.DType().String()), nil
		}
		return x.result(toPreserveOp(engineOf(th), x.t, d.dt))
	})
}

// normDimStrict normalises a dim for size(d)/stride(d): a 0-d tensor has no
// dims to ask about.
func normDimStrict(d, ndim int) (int, error) {
	if ndim == 0 {
		return 0, runtime.Errorf("IndexError", "dimension specified as %d but tensor has no dimensions", d)
	}
	return normDim(d, ndim)
}

// result wraps an op result with x's engine.
func (x *TensorValue) result(t *T, err error) (runtime.Value, error) {
	if err != nil {
		return nil, err
	}
	return wrap(x.eng, t), nil
}

func methodTo(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var dev runtime.Value = runtime.None
	var d dtypeOpt
	var nonBlocking, copyFlag bool
	// positional: to(dtype), to(device), to(device, dtype), to(tensor)
	var pos []runtime.Value
	for _, a := range args {
		switch v := a.(type) {
		case *DTypeValue:
			if d.ok {
				return nil, runtime.Errorf("TypeError", "to() received two dtypes")
			}
			d = dtypeOpt{dt: v.dt, ok: true}
		case *DeviceValue, runtime.String:
			dev = v
		case *TensorValue:
			d = dtypeOpt{dt: v.t.DType(), ok: true}
		case runtime.Bool:
			pos = append(pos, v)
		default:
			return nil, runtime.Errorf("TypeError", "to() received an invalid combination of arguments: %s", a.Type())
		}
	}
	pairs := []any{"non_blocking?", &nonBlocking, "copy?", &copyFlag}
	if len(pos) > 0 || len(kwargs) > 0 {
		var kdev runtime.Value = runtime.None
		var kd dtypeOpt
		if err := runtime.UnpackArgs("to", pos, kwargs, append(pairs, "dtype?", &kd, "device?", &kdev)...); err != nil {
			return nil, err
		}
		if kd.ok {
			d = kd
		}
		if kdev != runtime.None {
			dev = kdev
		}
	}
	dv, err := deviceArg(dev)
	if err != nil {
		return nil, err
	}
	if err := checkCPU(dv); err != nil {
		return nil, err
	}
	r := x.t
	e := engineOf(th)
	if d.ok {
		if r, err = toPreserveOp(e, r, d.dt); err != nil {
			return nil, err
		}
	}
	if copyFlag && r == x.t {
		if r, err = clonePreserveOp(e, r); err != nil {
			return nil, err
		}
	}
	if r == x.t {
		return x, nil
	}
	return wrap(x.eng, r), nil
}

// storageValue is x.untyped_storage().
type storageValue struct{ s *tensor.Storage }

func (s *storageValue) String() string {
	return fmt.Sprintf("<untyped_storage of %d bytes>", s.s.NBytes())
}
func (s *storageValue) Type() string { return "untyped_storage" }
func (s *storageValue) Truth() bool  { return true }

// Attr returns the storage methods data_ptr, nbytes and size.
func (s *storageValue) Attr(name string) (runtime.Value, error) {
	var v int64
	switch name {
	case "data_ptr":
		v = int64(s.s.DataPtr())
	case "nbytes", "size":
		v = int64(s.s.NBytes())
	default:
		return nil, nil
	}
	return runtime.NewBuiltin(name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		return runtime.MakeInt(v), nil
	}), nil
}

// AttrNames lists the methods.
func (s *storageValue) AttrNames() []string { return []string{"data_ptr", "nbytes", "size"} }
