package stdlib

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// The layer classes of torch.nn (PyTorch 1.13) beyond Linear: Conv1d,
// Conv2d, the pools, BatchNorm1d/2d, LayerNorm, Dropout, Embedding,
// Flatten, the activations, Identity, Sequential and the loss modules.
// Each is a *layer (nn.go) whose forward calls the nn function of the
// same computation (nn.conv2d, nn.batch_norm, ...), so argument checks,
// errors, dtypes and grad_fn names are those of the functional forms.
// Constructors take PyTorch's argument names and defaults, draw PyTorch's
// initialisation from the interpreter's generator (the same values as
// torch after the same manual_seed), and print as PyTorch's repr.

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_layers.go initialised before nn.go")
	}
	class := func(name, doc string, make func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) {
		m.Members[name] = &layerClass{name: name, doc: doc, make: make}
	}
	class("Conv1d", "Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=true, padding_mode=\"zeros\", dtype=f32): nn.conv1d with weight [out, in/groups, k] and bias [out], both uniform in ±1/sqrt(in/groups*k) (kaiming_uniform, a=sqrt(5)).", convClass(1))
	class("Conv2d", "Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=true, padding_mode=\"zeros\", dtype=f32): nn.conv2d with weight [out, in/groups, kh, kw] and bias [out], both uniform in ±1/sqrt(in/groups*kh*kw) (kaiming_uniform, a=sqrt(5)).", convClass(2))
	class("MaxPool1d", "MaxPool1d(kernel_size, stride=none, padding=0, dilation=1, return_indices=false, ceil_mode=false): nn.max_pool1d; stride defaults to kernel_size.", maxPoolClass(1))
	class("MaxPool2d", "MaxPool2d(kernel_size, stride=none, padding=0, dilation=1, return_indices=false, ceil_mode=false): nn.max_pool2d; stride defaults to kernel_size.", maxPoolClass(2))
	class("AvgPool1d", "AvgPool1d(kernel_size, stride=none, padding=0, ceil_mode=false, count_include_pad=true): nn.avg_pool1d; stride defaults to kernel_size.", avgPoolClass(1))
	class("AvgPool2d", "AvgPool2d(kernel_size, stride=none, padding=0, ceil_mode=false, count_include_pad=true, divisor_override=none): nn.avg_pool2d; stride defaults to kernel_size.", avgPoolClass(2))
	class("AdaptiveAvgPool1d", "AdaptiveAvgPool1d(output_size): nn.adaptive_avg_pool1d.", adaptivePoolClass("AdaptiveAvgPool1d", "adaptive_avg_pool1d"))
	class("AdaptiveAvgPool2d", "AdaptiveAvgPool2d(output_size): nn.adaptive_avg_pool2d (output_size an int or a pair, none keeping that dim).", adaptivePoolClass("AdaptiveAvgPool2d", "adaptive_avg_pool2d"))
	class("AdaptiveMaxPool2d", "AdaptiveMaxPool2d(output_size, return_indices=false): nn.adaptive_max_pool2d.", adaptivePoolClass("AdaptiveMaxPool2d", "adaptive_max_pool2d"))
	class("BatchNorm1d", "BatchNorm1d(num_features, eps=1e-5, momentum=0.1, affine=true, track_running_stats=true, dtype=f32): nn.batch_norm over [N, C] or [N, C, L]; weight ones and bias zeros [C]; buffers running_mean (zeros), running_var (ones) and num_batches_tracked (i64 0), updated in training mode (momentum none: the cumulative average) and used in eval mode.", batchNormClass("BatchNorm1d", []int{2, 3}, "2D or 3D"))
	class("BatchNorm2d", "BatchNorm2d(num_features, eps=1e-5, momentum=0.1, affine=true, track_running_stats=true, dtype=f32): nn.batch_norm over [N, C, H, W]; parameters and buffers as BatchNorm1d.", batchNormClass("BatchNorm2d", []int{4}, "4D"))
	class("LayerNorm", "LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=true, dtype=f32): nn.layer_norm over the trailing normalized_shape dims; weight ones and bias zeros of that shape.", newLayerNormLayer)
	class("Dropout", "Dropout(p=0.5, inplace=false): nn.dropout in training mode, the identity in eval mode.", newDropoutLayer)
	class("Embedding", "Embedding(num_embeddings, embedding_dim, padding_idx=none, dtype=f32): nn.embedding with weight [num_embeddings, embedding_dim] drawn from N(0, 1), the padding_idx row zero.", newEmbeddingLayer)
	class("Flatten", "Flatten(start_dim=1, end_dim=-1): input.flatten(start_dim, end_dim).", newFlattenLayer)
	class("Identity", "Identity(*args, **kwargs): returns its input (the arguments are ignored).", newIdentityLayer)
	class("ReLU", "ReLU(inplace=false): nn.relu.", activationClass("ReLU", "relu", "inplace"))
	class("GELU", "GELU(approximate=\"none\"): nn.gelu (approximate \"none\" or \"tanh\").", activationClass("GELU", "gelu", "approximate"))
	class("Tanh", "Tanh(): tanh.", activationClass("Tanh", "tanh", ""))
	class("Sigmoid", "Sigmoid(): sigmoid.", activationClass("Sigmoid", "sigmoid", ""))
	class("SiLU", "SiLU(inplace=false): nn.silu.", activationClass("SiLU", "silu", "inplace"))
	class("LeakyReLU", "LeakyReLU(negative_slope=0.01, inplace=false): nn.leaky_relu.", activationClass("LeakyReLU", "leaky_relu", "negative_slope"))
	class("Softmax", "Softmax(dim=none): nn.softmax over dim (none: PyTorch's legacy choice, 0 for 0-, 1- and 3-D input, else 1).", softmaxClass("Softmax", "softmax"))
	class("LogSoftmax", "LogSoftmax(dim=none): nn.log_softmax over dim (none as Softmax).", softmaxClass("LogSoftmax", "log_softmax"))
	class("MSELoss", "MSELoss(reduction=\"mean\"): called as loss(input, target), nn.mse_loss.", lossClass("MSELoss", "mse_loss", false))
	class("L1Loss", "L1Loss(reduction=\"mean\"): called as loss(input, target), nn.l1_loss.", lossClass("L1Loss", "l1_loss", false))
	class("CrossEntropyLoss", "CrossEntropyLoss(weight=none, ignore_index=-100, reduction=\"mean\", label_smoothing=0.0): called as loss(input, target), nn.cross_entropy; weight is a buffer.", lossClass("CrossEntropyLoss", "cross_entropy", true))
	class("NLLLoss", "NLLLoss(weight=none, ignore_index=-100, reduction=\"mean\"): called as loss(input, target), nn.nll_loss; weight is a buffer.", lossClass("NLLLoss", "nll_loss", true))
	class("Sequential", "Sequential(*layers): calls its layers in order, each on the previous one's output; seq[i] (a Sequential for a slice), len(seq), iteration, append(layer); parameters named \"0.weight\", ....", newSequential)
}

