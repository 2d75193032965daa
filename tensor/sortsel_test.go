package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// Sort, topk, median and kthvalue are checked against a reference stable
// sort of the values as float64 (NaN last), written independently of the
// order-key kernels; all four must agree with it on values and indices.

var selDTypes = []DType{F32, F64, F16, BF16, I8, I16, I32, I64, U8, Bool}

// selInput returns a tensor of shape with many ties, and for float dtypes
// NaN, ±Inf and ±0.
func selInput(t *testing.T, rng *rand.Rand, shape []int, dt DType) *Tensor {
	n := numel(shape)
	v := make([]float64, n)
	for i := range v {
		switch {
		case dt == Bool:
			v[i] = float64(rng.IntN(2))
		case dt == U8:
			v[i] = float64(rng.IntN(256))
		case dt.IsFloat():
			switch r := rng.IntN(20); r {
			case 0:
				v[i] = math.NaN()
			case 1:
				v[i] = math.Inf(1 - 2*rng.IntN(2))
			case 2:
				v[i] = math.Copysign(0, float64(1-2*rng.IntN(2)))
			case 3, 4, 5:
				v[i] = float64(rng.IntN(5) - 2) // ties
			default:
				v[i] = rng.NormFloat64() * 100
			}
		case dt == I8:
			v[i] = float64(rng.IntN(256) - 128)
		default:
			v[i] = float64(rng.IntN(2000) - 1000)
		}
	}
	x, err := FromFloat64s(v, shape, dt)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// refOrder returns the stable sorted order of row (NaN last ascending,
// first descending).
func refOrder(row []float64, desc bool) []int {
	perm := make([]int, len(row))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(i, j int) bool {
		x, y := row[perm[i]], row[perm[j]]
		if desc {
			return (x != x && y == y) || x > y
		}
		return (y != y && x == x) || x < y
	})
	return perm
}

// rowsAlong returns the rows of x along dim d in C order of the other dims
// (as float64) and the matching row shapes.
func rowsAlong(x *Tensor, d int) [][]float64 {
	if x.Dim() == 0 {
		return [][]float64{x.ToFloat64s()}
	}
	perm := []int{}
	for i := range x.Dim() {
		if i != d {
			perm = append(perm, i)
		}
	}
	perm = append(perm, d)
	p, _ := x.Permute(perm...)
	flat := p.ToFloat64s()
	n := x.Shape()[d]
	var rows [][]float64
	for i := 0; n > 0 && i < len(flat); i += n {
		rows = append(rows, flat[i:i+n])
	}
	return rows
}

func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
}

// checkSelected checks that vals/idx (dim d of size k) hold, for each row
// along d, the positions want(row) of the row's reference order.
func checkSelected(t *testing.T, ctx string, x, vals, idx *Tensor, d int, want func(row []float64) []int) {
	t.Helper()
	xr := rowsAlong(x, d)
	vr, ir := rowsAlong(vals, d), rowsAlong(idx, d)
	if len(vr) != len(xr) && vals.Numel() > 0 {
		t.Fatalf("%s: %d value rows, want %d", ctx, len(vr), len(xr))
	}
	for r := range vr {
		w := want(xr[r])
		for q, i := range w {
			if int(ir[r][q]) != i || !sameFloat(vr[r][q], xr[r][i]) {
				t.Fatalf("%s: row %d position %d: got (%v, %v), want (%v, %d)", ctx, r, q, vr[r][q], ir[r][q], xr[r][i], i)
			}
		}
	}
}

func TestSortMatchesStableReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := [][]int{{0}, {1}, {5}, {255}, {256}, {300}, {3000}, {7, 300}, {300, 7}, {2, 3, 40}}
	for _, dt := range selDTypes {
		for _, sh := range shapes {
			x := selInput(t, rng, sh, dt)
			for d := range sh {
				for _, desc := range []bool{false, true} {
					for _, tr := range []bool{false, true} {
						in := x
						if tr && len(sh) >= 2 {
							in, _ = x.Transpose(0, len(sh)-1)
							in, _ = in.Contiguous().Transpose(0, len(sh)-1) // same values, strided
						}
						ctx := fmt.Sprintf("sort %s %v dim=%d desc=%v strided=%v", dt, sh, d, desc, tr)
						v, i, err := Sort(in, d, desc)
						if err != nil {
							t.Fatal(err)
						}
						if !shapeEq(v.Shape(), sh) || !shapeEq(i.Shape(), sh) || v.DType() != dt || i.DType() != I64 {
							t.Fatalf("%s: shapes %v %v", ctx, v.Shape(), i.Shape())
						}
						checkSelected(t, ctx, in, v, i, d, func(row []float64) []int { return refOrder(row, desc) })
					}
				}
			}
		}
	}
}

func TestTopkMatchesStableReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range selDTypes {
		for _, sh := range [][]int{{1}, {9}, {100}, {5000}, {6, 400}, {400, 6}} {
			x := selInput(t, rng, sh, dt)
			for d := range sh {
				n := sh[d]
				for _, k := range []int{0, 1, 3, n / 8, n/8 + 1, n} {
					if k > n {
						continue
					}
					for _, largest := range []bool{true, false} {
						ctx := fmt.Sprintf("topk %s %v dim=%d k=%d largest=%v", dt, sh, d, k, largest)
						v, i, err := Topk(x, k, d, largest)
						if err != nil {
							t.Fatal(err)
						}
						if v.Shape()[d] != k {
							t.Fatalf("%s: shape %v", ctx, v.Shape())
						}
						checkSelected(t, ctx, x, v, i, d, func(row []float64) []int { return refOrder(row, largest)[:k] })
					}
				}
			}
		}
	}
	// adversarial orders for the heap: ascending and descending runs
	for _, asc := range []bool{true, false} {
		vals := make([]float64, 4000)
		for i := range vals {
			vals[i] = float64(i / 3)
			if !asc {
				vals[i] = -vals[i]
			}
		}
		x := must[*Tensor](t)(FromFloat64s(vals, []int{4000}, F64))
		for _, largest := range []bool{true, false} {
			v, i, _ := Topk(x, 50, 0, largest)
			checkSelected(t, "topk runs", x, v, i, 0, func(row []float64) []int { return refOrder(row, largest)[:50] })
		}
	}
	if _, _, err := Topk(must[*Tensor](t)(Zeros([]int{3}, F32)), 4, 0, true); err == nil || err.Error() != "selected index k out of range" {
		t.Errorf("topk k > n: %v", err)
	}
}

func TestMedianKthvalueMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range selDTypes {
		for _, sh := range [][]int{{1}, {2}, {9}, {100}, {5000}, {9000}, {5, 300}, {300, 5}} {
			x := selInput(t, rng, sh, dt)
			for d := range sh {
				n := sh[d]
				for _, keep := range []bool{false, true} {
					ctx := fmt.Sprintf("median %s %v dim=%d keepdim=%v", dt, sh, d, keep)
					v, i, err := Median(x, d, keep)
					if err != nil {
						t.Fatal(err)
					}
					if keep != (v.Dim() == len(sh)) {
						t.Fatalf("%s: shape %v", ctx, v.Shape())
					}
					if !keep {
						v, _ = v.Unsqueeze(d)
						i, _ = i.Unsqueeze(d)
					}
					checkSelected(t, ctx, x, v, i, d, func(row []float64) []int {
						o := refOrder(row, false)
						for q, j := range o {
							if row[j] != row[j] {
								return []int{o[q]} // first NaN in sorted order
							}
						}
						return []int{o[(n-1)/2]}
					})
				}
				for _, k := range []int{1, (n + 1) / 2, n} {
					ctx := fmt.Sprintf("kthvalue %s %v dim=%d k=%d", dt, sh, d, k)
					v, i, err := Kthvalue(x, k, d, true)
					if err != nil {
						t.Fatal(err)
					}
					checkSelected(t, ctx, x, v, i, d, func(row []float64) []int { return []int{refOrder(row, false)[k-1]} })
				}
			}
		}
	}
}

