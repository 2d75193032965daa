package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tsrlang/tsr/backends"
)

var testLens = []int{0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 100, 1000, 4097, 10000}

// candidatesFor returns every runnable candidate of op/dtype.
func candidatesFor(t *testing.T, op, dtype string) []backends.Candidate {
	var out []backends.Candidate
	for _, c := range backends.Candidates(backends.Key{Op: op, DType: dtype, Device: "cpu"}) {
		if backends.Supported(c.Requires) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no candidate for %s/%s", op, dtype)
	}
	return out
}

func randVec[T float](rng *rand.Rand, n int, lo, hi float64) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = T(lo + (hi-lo)*rng.Float64())
	}
	return v
}

func ulpDiff32(a, b float32) float64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	if a != a || b != b || math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	ia, ib := int64(math.Float32bits(a)), int64(math.Float32bits(b))
	if ia < 0x80000000 != (ib < 0x80000000) {
		return math.Abs(float64(a-b)) / math.SmallestNonzeroFloat32
	}
	return math.Abs(float64(ia - ib))
}

func ulpDiff64(a, b float64) float64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	if a != a || b != b || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	ia, ib := math.Float64bits(a), math.Float64bits(b)
	if (ia >> 63) != (ib >> 63) {
		return math.Abs(a-b) / math.SmallestNonzeroFloat64
	}
	if ia > ib {
		return float64(ia - ib)
	}
	return float64(ib - ia)
}

func testBinary[T float](t *testing.T, dtype string) {
	ops := map[string]func(a, b T) T{
		"add": func(a, b T) T { return a + b }, "sub": func(a, b T) T { return a - b },
		"mul": func(a, b T) T { return a * b }, "div": func(a, b T) T { return a / b },
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for op, ref := range ops {
		for _, c := range candidatesFor(t, op, dtype) {
			f := c.Impl.(binFn[T])
			for _, n := range testLens {
				a, b := randVec[T](rng, n, -3, 3), randVec[T](rng, n+2, -3, 3)
				if n > 5 {
					b[3] = 0
					a[4] = T(math.NaN())
				}
				dst := make([]T, n)
				f(dst, a, b)
				for i := range dst {
					w := ref(a[i], b[i])
					if dst[i] != w && !(w != w && dst[i] != dst[i]) {
						t.Fatalf("%s/%s/%s n=%d: [%d] = %v, want %v", op, dtype, c.Name, n, i, dst[i], w)
					}
				}
				// in place
				cp := append([]T(nil), a...)
				f(cp[:n], cp, b)
				for i := 0; i < n; i++ {
					if cp[i] != dst[i] && !(cp[i] != cp[i] && dst[i] != dst[i]) {
						t.Fatalf("%s/%s/%s in-place mismatch at %d", op, dtype, c.Name, i)
					}
				}
			}
		}
	}
	for op, ref := range map[string]func(a, s T) T{"add_scalar": func(a, s T) T { return a + s }, "mul_scalar": func(a, s T) T { return a * s }} {
		for _, c := range candidatesFor(t, op, dtype) {
			f := c.Impl.(scalarFn[T])
			for _, n := range testLens {
				a := randVec[T](rng, n, -3, 3)
				dst := make([]T, n)
				f(dst, a, 1.25)
				for i := range dst {
					if dst[i] != ref(a[i], 1.25) {
						t.Fatalf("%s/%s/%s n=%d: [%d] = %v, want %v", op, dtype, c.Name, n, i, dst[i], ref(a[i], 1.25))
					}
				}
			}
		}
	}
	for _, c := range candidatesFor(t, "axpy", dtype) {
		f := c.Impl.(axpyFn[T])
		for _, n := range testLens {
			x, d := randVec[T](rng, n, -3, 3), randVec[T](rng, n, -3, 3)
			orig := append([]T(nil), d...)
			f(d, -0.5, x)
			for i := range d {
				w := float64(orig[i]) - 0.5*float64(x[i])
				if math.Abs(float64(d[i])-w) > 4*eps[T]()*(math.Abs(float64(orig[i]))+math.Abs(0.5*float64(x[i]))) {
					t.Fatalf("axpy/%s/%s n=%d: [%d] = %v, want %v", dtype, c.Name, n, i, d[i], w)
				}
			}
		}
	}
}

func eps[T float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}

func TestBinaryF32(t *testing.T) { testBinary[float32](t, "float32") }
func TestBinaryF64(t *testing.T) { testBinary[float64](t, "float64") }

func testReductions[T float](t *testing.T, dtype string) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, c := range candidatesFor(t, "sum", dtype) {
		f := c.Impl.(reduceFn[T])
		for _, n := range testLens {
			x := randVec[T](rng, n, -1, 2)
			var ref, comp, mag float64
			for _, v := range x {
				ref, comp = twoSumAcc(ref, comp, float64(v))
				mag += math.Abs(float64(v))
			}
			ref += comp
			if got := float64(f(x)); math.Abs(got-ref) > 4*eps[T]()*mag+1e-300 {
				t.Fatalf("sum/%s/%s n=%d: %v, want %v", dtype, c.Name, n, got, ref)
			}
		}
	}
	for _, c := range candidatesFor(t, "dot", dtype) {
		f := c.Impl.(dotFn[T])
		for _, n := range testLens {
			x, y := randVec[T](rng, n, -1, 2), randVec[T](rng, n+1, -1, 2)
			var ref, comp, mag float64
			for i := range x {
				ref, comp = twoSumAcc(ref, comp, float64(x[i])*float64(y[i]))
				mag += math.Abs(float64(x[i]) * float64(y[i]))
			}
			ref += comp
			if got := float64(f(x, y)); math.Abs(got-ref) > 4*eps[T]()*mag+1e-300 {
				t.Fatalf("dot/%s/%s n=%d: %v, want %v", dtype, c.Name, n, got, ref)
			}
		}
	}
	for _, c := range candidatesFor(t, "max", dtype) {
		f := c.Impl.(reduceFn[T])
		if got := f(nil); !math.IsInf(float64(got), -1) {
			t.Fatalf("max/%s/%s of empty = %v, want -Inf", dtype, c.Name, got)
		}
		for _, n := range testLens[1:] {
			x := randVec[T](rng, n, -5, 5)
			pos := rng.IntN(n)
			x[pos] = 7
			if got := f(x); got != 7 {
				t.Fatalf("max/%s/%s n=%d: %v, want 7", dtype, c.Name, n, got)
			}
			for i := 0; i < n; i += 3 { // masked scores: -Inf mixed in
				if i != pos {
					x[i] = T(math.Inf(-1))
				}
			}
			if got := f(x); got != 7 {
				t.Fatalf("max/%s/%s n=%d with -Inf elements: %v, want 7", dtype, c.Name, n, got)
			}
			x[rng.IntN(n)] = T(math.Inf(1))
			if got := f(x); !math.IsInf(float64(got), 1) {
				t.Fatalf("max/%s/%s n=%d with +Inf: %v", dtype, c.Name, n, got)
			}
			x[rng.IntN(n)] = T(math.NaN())
			if got := f(x); got == got {
				t.Fatalf("max/%s/%s n=%d with NaN: %v, want NaN", dtype, c.Name, n, got)
			}
			for i := range x {
				x[i] = -T(i) - 1
			}
			if got := f(x); got != -1 {
				t.Fatalf("max/%s/%s n=%d all negative: %v, want -1", dtype, c.Name, n, got)
			}
			for i := range x {
				x[i] = T(math.Inf(-1))
			}
			if got := f(x); !math.IsInf(float64(got), -1) {
				t.Fatalf("max/%s/%s n=%d all -Inf: %v, want -Inf", dtype, c.Name, n, got)
			}
		}
	}
}

