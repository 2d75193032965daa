//go:build amd64 && !purego

package cpu

import (
	"math"
	"unsafe"

	"github.com/tsrlang/tsr/backends"
)

// Cache blocking for the assembly kernels, tuned on the development machine
// (Intel Xeon with AVX-512 and AMX, 48 KiB L1d, 2 MiB L2 per core, 2 cores
// shared with other jobs; measured in thread CPU time, configurations
// interleaved, best of 8).
//
// Row-major A (the common case) is read in place with ir outermost: the
// A micro-panel (f32 12×768×4 = 36 KiB, f64 12×512×8 = 48 KiB) is reused
// from L1/L2 and B micro-panels stream from a KCRowA×NCRowA block in L2
// (f32 768×256×4 = 768 KiB, f64 512×256×8 = 1 MiB). SGEMM 2048³ single
// thread (GFLOP/s; micro-kernel alone on L1-resident panels 166-172):
// KC=384/NC=512 143-153, KC=256/NC=1024 143-148, KC=512/NC=512 139-150,
// KC=384/NC=256 145; the GotoBLAS order with packed A and the same kernel
// 123-136; KC=768/NC=256 then beat KC=384/NC=512 by ~1% (best of 6
// interleaved rounds, 160.4 vs 157.9 and 159.3 vs 157.4; NumPy 159).
// DGEMM 2048³ (micro-kernel 86; the driver spends ~96% of its time in it,
// ~2% packing B): KC=512/NC=256 beat KC=256/NC=512 in 5 of 6 interleaved
// rounds by ~1.5% (best 77.2 vs 75.9; KC=768-2048 with
// NC=192-64 the same within noise, KC=128 73, NC=1024 66). Tried and not
// kept, all slower or within noise: a 14×16 f64 tile (28 accumulators;
// 72-73), packing each A micro-panel in this loop order (73-74), prefetching
// the next A micro-panel into L2 a row per tile, transparent huge pages
// for A, B and C (THP here is madvise-only; NumPy madvises, Go does not),
// and the row-major-A kernel unrolled 8 k-steps, alone or with PREFETCHT0
// of each A row 512 bytes ahead (77.4 / 76.6 vs 77.6, in-process A/B).
// Kept: the first 6 tiles of a row of tiles prefetch the next A
// micro-panel into L2, two rows each, one line per row every 4 k steps
// (aPrefetchRow): without it the panel's first tile waits on L3 (DGEMM
// 2048 +1.7-2.5%, 8 of 8 interleaved rounds; SGEMM, whose A lines last 16
// k steps, unchanged). PREFETCHNTA of the streamed B rows, to keep A in L1,
// did not help (3 of 6). A column-major A (x.T @ w) read in place, the
// packed kernel with stride lda, ran at half speed (each k step a new
// page: 768 per micro-panel); it stays packed.
//
// Otherwise A is packed into MC×KC blocks (L2) and the KC×NR B micro-panel
// is reused from L1 (GotoBLAS order), KC×NC of B in L3.
var (
	avx512GemmF32 = &GemmKernel[float32]{Name: "avx512-12x32", MR: 12, NR: 32, KC: 384, MC: 240, NC: 4096, NCRowA: 256, KCRowA: 768,
		Micro: microAVX512F32, MicroRowA: microRowAAVX512F32, Pack: packAVX512F32, EdgeMicro: edgeAVX512F32}
	avx512GemmF64 = &GemmKernel[float64]{Name: "avx512-12x16", MR: 12, NR: 16, KC: 256, MC: 240, NC: 4096, NCRowA: 256, KCRowA: 512,
		Micro: microAVX512F64, MicroRowA: microRowAAVX512F64, Pack: packAVX512F64, EdgeMicro: edgeAVX512F64}
	avx2GemmF32 = &GemmKernel[float32]{Name: "avx2-6x16", MR: 6, NR: 16, KC: 256, MC: 240, NC: 4096, NCRowA: 512,
		Micro: microAVX2F32, MicroRowA: microRowAAVX2F32}
	avx2GemmF64 = &GemmKernel[float64]{Name: "avx2-6x8", MR: 6, NR: 8, KC: 256, MC: 120, NC: 4096, NCRowA: 512,
		Micro: microAVX2F64, MicroRowA: microRowAAVX2F64}
)

