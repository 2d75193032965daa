package stdlib

import (
	"fmt"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// More torch.nn module classes over existing functional forms (PyTorch
// 1.13 argument names, defaults and reprs): the activations ELU, CELU,
// SELU, Softplus, Mish, ReLU6, Hardswish, Hardsigmoid, Hardtanh,
// LogSigmoid, Softsign, Tanhshrink, Softshrink, Hardshrink, GLU, Threshold,
// Softmin, Softmax2d and PReLU; the losses BCELoss, BCEWithLogitsLoss,
// SmoothL1Loss, HuberLoss, KLDivLoss and SoftMarginLoss; GroupNorm,
// InstanceNorm1d/2d; the padding layers ZeroPad2d, ConstantPad1d/2d,
// ReflectionPad1d/2d, ReplicationPad1d/2d; PixelShuffle/PixelUnshuffle
// (and nn.pixel_shuffle / nn.pixel_unshuffle / nn.prelu);
// Dropout1d/Dropout2d (and nn.dropout1d / nn.dropout2d), CosineSimilarity,
// PairwiseDistance and AdaptiveMaxPool1d. An inplace=true option is
// accepted and printed, and the result computed out of place.

// lopt is one constructor option of a simple layer: its name and
// default (runtime.None for a required argument when required is set).
type lopt struct {
	name     string
	def      runtime.Value
	required bool
}

// simpleClass makes a constructor storing each option as a field (in
// order, config) whose forward is fwd and whose repr is kind(extra(l)).
func simpleClass(kind string, opts []lopt, extra func(l *layer) string,
	fwd func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error)) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		vals := make([]runtime.Value, len(opts))
		var names []any
		for i, o := range opts {
			vals[i] = o.def
			n := o.name
			if !o.required {
				n += "?"
			}
			names = append(names, n, &vals[i])
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		l := newModule(kind, extra)
		for i, o := range opts {
			l.config = append(l.config, o.name)
			l.fields[o.name] = vals[i]
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			return fwd(th, l, x)
		}
		return l, nil
	}
}

// kvRepr prints the fields as "name=value" (Python reprs), then
// "inplace=true" when the layer has a true inplace field.
func kvRepr(names ...string) func(l *layer) string {
	return func(l *layer) string {
		var parts []string
		for _, n := range names {
			parts = append(parts, n+"="+runtime.Repr(l.fields[n]))
		}
		if v, ok := l.fields["inplace"]; ok && v.Truth() {
			parts = append(parts, "inplace="+runtime.Bool(true).String())
		}
		return strings.Join(parts, ", ")
	}
}

// callWith calls nn function fname on x and the named fields, passed by
// keyword under the same names, and inplace=true when the layer's inplace
// field is true (the activation then computes into x).
func callWith(fname string, fields ...string) func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
	return func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
		var kws []runtime.Kwarg
		for _, f := range fields {
			kws = append(kws, lkw(f, l.fields[f]))
		}
		if v, ok := l.fields["inplace"]; ok && v.Truth() {
			kws = append(kws, lkw("inplace", runtime.Bool(true)))
		}
		return callNN(th, fname, []runtime.Value{x}, kws)
	}
}

