package lapack

import (
	"math"
)

// Operation names used in error messages (PyTorch's user-facing names).
const (
	opSVD      = "linalg.svd"
	opEigh     = "linalg.eigh"
	opEig      = "linalg.eig"
	opCholesky = "linalg.cholesky"
	opLUFactor = "linalg.lu_factor"
	opSolve    = "linalg.solve"
	opInv      = "linalg.inv"
	opDet      = "linalg.det"
	opSlogdet  = "linalg.slogdet"
	opQR       = "linalg.qr"
	opLstsq    = "linalg.lstsq"
)

// checkMat validates an m×n row-major operand.
func checkMat[T Float](op, name string, m, n int, a []T) *Error {
	if m < 0 || n < 0 {
		return valueErr(op, "%s: negative matrix size %d×%d", name, m, n)
	}
	if m > math.MaxInt32 || n > math.MaxInt32 || (n > 0 && m > math.MaxInt/n) {
		return valueErr(op, "%s: matrix size %d×%d is too large for LAPACK's 32-bit indices", name, m, n)
	}
	if len(a) != m*n {
		return valueErr(op, "%s: expected a slice of %d×%d = %d elements, got %d", name, m, n, m*n, len(a))
	}
	return nil
}

// infoErr maps a negative info (a bug: illegal argument) or a positive one
// through ok.
func infoErr(op string, info int, ok func(string, int) *Error) error {
	if info < 0 {
		return errIllegal(op, info)
	}
	return ok(op, info)
}

// SVD computes the singular value decomposition A = U·diag(S)·Vᵀ of the m×n
// row-major matrix a, like torch.linalg.svd(A, full_matrices=full). With
// k = min(m, n): s has k singular values in descending order; u is m×m
// (full) or m×k, vt is n×n (full) or k×n, all row-major. Singular vectors
// are unique only up to sign (and rotation within repeated values).
//
// Algorithm: LAPACK xGESDD (divide and conquer) on the system library;
// gonum's Dgesvd (QR iteration) otherwise. Errors: ValueError for a bad
// shape; LinAlgError if a contains NaN or Inf ("... contained non-finite
// values") or the iteration does not converge. A 0-size input gives empty
// s, and identity u (m×m) and vt (n×n) when full.
func SVD[T Float](m, n int, a []T, full bool) (u, s, vt []T, err error) {
	if e := checkMat(opSVD, "A", m, n, a); e != nil {
		return nil, nil, nil, e
	}
	if min(m, n) == 0 {
		if full {
			return identity[T](m), []T{}, identity[T](n), nil
		}
		return []T{}, []T{}, []T{}, nil
	}
	if !allFinite(a) {
		return nil, nil, nil, errNonFinite(opSVD)
	}
	defer recoverTo(opSVD, &err)
	job := byte('S')
	if full {
		job = 'A'
	}
	u, s, vt, info := kern[T](active()).gesdd(m, n, a, job)
	if info != 0 {
		return nil, nil, nil, infoErr(opSVD, info, errSVDConv)
	}
	return u, s, vt, nil
}

// SVDVals returns the min(m, n) singular values of the m×n row-major matrix
// a in descending order, like torch.linalg.svdvals (xGESDD with JOBZ='N').
// Errors as for [SVD].
func SVDVals[T Float](m, n int, a []T) (s []T, err error) {
	if e := checkMat(opSVD, "A", m, n, a); e != nil {
		return nil, e
	}
	if min(m, n) == 0 {
		return []T{}, nil
	}
	if !allFinite(a) {
		return nil, errNonFinite(opSVD)
	}
	defer recoverTo(opSVD, &err)
	_, s, _, info := kern[T](active()).gesdd(m, n, a, 'N')
	if info != 0 {
		return nil, infoErr(opSVD, info, errSVDConv)
	}
	return s, nil
}

// Eigh computes the eigendecomposition A = V·diag(W)·Vᵀ of the symmetric
// n×n row-major matrix a, like torch.linalg.eigh(A, UPLO='L' if lower else
// 'U'): only the lower (or upper) triangle, diagonal included, is read. w
// holds the n eigenvalues in ascending order; the n×n row-major v holds the
// orthonormal eigenvectors as columns (v[i*n+j] is component i of the j-th
// eigenvector; unique only up to sign).
//
// Algorithm: LAPACK xSYEVD (divide and conquer) on the system library,
// gonum's Dsyev (QR iteration) otherwise. If the read triangle contains
// NaN or Inf, w and v are all NaN and err is nil (PyTorch's behaviour).
// Errors: ValueError for a bad shape; LinAlgError if the iteration does not
// converge.
func Eigh[T Float](n int, a []T, lower bool) (w, v []T, err error) {
	return eigh(n, a, lower, true)
}

