package stdlib

import (
	"fmt"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Convolution, pooling, normalisation and unfold/fold of
// torch.nn.functional (PyTorch 1.13 names, argument order, defaults,
// int-or-tuple arguments, dtype rules, error messages and grad_fn names):
// conv1d, conv2d, conv_transpose1d, conv_transpose2d, unfold, fold,
// max_pool1d/2d, avg_pool1d/2d, adaptive_avg_pool1d/2d,
// adaptive_max_pool1d/2d, batch_norm, group_norm and instance_norm.
//
// Convolutions lower to im2col + the batched GEMM (tensor.Conv2d) and are
// recorded as one ConvolutionBackward0 node whose backward is
// tensor.ConvBackward (gradients for input, weight and bias; not
// differentiable a second time). 1-d ops are the 2-d kernels with height 1;
// unbatched inputs are unsqueezed and the result squeezed (SqueezeBackward1,
// as PyTorch). Pools are direct loops (tensor.MaxPool2d, ...), recorded as
// one node with ATen's backward. The norms are composites of recorded ops
// (mean, sub, mul, rsqrt, ...), so they differentiate exactly (and twice),
// with the last node renamed as PyTorch's (NativeBatchNormBackward0, ...).
// float32 and float64 compute natively, bfloat16 in float32 rounded once;
// float16 and integer inputs are PyTorch's "not implemented" errors.

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_conv.go initialised before nn.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("nn", name, doc, f) }
	fn("conv1d", "conv1d(input, weight, bias=none, stride=1, padding=0, dilation=1, groups=1): 1-d cross-correlation of input [N, C, L] (or unbatched [C, L]) with weight [F, C/groups, k] plus bias [F]; padding an int, a 1-tuple, \"valid\" or \"same\". im2col + GEMM. grad_fn ConvolutionBackward0.", convBuiltin(1, false))
	fn("conv2d", "conv2d(input, weight, bias=none, stride=1, padding=0, dilation=1, groups=1): 2-d cross-correlation of input [N, C, H, W] (or unbatched [C, H, W]) with weight [F, C/groups, kh, kw] plus bias [F]; stride, padding and dilation an int or a pair, padding also \"valid\" or \"same\" (stride 1). Output [N, F, (H + 2p - d(kh-1) - 1)/s + 1, ...]. im2col + GEMM. grad_fn ConvolutionBackward0.", convBuiltin(2, false))
	fn("conv_transpose1d", "conv_transpose1d(input, weight, bias=none, stride=1, padding=0, output_padding=0, groups=1, dilation=1): 1-d transposed convolution of input [N, C, L] with weight [C, F/groups, k]: output length (L-1)*stride - 2*padding + dilation*(k-1) + output_padding + 1. grad_fn ConvolutionBackward0.", convBuiltin(1, true))
	fn("conv_transpose2d", "conv_transpose2d(input, weight, bias=none, stride=1, padding=0, output_padding=0, groups=1, dilation=1): 2-d transposed convolution (the gradient of conv2d wrt its input) of input [N, C, H, W] with weight [C, F/groups, kh, kw]. grad_fn ConvolutionBackward0.", convBuiltin(2, true))
	fn("unfold", "unfold(input, kernel_size, dilation=1, padding=0, stride=1): the sliding blocks (im2col) of input [N, C, H, W] (or [C, H, W]): [N, C*kh*kw, L], L the number of block positions. grad_fn Im2ColBackward0.", nnUnfold)
	fn("fold", "fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1): sums sliding blocks [N, C*kh*kw, L] (or [C*kh*kw, L]) back into [N, C, H, W] (col2im, the adjoint of unfold). grad_fn Col2ImBackward0.", nnFold)
	fn("max_pool1d", "max_pool1d(input, kernel_size, stride=none, padding=0, dilation=1, ceil_mode=false, return_indices=false): max over windows of the last dim of [N, C, L] or [C, L] (stride defaults to kernel_size); with return_indices, (values, indices). NaN propagates.", poolBuiltin(1, "max"))
	fn("max_pool2d", "max_pool2d(input, kernel_size, stride=none, padding=0, dilation=1, ceil_mode=false, return_indices=false): max over windows of the last two dims of [N, C, H, W] or [C, H, W] (stride defaults to kernel_size); with return_indices, (values, indices) with indices flat in each plane. grad_fn MaxPool2DWithIndicesBackward0.", poolBuiltin(2, "max"))
	fn("avg_pool1d", "avg_pool1d(input, kernel_size, stride=none, padding=0, ceil_mode=false, count_include_pad=true): mean over windows of the last dim of [N, C, L] or [C, L].", poolBuiltin(1, "avg"))
	fn("avg_pool2d", "avg_pool2d(input, kernel_size, stride=none, padding=0, ceil_mode=false, count_include_pad=true, divisor_override=none): mean over windows of the last two dims of [N, C, H, W] or [C, H, W]; the divisor counts padding (count_include_pad) or is divisor_override. grad_fn AvgPool2DBackward0.", poolBuiltin(2, "avg"))
	fn("adaptive_avg_pool1d", "adaptive_avg_pool1d(input, output_size): mean over output_size windows [floor(i*L/o), ceil((i+1)*L/o)) of the last dim of [N, C, L] or [C, L].", adaptiveBuiltin(1, false))
	fn("adaptive_avg_pool2d", "adaptive_avg_pool2d(input, output_size): mean over adaptive windows of the last two dims; output_size an int or a pair (none keeps that dim's size). grad_fn AdaptiveAvgPool2DBackward0 (MeanBackward1 for output 1x1, as PyTorch).", adaptiveBuiltin(2, false))
	fn("adaptive_max_pool1d", "adaptive_max_pool1d(input, output_size, return_indices=false): max over adaptive windows of the last dim of [N, C, L] or [C, L].", adaptiveBuiltin(1, true))
	fn("adaptive_max_pool2d", "adaptive_max_pool2d(input, output_size, return_indices=false): max over adaptive windows of the last two dims; with return_indices, (values, indices). grad_fn AdaptiveMaxPool2DBackward0.", adaptiveBuiltin(2, true))
	fn("batch_norm", "batch_norm(input, running_mean, running_var, weight=none, bias=none, training=false, momentum=0.1, eps=1e-5): normalises input [N, C, ...] per channel by the batch's mean and biased variance (training, or running stats none) or by the running stats; then * weight[C] + bias[C]. In training, running_mean/var (when given) become (1 - momentum) * running + momentum * batch statistic (the unbiased variance), in place. grad_fn NativeBatchNormBackward0.", nnBatchNorm)
	fn("group_norm", "group_norm(input, num_groups, weight=none, bias=none, eps=1e-5): normalises input [N, C, ...] over each group of C/num_groups channels (and all other dims) by its mean and biased variance; then * weight[C] + bias[C]. grad_fn NativeGroupNormBackward0.", nnGroupNorm)
	fn("instance_norm", "instance_norm(input, running_mean=none, running_var=none, weight=none, bias=none, use_input_stats=true, momentum=0.1, eps=1e-5): normalises each (sample, channel) of input [N, C, ...] over its other dims; then * weight[C] + bias[C]. Running stats (when given and use_input_stats) take the mean over the batch of the instance statistics. grad_fn ViewBackward0.", nnInstanceNorm)
}