var (
	inplaceOpt = lopt{name: "inplace", def: runtime.Bool(false)}
	f1         = runtime.Float(1.0)
)

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_more_layers.go initialised before nn.go")
	}
	class := func(name, doc string, make func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) {
		m.Members[name] = &layerClass{name: name, doc: doc, make: make}
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("nn", name, doc, f) }
	fn("prelu", "prelu(input, weight): x where x > 0, else weight * x, weight [1] or [C] (C = input.shape[1], or shape[0] for 1-d input). grad_fn PreluBackward0.", nnPrelu)
	fn("pixel_shuffle", "pixel_shuffle(input, upscale_factor): [*, C*r*r, H, W] -> [*, C, H*r, W*r] (Shi et al. 2016), a reshape/permute/reshape of views.", pixelShuffle(true))
	fn("pixel_unshuffle", "pixel_unshuffle(input, downscale_factor): the inverse of pixel_shuffle, [*, C, H*r, W*r] -> [*, C*r*r, H, W].", pixelShuffle(false))
	fn("dropout1d", "dropout1d(input, p=0.5, training=true, inplace=false): zero whole channels of [N, C, L] (or [C, L]) with probability p, scaling the rest by 1/(1-p).", featureDropout("dropout1d", 1))
	fn("dropout2d", "dropout2d(input, p=0.5, training=true, inplace=false): zero whole channels of [N, C, H, W] (or [C, H, W]) with probability p, scaling the rest by 1/(1-p).", featureDropout("dropout2d", 2))

	act := func(kind, fname string, opts []lopt, extra func(l *layer) string, fields ...string) {
		class(kind, fmt.Sprintf("%s: the module form of nn.%s.", kind, fname), simpleClass(kind, opts, extra, callWith(fname, fields...)))
	}
	act("ELU", "elu", []lopt{{name: "alpha", def: f1}, inplaceOpt}, kvRepr("alpha"), "alpha")
	act("CELU", "celu", []lopt{{name: "alpha", def: f1}, inplaceOpt}, kvRepr("alpha"), "alpha")
	act("SELU", "selu", []lopt{inplaceOpt}, kvRepr())
	act("Softplus", "softplus", []lopt{{name: "beta", def: runtime.MakeInt(1)}, {name: "threshold", def: runtime.MakeInt(20)}}, kvRepr("beta", "threshold"), "beta", "threshold")
	act("Mish", "mish", []lopt{inplaceOpt}, kvRepr())
	act("ReLU6", "relu6", []lopt{inplaceOpt}, kvRepr())
	act("Hardswish", "hardswish", []lopt{inplaceOpt}, nil)
	act("Hardsigmoid", "hardsigmoid", []lopt{inplaceOpt}, nil)
	act("Hardtanh", "hardtanh", []lopt{{name: "min_val", def: runtime.Float(-1)}, {name: "max_val", def: f1}, inplaceOpt}, kvRepr("min_val", "max_val"), "min_val", "max_val")
	act("LogSigmoid", "logsigmoid", nil, nil)
	act("Softsign", "softsign", nil, nil)
	act("Tanhshrink", "tanhshrink", nil, nil)
	shrink := func(l *layer) string { return runtime.Repr(l.fields["lambd"]) }
	act("Softshrink", "softshrink", []lopt{{name: "lambd", def: runtime.Float(0.5)}}, shrink, "lambd")
	act("Hardshrink", "hardshrink", []lopt{{name: "lambd", def: runtime.Float(0.5)}}, shrink, "lambd")
	act("GLU", "glu", []lopt{{name: "dim", def: runtime.MakeInt(-1)}}, kvRepr("dim"), "dim")
	act("Threshold", "threshold", []lopt{{name: "threshold", required: true}, {name: "value", required: true}, inplaceOpt},
		func(l *layer) string {
			s := fmt.Sprintf("threshold=%s, value=%s", floatRepr(l.fields["threshold"]), floatRepr(l.fields["value"]))
			if l.fields["inplace"].Truth() {
				s += ", inplace=" + runtime.Bool(true).String()
			}
			return s
		}, "threshold", "value")
	act("Softmin", "softmin", []lopt{{name: "dim", def: runtime.None}}, kvRepr("dim"), "dim")
	class("Softmax2d", "Softmax2d(): softmax over the channels (dim -3) of [N, C, H, W] or [C, H, W].", simpleClass("Softmax2d", nil, nil,
		func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
			if xt, ok := x.(*TensorValue); ok && xt.t.Dim() != 3 && xt.t.Dim() != 4 {
				return nil, runtime.Errorf("AssertionError", "Softmax2d: expected input to be 3D or 4D, got %dD instead", xt.t.Dim())
			}
			return callNN(th, "softmax", []runtime.Value{x, runtime.MakeInt(-3)}, nil)
		}))
	class("PReLU", "PReLU(num_parameters=1, init=0.25, dtype=f32): nn.prelu with a learnable weight [num_parameters] filled with init.", newPReLU)
	class("CosineSimilarity", "CosineSimilarity(dim=1, eps=1e-8): called as m(x1, x2), nn.cosine_similarity.", pairClass("CosineSimilarity", "cosine_similarity",
		[]lopt{{name: "dim", def: runtime.MakeInt(1)}, {name: "eps", def: runtime.Float(1e-8)}}))
	class("PairwiseDistance", "PairwiseDistance(p=2.0, eps=1e-6, keepdim=false): called as m(x1, x2), nn.pairwise_distance.", pairClass("PairwiseDistance", "pairwise_distance",
		[]lopt{{name: "p", def: runtime.Float(2)}, {name: "eps", def: runtime.Float(1e-6)}, {name: "keepdim", def: runtime.Bool(false)}}))
	class("AdaptiveMaxPool1d", "AdaptiveMaxPool1d(output_size, return_indices=false): nn.adaptive_max_pool1d.", simpleClass("AdaptiveMaxPool1d",
		[]lopt{{name: "output_size", required: true}, {name: "return_indices", def: runtime.Bool(false)}}, kvRepr("output_size"), callWith("adaptive_max_pool1d", "output_size", "return_indices")))
	for _, d := range []struct {
		kind, fname string
	}{{"Dropout1d", "dropout1d"}, {"Dropout2d", "dropout2d"}} {
		d := d
		class(d.kind, d.kind+"(p=0.5, inplace=false): nn."+d.fname+" in training mode, the identity in eval mode.", simpleClass(d.kind,
			[]lopt{{name: "p", def: runtime.Float(0.5)}, inplaceOpt},
			func(l *layer) string {
				return fmt.Sprintf("p=%s, inplace=%s", runtime.Repr(l.fields["p"]), l.fields["inplace"])
			},
			func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
				return callNN(th, d.fname, []runtime.Value{x, l.fields["p"], runtime.Bool(!l.eval), l.fields["inplace"]}, nil)
			}))
	}

	// losses: called as loss(input, target)
	loss := func(kind, fname string, opts []lopt, buffers []string) {
		opts = append(opts, lopt{name: "reduction", def: runtime.String("mean")})
		class(kind, fmt.Sprintf("%s(%s): called as loss(input, target), nn.%s.", kind, optsDoc(opts), fname),
			func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
				v, err := simpleClass(kind, opts, nil, nil)(th, args, kwargs)
				if err != nil {
					return nil, err
				}
				l := v.(*layer)
				if r, ok := l.fields["reduction"].(runtime.String); !ok {
					return nil, runtime.Errorf("TypeError", "%s: reduction must be a string, not %s", kind, l.fields["reduction"].Type())
				} else if err := checkReduction(string(r)); err != nil && !(fname == "kl_div" && r == "batchmean") {
					return nil, err
				}
				for _, b := range buffers {
					if _, ok := l.fields[b].(*TensorValue); !ok && l.fields[b] != runtime.None {
						return nil, runtime.Errorf("TypeError", "%s: %s must be a tensor or none, not %s", kind, b, l.fields[b].Type())
					}
				}
				l.buffers = buffers
				l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
					var x, y runtime.Value
					if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x, "target", &y); err != nil {
						return nil, err
					}
					var kws []runtime.Kwarg
					for _, o := range opts {
						kws = append(kws, lkw(o.name, l.fields[o.name]))
					}
					return callNN(th, fname, []runtime.Value{x, y}, kws)
				}
				return l, nil
			})
	}
	loss("BCELoss", "binary_cross_entropy", []lopt{{name: "weight", def: runtime.None}}, []string{"weight"})
	loss("BCEWithLogitsLoss", "binary_cross_entropy_with_logits", []lopt{{name: "weight", def: runtime.None}, {name: "pos_weight", def: runtime.None}}, []string{"weight", "pos_weight"})
	loss("SmoothL1Loss", "smooth_l1_loss", []lopt{{name: "beta", def: f1}}, nil)
	loss("HuberLoss", "huber_loss", []lopt{{name: "delta", def: f1}}, nil)
	loss("KLDivLoss", "kl_div", []lopt{{name: "log_target", def: runtime.Bool(false)}}, nil)
	loss("SoftMarginLoss", "soft_margin_loss", nil, nil)

	class("GroupNorm", "GroupNorm(num_groups, num_channels, eps=1e-5, affine=true, dtype=f32): nn.group_norm with weight ones and bias zeros [num_channels].", newGroupNorm)
	class("InstanceNorm1d", "InstanceNorm1d(num_features, eps=1e-5, momentum=0.1, affine=false, track_running_stats=false, dtype=f32): nn.instance_norm over [N, C, L] or [C, L]; running stats (when tracked) used in eval mode.", instanceNormClass("InstanceNorm1d", 1))
	class("InstanceNorm2d", "InstanceNorm2d(num_features, eps=1e-5, momentum=0.1, affine=false, track_running_stats=false, dtype=f32): nn.instance_norm over [N, C, H, W] or [C, H, W].", instanceNormClass("InstanceNorm2d", 2))

	class("ZeroPad2d", "ZeroPad2d(padding): nn.pad with zeros; padding an int or (left, right, top, bottom).", padClass("ZeroPad2d", 2, "constant"))
	class("ConstantPad1d", "ConstantPad1d(padding, value): nn.pad with value; padding an int or (left, right).", padClass("ConstantPad1d", 1, "constant"))
	class("ConstantPad2d", "ConstantPad2d(padding, value): nn.pad with value; padding an int or (left, right, top, bottom).", padClass("ConstantPad2d", 2, "constant"))
	class("ReflectionPad1d", "ReflectionPad1d(padding): nn.pad mode \"reflect\" of the last dim.", padClass("ReflectionPad1d", 1, "reflect"))
	class("ReflectionPad2d", "ReflectionPad2d(padding): nn.pad mode \"reflect\" of the last two dims.", padClass("ReflectionPad2d", 2, "reflect"))
	class("ReplicationPad1d", "ReplicationPad1d(padding): nn.pad mode \"replicate\" of the last dim.", padClass("ReplicationPad1d", 1, "replicate"))
	class("ReplicationPad2d", "ReplicationPad2d(padding): nn.pad mode \"replicate\" of the last two dims.", padClass("ReplicationPad2d", 2, "replicate"))
	class("PixelShuffle", "PixelShuffle(upscale_factor): nn.pixel_shuffle.", simpleClass("PixelShuffle", []lopt{{name: "upscale_factor", required: true}}, kvRepr("upscale_factor"),
		func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
			return callNN(th, "pixel_shuffle", []runtime.Value{x, l.fields["upscale_factor"]}, nil)
		}))
	class("PixelUnshuffle", "PixelUnshuffle(downscale_factor): nn.pixel_unshuffle.", simpleClass("PixelUnshuffle", []lopt{{name: "downscale_factor", required: true}}, kvRepr("downscale_factor"),
		func(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
			return callNN(th, "pixel_unshuffle", []runtime.Value{x, l.fields["downscale_factor"]}, nil)
		}))
}

