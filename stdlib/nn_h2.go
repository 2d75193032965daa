package stdlib

import (
	"math"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// More of torch.nn.functional (PyTorch 1.13 names, defaults, grad_fn
// names and errors): cosine_similarity and pairwise_distance (also
// torch.cosine_similarity / torch.pairwise_distance), smooth_l1_loss,
// huber_loss, kl_div, soft_margin_loss, and the activations logsigmoid,
// relu6, hardsigmoid, hardswish, selu, celu, softsign, tanhshrink,
// softshrink, hardshrink, threshold, softmin and glu.
//
// The composites (cosine_similarity, pairwise_distance, the losses,
// softsign, tanhshrink, softmin, glu, relu6) are built of recorded ops as
// ATen builds them, so they differentiate (twice) exactly as PyTorch's.
// The pointwise activations with a fused ATen kernel (logsigmoid,
// hardsigmoid, hardswish, selu, celu, softshrink, hardshrink, threshold)
// are recorded as one node with ATen's backward formula (pointwiseOp):
// computed in float64 and rounded once to the input dtype; their
// gradients are not differentiable a second time.

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_h2.go initialised before nn.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("nn", name, doc, f) }
	fn("cosine_similarity", "cosine_similarity(x1, x2, dim=1, eps=1e-8): sum over dim of (x1 / max(||x1||, eps)) * (x2 / max(||x2||, eps)), x1 and x2 broadcast (ATen's formula: each normalised first; the clamp passes the gradient through). Both are converted to their promoted dtype, which must be a float one. grad_fn SumBackward1.", builtinCosineSimilarity)
	fn("pairwise_distance", "pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=false): the p-norm of x1 - x2 + eps over the last dim of the broadcast shape. grad_fn NormBackward1.", builtinPairwiseDistance)
	fn("smooth_l1_loss", "smooth_l1_loss(input, target, size_average=none, reduce=none, reduction=\"mean\", beta=1.0): 0.5 * d**2 / beta where |d| < beta, else |d| - 0.5 * beta (d = input - target; beta 0: l1_loss). grad_fn SmoothL1LossBackward0.", builtinSmoothL1)
	fn("huber_loss", "huber_loss(input, target, reduction=\"mean\", delta=1.0): 0.5 * d**2 where |d| < delta, else delta * (|d| - 0.5 * delta) (d = input - target). grad_fn HuberLossBackward0.", builtinHuber)
	fn("kl_div", "kl_div(input, target, size_average=none, reduce=none, reduction=\"mean\", log_target=false): the pointwise KL divergence of log-probabilities input from target: xlogy(target, target) - target * input (log_target: exp(target) * (target - input)), reduced by mean, sum, none or batchmean (sum / input.size(0)).", builtinKLDiv)
	fn("soft_margin_loss", "soft_margin_loss(input, target, size_average=none, reduce=none, reduction=\"mean\"): log(1 + exp(-target * input)), reduced. grad_fn SoftMarginLossBackward0.", builtinSoftMargin)
	fn("logsigmoid", "logsigmoid(input): log(sigmoid(x)), computed as min(x, 0) - log1p(exp(-|x|)). grad_fn LogSigmoidBackward0.", builtinPointwise("logsigmoid", "log_sigmoid_forward", "LogSigmoidBackward0", nil, logSigmoidFns))
	fn("relu6", "relu6(input, inplace=false): min(max(x, 0), 6) (hardtanh(x, 0, 6)). grad_fn HardtanhBackward0.", builtinRelu6)
	fn("hardsigmoid", "hardsigmoid(input, inplace=false): min(max(x + 3, 0), 6) / 6. grad_fn HardsigmoidBackward0.", builtinPointwise("hardsigmoid", "hardsigmoid_cpu", "HardsigmoidBackward0", []string{"inplace?"}, hardsigmoidFns))
	fn("hardswish", "hardswish(input, inplace=false): x * min(max(x + 3, 0), 6) / 6. grad_fn HardswishBackward0.", builtinPointwise("hardswish", "hardswish_cpu", "HardswishBackward0", []string{"inplace?"}, hardswishFns))
	fn("selu", "selu(input, inplace=false): scale * (x if x > 0 else alpha * (exp(x) - 1)), alpha = 1.6732632423543772, scale = 1.0507009873554805. grad_fn EluBackward0.", builtinPointwise("selu", "elu", "EluBackward0", []string{"inplace?"}, seluFns))
	fn("celu", "celu(input, alpha=1.0, inplace=false): max(0, x) + min(0, alpha * (exp(x / alpha) - 1)). grad_fn CeluBackward0.", builtinPointwise("celu", "elu", "CeluBackward0", []string{"alpha?", "inplace?"}, celuFns))
	fn("softshrink", "softshrink(input, lambd=0.5): x - lambd where x > lambd, x + lambd where x < -lambd, else 0. grad_fn SoftshrinkBackward0.", builtinPointwise("softshrink", "softshrink_cpu", "SoftshrinkBackward0", []string{"lambd?"}, softshrinkFns))
	fn("hardshrink", "hardshrink(input, lambd=0.5): x where |x| > lambd, else 0. grad_fn HardshrinkBackward0.", builtinPointwise("hardshrink", "hardshrink_cpu", "HardshrinkBackward0", []string{"lambd?"}, hardshrinkFns))
	fn("threshold", "threshold(input, threshold, value, inplace=false): x where x > threshold, else value. grad_fn ThresholdBackward0.", builtinPointwise("threshold", "threshold_cpu", "ThresholdBackward0", []string{"threshold", "value", "inplace?"}, thresholdFns))
	fn("softsign", "softsign(input): x / (1 + |x|). grad_fn DivBackward0.", builtinSoftsign)
	fn("tanhshrink", "tanhshrink(input): x - tanh(x). grad_fn SubBackward0.", builtinTanhshrink)
	fn("softmin", "softmin(input, dim=none, _stacklevel=3, dtype=none): softmax(-input, dim) (dim none: 0 for 0-, 1- and 3-D input, else 1, as PyTorch's legacy rule). grad_fn SoftmaxBackward0.", builtinSoftmin)
	fn("glu", "glu(input, dim=-1): a * sigmoid(b) for the halves a, b of input along dim (of even size). grad_fn GluBackward0.", builtinGLU)
	defGlobal("cosine_similarity", m.Members["cosine_similarity"].(*runtime.Builtin).Doc, builtinCosineSimilarity)
	defGlobal("pairwise_distance", m.Members["pairwise_distance"].(*runtime.Builtin).Doc, builtinPairwiseDistance)
}

