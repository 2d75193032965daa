package stdlib

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

// Tests call builtins and methods directly, through runtime.Builtin.Call on
// a thread prepared by Setup, as the VM does.

func newThread() *runtime.Thread {
	th := &runtime.Thread{Name: "test"}
	Setup(th)
	return th
}

type env struct {
	t  *testing.T
	th *runtime.Thread
	g  map[string]runtime.Value
}

func newEnv(t *testing.T) *env { return &env{t: t, th: newThread(), g: Predeclared()} }

// call calls a global (or "module.member") and fails the test on error.
func (e *env) call(name string, args []runtime.Value, kwargs ...runtime.Kwarg) runtime.Value {
	e.t.Helper()
	v, err := e.try(name, args, kwargs...)
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	return v
}

func (e *env) try(name string, args []runtime.Value, kwargs ...runtime.Kwarg) (runtime.Value, error) {
	e.t.Helper()
	var fn runtime.Value
	if mod, member, ok := strings.Cut(name, "."); ok {
		fn, _ = e.g[mod].(*runtime.Module).Attr(member)
	} else {
		fn = e.g[name]
	}
	c, ok := fn.(runtime.Callable)
	if !ok {
		e.t.Fatalf("%s is not callable", name)
	}
	return c.Call(e.th, args, kwargs)
}

// method calls x.name(args...).
func (e *env) method(x runtime.Value, name string, args []runtime.Value, kwargs ...runtime.Kwarg) runtime.Value {
	e.t.Helper()
	v, err := e.tryMethod(x, name, args, kwargs...)
	if err != nil {
		e.t.Fatalf("%s(): %v", name, err)
	}
	return v
}

func (e *env) tryMethod(x runtime.Value, name string, args []runtime.Value, kwargs ...runtime.Kwarg) (runtime.Value, error) {
	e.t.Helper()
	m, err := x.(runtime.HasAttrs).Attr(name)
	if err != nil || m == nil {
		e.t.Fatalf("no method %s (%v)", name, err)
	}
	return m.(runtime.Callable).Call(e.th, args, kwargs)
}

func (e *env) attr(x runtime.Value, name string) runtime.Value {
	e.t.Helper()
	v, err := x.(runtime.HasAttrs).Attr(name)
	if err != nil || v == nil {
		e.t.Fatalf("attr %s: %v", name, err)
	}
	return v
}

func vals(vs ...any) []runtime.Value {
	out := make([]runtime.Value, len(vs))
	for i, v := range vs {
		out[i] = val(v)
	}
	return out
}

func val(v any) runtime.Value {
	switch x := v.(type) {
	case runtime.Value:
		return x
	case int:
		return runtime.MakeInt(int64(x))
	case float64:
		return runtime.Float(x)
	case bool:
		return runtime.Bool(x)
	case string:
		return runtime.String(x)
	case []any:
		return runtime.NewList(vals(x...))
	case nil:
		return runtime.None
	}
	panic("val: unsupported")
}

func kw(name string, v any) runtime.Kwarg { return runtime.Kwarg{Name: name, Value: val(v)} }

func tv(t *testing.T, v runtime.Value) *TensorValue {
	t.Helper()
	x, ok := v.(*TensorValue)
	if !ok {
		t.Fatalf("want a tensor, got %s %v", v.Type(), v)
	}
	return x
}

func wantKind(t *testing.T, err error, kind string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", kind)
	}
	hk, ok := err.(runtime.HasKind)
	if !ok || hk.ErrorKind() != kind {
		t.Fatalf("want %s, got %T %v", kind, err, err)
	}
}

