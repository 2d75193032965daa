package stdlib

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// The optim module: torch.optim.SGD and torch.optim.Adam (PyTorch 1.13,
// the single-tensor "for-loop" implementations torch uses by default on
// CPU). step() updates each parameter that has a gradient in place, outside
// autograd, with torch's formulas and order of operations; for f32
// parameters every intermediate is rounded to f32 as torch's kernels do
// (tensor-scalar ops take the scalar as f32; add(alpha=) is a fused
// multiply-add, as ATen's vectorized add), so a few steps agree with
// torch's parameters to the last bit or two. Hyperparameters are read from
// param_groups at every step, so `opt.param_groups[0]["lr"] = 0.01` works
// as in torch.

func init() {
	m := map[string]runtime.Value{
		"SGD":  &optimClass{name: "SGD", doc: "SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=false, maximize=false): stochastic gradient descent (torch.optim.SGD): g += weight_decay * p; with momentum, buf = g at the first step, then buf = momentum * buf + (1 - dampening) * g, and g = g + momentum * buf (nesterov) or buf; p -= lr * g."},
		"Adam": &optimClass{name: "Adam", doc: "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=false, maximize=false): Adam (Kingma & Ba 2015; torch.optim.Adam, AMSGrad of Reddi et al. 2018): g += weight_decay * p; m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g*g; p -= lr/(1-b1^t) * m / (sqrt(v)/sqrt(1-b2^t) + eps), with v the running max of v for amsgrad."},
	}
	m["AdamW"] = &optimClass{name: "AdamW", doc: "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01, amsgrad=false, maximize=false): Adam with decoupled weight decay (Loshchilov & Hutter 2019; torch.optim.AdamW): p *= 1 - lr * weight_decay, then Adam's update without the gradient's weight decay term."}
	m["RMSprop"] = &optimClass{name: "RMSprop", doc: "RMSprop(params, lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=false, maximize=false): RMSprop (Hinton's lecture 6e; torch.optim.RMSprop): g += weight_decay * p; v = alpha*v + (1-alpha)*g*g; centered: a = alpha*a + (1-alpha)*g and avg = sqrt(v - a*a), else sqrt(v); avg += eps; with momentum, buf = momentum*buf + g/avg and p -= lr * buf, else p -= lr * g/avg."}
	m["Adagrad"] = &optimClass{name: "Adagrad", doc: "Adagrad(params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, maximize=false): Adagrad (Duchi et al. 2011; torch.optim.Adagrad): g += weight_decay * p; sum += g*g; p -= lr / (1 + (step-1) * lr_decay) * g / (sqrt(sum) + eps). The state (step 0, sum initial_accumulator_value) exists from construction, as torch's."}
	m["lr_scheduler"] = lrSchedulerModule()
	registerModule("optim", "Optimizers (torch.optim): SGD, Adam, AdamW, RMSprop and Adagrad, stepping the parameters in place from their .grad, with state_dict()/load_state_dict(); optim.lr_scheduler: StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, CosineAnnealingWarmRestarts, LambdaLR, LinearLR, ConstantLR, ReduceLROnPlateau.", m)
}

// optimClass is an optimizer constructor value (optim.SGD, optim.Adam,
// optim.AdamW, optim.RMSprop, optim.Adagrad).
type optimClass struct {
	name string
	doc  string
}

// String prints the class as <class optim.SGD>.
func (c *optimClass) String() string { return "<class optim." + c.name + ">" }

// Type is "class".
func (c *optimClass) Type() string { return "class" }

// Truth is true.
func (c *optimClass) Truth() bool { return true }

// Name is the qualified name, optim.SGD or optim.Adam.
func (c *optimClass) Name() string { return "optim." + c.name }

