package stdlib

import (
	"github.com/tsrlang/tsr/tensor/autograd"
	"sort"

	"github.com/tsrlang/tsr/runtime"
)

// builtinFn is the Go signature of every stdlib builtin.
type builtinFn = func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)

// methodFn implements a tensor method; x is the receiver.
type methodFn func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)

// propFn implements a tensor attribute that is not a method (x.shape).
type propFn func(x *TensorValue) (runtime.Value, error)

var (
	// globals are the predeclared names (functions, dtypes, constants).
	globals = map[string]runtime.Value{}
	// modules are the stdlib modules by name (nn, bench, linalg, ...).
	modules = map[string]*runtime.Module{}
	// tensorMethods are the tensor methods, unbound.
	tensorMethods = map[string]*runtime.Builtin{}
	// tensorProps are the tensor attributes computed on access.
	tensorProps = map[string]propFn{}
)

// defGlobal registers a predeclared function.
func defGlobal(name, doc string, fn builtinFn) *runtime.Builtin {
	b := runtime.NewBuiltin(name, fn)
	b.Doc = doc
	b.FreshResults = true // stdlib functions keep nothing they return
	globals[name] = b
	return b
}

// defMethod registers a tensor method.
func defMethod(name, doc string, fn methodFn) {
	fn = aliasedMethod(name, fn) // axis=, keepdims= (NumPy names) as PyTorch
	b := runtime.NewBuiltin(name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, ok := b.Receiver().(*TensorValue)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s() needs a tensor receiver", name)
		}
		return fn(th, x, args, kwargs)
	})
	b.Doc = doc
	b.FreshResults = true
	tensorMethods[name] = b
}

// defProp registers a tensor attribute.
func defProp(name string, fn propFn) { tensorProps[name] = fn }

// defMethodFunc registers a tensor method and the function of the same name
// taking the tensor first: exp(x) is x.exp(). A number or list given as
// the first argument of the function is converted with tensor().
// nodeNamed wraps fn so that a tensor result produced through autograd
// prints PyTorch's grad_fn name for the op (a composite of recorded
// steps otherwise shows its last step's name). A grad_fn of another name
// in the returned value's own node is replaced; leaves are left alone.
func nodeNamed(name string, fn methodFn) methodFn {
	return func(th *runtime.Thread, x *TensorValue, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		v, err := fn(th, x, args, kwargs)
		if tv, ok := v.(*TensorValue); ok && err == nil && tv.t != x.t {
			autograd.SetGradFnName(tv.t, name)
		}
		return v, err
	}
}

// builtinNamed is nodeNamed for builtins (nn.silu, cdist, ...): a tensor
// result that is not one of the arguments gets the node name given.
func builtinNamed(name string, fn builtinFn) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		v, err := fn(th, b, args, kwargs)
		tv, ok := v.(*TensorValue)
		if !ok || err != nil {
			return v, err
		}
		for _, a := range args {
			if at, ok := a.(*TensorValue); ok && at.t == tv.t {
				return v, err
			}
		}
		for _, kv := range kwargs {
			if at, ok := kv.Value.(*TensorValue); ok && at.t == tv.t {
				return v, err
			}
		}
		autograd.SetGradFnName(tv.t, name)
		return v, err
	}
}

// named renames the node that produced t (when t was recorded) to
// PyTorch's name for the composite op that made it, passing t and err on.
func named(name string, t *T, err error) (*T, error) {
	if err == nil && t != nil {
		autograd.SetGradFnName(t, name)
	}
	return t, err
}

func defMethodFunc(name, doc string, fn methodFn) {
	defMethod(name, doc, fn)
	defFunctional(name, doc, fn)
}

// defFunctional registers only the functional form of fn. Names taken by
// a tensor-aware Universe builtin (defOverride: sum, abs, min, ...) keep
// that builtin, which handles both numbers and tensors.
func defFunctional(name, doc string, fn methodFn) {
	if overrides[name] {
		return
	}
	defGlobal(name, doc, functional(name, fn))
}

