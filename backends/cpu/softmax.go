package cpu

import "math"

// Row-wise softmax family, built on the registered primitives
// (max, exp_shift_sum, add_scalar, mul_scalar), so they run at the speed of
// the active tier. x and dst hold rows×cols elements in row-major order;
// each row is reduced independently (PyTorch softmax/log_softmax/logsumexp
// over the last dimension).
//
// Numerics follow PyTorch: the row max m is subtracted before exponentiating
// (no overflow), log_softmax is (x - m) - log Σ e^(x-m). A row that contains
// NaN gives NaN; a row of all -Inf gives NaN for softmax/log_softmax and
// -Inf for logsumexp; a row whose max is +Inf gives +Inf for logsumexp.

func checkRows(name string, ldst, lx, rows, cols, dstPerRow int) {
	if rows < 0 || cols < 0 {
		panic("cpu." + name + ": negative rows or cols")
	}
	if lx < rows*cols || ldst < rows*dstPerRow {
		panic("cpu." + name + ": slice shorter than rows*cols")
	}
}

// torchOrderMax bounds the softmax/log_softmax inputs (rows·cols) summed in
// PyTorch's order; larger ones use the kernels' own sums.
const torchOrderMax = 1 << 16

func softmaxRowsComposite[T float](k *kernels[T], dst, x []T, rows, cols int, logOut bool) {
	exact := rows*cols <= torchOrderMax
	for r := 0; r < rows; r++ {
		xr := x[r*cols : (r+1)*cols]
		dr := dst[r*cols : (r+1)*cols]
		m := k.max(xr)
		s := k.expShiftSum(dr, xr, m)
		if exact || !logOut {
			s = ReduceSumTorch(dr) // PyTorch's order: bit-identical rows
		}
		if logOut {
			// PyTorch: (x - max) - log(sum), the log SLEEF's.
			lg := logTorch(s)
			if !exact {
				lg = T(math.Log(float64(s)))
			}
			k.addScalar(dr, xr, -m)
			k.addScalar(dr, dr, -lg)
		} else {
			k.mulScalar(dr, dr, 1/s)
		}
	}
}

// ReduceSumTorch is Σx in the order of PyTorch 1.13's vec::reduce_all over
// AVX2 vectors (the row sums of its CPU softmax, log_softmax and
// log_softmax_backward): reduceSumTorchF32 or reduceSumTorchF64 by T.
func ReduceSumTorch[T float](x []T) T {
	switch v := any(x).(type) {
	case []float32:
		return T(reduceSumTorchF32(v))
	case []float64:
		return T(reduceSumTorchF64(v))
	}
	panic("unreachable")
}

// logTorch is ln s as PyTorch's vectorised CPU log computes it: SLEEF's
// logf_u10 / log_u10 (LogSleefF32, LogSleefF64).
func logTorch[T float](s T) T {
	if v, ok := any(s).(float32); ok {
		return T(LogSleefF32(v))
	}
	return T(LogSleefF64(float64(s)))
}

// reduceSumTorchF64 is Σx in the order of PyTorch's vec::reduce_all over
// 4-lane AVX2 float64 vectors (the row sum of its CPU softmax and
// log_softmax): fewer than 4 elements are added left to right; otherwise
// lane i accumulates x[i], x[i+4], ... (a partial last chunk adds to its
// low lanes only), and the lanes are combined in order, ((a0+a1)+a2)+a3.
func reduceSumTorchF64(x []float64) float64 {
	n := len(x)
	if n < 4 {
		var s float64
		if n > 0 {
			s = x[0]
		}
		for _, v := range x[min(n, 1):] {
			s += v
		}
		return s
	}
	a := [4]float64(x[:4]) // the first vector is loaded, not added to zero (-0 stays -0)
	i := 4
	for ; i+4 <= n; i += 4 {
		for l := range a {
			a[l] += x[i+l]
		}
	}
	for l := 0; i+l < n; l++ {
		a[l] += x[i+l]
	}
	return ((a[0] + a[1]) + a[2]) + a[3]
}

func expShiftRowsComposite[T float](k *kernels[T], dst, x []T, rows, cols int, inv []T) {
	if cols == 0 {
		return
	}
	for r := 0; r < rows; r++ {
		xr := x[r*cols : (r+1)*cols]
		inv[r] = 1 / k.expShiftSum(dst[r*cols:(r+1)*cols], xr, k.max(xr))
	}
}

// reduceSumTorchF32 is Σx in the order of PyTorch's vec::reduce_all over
// 8-lane AVX2 vectors (the row sum of its CPU softmax): fewer than 8
// elements are added left to right; otherwise lane i accumulates x[i],
// x[i+8], x[i+16], ... (a partial last chunk adds to its low lanes only),
// and the 8 lanes are combined as ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
// The AVX-512 softmax kernel sums in the same order.
func reduceSumTorchF32(x []float32) float32 {
	n := len(x)
	if n < 8 {
		var s float32
		if n > 0 {
			s = x[0]
		}
		for _, v := range x[min(n, 1):] {
			s += v
		}
		return s
	}
	a := [8]float32(x[:8]) // the first vector is loaded, not added to zero (-0 stays -0)
	i := 8
	for ; i+8 <= n; i += 8 {
		for l := range a {
			a[l] += x[i+l]
		}
	}
	for l := 0; i+l < n; l++ {
		a[l] += x[i+l]
	}
	return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]))
}

