package autograd

import "github.com/tsrlang/tsr/tensor"

// RequiresGrad_ sets t.requires_grad (x.requires_grad_(on)). Only leaves may
// change it, and only floating-point tensors can require gradients.
func RequiresGrad_(t *T, on bool) error {
	if !t.IsLeaf() && !on {
		return errorf("you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
	}
	if on && !t.DType().IsFloat() {
		return errorf("only Tensors of floating point dtype can require gradients")
	}
	if t.IsLeaf() {
		t.SetRequiresGrad(on)
	}
	return nil
}

// Detach returns a tensor sharing t's storage (and version counter) with no
// history and requires_grad false.
func Detach(t *T) *T { return t.ShallowCopy() }

// RetainGrad makes backward populate .grad of the non-leaf t (a no-op on
// leaves).
func RetainGrad(t *T) error {
	if !t.RequiresGrad() {
		return errorf("can't retain_grad on Tensor that has requires_grad=False")
	}
	if n, ok := t.GradFn().(*Node); ok && n != nil {
		if n.retained == nil {
			n.retained = map[int]retainMark{}
		}
		if _, ok := n.retained[t.OutputNr()]; !ok { // a second retain_grad keeps the first's place
			n.retained[t.OutputNr()] = retainMark{t: t, id: nextHookID()}
		}
	}
	return nil
}

// GradFnName returns the printable name of t's grad_fn ("MulBackward0"), or
// "" for leaves.
func GradFnName(t *T) string {
	if n, ok := t.GradFn().(*Node); ok && n != nil {
		return n.name
	}
	return ""
}

// GradBlock is one running gradient block (grad(w, b) { ... } or
// value_and_grad(w, b) { ... }).
type GradBlock struct {
	e         *Engine
	wrt       []*T
	restoreRG []bool
	prevMode  bool
	nested    bool
	done      bool
}

// BeginGrad starts a gradient block with respect to wrt: grad mode is
// switched on for the block, and tensors in wrt that do not require grad
// are made to for the block's duration. Every entry of wrt must be a
// floating-point tensor.
func (e *Engine) BeginGrad(wrt []*T) (*GradBlock, error) {
	b := &GradBlock{e: e, wrt: wrt, restoreRG: make([]bool, len(wrt))}
	for i, w := range wrt {
		if !w.DType().IsFloat() {
			return nil, errorf("grad: argument %d must be a floating-point tensor, got dtype %s", i+1, w.DType())
		}
		b.restoreRG[i] = w.RequiresGrad()
	}
	for _, w := range wrt {
		if !w.RequiresGrad() && w.IsLeaf() {
			w.SetRequiresGrad(true)
		}
	}
	b.nested = e.gradDepth > 0
	e.gradDepth++
	b.prevMode = e.SetGradEnabled(true)
	return b, nil
}

// Finish takes the block's value, which must be a one-element floating
// tensor, and returns the gradients with respect to wrt, in order. No .grad
// is touched. Inside an enclosing gradient block the gradients keep their
// graph (create_graph), so the outer block can differentiate them again.
func (b *GradBlock) Finish(result *T) ([]*T, error) {
	defer b.Abort()
	if result == nil || result.Numel() != 1 || !result.DType().IsFloat() {
		desc := "a non-tensor value"
		if result != nil {
			desc = "a tensor of shape " + fmtInts(result.Shape()) + " and dtype " + result.DType().String()
		}
		return nil, &Error{Kind: "RuntimeError", Msg: "grad block: the last expression must be a scalar floating-point tensor, got " + desc}
	}
	if !result.RequiresGrad() {
		out := make([]*T, len(b.wrt))
		for i, w := range b.wrt {
			z, err := tensor.Zeros(w.Shape(), w.DType())
			if err != nil {
				return nil, err
			}
			out[i] = z
		}
		return out, nil
	}
	return b.e.Grad([]*T{result}, b.wrt, nil, b.nested, b.nested)
}

// Abort ends the block without computing gradients (an error or a jump
// left it). Calling it after Finish is a no-op.
func (b *GradBlock) Abort() {
	if b.done {
		return
	}
	b.done = true
	b.e.gradDepth--
	b.e.SetGradEnabled(b.prevMode)
	for i, w := range b.wrt {
		if w.IsLeaf() {
			w.SetRequiresGrad(b.restoreRG[i])
		}
	}
}