// overrides are the Universe builtins stdlib replaces with tensor-aware
// versions.
var overrides = map[string]bool{}

// defOverride registers a tensor-aware version of a Universe builtin.
func defOverride(name, doc string, fn builtinFn) *runtime.Builtin {
	overrides[name] = true
	fn = aliasedBuiltin(name, fn)
	return defGlobal(name, doc, fn)
}

func functional(name string, fn methodFn) builtinFn {
	fn = aliasedMethod(name, fn)
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		in, rest, kw, err := splitInput(name, args, kwargs)
		if err != nil {
			return nil, err
		}
		x, ok := in.(*TensorValue)
		if names, self := scalarSelf[name]; !ok && self {
			// torch.pow(2, t), torch.add(2, t): PyTorch's Scalar-self
			// overloads take a number as a wrapped 0-d tensor
			if w, isNum := operand(in); isNum {
				if names.tensorOther {
					if err := scalarSelfOther(name, in, rest, kw); err != nil {
						return nil, err
					}
				}
				r, err := fn(th, NewTensorValue(th, w), rest, kw)
				if tv, ok := r.(*TensorValue); ok && err == nil && names.from != "" && autograd.GradFnName(tv.t) == names.from {
					autograd.SetGradFnName(tv.t, names.to)
				}
				return r, err
			}
		}
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s(): argument 'input' must be a tensor, not %s", name, in.Type())
		}
		return fn(th, x, rest, kw)
	}
}

// scalarSelf names the functions whose PyTorch signature also takes a
// number as input (a Scalar-self overload, or a Python number parsed as a
// wrapped tensor: pow(2, t) is 2 ** t). from -> to renames the grad_fn
// the operator form records (2 ** t is PowBackward1, torch.pow(2, t)
// PowBackward2; 2 / t is MulBackward0, torch.div(2, t) DivBackward0, but
// with a rounding_mode DivBackward2 as for a tensor input). tensorOther:
// PyTorch has no overload with two numbers (torch.pow(2, 3) and
// torch.remainder(7, 2) are TypeErrors; torch.add(2, 3) is tensor(5)).
var scalarSelf = map[string]struct {
	from, to    string
	tensorOther bool
}{
	"pow":                 {"PowBackward1", "PowBackward2", true},
	"sub":                 {"RsubBackward1", "SubBackward0", false},
	"subtract":            {"RsubBackward1", "SubBackward0", false},
	"div":                 {"MulBackward0", "DivBackward0", false},
	"divide":              {"MulBackward0", "DivBackward0", false},
	"true_divide":         {"MulBackward0", "DivBackward0", false},
	"add":                 {},
	"mul":                 {},
	"multiply":            {},
	"floor_divide":        {},
	"remainder":           {"", "", true},
	"bitwise_left_shift":  {"", "", true},
	"bitwise_right_shift": {"", "", true},
}

// scalarSelfOther is PyTorch's TypeError for pow or remainder called with
// a number input and an other (exponent) that is not a tensor.
func scalarSelfOther(name string, in runtime.Value, rest []runtime.Value, kw []runtime.Kwarg) error {
	other := runtime.Value(nil)
	if len(rest) > 0 {
		other = rest[0]
	} else {
		for _, k := range kw {
			if k.Name == "other" || k.Name == "exponent" {
				other = k.Value
			}
		}
	}
	if _, ok := other.(*TensorValue); ok || other == nil {
		return nil
	}
	second := "exponent"
	if name == "remainder" || name == "bitwise_left_shift" || name == "bitwise_right_shift" {
		second = "other"
	}
	return runtime.Errorf("TypeError", "%s() received an invalid combination of arguments - got (%s, %s), but expected one of: (Tensor input, Tensor %s), (Number self, Tensor %s), (Tensor input, Number %s)",
		name, in.Type(), other.Type(), second, second, second)
}

