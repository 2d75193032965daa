package tensor

import "slices"

// Fast paths of data-movement ops: flip, roll, tril/triu, gather,
// masked_fill and fill_. Each one moves raw element bits (bitsT, chosen by
// element size) with typed loops over the rows of a strided walk, copy()
// for unit-stride runs, instead of per-element offset arithmetic or
// compositions of slower ops. Results, output layouts and errors are those
// of the generic paths they replace (kept reachable through fastPathsOff,
// and compared with them in datamove_test.go).

// rawView is a view of t's storage with the given layout for a kernel's
// internal use. Unlike view it is not counted in the storage's refs, so a
// fresh result written through it still owns its storage (OwnsStorage,
// Release), and it carries no version counter or autograd link; it must
// not escape the kernel. strides may be shared with another tensor: no
// kernel writes them.
func rawView(t *Tensor, shape, strides []int, offset int) *Tensor {
	return &Tensor{storage: t.storage, shape: shape, strides: strides, offset: offset, dtype: t.dtype}
}

// narrowRaw is Narrow(d, start, length) as a rawView (d already wrapped,
// bounds known good).
func narrowRaw(t *Tensor, d, start, length int) *Tensor {
	sh := slices.Clone(t.shape)
	sh[d] = length
	return rawView(t, sh, t.strides, t.offset+start*t.strides[d])
}

// emptyLayoutLike allocates a result of t's shape and dtype laid out as
// layoutLike(r, t) would leave it: t's strides when t is dense but not
// contiguous, else contiguous. Contents unspecified.
func emptyLayoutLike(t *Tensor) *Tensor {
	if t.IsContiguous() || !t.IsNonOverlappingAndDense() {
		return empty(t.shape, t.dtype)
	}
	return emptyPreserve(t, t.dtype)
}

// flipFast is Flip of a non-empty t (dims marked in flip): one strided
// copy from a view of t whose flipped dims run backwards (negative
// strides, internal to the copy).
func flipFast(t *Tensor, flip []bool) *Tensor {
	out := emptyLayoutLike(t)
	st := slices.Clone(t.strides)
	off := t.offset
	for d, f := range flip {
		if f && t.shape[d] > 1 {
			off += (t.shape[d] - 1) * st[d]
			st[d] = -st[d]
		}
	}
	copySame(out, rawView(t, t.shape, st, off))
	return out
}

// rollDim returns t rolled by s (0 < s < n = t.shape[d]) along d as a new
// contiguous tensor, Cat([t[n-s:], t[:n-s]], d) without the
// concatenation's views: two strided copies.
func rollDim(t *Tensor, d, s int) *Tensor {
	n := t.shape[d]
	out := empty(t.shape, t.dtype)
	copySame(narrowRaw(out, d, s, n-s), narrowRaw(t, d, 0, n-s))
	copySame(narrowRaw(out, d, 0, s), narrowRaw(t, d, n-s, s))
	return out
}

// triangleFast is triangle (tril/triu) for t with at least 2 dims and
// elements: a contiguous result written row by row, the kept run of each
// row copied from t and the rest cleared.
func triangleFast(t *Tensor, k int, upper bool) *Tensor {
	out := empty(t.shape, t.dtype)
	nd := len(t.shape)
	R, C := t.shape[nd-2], t.shape[nd-1]
	k = min(max(k, -R), C) // j-i lies in (-R, C): the clamp keeps every test
	lead := rawView(t, t.shape[:nd-1], t.strides[:nd-1], t.offset)
	sc := t.strides[nd-1]
	switch t.dtype.ItemSize() {
	case 1:
		triBits(typed[uint8](out.storage), typed[uint8](t.storage), lead, R, C, sc, k, upper)
	case 2:
		triBits(typed[uint16](out.storage), typed[uint16](t.storage), lead, R, C, sc, k, upper)
	case 4:
		triBits(typed[uint32](out.storage), typed[uint32](t.storage), lead, R, C, sc, k, upper)
	case 8:
		triBits(typed[uint64](out.storage), typed[uint64](t.storage), lead, R, C, sc, k, upper)
	}
	return out
}

