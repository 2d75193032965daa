package stdlib

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// More of torch.nn.functional: one_hot, nll_loss, dropout, silu,
// leaky_relu, softplus, elu, normalize, l1_loss, binary_cross_entropy,
// binary_cross_entropy_with_logits, embedding and pad (constant mode), and
// the module methods state_dict, named_parameters, train, eval and
// requires_grad_ of nn layers. Activations and losses are composed from
// recorded ops (so they are differentiable, twice where their parts are);
// binary_cross_entropy and embedding record PyTorch's own backward
// formulas. Signatures, defaults and error kinds are PyTorch 1.13's.

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_more.go initialised before nn.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("nn", name, doc, f) }
	fn("one_hot", "one_hot(tensor, num_classes=-1): the i64 one-hot encoding [..., num_classes] of an i64 tensor of class indices (num_classes -1: max + 1).", nnOneHot)
	fn("nll_loss", "nll_loss(input, target, weight=none, ignore_index=-100, reduction=\"mean\"): the negative log-likelihood -input[n, target[n]] (weighted) of log-probabilities input [N, C, ...] or [C] against i64 class indices [N, ...]; the mean divides by the total weight of the targets not ignored.", builtinNamed("NllLossBackward0", nnNLLLoss))
	fn("dropout", "dropout(input, p=0.5, training=true, inplace=false): zero each element with probability p (the interpreter's generator) and scale the others by 1/(1-p); the identity when not training.", nnDropout)
	fn("silu", "silu(input): x * sigmoid(x).", builtinNamed("SiluBackward0", activation("silu", silu)))
	fn("leaky_relu", "leaky_relu(input, negative_slope=0.01): x where x > 0, else negative_slope * x.", builtinNamed("LeakyReluBackward0", nnLeakyRelu))
	fn("softplus", "softplus(input, beta=1, threshold=20): log(1 + exp(beta * x)) / beta, or x where beta * x > threshold.", builtinNamed("SoftplusBackward0", nnSoftplus))
	fn("elu", "elu(input, alpha=1.0): x where x > 0, else alpha * (exp(x) - 1).", builtinNamed("EluBackward0", nnElu))
	fn("normalize", "normalize(input, p=2.0, dim=1, eps=1e-12): input / max(||input||_p along dim, eps).", nnNormalize)
	fn("l1_loss", "l1_loss(input, target, reduction=\"mean\"): mean (or sum, or none) of |input - target|.", nnL1Loss)
	fn("binary_cross_entropy", "binary_cross_entropy(input, target, weight=none, reduction=\"mean\"): -w * (t * log(x) + (1 - t) * log(1 - x)) for probabilities x in [0, 1], each log clamped to >= -100 (PyTorch's rule).", nnBCE)
	fn("binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits(input, target, weight=none, reduction=\"mean\", pos_weight=none): binary cross entropy of sigmoid(input), computed stably from the logits: (1 - t) * x + l * (m + log(exp(-m) + exp(-x - m))) with m = max(-x, 0) and l = 1 + (pos_weight - 1) * t.", builtinNamed("BinaryCrossEntropyWithLogitsBackward0", nnBCEWithLogits))
	fn("embedding", "embedding(input, weight, padding_idx=none): the rows of weight [V, D] at the i64/i32 indices input, shape input.shape + [D]; the row padding_idx gets no gradient.", nnEmbedding)
	// pad is registered by nn_resample.go (nnPadDispatch), which calls nnPad for constant mode
}

// torchSize renders a shape as torch.Size([2, 3]) for PyTorch's messages.
func torchSize(s []int) string { return "torch.Size(" + intList(s).String() + ")" }

// ---- one_hot, nll_loss, dropout ----

func nnOneHot(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	C := -1
	if err := runtime.UnpackArgs("one_hot", args, kwargs, "tensor", &x, "num_classes?", &C); err != nil {
		return nil, err
	}
	if x.t.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "one_hot is only applicable to index tensor.")
	}
	vals := x.t.ToInt64s()
	if C == -1 {
		if len(vals) == 0 {
			return nil, runtime.Errorf("RuntimeError", "Can not infer total number of classes from empty tensor.")
		}
		mx := int64(0)
		for _, v := range vals {
			mx = max(mx, v)
		}
		C = int(mx) + 1
	} else if C < -1 {
		return nil, runtime.Errorf("RuntimeError", "num_classes should be positive")
	}
	for _, v := range vals {
		if v < 0 {
			return nil, runtime.Errorf("RuntimeError", "Class values must be non-negative.")
		}
		if v >= int64(C) {
			return nil, runtime.Errorf("RuntimeError", "Class values must be smaller than num_classes.")
		}
	}
	out := make([]int64, len(vals)*C)
	for i, v := range vals {
		out[i*C+int(v)] = 1
	}
	r, err := tensor.FromInt64s(out, append(append([]int(nil), x.t.Shape()...), C), tensor.I64)
	return tensorResult(th, r, err)
}

