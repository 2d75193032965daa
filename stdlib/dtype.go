package stdlib

import (
	"sort"
	"strings"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// DTypeValue is a dtype as a tsr value (f32, i64, ...). It prints as its
// short name. The aliases int, float and bool are also the conversion
// functions of LANGUAGE.md section 8: calling them converts a value (a
// one-element tensor gives its item), and passing them as dtype= selects
// i32, f32 and bool, as torch.int, torch.float and torch.bool do.
type DTypeValue struct {
	dt tensor.DType
	// conv names the Universe conversion builtin this value also is
	// ("int", "float", "bool"), or "" for a plain dtype.
	conv string
}

// DType returns the tensor dtype.
func (d *DTypeValue) DType() tensor.DType { return d.dt }

func (d *DTypeValue) String() string { return d.dt.String() }

// Type returns "dtype".
func (d *DTypeValue) Type() string { return "dtype" }
func (d *DTypeValue) Truth() bool  { return true }

// Name returns the name used in errors and tracebacks.
func (d *DTypeValue) Name() string {
	if d.conv != "" {
		return d.conv
	}
	return d.dt.String()
}

// Call converts its argument when the value is int, float or bool; other
// dtypes are not callable (TypeError). With a tensor argument, int and
// float take its item (ValueError "only one element tensors can be
// converted to Python scalars" unless it has exactly one element) and bool
// is its truth (RuntimeError "Boolean value of Tensor with more than one
// value is ambiguous", or "... with no values ..." when empty), as
// PyTorch's Tensor.__int__, __float__ and __bool__.
func (d *DTypeValue) Call(th *runtime.Thread, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	if d.conv == "" {
		return nil, runtime.Errorf("TypeError", "'dtype' object is not callable")
	}
	if len(args) == 1 && len(kwargs) == 0 {
		if x, ok := args[0].(*TensorValue); ok {
			if d.conv == "bool" {
				// bool(t) is t's truth: RuntimeError for several or no
				// elements, as Tensor.__bool__.
				b, err := x.TruthE()
				if err != nil {
					return nil, err
				}
				return runtime.Bool(b), nil
			}
			if x.t.Numel() != 1 {
				return nil, runtime.Errorf("ValueError", "only one element tensors can be converted to Python scalars")
			}
			v, err := x.t.Item()
			if err != nil {
				return nil, err
			}
			args = []runtime.Value{itemValue(v)}
		}
	}
	return callUniverse(th, d.conv, args, kwargs)
}

// Compare implements == and != between dtypes (f32 == float is true).
func (d *DTypeValue) Compare(op runtime.Op, y runtime.Value) (bool, error, bool) {
	e, ok := y.(*DTypeValue)
	switch op {
	case runtime.EQL:
		return ok && e.dt == d.dt, nil, true
	case runtime.NEQ:
		return !ok || e.dt != d.dt, nil, true
	}
	return false, nil, false
}

// Attr returns is_floating_point, is_signed and itemsize.
func (d *DTypeValue) Attr(name string) (runtime.Value, error) {
	switch name {
	case "is_floating_point":
		return runtime.Bool(d.dt.IsFloat()), nil
	case "is_signed":
		return runtime.Bool(d.dt != tensor.U8 && d.dt != tensor.Bool), nil
	case "is_complex":
		return runtime.Bool(false), nil
	case "itemsize":
		return runtime.MakeInt(int64(d.dt.ItemSize())), nil
	}
	return nil, nil
}

// AttrNames lists the attributes.
func (d *DTypeValue) AttrNames() []string {
	return []string{"is_complex", "is_floating_point", "is_signed", "itemsize"}
}

// callUniverse calls the runtime's builtin of that name.
func callUniverse(th *runtime.Thread, name string, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	fn, ok := runtime.Universe[name].(runtime.Callable)
	if !ok {
		return nil, runtime.Errorf("NameError", "name '%s' is not defined", name)
	}
	return fn.Call(th, args, kwargs)
}

// dtypeValues are the predeclared dtype names.
var dtypeValues = map[string]*DTypeValue{}

func init() {
	for _, dt := range tensor.AllDTypes {
		dtypeValues[dt.String()] = &DTypeValue{dt: dt}
	}
	for _, alias := range []string{"float16", "half", "bfloat16", "float32", "double", "float64",
		"int64", "long", "int32", "uint8", "int8", "int16", "short"} {
		dt, _ := tensor.ParseDType(alias)
		dtypeValues[alias] = dtypeValues[dt.String()]
	}
	dtypeValues["float"] = &DTypeValue{dt: tensor.F32, conv: "float"}
	dtypeValues["int"] = &DTypeValue{dt: tensor.I32, conv: "int"}
	dtypeValues["bool"] = &DTypeValue{dt: tensor.Bool, conv: "bool"}
	for name, d := range dtypeValues {
		globals[name] = d
	}
}

// dtypeOf maps a dtype value to a DType.
func dtypeOf(v runtime.Value) (tensor.DType, bool) {
	if d, ok := v.(*DTypeValue); ok {
		return d.dt, true
	}
	return 0, false
}

// dtypeVal returns the canonical value for dt.
func dtypeVal(dt tensor.DType) *DTypeValue { return dtypeValues[dt.String()] }

// DeviceValue is a device (device("cpu"), x.device); it prints as "cpu".
type DeviceValue struct {
	typ   string
	index int // -1: none
}

var cpuDevice = &DeviceValue{typ: "cpu", index: -1}

func (d *DeviceValue) String() string {
	if d.index >= 0 {
		return d.typ + ":" + itoa(d.index)
	}
	return d.typ
}
func (d *DeviceValue) Type() string { return "device" }
func (d *DeviceValue) Truth() bool  { return true }

// Attr returns type and index.
func (d *DeviceValue) Attr(name string) (runtime.Value, error) {
	switch name {
	case "type":
		return runtime.String(d.typ), nil
	case "index":
		if d.index < 0 {
			return runtime.None, nil
		}
		return runtime.MakeInt(int64(d.index)), nil
	}
	return nil, nil
}

// AttrNames lists the fields.
func (d *DeviceValue) AttrNames() []string { return []string{"index", "type"} }

// Compare implements == with devices and device strings ("cpu").
func (d *DeviceValue) Compare(op runtime.Op, y runtime.Value) (bool, error, bool) {
	var eq bool
	switch e := y.(type) {
	case *DeviceValue:
		eq = e.typ == d.typ && e.index == d.index
	case runtime.String:
		p, err := parseDevice(string(e))
		eq = err == nil && p.typ == d.typ && p.index == d.index
	}
	switch op {
	case runtime.EQL:
		return eq, nil, true
	case runtime.NEQ:
		return !eq, nil, true
	}
	return false, nil, false
}

// parseDevice parses "cpu", "cuda", "cuda:1", "mps", "metal".
func parseDevice(s string) (*DeviceValue, error) {
	typ, idx, hasIdx := strings.Cut(s, ":")
	switch typ {
	case "cpu", "cuda", "mps", "metal":
	default:
		return nil, runtime.Errorf("RuntimeError", "Expected one of cpu, cuda, mps, metal device type at start of device string: %s", s)
	}
	d := &DeviceValue{typ: typ, index: -1}
	if hasIdx {
		n := 0
		if idx == "" {
			return nil, runtime.Errorf("RuntimeError", "Invalid device string: '%s'", s)
		}
		for _, c := range idx {
			if c < '0' || c > '9' {
				return nil, runtime.Errorf("RuntimeError", "Invalid device string: '%s'", s)
			}
			n = n*10 + int(c-'0')
		}
		d.index = n
	}
	if typ == "cpu" && d.index <= 0 {
		return cpuDevice, nil
	}
	return d, nil
}

// deviceArg converts a device= argument (a device, a string or none).
func deviceArg(v runtime.Value) (*DeviceValue, error) {
	switch d := v.(type) {
	case nil, runtime.NoneType:
		return cpuDevice, nil
	case *DeviceValue:
		return d, nil
	case runtime.String:
		return parseDevice(string(d))
	}
	return nil, runtime.Errorf("TypeError", "device must be a device or a string, not %s", v.Type())
}

// checkCPU reports that tensors can only live on the CPU in this build.
func checkCPU(d *DeviceValue) error {
	if d.typ == "cpu" {
		return nil
	}
	return runtime.Errorf("RuntimeError", "device '%s' is not available: tsr was built without %s support, tensors live on the cpu", d, d.typ)
}

func itoa(n int) string { return runtime.MakeInt(int64(n)).String() }

// record is a read-only value with named fields (finfo, iinfo, timing
// results); it prints as name(field=value, ...).
type record struct {
	name   string
	fields []string
	values map[string]runtime.Value
}

func newRecord(name string) *record { return &record{name: name, values: map[string]runtime.Value{}} }

func (r *record) set(field string, v runtime.Value) *record {
	if _, ok := r.values[field]; !ok {
		r.fields = append(r.fields, field)
	}
	r.values[field] = v
	return r
}

func (r *record) String() string {
	var b strings.Builder
	b.WriteString(r.name + "(")
	for i, f := range r.fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f + "=" + runtime.Repr(r.values[f]))
	}
	b.WriteString(")")
	return b.String()
}
func (r *record) Type() string { return r.name }
func (r *record) Truth() bool  { return true }

