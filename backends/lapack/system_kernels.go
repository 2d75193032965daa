package lapack

import "math"

// Column-major LAPACK calls. See the package documentation for the
// row-major/column-major correspondence each routine relies on.

// lworkOf converts a workspace-query result to an lwork argument, rounding
// up generously: in single precision the optimal size is returned as a
// float32 and may have been rounded down (LAPACK < 3.11 lacks
// SROUNDUP_LWORK).
func lworkOf[T Float](w T) int32 {
	v := math.Ceil(float64(w)*(1+1e-6)) + 1
	if v < 1 {
		v = 1
	}
	if v > math.MaxInt32 {
		v = math.MaxInt32
	}
	return int32(v)
}

func i32(n int) *int32 { v := int32(n); return &v }

func ch(c byte) *byte { return &c }

func pivots(ip []int32) []int {
	p := make([]int, len(ip))
	for i, v := range ip {
		p[i] = int(v)
	}
	return p
}

func (k *sysKernels[T]) gesdd(m, n int, a []T, job byte) (u, s, vt []T, info int) {
	// LAPACK sees the n×m column-major matrix Aᵀ = U'ΣV'ᵀ, hence
	// A = V'ΣU'ᵀ: LAPACK's VT (read row-major) is our U and LAPACK's U
	// (read row-major) is our Vᵀ.
	kk := min(m, n)
	buf := clone(a)
	s = make([]T, kk)
	var lu, lvt []T
	ldu, ldvt := 1, 1
	switch job {
	case 'A':
		lu, ldu = make([]T, n*n), n
		lvt, ldvt = make([]T, m*m), m
	case 'S':
		lu, ldu = make([]T, n*kk), n
		lvt, ldvt = make([]T, kk*m), kk
	default:
		lu, lvt = make([]T, 1), make([]T, 1)
	}
	iwork := make([]int32, 8*kk)
	var inf int32
	var q [1]T
	k.gesddF(ch(job), i32(n), i32(m), &buf[0], i32(n), &s[0], &lu[0], i32(ldu), &lvt[0], i32(ldvt), &q[0], i32(-1), &iwork[0], &inf, 1)
	if inf != 0 {
		return nil, nil, nil, int(inf)
	}
	lw := lworkOf(q[0])
	work := make([]T, lw)
	k.gesddF(ch(job), i32(n), i32(m), &buf[0], i32(n), &s[0], &lu[0], i32(ldu), &lvt[0], i32(ldvt), &work[0], &lw, &iwork[0], &inf, 1)
	if job == 'N' {
		return nil, s, nil, int(inf)
	}
	return lvt, s, lu, int(inf)
}

func (k *sysKernels[T]) syevd(n int, a []T, lower, wantV bool) (w, v []T, info int) {
	// The lower triangle of the row-major buffer is the upper triangle of
	// the column-major one.
	buf := clone(a)
	uplo := byte('L')
	if lower {
		uplo = 'U'
	}
	jobz := byte('N')
	if wantV {
		jobz = 'V'
	}
	w = make([]T, n)
	var inf int32
	var q [1]T
	var qi [1]int32
	k.syevdF(ch(jobz), ch(uplo), i32(n), &buf[0], i32(n), &w[0], &q[0], i32(-1), &qi[0], i32(-1), &inf, 1, 1)
	if inf != 0 {
		return nil, nil, int(inf)
	}
	lw := lworkOf(q[0])
	liw := max(qi[0], 1)
	work := make([]T, lw)
	iwork := make([]int32, liw)
	k.syevdF(ch(jobz), ch(uplo), i32(n), &buf[0], i32(n), &w[0], &work[0], &lw, &iwork[0], &liw, &inf, 1, 1)
	if !wantV {
		return w, nil, int(inf)
	}
	transposeSquare(n, buf) // eigenvectors were columns of the column-major buffer
	return w, buf, int(inf)
}

