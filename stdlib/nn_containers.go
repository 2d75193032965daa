package stdlib

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// More torch.nn classes (PyTorch 1.13): the containers ModuleList,
// ModuleDict and ParameterList, nn.Parameter, Unflatten, ConvTranspose1d/2d
// and the resampling layers Upsample, UpsamplingNearest2d and
// UpsamplingBilinear2d. Containers are layers whose children (or
// parameters) are named "0", "1", ... (ModuleDict: by key), so
// parameters(), named_parameters(), state_dict(), train()/eval(),
// zero_grad() and to() reach into them as into a Sequential.

func init() {
	m := modules["nn"]
	if m == nil {
		panic("stdlib: nn_containers.go initialised before nn.go")
	}
	class := func(name, doc string, make func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) {
		m.Members[name] = &layerClass{name: name, doc: doc, make: make}
	}
	class("ModuleList", "ModuleList(modules=none): a list of modules (not callable): ml[i] (a ModuleList for a slice), ml[i] = m, len, iteration, append(m), extend(ms), insert(i, m); parameters named \"0.weight\", ....", newModuleList)
	class("ModuleDict", "ModuleDict(modules=none): modules by string key, in insertion order (not callable): md[key], md[key] = m, md.key, len, `in`, iteration over the keys, keys(), values(), items(), update(dict), pop(key), clear(); parameters named \"key.weight\".", newModuleDict)
	class("ParameterList", "ParameterList(values=none): a list of parameters (tensors made nn.Parameter), named \"0\", \"1\", ... in parameters(): pl[i], len, iteration, append(value), extend(values).", newParameterList)
	class("Unflatten", "Unflatten(dim, unflattened_size): input.unflatten(dim, unflattened_size).", newUnflattenLayer)
	class("ConvTranspose1d", "ConvTranspose1d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=true, dilation=1, padding_mode=\"zeros\", dtype=f32): nn.conv_transpose1d with weight [in, out/groups, k] and bias [out], uniform in ±1/sqrt(out/groups*k) (kaiming_uniform, a=sqrt(5), fan_in of the weight's dim 1); called as m(input, output_size=none).", convTransposeClass(1))
	class("ConvTranspose2d", "ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=true, dilation=1, padding_mode=\"zeros\", dtype=f32): nn.conv_transpose2d with weight [in, out/groups, kh, kw] and bias [out]; called as m(input, output_size=none), output_size choosing the output_padding.", convTransposeClass(2))
	class("Upsample", "Upsample(size=none, scale_factor=none, mode=\"nearest\", align_corners=none, recompute_scale_factor=none): nn.interpolate with these options.", upsampleClass("Upsample", ""))
	class("UpsamplingNearest2d", "UpsamplingNearest2d(size=none, scale_factor=none): nn.interpolate with mode \"nearest\".", upsampleClass("UpsamplingNearest2d", "nearest"))
	class("UpsamplingBilinear2d", "UpsamplingBilinear2d(size=none, scale_factor=none): nn.interpolate with mode \"bilinear\" and align_corners=true.", upsampleClass("UpsamplingBilinear2d", "bilinear"))
	m.Members["Parameter"] = moduleFunc("nn", "Parameter", "Parameter(data=none, requires_grad=true): data (none: an empty f32 tensor) as a module parameter: a leaf sharing data's storage, requiring grad (float dtypes only), printed as \"Parameter containing:\" and the tensor. Assigned as a new attribute of a layer (m.scale = nn.Parameter(ones(3))) it is registered: parameters(), state_dict() and the optimizers see it.", nnParameter)
}

// nnParameter is torch.nn.Parameter(data=None, requires_grad=True).
func nnParameter(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var data tensorOpt
	rg := true
	if err := runtime.UnpackArgs("Parameter", args, kwargs, "data?", &data, "requires_grad?", &rg); err != nil {
		return nil, err
	}
	var t *T
	if data.t == nil {
		var err error
		if t, err = tensor.Zeros([]int{0}, tensor.DefaultFloat); err != nil {
			return nil, err
		}
	} else {
		t = autograd.Detach(data.t)
	}
	if rg && !t.DType().IsFloat() {
		return nil, runtime.Errorf("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients")
	}
	if err := autograd.RequiresGrad_(t, rg); err != nil {
		return nil, err
	}
	return newParamValue(th, t), nil
}

