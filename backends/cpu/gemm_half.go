package cpu

// Half is a 16-bit floating-point storage format for GemmHalfBatched.
type Half int

// The half formats: IEEE 754 binary16 (PyTorch's float16) and bfloat16 (the
// top half of a float32).
const (
	F16 Half = iota
	BF16
)

// GemmHalfBatched is SgemmBatched with A and B in a 16-bit format (their
// raw bits; MKL's cblas_gemm_f16f16f32 / cblas_gemm_bf16bf16f32): each
// element is widened to float32 while A and B are packed into the
// micro-kernel's panels, products accumulate in float32, and C is float32
// (callers round it once to the half format). No float32 copy of A or B
// is made: the packing buffers hold one MC×KC block of A and one KC×NC
// panel of B. Strides, batch strides and beta follow SgemmBatched.
func GemmHalfBatched(format Half, batch, m, n, k int, alpha float32,
	a []uint16, bsA, rsA, csA int,
	b []uint16, bsB, rsB, csB int,
	beta float32,
	c []float32, bsC, rsC, csC int) {
	if batch <= 0 || m <= 0 || n <= 0 {
		return
	}
	kern := sgemmKernel
	one := func(q, i0, i1, j0, j1 int) {
		mm, nn := i1-i0, j1-j0
		if mm <= 0 || nn <= 0 {
			return
		}
		cq := c[q*bsC+i0*rsC+j0*csC:]
		if k == 0 || alpha == 0 {
			scaleC(cq, mm, nn, rsC, csC, beta)
			return
		}
		gemmHalf(kern, format, mm, nn, k, alpha, a[q*bsA+i0*rsA:], rsA, csA, b[q*bsB+j0*csB:], rsB, csB, beta, cq, rsC, csC)
	}
	nt := NumThreads()
	if nt <= 1 || 2*float64(m)*float64(n)*float64(k)*float64(batch) < parallelFlops {
		for q := 0; q < batch; q++ {
			one(q, 0, m, 0, n)
		}
		return
	}
	splitGemm(nt, batch, m, n, kern.MR, kern.NR, gemmChunkCols, gemmChunkCols, one)
}

// gemmHalf is gemmPacked with both operands widened while packing (k >= 1).
func gemmHalf(kern *GemmKernel[float32], format Half, m, n, k int, alpha float32, a []uint16, rsA, csA int, b []uint16, rsB, csB int, beta float32, c []float32, rsC, csC int) {
	src := &packSource[float32]{
		// A's micro-panels are B-style panels of Aᵀ: row p, column i.
		packA: func(ap []float32, ic, pc, mc, kc int) {
			packHalf(format, ap, a, ic*rsA+pc*csA, csA, rsA, kc, mc, kern.MR)
		},
		packB: func(bp []float32, pc, jc, kc, nc int) {
			packHalf(format, bp, b, pc*rsB+jc*csB, rsB, csB, kc, nc, kern.NR)
		},
	}
	gemmPacked(kern, m, n, k, alpha, nil, 0, 0, nil, 0, 0, beta, c, rsC, csC, src)
}

// packHalf packs the rows×cols block src[base + p*ps + j*js] into panels of
// w columns, widening each element: dst[(j/w)*w*rows + p*w + j%w], the last
// panel zero-padded. Unit-stride runs (rows of B, or rows of A, which are
// panel columns) go through the vector conversion.
func packHalf(format Half, dst []float32, src []uint16, base, ps, js, rows, cols, w int) {
	widen := F16ToF32
	if format == BF16 {
		widen = BF16ToF32
	}
	var colBuf [512]float32
	for j0 := 0; j0 < cols; j0 += w {
		panel := dst[j0*rows : (j0+w)*rows]
		nc := min(w, cols-j0)
		switch {
		case js == 1:
			for p := 0; p < rows; p++ {
				row := panel[p*w : p*w+w]
				s := base + p*ps + j0
				widen(row[:nc], src[s:s+nc])
				clear(row[nc:])
			}
		case ps == 1:
			for j := 0; j < nc; j++ {
				s := base + (j0+j)*js
				for p0 := 0; p0 < rows; p0 += len(colBuf) {
					np := min(len(colBuf), rows-p0)
					col := colBuf[:np]
					widen(col, src[s+p0:s+p0+np])
					for p, v := range col {
						panel[(p0+p)*w+j] = v
					}
				}
			}
			for p := 0; p < rows; p++ {
				clear(panel[p*w+nc : p*w+w])
			}
		default:
			var one [1]float32
			for p := 0; p < rows; p++ {
				row := panel[p*w : p*w+w]
				s := base + p*ps + j0*js
				for j := 0; j < nc; j++ {
					widen(one[:], src[s+j*js:s+j*js+1])
					row[j] = one[0]
				}
				clear(row[nc:])
			}
		}
	}
}
