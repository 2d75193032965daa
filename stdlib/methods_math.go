package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Elementwise, reduction and matrix methods and their functional forms.

func init() {
	// ---- unary elementwise ----
	for name := range unaryFns {
		name := name
		fn := func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			return x.result(unaryOp(engineOf(th), name, x.t))
		}
		if name == "abs" || name == "round" {
			continue // methods below; the functions are the tensor-aware builtins
		}
		defMethodFunc(name, name+"(): elementwise "+name+".", fn)
	}
	defMethod("abs", "abs(): elementwise |x|.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("abs", args, kwargs); err != nil {
			return nil, err
		}
		return x.result(unaryOp(engineOf(th), "abs", x.t))
	})
	defMethod("round", "round(decimals=0): round half to even.", methodRound)
	tensorMethods["absolute"] = tensorMethods["abs"]
	tensorMethods["negative"] = tensorMethods["neg"]
	for name := range predicateFns {
		name := name
		defMethodFunc(name, name+"(): elementwise "+name+" (not differentiable).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			return x.result(predicateFns[name](x.t))
		})
	}
	defMethodFunc("gelu", "gelu(approximate=\"none\"): x * Phi(x) (\"tanh\": the tanh approximation).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		approx := "none"
		if err := runtime.UnpackArgs("gelu", args, kwargs, "approximate?", &approx); err != nil {
			return nil, err
		}
		return x.result(geluOp(engineOf(th), x.t, approx))
	})

	// ---- binary elementwise ----
	for name, d := range binaryByName {
		name, d := name, d
		defMethodFunc(name, name+"(other): elementwise "+name+" with broadcasting and type promotion.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var o operandArg
			var alpha runtime.Value
			pairs := []any{argNameOther(name), &o}
			if name == "add" || name == "sub" {
				pairs = append(pairs, "alpha?", &alpha)
			}
			mode := runtime.Value(nil) // nil: no rounding_mode given
			if name == "div" {
				pairs = append(pairs, "rounding_mode?", &mode)
			}
			if err := runtime.UnpackArgs(name, args, kwargs, pairs...); err != nil {
				return nil, err
			}
			e := engineOf(th)
			other, err := scaleAlpha(e, x.t, o.t, alpha)
			if err != nil {
				return nil, err
			}
			if s, ok := mode.(runtime.String); ok {
				r, err := divRounding(e, x.t, other, string(s))
				return x.result(named("DivBackward2", r, err)) // div.Tensor_mode
			}
			if mode == runtime.None {
				// rounding_mode=none given: PyTorch's div.Tensor_mode too
				r, err := applyBinary(e, d.name, d.fn, x.t, other)
				return x.result(named("DivBackward2", r, err))
			}
			if !d.grad {
				a, b := castWrapped(x.t, other)
				return x.result(d.fn(a, b))
			}
			return x.result(applyBinary(e, d.name, d.fn, x.t, other))
		})
	}
	tensorMethods["multiply"] = tensorMethods["mul"]
	tensorMethods["subtract"] = tensorMethods["sub"]
	tensorMethods["divide"] = tensorMethods["div"]
	// PyTorch's spelled-out aliases as functions (and absolute/negative as
	// methods too); the method is looked up at call time.
	for alias, name := range map[string]string{"multiply": "mul", "subtract": "sub", "divide": "div", "absolute": "abs", "negative": "neg"} {
		alias, name := alias, name
		defGlobal(alias, alias+"(input, ...): the same as "+name+".", functional(alias, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return tensorMethods[name].BindReceiver(x).Call(th, args, kwargs)
		}))
		if tensorMethods[alias] == nil {
			tensorMethods[alias] = tensorMethods[name]
		}
	}

	// ---- matrix products ----
	for _, m := range []struct {
		name string
		fn   binFn
		doc  string
	}{
		{"matmul", tensor.Matmul, "matmul(other): matrix product with broadcasting batch dims (1-D operands are vectors)."},
		{"mm", tensor.Mm, "mm(other): product of two matrices."},
		{"bmm", tensor.Bmm, "bmm(other): batched product of [b, n, k] and [b, k, m]."},
		{"dot", tensor.Dot, "dot(other): inner product of two 1-D tensors."},
		{"outer", tensor.Outer, "outer(other): outer product of two 1-D tensors."},
	} {
		m := m
		defMethodFunc(m.name, m.doc, func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var o tensorArg
			if err := runtime.UnpackArgs(m.name, args, kwargs, "other", &o); err != nil {
				return nil, err
			}
			return x.result(applyBinary(engineOf(th), m.name, m.fn, x.t, o.t))
		})
	}
	tensorMethods["ger"] = tensorMethods["outer"]
	defMethodFunc("trace", "trace(): sum of the main diagonal of a matrix.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("trace", args, kwargs); err != nil {
			return nil, err
		}
		return x.result(engineOf(th).Apply("trace", []*T{x.t}, nil, func() (*T, error) { return tensor.Trace(x.t) }))
	})
	defMethodFunc("diag", "diag(diagonal=0): the diagonal of a matrix, or a matrix with a vector on its diagonal.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		k := 0
		if err := runtime.UnpackArgs("diag", args, kwargs, "diagonal?", &k); err != nil {
			return nil, err
		}
		return x.result(engineOf(th).Apply("diag", []*T{x.t}, autograd.Attrs{"diagonal": k}, func() (*T, error) { return tensor.Diag(x.t, k) }))
	})

	// ---- selection ----
	defMethod("where", "where(condition, other): self where condition, else other.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var c tensorArg
		var o operandArg
		if err := runtime.UnpackArgs("where", args, kwargs, "condition", &c, "other", &o); err != nil {
			return nil, err
		}
		return x.result(whereOp(engineOf(th), c.t, x.t, o.t))
	})
	defGlobal("where", "where(condition, input, other): input where condition is true, else other; where(condition) is nonzero(as_tuple=true).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var c tensorArg
		var x, o runtime.Value
		if err := runtime.UnpackArgs("where", args, kwargs, "condition", &c, "input?", &x, "other?", &o); err != nil {
			return nil, err
		}
		if x == nil && o == nil {
			return nonzeroTuple(th, c.t), nil
		}
		if x == nil || o == nil {
			return nil, runtime.Errorf("TypeError", "where() expects condition, input and other")
		}
		a, ok1 := operand(x)
		bb, ok2 := operand(o)
		if !ok1 || !ok2 {
			return nil, runtime.Errorf("TypeError", "where(): input and other must be tensors or numbers")
		}
		r, err := whereOp(engineOf(th), c.t, a, bb)
		if err != nil {
			return nil, err
		}
		return NewTensorValue(th, r), nil
	})
	defMethodFunc("nonzero", "nonzero(as_tuple=false): the indices of the nonzero elements, [count, ndim] (or a tuple of 1-D tensors).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		asTuple := false
		if err := runtime.UnpackArgs("nonzero", args, kwargs, "as_tuple?", &asTuple); err != nil {
			return nil, err
		}
		if asTuple {
			return nonzeroTuple(th, x.t), nil
		}
		return NewTensorValue(th, tensor.Nonzero(x.t)), nil
	})
	defMethodFunc("masked_fill", "masked_fill(mask, value): a copy with value where mask (bool, broadcast) is true.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var m tensorArg
		var v operandArg
		if err := runtime.UnpackArgs("masked_fill", args, kwargs, "mask", &m, "value", &v); err != nil {
			return nil, err
		}
		return x.result(maskedFillOp(engineOf(th), x.t, m.t, v.t))
	})
	clamp := func(name string) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			lo, hi, err := clampArgs(name, args, kwargs)
			if err != nil {
				return nil, err
			}
			return x.result(clampOp(engineOf(th), x.t, lo, hi))
		}
	}
	defMethodFunc("clamp", "clamp(min=none, max=none): limit to [min, max] (numbers or tensors).", clamp("clamp"))
	defMethodFunc("clip", "clip(min=none, max=none): clamp.", clamp("clip"))
	clampInplace := func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := checkInplaceOperands(engineOf(th), x.t, args, kwargs); err != nil {
			return nil, err
		}
		lo, hi, err := clampArgs("clamp_", args, kwargs)
		if err != nil {
			return nil, err
		}
		if lo == nil && hi == nil {
			return nil, runtime.Errorf("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None")
		}
		if err := clampBoundsFit(x.t, lo, hi); err != nil {
			return nil, err
		}
		if !(lo == nil || lo.IsWrappedNumber()) || !(hi == nil || hi.IsWrappedNumber()) {
			// tensor bounds: clamp.Tensor's formula (gradients reach the
			// bounds too), written back into x
			e := engineOf(th)
			if err := inplaceVia(e, x.t, "ClampBackward0", func(self *T) (*T, error) { return clampTensorOp(e, self, lo, hi) }); err != nil {
				return nil, err
			}
			return x, nil
		}
		attrs := autograd.Attrs{}
		if lo != nil {
			attrs["min"] = lo.FlatFloat64(0)
		}
		if hi != nil {
			attrs["max"] = hi.FlatFloat64(0)
		}
		err = engineOf(th).ApplyInplace("clamp", x.t, nil, attrs, func() error { return x.t.ClampInplace(lo, hi) })
		if err != nil {
			return nil, err
		}
		return x, nil
	}
	defMethod("clamp_", "clamp_(min=none, max=none): clamp in place.", clampInplace)
	defMethod("clip_", "clip_(min=none, max=none): clamp_.", clampInplace)

	// ---- reductions ----
	defMethodFunc("sum", "sum(dim=none, keepdim=false, dtype=none): sum over dims (all when none); ints and bools give i64.", reduceMethod("sum"))
	defMethodFunc("mean", "mean(dim=none, keepdim=false, dtype=none): mean over dims (float dtypes only).", reduceMethod("mean"))
	defMethodFunc("nansum", "nansum(dim=none, keepdim=false): sum treating NaN as zero.", nodeNamed("NansumBackward0", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		nan, err := tensor.IsNan(x.t)
		if err != nil {
			return nil, err
		}
		z, err := maskedFillOp(engineOf(th), x.t, nan, tensor.ScalarFloat(0))
		if err != nil {
			return nil, err
		}
		return reduceMethod("nansum")(th, wrap(x.eng, z), args, kwargs)
	}))
	defMethodFunc("prod", "prod(dim=none, keepdim=false, dtype=none): product over one dim or all.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d intOpt
		var dt dtypeOpt
		keep := false
		if err := runtime.UnpackArgs("prod", args, kwargs, "dim?", &d, "keepdim?", &keep, "dtype?", &dt); err != nil {
			return nil, err
		}
		e := engineOf(th)
		t := x.t
		var err error
		if dt.ok {
			if t, err = toOp(e, t, dt.dt); err != nil {
				return nil, err
			}
		}
		attrs := autograd.Attrs{"keepdim": keep}
		var dims []int
		if d.ok {
			n, err := normDim(d.v, t.Dim())
			if err != nil {
				return nil, err
			}
			attrs["dim"] = n
			dims = []int{n}
		}
		return x.result(reducedToDType(e, dt)(e.Apply("prod", []*T{t}, attrs, func() (*T, error) { return tensor.Prod(t, dims, keep) })))
	})
	defMethodFunc("amax", "amax(dim=(), keepdim=false): maximum over dims (all when empty).", amaxMethod("amax"))
	defMethodFunc("amin", "amin(dim=(), keepdim=false): minimum over dims (all when empty).", amaxMethod("amin"))
	defMethod("max", "max(): the maximum (0-d); max(dim, keepdim=false): (values, indices); max(other): elementwise maximum.", maxMinMethod("max"))
	defMethod("min", "min(): the minimum (0-d); min(dim, keepdim=false): (values, indices); min(other): elementwise minimum.", maxMinMethod("min"))
	defMethodFunc("argmax", "argmax(dim=none, keepdim=false): i64 index of the first maximum (flat when dim is none).", argMethod("argmax", tensor.Argmax))
	defMethodFunc("argmin", "argmin(dim=none, keepdim=false): i64 index of the first minimum (flat when dim is none).", argMethod("argmin", tensor.Argmin))
	defMethodFunc("var", "var(dim=none, unbiased=true, keepdim=false, correction=1): variance with Bessel's correction.", varStdMethod("var"))
	defMethodFunc("std", "std(dim=none, unbiased=true, keepdim=false, correction=1): standard deviation.", varStdMethod("std"))
	defMethodFunc("norm", "norm(p=\"fro\", dim=none, keepdim=false): vector p-norm over dims (2 by default; inf, -inf, 0, 1 or any real p).", methodNorm)
	cum := func(name string, f func(*T, int) (*T, error)) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var d int
			var dt dtypeOpt
			if err := runtime.UnpackArgs(name, args, kwargs, "dim", &d, "dtype?", &dt); err != nil {
				return nil, err
			}
			e := engineOf(th)
			t := x.t
			var err error
			if dt.ok {
				if dt.dt == tensor.Bool {
					return nil, runtime.Errorf("RuntimeError", "\"%s_out_cpu\" not implemented for 'Bool'", name)
				}
				if t, err = toOp(e, t, dt.dt); err != nil {
					return nil, err
				}
			}
			n, err := normDim(d, t.Dim())
			if err != nil {
				return nil, err
			}
			return x.result(reducedToDType(e, dt)(e.Apply(name, []*T{t}, autograd.Attrs{"dim": n}, func() (*T, error) { return f(t, n) })))
		}
	}
	defMethodFunc("cumsum", "cumsum(dim): running sums along dim.", cum("cumsum", tensor.Cumsum))
	defMethodFunc("cumprod", "cumprod(dim): running products along dim.", cum("cumprod", tensor.Cumprod))
	soft := func(name string) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var d intOpt
			var dt dtypeOpt
			if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "dtype?", &dt); err != nil {
				return nil, err
			}
			if !d.ok {
				return nil, runtime.Errorf("TypeError", "%s() missing required argument 'dim'", name)
			}
			e := engineOf(th)
			t := x.t
			var err error
			if dt.ok {
				if t, err = toOp(e, t, dt.dt); err != nil {
					return nil, err
				}
			}
			return x.result(softmaxOp(e, name, t, d.v))
		}
	}
	defMethodFunc("softmax", "softmax(dim): exp(x - max) / sum(exp(x - max)) along dim.", soft("softmax"))
	defMethodFunc("log_softmax", "log_softmax(dim): x - logsumexp(x) along dim.", soft("log_softmax"))
	defMethodFunc("logsumexp", "logsumexp(dim, keepdim=false): log(sum(exp(x))) over dims, computed stably (max subtracted).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		keep := false
		if err := runtime.UnpackArgs("logsumexp", args, kwargs, "dim", &d, "keepdim?", &keep); err != nil {
			return nil, err
		}
		dims, err := reduceDims(x.t, d)
		if err != nil {
			return nil, err
		}
		if dims == nil {
			dims = allDimsOf(x.t)
		}
		return x.result(logsumexpOp(engineOf(th), x.t, dims, keep))
	})
	boolReduce := func(name string, f func(*T, []int, bool) (*T, error)) methodFn {
		return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var d dimsOpt
			keep := false
			if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
				return nil, err
			}
			dims, err := reduceDims(x.t, d)
			if err != nil {
				return nil, err
			}
			r, err := f(x.t, dims, keep)
			if err == nil && x.t.DType() == tensor.U8 {
				// PyTorch 1.13 keeps uint8 for a uint8 input (0 or 1)
				r, err = r.To(tensor.U8)
			}
			return x.result(r, err)
		}
	}
	defMethodFunc("all", "all(dim=none, keepdim=false): whether every element is nonzero (bool; u8 0/1 for a u8 input, as PyTorch 1.13).", boolReduce("all", tensor.All))
	defMethodFunc("any", "any(dim=none, keepdim=false): whether some element is nonzero (bool; u8 0/1 for a u8 input, as PyTorch 1.13).", boolReduce("any", tensor.Any))

	// ---- in-place arithmetic ----
	for _, name := range []string{"add", "sub", "mul", "pow", "remainder", "floor_divide"} {
		name := name
		defMethod(name+"_", name+"_(other): in place "+name+"; bumps the version counter and returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var o operandArg
			var alpha runtime.Value
			pairs := []any{argNameOther(name), &o}
			if name == "add" || name == "sub" {
				pairs = append(pairs, "alpha?", &alpha)
			}
			if err := runtime.UnpackArgs(name+"_", args, kwargs, pairs...); err != nil {
				return nil, err
			}
			if err := inplaceWithAlpha(engineOf(th), name, x.t, o.t, alpha); err != nil {
				return nil, err
			}
			return x, nil
		})
	}
	defMethod("zero_", "zero_(): set every element to 0 in place.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("zero_", args, kwargs); err != nil {
			return nil, err
		}
		if err := engineOf(th).ApplyInplace("zero", x.t, nil, nil, x.t.ZeroInplace); err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("fill_", "fill_(value): set every element to value in place.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var v operandArg
		if err := runtime.UnpackArgs("fill_", args, kwargs, "value", &v); err != nil {
			return nil, err
		}
		if v.t.Numel() != 1 {
			return nil, runtime.Errorf("RuntimeError", "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", v.t.Dim())
		}
		if err := valueFits(v.t, x.t.DType()); err != nil {
			return nil, err
		}
		err := engineOf(th).ApplyInplace("fill", x.t, nil, autograd.Attrs{"value": v.t.FlatFloat64(0)}, func() error { return x.t.FillInplace(v.t) })
		if err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("copy_", "copy_(src): copy src (broadcast, converted) into self in place; an src that partially overlaps self in memory is a RuntimeError, as PyTorch (clone() it first).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var s operandArg
		nb := false
		if err := runtime.UnpackArgs("copy_", args, kwargs, "src", &s, "non_blocking?", &nb); err != nil {
			return nil, err
		}
		err := engineOf(th).ApplyInplace("copy", x.t, []*T{s.t}, nil, func() error {
			if err := tensor.CheckNoPartialOverlap(x.t, s.t); err != nil { // PyTorch's copy_ rejects a partially overlapping src
				return err
			}
			return x.t.CopyInplace(s.t)
		})
		if err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethod("masked_fill_", "masked_fill_(mask, value): set value where mask is true, in place.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var m tensorArg
		var v operandArg
		if err := runtime.UnpackArgs("masked_fill_", args, kwargs, "mask", &m, "value", &v); err != nil {
			return nil, err
		}
		if err := engineOf(th).CheckInplace(x.t); err != nil {
			return nil, err // autograd's leaf check comes first in PyTorch
		}
		if err := checkMaskedFill(x.t, m.t, v.t); err != nil {
			return nil, err
		}
		if err := checkInplaceOperands(engineOf(th), x.t, []runtime.Value{wrap(engineOf(th), m.t)}, nil); err != nil {
			return nil, err // PyTorch checks self against the mask (not the value)
		}
		fwd := func() error { return x.t.MaskedFillInplace(m.t, v.t) }
		var err error
		if !v.t.IsWrappedNumber() { // PyTorch's masked_fill_.Tensor overload
			err = engineOf(th).ApplyInplace("masked_fill_tensor", x.t, []*T{m.t, v.t}, nil, fwd)
		} else {
			err = engineOf(th).ApplyInplace("masked_fill", x.t, []*T{m.t}, autograd.Attrs{"value": v.t.FlatFloat64(0)}, fwd)
		}
		if err != nil {
			return nil, err
		}
		return x, nil
	})
}

