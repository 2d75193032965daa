package tensor

import "math"

// Scans computed row by row in float64 (logcumsumexp and the backward
// kernels of cumprod and logcumsumexp). Every input is viewed with dim
// moved last; f sees one 1-D row of each input and fills the output row.

// mapRowsAlong applies f to each 1-D slice along dim of the same-shaped ins
// and returns the rows f wrote, shaped like ins[0], in dtype dt. A 0-d
// input is one row of one element.
func mapRowsAlong(dim int, dt DType, ins []*Tensor, f func(out []float64, rows [][]float64)) (*Tensor, error) {
	nd := len(ins[0].shape)
	d, err := wrapDim(dim, nd)
	if err != nil {
		return nil, err
	}
	data := make([][]float64, len(ins))
	var moved []int
	for i, t := range ins {
		if !shapeEq(t.shape, ins[0].shape) {
			return nil, errorf(RuntimeError, "mapRowsAlong: shapes %s and %s differ", fmtList(ins[0].shape), fmtList(t.shape))
		}
		m := t
		if nd > 0 {
			if m, err = t.Movedim([]int{d}, []int{nd - 1}); err != nil {
				return nil, err
			}
		}
		moved = m.shape
		data[i] = m.ToFloat64s()
	}
	total := numel(moved)
	n := 1
	if nd > 0 {
		n = moved[nd-1]
	}
	out := make([]float64, total)
	rows := make([][]float64, len(ins))
	for off := 0; n > 0 && off < total; off += n {
		for i := range data {
			rows[i] = data[i][off : off+n]
		}
		f(out[off:off+n], rows)
	}
	r, err := FromFloat64s(out, moved, dt)
	if err != nil || nd == 0 {
		return r, err
	}
	r, err = r.Movedim([]int{nd - 1}, []int{d})
	if err != nil {
		return nil, err
	}
	return r.Contiguous(), nil
}

// CumprodBackward is the gradient of cumprod(x, dim) for the output
// gradient g: grad_k = sum_{j>=k} g_j prod_{i<=j, i!=k} x_i, computed
// exactly when x has zeros (PyTorch's cumprod_backward): before the first
// zero z of a row it is (sum_{j>=k} g_j y_j) / x_k, at z the products
// skip x_z, and after z it is 0. The result has x's dtype.
func CumprodBackward(x, g *Tensor, dim int) (*Tensor, error) {
	return mapRowsAlong(dim, x.dtype, []*Tensor{x, g}, func(out []float64, rows [][]float64) {
		xs, gs := rows[0], rows[1]
		n := len(xs)
		z := n
		for i, v := range xs {
			if v == 0 {
				z = i
				break
			}
		}
		// prefix products y_j for j < z, and the suffix sums of g_j y_j
		prefix := 1.0
		ys := make([]float64, z)
		for j := 0; j < z; j++ {
			prefix *= xs[j]
			ys[j] = prefix
		}
		acc := 0.0
		for k := z - 1; k >= 0; k-- {
			acc += gs[k] * ys[k]
			out[k] = acc / xs[k]
		}
		if z == n {
			return
		}
		// at the first zero: prod_{i<z} x_i times the running products after z
		before := 1.0
		if z > 0 {
			before = ys[z-1]
		}
		sum, run := 0.0, before
		for j := z; j < n; j++ {
			if j > z {
				run *= xs[j]
			}
			sum += gs[j] * run
		}
		out[z] = sum
		for k := z + 1; k < n; k++ {
			out[k] = 0
		}
	})
}

// LogCumSumExp returns log(cumsum(exp(x))) along dim, computed stably
// (a running max); integer inputs give the default float dtype.
func LogCumSumExp(x *Tensor, dim int) (*Tensor, error) {
	dt := x.dtype
	if !dt.IsFloat() {
		dt = DefaultFloat
	}
	return mapRowsAlong(dim, dt, []*Tensor{x}, func(out []float64, rows [][]float64) {
		acc := math.Inf(-1)
		for i, v := range rows[0] {
			acc = logAddExp(acc, v)
			out[i] = acc
		}
	})
}

// logAddExp is log(exp(a) + exp(b)) without overflow (NaN propagates;
// -inf + -inf is -inf, inf + inf is inf).
func logAddExp(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	m := math.Max(a, b)
	if math.IsInf(m, 0) {
		return m
	}
	return m + math.Log1p(math.Exp(-math.Abs(a-b)))
}

// LogCumSumExpBackward is the gradient of y = logcumsumexp(x, dim):
// grad_k = sum_{j>=k} g_j exp(x_k - y_j), accumulated in log space
// separately for the positive and negative g_j so that it cannot
// overflow. The result has x's dtype.
func LogCumSumExpBackward(x, y, g *Tensor, dim int) (*Tensor, error) {
	return mapRowsAlong(dim, x.dtype, []*Tensor{x, y, g}, func(out []float64, rows [][]float64) {
		xs, ys, gs := rows[0], rows[1], rows[2]
		pos, neg := math.Inf(-1), math.Inf(-1)
		for k := len(xs) - 1; k >= 0; k-- {
			switch gk := gs[k]; {
			case gk > 0:
				pos = logAddExp(pos, math.Log(gk)-ys[k])
			case gk < 0:
				neg = logAddExp(neg, math.Log(-gk)-ys[k])
			case gk != gk:
				pos = math.NaN()
			}
			out[k] = math.Exp(xs[k]+pos) - math.Exp(xs[k]+neg)
		}
	})
}
