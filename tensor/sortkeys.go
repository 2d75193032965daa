package tensor

import (
	"math"
	"slices"
)

// Order keys and the row kernels of sort, argsort, topk, median and
// kthvalue.
//
// Every element is mapped to an unsigned order key whose integer order is
// the sort order: floats by their IEEE bits with the sign handled (negative
// values complemented, positive ones with the top bit set), -0.0 mapped to
// +0.0 (they compare equal, so a stable sort keeps their input order, as
// PyTorch), and every NaN to the largest key (NaN sorts last ascending,
// first descending, as PyTorch); signed integers with their sign bit
// flipped. A descending order complements the keys. Ties are broken by the
// element's index along the dim, so each row is sorted by (key, index),
// which is exactly the result of a stable sort; topk, median and kthvalue
// pick from that same order, so they agree with sort.
//
// Keys of 1-, 2- and 4-byte dtypes fit in 32 bits and are packed with the
// index into one uint64 (key<<32 | index) that is sorted by a least
// significant digit radix sort over its upper 4 bytes (bytes where every
// key agrees are skipped; LSD radix sort is stable, and the packed index
// breaks ties anyway); f64 and i64 keys are sorted as (key, index) pairs.
// Rows shorter than radixMin use the standard library's pdqsort instead.

// radixMin is the row length from which the radix sort replaces pdqsort.
const radixMin = 256

// keyBits returns the width of dt's order keys: 64 for f64/i64, else 32.
func keyBits(dt DType) int {
	if dt == F64 || dt == I64 {
		return 64
	}
	return 32
}

// descFlip is the mask that complements dt's keys for a descending order.
func descFlip(dt DType, desc bool) uint64 {
	switch {
	case !desc:
		return 0
	case keyBits(dt) == 64:
		return math.MaxUint64
	}
	return math.MaxUint32
}

// keyF32 is the order key of a float32 (32 bits): the IEEE bits with
// negative values complemented and positive ones offset by 2^31 (branch
// free: random signs would mispredict), -0 canonicalised to +0 (v+0 is
// +0 for v = -0 under round-to-nearest) and NaN the largest key.
func keyF32(v float32) uint64 {
	if v != v {
		return math.MaxUint32
	}
	b := math.Float32bits(v + 0)
	return uint64(b ^ (uint32(int32(b)>>31) | 1<<31))
}

