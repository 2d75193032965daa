package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// PyTorch names that are aliases or short compositions of ops tsr already
// has: the Tensor methods and torch functions of torch.linalg's operations
// (x.det(), inverse(A), ...), broadcast_shapes/broadcast_tensors,
// empty_strided, promote_types/result_type, std_mean/var_mean, aminmax,
// atleast_Nd, column_stack/dstack/row_stack, linalg.matmul/diagonal/vander.
// Each forwards to the existing builtin at call time, so autograd and the
// error messages are those of the op it forwards to.

func init() {
	// Tensor methods and torch functions that are torch.linalg ops.
	for _, p := range [][2]string{
		{"det", "det"}, {"inverse", "inv"}, {"slogdet", "slogdet"}, {"matrix_power", "matrix_power"},
		{"matrix_exp", "matrix_exp"}, {"pinverse", "pinv"}, {"cholesky", "cholesky"},
	} {
		name, target := p[0], p[1]
		defMethodFunc(name, name+"(A, ...): torch."+name+", the same as linalg."+target+"(A, ...).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			v, err := callLinalg(th, target, append([]runtime.Value{x}, args...), kwargs)
			if nt, ok := v.(*runtime.NamedTuple); ok && err == nil {
				nt.TypeName = name // torch.slogdet's named tuple is "slogdet"
			}
			return v, err
		})
	}
	defMethodFunc("logdet", "logdet(A): log(det(A)) through slogdet: nan where det < 0, -inf where det = 0. Differentiable.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("logdet", args, kwargs); err != nil {
			return nil, err
		}
		sl, err := callLinalg(th, "slogdet", []runtime.Value{x}, nil)
		if err != nil {
			return nil, err
		}
		nt, ok := sl.(*runtime.NamedTuple)
		if !ok || len(nt.Tuple) != 2 {
			return nil, runtime.Errorf("RuntimeError", "logdet: unexpected slogdet result")
		}
		neg, err := callMethod(th, nt.Tuple[0], "lt", []runtime.Value{runtime.Int(0)}, nil)
		if err != nil {
			return nil, err
		}
		return callGlobal(th, "where", []runtime.Value{neg, runtime.Float(math.NaN()), nt.Tuple[1]}, nil)
	})
	defMethodFunc("swapdims", "swapdims(dim0, dim1): transpose.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return callMethod(th, x, "transpose", args, kwargs)
	})
	defMethodFunc("adjoint", "adjoint(): the conjugate transpose of the last two dims (mT for real tensors).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("adjoint", args, kwargs); err != nil {
			return nil, err
		}
		return x.Attr("mT")
	})
	defProp("mH", func(x *TensorValue) (runtime.Value, error) { return x.Attr("mT") })
	defProp("H", func(x *TensorValue) (runtime.Value, error) {
		if n := x.t.Dim(); n != 0 && n != 2 {
			return nil, runtime.Errorf("RuntimeError", "tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.", n)
		}
		return x.Attr("T")
	})
	defMethodFunc("fliplr", "fliplr(): flip dim 1 (the tensor must be at least 2-D).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("fliplr", args, kwargs); err != nil {
			return nil, err
		}
		if x.t.Dim() < 2 {
			return nil, runtime.Errorf("RuntimeError", "Input must be >= 2-d.")
		}
		return callMethod(th, x, "flip", []runtime.Value{runtime.Int(1)}, nil)
	})
	defMethodFunc("flipud", "flipud(): flip dim 0 (the tensor must be at least 1-D).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("flipud", args, kwargs); err != nil {
			return nil, err
		}
		if x.t.Dim() < 1 {
			return nil, runtime.Errorf("RuntimeError", "Input must be >= 1-d.")
		}
		return callMethod(th, x, "flip", []runtime.Value{runtime.Int(0)}, nil)
	})
	defMethodFunc("argwhere", "argwhere(): the indices of the nonzero elements, [count, ndim] (nonzero()).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("argwhere", args, kwargs); err != nil {
			return nil, err
		}
		return callMethod(th, x, "nonzero", nil, nil)
	})
	defMethodFunc("aminmax", "aminmax(dim=none, keepdim=false) -> (min, max): amin and amax in one named tuple.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var dim, keepdim runtime.Value = runtime.None, runtime.Bool(false)
		if len(args) > 0 {
			return nil, runtime.Errorf("TypeError", "aminmax() takes dim and keepdim as keyword arguments only")
		}
		if err := runtime.UnpackArgs("aminmax", nil, kwargs, "dim?", &dim, "keepdim?", &keepdim); err != nil {
			return nil, err
		}
		var kw []runtime.Kwarg
		if dim != runtime.None {
			kw = append(kw, runtime.Kwarg{Name: "dim", Value: dim})
		} else if x.t.Numel() == 0 {
			return nil, runtime.Errorf("RuntimeError", "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
		}
		kw = append(kw, runtime.Kwarg{Name: "keepdim", Value: keepdim})
		lo, err := callMethod(th, x, "amin", nil, kw)
		if err != nil {
			return nil, err
		}
		hi, err := callMethod(th, x, "amax", nil, kw)
		if err != nil {
			return nil, err
		}
		return &runtime.NamedTuple{TypeName: "aminmax", Fields: []string{"min", "max"}, Tuple: runtime.Tuple{lo, hi}}, nil
	})
	for _, name := range []string{"std_mean", "var_mean"} {
		name := name
		defFunctional(name, name+"(input, dim=none, unbiased=true, keepdim=false, correction=1) -> ("+name[:3]+", mean).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			s, err := callMethod(th, x, name[:3], args, kwargs)
			if err != nil {
				return nil, err
			}
			var mkw []runtime.Kwarg
			if len(args) > 0 {
				mkw = append(mkw, runtime.Kwarg{Name: "dim", Value: args[0]})
			}
			for _, kv := range kwargs {
				if kv.Name == "dim" || kv.Name == "keepdim" {
					mkw = append(mkw, kv)
				}
			}
			m, err := callMethod(th, x, "mean", nil, mkw)
			if err != nil {
				return nil, err
			}
			node := "VarMeanBackward0" // PyTorch records one node for both results
			if name == "std_mean" {
				node = "StdMeanBackward0"
			}
			for _, v := range []runtime.Value{s, m} {
				if t, ok := v.(*TensorValue); ok && t.t != x.t {
					autograd.SetGradFnName(t.t, node)
				}
			}
			return runtime.Tuple{s, m}, nil
		})
	}
	defMethod("is_signed", "is_signed(): true unless the dtype is u8 or bool.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("is_signed", args, kwargs); err != nil {
			return nil, err
		}
		dt := x.t.DType()
		return runtime.Bool(dt != tensor.U8 && dt != tensor.Bool), nil
	})
	defMethodFunc("is_complex", "is_complex(): false (tsr has no complex dtypes).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("is_complex", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.Bool(false), nil
	})
	defFunctional("is_floating_point", "is_floating_point(input): true for f16, bf16, f32 and f64 tensors.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return callMethod(th, x, "is_floating_point", args, kwargs)
	})

	defGlobal("empty_strided", "empty_strided(size, stride, dtype=f32, device=cpu, requires_grad=false): a tensor of the given size and strides over a new storage just large enough for it (zero-filled).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var size, stride shapeArg
		var dtype, device runtime.Value = runtime.None, runtime.None
		var reqGrad runtime.Value = runtime.Bool(false)
		if err := runtime.UnpackArgs("empty_strided", args, kwargs, "size", &size, "stride", &stride, "dtype?", &dtype, "device?", &device, "requires_grad?", &reqGrad); err != nil {
			return nil, err
		}
		if len(size.shape) != len(stride.shape) {
			return nil, runtime.Errorf("RuntimeError", "mismatch in length of strides and shape")
		}
		need := 1
		for i, s := range size.shape {
			if s < 0 {
				return nil, runtime.Errorf("RuntimeError", "Trying to create tensor with negative dimension %d: %s", s, fmtInts(size.shape))
			}
			if stride.shape[i] < 0 {
				return nil, runtime.Errorf("RuntimeError", "as_strided: Negative strides are not supported at the moment, got strides: %s", fmtInts(stride.shape))
			}
			if s == 0 {
				need = 0
				break
			}
			need += (s - 1) * stride.shape[i]
		}
		zkw := []runtime.Kwarg{{Name: "dtype", Value: dtype}, {Name: "device", Value: device}}
		base, err := callGlobal(th, "zeros", []runtime.Value{runtime.Int(need)}, zkw)
		if err != nil {
			return nil, err
		}
		v, err := callMethod(th, base, "as_strided", []runtime.Value{intList(size.shape), intList(stride.shape)}, nil)
		if err != nil || !reqGrad.Truth() {
			return v, err
		}
		return callMethod(th, v, "requires_grad_", nil, nil)
	})
	defGlobal("broadcast_shapes", "broadcast_shapes(*shapes): the shape the given shapes broadcast to (a list).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if len(kwargs) > 0 {
			return nil, runtime.Errorf("TypeError", "broadcast_shapes() takes no keyword arguments")
		}
		shapes := make([][]int, len(args))
		for i, a := range args {
			s, ok := runtime.AsInts(a)
			if !ok || isBool(a) {
				return nil, runtime.Errorf("TypeError", "broadcast_shapes(): expected a shape (an int or a list of ints), not %s", a.Type())
			}
			shapes[i] = s
		}
		out, err := tensor.BroadcastShapes(shapes...)
		if err != nil {
			return nil, runtime.Errorf("RuntimeError", "Shape mismatch: objects cannot be broadcast to a single shape")
		}
		return intList(out), nil
	})
	defGlobal("broadcast_tensors", "broadcast_tensors(*tensors): the tensors expanded (as views) to their common broadcast shape, as a tuple.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if len(kwargs) > 0 {
			return nil, runtime.Errorf("TypeError", "broadcast_tensors() takes no keyword arguments")
		}
		if len(args) == 1 {
			if _, ok := args[0].(*TensorValue); !ok {
				elems, err := runtime.Elements(args[0])
				if err != nil {
					return nil, err
				}
				args = elems
			}
		}
		shapes := make([][]int, len(args))
		for i, a := range args {
			x, ok := a.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "broadcast_tensors(): expected tensors, not %s", a.Type())
			}
			shapes[i] = x.t.Shape()
		}
		out, err := tensor.BroadcastShapes(shapes...)
		if err != nil {
			return nil, err
		}
		res := make(runtime.Tuple, len(args))
		for i, a := range args {
			if res[i], err = callMethod(th, a, "expand", []runtime.Value{intList(out)}, nil); err != nil {
				return nil, err
			}
		}
		return res, nil
	})
	defGlobal("promote_types", "promote_types(type1, type2): the dtype PyTorch's type promotion gives two tensors of these dtypes.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var a, c runtime.Value
		if err := runtime.UnpackArgs("promote_types", args, kwargs, "type1", &a, "type2", &c); err != nil {
			return nil, err
		}
		da, ok1 := dtypeOf(a)
		dc, ok2 := dtypeOf(c)
		if !ok1 || !ok2 {
			return nil, runtime.Errorf("TypeError", "promote_types(): expected two dtypes")
		}
		return dtypeVal(tensor.Promote(da, dc)), nil
	})
	defGlobal("result_type", "result_type(tensor1, tensor2): the dtype of a binary op between two tensors or numbers (0-d tensors and numbers only matter across categories).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var a, c operandArg
		if err := runtime.UnpackArgs("result_type", args, kwargs, "tensor1", &a, "tensor2", &c); err != nil {
			return nil, err
		}
		return dtypeVal(tensor.ResultType(a.t, c.t)), nil
	})
	defGlobal("get_default_dtype", "get_default_dtype(): f32.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("get_default_dtype", args, kwargs); err != nil {
			return nil, err
		}
		return dtypeVal(tensor.DefaultFloat), nil
	})
	for _, n := range []int{1, 2, 3} {
		n := n
		name := "atleast_" + string(rune('0'+n)) + "d"
		defGlobal(name, name+"(*tensors): each tensor viewed with at least "+string(rune('0'+n))+" dims (one tensor in, one out; several: a tuple).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if len(kwargs) > 0 {
				return nil, runtime.Errorf("TypeError", "%s() takes no keyword arguments", name)
			}
			single := len(args) == 1
			if single {
				if _, ok := args[0].(*TensorValue); !ok {
					elems, err := runtime.Elements(args[0])
					if err != nil {
						return nil, err
					}
					args, single = elems, false
				}
			}
			res := make(runtime.Tuple, len(args))
			for i, a := range args {
				x, ok := a.(*TensorValue)
				if !ok {
					return nil, runtime.Errorf("TypeError", "%s(): expected tensors, not %s", name, a.Type())
				}
				v, err := atleastND(th, x, n)
				if err != nil {
					return nil, err
				}
				res[i] = v
			}
			if single {
				return res[0], nil
			}
			return res, nil
		})
	}
	defGlobal("column_stack", "column_stack(tensors): hstack after making 0-d and 1-D tensors columns [n, 1].", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var seq runtime.Value
		if err := runtime.UnpackArgs("column_stack", args, kwargs, "tensors", &seq); err != nil {
			return nil, err
		}
		elems, err := runtime.Elements(seq)
		if err != nil {
			return nil, err
		}
		cols := make([]runtime.Value, len(elems))
		for i, a := range elems {
			x, ok := a.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "column_stack(): expected tensors, not %s", a.Type())
			}
			if x.t.Dim() <= 1 {
				if cols[i], err = callMethod(th, x, "reshape", []runtime.Value{runtime.Int(x.t.Numel()), runtime.Int(1)}, nil); err != nil {
					return nil, err
				}
			} else {
				cols[i] = x
			}
		}
		return callGlobal(th, "hstack", []runtime.Value{runtime.NewList(cols)}, nil)
	})
	defGlobal("dstack", "dstack(tensors): cat along dim 2 after atleast_3d.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var seq runtime.Value
		if err := runtime.UnpackArgs("dstack", args, kwargs, "tensors", &seq); err != nil {
			return nil, err
		}
		elems, err := runtime.Elements(seq)
		if err != nil {
			return nil, err
		}
		ts := make([]runtime.Value, len(elems))
		for i, a := range elems {
			x, ok := a.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "dstack(): expected tensors, not %s", a.Type())
			}
			if ts[i], err = atleastND(th, x, 3); err != nil {
				return nil, err
			}
		}
		return callGlobal(th, "cat", []runtime.Value{runtime.NewList(ts), runtime.Int(2)}, nil)
	})
	aliasGlobal("row_stack", "vstack")
	aliasGlobal("concatenate", "cat")
	aliasGlobal("concat", "cat")
}

