// Package linalg is tsr's torch.linalg: SVD, symmetric and general
// eigendecomposition, Cholesky, QR, solve, inverse, determinants, norms,
// condition numbers, rank, least squares, pseudo-inverse and truncated
// (low-rank) SVD, on tensors of shape [..., m, n] (every function batches
// over the leading dims) of dtype f32 or f64.
//
// Every function takes the interpreter's autograd engine and records the
// op when grad mode is on and an input requires grad; the derivative
// formulas (PyTorch's, from FunctionsManual.cpp) live in package
// tensor/autograd under the op names "linalg_svd", "linalg_eigh",
// "linalg_cholesky", "linalg_qr", "linalg_solve", "linalg_solve_triangular",
// "linalg_inv", "linalg_det", "linalg_slogdet" and "linalg_pinv". Norms,
// cond and lowrank are compositions of recorded ops. The pure kernels are
// in tensor/linalg/kernels, which calls backends/lapack.
//
// Conventions are PyTorch's: singular values descending, symmetric
// eigenvalues ascending, R's diagonal signs from Householder QR, 0-size
// inputs give correctly shaped results. Errors: RuntimeError for bad
// ranks, dtypes (f16/bf16/integers are rejected with PyTorch's message) and
// shapes; "LinAlgError" for numerical failures (PyTorch's
// torch.linalg.LinAlgError, a subclass of RuntimeError): singular solve or
// inverse, a matrix that is not positive-definite (naming the order of the
// leading minor), non-finite SVD input, no convergence.
//
// Complex results (Eig, Eigvals): tsr has no complex dtype, so they use
// torch.view_as_real's layout, a trailing dim of size 2 holding the real
// and imaginary parts.
package linalg

