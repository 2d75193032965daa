package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// PyTorch ops copysign, xlogy, float_power, logit and heaviside (functions,
// tensor methods and in-place methods, PyTorch 1.13's signatures and
// grad_fn names) and nn.hardtanh / nn.hardtanh_. The elementwise kernels
// are tensor.Copysign, Xlogy, Logit, Heaviside and Hardtanh; derivatives
// are in tensor/autograd/derivatives_torch_more.go. float_power is
// pow over f64 operands, as ATen composes it.

func init() {
	defMethodFunc("copysign", "copysign(other): |self| with the sign of other (a tensor or a number), broadcast; integer and bool inputs give the default float dtype. grad_fn CopysignBackward0 (tensor other) / CopysignBackward1 (number).", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o operandArg
		if err := runtime.UnpackArgs("copysign", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(applyBinary(engineOf(th), "copysign", tensor.Copysign, x.t, o.t))
	})
	inplaceMethod("copysign_", "copysign_(other): copysign in place (float self only); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var o operandArg
		if err := runtime.UnpackArgs("copysign_", args, kwargs, "other", &o); err != nil {
			return nil, "", err
		}
		r, err := applyBinary(e, "copysign", tensor.Copysign, self, o.t)
		node := "CopysignBackward0"
		if o.t.IsWrappedNumber() {
			node = "CopysignBackward1"
		}
		return r, node, err
	})

	defMethod("xlogy", "xlogy(other): self * log(other), 0 where self == 0 (even if other is 0 or inf), NaN where other is NaN; broadcast, integer and bool inputs give the default float dtype.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o operandArg
		if err := runtime.UnpackArgs("xlogy", args, kwargs, "other", &o); err != nil {
			return nil, err
		}
		return x.result(applyBinary(engineOf(th), "xlogy", tensor.Xlogy, x.t, o.t))
	})
	defGlobal("xlogy", "xlogy(input, other): input * log(other) with xlogy's special values (see the method); either operand may be a number. grad_fn XlogyBackward0/1/2 (tensors / number input / number other).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var a, o operandArg
		if err := runtime.UnpackArgs("xlogy", args, kwargs, "input", &a, "other", &o); err != nil {
			return nil, err
		}
		if a.t.IsWrappedNumber() && o.t.IsWrappedNumber() {
			return nil, runtime.Errorf("TypeError", "xlogy(): at least one of 'input' and 'other' must be a tensor")
		}
		r, err := applyBinary(engineOf(th), "xlogy", tensor.Xlogy, a.t, o.t)
		return tensorResult(th, r, err)
	})
	inplaceMethod("xlogy_", "xlogy_(other): xlogy in place (float self only); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var o operandArg
		if err := runtime.UnpackArgs("xlogy_", args, kwargs, "other", &o); err != nil {
			return nil, "", err
		}
		r, err := applyBinary(e, "xlogy", tensor.Xlogy, self, o.t)
		node := "XlogyBackward0"
		if o.t.IsWrappedNumber() {
			node = "XlogyBackward2"
		}
		return r, node, err
	})

	defMethod("float_power", "float_power(exponent): self ** exponent computed in f64 (the result is always f64). grad_fn PowBackward0 (number exponent) / PowBackward1.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var o operandArg
		if err := runtime.UnpackArgs("float_power", args, kwargs, "exponent", &o); err != nil {
			return nil, err
		}
		return x.result(floatPowerOp(engineOf(th), x.t, o.t))
	})
	defGlobal("float_power", "float_power(input, exponent): input ** exponent in f64 (always an f64 result); either operand may be a number (a number input: grad_fn PowBackward2).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var a, o operandArg
		if err := runtime.UnpackArgs("float_power", args, kwargs, "input", &a, "exponent", &o); err != nil {
			return nil, err
		}
		if a.t.IsWrappedNumber() && o.t.IsWrappedNumber() {
			return nil, runtime.Errorf("TypeError", "float_power(): at least one of 'input' and 'exponent' must be a tensor")
		}
		r, err := floatPowerOp(engineOf(th), a.t, o.t)
		return tensorResult(th, r, err)
	})
	// ATen's float_power_ checks self's dtype before calling pow_: before
	// autograd's leaf check and the overlap check.
	inplaceFirstCheck["float_power_"] = func(self *T, args []runtime.Value, kwargs []runtime.Kwarg) error {
		var o operandArg
		if err := runtime.UnpackArgs("float_power_", args, kwargs, "exponent", &o); err != nil {
			return err
		}
		if self.DType() != tensor.F64 {
			return runtime.Errorf("RuntimeError", "the base given to float_power_ has dtype %s but the operation's result requires dtype Double", kernels.TorchName(self.DType()))
		}
		return nil
	}
	inplaceMethod("float_power_", "float_power_(exponent): float_power in place; self must be f64 (RuntimeError otherwise, checked first, as PyTorch); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		var o operandArg
		if err := runtime.UnpackArgs("float_power_", args, kwargs, "exponent", &o); err != nil {
			return nil, "", err
		}
		r, err := floatPowerOp(e, self, o.t)
		return r, overload("PowBackward", o.t), err
	})

	logit := func(name string, args []runtime.Value, kwargs []runtime.Kwarg) (float64, error) {
		var eps floatOpt
		if err := runtime.UnpackArgs(name, args, kwargs, "eps?", &eps); err != nil {
			return 0, err
		}
		if !eps.ok {
			return -1, nil // ATen's eps.value_or(-1): no clamping
		}
		return eps.v, nil
	}
	defMethodFunc("logit", "logit(eps=none): log(z / (1 - z)) with z = self clamped to [eps, 1 - eps] (eps none or negative: no clamping; 0 and 1 give -inf and inf, values outside [0, 1] NaN); integer and bool inputs give the default float dtype. grad_fn LogitBackward0.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		eps, err := logit("logit", args, kwargs)
		if err != nil {
			return nil, err
		}
		return x.result(logitOp(engineOf(th), x.t, eps))
	})
	inplaceMethod("logit_", "logit_(eps=none): logit in place (float self only); returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		eps, err := logit("logit_", args, kwargs)
		if err != nil {
			return nil, "", err
		}
		r, err := logitOp(e, self, eps)
		return r, "LogitBackward0", err
	})

	heaviside := func(e *Engine, name string, x *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, error) {
		var v runtime.Value
		if err := runtime.UnpackArgs(name, args, kwargs, "values", &v); err != nil {
			return nil, err
		}
		vt, ok := v.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): argument 'values' (position 2) must be Tensor, not %s", name, v.Type())
		}
		return e.Apply("heaviside", []*T{x, vt.t}, nil, func() (*T, error) { return tensor.Heaviside(x, vt.t) })
	}
	defMethodFunc("heaviside", "heaviside(values): the step function: values (a tensor of self's dtype, broadcast) where self == 0, 1 where self > 0, 0 where self < 0 or NaN. Not differentiable: grad_fn prints <NotImplemented> and backward raises, as PyTorch.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return x.result(heaviside(engineOf(th), "heaviside", x.t, args, kwargs))
	})
	inplaceMethod("heaviside_", "heaviside_(values): heaviside in place; returns self.", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
		r, err := heaviside(e, "heaviside_", self, args, kwargs)
		return r, "NotImplemented", err
	})

	m := modules["nn"]
	if m == nil {
		panic("stdlib: ops_torch_more.go initialised before nn.go")
	}
	m.Members["hardtanh"] = moduleFunc("nn", "hardtanh", "hardtanh(input, min_val=-1.0, max_val=1.0, inplace=false): input clamped to [min_val, max_val] in input's dtype (torch.nn.functional.hardtanh); the gradient passes only where min_val < input < max_val. grad_fn HardtanhBackward0. Bool inputs, and u8 inputs with a negative bound, are a RuntimeError.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		lo, hi := -1.0, 1.0
		inplace := false
		if err := runtime.UnpackArgs("hardtanh", args, kwargs, "input", &x, "min_val?", &lo, "max_val?", &hi, "inplace?", &inplace); err != nil {
			return nil, err
		}
		return hardtanhCall(th, x.t, lo, hi, inplace)
	})
	m.Members["hardtanh_"] = moduleFunc("nn", "hardtanh_", "hardtanh_(input, min_val=-1.0, max_val=1.0): hardtanh in place; returns input.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		lo, hi := -1.0, 1.0
		if err := runtime.UnpackArgs("hardtanh_", args, kwargs, "input", &x, "min_val?", &lo, "max_val?", &hi); err != nil {
			return nil, err
		}
		return hardtanhCall(th, x.t, lo, hi, true)
	})
}

