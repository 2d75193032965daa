package tensor

import (
	"math"
	"testing"
)

// clamp keeps x on a tie with a number bound (-0.0 clamped at min=0 stays
// -0.0) and fmax/fmin keep their first operand on a -0/+0 tie, as PyTorch
// 1.13 prints (torch.tensor([-0., 0.]).clamp(min=0) is tensor([-0., 0.]);
// torch.fmax([-0., 0.], [0., -0.]) is tensor([-0., 0.])).
func TestSignedZeroTies(t *testing.T) {
	nz := math.Copysign(0, -1)
	signs := func(x *Tensor) []bool {
		var s []bool
		for _, v := range x.ToFloat64s() {
			s = append(s, math.Signbit(v))
		}
		return s
	}
	for _, n := range []int{2, 40} { // scalar tail and vector kernels
		av, bv := make([]float64, n), make([]float64, n)
		for i := range av {
			if i%2 == 0 {
				av[i], bv[i] = nz, 0
			} else {
				av[i], bv[i] = 0, nz
			}
		}
		a, _ := FromFloat64s(av, []int{n}, F32)
		b, _ := FromFloat64s(bv, []int{n}, F32)
		check := func(name string, r *Tensor, err error, want []float64) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			got := signs(r)
			for i := range got {
				if got[i] != math.Signbit(want[i]) {
					t.Fatalf("n=%d %s: element %d has the wrong sign of zero", n, name, i)
				}
			}
		}
		r, err := Clamp(a, ScalarFloat(0), nil)
		check("clamp(a, min=0)", r, err, av)
		r, err = Clamp(b, nil, ScalarFloat(nz))
		check("clamp(b, max=-0)", r, err, bv)
		r, err = Clamp(a, ScalarFloat(0), ScalarFloat(0))
		check("clamp(a, 0, 0)", r, err, av)
		r, err = Fmax(a, b)
		check("fmax(a, b)", r, err, av)
		r, err = Fmin(a, b)
		check("fmin(a, b)", r, err, av)
	}
}