func TestScalarPromotion(t *testing.T) {
	e := newEnv(t)
	f16 := e.call("ones", vals(2), kw("dtype", e.g["f16"]))
	i32 := e.call("tensor", vals([]any{1, 2}), kw("dtype", e.g["i32"]))
	i64 := e.call("tensor", vals([]any{1, 2}))
	b := e.call("tensor", vals([]any{true, false}))
	cases := []struct {
		x, y  runtime.Value
		op    runtime.Op
		dtype string
		str   string
	}{
		{f16, runtime.Float(2.5), runtime.STAR, "f16", "tensor([2.5000, 2.5000], dtype=f16)"},
		{i32, runtime.MakeInt(7), runtime.PLUS, "i32", "tensor([8, 9], dtype=i32)"},
		{i64, runtime.Float(0.5), runtime.PLUS, "f32", "tensor([1.5000, 2.5000])"},
		{b, runtime.MakeInt(1), runtime.PLUS, "i64", "tensor([2, 1])"},
		{i64, runtime.MakeInt(2), runtime.SLASH, "f32", "tensor([0.5000, 1.0000])"},
		{i64, f16, runtime.PLUS, "f16", "tensor([2., 3.], dtype=f16)"},
		{i64, runtime.MakeInt(2), runtime.LT, "bool", "tensor([ true, false])"},
	}
	for _, c := range cases {
		r, err := runtime.Binary(c.op, c.x, c.y)
		if err != nil {
			t.Fatalf("%v %s %v: %v", c.x, c.op, c.y, err)
		}
		x := tv(t, r)
		if x.t.DType().String() != c.dtype || x.String() != c.str {
			t.Errorf("%v %s %v = %v (%s), want %s (%s)", c.x, c.op, c.y, x, x.t.DType(), c.str, c.dtype)
		}
	}
	// scalars on the left: 2 * x, 1 - x, 2 ** x
	x := e.call("tensor", vals([]any{1.0, 2.0}))
	for _, c := range []struct {
		op   runtime.Op
		want string
	}{{runtime.STAR, "tensor([2., 4.])"}, {runtime.MINUS, "tensor([ 1., -0.])"}, {runtime.STARSTAR, "tensor([2., 4.])"}, {runtime.SLASH, "tensor([2., 1.])"}} {
		r, err := runtime.Binary(c.op, runtime.MakeInt(2), x)
		if err != nil {
			t.Fatal(err)
		}
		if c.op == runtime.MINUS {
			r, _ = runtime.Binary(c.op, runtime.MakeInt(1), r)
			r, _ = runtime.Binary(runtime.MINUS, runtime.MakeInt(1), x)
			c.want = "tensor([ 0., -1.])"
		}
		if r.String() != c.want {
			t.Errorf("2 %s x = %v, want %s", c.op, r, c.want)
		}
	}
	// a list operand is not a tensor operand
	if _, err := runtime.Binary(runtime.PLUS, x, runtime.NewList(vals(1, 2))); err == nil {
		t.Error("tensor + list should be a TypeError")
	}
}

func TestInplaceOperatorBumpsVersion(t *testing.T) {
	e := newEnv(t)
	x := e.call("zeros", vals(3))
	r, err := runtime.Inplace(runtime.PLUS, x, runtime.Float(1.5))
	if err != nil || r != x {
		t.Fatalf("x += 1.5: %v %v", r, err)
	}
	if got := e.attr(x, "_version"); got.String() != "1" {
		t.Errorf("_version = %v, want 1", got)
	}
	if x.String() != "tensor([1.5000, 1.5000, 1.5000])" {
		t.Errorf("x = %v", x)
	}
	// an integer tensor cannot hold a float result
	i := e.call("zeros", vals(2), kw("dtype", e.g["i64"]))
	_, err = runtime.Inplace(runtime.PLUS, i, runtime.Float(0.5))
	wantKind(t, err, "RuntimeError")
}

