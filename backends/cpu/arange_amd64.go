//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerArangeAsm() {
	backends.Register(arangeBlocksKey(), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20,
		Impl: arangeBlocksFn(func(dst []float32, k0, dk int, a, c float32, lane *[8]float32) {
			nb := len(dst) / 8
			if g := nb / 2; g > 0 {
				var idx [16]int32
				var lanes [16]float32
				for j := range 8 {
					idx[j], idx[8+j] = int32(k0), int32(k0+dk)
					lanes[j], lanes[8+j] = lane[j], lane[j]
				}
				arangeBlocksF32AVX512(&dst[0], g, &idx[0], int32(2*dk), a, c, &lanes[0])
				dst, k0 = dst[16*g:], k0+2*g*dk
			}
			goArangeBlocks(dst, k0, dk, a, c, lane) // an odd last block
		})})
}