// ---- module tree ----

// namedTensor is a parameter or buffer with its dotted name.
type namedTensor struct {
	name string
	v    *TensorValue
}

// value returns the value scripts see for l (see layer.outer).
func (l *layer) value() runtime.Value {
	if l.outer != nil {
		return l.outer
	}
	return l
}

// walk calls f on l and then on its descendants, depth first in child
// order (PyTorch's named_modules), with each module's dotted prefix ("" for
// l, "0." for its first child).
func (l *layer) walk(prefix string, f func(prefix string, m *layer)) {
	f(prefix, l)
	for i, s := range l.subs {
		s.walk(prefix+l.subNames[i]+".", f)
	}
}

// namedParams lists the parameters of l and its descendants (none
// skipped, each tensor once), as PyTorch's named_parameters.
func (l *layer) namedParams() []namedTensor {
	var out []namedTensor
	seen := map[*T]bool{}
	l.walk("", func(prefix string, m *layer) {
		for _, p := range m.params {
			if x, ok := m.fields[p].(*TensorValue); ok && !seen[x.t] {
				seen[x.t] = true
				out = append(out, namedTensor{prefix + p, x})
			}
		}
	})
	return out
}

// namedState lists what state_dict holds: each module's parameters and
// then its buffers, parents before children.
func (l *layer) namedState() []namedTensor {
	var out []namedTensor
	l.walk("", func(prefix string, m *layer) {
		for _, names := range [][]string{m.params, m.buffers} {
			for _, p := range names {
				if x, ok := m.fields[p].(*TensorValue); ok {
					out = append(out, namedTensor{prefix + p, x})
				}
			}
		}
	})
	return out
}

// setTraining sets training mode on l and its descendants.
func (l *layer) setTraining(on bool) {
	l.walk("", func(_ string, m *layer) { m.eval = !on })
}

// zeroGrad clears t's gradient: sets it to none, or (toNone false) fills
// it with zeros in place, detached from any graph, as PyTorch's zero_grad.
func zeroGrad(t *T, toNone bool) error {
	g := t.Grad()
	if g == nil {
		return nil
	}
	if toNone {
		t.SetGrad(nil)
		return nil
	}
	if g.GradFn() != nil || g.RequiresGrad() {
		g = autograd.Detach(g)
		if err := autograd.RequiresGrad_(g, false); err != nil {
			return err
		}
		t.SetGrad(g)
	}
	return g.CopyInplace(tensor.ScalarFloat(0))
}

// asLayer returns the *layer behind a module value.
func asLayer(v runtime.Value) (*layer, bool) {
	switch m := v.(type) {
	case *layer:
		return m, true
	case *seqModule:
		return m.layer, true
	case *moduleList:
		return m.layer, true
	case *moduleDict:
		return m.layer, true
	case *paramList:
		return m.layer, true
	}
	return nil, false
}

// ---- helpers ----

// callNN calls the nn module function name.
func callNN(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	f, ok := modules["nn"].Members[name].(*runtime.Builtin)
	if !ok {
		return nil, runtime.Errorf("NameError", "nn has no function '%s'", name)
	}
	return f.Call(th, args, kwargs)
}

// tensorField returns the tensor in field name, or nil for none.
func (l *layer) tensorField(name string) *T {
	if x, ok := l.fields[name].(*TensorValue); ok {
		return x.t
	}
	return nil
}

// fieldOrNone returns field name, none when it is absent.
func (l *layer) fieldOrNone(name string) runtime.Value {
	if v, ok := l.fields[name]; ok && v != nil {
		return v
	}
	return runtime.None
}

// newModule starts a layer of the given kind whose printout is
// kind(extra(l)), PyTorch's Module.__repr__ for a module without children.
func newModule(kind string, extra func(l *layer) string) *layer {
	l := &layer{kind: kind, fields: map[string]runtime.Value{}}
	l.repr = func(l *layer) string {
		if extra == nil {
			return kind + "()"
		}
		return kind + "(" + extra(l) + ")"
	}
	return l
}

// input1 unpacks a forward's single tensor argument.
func input1(kind string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x runtime.Value
	if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x); err != nil {
		return nil, err
	}
	return x, nil
}

// layerDType resolves a constructor's dtype argument (default f32; float
// dtypes only).
func layerDType(kind string, dt dtypeOpt) (tensor.DType, error) {
	if !dt.ok {
		return tensor.DefaultFloat, nil
	}
	if !dt.dt.IsFloat() {
		return 0, runtime.Errorf("TypeError", "%s: dtype must be a floating-point dtype, got %s", kind, dt.dt)
	}
	return dt.dt, nil
}

// newParam makes a parameter value (requires_grad) of t.
func newParam(th *runtime.Thread, t *T) (*TensorValue, error) {
	if err := autograd.RequiresGrad_(t, true); err != nil {
		return nil, err
	}
	return newParamValue(th, t), nil
}