// Call builds an optimizer over params: a list (or other iterable) of
// tensors, or a list of dicts each holding "params" and per-group options.
func (c *optimClass) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var params runtime.Value
	defaults := runtime.NewDict(8)
	set := func(k string, v runtime.Value) { _ = defaults.SetKey(runtime.String(k), v) }
	var err error
	switch c.name {
	case "SGD":
		var lr runtime.Value = nil
		momentum, dampening, wd := 0.0, 0.0, 0.0
		nesterov, maximize := false, false
		if err = runtime.UnpackArgs("SGD", args, kwargs, "params", &params, "lr?", &lr, "momentum?", &momentum,
			"dampening?", &dampening, "weight_decay?", &wd, "nesterov?", &nesterov, "maximize?", &maximize); err != nil {
			return nil, err
		}
		if lr == nil {
			return nil, runtime.Errorf("TypeError", "SGD(): missing required argument 'lr'")
		}
		lrf, err := optimLR("SGD", lr)
		if err != nil {
			return nil, err
		}
		switch {
		case lrf < 0:
			return nil, runtime.Errorf("ValueError", "Invalid learning rate: %s", runtime.Repr(lr))
		case momentum < 0:
			return nil, invalidValue("momentum", momentum)
		case wd < 0:
			return nil, invalidValue("weight_decay", wd)
		case nesterov && (momentum <= 0 || dampening != 0):
			return nil, runtime.Errorf("ValueError", "Nesterov momentum requires a momentum and zero dampening")
		}
		set("lr", lr)
		set("momentum", runtime.Float(momentum))
		set("dampening", runtime.Float(dampening))
		set("weight_decay", runtime.Float(wd))
		set("nesterov", runtime.Bool(nesterov))
		set("maximize", runtime.Bool(maximize))
	case "RMSprop":
		var lr runtime.Value = runtime.Float(1e-2)
		alpha, eps, wd, momentum := 0.99, 1e-8, 0.0, 0.0
		centered, maximize := false, false
		if err = runtime.UnpackArgs("RMSprop", args, kwargs, "params", &params, "lr?", &lr, "alpha?", &alpha, "eps?", &eps,
			"weight_decay?", &wd, "momentum?", &momentum, "centered?", &centered, "maximize?", &maximize); err != nil {
			return nil, err
		}
		lrf, err := optimLR("RMSprop", lr)
		if err != nil {
			return nil, err
		}
		switch {
		case lrf < 0:
			return nil, runtime.Errorf("ValueError", "Invalid learning rate: %s", runtime.Repr(lr))
		case eps < 0:
			return nil, invalidValue("epsilon", eps)
		case momentum < 0:
			return nil, invalidValue("momentum", momentum)
		case wd < 0:
			return nil, invalidValue("weight_decay", wd)
		case alpha < 0:
			return nil, invalidValue("alpha", alpha)
		}
		set("lr", lr)
		set("momentum", runtime.Float(momentum))
		set("alpha", runtime.Float(alpha))
		set("eps", runtime.Float(eps))
		set("centered", runtime.Bool(centered))
		set("weight_decay", runtime.Float(wd))
		set("maximize", runtime.Bool(maximize))
	case "Adagrad":
		var lr runtime.Value = runtime.Float(1e-2)
		lrDecay, wd, initAcc, eps := 0.0, 0.0, 0.0, 1e-10
		maximize := false
		if err = runtime.UnpackArgs("Adagrad", args, kwargs, "params", &params, "lr?", &lr, "lr_decay?", &lrDecay,
			"weight_decay?", &wd, "initial_accumulator_value?", &initAcc, "eps?", &eps, "maximize?", &maximize); err != nil {
			return nil, err
		}
		lrf, err := optimLR("Adagrad", lr)
		if err != nil {
			return nil, err
		}
		switch {
		case lrf < 0:
			return nil, runtime.Errorf("ValueError", "Invalid learning rate: %s", runtime.Repr(lr))
		case lrDecay < 0:
			return nil, invalidValue("lr_decay", lrDecay)
		case wd < 0:
			return nil, invalidValue("weight_decay", wd)
		case initAcc < 0:
			return nil, invalidValue("initial_accumulator_value", initAcc)
		case eps < 0:
			return nil, invalidValue("epsilon", eps)
		}
		set("lr", lr)
		set("lr_decay", runtime.Float(lrDecay))
		set("eps", runtime.Float(eps))
		set("weight_decay", runtime.Float(wd))
		set("initial_accumulator_value", runtime.Float(initAcc))
		set("maximize", runtime.Bool(maximize))
	case "Adam", "AdamW":
		var lr runtime.Value = runtime.Float(1e-3)
		var betas runtime.Value = runtime.Tuple{runtime.Float(0.9), runtime.Float(0.999)}
		eps, wd := 1e-8, 0.0
		if c.name == "AdamW" {
			wd = 1e-2
		}
		amsgrad, maximize := false, false
		if err = runtime.UnpackArgs(c.name, args, kwargs, "params", &params, "lr?", &lr, "betas?", &betas, "eps?", &eps,
			"weight_decay?", &wd, "amsgrad?", &amsgrad, "maximize?", &maximize); err != nil {
			return nil, err
		}
		lrf, err := optimLR(c.name, lr)
		if err != nil {
			return nil, err
		}
		b, err := betaPair(betas)
		if err != nil {
			return nil, err
		}
		switch {
		case lrf < 0:
			return nil, runtime.Errorf("ValueError", "Invalid learning rate: %s", runtime.Repr(lr))
		case eps < 0:
			return nil, invalidValue("epsilon", eps)
		case b[0] < 0 || b[0] >= 1:
			return nil, runtime.Errorf("ValueError", "Invalid beta parameter at index 0: %s", runtime.Repr(runtime.Float(b[0])))
		case b[1] < 0 || b[1] >= 1:
			return nil, runtime.Errorf("ValueError", "Invalid beta parameter at index 1: %s", runtime.Repr(runtime.Float(b[1])))
		case wd < 0:
			return nil, invalidValue("weight_decay", wd)
		}
		set("lr", lr)
		set("betas", runtime.Tuple{runtime.Float(b[0]), runtime.Float(b[1])})
		set("eps", runtime.Float(eps))
		set("weight_decay", runtime.Float(wd))
		set("amsgrad", runtime.Bool(amsgrad))
		set("maximize", runtime.Bool(maximize))
	}
	o := &optimizer{kind: c.name, defaults: defaults, groups: runtime.NewList(nil), state: map[*T]*paramState{}}
	groups, err := paramGroupsOf(params)
	if err != nil {
		return nil, err
	}
	if len(groups) == 0 {
		return nil, runtime.Errorf("ValueError", "optimizer got an empty parameter list")
	}
	for _, g := range groups {
		if err := o.addGroup(g); err != nil {
			return nil, err
		}
	}
	if c.name == "Adagrad" {
		// torch's Adagrad makes each parameter's state at construction
		for _, gv := range o.groups.Elems {
			g := gv.(*runtime.Dict)
			h, err := o.hyper(g)
			if err != nil {
				return nil, err
			}
			for _, p := range groupParams(g) {
				sum := make([]float64, p.t.Numel())
				v := tensor.RoundToDType(h.initAcc, p.t.DType())
				for i := range sum {
					sum[i] = v
				}
				o.state[p.t] = &paramState{squareAvg: sum}
			}
		}
	}
	return o, nil
}

