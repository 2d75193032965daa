package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// LogSoftmaxBackward returns the gradient of y = log_softmax(x, dim) with
// respect to x, g - exp(y)·Σ_dim g, given the output y and its gradient g

// the last dim and y is contiguous; ok is false otherwise (and for other
// dtypes), leaving the caller's composed formula to it. The row sum is
// cpu.SumTorchF32's (PyTorch's sum order), exp is tensor.Exp's kernel,
// and g - e·s rounds as the composed g - (e·s): the same values as the
// composed formula, without its three temporaries.
func LogSoftmaxBackward(g, y *Tensor, dim int) (gi *Tensor, ok bool) {
	if !fastPathsOn() || (y.dtype != F32 && y.dtype != F64) || g.dtype != y.dtype || y.Dim() == 0 ||
		dim != y.Dim()-1 || !y.IsContiguous() || !sameInts(g.shape, y.shape) || y.Numel() == 0 {
		return nil, false
	}
	n := y.shape[dim]
	gi = empty(y.shape, y.dtype)
	if y.dtype == F32 {
		logSoftmaxBackwardRows(flatData[float32](g), flatData[float32](y), typed[float32](gi.storage), n,
			cpu.SumTorchF32, cpu.ExpF32, cpu.MulScalarF32, cpu.AddF32)
	} else {
		logSoftmaxBackwardRows(flatData[float64](g), flatData[float64](y), typed[float64](gi.storage), n,
			cpu.SumTorchF64, cpu.ExpF64, cpu.MulScalarF64, cpu.AddF64)
	}
	return gi, true
}

func logSoftmaxBackwardRows[T vfloat](g, y, dst []T, n int, sum func([]T) T, exp func(dst, x []T), mulScalar func(dst, a []T, s T), add func(dst, a, b []T)) {
	parallelTasks(len(dst)/n, 3*n, grainMem, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			gr, d := g[r*n:(r+1)*n], dst[r*n:(r+1)*n]
			s := sum(gr)
			exp(d, y[r*n:(r+1)*n])
			mulScalar(d, d, -s)
			add(d, d, gr)
		}
	})
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
