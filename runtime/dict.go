package runtime

import (
	"math"
	"reflect"
	"strings"
)

// Dict is an insertion-ordered tsr dictionary. Keys must be hashable:
// none, bool, int, float, str, tuples of hashables, or values of a
// comparable Go type (compared by identity, e.g. a tensor).
//
// The index is split by key class so that the common keys hash without
// boxing: int, bool and integral float keys (1, 1.0 and true are one key,
// as in Python) live in ints (a CPython-style table, see intIndex), str
// keys in strs, and every other key, as hashKey maps it, in others.
type Dict struct {
	entries []dictEntry    // insertion order; a deleted entry is a tombstone (nil key)
	ints    intIndex       // integral key -> position in entries
	strs    map[string]int // str key -> position in entries
	others  map[any]int    // hashKey(key) -> position in entries, for the other keys
	dead    int            // tombstones in entries
	moves   uint64         // bumped when entries move (compact, clear): iterators check it
}

type dictEntry struct {
	key, value Value
}

// intKey returns the int64 a key equal to an int stands for: an Int, a
// Bool, or an integral Float within int64's range (-0.0 is 0). Any other
// float, NaN and the infinities included, is not one (see hashKey).
func intKey(v Value) (int64, bool) {
	if f, ok := v.(Float); ok {
		return floatInt64(float64(f))
	}
	return AsInt(v)
}

// floatInt64 returns f as an int64 when f is an integer in int64's range
// [-2**63, 2**63) (-0.0 is 0), the floats equal to an int. Any other
// float, NaN and the infinities included, is not one.
func floatInt64(f float64) (int64, bool) {
	if f == math.Trunc(f) && f >= math.MinInt64 && f < -math.MinInt64 {
		return int64(f), true
	}
	return 0, false
}

// find returns the position of key in entries.
func (d *Dict) find(key Value) (int, bool, error) {
	if tn, ok := key.(TypeName); ok {
		key = String(tn) // type(x) is the key of its name
	}
	if k, ok := intKey(key); ok {
		i, ok := d.ints.get(k)
		return i, ok, nil
	}
	if s, ok := key.(String); ok {
		i, ok := d.strs[string(s)]
		return i, ok, nil
	}
	k, err := hashKey(key)
	if err != nil {
		return 0, false, err
	}
	i, ok := d.others[k]
	return i, ok, nil
}

// put sets d[key] = v: in place if key is present, else appended.
func (d *Dict) put(key, v Value) error {
	if tn, ok := key.(TypeName); ok {
		key = String(tn) // type(x) is the key of its name
	}
	n := len(d.entries)
	if k, ok := intKey(key); ok {
		if i, ok := d.ints.getOrPut(k, n); ok {
			d.entries[i].value = v
			return nil
		}
	} else if s, ok := key.(String); ok {
		if d.strs == nil {
			d.strs = make(map[string]int, cap(d.entries)-n)
		}
		if i, ok := d.strs[string(s)]; ok {
			d.entries[i].value = v
			return nil
		}
		d.strs[string(s)] = n
	} else {
		k, err := hashKey(key)
		if err != nil {
			return err
		}
		if d.others == nil {
			d.others = map[any]int{}
		}
		if i, ok := d.others[k]; ok {
			d.entries[i].value = v
			return nil
		}
		d.others[k] = n
	}
	d.entries = appendDoubling(d.entries, dictEntry{key, v})
	return nil
}

// appendDoubling is append that doubles the capacity of a full slice.
// Go's append grows a large slice by about 1.25x; for the pointerful
// slices of a growing list or dict the extra copying, zeroing and GC
// write barriers of the many reallocations cost more than the memory
// saved (appending 300k values ran 1.7x faster with doubling).
func appendDoubling[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		ns := make([]T, len(s), max(8, 2*cap(s)))
		copy(ns, s)
		s = ns
	}
	return append(s, v)
}

// unindex removes key, known to be present and hashable, from the index.
func (d *Dict) unindex(key Value) {
	if k, ok := intKey(key); ok {
		d.ints.del(k)
	} else if s, ok := key.(String); ok {
		delete(d.strs, string(s))
	} else {
		k, _ := hashKey(key)
		delete(d.others, k)
	}
}

// reindex records that key, present and hashable, is at position i.
func (d *Dict) reindex(key Value, i int) {
	if k, ok := intKey(key); ok {
		d.ints.set(k, i)
	} else if s, ok := key.(String); ok {
		d.strs[string(s)] = i
	} else {
		k, _ := hashKey(key)
		d.others[k] = i
	}
}

// clear empties the dict.
func (d *Dict) clear() {
	d.entries, d.dead = nil, 0
	d.ints, d.strs, d.others = intIndex{}, nil, nil
	d.moves++
}

// live returns the entries in insertion order without tombstones.
func (d *Dict) live() []dictEntry {
	if d.dead > 0 {
		d.compact()
	}
	return d.entries
}

// compact removes the tombstones, O(len(entries)).
func (d *Dict) compact() {
	j := 0
	for _, e := range d.entries {
		if e.key != nil {
			d.entries[j] = e
			d.reindex(e.key, j)
			j++
		}
	}
	clear(d.entries[j:])
	d.entries = d.entries[:j]
	d.dead = 0
	d.moves++
}

// NewDict returns an empty dict with room for n entries.
func NewDict(n int) *Dict {
	return &Dict{entries: make([]dictEntry, 0, n)}
}

