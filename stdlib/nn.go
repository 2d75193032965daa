package stdlib

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// The nn module: losses, activations, normalisation and attention composed
// from recorded ops (so they are differentiable), and the Linear layer.

func init() {
	m := map[string]runtime.Value{}
	fn := func(name, doc string, f builtinFn) { m[name] = moduleFunc("nn", name, doc, f) }
	for _, name := range []string{"softmax", "log_softmax", "logsumexp", "relu", "sigmoid", "tanh", "gelu"} {
		g := globals[name].(*runtime.Builtin)
		fn(name, g.Doc, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return g.Call(th, args, kwargs)
		})
	}
	fn("relu", "relu(input, inplace=false): max(input, 0) (torch.nn.functional.relu); with inplace=true it is input.relu_().", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x runtime.Value
		inplace := false
		if err := runtime.UnpackArgs("relu", args, kwargs, "input", &x, "inplace?", &inplace); err != nil {
			return nil, err
		}
		if inplace {
			return callMethod(th, x, "relu_", nil, nil)
		}
		return callGlobal(th, "relu", []runtime.Value{x}, nil)
	})
	fn("linear", "linear(input, weight, bias=none): input @ weight.T + bias; weight is [out, in].", nnLinear)
	fn("mse_loss", "mse_loss(input, target, reduction=\"mean\"): mean (or sum, or none) of (input - target)**2.", nnMSELoss)
	fn("cross_entropy", "cross_entropy(input, target, weight=none, ignore_index=-100, reduction=\"mean\", label_smoothing=0.0): softmax cross entropy of logits input [N, C, ...] against class indices [N, ...] or class probabilities (input's shape).", nnCrossEntropy)
	fn("layer_norm", "layer_norm(input, normalized_shape, weight=none, bias=none, eps=1e-5): normalise over the trailing normalized_shape dims (biased variance), then scale and shift.", nnLayerNorm)
	fn("scaled_dot_product_attention", "scaled_dot_product_attention(query, key, value, attn_mask=none, dropout_p=0.0, is_causal=false, scale=none): softmax(q @ k^T * scale + mask) @ v over the last two dims (dropout on the weights when dropout_p > 0); fused, never materialising the scores, when no gradient is recorded.", nnSDPA)
	m["Linear"] = &layerClass{name: "Linear", doc: "Linear(in_features, out_features, bias=true): y = x @ weight.T + bias, weight [out, in] and bias [out] initialised uniform in ±1/sqrt(in_features).", make: newLinear}
	nm := registerModule("nn", "Neural-network functions (differentiable) and layers.", m)
	// torch.nn.functional's functions are nn's own: `F = nn.functional` works
	m["functional"] = nm
}

func nnLinear(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, w tensorArg
	var bias tensorOpt
	if err := runtime.UnpackArgs("linear", args, kwargs, "input", &x, "weight", &w, "bias?", &bias); err != nil {
		return nil, err
	}
	r, err := linearOp(engineOf(th), x.t, w.t, bias.t)
	if err != nil {
		return nil, err
	}
	return NewTensorValue(th, r), nil
}

func linearOp(e *Engine, x, w, bias *T) (*T, error) {
	var wt *T
	var err error
	switch w.Dim() {
	case 1:
		wt = w
	case 2:
		if wt, err = transposeOp(e, w, 0, 1); err != nil {
			return nil, err
		}
	default:
		return nil, runtime.Errorf("RuntimeError", "linear(): weight must be 1-D or 2-D, got %d-D", w.Dim())
	}
	y, err := applyBinary(e, "matmul", tensor.Matmul, x, wt)
	if err != nil {
		return nil, err
	}
	if bias != nil {
		out, err := applyBinary(e, "add", tensor.Add, y, bias)
		if err == nil {
			// PyTorch's node: addmm for a 2-D input, a view of it for more dims.
			switch {
			case x.Dim() == 2:
				autograd.SetGradFnName(out, "AddmmBackward0")
			case x.Dim() > 2:
				autograd.SetGradFnName(out, "ViewBackward0")
			}
		}
		return out, err
	}
	return y, nil
}

func checkReduction(r string) error {
	switch r {
	case "mean", "sum", "none":
		return nil
	}
	return runtime.Errorf("ValueError", "%s is not a valid value for reduction", r)
}

func reduce(e *Engine, l *T, reduction string) (*T, error) {
	switch reduction {
	case "mean":
		return meanOp(e, l, nil, false)
	case "sum":
		return sumOp(e, l, nil, false)
	}
	return l, nil
}

func nnMSELoss(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	reduction := "mean"
	if err := runtime.UnpackArgs("mse_loss", args, kwargs, "input", &x, "target", &y, "reduction?", &reduction); err != nil {
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
	sq, err := applyBinary(e, "mul", tensor.Mul, d, d)
	if err != nil {
		return nil, err
	}
	r, err := reduce(e, sq, reduction)
	if err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "MseLossBackward0")
	return NewTensorValue(th, r), nil
}

