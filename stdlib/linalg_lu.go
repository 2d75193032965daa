package stdlib

import (
	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// LU-based pieces of torch.linalg and the old top-level solvers, as
// PyTorch 1.13 defines them: linalg.lu_factor, lu_factor_ex, lu, lu_solve,
// solve_ex, inv_ex, cholesky_ex, tensorinv, tensorsolve and the top-level
// lu_unpack, cholesky_solve, cholesky_inverse and triangular_solve.
//
// Factors are computed by backends/lapack (xGETRF with partial pivoting,
// 1-based i32 pivots). Gradients: lu_factor(_ex) records PyTorch's
// linalg_lu_backward (FunctionsManual.cpp, square, wide and tall cases) as
// a custom node (not differentiable twice); lu, lu_unpack, lu_solve,
// triangular_solve, tensorinv and tensorsolve are compositions of recorded
// ops, so their gradients are PyTorch's formulas by construction;
// cholesky_solve and cholesky_inverse record PyTorch's backward formulas
// (which treat the factor as a full matrix) as custom nodes. Results are
// row-major contiguous (PyTorch returns several of them column-major).

func init() {
	m := modules["linalg"]
	if m == nil {
		panic("stdlib: linalg_lu.go initialised before linalg.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("linalg", name, doc, f) }
	fn("lu_factor", "lu_factor(A, *, pivot=true) -> (LU, pivots): LU with partial pivoting of A [..., m, n] (LAPACK xGETRF): L (unit diagonal, not stored) below and U on and above the diagonal of LU; pivots [..., min(m, n)] i32, 1-based as LAPACK. RuntimeError for a zero pivot (use lu_factor_ex). Differentiable in LU.", linalgLUFactor)
	fn("lu_factor_ex", "lu_factor_ex(A, *, pivot=true, check_errors=false) -> (LU, pivots, info): lu_factor without the zero-pivot error; info [...] i32 is the 1-based index of the first zero U[i,i] (0: none). Differentiable in LU.", linalgLUFactorEx)
	fn("lu", "lu(A, *, pivot=true) -> (P, L, U) with A = P @ L @ U: P [..., m, m] a permutation, L [..., m, k] unit lower, U [..., k, n] upper, k = min(m, n). Differentiable in L and U.", linalgLU)
	fn("lu_solve", "lu_solve(LU, pivots, B, *, left=true, adjoint=false): X with A X = B (left), X A = B (not left), or with A.mT for adjoint, from lu_factor's (LU, pivots); batch dims broadcast. Differentiable in LU and B.", linalgLUSolve)
	fn("solve_ex", "solve_ex(A, B, *, left=true, check_errors=false) -> (result, info): linalg.solve that reports a singular A in info [...] (i32, the zero pivot of the LU of A.mT, 1-based) instead of raising; result then holds Inf/NaN. Differentiable.", linalgSolveEx)
	fn("inv_ex", "inv_ex(A, *, check_errors=false) -> (inverse, info): linalg.inv that reports a singular A in info [...] (i32) instead of raising; inverse then holds Inf/NaN. Differentiable.", linalgInvEx)
	fn("cholesky_ex", "cholesky_ex(A, *, upper=false, check_errors=false) -> (L, info): linalg.cholesky that reports in info [...] (i32) the order of the first leading minor that is not positive-definite instead of raising; L then holds the partial factor of LAPACK xPOTF2 (and does not require grad). Differentiable.", linalgCholeskyEx)
	fn("tensorinv", "tensorinv(A, ind=2): the inverse of A with respect to tensordot over ind dims: shape A.shape[ind:] + A.shape[:ind]; requires prod(A.shape[:ind]) == prod(A.shape[ind:]). Differentiable.", linalgTensorInv)
	fn("tensorsolve", "tensorsolve(A, B, dims=none): X with tensordot(A, X, X.ndim) = B; X has shape A.shape[B.ndim:] (after moving dims of A to the end). Differentiable.", linalgTensorSolve)
	defGlobal("lu_unpack", "lu_unpack(LU_data, LU_pivots, unpack_data=true, unpack_pivots=true) -> (P, L, U): the factors of linalg.lu_factor's result, A = P @ L @ U (tensors of shape [0] for the parts not unpacked). Differentiable in LU_data.", torchLUUnpack)
	defGlobal("cholesky_solve", "cholesky_solve(input, input2, upper=false): X with A X = input for A = L @ L.mT given its Cholesky factor input2 = L (or A = U.mT @ U with upper; only that triangle is read); batch dims broadcast. Differentiable (PyTorch's formula).", torchCholeskySolve)
	defGlobal("cholesky_inverse", "cholesky_inverse(input, upper=false): the inverse of A = L @ L.mT (or U.mT @ U) from its Cholesky factor [..., n, n]; LinAlgError for a zero on the diagonal. Differentiable (PyTorch's formula).", torchCholeskyInverse)
	defGlobal("triangular_solve", "triangular_solve(b, A, upper=true, transpose=false, unitriangular=false) -> (solution, cloned_coefficient): X with op(A) X = b for triangular A (op(A) = A.mT with transpose; only the named triangle is read, its diagonal taken as ones with unitriangular); batch dims broadcast; cloned_coefficient is a copy of A (broadcast). Differentiable.", torchTriangularSolve)
}

// ---- factorization ----

// luResult is a batch of LU factorizations in float64 (exact for f32
// inputs), row-major.
type luResult struct {
	batch   []int
	m, n, k int
	lu      []float64 // batch × m × n
	piv     []int32   // batch × k, 1-based
	info    []int32   // batch
}

// luFactorData runs xGETRF on every matrix of A (checked by the caller).
func luFactorData(A *T, batch []int, m, n int) (*luResult, error) {
	k := min(m, n)
	nb := 1
	for _, b := range batch {
		nb *= b
	}
	r := &luResult{batch: batch, m: m, n: n, k: k, lu: make([]float64, nb*m*n), piv: make([]int32, nb*k), info: make([]int32, nb)}
	av := A.ToFloat64s()
	f32 := A.DType() == tensor.F32
	var a32 []float32
	if f32 {
		a32 = make([]float32, m*n)
	}
	for b := 0; b < nb; b++ {
		src := av[b*m*n : (b+1)*m*n]
		var piv []int
		var info int
		var err error
		if f32 {
			for i, v := range src {
				a32[i] = float32(v)
			}
			var lu []float32
			lu, piv, info, err = lapack.LUFactor(m, n, a32)
			if err == nil {
				for i, v := range lu {
					r.lu[b*m*n+i] = float64(v)
				}
			}
		} else {
			var lu []float64
			lu, piv, info, err = lapack.LUFactor(m, n, src)
			if err == nil {
				copy(r.lu[b*m*n:], lu)
			}
		}
		if err != nil {
			return nil, err
		}
		for i, p := range piv {
			r.piv[b*k+i] = int32(p)
		}
		r.info[b] = int32(info)
	}
	return r, nil
}

func int32Tensor(vals []int32, shape []int) (*T, error) {
	v := make([]int64, len(vals))
	for i, x := range vals {
		v[i] = int64(x)
	}
	return tensor.FromInt64s(v, shape, tensor.I32)
}

func withShape(batch []int, tail ...int) []int {
	return append(append([]int(nil), batch...), tail...)
}

// checkLUInput is the argument check of lu_factor and lu (fname names the
// op in the rank message, as PyTorch 1.13 spells it).
func checkLUInput(fname string, A *T, pivot bool, op string) (batch []int, m, n int, err error) {
	if !pivot {
		return nil, 0, 0, runtime.Errorf("RuntimeError", "%s: LU without pivoting is not implemented on the CPU", op)
	}
	if A.Dim() < 2 {
		return nil, 0, 0, runtime.Errorf("RuntimeError", "%s: Expected tensor with 2 or more dimensions. Got size: %s instead", fname, shapeString(A.Shape()))
	}
	if dt := A.DType(); dt != tensor.F32 && dt != tensor.F64 {
		return nil, 0, 0, runtime.Errorf("RuntimeError", "\"lu_cpu\" not implemented for '%s'", kernels.TorchName(dt))
	}
	s := A.Shape()
	return append([]int(nil), s[:len(s)-2]...), s[len(s)-2], s[len(s)-1], nil
}

// shapeString prints a shape as tsr prints shapes: [2, 3].
func shapeString(s []int) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += runtime.MakeInt(int64(v)).String()
	}
	return out + "]"
}

// batchPrefix is PyTorch's "(Batch element i): " for batched inputs.
func batchPrefix(batch []int, i int) string {
	if len(batch) == 0 {
		return ""
	}
	return "(Batch element " + runtime.MakeInt(int64(i)).String() + "): "
}

// luFactorOp factors A and records linalg_lu_backward for LU. It returns
// LU (A's dtype), pivots and info (i32).
func luFactorOp(e *Engine, A *T, batch []int, m, n int) (LU, piv, info *T, res *luResult, err error) {
	forward := func() (*T, error) {
		r, err := luFactorData(A, batch, m, n)
		if err != nil {
			return nil, err
		}
		res = r
		return tensor.FromFloat64s(r.lu, withShape(batch, m, n), A.DType())
	}
	var recorded *T // LU as returned, with this node as grad_fn
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() && recorded != nil && m > 0 && n > 0 {
			// create_graph: the formula in engine ops on the recorded
			// LU, so the gradient is differentiable again
			P, err := luPermutationMatrix(res.piv, batch, m, res.k, A.DType())
			if err != nil {
				return nil, err
			}
			ga, err := e.LUFactorBackwardGraph(recorded, P, g)
			return []*T{ga}, err
		}
		gv := g.ToFloat64s()
		out := make([]float64, len(gv))
		mn := m * n
		for b := 0; b*mn < len(gv) && mn > 0; b++ {
			luBackward(res.lu[b*mn:(b+1)*mn], res.piv[b*res.k:(b+1)*res.k], gv[b*mn:(b+1)*mn], out[b*mn:(b+1)*mn], m, n)
		}
		ga, err := tensor.FromFloat64s(out, withShape(batch, m, n), g.DType())
		return []*T{ga}, err
	}
	LU, err = e.ApplyCustom("LinalgLuFactorExBackward", []*T{A}, forward, backward)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	recorded = LU
	if piv, err = int32Tensor(res.piv, withShape(batch, res.k)); err != nil {
		return nil, nil, nil, nil, err
	}
	info, err = int32Tensor(res.info, batch)
	return LU, piv, info, res, err
}

