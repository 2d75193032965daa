package stdlib

import (
	"errors"
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// The backward of lu_factor, the *_ex variants, tensorinv/tensorsolve and
// the old top-level solvers cholesky_solve, cholesky_inverse and
// triangular_solve (see linalg_lu.go).

// ---- linalg_lu_backward (PyTorch FunctionsManual.cpp) ----

// luBackward writes into gA (m×n, row-major) the gradient of A for the
// gradient gLU of its packed LU factorization (lu, piv): PyTorch's
// lu_factor_ex_backward, which calls linalg_lu_backward with
// L_grad = gLU[:, :k] and U_grad = gLU[:k, :]:
//
//	m == n: gA = P L⁻ᴴ (tril(Lᴴ gL, -1) + triu(gU Uᴴ)) U⁻ᴴ
//	m < n:  X = tril(Lᴴ gL - triu(gU) Uᴴ, -1) U1⁻ᴴ;
//	        gA = P L⁻ᴴ [X + triu(gU1), gU2]
//	m > n:  X = L1⁻ᴴ triu(gU Uᴴ - Lᴴ tril(gL, -1));
//	        gA = P [X + tril(gL1, -1); gL2] U⁻ᴴ
func luBackward(lu []float64, piv []int32, g, gA []float64, m, n int) {
	k := min(m, n)
	L := make([]float64, m*k) // unit lower m×k
	U := make([]float64, k*n) // upper k×n
	for i := 0; i < m; i++ {
		for j := 0; j < k && j <= i; j++ {
			if i == j {
				L[i*k+j] = 1
			} else {
				L[i*k+j] = lu[i*n+j]
			}
		}
	}
	for i := 0; i < k; i++ {
		for j := i; j < n; j++ {
			U[i*n+j] = lu[i*n+j]
		}
	}
	var X []float64 // result before the permutation, m×n
	switch {
	case m <= n:
		// Y = Lᴴ gL (k×k), minus triu(gU) Uᴴ when wide; square: plus triu(gU Uᴴ)
		Y := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				s := 0.0
				for p := 0; p < m; p++ {
					s += L[p*k+i] * g[p*n+j]
				}
				t := 0.0
				for p := 0; p < n; p++ {
					if p >= i { // triu(gU)[i, p] * U[j, p]
						t += g[i*n+p] * U[j*n+p]
					}
				}
				switch {
				case m == n && i > j:
					Y[i*k+j] = s
				case m == n:
					// triu(gU Uᴴ) uses the full gU row: sum_p gU[i,p] U[j,p]
					u := 0.0
					for p := j; p < n; p++ {
						u += g[i*n+p] * U[j*n+p]
					}
					Y[i*k+j] = u
				case i > j:
					Y[i*k+j] = s - t
				default:
					Y[i*k+j] = 0
				}
			}
		}
		solveRightUT(U, n, k, Y, k) // Y ← Y U1⁻ᴴ
		X = make([]float64, m*n)
		for i := 0; i < k; i++ {
			for j := 0; j < n; j++ {
				switch {
				case j < k && m < n:
					v := Y[i*k+j]
					if j >= i {
						v += g[i*n+j]
					}
					X[i*n+j] = v
				case j < k:
					X[i*n+j] = Y[i*k+j]
				default:
					X[i*n+j] = g[i*n+j]
				}
			}
		}
		solveLeftLT(L, k, X, n) // X ← L⁻ᴴ X
	default: // tall
		Y := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := i; j < k; j++ { // triu only
				s := 0.0
				for p := 0; p < n; p++ {
					s += g[i*n+p] * U[j*n+p]
				}
				t := 0.0
				for p := j + 1; p < m; p++ { // Lᴴ tril(gL, -1): L[p,i] gL[p,j], p > j
					if p >= i {
						t += L[p*k+i] * g[p*n+j]
					}
				}
				Y[i*k+j] = s - t
			}
		}
		solveLeftLT(L, k, Y, k) // Y ← L1⁻ᴴ Y
		X = make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < k; j++ {
				switch {
				case i < k:
					v := Y[i*k+j]
					if i > j {
						v += g[i*n+j]
					}
					X[i*n+j] = v
				default:
					X[i*n+j] = g[i*n+j]
				}
			}
		}
		solveRightUT(U, n, k, X, m) // X ← X U⁻ᴴ
	}
	perm := make([]int, m)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < k; i++ {
		j := int(piv[i]) - 1
		perm[i], perm[j] = perm[j], perm[i]
	}
	for i := 0; i < m; i++ { // (P X)[perm[i]] = X[i]
		copy(gA[perm[i]*n:(perm[i]+1)*n], X[i*n:(i+1)*n])
	}
}