// floatRepr prints a number as Python's repr(float(v)).
func floatRepr(v runtime.Value) string {
	if f, ok := runtime.AsFloat(v); ok && !isBool(v) {
		return runtime.Repr(runtime.Float(f))
	}
	return runtime.Repr(v)
}

// optsDoc renders options as "name=default, ..." for a doc string.
func optsDoc(opts []lopt) string {
	var parts []string
	for _, o := range opts {
		if o.required {
			parts = append(parts, o.name)
		} else {
			parts = append(parts, o.name+"="+runtime.Repr(o.def))
		}
	}
	return strings.Join(parts, ", ")
}

// pairClass is a module called as m(x1, x2) with keyword options.
func pairClass(kind, fname string, opts []lopt) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		v, err := simpleClass(kind, opts, nil, nil)(th, args, kwargs)
		if err != nil {
			return nil, err
		}
		l := v.(*layer)
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var a, b runtime.Value
			if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "x1", &a, "x2", &b); err != nil {
				return nil, err
			}
			var kws []runtime.Kwarg
			for _, o := range opts {
				kws = append(kws, lkw(o.name, l.fields[o.name]))
			}
			return callNN(th, fname, []runtime.Value{a, b}, kws)
		}
		return l, nil
	}
}

// ---- PReLU ----

