package tensor

import "testing"

// BenchmarkRandnF32 is randn(2048, 2048) in float32 (normal_fill: the
// MT19937 uniforms, then the Box-Muller blocks).
func BenchmarkRandnF32(b *testing.B) {
	g := NewGenerator(1)
	b.SetBytes(4 << 22)
	for b.Loop() {
		x, err := Randn(g, []int{2048, 2048}, F32)
		if err != nil {
			b.Fatal(err)
		}
		x.Release()
	}
}
