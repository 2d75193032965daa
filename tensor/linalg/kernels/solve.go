package kernels

import (
	"math"

	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/tensor"
)

// IsVectorRHS reports whether B is a batch of vectors for A (PyTorch's
// linalg_solve_is_vector_rhs): B is 1-D, or B has one dim less than A and
// B.shape == A.shape[:-1].
func IsVectorRHS(A, B *T) bool {
	if B.Dim() == 1 {
		return true
	}
	if B.Dim() != A.Dim()-1 {
		return false
	}
	as, bs := A.Shape(), B.Shape()
	for i := range bs {
		if bs[i] != as[i] {
			return false
		}
	}
	return true
}

// broadcastBatch expands A [..., *aTail] and B [..., *bTail] to a common
// batch shape.
func broadcastBatch(A, B *T) (batch []int, Ae, Be *T, err error) {
	as, bs := A.Shape(), B.Shape()
	batch, err = tensor.BroadcastShapes(as[:len(as)-2], bs[:len(bs)-2])
	if err != nil {
		return nil, nil, nil, err
	}
	if Ae, err = A.Expand(shapeOf(batch, as[len(as)-2:]...)...); err != nil {
		return nil, nil, nil, err
	}
	if Be, err = B.Expand(shapeOf(batch, bs[len(bs)-2:]...)...); err != nil {
		return nil, nil, nil, err
	}
	return batch, Ae, Be, nil
}

// rhs checks B against A for op and returns B as a batch of matrices
// (a vector right-hand side gets a trailing dim of 1).
func rhs(op string, A, B *T) (Bm *T, vector bool, err error) {
	if B.Dim() < 1 {
		return nil, false, errorf("%s: The input tensor B must have at least 1 dimensions.", op)
	}
	if A.DType() != B.DType() {
		return nil, false, errorf("%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead", op, TorchName(A.DType()), TorchName(B.DType()))
	}
	vector = IsVectorRHS(A, B)
	Bm = B
	if vector {
		if Bm, err = B.Unsqueeze(-1); err != nil {
			return nil, false, err
		}
	}
	return Bm, vector, nil
}

// Solve is torch.linalg.solve(A, B) without autograd: the solution X of
// A @ X = B for square A [..., n, n] and B [..., n, k] or, when B is a
// vector right-hand side (see [IsVectorRHS]), B [..., n] and X [..., n].
// Batch dims broadcast. LAPACK xGETRF + xGETRS per matrix. Errors:
// RuntimeError for bad dtypes or shapes ("linalg.solve: Incompatible
// shapes of A and B for the equation AX = B (3x3 and 2x1)"); LinAlgError
// when A is singular (an exactly zero pivot).
func Solve(A, B *T) (*T, error) {
	const op = "linalg.solve"
	_, n, _, err := CheckMatrix(op, A, true)
	if err != nil {
		return nil, err
	}
	Bm, vector, err := rhs(op, A, B)
	if err != nil {
		return nil, err
	}
	bs := Bm.Shape()
	if bs[len(bs)-2] != n {
		return nil, errorf("%s: Incompatible shapes of A and B for the equation AX = B (%dx%d and %dx%d)", op, n, n, bs[len(bs)-2], bs[len(bs)-1])
	}
	batch, Ae, Be, err := broadcastBatch(A, Bm)
	if err != nil {
		return nil, err
	}
	var X *T
	if is32(A.DType()) {
		X, err = solve[float32](Ae, Be, batch, n, bs[len(bs)-1])
	} else {
		X, err = solve[float64](Ae, Be, batch, n, bs[len(bs)-1])
	}
	if err != nil || !vector {
		return X, err
	}
	return X.Squeeze(X.Dim() - 1)
}

func solve[F lapack.Float](A, B *T, batch []int, n, k int) (*T, error) {
	X, x := alloc[F](shapeOf(batch, n, k), A.DType())
	a, bb := data[F](A), data[F](B)
	for b := range prod(batch) {
		xb, err := lapack.Solve(n, k, a[b*n*n:(b+1)*n*n], bb[b*n*k:(b+1)*n*k])
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		copy(x[b*n*k:], xb)
	}
	return X, nil
}