// ---- ModuleList ----

// moduleList is an nn.ModuleList: children "0", "1", ... and no forward.
type moduleList struct{ *layer }

// noForward is a container's forward: PyTorch's NotImplementedError.
func noForward(kind string) func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return nil, runtime.Errorf("NotImplementedError", "Module [%s] is missing the required \"forward\" function", kind)
	}
}

// modulesOf reads an iterable of modules (none: no modules).
func modulesOf(v runtime.Value) ([]*layer, error) {
	if v == runtime.None {
		return nil, nil
	}
	it, ok := v.(runtime.Iterable)
	if !ok || isModule(v) {
		return nil, runtime.Errorf("TypeError", "ModuleList.extend should be called with an iterable, but got %s", v.Type())
	}
	var out []*layer
	iter := it.Iterate()
	for e, ok := iter.Next(); ok; e, ok = iter.Next() {
		m, ok := asLayer(e)
		if !ok {
			return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", e.Type())
		}
		out = append(out, m)
	}
	return out, nil
}

// isModule reports whether v is an nn module value.
func isModule(v runtime.Value) bool {
	_, ok := asLayer(v)
	return ok
}

func newModuleList(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var mods runtime.Value = runtime.None
	if err := runtime.UnpackArgs("ModuleList", args, kwargs, "modules?", &mods); err != nil {
		return nil, err
	}
	subs, err := modulesOf(mods)
	if err != nil {
		return nil, err
	}
	return makeModuleList(subs), nil
}

func makeModuleList(subs []*layer) *moduleList {
	l := &layer{kind: "ModuleList", fields: map[string]runtime.Value{}}
	ml := &moduleList{l}
	l.outer = ml
	l.subs = subs
	ml.renumber()
	l.repr = containerRepr
	l.forward = noForward("ModuleList")
	return ml
}

// renumber names the children "0", "1", ... (after insert, as torch).
func (ml *moduleList) renumber() {
	ml.subNames = ml.subNames[:0]
	for i := range ml.subs {
		ml.subNames = append(ml.subNames, fmt.Sprint(i))
	}
}

// absIndex is torch's _get_abs_string_index: i in [-n, n), else
// IndexError "index i is out of range".
func absIndex(kind string, key runtime.Value, n int) (int, error) {
	i, ok := runtime.AsInt(key)
	if !ok || isBool(key) {
		return 0, runtime.Errorf("TypeError", "%s indices must be integers or slices, not %s", kind, key.Type())
	}
	if i < -int64(n) || i >= int64(n) {
		return 0, runtime.Errorf("IndexError", "index %d is out of range", i)
	}
	if i < 0 {
		i += int64(n)
	}
	return int(i), nil
}

// Len is the number of modules.
func (ml *moduleList) Len() int { return len(ml.subs) }

// Index returns module i or, for a slice, a ModuleList of those modules.
func (ml *moduleList) Index(key runtime.Value) (runtime.Value, error) {
	if sl, ok := key.(*runtime.Slice); ok {
		start, stop, step, err := sl.Indices(len(ml.subs))
		if err != nil {
			return nil, err
		}
		var subs []*layer
		for j := start; (step > 0 && j < stop) || (step < 0 && j > stop); j += step {
			subs = append(subs, ml.subs[j])
		}
		return makeModuleList(subs), nil
	}
	i, err := absIndex("ModuleList", key, len(ml.subs))
	if err != nil {
		return nil, err
	}
	return ml.subs[i].value(), nil
}

// SetIndex replaces module i.
func (ml *moduleList) SetIndex(key runtime.Value, v runtime.Value) error {
	i, err := absIndex("ModuleList", key, len(ml.subs))
	if err != nil {
		return err
	}
	m, ok := asLayer(v)
	if !ok {
		return runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
	}
	ml.subs[i] = m
	return nil
}

