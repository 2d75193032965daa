package tensor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/backends/cpu"
)

// TestLogF64SizeIndependent: f64 Log gives cpu.LogSleefF64's bits (torch's)
// for every element whatever the tensor's size (below and above 65536
// elements, where ATen's grain and the old size switch sat) and layout
// (a transposed view takes the strided path).
func TestLogF64SizeIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 100, 1 << 16, 1<<16 + 3, 70000} {
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Ldexp(1+rng.Float64(), rng.IntN(2000)-1000)
		}
		d[0] = 5e-324
		x := mustTensor(t, d, []int{n}, F64)
		y, err := Log(x)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range y.ToFloat64s() {
			if want := cpu.LogSleefF64(d[i]); math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("n=%d: log(%g) = %g, LogSleefF64 %g", n, d[i], v, want)
			}
		}
		if n%2 == 0 {
			x2, err := x.Reshape(2, n/2)
			if err != nil {
				t.Fatal(err)
			}
			xt, err := x2.T()
			if err != nil {
				t.Fatal(err)
			}
			yt, err := Log(xt)
			if err != nil {
				t.Fatal(err)
			}
			got := yt.ToFloat64s()
			for i := range n / 2 {
				for j := range 2 {
					if v, want := got[i*2+j], cpu.LogSleefF64(d[j*(n/2)+i]); math.Float64bits(v) != math.Float64bits(want) {
						t.Fatalf("n=%d transposed [%d,%d]: %g, LogSleefF64 %g", n, i, j, v, want)
					}
				}
			}
		}
	}
}