// vm is a shorthand for calling a tensor method on a value.
func vm(th *runtime.Thread, recv runtime.Value, meth string, a ...runtime.Value) (runtime.Value, error) {
	return callMethod(th, recv, meth, a, nil)
}

// vmKw calls a tensor method with keyword arguments.
func vmKw(th *runtime.Thread, recv runtime.Value, meth string, kw []runtime.Kwarg, a ...runtime.Value) (runtime.Value, error) {
	return callMethod(th, recv, meth, a, kw)
}

// chain runs steps in order while none fails, each receiving the
// previous one's value (the first nil); it returns the last value.
func chain(steps ...func(runtime.Value) (runtime.Value, error)) (runtime.Value, error) {
	var v runtime.Value
	var err error
	for _, s := range steps {
		if err != nil {
			return nil, err
		}
		v, err = s(v)
	}
	return v, err
}

func builtinCosineSimilarity(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x1, x2 tensorArg
	dim := 1
	eps := 1e-8
	if err := runtime.UnpackArgs("cosine_similarity", args, kwargs, "x1", &x1, "x2", &x2, "dim?", &dim, "eps?", &eps); err != nil {
		return nil, err
	}
	common := tensor.Promote(x1.t.DType(), x2.t.DType())
	if !common.IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "expected common dtype to be floating point, yet common dtype is %s", common.TorchName())
	}
	e := engineOf(th)
	a, c := x1.t, x2.t
	var err error
	if a.DType() != common {
		if a, err = toOp(e, a, common); err != nil {
			return nil, err
		}
	}
	if c.DType() != common {
		if c, err = toOp(e, c, common); err != nil {
			return nil, err
		}
	}
	shape, err := tensor.BroadcastShapes(a.Shape(), c.Shape())
	if err != nil {
		return nil, runtime.Errorf("RuntimeError", "The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension", 0, 0)
	}
	if a, err = expandOp(e, a, shape); err != nil {
		return nil, err
	}
	if c, err = expandOp(e, c, shape); err != nil {
		return nil, err
	}
	d, err := normDim(dim, len(shape))
	if err != nil {
		return nil, err
	}
	normalised := func(x *T) (*T, error) {
		n, err := callLinalg(th, "vector_norm", []runtime.Value{wrap(e, x), runtime.Float(2), iv(d)}, []runtime.Kwarg{{Name: "keepdim", Value: runtime.Bool(true)}})
		if err != nil {
			return nil, err
		}
		nt := n.(*TensorValue).t
		// PyTorch 1.13 clamps the norm in place under no_grad: the clamp
		// records nothing, but the norm's backward then reads the clamped
		// result (grad * x / max(||x||, eps)), which is what the factor
		// ||x|| / max(||x||, eps) below gives
		lo, err := tensor.Full([]int{}, eps, nt.DType())
		if err != nil {
			return nil, err
		}
		clamped, err := tensor.Maximum(nt, lo)
		if err != nil {
			return nil, err
		}
		// the factor is 1 wherever the norm exceeds eps: the op is
		// treated as linear (scaled by the fixed factor) for its double
		// backward
		scaled := func(g *T) (*T, error) {
			f, err := tensor.Div(nt, clamped)
			if err != nil {
				return nil, err
			}
			return e.Apply("mul", []*T{g, f}, nil, func() (*T, error) { return tensor.Mul(g, f) })
		}
		cl, err := e.ApplyLinear("CloneBackward0", []*T{nt}, func() (*T, error) { return clamped, nil }, func(g *T) ([]*T, error) {
			f, err := scaled(g)
			return []*T{f}, err
		}, func(us []*T) (*T, error) { return scaled(us[0]) })
		if err != nil {
			return nil, err
		}
		return applyBinary(e, "div", tensor.Div, x, cl)
	}
	an, err := normalised(a)
	if err != nil {
		return nil, err
	}
	cn, err := normalised(c)
	if err != nil {
		return nil, err
	}
	p, err := applyBinary(e, "mul", tensor.Mul, an, cn)
	if err != nil {
		return nil, err
	}
	r, err := sumOp(e, p, []int{d}, false)
	return tensorResult(th, r, err)
}

