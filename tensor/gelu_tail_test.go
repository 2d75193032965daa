package tensor

import (
	"math"
	"testing"
)

// TestGeluF32MatchesPyTorch: f32 gelu is PyTorch's formula in float32
// arithmetic, so the left tail cancels to -0 where PyTorch's does (values
// from PyTorch 1.13, F.gelu on single-element f32 tensors).
func TestGeluF32MatchesPyTorch(t *testing.T) {
	x := []float64{-6, -5, -3, -5.5, -5.2, -0.5, 0.7, 3}
	for _, tc := range []struct {
		approx string
		want   []float64
	}{
		{"none", []float64{math.Copysign(0, -1), -1.4901161193847656e-06, -0.0040496885776519775, -1.6391277313232422e-07, -4.649162121950212e-07, -0.1542687714099884, 0.5306254625320435, 2.995950222015381}},
		{"tanh", []float64{math.Copysign(0, -1), -2.980232238769531e-07, -0.0036374330520629883, math.Copysign(0, -1), math.Copysign(0, -1), -0.1542859971523285, 0.5305701494216919, 2.9963626861572266}},
	} {
		in, err := FromFloat64s(x, []int{len(x)}, F32)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Gelu(in, tc.approx)
		if err != nil {
			t.Fatal(err)
		}
		got := out.ToFloat64s()
		for i, w := range tc.want {
			if got[i] != w || math.Signbit(got[i]) != math.Signbit(w) {
				t.Errorf("gelu(%v, %s) = %v, want %v", x[i], tc.approx, got[i], w)
			}
		}
	}
}
