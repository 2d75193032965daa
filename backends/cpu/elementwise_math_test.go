package cpu

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Tests of the elementwise math kernels: every runnable candidate of each
// op is checked against the pure-Go reference (the float64 math package
// function rounded once), on every length 0..257 and a few long ones
// (whole vectors, every tail, the masked AVX-512 tail), with special
// values, in place, and with sentinels after dst to catch stray stores.

// mathLens is every length 0..257 and some long ones.
var mathLens = func() []int {
	var l []int
	for n := 0; n <= 257; n++ {
		l = append(l, n)
	}
	return append(l, 1000, 4099)
}()

// specials32 and specials64 are the IEEE special inputs every kernel sees.
var specials64 = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, math.Inf(1), math.Inf(-1), math.NaN(),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1.fffffffffffffp-1023, 3e-310, math.MaxFloat64, -math.MaxFloat64,
	0.625, -0.625, math.Nextafter(0.625, 0), math.Nextafter(0.625, 1), 1e-8, -1e-8, 20, -20, 709.78, -709.78, 745, -745, 800, -800,
	math.Sqrt2, math.Nextafter(math.Sqrt2, 0), math.Nextafter(math.Sqrt2, 2), 1 - 1e-16, 1 + 2.3e-16}

var specials32 = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 2, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
	math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-126, 0x1.fffffcp-127, 3e-40, math.MaxFloat32, -math.MaxFloat32,
	0.625, -0.625, math.Nextafter32(0.625, 0), math.Nextafter32(0.625, 1), 1e-8, -1e-8, 9, -9, 20, -20, 88.7, -88.7, 104, -104, 200, -200,
	math.Sqrt2, math.Nextafter32(math.Sqrt2, 0), math.Nextafter32(math.Sqrt2, 2), 1 - 6e-8, 1 + 1.2e-7}

func specials[T float]() []T {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(specials32).([]T)
	}
	return any(specials64).([]T)
}

// ulpErr is the distance of got from want in units of want's last place;
// for subnormal want, in units of the smallest subnormal. NaN matches NaN
// only; infinities must be equal.
func ulpErr[T float](got, want T) float64 {
	if got == want || got != got && want != want {
		return 0
	}
	if got != got || want != want || math.IsInf(float64(got), 0) || math.IsInf(float64(want), 0) {
		return math.Inf(1)
	}
	var ulp float64
	switch any(want).(type) {
	case float32:
		e := max(math.Ilogb(float64(want)), -126)
		if want == 0 {
			e = -126
		}
		ulp = math.Ldexp(1, e-23)
	default:
		e := max(math.Ilogb(float64(want)), -1022)
		if want == 0 {
			e = -1022
		}
		ulp = math.Ldexp(1, e-52)
	}
	return math.Abs(float64(got)-float64(want)) / ulp
}

// sameBits reports whether a and b are the same value, the sign of zero
// included (any NaN matches any NaN).
func sameBits[T float](a, b T) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b))
}

func TestMaximumMinimum(t *testing.T) {
	testMinMax[float32](t, "float32")
	testMinMax[float64](t, "float64")
}

func testMinMax[T float](t *testing.T, dtype string) {
	rng := rand.New(rand.NewPCG(11, 12))
	sp := specials[T]()
	for _, op := range []string{"maximum", "minimum"} {
		ref := goMaximum[T]
		if op == "minimum" {
			ref = goMinimum[T]
		}
		for _, c := range candidatesFor(t, op, dtype) {
			f := c.Impl.(binFn[T])
			for _, n := range mathLens {
				a, b := randVec[T](rng, n, -3, 3), randVec[T](rng, n+1, -3, 3)
				for i := range a {
					switch rng.IntN(4) {
					case 0:
						a[i] = sp[rng.IntN(len(sp))]
					case 1:
						b[i] = sp[rng.IntN(len(sp))]
					case 2:
						b[i] = a[i]
					}
				}
				want := make([]T, n)
				ref(want, a, b)
				dst := make([]T, n+1)
				dst[n] = 42
				f(dst[:n], a, b)
				for i := range want {
					if !sameBits(dst[i], want[i]) {
						t.Fatalf("%s/%s/%s n=%d: %s(%v, %v) = %v, want %v", op, dtype, c.Name, n, op, a[i], b[i], dst[i], want[i])
					}
				}
				if dst[n] != 42 {
					t.Fatalf("%s/%s/%s n=%d wrote past dst", op, dtype, c.Name, n)
				}
				cp := append([]T(nil), a...)
				f(cp, cp, b) // in place
				for i := range want {
					if !sameBits(cp[i], want[i]) {
						t.Fatalf("%s/%s/%s n=%d in place: [%d] = %v, want %v", op, dtype, c.Name, n, i, cp[i], want[i])
					}
				}
			}
		}
	}
	// NaN if either is NaN, whichever side
	nan, one := T(math.NaN()), T(1)
	for _, f := range []func(dst, a, b []T){goMaximum[T], goMinimum[T]} {
		d := make([]T, 2)
		f(d, []T{nan, one}, []T{one, nan})
		if d[0] == d[0] || d[1] == d[1] {
			t.Fatalf("reference max/min with NaN = %v", d)
		}
	}
}