func builtinPairwiseDistance(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x1, x2 tensorArg
	p, eps := 2.0, 1e-6
	keep := false
	if err := runtime.UnpackArgs("pairwise_distance", args, kwargs, "x1", &x1, "x2", &x2, "p?", &p, "eps?", &eps, "keepdim?", &keep); err != nil {
		return nil, err
	}
	e := engineOf(th)
	inner := max(x1.t.Dim(), x2.t.Dim()) - 1
	d, err := chain(func(runtime.Value) (runtime.Value, error) { return vm(th, wrap(e, x1.t), "sub", wrap(e, x2.t)) },
		func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "add", runtime.Float(eps)) })
	if err != nil {
		return nil, err
	}
	if inner < 0 {
		// at::norm over dim -1 of a 0-d tensor
		inner = -1
	}
	r, err := vmKw(th, d, "norm", []runtime.Kwarg{{Name: "keepdim", Value: runtime.Bool(keep)}}, runtime.Float(p), iv(inner))
	return scalarNode(r, err, "NormBackward1")
}

// lossArgs unpacks (input, target, size_average=none, reduce=none,
// reduction="mean") plus the extra float argument named extra (when not
// empty), resolving the legacy size_average/reduce pair as PyTorch's
// _Reduction.legacy_get_string.
func lossArgs(name string, args []runtime.Value, kwargs []runtime.Kwarg, legacy bool, extra string, extraV *float64) (x, y *T, reduction string, err error) {
	var xa, ya tensorArg
	var sizeAvg, red runtime.Value = runtime.None, runtime.None
	reduction = "mean"
	spec := []any{"input", &xa, "target", &ya}
	if legacy {
		spec = append(spec, "size_average?", &sizeAvg, "reduce?", &red)
	}
	spec = append(spec, "reduction?", &reduction)
	if extra != "" {
		spec = append(spec, extra+"?", extraV)
	}
	if err = runtime.UnpackArgs(name, args, kwargs, spec...); err != nil {
		return
	}
	if sizeAvg != runtime.None || red != runtime.None {
		sa, rd := sizeAvg != runtime.Bool(false), red != runtime.Bool(false)
		switch {
		case !rd:
			reduction = "none"
		case sa:
			reduction = "mean"
		default:
			reduction = "sum"
		}
	}
	return xa.t, ya.t, reduction, nil
}