func nnCrossEntropy(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	var weight tensorOpt
	ignore := -100
	reduction := "mean"
	smoothing := 0.0
	if err := runtime.UnpackArgs("cross_entropy", args, kwargs, "input", &x, "target", &y, "weight?", &weight,
		"ignore_index?", &ignore, "reduction?", &reduction, "label_smoothing?", &smoothing); err != nil {
		return nil, err
	}
	if err := checkReduction(reduction); err != nil {
		return nil, err
	}
	if smoothing < 0 || smoothing > 1 {
		return nil, runtime.Errorf("ValueError", "label_smoothing must be between 0.0 and 1.0. Got: %v", smoothing)
	}
	r, err := crossEntropy(engineOf(th), x.t, y.t, weight.t, ignore, reduction, smoothing)
	if err != nil {
		return nil, err
	}
	// PyTorch's last node: nll_loss for class indices, the add of the
	// smoothing term when label_smoothing > 0, and for class probabilities
	// -(logp * target).sum(C), divided by the batch size for "mean".
	switch {
	case !y.t.DType().IsFloat() && smoothing == 0:
		autograd.SetGradFnName(r, "NllLossBackward0")
	case !y.t.DType().IsFloat():
		autograd.SetGradFnName(r, "AddBackward0")
	case reduction == "mean":
		autograd.SetGradFnName(r, "DivBackward1")
	default:
		autograd.SetGradFnName(r, "NegBackward0")
	}
	return NewTensorValue(th, r), nil
}

// crossEntropy follows torch.nn.functional.cross_entropy: log_softmax over
// the class dim (1, or 0 for unbatched input), then the negative
// log-likelihood of class indices (weighted; ignore_index positions count
// neither in the sum nor in the mean's denominator) or the cross entropy
// against class probabilities.
func crossEntropy(e *Engine, x, y, weight *T, ignore int, reduction string, smoothing float64) (*T, error) {
	if !x.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "\"log_softmax_lastdim_kernel_impl\" not implemented for '%s'", x.DType().TorchName())
	}
	if x.Dim() == 0 {
		return nil, runtime.Errorf("RuntimeError", "cross_entropy: input must have at least 1 dimension")
	}
	cdim := 1
	if x.Dim() == 1 {
		cdim = 0
	}
	C := x.Shape()[cdim]
	if weight != nil && (weight.Dim() != 1 || weight.Shape()[0] != C) {
		return nil, runtime.Errorf("RuntimeError", "cross_entropy: weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %s", C, intList(weight.Shape()))
	}
	// wshape is the class weight broadcast along the class dim
	var wb *T
	var err error
	if weight != nil {
		ws := make([]int, x.Dim())
		for i := range ws {
			ws[i] = 1
		}
		ws[cdim] = C
		if wb, err = weight.Reshape(ws...); err != nil {
			return nil, err
		}
		if wb, err = toOp(e, wb, x.DType()); err != nil {
			return nil, err
		}
	}
	if y.DType().IsFloat() && sameShape(y.Shape(), x.Shape()) {
		// class probabilities (PyTorch: a target of the input's shape)
		logp, err := softmaxOp(e, "log_softmax", x, cdim)
		if err != nil {
			return nil, err
		}
		tgt := y
		if smoothing > 0 {
			if tgt, err = smooth(e, tgt, smoothing, C); err != nil {
				return nil, err
			}
		}
		prod, err := applyBinary(e, "mul", tensor.Mul, logp, tgt)
		if err != nil {
			return nil, err
		}
		if wb != nil {
			if prod, err = applyBinary(e, "mul", tensor.Mul, prod, wb); err != nil {
				return nil, err
			}
		}
		l, err := sumOp(e, prod, []int{cdim}, false)
		if err != nil {
			return nil, err
		}
		if l, err = unaryOp(e, "neg", l); err != nil {
			return nil, err
		}
		if reduction == "mean" {
			n := l.Numel()
			s, err := sumOp(e, l, nil, false)
			if err != nil {
				return nil, err
			}
			return applyBinary(e, "div", tensor.Div, s, scalarOf(float64(n)))
		}
		return reduce(e, l, reduction)
	}
	// class indices: target shape is input shape without the class dim
	want := append(append([]int(nil), x.Shape()[:cdim]...), x.Shape()[cdim+1:]...)
	if !sameShape(y.Shape(), want) {
		if cdim == 1 && y.Dim() >= 1 && y.Shape()[0] != x.Shape()[0] {
			return nil, runtime.Errorf("ValueError", "Expected input batch_size (%d) to match target batch_size (%d).", x.Shape()[0], y.Shape()[0])
		}
		return nil, runtime.Errorf("RuntimeError", "cross_entropy: expected target of shape %s for input of shape %s, got %s", intList(want), intList(x.Shape()), intList(y.Shape()))
	}
	if y.DType() != tensor.I64 { // nll_loss takes Long class indices only
		return nil, runtime.Errorf("RuntimeError", "expected scalar type Long but found %s", y.DType().TorchName())
	}
	labels := y.ToInt64s()
	recording := e.GradEnabled() && x.RequiresGrad()
	if x.Dim() <= 2 && recording {
		return crossEntropyFused(e, x, labels, weight, wb, ignore, reduction, smoothing)
	}
	if x.Dim() <= 2 && smoothing == 0 {
		// no backward pass: gather the targets' log-probabilities
		// row by row instead of writing the whole log_softmax
		if l, ok, err := crossEntropyPick(x, labels, weight, ignore, reduction); ok || err != nil {
			return l, err
		}
		logp, err := softmaxOp(e, "log_softmax", x, cdim)
		if err != nil {
			return nil, err
		}
		return nllLossFused(e, logp, labels, weight, ignore, reduction)
	}
	logp, err := softmaxOp(e, "log_softmax", x, cdim)
	if err != nil {
		return nil, err
	}
	return crossEntropyComposed(e, x, logp, labels, weight, wb, ignore, reduction, smoothing)
}

