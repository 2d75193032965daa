package tsr

import (
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/stdlib"
	"github.com/tsrlang/tsr/tensor"
	"gonum.org/v1/gonum/mat"
)

// Element is the set of Go element types Tensor accepts.
type Element interface {
	~float32 | ~float64 | ~int64 | ~int32 | ~int | ~uint8 | ~bool
}

// Tensor builds a tensor of the given shape from data in C (row-major)
// order, copying it. The dtype follows the Go type: float32 → f32,
// float64 → f64, int64 and int → i64, int32 → i32, uint8 → u8, bool →
// bool. With no shape the tensor is 1-D of len(data). The product of shape
// must equal len(data) (a ValueError-like Go error otherwise).
//
//	t, err := tsr.Tensor([]float32{1, 2, 3, 4, 5, 6}, 2, 3) // f32 [2, 3]
func Tensor[T Element](data []T, shape ...int) (*tensor.Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	n := 1
	for _, s := range shape {
		if s < 0 {
			return nil, fmt.Errorf("tsr.Tensor: negative dimension %d in shape %v", s, shape)
		}
		n *= s
	}
	if n != len(data) {
		return nil, fmt.Errorf("tsr.Tensor: shape %v needs %d elements, data has %d", shape, n, len(data))
	}
	switch d := any(data).(type) {
	case []float32:
		return tensor.FromFloat32s(d, shape, tensor.F32)
	case []float64:
		return tensor.FromFloat64s(d, shape, tensor.F64)
	case []bool:
		return tensor.FromBools(d, shape)
	}
	// Named types and the integer kinds go through reflection.
	rv := reflect.ValueOf(data)
	switch rv.Type().Elem().Kind() {
	case reflect.Float32:
		f := make([]float32, n)
		for i := range f {
			f[i] = float32(rv.Index(i).Float())
		}
		return tensor.FromFloat32s(f, shape, tensor.F32)
	case reflect.Float64:
		f := make([]float64, n)
		for i := range f {
			f[i] = rv.Index(i).Float()
		}
		return tensor.FromFloat64s(f, shape, tensor.F64)
	case reflect.Bool:
		b := make([]bool, n)
		for i := range b {
			b[i] = rv.Index(i).Bool()
		}
		return tensor.FromBools(b, shape)
	case reflect.Uint8:
		x := make([]int64, n)
		for i := range x {
			x[i] = int64(rv.Index(i).Uint())
		}
		return tensor.FromInt64s(x, shape, tensor.U8)
	}
	x := make([]int64, n)
	for i := range x {
		x[i] = rv.Index(i).Int()
	}
	dt := tensor.I64
	if rv.Type().Elem().Kind() == reflect.Int32 {
		dt = tensor.I32
	}
	return tensor.FromInt64s(x, shape, dt)
}

// ToValue converts a Go value to a tsr value (see Interpreter.ToValue).
// Tensors made here belong to no interpreter's autograd engine; prefer the
// method, which binds them to the interpreter.
func ToValue(v any) (runtime.Value, error) { return toValue(nil, v) }

// ToValue converts a Go value to a tsr value for this interpreter:
//
//	nil                          → none
//	bool, ints, uints, floats    → bool, int (uint64 above MaxInt64 is an error), float
//	string                       → str
//	*tensor.Tensor               → the tensor (shared, not copied); a typed nil is none,
//	                               an invalid one (the zero tensor.Tensor{}, see
//	                               Tensor.CheckValid) a ValueError
//	mat.Vector (*mat.VecDense)   → f64 tensor [n] (copied)
//	mat.Matrix (*mat.Dense, ...) → f64 tensor [r, c] (copied)
//	[]float32, []float64         → f32 / f64 tensor [n] (copied)
//	other slices and arrays      → list (elements converted recursively)
//	maps with string keys        → dict, keys sorted
//	runtime.Value                → itself
//
// []float32 and []float64 become 1-D f32 and f64 tensors (copied), as
// LANGUAGE.md §10 has it; use Tensor(data, shape...) for another shape.
func (in *Interpreter) ToValue(v any) (runtime.Value, error) { return toValue(in.th, v) }

func toValue(th *runtime.Thread, v any) (runtime.Value, error) { return toValueDepth(th, v, 0) }

