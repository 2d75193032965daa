//go:build amd64 && !purego

package cpu

import "github.com/tsrlang/tsr/backends"

// Cache blocking for the assembly kernels, tuned on the development machine
// (Intel Xeon with AVX-512 and AMX, 48 KiB L1d, 2 MiB L2 per core, 2 cores
// shared with other jobs, so numbers are noisy): KC×NR of B stays in L1
// (f32 384×32×4 = 48 KiB; f64 256×16×8 = 32 KiB), MC×KC of A in L2 (f32
// 240×384×4 = 360 KiB), KC×NC of B in L3. Single-thread SGEMM 1536 sweep
// (GFLOP/s, best of two noisy runs): KC=384/MC=240 122, KC=384/MC=480 123,
// KC=256/MC=480 118, KC=256/MC=240 107; KC=512 and KC=192 were worse.
var (
	avx512GemmF32 = &GemmKernel[float32]{Name: "avx512-12x32", MR: 12, NR: 32, KC: 384, MC: 240, NC: 4096, Micro: microAVX512F32}
	avx512GemmF64 = &GemmKernel[float64]{Name: "avx512-12x16", MR: 12, NR: 16, KC: 256, MC: 240, NC: 4096, Micro: microAVX512F64}
	avx2GemmF32   = &GemmKernel[float32]{Name: "avx2-6x16", MR: 6, NR: 16, KC: 256, MC: 240, NC: 4096, Micro: microAVX2F32}
	avx2GemmF64   = &GemmKernel[float64]{Name: "avx2-6x8", MR: 6, NR: 8, KC: 256, MC: 120, NC: 4096, Micro: microAVX2F64}
)

func registerGemmAsm() {
	sk := backends.Key{Op: "sgemm", DType: "float32", Device: "cpu"}
	dk := backends.Key{Op: "dgemm", DType: "float64", Device: "cpu"}
	backends.Register(sk, backends.Candidate{Name: avx2GemmF32.Name, Impl: avx2GemmF32, Requires: backends.TierAVX2, Priority: 10})
	backends.Register(dk, backends.Candidate{Name: avx2GemmF64.Name, Impl: avx2GemmF64, Requires: backends.TierAVX2, Priority: 10})
	backends.Register(sk, backends.Candidate{Name: avx512GemmF32.Name, Impl: avx512GemmF32, Requires: backends.TierAVX512, Priority: 20})
	backends.Register(dk, backends.Candidate{Name: avx512GemmF64.Name, Impl: avx512GemmF64, Requires: backends.TierAVX512, Priority: 20})
}

// The wrappers check the panel and tile extents once per tile, so the
// assembly never touches memory outside the slices it was given.

func microAVX512F32(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	_, _, _ = a[12*kc-1], b[32*kc-1], c[11*ldc+31]
	gemm12x32F32AVX512(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
}

func microAVX512F64(kc int, a, b, c []float64, ldc int, alpha, beta float64) {
	_, _, _ = a[12*kc-1], b[16*kc-1], c[11*ldc+15]
	gemm12x16F64AVX512(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
}

func microAVX2F32(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	_, _, _ = a[6*kc-1], b[16*kc-1], c[5*ldc+15]
	gemm6x16F32AVX2(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
}

func microAVX2F64(kc int, a, b, c []float64, ldc int, alpha, beta float64) {
	_, _, _ = a[6*kc-1], b[8*kc-1], c[5*ldc+7]
	gemm6x8F64AVX2(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
}
