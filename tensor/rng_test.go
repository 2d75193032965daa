package tensor

import (
	bin "encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"testing"
)

// The generator reproduces PyTorch's CPU generator: each want is what
// PyTorch 1.13 gives after torch.manual_seed(seed) for the same calls.
func TestGeneratorMatchesTorch(t *testing.T) {
	g := NewGenerator(0)
	f32 := func(x *Tensor, err error) []float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x.ToFloat64s()
	}
	if got, want := f32(Rand(g, []int{3}, F32)), []float64{0.49625658988952637, 0.7682217955589294, 0.08847743272781372}; !slices.Equal(got, want) {
		t.Errorf("rand(3) = %v, want %v", got, want)
	}
	// below 16 elements: normal_distribution<double>, cached sin sample
	g.ManualSeed(0)
	if got, want := f32(Randn(g, []int{3}, F32)), []float64{1.5409960746765137, -0.293428897857666, -2.1787893772125244}; !slices.Equal(got, want) {
		t.Errorf("randn(3) = %v, want %v", got, want)
	}
	g.ManualSeed(0)
	if got, want := f32(Randn(g, []int{2, 2}, F64)), []float64{1.5409961082440433, -0.2934289057609464, -2.1787893820745574, 0.5684312772806678}; !slices.Equal(got, want) {
		t.Errorf("randn(2, 2, f64) = %v, want %v", got, want)
	}
	// 16 or more: normal_fill, with the ragged tail redrawn (f32: bit for
	// bit, see TestRandnF32MatchesTorch)
	g.ManualSeed(0)
	x := f32(Randn(g, []int{20}, F32))
	if want := []float64{-1.1258398294448853, -1.152360200881958, -0.2505785822868347, -0.4338788092136383, 0.5988394618034363, -1.5550950765609741, -0.3413603901863098, 1.85300612449646, 0.46809640526771545, -0.1577124446630478, 1.4436601400375366, 0.26604941487312317, 1.3893661499023438, 1.586334228515625, 0.946298360824585, -0.843676745891571, 0.9318265914916992, 1.2590092420578003, 2.0049805641174316, 0.05373690277338028}; !slices.Equal(x, want) {
		t.Errorf("randn(20) = %v, want %v", x, want)
	}
	g.ManualSeed(0)
	if got, want := f32(Randint(g, 0, 10, []int{5}, I64)), []float64{4, 9, 3, 0, 3}; !slices.Equal(got, want) {
		t.Errorf("randint(0, 10, [5]) = %v, want %v", got, want)
	}
	if got, want := Randperm(g, 5), []int64{4, 0, 3, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("randperm(5) = %v, want %v", got, want)
	}
	g.ManualSeed(7) // a range of 2^32 or more draws 64 bits
	if got, want := f32(Randint(g, 0, 5000000000, []int{2}, I64)), []float64{3939636932, 3634995702}; !slices.Equal(got, want) {
		t.Errorf("randint(0, 5e9, [2]) = %v, want %v", got, want)
	}
	g.ManualSeed(0) // x.uniform_(-2, 2) then x.normal_(1, 2) on a 3-element f32 x
	if got, want := f32(Uniform(g, []int{3}, F32, -2, 2)), []float64{-0.014973640441894531, 1.0728871822357178, -1.6460902690887451}; !slices.Equal(got, want) {
		t.Errorf("uniform_(-2, 2) = %v, want %v", got, want)
	}
	if got, want := f32(Normal(g, []int{3}, F32, 1, 2)), []float64{1.728676438331604, 1.2687926292419434, 1.3284324407577515}; !slices.Equal(got, want) {
		t.Errorf("normal_(1, 2) = %v, want %v", got, want)
	}
}

// TestRandnF32MatchesTorch: f32 normal samples of 16 or more elements are
// PyTorch 1.13's bits (normal_fill_16_AVX2's Cephes log/sincos with FMA
// contraction), with mean and std, for a ragged tail, and over 100000
// samples (CRC-32 of the little-endian f32 bytes, as zlib.crc32 of
// torch.randn(n).numpy().tobytes() after torch.manual_seed(seed)).
func TestRandnF32MatchesTorch(t *testing.T) {
	g := NewGenerator(3) // torch.empty(33).normal_(1.5, 0.3)
	x, err := Normal(g, []int{33}, F32, 1.5, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1.4770066738128662, 1.6079645156860352, 1.265394926071167, 1.5214582681655884, 1.6994518041610718, 1.4139659404754639, 1.9861652851104736, 1.0209875106811523, 1.484495759010315, 1.4082072973251343, 1.5745505094528198, 1.4332317113876343, 1.7739455699920654, 1.5613023042678833, 1.6721954345703125, 1.6248993873596191, 1.578450322151184, 1.4121261835098267, 1.3955732583999634, 1.6046239137649536, 1.511120080947876, 1.4796943664550781, 1.6287099123001099, 1.2395641803741455, 1.1411041021347046, 1.5424885749816895, 1.5388553142547607, 1.7044233083724976, 1.2125098705291748, 1.5191771984100342, 1.6976741552352905, 1.7458378076553345, 1.6684781312942505}
	if got := x.ToFloat64s(); !slices.Equal(got, want) {
		t.Errorf("normal_(1.5, 0.3) on 33 = %v, want %v", got, want)
	}
	for _, c := range []struct {
		seed uint64
		n    int
		crc  uint32
	}{{5, 100000, 3490577673}, {1, 4097, 387733411}} {
		g.ManualSeed(c.seed)
		x, err := Randn(g, []int{c.n}, F32)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, 4*c.n)
		for _, v := range x.ToFloat64s() {
			buf = bin.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
		}
		if got := crc32.ChecksumIEEE(buf); got != c.crc {
			t.Errorf("seed %d randn(%d): crc32 %d, want %d", c.seed, c.n, got, c.crc)
		}
	}
	// (the lane functions, cephesLogf and cephesSincosf, and the assembly
	// kernels are checked in backends/cpu: TestNormalFill16F32Lanes and
	// TestNormalFill16F32Variants)
}

