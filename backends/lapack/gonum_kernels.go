package lapack

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// gonum64 implements the kernels with gonum's pure-Go LAPACK, which is
// row-major: no transposition is needed. gonum lacks the divide-and-conquer
// drivers, so gesdd uses Dgesvd (QR iteration), syevd uses Dsyev, and gelsd
// is an SVD-based minimum-norm solve with gelsd's rank rule
// (s_i <= rcond*s_1 counts as zero).
type gonum64 struct{}

var impl gonum.Implementation

func workQuery(f func(work []float64, lwork int)) []float64 {
	var q [1]float64
	f(q[:], -1)
	return make([]float64, max(int(q[0]), 1))
}

func (gonum64) gesdd(m, n int, a []float64, job byte) (u, s, vt []float64, info int) {
	if job != 'N' {
		return gesvdRows(m, n, a, job == 'A')
	}
	// Singular values only: Dgesvd (Dgebrd + dqds), on the matrix brought
	// into range by rangeScale.
	buf := clone(a)
	scale := rangeScale(maxAbsOf(buf))
	scaleBy(buf, scale)
	s = make([]float64, min(m, n))
	call := func(work []float64, lwork int) bool {
		return impl.Dgesvd(lapack.SVDNone, lapack.SVDNone, m, n, buf, n, s, nil, 1, nil, 1, work, lwork)
	}
	work := workQuery(func(w []float64, l int) { call(w, l) })
	if !call(work, len(work)) {
		return nil, nil, nil, 1
	}
	scaleBy(s, 1/scale)
	return nil, s, nil, 0
}

func (gonum64) syevd(n int, a []float64, lower, wantV bool) (w, v []float64, info int) {
	buf := clone(a)
	uplo := blas.Upper
	if lower {
		uplo = blas.Lower
	}
	if wantV {
		return syevRows(n, buf, uplo)
	}
	// Eigenvalues only: Dsyev (Dsytrd + Dsterf), on the matrix brought into
	// range by rangeScale.
	scale := rangeScale(triMaxAbs(n, buf, uplo))
	scaleBy(buf, scale)
	w = make([]float64, n)
	work := workQuery(func(wk []float64, l int) { impl.Dsyev(lapack.EVNone, uplo, n, buf, n, w, wk, l) })
	if !impl.Dsyev(lapack.EVNone, uplo, n, buf, n, w, work, len(work)) {
		return nil, nil, 1
	}
	scaleBy(w, 1/scale)
	return w, nil, 0
}

func (gonum64) geev(n int, a []float64, wantV bool) (wr, wi, v []float64, info int) {
	buf := clone(a)
	wr, wi = make([]float64, n), make([]float64, n)
	jobvr := lapack.RightEVNone
	if wantV {
		jobvr, v = lapack.RightEVCompute, make([]float64, n*n)
	}
	work := workQuery(func(wk []float64, l int) {
		impl.Dgeev(lapack.LeftEVNone, jobvr, n, buf, n, wr, wi, nil, 1, v, n, wk, l)
	})
	// Dgeev's minimum workspace is 4n with vectors, 3n without.
	if len(work) < 4*n {
		work = make([]float64, 4*n)
	}
	if first := impl.Dgeev(lapack.LeftEVNone, jobvr, n, buf, n, wr, wi, nil, 1, v, n, work, len(work)); first > 0 {
		return nil, nil, nil, first
	}
	return wr, wi, v, 0
}

func (gonum64) potrf(n int, a []float64, upper bool) (f []float64, info int) {
	buf := clone(a)
	uplo := blas.Lower
	if upper {
		uplo = blas.Upper
	}
	if impl.Dpotrf(uplo, n, buf, n) {
		return buf, 0
	}
	return nil, cholInfo(n, a, upper)
}