// optimLR is an optimizer's lr as a float, or torch's TypeError when lr is
// not a number (bools included).
func optimLR(name string, lr runtime.Value) (float64, error) {
	lrf, ok := runtime.AsFloat(lr)
	if !ok || isBool(lr) {
		return 0, runtime.Errorf("TypeError", "%s(): lr must be a number, not %s", name, lr.Type())
	}
	return lrf, nil
}

// invalidValue is torch.optim's ValueError for a hyper-parameter out of
// range: "Invalid <what> value: <v>".
func invalidValue(what string, v float64) error {
	return runtime.Errorf("ValueError", "Invalid %s value: %s", what, runtime.Repr(runtime.Float(v)))
}

// Attr exposes nothing (the class is only called).
func (c *optimClass) Attr(name string) (runtime.Value, error) { return nil, nil }

// AttrNames lists nothing.
func (c *optimClass) AttrNames() []string { return nil }

// betaPair reads Adam's betas, a pair of numbers.
func betaPair(v runtime.Value) ([2]float64, error) {
	var elems []runtime.Value
	switch x := v.(type) {
	case runtime.Tuple:
		elems = x
	case *runtime.List:
		elems = x.Elems
	}
	if len(elems) != 2 {
		return [2]float64{}, runtime.Errorf("TypeError", "betas must be a pair of floats, not %s", runtime.Repr(v))
	}
	var out [2]float64
	for i, e := range elems {
		f, ok := runtime.AsFloat(e)
		if !ok || isBool(e) {
			return out, runtime.Errorf("TypeError", "betas must be a pair of floats, not %s", runtime.Repr(v))
		}
		out[i] = f
	}
	return out, nil
}