func registerGemmAsm() {
	sk := backends.Key{Op: "sgemm", DType: "float32", Device: "cpu"}
	dk := backends.Key{Op: "dgemm", DType: "float64", Device: "cpu"}
	backends.Register(sk, backends.Candidate{Name: avx2GemmF32.Name, Impl: avx2GemmF32, Requires: backends.TierAVX2, Priority: 10})
	backends.Register(dk, backends.Candidate{Name: avx2GemmF64.Name, Impl: avx2GemmF64, Requires: backends.TierAVX2, Priority: 10})
	backends.Register(sk, backends.Candidate{Name: avx512GemmF32.Name, Impl: avx512GemmF32, Requires: backends.TierAVX512, Priority: 20})
	backends.Register(dk, backends.Candidate{Name: avx512GemmF64.Name, Impl: avx512GemmF64, Requires: backends.TierAVX512, Priority: 20})
}

// The wrappers check the tile shape and the panel and tile extents once per
// tile, so the assembly never touches memory outside the slices it was
// given (beyond prefetches, which cannot fault).

// checkTile panics unless 1 <= mr <= MR, 1 <= nr <= NR and a (packed A:
// MR*kc elements, or row-major A: MR rows of kc with stride lda), b (kc rows
// of NR with stride ldb) and c (mr rows of nr with stride ldc) are in range.
func checkTile[T float](MR, NR, kc int, a []T, rowA bool, lda int, b []T, ldb int, c []T, ldc, mr, nr int) {
	if uint(mr-1) >= uint(MR) || uint(nr-1) >= uint(NR) || kc < 1 || ldb < 0 || lda < 0 {
		panic("cpu: bad GEMM micro-tile")
	}
	if !rowA {
		_ = a[MR*kc-1]
	} else {
		_ = a[(MR-1)*lda+kc-1]
	}
	_, _ = b[(kc-1)*ldb+NR-1], c[(mr-1)*ldc+nr-1]
}

// prefetchRows returns the pf, pfn arguments of a row-major-A AVX-512
// kernel that prefetch rows MR+pfRow and MR+pfRow+1 of a (lda apart), kc
// elements each, or nil, 0 when pfRow < 0 or a does not hold both rows.
func prefetchRows[T float](a []T, lda, MR, pfRow, kc int) (*T, int) {
	r := MR + pfRow
	if pfRow < 0 || (r+1)*lda+kc > len(a) {
		return nil, 0
	}
	var z T
	return &a[r*lda], (kc*int(unsafe.Sizeof(z)) + 63) / 64
}

func laneMask(nr int) uint64 { return 1<<uint(nr) - 1 }

