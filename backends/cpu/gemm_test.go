package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsrlang/tsr/backends"
)

// layout places a rows×cols matrix in a buffer: element (i,j) at i*rs+j*cs.
type layout struct {
	name   string
	rs, cs func(rows, cols int) int
	size   func(rows, cols int) int
}

var (
	lRow       = layout{"row", func(r, c int) int { return c }, func(r, c int) int { return 1 }, func(r, c int) int { return r * c }}
	lCol       = layout{"col", func(r, c int) int { return 1 }, func(r, c int) int { return r }, func(r, c int) int { return r * c }}
	lPad       = layout{"pad", func(r, c int) int { return c + 3 }, func(r, c int) int { return 1 }, func(r, c int) int { return max(r*(c+3)-3, 0) }}
	lStrided   = layout{"strided", func(r, c int) int { return 2*c + 1 }, func(r, c int) int { return 2 }, func(r, c int) int { return max((r-1)*(2*c+1)+2*(c-1)+1, 0) }}
	lBRow      = layout{"bcast-rows", func(r, c int) int { return 0 }, func(r, c int) int { return 1 }, func(r, c int) int { return c }}
	lBCol      = layout{"bcast-cols", func(r, c int) int { return 1 }, func(r, c int) int { return 0 }, func(r, c int) int { return r }}
	inLayouts  = []layout{lRow, lCol, lPad, lStrided, lBRow, lBCol}
	outLayouts = []layout{lRow, lCol, lPad, lStrided}
)

type gemmCase struct {
	batch, m, n, k int
	la, lb, lc     layout
	bcastA, bcastB bool // batch stride 0
	alpha, beta    float64
}

func (c gemmCase) String() string {
	return fmt.Sprintf("b%d_%dx%dx%d_A%s%v_B%s%v_C%s_al%g_be%g", c.batch, c.m, c.n, c.k,
		c.la.name, c.bcastA, c.lb.name, c.bcastB, c.lc.name, c.alpha, c.beta)
}

var edgeDims = []int{1, 2, 3, 5, 7, 13, 17, 31, 33, 63, 65, 127, 129}

func randomCases(rng *rand.Rand, n int) []gemmCase {
	var cs []gemmCase
	// Hand-picked: 1x1x1, zero sizes, blocking boundaries.
	fixed := [][4]int{{1, 1, 1, 1}, {1, 0, 3, 4}, {1, 3, 0, 4}, {1, 3, 4, 0}, {0, 3, 4, 5}, {2, 1, 1, 1},
		{1, 129, 65, 257}, {1, 481, 33, 17}, {1, 13, 300, 513}, {3, 12, 32, 1}, {1, 24, 64, 256}}
	for _, f := range fixed {
		cs = append(cs, gemmCase{batch: f[0], m: f[1], n: f[2], k: f[3], la: lRow, lb: lRow, lc: lRow, alpha: 1, beta: 0})
	}
	alphas := []float64{1, -1.5, 0, 0.5}
	betas := []float64{0, 1, -0.75}
	for len(cs) < n {
		c := gemmCase{
			batch: 1 + rng.IntN(3),
			m:     edgeDims[rng.IntN(len(edgeDims))],
			n:     edgeDims[rng.IntN(len(edgeDims))],
			k:     edgeDims[rng.IntN(len(edgeDims))],
			la:    inLayouts[rng.IntN(len(inLayouts))],
			lb:    inLayouts[rng.IntN(len(inLayouts))],
			lc:    outLayouts[rng.IntN(len(outLayouts))],
			alpha: alphas[rng.IntN(len(alphas))],
			beta:  betas[rng.IntN(len(betas))],
		}
		c.bcastA = rng.IntN(4) == 0
		c.bcastB = rng.IntN(4) == 0
		if c.m*c.n*c.k > 200000 {
			continue
		}
		cs = append(cs, c)
	}
	return cs
}