// paramGroupsOf splits an optimizer's params argument into groups: one
// dict per group (params given as dicts), or a single group holding all
// tensors.
func paramGroupsOf(params runtime.Value) ([]*runtime.Dict, error) {
	if _, ok := params.(*TensorValue); ok {
		return nil, runtime.Errorf("TypeError", "params argument given to the optimizer should be an iterable of Tensors or dicts, but got tensor")
	}
	it, ok := params.(runtime.Iterable)
	if !ok {
		return nil, runtime.Errorf("TypeError", "params argument given to the optimizer should be an iterable of Tensors or dicts, but got %s", params.Type())
	}
	var elems []runtime.Value
	iter := it.Iterate()
	for v, ok := iter.Next(); ok; v, ok = iter.Next() {
		elems = append(elems, v)
	}
	if len(elems) == 0 {
		return nil, nil
	}
	if _, ok := elems[0].(*runtime.Dict); ok {
		out := make([]*runtime.Dict, len(elems))
		for i, e := range elems {
			d, ok := e.(*runtime.Dict)
			if !ok {
				return nil, runtime.Errorf("TypeError", "param groups must all be dicts, got %s", e.Type())
			}
			out[i] = d
		}
		return out, nil
	}
	d := runtime.NewDict(1)
	if err := d.SetKey(runtime.String("params"), runtime.NewList(elems)); err != nil {
		return nil, err
	}
	return []*runtime.Dict{d}, nil
}

// optimizer is an optim.SGD or optim.Adam instance.
type optimizer struct {
	kind     string
	defaults *runtime.Dict
	groups   *runtime.List // of *runtime.Dict, "params" first
	state    map[*T]*paramState
}

// paramState is one parameter's optimizer state, kept in float64 but
// holding values of the parameter's dtype (rounded as torch's tensors).
type paramState struct {
	step                               float64
	buf, expAvg, expAvgSq, maxExpAvgSq []float64
	squareAvg, gradAvg                 []float64 // RMSprop
}

// Type is the optimizer's class name, SGD or Adam.
func (o *optimizer) Type() string { return o.kind }

// Truth is true.
func (o *optimizer) Truth() bool { return true }

// String is torch's Optimizer.__repr__: each group's options, sorted by
// name.
func (o *optimizer) String() string {
	var b strings.Builder
	b.WriteString(o.kind + " (")
	for i, gv := range o.groups.Elems {
		g, ok := gv.(*runtime.Dict)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "\nParameter Group %d\n", i)
		var keys []string
		for _, k := range g.Keys() {
			if s, ok := k.(runtime.String); ok && s != "params" {
				keys = append(keys, string(s))
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, _, _ := g.Get(runtime.String(k))
			fmt.Fprintf(&b, "    %s: %s\n", k, v)
		}
	}
	b.WriteString(")")
	return b.String()
}