func TestReductionsF32(t *testing.T) { testReductions[float32](t, "float32") }
func TestReductionsF64(t *testing.T) { testReductions[float64](t, "float64") }

// TestSumOnesAccurate: 1e7 ones and 1e7 copies of 0.1 sum to within 1e-6
// relative of the float64 sum.
func TestSumOnesAccurate(t *testing.T) {
	x := make([]float32, 10_000_000)
	for i := range x {
		x[i] = 1
	}
	for _, c := range candidatesFor(t, "sum", "float32") {
		if got := c.Impl.(reduceFn[float32])(x); got != 1e7 {
			t.Fatalf("%s: sum of 1e7 ones = %v", c.Name, got)
		}
	}
	for i := range x {
		x[i] = 0.1
	}
	want := 1e7 * float64(float32(0.1))
	for _, c := range candidatesFor(t, "sum", "float32") {
		got := float64(c.Impl.(reduceFn[float32])(x))
		if math.Abs(got-want) > 1e-6*want {
			t.Fatalf("%s: sum of 1e7 × 0.1f = %v, want %v", c.Name, got, want)
		}
	}
}

func TestExpF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := randVec[float32](rng, 20000, -105, 90)
	x = append(x, randVec[float32](rng, 2000, -1, 1)...)
	x = append(x, 0, -0, 1, -1, 88.72, 88.73, -87.3, -103.9, -104, -150, 200,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-30, -1e-30)
	for _, c := range candidatesFor(t, "exp_shift_sum", "float32") {
		f := c.Impl.(expShiftFn[float32])
		dst := make([]float32, len(x))
		f(dst, x, 0)
		worst := 0.0
		for i, v := range x {
			w := float32(math.Exp(float64(v)))
			d := ulpDiff32(dst[i], w)
			if w != 0 && math.Abs(float64(w)) < 0x1p-126 { // subnormal results: absolute
				d = math.Abs(float64(dst[i]-w)) / math.SmallestNonzeroFloat32
			}
			if d > 2 {
				t.Fatalf("exp/%s(%v) = %v, want %v (%g ulp)", c.Name, v, dst[i], w, d)
			}
			worst = max(worst, d)
		}
		t.Logf("exp float32 %s: worst %g ulp", c.Name, worst)
	}
}

