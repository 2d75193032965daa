package tensor

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tsrlang/tsr/backends/cpu"
)

// ceBackwardGolden is one case of testdata/ce_backward.json
// (gen_ce_backward.py): PyTorch 1.13's cross_entropy gradient with respect
// to the logits, as IEEE bit patterns.
type ceBackwardGolden struct {
	Name           string    `json:"name"`
	DType          string    `json:"dtype"`
	Shape          []int     `json:"shape"`
	X              []int64   `json:"x"`
	Target         any       `json:"target"`
	Weight         []float64 `json:"weight"`
	IgnoreIndex    int       `json:"ignore_index"`
	Reduction      string    `json:"reduction"`
	LabelSmoothing float64   `json:"label_smoothing"`
	G              []int64   `json:"g"`
	GShape         []int     `json:"g_shape"`
	Logp           []int64   `json:"logp"`
	Grad           []int64   `json:"grad"`
}

func loadCEBackwardGolden(t *testing.T) []ceBackwardGolden {
	t.Helper()
	raw, err := os.ReadFile("testdata/ce_backward.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []ceBackwardGolden `json:"cases"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g.Cases
}

// fromBits makes a tensor of dt (F32 or F64) from IEEE bit patterns.
func fromBits(bits []int64, shape []int, dt DType) *Tensor {
	out := empty(shape, dt)
	for i, b := range bits {
		if dt == F32 {
			out.storage.F32()[i] = math.Float32frombits(uint32(b))
		} else {
			out.storage.F64()[i] = math.Float64frombits(uint64(b))
		}
	}
	return out
}

// TestCrossEntropyBackwardBits feeds PyTorch's own log_softmax output to
// the fused kernel and checks every gradient element bit for bit against
// PyTorch's two-step log_softmax_backward(nll_loss_backward) result (plus
// the label-smoothing term): class weights, ignore_index, each reduction,
// 1-d input, an upstream gradient other than one, logits wide enough for
// exp to underflow, and every target ignored.
func TestCrossEntropyBackwardBits(t *testing.T) {
	for _, c := range loadCEBackwardGolden(t) {
		dt := F32
		if c.DType == "f64" {
			dt = F64
		}
		logp := fromBits(c.Logp, c.Shape, dt)
		g := fromBits(c.G, c.GShape, dt)
		var tgt []int
		switch v := c.Target.(type) {
		case float64:
			tgt = []int{int(v)}
		case []any:
			for _, e := range v {
				tgt = append(tgt, int(e.(float64)))
			}
		}
		total := 0.0
		for i, k := range tgt {
			if k == c.IgnoreIndex {
				tgt[i] = -1
				continue
			}
			if c.Weight != nil {
				total += c.Weight[k]
			} else {
				total++
			}
		}
		gi, ok := CrossEntropyBackward(g, logp, &CrossEntropyGrad{Target: tgt, Weight: c.Weight,
			Reduction: c.Reduction, Smoothing: c.LabelSmoothing, TotalWeight: total})
		if !ok {
			t.Fatalf("%s: kernel declined", c.Name)
		}
		want := fromBits(c.Grad, c.Shape, dt)
		bad, first := 0, -1
		for i := range c.Grad {
			var eq bool
			if dt == F32 {
				eq = math.Float32bits(gi.storage.F32()[i]) == math.Float32bits(want.storage.F32()[i])
			} else {
				eq = math.Float64bits(gi.storage.F64()[i]) == math.Float64bits(want.storage.F64()[i])
			}
			if !eq {
				if first < 0 {
					first = i
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d gradient elements differ from PyTorch's bits (first at %d: %v, want %v)",
				c.Name, bad, len(c.Grad), first, gi.FlatFloat64(first), want.FlatFloat64(first))
		}
	}
}

// The kernel declines what it does not handle, leaving the caller's
// composed formula to it.
func TestCrossEntropyBackwardDeclines(t *testing.T) {
	logp := zeros([]int{2, 3}, F32)
	one := zeros(nil, F32)
	p := &CrossEntropyGrad{Target: []int{0, 1}, Reduction: "mean", TotalWeight: 2}
	if _, ok := CrossEntropyBackward(one, logp, p); !ok {
		t.Fatal("contiguous f32 [2, 3] must be handled")
	}
	for name, c := range map[string]struct {
		g, logp *Tensor
		p       *CrossEntropyGrad
	}{
		"f16":           {zeros(nil, F16), zeros([]int{2, 3}, F16), p},
		"dtype mix":     {zeros(nil, F64), logp, p},
		"3-d":           {one, zeros([]int{2, 3, 1}, F32), p},
		"transposed":    {one, transposed32(), p},
		"rows":          {one, zeros([]int{3, 3}, F32), p},
		"target range":  {one, logp, &CrossEntropyGrad{Target: []int{0, 3}, Reduction: "sum"}},
		"weight length": {one, logp, &CrossEntropyGrad{Target: []int{0, 1}, Weight: []float64{1, 2}, Reduction: "sum"}},
		"none g":        {one, logp, &CrossEntropyGrad{Target: []int{0, 1}, Reduction: "none"}},
	} {
		if _, ok := CrossEntropyBackward(c.g, c.logp, c.p); ok {
			t.Errorf("%s: kernel must decline", name)
		}
	}
}

func transposed32() *Tensor {
	t, err := zeros([]int{3, 2}, F32).T()
	if err != nil {
		panic(err)
	}
	return t
}

// fmaRowF32/F64 round each gl - e·s once, whichever path (SIMD prefix or
// scalar tail) an element takes, including rows shorter than a vector.
func TestFMARowRoundsOnce(t *testing.T) {
	t.Logf("axpyFused: %v", axpyFused())
	r := rand.New(rand.NewPCG(4, 7))
	for _, n := range []int{1, 7, 16, 33, 1000} {
		e32, g32 := make([]float32, n), make([]float32, n)
		e64, g64 := make([]float64, n), make([]float64, n)
		for i := range e32 {
			e32[i], g32[i] = float32(r.Float64()), float32(r.NormFloat64()*1e-3)
			e64[i], g64[i] = r.Float64(), r.NormFloat64()*1e-3
		}
		s32, s64 := float32(r.NormFloat64()*1e-2), r.NormFloat64()*1e-2
		w32, w64 := make([]float32, n), make([]float64, n)
		for i := range w32 {
			w32[i] = cpu.FMA32(-e32[i], s32, g32[i])
			w64[i] = math.FMA(-e64[i], s64, g64[i])
		}
		fmaRowF32(e32, s32, g32)
		fmaRowF64(e64, s64, g64)
		for i := range w32 {
			if math.Float32bits(e32[i]) != math.Float32bits(w32[i]) || math.Float64bits(e64[i]) != math.Float64bits(w64[i]) {
				t.Fatalf("n=%d, element %d: %v %v, want %v %v", n, i, e32[i], e64[i], w32[i], w64[i])
			}
		}
	}
}
