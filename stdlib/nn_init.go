package stdlib

import (
	"math"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/linalg"
)

// nn.init (torch.nn.init, PyTorch 1.13): in-place initialisers run without
// recording (torch's no_grad), drawing from the interpreter's generator
// with torch's formulas, so after the same manual_seed they give torch's
// values; and the module methods children(), named_children(), modules(),
// named_modules(), apply(fn), buffers(), named_buffers(),
// register_buffer(), add_module()/register_module().

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_init.go initialised before nn.go")
	}
	f := func(name, doc string, fn builtinFn) runtime.Value { return moduleFunc("nn.init", name, doc, fn) }
	members := map[string]runtime.Value{
		"calculate_gain":   f("calculate_gain", "calculate_gain(nonlinearity, param=none): the recommended gain: 1 for linear/conv/sigmoid, 5/3 tanh, sqrt(2) relu, sqrt(2/(1+slope^2)) leaky_relu (slope param, default 0.01), 3/4 selu.", initCalculateGain),
		"uniform_":         f("uniform_", "uniform_(tensor, a=0.0, b=1.0): fill with U(a, b) in place; returns tensor.", initUniform),
		"normal_":          f("normal_", "normal_(tensor, mean=0.0, std=1.0): fill with N(mean, std^2) in place; returns tensor.", initNormal),
		"trunc_normal_":    f("trunc_normal_", "trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0): N(mean, std^2) truncated to [a, b], by inverse CDF of a uniform in [Φ(α), Φ(β)] (erfinv), as torch; returns tensor.", initTruncNormal),
		"constant_":        f("constant_", "constant_(tensor, val): fill with val; returns tensor.", initConstant("")),
		"ones_":            f("ones_", "ones_(tensor): fill with 1; returns tensor.", initConstant("1")),
		"zeros_":           f("zeros_", "zeros_(tensor): fill with 0; returns tensor.", initConstant("0")),
		"eye_":             f("eye_", "eye_(tensor): the identity in a 2-d tensor; returns tensor.", initEye),
		"xavier_uniform_":  f("xavier_uniform_", "xavier_uniform_(tensor, gain=1.0): U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio 2010); returns tensor.", initXavier(false)),
		"xavier_normal_":   f("xavier_normal_", "xavier_normal_(tensor, gain=1.0): N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)); returns tensor.", initXavier(true)),
		"kaiming_uniform_": f("kaiming_uniform_", "kaiming_uniform_(tensor, a=0, mode=\"fan_in\", nonlinearity=\"leaky_relu\"): U(-b, b), b = gain * sqrt(3 / fan) (He et al. 2015), gain = calculate_gain(nonlinearity, a); returns tensor.", initKaiming(false)),
		"orthogonal_":      f("orthogonal_", "orthogonal_(tensor, gain=1): fill a tensor of 2 or more dims with a (semi-)orthogonal matrix viewed as [size(0), numel/size(0)] (Saxe et al. 2013), as torch: N(0, 1) draws from the generator (transposed when rows < cols), QR (Householder, LAPACK geqrf/orgqr), Q's columns multiplied by the signs of R's diagonal, times gain; returns tensor. ValueError below 2 dims; an empty tensor is left as it is.", initOrthogonal),
		"kaiming_normal_":  f("kaiming_normal_", "kaiming_normal_(tensor, a=0, mode=\"fan_in\", nonlinearity=\"leaky_relu\"): N(0, std^2), std = gain / sqrt(fan); returns tensor.", initKaiming(true)),
	}
	m.Members["init"] = &runtime.Module{ModName: "nn.init", Members: members, Doc: "torch.nn.init: in-place parameter initialisers (no autograd), torch's formulas and generator stream."}
}

// noGradMethod calls method name on t with grad recording off (torch's
// nn.init runs under no_grad).
func noGradMethod(th *runtime.Thread, t *TensorValue, name string, args []runtime.Value, kwargs []runtime.Kwarg) error {
	e := engineOf(th)
	prev := e.SetGradEnabled(false)
	defer e.SetGradEnabled(prev)
	_, err := callMethod(th, t, name, args, kwargs)
	return err
}