// runCase checks gemm (a GEMM entry with SgemmBatched's contract) on one case
// against a float64 reference with a k·eps·Σ|a||b| error bound.
func runCase[T float](t *testing.T, rng *rand.Rand, c gemmCase, eps float64,
	gemm func(batch, m, n, k int, alpha T, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta T, cc []T, bsC, rsC, csC int)) {
	t.Helper()
	sa, sb, sc := c.la.size(c.m, c.k), c.lb.size(c.k, c.n), c.lc.size(c.m, c.n)
	bsA, bsB, bsC := sa, sb, sc
	if c.bcastA {
		bsA = 0
	}
	if c.bcastB {
		bsB = 0
	}
	fill := func(n int) []T {
		v := make([]T, n)
		for i := range v {
			v[i] = T(rng.Float64()*2 - 1)
		}
		return v
	}
	a := fill(max(bsA*(c.batch-1)+sa, sa))
	b := fill(max(bsB*(c.batch-1)+sb, sb))
	cbuf := fill(bsC * c.batch)
	if c.beta == 0 {
		for i := range cbuf {
			cbuf[i] = T(math.NaN()) // must not be read
		}
	}
	orig := append([]T(nil), cbuf...)
	rsA, csA := c.la.rs(c.m, c.k), c.la.cs(c.m, c.k)
	rsB, csB := c.lb.rs(c.k, c.n), c.lb.cs(c.k, c.n)
	rsC, csC := c.lc.rs(c.m, c.n), c.lc.cs(c.m, c.n)
	gemm(c.batch, c.m, c.n, c.k, T(c.alpha), a, bsA, rsA, csA, b, bsB, rsB, csB, T(c.beta), cbuf, bsC, rsC, csC)

	touched := make([]bool, len(cbuf))
	for q := 0; q < c.batch; q++ {
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				var ref, mag float64
				for p := 0; p < c.k; p++ {
					x := float64(a[q*bsA+i*rsA+p*csA]) * float64(b[q*bsB+p*rsB+j*csB])
					ref += x
					mag += math.Abs(x)
				}
				ci := q*bsC + i*rsC + j*csC
				touched[ci] = true
				ref *= c.alpha
				mag *= math.Abs(c.alpha)
				if c.beta != 0 {
					ref += c.beta * float64(orig[ci])
					mag += math.Abs(c.beta * float64(orig[ci]))
				}
				got := float64(cbuf[ci])
				tol := 2*float64(c.k+2)*eps*mag + 1e-30
				if !(math.Abs(got-ref) <= tol) {
					t.Fatalf("%v: C[%d,%d,%d] = %g, want %g (tol %g)", c, q, i, j, got, ref, tol)
				}
			}
		}
	}
	for i, v := range cbuf {
		if !touched[i] && !(v == orig[i] || (v != v && orig[i] != orig[i])) {
			t.Fatalf("%v: element %d outside C changed: %g -> %g", c, i, orig[i], v)
		}
	}
}

// variants returns every registered GEMM kernel this CPU can run, each also
// with a tiny blocking so that small shapes cross KC/MC/NC boundaries.
func variants[T float](op, dtype string) []*GemmKernel[T] {
	var out []*GemmKernel[T]
	for _, c := range backends.Candidates(backends.Key{Op: op, DType: dtype, Device: "cpu"}) {
		if !backends.Supported(c.Requires) {
			continue
		}
		k := c.Impl.(*GemmKernel[T])
		tiny := *k
		tiny.Name += "-tinyblocks"
		tiny.KC, tiny.MC, tiny.NC = 7, 2*k.MR, 2*k.NR
		tiny.KCRowA, tiny.NCRowA = 5, 3*k.NR
		out = append(out, k, &tiny)
	}
	return out
}

// withGotoOrder runs f with every A packed in the GotoBLAS order (no A read
// in place, no gemmPackedA), the path otherwise left to f16/bf16 sources,
// blocks of at most MR rows and very tall A.
func withGotoOrder(f func()) {
	defer func() { directA, packWholeAOn = true, true }()
	directA, packWholeAOn = false, false
	f()
}

func withThresholds(small int, par float64, f func()) {
	s, p := smallGemm, parallelFlops
	smallGemm, parallelFlops = small, par
	defer func() { smallGemm, parallelFlops = s, p }()
	f()
}

