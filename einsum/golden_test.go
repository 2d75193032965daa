package einsum

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"testing"
)

type golden struct {
	Torch, Numpy string
	Cases        []struct {
		Eq       string
		Shapes   [][]int
		Inputs   [][]float64
		OutShape []int `json:"out_shape"`
		Out      []float64
	}
	Errors []struct {
		Eq         string
		Shapes     [][]int
		TorchError string `json:"torch_error"`
	}
	Paths []struct {
		Eq              string
		Shapes          [][]int
		NumpyPath       [][]int `json:"numpy_path"`
		NumpyNaiveFLOPs float64 `json:"numpy_naive_flops"`
		NumpyFLOPs      float64 `json:"numpy_flops"`
		NumpyLargest    float64 `json:"numpy_largest"`
	}
}

func loadGolden(t *testing.T) *golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// TestGoldenTorch compares Execute on the reference tensor with
// torch.einsum results (float64).
func TestGoldenTorch(t *testing.T) {
	g := loadGolden(t)
	if len(g.Cases) < 30 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	for _, c := range g.Cases {
		xs := make([]*dense, len(c.Shapes))
		for k, s := range c.Shapes {
			xs[k] = newDense(s, c.Inputs[k])
		}
		p := mustPlan(t, c.Eq, c.Shapes...)
		got, err := Execute[*dense](p, &denseOps{}, xs)
		if err != nil {
			t.Errorf("%q %v: %v", c.Eq, c.Shapes, err)
			continue
		}
		got2, err := Execute[*dense](p, &matmulOps{}, xs)
		if err != nil || !slices.Equal(got2.shape, got.shape) || maxAbsDiff(got2.data, got.data) > 1e-12*(1+maxAbs(got.data)) {
			t.Errorf("%q %v: Matmul lowering differs from Bmm lowering (%v)", c.Eq, c.Shapes, err)
		}
		if !slices.Equal(got.shape, c.OutShape) || !slices.Equal(p.OutShape, c.OutShape) {
			t.Errorf("%q %v: shape %v (plan %v), torch %v", c.Eq, c.Shapes, got.shape, p.OutShape, c.OutShape)
			continue
		}
		for i := range c.Out {
			if math.Abs(got.data[i]-c.Out[i]) > 1e-12*(1+math.Abs(c.Out[i])) {
				t.Errorf("%q %v: out[%d] = %v, torch %v", c.Eq, c.Shapes, i, got.data[i], c.Out[i])
				break
			}
		}
	}
}

// TestGoldenErrors checks that tsr rejects what torch rejects, with its own
// messages.
func TestGoldenErrors(t *testing.T) {
	want := map[string]string{
		"i->ii":     "einsum: index 'i' appears more than once in the output",
		"ij,jk->ik": "einsum: index 'j' has size 3 in operand 0 but size 4 in operand 1",
		"ii->i":     "einsum: diagonal index 'i' of operand 0 has sizes 3 and 4",
		"ii":        "einsum: diagonal index 'i' of operand 0 has sizes 2 and 3",
		"ij->k":     "einsum: output index 'k' does not appear in any input",
		"i...,i...": "einsum: '...' dimension has size 3 in operand 0 (dim 1) but size 4 in operand 1 (dim 1)",
		"ij":        "einsum: operand 0 has 3 dimensions but the equation gives it 2 indices ('ij')",
		"ij,jk":     "einsum: number of operands (1) does not match the equation (2)",
	}
	g := loadGolden(t)
	for _, c := range g.Errors {
		e, err := Parse(c.Eq)
		if err == nil {
			_, err = e.Bind(c.Shapes)
		}
		var ee *Error
		if !errors.As(err, &ee) {
			t.Errorf("%q %v: error %v, torch: %s", c.Eq, c.Shapes, err, c.TorchError)
			continue
		}
		if w, ok := want[c.Eq]; !ok || ee.Msg != w {
			t.Errorf("%q %v: %q, want %q (torch: %s)", c.Eq, c.Shapes, ee.Msg, w, c.TorchError)
		}
	}
}

// TestGoldenPaths compares the chosen path's cost with
// numpy.einsum_path(optimize='optimal'): same naive count, optimised count
// no higher.
func TestGoldenPaths(t *testing.T) {
	g := loadGolden(t)
	for _, c := range g.Paths {
		p := mustPlan(t, c.Eq, c.Shapes...)
		t.Logf("%-26s tsr %s flops %.0f (largest %.0f) | numpy %v flops %.0f (largest %.0f) | naive %.0f",
			c.Eq, p.PathString(), p.FLOPs, p.LargestIntermediate, c.NumpyPath, c.NumpyFLOPs, c.NumpyLargest, c.NumpyNaiveFLOPs)
		if p.NaiveFLOPs != c.NumpyNaiveFLOPs {
			t.Errorf("%q: naive %v, numpy %v", c.Eq, p.NaiveFLOPs, c.NumpyNaiveFLOPs)
		}
		if p.FLOPs > c.NumpyFLOPs {
			t.Errorf("%q: flops %v worse than numpy %v\n%s", c.Eq, p.FLOPs, c.NumpyFLOPs, p.Report())
		}
		// The path must also be executable and correct.
		if numel(p.OutShape) < 1e5 {
			checkPathExecutes(t, c.Eq, c.Shapes)
		}
	}
}

func checkPathExecutes(t *testing.T, eq string, shapes [][]int) {
	t.Helper()
	total := 0
	for _, s := range shapes {
		total += numel(s)
	}
	if total > 20000 {
		return
	}
	xs := make([]*dense, len(shapes))
	for k, s := range shapes {
		xs[k] = newDense(s, nil)
		for i := range xs[k].data {
			xs[k].data[i] = float64(i%7 - 3)
		}
	}
	p := mustPlan(t, eq, shapes...)
	got, err := Execute[*dense](p, &denseOps{}, xs)
	if err != nil {
		t.Fatal(err)
	}
	ranks := make([]int, len(shapes))
	for k := range shapes {
		ranks[k] = len(shapes[k])
	}
	terms, out := expandEllipsis(eq, ranks)
	if len(shapes) <= 3 || maxBrute(terms, shapes) {
		want := bruteForce(terms, out, xs)
		if d := maxAbsDiff(got.data, want.data); d != 0 {
			t.Errorf("%q: diff %g", eq, d)
		}
	}
}

// maxBrute reports whether brute force over all indices is cheap enough.
func maxBrute(terms []string, shapes [][]int) bool {
	size := map[byte]int{}
	for k, t := range terms {
		for d := 0; d < len(t); d++ {
			size[t[d]] = shapes[k][d]
		}
	}
	n := 1
	for _, s := range size {
		n *= s
	}
	return n <= 3e5
}
