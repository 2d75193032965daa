package cpu

import (
	"math/rand/v2"
	"testing"
)

// packedAsBatched runs SgemmPacked/DgemmPacked behind the batched GEMM
// signature, so runCase checks it on every layout against the reference.
func packedAsBatched[T float](pack func(k, n int, b []T, rsB, csB int, buf []T) PackedB[T],
	gemm func(m, n, k int, alpha T, a []T, rsA, csA int, bp PackedB[T], beta T, c []T, rsC, csC int)) func(batch, m, n, k int, alpha T, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta T, c []T, bsC, rsC, csC int) {
	return func(batch, m, n, k int, alpha T, a []T, bsA, rsA, csA int, b []T, bsB, rsB, csB int, beta T, c []T, bsC, rsC, csC int) {
		for q := 0; q < batch; q++ {
			var bq []T
			if k > 0 && n > 0 {
				bq = b[q*bsB:]
			}
			bp := pack(k, n, bq, rsB, csB, nil)
			var aq, cq []T
			if m > 0 && k > 0 {
				aq = a[q*bsA:]
			}
			if m > 0 && n > 0 {
				cq = c[q*bsC:]
			}
			gemm(m, n, k, alpha, aq, rsA, csA, bp, beta, cq, rsC, csC)
		}
	}
}

func TestGemmPackedB(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range randomCases(rng, 150) {
		runCase(t, rng, c, 6e-8, packedAsBatched(SgemmPackB, SgemmPacked))
	}
	for _, c := range randomCases(rng, 100) {
		runCase(t, rng, c, 1.2e-16, packedAsBatched(DgemmPackB, DgemmPacked))
	}
	// k > KC: several K panels, the later ones accumulating with beta = 1.
	big := gemmCase{batch: 1, m: 30, n: 70, k: 2*sgemmKernel.KCRowA + 5, la: lRow, lb: lCol, lc: lRow, alpha: 1.5, beta: -0.5}
	runCase(t, rng, big, 6e-8, packedAsBatched(SgemmPackB, SgemmPacked))
}

// TestGemmPackedCorner: a product may use the top-left k'×n' corner of a
// packed k×n B (the causal attention blocks do); it equals the product
// with that corner of B.
func TestGemmPackedCorner(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const k, n, m = 70, 100, 29
	b := make([]float32, k*n)
	a := make([]float32, m*k)
	for i := range b {
		b[i] = float32(rng.NormFloat64())
	}
	for i := range a {
		a[i] = float32(rng.NormFloat64())
	}
	bp := SgemmPackB(k, n, b, n, 1, make([]float32, SgemmPackBSize(k, n)))
	if kk, nn := bp.Dims(); kk != k || nn != n {
		t.Fatalf("Dims() = %d, %d", kk, nn)
	}
	for _, sub := range [][2]int{{k, n}, {33, 41}, {1, 1}, {70, 33}, {12, 100}} {
		kk, nn := sub[0], sub[1]
		got := make([]float32, m*nn)
		want := make([]float32, m*nn)
		SgemmPacked(m, nn, kk, 1, a, k, 1, bp, 0, got, nn, 1)
		sgemmRef(1, m, nn, kk, 1, a, 0, k, 1, b, 0, n, 1, 0, want, 0, nn, 1)
		for i := range got {
			if d := got[i] - want[i]; d > 1e-4 || d < -1e-4 {
				t.Fatalf("corner %dx%d: element %d = %v, want %v", kk, nn, i, got[i], want[i])
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a product larger than the packed B did not panic")
		}
	}()
	SgemmPacked(m, n+1, k, 1, a, k, 1, bp, 0, make([]float32, m*(n+1)), n+1, 1)
}
