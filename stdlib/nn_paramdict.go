package stdlib

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// nn.ParameterDict (PyTorch 1.13), and del on the dict-like and list-like
// containers (del pd[key], del md[key], del ml[i]).

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_paramdict.go initialised before nn.go")
	}
	m.Members["ParameterDict"] = &layerClass{name: "ParameterDict", doc: "ParameterDict(parameters=none): parameters by string key, in insertion order (not callable), " +
		"plain tensors made nn.Parameter: pd[key], pd[key] = t, pd.key, del pd[key], len, `in`, iteration over the keys, keys(), values(), items(), " +
		"get(key, default=none), setdefault(key, default=none), update(dict or pairs), pop(key), popitem(), clear(); parameters() and state_dict() name them by key.",
		make: newParameterDict}
}

// paramDict is an nn.ParameterDict: parameters named by their keys.
type paramDict struct{ *layer }

func newParameterDict(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var vals runtime.Value = runtime.None
	if err := runtime.UnpackArgs("ParameterDict", args, kwargs, "parameters?", &vals); err != nil {
		return nil, err
	}
	l := &layer{kind: "ParameterDict", fields: map[string]runtime.Value{}}
	pd := &paramDict{l}
	l.outer = pd
	l.forward = noForward("ParameterDict")
	l.repr = paramContainerRepr
	if vals != runtime.None {
		if err := pd.update(vals); err != nil {
			return nil, err
		}
	}
	return pd, nil
}

// paramContainerRepr is the printout of a ParameterList or ParameterDict:
// one "(name): Parameter containing: [f64 of size 2x3]" line per
// parameter, with the parameter's own dtype (torch prints torch.float64,
// or for a ParameterDict torch.DoubleTensor).
func paramContainerRepr(l *layer) string {
	if len(l.params) == 0 {
		return l.kind + "()"
	}
	var b strings.Builder
	b.WriteString(l.kind + "(\n")
	for _, p := range l.params {
		t := l.fields[p].(*TensorValue).t
		size := make([]string, t.Dim())
		for i, s := range t.Shape() {
			size[i] = fmt.Sprint(s)
		}
		fmt.Fprintf(&b, "    (%s): Parameter containing: [%s of size %s]\n", p, t.DType(), strings.Join(size, "x"))
	}
	b.WriteString(")")
	return b.String()
}

// key checks a ParameterDict key: a string, as torch's
// register_parameter requires of a name.
func (pd *paramDict) key(k runtime.Value) (string, error) {
	s, ok := k.(runtime.String)
	if !ok {
		return "", runtime.Errorf("TypeError", "Index given to ParameterDict cannot be used as a key as it is not a string (type is '%s'). Open an issue on github if you need non-string keys.", k.Type())
	}
	switch {
	case s == "":
		return "", runtime.Errorf("KeyError", "parameter name can't be empty string \"\"")
	case strings.Contains(string(s), "."):
		return "", runtime.Errorf("KeyError", "parameter name can't contain \".\"")
	}
	return string(s), nil
}

// set adds or replaces the parameter under key; a plain tensor is made a
// Parameter (torch's ParameterDict.__setitem__).
func (pd *paramDict) set(key, v runtime.Value) error {
	k, err := pd.key(key)
	if err != nil {
		return err
	}
	t, ok := v.(*TensorValue)
	if !ok {
		return runtime.Errorf("TypeError", "ParameterDict holds tensors (parameters), not %s", v.Type())
	}
	if !t.param {
		if t, err = asParameter(t); err != nil {
			return err
		}
	}
	if _, ok := pd.fields[k]; !ok {
		pd.params = append(pd.params, k)
	}
	pd.fields[k] = t
	return nil
}

// asParameter is nn.Parameter(t): a detached leaf sharing t's storage
// that requires grad (float dtypes only), on t's engine.
func asParameter(t *TensorValue) (*TensorValue, error) {
	d := autograd.Detach(t.t)
	if !d.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients")
	}
	if err := autograd.RequiresGrad_(d, true); err != nil {
		return nil, err
	}
	return &TensorValue{t: d, eng: t.eng, param: true}, nil
}