func methodRound(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	decimals := 0
	if err := runtime.UnpackArgs("round", args, kwargs, "decimals?", &decimals); err != nil {
		return nil, err
	}
	e := engineOf(th)
	if decimals == 0 {
		return x.result(unaryOp(e, "round", x.t))
	}
	if !x.t.DType().IsFloat() {
		return x.result(unaryOp(e, "round", x.t))
	}
	if decimals < 0 {
		// ATen's round_decimals_kernel: nearbyint(a / 10^-d) * 10^-d, in
		// the tensor's dtype (a Half quotient is rounded to half first)
		s := math.Pow(10, float64(-decimals))
		y, err := applyBinary(e, "div", tensor.Div, x.t, scalarOf(s))
		if err != nil {
			return nil, err
		}
		if y, err = unaryOp(e, "round", y); err != nil {
			return nil, err
		}
		return x.result(mulScalar(e, y, s))
	}
	s := math.Pow(10, float64(decimals))
	y, err := mulScalar(e, x.t, s)
	if err != nil {
		return nil, err
	}
	if y, err = unaryOp(e, "round", y); err != nil {
		return nil, err
	}
	return x.result(applyBinary(e, "div", tensor.Div, y, scalarOf(s)))
}

func clampArgs(name string, args []runtime.Value, kwargs []runtime.Kwarg) (lo, hi *T, err error) {
	var mn, mx runtime.Value = runtime.None, runtime.None
	if err := runtime.UnpackArgs(name, args, kwargs, "min?", &mn, "max?", &mx); err != nil {
		return nil, nil, err
	}
	conv := func(v runtime.Value) (*T, error) {
		if v == runtime.None {
			return nil, nil
		}
		t, ok := operand(v)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): min and max must be numbers or tensors, not %s", name, v.Type())
		}
		return t, nil
	}
	if lo, err = conv(mn); err != nil {
		return nil, nil, err
	}
	hi, err = conv(mx)
	return lo, hi, err
}

