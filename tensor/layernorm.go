package tensor

import (
	"math"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Fused row-wise layer normalization (ATen's LayerNormKernel and
// LayerNormBackwardKernel, aten/src/ATen/native/cpu/layer_norm_kernel.cpp),
// for contiguous float32/float64 input viewed as M rows of N elements.
//
// Per row, in the input's precision as ATen's float path (opmath float):
//
//	mean = Σx / N
//	var  = Σ(x - mean)² / N                  (biased)
//	rstd = 1 / sqrt(var + eps)
//	y    = (x - mean)·rstd·w + b
//
// The sums are the vector kernels' (cpu.SumF32, cpu.DotF32: float32 lanes
// with float64 block sums), so mean and var are at least as accurate as
// ATen's Welford cascade; y differs from PyTorch's by about 1 ulp (ATen
// evaluates x·rstd + (-rstd·mean), which loses digits when |mean| >> std).
// Each row stays in L1 over its passes, so the op is one read of x and
// one write of y from memory.

type lnKernels[T vfloat] struct {
	sum       func([]T) T
	dot       func(x, y []T) T
	addScalar func(dst, a []T, s T)
	mulScalar func(dst, a []T, s T)
	mul       func(dst, a, b []T)
	add       func(dst, a, b []T)
	axpy      func(dst []T, alpha T, x []T)
}

var (
	lnF32 = &lnKernels[float32]{cpu.SumF32, cpu.DotF32, cpu.AddScalarF32, cpu.MulScalarF32, cpu.MulF32, cpu.AddF32, cpu.AxpyF32}
	lnF64 = &lnKernels[float64]{cpu.SumF64, cpu.DotF64, cpu.AddScalarF64, cpu.MulScalarF64, cpu.MulF64, cpu.AddF64, cpu.AxpyF64}
)

// LayerNormSupported reports whether LayerNorm and LayerNormBackward
// handle x: a float32 or float64 tensor (others are the caller's composed
// path).
func LayerNormSupported(x *Tensor) bool {
	return (x.dtype == F32 || x.dtype == F64) && fastPathsOn()
}

// flatData returns t's elements as a contiguous slice of T, copying only
// when t is not contiguous.
func flatData[T vfloat](t *Tensor) []T {
	if !t.IsContiguous() {
		t = t.Contiguous()
	}
	return typed[T](t.storage)[t.offset : t.offset+t.Numel()]
}

// LayerNorm normalizes each of the M = x.Numel()/n rows of n trailing
// elements of x (float32 or float64, any layout: a strided x is read
// through a contiguous copy) and applies the optional affine weight w
// and bias b (n elements each, x's dtype). It returns y (x's shape,
// contiguous) and the per-row mean and rstd = 1/sqrt(var + eps) as 1-D
// tensors of M elements, which LayerNormBackward takes. Errors: an
// unsupported dtype, n <= 0 or not dividing x.Numel(), or a w/b of the
// wrong size or dtype (RuntimeError).
func LayerNorm(x *Tensor, n int, w, b *Tensor, eps float64) (y, mean, rstd *Tensor, err error) {
	if err := lnCheck(x, n, w, b); err != nil {
		return nil, nil, nil, err
	}
	m := x.Numel() / n
	y = empty(x.shape, x.dtype)
	mean, rstd = empty([]int{m}, x.dtype), empty([]int{m}, x.dtype)
	switch x.dtype {
	case F32:
		layerNormRows(lnF32, y, x, w, b, mean, rstd, n, float32(eps))
	default:
		layerNormRows(lnF64, y, x, w, b, mean, rstd, n, eps)
	}
	return y, mean, rstd, nil
}

func lnCheck(x *Tensor, n int, ps ...*Tensor) error {
	if x.dtype != F32 && x.dtype != F64 {
		return errorf("RuntimeError", "layer_norm: fused kernel supports float32 and float64, got %s", x.dtype)
	}
	if n <= 0 || x.Numel()%n != 0 {
		return errorf("RuntimeError", "layer_norm: normalized size %d does not divide input of %d elements", n, x.Numel())
	}
	for _, p := range ps {
		if p != nil && (p.Numel() != n || p.dtype != x.dtype) {
			return errorf("RuntimeError", "layer_norm: expected weight and bias of %d %s elements, got %d %s", n, x.dtype, p.Numel(), p.dtype)
		}
	}
	return nil
}

func layerNormRows[T vfloat](k *lnKernels[T], y, x, w, b, mean, rstd *Tensor, n int, eps T) {
	xs, ys := flatData[T](x), typed[T](y.storage)
	mu, rs := typed[T](mean.storage), typed[T](rstd.storage)
	var ws, bs []T
	if w != nil {
		ws = flatData[T](w)
	}
	if b != nil {
		bs = flatData[T](b)
	}
	rows := len(mu)
	fn := float64(n)
	parallelTasks(rows, 4*n, grainMem, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			xr, yr := xs[r*n:(r+1)*n], ys[r*n:(r+1)*n]
			m := T(float64(k.sum(xr)) / fn)
			k.addScalar(yr, xr, -m)
			v := T(float64(k.dot(yr, yr)) / fn)
			// 1/sqrt in T as ATen's float path: sqrt through float64 is
			// correctly rounded for float32 too
			s := T(1) / T(math.Sqrt(float64(v+eps)))
			k.mulScalar(yr, yr, s)
			if ws != nil {
				k.mul(yr, yr, ws)
			}
			if bs != nil {
				k.add(yr, yr, bs)
			}
			mu[r], rs[r] = m, s
		}
	})
}