// keyF64 is keyF32 for float64 (64-bit keys).
func keyF64(v float64) uint64 {
	if v != v {
		return math.MaxUint64
	}
	b := math.Float64bits(v + 0)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// isNaNKey reports whether key k (before flipping) is a float NaN's key.
func isNaNKey(dt DType, k uint64) bool {
	switch dt {
	case F64:
		return k == math.MaxUint64
	case F32, F16, BF16:
		return k == math.MaxUint32
	}
	return false
}

// rowKeys sets out[k] = key(element k) ^ flip for the n elements of storage
// t.storage starting at offset p with stride st, and returns how many of
// them are NaN.
func rowKeys(t *Tensor, p, st, n int, flip uint64, out []uint64) (nans int) {
	out = out[:n]
	s := t.storage
	switch t.dtype {
	case F32:
		x := s.F32()
		if st == 1 {
			for k, v := range x[p : p+n] {
				kk := keyF32(v)
				if kk == math.MaxUint32 {
					nans++
				}
				out[k] = kk ^ flip
			}
			return nans
		}
		for k := range out {
			v := x[p+k*st]
			if v != v {
				nans++
			}
			out[k] = keyF32(v) ^ flip
		}
	case F64:
		x := s.F64()
		if st == 1 {
			for k, v := range x[p : p+n] {
				kk := keyF64(v)
				if kk == math.MaxUint64 {
					nans++
				}
				out[k] = kk ^ flip
			}
			return nans
		}
		for k := range out {
			v := x[p+k*st]
			if v != v {
				nans++
			}
			out[k] = keyF64(v) ^ flip
		}
	case F16, BF16:
		x := s.U16()
		conv := F16ToF32
		if t.dtype == BF16 {
			conv = BF16ToF32
		}
		for k := range out {
			v := conv(x[p+k*st])
			if v != v {
				nans++
			}
			out[k] = keyF32(v) ^ flip
		}
	case I8:
		x := s.I8()
		for k := range out {
			out[k] = uint64(uint8(x[p+k*st])^0x80) ^ flip
		}
	case I16:
		x := s.I16()
		for k := range out {
			out[k] = uint64(uint16(x[p+k*st])^0x8000) ^ flip
		}
	case I32:
		x := s.I32()
		for k := range out {
			out[k] = uint64(uint32(x[p+k*st])^0x80000000) ^ flip
		}
	case I64:
		x := s.I64()
		for k := range out {
			out[k] = uint64(x[p+k*st]) ^ (1 << 63) ^ flip
		}
	default: // U8, Bool
		x := s.U8()
		for k := range out {
			out[k] = uint64(x[p+k*st]) ^ flip
		}
	}
	return nans
}

// kv is an order key and the element's index along the dim.
type kv struct {
	k uint64
	i int
}

func cmpKV(a, b kv) int {
	switch {
	case a.k < b.k:
		return -1
	case a.k > b.k:
		return 1
	case a.i < b.i:
		return -1
	case a.i > b.i:
		return 1
	}
	return 0
}

// sortScratch holds one worker's buffers, grown as needed.
type sortScratch struct {
	a, b []uint64
	p, q []kv
	full []int
	top  []int
	hist []int
}

// grow returns s[:n], or a new zeroed slice of n when s has less capacity.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// sortPacked sorts packed key<<32|index words (ascending) and returns the
// sorted slice (a or buf).
func sortPacked(a, buf []uint64) []uint64 {
	if len(a) < radixMin {
		slices.Sort(a)
		return a
	}
	var cnt [4][256]int
	for _, v := range a {
		cnt[0][byte(v>>32)]++
		cnt[1][byte(v>>40)]++
		cnt[2][byte(v>>48)]++
		cnt[3][byte(v>>56)]++
	}
	n := len(a)
	for pass := range 4 {
		shift := uint(32 + 8*pass)
		c := &cnt[pass]
		if c[byte(a[0]>>shift)] == n {
			continue // every key has this digit
		}
		pos := 0
		for d := range c {
			c[d], pos = pos, pos+c[d]
		}
		for _, v := range a {
			d := byte(v >> shift)
			buf[c[d]] = v
			c[d]++
		}
		a, buf = buf, a
	}
	return a
}

// sortKV sorts (key, index) pairs by key, stably (so by (key, index) when
// the indices are ascending on entry), and returns the sorted slice (a or
// buf).
func sortKV(a, buf []kv) []kv {
	if len(a) < radixMin {
		slices.SortFunc(a, cmpKV)
		return a
	}
	var cnt [8][256]int
	for _, v := range a {
		k := v.k
		for b := range 8 {
			cnt[b][byte(k>>(8*b))]++
		}
	}
	n := len(a)
	for pass := range 8 {
		shift := uint(8 * pass)
		c := &cnt[pass]
		if c[byte(a[0].k>>shift)] == n {
			continue
		}
		pos := 0
		for d := range c {
			c[d], pos = pos, pos+c[d]
		}
		for _, v := range a {
			d := byte(v.k >> shift)
			buf[c[d]] = v
			c[d]++
		}
		a, buf = buf, a
	}
	return a
}

// sortRow writes the sorted order of the n-element row at storage offset p
// (stride st) of t as indices into idx[0:n] (ascending key order with
// keys complemented by flip).
func (sc *sortScratch) sortRow(t *Tensor, p, st, n int, flip uint64, idx []int) {
	if keyBits(t.dtype) == 32 && n <= math.MaxUint32 {
		sc.a = grow(sc.a, n)
		rowKeys(t, p, st, n, flip, sc.a)
		for k, v := range sc.a {
			sc.a[k] = v<<32 | uint64(k)
		}
		sc.b = grow(sc.b, n)
		r := sortPacked(sc.a, sc.b)
		for k, v := range r {
			idx[k] = int(uint32(v))
		}
		return
	}
	sc.a = grow(sc.a, n)
	rowKeys(t, p, st, n, flip, sc.a)
	sc.p, sc.q = grow(sc.p, n), grow(sc.q, n)
	for k, v := range sc.a {
		sc.p[k] = kv{v, k}
	}
	r := sortKV(sc.p, sc.q)
	for k, v := range r {
		idx[k] = v.i
	}
}

// topkRow writes the indices of the first k elements of the row in
// (key ^ flip, index) order into idx[0:k], in that order. For k*8 <= n it
// streams the row through a bounded max-heap of the k best pairs so far
// (an element enters when its key is strictly below the heap's worst: on
// equal keys the earlier index already held wins); otherwise it sorts the
// row.
func (sc *sortScratch) topkRow(t *Tensor, p, st, n, k int, flip uint64, idx []int) {
	if k == 0 {
		return
	}
	if k*8 > n {
		sc.full = grow(sc.full, n)
		sc.sortRow(t, p, st, n, flip, sc.full)
		copy(idx[:k], sc.full)
		return
	}
	h := grow(sc.p, k)[:0]
	switch t.dtype {
	case F32:
		h = topkFloat(t.storage.F32(), p, st, n, k, flip, keyF32, h)
	case F64:
		h = topkFloat(t.storage.F64(), p, st, n, k, flip, keyF64, h)
	default:
		h = sc.topkHeap(t, p, st, n, k, flip, h)
	}
	slices.SortFunc(h, cmpKV)
	for q, v := range h {
		idx[q] = v.i
	}
	sc.p = h
}

// topkHeap streams the row's keys (computed in chunks) through the heap.
func (sc *sortScratch) topkHeap(t *Tensor, p, st, n, k int, flip uint64, h []kv) []kv {
	const chunk = 1024
	sc.a = grow(sc.a, min(chunk, n))
	for c0 := 0; c0 < n; c0 += chunk {
		m := min(chunk, n-c0)
		keys := sc.a[:m]
		rowKeys(t, p+c0*st, st, m, flip, keys)
		j := 0
		for ; len(h) < k && j < m; j++ { // fill the heap
			h = append(h, kv{keys[j], c0 + j})
			heapUp(h, len(h)-1)
		}
		for ; j < m; j++ {
			if keys[j] < h[0].k {
				h[0] = kv{keys[j], c0 + j}
				heapDown(h, 0)
			}
		}
	}
	return h
}

// topkFloat is topkHeap for a float row, filtering on the raw values: an
// element can only enter the heap when it beats the heap's worst value
// thr numerically (or is a NaN, the largest), which is one compare per
// element for the bulk of the row; only candidates get an order key.
func topkFloat[T float32 | float64](x []T, p, st, n, k int, flip uint64, key func(T) uint64, h []kv) []kv {
	largest := flip != 0
	for j := 0; j < k; j++ {
		h = append(h, kv{key(x[p+j*st]) ^ flip, j})
		heapUp(h, j)
	}
	thr := x[p+h[0].i*st]
	for j := k; j < n; j++ {
		v := x[p+j*st]
		if largest {
			if !(v > thr) && (v == v || thr != thr) {
				continue
			}
		} else if !(v < thr) && (v != v || thr == thr) {
			continue
		}
		// v's key is below the worst key (equal keys never pass the tests)
		h[0] = kv{key(v) ^ flip, j}
		heapDown(h, 0)
		thr = x[p+h[0].i*st]
	}
	return h
}

// heapUp and heapDown maintain a max-heap of h by (key, index).
func heapUp(h []kv, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if cmpKV(h[i], h[parent]) <= 0 {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func heapDown(h []kv, i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && cmpKV(h[r], h[l]) > 0 {
			c = r
		}
		if cmpKV(h[c], h[i]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// selectRow returns the index (along the dim) of the element at position
// pos of the row's stable ascending order. When nanPropagates and the row
// holds a NaN, the position is that of the first NaN instead (median's
// rule: NaN sorts last, so the first NaN in sorted order is the NaN with
// the lowest index). It selects the key at pos with quickselect on a copy
// of the keys (expected O(n)), then finds which of the equal keys sits at
// pos in the stable order: the (pos - #smaller)-th occurrence in index
// order.
func (sc *sortScratch) selectRow(t *Tensor, p, st, n, pos int, nanPropagates bool) int {
	sc.a = grow(sc.a, n)
	keys := sc.a
	nans := rowKeys(t, p, st, n, 0, keys)
	if nans > 0 && nanPropagates {
		for k, v := range keys {
			if isNaNKey(t.dtype, v) {
				return k
			}
		}
	}
	sc.b = grow(sc.b, n)
	var kth uint64
	var r int // rank of the wanted element among the keys equal to kth
	if n < radixSelectMin {
		work := sc.b
		copy(work, keys)
		kth = quickselect(work, pos)
		less := 0
		for _, v := range keys {
			if v < kth {
				less++
			}
		}
		r = pos - less
	} else {
		kth, r = sc.radixSelect(keys, pos, keyBits(t.dtype))
	}
	for k, v := range keys {
		if v == kth {
			if r == 0 {
				return k
			}
			r--
		}
	}
	return pos // unreachable: kth is an element of keys
}

// radixSelectMin is the row length from which selectRow uses radixSelect.
const radixSelectMin = 4096

// radixSelect returns the element at position k of the sorted order of
// keys (whose values fit in bits bits) and its rank among the keys equal
// to it (so that position k holds its rank-th occurrence), without
// reordering keys: a most significant digit radix select with 16-bit
// digits. Each round counts the digits of the remaining candidates, keeps
// the bucket holding position k (compacted into sc.b) and moves on to the
// next digit; a 32-bit key needs at most two rounds, and for spread-out
// data the second round sees a few hundred candidates.
func (sc *sortScratch) radixSelect(keys []uint64, k, bits int) (uint64, int) {
	if cap(sc.hist) < 1<<16 {
		sc.hist = make([]int, 1<<16)
	}
	hist := sc.hist[:1<<16]
	a := keys
	for shift := bits - 16; ; shift -= 16 {
		clear(hist)
		for _, v := range a {
			hist[uint16(v>>uint(shift))]++
		}
		digit := 0
		for ; k >= hist[digit]; digit++ {
			k -= hist[digit]
		}
		m := 0
		out := sc.b[:len(a)]
		for _, v := range a {
			if uint16(v>>uint(shift)) == uint16(digit) {
				out[m] = v
				m++
			}
		}
		a = out[:m]
		switch {
		case m == 1:
			return a[0], 0
		case shift == 0: // every candidate equals the result
			return a[k], k
		case m < 64:
			v := quickselect(a, k)
			for _, u := range a[:k] { // quickselect leaves smaller keys first
				if u < v {
					k--
				}
			}
			return v, k
		}
	}
}

// quickselect returns the element that would be at position k of a sorted
// copy of a, reordering a. Three-way partitioning around a median-of-three
// pivot keeps runs of equal keys cheap; after 64 rounds without finishing
// (adversarial input) the remaining range is sorted instead.
func quickselect(a []uint64, k int) uint64 {
	lo, hi := 0, len(a)-1
	for round := 0; hi > lo; round++ {
		if hi-lo < 16 || round == 64 {
			slices.Sort(a[lo : hi+1])
			return a[k]
		}
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi]
		if x > y {
			x, y = y, x
		}
		if y > z {
			y = z
		}
		pivot := max(x, y)
		lt, i, gt := lo, lo, hi
		for i <= gt {
			v := a[i]
			switch {
			case v < pivot:
				a[lt], a[i] = v, a[lt]
				lt++
				i++
			case v > pivot:
				a[gt], a[i] = v, a[gt]
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt - 1
		case k > gt:
			lo = gt + 1
		default:
			return pivot
		}
	}
	return a[k]
}
