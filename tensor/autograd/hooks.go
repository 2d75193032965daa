package autograd

import (
	"slices"
	"sync/atomic"

	"github.com/tsrlang/tsr/tensor"
)

// Hook is a tensor backward hook (PyTorch's Tensor.register_hook): it
// receives the tensor's gradient once backward has summed every
// contribution to it, and returns a replacement gradient, or nil to keep
// the one it was given.
type Hook func(grad *T) (*T, error)

// hookEntry is one registered hook; ids grow with registration order
// (shared by all tensors, so they order hooks and retain_grad marks).
type hookEntry struct {
	id   int64
	name string
	fn   Hook
}

// hookSeq numbers hooks and retain_grad marks in registration order.
var hookSeq atomic.Int64

func nextHookID() int64 { return hookSeq.Add(1) }

// leafHooks is a leaf's hook list, kept in its AutogradMeta slot.
type leafHooks struct{ hooks []hookEntry }

// RegisterHook adds fn to t's backward hooks, as PyTorch's
// Tensor.register_hook. For a non-leaf the hook runs when backward
// reaches t's grad_fn, on t's summed gradient, before the node runs (and
// in registration order; as PyTorch 1.13, which runs all of a tensor's
// hooks as one pre-hook placed where the first was registered, a
// retain_grad made before the tensor's first hook keeps the gradient
// before every hook, one made after it the gradient after every hook,
// even hooks registered later). For a
// leaf it runs on the summed gradient before it is accumulated into
// .grad. Hooks are not applied to the gradients that autograd.grad
// returns for its inputs (PyTorch 1.13 captures them first). name is
// the hook's name for the errors about a replacement of another shape
// or dtype. The returned function removes the hook (a second call does
// nothing).
//
// Errors: RuntimeError "cannot register a hook on a tensor that doesn't
// require gradient" when t does not require grad.
func RegisterHook(t *T, name string, fn Hook) (remove func(), err error) {
	if !t.RequiresGrad() {
		return nil, errorf("cannot register a hook on a tensor that doesn't require gradient")
	}
	h := hookEntry{id: nextHookID(), name: name, fn: fn}
	if n, ok := t.GradFn().(*Node); ok && n != nil {
		nr := t.OutputNr()
		if n.hooks == nil {
			n.hooks = map[int][]hookEntry{}
			n.firstHook = map[int]int64{}
		}
		if _, ok := n.firstHook[nr]; !ok {
			n.firstHook[nr] = h.id
		}
		n.hooks[nr] = append(n.hooks[nr], h)
		return func() {
			n.hooks[nr] = slices.DeleteFunc(n.hooks[nr], func(e hookEntry) bool { return e.id == h.id })
		}, nil
	}
	lh, _ := t.AutogradMeta.(*leafHooks)
	if lh == nil {
		lh = &leafHooks{}
		t.AutogradMeta = lh
	}
	lh.hooks = append(lh.hooks, h)
	return func() {
		lh.hooks = slices.DeleteFunc(lh.hooks, func(e hookEntry) bool { return e.id == h.id })
	}, nil
}

// leafHooksOf returns the hooks registered on leaf t.
func leafHooksOf(t *T) []hookEntry {
	if lh, ok := t.AutogradMeta.(*leafHooks); ok {
		return lh.hooks
	}
	return nil
}

// runHooks passes g through hooks in order; a hook returning nil keeps
// the gradient. A replacement must keep g's shape and dtype (PyTorch's
// check_single_result wording). A copy of the hook list is walked, so a
// hook may remove hooks.
func runHooks(hooks []hookEntry, g *T) (*T, error) {
	for _, h := range slices.Clone(hooks) {
		r, err := h.fn(g)
		if err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		if !sameShape(r.Shape(), g.Shape()) {
			return nil, errorf("hook '%s' has changed the size of value", h.name)
		}
		if r.DType() != g.DType() {
			return nil, errorf("hook '%s' has changed the type of value (was %s got %s)", h.name, legacyTypeName(g.DType()), legacyTypeName(r.DType()))
		}
		g = r
	}
	return g, nil
}

// legacyTypeName is PyTorch's legacy CPU tensor type name of dt
// (torch.FloatTensor), as its hook errors spell it.
func legacyTypeName(dt tensor.DType) string {
	if !dt.Valid() {
		return dt.String()
	}
	return "torch." + dt.TorchName() + "Tensor"
}

// preNodeGrads runs the hooks of n's outputs on their summed gradients in
// buf (replacing them), filling .grad of the outputs that retain_grad
// asked for (retain true: backward, not autograd.grad) at its place among
// the hooks. create keeps the retained gradient differentiable.
func (e *Engine) preNodeGrads(n *Node, buf []*T, retain, create bool) error {
	for nr := range buf {
		g := buf[nr]
		if g == nil {
			continue
		}
		hooks := n.hooks[nr]
		var rt *T
		var rid int64
		if retain {
			if r, ok := n.retained[nr]; ok {
				rt, rid = r.t, r.id
			}
		}
		if rt == nil && len(hooks) == 0 {
			continue
		}
		cut := len(hooks) // hooks before the retained gradient
		if first, ok := n.firstHook[nr]; rt != nil && (!ok || first > rid) {
			cut = 0
		}
		g, err := runHooks(hooks[:cut], g)
		if err != nil {
			return err
		}
		if rt != nil {
			rg := g
			if !create {
				rg = rg.Clone()
			}
			if old := rt.Grad(); old != nil {
				if rg, err = e.add(old, rg); err != nil {
					return err
				}
			}
			rt.SetGrad(rg)
		}
		if g, err = runHooks(hooks[cut:], g); err != nil {
			return err
		}
		buf[nr] = g
	}
	return nil
}