// addGroup validates a param group (a dict with "params": a tensor or a
// list of leaf tensors, none already in another group), fills the
// defaults in, and appends a copy.
func (o *optimizer) addGroup(g *runtime.Dict) error {
	pv, ok, err := g.Get(runtime.String("params"))
	if err != nil {
		return err
	}
	if !ok {
		return runtime.Errorf("KeyError", "param group must have a 'params' key")
	}
	var ps []runtime.Value
	switch x := pv.(type) {
	case *TensorValue:
		ps = []runtime.Value{x}
	case runtime.Iterable:
		iter := x.Iterate()
		for v, ok := iter.Next(); ok; v, ok = iter.Next() {
			ps = append(ps, v)
		}
	default:
		return runtime.Errorf("TypeError", "optimizer params must be tensors, got %s", pv.Type())
	}
	seen := map[*T]bool{}
	for _, gv := range o.groups.Elems {
		for _, p := range groupParams(gv.(*runtime.Dict)) {
			seen[p.t] = true
		}
	}
	for _, p := range ps {
		t, ok := p.(*TensorValue)
		if !ok {
			return runtime.Errorf("TypeError", "optimizer can only optimize Tensors, but one of the params is %s", p.Type())
		}
		if t.t.GradFn() != nil {
			return runtime.Errorf("ValueError", "can't optimize a non-leaf Tensor")
		}
		if seen[t.t] {
			return runtime.Errorf("ValueError", "some parameters appear in more than one parameter group")
		}
		seen[t.t] = true
	}
	ng := runtime.NewDict(8)
	if err := ng.SetKey(runtime.String("params"), runtime.NewList(ps)); err != nil {
		return err
	}
	for _, k := range o.defaults.Keys() {
		v, ok, err := g.Get(k)
		if err != nil {
			return err
		}
		if !ok {
			v, _, _ = o.defaults.Get(k)
		}
		if err := ng.SetKey(k, v); err != nil {
			return err
		}
	}
	for _, kv := range g.Items() { // options the defaults do not know are kept, as torch
		if _, ok, _ := ng.Get(kv[0]); !ok {
			if err := ng.SetKey(kv[0], kv[1]); err != nil {
				return err
			}
		}
	}
	o.groups.Elems = append(o.groups.Elems, ng)
	return nil
}

// groupParams returns the tensors of a group's "params" list.
func groupParams(g *runtime.Dict) []*TensorValue {
	pv, _, _ := g.Get(runtime.String("params"))
	l, ok := pv.(*runtime.List)
	if !ok {
		return nil
	}
	out := make([]*TensorValue, 0, len(l.Elems))
	for _, v := range l.Elems {
		if t, ok := v.(*TensorValue); ok {
			out = append(out, t)
		}
	}
	return out
}