// cholInfo returns potrf's info for a matrix gonum's Dpotrf rejected (gonum
// reports only a boolean): the order of the first leading minor that is not
// positive-definite, found by an unblocked Cholesky of the named triangle.
func cholInfo(n int, a []float64, upper bool) int {
	sym := func(i, j int) float64 { // i >= j
		if upper {
			return a[j*n+i]
		}
		return a[i*n+j]
	}
	l := make([]float64, n*n)
	for j := 0; j < n; j++ {
		d := sym(j, j)
		for p := 0; p < j; p++ {
			d -= l[j*n+p] * l[j*n+p]
		}
		if !(d > 0) {
			return j + 1
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := sym(i, j)
			for p := 0; p < j; p++ {
				s -= l[i*n+p] * l[j*n+p]
			}
			l[i*n+j] = s / d
		}
	}
	return n // the blocked and unblocked orders disagree by rounding
}

// getrfRaw is Dgetrf on a copy, with LAPACK's info (first exactly-zero
// U[i,i], 1-based) and 0-based gonum pivots.
func getrfRaw(n int, a []float64) (lu []float64, ipiv []int, info int) {
	lu = clone(a)
	ipiv = make([]int, n)
	impl.Dgetrf(n, n, lu, n, ipiv)
	for i := 0; i < n; i++ {
		if lu[i*n+i] == 0 {
			return lu, ipiv, i + 1
		}
	}
	return lu, ipiv, 0
}

func (gonum64) getrf(n int, a []float64) (lu []float64, piv []int, info int) {
	lu, ipiv, info := getrfRaw(n, a)
	for i := range ipiv {
		ipiv[i]++
	}
	return lu, ipiv, info
}

func (gonum64) detLU(n int, a []float64) (diag []float64, swaps int) {
	lu, ipiv, _ := getrfRaw(n, a)
	diag = make([]float64, n)
	for i := 0; i < n; i++ {
		diag[i] = lu[i*n+i]
		if ipiv[i] != i {
			swaps++
		}
	}
	return diag, swaps
}

func (gonum64) gesvT(n, nrhs int, a, b []float64) (x []float64, info int) {
	return g64.gesv(n, nrhs, transpose(n, n, a), b)
}

func (gonum64) gesv(n, nrhs int, a, b []float64) (x []float64, info int) {
	lu, ipiv, info := getrfRaw(n, a)
	if info != 0 {
		return nil, info
	}
	x = clone(b)
	impl.Dgetrs(blas.NoTrans, n, nrhs, lu, n, ipiv, x, nrhs)
	return x, 0
}

func (gonum64) getri(n int, a []float64) (inv []float64, info int) {
	// Invert Aᵀ and transpose back, so that the zero-pivot index reported
	// for a singular matrix is PyTorch's (which factors Aᵀ).
	lu, ipiv, info := getrfRaw(n, transpose(n, n, a))
	if info != 0 {
		return nil, info
	}
	work := workQuery(func(w []float64, l int) { impl.Dgetri(n, lu, n, ipiv, w, l) })
	if len(work) < n {
		work = make([]float64, n)
	}
	impl.Dgetri(n, lu, n, ipiv, work, len(work))
	transposeSquare(n, lu)
	return lu, 0
}

func (gonum64) geqrf(m, n int, a []float64, mode qrMode) (q, r []float64, info int) {
	kk := min(m, n)
	buf := clone(a)
	tau := make([]float64, kk)
	work := workQuery(func(w []float64, l int) { impl.Dgeqrf(m, n, buf, n, tau, w, l) })
	impl.Dgeqrf(m, n, buf, n, tau, work, len(work))
	rrows := kk
	if mode == qrComplete {
		rrows = m
	}
	r = make([]float64, rrows*n)
	for i := 0; i < kk; i++ {
		copy(r[i*n+i:i*n+n], buf[i*n+i:i*n+n])
	}
	if mode == qrR {
		return nil, r, 0
	}
	qcols := kk
	if mode == qrComplete {
		qcols = m
	}
	q = make([]float64, m*qcols)
	c := min(qcols, n)
	for i := 0; i < m; i++ {
		copy(q[i*qcols:i*qcols+c], buf[i*n:i*n+c])
	}
	work = workQuery(func(w []float64, l int) { impl.Dorgqr(m, qcols, kk, q, qcols, tau, w, l) })
	if len(work) < qcols {
		work = make([]float64, qcols)
	}
	impl.Dorgqr(m, qcols, kk, q, qcols, tau, work, len(work))
	return q, r, 0
}

