//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

func registerBinTAsm() {
	kernels := [4][2]func(o *float32, os int, a *float32, as int, b *float32, bs int, cols int){
		{addTF32AVX512, addTRevF32AVX512}, {subTF32AVX512, subTRevF32AVX512},
		{mulTF32AVX512, mulTRevF32AVX512}, {divTF32AVX512, divTRevF32AVX512},
	}
	backends.Register(binTKey(), backends.Candidate{Name: "avx512", Requires: backends.TierAVX512, Priority: 20,
		Impl: binTFn(func(op BinOp, rev bool, o []float32, os int, a []float32, as int, b []float32, bs, rows, cols int) {
			r := 0
			if rev {
				r = 1
			}
			k := kernels[op][r]
			R, C := rows/16*16, cols/16*16
			if C > 0 {
				for i := 0; i < R; i += 16 { // 16-row strips, whole 16-column tiles
					k(&o[i*os], os, &a[i*as], as, &b[i], bs, C)
				}
			}
			if C < cols { // the right columns
				goBinT(op, rev, o[C:], os, a[C:], as, b[C*bs:], bs, rows, cols-C)
			}
			if R < rows && C > 0 { // the bottom rows
				goBinT(op, rev, o[R*os:], os, a[R*as:], as, b[R:], bs, rows-R, C)
			}
		})})
}