// EigvalsH returns the n eigenvalues, ascending, of the symmetric n×n
// row-major matrix a, reading only the named triangle, like
// torch.linalg.eigvalsh (xSYEVD with JOBZ='N'). Errors as for [Eigh].
func EigvalsH[T Float](n int, a []T, lower bool) (w []T, err error) {
	w, _, err = eigh(n, a, lower, false)
	return w, err
}

func eigh[T Float](n int, a []T, lower, wantV bool) (w, v []T, err error) {
	if e := checkMat(opEigh, "A", n, n, a); e != nil {
		return nil, nil, e
	}
	if n == 0 {
		if wantV {
			return []T{}, []T{}, nil
		}
		return []T{}, nil, nil
	}
	if !triangleFinite(n, a, lower) {
		nan := T(math.NaN())
		w = fill(make([]T, n), nan)
		if wantV {
			v = fill(make([]T, n*n), nan)
		}
		return w, v, nil
	}
	defer recoverTo(opEigh, &err)
	w, v, info := kern[T](active()).syevd(n, a, lower, wantV)
	if info != 0 {
		return nil, nil, infoErr(opEigh, info, errEigConv)
	}
	return w, v, nil
}

// Eig computes the eigenvalues and right eigenvectors of the general n×n
// row-major matrix a, like torch.linalg.eig. Go has no complex result type
// shared with tsr's tensors, so complex values come as separate real and
// imaginary parts: eigenvalue j is wr[j] + i·wi[j]; its eigenvector is
// column j of the n×n row-major matrices vr + i·vi. Complex eigenvalues of
// a real matrix come in conjugate pairs, the one with positive imaginary
// part first. Eigenvectors have unit Euclidean norm and their
// largest-magnitude component real (LAPACK's normalization, which PyTorch
// returns unchanged); the order of eigenvalues is LAPACK's (not sorted).
//
// Algorithm: LAPACK xGEEV (Hessenberg reduction + shifted QR), or gonum's
// Dgeev. Errors: ValueError for a bad shape; RuntimeError if a contains NaN
// or Inf (PyTorch: "input tensor should not contain infs or NaNs");
// LinAlgError if the QR algorithm does not converge.
func Eig[T Float](n int, a []T) (wr, wi, vr, vi []T, err error) {
	wr, wi, vr, vi, err = eig(n, a, true)
	return
}

// Eigvals returns the eigenvalues wr[j] + i·wi[j] of the general n×n
// row-major matrix a, like torch.linalg.eigvals (xGEEV with JOBVR='N').
// Errors as for [Eig].
func Eigvals[T Float](n int, a []T) (wr, wi []T, err error) {
	wr, wi, _, _, err = eig(n, a, false)
	return
}

func eig[T Float](n int, a []T, wantV bool) (wr, wi, vr, vi []T, err error) {
	if e := checkMat(opEig, "A", n, n, a); e != nil {
		return nil, nil, nil, nil, e
	}
	if n == 0 {
		if wantV {
			return []T{}, []T{}, []T{}, []T{}, nil
		}
		return []T{}, []T{}, nil, nil, nil
	}
	if !allFinite(a) {
		return nil, nil, nil, nil, newErr(KindRuntime, opEig, 0, "input tensor should not contain infs or NaNs.")
	}
	defer recoverTo(opEig, &err)
	wr, wi, v, info := kern[T](active()).geev(n, a, wantV)
	if info != 0 {
		return nil, nil, nil, nil, infoErr(opEig, info, errEigConv)
	}
	if !wantV {
		return wr, wi, nil, nil, nil
	}
	vr, vi = make([]T, n*n), make([]T, n*n)
	for j := 0; j < n; j++ {
		if wi[j] == 0 || j+1 == n {
			for i := 0; i < n; i++ {
				vr[i*n+j] = v[i*n+j]
			}
			continue
		}
		// Columns j and j+1 hold the real and imaginary parts of the
		// eigenvector of wr[j] + i·wi[j]; its conjugate belongs to j+1.
		for i := 0; i < n; i++ {
			re, im := v[i*n+j], v[i*n+j+1]
			vr[i*n+j], vi[i*n+j] = re, im
			vr[i*n+j+1], vi[i*n+j+1] = re, -im
		}
		j++
	}
	return wr, wi, vr, vi, nil
}