func (g gonum64) gelsd(m, n, nrhs int, a, b []float64, rcond float64) (x, resid, sv []float64, rank, info int) {
	kk := min(m, n)
	u, s, vt, inf := g.gesdd(m, n, a, 'S')
	if inf != 0 {
		return nil, nil, nil, 0, inf
	}
	thresh := rcond * s[0]
	for rank < kk && s[rank] > thresh {
		rank++
	}
	x = make([]float64, n*nrhs)
	if rank > 0 {
		bl := blas64.Implementation()
		// c = U[:, :rank]ᵀ b, scaled row-wise by 1/s; x = Vt[:rank, :]ᵀ c.
		c := make([]float64, rank*nrhs)
		bl.Dgemm(blas.Trans, blas.NoTrans, rank, nrhs, m, 1, u, kk, b, nrhs, 0, c, nrhs)
		for i := 0; i < rank; i++ {
			inv := 1 / s[i]
			for j := 0; j < nrhs; j++ {
				c[i*nrhs+j] *= inv
			}
		}
		bl.Dgemm(blas.Trans, blas.NoTrans, n, nrhs, rank, 1, vt, n, c, nrhs, 0, x, nrhs)
	}
	if m > n && rank == n {
		resid = make([]float64, nrhs)
		for i := 0; i < m; i++ {
			for j := 0; j < nrhs; j++ {
				d := b[i*nrhs+j]
				for p := 0; p < n; p++ {
					d -= a[i*n+p] * x[p*nrhs+j]
				}
				resid[j] += d * d
			}
		}
	}
	return x, resid, s, rank, 0
}

// gonum32 runs the float64 gonum kernels on float32 data (gonum has no
// single-precision LAPACK): inputs are widened, results rounded.
type gonum32 struct{}

var g64 gonum64

func (gonum32) gesdd(m, n int, a []float32, job byte) (u, s, vt []float32, info int) {
	u6, s6, vt6, info := g64.gesdd(m, n, to64(a), job)
	return from64[float32](u6), from64[float32](s6), from64[float32](vt6), info
}

func (gonum32) syevd(n int, a []float32, lower, wantV bool) (w, v []float32, info int) {
	w6, v6, info := g64.syevd(n, to64(a), lower, wantV)
	return from64[float32](w6), from64[float32](v6), info
}

func (gonum32) geev(n int, a []float32, wantV bool) (wr, wi, v []float32, info int) {
	wr6, wi6, v6, info := g64.geev(n, to64(a), wantV)
	return from64[float32](wr6), from64[float32](wi6), from64[float32](v6), info
}

func (gonum32) potrf(n int, a []float32, upper bool) (f []float32, info int) {
	f6, info := g64.potrf(n, to64(a), upper)
	return from64[float32](f6), info
}

func (gonum32) getrf(n int, a []float32) (lu []float32, piv []int, info int) {
	lu6, piv, info := g64.getrf(n, to64(a))
	return from64[float32](lu6), piv, info
}

func (gonum32) detLU(n int, a []float32) (diag []float32, swaps int) {
	d6, swaps := g64.detLU(n, to64(a))
	return from64[float32](d6), swaps
}

func (gonum32) gesv(n, nrhs int, a, b []float32) (x []float32, info int) {
	x6, info := g64.gesv(n, nrhs, to64(a), to64(b))
	return from64[float32](x6), info
}

func (gonum32) gesvT(n, nrhs int, a, b []float32) (x []float32, info int) {
	x6, info := g64.gesvT(n, nrhs, to64(a), to64(b))
	return from64[float32](x6), info
}

func (gonum32) getri(n int, a []float32) (inv []float32, info int) {
	i6, info := g64.getri(n, to64(a))
	return from64[float32](i6), info
}

func (gonum32) geqrf(m, n int, a []float32, mode qrMode) (q, r []float32, info int) {
	q6, r6, info := g64.geqrf(m, n, to64(a), mode)
	return from64[float32](q6), from64[float32](r6), info
}

