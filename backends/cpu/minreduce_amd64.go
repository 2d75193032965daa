//go:build amd64 && !purego

package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

func registerMinAsm() {
	backends.Register(minKey("float32"), backends.Candidate{Name: "avx2", Requires: backends.TierAVX2, Priority: 10, Impl: vecMin(8, minF32AVX2)})
	backends.Register(minKey("float64"), backends.Candidate{Name: "avx2", Requires: backends.TierAVX2, Priority: 10, Impl: vecMin(4, minF64AVX2)})
	backends.Register(minKey("float32"), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20, Impl: vecMin(16, minF32AVX512)})
	backends.Register(minKey("float64"), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20, Impl: vecMin(8, minF64AVX512)})
}

// vecMin adapts a min kernel (whole vectors; per-lane minima and a NaN
// detector) as vecMax does a max kernel: a lane that saw a NaN sends the
// wrapper back to return the first NaN, the tail is scanned in Go.
func vecMin[T float](lanes int, vec func(x *T, n int, out, nan *T)) minFn[T] {
	return func(x []T) T {
		m := T(math.Inf(1))
		nv := len(x) - len(x)%lanes
		if nv > 0 {
			var out, nan [16]T
			vec(&x[0], nv, &out[0], &nan[0])
			for i, v := range out[:lanes] {
				if nan[i] != nan[i] { // some element of this lane is NaN: return the first NaN
					for _, u := range x[:nv] {
						if u != u {
							return u
						}
					}
				}
				if v < m {
					m = v
				}
			}
		}
		for _, v := range x[nv:] {
			if v != v {
				return v
			}
			if v < m {
				m = v
			}
		}
		return m
	}
}
