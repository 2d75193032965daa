//go:build linux

package cpu

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkMicroKernel measures the active micro-kernels on L1/L2-resident
// packed panels (no packing, no C misses): the ceiling for the packed path.
func BenchmarkMicroKernel(b *testing.B) {
	for _, kc := range []int{64, 256, 384} {
		b.Run(fmt.Sprintf("f32/kc%d", kc), func(b *testing.B) {
			k := sgemmKernel
			ap, bp := make([]float32, k.MR*kc), make([]float32, k.NR*kc)
			c := make([]float32, k.MR*k.NR)
			for i := range ap {
				ap[i] = 1
			}
			for b.Loop() {
				k.Micro(kc, ap, bp, k.NR, c, k.NR, 1, 1, k.MR, k.NR)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("f64/kc%d", kc), func(b *testing.B) {
			k := dgemmKernel
			ap, bp := make([]float64, k.MR*kc), make([]float64, k.NR*kc)
			c := make([]float64, k.MR*k.NR)
			for b.Loop() {
				k.Micro(kc, ap, bp, k.NR, c, k.NR, 1, 1, k.MR, k.NR)
			}
			b.ReportMetric(2*float64(k.MR*k.NR*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkSgemmSquare multiplies row-major n×n float32 matrices, from the
// plain-loop sizes through the blocked path.
func BenchmarkSgemmSquare(b *testing.B) {
	for _, n := range []int{2, 4, 6, 8, 16, 32, 48, 64, 256, 512, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, y, z := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
			for i := range x {
				x[i], y[i] = float32(i%7), float32(i%5)
			}
			for b.Loop() {
				SgemmBatched(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
			}
			b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// TestGemmTune (TSR_TUNE=n, TSR_TUNE_F64=1 for DGEMM) interleaves blocking
// configurations on n×n×n and logs each one's best GFLOP/s in thread CPU
// time, which is robust to time slices lost on a shared machine.
func TestGemmTune(t *testing.T) {
	if os.Getenv("TSR_TUNE") == "" {
		t.Skip("TSR_TUNE not set")
	}
	n, _ := strconv.Atoi(os.Getenv("TSR_TUNE"))
	if os.Getenv("TSR_TUNE_F64") != "" {
		tune(t, dgemmKernel, DgemmBatched, n)
	} else {
		tune(t, sgemmKernel, SgemmBatched, n)
	}
}

type tuneCfg struct {
	name               string
	kc, mc, nc, ncRowA int
	inA                bool
}

var tuneCfgs = []tuneCfg{
	{"rowA kc256 nc512", 256, 240, 4096, 512, true},
	{"rowA kc384 nc512", 384, 240, 4096, 512, true},
	{"rowA kc512 nc256", 512, 240, 4096, 256, true},
	{"rowA kc768 nc256", 768, 240, 4096, 256, true},
	{"rowA kc1024 nc128", 1024, 240, 4096, 128, true},
	{"packed kc256 mc240", 256, 240, 4096, 512, false},
	{"packed kc384 mc192", 384, 192, 4096, 512, false},
	{"packed kc384 mc96", 384, 96, 4096, 512, false},
	{"packed kc512 mc144", 512, 144, 4096, 512, false},
}

func tune[T float](t *testing.T, kern *GemmKernel[T], gemm func(batch, m, n, k int, alpha T, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta T, c []T, bsC, rsC, csC int), n int) {
	x, y, z := make([]T, n*n), make([]T, n*n), make([]T, n*n)
	for i := range x {
		x[i], y[i] = T(i%7), T(i%5)
	}
	cfgs := tuneCfgs
	best := make([]float64, len(cfgs))
	k0 := *kern
	defer func() { *kern = k0; directA = true }()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reps := max(1, int(2e8/(2*float64(n*n*n))))
	for round := 0; round < 8; round++ {
		for i, c := range cfgs {
			kern.KC, kern.KCRowA, kern.MC, kern.NC, kern.NCRowA = c.kc, c.kc, c.mc, c.nc, c.ncRowA
			directA = c.inA
			start := threadTime()
			for r := 0; r < reps; r++ {
				gemm(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
			}
			g := 2 * float64(n*n*n) * float64(reps) / (threadTime() - start) / 1e9
			best[i] = max(best[i], g)
		}
	}
	// ceiling: the micro-kernel alone on L1-resident panels (kc = 256)
	for _, kc := range []int{64, 128, 256, 384} {
		ap, bp, cc := make([]T, kern.MR*kc), make([]T, kern.NR*kc), make([]T, kern.MR*kern.NR)
		microBest := 0.0
		reps := 5000000 / kc
		for round := 0; round < 8; round++ {
			start := threadTime()
			for r := 0; r < reps; r++ {
				kern.Micro(kc, ap, bp, kern.NR, cc, kern.NR, 1, 1, kern.MR, kern.NR)
			}
			microBest = max(microBest, 2*float64(kern.MR*kern.NR*kc*reps)/(threadTime()-start)/1e9)
		}
		t.Logf("micro-kernel only kc=%-4d    %6.1f GFLOP/s", kc, microBest)
	}
	for i, c := range cfgs {
		t.Logf("%-28s %6.1f GFLOP/s", c.name, best[i])
	}
}

// threadTime is the calling thread's CPU time in seconds (immune to time
// slices lost to other processes on a shared machine).
func threadTime() float64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}