func nnNLLLoss(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	var weight tensorOpt
	var sizeAvg, reduce runtime.Value = runtime.None, runtime.None
	ignore := -100
	reduction := "mean"
	if err := runtime.UnpackArgs("nll_loss", args, kwargs, "input", &x, "target", &y, "weight?", &weight,
		"size_average?", &sizeAvg, "ignore_index?", &ignore, "reduce?", &reduce, "reduction?", &reduction); err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	r, err := nllLoss(engineOf(th), x.t, y.t, weight.t, ignore, reduction)
	return tensorResult(th, r, err)
}

// nllLoss is PyTorch's nll_loss: the class dim is 1 (0 for unbatched
// input); loss[n] = -weight[c] * input[n, c] with c = target[n], zero
// where c == ignore_index; "mean" divides the sum by the total weight of
// the targets not ignored (NaN when all are ignored, as PyTorch). Inputs
// of up to 2 dims are nllLossFused's; otherwise it is one recorded multiply by a constant weighted one-hot tensor, so its
// gradient is that tensor times the output gradient.
func nllLoss(e *Engine, x, y, weight *T, ignore int, reduction string) (*T, error) {
	if !x.DType().IsFloat() {
		return nil, notImplementedFor("nll_loss_forward_reduce_cuda_kernel_2d_index", x.DType())
	}
	if x.Dim() == 0 {
		return nil, runtime.Errorf("ValueError", "Expected 1 or more dimensions (got 0)")
	}
	if y.DType() != tensor.I64 {
		return nil, runtime.Errorf("RuntimeError", "expected scalar type Long but found %s", kernels.TorchName(y.DType()))
	}
	cdim := 1
	if x.Dim() == 1 {
		cdim = 0
	}
	C := x.Shape()[cdim]
	want := append(append([]int(nil), x.Shape()[:cdim]...), x.Shape()[cdim+1:]...)
	if !sameShape(y.Shape(), want) {
		if x.Dim() >= 1 && y.Dim() >= 1 && x.Dim() > cdim && y.Shape()[0] != x.Shape()[0] && cdim == 1 {
			return nil, runtime.Errorf("ValueError", "Expected input batch_size (%d) to match target batch_size (%d).", x.Shape()[0], y.Shape()[0])
		}
		return nil, runtime.Errorf("RuntimeError", "nll_loss: expected target of shape %s for input of shape %s, got %s", intList(want), intList(x.Shape()), intList(y.Shape()))
	}
	if weight != nil && (weight.Dim() != 1 || weight.Numel() != C) {
		return nil, runtime.Errorf("RuntimeError", "weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %s", C, intList(weight.Shape()))
	}
	labels := y.ToInt64s()
	if x.Dim() <= 2 {
		// [N, C] or [C]: one node that reduces in ATen's order, as
		// cross_entropy's (so nll_loss(log_softmax(x)) is cross_entropy(x)
		// bit for bit, as in PyTorch)
		return nllLossFused(e, x, labels, weight, ignore, reduction)
	}
	var wv []float64
	if weight != nil {
		wv = weight.ToFloat64s()
	}
	inner := 1
	for _, s := range x.Shape()[cdim+1:] {
		inner *= s
	}
	coef := make([]float64, x.Numel())
	denom := 0.0
	for i, c := range labels {
		if int(c) == ignore {
			continue
		}
		if c < 0 || int(c) >= C {
			return nil, runtime.Errorf("IndexError", "Target %d is out of bounds.", c)
		}
		w := 1.0
		if wv != nil {
			w = wv[c]
		}
		o, in := i/inner, i%inner
		coef[(o*C+int(c))*inner+in] = -w
		denom += w
	}
	ct, err := tensor.FromFloat64s(coef, x.Shape(), x.DType())
	if err != nil {
		return nil, err
	}
	prod, err := applyBinary(e, "mul", tensor.Mul, x, ct)
	if err != nil {
		return nil, err
	}
	l, err := sumOp(e, prod, []int{cdim}, false)
	if err != nil {
		return nil, err
	}
	switch reduction {
	case "none":
		return l, nil
	case "sum":
		return sumOp(e, l, nil, false)
	}
	s, err := sumOp(e, l, nil, false)
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "div", tensor.Div, s, scalarOf(denom))
}

