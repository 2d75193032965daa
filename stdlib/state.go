package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// localKey is the Thread.SetLocal key of stdlib's per-thread state.
const localKey = "stdlib.state"

// defaultSeed seeds a fresh interpreter's generator, so that programs
// that never call manual_seed are still reproducible run to run.
const defaultSeed = 67280421310721 // PyTorch's default_generator seed

// state is stdlib's per-interpreter state: the autograd engine (grad mode,
// anomaly mode, gradient blocks) and the random generator of manual_seed,
// rand, randn and randint.
type state struct {
	eng *autograd.Engine
	gen *tensor.Generator
}

func newState() *state {
	return &state{eng: autograd.NewEngine(), gen: tensor.NewGenerator(defaultSeed)}
}

// fallback serves tensors and calls that reach stdlib without a thread
// prepared by Setup (e.g. a host-made tensor value used in arithmetic).
var fallback = newState()

// stateOf returns th's stdlib state, creating it on first use.
func stateOf(th *runtime.Thread) *state {
	if th == nil {
		return fallback
	}
	if s, ok := th.Local(localKey).(*state); ok {
		return s
	}
	s := newState()
	s.eng.Pos = th.CurrentPos // anomaly mode names the forward op's position
	th.SetLocal(localKey, s)
	return s
}

// engineOf returns the autograd engine of th.
func engineOf(th *runtime.Thread) *autograd.Engine { return stateOf(th).eng }