// solveRightUT overwrites the rows×k leading block of X (row stride
// len(X)/rows) with X U1⁻ᵀ, U1 the upper k×k block of U (row stride n).
func solveRightUT(U []float64, n, k int, X []float64, rows int) {
	ld := len(X) / rows
	for r := 0; r < rows; r++ {
		x := X[r*ld : r*ld+k]
		for i := k - 1; i >= 0; i-- {
			s := x[i]
			for j := i + 1; j < k; j++ {
				s -= x[j] * U[i*n+j]
			}
			x[i] = s / U[i*n+i]
		}
	}
}

// solveLeftLT overwrites the k leading rows of X (cols columns) with
// L1⁻ᵀ X, L1 the unit lower k×k block of L (row stride k).
func solveLeftLT(L []float64, k int, X []float64, cols int) {
	for i := k - 1; i >= 0; i-- {
		for j := i + 1; j < k; j++ {
			l := L[j*k+i]
			if l == 0 {
				continue
			}
			for c := 0; c < cols; c++ {
				X[i*cols+c] -= l * X[j*cols+c]
			}
		}
	}
}

// ---- solve_ex, inv_ex, cholesky_ex ----

func isLinAlgError(err error) bool {
	var hk runtime.HasKind
	return errors.As(err, &hk) && hk.ErrorKind() == "LinAlgError"
}

// noGrad is an engine that records nothing (results computed for
// singular inputs, which PyTorch fills with Inf/NaN).
func noGrad() *Engine {
	e := autograd.NewEngine()
	e.SetGradEnabled(false)
	return e
}

// singularInfo returns the LU info of every matrix of A [..., n, n]: of
// Aᵀ when A is contiguous, as PyTorch's solve/inv factor A.mT then.
func singularInfo(A *T) (*luResult, error) {
	s := A.Shape()
	batch, n := s[:len(s)-2], s[len(s)-1]
	F := A
	if A.IsContiguous() {
		t, err := A.MT()
		if err != nil {
			return nil, err
		}
		F = t
	}
	return luFactorData(F, batch, n, n)
}

func linalgSolveEx(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A, B tensorArg
	left, check := true, false
	if err := runtime.UnpackArgs("linalg.solve_ex", args, kwargs, "A", &A, "B", &B, "left?", &left, "check_errors?", &check); err != nil {
		return nil, err
	}
	X, err := linalg.Solve(engineOf(th), A.t, B.t, left)
	if err == nil {
		s := A.t.Shape()
		info, err := tensor.Zeros(s[:len(s)-2], tensor.I32)
		if err != nil {
			return nil, err
		}
		autograd.SetGradFnName(X, "LinalgSolveExBackward0")
		return namedTuple(th, "linalg_solve_ex", []string{"result", "info"}, X, info), nil
	}
	if !isLinAlgError(err) {
		return nil, err
	}
	res, err := singularInfo(A.t)
	if err != nil {
		return nil, err
	}
	if check {
		for i, v := range res.info {
			if v > 0 {
				return nil, runtime.Errorf("LinAlgError", "torch.linalg.solve_ex: %sThe solver failed because the input matrix is singular.", batchPrefix(res.batch, i))
			}
		}
	}
	X, err = singularSolve(A.t, B.t, left)
	if err != nil {
		return nil, err
	}
	info, err := int32Tensor(res.info, res.batch)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_solve_ex", []string{"result", "info"}, X, info), nil
}