// LayerNormBackward returns the gradients of LayerNorm's y with respect
// to x, w and b given dy (y's shape, any layout) and the forward's mean
// and rstd, by ATen's formulas with x̂ = (x - mean)·rstd and g = dy·w:
//
//	dx = rstd·(g - mean(g) - x̂·mean(g·x̂))     (means over each row)
//	dw = Σ_rows dy·x̂,  db = Σ_rows dy           (shape [n], flattened)
//
// Only the gradients asked for (needX, needW, needB) are computed; the
// others are nil. dw and db accumulate over rows in the input's precision,
// as ATen's per-thread buffers do. Errors as LayerNorm.
func LayerNormBackward(dy, x, mean, rstd, w *Tensor, n int, needX, needW, needB bool) (dx, dw, db *Tensor, err error) {
	if err := lnCheck(x, n, w); err != nil {
		return nil, nil, nil, err
	}
	if dy.dtype != x.dtype || dy.Numel() != x.Numel() || mean.Numel()*n != x.Numel() || rstd.Numel()*n != x.Numel() {
		return nil, nil, nil, errorf("RuntimeError", "layer_norm backward: mismatched gradient or statistics")
	}
	if needX {
		dx = empty(x.shape, x.dtype)
	}
	if needW {
		dw = zeros([]int{n}, x.dtype)
	}
	if needB {
		db = zeros([]int{n}, x.dtype)
	}
	switch x.dtype {
	case F32:
		layerNormBackwardRows(lnF32, dy, x, mean, rstd, w, dx, dw, db, n)
	default:
		layerNormBackwardRows(lnF64, dy, x, mean, rstd, w, dx, dw, db, n)
	}
	return dx, dw, db, nil
}