// mathCase describes one unary op: its reference, the inputs to draw and
// the allowed error of the vector candidates in ulp (f32, f64); subAbs is
// the absolute error allowed for subnormal results, in smallest-subnormal
// units.
type mathCase struct {
	op     string
	ref32  func(float64) float64
	draw   func(rng *rand.Rand, f64 bool) float64
	ulp    [2]float64
	subAbs float64
	// zeroBelow[f64]: the result is exactly 0 for x < zeroBelow (sigmoid:
	// PyTorch's 1/(1+exp(-x)) once exp overflows); 0 means no such range.
	zeroBelow [2]float64
}

var mathCases = []mathCase{
	{op: "sqrt", ref32: math.Sqrt, ulp: [2]float64{0, 0}, draw: func(rng *rand.Rand, f64 bool) float64 {
		if rng.IntN(8) == 0 {
			return -wideDraw(rng, f64)
		}
		return wideDraw(rng, f64)
	}},
	{op: "log", ref32: log64, ulp: [2]float64{1, 1}, draw: func(rng *rand.Rand, f64 bool) float64 {
		switch rng.IntN(4) {
		case 0:
			return 0.5 + 1.5*rng.Float64() // around 1, where log cancels
		case 1:
			return -wideDraw(rng, f64)
		}
		return wideDraw(rng, f64)
	}},
	{op: "tanh", ref32: math.Tanh, ulp: [2]float64{2, 2}, draw: func(rng *rand.Rand, f64 bool) float64 {
		switch rng.IntN(4) {
		case 0:
			return (rng.Float64()*2 - 1) * 0.7 // the polynomial branch and the switch
		case 1:
			return (rng.Float64()*2 - 1) * math.Ldexp(1, -rng.IntN(40))
		}
		return (rng.Float64()*2 - 1) * 25
	}},
	{op: "erf", ref32: math.Erf, ulp: [2]float64{1, 0}, subAbs: 1, draw: func(rng *rand.Rand, f64 bool) float64 {
		switch rng.IntN(4) {
		case 0:
			return (rng.Float64()*2 - 1) * 4.5 // the 16 Taylor pieces and the switch to 1
		case 1:
			return (rng.Float64()*2 - 1) * math.Ldexp(1, -rng.IntN(40))
		case 2:
			if rng.IntN(2) == 0 {
				return -wideDraw(rng, f64) // subnormals to huge
			}
			return wideDraw(rng, f64)
		}
		return (rng.Float64()*2 - 1) * 8
	}},
	{op: "sigmoid", ref32: sigmoid64, ulp: [2]float64{3, 4}, subAbs: 1, zeroBelow: [2]float64{-SigmoidZeroF32, -SigmoidZeroF64}, draw: func(rng *rand.Rand, f64 bool) float64 {
		lim := 110.0
		if f64 {
			lim = 760
		}
		if rng.IntN(3) == 0 {
			return (rng.Float64()*2 - 1) * 10
		}
		return (rng.Float64()*2 - 1) * lim
	}},
	{op: "sin", ref32: Sin64, ulp: [2]float64{1, 1}, draw: trigDraw},
	{op: "cos", ref32: Cos64, ulp: [2]float64{1, 1}, draw: trigDraw},
	{op: "tan", ref32: Tan64, ulp: [2]float64{1, 1}, draw: trigDraw},
}

