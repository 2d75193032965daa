package tensor

// LogSoftmaxPick returns log_softmax(x, -1)[i, cols[i]] as float64 for
// each row i of a 1-D ([C], one row) or 2-D ([rows, C]) f32/f64 tensor x,
// and 0 where cols[i] < 0: the bits LogSoftmax(x, x.Dim()-1) holds there
// (the same row kernel, cpu.LogSoftmaxRowsF32/F64, run row by row into a
// one-row scratch buffer), without writing the rows×C result, for a
// cross_entropy whose log-probabilities are not kept for a backward pass.
// ok is false, with nothing computed, when the fast kernels do not apply
// (other dtypes, fast paths off, an empty x): the caller then gathers from
// LogSoftmax. Errors as GatherRows (a column out of range, checked first).
func LogSoftmaxPick(x *Tensor, cols []int) (vals []float64, ok bool, err error) {
	rows, c, err := rowsOf(x.shape, len(cols))
	if err != nil {
		return nil, false, err
	}
	for _, j := range cols {
		if j >= c {
			return nil, false, errorf("RuntimeError", "gather_rows: column %d out of range for %d columns", j, c)
		}
	}
	if !fastPathsOn() || (x.dtype != F32 && x.dtype != F64) || x.Numel() == 0 {
		return nil, false, nil
	}
	xc := x.Contiguous()
	vals = make([]float64, rows)
	switch x.dtype {
	case F32:
		logSoftmaxPick(opsF32, xc.storage.F32()[xc.offset:xc.offset+rows*c], c, cols, vals)
	default:
		logSoftmaxPick(opsF64, xc.storage.F64()[xc.offset:xc.offset+rows*c], c, cols, vals)
	}
	return vals, true, nil
}

func logSoftmaxPick[T vfloat](k *vecOps[T], x []T, c int, cols []int, vals []float64) {
	parallelTasks(len(cols), 3*c, grainCompute, func(r0, r1 int) {
		buf := make([]T, c)
		for r := r0; r < r1; r++ {
			if cols[r] < 0 {
				continue
			}
			k.logSoftmax(buf, x[r*c:(r+1)*c], 1, c)
			vals[r] = float64(buf[cols[r]])
		}
	})
}
