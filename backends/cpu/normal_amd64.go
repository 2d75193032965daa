//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerNormalAsm() {
	backends.Register(normalKey(), backends.Candidate{Name: "avx2", Impl: asmNormal(normalFill16F32AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(normalKey(), backends.Candidate{Name: "avx512", Impl: asmNormal(normalFill16F32AVX512), Requires: backends.TierAVX512, Priority: 20})
}

// asmNormal adapts an assembly normal_fill16 kernel: all the whole blocks
// of b in one call.
func asmNormal(f func(b *float32, blocks int, mean, std float32)) normalFillFn {
	return func(b []float32, mean, std float32) {
		if n := len(b) / 16; n > 0 {
			f(&b[0], n, mean, std)
		}
	}
}

func registerMTAsm() {
	backends.Register(mtTwistKey(), backends.Candidate{Name: "avx2", Impl: asmMTTwist(8, mtTwistAVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(mtTwistKey(), backends.Candidate{Name: "avx512", Impl: asmMTTwist(16, mtTwistAVX512), Requires: backends.TierAVX512, Priority: 20})
	backends.Register(mtUniformKey(), backends.Candidate{Name: "avx2", Impl: asmMTUniform(8, mtUniformF32AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(mtUniformKey(), backends.Candidate{Name: "avx512", Impl: asmMTUniform(16, mtUniformF32AVX512), Requires: backends.TierAVX512, Priority: 20})
}

// asmMTTwist adapts a vector twist kernel: the words [0, 227) read words
// 397 ahead (not yet regenerated), the words [227, 623) words 227 behind
// (regenerated); each range goes through the kernel in whole vectors and
// word by word for its last few words, and word 623 (which reads word 0)
// last.
func asmMTTwist(lanes int, f func(d, b, c *uint32, n int)) mtTwistFn {
	return func(s *[mtN]uint32) {
		const r1 = mtN - mtM // 227
		v := r1 / lanes * lanes
		f(&s[0], &s[1], &s[mtM], v)
		mtTwistRange(s, v, r1)
		w := (mtN - 1 - r1) / lanes * lanes
		f(&s[r1], &s[r1+1], &s[0], w)
		mtTwistRange(s, r1+w, mtN-1)
		s[mtN-1] = mtTwistWord(s[mtN-1], s[0], s[mtM-1])
	}
}

// asmMTUniform adapts a vector uniform kernel: whole vectors in one call,
// the remaining words in Go.
func asmMTUniform(lanes int, f func(dst *float32, s *uint32, n int)) mtUniformFn {
	return func(dst []float32, s []uint32) {
		s = s[:len(dst)]
		nv := len(dst) - len(dst)%lanes
		if nv > 0 {
			f(&dst[0], &s[0], nv)
		}
		goMTUniform(dst[nv:], s[nv:])
	}
}