// initTensor unpacks an initialiser's tensor argument.
type initTensor struct{ v *TensorValue }

func (a *initTensor) Unpack(v runtime.Value) error {
	t, ok := v.(*TensorValue)
	if !ok {
		return runtime.Errorf("TypeError", "expected a tensor, not %s", v.Type())
	}
	a.v = t
	return nil
}

// fans is torch's _calculate_fan_in_and_fan_out: size(1) and size(0)
// times the receptive field (the product of the remaining dims).
func fans(t *T) (float64, float64, error) {
	s := t.Shape()
	if len(s) < 2 {
		return 0, 0, runtime.Errorf("ValueError", "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
	}
	rf := 1
	for _, x := range s[2:] {
		rf *= x
	}
	return float64(s[1] * rf), float64(s[0] * rf), nil
}

// gain is torch's calculate_gain.
func gain(nonlinearity string, param runtime.Value) (float64, error) {
	switch nonlinearity {
	case "linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid":
		return 1, nil
	case "tanh":
		return 5.0 / 3, nil
	case "relu":
		return math.Sqrt(2), nil
	case "leaky_relu":
		slope := 0.01
		if param != nil && param != runtime.None {
			f, ok := runtime.AsFloat(param)
			if !ok || isBool(param) {
				return 0, runtime.Errorf("ValueError", "negative_slope %s not a valid number", runtime.Repr(param))
			}
			slope = f
		}
		return math.Sqrt(2 / (1 + slope*slope)), nil
	case "selu":
		return 3.0 / 4, nil
	}
	return 0, runtime.Errorf("ValueError", "Unsupported nonlinearity %s", nonlinearity)
}

func initCalculateGain(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var nl string
	var param runtime.Value = runtime.None
	if err := runtime.UnpackArgs("calculate_gain", args, kwargs, "nonlinearity", &nl, "param?", &param); err != nil {
		return nil, err
	}
	g, err := gain(nl, param)
	if err != nil {
		return nil, err
	}
	return runtime.Float(g), nil
}

func fl(v float64) runtime.Value { return runtime.Float(v) }

func initUniform(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var t initTensor
	lo, hi := 0.0, 1.0
	if err := runtime.UnpackArgs("uniform_", args, kwargs, "tensor", &t, "a?", &lo, "b?", &hi); err != nil {
		return nil, err
	}
	return t.v, noGradMethod(th, t.v, "uniform_", []runtime.Value{fl(lo), fl(hi)}, nil)
}

func initNormal(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var t initTensor
	mean, std := 0.0, 1.0
	if err := runtime.UnpackArgs("normal_", args, kwargs, "tensor", &t, "mean?", &mean, "std?", &std); err != nil {
		return nil, err
	}
	return t.v, noGradMethod(th, t.v, "normal_", []runtime.Value{fl(mean), fl(std)}, nil)
}

// initTruncNormal is torch's _no_grad_trunc_normal_.
func initTruncNormal(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var t initTensor
	mean, std, lo, hi := 0.0, 1.0, -2.0, 2.0
	if err := runtime.UnpackArgs("trunc_normal_", args, kwargs, "tensor", &t, "mean?", &mean, "std?", &std, "a?", &lo, "b?", &hi); err != nil {
		return nil, err
	}
	cdf := func(x float64) float64 { return (1 + math.Erf(x/math.Sqrt(2))) / 2 }
	l, u := cdf((lo-mean)/std), cdf((hi-mean)/std)
	steps := []struct {
		name string
		args []runtime.Value
		kws  []runtime.Kwarg
	}{
		{"uniform_", []runtime.Value{fl(2*l - 1), fl(2*u - 1)}, nil},
		{"erfinv_", nil, nil},
		{"mul_", []runtime.Value{fl(std * math.Sqrt(2))}, nil},
		{"add_", []runtime.Value{fl(mean)}, nil},
		{"clamp_", nil, []runtime.Kwarg{{Name: "min", Value: fl(lo)}, {Name: "max", Value: fl(hi)}}},
	}
	for _, s := range steps {
		if err := noGradMethod(th, t.v, s.name, s.args, s.kws); err != nil {
			return nil, err
		}
	}
	return t.v, nil
}

func initConstant(fixed string) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var t initTensor
		var val runtime.Value
		names := []any{"tensor", &t}
		if fixed == "" {
			names = append(names, "val", &val)
		}
		if err := runtime.UnpackArgs(b.Name(), args, kwargs, names...); err != nil {
			return nil, err
		}
		switch fixed {
		case "1":
			val = runtime.MakeInt(1)
		case "0":
			val = runtime.MakeInt(0)
		}
		return t.v, noGradMethod(th, t.v, "fill_", []runtime.Value{val}, nil)
	}
}