// args0 returns the argument named name (the first positional, or the
// keyword).
func args0(args []runtime.Value, kwargs []runtime.Kwarg, name string) runtime.Value {
	if len(args) > 0 {
		return args[0]
	}
	for _, kv := range kwargs {
		if kv.Name == name {
			return kv.Value
		}
	}
	return runtime.None
}

func linalgVander(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var nv runtime.Value = runtime.None
	if err := runtime.UnpackArgs("linalg.vander", args, kwargs, "x", &x, "N?", &nv); err != nil {
		return nil, err
	}
	xv := args0(args, kwargs, "x")
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "linalg.vander: x must have at least one dimension")
	}
	n := x.t.Shape()[x.t.Dim()-1]
	if nv != runtime.None {
		k, ok := runtime.AsInt(nv)
		if !ok {
			return nil, runtime.Errorf("TypeError", "linalg.vander(): argument 'N' must be an int, not %s", nv.Type())
		}
		n = int(k)
	}
	if n <= 1 {
		if n < 1 {
			return nil, runtime.Errorf("RuntimeError", "N must be greater than 1.")
		}
	}
	col, err := callMethod(th, xv, "unsqueeze", []runtime.Value{runtime.Int(-1)}, nil)
	if err != nil {
		return nil, err
	}
	ones, err := callGlobal(th, "ones_like", []runtime.Value{col}, nil)
	if err != nil {
		return nil, err
	}
	if n == 1 {
		return ones, nil
	}
	shape := append(append([]int(nil), x.t.Shape()...), n-1)
	rest, err := callMethod(th, col, "expand", []runtime.Value{intList(shape)}, nil)
	if err != nil {
		return nil, err
	}
	full, err := callGlobal(th, "cat", []runtime.Value{runtime.NewList([]runtime.Value{ones, rest}), runtime.Int(-1)}, nil)
	if err != nil {
		return nil, err
	}
	return callMethod(th, full, "cumprod", []runtime.Value{runtime.Int(-1)}, nil)
}