// Iterate yields the modules in order.
func (ml *moduleList) Iterate() runtime.Iterator { return subsIter(ml.layer) }

func subsIter(l *layer) runtime.Iterator {
	vals := make([]runtime.Value, len(l.subs))
	for i, m := range l.subs {
		vals[i] = m.value()
	}
	return runtime.NewList(vals).Iterate()
}

// Attr adds append, extend and insert to the layer attributes.
func (ml *moduleList) Attr(name string) (runtime.Value, error) {
	method := func(doc string, f builtinFn) *runtime.Builtin {
		b := runtime.NewBuiltin("ModuleList."+name, f)
		b.Doc = doc
		return b
	}
	switch name {
	case "append":
		return method("append(module): add a module at the end; returns the ModuleList.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs("append", args, kwargs, "module", &v); err != nil {
				return nil, err
			}
			m, ok := asLayer(v)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
			}
			ml.subs = append(ml.subs, m)
			ml.renumber()
			return ml, nil
		}), nil
	case "extend":
		return method("extend(modules): append each module of an iterable; returns the ModuleList.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs("extend", args, kwargs, "modules", &v); err != nil {
				return nil, err
			}
			subs, err := modulesOf(v)
			if err != nil {
				return nil, err
			}
			ml.subs = append(ml.subs, subs...)
			ml.renumber()
			return ml, nil
		}), nil
	case "insert":
		return method("insert(index, module): insert a module before index (Python's list.insert rules); the modules after it are renumbered.", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var idx int
			var v runtime.Value
			if err := runtime.UnpackArgs("insert", args, kwargs, "index", &idx, "module", &v); err != nil {
				return nil, err
			}
			m, ok := asLayer(v)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
			}
			n := len(ml.subs)
			if idx < 0 {
				idx = max(idx+n, 0)
			}
			idx = min(idx, n)
			ml.subs = append(ml.subs[:idx], append([]*layer{m}, ml.subs[idx:]...)...)
			ml.renumber()
			return runtime.None, nil
		}), nil
	}
	return ml.layer.Attr(name)
}

// AttrNames lists the layer attributes and the list methods.
func (ml *moduleList) AttrNames() []string {
	names := append(ml.layer.AttrNames(), "append", "extend", "insert")
	sort.Strings(names)
	return names
}

// ---- ModuleDict ----

// moduleDict is an nn.ModuleDict: children named by their keys, in
// insertion order.
type moduleDict struct{ *layer }

func newModuleDict(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var mods runtime.Value = runtime.None
	if err := runtime.UnpackArgs("ModuleDict", args, kwargs, "modules?", &mods); err != nil {
		return nil, err
	}
	l := &layer{kind: "ModuleDict", fields: map[string]runtime.Value{}}
	md := &moduleDict{l}
	l.outer = md
	l.repr = containerRepr
	l.forward = noForward("ModuleDict")
	if mods != runtime.None {
		if err := md.update(mods); err != nil {
			return nil, err
		}
	}
	return md, nil
}

// MappingItems returns the (key, module) pairs in insertion order, so
// {**md} and f(**md) unpack it as a mapping, as in Python.
func (md *moduleDict) MappingItems() [][2]runtime.Value {
	items := make([][2]runtime.Value, len(md.subNames))
	for i, n := range md.subNames {
		items[i] = [2]runtime.Value{runtime.String(n), md.subs[i].value()}
	}
	return items
}

// moduleKey checks a module name as torch's add_module.
func moduleKey(key runtime.Value) (string, error) {
	s, ok := key.(runtime.String)
	if !ok {
		return "", runtime.Errorf("TypeError", "module name should be a string. Got %s", key.Type())
	}
	switch {
	case s == "":
		return "", runtime.Errorf("KeyError", "module name can't be empty string \"\"")
	case strings.Contains(string(s), "."):
		return "", runtime.Errorf("KeyError", "module name can't contain \".\", got: %s", string(s))
	}
	return string(s), nil
}