// kaimingUniform draws PyTorch's default Conv/Linear initialisation:
// weight kaiming_uniform_(a=sqrt(5)), bound sqrt(3) * gain / sqrt(fan_in)
// with gain sqrt(2 / (1 + a^2)), then bias uniform in ±1/sqrt(fan_in);
// both from the interpreter's generator, in that order (torch's
// reset_parameters). A fan_in of 0 gives zeros-width bounds.
func kaimingUniform(th *runtime.Thread, wShape []int, fanIn int, bias bool, dt tensor.DType) (w, b runtime.Value, err error) {
	wBound, bBound := 0.0, 0.0
	if fanIn > 0 {
		gain := math.Sqrt(2.0 / (1 + 5.0))
		wBound = math.Sqrt(3.0) * (gain / math.Sqrt(float64(fanIn)))
		bBound = 1 / math.Sqrt(float64(fanIn))
	}
	g := stateOf(th).gen
	wt, err := tensor.Uniform(g, wShape, dt, -wBound, wBound)
	if err != nil {
		return nil, nil, err
	}
	if w, err = newParam(th, wt); err != nil {
		return nil, nil, err
	}
	b = runtime.None
	if bias {
		bt, err := tensor.Uniform(g, []int{wShape[0]}, dt, -bBound, bBound)
		if err != nil {
			return nil, nil, err
		}
		if b, err = newParam(th, bt); err != nil {
			return nil, nil, err
		}
	}
	return w, b, nil
}

// layerInts is an n-tuple of ints (PyTorch's _single/_pair of an int or a
// sequence).
func layerInts(kind, arg string, v runtime.Value, n int) (runtime.Tuple, error) {
	s, ok := runtime.AsInts(v)
	if !ok || isBool(v) {
		return nil, runtime.Errorf("TypeError", "%s: %s must be an int or a tuple of %d ints, not %s", kind, arg, n, v.Type())
	}
	if len(s) == 1 && n > 1 {
		for len(s) < n {
			s = append(s, s[0])
		}
	}
	if len(s) != n {
		return nil, runtime.Errorf("ValueError", "%s: %s must be an int or a tuple of %d ints, got %d values", kind, arg, n, len(s))
	}
	t := make(runtime.Tuple, n)
	for i, x := range s {
		t[i] = runtime.MakeInt(int64(x))
	}
	return t, nil
}

func tupleInts(t runtime.Tuple) []int {
	out := make([]int, len(t))
	for i, v := range t {
		n, _ := runtime.AsInt(v)
		out[i] = int(n)
	}
	return out
}

func lkw(name string, v runtime.Value) runtime.Kwarg { return runtime.Kwarg{Name: name, Value: v} }

// ---- Conv1d, Conv2d ----

func convClass(nd int) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	kind := fmt.Sprintf("Conv%dd", nd)
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var in, out, groups int
		var k runtime.Value
		var stride, padding, dilation runtime.Value = runtime.MakeInt(1), runtime.MakeInt(0), runtime.MakeInt(1)
		groups = 1
		bias := true
		mode := "zeros"
		var dt dtypeOpt
		if err := runtime.UnpackArgs(kind, args, kwargs, "in_channels", &in, "out_channels", &out, "kernel_size", &k,
			"stride?", &stride, "padding?", &padding, "dilation?", &dilation, "groups?", &groups, "bias?", &bias,
			"padding_mode?", &mode, "dtype?", &dt); err != nil {
			return nil, err
		}
		dtype, err := layerDType(kind, dt)
		if err != nil {
			return nil, err
		}
		if in < 0 || out < 0 {
			return nil, runtime.Errorf("RuntimeError", "%s: in_channels and out_channels must be non-negative", kind)
		}
		if groups <= 0 {
			return nil, runtime.Errorf("ValueError", "groups must be a positive integer")
		}
		if in%groups != 0 {
			return nil, runtime.Errorf("ValueError", "in_channels must be divisible by groups")
		}
		if out%groups != 0 {
			return nil, runtime.Errorf("ValueError", "out_channels must be divisible by groups")
		}
		if mode != "zeros" && mode != "reflect" && mode != "replicate" && mode != "circular" {
			return nil, runtime.Errorf("ValueError", "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='%s'", mode)
		}
		ks, err := layerInts(kind, "kernel_size", k, nd)
		if err != nil {
			return nil, err
		}
		st, err := layerInts(kind, "stride", stride, nd)
		if err != nil {
			return nil, err
		}
		dl, err := layerInts(kind, "dilation", dilation, nd)
		if err != nil {
			return nil, err
		}
		var pad runtime.Value
		if s, ok := padding.(runtime.String); ok {
			if s != "valid" && s != "same" {
				return nil, runtime.Errorf("ValueError", "Invalid padding string '%s', should be one of {'valid', 'same'}", string(s))
			}
			if s == "same" {
				for _, x := range tupleInts(st) {
					if x != 1 {
						return nil, runtime.Errorf("ValueError", "padding='same' is not supported for strided convolutions")
					}
				}
			}
			pad = s
		} else if pad, err = layerInts(kind, "padding", padding, nd); err != nil {
			return nil, err
		}
		kk := tupleInts(ks)
		fanIn := in / groups
		wShape := []int{out, in / groups}
		for _, x := range kk {
			fanIn *= x
			wShape = append(wShape, x)
		}
		w, b, err := kaimingUniform(th, wShape, fanIn, bias, dtype)
		if err != nil {
			return nil, err
		}
		zeros := make(runtime.Tuple, nd)
		for i := range zeros {
			zeros[i] = runtime.MakeInt(0)
		}
		l := newModule(kind, convExtraRepr)
		l.params = []string{"weight", "bias"}
		l.config = []string{"in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "padding_mode"}
		for name, v := range map[string]runtime.Value{
			"in_channels": runtime.MakeInt(int64(in)), "out_channels": runtime.MakeInt(int64(out)),
			"kernel_size": ks, "stride": st, "padding": pad, "dilation": dl, "groups": runtime.MakeInt(int64(groups)),
			"padding_mode": runtime.String(mode), "output_padding": zeros, "transposed": runtime.Bool(false),
			"weight": w, "bias": b,
		} {
			l.fields[name] = v
		}
		fname := fmt.Sprintf("conv%dd", nd)
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			pad := l.fields["padding"]
			if m := l.fields["padding_mode"].String(); m != "zeros" {
				// torch's _ConvNd: F.pad(input, _reversed_padding_repeated_twice,
				// mode=padding_mode), then the convolution with padding 0
				padded, err := callNN(th, "pad", []runtime.Value{x, reversedPadding(l), runtime.String(m)}, nil)
				if err != nil {
					return nil, err
				}
				x, pad = padded, runtime.MakeInt(0)
			}
			return callNN(th, fname, []runtime.Value{x, l.fields["weight"], l.fieldOrNone("bias"),
				l.fields["stride"], pad, l.fields["dilation"], l.fields["groups"]}, nil)
		}
		return l, nil
	}
}