func nnDropout(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var xv runtime.Value
	p := 0.5
	training, inplace := true, false
	if err := runtime.UnpackArgs("dropout", args, kwargs, "input", &xv, "p?", &p, "training?", &training, "inplace?", &inplace); err != nil {
		return nil, err
	}
	x, ok := xv.(*TensorValue)
	if !ok {
		return nil, runtime.Errorf("TypeError", "dropout(): argument 'input' must be a tensor, not %s", xv.Type())
	}
	if p < 0 || p > 1 {
		return nil, runtime.Errorf("ValueError", "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if !training || p == 0 {
		return x, nil
	}
	e := engineOf(th)
	f := func() (*T, error) { return dropoutOp(th, e, x.t, p) }
	if inplace {
		return inplaceFrom(e, x, f)
	}
	return x.result(f())
}

// dropoutOp zeroes each element of x with probability p (0 < p <= 1; the
// interpreter's generator) and scales the others by 1/(1-p), recorded for
// autograd as a multiplication by the mask.
func dropoutOp(th *runtime.Thread, e *Engine, x *T, p float64) (*T, error) {
	if !x.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "dropout: expected a floating-point input, got %s", x.DType())
	}
	u, err := tensor.Rand(stateOf(th).gen, x.Shape(), tensor.F64)
	if err != nil {
		return nil, err
	}
	scale := 0.0
	if p < 1 {
		scale = 1 / (1 - p)
	}
	mv := u.ToFloat64s()
	for i, r := range mv {
		if r < 1-p {
			mv[i] = scale
		} else {
			mv[i] = 0
		}
	}
	mask, err := tensor.FromFloat64s(mv, x.Shape(), x.DType())
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "mul", tensor.Mul, x, mask)
}

// ---- activations ----

// activation wraps a one-input activation that needs a float input.
func activation(name string, f func(e *Engine, x *T) (*T, error)) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		inplace := false
		if err := runtime.UnpackArgs(name, args, kwargs, "input", &x, "inplace?", &inplace); err != nil {
			return nil, err
		}
		if err := floatInput(name, x.t); err != nil {
			return nil, err
		}
		r, err := f(engineOf(th), x.t)
		return tensorResult(th, r, err)
	}
}

func floatInput(name string, x *T) error {
	if !x.DType().IsFloat() {
		return notImplementedFor(name, x.DType())
	}
	return nil
}

func silu(e *Engine, x *T) (*T, error) {
	s, err := unaryOp(e, "sigmoid", x)
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "mul", tensor.Mul, x, s)
}

// positive returns the bool mask x > 0 (not recorded).
func positive(x *T) (*T, error) { return tensor.Gt(x, tensor.ScalarInt(0)) }

func nnLeakyRelu(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	slope := 0.01
	inplace := false
	if err := runtime.UnpackArgs("leaky_relu", args, kwargs, "input", &x, "negative_slope?", &slope, "inplace?", &inplace); err != nil {
		return nil, err
	}
	if err := floatInput("leaky_relu_cpu", x.t); err != nil {
		return nil, err
	}
	e := engineOf(th)
	if isF32F64(x.t) && !(e.GradEnabled() && x.t.RequiresGrad()) {
		// nothing to record: one pass of the vector kernel
		r, err := tensor.LeakyRelu(x.t, slope)
		return tensorResult(th, r, err)
	}
	pos, err := positive(x.t)
	if err != nil {
		return nil, err
	}
	neg, err := mulScalar(e, x.t, slope)
	if err != nil {
		return nil, err
	}
	r, err := whereOp(e, pos, x.t, neg)
	return tensorResult(th, r, err)
}

// nnSoftplus computes where(beta*x > threshold, x, log1p(exp(beta*x))/beta)
// with the exp taken of min(beta*x, threshold), so that the branch where
// does not pick cannot overflow into a NaN gradient.
func nnSoftplus(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	beta, threshold := 1.0, 20.0
	if err := runtime.UnpackArgs("softplus", args, kwargs, "input", &x, "beta?", &beta, "threshold?", &threshold); err != nil {
		return nil, err
	}
	if err := floatInput("softplus_cpu", x.t); err != nil {
		return nil, err
	}
	e := engineOf(th)
	bx := x.t
	var err error
	if beta != 1 {
		if bx, err = mulScalar(e, x.t, beta); err != nil {
			return nil, err
		}
	}
	over, err := tensor.Gt(bx, tensor.ScalarFloat(threshold))
	if err != nil {
		return nil, err
	}
	capped, err := clampOp(e, bx, nil, tensor.ScalarFloat(threshold))
	if err != nil {
		return nil, err
	}
	sp, err := unaryOp(e, "exp", capped)
	if err != nil {
		return nil, err
	}
	if sp, err = unaryOp(e, "log1p", sp); err != nil {
		return nil, err
	}
	if beta != 1 {
		if sp, err = applyBinary(e, "div", tensor.Div, sp, scalarOf(beta)); err != nil {
			return nil, err
		}
	}
	r, err := whereOp(e, over, x.t, sp)
	return tensorResult(th, r, err)
}

// nnElu computes where(x > 0, x, alpha * expm1(min(x, 0))).
func nnElu(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	alpha := 1.0
	inplace := false
	if err := runtime.UnpackArgs("elu", args, kwargs, "input", &x, "alpha?", &alpha, "inplace?", &inplace); err != nil {
		return nil, err
	}
	if err := floatInput("elu_cpu", x.t); err != nil {
		return nil, err
	}
	e := engineOf(th)
	pos, err := positive(x.t)
	if err != nil {
		return nil, err
	}
	neg, err := clampOp(e, x.t, nil, tensor.ScalarFloat(0))
	if err != nil {
		return nil, err
	}
	if neg, err = unaryOp(e, "expm1", neg); err != nil {
		return nil, err
	}
	if alpha != 1 {
		if neg, err = mulScalar(e, neg, alpha); err != nil {
			return nil, err
		}
	}
	r, err := whereOp(e, pos, x.t, neg)
	return tensorResult(th, r, err)
}