// trigDraw draws sin/cos/tan arguments: small ones, ones near multiples
// of π/2 (where the reduction cancels), ones around the kernels' 2^29
// switch to the math package's Payne–Hanek reduction, huge ones and the
// whole range.
func trigDraw(rng *rand.Rand, f64 bool) float64 {
	s := float64(1 - 2*rng.IntN(2))
	switch rng.IntN(6) {
	case 0:
		return s * rng.Float64() * 10
	case 1:
		return s * (float64(rng.IntN(1<<20)) * math.Pi / 2) * (1 + (rng.Float64()-0.5)*1e-12)
	case 2:
		return s * math.Ldexp(1+rng.Float64(), 26+rng.IntN(6)) // 2^26 .. 2^32
	case 3:
		return s * math.Ldexp(1+rng.Float64(), rng.IntN(100)) // up to 1e30
	case 4:
		return s * wideDraw(rng, f64)
	}
	return s * rng.Float64() * 1000
}

// wideDraw is a positive value with a random exponent over (nearly) the
// whole range of the type, subnormals included.
func wideDraw(rng *rand.Rand, f64 bool) float64 {
	if f64 {
		return math.Ldexp(1+rng.Float64(), rng.IntN(2098)-1074)
	}
	return float64(float32(math.Ldexp(1+rng.Float64(), rng.IntN(278)-149)))
}

// mathSamples is the number of random inputs per op and dtype; the
// bounds of mathCases were measured with 1e7 (go test -run TestMathUnary
// -math.samples=10000000 -v prints the worst error of each candidate).
var mathSamples = flag.Int("math.samples", 60000, "random inputs per op and dtype in TestMathUnary")

func TestMathUnary(t *testing.T) {
	for _, mc := range mathCases {
		t.Run(mc.op+"/float32", func(t *testing.T) { testMathUnary[float32](t, mc, "float32", mc.ulp[0]) })
		t.Run(mc.op+"/float64", func(t *testing.T) { testMathUnary[float64](t, mc, "float64", mc.ulp[1]) })
	}
}

func testMathUnary[T float](t *testing.T, mc mathCase, dtype string, bound float64) {
	rng := rand.New(rand.NewPCG(13, 14))
	var z T
	_, isF32 := any(z).(float32)
	sp := specials[T]()
	// one long input: random draws then every special value
	var all []T
	for range *mathSamples {
		all = append(all, T(mc.draw(rng, !isF32)))
	}
	all = append(all, sp...)
	zeroBelow := mc.zeroBelow[0]
	if !isF32 {
		zeroBelow = mc.zeroBelow[1]
	}
	ref := func(x []T) []T {
		w := make([]T, len(x))
		for i, v := range x {
			if zeroBelow != 0 && float64(v) < zeroBelow {
				continue // exactly 0
			}
			w[i] = T(mc.ref32(float64(v)))
		}
		return w
	}
	wantAll := ref(all)
	for _, c := range candidatesFor(t, mc.op, dtype) {
		f := c.Impl.(unFn[T])
		inexact := 0
		check := func(ctx string, x, got, want []T) float64 {
			worst := 0.0
			for i := range want {
				var e float64
				w := want[i]
				if w != 0 && math.Abs(float64(w)) < smallestNormal[T]() && !math.IsInf(ulpErr(got[i], w), 1) {
					e = math.Abs(float64(got[i])-float64(w)) / smallestSub[T]()
					if e <= mc.subAbs {
						e = 0
					}
				} else {
					e = ulpErr(got[i], w)
				}
				if mc.op != "sigmoid" && w == 0 && got[i] == 0 && math.Signbit(float64(w)) != math.Signbit(float64(got[i])) {
					e = math.Inf(1) // signed zeros: tanh(-0) = -0, sqrt(-0) = -0
				}
				if e > bound {
					t.Fatalf("%s/%s/%s %s: %s(%v) = %v, want %v (%g ulp > %g)", mc.op, dtype, c.Name, ctx, mc.op, x[i], got[i], w, e, bound)
				}
				worst = max(worst, e)
				if e > 0 {
					inexact++
				}
			}
			return worst
		}
		got := make([]T, len(all))
		f(got, all)
		worst := check("long", all, got, wantAll)
		t.Logf("%s %s %s: worst %g ulp over %d inputs (%d not equal to the reference)", mc.op, dtype, c.Name, worst, len(all), inexact)
		// every length, from a random offset, with a sentinel after dst
		for _, n := range mathLens {
			off := rng.IntN(len(all) - n)
			x := all[off : off+n]
			dst := make([]T, n+1)
			dst[n] = 42
			f(dst[:n], x)
			check(fmt.Sprintf("n=%d", n), x, dst[:n], wantAll[off:off+n])
			if dst[n] != 42 {
				t.Fatalf("%s/%s/%s n=%d wrote past dst", mc.op, dtype, c.Name, n)
			}
			cp := append([]T(nil), x...)
			f(cp, cp)
			for i := range cp {
				if !sameBits(cp[i], dst[i]) {
					t.Fatalf("%s/%s/%s n=%d: in place [%d] = %v, out of place %v", mc.op, dtype, c.Name, n, i, cp[i], dst[i])
				}
			}
		}
		// results do not depend on an element's position (masked tails)
		for _, v := range sp {
			x := make([]T, 37)
			for i := range x {
				x[i] = v
			}
			d := make([]T, 37)
			f(d, x)
			for i := range d {
				if !sameBits(d[i], d[0]) {
					t.Fatalf("%s/%s/%s(%v): [%d] = %v, [0] = %v", mc.op, dtype, c.Name, v, i, d[i], d[0])
				}
			}
		}
	}
}

