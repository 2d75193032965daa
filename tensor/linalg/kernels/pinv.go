package kernels

import (
	"math"
	"strconv"
	"strings"

	"github.com/tsrlang/tsr/tensor"
)

// Tol holds the atol/rtol arguments of matrix_rank and pinv. A nil field
// means "not given" (PyTorch's None).
type Tol struct {
	Atol, Rtol *float64
}

// threshold returns PyTorch's cut-off max(atol, rtol·smax) for a matrix of
// size m×n in dtype dt: rtol defaults to eps(dt)·max(m, n), or to 0 when
// atol > 0 is given (torch.linalg.matrix_rank / pinv).
func (t Tol) threshold(smax float64, m, n int, dt tensor.DType) float64 {
	atol := 0.0
	if t.Atol != nil {
		atol = *t.Atol
	}
	var rtol float64
	switch {
	case t.Rtol != nil:
		rtol = *t.Rtol
	case t.Atol != nil && *t.Atol > 0:
		rtol = 0
	default:
		fi, _ := tensor.Finfo(dt)
		rtol = fi.Eps * float64(max(m, n))
	}
	return math.Max(atol, rtol*smax)
}

// spectrum returns, per matrix of A [..., m, n], the values compared
// against the tolerance: singular values, or |eigenvalues| when hermitian.
func spectrum(op string, A *T, hermitian bool) (vals []float64, k, nb int, err error) {
	var S *T
	if hermitian {
		if S, err = EigvalsH(A, false); err != nil {
			return nil, 0, 0, err
		}
	} else if S, err = SVDVals(A); err != nil {
		return nil, 0, 0, err
	}
	sh := S.Shape()
	k = sh[len(sh)-1]
	vals = S.ToFloat64s()
	nb = prod(sh[:len(sh)-1])
	for i, v := range vals {
		vals[i] = math.Abs(v)
	}
	return vals, k, nb, nil
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		if x > m || x != x {
			m = x
		}
	}
	return m
}

// MatrixRank is torch.linalg.matrix_rank(A, atol=, rtol=, hermitian=):
// the number [...] (i64) of singular values of A [..., m, n] (absolute
// eigenvalues when hermitian, reading the lower triangle) greater than
// max(atol, rtol·σ_max); see [Tol] for the defaults. Errors: RuntimeError
// for a bad rank or dtype.
func MatrixRank(A *T, tol Tol, hermitian bool) (*T, error) {
	if A.Dim() < 2 {
		return nil, errorf("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
	}
	if !(A.DType() == tensor.F32 || A.DType() == tensor.F64) {
		return nil, errorf("This function doesn't handle types other than float and double")
	}
	sh := A.Shape()
	m, n := sh[len(sh)-2], sh[len(sh)-1]
	batch := sh[:len(sh)-2]
	if hermitian && m != n {
		return nil, errorf("linalg.eigh: A must be batches of square matrices, but they are %d by %d matrices", m, n)
	}
	ranks := make([]int64, prod(batch))
	if min(m, n) > 0 {
		vals, k, _, err := spectrum("linalg.matrix_rank", A, hermitian)
		if err != nil {
			return nil, err
		}
		for b := range ranks {
			row := vals[b*k : (b+1)*k]
			thr := tol.threshold(maxOf(row), m, n, A.DType())
			for _, v := range row {
				if v > thr {
					ranks[b]++
				}
			}
		}
	}
	return tensor.FromInt64s(ranks, batch, tensor.I64)
}

// Pinv is torch.linalg.pinv(A, atol=, rtol=, hermitian=) without
// autograd: the Moore–Penrose pseudo-inverse [..., n, m] of A [..., m, n],
// V diag(1/σ_i) Uᵀ over the singular values σ_i > max(atol, rtol·σ_max)
// (xGESDD); with hermitian, from the eigendecomposition of the symmetric
// A (xSYEVD, lower triangle), keeping eigenvalues |λ_i| above the cut-off.
func Pinv(A *T, tol Tol, hermitian bool) (*T, error) {
	if A.Dim() < 2 || !(A.DType() == tensor.F32 || A.DType() == tensor.F64) {
		return nil, errorf("linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types", TorchName(A.DType()), fmtShape(A.Shape()))
	}
	sh := A.Shape()
	m, n := sh[len(sh)-2], sh[len(sh)-1]
	var U, S, Vh *T
	var err error
	if hermitian {
		if m != n {
			return nil, errorf("linalg.eigh: A must be batches of square matrices, but they are %d by %d matrices", m, n)
		}
		if S, U, err = Eigh(A, false); err != nil {
			return nil, err
		}
		Vh, _ = U.MT()
	} else if U, S, Vh, err = SVD(A, false); err != nil {
		return nil, err
	}
	k := min(m, n)
	s := S.ToFloat64s()
	inv := make([]float64, len(s))
	for b := 0; k > 0 && b < len(s)/k; b++ {
		row := s[b*k : (b+1)*k]
		smax := 0.0
		for _, v := range row {
			smax = math.Max(smax, math.Abs(v))
		}
		thr := tol.threshold(smax, m, n, A.DType())
		for i, v := range row {
			if math.Abs(v) > thr {
				inv[b*k+i] = 1 / v
			}
		}
	}
	Sinv, err := tensor.FromFloat64s(inv, S.Shape(), A.DType())
	if err != nil {
		return nil, err
	}
	if Sinv, err = Sinv.Unsqueeze(Sinv.Dim() - 1); err != nil {
		return nil, err
	}
	V, _ := Vh.MT()
	VS, err := tensor.Mul(V, Sinv)
	if err != nil {
		return nil, err
	}
	Ut, _ := U.MT()
	return tensor.Matmul(VS, Ut)
}

func fmtShape(s []int) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