// reversedPadding is torch's _ConvNd._reversed_padding_repeated_twice:
// each dim's (before, after) padding, last dim first; "same" puts
// d*(k-1)/2 before and the rest after, "valid" none.
func reversedPadding(l *layer) *runtime.List {
	ks, dl := tupleInts(l.fields["kernel_size"].(runtime.Tuple)), tupleInts(l.fields["dilation"].(runtime.Tuple))
	var out []runtime.Value
	for i := len(ks) - 1; i >= 0; i-- {
		before, after := 0, 0
		switch p := l.fields["padding"].(type) {
		case runtime.String:
			if p == "same" {
				total := dl[i] * (ks[i] - 1)
				before, after = total/2, total-total/2
			}
		case runtime.Tuple:
			before = tupleInts(p)[i]
			after = before
		}
		out = append(out, runtime.MakeInt(int64(before)), runtime.MakeInt(int64(after)))
	}
	return runtime.NewList(out)
}

// convExtraRepr is torch's _ConvNd.extra_repr.
func convExtraRepr(l *layer) string {
	f := l.fields
	s := fmt.Sprintf("%s, %s, kernel_size=%s, stride=%s", f["in_channels"], f["out_channels"], runtime.Repr(f["kernel_size"]), runtime.Repr(f["stride"]))
	allEq := func(v runtime.Value, x int) bool {
		t, ok := v.(runtime.Tuple)
		if !ok {
			return false
		}
		for _, n := range tupleInts(t) {
			if n != x {
				return false
			}
		}
		return true
	}
	if !allEq(f["padding"], 0) {
		s += ", padding=" + f["padding"].String() // a string prints unquoted, as torch's format()
	}
	if !allEq(f["dilation"], 1) {
		s += ", dilation=" + runtime.Repr(f["dilation"])
	}
	if op, ok := f["output_padding"]; ok && !allEq(op, 0) {
		s += ", output_padding=" + runtime.Repr(op)
	}
	if g, _ := runtime.AsInt(f["groups"]); g != 1 {
		s += fmt.Sprintf(", groups=%d", g)
	}
	if f["bias"] == runtime.None {
		s += ", bias=" + runtime.Bool(false).String()
	}
	if m := f["padding_mode"].String(); m != "zeros" {
		s += ", padding_mode=" + m
	}
	return s
}

// ---- pools ----

func maxPoolClass(nd int) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	kind := fmt.Sprintf("MaxPool%dd", nd)
	fname := fmt.Sprintf("max_pool%dd", nd)
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var k runtime.Value
		var stride runtime.Value = runtime.None
		var padding, dilation runtime.Value = runtime.MakeInt(0), runtime.MakeInt(1)
		retIdx, ceil := false, false
		if err := runtime.UnpackArgs(kind, args, kwargs, "kernel_size", &k, "stride?", &stride, "padding?", &padding,
			"dilation?", &dilation, "return_indices?", &retIdx, "ceil_mode?", &ceil); err != nil {
			return nil, err
		}
		if stride == runtime.None {
			stride = k
		}
		l := newModule(kind, func(l *layer) string {
			f := l.fields
			return fmt.Sprintf("kernel_size=%s, stride=%s, padding=%s, dilation=%s, ceil_mode=%s", runtime.Repr(f["kernel_size"]),
				runtime.Repr(f["stride"]), runtime.Repr(f["padding"]), runtime.Repr(f["dilation"]), f["ceil_mode"])
		})
		l.config = []string{"kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"}
		l.fields["kernel_size"], l.fields["stride"], l.fields["padding"], l.fields["dilation"] = k, stride, padding, dilation
		l.fields["return_indices"], l.fields["ceil_mode"] = runtime.Bool(retIdx), runtime.Bool(ceil)
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			f := l.fields
			return callNN(th, fname, []runtime.Value{x, f["kernel_size"], f["stride"], f["padding"], f["dilation"]},
				[]runtime.Kwarg{lkw("ceil_mode", f["ceil_mode"]), lkw("return_indices", f["return_indices"])})
		}
		return l, nil
	}
}

