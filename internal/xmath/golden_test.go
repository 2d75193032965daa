package xmath

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// checkCPythonGolden checks f bit for bit against the golden cases in file
// (JSON [x, glibc's f(x) through CPython, correctly rounded f(x)]): f must
// give the correctly rounded value; glibc may differ from it in at most
// len(cases)/glibcDen cases; and goF (Go's math version) must be off on at
// least one case, so that the data exercises f at all.
func checkCPythonGolden(t *testing.T, file, name string, f, goF func(float64) float64, glibcDen int) {
	t.Helper()
	b, err := os.ReadFile(file)
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
		if got := f(c[0]); got != c[2] {
			t.Errorf("%s(%v) = %v, want %v (glibc %v)", name, c[0], got, c[2], c[1])
		}
		if goF(c[0]) != c[1] {
			goOff++
		}
	}
	if glibcOff > len(cases)/glibcDen {
		t.Errorf("glibc differs from the correctly rounded %s in %d of %d cases", name, glibcOff, len(cases))
	}
	if goOff == 0 {
		t.Errorf("no golden case where math.%s is off: the data does not exercise %s", name, name)
	}
}

// checkSpecial checks that f(x) is goF(x) (NaN matching NaN) for each x.
func checkSpecial(t *testing.T, name string, f, goF func(float64) float64, xs ...float64) {
	t.Helper()
	for _, x := range xs {
		want, got := goF(x), f(x)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s(%v) = %v, want %v", name, x, got, want)
		}
	}
}
