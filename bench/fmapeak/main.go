// Command fmapeak measures this core's peak AVX-512 f32 FMA throughput: 24
// independent VFMADD231PS zmm chains with no memory operands (more than
// the 4-cycle latency × 2 ports needs), timed in thread CPU time. It is the
// ceiling the GEMM micro-kernels are compared with ("% of peak" in the
// README); the 2048³ SGEMM's fraction of it is GFLOP/s / (this × cores).
//
//	go run ./bench/fmapeak          # best of 5 runs of 0.5 s, one core
//
// Linux on amd64 with AVX-512F only (it exits with a message without
// AVX-512F; other platforms do not build it).
//
//go:build linux && amd64

package main

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/cpu"
	"golang.org/x/sys/unix"
)

func main() {
	if !cpu.X86.HasAVX512F {
		fmt.Fprintln(os.Stderr, "fmapeak: needs AVX-512F")
		os.Exit(1)
	}
	runtime.LockOSThread()
	const n = 10_000_000 // 10M iterations × 24 FMAs × 16 lanes × 2 flops
	best := 0.0
	for range 5 {
		t := threadTime()
		fmaLoop(n)
		best = max(best, float64(n)*24*16*2/(threadTime()-t)/1e9)
	}
	fmt.Printf("f32 FMA peak, one core: %.1f GFLOP/s (best of 5, thread CPU time)\n", best)
}

// threadTime is the calling thread's CPU time in seconds.
func threadTime() float64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return float64(ts.Sec) + float64(ts.Nsec)*1e-9
}
