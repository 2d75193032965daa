// Package stdlib is what a tsr program sees: tensor functions and methods,
// dtypes, and the modules linalg, nn, io, bench, plot and cuda, bound onto
// the runtime's value model.
//
// (Placeholder: the stdlib implementation replaces this file.)
package stdlib

import "github.com/tsrlang/tsr/runtime"

// Predeclared returns the global names stdlib adds to every program
// (tensor creation functions, dtypes, modules, tensor-aware versions of
// abs/min/max/sum/round/float/int/bool/len). The runtime's own builtins
// (runtime.Universe) are visible underneath.
func Predeclared() map[string]runtime.Value { return map[string]runtime.Value{} }

// Setup installs stdlib's per-thread state on th: the random generator
// (manual_seed), gradient mode and the grad/no_grad block hooks, and the
// einsum literal call.
func Setup(th *runtime.Thread) {}
