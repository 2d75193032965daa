package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// normalF32 is Normal's path for an f32 tensor of 16 or more elements
// (PyTorch's normal_fill with normal_fill_16_AVX2): d receives all the
// uniforms first, then they are transformed in place by blocks of 16
// (cpu.NormalFill16F32: u1 = 1 - d[j], u2 = d[j+8]; Cephes log and
// sincos with PyTorch's FMA contractions, so the samples are PyTorch
// 1.13's bits, see TestRandnF32MatchesTorch); a ragged tail redraws and
// transforms the last 16.
func normalF32(g *Generator, d []float32, mean, std float32) {
	n := len(d)
	g.mt.uniformF32(d)
	// The transforms are independent once the uniforms are drawn; a block
	// costs about as much as 16 elements of a binary op.
	parallelTasks(n/16, 16, parallelGrain, func(b0, b1 int) {
		cpu.NormalFill16F32(d[16*b0:16*b1], mean, std)
	})
	if n%16 != 0 { // a ragged tail redraws and transforms the last 16
		tail := d[n-16:]
		g.mt.uniformF32(tail)
		cpu.NormalFill16F32(tail, mean, std)
	}
}