// crossEntropyFused is cross_entropy with class indices on x ([N, C] or
// [C]) when x's gradient is recorded: logp = log_softmax(x) recorded as
// usual, then one node (autograd's cross_entropy_loss) from x to the loss
// that saves logp, whose backward is one fused pass per row
// (tensor.CrossEntropyBackward) instead of nll_loss's scattered gradient
// and log_softmax's backward. The loss is nllLossFused's without label
// smoothing and crossEntropyComposed's with it, bit for bit.
func crossEntropyFused(e *Engine, x *T, labels []int64, weight, wb *T, ignore int, reduction string, smoothing float64) (*T, error) {
	tgt, coef, wv, denom, err := nllTargets(x, labels, weight, ignore, reduction)
	if err != nil {
		return nil, err
	}
	logp, err := softmaxOp(e, "log_softmax", x, x.Dim()-1)
	if err != nil {
		return nil, err
	}
	attrs := autograd.Attrs{"target": tgt, "weight": wv, "reduction": reduction, "label_smoothing": smoothing,
		"total_weight": denom, autograd.SavedAttr: []*T{logp}}
	return e.Apply("cross_entropy_loss", []*T{x}, attrs, func() (*T, error) {
		if smoothing == 0 {
			v, err := tensor.GatherRows(logp, tgt)
			if err != nil {
				return nil, err
			}
			return nllReduce(v, tgt, coef, wv, reduction, logp)
		}
		defer e.EnterNoGrad()()
		return crossEntropyComposed(e, x, logp, labels, weight, wb, ignore, reduction, smoothing)
	})
}

// crossEntropyComposed is cross_entropy with class indices from the
// log-probabilities logp = log_softmax(x, class dim) in elementwise ops:
// -Σ_C logp·t·w over a one-hot target t (label smoothed), reduced.
func crossEntropyComposed(e *Engine, x, logp *T, labels []int64, weight, wb *T, ignore int, reduction string, smoothing float64) (*T, error) {
	cdim := 1
	if x.Dim() == 1 {
		cdim = 0
	}
	C := x.Shape()[cdim]
	want := append(append([]int(nil), x.Shape()[:cdim]...), x.Shape()[cdim+1:]...)
	n := len(labels)
	inner := 1
	for _, s := range x.Shape()[cdim+1:] {
		inner *= s
	}
	// one-hot target (as probabilities) with ignored positions all zero,
	// built directly in input layout [outer, C, inner]
	onehot := make([]float64, x.Numel())
	valid := make([]float64, n)
	for i, c := range labels {
		if int(c) == ignore {
			continue
		}
		if c < 0 || int(c) >= C {
			return nil, runtime.Errorf("IndexError", "Target %d is out of bounds.", c)
		}
		o, in := i/inner, i%inner
		onehot[(o*C+int(c))*inner+in] = 1
		valid[i] = 1
	}
	tgt, err := tensor.FromFloat64s(onehot, x.Shape(), x.DType())
	if err != nil {
		return nil, err
	}
	if smoothing > 0 {
		if tgt, err = smooth(e, tgt, smoothing, C); err != nil {
			return nil, err
		}
		vm, err := tensor.FromFloat64s(valid, unsqueezedShape(want, cdim), x.DType())
		if err != nil {
			return nil, err
		}
		if tgt, err = tensor.Mul(tgt, vm); err != nil {
			return nil, err
		}
	}
	tw := tgt
	if wb != nil {
		if tw, err = tensor.Mul(tgt, wb); err != nil {
			return nil, err
		}
	}
	prod, err := applyBinary(e, "mul", tensor.Mul, logp, tw)
	if err != nil {
		return nil, err
	}
	l, err := sumOp(e, prod, []int{cdim}, false)
	if err != nil {
		return nil, err
	}
	if l, err = unaryOp(e, "neg", l); err != nil {
		return nil, err
	}
	switch reduction {
	case "none":
		return l, nil
	case "sum":
		return sumOp(e, l, nil, false)
	}
	// mean: divide by the total weight of the non-ignored targets
	denom := 0.0
	var wv []float64
	if weight != nil {
		wv = weight.ToFloat64s()
	}
	for i, c := range labels {
		if valid[i] == 0 {
			continue
		}
		if wv != nil {
			denom += wv[c]
		} else {
			denom++
		}
	}
	s, err := sumOp(e, l, nil, false)
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "div", tensor.Div, s, scalarOf(denom))
}

// nllLossFused is nll_loss on the log-probabilities logp ([N, C], or [C]
// with one label) as one recorded node (autograd's nll_loss): the loss
// gathers -w[t]·logp[i, t] per row (accumulated in float64), ignore_index
// rows count neither in the sum nor in the mean's denominator (the total
// weight of the other rows), and the gradient is scattered back at each
// row's target. Out-of-range labels are an IndexError, as PyTorch's.
func nllLossFused(e *Engine, logp *T, labels []int64, weight *T, ignore int, reduction string) (*T, error) {
	tgt, coef, wv, _, err := nllTargets(logp, labels, weight, ignore, reduction)
	if err != nil {
		return nil, err
	}
	attrs := autograd.Attrs{"target": tgt, "coef": coef, "reduction": reduction}
	return e.Apply("nll_loss", []*T{logp}, attrs, func() (*T, error) {
		v, err := tensor.GatherRows(logp, tgt)
		if err != nil {
			return nil, err
		}
		return nllReduce(v, tgt, coef, wv, reduction, logp)
	})
}

