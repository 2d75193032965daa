package stdlib

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// Without a gradient to record, tril/triu take tensor.Tril/Triu; the
// result must be where(mask, x, 0).contiguous()'s (triangleWhere): same
// dtype, strides and element bits (zeros are +0), on every dtype and
// layout.
func TestTriangleDirectMatchesWhere(t *testing.T) {
	e := autograd.NewEngine()
	data := make([]float64, 2*5*6)
	for i := range data {
		data[i] = float64(i%7) - 3.5
	}
	data[3], data[10] = math.NaN(), math.Copysign(0, -1)
	dts := []tensor.DType{tensor.F32, tensor.F64, tensor.F16, tensor.BF16, tensor.I64, tensor.I32, tensor.I16, tensor.I8, tensor.U8, tensor.Bool}
	for _, dt := range dts {
		x, err := tensor.FromFloat64s(data, []int{2, 5, 6}, dt)
		if err != nil {
			t.Fatal(err)
		}
		xt, _ := x.Transpose(-1, -2)
		xs, _ := x.Narrow(2, 1, 4)
		row, _ := x.Narrow(1, 0, 1)
		xe, _ := row.Expand(2, 5, 6)
		xz, _ := x.Narrow(1, 0, 0)
		for name, in := range map[string]*T{"contiguous": x, "transposed": xt, "sliced": xs, "expanded": xe, "empty": xz} {
			for _, k := range []int{0, 2, -1, 9, -9} {
				for _, upper := range []bool{false, true} {
					ctx := fmt.Sprintf("%s %s k=%d upper=%v", dt, name, k, upper)
					got, err := triangleOp(e, in, k, upper)
					if err != nil {
						t.Fatal(err)
					}
					want, err := triangleWhere(e, in, k, upper)
					if err != nil {
						t.Fatal(err)
					}
					if got.DType() != want.DType() || !slices.Equal(got.Shape(), want.Shape()) || !slices.Equal(got.Strides(), want.Strides()) {
						t.Fatalf("%s: got %v %v %s, want %v %v %s", ctx, got.Shape(), got.Strides(), got.DType(), want.Shape(), want.Strides(), want.DType())
					}
					g, w := got.ToFloat64s(), want.ToFloat64s()
					for i := range w {
						if math.Float64bits(g[i]) != math.Float64bits(w[i]) {
							t.Fatalf("%s: element %d = %v, want %v", ctx, i, g[i], w[i])
						}
					}
				}
			}
		}
	}
}
