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