// elementwiseLoss checks the reduction and the shapes (a different target
// size is PyTorch's UserWarning, and then broadcasts) and returns d =
// input - target.
func elementwiseLoss(th *runtime.Thread, x, y *T, reduction string) (runtime.Value, error) {
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	e := engineOf(th)
	return vm(th, wrap(e, x), "sub", wrap(e, y))
}

// reduceValue applies a loss reduction to a tensor value.
func reduceValue(th *runtime.Thread, l runtime.Value, reduction string) (runtime.Value, error) {
	switch reduction {
	case "mean":
		return vm(th, l, "mean")
	case "sum":
		return vm(th, l, "sum")
	}
	return l, nil
}

func builtinSmoothL1(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	beta := 1.0
	x, y, reduction, err := lossArgs("smooth_l1_loss", args, kwargs, true, "beta", &beta)
	if err != nil {
		return nil, err
	}
	if beta < 0 {
		return nil, runtime.Errorf("RuntimeError", "smooth_l1_loss does not support negative values for beta.")
	}
	if beta == 0 {
		l, err := callModule(th, "nn", "l1_loss", []runtime.Value{wrap(engineOf(th), x), wrap(engineOf(th), y)}, []runtime.Kwarg{{Name: "reduction", Value: runtime.String(reduction)}})
		return l, err
	}
	return piecewiseLoss(th, "SmoothL1LossBackward0", x, y, reduction, beta, 1/beta, 1, 0.5*beta)
}

func builtinHuber(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	delta := 1.0
	x, y, reduction, err := lossArgs("huber_loss", args, kwargs, false, "delta", &delta)
	if err != nil {
		return nil, err
	}
	if !(delta > 0) {
		return nil, runtime.Errorf("RuntimeError", "huber_loss does not support non-positive values for delta.")
	}
	return piecewiseLoss(th, "HuberLossBackward0", x, y, reduction, delta, 1, delta, 0.5*delta)
}

// piecewiseLoss is smooth_l1 and huber: with z = |input - target|,
// 0.5 * z * z * quad where z < cut, else lin * (z - off); reduced.
func piecewiseLoss(th *runtime.Thread, node string, x, y *T, reduction string, cut, quad, lin, off float64) (runtime.Value, error) {
	d, err := elementwiseLoss(th, x, y, reduction)
	if err != nil {
		return nil, err
	}
	z, err := vm(th, d, "abs")
	if err != nil {
		return nil, err
	}
	q, err := chain(func(runtime.Value) (runtime.Value, error) { return vm(th, z, "mul", runtime.Float(0.5)) },
		func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "mul", z) },
		func(v runtime.Value) (runtime.Value, error) {
			if quad == 1 {
				return v, nil
			}
			return vm(th, v, "div", runtime.Float(1/quad))
		})
	if err != nil {
		return nil, err
	}
	l, err := chain(func(runtime.Value) (runtime.Value, error) { return vm(th, z, "sub", runtime.Float(off)) },
		func(v runtime.Value) (runtime.Value, error) {
			if lin == 1 {
				return v, nil
			}
			return vm(th, v, "mul", runtime.Float(lin))
		})
	if err != nil {
		return nil, err
	}
	small, err := vm(th, z, "lt", runtime.Float(cut))
	if err != nil {
		return nil, err
	}
	w, err := callGlobal(th, "where", []runtime.Value{small, q, l}, nil)
	if err != nil {
		return nil, err
	}
	r, err := reduceValue(th, w, reduction)
	return scalarNode(r, err, node)
}