func smallestNormal[T float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-126
	}
	return 0x1p-1022
}

func smallestSub[T float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return math.SmallestNonzeroFloat32
	}
	return math.SmallestNonzeroFloat64
}

// TestMathSpecialValues pins the IEEE results of the exported functions.
func TestMathSpecialValues(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	x := []float64{0, nz, 1, -1, inf, -inf, nan}
	cases := []struct {
		name   string
		f32    func(dst, x []float32)
		f64    func(dst, x []float64)
		expect []float64
	}{
		{"log", LogF32, LogF64, []float64{-inf, -inf, 0, nan, inf, nan, nan}},
		{"sqrt", SqrtF32, SqrtF64, []float64{0, nz, 1, nan, inf, nan, nan}},
		{"tanh", TanhF32, TanhF64, []float64{0, nz, math.Tanh(1), -math.Tanh(1), 1, -1, nan}},
		{"sigmoid", SigmoidF32, SigmoidF64, []float64{0.5, 0.5, sigmoid64(1), sigmoid64(-1), 1, 0, nan}},
	}
	for _, c := range cases {
		d64 := make([]float64, len(x))
		c.f64(d64, x)
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
		}
		d32 := make([]float32, len(x))
		c.f32(d32, x32)
		for i, w := range c.expect {
			if !sameBits(d64[i], w) {
				t.Errorf("%sF64(%v) = %v, want %v", c.name, x[i], d64[i], w)
			}
			if !sameBits(d32[i], float32(w)) {
				t.Errorf("%sF32(%v) = %v, want %v", c.name, x[i], d32[i], float32(w))
			}
		}
	}
	d := make([]float32, 2)
	MaximumF32(d, []float32{float32(nan), 1}, []float32{1, float32(nan)})
	if d[0] == d[0] || d[1] == d[1] {
		t.Errorf("MaximumF32 with NaN = %v, want NaN, NaN", d)
	}
	MinimumF32(d, []float32{-1, 2}, []float32{3, float32(-inf)})
	if d[0] != -1 || !math.IsInf(float64(d[1]), -1) {
		t.Errorf("MinimumF32 = %v, want [-1 -Inf]", d)
	}
}

