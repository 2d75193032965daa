//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerTransposeAsm() {
	backends.Register(transposePanelKey("float32"), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20,
		Impl: transposePanelFn[float32](func(dst, src []float32, ld, rows, cols int) {
			if n := rows / 16 * 16; cols == TransposePanelWidthF32 && n > 0 {
				packT32F32AVX512(&dst[0], &src[0], ld, n)
				if rows == n {
					return
				}
				dst, src, rows = dst[n*TransposePanelWidthF32:], src[n:], rows-n
			}
			goTransposePanel(dst, src, ld, rows, cols)
		})})
	backends.Register(transposePanelKey("float64"), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20,
		Impl: transposePanelFn[float64](func(dst, src []float64, ld, rows, cols int) {
			if n := rows / 8 * 8; cols == TransposePanelWidthF64 && n > 0 {
				packT16F64AVX512(&dst[0], &src[0], ld, n)
				if rows == n {
					return
				}
				dst, src, rows = dst[n*TransposePanelWidthF64:], src[n:], rows-n
			}
			goTransposePanel(dst, src, ld, rows, cols)
		})})
}
