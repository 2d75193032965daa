package tensor

import (
	"testing"
	"time"
)

// BenchmarkConv2d is conv2d of [32, 64, 56, 56] with [64, 64, 3, 3],
// padding 1, in float32 (bench/run_conv.sh compares it with PyTorch, whose
// script reports the best of its runs: best-ms is that for tsr).
func BenchmarkConv2d(b *testing.B) {
	x, _ := Full([]int{32, 64, 56, 56}, 0.5, F32)
	w, _ := Full([]int{64, 64, 3, 3}, 0.25, F32)
	p := ConvParams{Stride: [2]int{1, 1}, Padding: [2]int{1, 1}, Dilation: [2]int{1, 1}, Groups: 1}
	benchBest(b, 2*32*64*56*56*64*9, func() error {
		_, err := Conv2d(x, w, nil, p)
		return err
	})
}

// BenchmarkConv2dBackward is the input and weight gradients of
// BenchmarkConv2d's convolution (bench/conv_torch.py's backward).
func BenchmarkConv2dBackward(b *testing.B) {
	x, _ := Full([]int{32, 64, 56, 56}, 0.5, F32)
	w, _ := Full([]int{64, 64, 3, 3}, 0.25, F32)
	g, _ := Full([]int{32, 64, 56, 56}, 0.125, F32)
	p := ConvParams{Stride: [2]int{1, 1}, Padding: [2]int{1, 1}, Dilation: [2]int{1, 1}, Groups: 1}
	benchBest(b, 2*2*32*64*56*56*64*9, func() error {
		_, _, _, err := ConvBackward(x, w, g, p, false, true, true, false)
		return err
	})
}

// benchBest runs fn b.N times and reports GFLOP/s of the mean and the best
// run in ms.
func benchBest(b *testing.B, flops float64, fn func() error) {
	if err := fn(); err != nil { // warm-up, as the PyTorch script does
		b.Fatal(err)
	}
	b.ResetTimer()
	best := time.Duration(1 << 62)
	for range b.N {
		t := time.Now()
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(t))
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(float64(best.Microseconds())/1e3, "best-ms")
}
