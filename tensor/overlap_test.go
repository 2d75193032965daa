package tensor

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// The overlap checks on their own (the interpreter's copy_ and x[i] = v
// cases against PyTorch are in stdlib's torch_aliases golden test).
func TestOverlapChecks(t *testing.T) {
	z, _ := Arange(0, 6, 1, F32)
	sl := func(a, b int) *Tensor { v, _ := z.Narrow(0, a, b-a); return v }
	m, _ := z.View(2, 3)
	row0, _ := m.Select(0, 0)
	col, _ := m.Select(1, 0)
	sq, _ := sl(0, 4).View(2, 2)
	sqT, _ := sq.Transpose(0, 1)
	e0, _ := z.Select(0, 0)
	other, _ := Arange(0, 6, 1, F32)
	for _, c := range []struct {
		name             string
		dst, src         *Tensor
		partial, overlap bool
	}{
		{"same tensor", z, z, false, true},
		{"same slice", sl(0, 2), sl(0, 2), false, true},
		{"same elements through a view", sl(0, 3), row0, false, true},
		{"shifted", sl(1, 3), sl(0, 2), true, true},
		{"adjacent", sl(0, 2), sl(2, 4), false, false},
		{"inside", sl(0, 3), sl(1, 2), true, true},
		{"one element vs 0-d", sl(0, 1), e0, true, true},
		{"transposed", sq, sqT, true, true},
		{"strided (too hard)", sl(0, 2), col, false, false},
		{"empty", sl(0, 0), sl(0, 3), false, false},
		{"other storage", z, other, false, false},
	} {
		if got := CheckNoPartialOverlap(c.dst, c.src) != nil; got != c.partial {
			t.Errorf("%s: CheckNoPartialOverlap error %v, want %v", c.name, got, c.partial)
		}
		if got := CheckNoOverlap(c.dst, c.src) != nil; got != c.overlap {
			t.Errorf("%s: CheckNoOverlap error %v, want %v", c.name, got, c.overlap)
		}
	}
	// x[basic] = v: a broadcast source is too hard, a 0-d one a fill
	if err := CheckAssignOverlap(sl(1, 4), sl(0, 1)); err != nil {
		t.Errorf("broadcast source: %v", err)
	}
	if err := CheckAssignOverlap(sl(0, 3), e0); err != nil {
		t.Errorf("0-d source: %v", err)
	}
	lead, _ := sl(0, 3).Unsqueeze(0)
	if err := CheckAssignOverlap(sl(1, 4), lead); err == nil {
		t.Error("[1, 3] source shifted by one: no error")
	}
	// x[adv] = v: any overlap, except a masked fill
	idx, _ := FromInt64s([]int64{0, 1}, []int{2}, I64)
	if err := z.CheckIndexPutOverlap([]Index{Adv(idx)}, sl(4, 6)); err == nil {
		t.Error("index_put_ with a value inside the indexed tensor: no error")
	}
	mask, _ := FromBools([]bool{true, false, true, false, true, false}, []int{6})
	if err := z.CheckIndexPutOverlap([]Index{Adv(mask)}, sl(0, 1)); err != nil {
		t.Errorf("masked fill: %v", err)
	}
	if err := z.CheckIndexPutOverlap([]Index{Adv(mask)}, sl(0, 3)); err == nil {
		t.Error("masked put of 3 values from the tensor: no error")
	}
	if err := m.CheckIndexPutOverlap([]Index{AllSlice(), Adv(idx)}, other); err != nil {
		t.Errorf("value in another storage: %v", err)
	}
}

func TestRot90Histc(t *testing.T) {
	x, _ := Arange(0, 6, 1, F32)
	x, _ = x.View(2, 3)
	r, err := Rot90(x, 1, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Shape(), []int{3, 2}) || !slices.Equal(r.Strides(), []int{1, 3}) ||
		!slices.Equal(r.ToFloat64s(), []float64{2, 5, 1, 4, 0, 3}) {
		t.Errorf("rot90: %v %v %v", r.Shape(), r.Strides(), r.ToFloat64s())
	}
	if _, err := Rot90(x, 1, []int{0, 2}); err == nil || err.Error() != "expected rotation dims to be different, but got dim0 = 0 and dim1 = 2" {
		t.Errorf("rot90 dims [0, 2] of a 2-D tensor: %v", err)
	}
	h, err := Histc(x, 3, 0, 6)
	if err != nil || !slices.Equal(h.ToFloat64s(), []float64{2, 2, 2}) || h.DType() != F32 {
		t.Errorf("histc: %v %v", h, err)
	}
	if _, err := Histc(x, 3, 1, math.Inf(1)); err == nil || err.Error() != "torch.histc: range of [1, inf] is not finite" {
		t.Errorf("histc infinite range: %v", err)
	}
	for v, want := range map[float64]string{0.5: "0.5", 1e-7: "1e-07", 1234567: "1.23457e+06", -1e300: "-1e+300", 100000: "100000"} {
		if got := CppDouble(v); got != want {
			t.Errorf("CppDouble(%v) = %s, want %s", v, got, want)
		}
	}
}

// A value overlapping the view left by the basic items passes when that
// view is strided (too hard to check, as PyTorch's) and fails against the
// dense whole.
func TestIndexPutOverlapView(t *testing.T) {
	z, _ := Arange(0, 24, 1, F32)
	m, _ := z.View(2, 3, 4)
	idx, _ := FromInt64s([]int64{0}, []int{1}, I64)
	val, _ := m.Select(0, 1)
	if val, _ = val.Select(0, 0); val.Numel() != 4 {
		t.Fatal(val.Shape())
	}
	if err := m.CheckIndexPutOverlap([]Index{AllSlice(), Span(0, 2, 1), Adv(idx)}, val); err != nil {
		t.Errorf("m[:, 0:2, idx] = m[1, 0] (a strided view): %v", err)
	}
	if err := m.CheckIndexPutOverlap([]Index{Adv(idx)}, val); err == nil {
		t.Error("m[idx] = m[1, 0]: no error")
	}
	if err := m.CheckIndexPutOverlap([]Index{Span(1, 2, 1), Adv(idx)}, val); err == nil {
		t.Error("m[1:2, idx] = m[1, 0] (a dense view): no error")
	}
}

// In-place binary ops reject a partially overlapping operand before any
// write (PyTorch's TensorIterator), and accept the same tensor.
func TestBinaryInplacePartialOverlap(t *testing.T) {
	z, _ := Arange(0, 6, 1, F32)
	a, _ := z.Narrow(0, 1, 2)
	b, _ := z.Narrow(0, 0, 2)
	v := z.Version()
	if err := a.AddInplace(b); err == nil || !strings.Contains(err.Error(), "refer to a single memory location") {
		t.Fatalf("z[1:3].add_(z[0:2]): %v", err)
	}
	if z.Version() != v || !slices.Equal(z.ToFloat64s(), []float64{0, 1, 2, 3, 4, 5}) {
		t.Fatalf("written anyway: %v (version %d -> %d)", z.ToFloat64s(), v, z.Version())
	}
	if err := z.MulInplace(z); err != nil || !slices.Equal(z.ToFloat64s(), []float64{0, 1, 4, 9, 16, 25}) {
		t.Fatalf("z.mul_(z): %v %v", err, z.ToFloat64s())
	}
}