func layerNormBackwardRows[T vfloat](k *lnKernels[T], dy, x, mean, rstd, w, dx, dw, db *Tensor, n int) {
	xs, gs := flatData[T](x), flatData[T](dy)
	mu, rs := flatData[T](mean), flatData[T](rstd)
	var ws, dxs, dws, dbs []T
	if w != nil {
		ws = flatData[T](w)
	}
	if dx != nil {
		dxs = typed[T](dx.storage)
	}
	if dw != nil {
		dws = typed[T](dw.storage)
	}
	if db != nil {
		dbs = typed[T](db.storage)
	}
	rows := len(mu)
	fn := T(n)
	// The row passes of dx run in parallel; dw and db are column sums,
	// accumulated by one goroutine (a single pass over dy and x̂).
	chunk := func(r0, r1 int, dwAcc, dbAcc []T) {
		buf := make([]T, 2*n)
		xh, gb := buf[:n], buf[n:]
		for r := r0; r < r1; r++ {
			xr, gr := xs[r*n:(r+1)*n], gs[r*n:(r+1)*n]
			s := rs[r]
			k.addScalar(xh, xr, -mu[r])
			k.mulScalar(xh, xh, s)
			if dbAcc != nil {
				k.add(dbAcc, dbAcc, gr)
			}
			if dwAcc != nil {
				k.mul(gb, gr, xh)
				k.add(dwAcc, dwAcc, gb)
			}
			if dxs == nil {
				continue
			}
			g := gr
			if ws != nil {
				k.mul(gb, gr, ws)
				g = gb
			}
			sg, sgx := k.sum(g), k.dot(g, xh)
			dr := dxs[r*n : (r+1)*n]
			k.mulScalar(dr, g, s)
			k.axpy(dr, -s*sgx/fn, xh)
			k.addScalar(dr, dr, -s*sg/fn)
		}
	}
	if dws == nil && dbs == nil {
		parallelTasks(rows, 6*n, grainMem, func(r0, r1 int) { chunk(r0, r1, nil, nil) })
		return
	}
	// Fixed row chunks, each with its own dw/db buffers added in chunk
	// order afterwards: the result does not depend on scheduling.
	nc := min(GetNumThreads(), max(1, rows*n/grainMem))
	if nc <= 1 {
		chunk(0, rows, dws, dbs)
		return
	}
	bounds := make([]int, nc+1)
	for i := range bounds {
		bounds[i] = rows * i / nc
	}
	accs := make([][]T, nc)
	for i := 1; i < nc; i++ {
		accs[i] = make([]T, 2*n)
	}
	runChunks(bounds, func(i, r0, r1 int) {
		if i == 0 {
			chunk(r0, r1, dws, dbs)
			return
		}
		var a, b []T
		if dws != nil {
			a = accs[i][:n]
		}
		if dbs != nil {
			b = accs[i][n:]
		}
		chunk(r0, r1, a, b)
	})
	for i := 1; i < nc; i++ {
		if dws != nil {
			k.add(dws, dws, accs[i][:n])
		}
		if dbs != nil {
			k.add(dbs, dbs, accs[i][n:])
		}
	}
}

// ScatterRows returns a zero tensor of shape ([rows, C], or [C] for one
// row) and float dtype dt with element [i, cols[i]] set to vals[i] for
// each row i whose cols[i] >= 0 (the gradient of a per-row gather such
// as nll_loss). Errors: a shape that is not 1-D or 2-D, len(cols) or
// len(vals) not the row count, a column out of range, or a non-float dt
// (RuntimeError).
func ScatterRows(shape []int, dt DType, cols []int, vals []float64) (*Tensor, error) {
	rows, c, err := rowsOf(shape, len(cols))
	if err != nil {
		return nil, err
	}
	if len(vals) != rows || !dt.IsFloat() {
		return nil, errorf("RuntimeError", "scatter_rows: expected %d values of a float dtype, got %d of %s", rows, len(vals), dt)
	}
	t := zeros(shape, dt)
	for i, j := range cols {
		if j < 0 {
			continue
		}
		if j >= c {
			return nil, errorf("RuntimeError", "scatter_rows: column %d out of range for %d columns", j, c)
		}
		storeF64(t.storage, dt, i*c+j, vals[i])
	}
	return t, nil
}

// GatherRows returns x[i, cols[i]] as float64 for each row i of a 1-D
// ([C], one row) or 2-D ([rows, C]) float tensor x of any layout, and 0
// where cols[i] < 0. Errors as ScatterRows.
func GatherRows(x *Tensor, cols []int) ([]float64, error) {
	rows, c, err := rowsOf(x.shape, len(cols))
	if err != nil {
		return nil, err
	}
	out := make([]float64, rows)
	rs, cs := 0, x.strides[len(x.strides)-1]
	if len(x.shape) == 2 {
		rs = x.strides[0]
	}
	for i, j := range cols {
		if j < 0 {
			continue
		}
		if j >= c {
			return nil, errorf("RuntimeError", "gather_rows: column %d out of range for %d columns", j, c)
		}
		out[i] = loadF64(x.storage, x.dtype, x.offset+i*rs+j*cs)
	}
	return out, nil
}

func rowsOf(shape []int, n int) (rows, c int, err error) {
	switch len(shape) {
	case 1:
		rows, c = 1, shape[0]
	case 2:
		rows, c = shape[0], shape[1]
	default:
		return 0, 0, errorf("RuntimeError", "expected a 1-D or 2-D tensor, got %d dims", len(shape))
	}
	if n != rows {
		return 0, 0, errorf("RuntimeError", "expected %d row indices, got %d", rows, n)
	}
	return rows, c, nil
}