func initEye(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var t initTensor
	if err := runtime.UnpackArgs("eye_", args, kwargs, "tensor", &t); err != nil {
		return nil, err
	}
	if t.v.t.Dim() != 2 {
		return nil, runtime.Errorf("ValueError", "Only tensors with 2 dimensions are supported")
	}
	if err := noGradMethod(th, t.v, "zero_", nil, nil); err != nil {
		return nil, err
	}
	return t.v, noGradMethod(th, t.v, "fill_diagonal_", []runtime.Value{runtime.MakeInt(1)}, nil)
}

func initXavier(normal bool) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var t initTensor
		g := 1.0
		if err := runtime.UnpackArgs(b.Name(), args, kwargs, "tensor", &t, "gain?", &g); err != nil {
			return nil, err
		}
		fin, fout, err := fans(t.v.t)
		if err != nil {
			return nil, err
		}
		std := g * math.Sqrt(2.0/(fin+fout))
		if normal {
			return t.v, noGradMethod(th, t.v, "normal_", []runtime.Value{fl(0), fl(std)}, nil)
		}
		a := math.Sqrt(3.0) * std
		return t.v, noGradMethod(th, t.v, "uniform_", []runtime.Value{fl(-a), fl(a)}, nil)
	}
}

func initKaiming(normal bool) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var t initTensor
		var a runtime.Value = runtime.MakeInt(0)
		mode, nl := "fan_in", "leaky_relu"
		if err := runtime.UnpackArgs(b.Name(), args, kwargs, "tensor", &t, "a?", &a, "mode?", &mode, "nonlinearity?", &nl); err != nil {
			return nil, err
		}
		if mode != "fan_in" && mode != "fan_out" {
			return nil, runtime.Errorf("ValueError", "Mode %s not supported, please use one of ['fan_in', 'fan_out']", mode)
		}
		fin, fout, err := fans(t.v.t)
		if err != nil {
			return nil, err
		}
		fan := fin
		if mode == "fan_out" {
			fan = fout
		}
		g, err := gain(nl, a)
		if err != nil {
			return nil, err
		}
		std := g / math.Sqrt(fan)
		if normal {
			return t.v, noGradMethod(th, t.v, "normal_", []runtime.Value{fl(0), fl(std)}, nil)
		}
		bound := math.Sqrt(3.0) * std
		return t.v, noGradMethod(th, t.v, "uniform_", []runtime.Value{fl(-bound), fl(bound)}, nil)
	}
}

// ---- module tree methods ----

// moduleTreeMethodNames lists the names moduleTreeMethod serves.
var moduleTreeMethodNames = []string{"add_module", "apply", "buffers", "children", "modules", "named_buffers", "named_children", "named_modules", "register_buffer", "register_module"}