// triBits writes the rows of a tril/triu result: row r (C order over the
// leading dims, walked through lead) keeps columns j with j-i >= k (upper)
// or j-i <= k (lower), i = r mod R, read from s with column stride sc.
func triBits[T bitsT](o, s []T, lead *Tensor, R, C, sc, k int, upper bool) {
	r := 0
	walk1(lead, func(p, n, st int) {
		for q := 0; q < n; q++ {
			i := r % R
			lo, hi := 0, C
			if upper {
				lo = min(max(i+k, 0), C)
			} else {
				hi = min(max(i+k+1, 0), C)
			}
			row := o[r*C : (r+1)*C]
			clear(row[:lo])
			if hi > lo {
				src := p + q*st + lo*sc
				if sc == 1 {
					copy(row[lo:hi], s[src:src+hi-lo])
				} else {
					for j := lo; j < hi; j++ {
						row[j] = s[src]
						src += sc
					}
				}
			}
			clear(row[max(hi, lo):])
			r++
		}
	})
}

// gatherFast is Gather's copy for an i64 index of rank >= 1 read through
// its own strides (an expanded or transposed index is not made
// contiguous first): out (contiguous, index's shape) gets t's element at
// index's position with coordinate d replaced by the index value. The
// first out-of-range value in C order is the error, as in gatherBits.
func gatherFast[T bitsT](o, s []T, ix []int64, index, t *Tensor, d int) error {
	shape := index.shape
	last := len(shape) - 1
	n := shape[last]
	size, std := int64(t.shape[d]), t.strides[d]
	stl := t.strides[last]
	if last == d {
		stl = 0
	}
	sil := index.strides[last]
	idx := make([]int, last)
	base, ib := t.offset, index.offset
	bad := func(v int64) error {
		return errorf(RuntimeError, "index %d is out of bounds for dimension %d with size %d", v, d, size)
	}
	for r := 0; ; r++ {
		orow := o[r*n : (r+1)*n]
		switch {
		case sil == 0 && stl == 0: // one index value, one element: a fill
			v := ix[ib]
			if v < 0 || v >= size {
				return bad(v)
			}
			fillRun(orow, s[base+int(v)*std])
		case sil == 1:
			for j, v := range ix[ib : ib+n] {
				if v < 0 || v >= size {
					return bad(v)
				}
				orow[j] = s[base+j*stl+int(v)*std]
			}
		default:
			for j := range orow {
				v := ix[ib+j*sil]
				if v < 0 || v >= size {
					return bad(v)
				}
				orow[j] = s[base+j*stl+int(v)*std]
			}
		}
		k := last - 1
		for ; k >= 0; k-- {
			sk := t.strides[k]
			if k == d {
				sk = 0 // dim d's coordinate comes from the index values
			}
			idx[k]++
			base += sk
			ib += index.strides[k]
			if idx[k] < shape[k] {
				break
			}
			base -= sk * shape[k]
			ib -= index.strides[k] * shape[k]
			idx[k] = 0
		}
		if k < 0 {
			return nil
		}
	}
}

// maskedFillFast writes MaskedFill's result into out (contiguous, the
// broadcast shape): v's bits (already t's dtype) where mask is set, else
// t's element, in one pass over the three operands (broadcast views of
// the same shape as out).
func maskedFillFast(out, mask, t, v *Tensor) {
	m := mask.storage.U8()
	switch out.dtype.ItemSize() {
	case 1:
		blendBits(typed[uint8](out.storage), m, typed[uint8](t.storage), typed[uint8](v.storage)[v.offset], out, mask, t)
	case 2:
		blendBits(typed[uint16](out.storage), m, typed[uint16](t.storage), typed[uint16](v.storage)[v.offset], out, mask, t)
	case 4:
		blendBits(typed[uint32](out.storage), m, typed[uint32](t.storage), typed[uint32](v.storage)[v.offset], out, mask, t)
	case 8:
		blendBits(typed[uint64](out.storage), m, typed[uint64](t.storage), typed[uint64](v.storage)[v.offset], out, mask, t)
	}
}

// blendBits sets o = m ? v : s elementwise; unit-stride rows use a
// branch-free select (a random mask would defeat branch prediction).
func blendBits[T bitsT](o []T, m []uint8, s []T, v T, out, mask, src *Tensor) {
	walk(out.shape, 3, [3][]int{out.strides, mask.strides, src.strides}, [3]int{out.offset, mask.offset, src.offset},
		func(po, pm, ps, n, so, sm, ss int) {
			if so == 1 && sm == 1 && ss == 1 {
				oo, mm, sr := o[po:po+n], m[pm:pm+n], s[ps:ps+n]
				for i := range oo {
					var b T
					if mm[i] != 0 {
						b = ^T(0)
					}
					oo[i] = sr[i]&^b | v&b
				}
				return
			}
			for i := 0; i < n; i++ {
				if m[pm+i*sm] != 0 {
					o[po+i*so] = v
				} else {
					o[po+i*so] = s[ps+i*ss]
				}
			}
		})
}