// singularSolve solves with a singular A through its LU factors (giving
// PyTorch's Inf/NaN), recording nothing.
func singularSolve(A, B *T, left bool) (*T, error) {
	e := noGrad()
	s := A.Shape()
	LU, piv, _, _, err := luFactorOp(e, A, s[:len(s)-2], s[len(s)-1], s[len(s)-1])
	if err != nil {
		return nil, err
	}
	if left && kernels.IsVectorRHS(A, B) {
		Bu, err := B.Unsqueeze(B.Dim())
		if err != nil {
			return nil, err
		}
		X, err := luSolveOp(e, LU, piv, Bu, true, false)
		if err != nil {
			return nil, err
		}
		return X.Squeeze(X.Dim() - 1)
	}
	return luSolveOp(e, LU, piv, B, left, false)
}

func linalgInvEx(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	check := false
	if err := runtime.UnpackArgs("linalg.inv_ex", args, kwargs, "A", &A, "check_errors?", &check); err != nil {
		return nil, err
	}
	X, err := linalg.Inv(engineOf(th), A.t)
	if err == nil {
		s := A.t.Shape()
		info, err := tensor.Zeros(s[:len(s)-2], tensor.I32)
		if err != nil {
			return nil, err
		}
		autograd.SetGradFnName(X, "LinalgInvExBackward0")
		return namedTuple(th, "linalg_inv_ex", []string{"inverse", "info"}, X, info), nil
	}
	if !isLinAlgError(err) {
		return nil, err
	}
	res, err := singularInfo(A.t)
	if err != nil {
		return nil, err
	}
	if check {
		for i, v := range res.info {
			if v > 0 {
				return nil, runtime.Errorf("LinAlgError", "linalg.inv_ex: %sThe diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", batchPrefix(res.batch, i), v)
			}
		}
	}
	s := A.t.Shape()
	n := s[len(s)-1]
	I, err := tensor.Eye(n, n, A.t.DType())
	if err != nil {
		return nil, err
	}
	if X, err = singularSolve(A.t, I, true); err != nil {
		return nil, err
	}
	info, err := int32Tensor(res.info, res.batch)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_inv_ex", []string{"inverse", "info"}, X, info), nil
}

func linalgCholeskyEx(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	upper, check := false, false
	if err := runtime.UnpackArgs("linalg.cholesky_ex", args, kwargs, "A", &A, "upper?", &upper, "check_errors?", &check); err != nil {
		return nil, err
	}
	L, err := linalg.Cholesky(engineOf(th), A.t, upper)
	s := A.t.Shape()
	if err == nil {
		info, err := tensor.Zeros(s[:len(s)-2], tensor.I32)
		if err != nil {
			return nil, err
		}
		autograd.SetGradFnName(L, "LinalgCholeskyExBackward0")
		return namedTuple(th, "linalg_cholesky_ex", []string{"L", "info"}, L, info), nil
	}
	if !isLinAlgError(err) {
		return nil, err
	}
	batch, n := s[:len(s)-2], s[len(s)-1]
	av := A.t.ToFloat64s()
	out := make([]float64, len(av))
	infos := make([]int32, len(av)/max(n*n, 1))
	for bi := range infos {
		a, l := av[bi*n*n:(bi+1)*n*n], out[bi*n*n:(bi+1)*n*n]
		infos[bi] = int32(potf2Lower(a, l, n, upper))
		if check && infos[bi] > 0 {
			return nil, runtime.Errorf("LinAlgError", "linalg.cholesky_ex: %sThe factorization could not be completed because the input is not positive-definite (the leading minor of order %d is not positive-definite).", batchPrefix(batch, bi), infos[bi])
		}
	}
	if L, err = tensor.FromFloat64s(out, s, A.t.DType()); err != nil {
		return nil, err
	}
	info, err := int32Tensor(infos, batch)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_cholesky_ex", []string{"L", "info"}, L, info), nil
}