func allDimsOf(t *T) []int {
	d := make([]int, t.Dim())
	for i := range d {
		d[i] = i
	}
	return d
}

// reduceMethod implements sum and mean (and nansum on a NaN-filled copy).
func reduceMethod(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		var dt dtypeOpt
		keep := false
		if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "keepdim?", &keep, "dtype?", &dt); err != nil {
			return nil, err
		}
		e := engineOf(th)
		t := x.t
		var err error
		if dt.ok {
			if name == "mean" && !dt.dt.IsFloat() {
				return nil, runtime.Errorf("RuntimeError", "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s", dt.dt.TorchName())
			}
			if t, err = toOp(e, t, dt.dt); err != nil {
				return nil, err
			}
		}
		dims, err := reduceDims(t, d)
		if err != nil {
			return nil, err
		}
		if name == "mean" {
			return x.result(meanOp(e, t, dims, keep))
		}
		return x.result(reducedToDType(e, dt)(sumOp(e, t, dims, keep)))
	}
}

// reducedToDType returns a function that casts a sum/prod/cumsum/cumprod
// result to the dtype= argument when that is an integer or bool dtype:
// PyTorch computes in (and returns) the requested dtype, so
// tensor([100, 100], dtype=i8).sum(dtype=i8) wraps to -56 and
// sum(dtype=bool) is "any nonzero". The kernels accumulate integers in
// i64; the cast back wraps exactly as the narrow accumulation would.
func reducedToDType(e *Engine, dt dtypeOpt) func(*T, error) (*T, error) {
	return func(r *T, err error) (*T, error) {
		if err != nil || !dt.ok || r.DType() == dt.dt || dt.dt.IsFloat() {
			return r, err
		}
		return toOp(e, r, dt.dt)
	}
}

