package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"slices"
)

// View methods (no copy; they share storage and version counter) and
// joining/splitting (LANGUAGE.md section 5).

func noArgs(name string, args []runtime.Value, kwargs []runtime.Kwarg) error {
	return runtime.UnpackArgs(name, args, kwargs)
}

// shapeMethod reads shape varargs or a list, also given as the keyword
// name kw (view(size=...), reshape(shape=...)).
func shapeMethodArgs(name, kw string, args []runtime.Value, kwargs []runtime.Kwarg) ([]int, error) {
	if len(args) == 0 {
		var s shapeArg
		if err := runtime.UnpackArgs(name, nil, kwargs, kw, &s); err != nil {
			return nil, err
		}
		return s.shape, nil
	}
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", name, kwargs[0].Name)
	}
	return shapeVarargs(name, args)
}

func init() {
	defMethod("view", "view(*shape): a view with a new shape (one size may be -1); RuntimeError when the strides do not allow it (use reshape). view(dtype): the same bytes read as dtype (a view sharing the storage, not differentiable); with a different element size the last dim must have stride 1 and changes length (see tensor.ViewDType).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var dv runtime.Value
		switch {
		case len(args) == 1 && len(kwargs) == 0:
			dv = args[0]
		case len(args) == 0 && len(kwargs) == 1 && kwargs[0].Name == "dtype":
			dv = kwargs[0].Value
		}
		if d, ok := dv.(*DTypeValue); ok {
			return x.result(x.t.ViewDType(d.dt))
		}
		shape, err := shapeMethodArgs("view", "size", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(viewOp(engineOf(th), x.t, shape))
	})
	reshape := func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		shape, err := shapeMethodArgs("reshape", "shape", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(reshapeOp(engineOf(th), x.t, shape))
	}
	defMethodFunc("reshape", "reshape(*shape): a view when the strides allow, else a copy.", reshape)
	defMethod("view_as", "view_as(other): view(other.shape).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("view_as", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(viewOp(engineOf(th), x.t, o.t.Shape()))
	})
	defMethod("reshape_as", "reshape_as(other): reshape(other.shape).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("reshape_as", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(reshapeOp(engineOf(th), x.t, o.t.Shape()))
	})
	defMethodFunc("t", "t(): transpose of a tensor of at most 2 dims.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("t", args, kwargs); err != nil {
			return nil, err
		}
		return x.result(tOp(engineOf(th), x.t))
	})
	transpose := func(name string) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var d0, d1 int
			if err := runtime.UnpackArgs(name, args, kwargs, "dim0", &d0, "dim1", &d1); err != nil {
				return nil, err
			}
			return x.result(transposeOp(engineOf(th), x.t, d0, d1))
		}
	}
	defMethodFunc("transpose", "transpose(dim0, dim1): swap two dims (a view).", transpose("transpose"))
	defMethodFunc("swapaxes", "swapaxes(dim0, dim1): transpose.", transpose("swapaxes"))
	defMethodFunc("permute", "permute(*dims): reorder dims (a view).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		dims, err := shapeMethodArgs("permute", "dims", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(permuteOp(engineOf(th), x.t, dims))
	})
	defMethod("expand", "expand(*sizes): broadcast to sizes without copying (stride 0 on expanded dims; -1 keeps a size).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		shape, err := shapeMethodArgs("expand", "size", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(expandOp(engineOf(th), x.t, shape))
	})
	defMethod("expand_as", "expand_as(other): expand(other.shape).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		if err := runtime.UnpackArgs("expand_as", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(expandOp(engineOf(th), x.t, o.t.Shape()))
	})
	defMethodFunc("unsqueeze", "unsqueeze(dim): insert a size-1 dim.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d int
		if err := runtime.UnpackArgs("unsqueeze", args, kwargs, "dim", &d); err != nil {
			return nil, err
		}
		return x.result(unsqueezeOp(engineOf(th), x.t, d))
	})
	defMethodFunc("squeeze", "squeeze(dim=none): remove size-1 dims (all, or the given ones).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		if err := runtime.UnpackArgs("squeeze", args, kwargs, "dim?", &d); err != nil {
			return nil, err
		}
		return x.result(squeezeOp(engineOf(th), x.t, d.dims))
	})
	defMethodFunc("flatten", "flatten(start_dim=0, end_dim=-1): merge dims start..end.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		s, e := 0, -1
		if err := runtime.UnpackArgs("flatten", args, kwargs, "start_dim?", &s, "end_dim?", &e); err != nil {
			return nil, err
		}
		if x.t.Dim() == 0 {
			// PyTorch checks the dims as if the tensor were 1-D.
			for _, d := range []int{s, e} {
				if _, err := normDim(d, 0); err != nil {
					return nil, err
				}
			}
			return x.result(reshapeOp(engineOf(th), x.t, []int{1}))
		}
		return x.result(flattenOp(engineOf(th), x.t, s, e))
	})
	defMethodFunc("unflatten", "unflatten(dim, sizes): split one dim into sizes.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d int
		var sizes shapeArg
		if err := runtime.UnpackArgs("unflatten", args, kwargs, "dim", &d, "sizes", &sizes); err != nil {
			return nil, err
		}
		return x.result(unflattenOp(engineOf(th), x.t, d, sizes.shape))
	})
	defMethodFunc("narrow", "narrow(dim, start, length): elements start..start+length-1 of dim (a view).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d, s, l int
		if err := runtime.UnpackArgs("narrow", args, kwargs, "dim", &d, "start", &s, "length", &l); err != nil {
			return nil, err
		}
		return x.result(narrowOp(engineOf(th), x.t, d, s, l))
	})
	defMethodFunc("select", "select(dim, index): index one dim, removing it (a view).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d, i int
		if err := runtime.UnpackArgs("select", args, kwargs, "dim", &d, "index", &i); err != nil {
			return nil, err
		}
		return x.result(selectOp(engineOf(th), x.t, d, i))
	})
	defMethodFunc("diagonal", "diagonal(offset=0, dim1=0, dim2=1): the diagonal as a view (appended as the last dim).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		off, d1, d2 := 0, 0, 1
		if err := runtime.UnpackArgs("diagonal", args, kwargs, "offset?", &off, "dim1?", &d1, "dim2?", &d2); err != nil {
			return nil, err
		}
		return x.result(diagonalOp(engineOf(th), x.t, off, d1, d2))
	})
	defMethod("unfold", "unfold(dimension, size, step): sliding windows along a dim as a view (new last dim of length size).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d, size, step int
		if err := runtime.UnpackArgs("unfold", args, kwargs, "dimension", &d, "size", &size, "step", &step); err != nil {
			return nil, err
		}
		if step <= 0 {
			return nil, runtime.Errorf("RuntimeError", "step is %d but must be > 0", step)
		}
		return x.result(unfoldOp(engineOf(th), x.t, d, size, step))
	})
	movedim := func(name string) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var src, dst shapeArg
			if err := runtime.UnpackArgs(name, args, kwargs, "source", &src, "destination", &dst); err != nil {
				return nil, err
			}
			return x.result(movedimOp(engineOf(th), x.t, src.shape, dst.shape))
		}
	}
	defMethodFunc("movedim", "movedim(source, destination): move dims to new positions (a view).", movedim("movedim"))
	defMethodFunc("moveaxis", "moveaxis(source, destination): movedim.", movedim("moveaxis"))
	defMethodFunc("as_strided", "as_strided(size, stride, storage_offset=none): a view with explicit sizes and strides, checked against the storage bounds.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var size, stride shapeArg
		var off intOpt
		if err := runtime.UnpackArgs("as_strided", args, kwargs, "size", &size, "stride", &stride, "storage_offset?", &off); err != nil {
			return nil, err
		}
		o := x.t.StorageOffset()
		if off.ok {
			o = off.v
		}
		return x.result(asStridedOp(engineOf(th), x.t, size.shape, stride.shape, o))
	})
	defMethodFunc("contiguous", "contiguous(memory_format=contiguous_format): the tensor itself when already in that layout (row-major; channels_last: dim 1 innermost, 4-d), else a copy in it.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var mf memoryFormatArg
		if err := runtime.UnpackArgs("contiguous", args, kwargs, "memory_format?", &mf); err != nil {
			return nil, err
		}
		switch mf.name {
		case "preserve_format":
			if !x.t.IsContiguous() {
				return nil, runtime.Errorf("RuntimeError", "preserve memory format is unsupported by the contiguous operator")
			}
		case "channels_last", "channels_last_3d":
			st, err := channelsLastStrides(mf.name, x.t.Shape())
			if err != nil {
				return nil, err
			}
			if slices.Equal(st, x.t.Strides()) {
				return x, nil
			}
			return x.result(cloneFormat(engineOf(th), x.t, mf.name))
		}
		if x.t.IsContiguous() {
			return x, nil
		}
		return x.result(contiguousOp(engineOf(th), x.t))
	})
	defMethodFunc("clone", "clone(*, memory_format=preserve_format): a copy (differentiable); preserve_format keeps a dense tensor's strides (a transposed view stays transposed), else row-major; contiguous_format is row-major; channels_last / channels_last_3d put dim 1 innermost (4-d / 5-d only).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var mf memoryFormatArg
		if err := kwOnly("clone", args, kwargs, "memory_format?", &mf); err != nil {
			return nil, err
		}
		return x.result(cloneFormat(engineOf(th), x.t, mf.name))
	})
	defMethodFunc("split", "split(split_size_or_sections, dim=0): a tuple of views of split_size elements (or the listed sizes) along dim.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var spec runtime.Value
		d := 0
		if err := runtime.UnpackArgs("split", args, kwargs, "split_size_or_sections", &spec, "dim?", &d); err != nil {
			return nil, err
		}
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		if x.t.Dim() == 0 {
			return nil, runtime.Errorf("RuntimeError", "split expects at least a 1-dimensional tensor")
		}
		var sizes []int
		size := x.t.Shape()[nd]
		switch s := spec.(type) {
		case runtime.Int:
			if s <= 0 && !(s == 0 && size == 0) {
				return nil, runtime.Errorf("RuntimeError", "split_size can only be 0 if dimension size is 0, but got dimension size of %d", size)
			}
			for off := 0; off < size || (off == 0 && size == 0); off += int(s) {
				sizes = append(sizes, min(int(s), size-off))
				if size == 0 {
					break
				}
			}
		case *runtime.List, runtime.Tuple:
			ints, ok := runtime.AsInts(s)
			if !ok {
				return nil, runtime.Errorf("TypeError", "split(): split_size_or_sections must be an int or a list of ints")
			}
			total := 0
			for _, v := range ints {
				total += v
			}
			if total != size {
				return nil, runtime.Errorf("RuntimeError", "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", size, nd, intList(ints))
			}
			sizes = ints
		default:
			return nil, runtime.Errorf("TypeError", "split(): split_size_or_sections must be an int or a list of ints, not %s", spec.Type())
		}
		return splitOp(engineOf(th), x, nd, sizes)
	})
	defMethodFunc("chunk", "chunk(chunks, dim=0): split into at most chunks views of ceil(size/chunks) (chunks empty views of an empty dim).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		d := 0
		if err := runtime.UnpackArgs("chunk", args, kwargs, "chunks", &n, "dim?", &d); err != nil {
			return nil, err
		}
		if n <= 0 {
			return nil, runtime.Errorf("RuntimeError", "chunk expects `chunks` to be greater than 0, got: %d", n)
		}
		if x.t.Dim() == 0 {
			return nil, runtime.Errorf("RuntimeError", "chunk expects at least a 1-dimensional tensor")
		}
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		size := x.t.Shape()[nd]
		step := 0
		if size > 0 {
			step = (size-1)/n + 1 // ceil(size/n) without overflowing for huge n
		}
		var sizes []int
		if step == 0 {
			// PyTorch: chunks empty pieces of an empty dim
			if n > 1<<24 {
				return nil, runtime.Errorf("RuntimeError", "chunk: %d empty chunks of an empty dimension are too many", n)
			}
			sizes = make([]int, n)
		}
		for off := 0; step > 0 && off < size; off += step {
			sizes = append(sizes, min(step, size-off))
		}
		return splitOp(engineOf(th), x, nd, sizes)
	})
	defMethodFunc("unbind", "unbind(dim=0): a tuple of the slices along dim.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		d := 0
		if err := runtime.UnpackArgs("unbind", args, kwargs, "dim?", &d); err != nil {
			return nil, err
		}
		if x.t.Dim() == 0 {
			return nil, errNoDims(d)
		}
		nd, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		n := x.t.Shape()[nd]
		out := make(runtime.Tuple, n)
		for i := 0; i < n; i++ {
			r, err := selectOp(engineOf(th), x.t, nd, i)
			if err != nil {
				return nil, err
			}
			autograd.SetGradFnName(r, "UnbindBackward0")
			if r.GradFn() != nil {
				r.SetViewCreation(tensor.ViewMultiOutput, i)
			}
			out[i] = wrap(x.eng, r)
		}
		return out, nil
	})
	defMethodFunc("repeat", "repeat(*sizes): tile the tensor (a copy).", nodeNamed("RepeatBackward0", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		reps, err := shapeMethodArgs("repeat", "repeats", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(repeatOp(engineOf(th), x.t, reps))
	}))
	tri := func(name string, upper bool) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			k := 0
			if err := runtime.UnpackArgs(name, args, kwargs, "diagonal?", &k); err != nil {
				return nil, err
			}
			return x.result(triangleOp(engineOf(th), x.t, k, upper))
		}
	}
	defMethodFunc("triu", "triu(diagonal=0): zero the elements below the diagonal of the last two dims.", nodeNamed("TriuBackward0", tri("triu", true)))
	defMethodFunc("tril", "tril(diagonal=0): zero the elements above the diagonal of the last two dims.", nodeNamed("TrilBackward0", tri("tril", false)))
	for _, c := range []struct {
		name, node string
		upper      bool
	}{{"triu_", "TriuBackward0", true}, {"tril_", "TrilBackward0", false}} {
		c := c
		inplaceMethod(c.name, c.name+"(diagonal=0): "+c.name[:4]+" in place; returns self (an expanded self is refused: its elements share memory).", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			k := 0
			if err := runtime.UnpackArgs(c.name, args, kwargs, "diagonal?", &k); err != nil {
				return nil, "", err
			}
			r, err := triangleOp(e, self, k, c.upper)
			return r, c.node, err
		})
	}
	defMethodFunc("flip", "flip(dims): reverse the order along dims (a copy).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		dims, err := shapeMethodArgs("flip", "dims", args, kwargs)
		if err != nil {
			return nil, err
		}
		nd, err := normDims(dims, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return x.result(flipOp(engineOf(th), x.t, nd))
	})

	defGlobal("as_strided", "as_strided(input, size, stride, storage_offset=none): a checked strided view of input's storage.", functional("as_strided", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return tensorMethods["as_strided"].BindReceiver(x).Call(th, args, kwargs)
	}))
	defGlobal("cat", "cat(tensors, dim=0): concatenate along an existing dim.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return joinOp(th, "cat", args, kwargs)
	})
	globals["concat"] = globals["cat"]
	defGlobal("stack", "stack(tensors, dim=0): join along a new dim.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return joinOp(th, "stack", args, kwargs)
	})
}

