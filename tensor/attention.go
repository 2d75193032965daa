package tensor

import (
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// ScaledDotProductAttention is the fused forward of
// torch.nn.functional.scaled_dot_product_attention without dropout:
//
//	out = softmax(scale · q kᵀ + mask) v
//
// q is [*, L, E], k is [*, S, E], v is [*, S, Ev]; the leading (batch)
// dims of the three broadcast together, and out is [batch, L, Ev],
// contiguous, in q's dtype. mask, when not nil, broadcasts to
// [batch, L, S]: a Bool mask keeps the scores where it is true and sets
// the others to -inf; a float mask (f32 or q's dtype) is added to the
// scores. With E == 0 every score is 0 (the result averages v's rows).
// causal applies the lower-triangular mask tril(ones(L, S)) (query i
// attends keys j <= i; PyTorch's top-left alignment) and excludes mask.
// scale is usually 1/sqrt(E). A query row whose keys are all masked out
// gives NaN, as softmax over all -inf does. f16/bf16 inputs are computed
// in f32 and rounded once.
//
// The L×S score matrix is never materialised: each worker takes a head
// and a block of query rows, computes that block of scores into a
// buffer that stays in L2 (one GEMM with alpha = scale), masks it,
// applies the row softmax in place and multiplies by v (a second GEMM)
// straight into out. With is_causal the keys above the block's last row
// are skipped, halving the work. This is the blocking of FlashAttention
// (Dao et al., 2022) without its online softmax: a whole row of scores
// fits in cache for the sequence lengths a CPU runs. Rounding differs
// from the unfused formula by the usual GEMM reordering bound.
//
// Errors (RuntimeError) are those of CheckScaledDotProductAttention.
func ScaledDotProductAttention(q, k, v, mask *Tensor, causal bool, scale float64) (*Tensor, error) {
	batch, err := CheckScaledDotProductAttention(q, k, v, mask, causal)
	if err != nil {
		return nil, err
	}
	nq, nk, nv := q.Dim(), k.Dim(), v.Dim()
	L, E := q.shape[nq-2], q.shape[nq-1]
	S := k.shape[nk-2]
	Ev := v.shape[nv-1]
	ct := computeType(q.dtype)
	full := append(append([]int(nil), batch...), L, S)
	var m *Tensor
	if mask != nil {
		m = mask
		if m.dtype != Bool {
			m = m.toDType(ct)
		}
		m = broadcastTo(m, full)
	}
	bq := append(append([]int(nil), batch...), L, E)
	bk := append(append([]int(nil), batch...), S, E)
	bv := append(append([]int(nil), batch...), S, Ev)
	qe := broadcastTo(q.toDType(ct), bq)
	ke := broadcastTo(k.toDType(ct), bk)
	ve := broadcastTo(v.toDType(ct), bv)
	osh := append(append([]int(nil), batch...), L, Ev)
	if S == 0 { // no keys: an empty softmax, and an empty sum of rows of v
		return zeros(osh, q.dtype), nil
	}
	out := empty(osh, ct)
	if out.Numel() > 0 {
		a := attnArgs{q: qe, k: ke, v: ve, mask: m, out: out, batch: batch, L: L, S: S, E: E, Ev: Ev, causal: causal, scale: scale}
		if ct == F32 {
			attnRun(&a, qe.storage.F32(), ke.storage.F32(), ve.storage.F32(), out.storage.F32(), attnGemmF32, cpu.ExpShiftRowsF32, cpu.MulScalarF32)
		} else {
			attnRun(&a, qe.storage.F64(), ke.storage.F64(), ve.storage.F64(), out.storage.F64(), attnGemmF64, cpu.ExpShiftRowsF64, cpu.MulScalarF64)
		}
	}
	return out.toDType(q.dtype), nil
}

// CheckScaledDotProductAttention validates the arguments of
// ScaledDotProductAttention (and of any other implementation of
// scaled_dot_product_attention, so that every path reports the same
// errors) and returns the broadcast batch shape. query, key and value
// must have at least 2 dims, the same floating-point dtype, query
// [*, L, E], key [*, S, E], value [*, S, Ev] with batch dims that
// broadcast; mask, when not nil, must be Bool, f32 or query's dtype (as
// in PyTorch) and broadcast to [batch, L, S] without adding dims; mask
// and causal exclude each other. Errors are RuntimeErrors.
func CheckScaledDotProductAttention(q, k, v, mask *Tensor, causal bool) ([]int, error) {
	const fn = "scaled_dot_product_attention"
	if q.Dim() < 2 || k.Dim() < 2 || v.Dim() < 2 {
		return nil, errorf(RuntimeError, "%s: query, key and value must have at least 2 dims, got %s, %s and %s",
			fn, fmtList(q.shape), fmtList(k.shape), fmtList(v.shape))
	}
	if q.dtype != k.dtype || q.dtype != v.dtype {
		return nil, errorf(RuntimeError, "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s and value.dtype: %s instead.",
			q.dtype, k.dtype, v.dtype)
	}
	if !q.dtype.IsFloat() {
		return nil, errorf(RuntimeError, "%s: expected a floating-point query, got %s", fn, q.dtype)
	}
	nq, nk, nv := q.Dim(), k.Dim(), v.Dim()
	L, E := q.shape[nq-2], q.shape[nq-1]
	S, Ek := k.shape[nk-2], k.shape[nk-1]
	Sv := v.shape[nv-2]
	if E != Ek || S != Sv {
		return nil, errorf(RuntimeError, "%s: query %s, key %s and value %s do not fit: need query [..., L, E], key [..., S, E], value [..., S, Ev]",
			fn, fmtList(q.shape), fmtList(k.shape), fmtList(v.shape))
	}
	batch, err := BroadcastShapes(q.shape[:nq-2], k.shape[:nk-2], v.shape[:nv-2])
	if err != nil {
		return nil, errorf(RuntimeError, "%s: batch dims of query %s, key %s and value %s do not broadcast: %s",
			fn, fmtList(q.shape), fmtList(k.shape), fmtList(v.shape), err.Error())
	}
	if causal && mask != nil {
		return nil, errorf(RuntimeError, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
	}
	if mask != nil {
		if mask.dtype != Bool && mask.dtype != F32 && mask.dtype != q.dtype {
			return nil, errorf(RuntimeError, "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: %s and query.dtype: %s instead.", mask.dtype, q.dtype)
		}
		full := append(append([]int(nil), batch...), L, S)
		if b, err := BroadcastShapes(mask.shape, full); err != nil || !slices.Equal(b, full) {
			return nil, errorf(RuntimeError, "%s: attn_mask %s does not broadcast to %s", fn, fmtList(mask.shape), fmtList(full))
		}
	}
	return batch, nil
}

type attnArgs struct {
	q, k, v, mask, out *Tensor
	batch              []int
	L, S, E, Ev        int
	causal             bool
	scale              float64
}

// attnGemm is the dtype's pack-once GEMM: pack(k, n, b, rsB, csB, buf)
// and mul(m, n, k, alpha, a, rsA, csA, packed, beta, c, rsC, csC).
type attnGemm[T vfloat] struct {
	packSize func(k, n int) int
	pack     func(k, n int, b []T, rsB, csB int, buf []T) cpu.PackedB[T]
	mul      func(m, n, k int, alpha T, a []T, rsA, csA int, bp cpu.PackedB[T], beta T, c []T, rsC, csC int)
}

var (
	attnGemmF32 = attnGemm[float32]{cpu.SgemmPackBSize, cpu.SgemmPackB, cpu.SgemmPacked}
	attnGemmF64 = attnGemm[float64]{cpu.DgemmPackBSize, cpu.DgemmPackB, cpu.DgemmPacked}
)

// attnBlockBytes is the size of the per-worker score block (query rows ×
// keys): small enough to stay in L2 next to one head's k and v.
const attnBlockBytes = 256 << 10

// attnScratch holds one worker's buffers for attnRun: the score block,
// the row normalisers and the packed kᵀ and v of a head. Every element
// is written before it is read, so reused buffers need no clearing.
type attnScratch[T vfloat] struct{ buf, inv, kbuf, vbuf []T }

// attnScratchPool recycles attnScratch values (of either dtype) across
// workers and calls.
var attnScratchPool sync.Pool

func getAttnScratch[T vfloat]() *attnScratch[T] {
	if ws, ok := attnScratchPool.Get().(*attnScratch[T]); ok {
		return ws
	}
	return new(attnScratch[T])
}

// attnBase holds one head's base offsets into q, k, v, out and mask.
type attnBase struct{ q, k, v, o, m int }

// heads returns every head's base offsets, in row-major order over the
// batch dims (which may be broadcast or strided views).
func (a *attnArgs) heads() []attnBase {
	nb := len(a.batch)
	n := 1
	for _, s := range a.batch {
		n *= s
	}
	bases := make([]attnBase, n)
	idx := make([]int, nb)
	for h := range bases {
		b := attnBase{q: a.q.offset, k: a.k.offset, v: a.v.offset, o: a.out.offset}
		if a.mask != nil {
			b.m = a.mask.offset
		}
		for d, i := range idx {
			b.q += i * a.q.strides[d]
			b.k += i * a.k.strides[d]
			b.v += i * a.v.strides[d]
			b.o += i * a.out.strides[d]
			if a.mask != nil {
				b.m += i * a.mask.strides[d]
			}
		}
		bases[h] = b
		for d := nb - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < a.batch[d] {
				break
			}
			idx[d] = 0
		}
	}
	return bases
}

// blocks returns the query rows per task (a score block of rows × S
// elements of esz bytes fits attnBlockBytes; whole 12-row register tiles
// when there are that many) and the number of blocks per head.
func (a *attnArgs) blocks(esz int) (rows, nblk int) {
	rows = max(1, min(a.L, attnBlockBytes/(esz*max(a.S, 1))))
	if rows >= 12 {
		rows -= rows % 12
	}
	return rows, (a.L + rows - 1) / rows
}

func attnRun[T vfloat](a *attnArgs, qd, kd, vd, od []T, gemm attnGemm[T], expRows func(dst, x []T, rows, cols int, inv []T), scal func(dst, x []T, s T)) {
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
	var rsM, csM int
	var mb []uint8
	var mf []T
	if a.mask != nil {
		rsM, csM = a.mask.strides[nb], a.mask.strides[nb+1]
		if a.mask.dtype == Bool {
			mb = a.mask.storage.U8()
		} else {
			mf = typed[T](a.mask.storage)
		}
	}
	scale := T(a.scale)
	negInf := T(math.Inf(-1))
	// from is x[off:], or nil for an empty operand (E == 0: its storage
	// is empty whatever its offset).
	from := func(x []T, off int) []T {
		if len(x) == 0 {
			return nil
		}
		return x[off:]
	}
	// Tasks are (head, query block) pairs in head order; a worker packs a
	// head's kᵀ (E×S) and v (S×Ev) into GEMM panels once, when it starts on
	// that head, and every block of query rows reuses them.
	cost := rows * S * (E + Ev) * 2
	parallelTasksChunked(heads*nblk, nblk, cost, parallelGrain, attnChunks, func(t0, t1 int) {
		ws := getAttnScratch[T]()
		defer attnScratchPool.Put(ws)
		ws.buf, ws.inv = grow(ws.buf, rows*S), grow(ws.inv, rows)
		ws.kbuf, ws.vbuf = grow(ws.kbuf, gemm.packSize(E, S)), grow(ws.vbuf, gemm.packSize(S, Ev))
		buf, inv, kbuf, vbuf := ws.buf, ws.inv, ws.kbuf, ws.vbuf
		var kp, vp cpu.PackedB[T]
		packed := -1
		for t := t0; t < t1; t++ {
			h, blk := t/nblk, t%nblk
			b := bases[h]
			if h != packed {
				kp = gemm.pack(E, S, from(kd, b.k), csK, rsK, kbuf)
				vp = gemm.pack(S, Ev, from(vd, b.v), rsV, csV, vbuf)
				packed = h
			}
			i0 := blk * rows
			m := min(rows, L-i0)
			n := S // keys this block attends to
			if a.causal {
				n = min(S, i0+m)
			}
			sc := buf[:m*n]
			// scores = scale · q[i0:i0+m] kᵀ[:, :n]   (m×n, row stride n);
			// a zero scale multiplies afterwards, since a GEMM with
			// alpha = 0 skips the product (0 · inf must stay NaN)
			if scale != 0 {
				gemm.mul(m, n, E, scale, from(qd, b.q+i0*rsQ), rsQ, csQ, kp, 0, sc, n, 1)
			} else {
				gemm.mul(m, n, E, 1, from(qd, b.q+i0*rsQ), rsQ, csQ, kp, 0, sc, n, 1)
				scal(sc, sc, 0)
			}
			switch {
			case a.causal:
				for i := 0; i < m; i++ {
					if j0 := i0 + i + 1; j0 < n {
						row := sc[i*n : (i+1)*n]
						for j := j0; j < n; j++ {
							row[j] = negInf
						}
					}
				}
			case mb != nil:
				for i := 0; i < m; i++ {
					row := sc[i*n : (i+1)*n]
					mo := b.m + (i0+i)*rsM
					for j := range row {
						if mb[mo+j*csM] == 0 {
							row[j] = negInf
						}
					}
				}
			case mf != nil:
				for i := 0; i < m; i++ {
					row := sc[i*n : (i+1)*n]
					mo := b.m + (i0+i)*rsM
					for j := range row {
						row[j] += mf[mo+j*csM]
					}
				}
			}
			// p = softmax(scores) = inv[i] · exp(scores - rowmax); the
			// normalisation is applied to the m×Ev output, not the m×n p.
			expRows(sc, sc, m, n, inv)
			// out[i0:i0+m] = p v[:n]
			gemm.mul(m, Ev, n, 1, sc, n, 1, vp, 0, od[b.o+i0*rsO:], rsO, 1)
			if Ev > 0 && n > 0 {
				for i := 0; i < m; i++ {
					row := od[b.o+(i0+i)*rsO : b.o+(i0+i)*rsO+Ev]
					scal(row, row, inv[i])
				}
			}
		}
	})
}