func TestMetadataPrinting(t *testing.T) {
	e := newEnv(t)
	x := e.method(e.call("arange", vals(12), kw("dtype", e.g["f32"])), "reshape", vals(3, 4))
	if s := e.attr(x, "shape").String(); s != "[3, 4]" {
		t.Errorf("shape prints %s", s)
	}
	if s := e.method(x, "stride", nil).String(); s != "(4, 1)" {
		t.Errorf("stride() prints %s", s)
	}
	if s := e.method(x, "stride", vals(0)).String(); s != "4" {
		t.Errorf("stride(0) = %s", s)
	}
	if s := e.method(x, "size", vals(-1)).String(); s != "4" {
		t.Errorf("size(-1) = %s", s)
	}
	if s := e.attr(x, "dtype").String(); s != "f32" {
		t.Errorf("dtype prints %s", s)
	}
	if s := e.attr(x, "device").String(); s != "cpu" {
		t.Errorf("device prints %s", s)
	}
	xt := e.method(x, "t", nil)
	if s := e.method(xt, "stride", nil).String(); s != "(1, 4)" {
		t.Errorf("t().stride() = %s", s)
	}
	if e.method(xt, "data_ptr", nil).String() != e.method(x, "data_ptr", nil).String() {
		t.Error("t() must share data_ptr")
	}
	fi := e.call("finfo", vals(e.g["f16"]))
	if s := e.attr(fi, "max").String(); s != "65504.0" {
		t.Errorf("finfo(f16).max = %s", s)
	}
	if s := e.attr(e.call("finfo", vals(e.g["bf16"])), "eps").String(); s != "0.0078125" {
		t.Errorf("finfo(bf16).eps = %s", s)
	}
	_, err := e.try("finfo", vals(e.g["i32"]))
	wantKind(t, err, "TypeError")
	if s := e.method(e.call("tensor", vals([]any{[]any{1, 2}, []any{3, 4}})), "tolist", nil).String(); s != "[[1, 2], [3, 4]]" {
		t.Errorf("tolist = %s", s)
	}
	if s := e.method(e.call("tensor", vals(0.1)), "item", nil).String(); s != "0.10000000149011612" {
		t.Errorf("item = %s", s)
	}
}

func TestTensorDataInference(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		data any
		want string
	}{
		{[]any{1, 2}, "tensor([1, 2])"},
		{[]any{1, 2.5}, "tensor([1.0000, 2.5000])"},
		{[]any{true, false}, "tensor([ true, false])"},
		{[]any{true, 2}, "tensor([1, 2])"},
		{[]any{}, "tensor([])"},
		{3, "tensor(3)"},
		{[]any{[]any{1.0}, []any{2.0}}, "tensor([[1.],\n        [2.]])"},
	} {
		if got := e.call("tensor", vals(c.data)).String(); got != c.want {
			t.Errorf("tensor(%v) = %q, want %q", c.data, got, c.want)
		}
	}
	_, err := e.try("tensor", vals([]any{[]any{1, 2}, []any{3}}))
	wantKind(t, err, "ValueError")
	_, err = e.try("tensor", vals([]any{"a"}))
	wantKind(t, err, "TypeError")
	_, err = e.try("zeros", vals(2), kw("dtype", "f32"))
	wantKind(t, err, "TypeError")
	_, err = e.try("zeros", vals(-1))
	wantKind(t, err, "RuntimeError")
	if got := e.call("zeros", vals([]any{2, 3})).String(); got != e.call("zeros", vals(2, 3)).String() {
		t.Errorf("zeros([2, 3]) != zeros(2, 3): %s", got)
	}
	if got := e.attr(e.call("tensor", vals([]any{1, 2}), kw("dtype", e.g["float"])), "dtype").String(); got != "f32" {
		t.Errorf("dtype=float gives %s", got)
	}
	if got := e.attr(e.call("full", vals([]any{2}, 7)), "dtype").String(); got != "i64" {
		t.Errorf("full(.., 7) dtype %s", got)
	}
	if got := e.call("arange", vals(0, 1, 0.25)).String(); got != "tensor([0.0000, 0.2500, 0.5000, 0.7500])" {
		t.Errorf("arange(0, 1, 0.25) = %s", got)
	}
	// int, float and bool are dtypes and conversion functions
	if got := e.call("float", vals(e.call("tensor", vals([]any{2.5})))).String(); got != "2.5" {
		t.Errorf("float(t) = %s", got)
	}
	if got := e.call("int", vals(e.call("tensor", vals(3.7)))).String(); got != "3" {
		t.Errorf("int(t) = %s", got)
	}
	if got := e.call("int", vals("12")).String(); got != "12" {
		t.Errorf("int(\"12\") = %s", got)
	}
	_, err = e.try("float", vals(e.call("ones", vals(2))))
	wantKind(t, err, "ValueError") // PyTorch: only one element tensors can be converted
}