// potf2Lower is LAPACK's unblocked xPOTF2 (left-looking, reference
// implementation) on the lower triangle of a (n×n row-major), or with
// upper on the upper triangle (computed as the transpose of the lower
// factor of aᵀ). l receives the factor, the other triangle zero; on
// failure at order j (returned, 1-based; 0 on success) l[j,j] holds the
// non-positive pivot and the rows below keep a's values, as LAPACK leaves
// them.
func potf2Lower(a, l []float64, n int, upper bool) int {
	at := func(i, j int) float64 {
		if upper {
			return a[j*n+i]
		}
		return a[i*n+j]
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			l[i*n+j] = 0
			if j <= i {
				l[i*n+j] = at(i, j)
			}
		}
	}
	info := 0
	for j := 0; j < n; j++ {
		ajj := l[j*n+j]
		for p := 0; p < j; p++ {
			ajj -= l[j*n+p] * l[j*n+p]
		}
		if ajj <= 0 || math.IsNaN(ajj) {
			l[j*n+j] = ajj
			info = j + 1
			break
		}
		ajj = math.Sqrt(ajj)
		l[j*n+j] = ajj
		for i := j + 1; i < n; i++ {
			s := l[i*n+j]
			for p := 0; p < j; p++ {
				s -= l[i*n+p] * l[j*n+p]
			}
			l[i*n+j] = s / ajj
		}
	}
	if upper {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				l[i*n+j], l[j*n+i] = l[j*n+i], l[i*n+j]
			}
		}
	}
	return info
}

// ---- tensorinv, tensorsolve ----

func linalgTensorInv(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	ind := 2
	if err := runtime.UnpackArgs("linalg.tensorinv", args, kwargs, "A", &A, "ind?", &ind); err != nil {
		return nil, err
	}
	if ind <= 0 {
		return nil, runtime.Errorf("RuntimeError", "Expected a strictly positive integer for 'ind', but got %d", ind)
	}
	s := A.t.Shape()
	if ind > len(s) {
		ind = len(s)
	}
	outer, inner := numelOf(s[:ind]), numelOf(s[ind:])
	if outer != inner {
		return nil, runtime.Errorf("RuntimeError", "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got %d != %d", inner, outer)
	}
	e := engineOf(th)
	Ar, err := reshapeOp(e, A.t, []int{outer, inner})
	if err != nil {
		return nil, err
	}
	X, err := linalg.Inv(e, Ar)
	if err != nil {
		return nil, err
	}
	r, err := reshapeOp(e, X, append(append([]int(nil), s[ind:]...), s[:ind]...))
	return tensorResult(th, r, err)
}

func linalgTensorSolve(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A, B tensorArg
	var dims dimsOpt
	if err := runtime.UnpackArgs("linalg.tensorsolve", args, kwargs, "A", &A, "B", &B, "dims?", &dims); err != nil {
		return nil, err
	}
	e := engineOf(th)
	At := A.t
	if dims.ok && len(dims.dims) > 0 {
		nd := At.Dim()
		dst := make([]int, len(dims.dims))
		for i := range dst {
			dst[i] = nd - len(dims.dims) + i
		}
		var err error
		if At, err = movedimOp(e, At, dims.dims, dst); err != nil {
			return nil, err
		}
	}
	s := At.Shape()
	bd := B.t.Dim()
	if bd > len(s) {
		bd = len(s)
	}
	resShape := append([]int(nil), s[bd:]...)
	rp, bp := numelOf(resShape), B.t.Numel()
	if rp != bp {
		return nil, runtime.Errorf("RuntimeError", "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got %d != %d", rp, bp)
	}
	if At.Numel() != rp*rp {
		return nil, runtime.Errorf("RuntimeError", "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got %d != %d", rp, numelOf(s[:bd]))
	}
	Ar, err := reshapeOp(e, At, []int{rp, rp})
	if err != nil {
		return nil, err
	}
	Bf, err := reshapeOp(e, B.t, []int{bp})
	if err != nil {
		return nil, err
	}
	X, err := linalg.Solve(e, Ar, Bf, true)
	if err != nil {
		return nil, err
	}
	r, err := reshapeOp(e, X, resShape)
	return tensorResult(th, r, err)
}

