package tensor

import (
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// transposedRowBlock is the number of output rows binTransposed computes
// per transposed panel: 64 rows of a 32-wide f32 panel (8 KiB) stay in L1
// next to the rows they are combined with (measured best of 16..256 on
// 1000x1000 f32).
const transposedRowBlock = 64

// binTransposed computes out = x op y for an out-memory-ordered,
// coalesced layout (cs, cst) whose output rows are unit-stride when
// exactly one operand is transposed (unit stride along the rows, a larger
// one along the columns: x - x.t()) and the other is unit-stride along the
// columns (any row stride, 0 included). Blocks of the transposed operand
// are transposed into a small dense panel (cpu.TransposePanelF32/F64:
// register transposes, no gathers), then each output row piece is one call
// of the vector kernel. It reports false for other layouts.
func binTransposed[T vfloat](k *vecOps[T], op binOp, o, x, y []T, cs []int, cst [3][]int, offs [3]int) bool {
	nd := len(cs)
	if nd < 2 || cst[0][nd-1] != 1 {
		return false
	}
	ta := cst[1][nd-2] == 1 && cst[1][nd-1] > 1
	tb := cst[2][nd-2] == 1 && cst[2][nd-1] > 1
	if ta == tb || ta && cst[2][nd-1] != 1 || tb && cst[1][nd-1] != 1 {
		return false
	}
	f := k.bin[op]
	R, C := cs[nd-2], cs[nd-1]
	so := cst[0][nd-2]
	// t: the transposed operand, r: the row-like one
	tsrc, rsrc, ti, ri := y, x, 2, 1
	if ta {
		tsrc, rsrc, ti, ri = x, y, 1, 2
	}
	st, sr := cst[ti][nd-1], cst[ri][nd-2]
	lead := numel(cs[:nd-2])
	if bop, ok := cpuBinOp(op); ok && sr >= 0 {
		if o32, ok := any(o).([]float32); ok {
			// f32 + - * /: the fused kernel (16x16 register transposes
			// combined with the row operand straight away)
			t32, r32 := any(tsrc).([]float32), any(rsrc).([]float32)
			parallelTasksAligned(lead*R, 16, C, grainMem, func(r0, r1 int) {
				for r := r0; r < r1; {
					nr := min(R-r%R, r1-r)
					p := rowOffsets(cs, cst, offs, r)
					cpu.BinTransposedF32(bop, ta, o32[p[0]:], so, r32[p[ri]:], sr, t32[p[ti]:], st, nr, C)
					r += nr
				}
			})
			return true
		}
	}
	var z T
	w := cpu.TransposePanelWidthF32
	if unsafe.Sizeof(z) == 8 {
		w = cpu.TransposePanelWidthF64
	}
	parallelTasks(lead*R, C, grainMem, func(r0, r1 int) {
		buf := make([]T, transposedRowBlock*w)
		for r := r0; r < r1; {
			i0 := r % R
			nr := min(transposedRowBlock, R-i0, r1-r)
			p := rowOffsets(cs, cst, offs, r) // row r's offsets: (lead, i0)
			for j0 := 0; j0 < C; j0 += w {
				nc := min(w, C-j0)
				t0 := p[ti] + j0*st
				transposePanel(buf, tsrc[t0:t0+(nc-1)*st+nr], st, nr, nc)
				for q := 0; q < nr; q++ {
					oo := o[p[0]+q*so+j0 : p[0]+q*so+j0+nc]
					rr := rsrc[p[ri]+q*sr+j0 : p[ri]+q*sr+j0+nc]
					pp := buf[q*w : q*w+nc]
					if ta {
						f(oo, pp, rr)
					} else {
						f(oo, rr, pp)
					}
				}
			}
			r += nr
		}
	})
	return true
}

// transposePanel is cpu.TransposePanelF32 or F64 by T.
func transposePanel[T vfloat](dst, src []T, ld, rows, cols int) {
	switch d := any(dst).(type) {
	case []float32:
		cpu.TransposePanelF32(d, any(src).([]float32), ld, rows, cols)
	case []float64:
		cpu.TransposePanelF64(d, any(src).([]float64), ld, rows, cols)
	}
}

// cpuBinOp maps + - * / to the operations of cpu.BinTransposedF32.
func cpuBinOp(op binOp) (cpu.BinOp, bool) {
	switch op {
	case opAdd:
		return cpu.BinAdd, true
	case opSub:
		return cpu.BinSub, true
	case opMul:
		return cpu.BinMul, true
	case opDiv:
		return cpu.BinDiv, true
	}
	return 0, false
}