// crossEntropyPick is cross_entropy with class indices on x ([N, C] or
// [C]) when no gradient is recorded: nllLossFused's loss, bit for bit, on
// the targets' log-probabilities from tensor.LogSoftmaxPick. ok is false
// (nothing done) where LogSoftmaxPick does not apply.
func crossEntropyPick(x *T, labels []int64, weight *T, ignore int, reduction string) (*T, bool, error) {
	tgt, coef, wv, _, err := nllTargets(x, labels, weight, ignore, reduction)
	if err != nil {
		return nil, true, err
	}
	v, ok, err := tensor.LogSoftmaxPick(x, tgt)
	if !ok || err != nil {
		return nil, ok, err
	}
	l, err := nllReduce(v, tgt, coef, wv, reduction, x)
	return l, true, err
}

// nllTargets checks nll_loss's labels against the class count of logp
// (its last dim) and returns each row's target column (-1: ignored), its
// coefficient -w[t] (divided by denom, the total weight of the rows not
// ignored, for the mean), the class weights wv (nil without weight) and
// denom.
func nllTargets(logp *T, labels []int64, weight *T, ignore int, reduction string) (tgt []int, coef, wv []float64, denom float64, err error) {
	C := logp.Shape()[logp.Dim()-1]
	if weight != nil {
		wv = weight.ToFloat64s()
	}
	tgt = make([]int, len(labels))
	coef = make([]float64, len(labels))
	for i, c := range labels {
		if int(c) == ignore {
			tgt[i] = -1
			continue
		}
		if c < 0 || int(c) >= C {
			return nil, nil, nil, 0, runtime.Errorf("IndexError", "Target %d is out of bounds.", c)
		}
		tgt[i] = int(c)
		coef[i] = -1
		if wv != nil {
			coef[i] = -wv[c]
		}
		denom -= coef[i]
	}
	if reduction == "mean" {
		for i := range coef {
			coef[i] /= denom
		}
	}
	return tgt, coef, wv, denom, nil
}

// nllReduce forms nll_loss from the gathered log-probabilities v (one per
// row of logp, the input whose shape and dtype the loss follows); wv is
// the class weights (nil: none).
func nllReduce(v []float64, tgt []int, coef, wv []float64, reduction string, logp *T) (*T, error) {
	if reduction == "none" {
		for i, t := range tgt {
			if t >= 0 {
				v[i] = -coef[i] * -v[i]
			}
		}
		var shape []int
		if logp.Dim() == 2 {
			shape = []int{len(v)}
		}
		return tensor.FromFloat64s(v, shape, logp.DType())
	}
	// sum: Σ -w·logp; mean: the same over the total weight (NaN when
	// every target is ignored, as PyTorch's 0/0), both computed in the
	// input's dtype in ATen's order (nllLossTorch).
	var s float64
	if logp.DType() == tensor.F64 {
		s = nllLossTorch(v, tgt, wv, reduction == "mean")
	} else {
		s = float64(nllLossTorch(f32s(v), tgt, wv, reduction == "mean"))
	}
	return tensor.FromFloat64s([]float64{s}, nil, logp.DType())
}

// f32s rounds xs to float32 (values that came from a float32 tensor: exact).
func f32s(xs []float64) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(x)
	}
	return out
}

// nllLossTorch is the sum (or mean) reduction of nll_loss as ATen's CPU
// kernel (nll_loss_out_frame) computes it, in T: row b's term -w[t]·v[b]
// (-v[b] without weights) goes into level 0 of an 8-level cascade, which
// flushes level j into j+1 after every row b whose low (j+1)·P bits are
// zero (P = max(4, ceil(log2 N)/8)); the levels are then added in order
// to 0 and, for the mean, divided by the total weight (the number of
// rows not ignored, or the cascaded sum of their weights). Rows with a
// negative target (ignored) take no part.
func nllLossTorch[T float32 | float64](v []T, tgt []int, w []float64, mean bool) T {
	const levels = 8
	n := len(tgt)
	p := max(4, bits.Len(uint(max(n, 1)-1))/levels)
	mask := 1<<p - 1
	var loss, wsum [levels]T
	ignored := 0
	for b, t := range tgt {
		if t < 0 {
			ignored++
			continue
		}
		if w != nil {
			wt := T(w[t])
			loss[0] -= T(v[b] * wt) // rounded, then subtracted: not fused
			wsum[0] += wt
		} else {
			loss[0] -= v[b]
		}
		for j := 0; j+1 < levels; j++ {
			if b&(mask<<(j*p)) != 0 {
				break
			}
			loss[j+1] += loss[j]
			wsum[j+1] += wsum[j]
			loss[j], wsum[j] = 0, 0
		}
	}
	var out, total T
	for j := range loss {
		out += loss[j]
		total += wsum[j]
	}
	if w == nil {
		total = T(n - ignored)
	}
	if mean {
		out /= total
	}
	return out
}

func unsqueezedShape(s []int, d int) []int {
	out := append([]int(nil), s[:d]...)
	out = append(out, 1)
	return append(out, s[d:]...)
}