func amaxMethod(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		keep := false
		if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
			return nil, err
		}
		dims, err := reduceDims(x.t, d)
		if err != nil {
			return nil, err
		}
		if len(dims) == 0 {
			dims = nil
		}
		return x.result(amaxOp(engineOf(th), name, x.t, dims, keep))
	}
}

// maxMinMethod implements max/min: full reduction, (values, indices)
// along a dim, or the elementwise maximum/minimum with another tensor.
func maxMinMethod(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var dimOrOther runtime.Value = runtime.None
		keep := false
		var other runtime.Value = runtime.None
		if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &dimOrOther, "keepdim?", &keep, "other?", &other); err != nil {
			return nil, err
		}
		e := engineOf(th)
		if o, ok := dimOrOther.(*TensorValue); ok {
			other = o
		}
		if o, ok := other.(*TensorValue); ok {
			f, op := tensor.Maximum, "maximum"
			if name == "min" {
				f, op = tensor.Minimum, "minimum"
			}
			return x.result(applyBinary(e, op, f, x.t, o.t))
		}
		if dimOrOther == runtime.None {
			if x.t.Numel() == 0 {
				return nil, runtime.Errorf("RuntimeError", "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
			}
			f := tensor.Max
			if name == "min" {
				f = tensor.Min
			}
			return x.result(e.Apply(name+"_all", []*T{x.t}, nil, func() (*T, error) { return f(x.t) }))
		}
		di, ok := dimOrOther.(runtime.Int)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): dim must be an int, not %s", name, dimOrOther.Type())
		}
		n, err := normDim(int(di), x.t.Dim())
		if err != nil {
			return nil, err
		}
		f := tensor.MaxDim
		if name == "min" {
			f = tensor.MinDim
		}
		outs, err := e.ApplyMulti(name, []*T{x.t}, autograd.Attrs{"dim": n, "keepdim": keep}, func() ([]*T, error) {
			v, i, err := f(x.t, n, keep)
			return []*T{v, i}, err
		})
		if err != nil {
			return nil, err
		}
		return &runtime.NamedTuple{TypeName: name, Fields: []string{"values", "indices"},
			Tuple: runtime.Tuple{wrap(x.eng, outs[0]), wrap(x.eng, outs[1])}}, nil
	}
}

