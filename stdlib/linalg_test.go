package stdlib

import (
	"math"
	"strings"
	"testing"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
)

func f64Matrix(t *testing.T, th *runtime.Thread, rows [][]float64) *TensorValue {
	t.Helper()
	var flat []float64
	for _, r := range rows {
		flat = append(flat, r...)
	}
	x, err := tensor.FromFloat64s(flat, []int{len(rows), len(rows[0])}, tensor.F64)
	if err != nil {
		t.Fatal(err)
	}
	return NewTensorValue(th, x)
}

func near(t *testing.T, got *tensor.Tensor, want []float64, tol float64) {
	t.Helper()
	g := got.ToFloat64s()
	if len(g) != len(want) {
		t.Fatalf("got %v, want %v", g, want)
	}
	for i := range g {
		if math.Abs(g[i]-want[i]) > tol {
			t.Fatalf("got %v, want %v", g, want)
		}
	}
}

func TestLinalgModule(t *testing.T) {
	e := newEnv(t)
	A := f64Matrix(t, e.th, [][]float64{{4, 1}, {1, 3}})

	// named tuples with PyTorch's field names
	svd := e.call("linalg.svd", []runtime.Value{A}).(*runtime.NamedTuple)
	if strings.Join(svd.Fields, ",") != "U,S,Vh" || svd.TypeName != "linalg_svd" {
		t.Fatalf("svd tuple %s %v", svd.TypeName, svd.Fields)
	}
	s := (7 + math.Sqrt(5)) / 2
	near(t, svd.Tuple[1].(*TensorValue).t, []float64{s, 7 - s}, 1e-12)
	eh := e.call("linalg.eigh", []runtime.Value{A}, runtime.Kwarg{Name: "UPLO", Value: runtime.String("U")}).(*runtime.NamedTuple)
	near(t, eh.Tuple[0].(*TensorValue).t, []float64{7 - s, s}, 1e-12)
	sl := e.call("linalg.slogdet", []runtime.Value{A}).(*runtime.NamedTuple)
	near(t, sl.Tuple[1].(*TensorValue).t, []float64{math.Log(11)}, 1e-12)

	near(t, e.call("linalg.det", []runtime.Value{A}).(*TensorValue).t, []float64{11}, 1e-12)
	near(t, e.call("linalg.inv", []runtime.Value{A}).(*TensorValue).t, []float64{3. / 11, -1. / 11, -1. / 11, 4. / 11}, 1e-12)
	near(t, e.call("linalg.cholesky", []runtime.Value{A}).(*TensorValue).t, []float64{2, 0, 0.5, math.Sqrt(2.75)}, 1e-12)
	near(t, e.call("linalg.matrix_norm", []runtime.Value{A}, runtime.Kwarg{Name: "ord", Value: runtime.String("nuc")}).(*TensorValue).t, []float64{7}, 1e-12)
	near(t, e.call("linalg.matrix_norm", []runtime.Value{A}, runtime.Kwarg{Name: "ord", Value: runtime.Float(math.Inf(1))}).(*TensorValue).t, []float64{5}, 1e-12)
	near(t, e.call("linalg.cond", []runtime.Value{A}).(*TensorValue).t, []float64{s / (7 - s)}, 1e-12)
	rk := e.call("linalg.matrix_rank", []runtime.Value{A}).(*TensorValue).t
	if rk.DType() != tensor.I64 || rk.FlatInt64(0) != 2 {
		t.Fatalf("matrix_rank = %v", rk)
	}

	// lowrank unpacks as three tensors and reports energy and error
	lr := e.call("linalg.lowrank", []runtime.Value{A, runtime.MakeInt(1)})
	seq := lr.(runtime.Sequence)
	if seq.Len() != 3 {
		t.Fatalf("lowrank has %d elements", seq.Len())
	}
	en := e.attr(lr, "energy").(runtime.Float)
	re := e.attr(lr, "rel_error").(runtime.Float)
	if math.Abs(float64(en)-s*s/(s*s+(7-s)*(7-s))) > 1e-12 || math.Abs(float64(re)*float64(re)+float64(en)-1) > 1e-12 {
		t.Fatalf("energy %v rel_error %v", en, re)
	}

	// errors keep their kinds
	sing := f64Matrix(t, e.th, [][]float64{{1, 2}, {2, 4}})
	_, err := e.try("linalg.inv", []runtime.Value{sing})
	if k, ok := err.(interface{ ErrorKind() string }); !ok || k.ErrorKind() != "LinAlgError" {
		t.Fatalf("inv of a singular matrix: %v", err)
	}
	_, err = e.try("linalg.matrix_norm", []runtime.Value{A}, runtime.Kwarg{Name: "ord", Value: runtime.MakeInt(3)})
	if err == nil || err.Error() != "linalg.matrix_norm: Order 3 not supported." {
		t.Fatalf("matrix_norm ord=3: %v", err)
	}
	_, err = e.try("linalg.lstsq", []runtime.Value{A, A}, runtime.Kwarg{Name: "driver", Value: runtime.String("gelsx")})
	if err == nil {
		t.Fatal("lstsq driver=gelsx should be rejected")
	}
	if b, ok := e.call("linalg.backend", nil).(runtime.String); !ok || b == "" {
		t.Fatal("backend() is empty")
	}
}

func TestLowRankLinear(t *testing.T) {
	e := newEnv(t)
	lin := e.call("nn.Linear", []runtime.Value{runtime.MakeInt(6), runtime.MakeInt(4)}, runtime.Kwarg{Name: "dtype", Value: &DTypeValue{dt: tensor.F64}})
	cls, _ := e.g["nn"].(*runtime.Module).Attr("LowRankLinear")
	from, _ := cls.(runtime.HasAttrs).Attr("from_linear")
	// full rank: the factored layer reproduces the dense one
	lr, err := from.(runtime.Callable).Call(e.th, []runtime.Value{lin, runtime.MakeInt(4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := tensor.Rand(tensor.NewGenerator(1), []int{3, 6}, tensor.F64)
	xv := NewTensorValue(e.th, x)
	yd, err := lin.(runtime.Callable).Call(e.th, []runtime.Value{xv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	yl, err := lr.(runtime.Callable).Call(e.th, []runtime.Value{xv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, yl.(*TensorValue).t, yd.(*TensorValue).t.ToFloat64s(), 1e-12)
	if en := e.attr(lr, "energy").(runtime.Float); math.Abs(float64(en)-1) > 1e-12 {
		t.Fatalf("full-rank energy %v", en)
	}
	if s := lr.String(); s != "LowRankLinear(in_features=6, out_features=4, rank=4, bias=true)" {
		t.Fatalf("repr %q", s)
	}
}
