package tensor

import (
	"math"
	"testing"
)

// Neg flips the sign bit of every element, NaN included (IEEE 754
// negate; PyTorch 1.13's f32/f64 neg: torch.tensor([nan, -nan]).neg()
// .signbit() is [True, False]), also through the vector fast path, for
// contiguous and transposed inputs of sizes in and past the vector tails.
func TestNegFlipsNaNSign(t *testing.T) {
	negNaN := math.Copysign(math.NaN(), -1)
	for _, dt := range []DType{F32, F64} {
		for _, n := range []int{8, 33, 70000} {
			d := make([]float64, 2*n)
			for i := range d {
				switch i % 4 {
				case 0:
					d[i] = math.NaN()
				case 1:
					d[i] = negNaN
				case 2:
					d[i] = math.Copysign(0, -1)
				default:
					d[i] = float64(i)
				}
			}
			x := mustTensor(t, d, []int{2, n}, dt)
			xt, err := x.T()
			if err != nil {
				t.Fatal(err)
			}
			for layout, in := range map[string]*Tensor{"contiguous": x, "transposed": xt} {
				r, err := Neg(in)
				if err != nil {
					t.Fatal(err)
				}
				src, got := in.Contiguous().ToFloat64s(), r.Contiguous().ToFloat64s()
				for i := range src {
					if math.Signbit(got[i]) == math.Signbit(src[i]) {
						t.Fatalf("%s: neg %v %s n=%d: element %d: neg(%v) = %v, sign bit not flipped",
							"TestNegFlipsNaNSign", dt, layout, n, i, src[i], got[i])
					}
				}
			}
		}
	}
}