func TestMathPanicsOnShortInput(t *testing.T) {
	for name, f := range map[string]func(){
		"LogF32":     func() { LogF32(make([]float32, 3), make([]float32, 2)) },
		"MaximumF64": func() { MaximumF64(make([]float64, 3), make([]float64, 3), make([]float64, 2)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with a short input did not panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkMath times each math kernel over 1M contiguous elements
// (one goroutine); compare candidates with TSR_CPU=generic/avx2/avx512.
func BenchmarkMath(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 1))
	x32, y32 := randVec[float32](rng, n, 0.01, 4), randVec[float32](rng, n, 0.01, 4)
	x64, y64 := randVec[float64](rng, n, 0.01, 4), randVec[float64](rng, n, 0.01, 4)
	d32, d64 := make([]float32, n), make([]float64, n)
	for _, c := range []struct {
		name string
		f32  func()
		f64  func()
	}{
		{"tanh", func() { TanhF32(d32, x32) }, func() { TanhF64(d64, x64) }},
		{"sigmoid", func() { SigmoidF32(d32, x32) }, func() { SigmoidF64(d64, x64) }},
		{"log", func() { LogF32(d32, x32) }, func() { LogF64(d64, x64) }},
		{"sqrt", func() { SqrtF32(d32, x32) }, func() { SqrtF64(d64, x64) }},
		{"exp", func() { ExpF32(d32, x32) }, func() { ExpF64(d64, x64) }},
		{"maximum", func() { MaximumF32(d32, x32, y32) }, func() { MaximumF64(d64, x64, y64) }},
	} {
		b.Run(c.name+"F32", func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				c.f32()
			}
		})
		b.Run(c.name+"F64", func(b *testing.B) {
			b.SetBytes(16 * n)
			for b.Loop() {
				c.f64()
			}
		})
	}
}

// TestGeluF32Kernel: every gelu candidate is PyTorch's float32 formula
// around its tier's erf: bit-identical to GeluScalarF32 wherever that erf
// equals the correctly rounded one (and then, via the erf bound of
// TestMathUnary, within the formula's own sensitivity otherwise), over
// random inputs, the left tail where 1 + erf cancels, specials, every
// length 1..257 and in place.
func TestGeluF32Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var x []float32
	for range *mathSamples {
		var v float64
		switch rng.IntN(4) {
		case 0:
			v = (rng.Float64()*2 - 1) * 8
		case 1:
			v = -6 + 3*rng.Float64() // 1 + erf cancels
		case 2:
			v = (rng.Float64()*2 - 1) * math.Ldexp(1, -rng.IntN(130))
		default:
			v = wideDraw(rng, false)
			if rng.IntN(2) == 0 {
				v = -v
			}
		}
		x = append(x, float32(v))
	}
	x = append(x, specials[float32]()...)
	erfs := candidatesFor(t, "erf", "float32")
	for _, c := range candidatesFor(t, "gelu", "float32") {
		f := c.Impl.(unFn[float32])
		var erf unFn[float32]
		for _, e := range erfs {
			if e.Name == c.Name {
				erf = e.Impl.(unFn[float32])
			}
		}
		if erf == nil {
			t.Fatalf("gelu candidate %s has no erf of its tier", c.Name)
		}
		a := make([]float32, len(x))
		for i, v := range x {
			a[i] = float32(v * float32(math.Sqrt2/2))
		}
		ea := make([]float32, len(x))
		erf(ea, a)
		got := make([]float32, len(x))
		f(got, x)
		diff := 0
		for i, v := range x {
			w := GeluScalarF32(v)
			if !sameBits(ea[i], float32(math.Erf(float64(a[i])))) {
				diff++
				w = float32(float32(v*0.5) * float32(1+ea[i])) // the formula around the tier's erf
			}
			if !sameBits(got[i], w) {
				t.Fatalf("gelu/%s(%v) = %v, want %v", c.Name, v, got[i], w)
			}
		}
		t.Logf("gelu %s: %d of %d inputs with an erf not correctly rounded", c.Name, diff, len(x))
		for n := 1; n <= 257; n++ {
			off := rng.IntN(len(x) - n)
			dst := make([]float32, n+1)
			dst[n] = 42
			f(dst[:n], x[off:off+n])
			for i := range n {
				if !sameBits(dst[i], got[off+i]) {
					t.Fatalf("gelu/%s n=%d [%d] = %v, want %v", c.Name, n, i, dst[i], got[off+i])
				}
			}
			if dst[n] != 42 {
				t.Fatalf("gelu/%s n=%d wrote past dst", c.Name, n)
			}
			cp := append([]float32(nil), x[off:off+n]...)
			f(cp, cp)
			for i := range n {
				if !sameBits(cp[i], dst[i]) {
					t.Fatalf("gelu/%s n=%d in place [%d] = %v, want %v", c.Name, n, i, cp[i], dst[i])
				}
			}
		}
	}
}
