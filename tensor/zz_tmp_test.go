package tensor

import (
	"math"
	"testing"
	"time"
	"syscall"
	"runtime"
	"slices"
	"github.com/tsrlang/tsr/backends/cpu"
)

func BenchmarkTmpTanhKernel(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { cpu.TanhF32(d, x) }
}
func BenchmarkTmpExpKernel(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { cpu.ExpF32(d, x) }
}
func BenchmarkTmpSigmoid(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { sigmoidVec(opsF32, d, x) }
}

func sigNoExp(dst, x []float32, callExp bool) {
	var e [256]float32
	for c := 0; c < len(dst); c += 256 {
		xc := x[c:min(c+256, len(dst))]
		dc := dst[c : c+len(xc)]
		ec := e[:len(xc)]
		for i, v := range xc {
			ec[i] = -v
		}
		if callExp {
			cpu.ExpF32(ec, ec)
		}
		for i, v := range xc {
			ev := ec[i]
			r := 1 / (1 + ev)
			if v < 0 {
				r *= ev
			}
			dc[i] = r
		}
	}
}
func BenchmarkTmpSigLoopNoExp(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { sigNoExp(d, x, false) }
}
func BenchmarkTmpSigLoopExp(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { sigNoExp(d, x, true) }
}

func goLoop(d, x []float32) {
	for i, v := range x {
		d[i] = 1 / (1 + v)
	}
}
func benchAfter(b *testing.B, pre func(d, x []float32)) {
	x := make([]float32, 4096)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() {
		if pre != nil { pre(d[:16], x[:16]) }
		goLoop(d, x)
	}
}
func BenchmarkTmpAfterNone(b *testing.B) { benchAfter(b, nil) }
func BenchmarkTmpAfterExp(b *testing.B)  { benchAfter(b, cpu.ExpF32) }
func BenchmarkTmpAfterAdd(b *testing.B)  { benchAfter(b, func(d, x []float32) { cpu.AddF32(d, x, x) }) }

func BenchmarkTmpTanhMath(b *testing.B) {
	x := make([]float32, 1<<20)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, len(x))
	for b.Loop() { for i, v := range x { d[i] = float32(math.Tanh(float64(v))) } }
}

func benchTr(b *testing.B, tb int, fast bool) {
	SetNumThreads(1)
	defer SetNumThreads(2)
	tileOverride = tb
	defer func() { tileOverride = 0 }()
	fastPathsOff.Store(!fast)
	defer fastPathsOff.Store(false)
	g := NewGenerator(0)
	x, _ := Rand(g, []int{2048, 2048}, F32)
	y, _ := Rand(g, []int{2048, 2048}, F32)
	yt, _ := y.T()
	for b.Loop() {
		z, _ := Add(x, yt)
		z.Release()
	}
}
func BenchmarkTmpTr16(b *testing.B) { benchTr(b, 16, true) }
func BenchmarkTmpTr32(b *testing.B) { benchTr(b, 32, true) }
func BenchmarkTmpTr64(b *testing.B) { benchTr(b, 64, true) }
func BenchmarkTmpTr128(b *testing.B) { benchTr(b, 128, true) }
func BenchmarkTmpTrGeneric(b *testing.B) { benchTr(b, 0, false) }

func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1 /*RUSAGE_THREAD*/, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func cpuTime(reps int, f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f()
	ts := make([]time.Duration, reps)
	for i := range ts {
		t0 := threadCPU()
		f()
		ts[i] = threadCPU() - t0
	}
	slices.Sort(ts)
	return ts[reps/2]
}

func TestTmpTrCPU(t *testing.T) {
	SetNumThreads(1)
	defer SetNumThreads(2)
	g := NewGenerator(0)
	x, _ := Rand(g, []int{2048, 2048}, F32)
	y, _ := Rand(g, []int{2048, 2048}, F32)
	yt, _ := y.T()
	run := func() { z, _ := Add(x, yt); z.Release() }
	for _, tb := range []int{16, 32, 64, 128} {
		tileOverride = tb
		t.Logf("tile %d: %v", tb, cpuTime(7, run))
	}
	tileOverride = 0
	fastPathsOff.Store(true)
	t.Logf("generic: %v", cpuTime(7, run))
	t.Logf("contig generic: %v", cpuTime(7, func() { z, _ := Add(x, y); z.Release() }))
	fastPathsOff.Store(false)
	t.Logf("contig fast: %v", cpuTime(7, func() { z, _ := Add(x, y); z.Release() }))
}