// toValueDepth is toValue for a value nested depth containers deep: Go
// slices and maps may contain themselves, and converting one must fail
// with an error, not overflow the goroutine's stack.
func toValueDepth(th *runtime.Thread, v any, depth int) (runtime.Value, error) {
	if depth > runtime.MaxNesting {
		return nil, fmt.Errorf("tsr: cannot convert a Go value nested more than %d levels deep (does it contain itself?)", runtime.MaxNesting)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		// A typed nil (*tensor.Tensor, *mat.Dense, ...) is none; the
		// interface cases below would call its methods.
		return runtime.None, nil
	}
	switch x := v.(type) {
	case nil:
		return runtime.None, nil
	case *tensor.Tensor:
		// A zero tensor.Tensor{} (or one with inconsistent metadata)
		// would crash the first op that reads it.
		if err := x.CheckValid(); err != nil {
			return nil, runtime.Errorf("ValueError", "tsr: cannot convert an invalid *tensor.Tensor: %s", err)
		}
		return stdlib.NewTensorValue(th, x), nil
	case runtime.Value:
		return x, nil
	case bool:
		return runtime.Bool(x), nil
	case int:
		return runtime.MakeInt(int64(x)), nil
	case int64:
		return runtime.MakeInt(x), nil
	case float64:
		return runtime.Float(x), nil
	case float32:
		return runtime.Float(x), nil
	case []float32: // LANGUAGE.md §10: float slices are tensor data
		t, err := tensor.FromFloat32s(x, []int{len(x)}, tensor.F32)
		if err != nil {
			return nil, err
		}
		return stdlib.NewTensorValue(th, t), nil
	case []float64:
		t, err := tensor.FromFloat64s(x, []int{len(x)}, tensor.F64)
		if err != nil {
			return nil, err
		}
		return stdlib.NewTensorValue(th, t), nil
	case string:
		return runtime.String(x), nil
	case mat.Vector:
		n := x.Len()
		data := make([]float64, n)
		for i := range data {
			data[i] = x.AtVec(i)
		}
		t, err := tensor.FromFloat64s(data, []int{n}, tensor.F64)
		if err != nil {
			return nil, err
		}
		return stdlib.NewTensorValue(th, t), nil
	case mat.Matrix:
		r, c := x.Dims()
		data := make([]float64, r*c)
		if d, ok := x.(*mat.Dense); ok {
			raw := d.RawMatrix()
			for i := 0; i < r; i++ {
				copy(data[i*c:(i+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
			}
		} else {
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					data[i*c+j] = x.At(i, j)
				}
			}
		}
		t, err := tensor.FromFloat64s(data, []int{r, c}, tensor.F64)
		if err != nil {
			return nil, err
		}
		return stdlib.NewTensorValue(th, t), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return runtime.Bool(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return runtime.MakeInt(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return nil, fmt.Errorf("tsr: %T value %d overflows a tsr int (int64)", v, u)
		}
		return runtime.MakeInt(int64(u)), nil
	case reflect.Float32, reflect.Float64:
		return runtime.Float(rv.Float()), nil
	case reflect.String:
		return runtime.String(rv.String()), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return runtime.NewList(nil), nil
		}
		elems := make([]runtime.Value, rv.Len())
		for i := range elems {
			e, err := toValueDepth(th, rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			elems[i] = e
		}
		return runtime.NewList(elems), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("tsr: cannot convert %T to a tsr dict: keys must be strings", v)
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		d := runtime.NewDict(len(keys))
		for _, k := range keys {
			e, err := toValueDepth(th, rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(runtime.String(k), e); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("tsr: cannot convert %T to a tsr value", v)
}

// FromValue converts a tsr value to a Go value: none → nil, bool, int →
// int64, float → float64, str → string, list/tuple → []any, dict →
// map[string]any (keys by their str()), tensor → *tensor.Tensor (shared,
// not copied); other values (functions, modules, dtypes, ...) are returned
// as they are. Use Convert for a specific Go type.
//
// A list or dict that contains itself, or containers nested more than
// runtime.MaxNesting deep, stay tsr values (*runtime.List, *runtime.Dict,
// ...) where they recur or where that depth is reached.
func FromValue(v runtime.Value) any { return fromValue(v, 0, nil) }

// fromValue converts v, depth containers deep; active holds the lists and
// dicts being converted on the path from the root (nil until needed).
func fromValue(v runtime.Value, depth int, active map[runtime.Value]bool) any {
	switch v.(type) {
	case *runtime.List, *runtime.Dict:
		if depth > runtime.MaxNesting || active[v] {
			return v
		}
	case runtime.Tuple, *runtime.NamedTuple:
		if depth > runtime.MaxNesting {
			return v
		}
	}
	switch x := v.(type) {
	case nil, runtime.NoneType:
		return nil
	case runtime.Bool:
		return bool(x)
	case runtime.Int:
		return int64(x)
	case runtime.Float:
		return float64(x)
	case runtime.String:
		return string(x)
	case *runtime.List:
		active = enter(active, x)
		defer delete(active, x)
		return fromElems(x.Elems, depth, active)
	case runtime.Tuple:
		return fromElems(x, depth, active)
	case *runtime.NamedTuple:
		return fromElems(x.Tuple, depth, active)
	case *runtime.Dict:
		active = enter(active, x)
		defer delete(active, x)
		m := map[string]any{}
		for _, kv := range x.Items() {
			m[kv[0].String()] = fromValue(kv[1], depth+1, active)
		}
		return m
	}
	if t, ok := stdlib.TensorOf(v); ok {
		return t
	}
	return v
}

func enter(active map[runtime.Value]bool, v runtime.Value) map[runtime.Value]bool {
	if active == nil {
		active = map[runtime.Value]bool{}
	}
	active[v] = true
	return active
}

func fromElems(elems []runtime.Value, depth int, active map[runtime.Value]bool) []any {
	out := make([]any, len(elems))
	for i, e := range elems {
		out[i] = fromValue(e, depth+1, active)
	}
	return out
}

var (
	typeDense  = reflect.TypeOf((*mat.Dense)(nil))
	typeTensor = reflect.TypeOf((*tensor.Tensor)(nil))
	typeValue  = reflect.TypeOf((*runtime.Value)(nil)).Elem()
	typeAny    = reflect.TypeOf((*any)(nil)).Elem()
)

// Convert stores the tsr value v into the Go variable dst points to,
// converting as the variable's type asks:
//
//	*bool                    a bool (or a one-element bool tensor)
//	*int, *int64, ... *uint8 an int or bool (or a one-element integer tensor); range-checked
//	*float64, *float32       an int, float or bool (or a one-element tensor)
//	*string                  a str
//	*[]T, *[N]T              a list or tuple (elements converted), or a tensor
//	                         flattened in C order when T is a number or bool
//	*map[string]T            a dict with str keys
//	**tensor.Tensor          a tensor (shared); a number or nested list becomes a new tensor
//	**mat.Dense / *mat.Dense a 2-D real tensor or a list of equal-length lists of numbers
//	                         (a new matrix, or the given non-nil one resized with ReuseAs)
//	*runtime.Value           v itself
//	*any                     FromValue(v)
//
// Errors name the tsr type and the Go type that did not match.
func Convert(v runtime.Value, dst any) error {
	if v == nil {
		v = runtime.None
	}
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("tsr.Convert: destination must be a non-nil pointer, not %T", dst)
	}
	if d, ok := dst.(*mat.Dense); ok {
		m, err := toDense(v)
		if err != nil {
			return err
		}
		r, c := m.Dims()
		if !d.IsEmpty() {
			d.Reset()
		}
		d.ReuseAs(r, c)
		d.Copy(m)
		return nil
	}
	return convertTo(v, rv.Elem())
}

func convertTo(v runtime.Value, out reflect.Value) error { return convertDepth(v, out, 0) }

// convertDepth is convertTo for a value nested depth containers deep.
func convertDepth(v runtime.Value, out reflect.Value, depth int) error {
	if depth > runtime.MaxNesting {
		return fmt.Errorf("cannot convert a tsr value nested more than %d levels deep (does it contain itself?)", runtime.MaxNesting)
	}
	if v == nil {
		v = runtime.None
	}
	t := out.Type()
	switch t {
	case typeValue:
		out.Set(reflect.ValueOf(&v).Elem())
		return nil
	case typeAny:
		if g := FromValue(v); g != nil {
			out.Set(reflect.ValueOf(g))
		} else {
			out.SetZero()
		}
		return nil
	case typeTensor:
		tt, err := toTensor(v)
		if err != nil {
			return err
		}
		out.Set(reflect.ValueOf(tt))
		return nil
	case typeDense:
		m, err := toDense(v)
		if err != nil {
			return err
		}
		out.Set(reflect.ValueOf(m))
		return nil
	}
	// A one-element tensor converts to a Go scalar as t.item() would.
	if tt, ok := stdlib.TensorOf(v); ok && isScalarKind(t.Kind()) {
		if tt.Numel() != 1 {
			return fmt.Errorf("cannot convert a tensor of shape %v to Go %s: it has %d elements, not 1", tt.Shape(), t, tt.Numel())
		}
		item, err := tt.Item()
		if err != nil {
			return err
		}
		switch x := item.(type) {
		case float64:
			v = runtime.Float(x)
		case int64:
			v = runtime.MakeInt(x)
		case bool:
			v = runtime.Bool(x)
		}
	}
	mismatch := func() error {
		return fmt.Errorf("cannot convert tsr %s to Go %s", v.Type(), t)
	}
	switch t.Kind() {
	case reflect.Bool:
		b, ok := v.(runtime.Bool)
		if !ok {
			return mismatch()
		}
		out.SetBool(bool(b))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := runtime.AsInt(v)
		if !ok {
			return mismatch()
		}
		if out.OverflowInt(i) {
			return fmt.Errorf("tsr int %d overflows Go %s", i, t)
		}
		out.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		i, ok := runtime.AsInt(v)
		if !ok {
			return mismatch()
		}
		if i < 0 || out.OverflowUint(uint64(i)) {
			return fmt.Errorf("tsr int %d overflows Go %s", i, t)
		}
		out.SetUint(uint64(i))
	case reflect.Float32, reflect.Float64:
		f, ok := runtime.AsFloat(v)
		if !ok {
			return mismatch()
		}
		out.SetFloat(f)
	case reflect.String:
		s, ok := v.(runtime.String)
		if !ok {
			return mismatch()
		}
		out.SetString(string(s))
	case reflect.Slice, reflect.Array:
		if tt, ok := stdlib.TensorOf(v); ok {
			return tensorToSlice(tt, out)
		}
		var elems []runtime.Value
		switch x := v.(type) {
		case *runtime.List:
			elems = x.Elems
		case runtime.Tuple:
			elems = x
		case *runtime.NamedTuple:
			elems = x.Tuple
		default:
			return mismatch()
		}
		if t.Kind() == reflect.Array {
			if len(elems) != t.Len() {
				return fmt.Errorf("cannot convert a tsr %s of length %d to Go %s", v.Type(), len(elems), t)
			}
		} else {
			out.Set(reflect.MakeSlice(t, len(elems), len(elems)))
		}
		for i, e := range elems {
			if err := convertDepth(e, out.Index(i), depth+1); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
	case reflect.Map:
		d, ok := v.(*runtime.Dict)
		if !ok || t.Key().Kind() != reflect.String {
			return mismatch()
		}
		m := reflect.MakeMapWithSize(t, d.Len())
		for _, kv := range d.Items() {
			k, ok := kv[0].(runtime.String)
			if !ok {
				return fmt.Errorf("cannot convert a dict with %s keys to Go %s", kv[0].Type(), t)
			}
			ev := reflect.New(t.Elem()).Elem()
			if err := convertDepth(kv[1], ev, depth+1); err != nil {
				return fmt.Errorf("key %q: %w", string(k), err)
			}
			m.SetMapIndex(reflect.ValueOf(string(k)).Convert(t.Key()), ev)
		}
		out.Set(m)
	case reflect.Pointer:
		if v == runtime.None {
			out.SetZero()
			return nil
		}
		p := reflect.New(t.Elem())
		if err := convertDepth(v, p.Elem(), depth+1); err != nil {
			return err
		}
		out.Set(p)
	default:
		return mismatch()
	}
	return nil
}

func isScalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// tensorToSlice copies tt's elements in C order into a slice or array of
// numbers or bools.
func tensorToSlice(tt *tensor.Tensor, out reflect.Value) error {
	t := out.Type()
	if ek := t.Elem().Kind(); (ek == reflect.Slice || ek == reflect.Array) && tt.Dim() >= 1 {
		// Nested Go slices take the tensor dim by dim: [][]float32 from [r, c].
		rows := tt.Shape()[0]
		if t.Kind() == reflect.Array {
			if t.Len() != rows {
				return fmt.Errorf("cannot convert a tensor with %d rows to Go %s", rows, t)
			}
		} else {
			out.Set(reflect.MakeSlice(t, rows, rows))
		}
		for i := 0; i < rows; i++ {
			row, err := tt.Select(0, i)
			if err != nil {
				return err
			}
			if err := tensorToSlice(row, out.Index(i)); err != nil {
				return fmt.Errorf("row %d: %w", i, err)
			}
		}
		return nil
	}
	n := tt.Numel()
	if t.Kind() == reflect.Array && t.Len() != n {
		return fmt.Errorf("cannot convert a tensor of %d elements to Go %s", n, t)
	}
	if t.Kind() == reflect.Slice {
		out.Set(reflect.MakeSlice(t, n, n))
	}
	switch ek := t.Elem().Kind(); {
	case ek == reflect.Float32 || ek == reflect.Float64:
		for i, x := range tt.ToFloat64s() {
			out.Index(i).SetFloat(x)
		}
	case ek == reflect.Bool:
		if tt.DType() != tensor.Bool {
			return fmt.Errorf("cannot convert a %s tensor to Go %s", tt.DType(), t)
		}
		for i, x := range tt.ToBools() {
			out.Index(i).SetBool(x)
		}
	case ek >= reflect.Int && ek <= reflect.Int64:
		if tt.DType().IsFloat() {
			return fmt.Errorf("cannot convert a %s tensor to Go %s (use .to(i64) or a float slice)", tt.DType(), t)
		}
		for i, x := range tt.ToInt64s() {
			if out.Index(i).OverflowInt(x) {
				return fmt.Errorf("element %d (%d) overflows Go %s", i, x, t.Elem())
			}
			out.Index(i).SetInt(x)
		}
	case ek >= reflect.Uint && ek <= reflect.Uint64:
		if tt.DType().IsFloat() {
			return fmt.Errorf("cannot convert a %s tensor to Go %s", tt.DType(), t)
		}
		for i, x := range tt.ToInt64s() {
			if x < 0 || out.Index(i).OverflowUint(uint64(x)) {
				return fmt.Errorf("element %d (%d) overflows Go %s", i, x, t.Elem())
			}
			out.Index(i).SetUint(uint64(x))
		}
	default:
		return fmt.Errorf("cannot convert a tensor to Go %s", t)
	}
	return nil
}

// toTensor returns v's tensor, or builds one from a number or nested list
// of numbers (f64 for floats, i64 for ints, bool for bools).
func toTensor(v runtime.Value) (*tensor.Tensor, error) {
	if t, ok := stdlib.TensorOf(v); ok {
		return t, nil
	}
	var shape []int
	var flat []runtime.Value
	var walk func(x runtime.Value, d int) error
	walk = func(x runtime.Value, d int) error {
		if d > runtime.MaxNesting {
			return fmt.Errorf("cannot convert a tsr list nested more than %d levels deep to a tensor", runtime.MaxNesting)
		}
		var elems []runtime.Value
		switch l := x.(type) {
		case *runtime.List:
			elems = l.Elems
		case runtime.Tuple:
			elems = l
		default:
			if d != len(shape) {
				return fmt.Errorf("cannot convert a ragged tsr list to a tensor")
			}
			flat = append(flat, x)
			return nil
		}
		if d == len(shape) && len(flat) == 0 {
			shape = append(shape, len(elems))
		} else if d >= len(shape) || shape[d] != len(elems) {
			return fmt.Errorf("cannot convert a ragged tsr list to a tensor")
		}
		for _, e := range elems {
			if err := walk(e, d+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(v, 0); err != nil {
		return nil, err
	}
	kind := 0 // 0 bool, 1 int, 2 float
	for _, x := range flat {
		switch x.(type) {
		case runtime.Bool:
		case runtime.Int:
			kind = max(kind, 1)
		case runtime.Float:
			kind = 2
		default:
			return nil, fmt.Errorf("cannot convert tsr %s to a tensor element", x.Type())
		}
	}
	switch {
	case len(flat) == 0 || kind == 2:
		f := make([]float64, len(flat))
		for i, x := range flat {
			f[i], _ = runtime.AsFloat(x)
		}
		return tensor.FromFloat64s(f, shape, tensor.F64)
	case kind == 1:
		f := make([]int64, len(flat))
		for i, x := range flat {
			f[i], _ = runtime.AsInt(x)
		}
		return tensor.FromInt64s(f, shape, tensor.I64)
	}
	b := make([]bool, len(flat))
	for i, x := range flat {
		b[i] = bool(x.(runtime.Bool))
	}
	return tensor.FromBools(b, shape)
}

// toDense converts a 2-D real tensor (a 1-D one is an error: its
// orientation is ambiguous) or a list of lists of numbers to a new matrix.
func toDense(v runtime.Value) (*mat.Dense, error) {
	t, err := toTensor(v)
	if err != nil {
		return nil, fmt.Errorf("cannot convert tsr %s to *mat.Dense: %w", v.Type(), err)
	}
	if t.Dim() != 2 {
		return nil, fmt.Errorf("cannot convert a %d-D tensor of shape %v to *mat.Dense: it needs 2 dims (use .reshape(-1, 1) or .reshape(1, -1) for a vector)", t.Dim(), t.Shape())
	}
	if t.DType() == tensor.Bool {
		return nil, fmt.Errorf("cannot convert a bool tensor to *mat.Dense")
	}
	r, c := t.Shape()[0], t.Shape()[1]
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("cannot convert a tensor of shape %v to *mat.Dense: gonum matrices cannot be empty", t.Shape())
	}
	return mat.NewDense(r, c, t.ToFloat64s()), nil
}
