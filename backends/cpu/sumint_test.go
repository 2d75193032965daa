package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every sum/int64 variant returns the sequential wrapping sum on sizes
// 0..257 (tails of every length), with values near ±2^63 that overflow.
func TestSumI64Variants(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range candidatesFor(t, "sum", "int64") {
		f := c.Impl.(sumI64Fn)
		for n := 0; n <= 257; n++ {
			for _, big := range []bool{false, true} {
				x := make([]int64, n+1)[1:] // not 64-byte aligned
				var want int64
				for i := range x {
					if big {
						x[i] = int64(r.Uint64())
					} else {
						x[i] = r.Int64N(2001) - 1000
					}
					want += x[i]
				}
				if got := f(x); got != want {
					t.Fatalf("%s n=%d big=%v: %d, want %d", c.Name, n, big, got, want)
				}
			}
		}
	}
	// hand-checked wrap: MaxInt64 + 1 = MinInt64
	x := []int64{math.MaxInt64, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}
	if got := SumI64(x); got != math.MinInt64+5 {
		t.Errorf("SumI64 = %d, want %d", got, int64(math.MinInt64+5))
	}
}