// update adds the (key, tensor) pairs of a dict, a ParameterDict or an
// iterable of pairs, in order.
func (pd *paramDict) update(v runtime.Value) error {
	switch x := v.(type) {
	case *runtime.Dict:
		for _, kv := range x.Items() {
			if err := pd.set(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	case *paramDict:
		for _, p := range append([]string(nil), x.params...) {
			if err := pd.set(runtime.String(p), x.fields[p]); err != nil {
				return err
			}
		}
		return nil
	}
	it, ok := v.(runtime.Iterable)
	if _, isT := v.(*TensorValue); !ok || isT || isModule(v) {
		return runtime.Errorf("TypeError", "ParametersDict.update should be called with an iterable of key/value pairs, but got %s", v.Type())
	}
	iter := it.Iterate()
	for i := 0; ; i++ {
		e, ok := iter.Next()
		if !ok {
			return nil
		}
		pair, err := runtime.Elements(e)
		if err != nil {
			return runtime.Errorf("TypeError", "ParameterDict update sequence element #%d should be Iterable; is %s", i, e.Type())
		}
		if len(pair) != 2 {
			return runtime.Errorf("ValueError", "ParameterDict update sequence element #%d has length %d; 2 is required", i, len(pair))
		}
		if err := pd.set(pair[0], pair[1]); err != nil {
			return err
		}
	}
}

// get returns the parameter under key, or nil.
func (pd *paramDict) get(key runtime.Value) runtime.Value {
	if s, ok := key.(runtime.String); ok {
		for _, p := range pd.params {
			if p == string(s) {
				return pd.fields[p]
			}
		}
	}
	return nil
}

// missing is torch 1.13's error for an absent key (its __getitem__ reads
// the attribute).
func (pd *paramDict) missing(key runtime.Value) error {
	if s, ok := key.(runtime.String); ok {
		return runtime.Errorf("AttributeError", "'ParameterDict' object has no attribute '%s'", string(s))
	}
	_, err := pd.key(key)
	return err
}

// remove deletes the parameter under key and returns it.
func (pd *paramDict) remove(key runtime.Value) (runtime.Value, error) {
	v := pd.get(key)
	if v == nil {
		return nil, pd.missing(key)
	}
	k := string(key.(runtime.String))
	pd.params, _ = removeName(pd.params, k)
	delete(pd.fields, k)
	return v, nil
}

// Len is the number of parameters.
func (pd *paramDict) Len() int { return len(pd.params) }

// Index returns the parameter under key.
func (pd *paramDict) Index(key runtime.Value) (runtime.Value, error) {
	if v := pd.get(key); v != nil {
		return v, nil
	}
	return nil, pd.missing(key)
}

// SetIndex adds or replaces the parameter under key.
func (pd *paramDict) SetIndex(key runtime.Value, v runtime.Value) error {
	return pd.set(key, v)
}

// DelIndex removes the parameter under key (del pd[key]); an absent key
// is a KeyError, as torch's __delitem__ (del self._keys[key]).
func (pd *paramDict) DelIndex(key runtime.Value) error {
	if pd.get(key) == nil {
		return runtime.Errorf("KeyError", "%s", runtime.Repr(key))
	}
	_, err := pd.remove(key)
	return err
}

// DelAttr removes the parameter of that name (del pd.key).
func (pd *paramDict) DelAttr(name string) error {
	_, err := pd.remove(runtime.String(name))
	return err
}

// MappingItems returns the (key, parameter) pairs in insertion order, so
// {**pd} and f(**pd) unpack it as a mapping, as in Python.
func (pd *paramDict) MappingItems() [][2]runtime.Value {
	items := make([][2]runtime.Value, len(pd.params))
	for i, p := range pd.params {
		items[i] = [2]runtime.Value{runtime.String(p), pd.fields[p]}
	}
	return items
}

// Iterate yields the keys in insertion order.
func (pd *paramDict) Iterate() runtime.Iterator {
	keys := make([]runtime.Value, len(pd.params))
	for i, p := range pd.params {
		keys[i] = runtime.String(p)
	}
	return runtime.NewList(keys).Iterate()
}

// Attr adds the dict methods to the layer attributes (which include each
// parameter by key).
func (pd *paramDict) Attr(name string) (runtime.Value, error) {
	method := func(doc string, f func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) *runtime.Builtin {
		b := runtime.NewBuiltin("ParameterDict."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return f(th, args, kwargs)
		})
		b.Doc = doc
		return b
	}
	listOf := func(f func(p string) runtime.Value) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			out := make([]runtime.Value, len(pd.params))
			for i, p := range pd.params {
				out[i] = f(p)
			}
			return runtime.NewList(out), nil
		}
	}
	switch name {
	case "keys":
		return method("keys(): the keys, in insertion order (a list).", listOf(func(p string) runtime.Value { return runtime.String(p) })), nil
	case "values":
		return method("values(): the parameters, in insertion order (a list).", listOf(func(p string) runtime.Value { return pd.fields[p] })), nil
	case "items":
		return method("items(): the (key, parameter) pairs, in insertion order (a list).", listOf(func(p string) runtime.Value {
			return runtime.Tuple{runtime.String(p), pd.fields[p]}
		})), nil
	case "get", "setdefault":
		return method(name+"(key, default=none): the parameter under key; when absent, default ("+name+" also stores a tensor default).", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var k runtime.Value
			var d runtime.Value = runtime.None
			if err := runtime.UnpackArgs(name, args, kwargs, "key", &k, "default?", &d); err != nil {
				return nil, err
			}
			if v := pd.get(k); v != nil {
				return v, nil
			}
			if name == "setdefault" && d != runtime.None {
				if err := pd.set(k, d); err != nil {
					return nil, err
				}
				return pd.get(k), nil
			}
			return d, nil
		}), nil
	case "update":
		return method("update(parameters): add or replace the parameters of a dict, a ParameterDict or an iterable of (key, tensor) pairs.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs("update", args, kwargs, "parameters", &v); err != nil {
				return nil, err
			}
			return runtime.None, pd.update(v)
		}), nil
	case "pop":
		return method("pop(key): remove the parameter under key and return it.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var k runtime.Value
			if err := runtime.UnpackArgs("pop", args, kwargs, "key", &k); err != nil {
				return nil, err
			}
			return pd.remove(k)
		}), nil
	case "popitem":
		return method("popitem(): remove the last inserted parameter and return (key, parameter) (KeyError when empty).", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("popitem", args, kwargs); err != nil {
				return nil, err
			}
			if len(pd.params) == 0 {
				return nil, runtime.Errorf("KeyError", "'popitem(): dictionary is empty'")
			}
			k := runtime.String(pd.params[len(pd.params)-1])
			v, err := pd.remove(k)
			if err != nil {
				return nil, err
			}
			return runtime.Tuple{k, v}, nil
		}), nil
	case "clear":
		return method("clear(): remove every parameter.", func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("clear", args, kwargs); err != nil {
				return nil, err
			}
			for _, p := range pd.params {
				delete(pd.fields, p)
			}
			pd.params = nil
			return runtime.None, nil
		}), nil
	}
	return pd.layer.Attr(name)
}