// ---- cholesky_solve, cholesky_inverse ----

// cholSolveKernel is X = A⁻¹ B for A = L Lᵀ (or Uᵀ U), two triangular
// solves reading only the named triangle of C; nothing recorded.
func cholSolveKernel(B, C *T, upper bool) (*T, error) {
	Ct, err := C.MT()
	if err != nil {
		return nil, err
	}
	first, second := C, Ct // lower: L Y = B, Lᵀ X = Y
	if upper {
		first, second = Ct, C // Uᵀ Y = B, U X = Y
	}
	Y, err := kernels.SolveTriangular(first, B, false, true, false)
	if err != nil {
		return nil, err
	}
	return kernels.SolveTriangular(second, Y, true, true, false)
}

// cholFactorGrad is PyTorch's gradient of the factor for the symmetric
// term common: -(common @ L), or -(U @ common) with upper.
func cholFactorGrad(C, common *T, upper bool) (*T, error) {
	var g *T
	var err error
	if upper {
		g, err = tensor.Matmul(C, common)
	} else {
		g, err = tensor.Matmul(common, C)
	}
	if err != nil {
		return nil, err
	}
	return tensor.Neg(g)
}

// cholCalc composes the cholesky_solve / cholesky_inverse backward
// formulas in recorded ops (for a create_graph backward), keeping the
// first error.
type cholCalc struct {
	e     *Engine
	upper bool
	err   error
}

func (c *cholCalc) do(f func() (*T, error)) *T {
	if c.err != nil {
		return nil
	}
	r, err := f()
	c.err = err
	return r
}

func (c *cholCalc) mT(a *T) *T {
	return c.do(func() (*T, error) { return transposeOp(c.e, a, a.Dim()-2, a.Dim()-1) })
}

func (c *cholCalc) mm(a, b *T) *T {
	return c.do(func() (*T, error) { return applyBinary(c.e, "matmul", tensor.Matmul, a, b) })
}

// sym is t + tᵀ.
func (c *cholCalc) sym(t *T) *T {
	tt := c.mT(t)
	return c.do(func() (*T, error) { return applyBinary(c.e, "add", tensor.Add, t, tt) })
}

// solve is cholesky_solve(B, C): two recorded triangular solves.
func (c *cholCalc) solve(B, C *T) *T {
	Ct := c.mT(C)
	first, second := C, Ct // lower: L Y = B, Lᵀ X = Y
	if c.upper {
		first, second = Ct, C // upper: Uᵀ Y = B, U X = Y
	}
	y := c.do(func() (*T, error) { return linalg.SolveTriangular(c.e, first, B, false, true) })
	return c.do(func() (*T, error) { return linalg.SolveTriangular(c.e, second, y, true, true) })
}

// factorGrad is cholFactorGrad in recorded ops.
func (c *cholCalc) factorGrad(C, common *T) *T {
	var g *T
	if c.upper {
		g = c.mm(C, common)
	} else {
		g = c.mm(common, C)
	}
	return c.do(func() (*T, error) { return unaryOp(c.e, "neg", g) })
}

// symmetrized returns t + t.mT.
func symmetrized(t *T) (*T, error) {
	tt, err := t.MT()
	if err != nil {
		return nil, err
	}
	return tensor.Add(t, tt)
}

