package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bcastCase is a base tensor and the shape it is expanded to.
type bcastCase struct {
	base   []int
	expand []int
}

var bcastCases = []bcastCase{
	{[]int{1, 7}, []int{5, 7}},
	{[]int{6, 1}, []int{6, 9}},
	{[]int{1, 1}, []int{4, 3}},
	{[]int{3, 1, 4}, []int{3, 5, 4}},
	{[]int{1, 4, 1}, []int{2, 4, 3}},
	{[]int{5}, []int{3, 2, 5}}, // new leading dims
	{[]int{2, 1, 1, 3}, []int{2, 2, 4, 3}},
	{[]int{1}, []int{8}},
}

// bcastDimSets lists the dim arguments tried for a rank-n tensor.
func bcastDimSets(n int) [][]int {
	sets := [][]int{nil}
	for d := 0; d < n; d++ {
		sets = append(sets, []int{d})
	}
	if n >= 2 {
		sets = append(sets, []int{0, n - 1}, []int{-1, -2})
	}
	if n >= 3 {
		sets = append(sets, []int{1, 2})
	}
	return sets
}

// bcastInput returns a random base tensor of dtype dt with the given shape
// (small integers for integer dtypes, so products stay exact).
func bcastInput(t *testing.T, rng *rand.Rand, shape []int, dt DType) *Tensor {
	n := numel(shape)
	v := make([]float64, n)
	for i := range v {
		switch {
		case dt == Bool:
			v[i] = float64(rng.IntN(4) / 3) // mostly false, some true
		case dt.IsFloat():
			v[i] = rng.NormFloat64()
		default:
			v[i] = float64(rng.IntN(7) - 3)
		}
	}
	x, err := FromFloat64s(v, shape, dt)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// compareReduce checks got against want (the reduction of the materialised
// view): same dtype, shape, and values within rtol (exact for rtol 0).
func compareReduce(t *testing.T, ctx string, got, want *Tensor, gerr, werr error, rtol float64) {
	t.Helper()
	if (gerr != nil) != (werr != nil) {
		t.Errorf("%s: error %v, materialised error %v", ctx, gerr, werr)
		return
	}
	if werr != nil {
		if gerr.Error() != werr.Error() {
			t.Errorf("%s: error %q, materialised %q", ctx, gerr, werr)
		}
		return
	}
	if got.DType() != want.DType() || !shapeEq(got.Shape(), want.Shape()) {
		t.Errorf("%s: %s%v, materialised %s%v", ctx, got.DType(), got.Shape(), want.DType(), want.Shape())
		return
	}
	if !got.IsContiguous() || got.hasInternalOverlap() {
		t.Errorf("%s: result is not a fresh contiguous tensor (strides %v)", ctx, got.Strides())
	}
	g, w := got.ToFloat64s(), want.ToFloat64s()
	for i := range g {
		if g[i] == w[i] || (g[i] != g[i] && w[i] != w[i]) {
			continue
		}
		if rtol == 0 || math.Abs(g[i]-w[i]) > rtol*math.Max(1, math.Abs(w[i])) {
			t.Errorf("%s: element %d = %v, materialised %v", ctx, i, g[i], w[i])
			return
		}
	}
}

type reduceFn struct {
	name   string
	floats bool // float inputs only
	f      func(x *Tensor, dims []int, keepdim bool) (*Tensor, error)
}

func bcastReductions() []reduceFn {
	dim0 := func(dims []int) int {
		if len(dims) == 0 {
			return 0
		}
		return dims[0]
	}
	second := func(f func(*Tensor, int, bool) (*Tensor, *Tensor, error)) func(*Tensor, []int, bool) (*Tensor, error) {
		return func(x *Tensor, dims []int, k bool) (*Tensor, error) {
			_, i, err := f(x, dim0(dims), k)
			return i, err
		}
	}
	first := func(f func(*Tensor, int, bool) (*Tensor, *Tensor, error)) func(*Tensor, []int, bool) (*Tensor, error) {
		return func(x *Tensor, dims []int, k bool) (*Tensor, error) {
			v, _, err := f(x, dim0(dims), k)
			return v, err
		}
	}
	argF := func(isMax bool) func(*Tensor, []int, bool) (*Tensor, error) {
		return func(x *Tensor, dims []int, k bool) (*Tensor, error) {
			var d *int
			if len(dims) > 0 {
				d = &dims[0]
			}
			if isMax {
				return Argmax(x, d, k)
			}
			return Argmin(x, d, k)
		}
	}
	norm := func(p float64) func(*Tensor, []int, bool) (*Tensor, error) {
		return func(x *Tensor, dims []int, k bool) (*Tensor, error) { return Norm(x, p, dims, k) }
	}
	return []reduceFn{
		{"sum", false, Sum},
		{"prod", false, Prod},
		{"mean", true, Mean},
		{"amax", false, Amax},
		{"amin", false, Amin},
		{"all", false, All},
		{"any", false, Any},
		{"var", true, func(x *Tensor, d []int, k bool) (*Tensor, error) { return Var(x, d, 1, k) }},
		{"var0", true, func(x *Tensor, d []int, k bool) (*Tensor, error) { return Var(x, d, 0, k) }},
		{"std", true, func(x *Tensor, d []int, k bool) (*Tensor, error) { return Std(x, d, 1, k) }},
		{"logsumexp", false, LogSumExp},
		{"norm2", true, norm(2)},
		{"norm1", true, norm(1)},
		{"norm0", true, norm(0)},
		{"norminf", true, norm(math.Inf(1))},
		{"norm-inf", true, norm(math.Inf(-1))},
		{"norm3", true, norm(3)},
		{"norm0.5", true, norm(0.5)},
		{"max.values", false, first(MaxDim)},
		{"max.indices", false, second(MaxDim)},
		{"min.values", false, first(MinDim)},
		{"min.indices", false, second(MinDim)},
		{"argmax", false, argF(true)},
		{"argmin", false, argF(false)},
		{"maxall", false, func(x *Tensor, _ []int, _ bool) (*Tensor, error) { return Max(x) }},
		{"minall", false, func(x *Tensor, _ []int, _ bool) (*Tensor, error) { return Min(x) }},
	}
}

// TestReduceBroadcastMatchesMaterialised reduces expanded views with every
// reduction entry point and compares with the reduction of the
// materialised (contiguous) copy.
func TestReduceBroadcastMatchesMaterialised(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []DType{F32, F64, F16, I64, I32, Bool} {
		for _, c := range bcastCases {
			base := bcastInput(t, rng, c.base, dt)
			x, err := base.Expand(c.expand...)
			if err != nil {
				t.Fatal(err)
			}
			mat := x.Clone()
			for _, r := range bcastReductions() {
				if r.floats && !dt.IsFloat() {
					continue
				}
				if dt == Bool && (r.name == "argmax" || r.name == "argmin") {
					continue
				}
				rtol := 0.0
				switch dt {
				case F32:
					rtol = 1e-5
				case F64:
					rtol = 1e-12
				case F16:
					rtol = 2e-3
				}
				for _, dims := range bcastDimSets(len(c.expand)) {
					if len(dims) > 1 && (r.name[:3] == "max" || r.name[:3] == "min" || r.name[:3] == "arg") {
						continue
					}
					for _, keep := range []bool{false, true} {
						ctx := fmt.Sprintf("%s %s base%v expand%v dims%v keepdim=%v", r.name, dt, c.base, c.expand, dims, keep)
						got, gerr := r.f(x, dims, keep)
						want, werr := r.f(mat, dims, keep)
						compareReduce(t, ctx, got, want, gerr, werr, rtol)
					}
				}
			}
		}
	}
}

// TestReduceBroadcastSpecialValues covers NaN, infinities and the
// first-occurrence index rule through broadcast dims.
func TestReduceBroadcastSpecialValues(t *testing.T) {
	m := must[*Tensor](t)
	nan, inf := math.NaN(), math.Inf(1)
	base := m(FromFloat64s([]float64{1, nan, -inf, 3, inf, 2}, []int{1, 6}, F32))
	x := m(base.Expand(4, 6))
	mat := x.Clone()
	for _, r := range bcastReductions() {
		for _, dims := range [][]int{nil, {0}, {1}} {
			ctx := fmt.Sprintf("%s dims%v", r.name, dims)
			got, gerr := r.f(x, dims, false)
			want, werr := r.f(mat, dims, false)
			compareReduce(t, ctx, got, want, gerr, werr, 1e-6)
		}
	}
	// argmax over a broadcast dim is index 0 (first occurrence)
	y := m(m(FromFloat64s([]float64{5, 1, 7}, []int{3, 1}, F64)).Expand(3, 1000))
	i := m(Argmax(y, nil, false)).ToInt64s()
	if i[0] != 2000 {
		t.Errorf("argmax flat = %d, want 2000", i[0])
	}
	_, idx := m2(MaxDim(y, 1, false))
	if got := idx.ToInt64s(); got[0] != 0 || got[1] != 0 || got[2] != 0 {
		t.Errorf("max(dim=1).indices = %v, want zeros", got)
	}
}

func m2(a, b *Tensor, err error) (*Tensor, *Tensor) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// TestReduceBroadcastClosedForms checks values derived by hand.
func TestReduceBroadcastClosedForms(t *testing.T) {
	m := must[*Tensor](t)
	one := func(x *Tensor) float64 { return x.ToFloat64s()[0] }
	x := m(m(FromFloat64s([]float64{2, -1, 3}, []int{1, 3}, F64)).Expand(1000, 3))
	if v := one(m(Sum(x, nil, false))); v != 4000 {
		t.Errorf("sum = %v, want 4000", v)
	}
	if v := one(m(Mean(x, nil, false))); math.Abs(v-4.0/3) > 1e-15 {
		t.Errorf("mean = %v", v)
	}
	if v := one(m(Prod(m(m(FromFloat64s([]float64{2}, []int{1}, F64)).Expand(10)), nil, false))); v != 1024 {
		t.Errorf("prod = %v, want 1024", v)
	}
	// var over the broadcast dim only: zero
	if v := m(Var(x, []int{0}, 1, false)).ToFloat64s(); v[0] != 0 || v[1] != 0 || v[2] != 0 {
		t.Errorf("var(dim=0) = %v, want zeros", v)
	}
	// var of 1000 copies of {2, -1, 3}: ss = 1000*(2/3^2... ) computed exactly
	mu := 4.0 / 3
	ss := 1000 * ((2-mu)*(2-mu) + (-1-mu)*(-1-mu) + (3-mu)*(3-mu))
	if v := one(m(Var(x, nil, 1, false))); math.Abs(v-ss/2999) > 1e-12 {
		t.Errorf("var = %v, want %v", v, ss/2999)
	}
	if v := one(m(LogSumExp(m(m(Zeros([]int{1}, F32)).Expand(1000)), nil, false))); math.Abs(v-math.Log(1000)) > 1e-6 {
		t.Errorf("logsumexp = %v, want log(1000)", v)
	}
	// integer sum wraps exactly as the sequential sum
	big := m(m(FromInt64s([]int64{math.MaxInt64 / 3}, []int{1}, I64)).Expand(7))
	want := int64(0)
	for range 7 {
		want += math.MaxInt64 / 3
	}
	if v := m(Sum(big, nil, false)).ToInt64s()[0]; v != want {
		t.Errorf("wrapped sum = %d, want %d", v, want)
	}
}

// TestReduceBroadcastNoMaterialise reduces views whose expanded form would
// need 40-80 GB and checks the bytes allocated stay tiny.
func TestReduceBroadcastNoMaterialise(t *testing.T) {
	m := must[*Tensor](t)
	col := m(m(Ones([]int{100000, 1}, F64)).Expand(-1, 100000))
	row := m(m(Ones([]int{1, 100000}, F32)).Expand(100000, -1))
	_, before, _ := PoolStats()
	if v := m(Sum(col, nil, false)).ToFloat64s()[0]; v != 1e10 {
		t.Errorf("sum = %v, want 1e10", v)
	}
	if v := m(Sum(row, nil, false)).ToFloat64s()[0]; v != 1e10 {
		t.Errorf("sum = %v, want 1e10", v)
	}
	for _, x := range []*Tensor{col, row} {
		m(Mean(x, nil, false))
		m(Amax(x, []int{0}, false))
		m(Var(x, nil, 1, false))
		m(Std(x, []int{0, 1}, 0, true))
		m(Prod(x, nil, false))
		m(All(x, nil, false))
		m(Any(x, []int{1}, false))
		m(Norm(x, 2, nil, false))
		m(LogSumExp(x, nil, false))
		m(Argmax(x, nil, false))
		m(Max(x))
		m2(MinDim(x, 1, false))
	}
	// Sum over dim 0 of col materialises only the 100000-element output
	if s := m(Sum(col, []int{0}, false)); !shapeEq(s.Shape(), []int{100000}) || s.ToFloat64s()[99999] != 100000 {
		t.Errorf("sum(dim=0) shape %v", s.Shape())
	}
	_, after, _ := PoolStats()
	if d := after - before; d > 64<<20 {
		t.Errorf("reductions of broadcast views allocated %d bytes", d)
	}
}