// logSumExpRows is PyTorch's logsumexp over the last dim (at::logsumexp):
// m = the row max, e = exp(x - m), s = sum(e) in at::sum's order
// (SumTorchF32/F64), then log(s) + m (m taken as 0 when infinite, so a
// row whose max is ±Inf gives log(sum(exp(x - m))): +Inf for +Inf alone,
// NaN past it, -Inf for a row of -Inf). An empty row gives -Inf.
func logSumExpRows[T float](k *kernels[T], dst, x []T, rows, cols int) {
	var scratch [1024]T
	buf := scratch[:]
	if cols > len(buf) {
		buf = make([]T, cols)
	}
	e := buf[:cols]
	for r := 0; r < rows; r++ {
		xr := x[r*cols : (r+1)*cols]
		if cols == 0 {
			dst[r] = T(math.Inf(-1))
			continue
		}
		m := k.max(xr)
		if math.IsInf(float64(m), 0) {
			dst[r] = m
			continue
		}
		k.expShiftSum(e, xr, m)
		var s T
		switch v := any(e).(type) {
		case []float32:
			s = T(SumTorchF32(v))
		case []float64:
			s = T(SumTorchF64(v))
		}
		dst[r] = logTorch(s) + m
	}
}

// SoftmaxRowsF32 sets dst[r,:] = softmax(x[r,:]) for each of rows rows of
// cols elements (row-major, contiguous). dst may be x. Panics if a slice is
// shorter than rows*cols.
func SoftmaxRowsF32(dst, x []float32, rows, cols int) {
	checkRows("SoftmaxRowsF32", len(dst), len(x), rows, cols, cols)
	kF32.softmaxRows(dst, x, rows, cols)
}

// ExpShiftRowsF32 is SoftmaxRowsF32 without its last pass: it sets
// dst[r,:] = exp(x[r,:] - max(x[r,:])) and inv[r] = 1/Σ dst[r,:], so that
// inv[r]·dst[r,:] is the softmax of row r (NaN rows as in SoftmaxRowsF32:
// inv[r] is NaN). A caller that multiplies the probabilities by a matrix
// scales the smaller product by inv instead (attention). dst may be x.
// cols == 0 writes nothing. Panics if dst or x is shorter than rows*cols
// or inv shorter than rows.
func ExpShiftRowsF32(dst, x []float32, rows, cols int, inv []float32) {
	checkRows("ExpShiftRowsF32", len(dst), len(x), rows, cols, cols)
	checkRows("ExpShiftRowsF32", len(inv), 0, rows, 0, 1)
	kF32.expShiftRows(dst, x, rows, cols, inv)
}

// LogSoftmaxRowsF32 sets dst[r,:] = log_softmax(x[r,:]) = x - m - log Σ e^(x-m).
// dst may be x. Panics if a slice is shorter than rows*cols.
func LogSoftmaxRowsF32(dst, x []float32, rows, cols int) {
	checkRows("LogSoftmaxRowsF32", len(dst), len(x), rows, cols, cols)
	softmaxRowsComposite(&kF32, dst, x, rows, cols, true)
}

// LogSumExpRowsF32 sets dst[r] = log Σ_c e^x[r,c] (dst has rows elements),
// computed as m + log Σ e^(x-m) with m the row max; an empty row gives -Inf.
// Panics if x is shorter than rows*cols or dst shorter than rows.
func LogSumExpRowsF32(dst []float32, x []float32, rows, cols int) {
	checkRows("LogSumExpRowsF32", len(dst), len(x), rows, cols, 1)
	logSumExpRows(&kF32, dst, x, rows, cols)
}

// SoftmaxRowsF64 is SoftmaxRowsF32 in float64.
func SoftmaxRowsF64(dst, x []float64, rows, cols int) {
	checkRows("SoftmaxRowsF64", len(dst), len(x), rows, cols, cols)
	kF64.softmaxRows(dst, x, rows, cols)
}

// ExpShiftRowsF64 is ExpShiftRowsF32 in float64.
func ExpShiftRowsF64(dst, x []float64, rows, cols int, inv []float64) {
	checkRows("ExpShiftRowsF64", len(dst), len(x), rows, cols, cols)
	checkRows("ExpShiftRowsF64", len(inv), 0, rows, 0, 1)
	kF64.expShiftRows(dst, x, rows, cols, inv)
}

// LogSoftmaxRowsF64 is LogSoftmaxRowsF32 in float64.
func LogSoftmaxRowsF64(dst, x []float64, rows, cols int) {
	checkRows("LogSoftmaxRowsF64", len(dst), len(x), rows, cols, cols)
	softmaxRowsComposite(&kF64, dst, x, rows, cols, true)
}

// LogSumExpRowsF64 is LogSumExpRowsF32 in float64.
func LogSumExpRowsF64(dst []float64, x []float64, rows, cols int) {
	checkRows("LogSumExpRowsF64", len(dst), len(x), rows, cols, 1)
	logSumExpRows(&kF64, dst, x, rows, cols)
}
