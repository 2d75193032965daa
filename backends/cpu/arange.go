package cpu

import "github.com/tsrlang/tsr/backends"

// The block body of PyTorch's f32 linspace: 8-element blocks, each a base
// fma(a, float32(k), c) (one rounding: the C++ start + step*ind contracted
// to an FMA) plus the Vectorized::arange lane offsets.

type arangeBlocksFn func(dst []float32, k0, dk int, a, c float32, lane *[8]float32)

var arangeBlocks arangeBlocksFn

func arangeBlocksKey() backends.Key {
	return backends.Key{Op: "arange_blocks", DType: "float32", Device: "cpu"}
}

func init() {
	backends.Register(arangeBlocksKey(), backends.Candidate{Name: "go", Impl: arangeBlocksFn(goArangeBlocks), Requires: backends.TierGeneric})
	registerArangeAsm()
	c, ok := backends.Lookup(arangeBlocksKey())
	if !ok {
		panic("cpu: no kernel registered for arange_blocks/float32")
	}
	arangeBlocks = c.Impl.(arangeBlocksFn)
}

// ArangeBlocksF32 sets, for each 8-element block b of dst (len(dst) a
// multiple of 8), dst[8b+j] = FMA32(a, float32(k0+b*dk), c) + lane[j]:
// PyTorch's vectorised linspace/arange body (the first half of linspace
// counts up from start, k = i; the second down from end, k = n-1-i).
// Panics if len(dst) is not a multiple of 8 or an index k leaves the
// int32 range.
func ArangeBlocksF32(dst []float32, k0, dk int, a, c float32, lane *[8]float32) {
	if len(dst)%8 != 0 {
		panic("cpu.ArangeBlocksF32: len(dst) is not a multiple of 8")
	}
	if nb := len(dst) / 8; nb > 0 {
		if k1 := k0 + (nb-1)*dk; min(k0, k1) < -1<<31 || max(k0, k1) >= 1<<31 {
			panic("cpu.ArangeBlocksF32: block index outside int32")
		}
		arangeBlocks(dst, k0, dk, a, c, lane)
	}
}

// goArangeBlocks is the scalar reference (FMA32 per block).
func goArangeBlocks(dst []float32, k0, dk int, a, c float32, lane *[8]float32) {
	l0, l1, l2, l3, l4, l5, l6, l7 := lane[0], lane[1], lane[2], lane[3], lane[4], lane[5], lane[6], lane[7]
	k := k0
	for i := 0; i+8 <= len(dst); i += 8 {
		base, ok := FMA32Quick(a, float32(k), c)
		if !ok {
			base = FMA32(a, float32(k), c)
		}
		blk := (*[8]float32)(dst[i : i+8])
		blk[0], blk[1], blk[2], blk[3] = base+l0, base+l1, base+l2, base+l3
		blk[4], blk[5], blk[6], blk[7] = base+l4, base+l5, base+l6, base+l7
		k += dk
	}
}
