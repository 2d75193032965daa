package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/internal/xmath"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// More PyTorch ops: the inverse-trigonometric and hyperbolic family and
// other float unaries (registered through unaryFns), hypot/fmax/fmin/
// logaddexp (binaryByName), the in-place unaries (exp_, sqrt_, ...),
// nanmean, ravel, logspace, logcumsumexp, cross (linalg.cross with
// torch.cross's default dim), and the kron method.

// moreOpsAdded adds the new ops to unaryFns and binaryByName during
// package variable initialization, before the init functions (in
// methods_math.go) that register a method and a function per entry.
var moreOpsAdded = addMoreOps()

func addMoreOps() bool {
	for name, f := range map[string]func(*T) (*T, error){
		"log2": tensor.Log2, "log10": tensor.Log10, "asin": tensor.Asin, "acos": tensor.Acos,
		"atan": tensor.Atan, "sinh": tensor.Sinh, "cosh": tensor.Cosh, "asinh": tensor.Asinh,
		"acosh": tensor.Acosh, "atanh": tensor.Atanh, "exp2": tensor.Exp2, "deg2rad": tensor.Deg2Rad,
		"rad2deg": tensor.Rad2Deg, "sinc": tensor.Sinc,
	} {
		unaryFns[name] = f
	}
	for name, f := range map[string]binFn{
		"hypot": tensor.Hypot, "fmax": tensor.Fmax, "fmin": tensor.Fmin, "logaddexp": tensor.LogAddExp,
		"logaddexp2": tensor.LogAddExp2,
	} {
		binaryByName[name] = binaryDef{name, f, true}
	}
	binaryByName["bitwise_left_shift"] = binaryDef{"bitwise_left_shift", tensor.BitwiseLeftShift, false}
	binaryByName["bitwise_right_shift"] = binaryDef{"bitwise_right_shift", tensor.BitwiseRightShift, false}
	return true
}

// numpyAliases are the keyword names PyTorch's argument parser accepts for
// NumPy compatibility (python_arg_parser.cpp): axis for dim, keepdims for
// keepdim.
var numpyAliases = map[string]string{"axis": "dim", "keepdims": "keepdim"}

// numpyKwargs renames NumPy-style keywords to PyTorch's (x.sum(axis=0) is
// x.sum(dim=0)); giving both spellings is a TypeError, as in PyTorch.
func numpyKwargs(name string, kwargs []runtime.Kwarg) ([]runtime.Kwarg, error) {
	var out []runtime.Kwarg
	for i, kw := range kwargs {
		to, ok := numpyAliases[kw.Name]
		if !ok {
			continue
		}
		if out == nil {
			out = append([]runtime.Kwarg(nil), kwargs...)
		}
		for _, other := range kwargs {
			if other.Name == to {
				return nil, runtime.Errorf("TypeError", "%s() got multiple values for argument '%s'", name, to)
			}
		}
		out[i].Name = to
	}
	if out == nil {
		return kwargs, nil
	}
	return out, nil
}

// aliasedMethod wraps a method so that it accepts the NumPy keyword names.
func aliasedMethod(name string, fn methodFn) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		kw, err := numpyKwargs(name, kwargs)
		if err != nil {
			return nil, err
		}
		return fn(th, x, args, kw)
	}
}

// aliasedBuiltin is aliasedMethod for functions.
func aliasedBuiltin(name string, fn builtinFn) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		kw, err := numpyKwargs(name, kwargs)
		if err != nil {
			return nil, err
		}
		return fn(th, b, args, kw)
	}
}

// inplaceUnaryNames are the unary ops with a PyTorch in-place form
// (x.exp_(), ...): computed out of place, checked castable to x's dtype,
// written back (bumping x._version) and recorded with the op's formula.
var inplaceUnaryNames = []string{
	"neg", "abs", "sign", "square", "relu", "floor", "ceil", "round", "trunc", "exp", "log", "log1p",
	"expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "reciprocal", "erf",
	"log2", "log10", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2",
	"deg2rad", "rad2deg", "sinc",
}

func inplaceUnary(e *Engine, name string, x *T) error {
	// relu_, abs_, neg_, square_: straight into a dense f32/f64 x's
	// storage; the others computed and copied back
	f := unaryFns[name]
	return e.ApplyInplace(name, x, nil, nil, func() error { return x.UnaryInplace(name, f) })
}