func avgPoolClass(nd int) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	kind := fmt.Sprintf("AvgPool%dd", nd)
	fname := fmt.Sprintf("avg_pool%dd", nd)
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var k runtime.Value
		var stride, divisor runtime.Value = runtime.None, runtime.None
		var padding runtime.Value = runtime.MakeInt(0)
		ceil, countPad := false, true
		names := []any{"kernel_size", &k, "stride?", &stride, "padding?", &padding, "ceil_mode?", &ceil, "count_include_pad?", &countPad}
		if nd == 2 {
			names = append(names, "divisor_override?", &divisor)
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		if stride == runtime.None {
			stride = k
		}
		if nd == 1 {
			// torch's AvgPool1d stores _single(...) tuples
			var err error
			for _, p := range []*runtime.Value{&k, &stride, &padding} {
				if *p, err = layerInts(kind, "kernel_size, stride and padding", *p, 1); err != nil {
					return nil, err
				}
			}
		}
		l := newModule(kind, func(l *layer) string {
			f := l.fields
			return fmt.Sprintf("kernel_size=%s, stride=%s, padding=%s", runtime.Repr(f["kernel_size"]), runtime.Repr(f["stride"]), runtime.Repr(f["padding"]))
		})
		l.config = []string{"kernel_size", "stride", "padding", "ceil_mode", "count_include_pad"}
		l.fields["kernel_size"], l.fields["stride"], l.fields["padding"] = k, stride, padding
		l.fields["ceil_mode"], l.fields["count_include_pad"] = runtime.Bool(ceil), runtime.Bool(countPad)
		if nd == 2 {
			l.fields["divisor_override"] = divisor
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			f := l.fields
			kws := []runtime.Kwarg{lkw("ceil_mode", f["ceil_mode"]), lkw("count_include_pad", f["count_include_pad"])}
			if nd == 2 {
				kws = append(kws, lkw("divisor_override", f["divisor_override"]))
			}
			return callNN(th, fname, []runtime.Value{x, f["kernel_size"], f["stride"], f["padding"]}, kws)
		}
		return l, nil
	}
}

func adaptivePoolClass(kind, fname string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	isMax := strings.Contains(fname, "max")
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var size runtime.Value
		retIdx := false
		names := []any{"output_size", &size}
		if isMax {
			names = append(names, "return_indices?", &retIdx)
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		l := newModule(kind, func(l *layer) string { return "output_size=" + runtime.Repr(l.fields["output_size"]) })
		l.config = []string{"output_size"}
		l.fields["output_size"] = size
		if isMax {
			l.fields["return_indices"] = runtime.Bool(retIdx)
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			var kws []runtime.Kwarg
			if isMax {
				kws = []runtime.Kwarg{lkw("return_indices", l.fields["return_indices"])}
			}
			return callNN(th, fname, []runtime.Value{x, l.fields["output_size"]}, kws)
		}
		return l, nil
	}
}

// ---- BatchNorm1d, BatchNorm2d ----

func batchNormClass(kind string, dims []int, want string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var n int
		eps := 1e-5
		var momentum runtime.Value = runtime.Float(0.1)
		affine, track := true, true
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
		if momentum != runtime.None {
			f, ok := runtime.AsFloat(momentum)
			if !ok || isBool(momentum) {
				return nil, runtime.Errorf("TypeError", "%s: momentum must be a float or none, not %s", kind, momentum.Type())
			}
			momentum = runtime.Float(f)
		}
		l, err := newRunningNormLayer(th, kind, n, eps, momentum, affine, track, dtype)
		if err != nil {
			return nil, err
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			xt, ok := x.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s.forward(): input must be a tensor, not %s", kind, x.Type())
			}
			okDim := false
			for _, d := range dims {
				okDim = okDim || xt.t.Dim() == d
			}
			if !okDim {
				return nil, runtime.Errorf("ValueError", "expected %s input (got %dD input)", want, xt.t.Dim())
			}
			return batchNormForward(th, l, x)
		}
		return l, nil
	}
}

// batchNormForward is torch's _BatchNorm.forward: in training mode with
// tracked stats, num_batches_tracked += 1 and the running stats move by
// momentum (or 1/num_batches_tracked when momentum is none); in eval mode
// the running stats normalise (the batch's when they are none).
func batchNormForward(th *runtime.Thread, l *layer, x runtime.Value) (runtime.Value, error) {
	factor := 0.0
	mom := l.fields["momentum"]
	if f, ok := mom.(runtime.Float); ok {
		factor = float64(f)
	}
	training := !l.eval
	track := l.fields["track_running_stats"] == runtime.Bool(true)
	if training && track {
		if nb := l.tensorField("num_batches_tracked"); nb != nil {
			sum, err := tensor.Add(nb, tensor.ScalarInt(1))
			if err != nil {
				return nil, err
			}
			if err := nb.CopyInplace(sum); err != nil {
				return nil, err
			}
			if mom == runtime.None {
				factor = 1 / nb.FlatFloat64(0)
			}
		}
	}
	rm, rv := l.fieldOrNone("running_mean"), l.fieldOrNone("running_var")
	bnTraining := training || (rm == runtime.None && rv == runtime.None)
	if training && !track {
		rm, rv = runtime.None, runtime.None
	}
	return callNN(th, "batch_norm", []runtime.Value{x, rm, rv, l.fieldOrNone("weight"), l.fieldOrNone("bias")},
		[]runtime.Kwarg{lkw("training", runtime.Bool(bnTraining)), lkw("momentum", runtime.Float(factor)), lkw("eps", l.fields["eps"])})
}

// ---- LayerNorm, Dropout, Embedding, Flatten, Identity ----

func newLayerNormLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const kind = "LayerNorm"
	var ns shapeArg
	eps := 1e-5
	affine := true
	var dt dtypeOpt
	if err := runtime.UnpackArgs(kind, args, kwargs, "normalized_shape", &ns, "eps?", &eps, "elementwise_affine?", &affine, "dtype?", &dt); err != nil {
		return nil, err
	}
	dtype, err := layerDType(kind, dt)
	if err != nil {
		return nil, err
	}
	shape := make(runtime.Tuple, len(ns.shape))
	for i, s := range ns.shape {
		if s < 0 {
			return nil, runtime.Errorf("RuntimeError", "LayerNorm: normalized_shape must be non-negative, got %s", intList(ns.shape))
		}
		shape[i] = runtime.MakeInt(int64(s))
	}
	l := newModule(kind, func(l *layer) string {
		f := l.fields
		return fmt.Sprintf("%s, eps=%s, elementwise_affine=%s", runtime.Repr(f["normalized_shape"]), runtime.Repr(f["eps"]), f["elementwise_affine"])
	})
	l.config = []string{"normalized_shape", "eps", "elementwise_affine"}
	l.params = []string{"weight", "bias"}
	l.fields["normalized_shape"], l.fields["eps"], l.fields["elementwise_affine"] = shape, runtime.Float(eps), runtime.Bool(affine)
	l.fields["weight"], l.fields["bias"] = runtime.None, runtime.None
	if affine {
		for name, v := range map[string]float64{"weight": 1, "bias": 0} {
			t, err := tensor.Full(ns.shape, v, dtype)
			if err != nil {
				return nil, err
			}
			if l.fields[name], err = newParam(th, t); err != nil {
				return nil, err
			}
		}
	}
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1(kind, args, kwargs)
		if err != nil {
			return nil, err
		}
		f := l.fields
		return callNN(th, "layer_norm", []runtime.Value{x, f["normalized_shape"], l.fieldOrNone("weight"), l.fieldOrNone("bias"), f["eps"]}, nil)
	}
	return l, nil
}

func newDropoutLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const kind = "Dropout"
	p := 0.5
	inplace := false
	if err := runtime.UnpackArgs(kind, args, kwargs, "p?", &p, "inplace?", &inplace); err != nil {
		return nil, err
	}
	if p < 0 || p > 1 {
		return nil, runtime.Errorf("ValueError", "dropout probability has to be between 0 and 1, but got %s", runtime.Repr(runtime.Float(p)))
	}
	l := newModule(kind, func(l *layer) string {
		return fmt.Sprintf("p=%s, inplace=%s", runtime.Repr(l.fields["p"]), l.fields["inplace"])
	})
	l.config = []string{"p", "inplace"}
	l.fields["p"], l.fields["inplace"] = runtime.Float(p), runtime.Bool(inplace)
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1(kind, args, kwargs)
		if err != nil {
			return nil, err
		}
		return callNN(th, "dropout", []runtime.Value{x, l.fields["p"], runtime.Bool(!l.eval), l.fields["inplace"]}, nil)
	}
	return l, nil
}

func newEmbeddingLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const kind = "Embedding"
	var num, dim int
	var pad intOpt
	var maxNorm runtime.Value = runtime.None
	var dt dtypeOpt
	if err := runtime.UnpackArgs(kind, args, kwargs, "num_embeddings", &num, "embedding_dim", &dim, "padding_idx?", &pad,
		"max_norm?", &maxNorm, "dtype?", &dt); err != nil {
		return nil, err
	}
	if maxNorm != runtime.None {
		return nil, runtime.Errorf("NotImplementedError", "Embedding: max_norm is not supported")
	}
	dtype, err := layerDType(kind, dt)
	if err != nil {
		return nil, err
	}
	if num < 0 || dim < 0 {
		return nil, runtime.Errorf("RuntimeError", "Embedding: num_embeddings and embedding_dim must be non-negative")
	}
	var padIdx runtime.Value = runtime.None
	if pad.ok {
		p := pad.v
		if p >= num || p < -num {
			return nil, runtime.Errorf("ValueError", "Padding_idx must be within num_embeddings")
		}
		if p < 0 {
			p += num
		}
		padIdx = runtime.MakeInt(int64(p))
	}
	w, err := tensor.Normal(stateOf(th).gen, []int{num, dim}, dtype, 0, 1)
	if err != nil {
		return nil, err
	}
	if pad.ok {
		p, _ := runtime.AsInt(padIdx)
		row, err := w.Select(0, int(p))
		if err != nil {
			return nil, err
		}
		if err := row.CopyInplace(tensor.ScalarFloat(0)); err != nil {
			return nil, err
		}
	}
	wv, err := newParam(th, w)
	if err != nil {
		return nil, err
	}
	l := newModule(kind, func(l *layer) string {
		s := fmt.Sprintf("%s, %s", l.fields["num_embeddings"], l.fields["embedding_dim"])
		if p := l.fields["padding_idx"]; p != runtime.None {
			s += ", padding_idx=" + p.String()
		}
		return s
	})
	l.config = []string{"num_embeddings", "embedding_dim", "padding_idx"}
	l.params = []string{"weight"}
	l.fields["num_embeddings"], l.fields["embedding_dim"] = runtime.MakeInt(int64(num)), runtime.MakeInt(int64(dim))
	l.fields["padding_idx"], l.fields["max_norm"], l.fields["weight"] = padIdx, runtime.None, wv
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1(kind, args, kwargs)
		if err != nil {
			return nil, err
		}
		return callNN(th, "embedding", []runtime.Value{x, l.fields["weight"], l.fields["padding_idx"]}, nil)
	}
	return l, nil
}

func newFlattenLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const kind = "Flatten"
	start, end := 1, -1
	if err := runtime.UnpackArgs(kind, args, kwargs, "start_dim?", &start, "end_dim?", &end); err != nil {
		return nil, err
	}
	l := newModule(kind, func(l *layer) string {
		return fmt.Sprintf("start_dim=%s, end_dim=%s", l.fields["start_dim"], l.fields["end_dim"])
	})
	l.config = []string{"start_dim", "end_dim"}
	l.fields["start_dim"], l.fields["end_dim"] = runtime.MakeInt(int64(start)), runtime.MakeInt(int64(end))
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1(kind, args, kwargs)
		if err != nil {
			return nil, err
		}
		return callMethod(th, x, "flatten", []runtime.Value{l.fields["start_dim"], l.fields["end_dim"]}, nil)
	}
	return l, nil
}

func newIdentityLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	l := newModule("Identity", nil)
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return input1("Identity", args, kwargs)
	}
	return l, nil
}

// ---- activations ----

