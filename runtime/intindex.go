package runtime

// intIndex maps the int64 keys of a Dict (ints, bools, integral floats) to
// their positions in the dict's entries. It is CPython's dict index:
// open addressing over a power-of-two table, the key as its own hash,
// and the probe sequence i = 5*i + 1 + perturb (perturb starts as the
// hash and is shifted right 5 bits each step), so that consecutive keys
// occupy consecutive slots (cache-friendly, unlike a randomly seeded
// hash) while keys equal modulo the table size still spread out once
// their high bits enter. Deleted slots are marked and dropped when the
// table is rebuilt; the table is kept at most 2/3 full, marks included,
// so every probe sequence reaches an empty slot.
type intIndex struct {
	slots []intSlot
	used  int // slots holding a key or a deletion mark
	live  int // slots holding a key
}

type intSlot struct {
	key int64
	pos int // position+1 in entries; 0: empty; -1: deleted
}

// probe returns the slot holding k, or, when k is absent, the first empty
// slot of its probe sequence (slots must not be full).
func (x *intIndex) probe(k int64) *intSlot {
	mask := uint64(len(x.slots) - 1)
	perturb := uint64(k)
	i := perturb & mask
	for {
		s := &x.slots[i]
		if s.pos == 0 || (s.pos > 0 && s.key == k) {
			return s
		}
		perturb >>= 5
		i = (5*i + 1 + perturb) & mask
	}
}

// get returns the position of k.
func (x *intIndex) get(k int64) (int, bool) {
	if x.live == 0 {
		return 0, false
	}
	s := x.probe(k)
	return s.pos - 1, s.pos > 0
}

// getOrPut returns the position of k if present; else it records k at
// position pos and returns false.
func (x *intIndex) getOrPut(k int64, pos int) (int, bool) {
	if 3*(x.used+1) > 2*len(x.slots) {
		n := x.live + 1
		if x.used > x.live {
			// deletion marks: leave room for as many keys again, so
			// that a dict of steady size under inserts and deletes is
			// not rebuilt every few operations
			n = 2*x.live + 1
		}
		x.rebuild(n)
	}
	s := x.probe(k)
	if s.pos > 0 {
		return s.pos - 1, true
	}
	*s = intSlot{key: k, pos: pos + 1}
	x.used++
	x.live++
	return 0, false
}

// set moves k, which is present, to position pos.
func (x *intIndex) set(k int64, pos int) { x.probe(k).pos = pos + 1 }

// del removes k, which is present.
func (x *intIndex) del(k int64) {
	x.probe(k).pos = -1
	x.live--
}

// rebuild reallocates the table for n keys, dropping deletion marks.
func (x *intIndex) rebuild(n int) {
	size := 8
	for 3*n > 2*size {
		size *= 2
	}
	old := x.slots
	x.slots = make([]intSlot, size)
	x.used, x.live = 0, 0
	for _, s := range old {
		if s.pos > 0 {
			*x.probe(s.key) = s
			x.used++
			x.live++
		}
	}
}
