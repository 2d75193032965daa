package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

// TestHalfConversions runs every registered binary16 conversion against
// x448/float16: all 65536 bit patterns widened, and float32 values around
// every rounding boundary, the overflow threshold, subnormals, ±0, ±Inf
// and NaN narrowed, at lengths that exercise the vector tails.
func TestHalfConversions(t *testing.T) {
	all := make([]uint16, 1<<16)
	for i := range all {
		all[i] = uint16(i)
	}
	for _, c := range candidatesFor(t, "f16_to_f32", "float16") {
		f := c.Impl.(cvtFn[float32, uint16])
		for _, n := range []int{0, 1, 15, 16, 17, 63, 64, 65, 1 << 16} {
			dst := make([]float32, n+1)
			dst[n] = 42 // must not be written
			f(dst[:n], all[len(all)-n:])
			for i := 0; i < n; i++ {
				h := all[len(all)-n+i]
				want := float16.Frombits(h).Float32()
				if got := dst[i]; math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
					t.Fatalf("%s: f16 %#04x -> %v, want %v", c.Name, h, got, want)
				}
			}
			if dst[n] != 42 {
				t.Fatalf("%s n=%d: wrote past the end", c.Name, n)
			}
		}
	}
	rng := rand.New(rand.NewPCG(51, 52))
	var xs []float32
	for i := 0; i < 1<<16; i++ {
		w := float16.Frombits(uint16(i)).Float32()
		if w != w {
			continue
		}
		b := math.Float32bits(w)
		// the value, its float32 neighbours, and the midpoint to the next binary16
		next := float16.Frombits(uint16(i) + 1).Float32()
		xs = append(xs, w, math.Float32frombits(b+1), math.Float32frombits(b-1), (w+next)/2)
	}
	xs = append(xs, 65504, 65519.99, 65520, 1e10, -1e10, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 0, float32(math.Copysign(0, -1)), 1e-8, 3e-8, 2.9802322e-08, 5.96e-8, -1e-45)
	for i := 0; i < 10000; i++ {
		xs = append(xs, float32(rng.NormFloat64()*100))
	}
	for _, c := range candidatesFor(t, "f32_to_f16", "float16") {
		f := c.Impl.(cvtFn[uint16, float32])
		for _, n := range []int{len(xs), len(xs) - 1, 17, 5, 0} {
			dst := make([]uint16, n+1)
			dst[n] = 0xabcd
			f(dst[:n], xs[:n])
			for i := 0; i < n; i++ {
				want := float16.Fromfloat32(xs[i]).Bits()
				got := dst[i]
				gotNaN := got&0x7c00 == 0x7c00 && got&0x3ff != 0
				wantNaN := want&0x7c00 == 0x7c00 && want&0x3ff != 0
				if got != want && !(gotNaN && wantNaN) {
					t.Fatalf("%s: f32 %v (%#08x) -> %#04x, want %#04x", c.Name, xs[i], math.Float32bits(xs[i]), got, want)
				}
			}
			if dst[n] != 0xabcd {
				t.Fatalf("%s n=%d: wrote past the end", c.Name, n)
			}
		}
	}
}
