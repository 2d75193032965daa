package linalg

import (
	"errors"
	"math"
	"strconv"

	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// Ord is the ord argument of MatrixNorm, Norm and Cond: a name ("fro",
// "nuc") or, when Name is empty, the number P (±1, ±2, ±Inf for matrices;
// any real p for vectors).
type Ord struct {
	Name string
	P    float64
}

// Named orders.
var (
	Fro = Ord{Name: "fro"}
	Nuc = Ord{Name: "nuc"}
)

// P returns the numeric order p.
func P(p float64) Ord { return Ord{P: p} }

// String formats the order as Python would print it ("fro", "2", "inf").
func (o Ord) String() string {
	if o.Name != "" {
		return o.Name
	}
	switch {
	case math.IsInf(o.P, 1):
		return "inf"
	case math.IsInf(o.P, -1):
		return "-inf"
	case o.P == math.Trunc(o.P) && math.Abs(o.P) < 1e15:
		return strconv.FormatInt(int64(o.P), 10)
	}
	return strconv.FormatFloat(o.P, 'g', -1, 64)
}

func normDims(dims []int, nd int, op string) ([]int, error) {
	out := make([]int, len(dims))
	seen := map[int]bool{}
	for i, d := range dims {
		n := max(nd, 1)
		if d < -n || d >= n {
			return nil, &kernels.Error{Kind: "IndexError", Msg: sprintf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, d)}
		}
		if d < 0 {
			d += n
		}
		if seen[d] {
			return nil, errorf("%s: dims must be different. Got (%d, %d)", op, dims[0], dims[len(dims)-1])
		}
		seen[d] = true
		out[i] = d
	}
	return out, nil
}

// VectorNorm is torch.linalg.vector_norm(x, ord, dim, keepdim): the p-norm
// of x over dims (all dims when dims is nil), for any real ord (0 counts
// non-zeros, ±Inf is max/min |x|). Float dtypes only (f16/bf16 allowed, as
// in PyTorch). Differentiable.
func VectorNorm(e *Engine, x *T, ord float64, dims []int, keepdim bool) (*T, error) {
	if !x.DType().IsFloat() {
		return nil, errorf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", kernels.TorchName(x.DType()))
	}
	if dims != nil {
		var err error
		if dims, err = normDims(dims, x.Dim(), "linalg.vector_norm"); err != nil {
			return nil, err
		}
		if len(dims) == 0 {
			dims = nil
		}
	}
	return apply(e, "norm", []*T{x}, autograd.Attrs{"p": ord, "dim": dims, "keepdim": keepdim}, func() (*T, error) {
		return tensor.Norm(x, ord, dims, keepdim)
	})
}

// MatrixNorm is torch.linalg.matrix_norm(A, ord, dim=(d0, d1), keepdim):
// "fro" (Frobenius), "nuc" (nuclear: sum of singular values), 2 / −2
// (largest / smallest singular value), 1 / −1 (max / min absolute column
// sum), Inf / −Inf (max / min absolute row sum), over the matrix dims d0,
// d1 of A. Differentiable (the spectral and nuclear norms through the SVD).
// Errors: RuntimeError "linalg.matrix_norm: Order 3 not supported."
func MatrixNorm(e *Engine, A *T, ord Ord, d0, d1 int, keepdim bool) (*T, error) {
	const op = "linalg.matrix_norm"
	if A.Dim() < 2 {
		return nil, errorf("%s: The input tensor A must have at least 2 dimensions.", op)
	}
	if !A.DType().IsFloat() {
		return nil, errorf("%s: Expected a floating point or complex tensor as input. Got %s", op, kernels.TorchName(A.DType()))
	}
	switch {
	case ord.Name == "fro" || ord.Name == "nuc":
	case ord.Name == "" && (math.Abs(ord.P) == 1 || math.Abs(ord.P) == 2 || math.IsInf(ord.P, 0)):
	default:
		return nil, errorf("%s: Order %s not supported.", op, ord)
	}
	dims, err := normDims([]int{d0, d1}, A.Dim(), op)
	if err != nil {
		return nil, err
	}
	d0, d1 = dims[0], dims[1]
	if ord.Name == "fro" {
		return VectorNorm(e, A, 2, dims, keepdim)
	}
	// keep-shape: A's shape with 1 at d0 and d1
	keepShape := append([]int(nil), A.Shape()...)
	keepShape[d0], keepShape[d1] = 1, 1
	var r *T
	if ord.Name == "nuc" || math.Abs(ord.P) == 2 {
		// move d0, d1 last, then reduce the singular values
		perm := make([]int, 0, A.Dim())
		for i := range A.Dim() {
			if i != d0 && i != d1 {
				perm = append(perm, i)
			}
		}
		perm = append(perm, d0, d1)
		Ap, err := apply(e, "permute", []*T{A}, autograd.Attrs{"dims": perm}, func() (*T, error) { return A.Permute(perm...) })
		if err != nil {
			return nil, err
		}
		S, err := SVDVals(e, Ap)
		if err != nil {
			return nil, err
		}
		last := []int{S.Dim() - 1}
		switch {
		case ord.Name == "nuc":
			r, err = sumDims(e, S, last, true)
		default:
			r, err = amaxmin(e, S, last, true, ord.P > 0)
		}
		if err != nil {
			return nil, err
		}
	} else {
		// 1: max column sum (sum over d0, reduce d1); inf: max row sum
		sumDim, redDim := d0, d1
		if math.IsInf(ord.P, 0) {
			sumDim, redDim = d1, d0
		}
		a, err := absT(e, A)
		if err != nil {
			return nil, err
		}
		s, err := sumDims(e, a, []int{sumDim}, true)
		if err != nil {
			return nil, err
		}
		if r, err = amaxmin(e, s, []int{redDim}, true, ord.P > 0); err != nil {
			return nil, err
		}
	}
	shape := keepShape
	if !keepdim {
		shape = shape[:0:0]
		for i, v := range keepShape {
			if i != d0 && i != d1 {
				shape = append(shape, v)
			}
		}
	}
	return apply(e, "reshape", []*T{r}, nil, func() (*T, error) { return r.Reshape(shape...) })
}