func linalgLUFactor(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	pivot := true
	if err := runtime.UnpackArgs("linalg.lu_factor", args, kwargs, "A", &A, "pivot?", &pivot); err != nil {
		return nil, err
	}
	batch, m, n, err := checkLUInput("torch.lu_factor", A.t, pivot, "linalg.lu_factor")
	if err != nil {
		return nil, err
	}
	LU, piv, _, res, err := luFactorOp(engineOf(th), A.t, batch, m, n)
	if err != nil {
		return nil, err
	}
	if err := luZeroPivotErr("torch.linalg.lu_factor", batch, res.info); err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_lu_factor", []string{"LU", "pivots"}, LU, piv), nil
}

// luZeroPivotErr is PyTorch's RuntimeError for the first zero pivot.
func luZeroPivotErr(op string, batch []int, info []int32) error {
	for i, v := range info {
		if v > 0 {
			return runtime.Errorf("RuntimeError", "%s: %sU[%d,%d] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", op, batchPrefix(batch, i), v, v)
		}
	}
	return nil
}

func linalgLUFactorEx(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	pivot, check := true, false
	if err := runtime.UnpackArgs("linalg.lu_factor_ex", args, kwargs, "A", &A, "pivot?", &pivot, "check_errors?", &check); err != nil {
		return nil, err
	}
	batch, m, n, err := checkLUInput("torch.lu_factor", A.t, pivot, "linalg.lu_factor")
	if err != nil {
		return nil, err
	}
	LU, piv, info, res, err := luFactorOp(engineOf(th), A.t, batch, m, n)
	if err != nil {
		return nil, err
	}
	if check {
		if err := luZeroPivotErr("torch.linalg.lu_factor_ex", batch, res.info); err != nil {
			return nil, err
		}
	}
	return namedTuple(th, "linalg_lu_factor_ex", []string{"LU", "pivots", "info"}, LU, piv, info), nil
}