// hardtanhCall is nn.hardtanh: out of place, or in place on x (which is
// then returned, its grad_fn HardtanhBackward0 as PyTorch's hardtanh_).
func hardtanhCall(th *runtime.Thread, x *T, lo, hi float64, inplace bool) (runtime.Value, error) {
	e := engineOf(th)
	if !inplace {
		r, err := hardtanhOp(e, x, lo, hi)
		return tensorResult(th, r, err)
	}
	if err := inplaceVia(e, x, "HardtanhBackward0", func(self *T) (*T, error) { return hardtanhOp(e, self, lo, hi) }); err != nil {
		return nil, err
	}
	return NewTensorValue(th, x), nil
}

// hardtanhOp is tensor.Hardtanh, recorded (HardtanhBackward0).
func hardtanhOp(e *Engine, x *T, lo, hi float64) (*T, error) {
	return e.Apply("hardtanh", []*T{x}, autograd.Attrs{"min_val": lo, "max_val": hi}, func() (*T, error) { return tensor.Hardtanh(x, lo, hi) })
}

// logitOp is tensor.Logit, recorded (LogitBackward0); eps < 0 is none.
func logitOp(e *Engine, x *T, eps float64) (*T, error) {
	return e.Apply("logit", []*T{x}, autograd.Attrs{"eps": eps}, func() (*T, error) { return tensor.Logit(x, eps) })
}