// Attr returns step, zero_grad, add_param_group, param_groups, defaults.
func (o *optimizer) Attr(name string) (runtime.Value, error) {
	method := func(doc string, f builtinFn) *runtime.Builtin {
		b := runtime.NewBuiltin(o.kind+"."+name, f)
		b.Doc = doc
		return b
	}
	switch name {
	case "param_groups":
		return o.groups, nil
	case "defaults":
		return o.defaults, nil
	case "step":
		return method("step(closure=none): update every parameter that has a gradient, in place (no autograd); closure, when given, is called first with grad enabled and its result returned.", o.stepBuiltin), nil
	case "zero_grad":
		return method("zero_grad(set_to_none=false): fill every parameter's .grad with zeros in place, as PyTorch 1.13 (with set_to_none=true, set it to none: a parameter whose .grad is none is skipped by step()).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			toNone := false // PyTorch 1.13's default (2.x: true)
			if err := runtime.UnpackArgs("zero_grad", args, kwargs, "set_to_none?", &toNone); err != nil {
				return nil, err
			}
			for _, gv := range o.groups.Elems {
				for _, p := range groupParams(gv.(*runtime.Dict)) {
					if err := zeroGrad(p.t, toNone); err != nil {
						return nil, err
					}
				}
			}
			return runtime.None, nil
		}), nil
	case "state_dict":
		return method("state_dict(): {\"state\": {index: {name: value}}, \"param_groups\": [group with \"params\" as indices]} as torch's Optimizer.state_dict (parameters numbered in group order; state tensors are copies).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("state_dict", args, kwargs); err != nil {
				return nil, err
			}
			return o.stateDict(th)
		}), nil
	case "load_state_dict":
		return method("load_state_dict(state_dict): restore the state and the groups' options saved by state_dict() (the optimizer keeps its parameters; groups must match in number and size).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var sd runtime.Value
			if err := runtime.UnpackArgs("load_state_dict", args, kwargs, "state_dict", &sd); err != nil {
				return nil, err
			}
			return runtime.None, o.loadStateDict(sd)
		}), nil
	case "add_param_group":
		return method("add_param_group(param_group): add a dict with \"params\" (and options overriding the defaults).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var g runtime.Value
			if err := runtime.UnpackArgs("add_param_group", args, kwargs, "param_group", &g); err != nil {
				return nil, err
			}
			d, ok := g.(*runtime.Dict)
			if !ok {
				return nil, runtime.Errorf("TypeError", "param group must be a dict, not %s", g.Type())
			}
			return runtime.None, o.addGroup(d)
		}), nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (o *optimizer) AttrNames() []string {
	return []string{"add_param_group", "defaults", "load_state_dict", "param_groups", "state_dict", "step", "zero_grad"}
}

func (o *optimizer) stepBuiltin(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var closure runtime.Value = runtime.None
	if err := runtime.UnpackArgs("step", args, kwargs, "closure?", &closure); err != nil {
		return nil, err
	}
	var loss runtime.Value = runtime.None
	if closure != runtime.None {
		e := engineOf(th)
		prev := e.SetGradEnabled(true)
		v, err := th.Call(closure, nil, nil)
		e.SetGradEnabled(prev)
		if err != nil {
			return nil, err
		}
		loss = v
	}
	for i, gv := range o.groups.Elems {
		g, ok := gv.(*runtime.Dict)
		if !ok {
			return nil, runtime.Errorf("TypeError", "param_groups[%d] must be a dict, not %s", i, gv.Type())
		}
		h, err := o.hyper(g)
		if err != nil {
			return nil, err
		}
		for _, p := range groupParams(g) {
			if p.t.Grad() == nil {
				continue
			}
			if err := o.stepParam(p.t, h); err != nil {
				return nil, err
			}
		}
	}
	return loss, nil
}

// hyper holds one group's options, read at each step.
type hyper struct {
	lr, momentum, dampening, weightDecay, eps float64
	beta1, beta2, alpha                       float64
	lrDecay, initAcc                          float64
	nesterov, amsgrad, maximize, centered     bool
}

