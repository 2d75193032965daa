package kernels

import (
	"github.com/tsrlang/tsr/backends/lapack"
)

// SVD is torch.linalg.svd(A, full_matrices=full) without autograd: for A
// of shape [..., m, n] and k = min(m, n) it returns U [..., m, m] (full) or
// [..., m, k], S [..., k] descending, and Vh [..., n, n] (full) or
// [..., k, n], with A = U[..., :k] @ diag(S) @ Vh[..., :k, :].
//
// LAPACK xGESDD per matrix (see lapack.SVD). Errors: RuntimeError for a
// bad rank or dtype; LinAlgError for non-finite input or no convergence.
func SVD(A *T, full bool) (U, S, Vh *T, err error) {
	batch, m, n, err := CheckMatrix("linalg.svd", A, false)
	if err != nil {
		return nil, nil, nil, err
	}
	if is32(A.DType()) {
		return svd[float32](A, batch, m, n, full)
	}
	return svd[float64](A, batch, m, n, full)
}

func svd[F lapack.Float](A *T, batch []int, m, n int, full bool) (U, S, Vh *T, err error) {
	dt := A.DType()
	k := min(m, n)
	ur, vr := k, k
	if full {
		ur, vr = m, n
	}
	U, u := alloc[F](shapeOf(batch, m, ur), dt)
	S, s := alloc[F](shapeOf(batch, k), dt)
	Vh, v := alloc[F](shapeOf(batch, vr, n), dt)
	a := data[F](A)
	for b := range prod(batch) {
		ub, sb, vb, err := lapack.SVD(m, n, a[b*m*n:(b+1)*m*n], full)
		if err != nil {
			return nil, nil, nil, batchErr(err, b, len(batch) > 0)
		}
		copy(u[b*m*ur:], ub)
		copy(s[b*k:], sb)
		copy(v[b*vr*n:], vb)
	}
	return U, S, Vh, nil
}

// SVDVals is torch.linalg.svdvals: the singular values [..., min(m, n)] of
// A [..., m, n], descending (xGESDD with JOBZ='N'). Errors as [SVD].
func SVDVals(A *T) (*T, error) {
	batch, m, n, err := CheckMatrix("linalg.svd", A, false)
	if err != nil {
		return nil, err
	}
	if is32(A.DType()) {
		return svdvals[float32](A, batch, m, n)
	}
	return svdvals[float64](A, batch, m, n)
}

func svdvals[F lapack.Float](A *T, batch []int, m, n int) (*T, error) {
	k := min(m, n)
	S, s := alloc[F](shapeOf(batch, k), A.DType())
	a := data[F](A)
	for b := range prod(batch) {
		sb, err := lapack.SVDVals(m, n, a[b*m*n:(b+1)*m*n])
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		copy(s[b*k:], sb)
	}
	return S, nil
}

// Eigh is torch.linalg.eigh(A, UPLO='U' if upper else 'L') without
// autograd: for symmetric A [..., n, n], reading only the named triangle,
// it returns the eigenvalues w [..., n] in ascending order and the
// orthonormal eigenvectors as the columns of V [..., n, n]. LAPACK xSYEVD
// per matrix. A non-finite value in the read triangle gives NaN results
// (PyTorch's behaviour); no convergence is a LinAlgError.
func Eigh(A *T, upper bool) (w, V *T, err error) {
	batch, n, _, err := CheckMatrix("linalg.eigh", A, true)
	if err != nil {
		return nil, nil, err
	}
	if is32(A.DType()) {
		return eigh[float32](A, batch, n, upper, true)
	}
	return eigh[float64](A, batch, n, upper, true)
}

// EigvalsH is torch.linalg.eigvalsh: the ascending eigenvalues [..., n] of
// the symmetric A [..., n, n] (xSYEVD with JOBZ='N'). Errors as [Eigh].
func EigvalsH(A *T, upper bool) (*T, error) {
	batch, n, _, err := CheckMatrix("linalg.eigh", A, true)
	if err != nil {
		return nil, err
	}
	var w *T
	if is32(A.DType()) {
		w, _, err = eigh[float32](A, batch, n, upper, false)
	} else {
		w, _, err = eigh[float64](A, batch, n, upper, false)
	}
	return w, err
}

func eigh[F lapack.Float](A *T, batch []int, n int, upper, wantV bool) (W, V *T, err error) {
	dt := A.DType()
	W, w := alloc[F](shapeOf(batch, n), dt)
	var v []F
	if wantV {
		V, v = alloc[F](shapeOf(batch, n, n), dt)
	}
	a := data[F](A)
	for b := range prod(batch) {
		ab := a[b*n*n : (b+1)*n*n]
		var wb, vb []F
		if wantV {
			wb, vb, err = lapack.Eigh(n, ab, !upper)
		} else {
			wb, err = lapack.EigvalsH(n, ab, !upper)
		}
		if err != nil {
			return nil, nil, batchErr(err, b, len(batch) > 0)
		}
		copy(w[b*n:], wb)
		if wantV {
			copy(v[b*n*n:], vb)
		}
	}
	return W, V, nil
}

