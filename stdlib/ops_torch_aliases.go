package stdlib

import (
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// signbit, PyTorch's comparison aliases (greater, greater_equal, less,
// less_equal, not_equal as functions and methods) and the in-place
// comparisons eq_, ne_, lt_, le_, gt_, ge_ with their aliases greater_,
// greater_equal_, less_, less_equal_, not_equal_.

// compareAliases maps each alias to the comparison it spells.
var compareAliases = map[string]string{
	"greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
}

// compareAliasesAdded adds signbit to predicateFns and the aliases to
// binaryByName during package variable initialization, before the init
// functions (methods_math.go) that register a method and a function per
// entry.
var compareAliasesAdded = addCompareAliases()

func addCompareAliases() bool {
	predicateFns["signbit"] = tensor.Signbit
	for alias, name := range compareAliases {
		binaryByName[alias] = binaryByName[name]
	}
	return true
}

func init() {
	_ = compareAliasesAdded
	for _, name := range []string{"eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal"} {
		name := name
		op := name
		if a, ok := compareAliases[name]; ok {
			op = a
		}
		d := binaryByName[op]
		node := map[string]string{"eq": "EqBackward", "ne": "NeBackward", "lt": "LtBackward", "le": "LeBackward", "gt": "GtBackward", "ge": "GeBackward"}[op]
		inplaceMethod(name+"_", name+"_(other): self "+op+" other (a tensor or a number, broadcast to self's shape, compared in the promoted dtype) written into self as 1/0 in self's dtype; returns self. On a tensor that requires grad the gradient through it is zero (grad_fn "+node+"0/1, as PyTorch).", func(e *Engine, self *T, args []runtime.Value, kwargs []runtime.Kwarg) (*T, string, error) {
			var o operandArg
			if err := runtime.UnpackArgs(name+"_", args, kwargs, "other", &o); err != nil {
				return nil, "", err
			}
			a, b := castWrapped(self, o.t)
			r, err := d.fn(a, b)
			return r, overload(node, o.t), err
		})
	}
}
