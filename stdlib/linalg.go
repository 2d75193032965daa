package stdlib

import (
	"math"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
)

// The linalg module: torch.linalg over package tensor/linalg. Every
// function batches over leading dims, accepts f32/f64 and records autograd
// history where PyTorch's is differentiable. Numerical failures raise
// LinAlgError (torch.linalg.LinAlgError, a RuntimeError subclass in
// PyTorch). Factorizations return named tuples with PyTorch's field names.
// eig/eigvals return complex values in torch.view_as_real layout (a
// trailing dim of 2: real, imaginary), since tsr has no complex dtype.

func init() {
	m := map[string]runtime.Value{}
	fn := func(name, doc string, f builtinFn) { m[name] = moduleFunc("linalg", name, doc, f) }
	fn("svd", "svd(A, full_matrices=true) -> (U, S, Vh): A = U[..., :k] diag(S) Vh[..., :k, :], S descending (LAPACK xGESDD). Differentiable.", linalgSVD)
	fn("svdvals", "svdvals(A): singular values [..., min(m, n)], descending. Differentiable.", linalgSVDVals)
	fn("cholesky", "cholesky(A, upper=false): L with A = L @ L.mT (lower triangle read), or U with A = U.mT @ U. LinAlgError names the leading minor that is not positive-definite. Differentiable.", linalgCholesky)
	fn("eigh", "eigh(A, UPLO=\"L\") -> (eigenvalues, eigenvectors) of symmetric A (one triangle read), eigenvalues ascending. Differentiable.", linalgEigh)
	fn("eigvalsh", "eigvalsh(A, UPLO=\"L\"): ascending eigenvalues of symmetric A. Differentiable.", linalgEigvalsh)
	fn("eig", "eig(A) -> (eigenvalues [..., n, 2], eigenvectors [..., n, n, 2]) of general A, complex values as (real, imag) pairs in the last dim (torch.view_as_real layout). Not differentiable.", linalgEig)
	fn("eigvals", "eigvals(A): eigenvalues [..., n, 2] as (real, imag) pairs. Not differentiable.", linalgEigvals)
	fn("qr", "qr(A, mode=\"reduced\") -> (Q, R); mode \"reduced\", \"complete\" or \"r\". Differentiable for reduced mode with m >= n.", linalgQR)
	fn("solve", "solve(A, B, left=true): X with A @ X = B (or X @ A = B); B may be a batch of vectors. LinAlgError for singular A. Differentiable.", linalgSolve)
	fn("solve_triangular", "solve_triangular(A, B, upper, left=true, unitriangular=false): triangular solve (LAPACK trtrs); unitriangular takes A's diagonal as ones without reading it. Differentiable.", linalgSolveTriangular)
	fn("inv", "inv(A): inverse; LinAlgError for singular A. Differentiable.", linalgUnary(linalg.Inv))
	fn("det", "det(A): determinant (LU). Differentiable (cofactor matrix at singular A).", linalgUnary(linalg.Det))
	fn("slogdet", "slogdet(A) -> (sign, logabsdet) with det = sign * exp(logabsdet). Differentiable in logabsdet.", linalgSlogdet)
	fn("norm", "norm(A, ord=none, dim=none, keepdim=false): vector or matrix norm as torch.linalg.norm. Differentiable.", linalgNorm)
	fn("vector_norm", "vector_norm(x, ord=2, dim=none, keepdim=false, dtype=none): vector p-norm over dim (all dims by default), computed in dtype when given (a float dtype the input widens to). Differentiable.", linalgVectorNorm)
	fn("matrix_norm", "matrix_norm(A, ord=\"fro\", dim=[-2, -1], keepdim=false): ord \"fro\", \"nuc\", 2, -2, 1, -1, inf, -inf. Differentiable.", linalgMatrixNorm)
	fn("cond", "cond(A, p=none): condition number; p none/2/-2 via singular values, else norm(A, p) * norm(inv(A), p) (inf for singular A).", linalgCond)
	fn("matrix_rank", "matrix_rank(A, atol=none, rtol=none, hermitian=false, tol=none): number of singular values > max(atol, rtol * smax); rtol defaults to eps * max(m, n). Returns i64.", linalgMatrixRank)
	fn("lstsq", "lstsq(A, B, rcond=none, driver=none) -> (solution, residuals, rank, singular_values), LAPACK xGELSD (as driver=\"gelsd\"). Differentiable in solution.", linalgLstsq)
	fn("pinv", "pinv(A, atol=none, rtol=none, hermitian=false): Moore-Penrose pseudo-inverse. Differentiable.", linalgPinv)
	fn("lowrank", "lowrank(A, k) -> (U_k, S_k, Vh_k): rank-k truncated SVD; the result also has .energy (retained energy sum(S_k^2)/sum(S^2)) and .rel_error (relative Frobenius error ||A - U_k diag(S_k) Vh_k|| / ||A||).", linalgLowRank)
	fn("backend", "backend(): the LAPACK implementation in use (\"openblas (path)\", \"gonum\", ...).", func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		if err := runtime.UnpackArgs("backend", args, kwargs); err != nil {
			return nil, err
		}
		return runtime.String(linalg.Backend()), nil
	})
	registerModule("linalg", "Linear algebra (torch.linalg): decompositions, solvers, norms; batched and differentiable.", m)
}