func TestIndexing(t *testing.T) {
	e := newEnv(t)
	x := e.method(e.call("arange", vals(24)), "reshape", vals(2, 3, 4))
	X := tv(t, x)
	for _, c := range []struct {
		key  runtime.Value
		want string
		view bool
	}{
		{runtime.MakeInt(1), "[3, 4]", true},
		{runtime.Tuple{runtime.Ellipsis, runtime.MakeInt(1)}, "[2, 3]", true},
		{runtime.Tuple{runtime.MakeInt(0), runtime.None, &runtime.Slice{Start: runtime.MakeInt(1), Stop: runtime.None, Step: runtime.MakeInt(2)}}, "[1, 1, 4]", true},
		{runtime.NewList(vals(1, 0, 1)), "[3, 3, 4]", false},
		{runtime.Tuple{runtime.MakeInt(0), &runtime.Slice{Start: runtime.None, Stop: runtime.None, Step: runtime.None}, runtime.NewList(vals(1, 2))}, "[3, 2]", false},
	} {
		r, err := X.Index(c.key)
		if err != nil {
			t.Fatalf("x[%v]: %v", c.key, err)
		}
		R := tv(t, r)
		if got := intList(R.t.Shape()).String(); got != c.want {
			t.Errorf("x[%v].shape = %s, want %s", c.key, got, c.want)
		}
		if tensor.SharesMemory(R.t, X.t) != c.view {
			t.Errorf("x[%v]: view = %v, want %v", c.key, !c.view, c.view)
		}
	}
	mask, _ := runtime.Binary(runtime.GT, x, runtime.MakeInt(20))
	r, err := X.Index(mask)
	if err != nil || r.String() != "tensor([21, 22, 23])" {
		t.Errorf("x[x > 20] = %v, %v", r, err)
	}
	_, err = X.Index(&runtime.Slice{Start: runtime.None, Stop: runtime.None, Step: runtime.MakeInt(-1)})
	wantKind(t, err, "ValueError")
	if err.Error() != "step must be greater than zero" {
		t.Errorf("negative step message: %v", err)
	}
	_, err = X.Index(runtime.MakeInt(2))
	wantKind(t, err, "IndexError")
	_, err = X.Index(runtime.Tuple{runtime.MakeInt(0), runtime.MakeInt(0), runtime.MakeInt(0), runtime.MakeInt(0)})
	wantKind(t, err, "IndexError")
	_, err = X.Index(e.call("ones", vals(2)))
	wantKind(t, err, "IndexError")

	// assignment: basic broadcast copy, mask fill, version bumps
	y := tv(t, e.call("zeros", vals(2, 3)))
	if err := y.SetIndex(runtime.MakeInt(1), runtime.Float(5)); err != nil {
		t.Fatal(err)
	}
	if err := y.SetIndex(runtime.Tuple{&runtime.Slice{Start: runtime.None, Stop: runtime.None, Step: runtime.None}, runtime.MakeInt(0)}, e.call("tensor", vals([]any{1.0, 2.0}))); err != nil {
		t.Fatal(err)
	}
	m, _ := runtime.Binary(runtime.GT, y, runtime.MakeInt(4))
	if err := y.SetIndex(m, runtime.MakeInt(-1)); err != nil {
		t.Fatal(err)
	}
	if got := y.String(); got != "tensor([[ 1.,  0.,  0.],\n        [ 2., -1., -1.]])" {
		t.Errorf("after assignments y = %s", got)
	}
	if y.t.Version() != 3 {
		t.Errorf("version = %d, want 3", y.t.Version())
	}
	err = y.SetIndex(runtime.MakeInt(0), e.call("ones", vals(4)))
	wantKind(t, err, "RuntimeError")
}

// TestAdvancedIndexGrad checks that repeated indices accumulate: for
// y = x[[0, 0, 2]] the gradient of y.sum() is [2, 0, 1].
func TestAdvancedIndexGrad(t *testing.T) {
	e := newEnv(t)
	x := e.call("tensor", vals([]any{1.0, 2.0, 3.0}), kw("requires_grad", true))
	y, err := x.(*TensorValue).Index(runtime.NewList(vals(0, 0, 2)))
	if err != nil {
		t.Fatal(err)
	}
	e.method(e.method(y, "sum", nil), "backward", nil)
	if got := e.attr(x, "grad").String(); got != "tensor([2., 0., 1.])" {
		t.Errorf("grad = %s", got)
	}
	// a basic-index view: gradient flows to the selected row only
	z := e.call("zeros", vals(2, 2), kw("requires_grad", true))
	row, _ := z.(*TensorValue).Index(runtime.MakeInt(1))
	e.method(e.method(row, "sum", nil), "backward", nil)
	if got := e.attr(z, "grad").String(); got != "tensor([[0., 0.],\n        [1., 1.]])" {
		t.Errorf("grad = %s", got)
	}
}

