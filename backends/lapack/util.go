package lapack

import "math"

// transpose returns the cols×rows row-major transpose of the rows×cols
// row-major matrix src (equivalently: the column-major copy of src).
func transpose[T Float](rows, cols int, src []T) []T {
	dst := make([]T, rows*cols)
	transposeInto(dst, src, rows, cols)
	return dst
}

// transposeInto writes the transpose of the rows×cols row-major src into dst
// (cols×rows), in 32×32 tiles to stay in cache.
func transposeInto[T Float](dst, src []T, rows, cols int) {
	const bs = 32
	for i0 := 0; i0 < rows; i0 += bs {
		i1 := min(i0+bs, rows)
		for j0 := 0; j0 < cols; j0 += bs {
			j1 := min(j0+bs, cols)
			for i := i0; i < i1; i++ {
				row := src[i*cols : i*cols+cols]
				for j := j0; j < j1; j++ {
					dst[j*rows+i] = row[j]
				}
			}
		}
	}
}

// transposeSquare transposes the n×n matrix a in place.
func transposeSquare[T Float](n int, a []T) {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a[i*n+j], a[j*n+i] = a[j*n+i], a[i*n+j]
		}
	}
}

func clone[T Float](a []T) []T {
	c := make([]T, len(a))
	copy(c, a)
	return c
}

func to64[T Float](a []T) []float64 {
	if a == nil {
		return nil
	}
	c := make([]float64, len(a))
	for i, v := range a {
		c[i] = float64(v)
	}
	return c
}

func from64[T Float](a []float64) []T {
	if a == nil {
		return nil
	}
	c := make([]T, len(a))
	for i, v := range a {
		c[i] = T(v)
	}
	return c
}

func identity[T Float](n int) []T {
	a := make([]T, n*n)
	for i := 0; i < n; i++ {
		a[i*n+i] = 1
	}
	return a
}

func allFinite[T Float](a []T) bool {
	for _, v := range a {
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// triangleFinite reports whether the lower (or upper) triangle of the n×n
// matrix a, diagonal included, is free of NaN and Inf.
func triangleFinite[T Float](n int, a []T, lower bool) bool {
	for i := 0; i < n; i++ {
		lo, hi := 0, i+1
		if !lower {
			lo, hi = i, n
		}
		if !allFinite(a[i*n+lo : i*n+hi]) {
			return false
		}
	}
	return true
}

// eps returns the machine epsilon of T (2⁻²³ or 2⁻⁵²), as torch.finfo.eps.
func eps[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-23
	}
	return 0x1p-52
}

func fill[T Float](a []T, v T) []T {
	for i := range a {
		a[i] = v
	}
	return a
}