func nnNormalize(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	p, eps := 2.0, 1e-12
	dim := 1
	if err := runtime.UnpackArgs("normalize", args, kwargs, "input", &x, "p?", &p, "dim?", &dim, "eps?", &eps); err != nil {
		return nil, err
	}
	if !x.t.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", kernels.TorchName(x.t.DType()))
	}
	d, err := normDim(dim, x.t.Dim())
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	dims := []int{d}
	if x.t.Dim() == 0 {
		dims = nil
	}
	n, err := e.Apply("norm", []*T{x.t}, autograd.Attrs{"p": p, "dim": dims, "keepdim": true}, func() (*T, error) { return tensor.Norm(x.t, p, dims, true) })
	if err != nil {
		return nil, err
	}
	if n, err = clampOp(e, n, tensor.ScalarFloat(eps), nil); err != nil {
		return nil, err
	}
	r, err := applyBinary(e, "div", tensor.Div, x.t, n)
	return tensorResult(th, r, err)
}

// ---- losses ----

func nnL1Loss(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	reduction := "mean"
	if err := runtime.UnpackArgs("l1_loss", args, kwargs, "input", &x, "target", &y, "reduction?", &reduction); err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	e := engineOf(th)
	d, err := applyBinary(e, "sub", tensor.Sub, x.t, y.t)
	if err != nil {
		return nil, err
	}
	if d, err = unaryOp(e, "abs", d); err != nil {
		return nil, err
	}
	r, err := reduce(e, d, reduction)
	return tensorResult(th, r, err)
}

// weightAndReduce multiplies the elementwise loss l by weight (when given,
// broadcast) and reduces it.
func weightAndReduce(e *Engine, l, weight *T, reduction string) (*T, error) {
	var err error
	if weight != nil {
		if l, err = applyBinary(e, "mul", tensor.Mul, l, weight); err != nil {
			return nil, err
		}
	}
	return reduce(e, l, reduction)
}

func nnBCE(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	var weight tensorOpt
	var sizeAvg, red runtime.Value = runtime.None, runtime.None
	reduction := "mean"
	if err := runtime.UnpackArgs("binary_cross_entropy", args, kwargs, "input", &x, "target", &y, "weight?", &weight,
		"size_average?", &sizeAvg, "reduce?", &red, "reduction?", &reduction); err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	if !sameShape(x.t.Shape(), y.t.Shape()) {
		return nil, runtime.Errorf("ValueError", "Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure they have the same size.", torchSize(y.t.Shape()), torchSize(x.t.Shape()))
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("binary_cross_entropy", x.t.DType())
	}
	if y.t.DType() != x.t.DType() {
		return nil, runtime.Errorf("RuntimeError", "Found dtype %s but expected %s", kernels.TorchName(y.t.DType()), kernels.TorchName(x.t.DType()))
	}
	e := engineOf(th)
	l, err := bceOp(e, x.t, y.t)
	if err != nil {
		return nil, err
	}
	r, err := weightAndReduce(e, l, weight.t, reduction)
	if err == nil {
		autograd.SetGradFnName(r, "BinaryCrossEntropyBackward0")
	}
	return tensorResult(th, r, err)
}

// bceOp is the unweighted elementwise binary cross entropy
// -(t * max(log x, -100) + (1 - t) * max(log(1 - x), -100)), recorded with
// PyTorch's backward formulas: d/dx = (x - t) / max((1 - x) * x, 1e-12)
// and d/dt = log(1 - x) - log x (not clamped: ±inf at x = 0 and 1, as
// PyTorch 1.13's binary_cross_entropy_target_backward). Computed in float64
// and rounded once to the input dtype.
func bceOp(e *Engine, x, y *T) (*T, error) {
	xv, tv := x.ToFloat64s(), y.ToFloat64s()
	for _, v := range xv {
		if !(v >= 0 && v <= 1) {
			return nil, runtime.Errorf("RuntimeError", "all elements of input should be between 0 and 1")
		}
	}
	clog := func(v float64) float64 { return math.Max(math.Log(v), -100) }
	shape, dt := x.Shape(), x.DType()
	forward := func() (*T, error) {
		out := make([]float64, len(xv))
		for i, v := range xv {
			out[i] = -(tv[i]*clog(v) + (1-tv[i])*clog(1-v))
		}
		r, err := tensor.FromFloat64s(out, shape, dt)
		if err != nil {
			return nil, err
		}
		return preserveLayout(x, r) // at::empty_like(input): a transposed input gives a transposed loss
	}
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() {
			return bceGradGraph(e, x, y, g)
		}
		gv := g.ToFloat64s()
		gx := make([]float64, len(xv))
		gt := make([]float64, len(xv))
		for i, v := range xv {
			gx[i] = gv[i] * (v - tv[i]) / math.Max((1-v)*v, 1e-12)
			gt[i] = gv[i] * (math.Log(1-v) - math.Log(v)) // unclamped, as PyTorch: ±inf at 0 and 1
		}
		a, err := tensor.FromFloat64s(gx, shape, g.DType())
		if err != nil {
			return nil, err
		}
		if a, err = preserveLayout(x, a); err != nil {
			return nil, err
		}
		c, err := tensor.FromFloat64s(gt, shape, g.DType())
		if err != nil {
			return nil, err
		}
		return []*T{a, c}, nil
	}
	return e.ApplyCustom("BinaryCrossEntropyBackward", []*T{x, y}, forward, backward)
}