func TestErrorKinds(t *testing.T) {
	e := newEnv(t)
	a := e.method(e.call("arange", vals(6)), "reshape", vals(2, 3))
	_, err := e.tryMethod(e.method(a, "t", nil), "view", vals(-1))
	wantKind(t, err, "RuntimeError")
	if !strings.Contains(err.Error(), "reshape") {
		t.Errorf("view error should mention reshape: %v", err)
	}
	s := e.call("arange", vals(10), kw("dtype", e.g["f32"]))
	_, err = e.try("as_strided", vals(s, []any{4, 4}, []any{3, 1}))
	wantKind(t, err, "RuntimeError")
	if !strings.Contains(err.Error(), "as_strided") {
		t.Errorf("as_strided message: %v", err)
	}
	_, err = runtime.Binary(runtime.PLUS, e.call("ones", vals(3)), e.call("ones", vals(4)))
	wantKind(t, err, "RuntimeError")
	_, err = e.tryMethod(a, "sum", vals(5))
	wantKind(t, err, "IndexError")
	_, err = e.tryMethod(a, "mean", nil)
	wantKind(t, err, "RuntimeError")
	_, err = e.tryMethod(e.call("ones", vals(2)), "item", nil)
	wantKind(t, err, "ValueError") // torch 1.13: only one element tensors can be converted to Python scalars
	_, err = e.tryMethod(a, "pin_memory", nil)
	wantKind(t, err, "RuntimeError")
	_, err = e.try("len", vals(e.call("tensor", vals(1.0))))
	wantKind(t, err, "TypeError")
	_, err = e.tryMethod(a, "reshape", vals("x"))
	wantKind(t, err, "TypeError")
	_, err = e.tryMethod(e.call("ones", vals(2)), "to", vals("cuda"))
	wantKind(t, err, "RuntimeError")
	_, err = e.tryMethod(e.call("ones", vals(2), kw("dtype", e.g["i64"])), "requires_grad_", nil)
	wantKind(t, err, "RuntimeError")
	x := tv(t, e.call("ones", vals(2)))
	_, err = x.TruthE()
	wantKind(t, err, "RuntimeError")
	_, err = tv(t, e.call("tensor", vals(1.0))).IterateE()
	wantKind(t, err, "TypeError")
}

