package tensor

import (
	"slices"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// SoftmaxAttention computes
//
//	out = softmax(q kᵀ · scale, dim=-1) v
//
// bit for bit as the three unfused operations give it (MatmulScaled(q,
// kᵀ, scale), Softmax over the last dim, Matmul with v), without
// materialising the L×S scores or probabilities: each worker takes a head
// and a block of query rows, computes that block of scores into a buffer
// that stays in L2 (the same GEMM kernel, one K panel, scale in its
// epilogue), applies the same row-softmax kernel in place and multiplies
// by v (the same GEMM, into out). Every score, probability and output
// element goes through the same operations in the same order as in the
// unfused path, so only memory traffic changes; this is what lets the
// compiler run the attention idiom `ein"bhid,bhjd->bhij"(q, k) * s`,
// softmax, `ein"bhij,bhjd->bhid"(p, v)` fused (see the ATTN opcode).
//
// q is [*, L, E], k is [*, S, E], v is [*, S, Ev] with identical batch
// dims (no broadcasting), one dtype, float32 or float64; out is
// [*, L, Ev], contiguous. handled is false (and nothing is computed) when
// the operands do not qualify: other dtypes or batch shapes, empty dims,
// head dims wider than one GEMM K panel (E > 256), a zero scale (after
// rounding to the dtype), problems small enough for the GEMM's
// plain-loop path, shapes whose unfused p·v GEMM would sum the keys in
// other K panels (cpu.SgemmPackedMatches), or with the vector fast paths
// off. Then the caller runs the unfused operations.
func SoftmaxAttention(q, k, v *Tensor, scale float64) (out *Tensor, handled bool) {
	if !fastPathsOn() || q.dtype != k.dtype || q.dtype != v.dtype || (q.dtype != F32 && q.dtype != F64) {
		return nil, false
	}
	nq := q.Dim()
	if nq < 2 || k.Dim() != nq || v.Dim() != nq {
		return nil, false
	}
	batch := q.shape[:nq-2]
	if !slices.Equal(batch, k.shape[:nq-2]) || !slices.Equal(batch, v.shape[:nq-2]) {
		return nil, false
	}
	L, E := q.shape[nq-2], q.shape[nq-1]
	S, Ev := k.shape[nq-2], v.shape[nq-1]
	if k.shape[nq-1] != E || v.shape[nq-2] != S {
		return nil, false
	}
	// E <= 256 keeps the scores GEMM in one K panel on every kernel, where
	// the epilogue scale is exactly MatmulScaled's; >= 64 multiply-adds per
	// product keeps both GEMMs off the plain-loop path for tiny problems.
	if L == 0 || S == 0 || E == 0 || Ev == 0 || E > 256 || L*S*E < 64 || L*Ev*S < 64 {
		return nil, false
	}
	// A zero alpha makes the packed GEMM skip the product (BLAS), where
	// the unfused scores are 0·(q·k): NaN for an infinite or NaN q·k.
	if q.dtype == F32 && float32(scale) == 0 || scale == 0 {
		return nil, false
	}
	for _, s := range batch {
		if s == 0 {
			return nil, false
		}
	}
	// The p·v GEMM sums over the S keys in K panels whose depth the
	// unfused GEMM picks per block of query rows (a short block packs A);
	// the fused one must sum over the same panels.
	if q.dtype == F32 && !cpu.SgemmPackedMatches(L, Ev, S) || q.dtype == F64 && !cpu.DgemmPackedMatches(L, Ev, S) {
		return nil, false
	}
	out = empty(append(slices.Clone(batch), L, Ev), q.dtype)
	a := attnArgs{q: q, k: k, v: v, out: out, batch: batch, L: L, S: S, E: E, Ev: Ev, scale: scale}
	if q.dtype == F32 {
		attnExactRun(&a, q.storage.F32(), k.storage.F32(), v.storage.F32(), out.storage.F32(), attnGemmF32, opsF32.softmax)
	} else {
		attnExactRun(&a, q.storage.F64(), k.storage.F64(), v.storage.F64(), out.storage.F64(), attnGemmF64, opsF64.softmax)
	}
	return out, true
}

// attnExactRun is SoftmaxAttention's loop: attnRun's blocking (tasks are
// (head, query block) pairs; kᵀ and v are packed once per head and
// worker) with the normalised row softmax between the two GEMMs.
func attnExactRun[T vfloat](a *attnArgs, qd, kd, vd, od []T, gemm attnGemm[T], softmaxRows func(dst, x []T, rows, cols int)) {
	nb := len(a.batch)
	bases := a.heads()
	heads := len(bases)
	var z T
	L, S, E, Ev := a.L, a.S, a.E, a.Ev
	rows, nblk := a.blocks(int(unsafe.Sizeof(z)))
	rsQ, csQ := a.q.strides[nb], a.q.strides[nb+1]
	rsK, csK := a.k.strides[nb], a.k.strides[nb+1]
	rsV, csV := a.v.strides[nb], a.v.strides[nb+1]
	rsO := a.out.strides[nb]
	scale := T(a.scale)
	cost := rows * S * (E + Ev) * 2
	parallelTasksChunked(heads*nblk, nblk, cost, parallelGrain, attnChunks, func(t0, t1 int) {
		ws := getAttnScratch[T]()
		defer attnScratchPool.Put(ws)
		ws.buf = grow(ws.buf, rows*S)
		ws.kbuf, ws.vbuf = grow(ws.kbuf, gemm.packSize(E, S)), grow(ws.vbuf, gemm.packSize(S, Ev))
		buf, kbuf, vbuf := ws.buf, ws.kbuf, ws.vbuf
		var kp, vp cpu.PackedB[T]
		packed := -1
		for t := t0; t < t1; t++ {
			h, blk := t/nblk, t%nblk
			b := bases[h]
			if h != packed {
				kp = gemm.pack(E, S, kd[b.k:], csK, rsK, kbuf)
				vp = gemm.pack(S, Ev, vd[b.v:], rsV, csV, vbuf)
				packed = h
			}
			i0 := blk * rows
			m := min(rows, L-i0)
			sc := buf[:m*S]
			gemm.mul(m, S, E, scale, qd[b.q+i0*rsQ:], rsQ, csQ, kp, 0, sc, S, 1)
			softmaxRows(sc, sc, m, S)
			gemm.mul(m, Ev, S, 1, sc, S, 1, vp, 0, od[b.o+i0*rsO:], rsO, 1)
		}
	})
}

// attnChunks is the number of task chunks per goroutine of the fused
// attention loops.
var attnChunks = 16
