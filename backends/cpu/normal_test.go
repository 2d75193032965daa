package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/tsrlang/tsr/backends"
)

// sameF32 reports whether a and b have the same bits, or, with nanOK,
// are both NaN.
func sameF32(a, b float32, nanOK bool) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (nanOK && a != a && b != b)
}

// checkNormalFill runs every normal_fill16 candidate on a copy of in and
// compares it bit for bit with the pure-Go reference (goNormalFill16F32),
// NaN payloads included, except that with a NaN mean or std, where two
// NaNs meet in the last FMA, any NaN will do (which operand's payload a
// NaN result keeps is the hardware's choice); it returns false after
// reporting the first few mismatches.
func checkNormalFill(t *testing.T, what string, in []float32, mean, std float32) bool {
	t.Helper()
	want := append([]float32(nil), in...)
	// the reference (~70 ns an element) on all CPUs
	var wg sync.WaitGroup
	per := (len(want)/16 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0) * 16
	for lo := 0; lo < len(want); lo += per {
		wg.Add(1)
		go func(w []float32) {
			defer wg.Done()
			goNormalFill16F32(w, mean, std)
		}(want[lo:min(lo+per, len(want))])
	}
	wg.Wait()
	got := make([]float32, len(in))
	ok := true
	nanOK := mean != mean || std != std
	for _, c := range candidatesFor(t, "normal_fill16", "float32") {
		if c.Name == "go" { // the reference itself
			continue
		}
		copy(got, in)
		c.Impl.(normalFillFn)(got, mean, std)
		bad := 0
		for i := range got {
			if !sameF32(got[i], want[i], nanOK) {
				if bad < 5 {
					k := i &^ 15
					t.Errorf("%s %s (mean %v, std %v): element %d = %v (%#08x), want %v (%#08x); uniforms u1-lane %v (%#08x), u2-lane %v (%#08x)",
						c.Name, what, mean, std, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]),
						in[k+i%8], math.Float32bits(in[k+i%8]), in[k+8+i%8], math.Float32bits(in[k+8+i%8]))
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s %s: %d of %d elements differ", c.Name, what, bad, len(got))
			ok = false
		}
	}
	return ok
}

// uniform24 is a uniform of the generator: k/2^24 for a 24-bit k.
func uniform24(k uint32) float32 { return float32(k&(1<<24-1)) * 0x1p-24 }

// TestNormalFill16F32Variants checks every registered normal_fill16
// kernel against the pure-Go reference, bit for bit: on random generator
// uniforms, on every one of the 2^24 uniforms as both u1 and u2 (-short
// and the race detector: a sample), on edge values, on arbitrary float32
// inputs (negative, above 1, subnormal, huge, Inf and NaN), for several
// lengths (an odd number of blocks included) and means and stds.
func TestNormalFill16F32Variants(t *testing.T) {
	asm := false
	for _, c := range candidatesFor(t, "normal_fill16", "float32") {
		asm = asm || c.Name != "go"
	}
	if !asm {
		t.Skip("no normal_fill16 kernel but the pure-Go reference")
	}
	r := rand.New(rand.NewPCG(7, 11))
	params := [][2]float32{{0, 1}, {1.5, 0.3}, {-3, 1e-3}, {1e30, 1e-30}}

	// random generator uniforms
	n := 1 << 21
	if raceEnabled || testing.Short() {
		n = 1 << 16
	}
	in := make([]float32, n)
	for i := range in {
		in[i] = uniform24(r.Uint32())
	}
	for _, p := range params {
		checkNormalFill(t, "random uniforms", in, p[0], p[1])
	}

	// every uniform k/2^24 in both roles: lane j of a block takes u1 from
	// k and u2 from a scrambled k' (an odd multiplier permutes 2^24)
	step := uint32(1)
	if raceEnabled || testing.Short() {
		step = 97
	}
	const chunk = 1 << 20
	buf := make([]float32, 0, 2*chunk)
	flush := func() bool {
		ok := checkNormalFill(t, "every uniform", buf, 0, 1)
		buf = buf[:0]
		return ok
	}
	var lanes [8]uint32
	nl := 0
	for k := uint32(0); k < 1<<24; k += step {
		lanes[nl] = k
		nl++
		if nl == 8 {
			for _, k := range lanes {
				buf = append(buf, uniform24(k))
			}
			for _, k := range lanes {
				buf = append(buf, uniform24(k*0x9E3779B1+12345))
			}
			nl = 0
			if len(buf) == cap(buf) && !flush() {
				return
			}
		}
	}
	if len(buf) > 0 && !flush() {
		return
	}

	// edge values, each in every lane and both roles
	edges := []float32{0, 0x1p-24, 0x1p-23, 0.5, 0.5 - 0x1p-25, 0.5 + 0x1p-24, 1 - 0x1p-24, 1 - 0x1p-23, 1,
		1 - 0.70710677, 0.70710677, 0.29289323, 0.2928932, 0.29289326, // u1 around sqrt(1/2)
		0x1p-126, 0x1p-149, 0x1p-130, 3 * 0x1p-149, // subnormal u2 (and products)
		0x1p-127 * 1.5, 1 + 0x1p-23, 2, -0x1p-24, -1, 0x1p-100}
	for k := 0; k <= 8; k++ { // 2π·u2 at multiples of π/4, and their neighbours
		v := float32(k) / 8
		edges = append(edges, v, math.Nextafter32(v, 2), math.Nextafter32(v, -1))
	}
	for k := 1; k < 64; k++ { // log arguments 2^-k and neighbours: u1 = 1 - b
		v := 1 - float32(math.Ldexp(1, -k))
		edges = append(edges, v, math.Nextafter32(v, 0), math.Nextafter32(v, 2))
	}
	in = in[:0]
	for _, a := range edges {
		for _, b := range edges {
			var blk [16]float32
			for j := 0; j < 8; j++ {
				blk[j], blk[j+8] = a, b
			}
			blk[3], blk[12] = b, a // the roles swapped in two lanes
			in = append(in, blk[:]...)
		}
	}
	for _, p := range params {
		checkNormalFill(t, "edge values", in, p[0], p[1])
	}

	// arbitrary float32 bit patterns, NaN and the u2 whose 2π·u2·4/π is
	// out of the int32 range of sincos' reduction left to the next check
	in = in[:0]
	for len(in) < 1<<16 {
		in = append(in, math.Float32frombits(r.Uint32()))
	}
	for i := range in {
		if v := in[i]; v != v || math.Abs(float64(v))*2*math.Pi*4/math.Pi >= 1<<31 {
			in[i] = float32(r.NormFloat64())
		}
	}
	for _, p := range params {
		checkNormalFill(t, "arbitrary finite float32", in, p[0], p[1])
	}
	special := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e10, -1e10, 3e38, -3e38, 0x1p31, 0x1p28}
	in = in[:0]
	for _, a := range special {
		for _, b := range append(special, 0.25, 0) {
			var blk [16]float32
			for j := 0; j < 8; j++ {
				blk[j], blk[j+8] = a, b
			}
			in = append(in, blk[:]...)
		}
	}
	checkNormalFill(t, "Inf, NaN and huge inputs", in, 0, 1)
	checkNormalFill(t, "NaN mean and std", in[:256], float32(math.NaN()), float32(math.NaN()))

	// lengths: the AVX-512 kernel takes blocks in pairs
	for blocks := 0; blocks <= 9; blocks++ {
		in = in[:0]
		for len(in) < 16*blocks {
			in = append(in, uniform24(r.Uint32()))
		}
		checkNormalFill(t, "short input", in, 0.25, 2)
	}
}

