package autograd

import (
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// Differentiable helpers for the linear-algebra derivative formulas
// (derivatives_linalg.go). Like ops.go, each goes through Apply so that a
// create_graph backward records it.

// mT transposes the last two dims (x.mT).
func (e *Engine) mT(a *T) (*T, error) {
	nd := a.Dim()
	return e.transpose(a, nd-2, nd-1)
}

// triMask returns the constant r×c mask of tril(·, k) (upper=false) or
// triu(·, k) (upper=true) in dtype dt.
func triMask(r, c, k int, upper bool, dt tensor.DType) (*T, error) {
	ones, err := tensor.Ones([]int{r, c}, dt)
	if err != nil {
		return nil, err
	}
	if upper {
		return tensor.Triu(ones, k)
	}
	return tensor.Tril(ones, k)
}

// tri is tril(a, k) or triu(a, k) over the last two dims, as a product
// with a constant mask (so its gradient is the same mask).
func (e *Engine) tri(a *T, k int, upper bool) (*T, error) {
	sh := a.Shape()
	m, err := triMask(sh[len(sh)-2], sh[len(sh)-1], k, upper, a.DType())
	if err != nil {
		return nil, err
	}
	return e.mul(a, m)
}

// diagEmbed maps v [..., n] to the diagonal matrices [..., n, n].
func (e *Engine) diagEmbed(v *T) (*T, error) {
	n := v.Shape()[v.Dim()-1]
	eye, err := tensor.Eye(n, n, v.DType())
	if err != nil {
		return nil, err
	}
	u, err := e.unsqueeze(v, v.Dim())
	if err != nil {
		return nil, err
	}
	return e.mul(u, eye)
}

// narrow is a.narrow(dim, start, length) recorded as a view.
func (e *Engine) narrow(a *T, dim, start, length int) (*T, error) {
	return e.Apply("narrow", []*T{a}, nil, func() (*T, error) { return a.Narrow(dim, start, length) })
}

// linalgSolve is the recorded linalg.solve(A, B).
func (e *Engine) linalgSolve(A, B *T) (*T, error) {
	vec := kernels.IsVectorRHS(A, B)
	return e.Apply("linalg_solve", []*T{A, B}, Attrs{"vector": vec}, func() (*T, error) { return kernels.Solve(A, B) })
}

// linalgSolveTriangular is the recorded linalg.solve_triangular(A, B,
// upper=upper, left=left). The right-sided solve X A = B is recorded as
// the left-sided Aᵀ Xᵀ = Bᵀ between transposes.
func (e *Engine) linalgSolveTriangular(A, B *T, upper, left bool) (*T, error) {
	if !left {
		At, err := e.mT(A)
		if err != nil {
			return nil, err
		}
		Bt, err := e.mT(B)
		if err != nil {
			return nil, err
		}
		Xt, err := e.linalgSolveTriangular(At, Bt, !upper, true)
		if err != nil {
			return nil, err
		}
		return e.mT(Xt)
	}
	return e.Apply("linalg_solve_triangular", []*T{A, B}, Attrs{"upper": upper},
		func() (*T, error) { return kernels.SolveTriangular(A, B, upper, true, false) })
}

// allZero reports whether every element of t is zero: the engine passes
// zeros for outputs that received no gradient, and formulas use this to
// take PyTorch's "gradient undefined" branches (which avoid 0/0 where
// singular values or eigenvalues repeat).
func allZero(t *T) bool {
	if t == nil {
		return true
	}
	for _, v := range t.ToFloat64s() {
		if v != 0 {
			return false
		}
	}
	return true
}

// LUFactorBackwardGraph is the gradient of A for the packed factorization
// LU = lu_factor(A) of A [..., m, n] in engine ops, so it can be
// differentiated again: with k = min(m, n), L the unit lower m×k and U the
// upper k×n factor in LU, gL = g[..., :k] and gU = g[..., :k, :], PyTorch's
// linalg_lu_backward (as lu_factor_ex_backward calls it):
//
//	m == n: gA = P L⁻ᴴ (tril(Lᴴ gL, -1) + triu(gU Uᴴ)) U⁻ᴴ
//	m < n:  X = tril(Lᴴ gL - triu(gU) Uᴴ, -1) U1⁻ᴴ;
//	        gA = P L⁻ᴴ [X + triu(gU1), gU2]
//	m > n:  X = L1⁻ᴴ triu(gU Uᴴ - Lᴴ tril(gL, -1));
//	        gA = P [X + tril(gL1, -1); gL2] U⁻ᴴ
//
// where P (A = P L U) is the m×m permutation matrix of the pivots,
// [..., m, m]. LU should be the recorded output (its graph carries A's
// dependence).
func (e *Engine) LUFactorBackwardGraph(LU, P, g *T) (*T, error) {
	k := &calc{e: e}
	d := LU.Dim()
	m, n := LU.Shape()[d-2], LU.Shape()[d-1]
	r := min(m, n)
	cat := func(a, b *T, dim int) *T {
		return k.do(func() (*T, error) {
			ts := []*T{a, b}
			return e.Apply("cat", ts, Attrs{"dim": dim}, func() (*T, error) { return tensor.Cat(ts, dim) })
		})
	}
	eye, err := tensor.Eye(m, r, LU.DType())
	if err != nil {
		return nil, err
	}
	L := k.add(k.tril(k.narrow(LU, -1, 0, r), -1), eye) // m×k
	U := k.triu(k.narrow(LU, -2, 0, r), 0)              // k×n
	gL, gU := k.narrow(g, -1, 0, r), k.narrow(g, -2, 0, r)
	var gA *T
	switch {
	case m == n:
		phi := k.add(k.tril(k.mm(k.mT(L), gL), -1), k.triu(k.mm(gU, k.mT(U)), 0))
		X := k.solveTri(k.mT(U), phi, false, false) // X Uᴴ = phi
		gA = k.solveTri(k.mT(L), X, true, true)     // Lᴴ Y = X
	case m < n:
		U1 := k.narrow(U, -1, 0, r)
		X := k.tril(k.sub(k.mm(k.mT(L), gL), k.mm(k.triu(gU, 0), k.mT(U))), -1)
		X = k.solveTri(k.mT(U1), X, false, false)
		X = cat(k.add(X, k.triu(k.narrow(gU, -1, 0, r), 0)), k.narrow(gU, -1, r, n-r), d-1)
		gA = k.solveTri(k.mT(L), X, true, true)
	default:
		L1 := k.narrow(L, -2, 0, r)
		X := k.triu(k.sub(k.mm(gU, k.mT(U)), k.mm(k.mT(L), k.tril(gL, -1))), 0)
		X = k.solveTri(k.mT(L1), X, true, true)
		X = cat(k.add(X, k.tril(k.narrow(gL, -2, 0, r), -1)), k.narrow(gL, -2, r, m-r), d-2)
		gA = k.solveTri(k.mT(U), X, false, false)
	}
	return k.mm(P, gA), k.err
}