// activationClass makes a class calling the nn function fname with the
// layer's single option opt ("" for none): inplace (bool, default false;
// printed only when true), approximate (str, default "none") or
// negative_slope (float, default 0.01).
func activationClass(kind, fname, opt string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		inplace := false
		approx := "none"
		slope := 0.01
		var names []any
		switch opt {
		case "inplace":
			names = []any{"inplace?", &inplace}
		case "approximate":
			names = []any{"approximate?", &approx}
		case "negative_slope":
			names = []any{"negative_slope?", &slope, "inplace?", &inplace}
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		if opt == "approximate" && approx != "none" && approx != "tanh" {
			return nil, runtime.Errorf("RuntimeError", "approximate argument must be either none or tanh.")
		}
		inplaceStr := func(l *layer) string {
			if l.fields["inplace"] == runtime.Bool(true) {
				return "inplace=" + runtime.Bool(true).String()
			}
			return ""
		}
		var extra func(l *layer) string
		switch opt {
		case "inplace":
			extra = inplaceStr
		case "approximate":
			extra = func(l *layer) string { return "approximate=" + runtime.Repr(l.fields["approximate"]) }
		case "negative_slope":
			extra = func(l *layer) string {
				s := "negative_slope=" + runtime.Repr(l.fields["negative_slope"])
				if is := inplaceStr(l); is != "" {
					s += ", " + is
				}
				return s
			}
		}
		l := newModule(kind, extra)
		switch opt {
		case "inplace":
			l.config = []string{"inplace"}
			l.fields["inplace"] = runtime.Bool(inplace)
		case "approximate":
			l.config = []string{"approximate"}
			l.fields["approximate"] = runtime.String(approx)
		case "negative_slope":
			l.config = []string{"negative_slope", "inplace"}
			l.fields["negative_slope"], l.fields["inplace"] = runtime.Float(slope), runtime.Bool(inplace)
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			switch opt {
			case "approximate":
				return callNN(th, fname, []runtime.Value{x}, []runtime.Kwarg{lkw("approximate", l.fields["approximate"])})
			case "negative_slope":
				return callNN(th, fname, []runtime.Value{x, l.fields["negative_slope"]}, []runtime.Kwarg{lkw("inplace", l.fields["inplace"])})
			case "inplace":
				return callNN(th, fname, []runtime.Value{x}, []runtime.Kwarg{lkw("inplace", l.fields["inplace"])})
			}
			return callNN(th, fname, []runtime.Value{x}, nil)
		}
		return l, nil
	}
}

func softmaxClass(kind, fname string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var dim runtime.Value = runtime.None
		if err := runtime.UnpackArgs(kind, args, kwargs, "dim?", &dim); err != nil {
			return nil, err
		}
		if _, ok := dim.(runtime.Int); dim != runtime.None && !ok {
			return nil, runtime.Errorf("TypeError", "%s: dim must be an int or none, not %s", kind, dim.Type())
		}
		l := newModule(kind, func(l *layer) string { return "dim=" + l.fields["dim"].String() })
		l.config = []string{"dim"}
		l.fields["dim"] = dim
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			x, err := input1(kind, args, kwargs)
			if err != nil {
				return nil, err
			}
			d := l.fields["dim"]
			if d == runtime.None {
				// torch's _get_softmax_dim
				nd := 0
				if xt, ok := x.(*TensorValue); ok {
					nd = xt.t.Dim()
				}
				d = runtime.MakeInt(1)
				if nd == 0 || nd == 1 || nd == 3 {
					d = runtime.MakeInt(0)
				}
			}
			return callNN(th, fname, []runtime.Value{x, d}, nil)
		}
		return l, nil
	}
}

// ---- losses ----

// lossClass makes a loss module called as loss(input, target); weighted
// losses (cross_entropy, nll_loss) take weight (a buffer), ignore_index
// and, for cross_entropy, label_smoothing.
func lossClass(kind, fname string, weighted bool) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		reduction := "mean"
		var weight runtime.Value = runtime.None
		ignore := -100
		smoothing := 0.0
		names := []any{"reduction?", &reduction}
		if weighted {
			names = []any{"weight?", &weight, "ignore_index?", &ignore, "reduction?", &reduction}
			if fname == "cross_entropy" {
				names = append(names, "label_smoothing?", &smoothing)
			}
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		if err := checkReduction(reduction); err != nil {
			return nil, err
		}
		if _, ok := weight.(*TensorValue); weight != runtime.None && !ok {
			return nil, runtime.Errorf("TypeError", "%s: weight must be a tensor or none, not %s", kind, weight.Type())
		}
		l := newModule(kind, nil)
		l.config = []string{"reduction"}
		l.fields["reduction"] = runtime.String(reduction)
		if weighted {
			l.buffers = []string{"weight"}
			l.config = append(l.config, "ignore_index")
			l.fields["weight"], l.fields["ignore_index"] = weight, runtime.MakeInt(int64(ignore))
			if fname == "cross_entropy" {
				l.config = append(l.config, "label_smoothing")
				l.fields["label_smoothing"] = runtime.Float(smoothing)
			}
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var x, y runtime.Value
			if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x, "target", &y); err != nil {
				return nil, err
			}
			kws := []runtime.Kwarg{lkw("reduction", l.fields["reduction"])}
			if weighted {
				kws = append(kws, lkw("weight", l.fieldOrNone("weight")), lkw("ignore_index", l.fields["ignore_index"]))
				if fname == "cross_entropy" {
					kws = append(kws, lkw("label_smoothing", l.fields["label_smoothing"]))
				}
			}
			return callNN(th, fname, []runtime.Value{x, y}, kws)
		}
		return l, nil
	}
}

// ---- Sequential ----

// seqModule is an nn.Sequential: a layer whose children run in order,
// indexable (seq[i], seq[a:b]), sized and iterable.
type seqModule struct{ *layer }

func newSequential(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if len(kwargs) > 0 {
		return nil, runtime.Errorf("TypeError", "Sequential() got an unexpected keyword argument '%s'", kwargs[0].Name)
	}
	subs := make([]*layer, len(args))
	for i, a := range args {
		m, ok := asLayer(a)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", a.Type())
		}
		subs[i] = m
	}
	return makeSequential(subs), nil
}

