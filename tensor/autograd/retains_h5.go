package autograd

// RetainsGrad reports whether backward will populate .grad of the
// non-leaf t because retain_grad() was called on it (PyTorch's
// Tensor.retains_grad); false for leaves.
func RetainsGrad(t *T) bool {
	n, ok := t.GradFn().(*Node)
	if !ok || n == nil || n.retained == nil {
		return false
	}
	m, ok := n.retained[t.OutputNr()]
	return ok && m.t == t
}