// Cholesky computes the Cholesky factor of the symmetric positive-definite
// n×n row-major matrix a, like torch.linalg.cholesky(A, upper=upper): the
// lower-triangular L with A = L·Lᵀ (reading only the lower triangle of a),
// or with upper the upper-triangular U with A = Uᵀ·U (reading only the
// upper triangle). The other triangle of the result is zero.
//
// Algorithm: LAPACK xPOTRF, or gonum's Dpotrf. Errors: ValueError for a bad
// shape; LinAlgError with Info = k when the leading minor of order k is not
// positive-definite ("linalg.cholesky: The factorization could not be
// completed because the input is not positive-definite (the leading minor
// of order k is not positive-definite).").
func Cholesky[T Float](n int, a []T, upper bool) (l []T, err error) {
	if e := checkMat(opCholesky, "A", n, n, a); e != nil {
		return nil, e
	}
	if n == 0 {
		return []T{}, nil
	}
	defer recoverTo(opCholesky, &err)
	l, info := kern[T](active()).potrf(n, a, upper)
	if info != 0 {
		return nil, infoErr(opCholesky, info, errNotPD)
	}
	for i := 0; i < n; i++ {
		if upper {
			clear(l[i*n : i*n+i])
		} else {
			clear(l[i*n+i+1 : i*n+n])
		}
	}
	return l, nil
}

// LU computes the LU factorization with partial pivoting P·A = L·U of the
// n×n row-major matrix a, like torch.linalg.lu_factor: lu holds L (unit
// diagonal, not stored) below the diagonal and U on and above it, row-major
// n×n; piv holds LAPACK's 1-based pivots (row i was interchanged with row
// piv[i]-1, in order i = 0..n-1), as PyTorch returns them.
//
// Algorithm: LAPACK xGETRF (on a column-major copy, so pivots equal
// PyTorch's), or gonum's Dgetrf. Errors: ValueError for a bad shape. For a
// singular matrix the factorization is still complete and lu and piv are
// returned together with a RuntimeError whose Info is the 1-based index of
// the first zero U[i,i] (PyTorch's lu_factor message; test it with
// [IsSingular]; torch.linalg.lu and lu_factor_ex ignore it).
func LU[T Float](n int, a []T) (lu []T, piv []int, err error) {
	if e := checkMat(opLUFactor, "A", n, n, a); e != nil {
		return nil, nil, e
	}
	if n == 0 {
		return []T{}, []int{}, nil
	}
	defer recoverTo(opLUFactor, &err)
	lu, piv, info := kern[T](active()).getrf(n, a)
	if info < 0 {
		return nil, nil, errIllegal(opLUFactor, info)
	}
	if info > 0 {
		return lu, piv, errLUZeroPivot(opLUFactor, info)
	}
	return lu, piv, nil
}

// Solve solves A·X = B for the n×n row-major a and the n×nrhs row-major b,
// returning the n×nrhs row-major x, like torch.linalg.solve.
//
// Algorithm: LAPACK xGETRF + xGETRS (LU with partial pivoting), or gonum's
// Dgetrf + Dgetrs. Errors: ValueError for bad shapes; LinAlgError when an
// exactly-zero pivot appears ("torch.linalg.solve: The solver failed
// because the input matrix is singular.", PyTorch 1.13's text). A
// nearly singular matrix gives a large, inaccurate x and no error, as in
// LAPACK and PyTorch.
func Solve[T Float](n, nrhs int, a, b []T) (x []T, err error) {
	if e := checkMat(opSolve, "A", n, n, a); e != nil {
		return nil, e
	}
	if e := checkMat(opSolve, "B", n, nrhs, b); e != nil {
		return nil, e
	}
	if n == 0 {
		return []T{}, nil
	}
	defer recoverTo(opSolve, &err)
	k := kern[T](active())
	var info int
	if nrhs == 0 {
		_, _, info = k.getrf(n, a)
		x = []T{}
	} else {
		x, info = k.gesv(n, nrhs, a, b)
	}
	if info != 0 {
		return nil, infoErr("torch."+opSolve, info, errSingularSolve)
	}
	return x, nil
}

