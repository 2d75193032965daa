package xmath

import (
	"math"
	"testing"
)

// TestLogMatchesCPython checks Log bit for bit against CPython's math.log
// (glibc) on the golden arguments of testdata/gen_log.py, and against the
// correctly rounded value where glibc's is not (2 of 6010 arguments).
func TestLogMatchesCPython(t *testing.T) {
	checkCPythonGolden(t, "testdata/log_cpython.json", "Log", Log, math.Log, 1000)
}

// TestLogSpecialCases: zeros, negatives, infinities, NaN, subnormals and 1
// are math.Log's.
func TestLogSpecialCases(t *testing.T) {
	checkSpecial(t, "Log", Log, math.Log, 0, math.Copysign(0, -1), -1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 1)
}