// bceGradGraph is bceOp's backward in engine ops, for a create_graph
// backward (differentiable again): g (x - t) / max((1 - x) x, 1e-12) and
// g (log(1 - x) - log x).
func bceGradGraph(e *Engine, x, t, g *T) ([]*T, error) {
	var err error
	bin := func(op string, f func(a, b *T) (*T, error), a, b *T) *T {
		if err != nil {
			return nil
		}
		var r *T
		r, err = applyBinary(e, op, f, a, b)
		return r
	}
	un := func(op string, a *T) *T {
		if err != nil {
			return nil
		}
		var r *T
		r, err = unaryOp(e, op, a)
		return r
	}
	one := tensor.ScalarFloat(1)
	omx := bin("sub", tensor.Sub, one, x)
	den := bin("maximum", tensor.Maximum, bin("mul", tensor.Mul, omx, x), tensor.ScalarFloat(1e-12))
	gx := bin("div", tensor.Div, bin("mul", tensor.Mul, g, bin("sub", tensor.Sub, x, t)), den)
	d := bin("sub", tensor.Sub, un("log", omx), un("log", x))
	gt := bin("mul", tensor.Mul, g, d)
	if err != nil {
		return nil, err
	}
	return []*T{gx, gt}, nil
}

func nnBCEWithLogits(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	var weight, posWeight tensorOpt
	var sizeAvg, red runtime.Value = runtime.None, runtime.None
	reduction := "mean"
	if err := runtime.UnpackArgs("binary_cross_entropy_with_logits", args, kwargs, "input", &x, "target", &y, "weight?", &weight,
		"size_average?", &sizeAvg, "reduce?", &red, "reduction?", &reduction, "pos_weight?", &posWeight); err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	if !sameShape(x.t.Shape(), y.t.Shape()) {
		return nil, runtime.Errorf("ValueError", "Target size (%s) must be the same as input size (%s)", torchSize(y.t.Shape()), torchSize(x.t.Shape()))
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("binary_cross_entropy_with_logits", x.t.DType())
	}
	e := engineOf(th)
	xt, t := x.t, y.t
	negx, err := unaryOp(e, "neg", xt)
	if err != nil {
		return nil, err
	}
	m, err := clampOp(e, negx, tensor.ScalarFloat(0), nil)
	if err != nil {
		return nil, err
	}
	// log(exp(-m) + exp(-x - m)) + m = log(1 + exp(-x)), without overflow
	negm, err := unaryOp(e, "neg", m)
	if err != nil {
		return nil, err
	}
	e1, err := unaryOp(e, "exp", negm)
	if err != nil {
		return nil, err
	}
	xm, err := applyBinary(e, "sub", tensor.Sub, negx, m)
	if err != nil {
		return nil, err
	}
	e2, err := unaryOp(e, "exp", xm)
	if err != nil {
		return nil, err
	}
	s, err := applyBinary(e, "add", tensor.Add, e1, e2)
	if err != nil {
		return nil, err
	}
	if s, err = unaryOp(e, "log", s); err != nil {
		return nil, err
	}
	if s, err = applyBinary(e, "add", tensor.Add, s, m); err != nil {
		return nil, err
	}
	if posWeight.t != nil {
		// l = 1 + (pos_weight - 1) * t
		pw1, err := applyBinary(e, "sub", tensor.Sub, posWeight.t, scalarOf(1))
		if err != nil {
			return nil, err
		}
		lw, err := applyBinary(e, "mul", tensor.Mul, pw1, t)
		if err != nil {
			return nil, err
		}
		if lw, err = applyBinary(e, "add", tensor.Add, lw, scalarOf(1)); err != nil {
			return nil, err
		}
		if s, err = applyBinary(e, "mul", tensor.Mul, s, lw); err != nil {
			return nil, err
		}
	}
	omt, err := applyBinary(e, "sub", tensor.Sub, scalarOf(1), t)
	if err != nil {
		return nil, err
	}
	lin, err := applyBinary(e, "mul", tensor.Mul, omt, xt)
	if err != nil {
		return nil, err
	}
	l, err := applyBinary(e, "add", tensor.Add, lin, s)
	if err != nil {
		return nil, err
	}
	r, err := weightAndReduce(e, l, weight.t, reduction)
	return tensorResult(th, r, err)
}

