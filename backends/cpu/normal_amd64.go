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
