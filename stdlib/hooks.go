package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Tensor backward hooks: x.register_hook(fn), as PyTorch's
// Tensor.register_hook, over autograd.RegisterHook.

func init() {
	defMethod("register_hook", "register_hook(hook): call hook(grad) with this tensor's gradient during backward (the sum of every contribution, for a leaf before it is added to .grad); a tensor returned replaces the gradient (same shape and dtype), none keeps it. Returns a handle whose remove() unregisters the hook. RuntimeError on a tensor that does not require grad.", methodRegisterHook)
}

func methodRegisterHook(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var fn runtime.Value
	if err := runtime.UnpackArgs("register_hook", args, kwargs, "hook", &fn); err != nil {
		return nil, err
	}
	c, ok := fn.(interface{ Name() string })
	if !ok {
		return nil, runtime.Errorf("TypeError", "register_hook(): hook must be callable, not %s", fn.Type())
	}
	name := c.Name()
	eng := x.eng
	remove, err := autograd.RegisterHook(x.t, name, func(g *T) (*T, error) {
		r, err := th.Call(fn, []runtime.Value{wrap(eng, g)}, nil)
		if err != nil {
			return nil, err
		}
		if r == runtime.None {
			return nil, nil
		}
		rt, ok := r.(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "expected Variable, but hook returned '%s'", r.Type())
		}
		return rt.t, nil
	})
	if err != nil {
		return nil, err
	}
	return &hookHandle{remove: remove}, nil
}

// hookHandle is the value register_hook returns (PyTorch's
// RemovableHandle): h.remove() unregisters the hook; removing twice is
// harmless.
type hookHandle struct {
	remove func()
}

func (h *hookHandle) String() string { return "<RemovableHandle>" }
func (h *hookHandle) Type() string   { return "RemovableHandle" }
func (h *hookHandle) Truth() bool    { return true }

// Attr provides remove().
func (h *hookHandle) Attr(name string) (runtime.Value, error) {
	if name != "remove" {
		return nil, nil
	}
	return runtime.NewBuiltin("remove", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := noArgs("remove", args, kwargs); err != nil {
			return nil, err
		}
		h.remove()
		return runtime.None, nil
	}), nil
}

// AttrNames lists the attributes.
func (h *hookHandle) AttrNames() []string { return []string{"remove"} }