func builtinKLDiv(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var xa, ya tensorArg
	var sizeAvg, red runtime.Value = runtime.None, runtime.None
	reduction := "mean"
	logTarget := false
	if err := runtime.UnpackArgs("kl_div", args, kwargs, "input", &xa, "target", &ya, "size_average?", &sizeAvg, "reduce?", &red, "reduction?", &reduction, "log_target?", &logTarget); err != nil {
		return nil, err
	}
	if sizeAvg != runtime.None || red != runtime.None {
		sa, rd := sizeAvg != runtime.Bool(false), red != runtime.Bool(false)
		switch {
		case !rd:
			reduction = "none"
		case sa:
			reduction = "mean"
		default:
			reduction = "sum"
		}
	} else if reduction != "batchmean" {
		if err := checkReduction(reduction); err != nil {
			return nil, err
		}
	}
	e := engineOf(th)
	x, y := wrap(e, xa.t), wrap(e, ya.t)
	var l runtime.Value
	var err error
	if logTarget {
		// exp(target) * (target - input)
		var ex, d runtime.Value
		if ex, err = vm(th, y, "exp"); err == nil {
			if d, err = vm(th, y, "sub", x); err == nil {
				l, err = vm(th, ex, "mul", d)
			}
		}
	} else {
		// xlogy(target, target) - target * input
		var xl, tx runtime.Value
		if xl, err = vm(th, y, "xlogy", y); err == nil {
			if tx, err = vm(th, y, "mul", x); err == nil {
				l, err = vm(th, xl, "sub", tx)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if reduction == "batchmean" {
		s, err := vm(th, l, "sum")
		if err != nil || xa.t.Dim() == 0 {
			return s, err
		}
		return vm(th, s, "div", iv(xa.t.Shape()[0]))
	}
	return reduceValue(th, l, reduction)
}

func builtinSoftMargin(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	x, y, reduction, err := lossArgs("soft_margin_loss", args, kwargs, true, "", nil)
	if err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	e := engineOf(th)
	// log1p(exp(-target * input))
	l, err := chain(func(runtime.Value) (runtime.Value, error) { return vm(th, wrap(e, y), "neg") },
		func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "mul", wrap(e, x)) },
		func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "exp") },
		func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "log1p") })
	if err != nil {
		return nil, err
	}
	r, err := reduceValue(th, l, reduction)
	return scalarNode(r, err, "SoftMarginLossBackward0")
}

func builtinRelu6(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	inplace := false
	if err := runtime.UnpackArgs("relu6", args, kwargs, "input", &x, "inplace?", &inplace); err != nil {
		return nil, err
	}
	if inplace {
		return callModule(th, "nn", "hardtanh_", []runtime.Value{args[0], runtime.Float(0), runtime.Float(6)}, nil)
	}
	r, err := hardtanhOp(engineOf(th), x.t, 0, 6)
	return tensorResult(th, r, err)
}

func builtinSoftsign(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	if err := runtime.UnpackArgs("softsign", args, kwargs, "input", &x); err != nil {
		return nil, err
	}
	xv := wrap(engineOf(th), x.t)
	den, err := chain(func(runtime.Value) (runtime.Value, error) { return vm(th, xv, "abs") }, func(v runtime.Value) (runtime.Value, error) { return vm(th, v, "add", iv(1)) })
	if err != nil {
		return nil, err
	}
	return vm(th, xv, "div", den)
}