// ---- embedding and pad ----

// nnEmbedding gathers rows of weight, recording PyTorch's embedding
// backward: the output gradient rows summed into their source rows, except
// padding_idx's.
func nnEmbedding(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, w tensorArg
	var pad intOpt
	var maxNorm runtime.Value = runtime.None
	normType := 2.0
	scale, sparse := false, false
	if err := runtime.UnpackArgs("embedding", args, kwargs, "input", &x, "weight", &w, "padding_idx?", &pad, "max_norm?", &maxNorm,
		"norm_type?", &normType, "scale_grad_by_freq?", &scale, "sparse?", &sparse); err != nil {
		return nil, err
	}
	if maxNorm != runtime.None || scale {
		return nil, runtime.Errorf("NotImplementedError", "embedding(): max_norm and scale_grad_by_freq are not supported")
	}
	if dt := x.t.DType(); dt != tensor.I64 && dt != tensor.I32 {
		return nil, runtime.Errorf("RuntimeError", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead", kernels.TorchName(dt))
	}
	if w.t.Dim() != 2 {
		return nil, runtime.Errorf("RuntimeError", "'weight' must be 2-D")
	}
	V := w.t.Shape()[0]
	padIdx := int64(-1)
	if pad.ok {
		p := pad.v
		if p < -V || p >= V {
			return nil, runtime.Errorf("AssertionError", "Padding_idx must be within num_embeddings")
		}
		if p < 0 {
			p += V
		}
		padIdx = int64(p)
	}
	iv := x.t.ToInt64s()
	for _, v := range iv {
		if v < 0 || v >= int64(V) {
			return nil, runtime.Errorf("IndexError", "index out of range in self")
		}
	}
	idx, err := x.t.To(tensor.I64)
	if err != nil {
		return nil, err
	}
	r, err := embeddingOp(engineOf(th), w.t, idx, iv, padIdx)
	return tensorResult(th, r, err)
}

// embeddingOp is weight[idx] recorded as EmbeddingBackward0: the rows'
// gradients are summed into weight's, padIdx's left out (-1: none). The
// gradient is linear in g; its tangent reads the rows of the weight
// tangent, padIdx's as zeros (PyTorch's embedding double backward).
func embeddingOp(e *Engine, weight, idx *T, iv []int64, padIdx int64) (*T, error) {
	V, D := weight.Shape()[0], weight.Shape()[1]
	dt := weight.DType()
	forward := func() (*T, error) { return weight.Index(tensor.Adv(idx)) }
	tangent := func(us []*T) (*T, error) {
		u := us[0]
		if padIdx >= 0 && padIdx < int64(V) {
			keep := make([]float64, V)
			for i := range keep {
				keep[i] = 1
			}
			keep[padIdx] = 0
			k, err := tensor.FromFloat64s(keep, []int{V, 1}, u.DType())
			if err != nil {
				return nil, err
			}
			if u, err = e.Apply("mul", []*T{u, k}, nil, func() (*T, error) { return tensor.Mul(u, k) }); err != nil {
				return nil, err
			}
		}
		return embeddingOp(e, u, idx, iv, padIdx)
	}
	backward := func(g *T) ([]*T, error) {
		gv := g.ToFloat64s()
		buf := make([]float64, V*D)
		for k, v := range iv {
			if v == padIdx {
				continue
			}
			row := buf[int(v)*D : int(v+1)*D]
			for j := range row {
				row[j] += gv[k*D+j]
			}
		}
		gw, err := tensor.FromFloat64s(buf, []int{V, D}, dt)
		return []*T{gw}, err
	}
	return e.ApplyLinear("EmbeddingBackward", []*T{weight}, forward, backward, tangent)
}

// nnPad pads with constant blocks concatenated on either side (recorded
// cat) and crops negative amounts (recorded narrow), one dim at a time,
// so that the gradient is the output gradient's interior.
func nnPad(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var pads shapeArg
	mode := "constant"
	var value floatOpt
	if err := runtime.UnpackArgs("pad", args, kwargs, "input", &x, "pad", &pads, "mode?", &mode, "value?", &value); err != nil {
		return nil, err
	}
	if mode != "constant" {
		return nil, runtime.Errorf("NotImplementedError", "Unrecognised padding mode %s", mode)
	}
	p := pads.shape
	if len(p)%2 != 0 {
		return nil, runtime.Errorf("RuntimeError", "Padding length must be divisible by 2")
	}
	if len(p)/2 > x.t.Dim() {
		return nil, runtime.Errorf("RuntimeError", "Padding length too large")
	}
	e := engineOf(th)
	if (!e.GradEnabled() || !x.t.RequiresGrad()) && slices.ContainsFunc(p, func(v int) bool { return v > 0 }) {
		// nothing recorded: one pass (nonnegative amounts)
		if t, ok, err := tensor.ConstantPad(x.t, p, value.v); ok || err != nil {
			return tensorResult(th, t, err)
		}
	}
	t := x.t
	var err error
	for k := 0; k < len(p)/2; k++ {
		d := t.Dim() - 1 - k
		before, after := p[2*k], p[2*k+1]
		size := t.Shape()[d]
		if size+before+after < 0 {
			return nil, runtime.Errorf("RuntimeError", "The input size %d, plus negative padding %d and %d resulted in a negative output size, which is invalid. Check dimension %d of your input.", size, before, after, d)
		}
		// crop first
		start, length := 0, size
		if before < 0 {
			start, length = -before, length+before
		}
		if after < 0 {
			length += after
		}
		if length < 0 {
			length = 0
		}
		if start != 0 || length != size {
			if start > size {
				start = size
			}
			if t, err = narrowOp(e, t, d, start, length); err != nil {
				return nil, err
			}
		}
		parts := []*T{}
		block := func(n int) (*T, error) {
			s := append([]int(nil), t.Shape()...)
			s[d] = n
			return tensor.Full(s, value.v, t.DType())
		}
		if before > 0 {
			blk, err := block(before)
			if err != nil {
				return nil, err
			}
			parts = append(parts, blk)
		}
		parts = append(parts, t)
		if after > 0 {
			blk, err := block(after)
			if err != nil {
				return nil, err
			}
			parts = append(parts, blk)
		}
		if len(parts) > 1 {
			ps := parts
			if t, err = e.Apply("cat", ps, autograd.Attrs{"dim": d}, func() (*T, error) { return tensor.Cat(ps, d) }); err != nil {
				return nil, err
			}
		}
	}
	if t == x.t {
		t, err = cloneOp(e, t)
	}
	return tensorResult(th, t, err)
}

// ---- layer methods ----

// layerMethod returns the module methods every nn layer has besides
// parameters/zero_grad/forward: state_dict(), named_parameters(),
// train(mode=true), eval(), requires_grad_(requires_grad=true), and the
// attribute training. (nil, false) for other names.
func layerMethod(l *layer, name string) (runtime.Value, bool) {
	method := func(doc string, f func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) *runtime.Builtin {
		b := runtime.NewBuiltin(l.kind+"."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return f(args, kwargs)
		})
		b.Doc = doc
		return b
	}
	switch name {
	case "training":
		return runtime.Bool(!l.eval), true
	case "state_dict":
		return method("state_dict(): a dict name -> tensor (detached, sharing storage): each module's parameters then its buffers, children after their parent with dotted names (\"0.weight\").", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			st := l.namedState()
			d := runtime.NewDict(len(st))
			for _, p := range st {
				if err := d.SetKey(runtime.String(p.name), wrap(p.v.eng, autograd.Detach(p.v.t))); err != nil {
					return nil, err
				}
			}
			return d, nil
		}), true
	case "load_state_dict":
		return method("load_state_dict(state_dict, strict=true): copy each tensor of state_dict into the parameter or buffer of the same name (as state_dict() names them), in place and unrecorded; shape mismatches, and with strict missing or unexpected keys, are a RuntimeError after the other copies (PyTorch's message). Returns (missing_keys, unexpected_keys).", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			strict := true
			if err := runtime.UnpackArgs(name, args, kwargs, "state_dict", &v, "strict?", &strict); err != nil {
				return nil, err
			}
			sd, ok := v.(*runtime.Dict)
			if !ok {
				return nil, runtime.Errorf("TypeError", "Expected state_dict to be dict-like, got %s.", v.Type())
			}
			return loadStateDict(l, sd, strict)
		}), true
	case "to", "float", "double", "half", "bfloat16", "cpu":
		return method(name+"(): as torch.nn.Module's: converts the floating-point parameters and buffers (and their .grad) to the dtype in place, keeping each tensor's identity (x.data = x.to(dtype)); to(device) accepts \"cpu\" only; returns the layer.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			dt, set := tensor.DType(0), true
			switch name {
			case "float":
				dt = tensor.F32
			case "double":
				dt = tensor.F64
			case "half":
				dt = tensor.F16
			case "bfloat16":
				dt = tensor.BF16
			case "cpu":
				set = false
			}
			if name == "cpu" || name != "to" {
				if err := noArgs(name, args, kwargs); err != nil {
					return nil, err
				}
			} else {
				var a runtime.Value
				if err := runtime.UnpackArgs(name, args, kwargs, "dtype_or_device", &a); err != nil {
					return nil, err
				}
				switch v := a.(type) {
				case *DTypeValue:
					dt = v.dt
				case *DeviceValue, runtime.String:
					if fmt.Sprint(v) != "cpu" {
						return nil, runtime.Errorf("RuntimeError", "%s: only the cpu device is available in this build, got %s", l.kind+".to", fmt.Sprint(v))
					}
					set = false
				default:
					return nil, runtime.Errorf("TypeError", "to() received an invalid combination of arguments - got (%s)", a.Type())
				}
				if set && !dt.IsFloat() {
					return nil, runtime.Errorf("TypeError", "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=%s", dt)
				}
			}
			if set {
				for _, p := range l.namedState() {
					t := p.v.t
					if !t.DType().IsFloat() || t.DType() == dt {
						continue
					}
					nt, err := t.To(dt)
					if err != nil {
						return nil, err
					}
					t.SetData(nt)
					if g := t.Grad(); g != nil && g.DType() != dt {
						ng, err := g.To(dt)
						if err != nil {
							return nil, err
						}
						g.SetData(ng)
					}
				}
			}
			return l.value(), nil
		}), true
	case "named_parameters":
		return method("named_parameters(): a list of (name, parameter) tuples, children's with dotted names (\"0.weight\"), each tensor once.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			var out []runtime.Value
			for _, p := range l.namedParams() {
				out = append(out, runtime.Tuple{runtime.String(p.name), p.v})
			}
			return runtime.NewList(out), nil
		}), true
	case "train":
		return method("train(mode=true): set training mode, on the children too; returns the layer.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			mode := true
			if err := runtime.UnpackArgs(name, args, kwargs, "mode?", &mode); err != nil {
				return nil, err
			}
			l.setTraining(mode)
			return l.value(), nil
		}), true
	case "eval":
		return method("eval(): set evaluation mode (train(false)), on the children too; returns the layer.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			l.setTraining(false)
			return l.value(), nil
		}), true
	case "requires_grad_":
		return method("requires_grad_(requires_grad=true): set requires_grad on every parameter; returns the layer.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			on := true
			if err := runtime.UnpackArgs(name, args, kwargs, "requires_grad?", &on); err != nil {
				return nil, err
			}
			for _, p := range l.namedParams() {
				if err := requiresGradSet(p.v.t, on); err != nil {
					return nil, err
				}
			}
			return l.value(), nil
		}), true
	}
	return moduleTreeMethod(l, name)
}

