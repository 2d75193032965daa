package cpu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Every sqdev variant agrees with an exact (math/big) two-pass sum to a
// few float64 roundings on sizes 1..257 and 100003 (tails of every
// length), with a large mean (cancellation), and gives NaN for NaN or
// ±Inf input.
func TestSqDevVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	exact := func(x []float32) float64 {
		s := new(big.Float).SetPrec(2000)
		for _, v := range x {
			s.Add(s, big.NewFloat(float64(v)))
		}
		mean, _ := new(big.Float).Quo(s, big.NewFloat(float64(len(x)))).Float64()
		ss := new(big.Float).SetPrec(2000)
		for _, v := range x {
			d := new(big.Float).SetPrec(2000).Sub(big.NewFloat(float64(v)), big.NewFloat(mean))
			ss.Add(ss, d.Mul(d, d))
		}
		f, _ := ss.Float64()
		return f
	}
	sizes := []int{100003}
	for n := 1; n <= 257; n++ {
		sizes = append(sizes, n)
	}
	for _, c := range candidatesFor(t, "sqdev", "float32") {
		f := c.Impl.(sqDevFn)
		for _, n := range sizes {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(1000 + r.NormFloat64())
			}
			got, want := f(x), exact(x)
			if math.Abs(got-want) > 1e-12*float64(n)*(want+1) {
				t.Fatalf("%s n=%d: %v, want %v", c.Name, n, got, want)
			}
			if n >= 3 {
				for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1))} {
					y := append([]float32(nil), x...)
					y[n/2] = bad
					if g := f(y); !math.IsNaN(g) {
						t.Fatalf("%s n=%d with %v: %v, want NaN", c.Name, n, bad, g)
					}
				}
			}
		}
	}
	// hand-checked: {1, 2, 3, 4}: mean 2.5, Σ d² = 2.25+0.25+0.25+2.25 = 5
	if got := SqDevF32([]float32{1, 2, 3, 4}); got != 5 {
		t.Errorf("SqDevF32 = %v, want 5", got)
	}
}
