package cpu

import (
	"math/bits"
	"unsafe"

	"github.com/tsrlang/tsr/backends"
)

// PyTorch's floating-point sum order. ATen's CPU sum (SumKernel.cpp
// cascade_sum, one thread) adds a contiguous row of n values as follows,
// in the row's own precision, with V the AVX2 vector length (8 float32,
// 4 float64):
//
//   - n < V: row_sum with 4-way interleaving: partial sums p[k] of the
//     first 4·⌊n/4⌋ elements by column k = i mod 4, the remaining elements
//     added to p[0], then ((p[0] + p[1]) + p[2]) + p[3];
//   - n >= V: the same over V-lane vectors (⌊n/V⌋ of them; the 4·⌊n/4V⌋
//     leading ones through multi_row_sum's 4-level cascade, which flushes
//     level j into level j+1 every 2^(j·P) groups of 4 vectors), giving a
//     V-lane vector v; then the < V trailing scalars are added left to
//     right into 0, and v's lanes are added to that in order.
//
// SumTorchF32/F64 reproduce it bit for bit (checked against torch.sum in
// TestSumTorchGolden), so x.sum().item() prints PyTorch's digits. It is a
// cascade (pairwise-quality) summation: error O(log n) ulps.

// SumTorchF32 returns Σx in PyTorch's CPU order (see above); an empty x
// sums to 0.
func SumTorchF32(x []float32) float32 { return sumTorch(x, 8, addRowsF32) }

// SumTorchF64 is SumTorchF32 for float64 (4-lane vectors).
func SumTorchF64(x []float64) float64 { return sumTorch(x, 4, addRowsF64) }

// rowsW is the lane count of one 4-vector row: 32 float32 or 16 float64
// (128 bytes); rows arrays are sized for the larger.
const rowsMax = 32

func sumTorch[T float](x []T, V int, add addRowsFn[T]) T {
	n := len(x)
	if n < V {
		return rowSumStrided(x, 0, 1, n)
	}
	w := 4 * V // lanes per row of 4 vectors
	nv := n / V
	ng := nv / 4
	var p [rowsMax]T
	if ng > 0 {
		p = cascadeRows(x[:ng*w], ng, w, add)
	}
	for i := ng * 4; i < nv; i++ { // leftover vectors into vector 0
		for l := 0; l < V; l++ {
			p[l] += x[i*V+l]
		}
	}
	for k := 1; k < 4; k++ {
		for l := 0; l < V; l++ {
			p[l] += p[k*V+l]
		}
	}
	var s T
	for _, v := range x[nv*V:] {
		s += v
	}
	for _, v := range p[:V] {
		s += v
	}
	return s
}