func linalgLU(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	pivot := true
	if err := runtime.UnpackArgs("linalg.lu", args, kwargs, "A", &A, "pivot?", &pivot); err != nil {
		return nil, err
	}
	batch, m, n, err := checkLUInput("linalg.lu", A.t, pivot, "linalg.lu_factor")
	if err != nil {
		return nil, err
	}
	e := engineOf(th)
	LU, piv, _, _, err := luFactorOp(e, A.t, batch, m, n)
	if err != nil {
		return nil, err
	}
	P, L, U, err := luUnpackOp(e, LU, piv, true, true)
	if err != nil {
		return nil, err
	}
	autograd.SetGradFnName(L, "LinalgLuBackward0")
	autograd.SetGradFnName(U, "LinalgLuBackward0")
	return namedTuple(th, "linalg_lu", []string{"P", "L", "U"}, P, L, U), nil
}

// ---- unpacking ----

// permutation returns, for each matrix, perm with A[perm[i]] = (P^T A)[i]:
// the LAPACK row interchanges applied in order to 0..m-1. Errors: pivots
// outside [1, m] (PyTorch's message).
func permutation(piv []int32, nb, k, m int) ([]int, error) {
	perm := make([]int, nb*m)
	for b := 0; b < nb; b++ {
		p := perm[b*m : (b+1)*m]
		for i := range p {
			p[i] = i
		}
		for i := 0; i < k; i++ {
			j := int(piv[b*k+i]) - 1
			if j < 0 || j >= m {
				return nil, runtime.Errorf("RuntimeError", "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass the result of lu_factor?")
			}
			p[i], p[j] = p[j], p[i]
		}
	}
	return perm, nil
}