func TestSgemmVariants(t *testing.T) {
	vs := variants[float32]("sgemm", "float32")
	if len(vs) < 2 {
		t.Fatal("no sgemm variants registered")
	}
	t.Logf("CPU tier %v, %d variants", backends.HardwareTier(), len(vs))
	for _, kern := range vs {
		t.Run(kern.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			f := func(batch, m, n, k int, alpha float32, a []float32, bsA, rsA, csA int, b []float32, bsB, rsB, csB int, beta float32, c []float32, bsC, rsC, csC int) {
				gemmBatched(kern, axpyF32, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
			}
			// packed path, single and multi-threaded; then the small path
			withThresholds(0, math.Inf(1), func() {
				for _, c := range randomCases(rng, 120) {
					runCase(t, rng, c, 6e-8, f)
				}
			})
			withThresholds(0, 0, func() {
				for _, c := range randomCases(rng, 60) {
					runCase(t, rng, c, 6e-8, f)
				}
			})
			withGotoOrder(func() {
				withThresholds(0, math.Inf(1), func() {
					for _, c := range randomCases(rng, 60) {
						runCase(t, rng, c, 6e-8, f)
					}
				})
			})
		})
	}
	t.Run("small-path", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		withThresholds(math.MaxInt, math.Inf(1), func() {
			for _, c := range randomCases(rng, 80) {
				runCase(t, rng, c, 6e-8, SgemmBatched)
			}
		})
	})
	t.Run("exported", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, c := range randomCases(rng, 60) {
			runCase(t, rng, c, 6e-8, SgemmBatched)
		}
		runCase(t, rng, gemmCase{batch: 1, m: 300, n: 200, k: 700, la: lCol, lb: lRow, lc: lRow, alpha: 1}, 6e-8, SgemmBatched)
	})
	t.Run("reference", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, c := range randomCases(rng, 30) {
			runCase(t, rng, c, 6e-8, sgemmRef)
		}
	})
}

func TestDgemmVariants(t *testing.T) {
	vs := variants[float64]("dgemm", "float64")
	if len(vs) < 2 {
		t.Fatal("no dgemm variants registered")
	}
	for _, kern := range vs {
		t.Run(kern.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			f := func(batch, m, n, k int, alpha float64, a []float64, bsA, rsA, csA int, b []float64, bsB, rsB, csB int, beta float64, c []float64, bsC, rsC, csC int) {
				gemmBatched(kern, axpyF64, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
			}
			withThresholds(0, math.Inf(1), func() {
				for _, c := range randomCases(rng, 120) {
					runCase(t, rng, c, 1.2e-16, f)
				}
			})
			withThresholds(0, 0, func() {
				for _, c := range randomCases(rng, 60) {
					runCase(t, rng, c, 1.2e-16, f)
				}
			})
			withGotoOrder(func() {
				withThresholds(0, math.Inf(1), func() {
					for _, c := range randomCases(rng, 60) {
						runCase(t, rng, c, 1.2e-16, f)
					}
				})
			})
		})
	}
	t.Run("exported", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for _, c := range randomCases(rng, 60) {
			runCase(t, rng, c, 1.2e-16, DgemmBatched)
		}
		runCase(t, rng, gemmCase{batch: 2, m: 250, n: 130, k: 300, la: lRow, lb: lCol, lc: lRow, alpha: 1, beta: 1}, 1.2e-16, DgemmBatched)
		runCase(t, rng, gemmCase{batch: 1, m: 3, n: 2, k: 2, la: lRow, lb: lRow, lc: lRow, alpha: 1}, 1.2e-16, dgemmRef)
	})
}

// TestGemmExactSmall checks a hand-computed product.
func TestGemmExactSmall(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5, 6}    // 2x3
	b := []float32{7, 8, 9, 10, 11, 12} // 3x2
	c := []float32{float32(math.NaN()), 0, 0, 0}
	SgemmBatched(1, 2, 2, 3, 1, a, 0, 3, 1, b, 0, 2, 1, 0, c, 0, 2, 1)
	want := []float32{58, 64, 139, 154}
	for i := range want {
		if c[i] != want[i] {
			t.Fatalf("C = %v, want %v", c, want)
		}
	}
	// Transposed A (A^T stored row-major as 3x2): C = A^T^T...
	at := []float32{1, 4, 2, 5, 3, 6}
	c2 := make([]float32, 4)
	SgemmBatched(1, 2, 2, 3, 2, at, 0, 1, 2, b, 0, 2, 1, 0, c2, 0, 2, 1)
	for i := range want {
		if c2[i] != 2*want[i] {
			t.Fatalf("transposed: C = %v, want 2*%v", c2, want)
		}
	}
}

