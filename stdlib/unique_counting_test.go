package stdlib

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// uniqueCounting (the counting fast path of flat unique) must give
// uniqueSorted's values, dtype, inverse and counts on every integer dtype,
// strided inputs and extreme values; it must decline floats, empty
// inputs and wide ranges.
func TestUniqueCountingMatchesSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	type tc struct {
		name string
		vals []int64
	}
	cases := []tc{{"one", []int64{7}}, {"small", nil}, {"negative", nil}, {"bool-like", nil}}
	for i := 0; i < 300; i++ {
		cases[1].vals = append(cases[1].vals, int64(rng.IntN(100)))
		cases[2].vals = append(cases[2].vals, int64(rng.IntN(50))-120)
		cases[3].vals = append(cases[3].vals, int64(rng.IntN(2)))
	}
	dts := []tensor.DType{tensor.I64, tensor.I32, tensor.I16, tensor.I8, tensor.U8, tensor.Bool}
	for _, c := range cases {
		for _, dt := range dts {
			if dt == tensor.Bool && c.name != "bool-like" || dt == tensor.U8 && c.name == "negative" {
				continue
			}
			n := len(c.vals)
			x, err := tensor.FromInt64s(c.vals, []int{n}, dt)
			if err != nil {
				t.Fatal(err)
			}
			inputs := map[string]*T{"flat": x}
			if n%6 == 0 {
				m, _ := x.Reshape(6, n/6)
				inputs["transposed"], _ = m.Transpose(0, 1)
			}
			for layout, in := range inputs {
				for _, inverse := range []bool{false, true} {
					ctx := fmt.Sprintf("%s %s %s inverse=%v", c.name, dt, layout, inverse)
					fo, fi, fc, ok := uniqueCounting(in, inverse)
					if !ok {
						t.Fatalf("%s: counting path declined", ctx)
					}
					so, si, sc, err := uniqueSorted(in, inverse)
					if err != nil {
						t.Fatal(err)
					}
					if fo.DType() != so.DType() || !slices.Equal(fo.Shape(), so.Shape()) || !slices.Equal(fo.Strides(), so.Strides()) ||
						!slices.Equal(fo.ToInt64s(), so.ToInt64s()) || !slices.Equal(fi, si) || !slices.Equal(fc, sc) {
						t.Fatalf("%s: counting %v %v %v, sorted %v %v %v", ctx, fo.ToInt64s(), fi, fc, so.ToInt64s(), si, sc)
					}
				}
			}
		}
	}
	// hand-derived: [3, -1, 3, 0, -1, 3] -> [-1, 0, 3], inverse, counts
	x, _ := tensor.FromInt64s([]int64{3, -1, 3, 0, -1, 3}, []int{6}, tensor.I64)
	out, inv, cnt, ok := uniqueCounting(x, true)
	if !ok || !slices.Equal(out.ToInt64s(), []int64{-1, 0, 3}) || !slices.Equal(inv, []int64{2, 0, 2, 1, 0, 2}) || !slices.Equal(cnt, []int64{2, 1, 3}) {
		t.Fatalf("unique([3, -1, 3, 0, -1, 3]) = %v %v %v %v", out, inv, cnt, ok)
	}
	// declined: floats, empty, a span wider than the table (also one that
	// overflows int64 arithmetic)
	f, _ := tensor.FromFloat64s([]float64{1, 2}, []int{2}, tensor.F32)
	e, _ := tensor.FromInt64s(nil, []int{0}, tensor.I64)
	w, _ := tensor.FromInt64s([]int64{0, 1 << 40}, []int{2}, tensor.I64)
	o, _ := tensor.FromInt64s([]int64{math.MinInt64, math.MaxInt64}, []int{2}, tensor.I64)
	for name, in := range map[string]*T{"float": f, "empty": e, "wide": w, "extreme": o} {
		if _, _, _, ok := uniqueCounting(in, true); ok {
			t.Fatalf("%s: counting path taken", name)
		}
	}
}