// set adds or replaces the module under key.
func (md *moduleDict) set(key runtime.Value, v runtime.Value) error {
	k, err := moduleKey(key)
	if err != nil {
		return err
	}
	m, ok := asLayer(v)
	if !ok {
		return runtime.Errorf("TypeError", "%s is not a Module subclass", v.Type())
	}
	for i, n := range md.subNames {
		if n == k {
			md.subs[i] = m
			return nil
		}
	}
	md.subs = append(md.subs, m)
	md.subNames = append(md.subNames, k)
	return nil
}

// update adds the (key, module) pairs of a dict, a ModuleDict or an
// iterable of pairs.
func (md *moduleDict) update(v runtime.Value) error {
	switch x := v.(type) {
	case *runtime.Dict:
		for _, kv := range x.Items() {
			if err := md.set(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	case *moduleDict:
		for i, m := range x.subs {
			if err := md.set(runtime.String(x.subNames[i]), m.value()); err != nil {
				return err
			}
		}
		return nil
	}
	it, ok := v.(runtime.Iterable)
	if !ok || isModule(v) {
		return runtime.Errorf("TypeError", "ModuleDict.update should be called with an iterable of key/value pairs, but got %s", v.Type())
	}
	iter := it.Iterate()
	for i := 0; ; i++ {
		e, ok := iter.Next()
		if !ok {
			return nil
		}
		var pair []runtime.Value
		switch p := e.(type) {
		case runtime.Tuple:
			pair = p
		case *runtime.List:
			pair = p.Elems
		default:
			return runtime.Errorf("TypeError", "ModuleDict update sequence element #%d should be Iterable; is %s", i, e.Type())
		}
		if len(pair) != 2 {
			return runtime.Errorf("ValueError", "ModuleDict update sequence element #%d has length %d; 2 is required", i, len(pair))
		}
		if err := md.set(pair[0], pair[1]); err != nil {
			return err
		}
	}
}

// find returns the position of key, -1 when absent.
func (md *moduleDict) find(key runtime.Value) int {
	if s, ok := key.(runtime.String); ok {
		for i, n := range md.subNames {
			if n == string(s) {
				return i
			}
		}
	}
	return -1
}

// Len is the number of modules.
func (md *moduleDict) Len() int { return len(md.subs) }

// Index returns the module under key (KeyError when absent).
func (md *moduleDict) Index(key runtime.Value) (runtime.Value, error) {
	i := md.find(key)
	if i < 0 {
		return nil, runtime.Errorf("KeyError", "%s", runtime.Repr(key))
	}
	return md.subs[i].value(), nil
}

// SetIndex adds or replaces the module under key.
func (md *moduleDict) SetIndex(key runtime.Value, v runtime.Value) error { return md.set(key, v) }

// Iterate yields the keys in insertion order.
func (md *moduleDict) Iterate() runtime.Iterator {
	keys := make([]runtime.Value, len(md.subNames))
	for i, n := range md.subNames {
		keys[i] = runtime.String(n)
	}
	return runtime.NewList(keys).Iterate()
}

// Attr adds the dict methods, and each module by key, to the layer
// attributes.
func (md *moduleDict) Attr(name string) (runtime.Value, error) {
	method := func(doc string, f func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error)) *runtime.Builtin {
		b := runtime.NewBuiltin("ModuleDict."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			return f(args, kwargs)
		})
		b.Doc = doc
		return b
	}
	listOf := func(f func(i int) runtime.Value) func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		return func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs(name, args, kwargs); err != nil {
				return nil, err
			}
			out := make([]runtime.Value, len(md.subs))
			for i := range md.subs {
				out[i] = f(i)
			}
			return runtime.NewList(out), nil
		}
	}
	switch name {
	case "keys":
		return method("keys(): the keys, in insertion order (a list).", listOf(func(i int) runtime.Value { return runtime.String(md.subNames[i]) })), nil
	case "values":
		return method("values(): the modules, in insertion order (a list).", listOf(func(i int) runtime.Value { return md.subs[i].value() })), nil
	case "items":
		return method("items(): the (key, module) pairs, in insertion order (a list).", listOf(func(i int) runtime.Value {
			return runtime.Tuple{runtime.String(md.subNames[i]), md.subs[i].value()}
		})), nil
	case "update":
		return method("update(modules): add or replace the modules of a dict, a ModuleDict or an iterable of (key, module) pairs.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs("update", args, kwargs, "modules", &v); err != nil {
				return nil, err
			}
			return runtime.None, md.update(v)
		}), nil
	case "pop":
		return method("pop(key): remove the module under key and return it (KeyError when absent).", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var k runtime.Value
			if err := runtime.UnpackArgs("pop", args, kwargs, "key", &k); err != nil {
				return nil, err
			}
			i := md.find(k)
			if i < 0 {
				return nil, runtime.Errorf("KeyError", "%s", runtime.Repr(k))
			}
			m := md.subs[i]
			md.subs = append(md.subs[:i], md.subs[i+1:]...)
			md.subNames = append(md.subNames[:i], md.subNames[i+1:]...)
			return m.value(), nil
		}), nil
	case "clear":
		return method("clear(): remove every module.", func(args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			if err := noArgs("clear", args, kwargs); err != nil {
				return nil, err
			}
			md.subs, md.subNames = nil, nil
			return runtime.None, nil
		}), nil
	}
	return md.layer.Attr(name)
}