func microAVX512F32(kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
	checkTile(12, 32, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm12x32F32AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microRowAAVX512F32(kc int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr, pfRow int) {
	checkTile(12, 32, kc, a, true, lda, b, ldb, c, ldc, mr, nr)
	pf, pfn := prefetchRows(a, lda, 12, pfRow, kc)
	gemm12x32RowAF32AVX512(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr), pf, pfn)
}

// edgeAVX512F32 and edgeAVX512F64 are the AVX-512 kernels' EdgeMicro: the
// 4- and 8-row tiles (4×32/8×32 f32, 4×16/8×16 f64).
func edgeAVX512F32(mr int) (int, func(kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int)) {
	switch {
	case mr <= 4:
		return 4, microAVX512F32x4
	case mr <= 8:
		return 8, microAVX512F32x8
	}
	return 12, microAVX512F32
}

func edgeAVX512F64(mr int) (int, func(kc int, a, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr int)) {
	switch {
	case mr <= 4:
		return 4, microAVX512F64x4
	case mr <= 8:
		return 8, microAVX512F64x8
	}
	return 12, microAVX512F64
}

func microAVX512F32x4(kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
	checkTile(4, 32, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm4x32F32AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microAVX512F32x8(kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
	checkTile(8, 32, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm8x32F32AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microAVX512F64x4(kc int, a, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr int) {
	checkTile(4, 16, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm4x16F64AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microAVX512F64x8(kc int, a, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr int) {
	checkTile(8, 16, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm8x16F64AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microAVX512F64(kc int, a, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr int) {
	checkTile(12, 16, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm12x16F64AVX512(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr))
}

func microRowAAVX512F64(kc int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr, pfRow int) {
	checkTile(12, 16, kc, a, true, lda, b, ldb, c, ldc, mr, nr)
	pf, pfn := prefetchRows(a, lda, 12, pfRow, kc)
	gemm12x16RowAF64AVX512(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, alpha, beta, mr, laneMask(nr), pf, pfn)
}

// AVX2 lane masks for VMASKMOVPS/PD: &avx2MaskF32[16-nr] is the mask of the
// first nr of 16 lanes (likewise f64 with 8).
var (
	avx2MaskF32 = [32]int32{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	avx2MaskF64 = [16]int64{-1, -1, -1, -1, -1, -1, -1, -1}
)

func maskF32(nr int) *int32 {
	if nr == 16 {
		return nil
	}
	return &avx2MaskF32[16-nr]
}

func maskF64(nr int) *int64 {
	if nr == 8 {
		return nil
	}
	return &avx2MaskF64[8-nr]
}

func microAVX2F32(kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr int) {
	checkTile(6, 16, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm6x16F32AVX2(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, maskF32(nr))
}

func microRowAAVX2F32(kc int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, mr, nr, _ int) {
	checkTile(6, 16, kc, a, true, lda, b, ldb, c, ldc, mr, nr)
	gemm6x16RowAF32AVX2(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, alpha, beta, mr, maskF32(nr))
}

func microAVX2F64(kc int, a, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr int) {
	checkTile(6, 8, kc, a, false, 0, b, ldb, c, ldc, mr, nr)
	gemm6x8F64AVX2(kc, &a[0], &b[0], ldb, &c[0], ldc, alpha, beta, mr, maskF64(nr))
}

func microRowAAVX2F64(kc int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, mr, nr, _ int) {
	checkTile(6, 8, kc, a, true, lda, b, ldb, c, ldc, mr, nr)
	gemm6x8RowAF64AVX2(kc, &a[0], lda, &b[0], ldb, &c[0], ldc, alpha, beta, mr, maskF64(nr))
}

// checkPack panics unless a rows×cols block with strides ps, js (cols <= w
// <= maxW) lies inside src and rows*w elements inside dst; it reports
// whether the source rows are contiguous (js == 1) and fills idx with the
// gather offsets j*js otherwise.
func checkPack[T float](dst []T, w int, src []T, ps, js, rows, cols, maxW int, idx *[32]int32) bool {
	if uint(cols-1) >= uint(w) || w > maxW || rows < 1 || ps < 0 || js < 0 || (cols-1)*js > math.MaxInt32 {
		panic("cpu: bad GEMM pack")
	}
	_, _ = dst[rows*w-1], src[(rows-1)*ps+(cols-1)*js]
	if js == 1 {
		return true
	}
	for j := 0; j < cols; j++ {
		idx[j] = int32(j * js)
	}
	return false
}

func packAVX512F32(dst []float32, w int, src []float32, ps, js, rows, cols int) {
	var idx [32]int32
	ip := &idx[0]
	if checkPack(dst, w, src, ps, js, rows, cols, 32, &idx) {
		ip = nil
	}
	if ps == 1 && cols == w && js != 1 {
		var k func(dst, src *float32, js, rows int)
		switch w {
		case 32:
			k = packT32F32AVX512
		case 12:
			k = packT12F32AVX512
		}
		if dst, src, rows = packTransposed(k, dst, w, src, js, rows, 16); rows == 0 {
			return
		}
	}
	packF32AVX512(&dst[0], w, &src[0], ps, rows, ip, laneMask(cols), laneMask(w))
}

func packAVX512F64(dst []float64, w int, src []float64, ps, js, rows, cols int) {
	var idx [32]int32
	ip := &idx[0]
	if checkPack(dst, w, src, ps, js, rows, cols, 16, &idx) {
		ip = nil
	}
	if ps == 1 && cols == w && js != 1 {
		var k func(dst, src *float64, js, rows int)
		switch w {
		case 16:
			k = packT16F64AVX512
		case 12:
			k = packT12F64AVX512
		}
		if dst, src, rows = packTransposed(k, dst, w, src, js, rows, 8); rows == 0 {
			return
		}
	}
	packF64AVX512(&dst[0], w, &src[0], ps, rows, ip, laneMask(cols), laneMask(w))
}

// packTransposed runs the transposing packer k (nil: none for this panel
// width) over the whole blocks of L rows of a w-wide panel whose source is
// contiguous along k (16×16 or 8×8 register transposes, no gathers), and
// returns the panel and source rows left for the gather packer.
func packTransposed[T float](k func(dst, src *T, js, rows int), dst []T, w int, src []T, js, rows, L int) ([]T, []T, int) {
	n := rows / L * L
	if k == nil || n == 0 {
		return dst, src, rows
	}
	k(&dst[0], &src[0], js, n)
	return dst[n*w:], src[n:], rows - n
}
