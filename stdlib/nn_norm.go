package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// batch_norm, group_norm and instance_norm of torch.nn.functional
// (PyTorch 1.13 arguments, errors and grad_fn names), composed of recorded
// ops (mean, sub, mul, add, rsqrt, reshape) so that every gradient is
// exact and differentiable again; the result's node is renamed as
// PyTorch's (NativeBatchNormBackward0, NativeGroupNormBackward0,
// ViewBackward0). Statistics: the biased variance normalises; running
// variances take the unbiased one (Bessel's correction), as ATen's.

// channelShape is [1, C, 1, ...] for an input of dim d.
func channelShape(C, d int) []int {
	s := make([]int, d)
	for i := range s {
		s[i] = 1
	}
	if d > 1 {
		s[1] = C
	}
	return s
}

// normalize returns (x - mean) * rsqrt(var + eps) with mean and the
// biased var over dims (keepdim), and the mean and var.
func normalize(e *Engine, x *T, dims []int, eps float64) (y, mean, variance *T, err error) {
	if mean, err = meanOp(e, x, dims, true); err != nil {
		return
	}
	var d, sq, inv *T
	if d, err = applyBinary(e, "sub", tensor.Sub, x, mean); err != nil {
		return
	}
	if sq, err = applyBinary(e, "mul", tensor.Mul, d, d); err != nil {
		return
	}
	if variance, err = meanOp(e, sq, dims, true); err != nil {
		return
	}
	if inv, err = applyBinary(e, "add", tensor.Add, variance, scalarOf(eps)); err != nil {
		return
	}
	if inv, err = unaryOp(e, "rsqrt", inv); err != nil {
		return
	}
	y, err = applyBinary(e, "mul", tensor.Mul, d, inv)
	return
}

// affine returns y * w + b with w and b (nil: skipped) reshaped to shape.
func affine(e *Engine, y, w, b *T, shape []int) (*T, error) {
	var err error
	for i, p := range []*T{w, b} {
		if p == nil {
			continue
		}
		pr, err := reshapeOp(e, p, shape)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			y, err = applyBinary(e, "mul", tensor.Mul, y, pr)
		} else {
			y, err = applyBinary(e, "add", tensor.Add, y, pr)
		}
		if err != nil {
			return nil, err
		}
	}
	return y, err
}

// updateRunning sets running = (1 - momentum) * running + momentum * stat
// in place, outside autograd (stat reshaped to running's shape).
func updateRunning(running, stat *T, momentum float64) error {
	if running == nil {
		return nil
	}
	s, err := stat.Reshape(running.Shape()...)
	if err != nil {
		return err
	}
	if s, err = s.To(running.DType()); err != nil {
		return err
	}
	a, err := tensor.Mul(running, tensor.ScalarFloat(1-momentum))
	if err != nil {
		return err
	}
	b, err := tensor.Mul(s, tensor.ScalarFloat(momentum))
	if err != nil {
		return err
	}
	if a, err = tensor.Add(a, b); err != nil {
		return err
	}
	return running.CopyInplace(a)
}

func numelCheck(name string, t *T, want, mult int) error {
	if t != nil && t.Numel()*mult != want {
		return runtime.Errorf("RuntimeError", "%s should contain %d elements not %d", name, want, t.Numel()*mult)
	}
	return nil
}

func nnBatchNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var rm, rv, w, bias tensorOpt
	training := false
	momentum, eps := 0.1, 1e-5
	if err := runtime.UnpackArgs("batch_norm", args, kwargs, "input", &x, "running_mean", &rm, "running_var", &rv, "weight?", &w, "bias?", &bias,
		"training?", &training, "momentum?", &momentum, "eps?", &eps); err != nil {
		return nil, err
	}
	xt := x.t
	if xt.Dim() < 2 {
		return nil, runtime.Errorf("ValueError", "expected 2D or higher input (got %dD input)", xt.Dim())
	}
	if !xt.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "\"batch_norm\" not implemented for '%s'", pyTypeName(xt.DType()))
	}
	C := xt.Shape()[1]
	if training && xt.Numel()/max(C, 1) == 1 {
		return nil, runtime.Errorf("ValueError", "Expected more than 1 value per channel when training, got input size %s", torchSize(xt.Shape()))
	}
	if !training {
		if rm.t == nil {
			return nil, runtime.Errorf("RuntimeError", "running_mean must be defined in evaluation mode")
		}
		if rv.t == nil {
			return nil, runtime.Errorf("RuntimeError", "running_var must be defined in evaluation mode")
		}
	}
	for _, c := range []struct {
		n string
		t *T
	}{{"weight", w.t}, {"bias", bias.t}, {"running_mean", rm.t}, {"running_var", rv.t}} {
		if err := numelCheck(c.n, c.t, C, 1); err != nil {
			return nil, err
		}
	}
	e := engineOf(th)
	d := xt.Dim()
	shape := channelShape(C, d)
	dims := []int{0}
	for i := 2; i < d; i++ {
		dims = append(dims, i)
	}
	var y *T
	var err error
	if training {
		var mean, variance *T
		if y, mean, variance, err = normalize(e, xt, dims, eps); err != nil {
			return nil, err
		}
		if rm.t != nil || rv.t != nil {
			n := float64(xt.Numel() / C)
			if err := updateRunning(rm.t, mean, momentum); err != nil {
				return nil, err
			}
			unb, err := tensor.Mul(variance, tensor.ScalarFloat(n/(n-1)))
			if err != nil {
				return nil, err
			}
			if err := updateRunning(rv.t, unb, momentum); err != nil {
				return nil, err
			}
		}
	} else {
		if y, err = normalizeRunning(e, xt, rm.t, rv.t, shape, eps); err != nil {
			return nil, err
		}
	}
	if y, err = affine(e, y, w.t, bias.t, shape); err != nil {
		return nil, err
	}
	if y, err = toOp(e, y, xt.DType()); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(y, "NativeBatchNormBackward0")
	return NewTensorValue(th, y), nil
}

func nnGroupNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var groups int
	var w, bias tensorOpt
	eps := 1e-5
	if err := runtime.UnpackArgs("group_norm", args, kwargs, "input", &x, "num_groups", &groups, "weight?", &w, "bias?", &bias, "eps?", &eps); err != nil {
		return nil, err
	}
	xt := x.t
	if xt.Dim() < 2 {
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got 1)", -max(xt.Dim(), 1), max(xt.Dim(), 1)-1)
	}
	shape := xt.Shape()
	N, C := shape[0], shape[1]
	if groups == 0 {
		return nil, runtime.Errorf("ZeroDivisionError", "integer division or modulo by zero")
	}
	if groups < 0 || C%groups != 0 {
		return nil, runtime.Errorf("RuntimeError", "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d", intList(shape), groups)
	}
	for _, c := range []struct {
		n string
		t *T
	}{{"weight", w.t}, {"bias", bias.t}} {
		if c.t != nil && (c.t.Dim() != 1 || c.t.Numel() != C) {
			return nil, runtime.Errorf("RuntimeError", "Expected %s to be a vector of size equal to the number of channels in input, but got %s of shape %s and input of shape %s", c.n, c.n, intList(c.t.Shape()), intList(shape))
		}
	}
	if !xt.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "\"GroupNormKernelImpl\" not implemented for '%s'", pyTypeName(xt.DType()))
	}
	e := engineOf(th)
	per := 1
	for _, s := range shape[2:] {
		per *= s
	}
	xc, err := contiguousOp(e, xt)
	if err != nil {
		return nil, err
	}
	xr, err := reshapeOp(e, xc, []int{N, groups, C / groups * per})
	if err != nil {
		return nil, err
	}
	y, _, _, err := normalize(e, xr, []int{2}, eps)
	if err != nil {
		return nil, err
	}
	if y, err = reshapeOp(e, y, shape); err != nil {
		return nil, err
	}
	if y, err = affine(e, y, w.t, bias.t, channelShape(C, len(shape))); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(y, "NativeGroupNormBackward0")
	return NewTensorValue(th, y), nil
}

func nnInstanceNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var rm, rv, w, bias tensorOpt
	useInput := true
	momentum, eps := 0.1, 1e-5
	if err := runtime.UnpackArgs("instance_norm", args, kwargs, "input", &x, "running_mean?", &rm, "running_var?", &rv, "weight?", &w, "bias?", &bias,
		"use_input_stats?", &useInput, "momentum?", &momentum, "eps?", &eps); err != nil {
		return nil, err
	}
	xt := x.t
	if xt.Dim() < 2 {
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got 1)", -max(xt.Dim(), 1), max(xt.Dim(), 1)-1)
	}
	shape := xt.Shape()
	N, C := shape[0], shape[1]
	spatial := 1
	for _, s := range shape[2:] {
		spatial *= s
	}
	if useInput && spatial <= 1 {
		return nil, runtime.Errorf("ValueError", "Expected more than 1 spatial element when training, got input size %s", torchSize(shape))
	}
	for _, c := range []struct {
		n string
		t *T
	}{{"weight", w.t}, {"bias", bias.t}, {"running_mean", rm.t}, {"running_var", rv.t}} {
		if err := numelCheck(c.n, c.t, N*C, N); err != nil {
			return nil, err
		}
	}
	if !useInput && (rm.t == nil || rv.t == nil) {
		return nil, runtime.Errorf("RuntimeError", "Expected running_mean and running_var to be defined when use_input_stats is false")
	}
	if !xt.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "\"batch_norm\" not implemented for '%s'", pyTypeName(xt.DType()))
	}
	e := engineOf(th)
	cs := channelShape(C, len(shape))
	dims := make([]int, 0, len(shape))
	for i := 2; i < len(shape); i++ {
		dims = append(dims, i)
	}
	var y *T
	var err error
	if useInput {
		var mean, variance *T
		if y, mean, variance, err = normalize(e, xt, dims, eps); err != nil {
			return nil, err
		}
		if rm.t != nil || rv.t != nil {
			m, err := tensor.Mean(mean, []int{0}, false)
			if err != nil {
				return nil, err
			}
			n := float64(spatial)
			unb, err := tensor.Mul(variance, tensor.ScalarFloat(n/(n-1)))
			if err == nil {
				unb, err = tensor.Mean(unb, []int{0}, false)
			}
			if err != nil {
				return nil, err
			}
			if err := updateRunning(rm.t, m, momentum); err != nil {
				return nil, err
			}
			if err := updateRunning(rv.t, unb, momentum); err != nil {
				return nil, err
			}
		}
	} else {
		if y, err = normalizeRunning(e, xt, rm.t, rv.t, cs, eps); err != nil {
			return nil, err
		}
	}
	if y, err = affine(e, y, w.t, bias.t, cs); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(y, "ViewBackward0")
	return NewTensorValue(th, y), nil
}

// normalizeRunning is (x - mean) * rsqrt(var + eps) with the running
// statistics mean and var viewed as shape (batch_norm's and
// instance_norm's evaluation mode), recorded op by op.
func normalizeRunning(e *Engine, x, mean, variance *T, shape []int, eps float64) (*T, error) {
	m, err := reshapeOp(e, mean, shape)
	if err != nil {
		return nil, err
	}
	v, err := reshapeOp(e, variance, shape)
	if err != nil {
		return nil, err
	}
	y, err := applyBinary(e, "sub", tensor.Sub, x, m)
	if err != nil {
		return nil, err
	}
	if v, err = applyBinary(e, "add", tensor.Add, v, scalarOf(eps)); err != nil {
		return nil, err
	}
	if v, err = unaryOp(e, "rsqrt", v); err != nil {
		return nil, err
	}
	return applyBinary(e, "mul", tensor.Mul, y, v)
}