func newPReLU(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	n := 1
	init := 0.25
	var dt dtypeOpt
	if err := runtime.UnpackArgs("PReLU", args, kwargs, "num_parameters?", &n, "init?", &init, "dtype?", &dt); err != nil {
		return nil, err
	}
	dtype, err := layerDType("PReLU", dt)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, runtime.Errorf("RuntimeError", "PReLU: num_parameters must be non-negative, got %d", n)
	}
	w, err := tensor.Full([]int{n}, init, dtype)
	if err != nil {
		return nil, err
	}
	l := newModule("PReLU", func(l *layer) string { return "num_parameters=" + l.fields["num_parameters"].String() })
	l.config = []string{"num_parameters"}
	l.params = []string{"weight"}
	l.fields["num_parameters"], l.fields["init"] = runtime.MakeInt(int64(n)), runtime.Float(init)
	if l.fields["weight"], err = newParam(th, w); err != nil {
		return nil, err
	}
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1("PReLU", args, kwargs)
		if err != nil {
			return nil, err
		}
		return callNN(th, "prelu", []runtime.Value{x, l.fields["weight"]}, nil)
	}
	return l, nil
}

// nnPrelu is torch.nn.functional.prelu: where(x > 0, x, w * x) with w
// broadcast along the channel dim (recorded, so the gradient is x's
// sign-split one and w's the sum of g * x over x <= 0).
func nnPrelu(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, w tensorArg
	if err := runtime.UnpackArgs("prelu", args, kwargs, "input", &x, "weight", &w); err != nil {
		return nil, err
	}
	if !x.t.DType().IsFloat() {
		return nil, notImplementedFor("prelu_cpu", x.t.DType())
	}
	if w.t.Dim() > 1 {
		return nil, runtime.Errorf("RuntimeError", "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = %d", w.t.Dim())
	}
	e := engineOf(th)
	wt := w.t
	if n := wt.Numel(); n != 1 {
		cd := 1
		if x.t.Dim() < 2 {
			cd = 0
		}
		if x.t.Dim() == 0 || x.t.Shape()[cd] != n {
			c := 0
			if x.t.Dim() > 0 {
				c = x.t.Shape()[cd]
			}
			return nil, runtime.Errorf("RuntimeError", "Mismatch of parameter numbers and input channel size. Found parameter numbers = %d and channel size = %d.", n, c)
		}
		shape := make([]int, x.t.Dim()-cd)
		for i := range shape {
			shape[i] = 1
		}
		shape[0] = n
		var err error
		if wt, err = e.Apply("view", []*T{wt}, autograd.Attrs{"shape": shape}, func() (*T, error) { return wt.Reshape(shape...) }); err != nil {
			return nil, err
		}
	}
	wx, err := applyBinary(e, "mul", tensor.Mul, wt, x.t)
	if err != nil {
		return nil, err
	}
	pos, err := tensor.Gt(x.t, tensor.ScalarFloat(0))
	if err != nil {
		return nil, err
	}
	r, err := whereOp(e, pos, x.t, wx)
	if err != nil {
		return nil, err
	}
	if r.GradFn() != nil {
		autograd.SetGradFnName(r, "PreluBackward0")
	}
	return tensorResult(th, r, nil)
}