// moduleTreeMethod returns the module-tree methods of l: children(),
// named_children(), modules(), named_modules() (each module once, depth
// first, the module itself first with name ""), apply(fn) (children first,
// then the module, as torch; returns the module), buffers(),
// named_buffers(), register_buffer(name, tensor) and add_module(name,
// module) / register_module.
func moduleTreeMethod(l *layer, name string) (runtime.Value, bool) {
	method := func(doc string, f func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) *runtime.Builtin {
		b := runtime.NewBuiltin(l.kind+"."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return f(th, args, kwargs)
		})
		b.Doc = doc
		return b
	}
	named := func(pairs bool, f func(add func(string, runtime.Value))) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			var out []runtime.Value
			f(func(n string, v runtime.Value) {
				if pairs {
					out = append(out, runtime.Tuple{runtime.String(n), v})
				} else {
					out = append(out, v)
				}
			})
			return runtime.NewList(out), nil
		}
	}
	children := func(add func(string, runtime.Value)) {
		seen := map[*layer]bool{}
		for i, s := range l.subs {
			if !seen[s] {
				seen[s] = true
				add(l.subNames[i], s.value())
			}
		}
	}
	allModules := func(add func(string, runtime.Value)) {
		seen := map[*layer]bool{}
		l.walk("", func(prefix string, m *layer) {
			if !seen[m] {
				seen[m] = true
				add(strings.TrimSuffix(prefix, "."), m.value())
			}
		})
	}
	buffers := func(add func(string, runtime.Value)) {
		l.walk("", func(prefix string, m *layer) {
			for _, b := range m.buffers {
				if x, ok := m.fields[b].(*TensorValue); ok {
					add(prefix+b, x)
				}
			}
		})
	}
	switch name {
	case "children":
		return method("children(): the direct child modules, in order (a list).", named(false, children)), true
	case "named_children":
		return method("named_children(): (name, module) for each direct child (a list).", named(true, children)), true
	case "modules":
		return method("modules(): the module and all its descendants, depth first, each once (a list).", named(false, allModules)), true
	case "named_modules":
		return method("named_modules(): (dotted name, module) for the module (name \"\") and its descendants (a list).", named(true, allModules)), true
	case "buffers":
		return method("buffers(): the buffers (running statistics, ...) of the module and its descendants (a list).", named(false, buffers)), true
	case "named_buffers":
		return method("named_buffers(): (dotted name, buffer) pairs (a list).", named(true, buffers)), true
	case "apply":
		return method("apply(fn): call fn on every descendant module and then on the module itself (torch's order); returns the module.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var fn runtime.Value
			if err := runtime.UnpackArgs("apply", args, kwargs, "fn", &fn); err != nil {
				return nil, err
			}
			var visit func(m *layer) error
			visit = func(m *layer) error {
				for _, s := range m.subs {
					if err := visit(s); err != nil {
						return err
					}
				}
				_, err := th.Call(fn, []runtime.Value{m.value()}, nil)
				return err
			}
			return l.value(), visit(l)
		}), true
	case "register_buffer":
		return method("register_buffer(name, tensor, persistent=true): add a buffer (state_dict lists it; to() converts it); tensor may be none.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var n string
			var v runtime.Value
			persistent := true
			if err := runtime.UnpackArgs("register_buffer", args, kwargs, "name", &n, "tensor", &v, "persistent?", &persistent); err != nil {
				return nil, err
			}
			if _, ok := v.(*TensorValue); !ok && v != runtime.None {
				return nil, runtime.Errorf("TypeError", "cannot assign '%s' object to buffer '%s' (torch Tensor or None required)", v.Type(), n)
			}
			if err := checkAttrName("buffer", n); err != nil {
				return nil, err
			}
			if _, ok := l.fields[n]; ok && !contains(l.buffers, n) {
				return nil, runtime.Errorf("KeyError", "\"attribute '%s' already exists\"", n)
			}
			if !persistent {
				return nil, runtime.Errorf("NotImplementedError", "register_buffer(persistent=false) is not supported")
			}
			if !contains(l.buffers, n) {
				l.buffers = append(l.buffers, n)
			}
			if t, ok := v.(*TensorValue); ok {
				v = wrap(t.eng, t.t) // a buffer prints as a tensor, not a Parameter
			}
			l.fields[n] = v
			return runtime.None, nil
		}), true
	case "add_module", "register_module":
		return method(name+"(name, module): add (or replace) a child module under name.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var n string
			var v runtime.Value
			if err := runtime.UnpackArgs(name, args, kwargs, "name", &n, "module", &v); err != nil {
				return nil, err
			}
			if err := checkAttrName("module", n); err != nil {
				return nil, err
			}
			m, ok := asLayer(v)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
			}
			if _, exists := l.fields[n]; exists {
				return nil, runtime.Errorf("KeyError", "\"attribute '%s' already exists\"", n)
			}
			for i, s := range l.subNames {
				if s == n {
					l.subs[i] = m
					return runtime.None, nil
				}
			}
			l.subs = append(l.subs, m)
			l.subNames = append(l.subNames, n)
			return runtime.None, nil
		}), true
	}
	return nil, false
}

