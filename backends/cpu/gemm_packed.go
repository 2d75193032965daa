package cpu

// Pre-packed B operands (MKL's cblas_sgemm_pack / cblas_sgemm_compute):
// a caller that multiplies many A blocks by the same B packs B once into
// the active micro-kernel's panel layout and runs each product on the
// calling goroutine. The fused attention kernel packs a head's kᵀ and v
// once and reuses them for every block of query rows.

// PackedB is a k×n matrix packed for the active GEMM kernel of its dtype:
// ceil(n/NR) panels of k rows × NR columns (NR the kernel's register tile
// width), each contiguous, the last zero-padded. The zero value is an
// empty matrix. Build one with SgemmPackB or DgemmPackB.
type PackedB[T ~float32 | ~float64] struct {
	buf  []T
	k, n int
	nr   int
}

// Dims returns the packed matrix's rows (k) and columns (n).
func (p PackedB[T]) Dims() (k, n int) { return p.k, p.n }

// SgemmPackBSize is the number of float32 elements SgemmPackB needs for a
// k×n matrix.
func SgemmPackBSize(k, n int) int { return packBSize(sgemmKernel, k, n) }

// DgemmPackBSize is SgemmPackBSize for DgemmPackB.
func DgemmPackBSize(k, n int) int { return packBSize(dgemmKernel, k, n) }

func packBSize[T float](kern *GemmKernel[T], k, n int) int {
	return (n + kern.NR - 1) / kern.NR * kern.NR * k
}

// SgemmPackB packs the k×n float32 matrix B, element (p, j) at
// b[p*rsB+j*csB] (any strides >= 0), into buf, which must hold at least
// SgemmPackBSize(k, n) elements (a new slice is made when buf is shorter).
// The result aliases buf.
func SgemmPackB(k, n int, b []float32, rsB, csB int, buf []float32) PackedB[float32] {
	return packBFor(sgemmKernel, k, n, b, rsB, csB, buf)
}

// DgemmPackB is SgemmPackB in float64.
func DgemmPackB(k, n int, b []float64, rsB, csB int, buf []float64) PackedB[float64] {
	return packBFor(dgemmKernel, k, n, b, rsB, csB, buf)
}

func packBFor[T float](kern *GemmKernel[T], k, n int, b []T, rsB, csB int, buf []T) PackedB[T] {
	if k < 0 || n < 0 || rsB < 0 || csB < 0 {
		panic("cpu: bad GEMM pack shape")
	}
	need := packBSize(kern, k, n)
	if len(buf) < need {
		buf = make([]T, need)
	}
	p := PackedB[T]{buf: buf[:need], k: k, n: n, nr: kern.NR}
	if k > 0 && n > 0 {
		packB(kern.Pack, p.buf, b, 0, 0, k, n, rsB, csB, kern.NR)
	}
	return p
}

// SgemmPacked computes C = alpha*A*B + beta*C on the calling goroutine,
// where A is m×k (element (i, p) at a[i*rsA+p*csA]), B is the top-left
// k×n corner of bp (k and n at most bp's), and C is m×n (element (i, j) at
// c[i*rsC+j*csC]). beta == 0 means C is not read. It panics when bp was
// packed for another kernel (TSR_CPU changed in between is impossible: the
// kernel is chosen once) or is smaller than k×n.
func SgemmPacked(m, n, k int, alpha float32, a []float32, rsA, csA int, bp PackedB[float32], beta float32, c []float32, rsC, csC int) {
	gemmPackedB(sgemmKernel, m, n, k, alpha, a, rsA, csA, bp, beta, c, rsC, csC)
}

// DgemmPacked is SgemmPacked in float64.
func DgemmPacked(m, n, k int, alpha float64, a []float64, rsA, csA int, bp PackedB[float64], beta float64, c []float64, rsC, csC int) {
	gemmPackedB(dgemmKernel, m, n, k, alpha, a, rsA, csA, bp, beta, c, rsC, csC)
}