func (gonum32) gelsd(m, n, nrhs int, a, b []float32, rcond float32) (x, resid, sv []float32, rank, info int) {
	x6, r6, s6, rank, info := g64.gelsd(m, n, nrhs, to64(a), to64(b), float64(rcond))
	return from64[float32](x6), from64[float32](r6), from64[float32](s6), rank, info
}

// The two drivers below replace gonum's Dgesvd and Dsyev when vectors are
// wanted. Both spend most of their time applying plane rotations to the
// vector matrices (Dlasr, about 6n³ flops). gonum's Dbdsqr and Dsteqr
// apply them to U and Z from the right, that is to pairs of columns of a
// row-major matrix: a strided walk that touches one cache line per row and
// rotation, several times slower than the same work on rows. The drivers
// arrange for every rotation to be applied from the left, to pairs of
// contiguous rows of a transposed copy (O(n²) transposes). The Householder
// reductions (Dgebrd, Dsytrd) and the generation of Q and Pᵀ (Dorgbr,
// Dorgtr) are blocked and run their level-3 parts on tsr's GEMM
// (backends/gonumblas, installed by useGonum).

// gesvdRows is the SVD A = U diag(s) Vᵀ of the m×n row-major a with
// vectors (full: U m×m and Vᵀ n×n; else U m×k and Vᵀ k×n, k = min(m, n)),
// singular values descending; info 1 when the QR iteration does not
// converge. Algorithm (LAPACK xGESVD, path without a preliminary QR):
// Dgebrd reduces A (m >= n; a wide A is handled through Aᵀ = V Σ Uᵀ) to
// upper bidiagonal B = Qᵀ A P, Dorgbr forms Q and Pᵀ, and Dbdsqr computes
// B = Q_B Σ P_Bᵀ, updating Vᵀ ← P_Bᵀ Pᵀ and, in place of U ← Q Q_B, the
// transposed C = Qᵀ ← Q_Bᵀ Qᵀ (both from the left).
func gesvdRows(m, n int, a []float64, full bool) (u, s, vt []float64, info int) {
	if m < n {
		// Aᵀ = U' Σ V'ᵀ, so A = V' Σ U'ᵀ: U = V'ᵀᵀ, Vᵀ = U'ᵀ.
		ut, s, vtt, info := gesvdRows(n, m, transposed(m, n, a), full)
		if info != 0 {
			return nil, nil, nil, info
		}
		ucols := m // columns of U' (n×ucols) = rows of Vᵀ
		if full {
			ucols = n
		}
		return transposed(m, m, vtt), s, transposed(n, ucols, ut), 0
	}
	buf := clone(a)
	scale := rangeScale(maxAbsOf(buf))
	scaleBy(buf, scale)
	d, e := make([]float64, n), make([]float64, n)
	tauQ, tauP := make([]float64, n), make([]float64, n)
	work := workQuery(func(w []float64, l int) { impl.Dgebrd(m, n, buf, n, d, e, tauQ, tauP, w, l) })
	impl.Dgebrd(m, n, buf, n, d, e, tauQ, tauP, work, len(work))

	vt = make([]float64, n*n) // Pᵀ from the rows of the upper triangle
	copy(vt, buf[:n*n])
	work = workQuery(func(w []float64, l int) { impl.Dorgbr(lapack.GeneratePT, n, n, n, vt, n, tauP, w, l) })
	impl.Dorgbr(lapack.GeneratePT, n, n, n, vt, n, tauP, work, len(work))

	ucols := n
	if full {
		ucols = m
	}
	u = make([]float64, m*ucols) // Q: its first n columns hold the reflectors
	for i := range m {
		copy(u[i*ucols:i*ucols+n], buf[i*n:(i+1)*n])
	}
	work = workQuery(func(w []float64, l int) { impl.Dorgbr(lapack.GenerateQ, m, ucols, n, u, ucols, tauQ, w, l) })
	impl.Dorgbr(lapack.GenerateQ, m, ucols, n, u, ucols, tauQ, work, len(work))

	// C = (first n columns of Q)ᵀ, n×m: Dbdsqr rotates it from the left.
	c := make([]float64, n*m)
	for i := range m {
		for j := range n {
			c[j*m+i] = u[i*ucols+j]
		}
	}
	if !bdsqrBlocked(n, d, e, vt, n, c, m) {
		return nil, nil, nil, 1
	}
	for i := range m {
		for j := range n {
			u[i*ucols+j] = c[j*m+i]
		}
	}
	scaleBy(d, 1/scale)
	return u, d, vt, 0
}