// f32 randn draws its uniforms on one goroutine and transforms them on
// several (normalF32): the samples, and the generator state after them,
// are the same whatever the thread count and size (ragged tails included).
func TestRandnF32Threads(t *testing.T) {
	old := GetNumThreads()
	defer SetNumThreads(old)
	for _, n := range []int{16, 17, 4097, parallelGrain - 1, parallelGrain + 5, 3*normalChunk + 16*7 + 9, 600016} {
		var want []float64
		var wantNext uint32
		for _, k := range []int{1, 2, 3, 8} {
			SetNumThreads(k)
			g := NewGenerator(uint64(n))
			x, err := Normal(g, []int{n}, F32, 0.5, 2)
			if err != nil {
				t.Fatal(err)
			}
			got, next := x.ToFloat64s(), g.random()
			if k == 1 {
				want, wantNext = got, next
				continue
			}
			if !slices.Equal(got, want) || next != wantNext {
				t.Fatalf("randn(%d) with %d threads differs from 1 thread", n, k)
			}
		}
	}
}

// TestRandF32StreamMatchesTorch: f32 uniforms are drawn a twist block at a
// time (Uniform's fast path), so runs that start mid-block and cross block
// boundaries, with and without bounds, and the draw after them are
// PyTorch's (CRC-32 of the little-endian f32 bytes after
// torch.manual_seed(5): torch.rand(7), torch.rand(1300),
// torch.empty(700).uniform_(-2, 3), torch.rand(1000), then
// torch.randint(0, 2**30, [1])).
func TestRandF32StreamMatchesTorch(t *testing.T) {
	g := NewGenerator(5)
	for _, c := range []struct {
		n        int
		from, to float64
		crc      uint32
	}{{7, 0, 1, 3137513552}, {1300, 0, 1, 3159759325}, {700, -2, 3, 338469692}, {1000, 0, 1, 3661070271}} {
		x, err := Uniform(g, []int{c.n}, F32, c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, 4*c.n)
		for _, v := range x.ToFloat64s() {
			buf = bin.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
		}
		if got := crc32.ChecksumIEEE(buf); got != c.crc {
			t.Errorf("uniform_(%g, %g) on %d: crc32 %d, want %d", c.from, c.to, c.n, got, c.crc)
		}
	}
	r, err := Randint(g, 0, 1<<30, []int{1}, I64)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.ToFloat64s()[0]; got != 1026557189 {
		t.Errorf("randint after the uniforms = %v, want 1026557189", got)
	}
}

// Float64s draws what as many Float64 calls draw, across twist
// boundaries at either word of a pair, and leaves the same state.
func TestFloat64sMatchesFloat64(t *testing.T) {
	for _, skip := range []int{0, 1, 5, 623} {
		g1, g2 := NewGenerator(11), NewGenerator(11)
		for range skip {
			g1.Uint32()
			g2.Uint32()
		}
		for _, n := range []int{1, 3, 311, 312, 313, 1000} {
			got := make([]float64, n)
			g1.Float64s(got)
			for i, v := range got {
				if w := g2.Float64(); v != w {
					t.Fatalf("skip %d n %d: draw %d = %v, want %v", skip, n, i, v, w)
				}
			}
		}
		if a, b := g1.Uint32(), g2.Uint32(); a != b {
			t.Fatalf("skip %d: next draw %d, want %d", skip, a, b)
		}
	}
}

// FromUniforms gives FromFloat64s of f over as many Float64 draws, for
// f32, f64, bf16 and i64, sizes around its block, and leaves the same
// generator state.
func TestFromUniformsMatchesPerElement(t *testing.T) {
	f := func(u float64) float64 { return -1 / 1.5 * math.Log(1-u) * 1000 }
	for _, dt := range []DType{F32, F64, BF16, I64} {
		for _, n := range []int{0, 1, 1023, 1024, 1025, 3000} {
			g1, g2 := NewGenerator(21), NewGenerator(21)
			got, err := FromUniforms(g1, []int{n}, dt, f)
			if err != nil {
				t.Fatal(err)
			}
			ref := make([]float64, n)
			for i := range ref {
				ref[i] = f(g2.Float64())
			}
			want, _ := FromFloat64s(ref, []int{n}, dt)
			if got.dtype != dt || !slices.Equal(got.ToFloat64s(), want.ToFloat64s()) {
				t.Fatalf("%s n=%d: differs from per-element draws", dt, n)
			}
			if a, b := g1.Uint32(), g2.Uint32(); a != b {
				t.Fatalf("%s n=%d: generator state differs", dt, n)
			}
		}
	}
}
