package stdlib

import (
	"errors"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// In-place activations as torch 1.13's: F.relu(x, inplace=true),
// F.elu_(x), nn.ReLU(inplace=true)(x), ... write the result into x's own
// storage and return x itself: its version counter is bumped once, a leaf
// that requires grad is refused (autograd's "a leaf Variable that
// requires grad is being used in an in-place operation."), and under
// grad mode x's grad_fn becomes torch's in-place node (EluBackward1,
// LeakyReluBackward1, ...), so a later backward through a node that saved
// x's old value raises the version-counter error.
//
// This file wraps the out-of-place nn functions registered by the other
// files' init functions; Go runs a package's init functions in the order
// of its file names, hence the name zz_nn_inplace.go, last of the package
// (init panics if a function it wraps is not registered yet).

// inplaceActivation describes one activation: its nn name, the position of
// its inplace parameter (input is 0), and torch's grad_fn name for the
// in-place form.
type inplaceActivation struct {
	name string
	pos  int
	node string
}

var inplaceActivations = []inplaceActivation{
	{"relu", 1, "ReluBackward0"},
	{"relu6", 1, "HardtanhBackward0"},
	{"elu", 2, "EluBackward1"},
	{"celu", 2, "CeluBackward1"},
	{"selu", 1, "EluBackward1"},
	{"leaky_relu", 2, "LeakyReluBackward1"},
	{"hardtanh", 3, "HardtanhBackward0"},
	{"hardsigmoid", 1, "HardsigmoidBackward0"},
	{"hardswish", 1, "HardswishBackward0"},
	{"silu", 1, "SiluBackward0"},
	{"mish", 1, "MishBackward0"},
	{"threshold", 3, "ThresholdBackward1"},
}

// underscoreForms are the in-place functions of torch.nn.functional
// (F.relu_(x), F.elu_(x, alpha=1.0), ...): the activation with
// inplace=true.
var underscoreForms = []string{"relu", "elu", "celu", "selu", "leaky_relu", "hardtanh", "threshold"}

// topLevelUnderscore are those torch also has at the top level
// (torch.relu_(x), torch.celu_, torch.selu_, torch.threshold_).
var topLevelUnderscore = []string{"relu", "celu", "selu", "threshold"}

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: zz_nn_inplace.go initialised before nn.go")
	}
	for _, a := range inplaceActivations {
		orig, ok := m.Members[a.name].(*runtime.Builtin)
		if !ok {
			panic("stdlib: nn." + a.name + " is not registered before zz_nn_inplace.go")
		}
		w := moduleFunc("nn", a.name, orig.Doc, inplaceWrapper(a, orig, false))
		m.Members[a.name] = w
		if contains(underscoreForms, a.name) {
			u := moduleFunc("nn", a.name+"_", a.name+"_(input, ...): nn."+a.name+" with inplace=true: computed into input, which is returned (its version counter bumped).",
				inplaceWrapper(a, orig, true))
			m.Members[a.name+"_"] = u
			if contains(topLevelUnderscore, a.name) {
				if _, taken := globals[a.name+"_"]; !taken {
					globals[a.name+"_"] = u // torch.relu_(x), ...
				}
			}
		}
	}
}