// Inv is torch.linalg.inv without autograd: the inverse [..., n, n] of
// square A [..., n, n]. LAPACK xGETRF + xGETRI per matrix. Errors:
// LinAlgError when A is singular ("linalg.inv: The diagonal element i is
// zero, the inversion could not be completed because the input matrix is
// singular.").
func Inv(A *T) (*T, error) {
	batch, n, _, err := CheckMatrix("linalg.inv", A, true)
	if err != nil {
		return nil, err
	}
	if A.DType().IsHalf() {
		return nil, errorf("linalg.inv: Low precision dtypes not supported. Got %s", TorchName(A.DType()))
	}
	if is32(A.DType()) {
		return inv[float32](A, batch, n)
	}
	return inv[float64](A, batch, n)
}

func inv[F lapack.Float](A *T, batch []int, n int) (*T, error) {
	X, x := alloc[F](shapeOf(batch, n, n), A.DType())
	a := data[F](A)
	for b := range prod(batch) {
		xb, err := lapack.Inv(n, a[b*n*n:(b+1)*n*n])
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		copy(x[b*n*n:], xb)
	}
	return X, nil
}

// Det is torch.linalg.det without autograd: the determinants [...] of
// square A [..., n, n], from an LU factorization (xGETRF). A singular
// matrix gives 0, a 0×0 matrix 1; no LinAlgError is raised.
func Det(A *T) (*T, error) {
	batch, n, _, err := CheckMatrix("linalg.det", A, true)
	if err != nil {
		return nil, err
	}
	if is32(A.DType()) {
		return det[float32](A, batch, n)
	}
	return det[float64](A, batch, n)
}

func det[F lapack.Float](A *T, batch []int, n int) (*T, error) {
	D, d := alloc[F](batch, A.DType())
	a := data[F](A)
	for b := range d {
		v, err := lapack.Det(n, a[b*n*n:(b+1)*n*n])
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		d[b] = v
	}
	return D, nil
}

// Slogdet is torch.linalg.slogdet without autograd: sign [...] and
// logabsdet [...] with det(A) = sign * exp(logabsdet), for square A
// [..., n, n] (LU, logarithms summed in float64). A singular matrix gives
// (0, -inf); a 0×0 matrix (1, 0).
func Slogdet(A *T) (sign, logabsdet *T, err error) {
	batch, n, _, err := CheckMatrix("linalg.slogdet", A, true)
	if err != nil {
		return nil, nil, err
	}
	if is32(A.DType()) {
		return slogdet[float32](A, batch, n)
	}
	return slogdet[float64](A, batch, n)
}

func slogdet[F lapack.Float](A *T, batch []int, n int) (S, L *T, err error) {
	S, s := alloc[F](batch, A.DType())
	L, l := alloc[F](batch, A.DType())
	a := data[F](A)
	for b := range s {
		sg, la, err := lapack.Slogdet(n, a[b*n*n:(b+1)*n*n])
		if err != nil {
			return nil, nil, batchErr(err, b, len(batch) > 0)
		}
		s[b], l[b] = sg, la
	}
	return S, L, nil
}