func namedTuple(th *runtime.Thread, name string, fields []string, ts ...*T) runtime.Value {
	tup := make(runtime.Tuple, len(ts))
	for i, t := range ts {
		tup[i] = NewTensorValue(th, t)
	}
	return &runtime.NamedTuple{TypeName: name, Fields: fields, Tuple: tup}
}

func tensorResult(th *runtime.Thread, t *T, err error) (runtime.Value, error) {
	if err != nil {
		return nil, err
	}
	return NewTensorValue(th, t), nil
}

func linalgUnary(f func(*Engine, *T) (*T, error)) builtinFn {
	return func(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
		var A tensorArg
		if err := runtime.UnpackArgs(b.Name(), args, kwargs, "A", &A); err != nil {
			return nil, err
		}
		r, err := f(engineOf(th), A.t)
		return tensorResult(th, r, err)
	}
}

func linalgSVD(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	full := true
	if err := runtime.UnpackArgs("linalg.svd", args, kwargs, "A", &A, "full_matrices?", &full); err != nil {
		return nil, err
	}
	U, S, Vh, err := linalg.SVD(engineOf(th), A.t, full)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_svd", []string{"U", "S", "Vh"}, U, S, Vh), nil
}

func linalgSVDVals(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	if err := runtime.UnpackArgs("linalg.svdvals", args, kwargs, "A", &A); err != nil {
		return nil, err
	}
	r, err := linalg.SVDVals(engineOf(th), A.t)
	return tensorResult(th, r, err)
}

func linalgCholesky(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	upper := false
	if err := runtime.UnpackArgs("linalg.cholesky", args, kwargs, "A", &A, "upper?", &upper); err != nil {
		return nil, err
	}
	r, err := linalg.Cholesky(engineOf(th), A.t, upper)
	return tensorResult(th, r, err)
}

func linalgEigh(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	uplo := "L"
	if err := runtime.UnpackArgs("linalg.eigh", args, kwargs, "A", &A, "UPLO?", &uplo); err != nil {
		return nil, err
	}
	L, V, err := linalg.Eigh(engineOf(th), A.t, uplo)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_eigh", []string{"eigenvalues", "eigenvectors"}, L, V), nil
}

func linalgEigvalsh(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	uplo := "L"
	if err := runtime.UnpackArgs("linalg.eigvalsh", args, kwargs, "A", &A, "UPLO?", &uplo); err != nil {
		return nil, err
	}
	r, err := linalg.EigvalsH(engineOf(th), A.t, uplo)
	return tensorResult(th, r, err)
}

func linalgEig(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	if err := runtime.UnpackArgs("linalg.eig", args, kwargs, "A", &A); err != nil {
		return nil, err
	}
	L, V, err := linalg.Eig(A.t)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_eig", []string{"eigenvalues", "eigenvectors"}, L, V), nil
}

func linalgEigvals(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	if err := runtime.UnpackArgs("linalg.eigvals", args, kwargs, "A", &A); err != nil {
		return nil, err
	}
	r, err := linalg.Eigvals(A.t)
	return tensorResult(th, r, err)
}