// AttrNames lists the layer attributes, the dict methods and the keys.
func (md *moduleDict) AttrNames() []string {
	names := append(md.layer.AttrNames(), "clear", "items", "keys", "pop", "update", "values")
	sort.Strings(names)
	return names
}

// ---- ParameterList ----

// paramList is an nn.ParameterList: parameters named "0", "1", ....
type paramList struct{ *layer }

func newParameterList(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var vals runtime.Value = runtime.None
	if err := runtime.UnpackArgs("ParameterList", args, kwargs, "values?", &vals); err != nil {
		return nil, err
	}
	l := &layer{kind: "ParameterList", fields: map[string]runtime.Value{}}
	pl := &paramList{l}
	l.outer = pl
	l.forward = noForward("ParameterList")
	l.repr = paramContainerRepr
	if vals != runtime.None {
		if err := pl.extend(th, vals); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

// add appends v, made a Parameter when it is a plain tensor (as torch's
// ParameterList.__setitem__).
func (pl *paramList) add(th *runtime.Thread, v runtime.Value) error {
	t, ok := v.(*TensorValue)
	if !ok {
		return runtime.Errorf("TypeError", "ParameterList holds tensors (parameters), not %s", v.Type())
	}
	if !t.param {
		p, err := nnParameter(th, nil, []runtime.Value{t}, nil)
		if err != nil {
			return err
		}
		t = p.(*TensorValue)
	}
	name := fmt.Sprint(len(pl.params))
	pl.params = append(pl.params, name)
	pl.fields[name] = t
	return nil
}

func (pl *paramList) extend(th *runtime.Thread, v runtime.Value) error {
	it, ok := v.(runtime.Iterable)
	if _, isT := v.(*TensorValue); !ok || isT {
		return runtime.Errorf("TypeError", "ParameterList.extend should be called with an iterable, but got %s", v.Type())
	}
	iter := it.Iterate()
	for e, ok := iter.Next(); ok; e, ok = iter.Next() {
		if err := pl.add(th, e); err != nil {
			return err
		}
	}
	return nil
}

// Len is the number of parameters.
func (pl *paramList) Len() int { return len(pl.params) }

// Index returns parameter i.
func (pl *paramList) Index(key runtime.Value) (runtime.Value, error) {
	i, err := absIndex("ParameterList", key, len(pl.params))
	if err != nil {
		return nil, err
	}
	return pl.fields[pl.params[i]], nil
}

// Iterate yields the parameters in order.
func (pl *paramList) Iterate() runtime.Iterator {
	vals := make([]runtime.Value, len(pl.params))
	for i, p := range pl.params {
		vals[i] = pl.fields[p]
	}
	return runtime.NewList(vals).Iterate()
}

// Attr adds append and extend to the layer attributes.
func (pl *paramList) Attr(name string) (runtime.Value, error) {
	switch name {
	case "append", "extend":
		b := runtime.NewBuiltin("ParameterList."+name, func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var v runtime.Value
			if err := runtime.UnpackArgs(name, args, kwargs, "value", &v); err != nil {
				return nil, err
			}
			var err error
			if name == "append" {
				err = pl.add(th, v)
			} else {
				err = pl.extend(th, v)
			}
			if err != nil {
				return nil, err
			}
			return pl, nil
		})
		b.Doc = name + "(value): add a parameter (append) or each of an iterable (extend); plain tensors become nn.Parameter. Returns the ParameterList."
		return b, nil
	}
	return pl.layer.Attr(name)
}

// AttrNames lists the layer attributes, append and extend.
func (pl *paramList) AttrNames() []string {
	names := append(pl.layer.AttrNames(), "append", "extend")
	sort.Strings(names)
	return names
}

// ---- Unflatten ----

func newUnflattenLayer(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	const kind = "Unflatten"
	var dim int
	var sizes runtime.Value
	if err := runtime.UnpackArgs(kind, args, kwargs, "dim", &dim, "unflattened_size", &sizes); err != nil {
		return nil, err
	}
	switch sizes.(type) {
	case runtime.Tuple, *runtime.List:
		if _, ok := runtime.AsInts(sizes); !ok {
			return nil, runtime.Errorf("TypeError", "unflattened_size must be tuple of ints, but found element of type %s", firstNonInt(sizes))
		}
	default:
		return nil, runtime.Errorf("TypeError", "unflattened_size must be a tuple of ints, but found type %s", sizes.Type())
	}
	l := newModule(kind, func(l *layer) string {
		return fmt.Sprintf("dim=%s, unflattened_size=%s", l.fields["dim"], runtime.Repr(l.fields["unflattened_size"]))
	})
	l.config = []string{"dim", "unflattened_size"}
	l.fields["dim"], l.fields["unflattened_size"] = runtime.MakeInt(int64(dim)), sizes
	l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		x, err := input1(kind, args, kwargs)
		if err != nil {
			return nil, err
		}
		return callMethod(th, x, "unflatten", []runtime.Value{l.fields["dim"], l.fields["unflattened_size"]}, nil)
	}
	return l, nil
}

