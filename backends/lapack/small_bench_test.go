package lapack

import "testing"

// BenchmarkSmall measures per-call overhead on 3×3 matrices (the batched
// tensor wrapper calls once per matrix): purego's reflective call and the
// workspace query dominate on the system engine.
func BenchmarkSmall(b *testing.B) {
	a := []float64{4, 1, 0, 1, 3, 1, 0, 1, 2}
	rhs := []float64{1, 2, 3}
	defer SetBackend("auto")
	for _, eng := range []string{"system", "gonum"} {
		b.Run("Solve3/"+eng, func(b *testing.B) {
			if err := SetBackend(eng); err != nil {
				b.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
			}
			for b.Loop() {
				if _, err := Solve(3, 1, a, rhs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Eigh3/"+eng, func(b *testing.B) {
			if err := SetBackend(eng); err != nil {
				b.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
			}
			for b.Loop() {
				if _, _, err := Eigh(3, a, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
