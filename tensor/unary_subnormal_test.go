package tensor

import "testing"

// TestLogOfSubnormal: the generic (strided) path must not inherit Go's
// amd64 math.Log error for subnormals (golang/go#56600).
func TestLogOfSubnormal(t *testing.T) {
	x, _ := FromFloat64s([]float64{5e-324, 1, 5e-324, 1}, []int{4}, F64)
	strided, _ := x.Slice(0, 0, 4, 2) // not contiguous: the generic loop
	got, err := Log(strided)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range got.ToFloat64s() {
		if v > -744.44 || v < -744.45 {
			t.Fatalf("log(5e-324) = %v, want -744.44007...", v)
		}
	}
}