// firstNonInt names the type of the first element of a list or tuple that
// is not an int.
func firstNonInt(v runtime.Value) string {
	var elems []runtime.Value
	switch x := v.(type) {
	case runtime.Tuple:
		elems = x
	case *runtime.List:
		elems = x.Elems
	}
	for _, e := range elems {
		if _, ok := e.(runtime.Int); !ok {
			return e.Type()
		}
	}
	return "int"
}

// ---- ConvTranspose1d, ConvTranspose2d ----

func convTransposeClass(nd int) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	kind := fmt.Sprintf("ConvTranspose%dd", nd)
	fname := fmt.Sprintf("conv_transpose%dd", nd)
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var in, out int
		var k runtime.Value
		var stride, padding, outPad, dilation runtime.Value = runtime.MakeInt(1), runtime.MakeInt(0), runtime.MakeInt(0), runtime.MakeInt(1)
		groups := 1
		bias := true
		mode := "zeros"
		var dt dtypeOpt
		if err := runtime.UnpackArgs(kind, args, kwargs, "in_channels", &in, "out_channels", &out, "kernel_size", &k,
			"stride?", &stride, "padding?", &padding, "output_padding?", &outPad, "groups?", &groups, "bias?", &bias,
			"dilation?", &dilation, "padding_mode?", &mode, "dtype?", &dt); err != nil {
			return nil, err
		}
		dtype, err := layerDType(kind, dt)
		if err != nil {
			return nil, err
		}
		switch {
		case in < 0 || out < 0:
			return nil, runtime.Errorf("RuntimeError", "%s: in_channels and out_channels must be non-negative", kind)
		case groups <= 0:
			return nil, runtime.Errorf("ValueError", "groups must be a positive integer")
		case in%groups != 0:
			return nil, runtime.Errorf("ValueError", "in_channels must be divisible by groups")
		case out%groups != 0:
			return nil, runtime.Errorf("ValueError", "out_channels must be divisible by groups")
		case mode != "zeros":
			return nil, runtime.Errorf("ValueError", "Only \"zeros\" padding mode is supported for %s", kind)
		}
		if _, ok := padding.(runtime.String); ok {
			return nil, runtime.Errorf("TypeError", "%s: padding must be an int or a tuple of ints (no \"same\"/\"valid\")", kind)
		}
		tup := map[string]runtime.Tuple{}
		for _, a := range []struct {
			name string
			v    runtime.Value
		}{{"kernel_size", k}, {"stride", stride}, {"padding", padding}, {"output_padding", outPad}, {"dilation", dilation}} {
			t, err := layerInts(kind, a.name, a.v, nd)
			if err != nil {
				return nil, err
			}
			tup[a.name] = t
		}
		kk := tupleInts(tup["kernel_size"])
		// torch's _calculate_fan_in_and_fan_out: weight [in, out/groups, k...]
		// has fan_in = (out/groups) * prod(k)
		fanIn := out / groups
		wShape := []int{in, out / groups}
		for _, x := range kk {
			fanIn *= x
			wShape = append(wShape, x)
		}
		w, b, err := kaimingUniformBias(th, wShape, fanIn, bias, out, dtype)
		if err != nil {
			return nil, err
		}
		l := newModule(kind, convExtraRepr)
		l.params = []string{"weight", "bias"}
		l.config = []string{"in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding", "dilation", "groups", "padding_mode"}
		for name, v := range map[string]runtime.Value{
			"in_channels": runtime.MakeInt(int64(in)), "out_channels": runtime.MakeInt(int64(out)),
			"groups": runtime.MakeInt(int64(groups)), "padding_mode": runtime.String(mode), "transposed": runtime.Bool(true),
			"weight": w, "bias": b,
		} {
			l.fields[name] = v
		}
		for name, t := range tup {
			l.fields[name] = t
		}
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var x tensorArg
			var size runtime.Value = runtime.None
			if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x, "output_size?", &size); err != nil {
				return nil, err
			}
			op := l.fields["output_padding"]
			if size != runtime.None {
				var err error
				if op, err = transposeOutputPadding(l, x.t, size, nd); err != nil {
					return nil, err
				}
			}
			return callNN(th, fname, []runtime.Value{wrap(engineOf(th), x.t), l.fields["weight"], l.fieldOrNone("bias"),
				l.fields["stride"], l.fields["padding"], op, l.fields["groups"], l.fields["dilation"]}, nil)
		}
		return l, nil
	}
}