func TestReductionsAndNamedTuple(t *testing.T) {
	e := newEnv(t)
	v := e.call("tensor", vals([]any{[]any{1.0, 5.0, 2.0}, []any{7.0, 0.0, 3.0}}))
	r := e.method(v, "max", vals(1))
	nt, ok := r.(*runtime.NamedTuple)
	if !ok {
		t.Fatalf("max(dim) returned %T", r)
	}
	vv, _ := nt.Attr("values")
	ii, _ := nt.Attr("indices")
	if vv.String() != "tensor([5., 7.])" || ii.String() != "tensor([1, 0])" {
		t.Errorf("max(1) = %v %v", vv, ii)
	}
	for _, c := range []struct {
		name string
		args []runtime.Value
		kw   []runtime.Kwarg
		want string
	}{
		{"sum", nil, nil, "tensor(18.)"},
		{"sum", vals(0), []runtime.Kwarg{kw("keepdim", true)}, "tensor([[8., 5., 5.]])"},
		{"mean", vals([]any{0, 1}), nil, "tensor(3.)"},
		{"std", nil, nil, "tensor(2.6077)"},
		{"var", vals(1), []runtime.Kwarg{kw("unbiased", false)}, "tensor([2.8889, 8.2222])"},
		{"var", vals(1), []runtime.Kwarg{kw("correction", 0)}, "tensor([2.8889, 8.2222])"},
		{"argmax", nil, nil, "tensor(3)"},
		{"argmin", vals(1), nil, "tensor([0, 1])"},
		{"amax", vals(-1), nil, "tensor([5., 7.])"},
		{"cumsum", vals(1), nil, "tensor([[ 1.,  6.,  8.],\n        [ 7.,  7., 10.]])"},
		{"norm", nil, nil, "tensor(9.3808)"},
		{"logsumexp", vals(1), nil, "tensor([5.0659, 7.0190])"},
		{"prod", vals(1), nil, "tensor([10.,  0.])"},
	} {
		got := e.method(v, c.name, c.args, c.kw...).String()
		if got != c.want {
			t.Errorf("%s(%v) = %s, want %s", c.name, c.args, got, c.want)
		}
	}
	// the functional forms and the tensor-aware builtins
	if got := e.call("max", vals(v)).String(); got != "tensor(7.)" {
		t.Errorf("max(t) = %s", got)
	}
	if got := e.call("sum", vals(v), kw("dim", 1)).String(); got != "tensor([ 8., 10.])" {
		t.Errorf("sum(t, dim=1) = %s", got)
	}
	if got := e.call("max", vals(1, 3, 2)).String(); got != "3" {
		t.Errorf("max(1, 3, 2) = %s", got)
	}
	if got := e.call("abs", vals(-2)).String(); got != "2" {
		t.Errorf("abs(-2) = %s", got)
	}
}

func TestGradBlockShapes(t *testing.T) {
	e := newEnv(t)
	w := e.call("tensor", vals([]any{1.0, 2.0}))
	b := e.call("tensor", vals(3.0))
	run := func(wrt []runtime.Value, withValue bool) runtime.Value {
		s, err := e.th.Hooks.BeginGrad(e.th, wrt, withValue)
		if err != nil {
			t.Fatal(err)
		}
		// loss = sum(w * w) * b
		ww, _ := runtime.Binary(runtime.STAR, w, w)
		l, _ := runtime.Binary(runtime.STAR, e.method(ww, "sum", nil), b)
		r, err := s.Finish(l)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if got := run([]runtime.Value{w}, false).String(); got != "tensor([ 6., 12.])" {
		t.Errorf("grad(w) = %s", got)
	}
	if got := run([]runtime.Value{w, b}, false).String(); got != "(tensor([ 6., 12.]), tensor(5.))" {
		t.Errorf("grad(w, b) = %s", got)
	}
	if got := run([]runtime.Value{w}, true).String(); got != "(tensor(15.), tensor([ 6., 12.]))" {
		t.Errorf("value_and_grad(w) = %s", got)
	}
	if e.attr(w, "requires_grad").String() != "false" || e.attr(w, "grad").String() != "none" {
		t.Error("grad blocks must restore requires_grad and leave .grad alone")
	}
	// no_grad: nothing recorded, in-place on a leaf allowed
	x := e.call("ones", vals(2), kw("requires_grad", true))
	_, err := runtime.Inplace(runtime.MINUS, x, runtime.Float(1))
	wantKind(t, err, "RuntimeError")
	exit, err := e.th.Hooks.EnterBlock(e.th, "no_grad")
	if err != nil {
		t.Fatal(err)
	}
	y, _ := runtime.Binary(runtime.STAR, x, runtime.MakeInt(2))
	if _, err := runtime.Inplace(runtime.MINUS, x, runtime.Float(1)); err != nil {
		t.Fatal(err)
	}
	exit()
	if e.attr(y, "requires_grad").String() != "false" || e.attr(x, "is_leaf").String() != "true" {
		t.Error("no_grad recorded an op")
	}
}

func TestEinsum(t *testing.T) {
	e := newEnv(t)
	r := e.call("einsum", vals("bii->b", e.call("ones", vals(8, 16, 16))))
	if got := e.attr(r, "shape").String(); got != "[8]" {
		t.Errorf("einsum shape %s", got)
	}
	a := e.method(e.call("arange", vals(6), kw("dtype", e.g["f32"])), "reshape", vals(2, 3))
	got, err := einsumHook(e.th, "ij,kj->ik", vals(a, a), nil)
	if err != nil || got.String() != "tensor([[ 5., 14.],\n        [14., 50.]])" {
		t.Errorf("ein\"ij,kj->ik\" = %v, %v", got, err)
	}
	_, err = e.try("einsum", vals("ij,jk->ik", a, a))
	wantKind(t, err, "RuntimeError")
	p := e.call("einsum_path", vals("ij,jk,kl->il", []any{2, 3}, []any{3, 4}, []any{4, 5}))
	if !strings.Contains(p.String(), "Naive") && !strings.Contains(p.String(), "naive") {
		t.Errorf("einsum_path report: %s", p)
	}
	if f := e.attr(p, "flops"); f.Type() != "int" {
		t.Errorf("einsum_path flops: %v", f)
	}
}

type nnCase struct {
	Name  string                     `json:"name"`
	Args  map[string]json.RawMessage `json:"args"`
	Out   json.RawMessage            `json:"out"`
	Grads map[string]json.RawMessage `json:"grads"`
}

// jsonTensor decodes a nested JSON array into an f64 tensor (or an i64
// tensor when asInt).
func (e *env) jsonTensor(raw json.RawMessage, asInt bool) runtime.Value {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		e.t.Fatal(err)
	}
	var conv func(any) any
	conv = func(x any) any {
		switch y := x.(type) {
		case []any:
			out := make([]any, len(y))
			for i := range y {
				out[i] = conv(y[i])
			}
			return out
		case float64:
			if asInt {
				return int(y)
			}
			return y
		}
		return x
	}
	if asInt {
		return e.call("tensor", vals(conv(v)))
	}
	return e.call("tensor", vals(conv(v)), kw("dtype", e.g["f64"]))
}

