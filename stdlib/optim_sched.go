package stdlib

import (
	"fmt"
	"math"

	"github.com/tsrlang/tsr/internal/xmath"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Optimizer state_dict()/load_state_dict(), optim.lr_scheduler (StepLR,
// MultiStepLR, ExponentialLR, CosineAnnealingLR, LambdaLR) and
// nn.utils.clip_grad_norm_ / clip_grad_value_, as PyTorch 1.13.

// ---- optimizer state_dict ----

// stateNames lists a parameter's state entries for the optimizer kind, in
// torch's order, with the buffer each reads (nil: the step).
func (o *optimizer) stateEntries(st *paramState, g hyper) []struct {
	name string
	buf  *[]float64
} {
	type e = struct {
		name string
		buf  *[]float64
	}
	switch o.kind {
	case "SGD":
		return []e{{"momentum_buffer", &st.buf}}
	case "Adagrad":
		return []e{{"step", nil}, {"sum", &st.squareAvg}}
	case "RMSprop":
		out := []e{{"step", nil}, {"square_avg", &st.squareAvg}}
		if g.momentum > 0 {
			out = append(out, e{"momentum_buffer", &st.buf})
		}
		if g.centered {
			out = append(out, e{"grad_avg", &st.gradAvg})
		}
		return out
	}
	out := []e{{"step", nil}, {"exp_avg", &st.expAvg}, {"exp_avg_sq", &st.expAvgSq}}
	if g.amsgrad {
		out = append(out, e{"max_exp_avg_sq", &st.maxExpAvgSq})
	}
	return out
}

// stateDict is torch's Optimizer.state_dict: parameters numbered in group
// order; "state" maps the number of each parameter that has state to its
// entries (Adam's step a 0-d f32 tensor, RMSprop's an int, buffers copies
// in the parameter's dtype and shape; SGD's momentum_buffer none without
// momentum), "param_groups" lists each group's options with "params" the
// numbers.
func (o *optimizer) stateDict(th *runtime.Thread) (runtime.Value, error) {
	state := runtime.NewDict(8)
	groups := make([]runtime.Value, 0, len(o.groups.Elems))
	idx := 0
	for gi, gv := range o.groups.Elems {
		g, ok := gv.(*runtime.Dict)
		if !ok {
			return nil, runtime.Errorf("TypeError", "param_groups[%d] must be a dict, not %s", gi, gv.Type())
		}
		h, err := o.hyper(g)
		if err != nil {
			return nil, err
		}
		packed := runtime.NewDict(8)
		var nums []runtime.Value
		for _, p := range groupParams(g) {
			nums = append(nums, runtime.MakeInt(int64(idx)))
			if st := o.state[p.t]; st != nil {
				entry := runtime.NewDict(4)
				for _, e := range o.stateEntries(st, h) {
					var v runtime.Value = runtime.None
					switch {
					case e.buf == nil && o.kind == "RMSprop":
						v = runtime.MakeInt(int64(st.step))
					case e.buf == nil:
						t, err := tensor.FromFloat64s([]float64{st.step}, nil, tensor.F32)
						if err != nil {
							return nil, err
						}
						v = NewTensorValue(th, t)
					case *e.buf != nil:
						t, err := tensor.FromFloat64s(*e.buf, p.t.Shape(), p.t.DType())
						if err != nil {
							return nil, err
						}
						v = NewTensorValue(th, t)
					}
					if err := entry.SetKey(runtime.String(e.name), v); err != nil {
						return nil, err
					}
				}
				if err := state.SetKey(runtime.MakeInt(int64(idx)), entry); err != nil {
					return nil, err
				}
			}
			idx++
		}
		for _, kv := range g.Items() {
			if k, ok := kv[0].(runtime.String); ok && k == "params" {
				continue
			}
			if err := packed.SetKey(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
		if err := packed.SetKey(runtime.String("params"), runtime.NewList(nums)); err != nil {
			return nil, err
		}
		groups = append(groups, packed)
	}
	out := runtime.NewDict(2)
	if err := out.SetKey(runtime.String("state"), state); err != nil {
		return nil, err
	}
	return out, out.SetKey(runtime.String("param_groups"), runtime.NewList(groups))
}

// loadStateDict is torch's Optimizer.load_state_dict: the saved groups'
// options replace the current ones (each group keeps its parameters) and
// the saved state is restored for the parameter of each number, converted
// to its dtype.
func (o *optimizer) loadStateDict(v runtime.Value) error {
	sd, ok := v.(*runtime.Dict)
	if !ok {
		return runtime.Errorf("TypeError", "load_state_dict(): state_dict must be a dict, not %s", v.Type())
	}
	get := func(d *runtime.Dict, k string) (runtime.Value, error) {
		x, ok, err := d.Get(runtime.String(k))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, runtime.Errorf("KeyError", "'%s'", k)
		}
		return x, nil
	}
	gv, err := get(sd, "param_groups")
	if err != nil {
		return err
	}
	sv, err := get(sd, "state")
	if err != nil {
		return err
	}
	saved, ok := gv.(*runtime.List)
	if !ok {
		return runtime.Errorf("TypeError", "state_dict['param_groups'] must be a list, not %s", gv.Type())
	}
	savedState, ok := sv.(*runtime.Dict)
	if !ok {
		return runtime.Errorf("TypeError", "state_dict['state'] must be a dict, not %s", sv.Type())
	}
	if len(saved.Elems) != len(o.groups.Elems) {
		return runtime.Errorf("ValueError", "loaded state dict has a different number of parameter groups")
	}
	byNum := map[int64]*TensorValue{}
	newGroups := make([]runtime.Value, len(saved.Elems))
	for i, sgv := range saved.Elems {
		sg, ok := sgv.(*runtime.Dict)
		if !ok {
			return runtime.Errorf("TypeError", "state_dict['param_groups'][%d] must be a dict, not %s", i, sgv.Type())
		}
		pv, err := get(sg, "params")
		if err != nil {
			return err
		}
		nums, ok := runtime.AsInts(pv)
		cur := groupParams(o.groups.Elems[i].(*runtime.Dict))
		if !ok || len(nums) != len(cur) {
			return runtime.Errorf("ValueError", "loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
		}
		ng := runtime.NewDict(8)
		for _, kv := range sg.Items() {
			if k, ok := kv[0].(runtime.String); ok && k == "params" {
				continue
			}
			if err := ng.SetKey(kv[0], kv[1]); err != nil {
				return err
			}
		}
		ps := make([]runtime.Value, len(cur))
		for j, p := range cur {
			ps[j] = p
			byNum[int64(nums[j])] = p
		}
		if err := ng.SetKey(runtime.String("params"), runtime.NewList(ps)); err != nil {
			return err
		}
		newGroups[i] = ng
	}
	newState := map[*T]*paramState{}
	for _, kv := range savedState.Items() {
		n, ok := kv[0].(runtime.Int)
		if !ok {
			continue
		}
		p := byNum[int64(n)]
		if p == nil {
			continue
		}
		entry, ok := kv[1].(*runtime.Dict)
		if !ok {
			return runtime.Errorf("TypeError", "state_dict['state'][%d] must be a dict, not %s", n, kv[1].Type())
		}
		st := &paramState{}
		for _, e := range entry.Items() {
			name, _ := e[0].(runtime.String)
			var dst *[]float64
			switch name {
			case "step":
				f, ok := runtime.AsFloat(e[1])
				if t, isT := e[1].(*TensorValue); isT && t.t.Numel() == 1 {
					f, ok = t.t.FlatFloat64(0), true
				}
				if !ok {
					return runtime.Errorf("TypeError", "state_dict['state'][%d]['step'] must be a number or a one-element tensor, not %s", n, e[1].Type())
				}
				st.step = f
				continue
			case "momentum_buffer":
				dst = &st.buf
			case "exp_avg":
				dst = &st.expAvg
			case "exp_avg_sq":
				dst = &st.expAvgSq
			case "max_exp_avg_sq":
				dst = &st.maxExpAvgSq
			case "square_avg", "sum":
				dst = &st.squareAvg
			case "grad_avg":
				dst = &st.gradAvg
			default:
				continue
			}
			if e[1] == runtime.None {
				continue
			}
			t, ok := e[1].(*TensorValue)
			if !ok {
				return runtime.Errorf("TypeError", "state_dict['state'][%d]['%s'] must be a tensor, not %s", n, name, e[1].Type())
			}
			if !sameShape(t.t.Shape(), p.t.Shape()) {
				return runtime.Errorf("RuntimeError", "loaded state_dict['state'][%d]['%s'] has shape %s, but its parameter has shape %s", n, name, intList(t.t.Shape()), intList(p.t.Shape()))
			}
			vals := t.t.ToFloat64s()
			for k := range vals {
				vals[k] = tensor.RoundToDType(vals[k], p.t.DType())
			}
			*dst = vals
		}
		newState[p.t] = st
	}
	o.groups.Elems = newGroups
	o.state = newState
	return nil
}

// ---- lr_scheduler ----

// lrSchedulerModule is optim.lr_scheduler.
func lrSchedulerModule() *runtime.Module {
	m := map[string]runtime.Value{}
	for _, c := range []struct{ name, doc string }{
		{"StepLR", "StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1): multiply each group's lr by gamma every step_size calls of step()."},
		{"MultiStepLR", "MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1): multiply each group's lr by gamma (per repetition) when the epoch reaches a milestone."},
		{"ExponentialLR", "ExponentialLR(optimizer, gamma, last_epoch=-1): multiply each group's lr by gamma at every step()."},
		{"CosineAnnealingLR", "CosineAnnealingLR(optimizer, T_max, eta_min=0, last_epoch=-1): lr follows eta_min + (base_lr - eta_min)(1 + cos(pi t/T_max))/2 (SGDR, Loshchilov & Hutter 2017), computed recursively from the current lr as torch's chainable form."},
		{"LambdaLR", "LambdaLR(optimizer, lr_lambda, last_epoch=-1): lr = base_lr * lr_lambda(epoch); lr_lambda a function or a list of one per group."},
		{"LinearLR", "LinearLR(optimizer, start_factor=1/3, end_factor=1.0, total_iters=5, last_epoch=-1): the lr factor goes linearly from start_factor to end_factor over total_iters steps (warm-up), then stays."},
		{"ConstantLR", "ConstantLR(optimizer, factor=1/3, total_iters=5, last_epoch=-1): lr * factor until total_iters steps, then the lr."},
		{"OneCycleLR", "OneCycleLR(optimizer, max_lr, total_steps=none, epochs=none, steps_per_epoch=none, pct_start=0.3, anneal_strategy=\"cos\", cycle_momentum=true, base_momentum=0.85, max_momentum=0.95, div_factor=25.0, final_div_factor=1e4, three_phase=false, last_epoch=-1): the 1cycle policy (Smith & Topin 2017) as torch 1.13's: lr anneals from max_lr/div_factor up to max_lr over pct_start of total_steps, then down to initial_lr/final_div_factor (cosine or linear); with cycle_momentum, SGD's momentum (Adam's beta1) anneals inversely between max_momentum and base_momentum. Stepping past total_steps is a ValueError."},
		{"CosineAnnealingWarmRestarts", "CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1): cosine annealing from base_lr to eta_min over T_i steps, restarting with T_i *= T_mult (SGDR, Loshchilov & Hutter 2017)."},
	} {
		m[c.name] = &schedClass{name: c.name, doc: c.doc}
	}
	m["ReduceLROnPlateau"] = &plateauClass{}
	return &runtime.Module{ModName: "optim.lr_scheduler", Members: m, Doc: "Learning-rate schedulers (torch.optim.lr_scheduler, PyTorch 1.13): constructing one records each group's initial_lr and takes the first step; step() advances the epoch and writes the new lr into the optimizer's param_groups; get_last_lr() returns them."}
}

// schedClass is an lr scheduler constructor.
type schedClass struct{ name, doc string }

// String prints the class as <class optim.lr_scheduler.StepLR>.
func (c *schedClass) String() string { return "<class optim.lr_scheduler." + c.name + ">" }

// Type is "class".
func (c *schedClass) Type() string { return "class" }

// Truth is true.
func (c *schedClass) Truth() bool { return true }

// Name is the qualified name.
func (c *schedClass) Name() string { return "optim.lr_scheduler." + c.name }

// scheduler is an lr scheduler instance.
type scheduler struct {
	kind       string
	opt        *optimizer
	baseLRs    []float64
	lastLR     []float64
	lastEpoch  int
	stepCount  int
	stepSize   int
	gamma      float64
	milestones map[int]int
	tMax       int
	etaMin     float64
	lambdas    []runtime.Value
	th         *runtime.Thread
	// LinearLR, ConstantLR
	startFactor, endFactor float64
	totalIters             int
	// CosineAnnealingWarmRestarts
	t0, tMult, tI, tCur int
	// OneCycleLR
	oneCycle *oneCycle
}

// oneCycle is OneCycleLR's schedule: its phases and options (the lrs and
// momenta are read from the param groups' keys at each step, as torch's).
type oneCycle struct {
	totalSteps int
	phases     []cyclePhase
	linear     bool // anneal_strategy="linear" (else "cos")
	momentum   bool // cycle_momentum
	useBeta1   bool // the optimizer has betas (Adam): cycle beta1
}

// cyclePhase is one phase of OneCycleLR: it ends at step end, annealing
// the group keys startLR to endLR and startMom to endMom.
type cyclePhase struct {
	end                              float64
	startLR, endLR, startMom, endMom string
}

// anneal is torch's _annealing_cos / _annealing_linear.
func (c *oneCycle) anneal(start, end, pct float64) float64 {
	if c.linear {
		return (end-start)*pct + start
	}
	return end + (start-end)/2.0*(xmath.Cos(math.Pi*pct)+1)
}

// perGroup is torch's OneCycleLR._format_param: a number for every group,
// or a list or tuple of one per group.
func perGroup(name string, v runtime.Value, n int) ([]float64, error) {
	var elems []runtime.Value
	switch l := v.(type) {
	case *runtime.List:
		elems = l.Elems
	case runtime.Tuple:
		elems = l
	default:
		f, ok := runtime.AsFloat(v)
		if !ok || isBool(v) {
			return nil, runtime.Errorf("TypeError", "OneCycleLR: %s must be a number or a list, not %s", name, v.Type())
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = f
		}
		return out, nil
	}
	if len(elems) != n {
		return nil, runtime.Errorf("ValueError", "expected %d values for %s, got %d", n, name, len(elems))
	}
	out := make([]float64, n)
	for i, e := range elems {
		f, ok := runtime.AsFloat(e)
		if !ok || isBool(e) {
			return nil, runtime.Errorf("TypeError", "OneCycleLR: %s must hold numbers, not %s", name, e.Type())
		}
		out[i] = f
	}
	return out, nil
}

// newOneCycle validates OneCycleLR's arguments as torch 1.13's __init__
// does, in its order, and (when last_epoch is -1) writes initial_lr,
// max_lr, min_lr and, with cycle_momentum, max_momentum, base_momentum and
// momentum (or beta1) into each param group.
func newOneCycle(o *optimizer, last int, maxLR, totalSteps, epochs, spe, pct runtime.Value, anneal string,
	cycleMom bool, baseMom, maxMom runtime.Value, div, finalDiv float64, three bool) (*oneCycle, error) {
	c := &oneCycle{momentum: cycleMom}
	posInt := func(name string, v runtime.Value) (int, error) {
		n, ok := v.(runtime.Int)
		if !ok || isBool(v) || n <= 0 {
			return 0, runtime.Errorf("ValueError", "Expected positive integer %s, but got %s", name, runtime.Str(v))
		}
		return int(n), nil
	}
	var err error
	switch {
	case totalSteps == runtime.None && epochs == runtime.None && spe == runtime.None:
		return nil, runtime.Errorf("ValueError", "You must define either total_steps OR (epochs AND steps_per_epoch)")
	case totalSteps != runtime.None:
		if c.totalSteps, err = posInt("total_steps", totalSteps); err != nil {
			return nil, err
		}
	default:
		e, err := posInt("epochs", epochs)
		if err != nil {
			return nil, err
		}
		n, err := posInt("steps_per_epoch", spe)
		if err != nil {
			return nil, err
		}
		c.totalSteps = e * n
	}
	p, isFloat := pct.(runtime.Float)
	if !isFloat || p < 0 || p > 1 {
		return nil, runtime.Errorf("ValueError", "Expected float between 0 and 1 pct_start, but got %s", runtime.Str(pct))
	}
	T := float64(c.totalSteps)
	if three {
		c.phases = []cyclePhase{
			{float64(p)*T - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"},
			{2*float64(p)*T - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"},
			{T - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"},
		}
	} else {
		c.phases = []cyclePhase{
			{float64(p)*T - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"},
			{T - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"},
		}
	}
	switch anneal {
	case "cos":
	case "linear":
		c.linear = true
	default:
		return nil, runtime.Errorf("ValueError", "anneal_strategy must by one of 'cos' or 'linear', instead got %s", anneal)
	}
	groups := o.groups.Elems
	set := func(g runtime.Value, k string, v runtime.Value) error {
		return g.(*runtime.Dict).SetKey(runtime.String(k), v)
	}
	maxLRs, err := perGroup("max_lr", maxLR, len(groups))
	if err != nil {
		return nil, err
	}
	if last == -1 {
		for i, g := range groups {
			init := maxLRs[i] / div
			for _, kv := range []struct {
				k string
				v float64
			}{{"initial_lr", init}, {"max_lr", maxLRs[i]}, {"min_lr", init / finalDiv}} {
				if err := set(g, kv.k, runtime.Float(kv.v)); err != nil {
					return nil, err
				}
			}
		}
	}
	if cycleMom {
		if len(groups) == 0 {
			return nil, runtime.Errorf("ValueError", "optimizer must support momentum with `cycle_momentum` option enabled")
		}
		g0 := groups[0].(*runtime.Dict)
		_, hasMom, _ := g0.Get(runtime.String("momentum"))
		_, hasBetas, _ := g0.Get(runtime.String("betas"))
		if !hasMom && !hasBetas {
			return nil, runtime.Errorf("ValueError", "optimizer must support momentum with `cycle_momentum` option enabled")
		}
		c.useBeta1 = hasBetas
		maxMoms, err := perGroup("max_momentum", maxMom, len(groups))
		if err != nil {
			return nil, err
		}
		baseMoms, err := perGroup("base_momentum", baseMom, len(groups))
		if err != nil {
			return nil, err
		}
		if last == -1 {
			for i, g := range groups {
				if err := c.setMomentum(g.(*runtime.Dict), maxMoms[i]); err != nil {
					return nil, err
				}
				if err := set(g, "max_momentum", runtime.Float(maxMoms[i])); err != nil {
					return nil, err
				}
				if err := set(g, "base_momentum", runtime.Float(baseMoms[i])); err != nil {
					return nil, err
				}
			}
		}
	}
	return c, nil
}

// setMomentum writes m as the group's momentum, or as the first of its
// betas (torch: group['betas'] = (m, *group['betas'][1:])).
func (c *oneCycle) setMomentum(g *runtime.Dict, m float64) error {
	if !c.useBeta1 {
		return g.SetKey(runtime.String("momentum"), runtime.Float(m))
	}
	bv, _, err := g.Get(runtime.String("betas"))
	if err != nil {
		return err
	}
	rest, err := runtime.Elements(bv)
	if err != nil || len(rest) == 0 {
		return runtime.Errorf("TypeError", "OneCycleLR: the group's betas must be a non-empty tuple, not %s", bv.Type())
	}
	nb := append(runtime.Tuple{runtime.Float(m)}, rest[1:]...)
	return g.SetKey(runtime.String("betas"), nb)
}

// groupFloat reads a number from a param group (OneCycleLR's keys).
func groupFloat(g *runtime.Dict, key string) (float64, error) {
	v, ok, err := g.Get(runtime.String(key))
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, runtime.Errorf("KeyError", "'%s'", key)
	}
	f, isNum := runtime.AsFloat(v)
	if !isNum {
		return 0, runtime.Errorf("TypeError", "param group %s must be a number, not %s", key, v.Type())
	}
	return f, nil
}

// lr is torch's OneCycleLR.get_lr for one group at step e; it also sets
// the group's momentum (or beta1) when cycling momentum.
func (c *oneCycle) lr(g *runtime.Dict, e int) (float64, error) {
	if e > c.totalSteps {
		return 0, runtime.Errorf("ValueError", "Tried to step %d times. The specified number of total steps is %d", e+1, c.totalSteps)
	}
	start := 0.0
	for i, ph := range c.phases {
		if float64(e) <= ph.end || i == len(c.phases)-1 {
			pct := (float64(e) - start) / (ph.end - start)
			a, err := groupFloat(g, ph.startLR)
			if err != nil {
				return 0, err
			}
			b, err := groupFloat(g, ph.endLR)
			if err != nil {
				return 0, err
			}
			lr := c.anneal(a, b, pct)
			if c.momentum {
				ma, err := groupFloat(g, ph.startMom)
				if err != nil {
					return 0, err
				}
				mb, err := groupFloat(g, ph.endMom)
				if err != nil {
					return 0, err
				}
				if err := c.setMomentum(g, c.anneal(ma, mb, pct)); err != nil {
					return 0, err
				}
			}
			return lr, nil
		}
		start = ph.end
	}
	return 0, nil // unreachable: the last phase always matches
}

// Call builds the scheduler and takes its first step, as torch's
// _LRScheduler.__init__.
func (c *schedClass) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var ov runtime.Value
	s := &scheduler{kind: c.name, gamma: 0.1, th: th}
	last := -1
	var extra []any
	var ms, lam runtime.Value
	var oc struct {
		maxLR, totalSteps, epochs, spe, pct, baseMom, maxMom runtime.Value
		anneal                                               string
		cycleMom, three                                      bool
		div, finalDiv                                        float64
	}
	switch c.name {
	case "StepLR":
		extra = []any{"step_size", &s.stepSize, "gamma?", &s.gamma}
	case "MultiStepLR":
		extra = []any{"milestones", &ms, "gamma?", &s.gamma}
	case "ExponentialLR":
		extra = []any{"gamma", &s.gamma}
	case "CosineAnnealingLR":
		extra = []any{"T_max", &s.tMax, "eta_min?", &s.etaMin}
	case "LambdaLR":
		extra = []any{"lr_lambda", &lam}
	case "LinearLR":
		s.startFactor, s.endFactor, s.totalIters = 1.0/3, 1.0, 5
		extra = []any{"start_factor?", &s.startFactor, "end_factor?", &s.endFactor, "total_iters?", &s.totalIters}
	case "ConstantLR":
		s.startFactor, s.totalIters = 1.0/3, 5
		extra = []any{"factor?", &s.startFactor, "total_iters?", &s.totalIters}
	case "CosineAnnealingWarmRestarts":
		s.tMult = 1
		extra = []any{"T_0", &s.t0, "T_mult?", &s.tMult, "eta_min?", &s.etaMin}
	case "OneCycleLR":
		oc.totalSteps, oc.epochs, oc.spe = runtime.None, runtime.None, runtime.None
		oc.pct, oc.anneal, oc.cycleMom = runtime.Float(0.3), "cos", true
		oc.baseMom, oc.maxMom, oc.div, oc.finalDiv = runtime.Float(0.85), runtime.Float(0.95), 25, 1e4
		extra = []any{"max_lr", &oc.maxLR, "total_steps?", &oc.totalSteps, "epochs?", &oc.epochs, "steps_per_epoch?", &oc.spe,
			"pct_start?", &oc.pct, "anneal_strategy?", &oc.anneal, "cycle_momentum?", &oc.cycleMom,
			"base_momentum?", &oc.baseMom, "max_momentum?", &oc.maxMom, "div_factor?", &oc.div,
			"final_div_factor?", &oc.finalDiv, "three_phase?", &oc.three}
	}
	names := append(append([]any{"optimizer", &ov}, extra...), "last_epoch?", &last)
	if err := runtime.UnpackArgs(c.name, args, kwargs, names...); err != nil {
		return nil, err
	}
	o, ok := ov.(*optimizer)
	if !ok {
		return nil, runtime.Errorf("TypeError", "%s is not an Optimizer", ov.Type())
	}
	s.opt = o
	if c.name == "MultiStepLR" {
		xs, ok := runtime.AsInts(ms)
		if !ok || isBool(ms) {
			return nil, runtime.Errorf("TypeError", "MultiStepLR: milestones must be a list of ints, not %s", ms.Type())
		}
		s.milestones = map[int]int{}
		for _, x := range xs {
			s.milestones[x]++
		}
	}
	switch {
	case c.name == "LinearLR" && (s.startFactor > 1 || s.startFactor < 0):
		return nil, runtime.Errorf("ValueError", "Starting multiplicative factor expected to be between 0 and 1.")
	case c.name == "LinearLR" && (s.endFactor > 1 || s.endFactor < 0):
		return nil, runtime.Errorf("ValueError", "Ending multiplicative factor expected to be between 0 and 1.")
	case c.name == "ConstantLR" && (s.startFactor > 1 || s.startFactor < 0):
		return nil, runtime.Errorf("ValueError", "Constant multiplicative factor expected to be between 0 and 1.")
	case c.name == "CosineAnnealingWarmRestarts" && s.t0 <= 0:
		return nil, runtime.Errorf("ValueError", "Expected positive integer T_0, but got %d", s.t0)
	case c.name == "CosineAnnealingWarmRestarts" && s.tMult < 1:
		return nil, runtime.Errorf("ValueError", "Expected integer T_mult >= 1, but got %d", s.tMult)
	}
	if c.name == "StepLR" && s.stepSize == 0 {
		return nil, runtime.Errorf("ZeroDivisionError", "integer division or modulo by zero")
	}
	if c.name == "CosineAnnealingLR" && s.tMax == 0 {
		return nil, runtime.Errorf("ZeroDivisionError", "float division by zero")
	}
	if c.name == "OneCycleLR" {
		var err error
		s.oneCycle, err = newOneCycle(o, last, oc.maxLR, oc.totalSteps, oc.epochs, oc.spe, oc.pct, oc.anneal,
			oc.cycleMom, oc.baseMom, oc.maxMom, oc.div, oc.finalDiv, oc.three)
		if err != nil {
			return nil, err
		}
	}
	groups := o.groups.Elems
	if c.name == "LambdaLR" {
		switch l := lam.(type) {
		case *runtime.List, runtime.Tuple:
			var elems []runtime.Value
			if ll, ok := l.(*runtime.List); ok {
				elems = ll.Elems
			} else {
				elems = l.(runtime.Tuple)
			}
			if len(elems) != len(groups) {
				return nil, runtime.Errorf("ValueError", "Expected %d lr_lambdas, but got %d", len(groups), len(elems))
			}
			s.lambdas = elems
		default:
			for range groups {
				s.lambdas = append(s.lambdas, lam)
			}
		}
	}
	for i, gv := range groups {
		g := gv.(*runtime.Dict)
		init, ok, err := g.Get(runtime.String("initial_lr"))
		if err != nil {
			return nil, err
		}
		if last == -1 {
			if !ok {
				if init, _, err = g.Get(runtime.String("lr")); err != nil {
					return nil, err
				}
				if err := g.SetKey(runtime.String("initial_lr"), init); err != nil {
					return nil, err
				}
			}
		} else if !ok {
			return nil, runtime.Errorf("KeyError", "\"param 'initial_lr' is not specified in param_groups[%d] when resuming an optimizer\"", i)
		}
		f, ok := runtime.AsFloat(init)
		if !ok {
			return nil, runtime.Errorf("TypeError", "initial_lr must be a number, not %s", init.Type())
		}
		s.baseLRs = append(s.baseLRs, f)
	}
	s.lastEpoch = last
	if err := s.step(); err != nil {
		return nil, err
	}
	return s, nil
}

// Attr exposes nothing (the class is only called).
func (c *schedClass) Attr(name string) (runtime.Value, error) { return nil, nil }

// AttrNames lists nothing.
func (c *schedClass) AttrNames() []string { return nil }

// groupLR reads group i's current lr.
func (s *scheduler) groupLR(i int) (float64, error) {
	v, _, err := s.opt.groups.Elems[i].(*runtime.Dict).Get(runtime.String("lr"))
	if err != nil {
		return 0, err
	}
	f, ok := runtime.AsFloat(v)
	if !ok {
		return 0, runtime.Errorf("TypeError", "param group lr must be a number, not %s", v.Type())
	}
	return f, nil
}

// pyMod is Python's % on ints (the result has the divisor's sign).
func pyMod(a, b int) int {
	m := a % b
	if m != 0 && (m < 0) != (b < 0) {
		m += b
	}
	return m
}

// step advances the epoch and sets each group's lr (torch's get_lr, the
// chainable form: from the group's current lr).
func (s *scheduler) step() error {
	s.stepCount++
	if s.kind == "CosineAnnealingWarmRestarts" {
		// its own step(): the first call (last_epoch -1) starts the cycle
		if s.lastEpoch < 0 {
			s.tI, s.tCur = s.t0, 0
		} else {
			s.tCur++
			if s.tCur >= s.tI {
				s.tCur -= s.tI
				s.tI *= s.tMult
			}
		}
	}
	s.lastEpoch++
	e := s.lastEpoch
	groups := s.opt.groups.Elems
	if len(groups) != len(s.baseLRs) {
		return runtime.Errorf("RuntimeError", "%s: the optimizer's param_groups changed size (%d, was %d)", s.kind, len(groups), len(s.baseLRs))
	}
	lrs := make([]float64, len(groups))
	for i := range groups {
		lr, err := s.groupLR(i)
		if err != nil {
			return err
		}
		base := s.baseLRs[i]
		switch s.kind {
		case "StepLR":
			if e != 0 && pyMod(e, s.stepSize) == 0 {
				lr *= s.gamma
			}
		case "MultiStepLR":
			if k, ok := s.milestones[e]; ok {
				lr *= xmath.Pow(s.gamma, float64(k))
			}
		case "ExponentialLR":
			if e != 0 {
				lr *= s.gamma
			}
		case "CosineAnnealingLR":
			T := float64(s.tMax)
			switch {
			case e == 0:
			case s.stepCount == 1 && e > 0:
				lr = s.etaMin + (base-s.etaMin)*(1+xmath.Cos(float64(e)*math.Pi/T))/2
			case pyMod(e-1-s.tMax, 2*s.tMax) == 0:
				lr = lr + (base-s.etaMin)*(1-xmath.Cos(math.Pi/T))/2
			default:
				lr = (1+xmath.Cos(math.Pi*float64(e)/T))/(1+xmath.Cos(math.Pi*float64(e-1)/T))*(lr-s.etaMin) + s.etaMin
			}
		case "LinearLR":
			switch {
			case e == 0:
				lr *= s.startFactor
			case e <= s.totalIters:
				den := float64(s.totalIters)*s.startFactor + float64(e-1)*(s.endFactor-s.startFactor)
				if den == 0 {
					return runtime.Errorf("ZeroDivisionError", "float division by zero")
				}
				lr *= 1 + (s.endFactor-s.startFactor)/den
			}
		case "ConstantLR":
			switch {
			case e == 0:
				lr *= s.startFactor
			case e == s.totalIters:
				lr *= 1 / s.startFactor
			}
		case "CosineAnnealingWarmRestarts":
			lr = s.etaMin + (base-s.etaMin)*(1+xmath.Cos(math.Pi*float64(s.tCur)/float64(s.tI)))/2
		case "OneCycleLR":
			if lr, err = s.oneCycle.lr(groups[i].(*runtime.Dict), e); err != nil {
				return err // torch raises with last_epoch already advanced
			}
		case "LambdaLR":
			v, err := s.th.Call(s.lambdas[i], []runtime.Value{runtime.MakeInt(int64(e))}, nil)
			if err != nil {
				return err
			}
			f, ok := runtime.AsFloat(v)
			if t, isT := v.(*TensorValue); isT && t.t.Numel() == 1 {
				f, ok = t.t.FlatFloat64(0), true
			}
			if !ok {
				return runtime.Errorf("TypeError", "lr_lambda must return a number, not %s", v.Type())
			}
			lr = base * f
		}
		lrs[i] = lr
	}
	for i, gv := range groups {
		if err := gv.(*runtime.Dict).SetKey(runtime.String("lr"), runtime.Float(lrs[i])); err != nil {
			return err
		}
	}
	s.lastLR = lrs
	return nil
}

// Type is the scheduler's class name.
func (s *scheduler) Type() string { return s.kind }

// Truth is true.
func (s *scheduler) Truth() bool { return true }

// String names the scheduler and its epoch.
func (s *scheduler) String() string {
	return fmt.Sprintf("<optim.lr_scheduler.%s last_epoch=%d>", s.kind, s.lastEpoch)
}

// Attr returns step, get_last_lr, last_epoch, base_lrs, optimizer.
func (s *scheduler) Attr(name string) (runtime.Value, error) {
	floats := func(xs []float64) *runtime.List {
		out := make([]runtime.Value, len(xs))
		for i, x := range xs {
			out[i] = runtime.Float(x)
		}
		return runtime.NewList(out)
	}
	switch name {
	case "step":
		b := runtime.NewBuiltin(s.kind+".step", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("step", args, kwargs); err != nil {
				return nil, err
			}
			s.th = th
			return runtime.None, s.step()
		})
		b.Doc = "step(): advance one epoch and write the new lr into each param group (call after optimizer.step())."
		return b, nil
	case "get_last_lr":
		b := runtime.NewBuiltin(s.kind+".get_last_lr", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("get_last_lr", args, kwargs); err != nil {
				return nil, err
			}
			return floats(s.lastLR), nil
		})
		b.Doc = "get_last_lr(): the lr of each group set by the last step (a list of floats)."
		return b, nil
	case "last_epoch":
		return runtime.MakeInt(int64(s.lastEpoch)), nil
	case "base_lrs":
		return floats(s.baseLRs), nil
	case "optimizer":
		return s.opt, nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (s *scheduler) AttrNames() []string {
	return []string{"base_lrs", "get_last_lr", "last_epoch", "optimizer", "step"}
}

// ---- ReduceLROnPlateau ----

// plateauClass is optim.lr_scheduler.ReduceLROnPlateau.
type plateauClass struct{}

// String prints the class.
func (c *plateauClass) String() string { return "<class optim.lr_scheduler.ReduceLROnPlateau>" }

// Type is "class".
func (c *plateauClass) Type() string { return "class" }

// Truth is true.
func (c *plateauClass) Truth() bool { return true }

// Name is the qualified name.
func (c *plateauClass) Name() string { return "optim.lr_scheduler.ReduceLROnPlateau" }

// Attr exposes nothing.
func (c *plateauClass) Attr(name string) (runtime.Value, error) { return nil, nil }

// AttrNames lists nothing.
func (c *plateauClass) AttrNames() []string { return nil }

// plateau is a ReduceLROnPlateau instance (torch 1.13's logic: no
// initial_lr, last_epoch starts at 0).
type plateau struct {
	opt                                *optimizer
	maximize, absolute                 bool
	factor, threshold, eps             float64
	patience, cooldown                 int
	minLRs                             []float64
	best                               float64
	badEpochs, cooldownCounter, lastEp int
	lastLR                             []float64
}

// Call builds the scheduler: ReduceLROnPlateau(optimizer, mode="min",
// factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
// cooldown=0, min_lr=0, eps=1e-8).
func (c *plateauClass) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var ov runtime.Value
	mode, tmode := "min", "rel"
	p := &plateau{factor: 0.1, patience: 10, threshold: 1e-4, eps: 1e-8}
	var minLR runtime.Value = runtime.MakeInt(0)
	verbose := false
	if err := runtime.UnpackArgs("ReduceLROnPlateau", args, kwargs, "optimizer", &ov, "mode?", &mode, "factor?", &p.factor,
		"patience?", &p.patience, "threshold?", &p.threshold, "threshold_mode?", &tmode, "cooldown?", &p.cooldown,
		"min_lr?", &minLR, "eps?", &p.eps, "verbose?", &verbose); err != nil {
		return nil, err
	}
	o, ok := ov.(*optimizer)
	if !ok {
		return nil, runtime.Errorf("TypeError", "%s is not an Optimizer", ov.Type())
	}
	p.opt = o
	if p.factor >= 1 {
		return nil, runtime.Errorf("ValueError", "Factor should be < 1.0.")
	}
	n := len(o.groups.Elems)
	if xs, isSeq := minLR.(*runtime.List); isSeq {
		if len(xs.Elems) != n {
			return nil, runtime.Errorf("ValueError", "expected %d min_lrs, got %d", n, len(xs.Elems))
		}
		for _, x := range xs.Elems {
			f, ok := runtime.AsFloat(x)
			if !ok {
				return nil, runtime.Errorf("TypeError", "min_lr must be numbers, not %s", x.Type())
			}
			p.minLRs = append(p.minLRs, f)
		}
	} else {
		f, ok := runtime.AsFloat(minLR)
		if !ok || isBool(minLR) {
			return nil, runtime.Errorf("TypeError", "min_lr must be a number or a list, not %s", minLR.Type())
		}
		for range n {
			p.minLRs = append(p.minLRs, f)
		}
	}
	switch mode {
	case "min":
		p.best = math.Inf(1)
	case "max":
		p.maximize, p.best = true, math.Inf(-1)
	default:
		return nil, runtime.Errorf("ValueError", "mode %s is unknown!", mode)
	}
	switch tmode {
	case "rel":
	case "abs":
		p.absolute = true
	default:
		return nil, runtime.Errorf("ValueError", "threshold mode %s is unknown!", tmode)
	}
	return p, nil
}

// better is torch's is_better.
func (p *plateau) better(a float64) bool {
	switch {
	case !p.maximize && !p.absolute:
		return a < p.best*(1-p.threshold)
	case !p.maximize:
		return a < p.best-p.threshold
	case !p.absolute:
		return a > p.best*(p.threshold+1)
	}
	return a > p.best+p.threshold
}

// step is ReduceLROnPlateau.step(metrics).
func (p *plateau) step(metric float64) error {
	p.lastEp++
	if p.better(metric) {
		p.best, p.badEpochs = metric, 0
	} else {
		p.badEpochs++
	}
	if p.cooldownCounter > 0 {
		p.cooldownCounter--
		p.badEpochs = 0
	}
	groups := p.opt.groups.Elems
	if p.badEpochs > p.patience {
		for i, gv := range groups {
			g := gv.(*runtime.Dict)
			v, _, err := g.Get(runtime.String("lr"))
			if err != nil {
				return err
			}
			old, ok := runtime.AsFloat(v)
			if !ok {
				return runtime.Errorf("TypeError", "param group lr must be a number, not %s", v.Type())
			}
			minLR := 0.0
			if i < len(p.minLRs) {
				minLR = p.minLRs[i]
			}
			nl := math.Max(old*p.factor, minLR)
			if old-nl > p.eps {
				if err := g.SetKey(runtime.String("lr"), runtime.Float(nl)); err != nil {
					return err
				}
			}
		}
		p.cooldownCounter, p.badEpochs = p.cooldown, 0
	}
	p.lastLR = p.lastLR[:0]
	for _, gv := range groups {
		v, _, _ := gv.(*runtime.Dict).Get(runtime.String("lr"))
		f, _ := runtime.AsFloat(v)
		p.lastLR = append(p.lastLR, f)
	}
	return nil
}

// Type is ReduceLROnPlateau.
func (p *plateau) Type() string { return "ReduceLROnPlateau" }

// Truth is true.
func (p *plateau) Truth() bool { return true }

// String names the scheduler and its state.
func (p *plateau) String() string {
	return fmt.Sprintf("<optim.lr_scheduler.ReduceLROnPlateau best=%s num_bad_epochs=%d>", runtime.Repr(runtime.Float(p.best)), p.badEpochs)
}

// Attr returns step(metrics), get_last_lr, best, num_bad_epochs,
// cooldown_counter, last_epoch.
func (p *plateau) Attr(name string) (runtime.Value, error) {
	switch name {
	case "step":
		b := runtime.NewBuiltin("ReduceLROnPlateau.step", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var m runtime.Value
			if err := runtime.UnpackArgs("step", args, kwargs, "metrics", &m); err != nil {
				return nil, err
			}
			f, ok := runtime.AsFloat(m)
			if t, isT := m.(*TensorValue); isT && t.t.Numel() == 1 {
				f, ok = t.t.FlatFloat64(0), true
			}
			if !ok {
				return nil, runtime.Errorf("TypeError", "float() argument must be a string or a number, not '%s'", m.Type())
			}
			return runtime.None, p.step(f)
		})
		b.Doc = "step(metrics): record the epoch's metric (a number or a one-element tensor); after more than patience epochs without improvement, multiply each group's lr by factor (not below min_lr), then wait cooldown epochs."
		return b, nil
	case "get_last_lr":
		b := runtime.NewBuiltin("ReduceLROnPlateau.get_last_lr", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("get_last_lr", args, kwargs); err != nil {
				return nil, err
			}
			out := make([]runtime.Value, len(p.lastLR))
			for i, x := range p.lastLR {
				out[i] = runtime.Float(x)
			}
			return runtime.NewList(out), nil
		})
		b.Doc = "get_last_lr(): each group's lr after the last step."
		return b, nil
	case "best":
		return runtime.Float(p.best), nil
	case "num_bad_epochs":
		return runtime.MakeInt(int64(p.badEpochs)), nil
	case "cooldown_counter":
		return runtime.MakeInt(int64(p.cooldownCounter)), nil
	case "last_epoch":
		return runtime.MakeInt(int64(p.lastEp)), nil
	case "optimizer":
		return p.opt, nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (p *plateau) AttrNames() []string {
	return []string{"best", "cooldown_counter", "get_last_lr", "last_epoch", "num_bad_epochs", "optimizer", "step"}
}

// ---- nn.utils ----

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: optim_sched.go initialised before nn.go")
	}
	u := map[string]runtime.Value{
		"clip_grad_norm_":  moduleFunc("nn.utils", "clip_grad_norm_", "clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=false): scale the .grad of the parameters (a tensor or an iterable; those without grad skipped) in place by min(1, max_norm / (total_norm + 1e-6)), total_norm the norm_type norm of the per-parameter grad norms (inf: the largest |g|); returns total_norm (a 0-d tensor; tensor(0.) without grads). error_if_nonfinite raises RuntimeError for a NaN/inf total.", clipGradNorm),
		"clip_grad_value_": moduleFunc("nn.utils", "clip_grad_value_", "clip_grad_value_(parameters, clip_value): clamp the .grad of the parameters in place to [-clip_value, clip_value]; returns none.", clipGradValue),
	}
	m.Members["utils"] = &runtime.Module{ModName: "nn.utils", Members: u, Doc: "torch.nn.utils: clip_grad_norm_, clip_grad_value_."}
}

// gradParams lists the tensors of a parameters argument (a tensor or an
// iterable of tensors) that have a gradient.
func gradParams(v runtime.Value) ([]*T, error) {
	var elems []runtime.Value
	if t, ok := v.(*TensorValue); ok {
		elems = []runtime.Value{t}
	} else if it, ok := v.(runtime.Iterable); ok {
		iter := it.Iterate()
		for e, ok := iter.Next(); ok; e, ok = iter.Next() {
			elems = append(elems, e)
		}
	} else {
		return nil, runtime.Errorf("TypeError", "parameters must be a tensor or an iterable of tensors, not %s", v.Type())
	}
	var out []*T
	for _, e := range elems {
		t, ok := e.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("AttributeError", "'%s' object has no attribute 'grad'", e.Type())
		}
		if t.t.Grad() != nil {
			out = append(out, t.t)
		}
	}
	return out, nil
}

// clipGradNorm is torch.nn.utils.clip_grad_norm_ (1.13), step for step
// with tsr's norm, stack, add, reciprocal (Python's max_norm / tensor),
// mul and clamp, so the rounding is torch's.
func clipGradNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var params runtime.Value
	var maxNorm float64
	normType := 2.0
	errNonFinite := false
	if err := runtime.UnpackArgs("clip_grad_norm_", args, kwargs, "parameters", &params, "max_norm", &maxNorm,
		"norm_type?", &normType, "error_if_nonfinite?", &errNonFinite); err != nil {
		return nil, err
	}
	ps, err := gradParams(params)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		z, err := tensor.Zeros(nil, tensor.DefaultFloat)
		return tensorResult(th, z, err)
	}
	e := engineOf(th)
	prev := e.SetGradEnabled(false)
	defer e.SetGradEnabled(prev)
	norms := make([]runtime.Value, len(ps))
	for i, p := range ps {
		g := wrap(e, autograd.Detach(p.Grad()))
		if math.IsInf(normType, 1) {
			a, err := callMethod(th, g, "abs", nil, nil)
			if err != nil {
				return nil, err
			}
			norms[i], err = callMethod(th, a, "max", nil, nil)
			if err != nil {
				return nil, err
			}
		} else if norms[i], err = callMethod(th, g, "norm", []runtime.Value{runtime.Float(normType)}, nil); err != nil {
			return nil, err
		}
	}
	var total runtime.Value
	if math.IsInf(normType, 1) && len(norms) == 1 {
		total = norms[0]
	} else {
		st, err := callGlobal(th, "stack", []runtime.Value{runtime.NewList(norms)}, nil)
		if err != nil {
			return nil, err
		}
		if math.IsInf(normType, 1) {
			total, err = callMethod(th, st, "max", nil, nil)
		} else {
			total, err = callMethod(th, st, "norm", []runtime.Value{runtime.Float(normType)}, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	tt := total.(*TensorValue).t
	if v := tt.FlatFloat64(0); errNonFinite && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return nil, runtime.Errorf("RuntimeError", "The total norm of order %s for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`", runtime.Repr(runtime.Float(normType)))
	}
	coef, err := callMethod(th, total, "add", []runtime.Value{runtime.Float(1e-6)}, nil)
	if err == nil {
		coef, err = callMethod(th, coef, "reciprocal", nil, nil)
	}
	if err == nil {
		coef, err = callMethod(th, coef, "mul", []runtime.Value{runtime.Float(maxNorm)}, nil)
	}
	if err == nil {
		coef, err = callMethod(th, coef, "clamp", nil, []runtime.Kwarg{{Name: "max", Value: runtime.Float(1.0)}})
	}
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if _, err := callMethod(th, wrap(e, autograd.Detach(p.Grad())), "mul_", []runtime.Value{coef}, nil); err != nil {
			return nil, err
		}
	}
	return total, nil
}

// clipGradValue is torch.nn.utils.clip_grad_value_.
func clipGradValue(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var params runtime.Value
	var clip float64
	if err := runtime.UnpackArgs("clip_grad_value_", args, kwargs, "parameters", &params, "clip_value", &clip); err != nil {
		return nil, err
	}
	ps, err := gradParams(params)
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	prev := e.SetGradEnabled(false)
	defer e.SetGradEnabled(prev)
	for _, p := range ps {
		if _, err := callMethod(th, wrap(e, autograd.Detach(p.Grad())), "clamp_", nil,
			[]runtime.Kwarg{{Name: "min", Value: runtime.Float(-clip)}, {Name: "max", Value: runtime.Float(clip)}}); err != nil {
			return nil, err
		}
	}
	return runtime.None, nil
}
