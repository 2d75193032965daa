package lapack

import (
	"math"
	"slices"
	"testing"
)

// TestLUFactorRect checks LUFactor on square, wide, tall and singular
// matrices with both engines against torch.linalg.lu_factor_ex (PyTorch
// 1.13; values printed with .tolist()).
func TestLUFactorRect(t *testing.T) {
	cases := []struct {
		name  string
		m, n  int
		a, lu []float64
		piv   []int
		info  int
	}{
		{"square", 3, 3, []float64{1, 5, 2, 4, 3, 7, 2, 9, 1},
			[]float64{4, 3, 7, 0.5, 7.5, -2.5, 0.25, 0.5666666666666667, 1.6666666666666665}, []int{2, 3, 3}, 0},
		{"wide", 3, 4, []float64{1, 2, 3, 4, 5, 6, 7, 9, 1, 1, 2, 1},
			[]float64{5, 6, 7, 9, 0.2, 0.8, 1.6, 2.2, 0.2, -0.25, 1, -0.25}, []int{2, 2, 3}, 0},
		{"tall", 4, 3, []float64{1, 5, 1, 2, 6, 1, 3, 7, 2, 4, 9, 1},
			[]float64{4, 9, 1, 0.25, 2.75, 0.75, 0.75, 0.09090909090909091, 1.1818181818181819, 0.5, 0.5454545454545454, 0.07692307692307698}, []int{4, 4, 3}, 0},
		{"singular", 3, 3, []float64{1, 2, 3, 2, 4, 6, 1, 1, 1},
			[]float64{2, 4, 6, 0.5, -1, -2, 0.5, 0, 0}, []int{2, 3, 3}, 3},
	}
	for _, backend := range []string{"gonum", "system"} {
		if err := SetBackend(backend); err != nil {
			t.Logf("%s: %v", backend, err)
			continue
		}
		for _, c := range cases {
			lu, piv, info, err := LUFactor(c.m, c.n, c.a)
			if err != nil {
				t.Fatalf("%s %s: %v", backend, c.name, err)
			}
			if !slices.Equal(piv, c.piv) || info != c.info {
				t.Errorf("%s %s: pivots %v info %d, want %v %d", backend, c.name, piv, info, c.piv, c.info)
			}
			for i := range lu {
				if math.Abs(lu[i]-c.lu[i]) > 1e-13 {
					t.Errorf("%s %s: lu[%d] = %v, want %v", backend, c.name, i, lu[i], c.lu[i])
				}
			}
			lu32, piv32, info32, err := LUFactor(c.m, c.n, fromF64[float32](c.a))
			if err != nil || !slices.Equal(piv32, c.piv) || info32 != c.info {
				t.Errorf("%s %s f32: pivots %v info %d err %v", backend, c.name, piv32, info32, err)
			}
			for i := range lu32 {
				if math.Abs(float64(lu32[i])-c.lu[i]) > 1e-6 {
					t.Errorf("%s %s f32: lu[%d] = %v, want %v", backend, c.name, i, lu32[i], c.lu[i])
				}
			}
		}
	}
	SetBackend("auto")
	if _, _, _, err := LUFactor(2, 3, []float64{1}); err == nil {
		t.Error("LUFactor accepted a slice of the wrong length")
	}
	if lu, piv, info, err := LUFactor(0, 3, []float64{}); err != nil || len(lu) != 0 || len(piv) != 0 || info != 0 {
		t.Errorf("0x3: %v %v %d %v", lu, piv, info, err)
	}
}