func (e *env) assertClose(what string, got runtime.Value, raw json.RawMessage) {
	e.t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		e.t.Fatal(err)
	}
	var want []float64
	var flat func(any)
	flat = func(x any) {
		switch y := x.(type) {
		case []any:
			for _, z := range y {
				flat(z)
			}
		case float64:
			want = append(want, y)
		}
	}
	flat(v)
	g := tv(e.t, got).t.ToFloat64s()
	if len(g) != len(want) {
		e.t.Fatalf("%s: %d values, want %d", what, len(g), len(want))
	}
	for i := range g {
		if math.Abs(g[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
			e.t.Errorf("%s[%d] = %.12g, want %.12g", what, i, g[i], want[i])
			return
		}
	}
}

// TestNNGolden compares nn functions and their gradients with PyTorch
// (testdata/gen_nn.py).
func TestNNGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/nn_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []nnCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		e := newEnv(t)
		str := func(k string) string {
			var s string
			json.Unmarshal(c.Args[k], &s)
			return s
		}
		var inputs map[string]runtime.Value
		var out func() runtime.Value
		switch c.Name {
		case "cross_entropy", "cross_entropy_weight", "cross_entropy_probs", "cross_entropy_smooth":
			x := e.jsonTensor(c.Args["input"], false)
			y := e.jsonTensor(c.Args["target"], c.Name != "cross_entropy_probs")
			inputs = map[string]runtime.Value{"input": x}
			var kws []runtime.Kwarg
			if r := str("reduction"); r != "" {
				kws = append(kws, kw("reduction", r))
			}
			if w, ok := c.Args["weight"]; ok {
				kws = append(kws, runtime.Kwarg{Name: "weight", Value: e.jsonTensor(w, false)})
			}
			if s, ok := c.Args["label_smoothing"]; ok {
				var f float64
				json.Unmarshal(s, &f)
				kws = append(kws, kw("label_smoothing", f))
			}
			out = func() runtime.Value { return e.call("nn.cross_entropy", vals(x, y), kws...) }
		case "layer_norm":
			x := e.jsonTensor(c.Args["input"], false)
			w := e.jsonTensor(c.Args["weight"], false)
			b := e.jsonTensor(c.Args["bias"], false)
			inputs = map[string]runtime.Value{"input": x, "weight": w, "bias": b}
			coef := e.method(e.call("arange", vals(8.0), kw("dtype", e.g["f64"])), "reshape", vals(2, 4))
			y := e.call("nn.layer_norm", vals(x, []any{4}, w, b))
			e.assertClose("layer_norm", y, c.Out)
			// the generator differentiates sum(y * coef)
			sess, err := e.th.Hooks.BeginGrad(e.th, []runtime.Value{x, w, b}, false)
			if err != nil {
				t.Fatal(err)
			}
			yc, _ := runtime.Binary(runtime.STAR, e.call("nn.layer_norm", vals(x, []any{4}, w, b)), coef)
			g, err := sess.Finish(e.method(yc, "sum", nil))
			if err != nil {
				t.Fatal(err)
			}
			for j, k := range []string{"input", "weight", "bias"} {
				e.assertClose("layer_norm grad "+k, g.(runtime.Tuple)[j], c.Grads[k])
			}
			continue
		case "sdpa":
			q := e.jsonTensor(c.Args["q"], false)
			k := e.jsonTensor(c.Args["k"], false)
			v := e.jsonTensor(c.Args["v"], false)
			var causal bool
			json.Unmarshal(c.Args["is_causal"], &causal)
			inputs = map[string]runtime.Value{"q": q}
			out = func() runtime.Value {
				return e.call("nn.scaled_dot_product_attention", vals(q, k, v), kw("is_causal", causal))
			}
		case "mse_loss":
			x := e.jsonTensor(c.Args["input"], false)
			y := e.jsonTensor(c.Args["target"], false)
			inputs = map[string]runtime.Value{"input": x}
			out = func() runtime.Value { return e.call("nn.mse_loss", vals(x, y)) }
		default:
			t.Fatalf("unknown case %s", c.Name)
		}
		e.assertClose(c.Name, out(), c.Out)
		for k, raw := range c.Grads {
			s, err := e.th.Hooks.BeginGrad(e.th, []runtime.Value{inputs[k]}, false)
			if err != nil {
				t.Fatal(err)
			}
			g, err := s.Finish(e.method(out(), "sum", nil))
			if err != nil {
				t.Fatalf("%s grad: %v", c.Name, err)
			}
			e.assertClose(c.Name+" grad "+k, g, raw)
		}
	}
}