func splitOp(e *Engine, x *TensorValue, dim int, sizes []int) (runtime.Value, error) {
	outs, err := e.ApplyMulti("split", []*T{x.t}, autograd.Attrs{"dim": dim, "sizes": sizes}, func() ([]*T, error) {
		return x.t.SplitSizes(sizes, dim)
	})
	if err != nil {
		return nil, err
	}
	r := make(runtime.Tuple, len(outs))
	for i, o := range outs {
		r[i] = wrap(x.eng, o)
	}
	return r, nil
}

func joinOp(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var seq runtime.Value
	d := 0
	if err := runtime.UnpackArgs(name, args, kwargs, "tensors", &seq, "dim?", &d); err != nil {
		return nil, err
	}
	elems, err := runtime.Elements(seq)
	if err != nil {
		return nil, runtime.Errorf("TypeError", "%s(): argument 'tensors' must be a list or tuple of tensors, not %s", name, seq.Type())
	}
	if len(elems) == 0 {
		return nil, runtime.Errorf("RuntimeError", "%s(): expected a non-empty list of Tensors", name)
	}
	ts := make([]*T, len(elems))
	for i, v := range elems {
		x, ok := v.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): expected a list of tensors, but element %d is %s", name, i, v.Type())
		}
		ts[i] = x.t
	}
	e := engineOf(th)
	var r *T
	if name == "cat" {
		nd := d
		// PyTorch skips legacy empty 1-D tensors when picking the rank
		ref := ts[0]
		for _, t := range ts {
			if !(t.Dim() == 1 && t.Numel() == 0) {
				ref = t
				break
			}
		}
		if nd, err = normDim(d, ref.Dim()); err != nil {
			return nil, err
		}
		r, err = e.Apply("cat", ts, autograd.Attrs{"dim": nd}, func() (*T, error) { return tensor.Cat(ts, nd) })
	} else {
		nd, err := normDim(d, ts[0].Dim()+1)
		if err != nil {
			return nil, err
		}
		r, err = e.Apply("stack", ts, autograd.Attrs{"dim": nd}, func() (*T, error) { return tensor.Stack(ts, nd) })
		if err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	return NewTensorValue(th, r), nil
}