// smooth mixes a target distribution with the uniform one:
// (1 - eps) * t + eps / C (PyTorch's label_smoothing).
// Recorded, so a probability target that requires grad gets its gradient.
func smooth(e *Engine, t *T, eps float64, C int) (*T, error) {
	a, err := applyBinary(e, "mul", tensor.Mul, t, tensor.ScalarFloat(1-eps))
	if err != nil {
		return nil, err
	}
	return applyBinary(e, "add", tensor.Add, a, tensor.ScalarFloat(eps/float64(C)))
}

func nnLayerNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var ns shapeArg
	var w, bias tensorOpt
	eps := 1e-5
	if err := runtime.UnpackArgs("layer_norm", args, kwargs, "input", &x, "normalized_shape", &ns, "weight?", &w, "bias?", &bias, "eps?", &eps); err != nil {
		return nil, err
	}
	r, err := layerNorm(engineOf(th), x.t, ns.shape, w.t, bias.t, eps)
	if err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "NativeLayerNormBackward0")
	return NewTensorValue(th, r), nil
}

func layerNorm(e *Engine, x *T, ns []int, w, b *T, eps float64) (*T, error) {
	k := len(ns)
	if k == 0 || k > x.Dim() || !sameShape(x.Shape()[x.Dim()-k:], ns) {
		return nil, runtime.Errorf("RuntimeError", "Given normalized_shape=%s, expected input with shape [*, %s], but got input of size %s", intList(ns), joinInts(ns), intList(x.Shape()))
	}
	for _, p := range []*T{w, b} {
		if p != nil && !sameShape(p.Shape(), ns) {
			return nil, runtime.Errorf("RuntimeError", "layer_norm: weight and bias must have shape %s, got %s", intList(ns), intList(p.Shape()))
		}
	}
	if fusedLayerNormOK(x, w, b) {
		return fusedLayerNorm(e, x, ns, w, b, eps)
	}
	// PyTorch normalizes input.contiguous() (layer_norm_cpu's
	// expect_contiguous) and returns a contiguous result; without this a
	// permuted x would give a permuted result (elementwise ops keep their
	// inputs' layout), on which view(-1) fails where PyTorch's succeeds.
	x, err := contiguousOp(e, x)
	if err != nil {
		return nil, err
	}
	dims := make([]int, k)
	for i := range dims {
		dims[i] = x.Dim() - k + i
	}
	mu, err := meanOp(e, x, dims, true)
	if err != nil {
		return nil, err
	}
	d, err := applyBinary(e, "sub", tensor.Sub, x, mu)
	if err != nil {
		return nil, err
	}
	sq, err := applyBinary(e, "mul", tensor.Mul, d, d)
	if err != nil {
		return nil, err
	}
	v, err := meanOp(e, sq, dims, true)
	if err != nil {
		return nil, err
	}
	if v, err = applyBinary(e, "add", tensor.Add, v, scalarOf(eps)); err != nil {
		return nil, err
	}
	if v, err = unaryOp(e, "rsqrt", v); err != nil {
		return nil, err
	}
	y, err := applyBinary(e, "mul", tensor.Mul, d, v)
	if err != nil {
		return nil, err
	}
	if w != nil {
		if y, err = applyBinary(e, "mul", tensor.Mul, y, w); err != nil {
			return nil, err
		}
	}
	if b != nil {
		if y, err = applyBinary(e, "add", tensor.Add, y, b); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// fusedLayerNormOK reports whether layer_norm runs as one fused node:
// a float32 or float64 input with weight and bias (when given) of its
// dtype. Other dtypes take the composed path.
func fusedLayerNormOK(x, w, b *T) bool {
	if !tensor.LayerNormSupported(x) || x.Numel() == 0 {
		return false
	}
	for _, p := range []*T{w, b} {
		if p != nil && p.DType() != x.DType() {
			return false
		}
	}
	return true
}

// fusedLayerNorm is layer_norm as ATen's native_layer_norm: the row
// kernel tensor.LayerNorm (statistics in the input's precision) recorded
// as one node, whose backward (autograd's native_layer_norm formula) reads
// the saved per-row mean and rstd.
func fusedLayerNorm(e *Engine, x *T, ns []int, w, b *T, eps float64) (*T, error) {
	n := 1
	for _, s := range ns {
		n *= s
	}
	attrs := autograd.Attrs{"k": len(ns), "n": n, "eps": eps}
	return e.Apply("native_layer_norm", []*T{x, w, b}, attrs, func() (*T, error) {
		y, mean, rstd, err := tensor.LayerNorm(x, n, w, b, eps)
		attrs["mean"], attrs["rstd"] = mean, rstd
		return y, err
	})
}

func joinInts(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s
}

func nnSDPA(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var q, k, v tensorArg
	var mask tensorOpt
	dropout := 0.0
	causal := false
	var scale floatOpt
	if err := runtime.UnpackArgs("scaled_dot_product_attention", args, kwargs, "query", &q, "key", &k, "value", &v,
		"attn_mask?", &mask, "dropout_p?", &dropout, "is_causal?", &causal, "scale?", &scale); err != nil {
		return nil, err
	}
	if dropout > 1 { // PyTorch's math path: at::dropout's check, and p <= 0 means no dropout
		return nil, runtime.Errorf("RuntimeError", "dropout probability has to be between 0 and 1, but got %v", dropout)
	}
	e := engineOf(th)
	s := 1.0
	if q.t.Dim() > 0 {
		s = 1 / math.Sqrt(float64(q.t.Shape()[q.t.Dim()-1]))
	}
	if scale.ok {
		s = scale.v
	}
	if dropout <= 0 && !(e.GradEnabled() && (q.t.RequiresGrad() || k.t.RequiresGrad() || v.t.RequiresGrad() || (mask.t != nil && mask.t.RequiresGrad()))) {
		// Nothing to record for autograd: the fused kernel, which never
		// materialises the L×S scores.
		r, err := tensor.ScaledDotProductAttention(q.t, k.t, v.t, mask.t, causal, s)
		if err != nil {
			return nil, err
		}
		return NewTensorValue(th, r), nil
	}
	var drop func(p *T) (*T, error)
	if dropout > 0 {
		drop = func(p *T) (*T, error) { return dropoutOp(th, e, p, dropout) }
	}
	r, err := sdpa(e, q.t, k.t, v.t, mask.t, causal, s, drop)
	if err != nil {
		return nil, err
	}
	return NewTensorValue(th, r), nil
}

// sdpa is softmax(q @ k^T * scale + mask) @ v, recorded op by op for
// autograd (the fused tensor.ScaledDotProductAttention serves calls with
// nothing to record); a bool mask (true = attend) fills -inf where false,
// a float mask is added; is_causal keeps the lower triangle (query i
// attends to keys j <= i); drop, when not nil, is applied to the
// attention weights (dropout_p > 0).
func sdpa(e *Engine, q, k, v, mask *T, causal bool, s float64, drop func(p *T) (*T, error)) (*T, error) {
	if _, err := tensor.CheckScaledDotProductAttention(q, k, v, mask, causal); err != nil {
		return nil, err
	}
	if mask != nil && mask.DType() != tensor.Bool && mask.DType() != q.DType() {
		// an f32 mask on a half query is added in the query's dtype, as
		// PyTorch's in-place add does
		var err error
		if mask, err = toOp(e, mask, q.DType()); err != nil {
			return nil, err
		}
	}
	if q.Shape()[q.Dim()-1] == 0 {
		s = 1 // empty head dim: the scores are zeros, whatever the scale
	}
	kt, err := transposeOp(e, k, -2, -1)
	if err != nil {
		return nil, err
	}
	scores, err := applyBinary(e, "matmul", tensor.Matmul, q, kt)
	if err != nil {
		return nil, err
	}
	if scores, err = mulScalar(e, scores, s); err != nil {
		return nil, err
	}
	L, S := q.Shape()[q.Dim()-2], k.Shape()[k.Dim()-2]
	if causal {
		ones, err := tensor.Ones([]int{L, S}, tensor.Bool)
		if err != nil {
			return nil, err
		}
		if mask, err = tensor.Tril(ones, 0); err != nil {
			return nil, err
		}
	}
	if mask != nil {
		if mask.DType() == tensor.Bool {
			inv, err := tensor.LogicalNot(mask)
			if err != nil {
				return nil, err
			}
			if scores, err = maskedFillOp(e, scores, inv, scalarOf(math.Inf(-1))); err != nil {
				return nil, err
			}
		} else if scores, err = applyBinary(e, "add", tensor.Add, scores, mask); err != nil {
			return nil, err
		}
	}
	p, err := softmaxOp(e, "softmax", scores, -1)
	if err != nil {
		return nil, err
	}
	if drop != nil {
		if p, err = drop(p); err != nil {
			return nil, err
		}
	}
	return applyBinary(e, "matmul", tensor.Matmul, p, v)
}

// layerClass is a layer constructor value (nn.Linear).
type layerClass struct {
	name string
	doc  string
	make func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)
}

func (c *layerClass) String() string { return "<class nn." + c.name + ">" }
func (c *layerClass) Type() string   { return "class" }
func (c *layerClass) Truth() bool    { return true }
func (c *layerClass) Name() string   { return "nn." + c.name }

// Call constructs a layer.
func (c *layerClass) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return c.make(th, args, kwargs)
}

