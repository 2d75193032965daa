package cpu

import (
	"math/bits"

	"github.com/tsrlang/tsr/backends"
)

// PyTorch's float32 sum order. ATen's CPU sum (SumKernel.cpp cascade_sum,
// one thread) adds a contiguous row of n float32 values as follows, all in
// float32 arithmetic:
//
//   - n < 8: row_sum with 4-way interleaving: partial sums p[k] of the
//     first 4·⌊n/4⌋ elements by column k = i mod 4, the remaining elements
//     added to p[0], then p[0] + p[1] + p[2] + p[3];
//   - n >= 8: the same over 8-lane vectors (⌊n/8⌋ of them; the 4·⌊n/32⌋
//     leading ones through multi_row_sum's 4-level cascade, which flushes
//     level j into level j+1 every 2^(j·P) groups of 4 vectors), giving an
//     8-lane vector v; then the ≤ 7 trailing scalars are added left to
//     right into 0, and v's lanes are added to that in order.
//
// SumTorchF32 reproduces it bit for bit (checked against torch.sum in
// TestSumTorchF32Golden), so x.sum().item() prints PyTorch's digits. It is
// a cascade (pairwise-quality) summation: error O(log n) ulps.

// SumTorchF32 returns Σx in PyTorch's CPU order (see above); an empty x
// sums to 0.
func SumTorchF32(x []float32) float32 {
	n := len(x)
	if n < 8 {
		return rowSumILP4(x)
	}
	nv := n / 8
	ng := nv / 4 // groups of 4 vectors = 32 floats
	var p [32]float32
	if ng > 0 {
		p = cascadeRows32(x[:ng*32], ng)
	}
	for i := ng * 4; i < nv; i++ { // leftover vectors into vector 0
		for l := 0; l < 8; l++ {
			p[l] += x[i*8+l]
		}
	}
	for k := 1; k < 4; k++ {
		for l := 0; l < 8; l++ {
			p[l] += p[k*8+l]
		}
	}
	var s float32
	for _, v := range x[nv*8:] {
		s += v
	}
	for _, v := range p[:8] {
		s += v
	}
	return s
}

// rowSumILP4 is ATen's row_sum on scalars (4 interleaved partial sums).
func rowSumILP4(x []float32) float32 {
	var p [4]float32
	n4 := len(x) / 4 * 4
	for i := 0; i < n4; i += 4 {
		p[0] += x[i]
		p[1] += x[i+1]
		p[2] += x[i+2]
		p[3] += x[i+3]
	}
	for _, v := range x[n4:] {
		p[0] += v
	}
	return ((p[0] + p[1]) + p[2]) + p[3]
}

// cascadeRows32 is ATen's multi_row_sum over size rows of 32 float32
// lanes (4 vectors of 8): 4 levels of partial sums, level 0 takes rows
// one at a time, and every 2^power rows each level is added into the next
// and cleared, up the levels whose index bits just wrapped.
func cascadeRows32(x []float32, size int) [32]float32 {
	const levels = 4
	power := max(4, ceilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	var acc [levels][32]float32
	i := 0
	for i+step <= size {
		addRows32(&acc[0], x[i*32:(i+step)*32], step)
		i += step
		for j := 1; j < levels; j++ {
			addRows32(&acc[j], acc[j-1][:], 1)
			acc[j-1] = [32]float32{}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	if i < size {
		addRows32(&acc[0], x[i*32:size*32], size-i)
	}
	for j := 1; j < levels; j++ {
		addRows32(&acc[0], acc[j][:], 1)
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

// rows32Fn sets acc[l] += x[r*32+l] for r < rows, l < 32, row by row
// (registry op "add_rows32", float32).
type rows32Fn func(acc *[32]float32, x []float32, rows int)

// addRows32 is the active add_rows32 kernel, resolved at init.
var addRows32 rows32Fn

func goAddRows32(acc *[32]float32, x []float32, rows int) {
	x = x[:rows*32]
	for r := 0; r < rows; r++ {
		row := x[r*32 : r*32+32]
		for l, v := range row {
			acc[l] += v
		}
	}
}

// asmRows32 adapts an assembly add_rows32 kernel (bounds checked here).
func asmRows32(f func(acc *float32, x *float32, rows int)) rows32Fn {
	return func(acc *[32]float32, x []float32, rows int) {
		if rows <= 0 {
			return
		}
		_ = x[rows*32-1]
		f(&acc[0], &x[0], rows)
	}
}

var rows32Key = backends.Key{Op: "add_rows32", DType: "float32", Device: "cpu"}

func registerRows32() {
	backends.Register(rows32Key, backends.Candidate{Name: "go", Impl: rows32Fn(goAddRows32), Requires: backends.TierGeneric})
	registerRows32Asm()
}

func resolveRows32() {
	c, ok := backends.Lookup(rows32Key)
	if !ok {
		panic("cpu: no kernel registered for add_rows32/float32")
	}
	addRows32 = c.Impl.(rows32Fn)
}