// Eig is torch.linalg.eig for real input, without autograd. tsr has no
// complex dtype, so complex results use torch.view_as_real's layout: a
// trailing dim of size 2 holding (real, imaginary). For A [..., n, n] it
// returns L [..., n, 2] (eigenvalue j is L[..., j, 0] + i·L[..., j, 1]) and
// V [..., n, n, 2] (column j of V[..., 0] + i·V[..., 1] is the unit-norm
// eigenvector of eigenvalue j). Complex eigenvalues come in conjugate
// pairs, positive imaginary part first; the order is LAPACK's (unsorted),
// as in PyTorch. LAPACK xGEEV per matrix. Errors: RuntimeError for NaN/Inf
// input ("linalg.eig: input tensor should not contain infs or NaNs.");
// LinAlgError when the QR algorithm does not converge.
func Eig(A *T) (L, V *T, err error) {
	batch, n, _, err := CheckMatrix("linalg.eig", A, true)
	if err != nil {
		return nil, nil, err
	}
	if is32(A.DType()) {
		return eig[float32](A, batch, n, true)
	}
	return eig[float64](A, batch, n, true)
}

// Eigvals is torch.linalg.eigvals for real input: the eigenvalues in
// view_as_real layout [..., n, 2], as [Eig] returns them.
func Eigvals(A *T) (*T, error) {
	batch, n, _, err := CheckMatrix("linalg.eigvals", A, true)
	if err != nil {
		return nil, err
	}
	var L *T
	if is32(A.DType()) {
		L, _, err = eig[float32](A, batch, n, false)
	} else {
		L, _, err = eig[float64](A, batch, n, false)
	}
	return L, err
}

func eig[F lapack.Float](A *T, batch []int, n int, wantV bool) (L, V *T, err error) {
	dt := A.DType()
	L, l := alloc[F](shapeOf(batch, n, 2), dt)
	var v []F
	if wantV {
		V, v = alloc[F](shapeOf(batch, n, n, 2), dt)
	}
	a := data[F](A)
	for b := range prod(batch) {
		ab := a[b*n*n : (b+1)*n*n]
		var wr, wi, vr, vi []F
		if wantV {
			wr, wi, vr, vi, err = lapack.Eig(n, ab)
		} else {
			wr, wi, err = lapack.Eigvals(n, ab)
		}
		if err != nil {
			return nil, nil, batchErr(err, b, len(batch) > 0)
		}
		lb := l[b*n*2 : (b+1)*n*2]
		for j := range n {
			lb[2*j], lb[2*j+1] = wr[j], wi[j]
		}
		if wantV {
			vb := v[b*n*n*2 : (b+1)*n*n*2]
			for i := range vr {
				vb[2*i], vb[2*i+1] = vr[i], vi[i]
			}
		}
	}
	return L, V, nil
}

// Cholesky is torch.linalg.cholesky(A, upper=upper) without autograd: for
// symmetric positive-definite A [..., n, n] it returns the lower-triangular
// L with A = L @ L.mT (reading A's lower triangle), or with upper the
// upper-triangular U with A = U.mT @ U (reading the upper triangle).
// LAPACK xPOTRF per matrix. Errors: LinAlgError naming the order of the
// first leading minor that is not positive-definite.
func Cholesky(A *T, upper bool) (*T, error) {
	batch, n, _, err := CheckMatrix("linalg.cholesky", A, true)
	if err != nil {
		return nil, err
	}
	if is32(A.DType()) {
		return cholesky[float32](A, batch, n, upper)
	}
	return cholesky[float64](A, batch, n, upper)
}

func cholesky[F lapack.Float](A *T, batch []int, n int, upper bool) (*T, error) {
	L, l := alloc[F](shapeOf(batch, n, n), A.DType())
	a := data[F](A)
	for b := range prod(batch) {
		lb, err := lapack.Cholesky(n, a[b*n*n:(b+1)*n*n], upper)
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		copy(l[b*n*n:], lb)
	}
	return L, nil
}

// QR is torch.linalg.qr(A, mode) without autograd. For A [..., m, n] and
// k = min(m, n):
//
//	"reduced":  Q [..., m, k] with orthonormal columns, R [..., k, n]
//	"complete": Q [..., m, m] orthogonal, R [..., m, n]
//	"r":        Q is an empty tensor of shape [0], R [..., k, n]
//
// R is upper triangular (trapezoidal); its diagonal signs are LAPACK's
// Householder convention, as in PyTorch. LAPACK xGEQRF + xORGQR per matrix.
// Errors: RuntimeError for an unknown mode ("qr received unrecognized mode
// 'x' but expected one of 'reduced' (default), 'r', or 'complete'").
func QR(A *T, mode string) (Q, R *T, err error) {
	switch mode {
	case "reduced", "complete", "r":
	default:
		return nil, nil, errorf("qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'", mode)
	}
	batch, m, n, err := CheckMatrix("linalg.qr", A, false)
	if err != nil {
		return nil, nil, err
	}
	if is32(A.DType()) {
		return qr[float32](A, batch, m, n, mode)
	}
	return qr[float64](A, batch, m, n, mode)
}

func qr[F lapack.Float](A *T, batch []int, m, n int, mode string) (Q, R *T, err error) {
	dt := A.DType()
	k := min(m, n)
	qc, rr := k, k
	if mode == "complete" {
		qc, rr = m, m
	}
	var q []F
	if mode == "r" {
		Q, _ = alloc[F]([]int{0}, dt)
	} else {
		Q, q = alloc[F](shapeOf(batch, m, qc), dt)
	}
	R, r := alloc[F](shapeOf(batch, rr, n), dt)
	a := data[F](A)
	for b := range prod(batch) {
		qb, rb, err := lapack.QR(m, n, a[b*m*n:(b+1)*m*n], mode)
		if err != nil {
			return nil, nil, batchErr(err, b, len(batch) > 0)
		}
		if q != nil {
			copy(q[b*m*qc:], qb)
		}
		copy(r[b*rr*n:], rb)
	}
	return Q, R, nil
}