// Attr exposes class-level constructors (none yet besides calling).
func (c *layerClass) Attr(name string) (runtime.Value, error) { return nil, nil }

// AttrNames lists nothing.
func (c *layerClass) AttrNames() []string { return nil }

// layer is a module instance: named parameters (tensors that require
// grad), plain config fields, and a forward function.
type layer struct {
	kind    string
	config  []string // field names shown by String, in order
	fields  map[string]runtime.Value
	params  []string // parameter field names, in order
	forward func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)
	// repr, when set, replaces the default printout.
	repr func(l *layer) string
	// eval is true after eval() / train(false) (training is the default).
	eval bool
	// buffers names the tensor fields that are module state but not
	// parameters (BatchNorm's running_mean), in order; state_dict lists
	// them after the parameters.
	buffers []string
	// subs are the child modules (a Sequential's layers), named by
	// subNames ("0", "1", ...); parameters(), named_parameters(),
	// state_dict(), train(), eval() and zero_grad() recurse into them.
	subs     []*layer
	subNames []string
	// outer is the value scripts see for this layer when that is not the
	// *layer itself (a Sequential's *seqModule); nil otherwise.
	outer runtime.Value
	// dels is the bookkeeping of del m.name; nil until the first del or
	// the first attribute registered by assignment.
	dels *layerDels
}

