package tensor

// Typed cumsum/cumprod kernels. A tensor (made contiguous first when it is
// not: one copy beats a strided gather per row) is viewed as [outer, n,
// inner] around the scanned dim; inner == 1 scans each contiguous row
// with one running accumulator, inner > 1 adds whole rows of inner
// elements into an accumulator row. Floats accumulate in float64 (as
// PyTorch's CPU kernel, whose accumulation type for float is double) and
// round once per output; integer and bool inputs accumulate in int64
// (wrapping) and give i64. Outer rows run in parallel.

// fastScan returns the running sum (or product) of t along dim d, or nil
// for dtypes without a typed kernel (f16, bf16) and for empty or 0-d t.
func fastScan(t *Tensor, d int, prod bool) *Tensor {
	if !fastPathsOn() || len(t.shape) == 0 || t.Numel() == 0 {
		return nil
	}
	c := t.Contiguous()
	outer, n, inner := 1, c.shape[d], 1
	for i, s := range c.shape {
		if i < d {
			outer *= s
		} else if i > d {
			inner *= s
		}
	}
	s := c.storage
	o := c.offset
	switch c.dtype {
	case F32:
		out := empty(c.shape, F32)
		scanRows[float32, float64](s.F32()[o:], out.storage.F32(), outer, n, inner, prod)
		return out
	case F64:
		out := empty(c.shape, F64)
		scanRows[float64, float64](s.F64()[o:], out.storage.F64(), outer, n, inner, prod)
		return out
	}
	if c.dtype.IsFloat() {
		return nil
	}
	out := empty(c.shape, I64)
	od := out.storage.I64()
	switch c.dtype {
	case I64:
		scanRows[int64, int64](s.I64()[o:], od, outer, n, inner, prod)
	case I32:
		scanRows[int32, int64](s.I32()[o:], od, outer, n, inner, prod)
	case I16:
		scanRows[int16, int64](s.I16()[o:], od, outer, n, inner, prod)
	case I8:
		scanRows[int8, int64](s.I8()[o:], od, outer, n, inner, prod)
	default: // U8, Bool
		scanRows[uint8, int64](s.U8()[o:], od, outer, n, inner, prod)
	}
	return out
}

// scanRows scans x ([outer, n, inner], C order) into o (same layout) with
// accumulator type A.
func scanRows[T, A, O num](x []T, o []O, outer, n, inner int, prod bool) {
	parallelTasks(outer, n*inner, parallelGrain, func(r0, r1 int) {
		var acc []A
		if inner > 1 {
			acc = make([]A, inner)
		}
		for r := r0; r < r1; r++ {
			xs := x[r*n*inner : (r+1)*n*inner]
			os := o[r*n*inner : (r+1)*n*inner]
			if inner == 1 {
				scanRow[T, A, O](xs, os, prod)
				continue
			}
			for j, v := range xs[:inner] {
				acc[j] = A(v)
				os[j] = O(acc[j])
			}
			for i := 1; i < n; i++ {
				xr := xs[i*inner : (i+1)*inner]
				or := os[i*inner : (i+1)*inner]
				if prod {
					for j, v := range xr {
						acc[j] *= A(v)
						or[j] = O(acc[j])
					}
					continue
				}
				for j, v := range xr {
					acc[j] += A(v)
					or[j] = O(acc[j])
				}
			}
		}
	})
}

// scanRow scans one contiguous row.
func scanRow[T, A, O num](x []T, o []O, prod bool) {
	o = o[:len(x)]
	if prod {
		acc := A(1)
		for i, v := range x {
			acc *= A(v)
			o[i] = O(acc)
		}
		return
	}
	var acc A
	for i, v := range x {
		acc += A(v)
		o[i] = O(acc)
	}
}