// SgemmPackedMatches reports whether SgemmPacked, multiplying row blocks
// of a row-major m×k A (unit column stride, any row blocking) by a packed
// k×n B, rounds every element of C as SgemmBatched with alpha = 1 and
// beta = 0 does for that A and B and a row-major C, with any batch count:
// the micro-kernels accumulate a K panel alike and both use panelK's
// panels (also for blocks of fewer than MR rows), so the products agree
// unless SgemmBatched runs a block of fewer than smallGemm multiply-adds
// (plain loops) or its K panels differ (the in-place A path turned off).
func SgemmPackedMatches(m, n, k int) bool { return packedMatches(sgemmKernel, m, n, k) }

// DgemmPackedMatches is SgemmPackedMatches for DgemmPacked and
// DgemmBatched.
func DgemmPackedMatches(m, n, k int) bool { return packedMatches(dgemmKernel, m, n, k) }

func packedMatches[T float](kern *GemmKernel[T], m, n, k int) bool {
	kc := packedKC(kern)
	// gemmBatched's row blocks: all m rows, or a split of them for a
	// batch smaller than the goroutine count (a larger one is not split).
	for batch := 1; batch <= max(1, NumThreads()-1); batch++ {
		rows := minRowBlock(kern.MR, batch, m, n, k)
		if rows*n*k < smallGemm {
			return false
		}
		if kb := panelK(kern, 1, false); kb != kc && k > min(kb, kc) {
			return false
		}
	}
	return true
}

// packedKC is gemmPackedB's K panel depth.
func packedKC[T float](kern *GemmKernel[T]) int {
	if kern.KCRowA > 0 {
		return kern.KCRowA
	}
	return kern.KC
}

// gemmPackedB runs the in-place-A loop order of gemmPacked (A micro-panel
// outermost, in L1; B panels streaming from L2) over a pre-packed B.
func gemmPackedB[T float](kern *GemmKernel[T], m, n, k int, alpha T, a []T, rsA, csA int, bp PackedB[T], beta T, c []T, rsC, csC int) {
	if m <= 0 || n <= 0 {
		return
	}
	if bp.nr != kern.NR || k > bp.k || n > bp.n || k < 0 {
		panic("cpu: GEMM with a packed B of the wrong kernel or size")
	}
	if k == 0 || alpha == 0 {
		scaleC(c, m, n, rsC, csC, beta)
		return
	}
	MR, NR := kern.MR, kern.NR
	KC := min(packedKC(kern), k)
	ws := getWorkspace[T](MR, NR, KC, MR, 0)
	defer putWorkspace(ws)
	tile := ws.tile[:MR*NR]
	nj := (n + NR - 1) / NR
	for pc := 0; pc < k; pc += KC {
		kc := min(KC, k-pc)
		betaEff := beta
		if pc > 0 {
			betaEff = 1
		}
		for ir := 0; ir < m; ir += MR {
			mr := min(MR, m-ir)
			inA := csA == 1 && mr == MR && kern.MicroRowA != nil
			var ap []T
			er, micro := MR, kern.Micro
			if !inA {
				if mr < MR {
					er, micro = edgeKernel(kern, mr)
				}
				ap = ws.ap[:er*kc]
				packA(kern.Pack, ap, a, ir, pc, mr, kc, rsA, csA, er)
			}
			for jr := 0; jr < nj; jr++ {
				nr := min(NR, n-jr*NR)
				bpan := bp.buf[jr*bp.k*NR+pc*NR : (jr+1)*bp.k*NR]
				off := ir*rsC + jr*NR*csC
				cdst, ldc, al, be, cm, cn := c[off:], rsC, alpha, betaEff, mr, nr
				if csC != 1 {
					cdst, ldc, al, be, cm, cn = tile, NR, 1, 0, MR, NR
				}
				if inA {
					kern.MicroRowA(kc, a[ir*rsA+pc:], rsA, bpan, NR, cdst, ldc, al, be, cm, cn, aPrefetchRow(jr, ir, m, MR))
				} else {
					if csC != 1 {
						cm = er
					}
					micro(kc, ap, bpan, NR, cdst, ldc, al, be, cm, cn)
				}
				if csC != 1 {
					addTile(c[off:], rsC, csC, tile[:mr*NR], NR, nr, alpha, betaEff)
				}
			}
		}
	}
}
