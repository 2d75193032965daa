package cpu

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// Tests of Pow64 and the pow kernels against a 256-bit math/big reference.

const bigPrec = 256

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

var bigLn2 = func() *big.Float { return bigLogNear1(bigF(2)) }()

// bigLogNear1 is log(a) = 2 atanh((a-1)/(a+1)) by its series, for a in [0.5, 2].
func bigLogNear1(a *big.Float) *big.Float {
	t := new(big.Float).SetPrec(bigPrec).Sub(a, bigF(1))
	t.Quo(t, new(big.Float).SetPrec(bigPrec).Add(a, bigF(1)))
	sum := new(big.Float).SetPrec(bigPrec).Set(t)
	t2 := new(big.Float).SetPrec(bigPrec).Mul(t, t)
	pw := new(big.Float).SetPrec(bigPrec).Set(t)
	for k := int64(3); k < 400; k += 2 {
		pw.Mul(pw, t2)
		term := new(big.Float).SetPrec(bigPrec).Quo(pw, bigF(float64(k)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-4 {
			break
		}
	}
	return sum.Mul(sum, bigF(2))
}

// bigPow returns x**y for x > 0 to about 240 bits: exp(y log x) with
// log x = e ln2 + log(m) and exp(v) = 2^n exp(v - n ln2).
func bigPow(x, y float64) *big.Float {
	m, e := math.Frexp(x) // m in [0.5, 1)
	l := bigLogNear1(bigF(m))
	l.Add(l, new(big.Float).SetPrec(bigPrec).Mul(bigLn2, bigF(float64(e))))
	v := l.Mul(l, bigF(y))
	vf, _ := v.Float64()
	n := math.Round(vf / math.Ln2)
	r := new(big.Float).SetPrec(bigPrec).Sub(v, new(big.Float).SetPrec(bigPrec).Mul(bigLn2, bigF(n)))
	sum, term := bigF(1), bigF(1)
	for k := 1; k < 200; k++ {
		term.Mul(term, r)
		term.Quo(term, bigF(float64(k)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -bigPrec-4 {
			break
		}
	}
	return sum.SetMantExp(sum, int(n))
}

// ulpErrBig returns |got - exact| in units of the last place of exact's
// float64 rounding (subnormal spacing below the normal range).
func ulpErrBig(got float64, exact *big.Float) float64 {
	w, _ := exact.Float64()
	if math.IsInf(w, 0) {
		if got == w {
			return 0
		}
		return math.Inf(1)
	}
	ulp := math.Nextafter(math.Abs(w), math.Inf(1)) - math.Abs(w)
	if math.IsInf(ulp, 0) {
		ulp = math.Abs(w) - math.Nextafter(math.Abs(w), 0)
	}
	d := new(big.Float).SetPrec(bigPrec).Sub(bigF(got), exact)
	df, _ := d.Float64()
	return math.Abs(df) / ulp
}

// powCases returns (x, y) pairs over the ranges that matter: random
// positive x of any exponent with y keeping the result finite, x near 1
// with large y, results near overflow and in the subnormal range, small
// integer and half-integer exponents, and subnormal x.
func powCases(n int, seed int64) [][2]float64 {
	rng := rand.New(rand.NewSource(seed))
	var c [][2]float64
	for i := 0; i < n; i++ {
		var x, y float64
		switch i % 7 {
		case 0: // any positive normal x, y with |y log x| < 700
			x = math.Float64frombits(0x0010000000000000 + rng.Uint64()%(0x7fe0000000000000))
			y = (rng.Float64()*2 - 1) * 700 / math.Abs(math.Log(x))
		case 1: // x near 1, large y
			x = 1 + (rng.Float64()*2-1)*math.Pow(2, -float64(1+rng.Intn(50)))
			y = (rng.Float64()*2 - 1) * 600 / math.Abs(math.Log(x))
		case 2: // results near overflow / in the subnormal range
			x = math.Exp((rng.Float64()*2 - 1) * 20)
			t := 705 + rng.Float64()*40
			if rng.Intn(2) == 0 {
				t = -t
			}
			y = t / math.Log(x)
		case 3: // typical tensor values with common exponents
			x = rng.ExpFloat64() * 3
			y = []float64{1.5, -1.5, 0.5, 2.5, 1.0 / 3, 3, 7, -2, 10, 0.1}[rng.Intn(10)]
		case 4: // random y in [-20, 20], x in [0, 100)
			x = rng.Float64() * 100
			y = rng.Float64()*40 - 20
		case 5: // subnormal x
			x = math.Float64frombits(1 + rng.Uint64()%(1<<52-1))
			y = (rng.Float64()*2 - 1) * 700 / math.Abs(math.Log(x))
		case 6: // integers raised to integers (exact results)
			x = float64(1 + rng.Intn(100))
			y = float64(rng.Intn(20))
		}
		if x > 0 && !math.IsInf(x, 0) && y == y && !math.IsInf(y, 0) {
			c = append(c, [2]float64{x, y})
		}
	}
	return c
}

func TestPow64Accuracy(t *testing.T) {
	n := 14000
	if testing.Short() {
		n = 2000
	}
	worst, worstSub := 0.0, 0.0
	for _, c := range powCases(n, 1) {
		x, y := c[0], c[1]
		got := Pow64(x, y)
		ref := bigPow(x, y)
		e := ulpErrBig(got, ref)
		w, _ := ref.Float64()
		limit := 0.53
		if math.Abs(w) < 0x1p-1022 {
			limit = 1 // a subnormal result rounds twice
		}
		if !(e <= limit) {
			t.Fatalf("Pow64(%v, %v) = %v, want %v (%.3f ulp)", x, y, got, w, e)
		}
		if limit < 1 {
			worst = max(worst, e)
		} else {
			worstSub = max(worstSub, e)
		}
		// a negative base with an integer exponent
		if y == math.Trunc(y) && math.Abs(y) < 1<<53 {
			ng := Pow64(-x, y)
			want := got
			if int64(y)%2 != 0 {
				want = -got
			}
			if math.Float64bits(ng) != math.Float64bits(want) {
				t.Fatalf("Pow64(%v, %v) = %v, want %v", -x, y, ng, want)
			}
		}
	}
	t.Logf("worst %.3f ulp (normal results), %.3f ulp (subnormal)", worst, worstSub)
}

func TestPow64Specials(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, -0.5, 3, -3, 1.5, -1.5, inf, -inf, nan,
		5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 0x1p-1022, 1 + 0x1p-52, 1 - 0x1p-53, 1e300, 1e-300, 0x1p53, 0x1p53 + 2, 0x1p60}
	same := func(a, b float64) bool {
		return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
	}
	for _, x := range vals {
		for _, y := range vals {
			got := Pow64(x, y)
			want := math.Pow(x, y)
			if x > 0 && x != 1 && !math.IsInf(x, 0) && y != 0 && !math.IsInf(y, 0) && y == y && math.Abs(y*math.Log(x)) < 760 {
				// an ordinary power: compare with the exact value (beyond, it
				// is 0 or Inf, as math.Pow's)
				if e := ulpErrBig(got, bigPow(x, y)); !(e <= 1) {
					t.Errorf("Pow64(%v, %v) = %v (%.3f ulp)", x, y, got, e)
				}
				continue
			}
			if x < 0 && !math.IsInf(x, 0) && y == math.Trunc(y) && !math.IsInf(y, 0) {
				a := Pow64(-x, y)
				if math.Abs(y) < 1<<53 && int64(y)%2 != 0 {
					a = -a
				}
				want = a
			}
			if !same(got, want) {
				t.Errorf("Pow64(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
	// exact cases
	for _, c := range [][3]float64{{2, 10, 1024}, {4, 0.5, 2}, {9, 1.5, 27}, {10, 15, 1e15}, {2, -1074, 5e-324}, {2, 1023, 0x1p1023}, {2, 1024, inf},
		{-2, 3, -8}, {-2, -1, -0.5}, {-8, 1.0 / 3, nan}, {0.5, 1075, 0}, {-0.5, 1075, math.Copysign(0, -1)}, {-2, 1025, -inf}} {
		if got := Pow64(c[0], c[1]); !same(got, c[2]) {
			t.Errorf("Pow64(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
}

func BenchmarkPow64(b *testing.B) {
	x := make([]float64, 1024)
	y := make([]float64, 1024)
	rng := rand.New(rand.NewSource(1))
	for i := range x {
		x[i] = rng.ExpFloat64()
		y[i] = rng.NormFloat64()
	}
	b.Run("Pow64", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s += Pow64(x[i%1024], y[i%1024])
		}
		_ = s
	})
	b.Run("math.Pow", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s += math.Pow(x[i%1024], y[i%1024])
		}
		_ = s
	})
}

func TestPow32Accuracy(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	n := 15000
	if testing.Short() {
		n = 3000
	}
	worst := 0.0
	for i := 0; i < n; i++ {
		var x, y float32
		switch i % 5 {
		case 0: // any positive float32, y keeping the result in range
			x = math.Float32frombits(0x00800000 + uint32(rng.Int63n(0x7f000000)))
			y = float32((rng.Float64()*2 - 1) * 80 / math.Abs(math.Log(float64(x))))
		case 1: // x near 1, huge y
			x = 1 + float32((rng.Float64()*2-1)*math.Pow(2, -float64(1+rng.Intn(23))))
			y = float32((rng.Float64()*2 - 1) * 80 / math.Abs(math.Log(float64(x))))
		case 2: // tensor-like values
			x = float32(math.Abs(rng.NormFloat64()))
			y = float32(rng.NormFloat64() * 3)
		case 3: // near overflow / underflow, subnormal results (fallback)
			x = float32(math.Exp((rng.Float64()*2 - 1) * 10))
			y = float32((80 + rng.Float64()*25) / math.Log(float64(x)) * float64(1-2*rng.Intn(2)))
		case 4: // negative bases, integer exponents (fallback)
			x = -float32(rng.Float64() * 10)
			y = float32(rng.Intn(21) - 10)
		}
		if x == 1 || y != y || math.IsInf(float64(y), 0) || y == 0 || math.IsInf(float64(x), 0) {
			continue
		}
		got := Pow32(x, y)
		var ref *big.Float
		if x > 0 {
			ref = bigPow(float64(x), float64(y))
		} else {
			ref = bigPow(float64(-x), float64(y))
			if int64(y)%2 != 0 {
				ref.Neg(ref)
			}
		}
		w64, _ := ref.Float64()
		w, _ := ref.Float32()
		if math.Abs(w64) < 0x1p-126 || math.IsInf(float64(w), 0) {
			// subnormal or overflowing: float32(Pow64), by design
			if want := float32(Pow64(float64(x), float64(y))); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("Pow32(%v, %v) = %v, want float32(Pow64) %v", x, y, got, want)
			}
			continue
		}
		ulp := float64(math.Nextafter32(float32(math.Abs(float64(w))), float32(math.Inf(1))) - float32(math.Abs(float64(w))))
		d, _ := new(big.Float).SetPrec(bigPrec).Sub(bigF(float64(got)), ref).Float64()
		e := math.Abs(d) / ulp
		if !(e < 1) {
			t.Fatalf("Pow32(%v, %v) = %v, want %v (%.3f ulp)", x, y, got, w, e)
		}
		worst = max(worst, e)
	}
	t.Logf("worst %.4f ulp", worst)
	// special cases are float32(Pow64)'s
	sp := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 0.5, 1.5, -1.5, 3, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-45, -1e-45, math.MaxFloat32, 1e-38}
	for _, x := range sp {
		for _, y := range sp {
			got, want := Pow32(x, y), float32(Pow64(float64(x), float64(y)))
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Errorf("Pow32(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
}

func BenchmarkPow32(b *testing.B) {
	x := make([]float32, 1024)
	y := make([]float32, 1024)
	rng := rand.New(rand.NewSource(1))
	for i := range x {
		x[i] = float32(rng.ExpFloat64())
		y[i] = float32(rng.NormFloat64())
	}
	d := make([]float32, 1024)
	b.Run("PowF32", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			PowF32(d, x, y)
		}
	})
}