// atleastND views x with at least n dims as torch.atleast_{1,2,3}d: a 0-d
// tensor becomes [1], [1, 1] or [1, 1, 1]; a 1-D [k] becomes [1, k] or
// [1, k, 1]; a 2-D [m, k] becomes [m, k, 1].
func atleastND(th *runtime.Thread, x *TensorValue, n int) (runtime.Value, error) {
	var shape []int
	s := x.t.Shape()
	switch {
	case len(s) >= n:
		return x, nil
	case len(s) == 0:
		shape = []int{1, 1, 1}[:n]
	case len(s) == 1 && n == 2:
		shape = []int{1, s[0]}
	case len(s) == 1 && n == 3:
		shape = []int{1, s[0], 1}
	default: // 2-D, n == 3
		shape = []int{s[0], s[1], 1}
	}
	return callMethod(th, x, "view", []runtime.Value{intList(shape)}, nil)
}

func aliasGlobal(name, target string) {
	if _, ok := globals[name]; ok {
		return
	}
	defGlobal(name, name+": the same as "+target+".", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return callGlobal(th, target, args, kwargs)
	})
}

func callMethod(th *runtime.Thread, recv runtime.Value, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	m := tensorMethods[name]
	if m == nil {
		return nil, runtime.Errorf("AttributeError", "'tensor' object has no attribute '%s'", name)
	}
	return m.BindReceiver(recv).Call(th, args, kwargs)
}

func callGlobal(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	f, ok := globals[name].(*runtime.Builtin)
	if !ok {
		return nil, runtime.Errorf("NameError", "name '%s' is not defined", name)
	}
	return f.Call(th, args, kwargs)
}

func callLinalg(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	f, ok := modules["linalg"].Members[name].(*runtime.Builtin)
	if !ok {
		return nil, runtime.Errorf("AttributeError", "module 'linalg' has no attribute '%s'", name)
	}
	return f.Call(th, args, kwargs)
}

func fmtInts(s []int) string { return intList(s).String() }