import (
	"fmt"

	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// T is a shorthand for the tensor type.
type T = tensor.Tensor

// Engine is a shorthand for the autograd engine type.
type Engine = autograd.Engine

// Tol holds the optional atol/rtol of MatrixRank and Pinv (nil = None).
type Tol = kernels.Tol

// Backend returns the active LAPACK implementation, e.g. "gonum" or
// "openblas (/usr/lib/x86_64-linux-gnu/libopenblas.so.0)".
func Backend() string { return kernels.Backend() }

func errorf(format string, args ...any) error {
	return &kernels.Error{Kind: "RuntimeError", Msg: sprintf(format, args...)}
}

func valueErr(format string, args ...any) error {
	return &kernels.Error{Kind: "ValueError", Msg: sprintf(format, args...)}
}

func needsGrad(e *Engine, ts ...*T) bool {
	if !e.GradEnabled() {
		return false
	}
	for _, t := range ts {
		if t != nil && t.RequiresGrad() {
			return true
		}
	}
	return false
}

func apply(e *Engine, op string, in []*T, attrs autograd.Attrs, f func() (*T, error)) (*T, error) {
	return e.Apply(op, in, attrs, f)
}

func applyMulti(e *Engine, op string, in []*T, attrs autograd.Attrs, f func() ([]*T, error)) ([]*T, error) {
	return e.ApplyMulti(op, in, attrs, f)
}

// SVD is torch.linalg.svd(A, full_matrices=full): U [..., m, m] (full) or
// [..., m, k], S [..., k] descending, Vh [..., n, n] or [..., k, n], with
// k = min(m, n) and A = U[..., :k] diag(S) Vh[..., :k, :]. Singular vectors
// are unique up to sign. Differentiable (PyTorch's svd_backward; with
// full=true the extra vectors get no gradient); gradients of U and Vh are
// Inf/NaN when singular values repeat, as in PyTorch. LAPACK xGESDD.
func SVD(e *Engine, A *T, full bool) (U, S, Vh *T, err error) {
	outs, err := applyMulti(e, "linalg_svd", []*T{A}, autograd.Attrs{"full_matrices": full}, func() ([]*T, error) {
		u, s, vh, err := kernels.SVD(A, full)
		return []*T{u, s, vh}, err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return outs[0], outs[1], outs[2], nil
}

// SVDVals is torch.linalg.svdvals: the singular values [..., min(m, n)] of
// A, descending. Differentiable: when A requires grad the full (reduced)
// SVD is recorded, as PyTorch does, and its gradient U diag(g) Vh is
// well-defined even for repeated values.
func SVDVals(e *Engine, A *T) (*T, error) {
	if !needsGrad(e, A) {
		return kernels.SVDVals(A)
	}
	_, S, _, err := SVD(e, A, false)
	return S, err
}

// Cholesky is torch.linalg.cholesky(A, upper=upper): L [..., n, n] lower
// triangular with A = L Lᵀ (reading A's lower triangle), or with upper the
// U with A = Uᵀ U (reading the upper triangle). Differentiable (Murray
// 2016, PyTorch's cholesky_backward; the gradient is symmetric). Errors:
// LinAlgError "linalg.cholesky: The factorization could not be completed
// because the input is not positive-definite (the leading minor of order k
// is not positive-definite)." LAPACK xPOTRF.
func Cholesky(e *Engine, A *T, upper bool) (*T, error) {
	return apply(e, "linalg_cholesky", []*T{A}, autograd.Attrs{"upper": upper}, func() (*T, error) {
		return kernels.Cholesky(A, upper)
	})
}

func parseUPLO(uplo string) (upper bool, err error) {
	switch uplo {
	case "L", "l":
		return false, nil
	case "U", "u":
		return true, nil
	}
	return false, errorf("Expected UPLO argument to be 'L' or 'U', but got %s", uplo)
}

// Eigh is torch.linalg.eigh(A, UPLO=uplo) for symmetric A [..., n, n],
// reading only the lower ("L") or upper ("U") triangle: eigenvalues L
// [..., n] ascending and orthonormal eigenvectors as the columns of V
// [..., n, n] (unique up to sign). Differentiable (gradients of V are
// Inf/NaN for repeated eigenvalues, as in PyTorch). LAPACK xSYEVD.
func Eigh(e *Engine, A *T, uplo string) (L, V *T, err error) {
	upper, err := parseUPLO(uplo)
	if err != nil {
		return nil, nil, err
	}
	outs, err := applyMulti(e, "linalg_eigh", []*T{A}, nil, func() ([]*T, error) {
		w, v, err := kernels.Eigh(A, upper)
		return []*T{w, v}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}

// EigvalsH is torch.linalg.eigvalsh(A, UPLO=uplo): the ascending
// eigenvalues [..., n] of symmetric A. Differentiable (through Eigh).
func EigvalsH(e *Engine, A *T, uplo string) (*T, error) {
	upper, err := parseUPLO(uplo)
	if err != nil {
		return nil, err
	}
	if !needsGrad(e, A) {
		return kernels.EigvalsH(A, upper)
	}
	L, _, err := Eigh(e, A, uplo)
	return L, err
}

// Eig is torch.linalg.eig for real A [..., n, n], in view_as_real layout:
// eigenvalues L [..., n, 2] and eigenvectors V [..., n, n, 2] (real and
// imaginary parts in the last dim; see kernels.Eig). Not differentiable in
// tsr (the results do not require grad). LAPACK xGEEV.
func Eig(A *T) (L, V *T, err error) { return kernels.Eig(A) }

// Eigvals is torch.linalg.eigvals for real A, in view_as_real layout
// [..., n, 2]. Not differentiable in tsr.
func Eigvals(A *T) (*T, error) { return kernels.Eigvals(A) }

// QR is torch.linalg.qr(A, mode): "reduced" (Q [..., m, k], R [..., k, n]),
// "complete" (Q [..., m, m], R [..., m, n]) or "r" (Q empty [0], R
// [..., k, n]), k = min(m, n). Differentiable for mode "reduced" with
// m >= n (and "complete" with m == n), PyTorch's linalg_qr_backward; other
// cases fail at backward time with PyTorch's message. LAPACK xGEQRF+xORGQR.
func QR(e *Engine, A *T, mode string) (Q, R *T, err error) {
	outs, err := applyMulti(e, "linalg_qr", []*T{A}, autograd.Attrs{"mode": mode}, func() ([]*T, error) {
		q, r, err := kernels.QR(A, mode)
		return []*T{q, r}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}

// Solve is torch.linalg.solve(A, B, left=left): X with A X = B (left) or
// X A = B (!left), A [..., n, n]; B [..., n, k], or a batch of vectors
// [..., n] (left only, see kernels.IsVectorRHS); batch dims broadcast.
// Differentiable: gB = A⁻ᵀ g, gA = −gB Xᵀ. Errors: LinAlgError when A is
// singular. LAPACK xGESV.
func Solve(e *Engine, A, B *T, left bool) (*T, error) {
	if !left {
		if B.Dim() < 2 {
			return nil, errorf("linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)")
		}
		At, err := transposeLast(e, A)
		if err != nil {
			return nil, err
		}
		Bt, err := transposeLast(e, B)
		if err != nil {
			return nil, err
		}
		Xt, err := Solve(e, At, Bt, true)
		if err != nil {
			return nil, err
		}
		return transposeLast(e, Xt)
	}
	vec := kernels.IsVectorRHS(A, B)
	return apply(e, "linalg_solve", []*T{A, B}, autograd.Attrs{"vector": vec}, func() (*T, error) {
		return kernels.Solve(A, B)
	})
}

// SolveTriangular is torch.linalg.solve_triangular(A, B, upper=upper,
// left=left) for triangular A [..., n, n] (only the named triangle is
// read) and B [..., n, k] (left) or [..., k, n]. Differentiable.
func SolveTriangular(e *Engine, A, B *T, upper, left bool) (*T, error) {
	if !left {
		At, err := transposeLast(e, A)
		if err != nil {
			return nil, err
		}
		Bt, err := transposeLast(e, B)
		if err != nil {
			return nil, err
		}
		Xt, err := SolveTriangular(e, At, Bt, !upper, true)
		if err != nil {
			return nil, err
		}
		return transposeLast(e, Xt)
	}
	return apply(e, "linalg_solve_triangular", []*T{A, B}, autograd.Attrs{"upper": upper}, func() (*T, error) {
		return kernels.SolveTriangular(A, B, upper, true, false)
	})
}

// Inv is torch.linalg.inv: A⁻¹ [..., n, n]. Differentiable
// (gA = −A⁻ᵀ g A⁻ᵀ). Errors: LinAlgError for singular A. LAPACK xGETRI.
func Inv(e *Engine, A *T) (*T, error) {
	return apply(e, "linalg_inv", []*T{A}, nil, func() (*T, error) { return kernels.Inv(A) })
}

// Det is torch.linalg.det: the determinants [...] of A [..., n, n] (LU).
// Differentiable: g·det·A⁻ᵀ, and the cofactor matrix for singular A.
func Det(e *Engine, A *T) (*T, error) {
	return apply(e, "linalg_det", []*T{A}, nil, func() (*T, error) { return kernels.Det(A) })
}

// Slogdet is torch.linalg.slogdet: sign [...] and logabsdet [...] with
// det = sign·exp(logabsdet). logabsdet is differentiable (g·A⁻ᵀ).
func Slogdet(e *Engine, A *T) (sign, logabsdet *T, err error) {
	outs, err := applyMulti(e, "linalg_slogdet", []*T{A}, nil, func() ([]*T, error) {
		s, l, err := kernels.Slogdet(A)
		return []*T{s, l}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return outs[0], outs[1], nil
}

// Pinv is torch.linalg.pinv(A, atol=, rtol=, hermitian=): the
// pseudo-inverse [..., n, m] of A [..., m, n]; see kernels.Pinv for the
// cut-off. Differentiable (PyTorch's pinv_backward, which stays finite
// for repeated singular values).
func Pinv(e *Engine, A *T, tol Tol, hermitian bool) (*T, error) {
	return apply(e, "linalg_pinv", []*T{A}, nil, func() (*T, error) { return kernels.Pinv(A, tol, hermitian) })
}

// MatrixRank is torch.linalg.matrix_rank(A, atol=, rtol=, hermitian=):
// the numerical rank [...] as i64 (not differentiable); see kernels.Tol.
func MatrixRank(A *T, tol Tol, hermitian bool) (*T, error) {
	return kernels.MatrixRank(A, tol, hermitian)
}

// LstsqResult is torch.linalg.lstsq's named tuple.
type LstsqResult struct {
	// Solution is [..., n, k] (or [..., n] for a vector right-hand side).
	Solution *T
	// Residuals [..., k] are the squared residual norms, present only when
	// m > n and every matrix has full rank; else the shape is [0].
	Residuals *T
	// Rank [...] (i64) is the effective rank.
	Rank *T
	// SingularValues [..., min(m, n)] of A, descending.
	SingularValues *T
}

// Lstsq is torch.linalg.lstsq(A, B, rcond=rcond, driver="gelsd"): the
// minimum-norm least-squares solution of A X ≈ B, A [..., m, n], B
// [..., m, k] or [..., m]; batch dims broadcast; rcond < 0 or NaN selects
// eps·max(m, n). The solution is differentiable in A and B: when either
// requires grad it is computed as pinv(A, rtol=rcond) @ B, which is
// PyTorch's own backward formula. LAPACK xGELSD.
func Lstsq(e *Engine, A, B *T, rcond float64) (*LstsqResult, error) {
	X, res, rank, sv, err := kernels.Lstsq(A, B, rcond)
	if err != nil {
		return nil, err
	}
	r := &LstsqResult{Solution: X, Residuals: res, Rank: rank, SingularValues: sv}
	if !needsGrad(e, A, B) {
		return r, nil
	}
	var tol Tol
	if rcond >= 0 {
		rt := rcond
		tol.Rtol = &rt
	}
	P, err := Pinv(e, A, tol, false)
	if err != nil {
		return nil, err
	}
	if kernels.IsVectorRHS(A, B) {
		Bu, err := apply(e, "unsqueeze", []*T{B}, autograd.Attrs{"dim": B.Dim()}, func() (*T, error) { return B.Unsqueeze(B.Dim()) })
		if err != nil {
			return nil, err
		}
		Xu, err := matmul(e, P, Bu)
		if err != nil {
			return nil, err
		}
		r.Solution, err = apply(e, "squeeze", []*T{Xu}, nil, func() (*T, error) { return Xu.Squeeze(Xu.Dim() - 1) })
		return r, err
	}
	r.Solution, err = matmul(e, P, B)
	return r, err
}

// ---- recorded elementary ops used by the composites ----

func matmul(e *Engine, a, b *T) (*T, error) {
	return apply(e, "matmul", []*T{a, b}, nil, func() (*T, error) { return tensor.Matmul(a, b) })
}

func transposeLast(e *Engine, a *T) (*T, error) {
	nd := a.Dim()
	return apply(e, "transpose", []*T{a}, autograd.Attrs{"dim0": nd - 2, "dim1": nd - 1}, func() (*T, error) {
		return a.Transpose(nd-2, nd-1)
	})
}

func narrow(e *Engine, a *T, dim, start, length int) (*T, error) {
	return apply(e, "narrow", []*T{a}, nil, func() (*T, error) { return a.Narrow(dim, start, length) })
}

func absT(e *Engine, a *T) (*T, error) {
	return apply(e, "abs", []*T{a}, nil, func() (*T, error) { return tensor.Abs(a) })
}

func sumDims(e *Engine, a *T, dims []int, keep bool) (*T, error) {
	return apply(e, "sum", []*T{a}, autograd.Attrs{"dim": dims, "keepdim": keep}, func() (*T, error) {
		return tensor.Sum(a, dims, keep)
	})
}

func amaxmin(e *Engine, a *T, dims []int, keep, isMax bool) (*T, error) {
	if isMax {
		return apply(e, "amax", []*T{a}, autograd.Attrs{"dim": dims, "keepdim": keep}, func() (*T, error) {
			return tensor.Amax(a, dims, keep)
		})
	}
	return apply(e, "amin", []*T{a}, autograd.Attrs{"dim": dims, "keepdim": keep}, func() (*T, error) {
		return tensor.Amin(a, dims, keep)
	})
}

func div(e *Engine, a, b *T) (*T, error) {
	return apply(e, "div", []*T{a, b}, nil, func() (*T, error) { return tensor.Div(a, b) })
}

func mul(e *Engine, a, b *T) (*T, error) {
	return apply(e, "mul", []*T{a, b}, nil, func() (*T, error) { return tensor.Mul(a, b) })
}

var sprintf = fmt.Sprintf