// Norm is torch.linalg.norm(A, ord, dim, keepdim). With dims of length 2,
// or no dims, an ord given and 2-D A, it is MatrixNorm (default "fro");
// with one dim, or 1-D A, VectorNorm; with neither ord nor dims, the
// 2-norm of A flattened. ord nil means None.
func Norm(e *Engine, A *T, ord *Ord, dims []int, keepdim bool) (*T, error) {
	if !A.DType().IsFloat() {
		return nil, errorf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", kernels.TorchName(A.DType()))
	}
	switch {
	case len(dims) == 2:
		o := Fro
		if ord != nil {
			o = *ord
		}
		return MatrixNorm(e, A, o, dims[0], dims[1], keepdim)
	case len(dims) == 1:
		if ord != nil && ord.Name != "" {
			return nil, errorf("linalg.vector_norm: ord must be a number for a vector norm, got '%s'", ord.Name)
		}
		p := 2.0
		if ord != nil {
			p = ord.P
		}
		return VectorNorm(e, A, p, dims, keepdim)
	case dims != nil:
		return nil, errorf("linalg.norm: If dim is specified, it must be of length 1 or 2. Got %v", dims)
	case ord == nil:
		return VectorNorm(e, A, 2, nil, keepdim)
	case ord.Name != "" || A.Dim() == 2:
		return MatrixNorm(e, A, *ord, -2, -1, keepdim)
	case A.Dim() == 1:
		return VectorNorm(e, A, ord.P, nil, keepdim)
	}
	return nil, errorf("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD.", A.Dim())
}

// Cond is torch.linalg.cond(A, ord): for ord nil, 2 or −2 the ratio of the
// largest to the smallest singular value (inverted for −2; any m×n A);
// for "fro", "nuc", ±1, ±Inf, norm(A, ord)·norm(A⁻¹, ord) for square A,
// +Inf where A is singular. Differentiable where the result is finite.
func Cond(e *Engine, A *T, ord *Ord) (*T, error) {
	if A.Dim() < 2 {
		return nil, errorf("linalg.cond: The input tensor must have at least 2 dimensions.")
	}
	if ord == nil || (ord.Name == "" && math.Abs(ord.P) == 2) {
		S, err := SVDVals(e, A)
		if err != nil {
			return nil, err
		}
		last := []int{S.Dim() - 1}
		if S.Shape()[S.Dim()-1] == 0 {
			return tensor.Zeros(S.Shape()[:S.Dim()-1], S.DType())
		}
		hi, err := amaxmin(e, S, last, false, true)
		if err != nil {
			return nil, err
		}
		lo, err := amaxmin(e, S, last, false, false)
		if err != nil {
			return nil, err
		}
		if ord != nil && ord.P < 0 {
			return div(e, lo, hi)
		}
		return div(e, hi, lo)
	}
	o := *ord
	if _, _, _, err := kernels.CheckMatrix("linalg.cond(ord="+o.String()+")", A, true); err != nil {
		return nil, err
	}
	nA, err := MatrixNorm(e, A, o, -2, -1, false)
	if err != nil {
		return nil, err
	}
	Ai, err := Inv(e, A)
	var le *lapack.Error
	if errors.As(err, &le) && le.Kind == lapack.KindLinAlg {
		return condSingular(A, o)
	}
	if err != nil {
		return nil, err
	}
	nI, err := MatrixNorm(e, Ai, o, -2, -1, false)
	if err != nil {
		return nil, err
	}
	return mul(e, nA, nI)
}

