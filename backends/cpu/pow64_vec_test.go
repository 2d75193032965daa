package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// powF64TestInputs returns n (x, y) pairs: mostly fast-path operands
// (positive normal x over the whole range and near 1, moderate y, integer
// y, y·log x near the ±704 cut and beyond it, so results near overflow
// and underflow) with special operands mixed in at rate special (0, -0,
// ±Inf, NaN, 1, subnormal and negative x; y of 0, ±Inf, NaN, odd and even
// integers, random bits).
func powF64TestInputs(rng *rand.Rand, n int, special float64) (x, y []float64) {
	sx := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 5e-324, 1e-310,
		-2.5, -0.5, -1e-310, math.MaxFloat64, 0x1p-1022}
	sy := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 2, 3, -3, 0.5, 1e300, -1e300}
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		switch rng.IntN(4) {
		case 0:
			x[i] = math.Ldexp(1+rng.Float64(), rng.IntN(2044)-1021)
		case 1:
			x[i] = 1 + (rng.Float64()-0.5)*0x1p-20
		case 2:
			x[i] = 10 * rng.Float64()
		default:
			x[i] = math.Float64frombits(0x3fe6a00000000000 + rng.Uint64N(1<<53)) // [0.7, 2.8)
		}
		switch rng.IntN(5) {
		case 0:
			y[i] = (rng.Float64() - 0.5) * 20
		case 1:
			y[i] = float64(rng.IntN(41) - 20)
		case 2:
			// y·log x around ±704..±746: results near overflow and underflow
			l := math.Log(x[i])
			if l == 0 {
				l = 1
			}
			y[i] = (700 + 50*rng.Float64()) / l * []float64{1, -1}[rng.IntN(2)]
		case 3:
			y[i] = math.Ldexp(rng.Float64()-0.5, rng.IntN(80)-60)
		default:
			y[i] = 1.5
		}
		if rng.Float64() < special {
			if rng.IntN(2) == 0 {
				x[i] = sx[rng.IntN(len(sx))]
			} else {
				x[i] = -x[i]
			}
		}
		if rng.Float64() < special {
			if rng.IntN(3) == 0 {
				y[i] = math.Float64frombits(rng.Uint64())
			} else {
				y[i] = sy[rng.IntN(len(sy))]
			}
		}
	}
	return x, y
}

func samePow(got, want float64) bool {
	return math.Float64bits(got) == math.Float64bits(want) || (got != got && want != want)
}

// TestPowF64KernelsMatchPow64: every "pow" and "pow_scalar" float64 kernel
// candidate and PowF64 / PowScalarF64 give Pow64's bits (NaN for NaN) on
// powF64TestInputs with no, some and many special operands, at every
// length up to 40 (all tail masks), in place too.
func TestPowF64KernelsMatchPow64(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	bins := map[string]func(dst, x, y []float64){"PowF64": PowF64}
	for _, c := range candidatesFor(t, "pow", "float64") {
		bins[c.Name] = c.Impl.(binFn[float64])
	}
	scalars := map[string]func(dst, x []float64, y float64){"PowScalarF64": PowScalarF64}
	for _, c := range candidatesFor(t, "pow_scalar", "float64") {
		scalars[c.Name] = c.Impl.(powScalarFn[float64])
	}
	for _, special := range []float64{0, 0.002, 0.3} {
		x, y := powF64TestInputs(rng, 50000, special)
		want := make([]float64, len(x))
		for i := range x {
			want[i] = Pow64(x[i], y[i])
		}
		for name, f := range bins {
			got := make([]float64, len(x))
			f(got, x, y)
			for i := range got {
				if !samePow(got[i], want[i]) {
					t.Fatalf("%s (special %g): pow(%v, %v) = %v, Pow64 %v", name, special, x[i], y[i], got[i], want[i])
				}
			}
			for n := 0; n <= 40; n++ {
				off := rng.IntN(len(x) - n)
				dst := make([]float64, n+1)
				dst[n] = 42
				f(dst[:n], x[off:off+n], y[off:off+n])
				inPlace := append([]float64(nil), x[off:off+n]...)
				f(inPlace, inPlace, y[off:off+n])
				for i := range n {
					if !samePow(dst[i], want[off+i]) || !samePow(inPlace[i], want[off+i]) {
						t.Fatalf("%s n=%d: pow(%v, %v) = %v (in place %v), Pow64 %v", name, n, x[off+i], y[off+i], dst[i], inPlace[i], want[off+i])
					}
				}
				if dst[n] != 42 {
					t.Fatalf("%s n=%d wrote past dst", name, n)
				}
			}
		}
		for _, ys := range []float64{1.5, -0.5, 3, 2, 0.1, -7.25, 1e-300, 400, -700, 1e300, 0, math.Inf(1), math.NaN()} {
			for name, f := range scalars {
				for _, n := range []int{len(x), 37} {
					got := make([]float64, n)
					f(got, x[:n], ys)
					for i := range got {
						if w := Pow64(x[i], ys); !samePow(got[i], w) {
							t.Fatalf("%s (special %g) n=%d: pow(%v, %v) = %v, Pow64 %v", name, special, n, x[i], ys, got[i], w)
						}
					}
				}
			}
		}
	}
}