// registerModule makes a stdlib module visible as a predeclared name.
// Files that implement a module (nn.go, bench.go, linalg.go, io.go, ...)
// call it from init.
func registerModule(name, doc string, members map[string]runtime.Value) *runtime.Module {
	m := &runtime.Module{ModName: name, Members: members, Doc: doc}
	modules[name] = m
	return m
}

// moduleFunc makes a builtin for a module member, named "mod.fn" in
// tracebacks.
func moduleFunc(mod, name, doc string, fn builtinFn) *runtime.Builtin {
	b := runtime.NewBuiltin(mod+"."+name, fn)
	b.Doc = doc
	b.FreshResults = true
	return b
}

// Attr returns a tensor attribute or a bound method; (nil, nil) when the
// name is unknown (the VM raises AttributeError).
func (x *TensorValue) Attr(name string) (runtime.Value, error) {
	if p, ok := tensorProps[name]; ok {
		return p(x)
	}
	if m, ok := tensorMethods[name]; ok {
		return m.BindReceiver(x), nil
	}
	return nil, nil
}

// AttrNames lists the attributes and methods, sorted.
func (x *TensorValue) AttrNames() []string {
	names := make([]string, 0, len(tensorProps)+len(tensorMethods))
	for n := range tensorProps {
		names = append(names, n)
	}
	for n := range tensorMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DelAttr performs del x.name as PyTorch's: del x.grad sets the gradient
// to none; del x.data and del x.requires_grad are its RuntimeErrors; other
// attributes are read-only (or absent).
func (x *TensorValue) DelAttr(name string) error {
	switch name {
	case "grad":
		x.t.SetGrad(nil)
		return nil
	case "data":
		return runtime.Errorf("RuntimeError", "Deleting tensor data is not allowed. Delete tensor instead!")
	case "requires_grad":
		return runtime.Errorf("RuntimeError", "requires_grad must be a bool")
	}
	if v, err := x.Attr(name); err != nil || v == nil {
		return runtime.Errorf("AttributeError", "'tensor' object has no attribute '%s'", name)
	}
	return runtime.Errorf("AttributeError", "attribute '%s' of 'tensor' objects is not writable", name)
}

// SetAttr assigns x.requires_grad, x.grad and x.data.
func (x *TensorValue) SetAttr(name string, v runtime.Value) error {
	switch name {
	case "data":
		// PyTorch's x.data = t: x keeps its identity, requires_grad,
		// grad and grad_fn and takes t's storage, shape, strides and dtype.
		d, ok := v.(*TensorValue)
		if !ok {
			return runtime.Errorf("TypeError", "Variable data has to be a tensor, but got %s", v.Type())
		}
		if x.t.RequiresGrad() && !d.t.DType().IsFloat() {
			return runtime.Errorf("RuntimeError", "data set to a tensor that requires gradients must be floating point or complex dtype")
		}
		x.t.SetData(d.t)
		return nil
	case "requires_grad":
		b, ok := v.(runtime.Bool)
		if !ok {
			return runtime.Errorf("TypeError", "requires_grad must be a bool, not %s", v.Type())
		}
		return requiresGradSet(x.t, bool(b))
	case "grad":
		if v == runtime.None {
			x.t.SetGrad(nil)
			return nil
		}
		g, ok := v.(*TensorValue)
		if !ok {
			return runtime.Errorf("TypeError", "assigned grad expected to be a Tensor or None but got grad of type %s", v.Type())
		}
		if !sameShape(g.t.Shape(), x.t.Shape()) {
			return runtime.Errorf("RuntimeError", "assigned grad has data of a different size")
		}
		if g.t.DType() != x.t.DType() {
			return runtime.Errorf("RuntimeError", "assigned grad has data of a different type")
		}
		x.t.SetGrad(g.t)
		return nil
	}
	if _, ok := tensorProps[name]; ok {
		return runtime.Errorf("AttributeError", "attribute '%s' of 'tensor' objects is not writable", name)
	}
	return runtime.Errorf("AttributeError", "'tensor' object has no attribute '%s'", name)
}
