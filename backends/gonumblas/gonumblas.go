// Package gonumblas is a gonum BLAS implementation (blas.Float64 and
// blas.Float32) whose level-3 hot spots run on tsr's CPU GEMM kernels
// (backends/cpu: packed, cache-blocked, SIMD, multi-threaded).
//
// Install it globally so gonum's LAPACK (lapack/gonum: Dpotrf, Dgetrf,
// Dgeqrf, ...) and mat use it:
//
//	blas64.Use(gonumblas.Implementation{})
//	blas32.Use(gonumblas.Implementation{})
//
// Everything not overridden here is gonum's pure-Go blas/gonum code, which
// Implementation embeds. Overridden: Dgemm, Sgemm (direct calls to the tsr
// GEMM with the operands' strides, no copies) and Dsyrk (blocked: diagonal
// blocks by gonum's Dsyrk, off-diagonal blocks by GEMM). Argument checking
// and panics (gonum's BLAS convention: invalid arguments panic with gonum's
// messages) are delegated to gonum, so behaviour on bad input is identical.
package gonumblas

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Implementation satisfies blas.Float64 and blas.Float32.
type Implementation struct {
	gonum.Implementation
}

var (
	_ blas.Float64 = Implementation{}
	_ blas.Float32 = Implementation{}
)

// gemmOK reports whether Dgemm/Sgemm arguments are valid and the call is
// non-trivial; for invalid arguments the caller defers to gonum to panic.
func gemmOK(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	if !validTrans(tA) || !validTrans(tB) || m < 0 || n < 0 || k < 0 {
		return false
	}
	aT, bT := tA != blas.NoTrans, tB != blas.NoTrans
	ra, ca := m, k
	if aT {
		ra, ca = k, m
	}
	rb, cb := k, n
	if bT {
		rb, cb = n, k
	}
	if lda < max(1, ca) || ldb < max(1, cb) || ldc < max(1, n) {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	return la >= (ra-1)*lda+ca && lb >= (rb-1)*ldb+cb && lc >= (m-1)*ldc+n
}

func validTrans(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}

// strides returns the (row, column) strides of op(X) for X stored row-major
// with leading dimension ld.
func strides(t blas.Transpose, ld int) (rs, cs int) {
	if t == blas.NoTrans {
		return ld, 1
	}
	return 1, ld
}

// Dgemm computes C = alpha * op(A) * op(B) + beta * C (row-major, gonum's
// convention), op(X) = X or Xᵀ; A is m×k after op, B k×n, C m×n. When
// beta == 0, C is not read. Invalid arguments panic as in gonum.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !gemmOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if m == 0 || n == 0 {
		return
	}
	rsA, csA := strides(tA, lda)
	rsB, csB := strides(tB, ldb)
	cpu.DgemmBatched(1, m, n, k, alpha, a, 0, rsA, csA, b, 0, rsB, csB, beta, c, 0, ldc, 1)
}

// Sgemm is Dgemm in float32.
func (impl Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !gemmOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if m == 0 || n == 0 {
		return
	}
	rsA, csA := strides(tA, lda)
	rsB, csB := strides(tB, ldb)
	cpu.SgemmBatched(1, m, n, k, alpha, a, 0, rsA, csA, b, 0, rsB, csB, beta, c, 0, ldc, 1)
}

// syrkBlock is the block size of the blocked Dsyrk: diagonal blocks of this
// size go to gonum's Dsyrk, everything else to GEMM.
const syrkBlock = 64

// Dsyrk computes the uplo triangle of C = alpha * A * Aᵀ + beta * C
// (tA == NoTrans, A n×k) or C = alpha * Aᵀ * A + beta * C (A k×n), C n×n
// symmetric. Blocked: off-diagonal blocks of the triangle are GEMMs.
func (impl Implementation) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	row, col := k, n
	if tA == blas.NoTrans {
		row, col = n, k
	}
	if (ul != blas.Upper && ul != blas.Lower) || !validTrans(tA) || n < 0 || k < 0 ||
		lda < max(1, col) || ldc < max(1, n) || n <= syrkBlock || k == 0 || alpha == 0 ||
		len(a) < lda*(row-1)+col || len(c) < ldc*(n-1)+n {
		impl.Implementation.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	// op(A)[i, p] for the "left" factor: NoTrans -> A[i,p]; Trans -> A[p,i].
	rsL, csL := lda, 1
	if tA != blas.NoTrans {
		rsL, csL = 1, lda
	}
	for i0 := 0; i0 < n; i0 += syrkBlock {
		ib := min(syrkBlock, n-i0)
		// Diagonal block.
		impl.Implementation.Dsyrk(ul, tA, ib, k, alpha, a[i0*rsL:], lda, beta, c[i0*ldc+i0:], ldc)
		// Off-diagonal part of block row i0: columns right of the block for
		// Upper, left of it for Lower. C[I,J] = alpha*L[I,:]*L[J,:]^T + beta*C[I,J].
		j0, j1 := i0+ib, n
		if ul == blas.Lower {
			j0, j1 = 0, i0
		}
		if j1 <= j0 {
			continue
		}
		cpu.DgemmBatched(1, ib, j1-j0, k, alpha,
			a[i0*rsL:], 0, rsL, csL,
			a[j0*rsL:], 0, csL, rsL,
			beta, c[i0*ldc+j0:], 0, ldc, 1)
	}
}