// fillFast writes v's element (already dst's dtype) to every element of
// dst, which has no internally overlapping dims.
func fillFast(dst, v *Tensor) {
	switch dst.dtype.ItemSize() {
	case 1:
		fillBits(typed[uint8](dst.storage), typed[uint8](v.storage)[v.offset], dst)
	case 2:
		fillBits(typed[uint16](dst.storage), typed[uint16](v.storage)[v.offset], dst)
	case 4:
		fillBits(typed[uint32](dst.storage), typed[uint32](v.storage)[v.offset], dst)
	case 8:
		fillBits(typed[uint64](dst.storage), typed[uint64](v.storage)[v.offset], dst)
	}
}

func fillBits[T bitsT](d []T, v T, dst *Tensor) {
	walk1(dst, func(p, n, s int) {
		if s == 1 {
			fillRun(d[p:p+n], v)
			return
		}
		for i := 0; i < n; i++ {
			d[p+i*s] = v
		}
	})
}

// fillRun sets every element of r to v: clear for zero, else a short
// loop, then copies that double the filled prefix (memmove speed).
func fillRun[T bitsT](r []T, v T) {
	if v == 0 {
		clear(r)
		return
	}
	const head = 16
	k := min(len(r), head)
	for i := range r[:k] {
		r[i] = v
	}
	for k < len(r) {
		k += copy(r[k:], r[:k])
	}
}

// copyTransposed handles copySame when the pair of layouts coalesces to a
// 2-D transpose (dst unit-stride along its last dim, src along the other,
// as x.t().contiguous()); it reports whether it did. The copy runs in
// transBlock x transBlock tiles, four dst rows at a time, so the four
// reads of one step are adjacent in src.
func copyTransposed[T bitsT](d, s []T, dst, src *Tensor) bool {
	if dst.hasInternalOverlap() {
		return false
	}
	for _, n := range dst.shape {
		if n == 0 {
			return false
		}
	}
	cs, cst := coalesce(dst.shape, [3][]int{dst.strides, src.strides}, 2)
	if len(cs) != 2 || cst[0][1] != 1 || cst[1][0] != 1 || cs[0] < 8 || cs[1] < 8 {
		return false
	}
	transposeBits(d, s, cs[0], cs[1], dst.offset, cst[0][0], src.offset, cst[1][1])
	return true
}

const transBlock = 32

// transposeBits sets d[pd + i*ldd + j] = s[ps + i + j*lds] for i < R,
// j < C.
func transposeBits[T bitsT](d, s []T, R, C, pd, ldd, ps, lds int) {
	for i0 := 0; i0 < R; i0 += transBlock {
		i1 := min(i0+transBlock, R)
		for j0 := 0; j0 < C; j0 += transBlock {
			j1 := min(j0+transBlock, C)
			w := j1 - j0
			i := i0
			for ; i+8 <= i1; i += 8 {
				q := pd + i*ldd + j0
				r0, r1 := d[q:q+w], d[q+ldd:q+ldd+w]
				r2, r3 := d[q+2*ldd:q+2*ldd+w], d[q+3*ldd:q+3*ldd+w]
				r4, r5 := d[q+4*ldd:q+4*ldd+w], d[q+5*ldd:q+5*ldd+w]
				r6, r7 := d[q+6*ldd:q+6*ldd+w], d[q+7*ldd:q+7*ldd+w]
				r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)] // bounds-check hints
				r4, r5, r6, r7 = r4[:len(r0)], r5[:len(r0)], r6[:len(r0)], r7[:len(r0)]
				p := ps + i + j0*lds
				for j := range r0 {
					c := s[p : p+8 : p+8]
					r0[j], r1[j], r2[j], r3[j] = c[0], c[1], c[2], c[3]
					r4[j], r5[j], r6[j], r7[j] = c[4], c[5], c[6], c[7]
					p += lds
				}
			}
			for ; i < i1; i++ {
				r := d[pd+i*ldd+j0 : pd+i*ldd+j0+w]
				p := ps + i + j0*lds
				for j := range r {
					r[j] = s[p]
					p += lds
				}
			}
		}
	}
}
