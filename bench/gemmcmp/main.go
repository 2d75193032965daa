// Command gemmcmp times one square GEMM case for bench/gemm_interleaved.sh:
//
//	gemmcmp S|D n [T|NT]
//
// prints the best GFLOP/s of 5 timed batches, in the calling thread's CPU
// time (single-threaded runs on a shared machine) or wall time with WALL=1.
//
// Linux only (it reads the thread CPU clock).
//
//go:build linux

package main

import (
	"fmt"
	"golang.org/x/sys/unix"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/tsrlang/tsr/backends/cpu"
)

func main() {
	dt := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	trans := ""
	if len(os.Args) > 3 {
		trans = os.Args[3]
	}
	_ = runtime.GOMAXPROCS(0)
	r := rand.New(rand.NewPCG(1, 2))
	rsA, csA, rsB, csB := n, 1, n, 1
	switch trans {
	case "T":
		rsA, csA = 1, n
	case "NT":
		rsB, csB = 1, n
	}
	reps := max(3, int(2e9/(2*float64(n)*float64(n)*float64(n))))
	reps = min(reps, 2000)
	per := max(1, reps/5)
	best := 1e9
	if dt == "S" {
		a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
		for i := range a {
			a[i], b[i] = r.Float32(), r.Float32()
		}
		cpu.SgemmBatched(1, n, n, n, 1, a, 0, rsA, csA, b, 0, rsB, csB, 0, c, 0, n, 1)
		for k := 0; k < 5; k++ {
			runtime.LockOSThread()
			t := tt()
			for i := 0; i < per; i++ {
				cpu.SgemmBatched(1, n, n, n, 1, a, 0, rsA, csA, b, 0, rsB, csB, 0, c, 0, n, 1)
			}
			best = min(best, (tt()-t)/float64(per))
		}
	} else {
		a, b, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		for i := range a {
			a[i], b[i] = r.Float64(), r.Float64()
		}
		cpu.DgemmBatched(1, n, n, n, 1, a, 0, rsA, csA, b, 0, rsB, csB, 0, c, 0, n, 1)
		for k := 0; k < 5; k++ {
			runtime.LockOSThread()
			t := tt()
			for i := 0; i < per; i++ {
				cpu.DgemmBatched(1, n, n, n, 1, a, 0, rsA, csA, b, 0, rsB, csB, 0, c, 0, n, 1)
			}
			best = min(best, (tt()-t)/float64(per))
		}
	}
	fmt.Printf("%.1f\n", 2*float64(n)*float64(n)*float64(n)/best/1e9)
}

// tt is the clock: thread CPU time, or wall time with WALL=1.
func tt() float64 {
	if os.Getenv("WALL") != "" {
		return float64(time.Now().UnixNano()) * 1e-9
	}
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}