// pivotsOf checks pivots against LU [..., m, n] and returns them flat.
func pivotsOf(op string, LU, pivots *T) (batch []int, m, n, k int, piv []int32, err error) {
	s := LU.Shape()
	m, n = s[len(s)-2], s[len(s)-1]
	k = min(m, n)
	batch = s[:len(s)-2]
	ps := pivots.Shape()
	if len(ps) != len(batch)+1 || ps[len(ps)-1] != k || !sameShape(ps[:len(ps)-1], batch) {
		return nil, 0, 0, 0, nil, runtime.Errorf("RuntimeError", "%s: Expected pivots of shape %s (LU's batch shape and min(m, n)), got %s", op, shapeString(withShape(batch, k)), shapeString(ps))
	}
	vals := pivots.ToFloat64s()
	piv = make([]int32, len(vals))
	for i, v := range vals {
		piv[i] = int32(v)
	}
	return batch, m, n, k, piv, nil
}

// permMatrix builds P [..., m, m] (dtype dt) with P[perm[i], i] = 1.
func permMatrix(perm []int, batch []int, m int, dt tensor.DType) (*T, error) {
	vals := make([]float64, len(perm)*m)
	for b := 0; b*m < len(perm); b++ {
		for i := 0; i < m; i++ {
			vals[b*m*m+perm[b*m+i]*m+i] = 1
		}
	}
	return tensor.FromFloat64s(vals, withShape(batch, m, m), dt)
}