// SolveTransposed returns the solution X (row-major n×nrhs) of Aᵀ·X = B
// for the n×n row-major matrix a, from an LU factorization of Aᵀ: with
// system LAPACK, xGETRF on a's buffer as it is (column-major Aᵀ) and xGETRS
// with TRANS='N', which is how PyTorch's linalg.det backward solves for a
// contiguous input (so its gradient rounds as PyTorch's). Errors as
// [Solve] (LinAlgError for an exactly singular matrix).
func SolveTransposed[T Float](n, nrhs int, a, b []T) (x []T, err error) {
	if e := checkMat(opSolve, "A", n, n, a); e != nil {
		return nil, e
	}
	if e := checkMat(opSolve, "B", n, nrhs, b); e != nil {
		return nil, e
	}
	if n == 0 || nrhs == 0 {
		return make([]T, n*nrhs), nil
	}
	defer recoverTo(opSolve, &err)
	x, info := kern[T](active()).gesvT(n, nrhs, a, b)
	if info != 0 {
		return nil, infoErr("torch."+opSolve, info, errSingularSolve)
	}
	return x, nil
}

// Inv returns the inverse of the n×n row-major matrix a (row-major n×n),
// like torch.linalg.inv.
//
// Algorithm: LAPACK xGETRF + xGETRS on the identity (PyTorch's
// linalg.solve(A, I), with its rounding), or gonum's Dgetrf + Dgetri. Errors:
// ValueError for a bad shape; LinAlgError with Info = i when U[i,i] is
// exactly zero ("linalg.inv: The diagonal element i is zero, the inversion
// could not be completed because the input matrix is singular.").
func Inv[T Float](n int, a []T) (inv []T, err error) {
	if e := checkMat(opInv, "A", n, n, a); e != nil {
		return nil, e
	}
	if n == 0 {
		return []T{}, nil
	}
	defer recoverTo(opInv, &err)
	inv, info := kern[T](active()).getri(n, a)
	if info != 0 {
		return nil, infoErr(opInv, info, errSingularInv)
	}
	return inv, nil
}

// Det returns the determinant of the n×n row-major matrix a, like
// torch.linalg.det: the product of U's diagonal from an LU factorization
// (xGETRF), with the sign of the row permutation; computed in T, so it may
// overflow or underflow where [Slogdet] does not. A singular matrix gives 0
// (no error); a 0×0 matrix gives 1. Errors: ValueError for a bad shape.
func Det[T Float](n int, a []T) (det T, err error) {
	if e := checkMat(opDet, "A", n, n, a); e != nil {
		return 0, e
	}
	if n == 0 {
		return 1, nil
	}
	defer recoverTo(opDet, &err)
	diag, swaps := kern[T](active()).detLU(n, a)
	det = 1
	if swaps%2 == 1 {
		det = -1
	}
	for _, d := range diag {
		det *= d
	}
	return det, nil
}

// Slogdet returns the sign and the natural logarithm of the absolute value
// of the determinant of the n×n row-major matrix a, like
// torch.linalg.slogdet: det = sign·exp(logabsdet). The sum of logarithms of
// U's diagonal (xGETRF) is accumulated in float64. A singular matrix gives
// (0, -Inf); a 0×0 matrix (1, 0); NaN input (NaN, NaN). Errors: ValueError
// for a bad shape.
func Slogdet[T Float](n int, a []T) (sign, logabsdet T, err error) {
	if e := checkMat(opSlogdet, "A", n, n, a); e != nil {
		return 0, 0, e
	}
	if n == 0 {
		return 1, 0, nil
	}
	defer recoverTo(opSlogdet, &err)
	diag, swaps := kern[T](active()).detLU(n, a)
	sg := 1.0
	if swaps%2 == 1 {
		sg = -1
	}
	var logs float64
	for _, d := range diag {
		f := float64(d)
		switch {
		case math.IsNaN(f):
			return T(math.NaN()), T(math.NaN()), nil
		case f == 0:
			sg = 0
		case f < 0:
			sg = -sg
		}
		logs += math.Log(math.Abs(f))
	}
	if sg == 0 {
		return 0, T(math.Inf(-1)), nil
	}
	return T(sg), T(logs), nil
}