func TestMedianEdgeCases(t *testing.T) {
	m := must[*Tensor](t)
	x := m(FromFloat64s([]float64{3, 1, 4, 1, 5, 9, 2, 6}, []int{8}, F32))
	if v := m(MedianAll(x)).ToFloat64s(); v[0] != 3 { // lower median of 1 1 2 3 4 5 6 9
		t.Errorf("median = %v, want 3", v)
	}
	y := m(FromFloat64s([]float64{2, math.NaN(), 1, math.NaN()}, []int{4}, F64))
	v, i, err := Median(y, 0, false)
	if err != nil || !math.IsNaN(v.ToFloat64s()[0]) || i.ToInt64s()[0] != 1 {
		t.Errorf("median with NaN = %v %v %v, want nan 1", v, i, err)
	}
	if v, i, _ := Kthvalue(y, 3, 0, false); !math.IsNaN(v.ToFloat64s()[0]) || i.ToInt64s()[0] != 1 {
		t.Errorf("kthvalue(3) = %v %v, want nan at 1", v, i)
	}
	if v := m(MedianAll(m(Zeros([]int{0}, F32)))).ToFloat64s(); !math.IsNaN(v[0]) {
		t.Errorf("median of empty = %v, want nan", v)
	}
	if _, err := MedianAll(m(Zeros([]int{0}, I64))); err == nil {
		t.Error("median of empty int: no error")
	}
	if _, _, err := Median(m(Zeros([]int{2, 0}, F32)), 1, false); err == nil || err.(*Error).Kind != IndexError ||
		err.Error() != "median(): Expected reduction dim 1 to have non-zero size." {
		t.Errorf("median over empty dim: %v", err)
	}
	if _, _, err := Kthvalue(x, 9, 0, false); err == nil || err.Error() != "kthvalue(): selected number k out of range for dimension 0" {
		t.Errorf("kthvalue k > n: %v", err)
	}
	s := m(FromFloat64s([]float64{7}, nil, F32))
	if v, i, err := Median(s, -1, false); err != nil || v.Dim() != 0 || v.ToFloat64s()[0] != 7 || i.ToInt64s()[0] != 0 {
		t.Errorf("median of 0-d = %v %v %v", v, i, err)
	}
	// -0 and +0 are equal: a stable order keeps them in input order
	z := m(FromFloat64s([]float64{0, math.Copysign(0, -1), 0, math.Copysign(0, -1)}, []int{4}, F32))
	sv, si, _ := Sort(z, 0, true)
	if got := si.ToInt64s(); got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 3 || !math.Signbit(sv.ToFloat64s()[1]) {
		t.Errorf("sort of ±0 = %v %v", sv.ToFloat64s(), got)
	}
}

// fastThenGeneric runs f with the fast paths on and off.
func fastThenGeneric[T any](f func() T) (fast, generic T) {
	fast = f()
	fastPathsOff.Store(true)
	defer fastPathsOff.Store(false)
	return fast, f()
}

func TestCumsumCumprodFastMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range []DType{F32, F64, I64, I32, I16, I8, U8, Bool} {
		for _, sh := range [][]int{{1}, {17}, {4, 5}, {3, 4, 5}, {1000}} {
			x := bcastInput(t, rng, sh, dt)
			xt := x
			if len(sh) >= 2 {
				xt, _ = x.Transpose(0, 1)
			}
			for _, in := range []*Tensor{x, xt} {
				for d := range sh {
					for _, prod := range []bool{false, true} {
						op := Cumsum
						if prod {
							op = Cumprod
						}
						type res struct {
							r   *Tensor
							err error
						}
						f, g := fastThenGeneric(func() res { r, err := op(in, d); return res{r, err} })
						ctx := fmt.Sprintf("cum prod=%v %s %v dim=%d", prod, dt, in.Shape(), d)
						compareReduce(t, ctx, f.r, g.r, f.err, g.err, 0)
					}
				}
			}
		}
	}
}