func (o *optimizer) hyper(g *runtime.Dict) (hyper, error) {
	var h hyper
	num := func(k string, dst *float64) error {
		v, ok, err := g.Get(runtime.String(k))
		if err != nil {
			return err
		}
		if !ok {
			return runtime.Errorf("KeyError", "param group has no '%s'", k)
		}
		f, ok := runtime.AsFloat(v)
		if !ok || isBool(v) {
			return runtime.Errorf("TypeError", "param group option '%s' must be a number, not %s", k, v.Type())
		}
		*dst = f
		return nil
	}
	flag := func(k string, dst *bool) error {
		v, ok, err := g.Get(runtime.String(k))
		if err != nil || !ok {
			return err
		}
		*dst = v.Truth()
		return nil
	}
	names := map[string]*float64{"lr": &h.lr, "weight_decay": &h.weightDecay}
	flags := map[string]*bool{"maximize": &h.maximize}
	switch o.kind {
	case "SGD":
		names["momentum"], names["dampening"] = &h.momentum, &h.dampening
		flags["nesterov"] = &h.nesterov
	case "RMSprop":
		names["momentum"], names["alpha"], names["eps"] = &h.momentum, &h.alpha, &h.eps
		flags["centered"] = &h.centered
	case "Adagrad":
		names["lr_decay"], names["eps"], names["initial_accumulator_value"] = &h.lrDecay, &h.eps, &h.initAcc
	default:
		names["eps"] = &h.eps
		flags["amsgrad"] = &h.amsgrad
		bv, ok, err := g.Get(runtime.String("betas"))
		if err != nil {
			return h, err
		}
		if !ok {
			return h, runtime.Errorf("KeyError", "param group has no 'betas'")
		}
		b, err := betaPair(bv)
		if err != nil {
			return h, err
		}
		h.beta1, h.beta2 = b[0], b[1]
	}
	for k, dst := range names {
		if err := num(k, dst); err != nil {
			return h, err
		}
	}
	for k, dst := range flags {
		if err := flag(k, dst); err != nil {
			return h, err
		}
	}
	return h, nil
}