// ---- pixel_shuffle ----

// pixelShuffle is nn.pixel_shuffle (up) or nn.pixel_unshuffle, as views:
// reshape, permute, reshape (recorded).
func pixelShuffle(up bool) builtinFn {
	name, arg := "pixel_shuffle", "upscale_factor"
	if !up {
		name, arg = "pixel_unshuffle", "downscale_factor"
	}
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var xv runtime.Value
		var r int
		if err := runtime.UnpackArgs(name, args, kwargs, "input", &xv, arg, &r); err != nil {
			return nil, err
		}
		x, ok := xv.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): argument 'input' must be a tensor, not %s", name, xv.Type())
		}
		s := x.t.Shape()
		nd := len(s)
		if nd < 3 {
			return nil, runtime.Errorf("RuntimeError", "%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", name, nd)
		}
		if r <= 0 {
			return nil, runtime.Errorf("RuntimeError", "%s expects a positive %s, but got %d", name, arg, r)
		}
		batch := s[:nd-3]
		c, h, w := s[nd-3], s[nd-2], s[nd-1]
		iv := func(xs ...int) runtime.Value {
			out := make([]runtime.Value, len(xs))
			for i, v := range xs {
				out[i] = runtime.MakeInt(int64(v))
			}
			return runtime.NewList(out)
		}
		nb := len(batch)
		perm := make([]int, 0, nb+5)
		for i := range nb {
			perm = append(perm, i)
		}
		var first, final []int
		if up {
			if c%(r*r) != 0 {
				return nil, runtime.Errorf("RuntimeError", "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=%d is not divisible by %d", c, r*r)
			}
			oc := c / (r * r)
			first = append(append([]int{}, batch...), oc, r, r, h, w)
			perm = append(perm, nb, nb+3, nb+1, nb+4, nb+2) // [*, oc, h, r, w, r]
			final = append(append([]int{}, batch...), oc, h*r, w*r)
		} else {
			if h%r != 0 {
				return nil, runtime.Errorf("RuntimeError", "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=%d is not divisible by %d", h, r)
			}
			if w%r != 0 {
				return nil, runtime.Errorf("RuntimeError", "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=%d is not divisible by %d", w, r)
			}
			oh, ow := h/r, w/r
			first = append(append([]int{}, batch...), c, oh, r, ow, r)
			perm = append(perm, nb, nb+2, nb+4, nb+1, nb+3) // [*, c, r, r, oh, ow]
			final = append(append([]int{}, batch...), c*r*r, oh, ow)
		}
		v, err := callMethod(th, x, "reshape", []runtime.Value{iv(first...)}, nil)
		if err != nil {
			return nil, err
		}
		if v, err = callMethod(th, v, "permute", []runtime.Value{iv(perm...)}, nil); err != nil {
			return nil, err
		}
		return callMethod(th, v, "reshape", []runtime.Value{iv(final...)}, nil)
	}
}