func (k *sysKernels[T]) geev(n int, a []T, wantV bool) (wr, wi, v []T, info int) {
	buf := transpose(n, n, a)
	wr, wi = make([]T, n), make([]T, n)
	jobvr := byte('N')
	vr, ldvr := make([]T, 1), 1
	if wantV {
		jobvr, vr, ldvr = 'V', make([]T, n*n), n
	}
	var vl [1]T
	var inf int32
	var q [1]T
	k.geevF(ch('N'), ch(jobvr), i32(n), &buf[0], i32(n), &wr[0], &wi[0], &vl[0], i32(1), &vr[0], i32(ldvr), &q[0], i32(-1), &inf, 1, 1)
	if inf != 0 {
		return nil, nil, nil, int(inf)
	}
	lw := lworkOf(q[0])
	work := make([]T, lw)
	k.geevF(ch('N'), ch(jobvr), i32(n), &buf[0], i32(n), &wr[0], &wi[0], &vl[0], i32(1), &vr[0], i32(ldvr), &work[0], &lw, &inf, 1, 1)
	if !wantV {
		return wr, wi, nil, int(inf)
	}
	transposeSquare(n, vr)
	return wr, wi, vr, int(inf)
}

func (k *sysKernels[T]) potrf(n int, a []T, upper bool) (f []T, info int) {
	// Lower Cholesky of the row-major buffer = upper Cholesky of the
	// column-major one (A = UᵀU read transposed is A = LLᵀ).
	buf := clone(a)
	uplo := byte('U')
	if upper {
		uplo = 'L'
	}
	var inf int32
	k.potrfF(ch(uplo), i32(n), &buf[0], i32(n), &inf, 1)
	return buf, int(inf)
}

func (k *sysKernels[T]) getrf(n int, a []T) (lu []T, piv []int, info int) {
	buf := transpose(n, n, a)
	ip := make([]int32, n)
	var inf int32
	k.getrfF(i32(n), i32(n), &buf[0], i32(n), &ip[0], &inf)
	transposeSquare(n, buf)
	return buf, pivots(ip), int(inf)
}

func (k *sysKernels[T]) detLU(n int, a []T) (diag []T, swaps int) {
	// det(Aᵀ) = det(A): factor the row-major buffer as it is.
	buf := clone(a)
	ip := make([]int32, n)
	var inf int32
	k.getrfF(i32(n), i32(n), &buf[0], i32(n), &ip[0], &inf)
	diag = make([]T, n)
	for i := 0; i < n; i++ {
		diag[i] = buf[i*n+i]
		if int(ip[i]) != i+1 {
			swaps++
		}
	}
	return diag, swaps
}

func (k *sysKernels[T]) gesv(n, nrhs int, a, b []T) (x []T, info int) {
	// As PyTorch does for row-major input: factor the buffer as it is,
	// i.e. Aᵀ = P·L·U, and solve (Aᵀ)ᵀ·X = B with TRANS='T'.
	return k.luSolve('T', n, nrhs, a, b)
}

func (k *sysKernels[T]) gesvT(n, nrhs int, a, b []T) (x []T, info int) {
	// The row-major buffer is Aᵀ column-major: factor it as it is
	// (Aᵀ = P·L·U) and solve Aᵀ·X = B with TRANS='N', as PyTorch's
	// linalg_det backward does for a contiguous A (lu_factor of A.mT(),
	// lu_solve without adjoint).
	return k.luSolve('N', n, nrhs, a, b)
}

// luSolve factors the row-major n×n buffer a as it is (xGETRF of Aᵀ
// column-major) and solves op(Aᵀ)·X = B with xGETRS's TRANS = trans, B
// (row-major n×nrhs) copied to column-major (a copy unless nrhs == 1).
func (k *sysKernels[T]) luSolve(trans byte, n, nrhs int, a, b []T) (x []T, info int) {
	af := clone(a)
	ip := make([]int32, n)
	var inf int32
	k.getrfF(i32(n), i32(n), &af[0], i32(n), &ip[0], &inf)
	if inf != 0 {
		return nil, int(inf)
	}
	bf := transpose(n, nrhs, b)
	k.getrsF(ch(trans), i32(n), i32(nrhs), &af[0], i32(n), &ip[0], &bf[0], i32(n), &inf, 1)
	if inf != 0 {
		return nil, int(inf)
	}
	if nrhs == 1 {
		return bf, 0
	}
	return transpose(nrhs, n, bf), 0
}

