package tensor

import (
	"math"
	"testing"
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
