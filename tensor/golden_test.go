package tensor

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// The golden file is produced by testdata/gen_golden.py from PyTorch 1.13.

type gTensor struct {
	Values []any  `json:"values"`
	Shape  []int  `json:"shape"`
	DType  string `json:"dtype"`
}

func gNum(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		switch x {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
	}
	panic(fmt.Sprintf("bad golden number %v", v))
}

func (g gTensor) make(t *testing.T) *Tensor {
	t.Helper()
	dt, err := ParseDType(g.DType)
	if err != nil {
		t.Fatal(err)
	}
	if dt.IsInt() {
		vs := make([]int64, len(g.Values))
		for i, v := range g.Values {
			vs[i] = int64(gNum(v))
		}
		x, err := FromInt64s(vs, g.Shape, dt)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	vs := make([]float64, len(g.Values))
	for i, v := range g.Values {
		vs[i] = gNum(v)
	}
	x, err := FromFloat64s(vs, g.Shape, dt)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

var golden map[string]json.RawMessage

func loadGolden(t *testing.T, key string, into any) {
	t.Helper()
	if golden == nil {
		b, err := os.ReadFile("testdata/golden.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &golden); err != nil {
			t.Fatal(err)
		}
	}
	if err := json.Unmarshal(golden[key], into); err != nil {
		t.Fatal(err)
	}
}

func tol(dt DType) float64 {
	switch dt {
	case F64:
		return 1e-9
	case F32:
		return 1e-5
	case F16:
		return 1e-3
	case BF16:
		return 8e-3
	}
	return 0
}

func closeTo(got, want, rtol float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= rtol*math.Max(1, math.Abs(want))
}

// checkTensor compares x against g (shape, dtype, values within rtol).
func checkTensor(t *testing.T, ctx string, x *Tensor, g gTensor, rtol float64) {
	t.Helper()
	if !shapeEq(x.Shape(), g.Shape) && !(len(x.Shape()) == 0 && len(g.Shape) == 0) {
		t.Errorf("%s: shape %v, want %v", ctx, x.Shape(), g.Shape)
		return
	}
	if g.DType != "" && x.DType().String() != g.DType {
		t.Errorf("%s: dtype %v, want %v", ctx, x.DType(), g.DType)
	}
	got := x.ToFloat64s()
	if len(got) != len(g.Values) {
		t.Errorf("%s: %d values, want %d", ctx, len(got), len(g.Values))
		return
	}
	if rtol < 0 {
		rtol = tol(x.DType())
	}
	for i := range got {
		w := gNum(g.Values[i])
		if x.DType() == I64 {
			if x.FlatInt64(i) != int64(w) && math.Abs(w) < 1<<53 {
				t.Errorf("%s: [%d] = %v, want %v", ctx, i, x.FlatInt64(i), w)
				return
			}
			continue
		}
		if !closeTo(got[i], w, rtol) {
			t.Errorf("%s: [%d] = %v, want %v (all %v)", ctx, i, got[i], w, got)
			return
		}
	}
}

func checkErr(t *testing.T, ctx string, err error, kind, msg string, exact bool) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s: %s", ctx, kind, msg)
		return
	}
	e, ok := err.(*Error)
	if !ok {
		t.Errorf("%s: error %T %v is not *Error", ctx, err, err)
		return
	}
	if e.Kind != kind {
		t.Errorf("%s: error kind %s (%s), want %s (%s)", ctx, e.Kind, e.Msg, kind, msg)
	}
	if exact && e.Msg != msg {
		t.Errorf("%s: message\n  %q\nwant\n  %q", ctx, e.Msg, msg)
	}
}

type gView struct {
	Shape []int   `json:"shape"`
	Ops   [][]any `json:"ops"`
	Steps []struct {
		Shape      []int  `json:"shape"`
		Stride     []int  `json:"stride"`
		Offset     int    `json:"offset"`
		Contiguous bool   `json:"contiguous"`
		Values     []any  `json:"values"`
		Shares     *bool  `json:"shares"`
		Error      string `json:"error"`
		Message    string `json:"message"`
	} `json:"steps"`
}

func ints(v any) []int {
	xs := v.([]any)
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x.(float64))
	}
	return out
}

func optInt(v any) int {
	if v == nil {
		return SliceNone
	}
	return int(v.(float64))
}