// repeatOp tiles x by reps, composed from view, expand and reshape so that
// it is differentiable.
func repeatOp(e *Engine, x *T, reps []int) (*T, error) {
	if len(reps) < x.Dim() {
		return nil, runtime.Errorf("RuntimeError", "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	shape := make([]int, len(reps))
	pad := len(reps) - x.Dim()
	for i := range shape {
		shape[i] = 1
		if i >= pad {
			shape[i] = x.Shape()[i-pad]
		}
	}
	inter := make([]int, 0, 2*len(reps))
	exp := make([]int, 0, 2*len(reps))
	final := make([]int, len(reps))
	for i, r := range reps {
		if r < 0 {
			return nil, runtime.Errorf("RuntimeError", "Trying to create tensor with negative dimension %d: %s", r, intList(reps))
		}
		inter = append(inter, 1, shape[i])
		exp = append(exp, r, shape[i])
		final[i] = r * shape[i]
	}
	v, err := reshapeOp(e, x, inter)
	if err != nil {
		return nil, err
	}
	if v, err = expandOp(e, v, exp); err != nil {
		return nil, err
	}
	return reshapeOp(e, v, final)
}

// triangleOp is triu/tril as where(mask, x, 0), differentiable in x
// (tensor.Triu/Tril when there is no gradient to record).
func triangleOp(e *Engine, x *T, k int, upper bool) (*T, error) {
	switch x.Dim() { // PyTorch wraps dim -2 first
	case 0:
		return nil, runtime.Errorf("IndexError", "Dimension specified as -2 but tensor has no dimensions")
	case 1:
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [-1, 0], but got -2)")
	}
	if !e.GradEnabled() || !x.RequiresGrad() {
		// nothing to record: tensor's row-copy kernel gives the same
		// contiguous result as where(mask, x, 0).contiguous()
		if upper {
			return tensor.Triu(x, k)
		}
		return tensor.Tril(x, k)
	}
	return triangleWhere(e, x, k, upper)
}

// triangleWhere is triu/tril as where(mask, x, 0).contiguous(), recorded
// for autograd (x has at least 2 dims).
func triangleWhere(e *Engine, x *T, k int, upper bool) (*T, error) {
	ones, err := tensor.Ones(x.Shape()[x.Dim()-2:], tensor.Bool)
	if err != nil {
		return nil, err
	}
	var mask *T
	if upper {
		mask, err = tensor.Triu(ones, k)
	} else {
		mask, err = tensor.Tril(ones, k)
	}
	if err != nil {
		return nil, err
	}
	zero := tensor.ScalarInt(0)
	if x.DType() == tensor.Bool {
		zero = tensor.ScalarBool(false)
	}
	r, err := whereOp(e, mask, x, zero)
	if err != nil {
		return nil, err
	}
	// PyTorch's tril/triu return a contiguous tensor whatever x's layout
	// (where would keep a transposed x transposed).
	return contiguousOp(e, r)
}

// flipOp is flip(x, dims) recorded as FlipBackward0 (its own backward, and
// differentiable again).
func flipOp(e *Engine, x *T, dims []int) (*T, error) {
	return e.ApplyLinear("FlipBackward", []*T{x}, func() (*T, error) { return tensor.Flip(x, dims) },
		func(g *T) ([]*T, error) {
			r, err := flipOp(e, g, dims)
			return []*T{r}, err
		}, func(us []*T) (*T, error) { return flipOp(e, us[0], dims) })
}
