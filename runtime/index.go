package runtime

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// Range is the value of range(start, stop, step): a lazy sequence of ints.
type Range struct {
	start, stop, step int64
}

// NewRange returns range(start, stop, step); step must not be 0.
func NewRange(start, stop, step int64) *Range { return &Range{start, stop, step} }

func (r *Range) String() string {
	if r.step == 1 {
		return fmt.Sprintf("range(%d, %d)", r.start, r.stop)
	}
	return fmt.Sprintf("range(%d, %d, %d)", r.start, r.stop, r.step)
}
func (*Range) Type() string  { return "range" }
func (r *Range) Truth() bool { return r.Len() > 0 }

// Len returns the number of elements (math.MaxInt64 when the length does
// not fit an int64; len() raises OverflowError for those, as Python).
func (r *Range) Len() int {
	n := r.len64()
	if n > math.MaxInt64 {
		return math.MaxInt64
	}
	return int(n)
}

// len64 is the exact length, computed in uint64 so that huge ranges such
// as range(-2**63+1, 2**63-1, 3) do not wrap: the span stop-start of a
// non-empty range is below 2**64.
func (r *Range) len64() uint64 {
	switch {
	case r.step > 0 && r.start < r.stop:
		span := uint64(r.stop) - uint64(r.start)
		return (span-1)/uint64(r.step) + 1
	case r.step < 0 && r.start > r.stop:
		span := uint64(r.start) - uint64(r.stop)
		return (span-1)/(-uint64(r.step)) + 1
	}
	return 0
}

// Iterate returns an iterator over the range.
func (r *Range) Iterate() Iterator { return &rangeIter{next: r.start, step: r.step, left: r.len64()} }

func (r *Range) index(i int64) int {
	if r.step > 0 && (i < r.start || i >= r.stop) || r.step < 0 && (i > r.start || i <= r.stop) {
		return -1
	}
	// |i - start| and |step| in uint64: neither difference can wrap
	d, st := uint64(i)-uint64(r.start), uint64(r.step)
	if r.step < 0 {
		d, st = uint64(r.start)-uint64(i), -uint64(r.step)
	}
	if d%st != 0 || d/st > math.MaxInt64 {
		return -1
	}
	return int(d / st)
}

// Index returns r[i] or a sub-range for a slice.
func (r *Range) Index(key Value) (Value, error) {
	n := r.Len()
	if s, ok := key.(*Slice); ok {
		start, stop, step, err := s.Indices(n)
		if err != nil {
			return nil, err
		}
		return &Range{r.start + int64(start)*r.step, r.start + int64(stop)*r.step, r.step * int64(step)}, nil
	}
	i, err := seqIndex(key, n, "range")
	if err != nil {
		return nil, err
	}
	return MakeInt(r.start + int64(i)*r.step), nil
}

// rangeIter counts the elements left, so that next+step running past
// the int64 range after the last element (range(2**63-5, 2**63-1, 3))
// cannot wrap around into another lap.
type rangeIter struct {
	next, step int64
	left       uint64
}

func (it *rangeIter) Next() (Value, bool) {
	if it.left == 0 {
		return nil, false
	}
	v := it.next
	it.left--
	it.next += it.step
	return MakeInt(v), true
}

// Indices resolves the slice against a sequence of length n with Python's
// rules (negative indices count from the end, bounds are clipped); it
// returns start, stop and step such that the elements are
// start, start+step, ... while before stop.
func (s *Slice) Indices(n int) (start, stop, step int, err error) {
	step = 1
	if s.Step != nil && s.Step != None {
		st, ok := AsInt(s.Step)
		if !ok {
			return 0, 0, 0, Errorf("TypeError", "slice indices must be integers or none, not %s", s.Step.Type())
		}
		if st == 0 {
			return 0, 0, 0, Errorf("ValueError", "slice step cannot be zero")
		}
		step = int(st)
	}
	get := func(v Value, def int) (int, error) {
		if v == nil || v == None {
			return def, nil
		}
		i, ok := AsInt(v)
		if !ok {
			return 0, Errorf("TypeError", "slice indices must be integers or none, not %s", v.Type())
		}
		if i < 0 {
			i += int64(n)
			if i < 0 {
				if step < 0 {
					return -1, nil
				}
				return 0, nil
			}
		}
		if i >= int64(n) {
			if step < 0 {
				return n - 1, nil
			}
			return n, nil
		}
		return int(i), nil
	}
	if step > 0 {
		if start, err = get(s.Start, 0); err != nil {
			return
		}
		stop, err = get(s.Stop, n)
	} else {
		if start, err = get(s.Start, n-1); err != nil {
			return
		}
		stop, err = get(s.Stop, -1)
	}
	return
}