func TestLinearLayer(t *testing.T) {
	e := newEnv(t)
	e.call("manual_seed", vals(0))
	l := e.call("nn.Linear", vals(4, 3))
	if l.String() != "Linear(in_features=4, out_features=3, bias=true)" {
		t.Errorf("Linear prints %s", l)
	}
	w := tv(t, e.attr(l, "weight"))
	if s := intList(w.t.Shape()).String(); s != "[3, 4]" || !w.t.RequiresGrad() {
		t.Errorf("weight %s requires_grad=%v", s, w.t.RequiresGrad())
	}
	for _, v := range w.t.ToFloat64s() {
		if math.Abs(v) > 0.5 {
			t.Fatalf("weight %v outside ±1/sqrt(4)", v)
		}
	}
	x := e.call("ones", vals(2, 4))
	y := l.(runtime.Callable)
	r, err := y.Call(e.th, vals(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := e.call("nn.linear", vals(x, w, e.attr(l, "bias")))
	if r.String() != want.String() {
		t.Errorf("layer(x) = %v, want %v", r, want)
	}
	if n := e.method(l, "parameters", nil).(*runtime.List).Len(); n != 2 {
		t.Errorf("parameters() has %d entries", n)
	}
}

func TestBenchTimeit(t *testing.T) {
	e := newEnv(t)
	calls := 0
	fn := runtime.NewBuiltin("f", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		calls++
		return runtime.None, nil
	})
	r := e.call("bench.timeit", vals(fn), kw("iters", 5), kw("warmup", 2))
	if calls != 7 {
		t.Errorf("fn called %d times, want 7", calls)
	}
	mn, _ := runtime.AsFloat(e.attr(r, "min"))
	md, _ := runtime.AsFloat(e.attr(r, "median"))
	mx, _ := runtime.AsFloat(e.attr(r, "max"))
	if !(mn <= md && md <= mx && mn >= 0) {
		t.Errorf("min %v median %v max %v", mn, md, mx)
	}
	_, err := e.try("bench.timeit", vals(fn), kw("iters", 0))
	wantKind(t, err, "ValueError")
}
