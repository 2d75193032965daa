package stdlib

import (
	"math"
	"runtime"
	"sync"
	"weak"

	"github.com/tsrlang/tsr/numfmt"
	tsrrt "github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// set_printoptions (torch.set_printoptions): the options are the
// interpreter's (keyed by its autograd engine), not the process's, so that
// interpreters in one Go host do not see each other's settings.

func init() {
	defGlobal("set_printoptions", "set_printoptions(precision=none, threshold=none, edgeitems=none, linewidth=none, profile=none, sci_mode=none): how tensors print, as torch.set_printoptions (profile \"default\", \"short\" or \"full\" first, then the other options; sci_mode true/false forces or forbids scientific notation, none lets the formatter choose).", builtinSetPrintOptions)
}

// printOpts maps weak.Pointer[autograd.Engine] to the numfmt.PrintOptions
// set_printoptions stored for that interpreter; an entry goes when its
// engine is collected.
var printOpts sync.Map

// printOptionsOf returns the print options set for eng's interpreter, and
// false when set_printoptions was never called there (PyTorch's defaults).
func printOptionsOf(eng *autograd.Engine) (numfmt.PrintOptions, bool) {
	if eng == nil {
		return numfmt.PrintOptions{}, false
	}
	v, ok := printOpts.Load(weak.Make(eng))
	if !ok {
		return numfmt.PrintOptions{}, false
	}
	return v.(numfmt.PrintOptions), true
}

func builtinSetPrintOptions(th *tsrrt.Thread, b *tsrrt.Builtin, args []tsrrt.Value, kwargs []tsrrt.Kwarg) (tsrrt.Value, error) {
	var precision, threshold, edgeitems, linewidth, profile, sciMode tsrrt.Value = tsrrt.None, tsrrt.None, tsrrt.None, tsrrt.None, tsrrt.None, tsrrt.None
	if err := tsrrt.UnpackArgs("set_printoptions", args, kwargs, "precision?", &precision, "threshold?", &threshold,
		"edgeitems?", &edgeitems, "linewidth?", &linewidth, "profile?", &profile, "sci_mode?", &sciMode); err != nil {
		return nil, err
	}
	eng := engineOf(th)
	o, ok := printOptionsOf(eng)
	if !ok {
		o = numfmt.DefaultPrintOptions()
	}
	if profile != tsrrt.None {
		name, ok := profile.(tsrrt.String)
		if !ok {
			return nil, tsrrt.Errorf("TypeError", "set_printoptions: profile must be a string, not '%s'", profile.Type())
		}
		p, err := numfmt.PrintProfile(string(name))
		if err != nil {
			return nil, tsrrt.Errorf("ValueError", "%s", err.Error())
		}
		o = p
	}
	for _, f := range []struct {
		name string
		v    tsrrt.Value
		dst  *int
	}{{"precision", precision, &o.Precision}, {"threshold", threshold, &o.Threshold}, {"edgeitems", edgeitems, &o.EdgeItems}, {"linewidth", linewidth, &o.LineWidth}} {
		if f.v == tsrrt.None {
			continue
		}
		switch v := f.v.(type) {
		case tsrrt.Bool:
			return nil, tsrrt.Errorf("TypeError", "set_printoptions: %s must be an int, not 'bool'", f.name)
		case tsrrt.Float:
			// threshold=inf (np.inf) is PyTorch's way to print everything.
			if f.name == "threshold" && math.IsInf(float64(v), 1) {
				*f.dst = math.MaxInt
				continue
			}
			return nil, tsrrt.Errorf("TypeError", "set_printoptions: %s must be an int, not 'float'", f.name)
		default:
			n, ok := tsrrt.AsInt(f.v)
			if !ok {
				return nil, tsrrt.Errorf("TypeError", "set_printoptions: %s must be an int, not '%s'", f.name, f.v.Type())
			}
			*f.dst = int(n)
		}
	}
	// As PyTorch, sci_mode is always assigned: none restores the automatic choice.
	switch sciMode {
	case tsrrt.None:
		o.SciMode = numfmt.SciAuto
	case tsrrt.Bool(true):
		o.SciMode = numfmt.SciOn
	case tsrrt.Bool(false):
		o.SciMode = numfmt.SciOff
	default:
		return nil, tsrrt.Errorf("TypeError", "set_printoptions: sci_mode must be true, false or none, not '%s'", sciMode.Type())
	}
	if eng != nil {
		k := weak.Make(eng)
		if _, loaded := printOpts.Swap(k, o); !loaded {
			runtime.AddCleanup(eng, func(k weak.Pointer[autograd.Engine]) { printOpts.Delete(k) }, k)
		}
	}
	return tsrrt.None, nil
}
