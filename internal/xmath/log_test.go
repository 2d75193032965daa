package xmath

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestLogMatchesCPython checks Log bit for bit against CPython's math.log
// (glibc) on the golden arguments of testdata/gen_log.py, and against the
// correctly rounded value where glibc's is not (2 of 6010 arguments).
func TestLogMatchesCPython(t *testing.T) {
	b, err := os.ReadFile("testdata/log_cpython.json")
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
		if got := Log(c[0]); got != c[2] {
			t.Errorf("Log(%v) = %v, want %v (glibc %v)", c[0], got, c[2], c[1])
		}
		if math.Log(c[0]) != c[1] {
			goOff++
		}
	}
	if glibcOff > len(cases)/1000 {
		t.Errorf("glibc differs from the correctly rounded log in %d of %d cases", glibcOff, len(cases))
	}
	if goOff == 0 {
		t.Errorf("no golden case where math.Log is off: the data does not exercise Log")
	}
}

// TestLogSpecialCases: zeros, negatives, infinities, NaN, subnormals and 1
// are math.Log's.
func TestLogSpecialCases(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), -1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 1} {
		want, got := math.Log(x), Log(x)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Log(%v) = %v, want %v", x, got, want)
		}
	}
}
