// Package cpu holds tsr's CPU kernels: GEMM and elementwise/reduction
// kernels, with a pure-Go reference for every entry.
package cpu

// SgemmBatched computes, for each batch index q in [0, batch),
//
//	C_q = alpha * A_q * B_q + beta * C_q
//
// in float32, where A_q is m×k with element (i, p) at a[q*bsA + i*rsA + p*csA],
// B_q is k×n with element (p, j) at b[q*bsB + p*rsB + j*csB] and C_q is m×n
// with element (i, j) at c[q*bsC + i*rsC + j*csC]. Strides are in elements
// and must be >= 0; a stride of 0 (a broadcast operand) is allowed for A and
// B (and for bsA/bsB), never for C. Transposes are expressed by swapping
// the row and column strides, so no operand is ever copied by the caller.
// When beta == 0, C is not read (NaNs in C do not propagate), as in BLAS.
func SgemmBatched(batch, m, n, k int, alpha float32,
	a []float32, bsA, rsA, csA int,
	b []float32, bsB, rsB, csB int,
	beta float32,
	c []float32, bsC, rsC, csC int) {
	for q := 0; q < batch; q++ {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var acc float32
				for p := 0; p < k; p++ {
					acc += a[q*bsA+i*rsA+p*csA] * b[q*bsB+p*rsB+j*csB]
				}
				ci := q*bsC + i*rsC + j*csC
				if beta == 0 {
					c[ci] = alpha * acc
				} else {
					c[ci] = alpha*acc + beta*c[ci]
				}
			}
		}
	}
}

// DgemmBatched is SgemmBatched in float64.
func DgemmBatched(batch, m, n, k int, alpha float64,
	a []float64, bsA, rsA, csA int,
	b []float64, bsB, rsB, csB int,
	beta float64,
	c []float64, bsC, rsC, csC int) {
	for q := 0; q < batch; q++ {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				var acc float64
				for p := 0; p < k; p++ {
					acc += a[q*bsA+i*rsA+p*csA] * b[q*bsB+p*rsB+j*csB]
				}
				ci := q*bsC + i*rsC + j*csC
				if beta == 0 {
					c[ci] = alpha * acc
				} else {
					c[ci] = alpha*acc + beta*c[ci]
				}
			}
		}
	}
}