func torchCholeskySolve(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var B, C tensorArg
	upper := false
	if err := runtime.UnpackArgs("cholesky_solve", args, kwargs, "input", &B, "input2", &C, "upper?", &upper); err != nil {
		return nil, err
	}
	if B.t.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "b should have at least 2 dimensions, but has %d dimensions instead", B.t.Dim())
	}
	if C.t.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "u should have at least 2 dimensions, but has %d dimensions instead", C.t.Dim())
	}
	if B.t.DType() != C.t.DType() {
		return nil, runtime.Errorf("RuntimeError", "Expected b and A to have the same dtype, but found b of type %s and A of type %s instead.", kernels.TorchName(B.t.DType()), kernels.TorchName(C.t.DType()))
	}
	if err := kernels.CheckFloat("cholesky_solve", C.t); err != nil {
		return nil, err
	}
	cs, bs := C.t.Shape(), B.t.Shape()
	if cs[len(cs)-1] != cs[len(cs)-2] || bs[len(bs)-2] != cs[len(cs)-1] {
		return nil, runtime.Errorf("RuntimeError", "Incompatible matrix sizes for cholesky_solve: each A matrix is %d by %d but each b matrix is %d by %d", cs[len(cs)-2], cs[len(cs)-1], bs[len(bs)-2], bs[len(bs)-1])
	}
	Bt, Ct := B.t, C.t
	var X *T
	forward := func() (*T, error) {
		x, err := cholSolveKernel(Bt, Ct, upper)
		X = x
		return x, err
	}
	var recorded *T // the result as returned, with this node as grad_fn
	e := engineOf(th)
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() && recorded != nil && sameShape(Bt.Shape(), recorded.Shape()) && sameShape(g.Shape(), Bt.Shape()) {
			// create_graph: the same formulas in recorded ops
			c := &cholCalc{e: e, upper: upper}
			gB := c.solve(g, Ct)
			common := c.sym(c.mm(gB, c.mT(recorded)))
			return []*T{gB, c.factorGrad(Ct, common)}, c.err
		}
		gB, err := cholSolveKernel(g, Ct, upper)
		if err != nil {
			return nil, err
		}
		Xt, err := X.MT()
		if err != nil {
			return nil, err
		}
		common, err := tensor.Matmul(gB, Xt)
		if err != nil {
			return nil, err
		}
		if common, err = symmetrized(common); err != nil {
			return nil, err
		}
		gC, err := cholFactorGrad(Ct, common, upper)
		if err != nil {
			return nil, err
		}
		if gB, err = sumToShape(gB, Bt.Shape()); err != nil {
			return nil, err
		}
		if gC, err = sumToShape(gC, Ct.Shape()); err != nil {
			return nil, err
		}
		return []*T{gB, gC}, nil
	}
	r, err := e.ApplyCustom("CholeskySolveBackward", []*T{Bt, Ct}, forward, backward)
	recorded = r
	return tensorResult(th, r, err)
}