// rangeScale returns the power of two that brings a matrix whose largest
// magnitude amax lies outside [2⁻¹⁰⁰, 2¹⁰⁰] to a largest magnitude in
// [0.5, 1) (an exact scaling), or 1 when amax is inside that range or is 0,
// Inf or NaN. The caller divides the singular values or eigenvalues by it.
// This replaces LAPACK's scaling inside xGESVD/xSYEV/xSTERF (squares of
// entries must neither underflow nor overflow), which panics in gonum
// v0.17 (Dlascl called with a bad leading dimension) for such inputs.
func rangeScale(amax float64) float64 {
	if amax == 0 || math.IsInf(amax, 0) || math.IsNaN(amax) || (amax >= 0x1p-100 && amax <= 0x1p100) {
		return 1
	}
	_, e := math.Frexp(amax)
	return math.Ldexp(1, -e)
}

// maxAbsOf returns the largest magnitude in a (NaN if a holds one).
func maxAbsOf(a []float64) float64 {
	m := 0.0
	for _, v := range a {
		m = max(m, math.Abs(v))
	}
	return m
}

// triMaxAbs is maxAbsOf over the triangle uplo of the n×n row-major a.
func triMaxAbs(n int, a []float64, uplo blas.Uplo) float64 {
	m := 0.0
	for i := range n {
		lo, hi := 0, i+1
		if uplo == blas.Upper {
			lo, hi = i, n
		}
		m = max(m, maxAbsOf(a[i*n+lo:i*n+hi]))
	}
	return m
}

// scaleBy multiplies a by f in place (nothing when f is 1).
func scaleBy(a []float64, f float64) {
	if f != 1 {
		for i := range a {
			a[i] *= f
		}
	}
}

// syevRows is the symmetric eigendecomposition A = V diag(w) Vᵀ of the
// triangle uplo of the n×n row-major buf (overwritten): w ascending, the
// eigenvectors as the columns of v; info 1 when the iteration does not
// converge or the input is not finite. Algorithm: Dsytrd reduces A to
// tridiagonal T = Qᵀ A Q and Dorgtr forms Q. T is shifted to the positive
// definite T + σI whose spectrum lies in [g, 2g] (g = width of T's
// Gershgorin interval, so the shift is well conditioned), factored as
// L D Lᵀ (Dpttrf), and the upper bidiagonal R = D^½ Lᵀ (RᵀR = T + σI) is
// decomposed by Dbdsqr, R = Q_R Σ P_Rᵀ: the eigenvalues are σᵢ² − σ and
// the eigenvectors Q P_R, accumulated as Vᵀ = P_Rᵀ Qᵀ from the left. This
// is LAPACK's xPTEQR (Cholesky + xBDSQR for a positive definite
// tridiagonal) after the shift; the absolute error of the eigenvalues is
// O(ε‖A‖), as for the QR iteration of xSTEQR.
func syevRows(n int, buf []float64, uplo blas.Uplo) (w, v []float64, info int) {
	scale := rangeScale(triMaxAbs(n, buf, uplo))
	scaleBy(buf, scale)
	d, e, tau := make([]float64, n), make([]float64, n), make([]float64, n)
	work := workQuery(func(wk []float64, l int) { impl.Dsytrd(uplo, n, buf, n, d, e, tau, wk, l) })
	impl.Dsytrd(uplo, n, buf, n, d, e, tau, work, len(work))
	work = workQuery(func(wk []float64, l int) { impl.Dorgtr(uplo, n, buf, n, tau, wk, l) })
	impl.Dorgtr(uplo, n, buf, n, tau, work, len(work))

	lo, hi := math.Inf(1), math.Inf(-1) // Gershgorin interval of T
	for i := range n {
		r := 0.0
		if i > 0 {
			r += math.Abs(e[i-1])
		}
		if i < n-1 {
			r += math.Abs(e[i])
		}
		lo, hi = min(lo, d[i]-r), max(hi, d[i]+r)
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil, nil, 1
	}
	g := hi - lo
	if g == 0 { // T = cI
		g = max(math.Abs(lo), 1)
	}
	sigma := g - lo // T + σI has its spectrum in [g, 2g]
	for i := range n {
		d[i] += sigma
	}
	if !impl.Dpttrf(n, d, e[:max(n-1, 0)]) {
		return nil, nil, 1
	}
	for i := range n { // R = D^½ Lᵀ: diagonal √dᵢ, superdiagonal √dᵢ·lᵢ
		d[i] = math.Sqrt(d[i])
		if i < n-1 {
			e[i] *= d[i]
		}
	}
	zt := transposed(n, n, buf) // Qᵀ
	if !bdsqrBlocked(n, d, e, zt, n, nil, 0) {
		return nil, nil, 1
	}
	// d descending: eigenvalue k (ascending) is d[n-1-k]² − σ, its vector
	// row n-1-k of zt.
	w, v = make([]float64, n), buf
	for k := range n {
		r := n - 1 - k
		w[k] = (d[r]*d[r] - sigma) / scale
		for i := range n {
			v[i*n+k] = zt[r*n+i]
		}
	}
	return w, v, 0
}