// ---- feature dropout ----

// featureDropout is nn.dropout1d / nn.dropout2d: one Bernoulli(1 - p)
// draw per (sample, channel), scaled by 1/(1-p), multiplied in (recorded).
func featureDropout(name string, k int) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var x tensorArg
		p := 0.5
		training, inplace := true, false
		if err := runtime.UnpackArgs(name, args, kwargs, "input", &x, "p?", &p, "training?", &training, "inplace?", &inplace); err != nil {
			return nil, err
		}
		if p < 0 || p > 1 {
			return nil, runtime.Errorf("ValueError", "dropout probability has to be between 0 and 1, but got %v", p)
		}
		nd, k := x.t.Dim(), k // k may widen for this call
		switch {
		case k == 1 && nd != 2 && nd != 3:
			return nil, runtime.Errorf("RuntimeError", "dropout1d: Expected 2D or 3D input, but received a %dD input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).", nd)
		case k == 2 && nd < 3:
			return nil, runtime.Errorf("RuntimeError", "dropout2d: Expected 3D or 4D input, but received a %dD input", nd)
		case k == 2 && nd > 4:
			k = nd - 2 // PyTorch 1.13 warns and drops whole channels of [N, C, ...]
		}
		if !training || p == 0 {
			return wrap(engineOf(th), x.t), nil
		}
		shape := append([]int(nil), x.t.Shape()...)
		for i := nd - k; i < nd; i++ {
			shape[i] = 1
		}
		ones, err := tensor.Ones(shape, x.t.DType())
		if err != nil {
			return nil, err
		}
		e := engineOf(th)
		mask, err := dropoutOp(th, e, ones, p)
		if err != nil {
			return nil, err
		}
		r, err := applyBinary(e, "mul", tensor.Mul, x.t, mask)
		return tensorResult(th, r, err)
	}
}

// ---- GroupNorm, InstanceNorm ----

func newGroupNorm(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var g, c int
	eps := 1e-5
	affine := true
	var dt dtypeOpt
	if err := runtime.UnpackArgs("GroupNorm", args, kwargs, "num_groups", &g, "num_channels", &c, "eps?", &eps, "affine?", &affine, "dtype?", &dt); err != nil {
		return nil, err
	}
	dtype, err := layerDType("GroupNorm", dt)
	if err != nil {
		return nil, err
	}
	if g <= 0 || c%g != 0 {
		return nil, runtime.Errorf("ValueError", "num_channels must be divisible by num_groups")
	}
	l := newModule("GroupNorm", func(l *layer) string {
		f := l.fields
		return fmt.Sprintf("%s, %s, eps=%s, affine=%s", f["num_groups"], f["num_channels"], runtime.Repr(f["eps"]), f["affine"])
	})
	l.config = []string{"num_groups", "num_channels", "eps", "affine"}
	l.params = []string{"weight", "bias"}
	l.fields["num_groups"], l.fields["num_channels"] = runtime.MakeInt(int64(g)), runtime.MakeInt(int64(c))
	l.fields["eps"], l.fields["affine"] = runtime.Float(eps), runtime.Bool(affine)
	l.fields["weight"], l.fields["bias"] = runtime.None, runtime.None
	if affine {
		for name, v := range map[string]float64{"weight": 1, "bias": 0} {
			t, err := tensor.Full([]int{c}, v, dtype)
			if err != nil {
				return nil, err
			}
			if l.fields[name], err = newParam(th, t); err != nil {
				return nil, err
			}
		}
	}
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1("GroupNorm", args, kwargs)
		if err != nil {
			return nil, err
		}
		return callNN(th, "group_norm", []runtime.Value{x, l.fields["num_groups"], l.fields["weight"], l.fields["bias"], l.fields["eps"]}, nil)
	}
	return l, nil
}