// QR computes the QR factorization A = Q·R of the m×n row-major matrix a,
// like torch.linalg.qr(A, mode). With k = min(m, n):
//
//	"reduced":  q is m×k with orthonormal columns, r is k×n upper triangular
//	"complete": q is m×m orthogonal, r is m×n upper trapezoidal
//	"r":        q is empty, r is k×n
//
// all row-major. The signs of R's diagonal are LAPACK's (Householder
// reflections, xLARFG), as in PyTorch; they may be negative.
//
// Algorithm: LAPACK xGEQRF + xORGQR, or gonum's Dgeqrf + Dorgqr. Errors:
// ValueError for a bad shape; RuntimeError for another mode ("linalg.qr:
// received unrecognized mode 'x' but expected one of 'reduced' (default),
// 'r', or 'complete'").
func QR[T Float](m, n int, a []T, mode string) (q, r []T, err error) {
	var md qrMode
	switch mode {
	case "reduced":
		md = qrReduced
	case "complete":
		md = qrComplete
	case "r":
		md = qrR
	default:
		return nil, nil, newErr(KindRuntime, opQR, 0, "received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'", mode)
	}
	if e := checkMat(opQR, "A", m, n, a); e != nil {
		return nil, nil, e
	}
	if min(m, n) == 0 {
		switch md {
		case qrComplete:
			return identity[T](m), make([]T, m*n), nil
		default:
			return []T{}, []T{}, nil
		}
	}
	defer recoverTo(opQR, &err)
	q, r, info := kern[T](active()).geqrf(m, n, a, md)
	if info != 0 {
		return nil, nil, errIllegal(opQR, info)
	}
	if q == nil {
		q = []T{}
	}
	return q, r, nil
}

// Lstsq computes the minimum-norm least-squares solution X of A·X ≈ B for
// the m×n row-major a and the m×nrhs row-major b, like
// torch.linalg.lstsq(A, B, rcond, driver="gelsd"). x is n×nrhs row-major.
// Singular values s_i <= rcond·s_1 are treated as zero; rcond < 0 (or NaN)
// selects PyTorch's default eps·max(m, n), eps being T's machine epsilon.
// rank is the effective rank; sv holds the min(m, n) singular values of A,
// descending; residuals has, for each column of B, the squared residual
// ‖A·x_j − b_j‖², but only when m > n and rank == n (else it is empty), as in
// PyTorch
// (so with n == 0 < m it is the squared column norms of B).
//
// Algorithm: LAPACK xGELSD (SVD by divide and conquer), or an SVD-based
// solve on gonum's Dgesvd. Errors: ValueError for bad shapes; LinAlgError if
// a or b contains NaN or Inf or the SVD does not converge. With m == 0 or
// n == 0, x is zero, rank 0 and sv empty.
func Lstsq[T Float](m, n, nrhs int, a, b []T, rcond float64) (x, residuals []T, rank int, sv []T, err error) {
	if e := checkMat(opLstsq, "A", m, n, a); e != nil {
		return nil, nil, 0, nil, e
	}
	if e := checkMat(opLstsq, "B", m, nrhs, b); e != nil {
		return nil, nil, 0, nil, e
	}
	if rcond < 0 || math.IsNaN(rcond) {
		rcond = eps[T]() * float64(max(m, n))
	}
	if min(m, n) == 0 {
		residuals = []T{}
		if m > n { // n == 0: rank 0 == n, the residual is all of B
			residuals = make([]T, nrhs)
			for i := 0; i < m; i++ {
				for j, v := range b[i*nrhs : i*nrhs+nrhs] {
					residuals[j] += v * v
				}
			}
		}
		return make([]T, n*nrhs), residuals, 0, []T{}, nil
	}
	if !allFinite(a) || !allFinite(b) {
		return nil, nil, 0, nil, errNonFinite(opLstsq)
	}
	if nrhs == 0 {
		sv, err = SVDVals(m, n, a)
		if err != nil {
			return nil, nil, 0, nil, err
		}
		for rank < len(sv) && float64(sv[rank]) > rcond*float64(sv[0]) {
			rank++
		}
		return []T{}, []T{}, rank, sv, nil
	}
	defer recoverTo(opLstsq, &err)
	x, residuals, sv, rank, info := kern[T](active()).gelsd(m, n, nrhs, a, b, T(rcond))
	if info != 0 {
		return nil, nil, 0, nil, infoErr(opLstsq, info, func(op string, info int) *Error {
			return newErr(KindLinAlg, op, info, "The least squares solution could not be computed because the input matrix does not have full rank (error code: %d).", info)
		})
	}
	if residuals == nil {
		residuals = []T{}
	}
	return x, residuals, rank, sv, nil
}