func builtinTanhshrink(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	if err := runtime.UnpackArgs("tanhshrink", args, kwargs, "input", &x); err != nil {
		return nil, err
	}
	xv := wrap(engineOf(th), x.t)
	t, err := vm(th, xv, "tanh")
	if err != nil {
		return nil, err
	}
	return vm(th, xv, "sub", t)
}

func builtinSoftmin(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var dim intOpt
	var stack, dt runtime.Value = runtime.None, runtime.None
	if err := runtime.UnpackArgs("softmin", args, kwargs, "input", &x, "dim?", &dim, "_stacklevel?", &stack, "dtype?", &dt); err != nil {
		return nil, err
	}
	d := dim.v
	if !dim.ok {
		// torch.nn.functional._get_softmax_dim
		switch x.t.Dim() {
		case 0, 1, 3:
			d = 0
		default:
			d = 1
		}
	}
	neg, err := vm(th, wrap(engineOf(th), x.t), "neg")
	if err != nil {
		return nil, err
	}
	var kw []runtime.Kwarg
	if dt != runtime.None {
		kw = []runtime.Kwarg{{Name: "dtype", Value: dt}}
	}
	return vmKw(th, neg, "softmax", kw, iv(d))
}

func builtinGLU(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	dim := -1
	if err := runtime.UnpackArgs("glu", args, kwargs, "input", &x, "dim?", &dim); err != nil {
		return nil, err
	}
	if x.t.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "glu does not support scalars because halving size must be even")
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	n := x.t.Shape()[d]
	if n%2 != 0 {
		return nil, runtime.Errorf("RuntimeError", "Halving dimension must be even, but dimension %d is size %d", d, n)
	}
	if err := floatInput("glu", x.t); err != nil {
		return nil, err
	}
	e := engineOf(th)
	a, err := narrowOp(e, x.t, d, 0, n/2)
	if err != nil {
		return nil, err
	}
	g, err := narrowOp(e, x.t, d, n/2, n/2)
	if err == nil {
		g, err = unaryOp(e, "sigmoid", g)
	}
	if err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "mul", tensor.Mul, a, g)
	r, err = named("GluBackward0", r, err)
	return tensorResult(th, r, err)
}

// pointwiseFns are an activation's forward f(x) and derivative df(x),
// given its float parameters in the order of its signature.
type pointwiseFns func(params []float64) (f, df func(x float64) float64)

// builtinPointwise makes an nn activation of input plus the float
// parameters named in params (a trailing "inplace?" is accepted and
// ignored: the result is a new tensor) recorded as one node named node
// with df as its backward. kernel names ATen's kernel in the error for a
// non-float input.
func builtinPointwise(name, kernel, node string, params []string, fns pointwiseFns) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		spec := []any{"input", &x}
		var vals []float64
		var ptrs []*floatOpt
		inplace := false
		for _, p := range params {
			if p == "inplace?" {
				spec = append(spec, p, &inplace)
				continue
			}
			f := &floatOpt{}
			ptrs = append(ptrs, f)
			spec = append(spec, p, f)
		}
		if err := runtime.UnpackArgs(name, args, kwargs, spec...); err != nil {
			return nil, err
		}
		for i, p := range ptrs {
			if !p.ok {
				if i >= len(pointwiseDefaults[name]) {
					return nil, runtime.Errorf("TypeError", "%s(): argument '%s' must be a number, not NoneType", name, strings.TrimSuffix(params[i], "?"))
				}
				p.v = pointwiseDefaults[name][i]
			}
			vals = append(vals, p.v)
		}
		if err := floatInput(kernel, x.t); err != nil {
			return nil, err
		}
		if name == "softshrink" && vals[0] < 0 {
			return nil, runtime.Errorf("RuntimeError", "lambda must be greater or equal to 0, but found to be %s.", tensor.CppDouble(vals[0]))
		}
		f, df := fns(vals)
		var d2f func(float64) float64
		if mk := pointwiseSecond[name]; mk != nil {
			d2f = mk(vals)
		}
		r, err := pointwiseOp(engineOf(th), node, x.t, f, df, d2f)
		if err != nil {
			return nil, err
		}
		if inplace {
			return callMethod(th, args[0], "copy_", []runtime.Value{wrap(engineOf(th), r)}, nil)
		}
		return tensorResult(th, r, nil)
	}
}