// AttrNames lists the layer attributes and the dict methods.
func (pd *paramDict) AttrNames() []string {
	names := append(pd.layer.AttrNames(), "clear", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values")
	sort.Strings(names)
	return names
}

// DelIndex removes the module under key (del md[key]; KeyError when
// absent, as torch's).
func (md *moduleDict) DelIndex(key runtime.Value) error {
	i := md.find(key)
	if i < 0 {
		return runtime.Errorf("KeyError", "%s", runtime.Repr(key))
	}
	md.subs = append(md.subs[:i:i], md.subs[i+1:]...)
	md.subNames = append(md.subNames[:i:i], md.subNames[i+1:]...)
	return nil
}

// DelIndex removes module i or a slice of modules (del ml[i], del
// ml[a:b]) and renumbers the rest "0", "1", ..., as torch's
// ModuleList.__delitem__.
func (ml *moduleList) DelIndex(key runtime.Value) error {
	n := len(ml.subs)
	drop := make([]bool, n)
	if sl, ok := key.(*runtime.Slice); ok {
		start, stop, step, err := sl.Indices(n)
		if err != nil {
			return err
		}
		for j := start; (step > 0 && j < stop) || (step < 0 && j > stop); j += step {
			drop[j] = true
		}
	} else {
		i, err := absIndex("ModuleList", key, n)
		if err != nil {
			return err
		}
		drop[i] = true
	}
	var subs []*layer
	for j, m := range ml.subs {
		if !drop[j] {
			subs = append(subs, m)
		}
	}
	ml.subs = subs
	ml.renumber()
	return nil
}
