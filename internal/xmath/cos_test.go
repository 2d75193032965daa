package xmath

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestCosMatchesCPython checks Cos bit for bit against CPython's math.cos
// (glibc) on the golden arguments of testdata/gen_cos.py, and against the
// correctly rounded value where glibc's is not (5 of 5151 arguments).
func TestCosMatchesCPython(t *testing.T) {
	b, err := os.ReadFile("testdata/cos_cpython.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]float64
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	goOff, glibcOff := 0, 0
	for _, c := range cases {
		if c[1] != c[2] {
			glibcOff++
		}
		if got := Cos(c[0]); got != c[2] {
			t.Errorf("Cos(%v) = %v, want %v (glibc %v)", c[0], got, c[2], c[1])
		}
		if math.Cos(c[0]) != c[1] {
			goOff++
		}
	}
	if glibcOff > len(cases)/500 {
		t.Errorf("glibc differs from the correctly rounded cos in %d of %d cases", glibcOff, len(cases))
	}
	if goOff == 0 {
		t.Errorf("no golden case where math.Cos is off: the data does not exercise Cos")
	}
}

// TestCosSpecialCases: non-finite and large arguments are math.Cos's.
func TestCosSpecialCases(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e22, -100} {
		want, got := math.Cos(x), Cos(x)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Cos(%v) = %v, want %v", x, got, want)
		}
	}
}
