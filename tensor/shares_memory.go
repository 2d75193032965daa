package tensor

import "sort"

// Exact memory-overlap test behind SharesMemory.
//
// Deciding whether two strided views share an element is a bounded linear
// Diophantine problem (NP-hard in general; numpy's solve_may_share_memory
// searches it under a work bound). tsr decides it in stages, cheapest
// first, each of them exact:
//
//  1. different storages, an empty view, or disjoint byte extents: no;
//  2. the same first byte: yes;
//  3. the gcd test: every byte address of a is ≡ a's first byte modulo g,
//     the gcd of all byte strides of both views (and likewise for b), so
//     when no two such residues fall within one element no byte is shared
//     (x[::2] against x[1::2]);
//  4. a view that is dense over its extent (it covers every byte between
//     its first and last element: a contiguous tensor or a permutation of
//     one) shares memory with a view whose first or last element lies in
//     that extent;
//  5. otherwise a bitmap over the common byte range (in elements when the
//     item sizes agree) is filled from one view's elements and probed with
//     the other's.
//
// Stage 5 runs only while the range has at most overlapBitmapMax cells and
// the two views have at most overlapWorkMax elements together; beyond that
// the answer is the conservative "yes" of the extent test, as PyTorch's
// overlap check, so that callers that clone on overlap stay correct.

const (
	overlapBitmapMax = 1 << 24 // cells (bits) in the stage-5 bitmap: 2 MiB
	overlapWorkMax   = 1 << 24 // elements visited by stage 5
)

// sharesMemoryExact implements SharesMemory for two nonempty views of one
// storage whose byte extents [lo1, hi1) and [lo2, hi2) overlap.
func sharesMemoryExact(a, b *Tensor, lo1, hi1, lo2, hi2 int) bool {
	isa, isb := a.dtype.ItemSize(), b.dtype.ItemSize()
	if a.offset*isa == b.offset*isb {
		return true
	}
	// stage 3: residues modulo the gcd of the byte strides
	g := 0
	for _, t := range [2]*Tensor{a, b} {
		is := t.dtype.ItemSize()
		for i, s := range t.shape {
			if s > 1 {
				g = gcd(g, t.strides[i]*is)
			}
		}
	}
	if g > 0 {
		r := ((a.offset*isa-b.offset*isb)%g + g) % g
		// some a-byte minus some b-byte start lies in r + gZ; overlap needs
		// a difference in (-isa, isb)
		if r >= isb && g-r >= isa {
			return false
		}
	}
	// stage 4: a view dense over its extent shares memory with a view that
	// has its first or last element inside that extent, which is the case
	// unless the other extent strictly encloses it
	if a.denseExtent() && (lo2 >= lo1 || hi2 <= hi1) || b.denseExtent() && (lo1 >= lo2 || hi1 <= hi2) {
		return true
	}
	// stage 5: bitmap over the common range
	lo, hi := max(lo1, lo2), min(hi1, hi2)
	unit := 1
	if isa == isb {
		unit = isa // offsets and strides are whole elements
	}
	cells := (hi - lo + unit - 1) / unit
	if cells > overlapBitmapMax || a.Numel()+b.Numel() > overlapWorkMax {
		return true // conservative beyond the work bound
	}
	bits := make([]uint64, (cells+63)/64)
	mark := func(byteStart, n int) {
		for c := byteStart / unit; c < (byteStart+n+unit-1)/unit; c++ {
			i := c - lo/unit
			if i >= 0 && i < cells {
				bits[i>>6] |= 1 << (i & 63)
			}
		}
	}
	test := func(byteStart, n int) bool {
		for c := byteStart / unit; c < (byteStart+n+unit-1)/unit; c++ {
			i := c - lo/unit
			if i >= 0 && i < cells && bits[i>>6]&(1<<(i&63)) != 0 {
				return true
			}
		}
		return false
	}
	// mark the view with fewer elements, probe with the other
	m, p := a, b
	if b.Numel() < a.Numel() {
		m, p = b, a
	}
	ism, isp := m.dtype.ItemSize(), p.dtype.ItemSize()
	eachOffset(m, func(off int) bool {
		if byteStart := off * ism; byteStart+ism > lo && byteStart < hi {
			mark(byteStart, ism)
		}
		return true
	})
	found := false
	eachOffset(p, func(off int) bool {
		if byteStart := off * isp; byteStart+isp > lo && byteStart < hi && test(byteStart, isp) {
			found = true
			return false
		}
		return true
	})
	return found
}

// denseExtent reports whether t's elements cover every element slot
// between its first and last one exactly once (C-contiguous up to a
// permutation of dims, size-1 dims ignored).
func (t *Tensor) denseExtent() bool {
	type ds struct{ size, stride int }
	dims := make([]ds, 0, len(t.shape))
	for i, s := range t.shape {
		if s > 1 {
			dims = append(dims, ds{s, t.strides[i]})
		}
	}
	sort.Slice(dims, func(i, j int) bool { return dims[i].stride < dims[j].stride })
	want := 1
	for _, d := range dims {
		if d.stride != want {
			return false
		}
		want *= d.size
	}
	return true
}

// eachOffset calls fn with the storage offset (in elements) of every
// element of t, stopping when fn returns false.
func eachOffset(t *Tensor, fn func(off int) bool) {
	n := len(t.shape)
	if n == 0 {
		fn(t.offset)
		return
	}
	idx := make([]int, n)
	inner, innerStride := t.shape[n-1], t.strides[n-1]
	off := t.offset
	for {
		for i := 0; i < inner; i++ {
			if !fn(off + i*innerStride) {
				return
			}
		}
		d := n - 2
		for ; d >= 0; d-- {
			idx[d]++
			off += t.strides[d]
			if idx[d] < t.shape[d] {
				break
			}
			off -= idx[d] * t.strides[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