// layerMethodNames lists the names layerMethod serves.
var layerMethodNames = append([]string{"bfloat16", "cpu", "double", "eval", "float", "half", "load_state_dict", "named_parameters", "requires_grad_", "state_dict", "to", "train", "training"}, moduleTreeMethodNames...)

// loadStateDict is Module.load_state_dict: every entry of sd whose name
// l.namedState() has and whose shape matches is copied into that tensor
// (copy_ under no_grad: the version counter moves, nothing is recorded);
// then size mismatches, and with strict the missing and unexpected keys,
// raise PyTorch's RuntimeError ("Error(s) in loading state_dict for
// Linear: ..."). The result is the named tuple (missing_keys,
// unexpected_keys).
func loadStateDict(l *layer, sd *runtime.Dict, strict bool) (runtime.Value, error) {
	own := l.namedState()
	have := make(map[string]bool, len(own))
	var missing, unexpected, msgs []string
	for _, p := range own {
		have[p.name] = true
		v, ok, err := sd.Get(runtime.String(p.name))
		if err != nil {
			return nil, err
		}
		if !ok {
			missing = append(missing, p.name)
			continue
		}
		src, ok := v.(*TensorValue)
		if !ok {
			msgs = append(msgs, fmt.Sprintf("While copying the parameter named \"%s\", expected torch.Tensor or Tensor-like object from checkpoint but received %s", p.name, v.Type()))
			continue
		}
		if !slices.Equal(src.t.Shape(), p.v.t.Shape()) {
			msgs = append(msgs, fmt.Sprintf("size mismatch for %s: copying a param with shape %s from checkpoint, the shape in current model is %s.", p.name, shapeString(src.t.Shape()), shapeString(p.v.t.Shape())))
			continue
		}
		if err := p.v.t.CopyInplace(src.t); err != nil {
			return nil, err
		}
	}
	for _, k := range sd.Keys() {
		if ks, ok := k.(runtime.String); !ok || !have[string(ks)] {
			unexpected = append(unexpected, fmt.Sprint(k))
		}
	}
	if strict {
		var head []string
		if len(missing) > 0 {
			head = append(head, "Missing key(s) in state_dict: "+quotedList(missing)+". ")
		}
		if len(unexpected) > 0 {
			head = append(head, "Unexpected key(s) in state_dict: "+quotedList(unexpected)+". ")
		}
		msgs = append(head, msgs...)
	}
	if len(msgs) > 0 {
		return nil, runtime.Errorf("RuntimeError", "Error(s) in loading state_dict for %s:\n\t%s", l.kind, strings.Join(msgs, "\n\t"))
	}
	strs := func(xs []string) runtime.Value {
		out := make([]runtime.Value, len(xs))
		for i, x := range xs {
			out[i] = runtime.String(x)
		}
		return runtime.NewList(out)
	}
	return &runtime.NamedTuple{TypeName: "_IncompatibleKeys", Fields: []string{"missing_keys", "unexpected_keys"},
		Tuple: runtime.Tuple{strs(missing), strs(unexpected)}}, nil
}

// quotedList joins names as PyTorch's load_state_dict lists keys:
// "a", "b".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", ")
}