// TestTierEnv runs this test binary with TSR_CPU=generic and checks that the
// pure-Go kernels were chosen.
func TestTierEnv(t *testing.T) {
	if os.Getenv("TSR_CPU_CHILD") == "1" {
		if sgemmKernel.Name != "go-4x4" || dgemmKernel.Name != "go-4x4" {
			t.Fatalf("TSR_CPU=generic chose %s/%s", sgemmKernel.Name, dgemmKernel.Name)
		}
		for _, c := range backends.Active() {
			if c.Requires != backends.TierGeneric {
				t.Fatalf("TSR_CPU=generic chose %v %s", c.Key, c.Name)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTierEnv$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TSR_CPU=generic", "TSR_CPU_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

// TestGemmPack checks each kernel's assembly packer against the definition
// dst[r*w+j] = src[r*ps+j*js] (j < cols), 0 (cols <= j < w), for contiguous,
// strided (gathered) and broadcast sources and partial panels.
func TestGemmPack(t *testing.T) {
	testPack(t, variants[float32]("sgemm", "float32"))
	testPack(t, variants[float64]("dgemm", "float64"))
}

func testPack[T float](t *testing.T, kerns []*GemmKernel[T]) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, kern := range kerns {
		if kern.Pack == nil {
			continue
		}
		for _, w := range []int{kern.MR, kern.NR} {
			// trials 0..199 random; then whole panels contiguous along k
			// (ps == 1: the transposing packers, with a gathered tail).
			var full [][2]int // rows, js
			for _, rows := range []int{7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 64, 100} {
				for _, js := range []int{0, 2, w, 64, 1000} {
					full = append(full, [2]int{rows, js})
				}
			}
			for trial := 0; trial < 200+len(full); trial++ {
				rows, cols := 1+rng.IntN(40), 1+rng.IntN(w)
				js := []int{1, 0, 3, 1 + rng.IntN(100)}[rng.IntN(4)]
				ps := []int{0, 1, cols * max(js, 1), w + rng.IntN(50)}[rng.IntN(4)]
				if trial >= 200 {
					rows, js, cols, ps = full[trial-200][0], full[trial-200][1], w, 1
				}
				src := make([]T, (rows-1)*ps+(cols-1)*js+1)
				for i := range src {
					src[i] = T(rng.Float64())
				}
				dst := make([]T, rows*w+3)
				for i := range dst {
					dst[i] = T(math.NaN())
				}
				kern.Pack(dst, w, src, ps, js, rows, cols)
				for r := 0; r < rows; r++ {
					for j := 0; j < w; j++ {
						want := T(0)
						if j < cols {
							want = src[r*ps+j*js]
						}
						if got := dst[r*w+j]; got != want {
							t.Fatalf("%s w=%d rows=%d cols=%d ps=%d js=%d: dst[%d][%d] = %v, want %v", kern.Name, w, rows, cols, ps, js, r, j, got, want)
						}
					}
				}
				for _, v := range dst[rows*w:] {
					if v == v {
						t.Fatalf("%s: wrote past the panel", kern.Name)
					}
				}
			}
		}
	}
}

// TestGemmSerialPathDoesNotAllocate: a GEMM below the parallel threshold
// (and a warm workspace pool) allocates nothing, so tiny products in
// loops (einsum, autograd) cost no garbage.
func TestGemmSerialPathDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race (sync.Pool drops entries)")
	}
	a, b, c := make([]float32, 16*16), make([]float32, 16*16), make([]float32, 16*16)
	f := func() { SgemmBatched(1, 16, 16, 16, 1, a, 0, 16, 1, b, 0, 16, 1, 0, c, 0, 16, 1) }
	f()
	if n := testing.AllocsPerRun(100, f); n > 0 {
		t.Fatalf("a 16³ SGEMM allocates %v times per call", n)
	}
}

// TestSplitGemmCoversOnce checks that the dynamic multi-threaded split hands
// every element of every batch entry to exactly one work item, in whole
// register tiles except at the edges.
func TestSplitGemmCoversOnce(t *testing.T) {
	for _, c := range []struct{ nt, batch, m, n, wc, wr int }{
		{2, 1, 2048, 2048, 256, 512}, {2, 1, 100, 3000, 512, 512}, {3, 1, 3000, 100, 512, 512},
		{4, 1, 37, 41, 8, 8}, {2, 3, 50, 70, 32, 32}, {3, 2, 13, 1, 512, 512},
		{2, 7, 9, 9, 512, 512}, {2, 100, 5, 6, 512, 512}, {5, 1, 12, 16, 512, 512},
	} {
		const MR, NR = 12, 16
		cover := make([]int32, c.batch*c.m*c.n)
		var bad atomic.Value
		splitGemm(c.nt, c.batch, c.m, c.n, MR, NR, c.wc, c.wr, func(q, i0, i1, j0, j1 int) {
			if (i0%MR != 0 || j0%NR != 0) || (i1 != c.m && i1%MR != 0) || (j1 != c.n && j1%NR != 0) {
				bad.Store(fmt.Sprintf("item [%d,%d)x[%d,%d) not on tile bounds", i0, i1, j0, j1))
			}
			for i := i0; i < i1; i++ {
				for j := j0; j < j1; j++ {
					atomic.AddInt32(&cover[(q*c.m+i)*c.n+j], 1)
				}
			}
		})
		if msg := bad.Load(); msg != nil {
			t.Errorf("%+v: %v", c, msg)
		}
		for idx, v := range cover {
			if v != 1 {
				t.Fatalf("%+v: element %d covered %d times", c, idx, v)
			}
		}
	}
}

// A product's values do not depend on how many goroutines split its rows:
// a last block shorter than the register tile sums over the same K panels
// as the others (panelK), so SgemmBatched/DgemmBatched give the same bits
// with 1, 2 and 3 of them. With A transposed (column-major), blocks of more
// than MR rows run gemmPackedA's loop order and shorter ones the GotoBLAS
// order, over the same K panels.
func TestGemmRowSplitSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		m, n, k int
		trans   bool
	}{{13, 8, 8600, false}, {25, 8, 8600, false}, {14, 40, 3000, false}, {50, 40, 3000, true}, {77, 70, 1000, true}} {
		rsA, csA := c.k, 1
		if c.trans {
			rsA, csA = 1, c.m
		}
		a32, b32 := make([]float32, c.m*c.k), make([]float32, c.k*c.n)
		a64, b64 := make([]float64, c.m*c.k), make([]float64, c.k*c.n)
		for i := range a32 {
			a64[i] = r.NormFloat64()
			a32[i] = float32(a64[i])
		}
		for i := range b32 {
			b64[i] = r.NormFloat64()
			b32[i] = float32(b64[i])
		}
		var ref32 []float32
		var ref64 []float64
		for _, procs := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(procs)
			c32, c64 := make([]float32, c.m*c.n), make([]float64, c.m*c.n)
			SgemmBatched(1, c.m, c.n, c.k, 1, a32, 0, rsA, csA, b32, 0, c.n, 1, 0, c32, 0, c.n, 1)
			DgemmBatched(1, c.m, c.n, c.k, 1, a64, 0, rsA, csA, b64, 0, c.n, 1, 0, c64, 0, c.n, 1)
			if ref32 == nil {
				ref32, ref64 = c32, c64
				continue
			}
			for i := range c32 {
				if math.Float32bits(c32[i]) != math.Float32bits(ref32[i]) || math.Float64bits(c64[i]) != math.Float64bits(ref64[i]) {
					t.Fatalf("%dx%dx%d on %d goroutines: element %d is %v / %v, on one %v / %v", c.m, c.n, c.k, procs, i, c32[i], c64[i], ref32[i], ref64[i])
				}
			}
		}
	}
}