// The kernels write nothing outside b, and NormalFill16F32 rejects a
// length that is not a multiple of 16.
func TestNormalFill16F32Bounds(t *testing.T) {
	for _, c := range candidatesFor(t, "normal_fill16", "float32") {
		for blocks := 1; blocks <= 5; blocks++ {
			buf := make([]float32, 16*blocks+32)
			for i := range buf {
				buf[i] = -7
			}
			b := buf[16 : 16+16*blocks]
			for i := range b {
				b[i] = 0.375
			}
			c.Impl.(normalFillFn)(b, 0, 1)
			for i, v := range buf {
				if (i < 16 || i >= 16+16*blocks) && v != -7 {
					t.Fatalf("%s: %d blocks wrote buf[%d] = %v outside b", c.Name, blocks, i, v)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NormalFill16F32 of 17 elements did not panic")
		}
	}()
	NormalFill16F32(make([]float32, 17), 0, 1)
}

// The lane functions at their edges (log(1) = 0, log(0) = NaN,
// sincos(0) = (0, 1)) and NormalFill16F32 on one block against values
// PyTorch 1.13 gives (torch.manual_seed(0); torch.randn(16), whose
// uniforms are the first 16 generator draws).
func TestNormalFill16F32Lanes(t *testing.T) {
	if v := cephesLogf(1); v != 0 {
		t.Errorf("cephesLogf(1) = %v", v)
	}
	if v := cephesLogf(0); !math.IsNaN(float64(v)) {
		t.Errorf("cephesLogf(0) = %v, want NaN", v)
	}
	if s, c := cephesSincosf(0); s != 0 || c != 1 {
		t.Errorf("cephesSincosf(0) = %v, %v", s, c)
	}
	if l := cephesLogf(0.5); math.Abs(float64(l)+math.Ln2) > 1e-7 {
		t.Errorf("cephesLogf(0.5) = %v", l)
	}
	if s, c := cephesSincosf(1); math.Abs(float64(s)-math.Sin(1)) > 1e-7 || math.Abs(float64(c)-math.Cos(1)) > 1e-7 {
		t.Errorf("cephesSincosf(1) = %v, %v", s, c)
	}
}

func BenchmarkNormalFill16F32(b *testing.B) {
	x := make([]float32, 1<<16)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range x {
		x[i] = uniform24(r.Uint32())
	}
	buf := make([]float32, len(x))
	for _, c := range candidatesForB("normal_fill16", "float32") {
		f := c.Impl.(normalFillFn)
		b.Run(c.Name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(x)))
			for b.Loop() {
				copy(buf, x)
				f(buf, 0, 1)
			}
		})
	}
}

// candidatesForB lists the candidates of op/dtype this machine can run.
func candidatesForB(op, dtype string) []backends.Candidate {
	var out []backends.Candidate
	for _, c := range backends.Candidates(backends.Key{Op: op, DType: dtype, Device: "cpu"}) {
		if backends.Supported(c.Requires) {
			out = append(out, c)
		}
	}
	return out
}
