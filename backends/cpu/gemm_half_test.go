package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

// TestGemmHalf checks GemmHalfBatched against the float32 reference on
// the widened operands, on every layout of the float32 tests (the half
// values are exact in float32, so the tolerance is float32's).
func TestGemmHalf(t *testing.T) {
	for _, format := range []Half{F16, BF16} {
		toHalf := func(v float32) uint16 {
			if format == BF16 {
				return uint16(math.Float32bits(v) >> 16) // truncation: any bf16 will do
			}
			return float16.Fromfloat32(v).Bits()
		}
		widen := func(h uint16) float32 {
			if format == BF16 {
				return math.Float32frombits(uint32(h) << 16)
			}
			return float16.Frombits(h).Float32()
		}
		f := func(batch, m, n, k int, alpha float32, a []float32, bsA, rsA, csA int, b []float32, bsB, rsB, csB int, beta float32, c []float32, bsC, rsC, csC int) {
			// round the inputs to the format in place, so that runCase's
			// reference sees exactly the values the GEMM widens
			ah, bh := make([]uint16, len(a)), make([]uint16, len(b))
			for i, v := range a {
				ah[i] = toHalf(v)
				a[i] = widen(ah[i])
			}
			for i, v := range b {
				bh[i] = toHalf(v)
				b[i] = widen(bh[i])
			}
			GemmHalfBatched(format, batch, m, n, k, alpha, ah, bsA, rsA, csA, bh, bsB, rsB, csB, beta, c, bsC, rsC, csC)
		}
		rng := rand.New(rand.NewPCG(41, uint64(format)))
		withThresholds(0, math.Inf(1), func() {
			for _, c := range randomCases(rng, 100) {
				runCase(t, rng, c, 6e-8, f)
			}
		})
		withThresholds(0, 0, func() { // the parallel splits
			for _, c := range randomCases(rng, 40) {
				runCase(t, rng, c, 6e-8, f)
			}
		})
		runCase(t, rng, gemmCase{batch: 1, m: 300, n: 500, k: 2*sgemmKernel.KC + 3, la: lRow, lb: lCol, lc: lRow, alpha: 1, beta: 0.5}, 6e-8, f)
	}
}
