package lapack

// LUFactor computes the LU factorization with partial pivoting P·A = L·U of
// the m×n row-major matrix a (m and n may differ), like
// torch.linalg.lu_factor_ex: lu (row-major m×n) holds L (m×k, unit
// diagonal, not stored) strictly below the diagonal and U (k×n) on and
// above it, k = min(m, n); piv holds LAPACK's k 1-based pivots (row i was
// interchanged with row piv[i]-1, in order i = 0..k-1), as PyTorch returns
// them; info is LAPACK's: 0, or the 1-based index of the first exactly-zero
// U[i,i] (the factorization is still complete and returned).
//
// Algorithm: LAPACK xGETRF on a column-major copy of a (system library),
// or gonum's Dgetrf on a itself (row-major; float32 data is widened to
// float64 and rounded back). Both pick the first largest |a[i,j]| of a
// column as pivot, so pivots agree with PyTorch's whenever the candidates
// are not tied to rounding. Errors: ValueError for a bad shape,
// RuntimeError for an internal failure; never for a singular matrix.
func LUFactor[T Float](m, n int, a []T) (lu []T, piv []int, info int, err error) {
	if e := checkMat(opLUFactor, "A", m, n, a); e != nil {
		return nil, nil, 0, e
	}
	k := min(m, n)
	if k == 0 {
		return clone(a), []int{}, 0, nil
	}
	defer recoverTo(opLUFactor, &err)
	if sk, ok := kern[T](active()).(*sysKernels[T]); ok {
		buf := transpose(m, n, a) // column-major m×n, lda = m
		ip := make([]int32, k)
		var inf int32
		sk.getrfF(i32(m), i32(n), &buf[0], i32(m), &ip[0], &inf)
		if inf < 0 {
			return nil, nil, 0, errIllegal(opLUFactor, int(inf))
		}
		return transpose(n, m, buf), pivots(ip), int(inf), nil
	}
	lu64 := to64(a)
	ipiv := make([]int, k)
	impl.Dgetrf(m, n, lu64, n, ipiv)
	for i := range ipiv {
		ipiv[i]++
		if info == 0 && lu64[i*n+i] == 0 {
			info = i + 1
		}
	}
	if _, is32 := any(lu).([]float32); is32 {
		return from64[T](lu64), ipiv, info, nil
	}
	return any(lu64).([]T), ipiv, info, nil
}