func TestIndexFastMatchesGeneric(t *testing.T) {
	m := must[*Tensor](t)
	rng := rand.New(rand.NewPCG(11, 12))
	type res struct {
		r   *Tensor
		err error
	}
	for _, dt := range []DType{F32, F64, I64, I16, U8, Bool} {
		x := bcastInput(t, rng, []int{6, 5, 4}, dt)
		views := []*Tensor{x, m(x.Transpose(0, 2)), m(x.Narrow(2, 1, 2)), m(x.Select(1, 3))}
		for vi, v := range views {
			var masks []*Tensor
			for k := 1; k <= v.Dim(); k++ {
				mk := bcastInput(t, rng, v.Shape()[:k], Bool)
				masks = append(masks, mk)
				if k == 2 { // a strided (transposed) mask
					mt := bcastInput(t, rng, []int{v.Shape()[1], v.Shape()[0]}, Bool)
					masks = append(masks, m(mt.Transpose(0, 1)))
				}
			}
			idxs := []*Tensor{
				m(FromInt64s([]int64{0, -1, 2, 2, 1}, []int{5}, I64)),
				m(FromInt64s([]int64{1, 0, -2, 3}, []int{2, 2}, I32)),
				m(FromInt64s([]int64{9}, []int{1}, I64)), // out of range
				m(FromInt64s([]int64{}, []int{0}, I64)),
			}
			for ii, it := range append(masks, idxs...) {
				f, g := fastThenGeneric(func() res { r, err := v.Index(Adv(it)); return res{r, err} })
				ctx := fmt.Sprintf("index %s view %d item %d", dt, vi, ii)
				if ii >= len(masks) && f.err != nil && g.err != nil && f.err.Error() == g.err.Error() {
					continue
				}
				compareReduce(t, ctx, f.r, g.r, f.err, g.err, 0)
			}
		}
	}
	// a 1-D mask: the elements where it is set, in order
	x := m(FromFloat64s([]float64{-1, 2, -3, 4, 5, -6, 7}, []int{7}, F32))
	z := m(Zeros(nil, F32))
	got := m(x.Index(Adv(m(Gt(x, z))))).ToFloat64s()
	if !floatsEq(got, []float64{2, 4, 5, 7}) {
		t.Errorf("x[x > 0] = %v", got)
	}
}

// gatherRef is out[i] = t[i with coordinate d replaced by index[i]].
func gatherRef(t *testing.T, x *Tensor, d int, index *Tensor) []float64 {
	var out []float64
	iv := index.ToInt64s()
	coord := make([]int, index.Dim())
	for i := range iv {
		rem := i
		for k := index.Dim() - 1; k >= 0; k-- {
			coord[k] = rem % index.Shape()[k]
			rem /= index.Shape()[k]
		}
		c := append([]int(nil), coord...)
		c[d] = int(iv[i])
		v, err := x.Float64At(c...)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func TestGatherMatchesReference(t *testing.T) {
	m := must[*Tensor](t)
	rng := rand.New(rand.NewPCG(13, 14))
	x := bcastInput(t, rng, []int{4, 5, 6}, F64)
	for _, v := range []*Tensor{x, m(x.Transpose(0, 2)), m(x.Narrow(1, 1, 3))} {
		for d := range 3 {
			sh := append([]int(nil), v.Shape()...)
			sh[0] = max(1, sh[0]-1)
			sh[d] = 7
			iv := make([]int64, numel(sh))
			for i := range iv {
				iv[i] = int64(rng.IntN(v.Shape()[d]))
			}
			idx := m(FromInt64s(iv, sh, I64))
			got := m(Gather(v, d, idx))
			if want := gatherRef(t, v, d, idx); !floatsEq(got.ToFloat64s(), want) || !shapeEq(got.Shape(), sh) {
				t.Errorf("gather dim=%d %v: got %v want %v", d, v.Shape(), got.ToFloat64s(), want)
			}
		}
	}
	bad := m(FromInt64s([]int64{0, 6}, []int{1, 1, 2}, I64))
	if _, err := Gather(x, 2, bad); err == nil || err.Error() != "index 6 is out of bounds for dimension 2 with size 6" {
		t.Errorf("gather out of range: %v", err)
	}
	big := m(Zeros([]int{5, 1, 1}, I64))
	if _, err := Gather(x, 2, big); err == nil {
		t.Error("gather with index larger than input: no error")
	}
}

func TestNonzeroMatchesReference(t *testing.T) {
	m := must[*Tensor](t)
	rng := rand.New(rand.NewPCG(15, 16))
	x := bcastInput(t, rng, []int{3, 4, 5}, I32)
	for _, v := range []*Tensor{x, m(x.Transpose(0, 2)), m(x.Select(1, 2))} {
		got := Nonzero(v).ToInt64s()
		var want []int64
		vals := v.ToFloat64s()
		for i, val := range vals {
			if val == 0 {
				continue
			}
			rem := i
			c := make([]int64, v.Dim())
			for k := v.Dim() - 1; k >= 0; k-- {
				c[k] = int64(rem % v.Shape()[k])
				rem /= v.Shape()[k]
			}
			want = append(want, c...)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("nonzero %v: got %v want %v", v.Shape(), got, want)
		}
	}
}