// transposeOutputPadding is torch's _ConvTransposeNd._output_padding: the
// output_padding giving output_size (the trailing nd sizes of it), which
// must lie within [min, min + stride - 1] with min the size for
// output_padding 0.
func transposeOutputPadding(l *layer, x *T, size runtime.Value, nd int) (runtime.Value, error) {
	s, ok := runtime.AsInts(size)
	if !ok || isBool(size) {
		return nil, runtime.Errorf("TypeError", "output_size must be a list of ints, not %s", size.Type())
	}
	if x.Dim() != nd+1 && x.Dim() != nd+2 {
		return nil, runtime.Errorf("ValueError", "ConvTranspose%dD: expected %dD or %dD input (got %dD input)", nd, nd+1, nd+2, x.Dim())
	}
	if len(s) == nd+2 || (len(s) == nd+1 && x.Dim() == nd+1) {
		s = s[len(s)-nd:]
	}
	if len(s) != nd {
		return nil, runtime.Errorf("ValueError", "ConvTranspose%dD: for %dD input, output_size must have %d or %d elements (got %d)", nd, x.Dim(), nd, x.Dim(), len(s))
	}
	st, pd, dl, ks := tupleInts(l.fields["stride"].(runtime.Tuple)), tupleInts(l.fields["padding"].(runtime.Tuple)),
		tupleInts(l.fields["dilation"].(runtime.Tuple)), tupleInts(l.fields["kernel_size"].(runtime.Tuple))
	xs := x.Shape()[x.Dim()-nd:]
	minS, maxS := make([]int, nd), make([]int, nd)
	for d := range nd {
		minS[d] = (xs[d]-1)*st[d] - 2*pd[d] + dl[d]*(ks[d]-1) + 1
		maxS[d] = minS[d] + st[d] - 1
	}
	out := make(runtime.Tuple, nd)
	for d := range nd {
		if s[d] < minS[d] || s[d] > maxS[d] {
			return nil, runtime.Errorf("ValueError", "requested an output size of %s, but valid sizes range from %s to %s (for an input of %s)",
				intList(s), intList(minS), intList(maxS), torchSize(xs))
		}
		out[d] = runtime.MakeInt(int64(s[d] - minS[d]))
	}
	return out, nil
}

