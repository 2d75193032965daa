package stdlib

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// applyRowsColsTyped (the last two dims' maps in one pass) against the
// maps applied one at a time (each a separate applyAxisMapsTyped pass):
// the same bits for nearest and linear maps, up- and downsampling, 4-D
// and 5-D shapes (a third map after the fused pair), f32 and f64, and
// with several goroutines.
func TestApplyRowsColsMatchesPasses(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, shape := range [][]int{{2, 3, 5, 7}, {1, 2, 4, 9, 6}, {3, 1, 1, 1}, {40, 16, 33, 17}} {
		for _, linear := range []bool{false, true} {
			for _, scale := range []float64{0.5, 1, 1.7, 2, 3} {
				nd := len(shape)
				var maps []axisMap
				for d := nd - 1; d >= 2; d-- {
					on := max(1, int(float64(shape[d])*scale))
					var m axisMap
					if linear {
						m = linearMap(shape[d], on, &scale, false, tensor.F32)
					} else {
						m = nearestMap(shape[d], on, &scale, false)
					}
					m.dim = d
					maps = append(maps, m)
				}
				x := make([]float64, numelOf(shape))
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				ctx := fmt.Sprintf("%v linear=%v scale=%v", shape, linear, scale)
				checkRowsCols(t, ctx+" f64", x, shape, maps)
				x32 := make([]float32, len(x))
				for i, v := range x {
					x32[i] = float32(v)
				}
				checkRowsCols(t, ctx+" f32", x32, shape, maps)
			}
		}
	}
}

func checkRowsCols[F float32 | float64](t *testing.T, ctx string, x []F, shape []int, maps []axisMap) {
	t.Helper()
	out := append([]int(nil), shape...)
	for _, m := range maps {
		out[m.dim] = len(m.idx0)
	}
	got := make([]F, numelOf(out))
	applyAxisMapsTyped(x, shape, maps, got)
	want, sh := x, append([]int(nil), shape...)
	for _, m := range maps {
		next := append([]int(nil), sh...)
		next[m.dim] = len(m.idx0)
		w := make([]F, numelOf(next))
		applyAxisMapsTyped(want, sh, []axisMap{m}, w)
		want, sh = w, next
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %v, want %v", ctx, i, got[i], want[i])
		}
	}
}
