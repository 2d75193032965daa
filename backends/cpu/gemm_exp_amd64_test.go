//go:build amd64 && !purego

package cpu

func init() {
	mk := func(f func(kc int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, alpha float32, beta float32, mr int, nmask uint64)) func(kc int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
		return func(kc int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
			checkTile(12, 32, kc, a, true, lda, b, ldb, c, ldc, mr, nr)
			f(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
		}
	}
	expRowA = map[string]any{
		"nopfc": mk(gemm12x32RowANoPfCF32AVX512),
		"pfb16": mk(gemm12x32RowAPfB16F32AVX512),
		"pfb32": mk(gemm12x32RowAPfB32F32AVX512),
	}
}