func sliceElems(elems []Value, s *Slice) ([]Value, error) {
	start, stop, step, err := s.Indices(len(elems))
	if err != nil {
		return nil, err
	}
	if step == 1 {
		if stop < start {
			return []Value{}, nil
		}
		return append([]Value{}, elems[start:stop]...), nil
	}
	out := []Value{}
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, elems[i])
	}
	return out, nil
}

// seqIndex checks an int subscript against length n.
func seqIndex(key Value, n int, what string) (int, error) {
	k, ok := AsInt(key)
	if !ok {
		return 0, Errorf("TypeError", "%s indices must be integers or slices, not %s", what, key.Type())
	}
	i := k
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, Errorf("IndexError", "%s index %d out of range (length %d)", what, k, n)
	}
	return int(i), nil
}

// Index evaluates x[key].
func Index(x, key Value) (_ Value, err error) {
	defer RecoverMemoryError(&err)
	switch v := x.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			elems, err := sliceElems(v.Elems, s)
			if err != nil {
				return nil, err
			}
			// A slice of a shape is a torch.Size too (x.shape[1:] == (3, 4)).
			return &List{Elems: elems, SizeLike: v.SizeLike}, nil
		}
		i, err := seqIndex(key, len(v.Elems), "list")
		if err != nil {
			return nil, err
		}
		return v.Elems[i], nil
	case Tuple:
		if s, ok := key.(*Slice); ok {
			elems, err := sliceElems(v, s)
			return Tuple(elems), err
		}
		i, err := seqIndex(key, len(v), "tuple")
		if err != nil {
			return nil, err
		}
		return v[i], nil
	case *NamedTuple:
		return Index(v.Tuple, key)
	case String:
		return indexString(v, key)
	case Indexable:
		return v.Index(key)
	}
	return nil, Errorf("TypeError", "'%s' object is not subscriptable", x.Type())
}

func indexString(s String, key Value) (Value, error) {
	str := string(s)
	ascii := true
	for i := 0; i < len(str); i++ {
		if str[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		if sl, ok := key.(*Slice); ok {
			start, stop, step, err := sl.Indices(len(str))
			if err != nil {
				return nil, err
			}
			if step == 1 {
				if stop < start {
					return String(""), nil
				}
				return String(str[start:stop]), nil
			}
			b := []byte{}
			for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
				b = append(b, str[i])
			}
			return String(b), nil
		}
		i, err := seqIndex(key, len(str), "string")
		if err != nil {
			return nil, err
		}
		return String(str[i : i+1]), nil
	}
	runes := []rune(str)
	if sl, ok := key.(*Slice); ok {
		start, stop, step, err := sl.Indices(len(runes))
		if err != nil {
			return nil, err
		}
		out := []rune{}
		for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
			out = append(out, runes[i])
		}
		return String(string(out)), nil
	}
	i, err := seqIndex(key, len(runes), "string")
	if err != nil {
		return nil, err
	}
	return String(string(runes[i])), nil
}

// SetIndex performs x[key] = v.
func SetIndex(x, key, v Value) (err error) {
	defer RecoverMemoryError(&err)
	switch c := x.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			elems, err := Elements(v)
			if err != nil {
				return err
			}
			start, stop, step, err := s.Indices(len(c.Elems))
			if err != nil {
				return err
			}
			if step != 1 { // Python's extended slice assignment: sizes must match
				var idx []int
				for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
					idx = append(idx, i)
				}
				if len(idx) != len(elems) {
					return Errorf("ValueError", "attempt to assign sequence of size %d to extended slice of size %d", len(elems), len(idx))
				}
				elems = append([]Value(nil), elems...) // v may be the list itself
				for k, i := range idx {
					c.Elems[i] = elems[k]
				}
				return nil
			}
			if stop < start {
				stop = start
			}
			out := make([]Value, 0, len(c.Elems)-(stop-start)+len(elems))
			out = append(out, c.Elems[:start]...)
			out = append(out, elems...)
			c.Elems = append(out, c.Elems[stop:]...)
			return nil
		}
		i, err := seqIndex(key, len(c.Elems), "list")
		if err != nil {
			return err
		}
		c.Elems[i] = v
		return nil
	case HasSetIndex:
		return c.SetIndex(key, v)
	}
	return Errorf("TypeError", "'%s' object does not support item assignment", x.Type())
}