// layerDels records what del m.name and assignments did to a layer, as
// torch's Module.__delattr__ / __setattr__ would leave it.
type layerDels struct {
	// missing names the layer's own parameters, buffers and children that
	// were deleted and not assigned again: its forward reads them, so a
	// call is torch's AttributeError until they are.
	missing []string
	// plain names tensor attributes assigned after a del that are neither
	// parameters nor buffers (torch: a plain tensor attribute).
	plain []string
	// added names parameters and children registered by assignment; the
	// forward does not read them, so deleting them blocks nothing.
	added map[string]bool
}

func (l *layer) delState() *layerDels {
	if l.dels == nil {
		l.dels = &layerDels{added: map[string]bool{}}
	}
	return l.dels
}

// checkIntact is the error of calling a layer one of whose own
// parameters, buffers or children was deleted (torch's forward then
// reads a missing attribute).
func (l *layer) checkIntact() error {
	if l.dels != nil && len(l.dels.missing) > 0 {
		return runtime.Errorf("AttributeError", "'%s' object has no attribute '%s'", l.kind, l.dels.missing[0])
	}
	return nil
}

// removeName returns names without name, and whether it was there.
func removeName(names []string, name string) ([]string, bool) {
	for i, n := range names {
		if n == name {
			return append(names[:i:i], names[i+1:]...), true
		}
	}
	return names, false
}

// DelAttr performs del m.name as torch's Module.__delattr__: a parameter,
// buffer or child module is unregistered (it leaves parameters(),
// state_dict() and the printout) and m.name is then an AttributeError.
// Deleting one the layer's forward uses makes calling the layer torch's
// AttributeError until a tensor (or module) is assigned to that name
// again; an nn.Parameter assigned is registered as a parameter, a plain
// tensor stays a plain attribute. Configuration fields (in_features, ...)
// cannot be deleted.
func (l *layer) DelAttr(name string) error {
	d := l.delState()
	var found bool
	if l.params, found = removeName(l.params, name); !found {
		l.buffers, found = removeName(l.buffers, name)
	}
	if !found {
		d.plain, found = removeName(d.plain, name)
	}
	if found {
		delete(l.fields, name)
		if !d.added[name] {
			d.missing = append(d.missing, name)
		}
		delete(d.added, name)
		return nil
	}
	for i, n := range l.subNames {
		if n == name {
			l.subs = append(l.subs[:i:i], l.subs[i+1:]...)
			l.subNames = append(l.subNames[:i:i], l.subNames[i+1:]...)
			if !d.added[name] {
				d.missing = append(d.missing, name)
			}
			delete(d.added, name)
			return nil
		}
	}
	if _, ok := l.fields[name]; ok {
		return runtime.Errorf("AttributeError", "cannot delete attribute '%s' of '%s': it is part of the layer's configuration", name, l.kind)
	}
	return runtime.Errorf("AttributeError", "'%s' object has no attribute '%s'", l.kind, name)
}

func (l *layer) String() string {
	if l.repr != nil {
		return l.repr(l)
	}
	s := l.kind + "("
	for i, f := range l.config {
		if i > 0 {
			s += ", "
		}
		s += f + "=" + runtime.Repr(l.fields[f])
	}
	return s + ")"
}
func (l *layer) Type() string { return l.kind }
func (l *layer) Truth() bool  { return true }
func (l *layer) Name() string { return l.kind }

// Call runs the layer's forward.
func (l *layer) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if err := l.checkIntact(); err != nil {
		return nil, err
	}
	return l.forward(th, l, args, kwargs)
}

// Attr returns a field, or the methods parameters(), zero_grad() and
// forward().
func (l *layer) Attr(name string) (runtime.Value, error) {
	if v, ok := l.fields[name]; ok {
		return v, nil
	}
	for i, n := range l.subNames {
		if n == name {
			return l.subs[i].value(), nil
		}
	}
	switch name {
	case "parameters":
		return runtime.NewBuiltin("parameters", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("parameters", args, kwargs); err != nil {
				return nil, err
			}
			var out []runtime.Value
			for _, p := range l.namedParams() {
				out = append(out, p.v)
			}
			return runtime.NewList(out), nil
		}), nil
	case "zero_grad":
		return runtime.NewBuiltin("zero_grad", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			toNone := false // PyTorch 1.13's default (2.x: true)
			if err := runtime.UnpackArgs("zero_grad", args, kwargs, "set_to_none?", &toNone); err != nil {
				return nil, err
			}
			for _, p := range l.namedParams() {
				if err := zeroGrad(p.v.t, toNone); err != nil {
					return nil, err
				}
			}
			return runtime.None, nil
		}), nil
	case "forward":
		return runtime.NewBuiltin(l.kind+".forward", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := l.checkIntact(); err != nil {
				return nil, err
			}
			return l.forward(th, l, args, kwargs)
		}), nil
	}
	if v, ok := layerMethod(l, name); ok {
		return v, nil
	}
	return nil, nil
}

