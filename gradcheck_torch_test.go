package tsr_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tsrlang/tsr"
	"github.com/tsrlang/tsr/tensor"
)

// subgradGolden is testdata/subgrad.json, written by
// testdata/gen_subgrad.py with PyTorch 1.13: gradients where the
// subgradient convention matters (ties, zeros, clamp boundaries) and a
// few where the formula's rounding does (det in f32).
type subgradGolden struct {
	Torch string `json:"torch"`
	Cases []struct {
		Name   string `json:"name"`
		Tsr    string `json:"tsr"`
		Leaves []struct {
			Name   string   `json:"name"`
			Values []string `json:"values"`
			Shape  []int    `json:"shape"`
			DType  string   `json:"dtype"`
		} `json:"leaves"`
		Grads [][]string `json:"grads"`
	} `json:"cases"`
}

// TestSubgradientsMatchTorch checks the gradient of sum(out * w), w = 0.5
// (1, 2, ...), against PyTorch's for each golden case: f64 within 1e-12
// relative (the formulas' roundings may differ in the last bits), f32 within
// 2^-20 (a few ulps: float32 composites such as gelu and mish round
// differently); infinities and NaN exactly. det's f32 gradient is exact
// (TestDetF32GradientBits).
func TestSubgradientsMatchTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/subgrad.json")
	if err != nil {
		t.Fatal(err)
	}
	var g subgradGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 60 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var b strings.Builder
			var names []string
			for _, l := range c.Leaves {
				vals := make([]string, len(l.Values))
				for i, v := range l.Values {
					switch v {
					case "nan":
						vals[i] = "nan"
					case "inf":
						vals[i] = "inf"
					case "-inf":
						vals[i] = "-inf"
					default:
						vals[i] = v
					}
				}
				shape := make([]string, len(l.Shape))
				for i, s := range l.Shape {
					shape[i] = strconv.Itoa(s)
				}
				fmt.Fprintf(&b, "%s = tensor([%s], dtype=%s).reshape(%s).requires_grad_()\n", l.Name, strings.Join(vals, ", "), l.DType, strings.Join(shape, ", "))
				names = append(names, l.Name+".grad")
			}
			fmt.Fprintf(&b, "out_ = %s\n(out_ * (arange(1, out_.numel() + 1, dtype=out_.dtype) * 0.5).reshape(out_.shape)).sum().backward()\n[%s]\n", c.Tsr, strings.Join(names, ", "))
			in := tsr.New(tsr.Options{})
			v, err := in.Eval(context.Background(), c.Name, b.String())
			if err != nil {
				t.Fatalf("%s\n%v", b.String(), err)
			}
			var grads []*tensor.Tensor
			if err := tsr.Convert(v, &grads); err != nil {
				t.Fatalf("%s: %v (a leaf without .grad?)", c.Tsr, err)
			}
			for k, want := range c.Grads {
				got := grads[k].ToFloat64s()
				f32 := c.Leaves[k].DType == "f32"
				for i, ws := range want {
					w, err := strconv.ParseFloat(ws, 64)
					if err != nil {
						t.Fatal(err)
					}
					tol := 1e-12 // f64: the formulas' roundings may differ in the last bits
					if f32 {
						tol = 0x1p-20 // float32 composites (gelu, mish, softmax) round differently
					}
					ok := got[i] == w || math.IsNaN(got[i]) && math.IsNaN(w) ||
						!math.IsInf(w, 0) && math.Abs(got[i]-w) <= tol*math.Max(1, math.Abs(w))
					if !ok {
						t.Errorf("%s: d/d%s[%d] = %v, PyTorch %v", c.Tsr, c.Leaves[k].Name, i, got[i], w)
					}
				}
			}
		})
	}
}

// TestDetSingularGradientIsAdjugate: det of an exactly singular matrix has
// the adjugate's transpose as gradient (d det(A) / dA = adj(A)ᵀ, nonzero
// for rank n - 1). PyTorch 1.13 returns zeros there (its first-order
// formula scales by det = 0); tsr keeps the derivative.
func TestDetSingularGradientIsAdjugate(t *testing.T) {
	in := tsr.New(tsr.Options{})
	v, err := in.Eval(context.Background(), "det", `x = tensor([[1., 2.], [2., 4.]], dtype=f64, requires_grad=true)
linalg.det(x).backward()
x.grad`)
	if err != nil {
		t.Fatal(err)
	}
	var g *tensor.Tensor
	if err := tsr.Convert(v, &g); err != nil {
		t.Fatal(err)
	}
	want := []float64{4, -2, -2, 1} // adj([[a, b], [c, d]])ᵀ = [[d, -c], [-b, a]]
	for i, gv := range g.ToFloat64s() {
		if math.Abs(gv-want[i]) > 1e-12 {
			t.Errorf("grad[%d] = %v, want %v", i, gv, want[i])
		}
	}
}

// TestDetF32GradientBits: linalg.det's f32 gradient is PyTorch's to the
// bit (an LU of Aᵀ and xGETRS 'N', as linalg_det_backward).
func TestDetF32GradientBits(t *testing.T) {
	if b, err := tsr.New(tsr.Options{}).Eval(context.Background(), "backend", "linalg.backend()"); err != nil || strings.HasPrefix(tsr.FromValue(b).(string), "gonum") {
		t.Skip("the bits are system LAPACK's (PyTorch's); the gonum fallback rounds its own way")
	}
	raw, err := os.ReadFile("testdata/subgrad.json")
	if err != nil {
		t.Fatal(err)
	}
	var g subgradGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range g.Cases {
		if !strings.HasPrefix(c.Name, "det_f32") {
			continue
		}
		n++
		in := tsr.New(tsr.Options{})
		l := c.Leaves[0]
		src := fmt.Sprintf("x = tensor([%s], dtype=f32).reshape(%d, %d).requires_grad_()\nlinalg.det(x).backward()\nx.grad", strings.Join(l.Values, ", "), l.Shape[0], l.Shape[1])
		v, err := in.Eval(context.Background(), c.Name, src)
		if err != nil {
			t.Fatal(err)
		}
		var gt *tensor.Tensor
		if err := tsr.Convert(v, &gt); err != nil {
			t.Fatal(err)
		}
		for i, ws := range c.Grads[0] {
			w, _ := strconv.ParseFloat(ws, 64)
			// the golden weight is 0.5: a power of two, so PyTorch's
			// gradient for weight 1 is exactly twice the golden one
			if got := gt.ToFloat64s()[i]; got != 2*w {
				t.Errorf("%s: grad[%d] = %v, PyTorch %v", c.Name, i, got, 2*w)
			}
		}
	}
	if n < 2 {
		t.Fatalf("%d det_f32 cases", n)
	}
}
