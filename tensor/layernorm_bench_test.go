package tensor

import "testing"

// BenchmarkLayerNorm times the fused layer_norm kernels on [1000, 1000]
// float32; outputs are released (recycled), so the times are the
// kernels' without first-touch page faults.
func BenchmarkLayerNorm(b *testing.B) {
	g := NewGenerator(0)
	x, _ := Randn(g, []int{1000, 1000}, F32)
	dy, _ := Randn(g, []int{1000, 1000}, F32)
	w, _ := Randn(g, []int{1000}, F32)
	_, mean, rstd, _ := LayerNorm(x, 1000, w, nil, 1e-5)
	b.Run("fwd", func(b *testing.B) {
		for b.Loop() {
			y, _, _, _ := LayerNorm(x, 1000, w, nil, 1e-5)
			y.Release()
		}
	})
	b.Run("bwd", func(b *testing.B) {
		for b.Loop() {
			dx, _, _, _ := LayerNormBackward(dy, x, mean, rstd, w, 1000, true, true, true)
			dx.Release()
		}
	})
	b.Run("bwd_x", func(b *testing.B) {
		for b.Loop() {
			dx, _, _, _ := LayerNormBackward(dy, x, mean, rstd, w, 1000, true, false, false)
			dx.Release()
		}
	})
}