// inplaceWrapper is nn.<a.name> with torch's inplace argument honoured:
// orig computes out of place (its inplace argument removed), and with
// inplace true the result is written into the input through inplaceVia.
// With always set it is the underscore form, which takes no inplace
// argument.
func inplaceWrapper(a inplaceActivation, orig *runtime.Builtin, always bool) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		inplace := always
		if !always {
			var flag runtime.Value
			if len(args) > a.pos {
				flag = args[a.pos]
				args = append(args[:a.pos:a.pos], args[a.pos+1:]...)
			}
			rest := kwargs[:0:0]
			for _, kw := range kwargs {
				if kw.Name != "inplace" {
					rest = append(rest, kw)
					continue
				}
				if flag != nil {
					return nil, runtime.Errorf("TypeError", "%s() got multiple values for argument 'inplace'", a.name)
				}
				flag = kw.Value
			}
			kwargs = rest
			if flag != nil {
				inplace = flag.Truth()
			}
		}
		if !inplace {
			return orig.Call(th, args, kwargs)
		}
		// the input, positional or by keyword
		var in runtime.Value
		if len(args) > 0 {
			in = args[0]
		} else {
			rest := kwargs[:0:0]
			for _, kw := range kwargs {
				if kw.Name == "input" && in == nil {
					in = kw.Value
					continue
				}
				rest = append(rest, kw)
			}
			kwargs = rest
			if in == nil {
				return orig.Call(th, args, kwargs) // orig reports the missing input
			}
			args = []runtime.Value{in}
		}
		x, ok := in.(*TensorValue)
		if !ok {
			return orig.Call(th, args, kwargs) // orig reports the wrong type
		}
		e := engineOf(th)
		if fast := fastInplace[a.name]; fast != nil && x.t.GradFn() == nil && (!x.t.RequiresGrad() || !e.GradEnabled()) {
			// nothing records x: the kernel writes into x's own storage
			// (no temporary, no copy back)
			prev := e.SetGradEnabled(false)
			err := e.CheckInplace(x.t)
			if err == nil {
				var ok bool
				ok, err = fast(x.t, args, kwargs)
				if !ok {
					err = errNotFast
				}
			}
			e.SetGradEnabled(prev)
			if err == nil {
				return x, nil
			}
			if err != errNotFast {
				return nil, err
			}
		}
		if !x.t.RequiresGrad() && e.GradEnabled() {
			// nothing records x: no snapshot of it is needed (inplaceVia
			// clones under grad mode so that saved values stay intact)
			prev := e.SetGradEnabled(false)
			defer e.SetGradEnabled(prev)
		}
		err := inplaceVia(e, x.t, a.node, func(self *T) (*T, error) {
			call := append([]runtime.Value{NewTensorValue(th, self)}, args[1:]...)
			r, err := orig.Call(th, call, kwargs)
			if err != nil {
				return nil, err
			}
			rt, ok := r.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("RuntimeError", "%s: expected a tensor result", a.name)
			}
			return rt.t, nil
		})
		if err != nil {
			return nil, err
		}
		return x, nil
	}
}

// errNotFast is fastInplace's "not handled here" (the general path runs).
var errNotFast = errors.New("not a fast in-place activation")

// fastInplace holds, for the activations with a tensor in-place kernel,
// the call of that kernel on an f32/f64 input x from the call's arguments
// (args[0] is x; inplace removed): ok false, x untouched, where it does not
// apply (another dtype, arguments the general path must judge).
var fastInplace = map[string]func(x *T, args []runtime.Value, kwargs []runtime.Kwarg) (ok bool, err error){
	"relu": func(x *T, args []runtime.Value, kwargs []runtime.Kwarg) (bool, error) {
		if !isF32F64(x) || len(args) != 1 || len(kwargs) != 0 {
			return false, nil
		}
		return true, x.ReluInplace()
	},
	"relu6": func(x *T, args []runtime.Value, kwargs []runtime.Kwarg) (bool, error) {
		if !isF32F64(x) || len(args) != 1 || len(kwargs) != 0 {
			return false, nil
		}
		return true, x.HardtanhInplace(0, 6)
	},
	"hardtanh": func(x *T, args []runtime.Value, kwargs []runtime.Kwarg) (bool, error) {
		var in tensorArg
		lo, hi := -1.0, 1.0
		if !isF32F64(x) || runtime.UnpackArgs("hardtanh", args, kwargs, "input", &in, "min_val?", &lo, "max_val?", &hi) != nil {
			return false, nil
		}
		return true, x.HardtanhInplace(lo, hi)
	},
	"leaky_relu": func(x *T, args []runtime.Value, kwargs []runtime.Kwarg) (bool, error) {
		var in tensorArg
		slope := 0.01
		if !isF32F64(x) || runtime.UnpackArgs("leaky_relu", args, kwargs, "input", &in, "negative_slope?", &slope) != nil {
			return false, nil
		}
		return true, x.LeakyReluInplace(slope)
	},
}

func isF32F64(x *T) bool { return x.DType() == tensor.F32 || x.DType() == tensor.F64 }
