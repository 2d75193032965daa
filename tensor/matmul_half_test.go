package tensor

import (
	"math"
	"testing"
)

// TestMatmulHalfWidensWhilePacking: f16/bf16 matmul (the GEMM widens the
// 16-bit operands while packing) equals the f32 product of the widened
// operands rounded once, on a blocked shape with a transposed, batched,
// broadcast operand.
func TestMatmulHalfWidensWhilePacking(t *testing.T) {
	g := NewGenerator(5)
	for _, dt := range []DType{F16, BF16} {
		a, _ := Randn(g, []int{3, 130, 700}, F32)
		b, _ := Randn(g, []int{90, 700}, F32)
		ah, bh := a.toDType(dt), b.toDType(dt)
		bt, _ := bh.Transpose(0, 1) // [700, 90], a strided view
		got, err := Matmul(ah, bt)
		if err != nil {
			t.Fatal(err)
		}
		bt32, _ := bh.toDType(F32).Transpose(0, 1)
		want, err := Matmul(ah.toDType(F32), bt32)
		if err != nil {
			t.Fatal(err)
		}
		want = want.toDType(dt)
		if got.DType() != dt {
			t.Fatalf("%v: dtype %v", dt, got.DType())
		}
		gv, wv := got.ToFloat64s(), want.ToFloat64s()
		// Both accumulate in f32, in different blockings, so an f32 sum can
		// land on the other side of a rounding boundary of dt: one unit in
		// the last place of dt, plus the f32 reordering error of a 700-term
		// sum of magnitude ~500 where it cancels (~eps_f32·500 = 3e-5).
		ulp := 1.0 / 1024 // f16: 10 fraction bits
		if dt == BF16 {
			ulp = 1.0 / 128
		}
		diff := 0
		for i := range gv {
			if gv[i] != wv[i] {
				diff++
				if d := math.Abs(gv[i] - wv[i]); d > ulp*math.Abs(wv[i])+5e-5 {
					t.Fatalf("%v: element %d = %v, want %v", dt, i, gv[i], wv[i])
				}
			}
		}
		if diff > len(gv)/100 {
			t.Fatalf("%v: %d of %d elements differ from the f32 product rounded to %v", dt, diff, len(gv), dt)
		}
	}
}