// TestPackBRowBlocks: packB of a row-major B with an assembly packer (row
// blocks of packBRows across all micro-panels) lays out the same panels
// as the portable column-panel loop, partial last panel zero-padded.
func TestPackBRowBlocks(t *testing.T) {
	testPackBRowBlocks(t, variants[float32]("sgemm", "float32"))
	testPackBRowBlocks(t, variants[float64]("dgemm", "float64"))
}

func testPackBRowBlocks[T float](t *testing.T, kerns []*GemmKernel[T]) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, kern := range kerns {
		if kern.Pack == nil {
			continue
		}
		NR := kern.NR
		for _, sz := range [][2]int{{33, NR + 1}, {64, 3 * NR}, {100, 5*NR - 7}, {257, 2*NR + 3}, {31, 4 * NR}} {
			kc, nc := sz[0], sz[1]
			rsB, pc, jc := nc+5+rng.IntN(9), 2, 3
			b := make([]T, (pc+kc)*rsB)
			for i := range b {
				b[i] = T(rng.Float64())
			}
			panels := (nc + NR - 1) / NR * NR * kc
			want, got := make([]T, panels), make([]T, panels)
			for i := range got {
				got[i] = T(math.NaN())
			}
			packB(nil, want, b, pc, jc, kc, nc-jc, rsB, 1, NR)
			packB(kern.Pack, got, b, pc, jc, kc, nc-jc, rsB, 1, NR)
			for i := range want[:(nc-jc+NR-1)/NR*NR*kc] {
				if got[i] != want[i] {
					t.Fatalf("%s kc=%d nc=%d: bp[%d] = %v, want %v", kern.Name, kc, nc-jc, i, got[i], want[i])
				}
			}
		}
	}
}