func argMethod(name string, f func(*T, *int, bool) (*T, error)) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d intOpt
		keep := false
		if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "keepdim?", &keep); err != nil {
			return nil, err
		}
		if !d.ok {
			return x.result(f(x.t, nil, keep))
		}
		n, err := normDim(d.v, x.t.Dim())
		if err != nil {
			return nil, err
		}
		return x.result(f(x.t, &n, keep))
	}
}

func varStdMethod(name string) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var d dimsOpt
		var unbiased runtime.Value = runtime.None
		var corr floatOpt
		keep := false
		if err := runtime.UnpackArgs(name, args, kwargs, "dim?", &d, "unbiased?", &unbiased, "keepdim?", &keep, "correction?", &corr); err != nil {
			return nil, err
		}
		// x.var(true) is the legacy var(unbiased)
		if len(args) > 0 {
			if b, ok := args[0].(runtime.Bool); ok {
				d = dimsOpt{}
				unbiased = b
			}
		}
		c := 1.0
		if b, ok := unbiased.(runtime.Bool); ok {
			if corr.ok {
				return nil, runtime.Errorf("TypeError", "%s(): cannot give both unbiased and correction", name)
			}
			if !b {
				c = 0
			}
		} else if unbiased != runtime.None {
			return nil, runtime.Errorf("TypeError", "%s(): unbiased must be a bool, not %s", name, unbiased.Type())
		}
		if corr.ok {
			c = corr.v
		}
		if c != math.Trunc(c) {
			return nil, runtime.Errorf("ValueError", "%s(): correction must be an integer, got %v", name, c)
		}
		if !x.t.DType().IsFloat() {
			return nil, runtime.Errorf("RuntimeError", "std and var only support floating point and complex dtypes")
		}
		dims, err := reduceDims(x.t, d)
		if err != nil {
			return nil, err
		}
		f := tensor.Var
		if name == "std" {
			f = tensor.Std
		}
		attrs := autograd.Attrs{"correction": c, "keepdim": keep}
		if dims != nil {
			attrs["dim"] = dims
		}
		return x.result(engineOf(th).Apply(name, []*T{x.t}, attrs, func() (*T, error) { return f(x.t, dims, int(c), keep) }))
	}
}

