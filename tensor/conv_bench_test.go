package tensor

import "testing"

// BenchmarkConv2d is conv2d of [32, 64, 56, 56] with [64, 64, 3, 3],
// padding 1, in float32 (bench/run_conv.sh compares it with PyTorch).
func BenchmarkConv2d(b *testing.B) {
	x, _ := Full([]int{32, 64, 56, 56}, 0.5, F32)
	w, _ := Full([]int{64, 64, 3, 3}, 0.25, F32)
	p := ConvParams{Stride: [2]int{1, 1}, Padding: [2]int{1, 1}, Dilation: [2]int{1, 1}, Groups: 1}
	b.ResetTimer()
	for range b.N {
		if _, err := Conv2d(x, w, nil, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*32*64*56*56*64*9)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
