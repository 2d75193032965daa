package tensor

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tsrlang/tsr/backends/cpu"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func cpuTime(reps int, f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	f()
	ts := make([]time.Duration, reps)
	for i := range ts {
		t0 := threadCPU()
		for j := 0; j < 20; j++ {
			f()
		}
		ts[i] = (threadCPU() - t0) / 20
	}
	slices.Sort(ts)
	return ts[reps/2]
}

func colMaxBuiltin(x, m []float32, r, inner int) {
	copy(m, x[:len(m)])
	for i := 1; i < r; i++ {
		row := x[i*inner : i*inner+len(m)]
		m := m[:len(row)]
		for j, v := range row {
			m[j] = max(m[j], v)
		}
	}
}

func TestTmpSpeed(t *testing.T) {
	n := 1 << 20
	x := make([]float32, n)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, n)
	t.Logf("tanh kernel  %v", cpuTime(5, func() { cpu.TanhF32(d, x) }))
	t.Logf("tanh vec     %v", cpuTime(5, func() { tanhVec(opsF32, d, x) }))
	t.Logf("exp          %v", cpuTime(5, func() { cpu.ExpF32(d, x) }))
	t.Logf("add          %v", cpuTime(5, func() { cpu.AddF32(d, x, x) }))
	m := make([]float32, 1024)
	t.Logf("colmax       %v", cpuTime(5, func() { colMax(x, m, 0, 1024, 1024) }))
	t.Logf("colmax bltin %v", cpuTime(5, func() { colMaxBuiltin(x, m, 1024, 1024) }))
}

func BenchmarkTmpTanhVec(b *testing.B) {
	n := 1 << 20
	x := make([]float32, n)
	for i := range x { x[i] = float32(i%1000) / 1000 }
	d := make([]float32, n)
	for b.Loop() { tanhVec(opsF32, d, x) }
}