func methodNorm(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var p runtime.Value = runtime.String("fro")
	var d dimsOpt
	keep := false
	var dt dtypeOpt
	if err := runtime.UnpackArgs("norm", args, kwargs, "p?", &p, "dim?", &d, "keepdim?", &keep, "dtype?", &dt); err != nil {
		return nil, err
	}
	pv := 2.0
	switch v := p.(type) {
	case runtime.String:
		if v != "fro" {
			return nil, runtime.Errorf("RuntimeError", "norm(): p=%s is not supported here (use linalg.matrix_norm)", runtime.Repr(v))
		}
	case runtime.NoneType:
	default:
		f, ok := runtime.AsFloat(v)
		if !ok {
			return nil, runtime.Errorf("TypeError", "norm(): p must be a number or \"fro\", not %s", p.Type())
		}
		pv = f
	}
	e := engineOf(th)
	t := x.t
	var err error
	if dt.ok {
		if t, err = toOp(e, t, dt.dt); err != nil {
			return nil, err
		}
	}
	if !t.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "norm(): input dtype should be either floating point or complex. Got %s instead.", t.DType().TorchName())
	}
	dims, err := reduceDims(t, d)
	if err != nil {
		return nil, err
	}
	attrs := autograd.Attrs{"p": pv, "keepdim": keep}
	if dims != nil {
		attrs["dim"] = dims
	}
	return x.result(e.Apply("norm", []*T{t}, attrs, func() (*T, error) { return tensor.Norm(t, pv, dims, keep) }))
}

