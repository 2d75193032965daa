package runtime

import (
	"math"
	"runtime"
	"testing"
)

// BoxFloats' Values are Floats equal to the inputs (NaN, ±0, ±Inf
// included), behave as Floats in type switches, equality and printing, and
// survive a GC with only the Values kept.
func TestBoxFloats(t *testing.T) {
	vals := []float64{1.5, math.NaN(), math.Copysign(0, -1), math.Inf(1), -3, 0}
	vs := BoxFloats(vals)
	runtime.GC()
	for i, v := range vs {
		f, ok := v.(Float)
		if !ok {
			t.Fatalf("value %d is %T, want Float", i, v)
		}
		if math.Float64bits(float64(f)) != math.Float64bits(vals[i]) {
			t.Errorf("value %d = %v, want %v", i, f, vals[i])
		}
	}
	if vs[0] != Value(Float(1.5)) || vs[4].String() != "-3.0" || vs[0].Type() != "float" {
		t.Errorf("boxed values compare/print as %v %q %q", vs[0] == Value(Float(1.5)), vs[4].String(), vs[0].Type())
	}
	if len(BoxFloats(nil)) != 0 {
		t.Error("BoxFloats(nil) is not empty")
	}
}