// intsOpt is an int-or-sequence argument kept raw until its expected
// length is known (intsFor); none is none.
type intsOpt struct {
	v   runtime.Value
	set bool
}

func (a *intsOpt) Unpack(v runtime.Value) error {
	a.v, a.set = v, true
	return nil
}

// convInts expands a conv argument (an int, or a list of 1 or n ints) to n
// ints, with PyTorch's _convolution message for a wrong length.
func convInts(name string, v runtime.Value, n int) ([]int, error) {
	s, ok := runtime.AsInts(v)
	if !ok || isBool(v) {
		return nil, runtime.Errorf("TypeError", "%s must be an int or a tuple of ints, not %s", name, v.Type())
	}
	switch len(s) {
	case 1:
		out := make([]int, n)
		for i := range out {
			out[i] = s[0]
		}
		return out, nil
	case n:
		return s, nil
	}
	return nil, runtime.Errorf("RuntimeError", "expected %s to be a single integer value or a list of %d values to match the convolution dimensions, but got %s=%s", name, n, name, intList(s))
}

// pair2 makes a [2]int of n = 1 or 2 values (1-d: height 1 with the given
// value as width; fill is the height).
func pair2(v []int, fill int) [2]int {
	if len(v) == 1 {
		return [2]int{fill, v[0]}
	}
	return [2]int{v[0], v[1]}
}