// pointwiseDefaults are the defaults of the float parameters of the
// pointwise activations (none for required ones).
var pointwiseDefaults = map[string][]float64{
	"celu":       {1},
	"softshrink": {0.5},
	"hardshrink": {0.5},
}

// pointwiseOp records y = f(x) elementwise as one node named name whose
// backward is grad * df(x); both computed in float64 and rounded once to
// x's dtype. The result is contiguous. more, when given, are the further
// derivatives (d²f, ...): a create_graph backward then records df(x) as a
// pointwise op of its own, so the gradient can be differentiated again
// (without them that is a NotImplementedError).
func pointwiseOp(e *Engine, name string, x *T, f, df func(float64) float64, more ...func(float64) float64) (*T, error) {
	dt := x.DType()
	shape := x.Shape()
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() && len(more) > 0 && more[0] != nil {
			// create_graph: grad * df(x) with df(x) a recorded pointwise
			// op (derivative more[0]), so the gradient is differentiable
			// again, in x and in grad
			d, err := pointwiseOp(e, name+"Backward", x, df, more[0], more[1:]...)
			if err != nil {
				return nil, err
			}
			gi, err := e.Apply("mul", []*T{g, d}, nil, func() (*T, error) { return tensor.Mul(g, d) })
			return []*T{gi}, err
		}
		xs := x.ToFloat64s()
		gs := g.ToFloat64s()
		for i := range gs {
			gs[i] *= df(xs[i])
		}
		gi, err := tensor.FromFloat64s(gs, shape, g.DType())
		return []*T{gi}, err
	}
	return e.ApplyCustom(name, []*T{x}, func() (*T, error) {
		v := x.ToFloat64s()
		for i, xi := range v {
			v[i] = f(xi)
		}
		r, err := tensor.FromFloat64s(v, shape, dt)
		if err != nil || x.IsContiguous() {
			return r, err
		}
		return r.CloneLayoutOf(x), nil // PyTorch's output follows x's layout
	}, backward)
}

// pointwiseSecond gives, by function name, the second derivative of the
// pointwise activations (zero almost everywhere for the piecewise-linear
// ones), for their double backward.
var pointwiseSecond = map[string]func(p []float64) func(float64) float64{
	"logsigmoid": func([]float64) func(float64) float64 {
		return func(x float64) float64 {
			s := 1 / (1 + math.Exp(-x))
			return -s * (1 - s)
		}
	},
	"hardsigmoid": func([]float64) func(float64) float64 { return func(float64) float64 { return 0 } },
	"hardswish": func([]float64) func(float64) float64 {
		return func(x float64) float64 {
			if x > -3 && x < 3 { // derivatives.yaml: -3 < self < 3, strict
				return 1.0 / 3
			}
			return 0
		}
	},
	"selu": func([]float64) func(float64) float64 {
		return func(x float64) float64 {
			if x >= 0 { // elu_double_backward: nonzero where self < 0
				return 0
			}
			return seluNegCoef * math.Exp(x)
		}
	},
	"celu": func(p []float64) func(float64) float64 {
		return func(x float64) float64 {
			if x >= 0 { // elu_double_backward: nonzero where self < 0
				return 0
			}
			return math.Exp(x/p[0]) / p[0]
		}
	},
	"softshrink": func([]float64) func(float64) float64 { return func(float64) float64 { return 0 } },
	"hardshrink": func([]float64) func(float64) float64 { return func(float64) float64 { return 0 } },
	"threshold":  func([]float64) func(float64) float64 { return func(float64) float64 { return 0 } },
}