func instanceNormClass(kind string, k int) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		eps, momentum := 1e-5, 0.1
		affine, track := false, false
		var dt dtypeOpt
		if err := runtime.UnpackArgs(kind, args, kwargs, "num_features", &n, "eps?", &eps, "momentum?", &momentum,
			"affine?", &affine, "track_running_stats?", &track, "dtype?", &dt); err != nil {
			return nil, err
		}
		dtype, err := layerDType(kind, dt)
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, runtime.Errorf("RuntimeError", "%s: num_features must be non-negative, got %d", kind, n)
		}
		l, err := newRunningNormLayer(th, kind, n, eps, runtime.Float(momentum), affine, track, dtype)
		if err != nil {
			return nil, err
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var x tensorArg
			if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x); err != nil {
				return nil, err
			}
			nd := x.t.Dim()
			if nd != k+1 && nd != k+2 {
				return nil, runtime.Errorf("ValueError", "expected %dD or %dD input (got %dD input)", k+1, k+2, nd)
			}
			e := engineOf(th)
			in := wrap(e, x.t)
			var v runtime.Value = in
			var err error
			if nd == k+1 { // unbatched: torch's _InstanceNorm unsqueezes and squeezes
				if v, err = callMethod(th, in, "unsqueeze", []runtime.Value{runtime.MakeInt(0)}, nil); err != nil {
					return nil, err
				}
			}
			useInput := !l.eval || !l.fields["track_running_stats"].Truth()
			r, err := callNN(th, "instance_norm", []runtime.Value{v, l.fields["running_mean"], l.fields["running_var"],
				l.fields["weight"], l.fields["bias"], runtime.Bool(useInput), l.fields["momentum"], l.fields["eps"]}, nil)
			if err != nil || nd != k+1 {
				return r, err
			}
			return callMethod(th, r, "squeeze", []runtime.Value{runtime.MakeInt(0)}, nil)
		}
		return l, nil
	}
}

// ---- padding layers ----

// padClass makes a padding layer over k trailing dims: padding an int
// (every side) or a 2k-tuple; constant layers also take value (ZeroPad2d
// fixes it at 0).
func padClass(kind string, k int, mode string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var padding runtime.Value
		var value float64
		withValue := mode == "constant" && kind != "ZeroPad2d"
		names := []any{"padding", &padding}
		if withValue {
			names = append(names, "value", &value)
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		p, ok := runtime.AsInts(padding)
		if !ok || isBool(padding) {
			return nil, runtime.Errorf("TypeError", "%s: padding must be an int or a tuple of %d ints, not %s", kind, 2*k, padding.Type())
		}
		if _, isInt := padding.(runtime.Int); isInt {
			for len(p) < 2*k {
				p = append(p, p[0])
			}
		}
		if len(p) != 2*k {
			return nil, runtime.Errorf("ValueError", "%s: padding must have %d values, got %d", kind, 2*k, len(p))
		}
		pt := make(runtime.Tuple, len(p))
		for i, v := range p {
			pt[i] = runtime.MakeInt(int64(v))
		}
		l := newModule(kind, func(l *layer) string {
			if withValue {
				return fmt.Sprintf("padding=%s, value=%s", runtime.Repr(l.fields["padding"]), runtime.Repr(l.fields["value"]))
			}
			return runtime.Repr(l.fields["padding"])
		})
		l.config = []string{"padding"}
		l.fields["padding"] = pt
		if withValue {
			l.config = append(l.config, "value")
			l.fields["value"] = runtime.Float(value)
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			kws := []runtime.Kwarg{lkw("mode", runtime.String(mode))}
			if withValue {
				kws = append(kws, lkw("value", l.fields["value"]))
			}
			return callNN(th, "pad", []runtime.Value{x, l.fields["padding"]}, kws)
		}
		return l, nil
	}
}