// bdsqrBlocked is Dbdsqr(Upper, n, ...) on the bidiagonal (d, e),
// overwriting d with the singular values (descending) and applying the
// right rotations to vt (n×ncvt) and the left ones to c (n×ncc), both
// row-major with leading dimension equal to their column count, from the
// left. The rotations Dbdsqr generates depend on d and e only, so the
// columns of vt and c are processed in independent blocks, each by its own
// Dbdsqr call on a copy of (d, e) (the O(n²) scalar work is repeated per
// block, the O(n²·cols) rotation work is not): blocks of about 1 MiB stay
// in a core's L2 cache through all the sweeps, and they run concurrently
// on GOMAXPROCS goroutines. The results are bitwise those of one call.
func bdsqrBlocked(n int, d, e, vt []float64, ncvt int, c []float64, ncc int) bool {
	type block struct {
		onC    bool
		j0, nc int
	}
	width := max(16, (1<<20)/(8*n))
	var blocks []block
	for _, side := range []struct {
		onC  bool
		cols int
	}{{false, ncvt}, {true, ncc}} {
		w := min(width, max(16, (side.cols+runtime.GOMAXPROCS(0)-1)/runtime.GOMAXPROCS(0)))
		for j0 := 0; j0 < side.cols; j0 += w {
			blocks = append(blocks, block{side.onC, j0, min(w, side.cols-j0)})
		}
	}
	if len(blocks) == 0 {
		return impl.Dbdsqr(blas.Upper, n, 0, 0, 0, d, e, nil, 1, nil, 1, nil, 1, make([]float64, 4*n))
	}
	d0, e0 := clone(d), clone(e)
	oks := make([]bool, len(blocks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(blocks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := make([]float64, 4*n)
			dd, ee := make([]float64, len(d0)), make([]float64, len(e0))
			for {
				k := int(next.Add(1)) - 1
				if k >= len(blocks) {
					return
				}
				b := blocks[k]
				out := dd
				if k == 0 {
					out = d // the first block leaves the singular values in d
				}
				copy(out, d0)
				copy(ee, e0)
				if b.onC {
					oks[k] = impl.Dbdsqr(blas.Upper, n, 0, 0, b.nc, out, ee, nil, 1, nil, 1, c[b.j0:], ncc, work)
				} else {
					oks[k] = impl.Dbdsqr(blas.Upper, n, b.nc, 0, 0, out, ee, vt[b.j0:], ncvt, nil, 1, nil, 1, work)
				}
			}
		}()
	}
	wg.Wait()
	for _, ok := range oks {
		if !ok {
			return false
		}
	}
	return true
}

// transposed returns the n×m transpose of the m×n row-major a.
func transposed(m, n int, a []float64) []float64 {
	t := make([]float64, m*n)
	for i := range m {
		for j := range n {
			t[j*m+i] = a[i*n+j]
		}
	}
	return t
}
