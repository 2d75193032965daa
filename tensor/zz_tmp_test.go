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
		for j := 0; j < 10; j++ {
			f()
		}
		ts[i] = (threadCPU() - t0) / 10
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

func TestTmpOps(t *testing.T) {
	SetNumThreads(1)
	defer SetNumThreads(2)
	g := NewGenerator(0)
	x, _ := Rand(g, []int{2048, 2048}, F32)
	y, _ := Rand(g, []int{2048, 2048}, F32)
	xi := x.Clone()
	row, _ := y.Select(0, 0)
	s := ScalarFloat(0.125)
	rel := func(z *Tensor, _ error) { z.Release() }
	cases := []struct{ name string; f func() }{
		{"add", func() { rel(Add(x, y)) }},
		{"add_", func() { xi.AddInplace(y) }},
		{"mulscalar", func() { rel(Mul(x, s)) }},
		{"rowbcast", func() { rel(Add(x, row)) }},
		{"exp", func() { rel(Exp(x)) }},
		{"tanh", func() { rel(Tanh(x)) }},
		{"sigmoid", func() { rel(Sigmoid(x)) }},
		{"sumall", func() { rel(Sum(x, nil, false)) }},
		{"sum0", func() { rel(Sum(x, []int{0}, false)) }},
		{"sum1", func() { rel(Sum(x, []int{1}, false)) }},
		{"amax0", func() { rel(Amax(x, []int{0}, false)) }},
		{"amax1", func() { rel(Amax(x, []int{1}, false)) }},
		{"maxall", func() { rel(Max(x)) }},
	}
	for _, c := range cases {
		t.Logf("%-10s %v", c.name, cpuTime(3, c.f))
	}
}
