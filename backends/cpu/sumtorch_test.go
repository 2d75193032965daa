package cpu

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestSumTorchF32Golden checks SumTorchF32 bit for bit against torch.sum
// (testdata/gen_sum_torch.py) on every tier's row accumulator.
func TestSumTorchF32Golden(t *testing.T) {
	data, err := os.ReadFile("testdata/sum_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			N, Seed int
			Scale   float64
			Bits    uint32
		}
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 900 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		x := make([]float32, c.N)
		for i := range x {
			x[i] = float32(float64((i*7919+c.Seed*104729)%10007)/1000.0-5.0) * float32(c.Scale)
		}
		got := SumTorchF32(x)
		if math.Float32bits(got) != c.Bits {
			t.Errorf("n=%d seed=%d scale=%g: %v, torch %v", c.N, c.Seed, c.Scale, got, math.Float32frombits(c.Bits))
		}
	}
}

type torchGoldenCase struct {
	N, Seed int
	Scale   float64
	Bits    []uint32
}

func goldenInputs(c torchGoldenCase) []float32 {
	x := make([]float32, c.N)
	for i := range x {
		x[i] = float32(float64((i*7919+c.Seed*104729)%10007)/1000.0-5.0) * float32(c.Scale)
	}
	return x
}

func loadExpSoftmaxGolden(t *testing.T) (exp, softmax []torchGoldenCase) {
	data, err := os.ReadFile("testdata/exp_softmax_torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ Exp, Softmax []torchGoldenCase }
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g.Exp, g.Softmax
}

// TestExpMatchesSleef: every exp_shift_sum candidate and ExpSleefF32 give
// torch.exp's float32 bits (SLEEF's expf), slice tails included.
func TestExpMatchesSleef(t *testing.T) {
	exps, _ := loadExpSoftmaxGolden(t)
	for _, c := range exps {
		x := goldenInputs(c)
		for i, v := range x {
			if got := math.Float32bits(ExpSleefF32(v)); got != c.Bits[i] {
				t.Fatalf("ExpSleefF32(%v) = %v, torch %v", v, ExpSleefF32(v), math.Float32frombits(c.Bits[i]))
			}
		}
		for _, cand := range candidatesFor(t, "exp_shift_sum", "float32") {
			f := cand.Impl.(expShiftFn[float32])
			for _, n := range []int{len(x), 7, 33} { // whole vectors and a tail
				dst := make([]float32, n)
				f(dst, x[:n], 0)
				for i, v := range dst {
					if math.Float32bits(v) != c.Bits[i] {
						t.Fatalf("%s n=%d: exp(%v) = %v, torch %v", cand.Name, n, x[i], v, math.Float32frombits(c.Bits[i]))
					}
				}
			}
		}
	}
}

// TestSoftmaxMatchesTorch: every float32 softmax_rows candidate gives
// torch.softmax's bits (SLEEF exp, reduce_all's sum order, 1/sum scaling).
func TestSoftmaxMatchesTorch(t *testing.T) {
	_, rows := loadExpSoftmaxGolden(t)
	for _, cand := range candidatesFor(t, "softmax_rows", "float32") {
		f := cand.Impl.(rowsFn[float32])
		for _, c := range rows {
			x := goldenInputs(c)
			dst := make([]float32, len(x))
			f(dst, x, 1, len(x))
			for i, v := range dst {
				if math.Float32bits(v) != c.Bits[i] {
					t.Fatalf("%s n=%d: softmax[%d] = %v, torch %v", cand.Name, c.N, i, v, math.Float32frombits(c.Bits[i]))
				}
			}
		}
	}
}
