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
	var p [rowsMax]T
	ng := n / V / 4
	if ng > 0 {
		p = cascadeRows(x[:ng*4*V], 4*V, ng, add)
	}
	return finishTorch(x, &p, V, ng > 0)
}

// finishTorch completes sumTorch for a row x (len(x) >= V) whose
// ⌊len(x)/4V⌋ leading groups of 4 vectors cascadeRows summed into p: the
// leftover vectors go into vector 0, the 4 vectors are added, then the
// trailing scalars left to right and the lanes in order. Without a
// cascade (cascaded false: p is zero) vectors 1-3 are zero and are not
// added: adding +0 changes only a -0, which the final sum, starting from
// +0, absorbs anyway.
func finishTorch[T float](x []T, p *[rowsMax]T, V int, cascaded bool) T {
	nv := len(x) / V
	for i := nv / 4 * 4; i < nv; i++ { // leftover vectors into vector 0
		for l := 0; l < V; l++ {
			p[l] += x[i*V+l]
		}
	}
	if cascaded {
		for k := 1; k < 4; k++ {
			for l := 0; l < V; l++ {
				p[l] += p[k*V+l]
			}
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

// SumRowsTorchF32 sets dst[o] = SumTorchF32(x[o*n : (o+1)*n]) for each
// o < len(dst): the sums over the last dim of a contiguous [len(dst), n]
// block (n >= 0), bit for bit PyTorch's. Four rows at a time run their (identical)
// cascades interleaved, which hides the add latency one row's lane-wise
// chain waits on (registry op "add_rows4").
func SumRowsTorchF32(dst, x []float32, n int) { sumRowsTorch(dst, x, n, 8, addRowsF32, addRows4F32) }

// SumRowsTorchF64 is SumRowsTorchF32 for float64.
func SumRowsTorchF64(dst, x []float64, n int) { sumRowsTorch(dst, x, n, 4, addRowsF64, addRows4F64) }

func sumRowsTorch[T float](dst, x []T, n, V int, add addRowsFn[T], add4 addRows4Fn[T]) {
	rows := len(dst)
	if rows == 0 {
		return
	}
	if n == 0 {
		clear(dst)
		return
	}
	_ = x[rows*n-1]
	o := 0
	if ng := n / V / 4; ng > 0 && rows >= 4 {
		acc := new([4][4][rowsMax]T) // the kernel is called indirectly: acc escapes
		for ; o+4 <= rows; o += 4 {
			xs := x[o*n : (o+4)*n]
			cascadeRows4(acc, xs, n, 4*V, ng, add4)
			for q := range 4 {
				dst[o+q] = finishTorch(xs[q*n:(q+1)*n], &acc[0][q], V, true)
			}
		}
	}
	for ; o < rows; o++ {
		dst[o] = sumTorch(x[o*n:(o+1)*n], V, add)
	}
}

// cascadeRows4 is cascadeRows for four lane groups at once (group q's
// row i at x[q*stride+i*ldx:]), each summed in exactly cascadeRows's order
// into acc[0][q] (acc's other levels are scratch; nothing needs to be zero
// on entry). A level that cascadeRows would clear is only marked empty:
// the next addition into it starts from +0 in registers (add_rows4's
// fresh), the same sum without the memory round trip. An empty level is
// not added at the end: adding +0 changes only a -0, and no lane is ever
// -0 (each sum starts from +0, and +0 + -0 = +0 when rounding to nearest).
func cascadeRows4[T float](acc *[4][4][rowsMax]T, x []T, stride, ldx, size int, add4 addRows4Fn[T]) {
	const levels = 4
	power := max(4, ceilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	empty := [levels]bool{true, true, true, true}
	add := func(j int, x []T, stride, ldx, rows int) {
		add4(&acc[j], x, stride, ldx, rows, empty[j])
		empty[j] = false
	}
	flat := func(j int) []T { return unsafe.Slice(&acc[j][0][0], 4*rowsMax) }
	i := 0
	for i+step <= size {
		add(0, x[i*ldx:], stride, ldx, step)
		i += step
		for j := 1; j < levels; j++ {
			add(j, flat(j-1), rowsMax, 0, 1)
			empty[j-1] = true
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	if i < size {
		add(0, x[i*ldx:], stride, ldx, size-i)
	}
	for j := 1; j < levels; j++ {
		if !empty[j] {
			add(0, flat(j), rowsMax, 0, 1)
		}
	}
}

// cascadeRows is ATen's multi_row_sum over size rows of W lanes (4
// vectors; row i at x[i*ldx:]): 4 levels of partial sums, level 0 takes
// rows one at a time, and every 2^power rows each level is added into the
// next and cleared, up the levels whose index bits just wrapped.
func cascadeRows[T float](x []T, ldx, size int, add addRowsFn[T]) [rowsMax]T {
	const levels = 4
	var z T
	w := 128 / int(unsafe.Sizeof(z))
	power := max(4, ceilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	var acc [levels][rowsMax]T
	i := 0
	for i+step <= size {
		add(&acc[0], x[i*ldx:], ldx, step)
		i += step
		for j := 1; j < levels; j++ {
			add(&acc[j], acc[j-1][:w], w, 1)
			acc[j-1] = [rowsMax]T{}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	if i < size {
		add(&acc[0], x[i*ldx:], ldx, size-i)
	}
	for j := 1; j < levels; j++ {
		add(&acc[0], acc[j][:w], w, 1)
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

// addRowsFn sets acc[l] += x[r*ldx+l] for r < rows, l < W (W = 128 bytes
// of T), row by row (registry op "add_rows", float32 and float64).
type addRowsFn[T float] func(acc *[rowsMax]T, x []T, ldx, rows int)

// addRowsF32 and addRowsF64 are the active add_rows kernels (init).
var (
	addRowsF32 addRowsFn[float32]
	addRowsF64 addRowsFn[float64]
)

func goAddRows[T float](acc *[rowsMax]T, x []T, ldx, rows int) {
	var z T
	w := 128 / int(unsafe.Sizeof(z))
	for r := 0; r < rows; r++ {
		row := x[r*ldx : r*ldx+w]
		for l, v := range row {
			acc[l] += v
		}
	}
}

// asmRows adapts an assembly add_rows kernel (bounds checked here).
func asmRows[T float](f func(acc *T, x *T, ldx, rows int)) addRowsFn[T] {
	return func(acc *[rowsMax]T, x []T, ldx, rows int) {
		if rows <= 0 {
			return
		}
		var z T
		if ldx < 0 {
			panic("cpu: negative add_rows row stride")
		}
		_ = x[(rows-1)*ldx+128/int(unsafe.Sizeof(z))-1]
		f(&acc[0], &x[0], ldx, rows)
	}
}

// addRows4Fn sets acc[q][l] += x[q*stride+r*ldx+l] for q < 4, r < rows,
// l < W (W = 128 bytes of T), row by row, acc starting from +0 instead of
// its values when fresh: addRowsFn for four lane groups at once (registry
// op "add_rows4", float32 and float64).
type addRows4Fn[T float] func(acc *[4][rowsMax]T, x []T, stride, ldx, rows int, fresh bool)

// addRows4F32 and addRows4F64 are the active add_rows4 kernels (init).
var (
	addRows4F32 addRows4Fn[float32]
	addRows4F64 addRows4Fn[float64]
)

func goAddRows4[T float](acc *[4][rowsMax]T, x []T, stride, ldx, rows int, fresh bool) {
	if fresh {
		*acc = [4][rowsMax]T{}
	}
	for q := range acc {
		goAddRows(&acc[q], x[q*stride:], ldx, rows)
	}
}

// asmRows4 adapts an assembly add_rows4 kernel (bounds checked here).
func asmRows4[T float](f func(acc *T, x *T, stride, ldx, rows, fresh int)) addRows4Fn[T] {
	return func(acc *[4][rowsMax]T, x []T, stride, ldx, rows int, fresh bool) {
		if rows <= 0 {
			if fresh {
				*acc = [4][rowsMax]T{}
			}
			return
		}
		var z T
		if stride < 0 || ldx < 0 {
			panic("cpu: negative add_rows4 stride")
		}
		_ = x[3*stride+(rows-1)*ldx+128/int(unsafe.Sizeof(z))-1]
		fr := 0
		if fresh {
			fr = 1
		}
		f(&acc[0][0], &x[0], stride, ldx, rows, fr)
	}
}

func rows4Key(dtype string) backends.Key {
	return backends.Key{Op: "add_rows4", DType: dtype, Device: "cpu"}
}

func rowsKey(dtype string) backends.Key {
	return backends.Key{Op: "add_rows", DType: dtype, Device: "cpu"}
}

func registerRows() {
	backends.Register(rowsKey("float32"), backends.Candidate{Name: "go", Impl: addRowsFn[float32](goAddRows[float32]), Requires: backends.TierGeneric})
	backends.Register(rowsKey("float64"), backends.Candidate{Name: "go", Impl: addRowsFn[float64](goAddRows[float64]), Requires: backends.TierGeneric})
	backends.Register(rows4Key("float32"), backends.Candidate{Name: "go", Impl: addRows4Fn[float32](goAddRows4[float32]), Requires: backends.TierGeneric})
	backends.Register(rows4Key("float64"), backends.Candidate{Name: "go", Impl: addRows4Fn[float64](goAddRows4[float64]), Requires: backends.TierGeneric})
	registerRowsAsm()
}

func resolveRows() {
	get := func(k backends.Key) any {
		c, ok := backends.Lookup(k)
		if !ok {
			panic("cpu: no kernel registered for " + k.Op + "/" + k.DType)
		}
		return c.Impl
	}
	addRowsF32 = get(rowsKey("float32")).(addRowsFn[float32])
	addRowsF64 = get(rowsKey("float64")).(addRowsFn[float64])
	addRows4F32 = get(rows4Key("float32")).(addRows4Fn[float32])
	addRows4F64 = get(rows4Key("float64")).(addRows4Fn[float64])
}

// SumColsTorchF32 sets dst[j] = Σ_i x[i*cols+j] (i < rows, j < cols) in
// PyTorch's order for a reduction over the outer dim of a contiguous
// [rows, cols] block (SumKernel's vectorized_outer_sum / scalar_outer_sum,
// one thread): with V = 8 lanes, when cols >= V the first 4V·⌊cols/4V⌋
// columns go through multi_row_sum's cascade over the rows and the others
// through row_sum's 4-way interleaving; when cols < V the same split is at
// 4·⌊cols/4⌋. cols == 1 is a contiguous row: use SumTorchF32.
func SumColsTorchF32(dst, x []float32, rows, cols int) {
	sumColsTorch(dst, x, rows, cols, 8, addRowsF32, addRows4F32)
}

// SumColsTorchF64 is SumColsTorchF32 for float64 (V = 4).
func SumColsTorchF64(dst, x []float64, rows, cols int) {
	sumColsTorch(dst, x, rows, cols, 4, addRowsF64, addRows4F64)
}

// sumColsTorch is SumColsTorchF32/F64. The cascaded columns run 4V lanes
// at a time down the rows (the add_rows kernels with the row stride cols,
// four lane groups per add_rows4 call), which is multi_row_sum itself; the
// rest go one column at a time.
func sumColsTorch[T float](dst, x []T, rows, cols, V int, add addRowsFn[T], add4 addRows4Fn[T]) {
	if cols <= 0 {
		return
	}
	if rows <= 0 {
		clear(dst[:cols])
		return
	}
	_, _ = dst[cols-1], x[rows*cols-1]
	W := 4 * V
	split := cols / W * W
	if cols < V {
		split = cols / 4 * 4
	}
	j := 0
	if cols >= W {
		if split >= 4*W {
			acc := new([4][4][rowsMax]T) // the kernel is called indirectly: acc escapes
			for ; j+4*W <= split; j += 4 * W {
				cascadeRows4(acc, x[j:], W, cols, rows, add4)
				for q := range 4 {
					copy(dst[j+q*W:j+(q+1)*W], acc[0][q][:W])
				}
			}
		}
		for ; j < split; j += W {
			p := cascadeRows(x[j:], cols, rows, add)
			copy(dst[j:j+W], p[:W])
		}
	}
	for ; j < cols; j++ {
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

// CascadeSumStridedF32 is ATen's multi_row_sum for one lane (one column of
// a reduction): the sum of x[start + i*stride], i < n, through the 4-level
// cascade of SumKernel.cpp, in float32. stride may be 0 (an expanded dim).
func CascadeSumStridedF32(x []float32, start, stride, n int) float32 {
	return cascadeStrided(x, start, stride, n)
}

// CascadeSumStridedF64 is CascadeSumStridedF32 for float64.
func CascadeSumStridedF64(x []float64, start, stride, n int) float64 {
	return cascadeStrided(x, start, stride, n)
}

// RowSumStridedF32 is ATen's scalar row_sum of x[start + i*stride], i < n:
// four interleaved cascades by i mod 4, the leftovers into the first, then
// ((p0 + p1) + p2) + p3, in float32.
func RowSumStridedF32(x []float32, start, stride, n int) float32 {
	return rowSumStrided(x, start, stride, n)
}

// RowSumStridedF64 is RowSumStridedF32 for float64.
func RowSumStridedF64(x []float64, start, stride, n int) float64 {
	return rowSumStrided(x, start, stride, n)
}