// luUnpackOp is lu_unpack: L = tril(LU[..., :k], -1) + I and
// U = triu(LU[..., :k, :]), recorded (differentiable in LU), and the
// permutation matrix P (not differentiable).
func luUnpackOp(e *Engine, LU, pivots *T, unpackData, unpackPivots bool) (P, L, U *T, err error) {
	const op = "torch.lu_unpack"
	if LU.Dim() < 2 {
		return nil, nil, nil, runtime.Errorf("RuntimeError", "%s: Expected tensor with 2 or more dimensions. Got size: %s instead", op, shapeString(LU.Shape()))
	}
	if pivots.DType() != tensor.I32 {
		return nil, nil, nil, runtime.Errorf("RuntimeError", "%s: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype. Note: this function is intended to be used with the output produced by torch.linalg.lu_factor", op)
	}
	batch, m, n, k, piv, err := pivotsOf(op, LU, pivots)
	if err != nil {
		return nil, nil, nil, err
	}
	empty := func() (*T, error) { return tensor.Zeros([]int{0}, LU.DType()) }
	if unpackPivots {
		nb := 1
		for _, b := range batch {
			nb *= b
		}
		perm, err := permutation(piv, nb, k, m)
		if err != nil {
			return nil, nil, nil, err
		}
		if P, err = permMatrix(perm, batch, m, LU.DType()); err != nil {
			return nil, nil, nil, err
		}
	} else if P, err = empty(); err != nil {
		return nil, nil, nil, err
	}
	if !unpackData {
		if L, err = empty(); err != nil {
			return nil, nil, nil, err
		}
		U, err = empty()
		return P, L, U, err
	}
	Lp, Up := LU, LU
	if n > k {
		if Lp, err = narrowOp(e, LU, LU.Dim()-1, 0, k); err != nil {
			return nil, nil, nil, err
		}
	}
	if m > k {
		if Up, err = narrowOp(e, LU, LU.Dim()-2, 0, k); err != nil {
			return nil, nil, nil, err
		}
	}
	if L, err = triangleOp(e, Lp, -1, false); err != nil {
		return nil, nil, nil, err
	}
	I, err := tensor.Eye(m, k, LU.DType())
	if err != nil {
		return nil, nil, nil, err
	}
	if L, err = applyBinary(e, "add", tensor.Add, L, I); err != nil {
		return nil, nil, nil, err
	}
	if U, err = triangleOp(e, Up, 0, true); err != nil {
		return nil, nil, nil, err
	}
	if U.Base() != nil || !U.IsContiguous() {
		if U, err = contiguousOp(e, U); err != nil {
			return nil, nil, nil, err
		}
	}
	return P, L, U, nil
}

func torchLUUnpack(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var LU, piv tensorArg
	data, pivs := true, true
	if err := runtime.UnpackArgs("lu_unpack", args, kwargs, "LU_data", &LU, "LU_pivots", &piv, "unpack_data?", &data, "unpack_pivots?", &pivs); err != nil {
		return nil, err
	}
	P, L, U, err := luUnpackOp(engineOf(th), LU.t, piv.t, data, pivs)
	if err != nil {
		return nil, err
	}
	if data {
		autograd.SetGradFnName(L, "LuUnpackBackward0")
		autograd.SetGradFnName(U, "LuUnpackBackward0")
	}
	return namedTuple(th, "lu_unpack", []string{"P", "L", "U"}, P, L, U), nil
}

// ---- lu_solve ----

func linalgLUSolve(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var LU, piv, B tensorArg
	left, adjoint := true, false
	if err := runtime.UnpackArgs("linalg.lu_solve", args, kwargs, "LU", &LU, "pivots", &piv, "B", &B, "left?", &left, "adjoint?", &adjoint); err != nil {
		return nil, err
	}
	r, err := luSolveOp(engineOf(th), LU.t, piv.t, B.t, left, adjoint)
	if err != nil {
		return nil, err
	}
	autograd.SetGradFnName(r, "LinalgLuSolveBackward0")
	return NewTensorValue(th, r), nil
}