// GetAttr evaluates x.name: the value's own attributes, then the methods
// of the built-in types.
func GetAttr(x Value, name string) (Value, error) {
	if ha, ok := x.(HasAttrs); ok {
		v, err := ha.Attr(name)
		if err != nil || v != nil {
			return v, err
		}
	}
	if m := builtinMethod(x, name); m != nil {
		return m, nil
	}
	if m, ok := x.(*Module); ok {
		return nil, Errorf("AttributeError", "module '%s' has no attribute '%s'", m.ModName, name)
	}
	return nil, Errorf("AttributeError", "'%s' object has no attribute '%s'", x.Type(), name)
}

// SetAttr performs x.name = v.
func SetAttr(x Value, name string, v Value) error {
	if sa, ok := x.(HasSetAttr); ok {
		return sa.SetAttr(name, v)
	}
	return Errorf("AttributeError", "cannot set attribute '%s' of '%s' object", name, x.Type())
}

// DelAttr performs del x.name: values implementing HasDelAttr decide;
// for others it is CPython's AttributeError ("'list' object has no
// attribute 'foo'", or "'list' object attribute 'append' is read-only").
func DelAttr(x Value, name string) error {
	if da, ok := x.(HasDelAttr); ok {
		return da.DelAttr(name)
	}
	if _, err := GetAttr(x, name); err != nil {
		return err
	}
	return Errorf("AttributeError", "'%s' object attribute '%s' is read-only", pyTypeName(x), name)
}

// HasMappingItems is implemented by non-dict values that {**m} and
// f(**m) unpack, as CPython's mapping protocol does for objects with
// keys() and m[key] (nn.ParameterDict, nn.ModuleDict): MappingItems
// returns their (key, value) pairs in keys() order.
type HasMappingItems interface {
	MappingItems() [][2]Value
}

// mappingItems returns the (key, value) pairs of a dict or of a
// HasMappingItems value; ok is false for anything else.
func mappingItems(m Value) (items [][2]Value, ok bool) {
	switch v := m.(type) {
	case *Dict:
		return v.Items(), true
	case HasMappingItems:
		return v.MappingItems(), true
	}
	return nil, false
}

// mergeMapping merges the mapping m into d ({**m} in a dict display), with
// CPython's error when m is not a mapping.
func mergeMapping(d *Dict, m Value) error {
	items, ok := mappingItems(m)
	if !ok {
		return Errorf("TypeError", "'%s' object is not a mapping", pyTypeName(m))
	}
	for _, kv := range items {
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// DelIndex performs del x[key]: a dict's key (KeyError if absent), a
// list's item or slice (extended slices included), as CPython.
func DelIndex(x, key Value) error {
	switch c := x.(type) {
	case *Dict:
		_, ok, err := c.Delete(key)
		if err != nil {
			return err
		}
		if !ok {
			return Errorf("KeyError", "%s", Repr(key))
		}
		return nil
	case *List:
		if s, ok := key.(*Slice); ok {
			start, stop, step, err := s.Indices(len(c.Elems))
			if err != nil {
				return err
			}
			drop := make([]bool, len(c.Elems))
			for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
				drop[i] = true
			}
			out := c.Elems[:0]
			for i, e := range c.Elems {
				if !drop[i] {
					out = append(out, e)
				}
			}
			clear(c.Elems[len(out):])
			c.Elems = out
			return nil
		}
		k, ok := AsInt(key)
		if !ok {
			return Errorf("TypeError", "list indices must be integers or slices, not %s", key.Type())
		}
		i := k
		if i < 0 {
			i += int64(len(c.Elems))
		}
		if i < 0 || i >= int64(len(c.Elems)) {
			return Errorf("IndexError", "list assignment index out of range")
		}
		copy(c.Elems[i:], c.Elems[i+1:])
		c.Elems[len(c.Elems)-1] = nil
		c.Elems = c.Elems[:len(c.Elems)-1]
		return nil
	}
	if di, ok := x.(HasDelIndex); ok {
		return di.DelIndex(key)
	}
	return Errorf("TypeError", "'%s' object doesn't support item deletion", x.Type())
}
