package xmath

import (
	"math"
	"testing"
)

// TestCosMatchesCPython checks Cos bit for bit against CPython's math.cos
// (glibc) on the golden arguments of testdata/gen_cos.py, and against the
// correctly rounded value where glibc's is not (5 of 5151 arguments).
func TestCosMatchesCPython(t *testing.T) {
	checkCPythonGolden(t, "testdata/cos_cpython.json", "Cos", Cos, math.Cos, 500)
}

// TestCosSpecialCases: non-finite and large arguments are math.Cos's.
func TestCosSpecialCases(t *testing.T) {
	checkSpecial(t, "Cos", Cos, math.Cos, math.NaN(), math.Inf(1), math.Inf(-1), 1e22, -100)
}