// cascadeRows is ATen's multi_row_sum over size rows of w lanes (4
// vectors): 4 levels of partial sums, level 0 takes rows one at a time,
// and every 2^power rows each level is added into the next and cleared,
// up the levels whose index bits just wrapped.
func cascadeRows[T float](x []T, size, w int, add addRowsFn[T]) [rowsMax]T {
	const levels = 4
	power := max(4, ceilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	var acc [levels][rowsMax]T
	i := 0
	for i+step <= size {
		add(&acc[0], x[i*w:(i+step)*w], step)
		i += step
		for j := 1; j < levels; j++ {
			add(&acc[j], acc[j-1][:w], 1)
			acc[j-1] = [rowsMax]T{}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	if i < size {
		add(&acc[0], x[i*w:size*w], size-i)
	}
	for j := 1; j < levels; j++ {
		add(&acc[0], acc[j][:w], 1)
	}
	return acc[0]
}

// ceilLog2 is ATen's CeilLog2: 1 for x <= 2, else ⌈log2 x⌉.
func ceilLog2(x int) int {
	if x <= 2 {
		return 1
	}
	return bits.Len(uint(x - 1))
}

// addRowsFn sets acc[l] += x[r*W+l] for r < rows, l < W (W = 128 bytes of
// T), row by row (registry op "add_rows", float32 and float64).
type addRowsFn[T float] func(acc *[rowsMax]T, x []T, rows int)

// addRowsF32 and addRowsF64 are the active add_rows kernels (init).
var (
	addRowsF32 addRowsFn[float32]
	addRowsF64 addRowsFn[float64]
)

func goAddRows[T float](acc *[rowsMax]T, x []T, rows int) {
	var z T
	w := 128 / int(unsafe.Sizeof(z))
	x = x[:rows*w]
	for r := 0; r < rows; r++ {
		row := x[r*w : r*w+w]
		for l, v := range row {
			acc[l] += v
		}
	}
}

// asmRows adapts an assembly add_rows kernel (bounds checked here).
func asmRows[T float](f func(acc *T, x *T, rows int)) addRowsFn[T] {
	return func(acc *[rowsMax]T, x []T, rows int) {
		if rows <= 0 {
			return
		}
		var z T
		_ = x[rows*(128/int(unsafe.Sizeof(z)))-1]
		f(&acc[0], &x[0], rows)
	}
}

func rowsKey(dtype string) backends.Key {
	return backends.Key{Op: "add_rows", DType: dtype, Device: "cpu"}
}

func registerRows() {
	backends.Register(rowsKey("float32"), backends.Candidate{Name: "go", Impl: addRowsFn[float32](goAddRows[float32]), Requires: backends.TierGeneric})
	backends.Register(rowsKey("float64"), backends.Candidate{Name: "go", Impl: addRowsFn[float64](goAddRows[float64]), Requires: backends.TierGeneric})
	registerRowsAsm()
}

func resolveRows() {
	get := func(dtype string) any {
		c, ok := backends.Lookup(rowsKey(dtype))
		if !ok {
			panic("cpu: no kernel registered for add_rows/" + dtype)
		}
		return c.Impl
	}
	addRowsF32 = get("float32").(addRowsFn[float32])
	addRowsF64 = get("float64").(addRowsFn[float64])
}

// SumColsTorchF32 sets dst[j] = Σ_i x[i*cols+j] (i < rows, j < cols) in
// PyTorch's order for a reduction over the outer dim of a contiguous
// [rows, cols] block (SumKernel's vectorized_outer_sum / scalar_outer_sum,
// one thread): with V = 8 lanes, when cols >= V the first 4V·⌊cols/4V⌋
// columns go through multi_row_sum's cascade over the rows and the others
// through row_sum's 4-way interleaving; when cols < V the same split is at
// 4·⌊cols/4⌋. cols == 1 is a contiguous row: use SumTorchF32.
func SumColsTorchF32(dst, x []float32, rows, cols int) { sumColsTorch(dst, x, rows, cols, 8) }

// SumColsTorchF64 is SumColsTorchF32 for float64 (V = 4).
func SumColsTorchF64(dst, x []float64, rows, cols int) { sumColsTorch(dst, x, rows, cols, 4) }

func sumColsTorch[T float](dst, x []T, rows, cols, V int) {
	_, _ = dst[cols-1], x[rows*cols-1]
	split := cols / (4 * V) * 4 * V
	if cols < V {
		split = cols / 4 * 4
	}
	for j := 0; j < cols; j++ {
		if j < split {
			dst[j] = cascadeStrided(x, j, cols, rows)
		} else {
			dst[j] = rowSumStrided(x, j, cols, rows)
		}
	}
}

// cascadeStrided is multi_row_sum for one lane: x[start + i*stride], i < n,
// added one at a time into a 4-level cascade (see cascadeRows).
func cascadeStrided[T float](x []T, start, stride, n int) T {
	const levels = 4
	power := max(4, ceilLog2(n)/levels)
	step := 1 << power
	mask := step - 1
	var acc [levels]T
	i := 0
	for i+step <= n {
		for e := i + step; i < e; i++ {
			acc[0] += x[start+i*stride]
		}
		for j := 1; j < levels; j++ {
			acc[j] += acc[j-1]
			acc[j-1] = 0
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	for ; i < n; i++ {
		acc[0] += x[start+i*stride]
	}
	return ((acc[0] + acc[1]) + acc[2]) + acc[3]
}

// rowSumStrided is row_sum for one lane: 4 interleaved cascades over
// x[start + i*stride] by i mod 4, the leftovers into the first, then
// ((p0 + p1) + p2) + p3.
func rowSumStrided[T float](x []T, start, stride, n int) T {
	n4 := n / 4
	var p [4]T
	if n4 > 0 {
		for k := range p {
			p[k] = cascadeStrided(x, start+k*stride, 4*stride, n4)
		}
	}
	for i := n4 * 4; i < n; i++ {
		p[0] += x[start+i*stride]
	}
	return ((p[0] + p[1]) + p[2]) + p[3]
}