// AttrNames lists fields and methods.
func (l *layer) AttrNames() []string {
	names := append([]string{"forward", "parameters", "zero_grad"}, layerMethodNames...)
	for k := range l.fields {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// SetAttr replaces a parameter or a buffer (a tensor, or none).
func (l *layer) SetAttr(name string, v runtime.Value) error {
	if d := l.dels; d != nil {
		if rest, ok := removeName(d.missing, name); ok {
			// assigned again after del: a Parameter is registered as one,
			// another tensor is a plain attribute, a module a child
			if m, ok := asLayer(v); ok {
				l.subs = append(l.subs, m)
				l.subNames = append(l.subNames, name)
			} else if t, ok := v.(*TensorValue); ok && t.param {
				l.params = append(l.params, name)
				l.fields[name] = v
			} else if ok || v == runtime.None {
				d.plain = append(d.plain, name)
				l.fields[name] = v
			} else {
				return runtime.Errorf("TypeError", "cannot assign %s as '%s' (tensor, none or module expected)", v.Type(), name)
			}
			d.missing = rest
			return nil
		}
		for _, p := range d.plain {
			if p == name {
				t, ok := v.(*TensorValue)
				if !ok && v != runtime.None {
					return runtime.Errorf("TypeError", "cannot assign %s as '%s' (tensor or none expected)", v.Type(), name)
				}
				if ok && t.param { // a Parameter assigned is registered
					d.plain, _ = removeName(d.plain, name)
					l.params = append(l.params, name)
				}
				l.fields[name] = v
				return nil
			}
		}
	}
	for _, p := range append(l.params[:len(l.params):len(l.params)], l.buffers...) {
		if p == name {
			if _, ok := v.(*TensorValue); !ok && v != runtime.None {
				return runtime.Errorf("TypeError", "cannot assign %s as parameter '%s' (tensor or none expected)", v.Type(), name)
			}
			l.fields[name] = v
			return nil
		}
	}
	if _, ok := l.fields[name]; !ok {
		// torch's Module.__setattr__: a new nn.Parameter is registered as a
		// parameter, a module as a child (replacing one of that name)
		if t, ok := v.(*TensorValue); ok && t.param {
			l.params = append(l.params, name)
			l.fields[name] = v
			l.delState().added[name] = true
			return nil
		}
		if m, ok := asLayer(v); ok {
			for i, n := range l.subNames {
				if n == name {
					l.subs[i] = m
					return nil
				}
			}
			l.subs = append(l.subs, m)
			l.subNames = append(l.subNames, name)
			l.delState().added[name] = true
			return nil
		}
	}
	return runtime.Errorf("AttributeError", "'%s' object attribute '%s' is read-only", l.kind, name)
}

// newLinear builds nn.Linear(in_features, out_features, bias=true,
// dtype=f32) with PyTorch's default initialisation: weight and bias
// uniform in [-1/sqrt(in), 1/sqrt(in)) (kaiming_uniform with a=sqrt(5)).
func newLinear(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var in, out int
	bias := true
	var dt dtypeOpt
	if err := runtime.UnpackArgs("Linear", args, kwargs, "in_features", &in, "out_features", &out, "bias?", &bias, "dtype?", &dt); err != nil {
		return nil, err
	}
	if in < 0 || out < 0 {
		return nil, runtime.Errorf("RuntimeError", "Linear: in_features and out_features must be non-negative")
	}
	dtype := tensor.DefaultFloat
	if dt.ok {
		dtype = dt.dt
	}
	if !dtype.IsFloat() {
		return nil, runtime.Errorf("TypeError", "Linear: dtype must be a floating-point dtype, got %s", dtype)
	}
	// PyTorch's reset_parameters: kaiming_uniform_(weight, a=sqrt(5))
	// (bound = sqrt(3) * gain / sqrt(fan_in), gain = sqrt(2 / (1 + a^2))),
	// then bias uniform_(-1/sqrt(fan_in), 1/sqrt(fan_in)); drawn in the
	// layer's dtype from the interpreter's generator, as PyTorch's.
	wBound, bBound := 0.0, 0.0
	if in > 0 {
		gain := math.Sqrt(2.0 / (1 + 5.0))
		wBound = math.Sqrt(3.0) * (gain / math.Sqrt(float64(in)))
		bBound = 1 / math.Sqrt(float64(in))
	}
	g := stateOf(th).gen
	uniform := func(shape []int, bound float64) (*T, error) {
		u, err := tensor.Uniform(g, shape, dtype, -bound, bound)
		if err != nil {
			return nil, err
		}
		return u, autograd.RequiresGrad_(u, true)
	}
	w, err := uniform([]int{out, in}, wBound)
	if err != nil {
		return nil, err
	}
	l := &layer{kind: "Linear", config: []string{"in_features", "out_features", "bias"},
		params: []string{"weight", "bias"},
		fields: map[string]runtime.Value{
			"in_features":  runtime.MakeInt(int64(in)),
			"out_features": runtime.MakeInt(int64(out)),
			"weight":       newParamValue(th, w),
			"bias":         runtime.None,
		}}
	if bias {
		bt, err := uniform([]int{out}, bBound)
		if err != nil {
			return nil, err
		}
		l.fields["bias"] = newParamValue(th, bt)
	}
	l.repr = func(l *layer) string {
		return fmt.Sprintf("Linear(in_features=%s, out_features=%s, bias=%s)", l.fields["in_features"], l.fields["out_features"],
			runtime.Bool(l.fields["bias"] != runtime.None))
	}
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		if err := runtime.UnpackArgs("Linear", args, kwargs, "input", &x); err != nil {
			return nil, err
		}
		w := l.fields["weight"].(*TensorValue).t
		var b *T
		if bv, ok := l.fields["bias"].(*TensorValue); ok {
			b = bv.t
		}
		r, err := linearOp(engineOf(th), x.t, w, b)
		if err != nil {
			return nil, err
		}
		return NewTensorValue(th, r), nil
	}
	return l, nil
}