// stepParam updates parameter p from p.grad with the options h.
func (o *optimizer) stepParam(p *T, h hyper) error {
	dt := p.DType()
	if dt != tensor.F32 && dt != tensor.F64 {
		return runtime.Errorf("TypeError", "optim.%s: parameters of dtype %s are not supported (f32 or f64)", o.kind, dt)
	}
	g := p.Grad()
	if !sameShape(g.Shape(), p.Shape()) {
		return runtime.Errorf("RuntimeError", "optim.%s: gradient of shape %s does not match its parameter's shape %s", o.kind, intList(g.Shape()), intList(p.Shape()))
	}
	// r rounds a result to the parameter's dtype; s converts a Python
	// float scalar to it (torch's tensor-scalar kernels take the scalar in
	// the tensor's dtype); fma is add(other, alpha=) (a fused multiply-add
	// in ATen's vectorized kernel).
	r := func(x float64) float64 { return x }
	if dt == tensor.F32 {
		r = func(x float64) float64 { return float64(float32(x)) }
	}
	s := r
	fma := func(self, alpha, other float64) float64 { return r(math.FMA(alpha, other, self)) }
	pv, gv := p.ToFloat64s(), g.ToFloat64s()
	st := o.state[p]
	if st == nil {
		st = &paramState{}
		o.state[p] = st
	}
	n := len(pv)
	switch o.kind {
	case "SGD":
		wd, mom, damp, lr := s(h.weightDecay), s(h.momentum), s(1-h.dampening), s(-h.lr)
		first := st.buf == nil // the first step sets buf = clone(d_p)
		if h.momentum != 0 && first {
			st.buf = make([]float64, n)
		}
		for i := range pv {
			d := gv[i]
			if h.maximize {
				d = -d
			}
			if h.weightDecay != 0 {
				d = fma(d, wd, pv[i])
			}
			if h.momentum != 0 {
				if first {
					st.buf[i] = d
				} else {
					st.buf[i] = fma(r(st.buf[i]*mom), damp, d)
				}
				if h.nesterov {
					d = fma(d, mom, st.buf[i])
				} else {
					d = st.buf[i]
				}
			}
			pv[i] = fma(pv[i], lr, d)
		}
	case "RMSprop":
		if st.squareAvg == nil {
			st.squareAvg = make([]float64, n)
		}
		if h.momentum > 0 && st.buf == nil {
			st.buf = make([]float64, n)
		}
		if h.centered && st.gradAvg == nil {
			st.gradAvg = make([]float64, n)
		}
		st.step++
		wd, al, c, mom, eps, neg := s(h.weightDecay), s(h.alpha), s(1-h.alpha), s(h.momentum), s(h.eps), s(-h.lr)
		for i := range pv {
			d := gv[i]
			if h.maximize {
				d = -d
			}
			if h.weightDecay != 0 {
				d = fma(d, wd, pv[i])
			}
			v := r(r(st.squareAvg[i]*al) + r(r(c*d)*d)) // mul_(alpha).addcmul_(g, g, value=1-alpha)
			st.squareAvg[i] = v
			var avg float64
			if h.centered {
				a := fma(r(st.gradAvg[i]*al), c, d)
				st.gradAvg[i] = a
				avg = r(math.Sqrt(r(v + r(-a*a))))
			} else {
				avg = r(math.Sqrt(v))
			}
			avg = r(avg + eps)
			if h.momentum > 0 {
				st.buf[i] = r(r(st.buf[i]*mom) + r(d/avg)) // mul_(momentum).addcdiv_(g, avg)
				pv[i] = fma(pv[i], neg, st.buf[i])
			} else {
				pv[i] = r(pv[i] + r(r(neg*d)/avg)) // addcdiv_(g, avg, value=-lr)
			}
		}
	case "Adagrad":
		if st.squareAvg == nil {
			st.squareAvg = make([]float64, n)
		}
		st.step++
		clr := h.lr / (1 + (st.step-1)*h.lrDecay)
		wd, eps, neg := s(h.weightDecay), s(h.eps), s(-clr)
		for i := range pv {
			d := gv[i]
			if h.maximize {
				d = -d
			}
			if h.weightDecay != 0 {
				d = fma(d, wd, pv[i])
			}
			v := r(st.squareAvg[i] + r(d*d)) // addcmul_(g, g, value=1)
			st.squareAvg[i] = v
			std := r(r(math.Sqrt(v)) + eps)
			pv[i] = r(pv[i] + r(r(neg*d)/std)) // addcdiv_(g, std, value=-clr)
		}
	case "Adam", "AdamW":
		if o.kind == "AdamW" {
			decay := s(1 - h.lr*h.weightDecay) // param.mul_(1 - lr * weight_decay)
			for i := range pv {
				pv[i] = r(pv[i] * decay)
			}
		}
		if st.expAvg == nil {
			st.expAvg, st.expAvgSq = make([]float64, n), make([]float64, n)
			if h.amsgrad {
				st.maxExpAvgSq = make([]float64, n)
			}
		}
		if h.amsgrad && st.maxExpAvgSq == nil {
			st.maxExpAvgSq = make([]float64, n)
		}
		st.step++
		bc1 := 1 - math.Pow(h.beta1, st.step)
		bc2 := 1 - math.Pow(h.beta2, st.step)
		stepSize := h.lr / bc1
		bc2Sqrt := math.Sqrt(bc2)
		wd, b1, c1, b2, c2 := s(h.weightDecay), s(h.beta1), s(1-h.beta1), s(h.beta2), s(1-h.beta2)
		sq, eps, neg := s(bc2Sqrt), s(h.eps), s(-stepSize)
		for i := range pv {
			d := gv[i]
			if h.maximize {
				d = -d
			}
			if h.weightDecay != 0 && o.kind == "Adam" {
				d = fma(d, wd, pv[i])
			}
			m := fma(r(st.expAvg[i]*b1), c1, d)
			v := r(st.expAvgSq[i] * b2)
			v = r(v + r(r(c2*d)*d)) // addcmul_: self + value * t1 * t2
			st.expAvg[i], st.expAvgSq[i] = m, v
			if h.amsgrad {
				if v > st.maxExpAvgSq[i] || math.IsNaN(v) {
					st.maxExpAvgSq[i] = v
				}
				v = st.maxExpAvgSq[i]
			}
			denom := r(r(r(math.Sqrt(v))/sq) + eps)
			pv[i] = r(pv[i] + r(r(neg*m)/denom)) // addcdiv_: self + value * t1 / t2
		}
	}
	nt, err := tensor.FromFloat64s(pv, p.Shape(), dt)
	if err != nil {
		return err
	}
	return p.CopyInplace(nt)
}