func applyViewOp(x *Tensor, op []any) (*Tensor, error) {
	a := op[1:]
	i := func(k int) int { return int(a[k].(float64)) }
	switch op[0].(string) {
	case "view":
		return x.View(ints(a[0])...)
	case "reshape":
		return x.Reshape(ints(a[0])...)
	case "transpose":
		return x.Transpose(i(0), i(1))
	case "t":
		return x.T()
	case "mT":
		return x.MT()
	case "permute":
		return x.Permute(ints(a[0])...)
	case "expand":
		return x.Expand(ints(a[0])...)
	case "unsqueeze":
		return x.Unsqueeze(i(0))
	case "squeeze":
		if len(a) == 0 {
			return x.Squeeze()
		}
		return x.Squeeze(i(0))
	case "flatten":
		return x.Flatten(i(0), i(1))
	case "unflatten":
		return x.Unflatten(i(0), ints(a[1]))
	case "narrow":
		return x.Narrow(i(0), i(1), i(2))
	case "select":
		return x.Select(i(0), i(1))
	case "diagonal":
		return x.Diagonal(i(0), i(1), i(2))
	case "unfold":
		return x.Unfold(i(0), i(1), i(2))
	case "movedim":
		return x.Movedim(ints(a[0]), ints(a[1]))
	case "as_strided":
		return x.AsStrided(ints(a[0]), ints(a[1]), i(2))
	case "slice":
		return x.Slice(i(0), optInt(a[1]), optInt(a[2]), optInt(a[3]))
	case "contiguous":
		return x.Contiguous(), nil
	}
	return nil, fmt.Errorf("unknown op %v", op[0])
}

func TestGoldenViews(t *testing.T) {
	var cases []gView
	loadGolden(t, "views", &cases)
	for ci, c := range cases {
		n := numel(c.Shape)
		base, _ := Arange(0, float64(n), 1, F32)
		x, err := base.Reshape(c.Shape...)
		if err != nil {
			t.Fatal(err)
		}
		for si, st := range c.Steps {
			ctx := fmt.Sprintf("view case %d %v step %d %v", ci, c.Shape, si, c.Ops[si])
			y, err := applyViewOp(x, c.Ops[si])
			if st.Error != "" {
				checkErr(t, ctx, err, st.Error, st.Message, strings.HasPrefix(st.Message, "view size") || strings.HasPrefix(st.Message, "as_strided"))
				break
			}
			if err != nil {
				t.Errorf("%s: unexpected error %v", ctx, err)
				break
			}
			x = y
			if !shapeEq(x.Shape(), st.Shape) || (!shapeEq(x.Strides(), st.Stride) && x.Numel() > 0) || x.StorageOffset() != st.Offset && x.Numel() > 0 {
				t.Errorf("%s: got shape %v stride %v offset %d, want %v %v %d", ctx, x.Shape(), x.Strides(), x.StorageOffset(), st.Shape, st.Stride, st.Offset)
			}
			if x.IsContiguous() != st.Contiguous {
				t.Errorf("%s: contiguous %v, want %v", ctx, x.IsContiguous(), st.Contiguous)
			}
			if st.Shares != nil && (x.Storage() == base.Storage()) != *st.Shares {
				t.Errorf("%s: shares storage %v, want %v", ctx, x.Storage() == base.Storage(), st.Shares)
			}
			checkTensor(t, ctx, x, gTensor{Values: st.Values, Shape: st.Shape}, 0)
		}
	}
}

func TestGoldenPromote(t *testing.T) {
	var raw []map[string]string
	loadGolden(t, "promote", &raw)
	for _, c := range raw {
		a, _ := ParseDType(c["a"])
		b, _ := ParseDType(c["b"])
		if got := Promote(a, b).String(); got != c["result"] {
			t.Errorf("Promote(%s, %s) = %s, want %s", a, b, got, c["result"])
		}
		x := zeros([]int{2}, a)
		y := zeros(nil, b)
		if got := ResultType(x, y).String(); got != c["zero_dim_b"] {
			t.Errorf("ResultType(%s[2], %s[]) = %s, want %s", a, b, got, c["zero_dim_b"])
		}
	}
	loadGolden(t, "promote_scalar", &raw)
	for _, c := range raw {
		a, _ := ParseDType(c["a"])
		k := map[string]ScalarKind{"bool": BoolScalar, "int": IntScalar, "float": FloatScalar}[c["scalar"]]
		if got := ResultTypeScalar(a, k).String(); got != c["result"] {
			t.Errorf("ResultTypeScalar(%s, %s) = %s, want %s", a, c["scalar"], got, c["result"])
		}
	}
}