// kaimingUniformBias is kaimingUniform with the bias length given (a
// transposed convolution's bias has out_channels, not the weight's dim 0).
func kaimingUniformBias(th *runtime.Thread, wShape []int, fanIn int, bias bool, nBias int, dt tensor.DType) (w, b runtime.Value, err error) {
	if w, _, err = kaimingUniform(th, wShape, fanIn, false, dt); err != nil || !bias {
		return w, runtime.None, err
	}
	bound := 0.0
	if fanIn > 0 {
		bound = 1 / math.Sqrt(float64(fanIn))
	}
	bt, err := tensor.Uniform(stateOf(th).gen, []int{nBias}, dt, -bound, bound)
	if err != nil {
		return nil, nil, err
	}
	b, err = newParam(th, bt)
	return w, b, err
}

// ---- Upsample ----

// upsampleClass makes Upsample (fixed "" : every option) or the
// UpsamplingNearest2d / UpsamplingBilinear2d shorthands.
func upsampleClass(kind, fixed string) func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	return func(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var size, scale, align, recompute runtime.Value = runtime.None, runtime.None, runtime.None, runtime.None
		mode := "nearest"
		names := []any{"size?", &size, "scale_factor?", &scale}
		if fixed == "" {
			names = append(names, "mode?", &mode, "align_corners?", &align, "recompute_scale_factor?", &recompute)
		} else {
			mode = fixed
			if fixed == "bilinear" {
				align = runtime.Bool(true)
			}
		}
		if err := runtime.UnpackArgs(kind, args, kwargs, names...); err != nil {
			return nil, err
		}
		// torch keeps scale_factor as float(s) (a tuple of floats for a
		// sequence) and size as given
		if scale != runtime.None {
			f, seq, ok := floatsOf(scale)
			if !ok {
				return nil, runtime.Errorf("TypeError", "%s: scale_factor must be a number or a tuple of numbers, not %s", kind, runtime.Repr(scale))
			}
			if seq {
				t := make(runtime.Tuple, len(f))
				for i, v := range f {
					t[i] = runtime.Float(v)
				}
				scale = t
			} else {
				scale = runtime.Float(f[0])
			}
		}
		l := newModule(kind, func(l *layer) string {
			s := "size=" + runtime.Repr(l.fields["size"])
			if l.fields["scale_factor"] != runtime.None {
				s = "scale_factor=" + runtime.Repr(l.fields["scale_factor"])
			}
			return s + ", mode=" + l.fields["mode"].String()
		})
		l.config = []string{"size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"}
		l.fields["size"], l.fields["scale_factor"], l.fields["mode"] = size, scale, runtime.String(mode)
		l.fields["align_corners"], l.fields["recompute_scale_factor"] = align, recompute
		l.forward = func(th *runtime.Thread, l *layer, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
			var x tensorArg
			if err := runtime.UnpackArgs(kind+".forward", args, kwargs, "input", &x); err != nil {
				return nil, err
			}
			return interpolate(th, x.t, l.fields["size"], l.fields["scale_factor"], l.fields["mode"].String(),
				l.fields["align_corners"], l.fields["recompute_scale_factor"], false)
		}
		return l, nil
	}
}