// condSingular computes cond for a batch holding singular matrices, one
// matrix at a time, +Inf for the singular ones (not differentiable).
func condSingular(A *T, o Ord) (*T, error) {
	e := autograd.NewEngine()
	e.SetGradEnabled(false)
	sh := A.Shape()
	batch := sh[:len(sh)-2]
	flat, err := A.Reshape(append([]int{-1}, sh[len(sh)-2:]...)...)
	if err != nil {
		return nil, err
	}
	nb := flat.Shape()[0]
	out := make([]float64, nb)
	for b := range nb {
		Ab, _ := flat.Select(0, b)
		Ai, err := kernels.Inv(Ab)
		var le *lapack.Error
		if errors.As(err, &le) && le.Kind == lapack.KindLinAlg {
			out[b] = math.Inf(1)
			continue
		}
		if err != nil {
			return nil, err
		}
		nA, err := MatrixNorm(e, Ab, o, -2, -1, false)
		if err != nil {
			return nil, err
		}
		nI, err := MatrixNorm(e, Ai, o, -2, -1, false)
		if err != nil {
			return nil, err
		}
		c, err := tensor.Mul(nA, nI)
		if err != nil {
			return nil, err
		}
		out[b] = c.FlatFloat64(0)
	}
	return tensor.FromFloat64s(out, batch, A.DType())
}

// LowRankResult is the truncated SVD returned by LowRank.
type LowRankResult struct {
	// U [..., m, k], S [..., k] and Vh [..., k, n]: A_k = U diag(S) Vh is the
	// best rank-k approximation of A in the Frobenius and spectral norms
	// (Eckart–Young–Mirsky).
	U, S, Vh *T
	// Energy [...] is the retained energy Σ_{i<k} σ_i² / Σ_i σ_i², in [0, 1]
	// (NaN for a zero matrix).
	Energy *T
	// RelError [...] is the relative Frobenius error ‖A − A_k‖_F / ‖A‖_F =
	// sqrt(1 − Energy), computed from the discarded singular values.
	RelError *T
}

// LowRank is tsr's linalg.lowrank(A, k): the rank-k truncation of the
// reduced SVD of A [..., m, n], 0 <= k <= min(m, n), with its retained
// energy and relative Frobenius error (seed chapter §4.1, LoRA). U, S and
// Vh are differentiable (views of the recorded SVD); Energy and RelError
// are plain f64-computed values in A's dtype. Errors: ValueError for k out
// of range.
func LowRank(e *Engine, A *T, k int) (*LowRankResult, error) {
	if _, m, n, err := kernels.CheckMatrix("linalg.svd", A, false); err != nil {
		return nil, err
	} else if k < 0 || k > min(m, n) {
		return nil, valueErr("linalg.lowrank: k must be in [0, min(m, n)] = [0, %d], got %d", min(m, n), k)
	}
	U, S, Vh, err := SVD(e, A, false)
	if err != nil {
		return nil, err
	}
	r := &LowRankResult{}
	if r.U, err = narrow(e, U, U.Dim()-1, 0, k); err != nil {
		return nil, err
	}
	if r.S, err = narrow(e, S, S.Dim()-1, 0, k); err != nil {
		return nil, err
	}
	if r.Vh, err = narrow(e, Vh, Vh.Dim()-2, 0, k); err != nil {
		return nil, err
	}
	sh := S.Shape()
	batch, q := sh[:len(sh)-1], sh[len(sh)-1]
	s := S.ToFloat64s()
	nb := 1
	for _, b := range batch {
		nb *= b
	}
	energy, relErr := make([]float64, nb), make([]float64, nb)
	for b := range nb {
		var kept, rest float64
		for i, v := range s[b*q : (b+1)*q] {
			if i < k {
				kept += v * v
			} else {
				rest += v * v
			}
		}
		energy[b] = kept / (kept + rest)
		relErr[b] = math.Sqrt(rest / (kept + rest))
	}
	if r.Energy, err = tensor.FromFloat64s(energy, batch, A.DType()); err != nil {
		return nil, err
	}
	r.RelError, err = tensor.FromFloat64s(relErr, batch, A.DType())
	return r, err
}