func linalgQR(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	mode := "reduced"
	if err := runtime.UnpackArgs("linalg.qr", args, kwargs, "A", &A, "mode?", &mode); err != nil {
		return nil, err
	}
	Q, R, err := linalg.QR(engineOf(th), A.t, mode)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_qr", []string{"Q", "R"}, Q, R), nil
}

func linalgSolve(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A, B tensorArg
	left := true
	if err := runtime.UnpackArgs("linalg.solve", args, kwargs, "A", &A, "B", &B, "left?", &left); err != nil {
		return nil, err
	}
	r, err := linalg.Solve(engineOf(th), A.t, B.t, left)
	return tensorResult(th, r, err)
}

func linalgSolveTriangular(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A, B tensorArg
	var upper bool
	left, unit := true, false
	if err := runtime.UnpackArgs("linalg.solve_triangular", args, kwargs, "A", &A, "B", &B, "upper", &upper, "left?", &left, "unitriangular?", &unit); err != nil {
		return nil, err
	}
	a := A.t
	if unit {
		// the diagonal is taken as ones and never read (its gradient is
		// zero): A * (1 - I) + I, recorded
		var err error
		if a, err = unitDiagonal(engineOf(th), a); err != nil {
			return nil, err
		}
	}
	r, err := linalg.SolveTriangular(engineOf(th), a, B.t, upper, left)
	return tensorResult(th, r, err)
}

func linalgSlogdet(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	if err := runtime.UnpackArgs("linalg.slogdet", args, kwargs, "A", &A); err != nil {
		return nil, err
	}
	s, l, err := linalg.Slogdet(engineOf(th), A.t)
	if err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_slogdet", []string{"sign", "logabsdet"}, s, l), nil
}

// ordArg is an ord= argument: none, a number, or "fro"/"nuc".
type ordArg struct {
	ord *linalg.Ord
}

func (o *ordArg) Unpack(v runtime.Value) error {
	switch x := v.(type) {
	case runtime.NoneType:
		o.ord = nil
		return nil
	case runtime.String:
		od := linalg.Ord{Name: string(x)}
		o.ord = &od
		return nil
	}
	if _, isBool := v.(runtime.Bool); !isBool {
		if f, ok := runtime.AsFloat(v); ok {
			od := linalg.P(f)
			o.ord = &od
			return nil
		}
	}
	return runtime.Errorf("TypeError", "ord must be a number or a string, not %s", v.Type())
}

func linalgNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var ord ordArg
	var dim dimsOpt
	keep := false
	if err := runtime.UnpackArgs("linalg.norm", args, kwargs, "A", &A, "ord?", &ord, "dim?", &dim, "keepdim?", &keep); err != nil {
		return nil, err
	}
	var dims []int
	if dim.ok {
		dims = dim.dims
	}
	r, err := linalg.Norm(engineOf(th), A.t, ord.ord, dims, keep)
	return tensorResult(th, r, err)
}

func linalgVectorNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x tensorArg
	ord := 2.0
	var dim dimsOpt
	keep := false
	var dt dtypeOpt
	if err := runtime.UnpackArgs("linalg.vector_norm", args, kwargs, "x", &x, "ord?", &ord, "dim?", &dim, "keepdim?", &keep, "dtype?", &dt); err != nil {
		return nil, err
	}
	var dims []int
	if dim.ok {
		dims = dim.dims
	}
	in := x.t
	if dt.ok {
		// PyTorch 1.13: a float dtype the input converts to without
		// narrowing; the norm is computed in it
		switch {
		case !dt.dt.IsFloat():
			return nil, runtime.Errorf("RuntimeError", "linalg.vector_norm: dtype should be floating point or complex, but got %s", dt.dt.TorchName())
		case !in.DType().IsFloat():
			return nil, runtime.Errorf("RuntimeError", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", in.DType().TorchName())
		case tensor.Promote(in.DType(), dt.dt) != dt.dt:
			return nil, runtime.Errorf("RuntimeError", "linalg.vector_norm: the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)", in.DType().TorchName(), dt.dt.TorchName())
		}
		var err error
		if in, err = toOp(engineOf(th), in, dt.dt); err != nil {
			return nil, err
		}
	}
	r, err := linalg.VectorNorm(engineOf(th), in, ord, dims, keep)
	return tensorResult(th, r, err)
}