// String returns the dict's repr, Python style: {'lr': 0.1} (a dict that
// contains itself prints the inner occurrence as {...}).
func (d *Dict) String() string { return reprString(d) }
func (*Dict) Type() string     { return "dict" }
func (d *Dict) Truth() bool    { return d.Len() > 0 }
func (d *Dict) Len() int       { return len(d.entries) - d.dead }

// Iterate returns an iterator over the keys in insertion order. Like
// CPython's, it fails (Err, RuntimeError) when the dict's size changed
// since the last step ("dictionary changed size during iteration"), and
// when it finds more keys than the dict had at the start, or its entries
// were moved (compacted or cleared), "dictionary keys changed during
// iteration". Replacing the value of a present key is allowed.
func (d *Dict) Iterate() Iterator {
	d.live() // no tombstones, so positions are stable until a delete compacts
	return &dictIter{d: d, n: d.Len(), left: d.Len(), moves: d.moves}
}

type dictIter struct {
	d     *Dict
	n     int    // the dict's length when iteration began
	left  int    // keys still expected
	moves uint64 // d.moves when iteration began
	i     int    // position in d.entries
	err   error
}

func (it *dictIter) Next() (Value, bool) {
	if it.err != nil {
		return nil, false
	}
	d := it.d
	if d.Len() != it.n {
		it.err = Errorf("RuntimeError", "dictionary changed size during iteration")
		return nil, false
	}
	if d.moves != it.moves {
		it.err = Errorf("RuntimeError", "dictionary keys changed during iteration")
		return nil, false
	}
	for it.i < len(d.entries) {
		e := d.entries[it.i]
		it.i++
		if e.key != nil {
			if it.left == 0 {
				it.err = Errorf("RuntimeError", "dictionary keys changed during iteration")
				return nil, false
			}
			it.left--
			return e.key, true
		}
	}
	return nil, false
}

// Err returns the error that ended the iteration, if any.
func (it *dictIter) Err() error { return it.err }

// Keys returns the keys in insertion order.
func (d *Dict) Keys() []Value {
	es := d.live()
	keys := make([]Value, len(es))
	for i, e := range es {
		keys[i] = e.key
	}
	return keys
}

// Items returns the (key, value) pairs in insertion order.
func (d *Dict) Items() [][2]Value {
	es := d.live()
	out := make([][2]Value, len(es))
	for i, e := range es {
		out[i] = [2]Value{e.key, e.value}
	}
	return out
}

type noneKey struct{}
type tupleKey string

// hashKey maps a tsr value to a Go map key; equal tsr values (1, 1.0, true)
// map to equal keys.
func hashKey(v Value) (any, error) { return hashKeyDepth(v, 0) }

func hashKeyDepth(v Value, depth int) (any, error) {
	switch x := v.(type) {
	case Int:
		return int64(x), nil
	case Bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case Float:
		f := float64(x)
		if i, ok := floatInt64(f); ok {
			return i, nil
		}
		return f, nil
	case String:
		return string(x), nil
	case TypeName: // equal to its name as a str
		return string(x), nil
	case NoneType:
		return noneKey{}, nil
	case Tuple:
		if depth > MaxNesting {
			return nil, Errorf("RecursionError", "maximum recursion depth exceeded while hashing a tuple")
		}
		var b strings.Builder
		for _, e := range x {
			k, err := hashKeyDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			b.WriteString(reflect.TypeOf(k).String())
			b.WriteByte(':')
			b.WriteString(keyString(k))
			b.WriteByte(0)
		}
		return tupleKey(b.String()), nil
	case *NamedTuple:
		return hashKeyDepth(x.Tuple, depth)
	case *List, *Dict, *Set:
		return nil, Errorf("TypeError", "unhashable type: '%s'", v.Type())
	}
	if reflect.TypeOf(v).Comparable() {
		return v, nil
	}
	return nil, Errorf("TypeError", "unhashable type: '%s'", v.Type())
}

func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return QuoteString(x)
	case tupleKey:
		return string(x)
	case int64:
		return Int(x).String()
	case float64:
		return Float(x).String()
	case noneKey:
		return "none"
	}
	return reflect.ValueOf(k).String()
}

// Get returns the value for key.
func (d *Dict) Get(key Value) (Value, bool, error) {
	i, ok, err := d.find(key)
	if !ok {
		return nil, false, err
	}
	return d.entries[i].value, true, nil
}

// SetKey sets d[key] = v, keeping the key's original position if present.
func (d *Dict) SetKey(key, v Value) error { return d.put(key, v) }

// Delete removes key and returns its value.
func (d *Dict) Delete(key Value) (Value, bool, error) {
	i, ok, err := d.find(key)
	if !ok {
		return nil, false, err
	}
	v := d.entries[i].value
	d.unindex(d.entries[i].key)
	d.entries[i] = dictEntry{}
	d.dead++
	for n := len(d.entries); n > 0 && d.entries[n-1].key == nil; n-- {
		d.entries = d.entries[:n-1]
		d.dead--
	}
	if d.dead > 16 && 2*d.dead > len(d.entries) {
		d.compact()
	}
	return v, true, nil
}

// Index returns d[key] or a KeyError.
func (d *Dict) Index(key Value) (Value, error) {
	v, ok, err := d.Get(key)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, Errorf("KeyError", "%s", Repr(key))
	}
	return v, nil
}

// SetIndex sets d[key] = v.
func (d *Dict) SetIndex(key, v Value) error { return d.SetKey(key, v) }