func init() {
	for _, name := range inplaceUnaryNames {
		name := name
		defMethod(name+"_", name+"_(): "+name+" in place; bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name+"_", args, kwargs); err != nil {
				return nil, err
			}
			if err := inplaceUnary(engineOf(th), name, x.t); err != nil {
				return nil, err
			}
			return x, nil
		})
	}
	tensorMethods["absolute_"] = tensorMethods["abs_"]
	tensorMethods["negative_"] = tensorMethods["neg_"]
	for alias, name := range map[string]string{
		"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
	} {
		tensorMethods[alias] = tensorMethods[name]
		tensorMethods[alias+"_"] = tensorMethods[name+"_"]
		globals[alias] = globals[name]
	}

	defMethodFunc("nanmean", "nanmean(dim=none, keepdim=false): the mean of the non-NaN elements (float dtypes only).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		keep := false
		if err := runtime.UnpackArgs("nanmean", args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
			return nil, err
		}
		if !x.t.DType().IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "nanmean(): expected input to have floating point dtype but got %s", kernels.TorchName(x.t.DType()))
		}
		dims, err := reduceDims(x.t, d)
		if err != nil {
			return nil, err
		}
		return x.result(nanmeanOp(engineOf(th), x.t, dims, keep))
	})
	defMethodFunc("ravel", "ravel(): the elements as a 1-D tensor (a view when the strides allow).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("ravel", args, kwargs); err != nil {
			return nil, err
		}
		return x.result(reshapeOp(engineOf(th), x.t, []int{-1}))
	})
	defMethodFunc("logcumsumexp", "logcumsumexp(dim): log(cumsum(exp(x))) along dim, computed stably.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d int
		if err := runtime.UnpackArgs("logcumsumexp", args, kwargs, "dim", &d); err != nil {
			return nil, err
		}
		if !x.t.DType().IsFloat() {
			return nil, notImplementedFor("logcumsumexp_out_cpu", x.t.DType())
		}
		n, err := normDim(d, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return x.result(engineOf(th).Apply("logcumsumexp", []*T{x.t}, autograd.Attrs{"dim": n}, func() (*T, error) { return tensor.LogCumSumExp(x.t, n) }))
	})
	defGlobal("logspace", "logspace(start, end, steps, base=10.0, dtype=f32): base ** linspace(start, end, steps).", builtinLogspace)
	defMethodFunc("cross", "cross(other, dim=none): the cross product of 3-vectors along dim (none: the first dim of size 3); linalg.cross with that dim.", nodeNamed("LinalgCrossBackward0", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o tensorArg
		var d intOpt
		if err := runtime.UnpackArgs("cross", args, kwargs, "other", &o, "dim?", &d); err != nil {
			return nil, err
		}
		if !d.ok {
			// torch.cross's (deprecated) default: the first dim of size 3
			d.v = -1
			if shape, err := tensor.BroadcastShapes(x.t.Shape(), o.t.Shape()); err == nil {
				for i, s := range shape {
					if s == 3 {
						d.v = i
						break
					}
				}
			}
			if d.v < 0 {
				return nil, runtime.Errorf("RuntimeError", "no dimension of size 3 in input")
			}
		}
		return linalgCross(th, nil, []runtime.Value{x, &TensorValue{t: o.t, eng: x.eng}}, []runtime.Kwarg{{Name: "dim", Value: runtime.Int(d.v)}})
	}))
	defMethod("kron", "kron(other): the Kronecker product.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return builtinKron(th, nil, append([]runtime.Value{x}, args...), kwargs)
	})
}

// nanmeanOp is nansum(x) / count(not isnan(x)) over dims (recorded, so
// NaN positions get zero gradient).
func nanmeanOp(e *Engine, x *T, dims []int, keep bool) (*T, error) {
	nan, err := tensor.IsNan(x)
	if err != nil {
		return nil, err
	}
	z, err := maskedFillOp(e, x, nan, tensor.ScalarFloat(0))
	if err != nil {
		return nil, err
	}
	s, err := sumOp(e, z, dims, keep)
	if err != nil {
		return nil, err
	}
	notNan, err := tensor.LogicalNot(nan)
	if err != nil {
		return nil, err
	}
	cnt, err := tensor.Sum(notNan, dims, keep)
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "div", tensor.Div, s, cnt)
}

func builtinLogspace(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var start, end float64
	var steps int
	base := 10.0
	var o creationOpts
	if err := runtime.UnpackArgs("logspace", args, kwargs, append([]any{"start", &start, "end", &end, "steps", &steps, "base?", &base}, o.pairs()...)...); err != nil {
		return nil, err
	}
	if steps < 0 {
		return nil, runtime.Errorf("RuntimeError", "number of steps must be non-negative")
	}
	if err := tensor.CheckAlloc(tensor.F64, steps); err != nil {
		return nil, err
	}
	// PyTorch's symmetric rule: exponents count up from start for the
	// first half and down from end for the second. As ATen's logspace,
	// start and end are first converted to the dtype, the step is their
	// difference in the dtype divided in double, and the powers are
	// computed in double and rounded to the dtype.
	dt := o.dt(tensor.DefaultFloat)
	start0, diff := start, end-start
	if dt.IsFloat() {
		start, end = tensor.RoundToDType(start, dt), tensor.RoundToDType(end, dt)
		diff = tensor.RoundToDType(end-start, dt)
	} else if dt.IsInt() {
		start, end = math.Trunc(start), math.Trunc(end)
		diff = end - start
	}
	buf := make([]float64, steps)
	if steps == 1 {
		buf[0] = xmath.Pow(base, start0) // ATen fills with pow(base, start as double)
	} else if steps > 1 {
		step := diff / float64(steps-1)
		half := steps / 2
		for i := range buf {
			if i < half {
				buf[i] = xmath.Pow(base, start+step*float64(i))
			} else {
				buf[i] = xmath.Pow(base, end-step*float64(steps-1-i))
			}
		}
	}
	if dt.IsInt() {
		for i := range buf {
			buf[i] = math.Trunc(buf[i])
		}
	}
	t, err := tensor.FromFloat64s(buf, []int{steps}, dt)
	if err != nil {
		return nil, err
	}
	return o.finish(th, t)
}