func torchCholeskyInverse(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var C tensorArg
	upper := false
	if err := runtime.UnpackArgs("cholesky_inverse", args, kwargs, "input", &C, "upper?", &upper); err != nil {
		return nil, err
	}
	batch, n, _, err := kernels.CheckMatrix("cholesky_inverse", C.t, true)
	if err != nil {
		return nil, err
	}
	Ct := C.t
	cv := Ct.ToFloat64s()
	for bi := 0; bi*n*n < len(cv); bi++ {
		for i := 0; i < n; i++ {
			if cv[bi*n*n+i*n+i] == 0 {
				return nil, runtime.Errorf("LinAlgError", "cholesky_inverse: %sThe diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", batchPrefix(batch, bi), i+1)
			}
		}
	}
	var X *T
	forward := func() (*T, error) {
		I, err := tensor.Eye(n, n, Ct.DType())
		if err != nil {
			return nil, err
		}
		if len(batch) > 0 {
			if I, err = I.Expand(withShape(batch, n, n)...); err != nil {
				return nil, err
			}
		}
		x, err := cholSolveKernel(I, Ct, upper)
		if err != nil {
			return nil, err
		}
		// symmetric by construction, as LAPACK xPOTRI's result
		if x, err = symmetrized(x); err != nil {
			return nil, err
		}
		if x, err = tensor.Mul(x, tensor.ScalarFloat(0.5)); err != nil {
			return nil, err
		}
		X = x
		return x, nil
	}
	var recorded *T
	e := engineOf(th)
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() && recorded != nil {
			// create_graph: the same formula in recorded ops
			c := &cholCalc{e: e, upper: upper}
			common := c.mm(recorded, c.mm(c.sym(g), recorded))
			return []*T{c.factorGrad(Ct, common)}, c.err
		}
		common, err := symmetrized(g)
		if err != nil {
			return nil, err
		}
		if common, err = tensor.Matmul(common, X); err != nil {
			return nil, err
		}
		if common, err = tensor.Matmul(X, common); err != nil {
			return nil, err
		}
		gC, err := cholFactorGrad(Ct, common, upper)
		return []*T{gC}, err
	}
	r, err := e.ApplyCustom("CholeskyInverseBackward", []*T{Ct}, forward, backward)
	recorded = r
	return tensorResult(th, r, err)
}

// ---- triangular_solve ----

func torchTriangularSolve(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var B, A tensorArg
	upper, transpose, unit := true, false, false
	if err := runtime.UnpackArgs("triangular_solve", args, kwargs, "b", &B, "A", &A, "upper?", &upper, "transpose?", &transpose, "unitriangular?", &unit); err != nil {
		return nil, err
	}
	if B.t.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has %d dimensions instead", B.t.Dim())
	}
	if A.t.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "torch.triangular_solve: Expected A to have at least 2 dimensions, but it has %d dimensions instead", A.t.Dim())
	}
	as, bs := A.t.Shape(), B.t.Shape()
	n := as[len(as)-1]
	if as[len(as)-2] != n || bs[len(bs)-2] != n {
		return nil, runtime.Errorf("RuntimeError", "Incompatible matrix sizes for triangular_solve: each A matrix is %d by %d but each b matrix is %d by %d", as[len(as)-2], n, bs[len(bs)-2], bs[len(bs)-1])
	}
	e := engineOf(th)
	// op(A) with its unread triangle (and with unit its diagonal) masked:
	// the recorded masks give PyTorch's triu/tril-masked gradient.
	k := 0
	if unit {
		k = 1
		if !upper {
			k = -1
		}
	}
	Am, err := triangleOp(e, A.t, k, upper)
	if err != nil {
		return nil, err
	}
	if unit {
		I, err := tensor.Eye(n, n, A.t.DType())
		if err != nil {
			return nil, err
		}
		if Am, err = applyBinary(e, "add", tensor.Add, Am, I); err != nil {
			return nil, err
		}
	}
	up := upper
	if transpose {
		if Am, err = transposeOp(e, Am, Am.Dim()-2, Am.Dim()-1); err != nil {
			return nil, err
		}
		up = !upper
	}
	X, err := linalg.SolveTriangular(e, Am, B.t, up, true)
	if err != nil {
		return nil, err
	}
	batch, err := tensor.BroadcastShapes(as[:len(as)-2], bs[:len(bs)-2])
	if err != nil {
		return nil, err
	}
	Ac := A.t
	if !sameShape(as[:len(as)-2], batch) {
		if Ac, err = expandOp(e, Ac, withShape(batch, n, n)); err != nil {
			return nil, err
		}
	}
	if Ac, err = cloneOp(e, Ac); err != nil {
		return nil, err
	}
	autograd.SetGradFnName(X, "TriangularSolveBackward0")
	autograd.SetGradFnName(Ac, "TriangularSolveBackward0")
	return namedTuple(th, "triangular_solve", []string{"solution", "cloned_coefficient"}, X, Ac), nil
}