type gOpCase struct {
	Op      string          `json:"op"`
	A       gTensor         `json:"a"`
	B       json.RawMessage `json:"b"`
	Out     gTensor         `json:"out"`
	Indices gTensor         `json:"indices"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
	Dims    []int           `json:"dims"`
	Keepdim bool            `json:"keepdim"`
	Corr    int             `json:"correction"`
	P       any             `json:"p"`
}

var binFuncs = map[string]func(a, b *Tensor) (*Tensor, error){
	"add": Add, "sub": Sub, "mul": Mul, "div": Div, "floor_divide": FloorDivide, "remainder": Remainder, "pow": Pow,
	"maximum": Maximum, "minimum": Minimum, "atan2": Atan2, "eq": Eq, "ne": Ne, "lt": Lt, "le": Le, "gt": Gt, "ge": Ge,
	"logical_and": LogicalAnd, "logical_or": LogicalOr, "logical_xor": LogicalXor,
	"bitwise_and": BitwiseAnd, "bitwise_or": BitwiseOr, "bitwise_xor": BitwiseXor,
}

func TestGoldenBinary(t *testing.T) {
	var cases []gOpCase
	loadGolden(t, "binary", &cases)
	for ci, c := range cases {
		a := c.A.make(t)
		var b *Tensor
		var sc struct {
			Scalar any `json:"scalar"`
		}
		var bt gTensor
		if err := json.Unmarshal(c.B, &sc); err == nil && sc.Scalar != nil {
			switch v := sc.Scalar.(type) {
			case bool:
				b = ScalarBool(v)
			case float64:
				if strings.Contains(string(c.B), ".") {
					b = ScalarFloat(v)
				} else {
					b = ScalarInt(int64(v))
				}
			}
		} else {
			json.Unmarshal(c.B, &bt)
			b = bt.make(t)
		}
		ctx := fmt.Sprintf("binary %d %s(%s%v, %s)", ci, c.Op, c.A.DType, c.A.Shape, string(c.B))
		if halfUnsupported(c.Message) {
			continue
		}
		r, err := binFuncs[c.Op](a, b)
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, strings.HasPrefix(c.Message, "The size"))
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, -1)
	}
}

func TestGoldenUnary(t *testing.T) {
	var cases []gOpCase
	loadGolden(t, "unary", &cases)
	fs := map[string]func(*Tensor) (*Tensor, error){
		"neg": Neg, "abs": Abs, "exp": Exp, "log": Log, "log1p": Log1p, "expm1": Expm1, "sqrt": Sqrt, "rsqrt": Rsqrt,
		"sin": Sin, "cos": Cos, "tan": Tan, "tanh": Tanh, "sigmoid": Sigmoid, "relu": Relu,
		"gelu":      func(x *Tensor) (*Tensor, error) { return Gelu(x, "none") },
		"gelu_tanh": func(x *Tensor) (*Tensor, error) { return Gelu(x, "tanh") },
		"sign":      Sign, "floor": Floor, "ceil": Ceil, "round": Round, "trunc": Trunc, "reciprocal": Reciprocal,
		"square": Square, "erf": Erf, "isnan": IsNan, "isinf": IsInf, "isfinite": IsFinite,
		"nan_to_num":  func(x *Tensor) (*Tensor, error) { return NanToNum(x, 0, nil, nil) },
		"logical_not": LogicalNot,
	}
	for ci, c := range cases {
		if halfUnsupported(c.Message) {
			continue // torch 1.13 lacks some CPU half kernels; tsr computes them in f32
		}
		ctx := fmt.Sprintf("unary %d %s(%s)", ci, c.Op, c.A.DType)
		r, err := fs[c.Op](c.A.make(t))
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, false)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, -1)
	}
}

// halfUnsupported reports a PyTorch 1.13 error that only says a CPU half
// kernel is missing; tsr supports those ops (computing in f32).
func halfUnsupported(msg string) bool {
	return strings.Contains(msg, "not implemented for 'Half'") || strings.Contains(msg, "not implemented for 'BFloat16'")
}

func TestGoldenReduce(t *testing.T) {
	var cases []gOpCase
	loadGolden(t, "reduce", &cases)
	for ci, c := range cases {
		if halfUnsupported(c.Message) {
			continue
		}
		a := c.A.make(t)
		ctx := fmt.Sprintf("reduce %d %s(%s%v, dims=%v, keepdim=%v)", ci, c.Op, c.A.DType, c.A.Shape, c.Dims, c.Keepdim)
		var r, idx *Tensor
		var err error
		d0 := func() int { return c.Dims[0] }
		switch c.Op {
		case "sum":
			r, err = Sum(a, c.Dims, c.Keepdim)
		case "mean":
			r, err = Mean(a, c.Dims, c.Keepdim)
		case "prod":
			r, err = Prod(a, c.Dims, c.Keepdim)
		case "amax":
			r, err = Amax(a, c.Dims, c.Keepdim)
		case "amin":
			r, err = Amin(a, c.Dims, c.Keepdim)
		case "var":
			r, err = Var(a, c.Dims, c.Corr, c.Keepdim && c.Dims != nil)
		case "std":
			r, err = Std(a, c.Dims, c.Corr, c.Keepdim && c.Dims != nil)
		case "norm":
			p := gNum(c.P)
			r, err = Norm(a, p, c.Dims, c.Keepdim)
		case "logsumexp":
			r, err = LogSumExp(a, c.Dims, c.Keepdim)
		case "all":
			r, err = All(a, c.Dims, c.Keepdim && c.Dims != nil)
		case "any":
			r, err = Any(a, c.Dims, c.Keepdim && c.Dims != nil)
		case "max", "min":
			if c.Dims == nil {
				if c.Op == "max" {
					r, err = Max(a)
				} else {
					r, err = Min(a)
				}
			} else if c.Op == "max" {
				r, idx, err = MaxDim(a, d0(), c.Keepdim)
			} else {
				r, idx, err = MinDim(a, d0(), c.Keepdim)
			}
		case "argmax", "argmin":
			var dp *int
			if c.Dims != nil {
				d := d0()
				dp = &d
			}
			if c.Op == "argmax" {
				r, err = Argmax(a, dp, c.Keepdim)
			} else {
				r, err = Argmin(a, dp, c.Keepdim)
			}
		case "cumsum":
			r, err = Cumsum(a, d0())
		case "cumprod":
			r, err = Cumprod(a, d0())
		case "softmax":
			r, err = Softmax(a, d0())
		case "log_softmax":
			r, err = LogSoftmax(a, d0())
		default:
			t.Fatalf("unknown op %s", c.Op)
		}
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, false)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, -1)
		if idx != nil {
			checkTensor(t, ctx+" indices", idx, c.Indices, 0)
		}
	}
}

func TestGoldenSumAccuracy(t *testing.T) {
	var c struct {
		N     int     `json:"n"`
		Value float64 `json:"value"`
		Sum   float64 `json:"sum_f64"`
	}
	loadGolden(t, "sum_accuracy", &c)
	x, _ := Full([]int{c.N}, c.Value, F32)
	s, _ := Sum(x, nil, false)
	v, _ := s.Item()
	if math.Abs(v.(float64)-c.Sum)/c.Sum > 1e-6 {
		t.Errorf("f32 sum of %d x %v = %v, want %v", c.N, c.Value, v, c.Sum)
	}
}

func TestGoldenMatmul(t *testing.T) {
	var cases []struct {
		A, B    gTensor
		TA      bool `json:"ta"`
		TB      bool `json:"tb"`
		Out     gTensor
		Error   string
		Message string
	}
	loadGolden(t, "matmul", &cases)
	for ci, c := range cases {
		a, b := c.A.make(t), c.B.make(t)
		if c.TA {
			a, _ = a.MT()
		}
		if c.TB {
			b, _ = b.MT()
		}
		ctx := fmt.Sprintf("matmul %d %v@%v", ci, a.Shape(), b.Shape())
		r, err := Matmul(a, b)
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, strings.HasPrefix(c.Message, "mat1"))
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, -1)
	}
}

func goldenItems(t *testing.T, raw [][]any) []Index {
	var items []Index
	for _, it := range raw {
		switch it[0].(string) {
		case "int":
			items = append(items, At(int(it[1].(float64))))
		case "slice":
			step := 1
			if it[3] != nil {
				step = int(it[3].(float64))
			}
			items = append(items, Span(optInt(it[1]), optInt(it[2]), step))
		case "ellipsis":
			items = append(items, Ellipsis())
		case "none":
			items = append(items, NewAxis())
		case "tensor":
			b, _ := json.Marshal(it[1])
			var g gTensor
			json.Unmarshal(b, &g)
			items = append(items, Adv(g.make(t)))
		}
	}
	return items
}

func TestGoldenIndex(t *testing.T) {
	var cases []struct {
		Shape   []int
		Items   [][]any
		Value   json.RawMessage
		Out     gTensor
		View    *bool
		Version int64
		Error   string
		Message string
	}
	loadGolden(t, "index", &cases)
	for ci, c := range cases {
		x, _ := Arange(0, float64(numel(c.Shape)), 1, F32)
		x, _ = x.Reshape(c.Shape...)
		items := goldenItems(t, c.Items)
		ctx := fmt.Sprintf("index %d %v %v", ci, c.Shape, c.Items)
		if c.Value == nil {
			r, err := x.Index(items...)
			if c.Error != "" {
				checkErr(t, ctx, err, c.Error, c.Message, false)
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", ctx, err)
				continue
			}
			checkTensor(t, ctx, r, c.Out, 0)
			if c.View != nil && *c.View != (r.Storage() == x.Storage()) {
				t.Errorf("%s: view=%v, want %v", ctx, r.Storage() == x.Storage(), *c.View)
			}
			continue
		}
		var val *Tensor
		var f float64
		if json.Unmarshal(c.Value, &f) == nil {
			val = ScalarFloat(f)
		} else {
			var g gTensor
			json.Unmarshal(c.Value, &g)
			val = g.make(t)
		}
		err := x.IndexPut(items, val)
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, false)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, x, c.Out, 0)
		if x.Version() != c.Version {
			t.Errorf("%s: version %d, want %d", ctx, x.Version(), c.Version)
		}
	}
}

func TestGoldenVersions(t *testing.T) {
	var cases []struct {
		Name     string
		Versions []int64
		Out      gTensor
		Error    string
		Message  string
	}
	loadGolden(t, "versions", &cases)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		x, _ := Arange(0, 6, 1, F32)
		x, _ = x.Reshape(2, 3)
		var vs []int64
		var err error
		switch c.Name {
		case "basic":
			step := func(e error) { must(e); vs = append(vs, x.Version()) }
			ones, _ := Ones([]int{3}, F32)
			step(x.AddInplace(ScalarInt(1)))
			step(x.MulInplace(ScalarInt(2)))
			step(x.SubInplace(ones))
			step(x.DivInplace(ScalarInt(2)))
			step(x.IndexPut([]Index{At(0)}, ScalarInt(3)))
			v98, _ := FromFloat64s([]float64{9, 8}, []int{2}, F32)
			step(x.IndexPut([]Index{AllSlice(), At(1)}, v98))
			xt, _ := x.T()
			step(xt.ZeroInplace())
			step(x.FillInplace(ScalarInt(2)))
			ar, _ := ArangeInt(0, 3, 1, I64)
			step(x.CopyInplace(ar))
			step(x.ClampInplace(ScalarFloat(0.5), ScalarFloat(1.5)))
			m, _ := Gt(x, ScalarInt(1))
			step(x.MaskedFillInplace(m, ScalarFloat(-1)))
			m2, _ := Lt(x, ScalarInt(0))
			step(x.IndexPut([]Index{Adv(m2)}, ScalarInt(7)))
			i0, _ := FromInt64s([]int64{0, 1}, []int{2}, I64)
			i1, _ := FromInt64s([]int64{0, 2}, []int{2}, I64)
			step(x.IndexPut([]Index{Adv(i0), Adv(i1)}, ScalarFloat(4)))
			step(x.ApplyInplace(Relu))
			step(x.AddInplace(ScalarInt(1)))
			y, _ := x.View(-1)
			step(y.AddInplace(ScalarInt(1)))
		case "int_add_float":
			xi, _ := ArangeInt(0, 3, 1, I64)
			err = xi.AddInplace(ScalarFloat(1.5))
		case "overlap":
			z, _ := Zeros([]int{3, 1}, F32)
			z, _ = z.Expand(3, 4)
			err = z.AddInplace(ScalarInt(1))
		case "int_div":
			xi, _ := ArangeInt(0, 3, 1, I64)
			err = xi.DivInplace(ScalarInt(2))
		case "inplace_bcast":
			o, _ := Ones([]int{2, 2, 3}, F32)
			err = x.AddInplace(o)
		}
		if c.Error != "" {
			checkErr(t, c.Name, err, c.Error, c.Message, true)
			continue
		}
		if fmt.Sprint(vs) != fmt.Sprint(c.Versions) {
			t.Errorf("%s: versions %v, want %v", c.Name, vs, c.Versions)
		}
		checkTensor(t, c.Name, x, c.Out, 0)
	}
}

func TestGoldenCreation(t *testing.T) {
	var cases []struct {
		Op      string
		Args    []any
		In      gTensor
		Out     gTensor
		Error   string
		Message string
	}
	loadGolden(t, "creation", &cases)
	for ci, c := range cases {
		ctx := fmt.Sprintf("creation %d %s%v", ci, c.Op, c.Args)
		var r *Tensor
		var err error
		f := func(i int) float64 { return c.Args[i].(float64) }
		switch c.Op {
		case "arange":
			dt := F32
			if c.Out.DType == "i64" || (c.Error != "" && f(0) == math.Trunc(f(0)) && f(2) == math.Trunc(f(2))) {
				r, err = ArangeInt(int64(f(0)), int64(f(1)), int64(f(2)), I64)
			} else {
				r, err = Arange(f(0), f(1), f(2), dt)
			}
		case "linspace":
			r, err = Linspace(f(0), f(1), int(f(2)), F32)
		case "eye":
			r, err = Eye(int(f(0)), int(f(1)), F32)
		case "triu", "tril":
			x, _ := Arange(0, 12, 1, F32)
			x, _ = x.Reshape(3, 4)
			if c.Op == "triu" {
				r, err = Triu(x, int(f(0)))
			} else {
				r, err = Tril(x, int(f(0)))
			}
		case "to":
			dt, _ := ParseDType(c.Args[0].(string))
			r, err = c.In.make(t).To(dt)
		}
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, false)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, 0)
	}
}

func TestGoldenJoin(t *testing.T) {
	var cases []struct {
		Op      string
		Ts      []gTensor
		Dim     int
		Out     gTensor
		Error   string
		Message string
	}
	loadGolden(t, "join", &cases)
	for ci, c := range cases {
		var ts []*Tensor
		for _, g := range c.Ts {
			ts = append(ts, g.make(t))
		}
		ctx := fmt.Sprintf("join %d %s dim=%d", ci, c.Op, c.Dim)
		var r *Tensor
		var err error
		if c.Op == "cat" {
			r, err = Cat(ts, c.Dim)
		} else {
			r, err = Stack(ts, c.Dim)
		}
		if c.Error != "" {
			checkErr(t, ctx, err, c.Error, c.Message, true)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", ctx, err)
			continue
		}
		checkTensor(t, ctx, r, c.Out, 0)
	}
}

func TestGoldenSort(t *testing.T) {
	var cases []struct {
		A          gTensor
		Dim        int
		Descending bool
		Values     gTensor
		Indices    gTensor
	}
	loadGolden(t, "sort", &cases)
	for ci, c := range cases {
		v, i, err := Sort(c.A.make(t), c.Dim, c.Descending)
		if err != nil {
			t.Fatal(err)
		}
		ctx := fmt.Sprintf("sort %d", ci)
		checkTensor(t, ctx, v, c.Values, 0)
		checkTensor(t, ctx, i, c.Indices, 0)
	}
}

func TestGoldenInfo(t *testing.T) {
	var fi []struct {
		DType                           string
		Bits                            int
		Eps, Max, Min, Tiny, Resolution float64
	}
	loadGolden(t, "finfo", &fi)
	for _, c := range fi {
		dt, _ := ParseDType(c.DType)
		f, err := Finfo(dt)
		if err != nil {
			t.Fatal(err)
		}
		want := FInfo{c.Bits, c.Eps, c.Max, c.Min, c.Tiny, c.Resolution}
		if f != want {
			t.Errorf("Finfo(%s) = %+v, want %+v", dt, f, want)
		}
	}
	var ii []struct {
		DType    string
		Bits     int
		Max, Min int64
	}
	loadGolden(t, "iinfo", &ii)
	for _, c := range ii {
		dt, _ := ParseDType(c.DType)
		f, _ := Iinfo(dt)
		if f != (IInfo{c.Bits, c.Max, c.Min}) {
			t.Errorf("Iinfo(%s) = %+v, want %+v", dt, f, c)
		}
	}
}