// computeDType checks the dtype of a conv/pool input and returns the
// dtype the kernels compute in (bfloat16 in float32).
//
// ints (conv, avg_pool: integer dtypes other than bool, computed in
// float64, exact while sums stay below 2**53) and half (unfold, fold:
// float16 computed in float32) widen what is accepted.
func computeDType(kernel string, dt tensor.DType, ints, half bool) (tensor.DType, error) {
	switch {
	case dt == tensor.F32 || dt == tensor.F64:
		return dt, nil
	case dt == tensor.BF16 || (half && dt == tensor.F16):
		return tensor.F32, nil
	case ints && !dt.IsFloat() && dt != tensor.Bool:
		return tensor.F64, nil
	}
	return 0, runtime.Errorf("RuntimeError", "\"%s\" not implemented for '%s'", kernel, pyTypeName(dt))
}

// pyTypeName is PyTorch's scalar type name (Float, Long, Half, ...).
func pyTypeName(dt tensor.DType) string { return tensor.CastErrorName(dt) }

// castAll converts tensors (nil stays nil) to dt at tensor level.
func castAll(dt tensor.DType, ts ...*T) ([]*T, error) {
	out := make([]*T, len(ts))
	for i, t := range ts {
		if t == nil || t.DType() == dt {
			out[i] = t
			continue
		}
		c, err := t.To(dt)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// as4d reshapes a batched 1-d or 2-d conv/pool tensor [N, C, (H,) W] to 4
// dims (height 1 for 1-d).
func as4d(t *T) (*T, error) {
	if t == nil || t.Dim() == 4 {
		return t, nil
	}
	s := t.Shape()
	return t.Contiguous().Reshape(s[0], s[1], 1, s[2])
}

func convBuiltin(nd int, transposed bool) builtinFn {
	name := fmt.Sprintf("conv%dd", nd)
	if transposed {
		name = fmt.Sprintf("conv_transpose%dd", nd)
	}
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x, w tensorArg
		var bias tensorOpt
		var stride, padding, dilation, outPad runtime.Value = runtime.Int(1), runtime.Int(0), runtime.Int(1), runtime.Int(0)
		groups := 1
		spec := []any{"input", &x, "weight", &w, "bias?", &bias, "stride?", &stride, "padding?", &padding}
		if transposed {
			spec = append(spec, "output_padding?", &outPad, "groups?", &groups, "dilation?", &dilation)
		} else {
			spec = append(spec, "dilation?", &dilation, "groups?", &groups)
		}
		if err := runtime.UnpackArgs(name, args, kwargs, spec...); err != nil {
			return nil, err
		}
		r, err := convCall(engineOf(th), th, name, nd, transposed, x.t, w.t, bias.t, stride, padding, dilation, outPad, groups)
		return tensorResult(th, r, err)
	}
}

// convCall checks a convolution's arguments as PyTorch's _convolution
// and runs it (see convOp).
func convCall(e *Engine, th *runtime.Thread, name string, nd int, transposed bool, x, w, bias *T, strideV, padV, dilV, outPadV runtime.Value, groups int) (*T, error) {
	if x.Dim() != nd+1 && x.Dim() != nd+2 {
		return nil, runtime.Errorf("RuntimeError", "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s", nd+1, nd+2, name, intList(x.Shape()))
	}
	stride, err := convInts("stride", strideV, nd)
	if err != nil {
		return nil, err
	}
	dil, err := convInts("dilation", dilV, nd)
	if err != nil {
		return nil, err
	}
	outPad, err := convInts("output_padding", outPadV, nd)
	if err != nil {
		return nil, err
	}
	var pad []int
	same := false
	if s, ok := padV.(runtime.String); ok && !transposed {
		switch string(s) {
		case "valid":
			pad = make([]int, nd)
		case "same":
			same = true
		default:
			return nil, runtime.Errorf("RuntimeError", "Invalid padding string: '%s'", string(s))
		}
	} else if pad, err = convInts("padding", padV, nd); err != nil {
		return nil, err
	}
	for i := range nd {
		switch {
		case stride[i] <= 0:
			return nil, runtime.Errorf("RuntimeError", "non-positive stride is not supported")
		case !same && pad[i] < 0:
			return nil, runtime.Errorf("RuntimeError", "negative padding is not supported")
		case dil[i] <= 0:
			return nil, runtime.Errorf("RuntimeError", "non-positive dilation is not supported")
		case outPad[i] < 0:
			return nil, runtime.Errorf("RuntimeError", "negative output_padding is not supported")
		}
	}
	if groups <= 0 {
		return nil, runtime.Errorf("RuntimeError", "non-positive groups is not supported")
	}
	if same {
		for _, s := range stride {
			if s != 1 {
				return nil, runtime.Errorf("RuntimeError", "padding='same' is not supported for strided convolutions")
			}
		}
	}
	batched := x.Dim() == nd+2
	if !batched {
		if x, err = unsqueezeOp(e, x, 0); err != nil {
			return nil, err
		}
	}
	ws, xs := w.Shape(), x.Shape()
	if w.Dim() != nd+2 {
		// PyTorch checks the expanded stride against the weight's dims
		return nil, runtime.Errorf("RuntimeError", "expected stride to be a single integer value or a list of %d values to match the convolution dimensions, but got stride=%s", max(w.Dim()-2, 0), intList(stride))
	}
	switch {
	case x.DType() != w.DType() && w.DType() == tensor.F32:
		return nil, runtime.Errorf("RuntimeError", "expected scalar type %s but found %s", pyTypeName(x.DType()), pyTypeName(w.DType()))
	case x.DType() != w.DType():
		return nil, runtime.Errorf("RuntimeError", "Input type (%s) and weight type (%s) should be the same or input should be a MKLDNN tensor and weight is a dense tensor", convTypeName(x.DType()), convTypeName(w.DType()))
	case bias != nil && bias.DType() != x.DType():
		return nil, runtime.Errorf("RuntimeError", "Input type (%s) and bias type (%s) should be the same", strings.ToLower(pyTypeName(x.DType())), strings.ToLower(pyTypeName(bias.DType())))
	}
	kernelName := "slow_conv2d_cpu"
	if transposed {
		kernelName = "slow_conv_transpose2d_out_cpu"
	}
	if _, err := computeDType(kernelName, x.DType(), true, false); err != nil {
		return nil, err
	}
	if ws[0]%groups != 0 {
		return nil, runtime.Errorf("RuntimeError", "Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of size [%s] instead", groups, groups, intList(ws))
	}
	if !transposed {
		if xs[1] != ws[1]*groups {
			return nil, runtime.Errorf("RuntimeError", "Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead", groups, intList(ws), intList(xs), ws[1]*groups, xs[1])
		}
	} else if xs[1] != ws[0] {
		return nil, runtime.Errorf("RuntimeError", "Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d channels instead", intList(ws), intList(xs), ws[0], xs[1])
	}
	outC := ws[0]
	if transposed {
		outC = ws[1] * groups
	}
	if bias != nil && (bias.Dim() != 1 || bias.Shape()[0] != outC) {
		tr := ""
		if transposed {
			tr = "transposed=1, "
		}
		return nil, runtime.Errorf("RuntimeError", "Given %sweight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead", tr, intList(ws), outC, intList(bias.Shape()))
	}
	if same {
		// PyTorch's _convolution_mode: total padding d*(k-1) per dim, the
		// odd one on the right by an explicit pad of the input
		pad = make([]int, nd)
		var extra []runtime.Value
		asym := false
		for i := nd - 1; i >= 0; i-- {
			total := dil[i] * (ws[2+i] - 1)
			pad[i] = total / 2
			extra = append(extra, iv(0), iv(total-2*pad[i]))
			asym = asym || total%2 == 1
		}
		if asym {
			v, err := callModule(th, "nn", "pad", []runtime.Value{wrap(e, x), runtime.NewList(extra)}, nil)
			if err != nil {
				return nil, err
			}
			x = v.(*TensorValue).t
			xs = x.Shape()
		}
	}
	if transposed {
		for i := range nd {
			if outPad[i] >= stride[i] && outPad[i] >= dil[i] {
				pa, st, di := pair2(outPad, 0), pair2(stride, 1), pair2(dil, 1)
				return nil, runtime.Errorf("RuntimeError", "output padding must be smaller than either stride or dilation, but got output_padding_height: %d output_padding_width: %d stride_height: %d stride_width: %d dilation_height: %d dilation_width: %d", pa[0], pa[1], st[0], st[1], di[0], di[1])
			}
		}
	} else {
		padded := make([]string, nd)
		kern := make([]string, nd)
		tooBig := false
		for i := range nd {
			p := xs[2+i] + 2*pad[i]
			k := dil[i]*(ws[2+i]-1) + 1
			padded[i], kern[i] = fmt.Sprint(p), fmt.Sprint(k)
			tooBig = tooBig || k > p
		}
		if tooBig {
			return nil, runtime.Errorf("RuntimeError", "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater than actual input size", strings.Join(padded, " x "), strings.Join(kern, " x "))
		}
	}
	p := tensor.ConvParams{Stride: pair2(stride, 1), Padding: pair2(pad, 0), Dilation: pair2(dil, 1), OutputPadding: pair2(outPad, 0), Groups: groups}
	r, err := convOp(e, x, w, bias, p, transposed)
	if err != nil || batched {
		return r, err
	}
	return squeezeOp(e, r, []int{0})
}

// convTypeName is the tensor type name of PyTorch's conv dtype messages.
func convTypeName(dt tensor.DType) string {
	return "torch." + pyTypeName(dt) + "Tensor"
}

// convOp records a (transposed) convolution of batched x [N, C, (H,) W]
// as one ConvolutionBackward0 node over x, weight and bias.
func convOp(e *Engine, x, w, bias *T, p tensor.ConvParams, transposed bool) (*T, error) {
	dt := x.DType()
	cdt, err := computeDType("slow_conv2d_cpu", dt, true, false)
	if err != nil {
		return nil, err
	}
	outShape := func(o *T) (*T, error) {
		if x.Dim() == 4 {
			return o, nil
		}
		s := o.Shape()
		return o.Reshape(s[0], s[1], s[3])
	}
	inputs := []*T{x, w}
	if bias != nil {
		inputs = append(inputs, bias)
	}
	return e.ApplyCustom("ConvolutionBackward", inputs, func() (*T, error) {
		ts, err := castAll(cdt, x, w, bias)
		if err != nil {
			return nil, err
		}
		x4, err := as4d(ts[0])
		if err != nil {
			return nil, err
		}
		w4, err := as4d(ts[1])
		if err != nil {
			return nil, err
		}
		var o *T
		if transposed {
			o, err = tensor.ConvTranspose2d(x4, w4, ts[2], p)
		} else {
			o, err = tensor.Conv2d(x4, w4, ts[2], p)
		}
		if err != nil {
			return nil, err
		}
		if o, err = outShape(o); err != nil {
			return nil, err
		}
		return o.To(dt)
	}, func(g *T) ([]*T, error) {
		if e.GradEnabled() {
			// create_graph: the gradients as recorded ops, each
			// differentiable again (to any order)
			out := make([]*T, len(inputs))
			var err error
			if x.RequiresGrad() {
				if out[0], err = convInputGradOp(e, g, w, x.Shape(), p, transposed); err != nil {
					return nil, err
				}
			}
			if w.RequiresGrad() {
				if out[1], err = convWeightGradOp(e, x, g, w.Shape(), p, transposed); err != nil {
					return nil, err
				}
			}
			if bias != nil && bias.RequiresGrad() {
				dims := []int{0, 2, 3}[:g.Dim()-1]
				if out[2], err = sumOp(e, g, dims, false); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		return convGrads(cdt, x, w, g, p, transposed, x.RequiresGrad(), w.RequiresGrad(), bias != nil && bias.RequiresGrad(), len(inputs))
	})
}

// convInputGradOp records the input gradient of a (transposed)
// convolution, B_x(g; w), for the output gradient g and weight w (x of
// shape xShape), as a node linear in each of g and w: its backward for a
// cotangent u is conv(u, w) for g and the weight gradient B_w(g; u) for w
// (<B_x(g; w), u> = <g, conv(u, w)>), both recorded.
func convInputGradOp(e *Engine, g, w *T, xShape []int, p tensor.ConvParams, transposed bool) (*T, error) {
	cdt, err := computeDType("slow_conv2d_cpu", g.DType(), true, false)
	if err != nil {
		return nil, err
	}
	return e.ApplyCustom("ConvolutionBackwardBackward", []*T{g, w}, func() (*T, error) {
		z, err := tensor.Zeros(xShape, g.DType()) // only x's shape is read
		if err != nil {
			return nil, err
		}
		r, err := convGrads(cdt, z, w, g, p, transposed, true, false, false, 1)
		if err != nil {
			return nil, err
		}
		return r[0], nil
	}, func(u *T) ([]*T, error) {
		out := make([]*T, 2)
		var err error
		if g.RequiresGrad() {
			if out[0], err = convOp(e, u, w, nil, p, transposed); err != nil {
				return nil, err
			}
		}
		if w.RequiresGrad() {
			if out[1], err = convWeightGradOp(e, u, g, w.Shape(), p, transposed); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// convWeightGradOp records the weight gradient of a (transposed)
// convolution, B_w(g; x), for input x and output gradient g (weight of
// shape wShape), linear in each of x and g: its backward for a cotangent v
// is the input gradient B_x(g; v) for x and conv(x, v) for g
// (<B_w(g; x), v> = <g, conv(x, v)>), both recorded.
func convWeightGradOp(e *Engine, x, g *T, wShape []int, p tensor.ConvParams, transposed bool) (*T, error) {
	cdt, err := computeDType("slow_conv2d_cpu", x.DType(), true, false)
	if err != nil {
		return nil, err
	}
	return e.ApplyCustom("ConvolutionBackwardBackward", []*T{x, g}, func() (*T, error) {
		z, err := tensor.Zeros(wShape, x.DType()) // only w's shape is read
		if err != nil {
			return nil, err
		}
		r, err := convGrads(cdt, x, z, g, p, transposed, false, true, false, 2)
		if err != nil {
			return nil, err
		}
		return r[1], nil
	}, func(v *T) ([]*T, error) {
		out := make([]*T, 2)
		var err error
		if x.RequiresGrad() {
			if out[0], err = convInputGradOp(e, g, v, x.Shape(), p, transposed); err != nil {
				return nil, err
			}
		}
		if g.RequiresGrad() {
			if out[1], err = convOp(e, x, v, nil, p, transposed); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
}

// convGrads is the (transposed) convolution's backward at x, w for the
// output gradient g (tensor.ConvBackward in the compute dtype cdt): the
// gradients of x, w and the bias, those not needed nil, the first n.
func convGrads(cdt tensor.DType, x, w, g *T, p tensor.ConvParams, transposed, needX, needW, needB bool, n int) ([]*T, error) {
	dt := x.DType()
	ts, err := castAll(cdt, x, w, g)
	if err != nil {
		return nil, err
	}
	var x4, w4, g4 *T
	if x4, err = as4d(ts[0]); err == nil {
		if w4, err = as4d(ts[1]); err == nil {
			g4, err = as4d(ts[2])
		}
	}
	if err != nil {
		return nil, err
	}
	gx, gw, gb, err := tensor.ConvBackward(x4, w4, g4, p, transposed, needX, needW, needB)
	if err != nil {
		return nil, err
	}
	shapes := [][]int{x.Shape(), w.Shape()}
	out := []*T{nil, nil, nil}
	for i, r := range []*T{gx, gw, gb} {
		if r == nil {
			continue
		}
		if i < 2 { // the bias gradient is 1-D already
			if r, err = r.Reshape(shapes[i]...); err != nil {
				return nil, err
			}
		}
		if out[i], err = r.To(dt); err != nil {
			return nil, err
		}
	}
	return out[:n], nil
}

// unfoldParams reads unfold/fold's kernel_size, dilation, padding and
// stride (an int or a pair each).
func unfoldParams(name string, k, d, p, s runtime.Value) ([2]int, tensor.ConvParams, error) {
	var out [4][2]int
	for i, v := range []runtime.Value{k, d, p, s} {
		xs, ok := runtime.AsInts(v)
		if !ok || isBool(v) || (len(xs) != 1 && len(xs) != 2) {
			return [2]int{}, tensor.ConvParams{}, runtime.Errorf("TypeError", "%s(): expected an int or a pair of ints, not %s", name, runtime.Repr(v))
		}
		if len(xs) == 1 {
			xs = []int{xs[0], xs[0]}
		}
		out[i] = [2]int{xs[0], xs[1]}
	}
	names := []string{"kernel size", "dilation", "padding", "stride"}
	short := []string{"kernel", "dilation", "pad", "stride"}
	for i, v := range out {
		if (i == 2 && (v[0] < 0 || v[1] < 0)) || (i != 2 && (v[0] <= 0 || v[1] <= 0)) {
			rel := "greater than zero"
			if i == 2 {
				rel = "non-negative"
			}
			return [2]int{}, tensor.ConvParams{}, runtime.Errorf("RuntimeError", "%s should be %s, but got %s_height: %d %s_width: %d", names[i], rel, short[i], v[0], short[i], v[1])
		}
	}
	return out[0], tensor.ConvParams{Dilation: out[1], Padding: out[2], Stride: out[3], Groups: 1}, nil
}

func nnUnfold(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var k runtime.Value
	var d, p, s runtime.Value = runtime.Int(1), runtime.Int(0), runtime.Int(1)
	if err := runtime.UnpackArgs("unfold", args, kwargs, "input", &x, "kernel_size", &k, "dilation?", &d, "padding?", &p, "stride?", &s); err != nil {
		return nil, err
	}
	kernel, cp, err := unfoldParams("unfold", k, d, p, s)
	if err != nil {
		return nil, err
	}
	xt := x.t
	if xt.Dim() < 3 {
		return nil, runtime.Errorf("IndexError", "Dimension out of range (expected to be in range of [%d, %d], but got 2)", -max(xt.Dim(), 1), max(xt.Dim(), 1)-1)
	}
	if xt.Dim() != 3 && xt.Dim() != 4 {
		return nil, runtime.Errorf("NotImplementedError", "Input Error: Only 3D or 4D input Tensors are supported (got %dD)", xt.Dim())
	}
	cdt, err := computeDType("im2col_out_cpu", xt.DType(), false, true)
	if err != nil {
		return nil, err
	}
	shape := xt.Shape()
	batched := xt.Dim() == 4
	if !batched {
		shape = append([]int{1}, shape...)
	}
	oh := tensor.ConvOutputSize(shape[2], kernel[0], cp.Stride[0], cp.Padding[0], cp.Dilation[0])
	ow := tensor.ConvOutputSize(shape[3], kernel[1], cp.Stride[1], cp.Padding[1], cp.Dilation[1])
	if oh < 1 || ow < 1 {
		return nil, runtime.Errorf("RuntimeError", "Given input with spatial size (%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), calculated shape of the array of sliding blocks as (%d, %d), but its components must be at least one.",
			shape[2], shape[3], kernel[0], kernel[1], cp.Dilation[0], cp.Dilation[1], cp.Padding[0], cp.Padding[1], oh, ow)
	}
	dt := xt.DType()
	e := engineOf(th)
	fwd := func(in *T) (*T, error) {
		c, err := in.To(cdt)
		if err == nil {
			c, err = c.Contiguous().Reshape(shape...)
		}
		if err == nil {
			c, err = tensor.Im2Col(c, kernel, cp)
		}
		if err == nil && !batched {
			c, err = c.Squeeze(0)
		}
		if err == nil {
			c, err = c.To(dt)
		}
		return c, err
	}
	r, err := e.ApplyLinear("Im2ColBackward", []*T{xt}, func() (*T, error) { return fwd(xt) }, func(g *T) ([]*T, error) {
		c, err := g.To(cdt)
		if err == nil && !batched {
			c, err = c.Unsqueeze(0)
		}
		if err == nil {
			c, err = tensor.Col2Im(c, [2]int{shape[2], shape[3]}, kernel, cp)
		}
		if err == nil {
			c, err = c.Reshape(xt.Shape()...)
		}
		if err == nil {
			c, err = c.To(dt)
		}
		return []*T{c}, err
	}, func(us []*T) (*T, error) { return fwd(us[0]) })
	return tensorResult(th, r, err)
}

func nnFold(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	var os, k runtime.Value
	var d, p, s runtime.Value = runtime.Int(1), runtime.Int(0), runtime.Int(1)
	if err := runtime.UnpackArgs("fold", args, kwargs, "input", &x, "output_size", &os, "kernel_size", &k, "dilation?", &d, "padding?", &p, "stride?", &s); err != nil {
		return nil, err
	}
	kernel, cp, err := unfoldParams("fold", k, d, p, s)
	if err != nil {
		return nil, err
	}
	osz, ok := runtime.AsInts(os)
	if !ok || isBool(os) || (len(osz) != 1 && len(osz) != 2) {
		return nil, runtime.Errorf("TypeError", "fold(): output_size must be an int or a pair of ints, not %s", runtime.Repr(os))
	}
	if len(osz) == 1 {
		osz = []int{osz[0], osz[0]}
	}
	xt := x.t
	if xt.Dim() != 2 && xt.Dim() != 3 {
		return nil, runtime.Errorf("RuntimeError", "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", intList(xt.Shape()))
	}
	cdt, err := computeDType("col2im_out_cpu", xt.DType(), false, true)
	if err != nil {
		return nil, err
	}
	shape := xt.Shape()
	batched := xt.Dim() == 3
	if !batched {
		shape = append([]int{1}, shape...)
	}
	K := kernel[0] * kernel[1]
	if shape[1]%K != 0 {
		return nil, runtime.Errorf("RuntimeError", "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%d and kernel_size=(%d, %d).", shape[1], kernel[0], kernel[1])
	}
	oh := tensor.ConvOutputSize(osz[0], kernel[0], cp.Stride[0], cp.Padding[0], cp.Dilation[0])
	ow := tensor.ConvOutputSize(osz[1], kernel[1], cp.Stride[1], cp.Padding[1], cp.Dilation[1])
	if oh < 1 || ow < 1 {
		return nil, runtime.Errorf("RuntimeError", "Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), stride=(%d, %d), calculated shape of the array of sliding blocks as (%d, %d), but its components must be at least one.",
			osz[0], osz[1], kernel[0], kernel[1], cp.Dilation[0], cp.Dilation[1], cp.Padding[0], cp.Padding[1], cp.Stride[0], cp.Stride[1], oh, ow)
	}
	if oh*ow != shape[2] {
		return nil, runtime.Errorf("RuntimeError", "Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), stride=(%d, %d), expected size of input's dimension 2 to match the calculated number of sliding blocks %d * %d = %d, but got input.size(2)=%d.",
			osz[0], osz[1], kernel[0], kernel[1], cp.Dilation[0], cp.Dilation[1], cp.Padding[0], cp.Padding[1], cp.Stride[0], cp.Stride[1], oh, ow, oh*ow, shape[2])
	}
	dt := xt.DType()
	e := engineOf(th)
	fwd := func(in *T) (*T, error) {
		c, err := in.To(cdt)
		if err == nil {
			c, err = c.Contiguous().Reshape(shape...)
		}
		if err == nil {
			c, err = tensor.Col2Im(c, [2]int{osz[0], osz[1]}, kernel, cp)
		}
		if err == nil && !batched {
			c, err = c.Squeeze(0)
		}
		if err == nil {
			c, err = c.To(dt)
		}
		return c, err
	}
	r, err := e.ApplyLinear("Col2ImBackward", []*T{xt}, func() (*T, error) { return fwd(xt) }, func(g *T) ([]*T, error) {
		c, err := g.To(cdt)
		if err == nil {
			c, err = c.Contiguous().Reshape(shape[0], shape[1]/K, osz[0], osz[1])
		}
		if err == nil {
			c, err = tensor.Im2Col(c, kernel, cp)
		}
		if err == nil {
			c, err = c.Reshape(xt.Shape()...)
		}
		if err == nil {
			c, err = c.To(dt)
		}
		return []*T{c}, err
	}, func(us []*T) (*T, error) { return fwd(us[0]) })
	return tensorResult(th, r, err)
}