func logSigmoidFns([]float64) (f, df func(float64) float64) {
	return func(x float64) float64 { return math.Min(x, 0) - math.Log1p(math.Exp(-math.Abs(x))) },
		func(x float64) float64 {
			z := math.Exp(-math.Abs(x))
			if x < 0 {
				return 1 - z/(1+z)
			}
			return z / (1 + z)
		}
}

// hardsigmoidSlope is the derivative of hardsigmoid inside (-3, 3) as
// PyTorch's CPU kernel writes it, scalar_t(1.0f / 6.0f): the float32 1/6
// even for float64 tensors.
var hardsigmoidSlope = float64(float32(1.0) / 6)

func hardsigmoidFns([]float64) (f, df func(float64) float64) {
	return func(x float64) float64 { return math.Min(math.Max(x+3, 0), 6) / 6 },
		func(x float64) float64 {
			if x > -3 && x < 3 {
				return hardsigmoidSlope
			}
			return 0
		}
}

func hardswishFns([]float64) (f, df func(float64) float64) {
	return func(x float64) float64 { return x * math.Min(math.Max(x+3, 0), 6) / 6 },
		func(x float64) float64 {
			switch {
			case x < -3:
				return 0
			case x <= 3:
				return x/3 + 0.5
			}
			return 1
		}
}

// SELU's constants (Klambauer et al., "Self-Normalizing Neural Networks",
// 2017), as torch.nn.functional.selu.
const (
	seluAlpha = 1.6732632423543772848170429916717
	seluScale = 1.0507009873554804934193349852946
)

// seluNegCoef is alpha * scale as PyTorch's elu kernels compute negcoef:
// the product of the two float64 constants rounded once (1.7580993408473766;
// the exact constant product rounds to 1.7580993408473768).
var seluNegCoef = func(a, s float64) float64 { return a * s }(seluAlpha, seluScale)

func seluFns([]float64) (f, df func(float64) float64) {
	return func(x float64) float64 {
			if x > 0 {
				return seluScale * x
			}
			return seluNegCoef * math.Expm1(x)
		}, func(x float64) float64 {
			if x > 0 {
				return seluScale
			}
			return seluNegCoef * math.Exp(x)
		}
}

func celuFns(p []float64) (f, df func(float64) float64) {
	alpha := p[0]
	return func(x float64) float64 {
			if x > 0 {
				return x
			}
			return alpha * math.Expm1(x/alpha)
		}, func(x float64) float64 {
			if x > 0 {
				return 1
			}
			return math.Exp(x / alpha)
		}
}

func softshrinkFns(p []float64) (f, df func(float64) float64) {
	l := p[0]
	return func(x float64) float64 {
			switch {
			case x > l:
				return x - l
			case x < -l:
				return x + l
			}
			return 0
		}, func(x float64) float64 {
			if x > l || x < -l {
				return 1
			}
			return 0
		}
}

func hardshrinkFns(p []float64) (f, df func(float64) float64) {
	l := p[0]
	return func(x float64) float64 {
			if x >= -l && x <= l {
				return 0
			}
			return x
		}, func(x float64) float64 {
			if x >= -l && x <= l {
				return 0
			}
			return 1
		}
}

func thresholdFns(p []float64) (f, df func(float64) float64) {
	th, val := p[0], p[1]
	return func(x float64) float64 {
			if x <= th {
				return val
			}
			return x
		}, func(x float64) float64 {
			if x <= th {
				return 0
			}
			return 1
		}
}

// callModule calls the member name of the stdlib module mod.
func callModule(th *runtime.Thread, mod, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	f, ok := modules[mod].Members[name].(*runtime.Builtin)
	if !ok {
		return nil, runtime.Errorf("AttributeError", "module '%s' has no attribute '%s'", mod, name)
	}
	return f.Call(th, args, kwargs)
}
