package tensor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// Output layouts of elementwise ops against PyTorch's TensorIterator
// (testdata/layout_torch.json, from testdata/gen_layout_torch.py): shape,
// strides, is_contiguous, dtype and values of each result.

type layoutInput struct {
	Scalar *json.Number `json:"scalar"`
	Shape  []int        `json:"shape"`
	DType  string       `json:"dtype"`
	Views  [][]any      `json:"views"`
}

type layoutCase struct {
	Name       string        `json:"name"`
	Op         string        `json:"op"`
	Inputs     []layoutInput `json:"inputs"`
	Shape      []int         `json:"shape"`
	Stride     []int         `json:"stride"`
	Contiguous bool          `json:"contiguous"`
	DType      string        `json:"dtype"`
	Values     []any         `json:"values"`
}

func layoutInts(v any) []int {
	var out []int
	for _, x := range v.([]any) {
		out = append(out, mustInt(x))
	}
	return out
}

func mustInt(x any) int {
	var n int
	if _, err := fmt.Sscan(x.(json.Number).String(), &n); err != nil {
		panic(err)
	}
	return n
}

// build makes the input as the generator does: a base arange in the
// dtype followed by view ops.
func (in layoutInput) build(t *testing.T) *Tensor {
	t.Helper()
	if in.Scalar != nil {
		s := in.Scalar.String()
		if strings.ContainsAny(s, ".eE") {
			f, _ := in.Scalar.Float64()
			return ScalarFloat(f)
		}
		i, _ := in.Scalar.Int64()
		return ScalarInt(i)
	}
	dt, err := ParseDType(in.DType)
	if err != nil {
		t.Fatal(err)
	}
	n := numel(in.Shape)
	var x *Tensor
	switch {
	case dt == Bool:
		vs := make([]bool, n)
		for i := range vs {
			vs[i] = i%3 == 0
		}
		x, err = FromBools(vs, in.Shape)
	case dt == U8:
		vs := make([]int64, n)
		for i := range vs {
			vs[i] = int64(i % 200)
		}
		x, err = FromInt64s(vs, in.Shape, dt)
	case dt.IsInt():
		vs := make([]int64, n)
		for i := range vs {
			vs[i] = int64(i - n/2)
		}
		x, err = FromInt64s(vs, in.Shape, dt)
	default:
		vs := make([]float64, n)
		for i := range vs {
			vs[i] = (float64(i) - float64(n)/2) * 0.37
		}
		x, err = FromFloat64s(vs, in.Shape, dt)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range in.Views {
		switch v[0].(string) {
		case "permute":
			x, err = x.Permute(layoutInts(v[1])...)
		case "t":
			x, err = x.T()
		case "slice":
			x, err = x.Slice(mustInt(v[1]), mustInt(v[2]), mustInt(v[3]), mustInt(v[4]))
		case "expand":
			x, err = x.Expand(layoutInts(v[1])...)
		case "unsqueeze":
			x, err = x.Unsqueeze(mustInt(v[1]))
		case "select":
			x, err = x.Select(mustInt(v[1]), mustInt(v[2]))
		default:
			t.Fatalf("unknown view %v", v[0])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return x
}

var layoutBinary = map[string]func(a, b *Tensor) (*Tensor, error){
	"add": Add, "sub": Sub, "mul": Mul, "div": Div, "maximum": Maximum, "pow": Pow,
	"atan2": Atan2, "floor_divide": FloorDivide, "eq": Eq, "lt": Lt, "gt": Gt,
	"logical_and": LogicalAnd, "bitwise_and": BitwiseAnd,
}

var layoutUnary = map[string]func(a *Tensor) (*Tensor, error){
	"exp": Exp, "sin": Sin, "neg": Neg, "abs": Abs, "sigmoid": Sigmoid, "tanh": Tanh,
	"floor": Floor, "isnan": IsNan, "logical_not": LogicalNot, "relu": Relu, "square": Square,
	"sqrt": func(a *Tensor) (*Tensor, error) {
		b, err := Abs(a)
		if err != nil {
			return nil, err
		}
		return Sqrt(b)
	},
	"float":  func(a *Tensor) (*Tensor, error) { return a.ToPreserve(F32) },
	"double": func(a *Tensor) (*Tensor, error) { return a.ToPreserve(F64) },
	"half":   func(a *Tensor) (*Tensor, error) { return a.ToPreserve(F16) },
	"clamp":  func(a *Tensor) (*Tensor, error) { return Clamp(a, ScalarInt(-1), ScalarInt(2)) },
}

func loadLayoutCases(t *testing.T) []layoutCase {
	t.Helper()
	b, err := os.ReadFile("testdata/layout_torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []layoutCase `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	// values: json.Number -> float64 / string for gNum
	for i := range doc.Cases {
		for j, v := range doc.Cases[i].Values {
			if n, ok := v.(json.Number); ok {
				f, _ := n.Float64()
				doc.Cases[i].Values[j] = f
			}
		}
	}
	return doc.Cases
}

func TestElementwiseLayoutTorch(t *testing.T) {
	cases := loadLayoutCases(t)
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, fast := range []bool{true, false} {
		fastPathsOff.Store(!fast)
		for _, c := range cases {
			ctx := fmt.Sprintf("%s (fast paths %v)", c.Name, fast)
			args := make([]*Tensor, len(c.Inputs))
			for i, in := range c.Inputs {
				args[i] = in.build(t)
			}
			var r *Tensor
			var err error
			switch {
			case c.Op == "where":
				r, err = Where(args[0], args[1], args[2])
			case layoutBinary[c.Op] != nil:
				r, err = layoutBinary[c.Op](args[0], args[1])
			case layoutUnary[c.Op] != nil:
				r, err = layoutUnary[c.Op](args[0])
			default:
				t.Fatalf("%s: unknown op %s", ctx, c.Op)
			}
			if err != nil {
				t.Errorf("%s: %v", ctx, err)
				continue
			}
			if !slices.Equal(r.Strides(), c.Stride) && !(len(c.Stride) == 0 && len(r.Strides()) == 0) {
				t.Errorf("%s: stride %v, want %v", ctx, r.Strides(), c.Stride)
			}
			if r.IsContiguous() != c.Contiguous {
				t.Errorf("%s: is_contiguous %v, want %v", ctx, r.IsContiguous(), c.Contiguous)
			}
			checkTensor(t, ctx, r, gTensor{Values: c.Values, Shape: c.Shape, DType: c.DType}, -1)
		}
	}
	fastPathsOff.Store(false)
}

// TestElementwiseLayoutLarge runs the multi-threaded paths (flat runs of a
// shared permuted layout, the split of a transposed result's outer dim)
// on tensors above parallelGrain and checks values against the same ops
// on contiguous copies.
func TestElementwiseLayoutLarge(t *testing.T) {
	defer SetNumThreads(GetNumThreads())
	SetNumThreads(4)
	g := NewGenerator(3)
	for _, dt := range []DType{F32, F64, I64} {
		xr, _ := Rand(g, []int{384, 512}, F64)
		yr, _ := Rand(g, []int{384, 512}, F64)
		xr, _ = Mul(xr, ScalarFloat(100))
		yr, _ = Mul(yr, ScalarFloat(100))
		x, y := xr.toDType(dt), yr.toDType(dt)
		xt, _ := x.T()
		yt, _ := y.T()
		yc, _ := y.T()
		yc = yc.Contiguous() // [512, 384] contiguous, values of y.t()
		type tc struct {
			name string
			a, b *Tensor
		}
		for _, c := range []tc{{"t+t", xt, yt}, {"t+c", xt, yc}, {"c+t", yc, xt}, {"t+scalar", xt, ScalarFloat(0.25)}} {
			for _, op := range []struct {
				name string
				f    func(a, b *Tensor) (*Tensor, error)
			}{{"add", Add}, {"mul", Mul}, {"maximum", Maximum}, {"gt", Gt}} {
				got, err := op.f(c.a, c.b)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := op.f(c.a.Contiguous(), c.b.Contiguous())
				if !slices.Equal(got.ToFloat64s(), want.ToFloat64s()) {
					t.Errorf("%v %s %s: values differ", dt, c.name, op.name)
				}
				if wantSt := ElementwiseStrides(got.Shape(), c.a, c.b); !slices.Equal(got.Strides(), wantSt) {
					t.Errorf("%v %s %s: strides %v, want %v", dt, c.name, op.name, got.Strides(), wantSt)
				}
			}
		}
		for _, f := range []func(*Tensor) (*Tensor, error){Exp, Neg, Sigmoid} {
			got, err := f(xt)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := f(xt.Contiguous())
			if !slices.Equal(got.ToFloat64s(), want.ToFloat64s()) || !slices.Equal(got.Strides(), xt.Strides()) {
				t.Errorf("%v unary on x.t(): strides %v, values equal %v", dt, got.Strides(), slices.Equal(got.ToFloat64s(), want.ToFloat64s()))
			}
		}
	}
}