// floatPowerOp is torch.float_power: both operands converted to f64 (a
// recorded to(f64) with preserve_format for tensors, ToCopyBackward0), then pow (PowBackward0
// for a number exponent, PowBackward1 for a tensor, PowBackward2 for a
// number base). The result is f64 whatever the inputs' dtypes.
func floatPowerOp(e *Engine, a, b *T) (*T, error) {
	to64 := func(t *T) (*T, error) {
		if t.IsWrappedNumber() {
			return tensor.ScalarFloat(t.FlatFloat64(0)), nil
		}
		return toPreserveOp(e, t, tensor.F64)
	}
	a64, err := to64(a)
	if err != nil {
		return nil, err
	}
	b64, err := to64(b)
	if err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "pow", tensor.Pow, a64, b64)
	if err == nil && a.IsWrappedNumber() && r.GradFn() != nil {
		autograd.SetGradFnName(r, "PowBackward2")
	}
	return r, err
}

// sgn, erfinv, lgamma and digamma (functions, methods and in-place
// methods through unaryFns and inplaceUnaryNames, added during package
// variable initialization as ops_more.go's) and nn.mish. The kernels are
// tensor.Sgn, Erfinv, Lgamma, Digamma and Mish; derivatives are in
// tensor/autograd/derivatives_torch_more.go.
var specialOpsAdded = addSpecialOps()

func addSpecialOps() bool {
	for name, f := range map[string]func(*T) (*T, error){
		"sgn": tensor.Sgn, "erfinv": tensor.Erfinv, "lgamma": tensor.Lgamma, "digamma": tensor.Digamma,
	} {
		unaryFns[name] = f
	}
	inplaceUnaryNames = append(inplaceUnaryNames, "sgn", "erfinv", "lgamma", "digamma")
	return true
}

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: ops_torch_more.go initialised before nn.go")
	}
	m.Members["mish"] = moduleFunc("nn", "mish", "mish(input, inplace=false): input * tanh(softplus(input)) (torch.nn.functional.mish), float inputs only (f16/bf16 computed in f32; integer and bool inputs are a RuntimeError, as PyTorch). grad_fn MishBackward0.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		inplace := false
		if err := runtime.UnpackArgs("mish", args, kwargs, "input", &x, "inplace?", &inplace); err != nil {
			return nil, err
		}
		e := engineOf(th)
		if !inplace {
			r, err := mishOp(e, x.t)
			return tensorResult(th, r, err)
		}
		if err := inplaceVia(e, x.t, "MishBackward0", func(self *T) (*T, error) { return mishOp(e, self) }); err != nil {
			return nil, err
		}
		return NewTensorValue(th, x.t), nil
	})
}

// mishOp is tensor.Mish, recorded (MishBackward0); integer and bool
// inputs are PyTorch's "mish_cpu" not implemented error.
func mishOp(e *Engine, x *T) (*T, error) {
	if err := floatInput("mish_cpu", x); err != nil {
		return nil, err
	}
	return e.Apply("mish", []*T{x}, nil, func() (*T, error) { return tensor.Mish(x) })
}