func nonzeroTuple(th *runtime.Thread, t *T) runtime.Value {
	nz := tensor.Nonzero(t)
	out := make(runtime.Tuple, t.Dim())
	for j := range out {
		col, _ := nz.Select(1, j)
		out[j] = NewTensorValue(th, col.Contiguous())
	}
	return out
}

// divRounding is div(other, rounding_mode=mode) for mode "floor" or
// "trunc", recorded.
func divRounding(e *Engine, x, other *T, mode string) (*T, error) {
	switch mode {
	case "floor":
		return applyBinary(e, "div_floor", tensor.FloorDivide, x, other)
	case "trunc":
		if !tensor.ResultType(x, other).IsFloat() {
			// exact integer division (no float round trip)
			a, b := castWrapped(x, other)
			return tensor.TruncDivide(a, b)
		}
		q, err := applyBinary(e, "div", tensor.Div, x, other)
		if err != nil {
			return nil, err
		}
		if q, err = unaryOp(e, "trunc", q); err != nil {
			return nil, err
		}
		return toOp(e, q, tensor.ResultType(x, other))
	}
	return nil, runtime.Errorf("RuntimeError", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode)
}

// argNameOther is PyTorch's name for a binary op's second argument:
// "exponent" for pow (torch.pow(input, exponent), Tensor.pow_(exponent)),
// "other" for the rest.
func argNameOther(op string) string {
	if op == "pow" {
		return "exponent"
	}
	return "other"
}