// Lstsq is torch.linalg.lstsq(A, B, rcond, driver="gelsd") without
// autograd: the minimum-norm least-squares solution of A @ X ≈ B for
// A [..., m, n] and B [..., m, k] (or a vector right-hand side B [..., m],
// see [IsVectorRHS]); batch dims broadcast. rcond < 0 or NaN selects
// PyTorch's default eps(dtype)·max(m, n). Results:
//
//	solution          [..., n, k] (vector: [..., n])
//	residuals         [..., k] squared residual norms, only when m > n and
//	                  every matrix has full rank n, else shape [0]
//	rank              [...] i64 effective rank
//	singular_values   [..., min(m, n)] descending
//
// LAPACK xGELSD (SVD by divide and conquer) per matrix; PyTorch's CPU
// default driver is gelsy, which returns no singular values: tsr always
// behaves as driver="gelsd". Errors: RuntimeError for shapes ("torch.linalg.lstsq:
// input.size(-2) should match other.size(-2)") and dtypes; LinAlgError for
// non-finite input.
func Lstsq(A, B *T, rcond float64) (solution, residuals, rank, sv *T, err error) {
	const op = "linalg.lstsq"
	if A.Dim() < 2 {
		return nil, nil, nil, nil, errorf("torch.linalg.lstsq: input must have at least 2 dimensions.")
	}
	if !(A.DType() == tensor.F32 || A.DType() == tensor.F64) {
		return nil, nil, nil, nil, errorf("This function doesn't handle types other than float and double")
	}
	Bm, vector, err := rhs(op, A, B)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	as, bs := A.Shape(), Bm.Shape()
	m, n, k := as[len(as)-2], as[len(as)-1], bs[len(bs)-1]
	if bs[len(bs)-2] != m {
		return nil, nil, nil, nil, errorf("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
	}
	batch, Ae, Be, err := broadcastBatch(A, Bm)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if math.IsNaN(rcond) {
		rcond = -1
	}
	if is32(A.DType()) {
		solution, residuals, rank, sv, err = lstsq[float32](Ae, Be, batch, m, n, k, rcond)
	} else {
		solution, residuals, rank, sv, err = lstsq[float64](Ae, Be, batch, m, n, k, rcond)
	}
	if err != nil || !vector {
		return
	}
	solution, err = solution.Squeeze(solution.Dim() - 1)
	return
}

func lstsq[F lapack.Float](A, B *T, batch []int, m, n, k int, rcond float64) (X, Res, Rank, SV *T, err error) {
	dt := A.DType()
	X, x := alloc[F](shapeOf(batch, n, k), dt)
	SV, sv := alloc[F](shapeOf(batch, min(m, n)), dt)
	nb := prod(batch)
	ranks := make([]int64, nb)
	res := make([]F, nb*k)
	full := m > n
	a, bb := data[F](A), data[F](B)
	for b := range nb {
		xb, rb, rk, sb, err := lapack.Lstsq(m, n, k, a[b*m*n:(b+1)*m*n], bb[b*m*k:(b+1)*m*k], rcond)
		if err != nil {
			return nil, nil, nil, nil, batchErr(err, b, len(batch) > 0)
		}
		copy(x[b*n*k:], xb)
		copy(sv[b*min(m, n):], sb)
		ranks[b] = int64(rk)
		if rk != n || len(rb) != k {
			full = false
		} else {
			copy(res[b*k:], rb)
		}
	}
	if Rank, err = tensor.FromInt64s(ranks, batch, tensor.I64); err != nil {
		return nil, nil, nil, nil, err
	}
	if full {
		var r []F
		Res, r = alloc[F](shapeOf(batch, k), dt)
		copy(r, res)
	} else {
		Res, _ = alloc[F]([]int{0}, dt)
	}
	return X, Res, Rank, SV, nil
}

// SolveTriangular is torch.linalg.solve_triangular(A, B, upper=upper,
// left=left, unitriangular=unit) without autograd: X with A @ X = B (left)
// or X @ A = B (!left), for triangular A [..., n, n] (only the named
// triangle is read; with unit the diagonal is taken as ones) and
// B [..., n, k] (left) or [..., k, n]; batch dims broadcast. Forward or
// back substitution in Go (the xTRSM algorithm, O(n²k)); a zero on the
// diagonal gives Inf/NaN entries and no error, as in PyTorch.
func SolveTriangular(A, B *T, upper, left, unit bool) (*T, error) {
	const op = "linalg.solve_triangular"
	_, n, _, err := CheckMatrix(op, A, true)
	if err != nil {
		return nil, err
	}
	if B.Dim() < 2 {
		return nil, errorf("%s: The input tensor B must have at least 2 dimensions.", op)
	}
	if A.DType() != B.DType() {
		return nil, errorf("%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead", op, TorchName(A.DType()), TorchName(B.DType()))
	}
	if !left {
		// X A = B  <=>  Aᵀ Xᵀ = Bᵀ
		At, _ := A.MT()
		Bt, _ := B.MT()
		Xt, err := SolveTriangular(At, Bt, !upper, true, unit)
		if err != nil {
			return nil, err
		}
		X, _ := Xt.MT()
		return X.Contiguous(), nil
	}
	bs := B.Shape()
	if bs[len(bs)-2] != n {
		return nil, errorf("%s: Incompatible shapes of A and B for the equation AX = B (%dx%d and %dx%d)", op, n, n, bs[len(bs)-2], bs[len(bs)-1])
	}
	batch, Ae, Be, err := broadcastBatch(A, B)
	if err != nil {
		return nil, err
	}
	k := bs[len(bs)-1]
	if is32(A.DType()) {
		return trsm[float32](Ae, Be, batch, n, k, upper, unit), nil
	}
	return trsm[float64](Ae, Be, batch, n, k, upper, unit), nil
}

func trsm[F lapack.Float](A, B *T, batch []int, n, k int, upper, unit bool) *T {
	X, x := alloc[F](shapeOf(batch, n, k), A.DType())
	a, bb := data[F](A), data[F](B)
	copy(x, bb)
	for b := range prod(batch) {
		ab, xb := a[b*n*n:(b+1)*n*n], x[b*n*k:(b+1)*n*k]
		for s := range n {
			i := s
			if upper {
				i = n - 1 - s
			}
			xi := xb[i*k : (i+1)*k]
			lo, hi := 0, i // lower: columns j < i
			if upper {
				lo, hi = i+1, n
			}
			for j := lo; j < hi; j++ {
				if c := ab[i*n+j]; c != 0 {
					xj := xb[j*k : (j+1)*k]
					for c2 := range xi {
						xi[c2] -= c * xj[c2]
					}
				}
			}
			if !unit {
				d := ab[i*n+i]
				for c2 := range xi {
					xi[c2] /= d
				}
			}
		}
	}
	return X
}

// SolveTransposed is the solution X of Aᵀ @ X = B for square A [..., n, n]
// and B [..., n, k] of A's dtype and batch shape, computed as PyTorch's
// linalg.det backward computes it for a contiguous A: from an LU
// factorization of Aᵀ (A's row-major buffer factored as it is, LAPACK
// xGETRF) and xGETRS with TRANS='N' (lapack.SolveTransposed), so the
// result rounds as PyTorch's. Errors: RuntimeError for bad dtypes or
// shapes; LinAlgError when A is singular (an exactly zero pivot).
func SolveTransposed(A, B *T) (*T, error) {
	const op = "linalg.solve"
	batch, n, _, err := CheckMatrix(op, A, true)
	if err != nil {
		return nil, err
	}
	bs := B.Shape()
	if B.Dim() != A.Dim() || bs[len(bs)-2] != n || B.DType() != A.DType() {
		return nil, errorf("%s: Incompatible shapes of A and B for the equation AX = B", op)
	}
	k := bs[len(bs)-1]
	if is32(A.DType()) {
		return solveT[float32](A, B, batch, n, k)
	}
	return solveT[float64](A, B, batch, n, k)
}

func solveT[F lapack.Float](A, B *T, batch []int, n, k int) (*T, error) {
	X, x := alloc[F](shapeOf(batch, n, k), A.DType())
	a, bb := data[F](A), data[F](B)
	for b := range prod(batch) {
		xb, err := lapack.SolveTransposed(n, k, a[b*n*n:(b+1)*n*n], bb[b*n*k:(b+1)*n*k])
		if err != nil {
			return nil, batchErr(err, b, len(batch) > 0)
		}
		copy(x[b*n*k:], xb)
	}
	return X, nil
}
