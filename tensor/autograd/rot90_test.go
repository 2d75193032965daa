package autograd

import (
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Finite-difference checks of rot90 (joined to gradCases) for every k
// modulo 4, negative k and dims, and a check that its backward is
// recorded (differentiable again: the second derivative of a linear op
// is zero, and the first derivative's graph must exist).
func rot90GradCases() []gradCase {
	rot := func(shape []int, k int, dims []int) gradCase {
		return gradCase{op: "rot90", shapes: [][]int{shape}, f: func(e *Engine, in []*T) (*T, error) {
			return ap(e, "rot90", in, Attrs{"k": k, "dims": dims}, func() (*T, error) { return tensor.Rot90(in[0], k, dims) })
		}}
	}
	return []gradCase{
		rot([]int{3, 4}, 1, []int{0, 1}),
		rot([]int{3, 4}, 2, []int{0, 1}),
		rot([]int{3, 4}, 3, []int{1, 0}),
		rot([]int{2, 3, 4}, -1, []int{2, 0}),
		rot([]int{2, 3, 4}, 5, []int{-1, -2}),
		rot([]int{2, 3, 4}, 4, []int{0, 2}),
	}
}

func TestRot90BackwardRecorded(t *testing.T) {
	e := NewEngine()
	x, _ := tensor.FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, tensor.F64)
	x.SetRequiresGrad(true)
	dims := []int{0, 1}
	out, err := e.Apply("rot90", []*T{x}, Attrs{"k": 1, "dims": dims}, func() (*T, error) { return tensor.Rot90(x, 1, dims) })
	if err != nil {
		t.Fatal(err)
	}
	if got := out.GradFn().Name(); got != "Rot90Backward0" {
		t.Errorf("grad_fn %s, want Rot90Backward0", got)
	}
	// d/dx sum(rot90(x) * w) = rot90(w, -1)
	w, _ := tensor.FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{3, 2}, tensor.F64)
	y, _ := e.mul(out, w)
	s, _ := e.sum(y, nil, false)
	g, err := e.Grad([]*T{s}, []*T{x}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{5, 3, 1, 6, 4, 2}
	for i, v := range g[0].ToFloat64s() {
		if v != want[i] {
			t.Fatalf("grad %v, want %v", g[0].ToFloat64s(), want)
		}
	}
	// d/dx sum(rot90(x)²) = 2x through a recorded rot90, so the second
	// derivative exists: d/dx sum(2x) = 2
	sq, _ := e.mul(out, out)
	g2 := secondGrad(t, e, sq, x)
	for _, v := range g2[0].ToFloat64s() {
		if v != 2 {
			t.Fatalf("second derivative %v, want all 2", g2[0].ToFloat64s())
		}
	}
}