func linalgMatrixNorm(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var ord ordArg
	dim := []int{-2, -1}
	keep := false
	if err := runtime.UnpackArgs("linalg.matrix_norm", args, kwargs, "A", &A, "ord?", &ord, "dim?", &dim, "keepdim?", &keep); err != nil {
		return nil, err
	}
	if len(dim) != 2 {
		return nil, runtime.Errorf("RuntimeError", "linalg.matrix_norm: dim must be a 2-tuple. Got %s", intList(dim))
	}
	o := linalg.Fro
	if ord.ord != nil {
		o = *ord.ord
	}
	r, err := linalg.MatrixNorm(engineOf(th), A.t, o, dim[0], dim[1], keep)
	return tensorResult(th, r, err)
}

func linalgCond(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var p ordArg
	if err := runtime.UnpackArgs("linalg.cond", args, kwargs, "A", &A, "p?", &p); err != nil {
		return nil, err
	}
	r, err := linalg.Cond(engineOf(th), A.t, p.ord)
	return tensorResult(th, r, err)
}

func tolOf(atol, rtol floatOpt) linalg.Tol {
	var t linalg.Tol
	if atol.ok {
		v := atol.v
		t.Atol = &v
	}
	if rtol.ok {
		v := rtol.v
		t.Rtol = &v
	}
	return t
}

func linalgMatrixRank(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var atol, rtol, tol floatOpt
	herm := false
	if err := runtime.UnpackArgs("linalg.matrix_rank", args, kwargs, "A", &A, "atol?", &atol, "rtol?", &rtol, "hermitian?", &herm, "tol?", &tol); err != nil {
		return nil, err
	}
	if tol.ok { // deprecated tol= is atol with rtol 0
		if atol.ok || rtol.ok {
			return nil, runtime.Errorf("RuntimeError", "linalg.matrix_rank: tol can't be specified together with atol and rtol")
		}
		atol, rtol = tol, floatOpt{v: 0, ok: true}
	}
	r, err := linalg.MatrixRank(A.t, tolOf(atol, rtol), herm)
	return tensorResult(th, r, err)
}

func linalgPinv(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var atol, rtol, rcond floatOpt
	herm := false
	if err := runtime.UnpackArgs("linalg.pinv", args, kwargs, "A", &A, "atol?", &atol, "rtol?", &rtol, "hermitian?", &herm, "rcond?", &rcond); err != nil {
		return nil, err
	}
	if rcond.ok { // deprecated rcond= is rtol
		rtol = rcond
	}
	r, err := linalg.Pinv(engineOf(th), A.t, tolOf(atol, rtol), herm)
	return tensorResult(th, r, err)
}