func makeSequential(subs []*layer) *seqModule {
	l := &layer{kind: "Sequential", fields: map[string]runtime.Value{}}
	s := &seqModule{l}
	l.outer = s
	for i, m := range subs {
		l.subs = append(l.subs, m)
		l.subNames = append(l.subNames, fmt.Sprint(i))
	}
	l.repr = containerRepr
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1("Sequential", args, kwargs)
		if err != nil {
			return nil, err
		}
		for _, m := range l.subs {
			if x, err = m.Call(th, []runtime.Value{x}, nil); err != nil {
				return nil, err
			}
		}
		return x, nil
	}
	return s
}

// containerRepr is torch's Module.__repr__ for a module with children:
// one "(name): child" line each, the child's own lines indented by two.
func containerRepr(l *layer) string {
	if len(l.subs) == 0 {
		return l.kind + "()"
	}
	var b strings.Builder
	b.WriteString(l.kind + "(\n")
	for i, m := range l.subs {
		child := strings.ReplaceAll(m.String(), "\n", "\n  ")
		b.WriteString("  (" + l.subNames[i] + "): " + child + "\n")
	}
	b.WriteString(")")
	return b.String()
}

// Len is the number of layers.
func (s *seqModule) Len() int { return len(s.subs) }

// Index returns layer i (negative from the end) or, for a slice, a
// Sequential of those layers (sharing them).
func (s *seqModule) Index(key runtime.Value) (runtime.Value, error) {
	n := len(s.subs)
	if sl, ok := key.(*runtime.Slice); ok {
		start, stop, step, err := sl.Indices(n)
		if err != nil {
			return nil, err
		}
		var subs []*layer
		for j := start; (step > 0 && j < stop) || (step < 0 && j > stop); j += step {
			subs = append(subs, s.subs[j])
		}
		return makeSequential(subs), nil
	}
	i, ok := runtime.AsInt(key)
	if !ok || isBool(key) {
		return nil, runtime.Errorf("TypeError", "Sequential indices must be integers or slices, not %s", key.Type())
	}
	if i < -int64(n) || i >= int64(n) {
		return nil, runtime.Errorf("IndexError", "index %d is out of range", i)
	}
	if i < 0 {
		i += int64(n)
	}
	return s.subs[i].value(), nil
}

// SetIndex replaces layer i.
func (s *seqModule) SetIndex(key runtime.Value, v runtime.Value) error {
	i, ok := runtime.AsInt(key)
	if !ok || isBool(key) {
		return runtime.Errorf("TypeError", "Sequential indices must be integers, not %s", key.Type())
	}
	m, ok := asLayer(v)
	if !ok {
		return runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
	}
	n := int64(len(s.subs))
	if i < -n || i >= n {
		return runtime.Errorf("IndexError", "index %d is out of range", i)
	}
	if i < 0 {
		i += n
	}
	s.subs[i] = m
	return nil
}

// Iterate yields the layers in order.
func (s *seqModule) Iterate() runtime.Iterator {
	vals := make([]runtime.Value, len(s.subs))
	for i, m := range s.subs {
		vals[i] = m.value()
	}
	return runtime.NewList(vals).Iterate()
}

// Attr adds append(layer) to the layer attributes.
func (s *seqModule) Attr(name string) (runtime.Value, error) {
	if name == "append" {
		b := runtime.NewBuiltin("Sequential.append", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs("append", args, kwargs, "module", &v); err != nil {
				return nil, err
			}
			m, ok := asLayer(v)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
			}
			s.subs = append(s.subs, m)
			s.subNames = append(s.subNames, fmt.Sprint(len(s.subs)-1))
			return s, nil
		})
		b.Doc = "append(module): add a layer at the end; returns the Sequential."
		return b, nil
	}
	return s.layer.Attr(name)
}

// AttrNames lists the layer attributes and append.
func (s *seqModule) AttrNames() []string {
	names := append(s.layer.AttrNames(), "append")
	sort.Strings(names)
	return names
}

// newRunningNormLayer is the state shared by BatchNorm*d and InstanceNorm*d
// (torch's _NormBase): config num_features, eps, momentum (a float or none),
// affine, track_running_stats; with affine, parameters weight (ones) and
// bias (zeros) of shape [n] in dtype; with track_running_stats, buffers
// running_mean (zeros), running_var (ones) and num_batches_tracked (i64 0);
// absent ones are none. The caller sets forward.
func newRunningNormLayer(th *runtime.Thread, kind string, n int, eps float64, momentum runtime.Value, affine, track bool, dtype tensor.DType) (*layer, error) {
	l := newModule(kind, func(l *layer) string {
		f := l.fields
		return fmt.Sprintf("%s, eps=%s, momentum=%s, affine=%s, track_running_stats=%s", f["num_features"], runtime.Repr(f["eps"]),
			runtime.Repr(f["momentum"]), f["affine"], f["track_running_stats"])
	})
	l.config = []string{"num_features", "eps", "momentum", "affine", "track_running_stats"}
	l.params = []string{"weight", "bias"}
	l.buffers = []string{"running_mean", "running_var", "num_batches_tracked"}
	l.fields["num_features"], l.fields["eps"], l.fields["momentum"] = runtime.MakeInt(int64(n)), runtime.Float(eps), momentum
	l.fields["affine"], l.fields["track_running_stats"] = runtime.Bool(affine), runtime.Bool(track)
	for _, name := range append(l.params, l.buffers...) {
		l.fields[name] = runtime.None
	}
	full := func(v float64) (*T, error) { return tensor.Full([]int{n}, v, dtype) }
	if affine {
		for name, v := range map[string]float64{"weight": 1, "bias": 0} {
			t, err := full(v)
			if err != nil {
				return nil, err
			}
			if l.fields[name], err = newParam(th, t); err != nil {
				return nil, err
			}
		}
	}
	if track {
		for name, v := range map[string]float64{"running_mean": 0, "running_var": 1} {
			t, err := full(v)
			if err != nil {
				return nil, err
			}
			l.fields[name] = NewTensorValue(th, t)
		}
		l.fields["num_batches_tracked"] = NewTensorValue(th, tensor.ScalarInt(0))
	}
	return l, nil
}