// luSolveOp solves with A = P L U given by (LU, pivots), composed from
// recorded ops: the permutation as a product with the constant P, and two
// triangular solves with L = tril(LU, -1) + I and U = triu(LU).
func luSolveOp(e *Engine, LU, pivots, B *T, left, adjoint bool) (*T, error) {
	const op = "linalg.lu_solve"
	if LU.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "torch.linalg.lu_solve: The input tensor A must have at least 2 dimensions.")
	}
	if dt := LU.DType(); dt != tensor.F32 && dt != tensor.F64 {
		return nil, runtime.Errorf("RuntimeError", "\"lu_solve_cpu\" not implemented for '%s'", kernels.TorchName(dt))
	}
	s := LU.Shape()
	n := s[len(s)-1]
	if s[len(s)-2] != n {
		return nil, runtime.Errorf("RuntimeError", "torch.linalg.lu_solve: A must be batches of square matrices, but they are %d by %d matrices", s[len(s)-2], n)
	}
	if B.Dim() < 2 {
		return nil, runtime.Errorf("RuntimeError", "%s: The input tensor B must have at least 2 dimensions.", op)
	}
	bs := B.Shape()
	if left && bs[len(bs)-2] != n {
		return nil, runtime.Errorf("RuntimeError", "%s: Incompatible shapes of A and B for the equation AX = B (%dx%d and %dx%d)", op, n, n, bs[len(bs)-2], bs[len(bs)-1])
	}
	if !left && bs[len(bs)-1] != n {
		return nil, runtime.Errorf("RuntimeError", "%s: Incompatible shapes of A and B for the equation XA = B (%dx%d and %dx%d)", op, n, n, bs[len(bs)-2], bs[len(bs)-1])
	}
	if LU.DType() != B.DType() {
		return nil, runtime.Errorf("RuntimeError", "%s: Expected LU and B to have the same dtype, but found LU of type %s and B of type %s instead", op, kernels.TorchName(LU.DType()), kernels.TorchName(B.DType()))
	}
	if pivots.DType() != tensor.I32 {
		return nil, runtime.Errorf("RuntimeError", "%s: pivots should be a Tensor of scalar type torch.int32", op)
	}
	P, L, U, err := luUnpackOp(e, LU, pivots, true, true)
	if err != nil {
		return nil, err
	}
	Pt, err := P.MT()
	if err != nil {
		return nil, err
	}
	mm := func(a, b *T) (*T, error) { return applyBinary(e, "matmul", tensor.Matmul, a, b) }
	tr := func(a *T) (*T, error) { return transposeOp(e, a, a.Dim()-2, a.Dim()-1) }
	Lt, err := tr(L)
	if err != nil {
		return nil, err
	}
	Ut, err := tr(U)
	if err != nil {
		return nil, err
	}
	switch {
	case left && !adjoint: // X = U⁻¹ L⁻¹ Pᵀ B
		Y, err := mm(Pt, B)
		if err != nil {
			return nil, err
		}
		if Y, err = linalg.SolveTriangular(e, L, Y, false, true); err != nil {
			return nil, err
		}
		return linalg.SolveTriangular(e, U, Y, true, true)
	case left: // Aᵀ X = B: X = P L⁻ᵀ U⁻ᵀ B
		Y, err := linalg.SolveTriangular(e, Ut, B, false, true)
		if err != nil {
			return nil, err
		}
		if Y, err = linalg.SolveTriangular(e, Lt, Y, true, true); err != nil {
			return nil, err
		}
		return mm(P, Y)
	case !adjoint: // X A = B: X = B U⁻¹ L⁻¹ Pᵀ
		Y, err := linalg.SolveTriangular(e, U, B, true, false)
		if err != nil {
			return nil, err
		}
		if Y, err = linalg.SolveTriangular(e, L, Y, false, false); err != nil {
			return nil, err
		}
		return mm(Y, Pt)
	default: // X Aᵀ = B: X = B P L⁻ᵀ U⁻ᵀ
		Y, err := mm(B, P)
		if err != nil {
			return nil, err
		}
		if Y, err = linalg.SolveTriangular(e, Lt, Y, true, false); err != nil {
			return nil, err
		}
		return linalg.SolveTriangular(e, Ut, Y, false, false)
	}
}

// luPermutationMatrix is P of A = P L U ([batch..., m, m]) for LAPACK's
// 1-based pivots (k per matrix): row swaps i <-> piv[i]-1 applied in order
// give the permutation perm with (L U)[i] = A[perm[i]], and P[perm[i], i]
// = 1.
func luPermutationMatrix(piv []int32, batch []int, m, k int, dt tensor.DType) (*T, error) {
	nb := numelOf(batch)
	vals := make([]float64, nb*m*m)
	perm := make([]int, m)
	for b := 0; b < nb; b++ {
		for i := range perm {
			perm[i] = i
		}
		for i := 0; i < k; i++ {
			j := int(piv[b*k+i]) - 1
			perm[i], perm[j] = perm[j], perm[i]
		}
		for i, p := range perm {
			vals[b*m*m+p*m+i] = 1
		}
	}
	return tensor.FromFloat64s(vals, withShape(batch, m, m), dt)
}