// checkAttrName is torch's name check of register_buffer / add_module.
func checkAttrName(what, n string) error {
	switch {
	case n == "":
		return runtime.Errorf("KeyError", "\"%s name can't be empty string \\\"\\\"\"", what)
	case strings.Contains(n, "."):
		return runtime.Errorf("KeyError", "\"%s name can't contain \\\".\\\", got: %s\"", what, n)
	}
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// initOrthogonal is torch.nn.init.orthogonal_(tensor, gain=1): a
// (semi-)orthogonal fill from the QR factorisation of a standard normal
// matrix, Q made unique by the signs of R's diagonal (Mezzadri 2007,
// arXiv:math-ph/0609050), drawn from the interpreter's generator as torch
// draws it (tensor.new(rows, cols).normal_(0, 1)), so after manual_seed the
// values agree with torch's up to the QR's rounding.
func initOrthogonal(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var t initTensor
	g := 1.0
	if err := runtime.UnpackArgs("orthogonal_", args, kwargs, "tensor", &t, "gain?", &g); err != nil {
		return nil, err
	}
	x := t.v.t
	if x.Dim() < 2 {
		return nil, runtime.Errorf("ValueError", "Only tensors with 2 or more dimensions are supported")
	}
	if x.Numel() == 0 {
		return t.v, nil
	}
	if !x.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "\"normal_kernel_cpu\" not implemented for '%s'", tensor.CastErrorName(x.DType()))
	}
	e := engineOf(th)
	prev := e.SetGradEnabled(false)
	defer e.SetGradEnabled(prev)
	rows := x.Shape()[0]
	cols := x.Numel() / rows
	flat, err := tensor.Zeros([]int{rows, cols}, x.DType())
	if err != nil {
		return nil, err
	}
	fv := NewTensorValue(th, flat)
	if _, err := callMethod(th, fv, "normal_", []runtime.Value{fl(0), fl(1)}, nil); err != nil {
		return nil, err
	}
	call := func(v runtime.Value, name string, args ...runtime.Value) (runtime.Value, error) {
		return callMethod(th, v, name, args, nil)
	}
	var a runtime.Value = fv
	if rows < cols {
		if a, err = call(a, "t"); err != nil {
			return nil, err
		}
	}
	q, r, err := linalg.QR(e, a.(*TensorValue).t, "reduced")
	if err != nil {
		return nil, err
	}
	ph, err := call(NewTensorValue(th, r), "diagonal")
	if err == nil {
		ph, err = call(ph, "sign")
	}
	var qv runtime.Value
	if err == nil {
		qv, err = call(NewTensorValue(th, q), "mul", ph)
	}
	if err == nil && rows < cols {
		qv, err = call(qv, "t")
	}
	var view runtime.Value
	if err == nil {
		view, err = call(t.v, "view_as", qv)
	}
	if err == nil {
		_, err = call(view, "copy_", qv)
	}
	if err == nil {
		_, err = call(t.v, "mul_", fl(g))
	}
	if err != nil {
		return nil, err
	}
	return t.v, nil
}