func (k *sysKernels[T]) getri(n int, a []T) (inv []T, info int) {
	// As PyTorch's linalg.inv, which is linalg.solve(A, I): factor the
	// row-major buffer as it is (Aᵀ = P·L·U, so the zero-pivot index in the
	// error is PyTorch's) and solve Aᵀᵀ·X = I with TRANS='T' (xGETRS, not
	// xGETRI, whose rounding and signed zeros differ from PyTorch's).
	af := clone(a)
	ip := make([]int32, n)
	var inf int32
	k.getrfF(i32(n), i32(n), &af[0], i32(n), &ip[0], &inf)
	if inf != 0 {
		return nil, int(inf)
	}
	x := make([]T, n*n) // the identity, column-major X
	for i := 0; i < n; i++ {
		x[i*n+i] = 1
	}
	k.getrsF(ch('T'), i32(n), i32(n), &af[0], i32(n), &ip[0], &x[0], i32(n), &inf, 1)
	if inf != 0 {
		return nil, int(inf)
	}
	return transpose(n, n, x), 0
}

func (k *sysKernels[T]) geqrf(m, n int, a []T, mode qrMode) (q, r []T, info int) {
	kk := min(m, n)
	af := transpose(m, n, a) // column-major m×n, lda = m
	tau := make([]T, kk)
	var inf int32
	var qw [1]T
	k.geqrfF(i32(m), i32(n), &af[0], i32(m), &tau[0], &qw[0], i32(-1), &inf)
	lw := lworkOf(qw[0])
	work := make([]T, lw)
	k.geqrfF(i32(m), i32(n), &af[0], i32(m), &tau[0], &work[0], &lw, &inf)
	if inf != 0 {
		return nil, nil, int(inf)
	}
	rrows := kk
	if mode == qrComplete {
		rrows = m
	}
	r = make([]T, rrows*n)
	for i := 0; i < kk; i++ {
		for j := i; j < n; j++ {
			r[i*n+j] = af[j*m+i]
		}
	}
	if mode == qrR {
		return nil, r, 0
	}
	qcols := kk
	if mode == qrComplete {
		qcols = m
	}
	qb := make([]T, m*qcols)
	copy(qb, af[:m*min(qcols, n)])
	k.orgqrF(i32(m), i32(qcols), i32(kk), &qb[0], i32(m), &tau[0], &qw[0], i32(-1), &inf)
	lw = lworkOf(qw[0])
	if int(lw) > len(work) {
		work = make([]T, lw)
	}
	k.orgqrF(i32(m), i32(qcols), i32(kk), &qb[0], i32(m), &tau[0], &work[0], &lw, &inf)
	return transpose(qcols, m, qb), r, int(inf)
}

func (k *sysKernels[T]) gelsd(m, n, nrhs int, a, b []T, rcond T) (x, resid, sv []T, rank, info int) {
	kk := min(m, n)
	af := transpose(m, n, a)
	ldb := max(m, n)
	bf := make([]T, ldb*nrhs)
	for i := 0; i < m; i++ {
		for j := 0; j < nrhs; j++ {
			bf[j*ldb+i] = b[i*nrhs+j]
		}
	}
	sv = make([]T, kk)
	var rk, inf int32
	var q [1]T
	var qi [1]int32
	k.gelsdF(i32(m), i32(n), i32(nrhs), &af[0], i32(m), &bf[0], i32(ldb), &sv[0], &rcond, &rk, &q[0], i32(-1), &qi[0], &inf)
	if inf != 0 {
		return nil, nil, nil, 0, int(inf)
	}
	lw := lworkOf(q[0])
	work := make([]T, lw)
	iwork := make([]int32, max(qi[0], 1))
	k.gelsdF(i32(m), i32(n), i32(nrhs), &af[0], i32(m), &bf[0], i32(ldb), &sv[0], &rcond, &rk, &work[0], &lw, &iwork[0], &inf)
	if inf != 0 {
		return nil, nil, nil, 0, int(inf)
	}
	x = make([]T, n*nrhs)
	for i := 0; i < n; i++ {
		for j := 0; j < nrhs; j++ {
			x[i*nrhs+j] = bf[j*ldb+i]
		}
	}
	if m > n && int(rk) == n {
		resid = make([]T, nrhs)
		for j := 0; j < nrhs; j++ {
			var acc T
			for _, v := range bf[j*ldb+n : j*ldb+m] {
				acc += v * v
			}
			resid[j] = acc
		}
	}
	return x, resid, sv, int(rk), 0
}
