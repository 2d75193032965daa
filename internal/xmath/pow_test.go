package xmath

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestPowMatchesCPython checks Pow bit for bit against CPython's float **
// (glibc pow) on the golden arguments of testdata/gen_pow.py.
func TestPowMatchesCPython(t *testing.T) {
	b, err := os.ReadFile("testdata/pow_cpython.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]float64
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	goOff := 0
	for _, c := range cases {
		if got := Pow(c[0], c[1]); got != c[2] {
			t.Errorf("Pow(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
		if math.Pow(c[0], c[1]) != c[2] {
			goOff++
		}
	}
	if goOff == 0 {
		t.Errorf("no golden case where math.Pow is off: the data does not exercise Pow")
	}
}

// TestPowSpecialCases: Pow keeps math.Pow's (C99's) special values.
func TestPowSpecialCases(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range [][2]float64{{0, -1}, {0, 2}, {-2, 0.5}, {-2, 3}, {-1.5, 4}, {inf, 2}, {2, inf}, {0.5, inf}, {nan, 1}, {1, nan}, {2, 0}, {1e300, 2}, {1e-300, 2}, {2, -1074}, {-8, 1.0 / 3}} {
		want, got := math.Pow(c[0], c[1]), Pow(c[0], c[1])
		if c[0] == -2 && c[1] == 3 {
			want = -8
		}
		if c[0] == -1.5 && c[1] == 4 {
			want = 5.0625
		}
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Pow(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

// TestExpMatchesCPython checks Exp bit for bit against CPython's math.exp
// (glibc exp) on the golden arguments of testdata/gen_exp.py.
func TestExpMatchesCPython(t *testing.T) {
	b, err := os.ReadFile("testdata/exp_cpython.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]float64
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	goOff := 0
	for _, c := range cases {
		if got := Exp(c[0]); got != c[1] {
			t.Errorf("Exp(%v) = %v, want %v", c[0], got, c[1])
		}
		if math.Exp(c[0]) != c[1] {
			goOff++
		}
	}
	t.Logf("math.Exp differs from glibc on %d of %d", goOff, len(cases))
	for _, x := range []float64{0, math.Inf(1), math.Inf(-1), 1000, -1000, -745.2} {
		if got, want := Exp(x), math.Exp(x); got != want {
			t.Errorf("Exp(%v) = %v, want %v", x, got, want)
		}
	}
}
