package cpu

import (
	"fmt"
	"golang.org/x/sys/unix"
	"os"
	"runtime"
	"strconv"
	"testing"
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

func BenchmarkSgemmSquare(b *testing.B) {
	for _, n := range []int{64, 256, 512, 2048} {
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

func init() {
	if v := os.Getenv("TSR_DB"); v != "" {
		directBRows, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("TSR_DBE"); v != "" {
		directBElems, _ = strconv.Atoi(v)
	}
	directA = os.Getenv("TSR_NOA") == ""
	irOuter = os.Getenv("TSR_IR") != ""
	if v := os.Getenv("TSR_KC"); v != "" {
		sgemmKernel.KC, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("TSR_MC"); v != "" {
		sgemmKernel.MC, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("TSR_NC"); v != "" {
		sgemmKernel.NC, _ = strconv.Atoi(v)
	}
}

// TestGemmTune (TSR_TUNE=1) interleaves blocking/loop-order configurations
// and prints each one's best single-call GFLOP/s, robust to a shared machine.
func TestGemmTune(t *testing.T) {
	if os.Getenv("TSR_TUNE") == "" {
		t.Skip("TSR_TUNE not set")
	}
	type cfg struct {
		name       string
		kc, mc, nc int
		ir, inA    bool
	}
	n, _ := strconv.Atoi(os.Getenv("TSR_TUNE"))
	cfgs := []cfg{
		{"jr kc384 mc240", 384, 240, 4096, false, true},
		{"jr kc256 mc240", 256, 240, 4096, false, true},
		{"jr kc384 mc240 packA", 384, 240, 4096, false, false},
		{"ir kc384 mc4096 nc1024", 384, 4096, 1024, true, true},
		{"ir kc256 mc4096 nc1536", 256, 4096, 1536, true, true},
		{"ir kc384 mc4096 nc512", 384, 4096, 512, true, true},
	}
	x, y, z := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	best := make([]float64, len(cfgs))
	k0 := *sgemmKernel
	defer func() { *sgemmKernel = k0; irOuter = false; directA = true }()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reps := max(1, int(2e8/(2*float64(n*n*n))))
	for round := 0; round < 8; round++ {
		for i, c := range cfgs {
			sgemmKernel.KC, sgemmKernel.MC, sgemmKernel.NC = c.kc, c.mc, c.nc
			irOuter, directA = c.ir, c.inA
			start := threadTime()
			for r := 0; r < reps; r++ {
				SgemmBatched(1, n, n, n, 1, x, 0, n, 1, y, 0, n, 1, 0, z, 0, n, 1)
			}
			g := 2 * float64(n*n*n) * float64(reps) / (threadTime() - start) / 1e9
			best[i] = max(best[i], g)
		}
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
