package tensor

import (
	"sync"

	"github.com/tsrlang/tsr/backends/cpu"
)

// normalChunk is the number of uniforms drawn between hand-offs to the
// goroutines that transform them (64 KiB of float32: still in L2 when
// transformed); a multiple of 16.
const normalChunk = 1 << 14

// normalF32 is Normal's path for an f32 tensor of 16 or more elements
// (PyTorch's normal_fill with normal_fill_16_AVX2): d receives all the
// uniforms first, then they are transformed in place by blocks of 16
// (cpu.NormalFill16F32: u1 = 1 - d[j], u2 = d[j+8]; Cephes log and
// sincos with PyTorch's FMA contractions, so the samples are PyTorch
// 1.13's bits, see TestRandnF32MatchesTorch); a ragged tail redraws and
// transforms the last 16.
//
// The draws are sequential, but a block's transform needs only its own
// uniforms: with several threads this goroutine draws the uniforms chunk
// by chunk and hands each chunk to the others (then joins them), so the
// transforms overlap the draws; the result does not depend on the thread
// count.
func normalF32(g *Generator, d []float32, mean, std float32) {
	n := len(d)
	full := d[:n&^15]
	chunks := (len(full) + normalChunk - 1) / normalChunk
	if k := min(GetNumThreads(), chunks); k <= 1 || len(full) < parallelGrain {
		g.mt.uniformF32(d)
		cpu.NormalFill16F32(full, mean, std)
	} else {
		chunk := func(c int) []float32 { return full[c*normalChunk : min(c*normalChunk+normalChunk, len(full))] }
		ready := make(chan int, chunks)
		transform := func() {
			for c := range ready {
				cpu.NormalFill16F32(chunk(c), mean, std)
			}
		}
		var wg sync.WaitGroup
		for range k - 1 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				transform()
			}()
		}
		for c := range chunks {
			g.mt.uniformF32(chunk(c))
			ready <- c
		}
		close(ready)
		g.mt.uniformF32(d[len(full):]) // drawn, then overwritten by the tail's
		transform()
		wg.Wait()
	}
	if n%16 != 0 { // a ragged tail redraws and transforms the last 16
		tail := d[n-16:]
		g.mt.uniformF32(tail)
		cpu.NormalFill16F32(tail, mean, std)
	}
}
