// Package stdlib is what a tsr program sees: tensor functions and methods,
// dtypes, and the modules linalg, nn, io, bench, plot and cuda, bound onto
// the runtime's value model.
//
// Layout: value.go (TensorValue), dtype.go (dtypes, devices, finfo), args.go
// (argument conversion), creation.go (factories), ops.go (the differentiable
// op layer every computation goes through), operators.go (+ - * ... on
// tensors), index.go (x[k], x[k] = v), methods_*.go (tensor methods, one
// table entry each: registry.go), autograd.go (grad blocks and autograd
// methods), einsum.go, builtins.go (tensor-aware abs/min/max/sum/round/len),
// and one file per module (nn.go, bench.go, ...), each registering itself
// with registerModule from init.
package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Predeclared returns the global names stdlib adds to every program
// (tensor creation functions, dtypes, modules, tensor-aware versions of
// abs/min/max/sum/round/float/int/bool/len). The runtime's own builtins
// (runtime.Universe) are visible underneath. The map is a fresh copy; the
// values are shared and immutable.
func Predeclared() map[string]runtime.Value {
	out := make(map[string]runtime.Value, len(globals)+len(modules))
	for k, v := range globals {
		out[k] = v
	}
	for k, m := range modules {
		out[k] = m
	}
	return out
}

// Setup installs stdlib's per-thread state on th: the random generator
// (manual_seed), gradient mode and the grad/no_grad block hooks, and the
// einsum literal call.
func Setup(th *runtime.Thread) {
	st := stateOf(th)
	th.Hooks = hooks{}
	th.Einsum = einsumHook
	th.EinsumDeferred = einsumDeferredHook
	th.Attention = attentionHook
	th.FreshMark = tensor.AllocSeq
	_ = st
}