// TestParallelForPool: every index runs exactly once and has finished when
// parallelFor returns, whether the pool workers are spinning (back-to-back
// calls), parked (after a pause longer than poolSpin) or all busy (more
// indices than workers), and from several goroutines at once.
func TestParallelForPool(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for call := 0; call < 300; call++ {
				n := 1 + rng.IntN(6)
				var runs [6]atomic.Int32
				parallelFor(n, func(i int) {
					if rng2 := i*7 + call; rng2%5 == 0 {
						time.Sleep(time.Duration(rng2%3) * 50 * time.Microsecond)
					}
					runs[i].Add(1)
				})
				for i := 0; i < 6; i++ {
					want := int32(0)
					if i < n {
						want = 1
					}
					if got := runs[i].Load(); got != want {
						t.Errorf("goroutine %d call %d (n=%d): index %d ran %d times, want %d", g, call, n, i, got, want)
						return
					}
				}
				if call%50 == 0 {
					time.Sleep(2 * poolSpin)
				}
			}
		}()
	}
	wg.Wait()
}

// TestParallelForNested: tasks that call parallelFor themselves (a
// multi-threaded elementwise op whose chunks run GEMMs) finish even when
// every pool worker is busy with an outer task.
func TestParallelForNested(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	done := make(chan int64)
	go func() {
		var sum atomic.Int64
		for call := 0; call < 200; call++ {
			parallelFor(3, func(i int) {
				parallelFor(3, func(j int) {
					parallelFor(2, func(l int) { sum.Add(1) })
				})
			})
			if call%40 == 0 {
				time.Sleep(2 * poolSpin)
			}
		}
		done <- sum.Load()
	}()
	select {
	case got := <-done:
		if got != 200*3*3*2 {
			t.Fatalf("nested tasks ran %d times, want %d", got, 200*3*3*2)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("nested parallelFor did not finish (deadlock)")
	}
}

// TestSetNumThreads: SetNumThreads caps the goroutines a GEMM splits into
// (one: the calling goroutine only, no pool task), and n < 1 restores
// GOMAXPROCS.
func TestSetNumThreads(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer SetNumThreads(0)
	SetNumThreads(1)
	if got := NumThreads(); got != 1 {
		t.Fatalf("NumThreads() = %d after SetNumThreads(1)", got)
	}
	const n = 256
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = float32(i%7), float32(i%5)
	}
	calls := parallelCalls.Load()
	SgemmBatched(1, n, n, n, 1, a, 0, n, 1, b, 0, n, 1, 0, c, 0, n, 1)
	if parallelCalls.Load() != calls {
		t.Fatalf("a GEMM with one thread used the worker pool")
	}
	SetNumThreads(2)
	SgemmBatched(1, n, n, n, 1, a, 0, n, 1, b, 0, n, 1, 0, c, 0, n, 1)
	if parallelCalls.Load() == calls {
		t.Fatalf("a 256³ GEMM with two threads did not use the worker pool")
	}
	SetNumThreads(0)
	if got, want := NumThreads(), runtime.GOMAXPROCS(0); got != want {
		t.Fatalf("NumThreads() = %d after SetNumThreads(0), want GOMAXPROCS %d", got, want)
	}
}

// TestColChunkWidth: the column items are one per goroutine only where
// each would pack all of A (gemmPackedA); an A read in place keeps its
// NCRowA blocks, also for a kernel whose NCRowA equals gemmChunkCols (the
// pure-Go and AVX2 kernels).
func TestColChunkWidth(t *testing.T) {
	kern := goGemmF32
	if kern.NCRowA != gemmChunkCols {
		t.Fatalf("test assumes go-4x4 NCRowA %d == gemmChunkCols %d", kern.NCRowA, gemmChunkCols)
	}
	const m, n, k, nt = 100, 2048, 256, 2
	if got := colChunkWidth(kern, nt, 1, m, n, k, 1); got != kern.NCRowA {
		t.Errorf("row-major A (read in place): width %d, want NCRowA %d", got, kern.NCRowA)
	}
	if got, want := colChunkWidth(kern, nt, 1, m, n, k, m), n/nt; got != want {
		t.Errorf("transposed A (gemmPackedA): width %d, want %d", got, want)
	}
	if got := colChunkWidth(avx512GemmF32Like(), nt, 1, m, n, k, 1); got != 256 {
		t.Errorf("NCRowA 256 kernel, row-major A: width %d, want 256", got)
	}
}

func avx512GemmF32Like() *GemmKernel[float32] {
	k := *goGemmF32
	k.NCRowA = 256
	return &k
}