// Attr returns a field.
func (r *record) Attr(name string) (runtime.Value, error) { return r.values[name], nil }

// AttrNames lists the fields, sorted.
func (r *record) AttrNames() []string {
	out := append([]string(nil), r.fields...)
	sort.Strings(out)
	return out
}

// Index allows r["min"] like a dict.
func (r *record) Index(key runtime.Value) (runtime.Value, error) {
	if s, ok := key.(runtime.String); ok {
		if v, ok := r.values[string(s)]; ok {
			return v, nil
		}
	}
	return nil, runtime.Errorf("KeyError", "%s", runtime.Repr(key))
}

func builtinFinfo(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var d dtypeOpt
	if err := runtime.UnpackArgs("finfo", args, kwargs, "type?", &d); err != nil {
		return nil, err
	}
	dt := tensor.DefaultFloat
	if d.ok {
		dt = d.dt
	}
	fi, err := tensor.Finfo(dt)
	if err != nil {
		return nil, runtime.Errorf("TypeError", "finfo: %s is not a floating point dtype", dt)
	}
	return newRecord("finfo").
		set("bits", runtime.MakeInt(int64(fi.Bits))).
		set("eps", runtime.Float(fi.Eps)).
		set("max", runtime.Float(fi.Max)).
		set("min", runtime.Float(fi.Min)).
		set("tiny", runtime.Float(fi.Tiny)).
		set("smallest_normal", runtime.Float(fi.Tiny)).
		set("resolution", runtime.Float(fi.Resolution)).
		set("dtype", dtypeVal(dt)), nil
}

func builtinIinfo(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var d dtypeOpt
	if err := runtime.UnpackArgs("iinfo", args, kwargs, "type", &d); err != nil {
		return nil, err
	}
	ii, err := tensor.Iinfo(d.dt)
	if err != nil {
		return nil, runtime.Errorf("TypeError", "iinfo: %s is not an integer dtype", d.dt)
	}
	return newRecord("iinfo").
		set("bits", runtime.MakeInt(int64(ii.Bits))).
		set("max", runtime.MakeInt(ii.Max)).
		set("min", runtime.MakeInt(ii.Min)).
		set("dtype", dtypeVal(d.dt)), nil
}
