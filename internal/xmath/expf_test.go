package xmath

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestExpfMatchesGlibc checks Expf bit for bit against glibc's expf on the
// golden arguments of testdata/gen_expf.py, and that some of them are not
// the correctly rounded float32 of e^x (so the data exercises glibc's
// rounding, not just any accurate exp).
func TestExpfMatchesGlibc(t *testing.T) {
	b, err := os.ReadFile("testdata/expf_glibc.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][2]float64
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := Expf(float32(c[0])); float64(got) != c[1] {
			t.Errorf("Expf(%v) = %v, want %v", float32(c[0]), got, float32(c[1]))
		}
	}
	if got, cr := Expf(-26.00719451904297), float32(math.Exp(-26.00719451904297)); got == cr {
		t.Errorf("Expf(-26.00719451904297) = %v, the correctly rounded value: glibc gives the other neighbour", got)
	}
}

// TestExpfSpecialCases: infinities, NaN, overflow and underflow.
func TestExpfSpecialCases(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, c := range [][2]float32{{-inf, 0}, {inf, inf}, {89, inf}, {-105, 0}, {0, 1}} {
		if got := Expf(c[0]); got != c[1] {
			t.Errorf("Expf(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if nan := float32(math.NaN()); Expf(nan) == Expf(nan) {
		t.Errorf("Expf(NaN) is not NaN")
	}
}
