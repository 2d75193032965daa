package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// The autograd binding: tensor attributes and methods of LANGUAGE.md
// section 7, and the runtime.ContextHooks behind no_grad, detect_anomaly,
// grad and value_and_grad blocks.

func init() {
	defProp("grad", func(x *TensorValue) (runtime.Value, error) {
		if g := x.t.Grad(); g != nil {
			return wrap(x.eng, g), nil
		}
		return runtime.None, nil
	})
	defProp("grad_fn", func(x *TensorValue) (runtime.Value, error) {
		if name := autograd.GradFnName(x.t); name != "" {
			return &gradFnValue{name: name, node: x.t.GradFn()}, nil
		}
		return runtime.None, nil
	})
	defProp("is_leaf", func(x *TensorValue) (runtime.Value, error) { return runtime.Bool(x.t.IsLeaf()), nil })
	defProp("requires_grad", func(x *TensorValue) (runtime.Value, error) { return runtime.Bool(x.t.RequiresGrad()), nil })

	defMethod("requires_grad_", "requires_grad_(requires_grad=true): set requires_grad on a leaf; returns self.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		on := true
		if err := runtime.UnpackArgs("requires_grad_", args, kwargs, "requires_grad?", &on); err != nil {
			return nil, err
		}
		if err := requiresGradSet(x.t, on); err != nil {
			return nil, err
		}
		return x, nil
	})
	defMethodFunc("detach", "detach(): a tensor sharing storage (and version counter) with no history.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("detach", args, kwargs); err != nil {
			return nil, err
		}
		return wrap(x.eng, autograd.Detach(x.t)), nil
	})
	defMethod("retain_grad", "retain_grad(): make backward fill .grad of this non-leaf tensor.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("retain_grad", args, kwargs); err != nil {
			return nil, err
		}
		if err := autograd.RetainGrad(x.t); err != nil {
			return nil, err
		}
		return runtime.None, nil
	})
	defMethod("backward", "backward(gradient=none, retain_graph=false, create_graph=false): accumulate d(self)/d(leaf) into the .grad of every leaf that requires grad.", func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var g tensorOpt
		var retain runtime.Value = runtime.None
		create := false
		if err := runtime.UnpackArgs("backward", args, kwargs, "gradient?", &g, "retain_graph?", &retain, "create_graph?", &create); err != nil {
			return nil, err
		}
		r := create
		if b, ok := retain.(runtime.Bool); ok {
			r = bool(b)
		}
		if !x.t.RequiresGrad() {
			return nil, runtime.Errorf("RuntimeError", "element 0 of tensors does not require grad and does not have a grad_fn")
		}
		if g.t == nil && x.t.Numel() != 1 {
			return nil, runtime.Errorf("RuntimeError", "grad can be implicitly created only for scalar outputs")
		}
		if err := engineOf(th).Backward(x.t, g.t, r, create); err != nil {
			return nil, err
		}
		return runtime.None, nil
	})
	defGlobal("set_grad_enabled", "set_grad_enabled(mode): turn recording on or off; returns the previous mode.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var on bool
		if err := runtime.UnpackArgs("set_grad_enabled", args, kwargs, "mode", &on); err != nil {
			return nil, err
		}
		return runtime.Bool(engineOf(th).SetGradEnabled(on)), nil
	})
	defGlobal("is_grad_enabled", "is_grad_enabled(): whether ops are recorded (false inside no_grad).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("is_grad_enabled", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.Bool(engineOf(th).GradEnabled()), nil
	})
}

// requiresGradSet is x.requires_grad_(on) / x.requires_grad = on.
func requiresGradSet(t *T, on bool) error {
	if on && !t.DType().IsFloat() {
		return runtime.Errorf("RuntimeError", "only Tensors of floating point dtype can require gradients")
	}
	return autograd.RequiresGrad_(t, on)
}

// gradFnValue is x.grad_fn: it prints as <MulBackward0>.
type gradFnValue struct {
	name string
	node tensor.Node
}

func (g *gradFnValue) String() string { return "<" + g.name + ">" }
func (g *gradFnValue) Type() string   { return "grad_fn" }
func (g *gradFnValue) Truth() bool    { return true }

// Attr provides name() as in PyTorch.
func (g *gradFnValue) Attr(name string) (runtime.Value, error) {
	if name == "name" {
		return runtime.NewBuiltin("name", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("name", args, kwargs); err != nil {
				return nil, err
			}
			return runtime.String(g.name), nil
		}), nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (g *gradFnValue) AttrNames() []string { return []string{"name"} }

// Compare: two grad_fn values are equal when they are the same node.
func (g *gradFnValue) Compare(op runtime.Op, y runtime.Value) (bool, error, bool) {
	h, ok := y.(*gradFnValue)
	eq := ok && h.node == g.node
	switch op {
	case runtime.EQL:
		return eq, nil, true
	case runtime.NEQ:
		return !eq, nil, true
	}
	return false, nil, false
}

// hooks implements runtime.ContextHooks on the thread's autograd engine.
type hooks struct{}

// EnterBlock enters no_grad or detect_anomaly.
func (hooks) EnterBlock(th *runtime.Thread, name string) (func(), error) {
	e := engineOf(th)
	switch name {
	case "no_grad":
		return e.EnterNoGrad(), nil
	case "enable_grad":
		prev := e.SetGradEnabled(true)
		return func() { e.SetGradEnabled(prev) }, nil
	case "detect_anomaly":
		return e.EnterAnomaly(), nil
	}
	return nil, runtime.Errorf("ValueError", "unknown block '%s'", name)
}

// BeginGrad starts grad(...) { } or value_and_grad(...) { }.
func (hooks) BeginGrad(th *runtime.Thread, wrt []runtime.Value, withValue bool) (runtime.GradSession, error) {
	form := "grad"
	if withValue {
		form = "value_and_grad"
	}
	if len(wrt) == 0 {
		return nil, runtime.Errorf("TypeError", "%s needs at least one tensor to differentiate with respect to", form)
	}
	ts := make([]*T, len(wrt))
	for i, v := range wrt {
		x, ok := v.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s: argument %d must be a tensor, not %s", form, i+1, v.Type())
		}
		ts[i] = x.t
	}
	e := engineOf(th)
	blk, err := e.BeginGrad(ts)
	if err != nil {
		return nil, err
	}
	return &gradSession{th: th, e: e, blk: blk, n: len(ts), withValue: withValue}, nil
}

// gradSession is one running gradient block.
type gradSession struct {
	th        *runtime.Thread
	e         *Engine
	blk       *autograd.GradBlock
	n         int
	withValue bool
}

// Finish differentiates the block's value and shapes the result: one
// gradient, a tuple of gradients, or (value, gradients).
func (s *gradSession) Finish(result runtime.Value) (runtime.Value, error) {
	x, ok := result.(*TensorValue)
	if !ok {
		s.blk.Abort()
		return nil, runtime.Errorf("TypeError", "grad block: the last expression must be a scalar floating-point tensor, got %s", result.Type())
	}
	grads, err := s.blk.Finish(x.t)
	if err != nil {
		return nil, err
	}
	var g runtime.Value
	if s.n == 1 {
		g = NewTensorValue(s.th, grads[0])
	} else {
		tup := make(runtime.Tuple, len(grads))
		for i, gt := range grads {
			tup[i] = NewTensorValue(s.th, gt)
		}
		g = tup
	}
	if !s.withValue {
		return g, nil
	}
	return runtime.Tuple{NewTensorValue(s.th, autograd.Detach(x.t)), g}, nil
}

// Abort leaves the block without differentiating.
func (s *gradSession) Abort() { s.blk.Abort() }
