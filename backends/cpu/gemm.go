// Package cpu holds tsr's CPU kernels: GEMM and elementwise/reduction
// kernels, with a pure-Go reference for every entry. SIMD variants
// (AVX2+FMA, AVX-512) are generated assembly (see internal/gen) registered in
// the backends registry; the exported functions call the variant chosen for
// this machine (TSR_CPU=generic|avx2|avx512 lowers the choice; the build tag
// purego removes the assembly altogether).
package cpu

import (
	"github.com/tsrlang/tsr/backends"
)

// SgemmBatched computes, for each batch index q in [0, batch),
//
//	C_q = alpha * A_q * B_q + beta * C_q
//
// in float32, where A_q is m×k with element (i, p) at a[q*bsA + i*rsA + p*csA],
// B_q is k×n with element (p, j) at b[q*bsB + p*rsB + j*csB] and C_q is m×n
// with element (i, j) at c[q*bsC + i*rsC + j*csC]. Strides are in elements
// and must be >= 0; a stride of 0 (a broadcast operand) is allowed for A and
// B (and for bsA/bsB), never for C. Transposes are expressed by swapping
// the row and column strides, so no operand is ever copied by the caller.
// When beta == 0, C is not read (NaNs in C do not propagate), as in BLAS.
//
// Algorithm: GotoBLAS/BLIS (Goto & van de Geijn, "Anatomy of
// High-Performance Matrix Multiplication", TOMS 2008; Van Zee & van de
// Geijn, "BLIS", TOMS 2015): a register-tile micro-kernel (assembly for
// AVX-512/AVX2, Go otherwise) runs over MR×NR tiles of C. A row-major A is
// read in place (no packing; the MR×KC A micro-panel stays in L1 while
// packed KC×NR B micro-panels stream from a B block in L2); any other A is
// packed into MC×KC blocks. B is packed into KC×NC panels (in AVX-512
// assembly, gathering for transposed/strided B), or read in place when it
// is row-major and small or m is small. Partial tiles are written with
// masked stores. Problems with m*n*k < 64 run plain loops. Large problems
// are split over NumThreads goroutines of a persistent worker pool.
// Rounding differs from the naive loop (different summation order), by at
// most the usual k*eps*|A||B| bound.
func SgemmBatched(batch, m, n, k int, alpha float32,
	a []float32, bsA, rsA, csA int,
	b []float32, bsB, rsB, csB int,
	beta float32,
	c []float32, bsC, rsC, csC int) {
	gemmBatched(sgemmKernel, axpyF32, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
}

// SgemmBatchedScaled computes C_q = alpha * (A_q * B_q) for each batch
// index q, with operands laid out as in SgemmBatched (beta is 0: C is not
// read), such that every element of C is bit for bit float32(alpha * p),
// p being the element SgemmBatched with alpha = 1 and beta = 0 computes:
// the product followed by C *= alpha, in one pass over C. When k fits one
// KC panel of the packed path the micro-kernel scales its accumulators
// before its only store (the product is rounded once there as well);
// otherwise the product is computed with alpha = 1 and each C row scaled
// (MulScalarF32). SgemmBatched's own alpha is not this: its no-packing
// path scales A's elements, and with several KC panels the partial sums,
// which round differently. tsr folds `ein"..."(a, b) * s` into this GEMM
// epilogue (a fused scale as in cuBLASLt's alpha).
func SgemmBatchedScaled(batch, m, n, k int, alpha float32,
	a []float32, bsA, rsA, csA int,
	b []float32, bsB, rsB, csB int,
	c []float32, bsC, rsC, csC int) {
	gemmBatchedScal(sgemmKernel, axpyF32, MulScalarF32, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, 0, c, bsC, rsC, csC)
}

// DgemmBatchedScaled is SgemmBatchedScaled in float64.
func DgemmBatchedScaled(batch, m, n, k int, alpha float64,
	a []float64, bsA, rsA, csA int,
	b []float64, bsB, rsB, csB int,
	c []float64, bsC, rsC, csC int) {
	gemmBatchedScal(dgemmKernel, axpyF64, MulScalarF64, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, 0, c, bsC, rsC, csC)
}

// DgemmBatched is SgemmBatched in float64.
func DgemmBatched(batch, m, n, k int, alpha float64,
	a []float64, bsA, rsA, csA int,
	b []float64, bsB, rsB, csB int,
	beta float64,
	c []float64, bsC, rsC, csC int) {
	gemmBatched(dgemmKernel, axpyF64, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
}

// sgemmRef is the naive reference SgemmBatched (triple loop, same contract).
func sgemmRef(batch, m, n, k int, alpha float32,
	a []float32, bsA, rsA, csA int,
	b []float32, bsB, rsB, csB int,
	beta float32,
	c []float32, bsC, rsC, csC int) {
	gemmRef(batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
}

// dgemmRef is the naive reference DgemmBatched.
func dgemmRef(batch, m, n, k int, alpha float64,
	a []float64, bsA, rsA, csA int,
	b []float64, bsB, rsB, csB int,
	beta float64,
	c []float64, bsC, rsC, csC int) {
	gemmRef(batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
}

func gemmRef[T float](batch, m, n, k int, alpha T,
	a []T, bsA, rsA, csA int,
	b []T, bsB, rsB, csB int,
	beta T,
	c []T, bsC, rsC, csC int) {
	for q := 0; q < batch; q++ {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var acc T
				for p := 0; p < k; p++ {
					acc += a[q*bsA+i*rsA+p*csA] * b[q*bsB+p*rsB+j*csB]
				}
				ci := q*bsC + i*rsC + j*csC
				if beta == 0 {
					c[ci] = alpha * acc
				} else {
					c[ci] = alpha*acc + beta*c[ci]
				}
			}
		}
	}
}

// Active GEMM kernels, resolved from the registry at init.
var (
	sgemmKernel *GemmKernel[float32]
	dgemmKernel *GemmKernel[float64]
)

func init() {
	registerGemm()
	c, _ := backends.Lookup(backends.Key{Op: "sgemm", DType: "float32", Device: "cpu"})
	sgemmKernel = c.Impl.(*GemmKernel[float32])
	d, _ := backends.Lookup(backends.Key{Op: "dgemm", DType: "float64", Device: "cpu"})
	dgemmKernel = d.Impl.(*GemmKernel[float64])
}

func registerGemm() {
	backends.Register(backends.Key{Op: "sgemm", DType: "float32", Device: "cpu"},
		backends.Candidate{Name: "go-4x4", Impl: goGemmF32, Requires: backends.TierGeneric})
	backends.Register(backends.Key{Op: "dgemm", DType: "float64", Device: "cpu"},
		backends.Candidate{Name: "go-4x4", Impl: goGemmF64, Requires: backends.TierGeneric})
	registerGemmAsm()
}

// Blocking for the pure-Go kernel: its 4×4 tile is register-bound in Go, so
// only L1/L2 locality matters.
var (
	goGemmF32 = &GemmKernel[float32]{Name: "go-4x4", MR: 4, NR: 4, KC: 256, MC: 128, NC: 2048, NCRowA: 512,
		Micro: microGoPacked[float32], MicroRowA: microGoRowA[float32]}
	goGemmF64 = &GemmKernel[float64]{Name: "go-4x4", MR: 4, NR: 4, KC: 256, MC: 128, NC: 2048, NCRowA: 512,
		Micro: microGoPacked[float64], MicroRowA: microGoRowA[float64]}
)

func microGoPacked[T float](kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr int) {
	microGo(kc, a, 1, 4, b, ldb, c, ldc, alpha, beta, mr, nr)
}

func microGoRowA[T float](kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr, _ int) {
	microGo(kc, a, lda, 1, b, ldb, c, ldc, alpha, beta, mr, nr)
}

// microGo is the pure-Go 4×4 micro-kernel with GemmKernel.Micro's contract,
// A(i,p) = a[i*ras+p*cas] (all 4 rows readable), B(p,j) = b[p*ldb+j].
func microGo[T float](kc int, a []T, ras, cas int, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr int) {
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 T
	for p := 0; p < kc; p++ {
		ap := a[p*cas:]
		bp := b[p*ldb : p*ldb+4 : p*ldb+4]
		a0, a1, a2, a3 := ap[0], ap[ras], ap[2*ras], ap[3*ras]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	rows := [4][4]T{{c00, c01, c02, c03}, {c10, c11, c12, c13}, {c20, c21, c22, c23}, {c30, c31, c32, c33}}
	for i := 0; i < mr; i++ {
		cr := c[i*ldc : i*ldc+nr]
		if beta == 0 {
			for j := range cr {
				cr[j] = alpha * rows[i][j]
			}
		} else {
			for j := range cr {
				cr[j] = alpha*rows[i][j] + beta*cr[j]
			}
		}
	}
}
