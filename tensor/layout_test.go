package tensor

import (
	"slices"
	"testing"
)

// TestPreserveFormat checks clone/to/*_like layouts against PyTorch 1.13
// (x.t().clone().stride() == (1, 4) for x of shape [3, 4], etc.).
func TestPreserveFormat(t *testing.T) {
	must := func(x *Tensor, err error) *Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	x := mustTensor(t, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int{3, 4}, F32)
	xt, err := x.Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := x.Reshape(3, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	perm, err := p.Permute(2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	sl, err := x.Index(AllSlice(), Span(SliceNone, SliceNone, 2))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := x.Index(At(0))
	if err != nil {
		t.Fatal(err)
	}
	exp, err := ex.Expand(2, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		in    *Tensor
		dense bool
		want  []int // torch: in.clone().stride()
	}{
		{"contiguous", x, true, []int{4, 1}},
		{"t()", xt, true, []int{1, 4}},
		{"permute(2,0,1)", perm, true, []int{1, 4, 2}},
		{"x[:, ::2] (gaps)", sl, false, []int{2, 1}},
		{"x.t()[::2] (gaps, transposed)", must(xt.Index(Span(SliceNone, SliceNone, 2))), false, []int{1, 2}},
		{"zeros(1, 5).t() (size-1 dim)", must(must(Zeros([]int{1, 5}, F32)).Transpose(0, 1)), true, []int{1, 5}},
		{"expand (overlap)", exp, false, []int{4, 1}},
	} {
		if got := tc.in.IsNonOverlappingAndDense(); got != tc.dense {
			t.Errorf("%s: IsNonOverlappingAndDense = %v, want %v", tc.name, got, tc.dense)
		}
		c := tc.in.ClonePreserve()
		if !slices.Equal(c.Strides(), tc.want) {
			t.Errorf("%s: clone strides %v, want %v", tc.name, c.Strides(), tc.want)
		}
		if !slices.Equal(c.ToFloat64s(), tc.in.ToFloat64s()) {
			t.Errorf("%s: clone values %v, want %v", tc.name, c.ToFloat64s(), tc.in.ToFloat64s())
		}
		d, err := tc.in.ToPreserve(F64)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.Strides(), tc.want) || !slices.Equal(d.ToFloat64s(), tc.in.ToFloat64s()) {
			t.Errorf("%s: to(f64) strides %v values %v", tc.name, d.Strides(), d.ToFloat64s())
		}
		if e := EmptyPreserve(tc.in, I32); !slices.Equal(e.Strides(), tc.want) || e.DType() != I32 {
			t.Errorf("%s: empty_like strides %v dtype %v", tc.name, e.Strides(), e.DType())
		}
	}
}