func linalgLstsq(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A, B tensorArg
	var rcond floatOpt
	var driver runtime.Value = runtime.None
	if err := runtime.UnpackArgs("linalg.lstsq", args, kwargs, "A", &A, "B", &B, "rcond?", &rcond, "driver?", &driver); err != nil {
		return nil, err
	}
	if driver != runtime.None {
		d, ok := driver.(runtime.String)
		switch {
		case !ok:
			return nil, runtime.Errorf("TypeError", "linalg.lstsq(): argument 'driver' must be str, not %s", driver.Type())
		case d != "gelsd" && d != "gelsy" && d != "gelss" && d != "gels":
			return nil, runtime.Errorf("RuntimeError", "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
		}
	}
	drv := "gelsy" // PyTorch's default on the CPU
	if d, ok := driver.(runtime.String); ok {
		drv = string(d)
	}
	rc := math.NaN()
	if rcond.ok {
		rc = rcond.v
	}
	r, err := linalg.Lstsq(engineOf(th), A.t, B.t, rc)
	if err != nil {
		return nil, err
	}
	if r.Solution != A.t && r.Solution != B.t {
		autograd.SetGradFnName(r.Solution, "LinalgLstsqBackward0")
	}
	if err := lstsqDriverFields(r, drv); err != nil {
		return nil, err
	}
	return namedTuple(th, "linalg_lstsq", []string{"solution", "residuals", "rank", "singular_values"},
		r.Solution, r.Residuals, r.Rank, r.SingularValues), nil
}

// lstsqDriverFields shapes the gelsd result r as PyTorch 1.13's CPU driver
// drv reports it (the solution is the same minimum-norm one): gelsy, the
// default, computes neither residuals nor singular values (both [0]); gels
// computes no rank (an empty i64 [0]) nor singular values, and refuses a
// rank-deficient matrix with a LinAlgError; gelsd and gelss report all four.
func lstsqDriverFields(r *linalg.LstsqResult, drv string) error {
	empty := func(dt tensor.DType) *T {
		e, _ := tensor.Empty([]int{0}, dt)
		return e
	}
	switch drv {
	case "gelsy":
		r.Residuals = empty(r.Solution.DType())
		r.SingularValues = empty(r.SingularValues.DType())
	case "gels":
		full := r.SingularValues.Shape()
		k := int64(full[len(full)-1])
		for i, n := 0, r.Rank.Numel(); i < n; i++ {
			if rk := int64(r.Rank.FlatFloat64(i)); rk < k {
				return runtime.Errorf("LinAlgError", "torch.linalg.lstsq: The least squares solution could not be computed because the input matrix does not have full rank (error code: %d).", rk+1)
			}
		}
		r.Rank = empty(tensor.I64)
		r.SingularValues = empty(r.SingularValues.DType())
	}
	return nil
}

// lowRankValue is the result of linalg.lowrank: it unpacks and indexes
// as the 3-tuple (U, S, Vh) and also carries .energy and .rel_error.
type lowRankValue struct {
	tup            runtime.Tuple
	energy, relErr runtime.Value
	k              int
}

func (v *lowRankValue) String() string {
	return "lowrank(k=" + runtime.MakeInt(int64(v.k)).String() + ", U=" + v.tup[0].String() + ", S=" + v.tup[1].String() +
		", Vh=" + v.tup[2].String() + ", energy=" + v.energy.String() + ", rel_error=" + v.relErr.String() + ")"
}
func (v *lowRankValue) Type() string              { return "lowrank" }
func (v *lowRankValue) Truth() bool               { return true }
func (v *lowRankValue) Len() int                  { return 3 }
func (v *lowRankValue) Iterate() runtime.Iterator { return v.tup.Iterate() }
func (v *lowRankValue) Index(key runtime.Value) (runtime.Value, error) {
	i, ok := key.(runtime.Int)
	if !ok {
		return nil, runtime.Errorf("TypeError", "lowrank indices must be integers, not %s", key.Type())
	}
	j := int(i)
	if j < 0 {
		j += 3
	}
	if j < 0 || j >= 3 {
		return nil, runtime.Errorf("IndexError", "tuple index out of range")
	}
	return v.tup[j], nil
}
func (v *lowRankValue) Attr(name string) (runtime.Value, error) {
	switch name {
	case "U", "U_k":
		return v.tup[0], nil
	case "S", "S_k":
		return v.tup[1], nil
	case "Vh", "Vh_k":
		return v.tup[2], nil
	case "energy":
		return v.energy, nil
	case "rel_error":
		return v.relErr, nil
	case "k":
		return runtime.MakeInt(int64(v.k)), nil
	}
	return nil, nil
}
func (v *lowRankValue) AttrNames() []string {
	return []string{"S", "S_k", "U", "U_k", "Vh", "Vh_k", "energy", "k", "rel_error"}
}

// scalarOrTensor returns a 0-d tensor as a float, else the tensor.
func scalarOrTensor(th *runtime.Thread, t *T) runtime.Value {
	if t.Dim() == 0 {
		return runtime.Float(t.FlatFloat64(0))
	}
	return NewTensorValue(th, t)
}

func linalgLowRank(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var k int
	if err := runtime.UnpackArgs("linalg.lowrank", args, kwargs, "A", &A, "k", &k); err != nil {
		return nil, err
	}
	r, err := linalg.LowRank(engineOf(th), A.t, k)
	if err != nil {
		return nil, err
	}
	return &lowRankValue{
		tup:    runtime.Tuple{NewTensorValue(th, r.U), NewTensorValue(th, r.S), NewTensorValue(th, r.Vh)},
		energy: scalarOrTensor(th, r.Energy), relErr: scalarOrTensor(th, r.RelError), k: k,
	}, nil
}