func TestExpF64(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	x := randVec[float64](rng, 20000, -746, 710)
	x = append(x, randVec[float64](rng, 2000, -1, 1)...)
	x = append(x, 0, 1, -1, 709.78, 709.79, -708.4, -745.1, -746, 800, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300)
	for _, c := range candidatesFor(t, "exp_shift_sum", "float64") {
		f := c.Impl.(expShiftFn[float64])
		dst := make([]float64, len(x))
		f(dst, x, 0)
		worst := 0.0
		for i, v := range x {
			w := math.Exp(v)
			if v > 700 && v < 710 {
				// Go's amd64 math.Exp overflows early; scale instead (≤1 ulp extra).
				w = math.Exp(v-700) * math.Exp(700)
			}
			d := ulpDiff64(dst[i], w)
			if w != 0 && w < 0x1p-1022 {
				d = math.Abs(dst[i]-w) / math.SmallestNonzeroFloat64
			}
			if d > 2 {
				t.Fatalf("exp/%s(%v) = %v, want %v (%g ulp)", c.Name, v, dst[i], w, d)
			}
			worst = max(worst, d)
		}
		t.Logf("exp float64 %s: worst %g ulp", c.Name, worst)
	}
}

func TestExpShiftSum(t *testing.T) {
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}
	for _, c := range candidatesFor(t, "exp_shift_sum", "float32") {
		dst := make([]float32, len(x))
		s := c.Impl.(expShiftFn[float32])(dst, x, 18)
		var want float64
		for _, v := range x {
			want += math.Exp(float64(v) - 18)
		}
		if math.Abs(float64(s)-want) > 1e-6*want {
			t.Fatalf("%s: sum %v, want %v", c.Name, s, want)
		}
	}
}

func TestTanh(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x := randVec[float64](rng, 5000, -12, 12)
	x = append(x, randVec[float64](rng, 2000, -0.7, 0.7)...)
	x = append(x, 0, 1e-8, -1e-8, 0.625, -0.625, 20, -20, math.Inf(1), math.Inf(-1), math.NaN())
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	d32 := make([]float32, len(x))
	TanhF32(d32, x32)
	d64 := make([]float64, len(x))
	TanhF64(d64, x)
	for i := range x {
		w32 := float32(math.Tanh(float64(x32[i])))
		if d := ulpDiff32(d32[i], w32); d > 2 && math.Abs(float64(d32[i]-w32)) > 1e-7*math.Abs(float64(w32))*2 {
			t.Fatalf("TanhF32(%v) = %v, want %v (%g ulp)", x32[i], d32[i], w32, d)
		}
		if d := ulpDiff64(d64[i], math.Tanh(x[i])); d > 4 {
			t.Fatalf("TanhF64(%v) = %v, want %v (%g ulp)", x[i], d64[i], math.Tanh(x[i]), d)
		}
	}
}

func TestSoftmaxRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, cols := range []int{1, 3, 16, 17, 100, 2000} {
		rows := 3
		x := randVec[float64](rng, rows*cols, -20, 20)
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
			x[i] = float64(x32[i])
		}
		sm, lsm, lse := make([]float64, len(x)), make([]float64, len(x)), make([]float64, rows)
		SoftmaxRowsF64(sm, x, rows, cols)
		LogSoftmaxRowsF64(lsm, x, rows, cols)
		LogSumExpRowsF64(lse, x, rows, cols)
		sm32, lsm32, lse32 := make([]float32, len(x)), make([]float32, len(x)), make([]float32, rows)
		SoftmaxRowsF32(sm32, x32, rows, cols)
		LogSoftmaxRowsF32(lsm32, x32, rows, cols)
		LogSumExpRowsF32(lse32, x32, rows, cols)
		for r := 0; r < rows; r++ {
			xr := x[r*cols : (r+1)*cols]
			m := math.Inf(-1)
			for _, v := range xr {
				m = math.Max(m, v)
			}
			var s float64
			for _, v := range xr {
				s += math.Exp(v - m)
			}
			wlse := m + math.Log(s)
			if math.Abs(lse[r]-wlse) > 1e-14*math.Abs(wlse)+1e-14 || math.Abs(float64(lse32[r])-wlse) > 1e-6*math.Abs(wlse)+1e-6 {
				t.Fatalf("cols=%d lse row %d: %v / %v, want %v", cols, r, lse[r], lse32[r], wlse)
			}
			for c, v := range xr {
				i := r*cols + c
				ws := math.Exp(v-m) / s
				wl := v - wlse
				if math.Abs(sm[i]-ws) > 1e-14*ws+1e-300 || math.Abs(float64(sm32[i])-ws) > 4e-7*(1+math.Abs(v-m))*ws+1e-38 {
					t.Fatalf("cols=%d softmax[%d]: %v / %v, want %v", cols, i, sm[i], sm32[i], ws)
				}
				if math.Abs(lsm[i]-wl) > 1e-13*(1+math.Abs(wl)) || math.Abs(float64(lsm32[i])-wl) > 2e-6*(1+math.Abs(wl)) {
					t.Fatalf("cols=%d log_softmax[%d]: %v / %v, want %v", cols, i, lsm[i], lsm32[i], wl)
				}
			}
		}
	}
	// Special rows: all -Inf, containing +Inf, containing NaN; in place.
	ninf, pinf, nan := math.Inf(-1), math.Inf(1), math.NaN()
	x := []float64{ninf, ninf, 1, pinf, 1, nan}
	lse := make([]float64, 3)
	LogSumExpRowsF64(lse, x, 3, 2)
	if !math.IsInf(lse[0], -1) || !math.IsInf(lse[1], 1) || !math.IsNaN(lse[2]) {
		t.Fatalf("lse special rows = %v", lse)
	}
	y := []float64{1, 2, 3}
	SoftmaxRowsF64(y, y, 1, 3)
	if math.Abs(y[2]-0.6652409557748219) > 1e-15 {
		t.Fatalf("in-place softmax = %v", y)
	}
}

func TestSumAndDotPropagateInfinity(t *testing.T) {
	inf := float32(math.Inf(1))
	x := make([]float32, 5000)
	for i := range x {
		x[i] = 1
	}
	x[123] = inf
	if got := SumF32(x); !math.IsInf(float64(got), 1) {
		t.Fatalf("SumF32 with +Inf = %v", got)
	}
	if got := DotF32(x, x); !math.IsInf(float64(got), 1) {
		t.Fatalf("DotF32 with +Inf = %v", got)
	}
	x[77] = -inf
	if got := SumF32(x); !math.IsNaN(float64(got)) {
		t.Fatalf("SumF32 with +Inf and -Inf = %v, want NaN", got)
	}
	y := []float64{1, math.Inf(-1), 2}
	if got := SumF64(y); !math.IsInf(got, -1) {
		t.Fatalf("SumF64 with -Inf = %v", got)
	}
	if got := DotF64(y, []float64{1, 1, 1}); !math.IsInf(got, -1) {
		t.Fatalf("DotF64 with -Inf = %v", got)
	}
}

// Every exp_shift_sum candidate computes each element the same whatever
// its position (a tail shorter than one vector included) — bit-identical
// to ExpSleefF32/F64 — and its sum adds the tail in order.
func TestExpShiftSumTailPositionIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for n := 1; n <= 40; n++ {
		x32 := randVec[float32](rng, n, -110, 95)
		for _, c := range candidatesFor(t, "exp_shift_sum", "float32") {
			f := c.Impl.(expShiftFn[float32])
			dst := make([]float32, n)
			f(dst, x32, 0.5)
			for i, v := range x32 {
				if w := ExpSleefF32(v - 0.5); math.Float32bits(dst[i]) != math.Float32bits(w) {
					t.Fatalf("%s n=%d [%d]: exp(%v - 0.5) = %v, SLEEF %v", c.Name, n, i, v, dst[i], w)
				}
			}
		}
		x64 := randVec[float64](rng, n, -750, 705)
		for _, c := range candidatesFor(t, "exp_shift_sum", "float64") {
			f := c.Impl.(expShiftFn[float64])
			dst := make([]float64, n)
			s := f(dst, x64, 0)
			var want float64
			for i, v := range x64 {
				if w := ExpSleefF64(v); math.Float64bits(dst[i]) != math.Float64bits(w) {
					t.Fatalf("%s n=%d [%d]: exp(%v) = %v, SLEEF %v", c.Name, n, i, v, dst[i], w)
				}
				want += dst[i]
			}
			if n < 8 && s != want {
				t.Fatalf("%s n=%d: tail sum %v, in-order sum %v", c.Name, n, s, want)
			}
		}
	}
}
