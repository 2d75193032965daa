package runtime

import "strings"

// Set is tsr's set: distinct hashable values (the hashing and equality of
// dict keys: 1 == 1.0 == true). Unlike CPython's, a set iterates and
// prints in insertion order. Literals {1, 2}, comprehensions {x for x in
// xs} and set(iterable) make one; it supports in, len, iteration, ==, the
// operators | & - ^ (union, intersection, difference, symmetric
// difference) and <= < >= > (subset, superset), and the methods add,
// discard, remove, pop, clear, copy, update, union, intersection,
// difference, issubset and issuperset.
type Set struct{ d *Dict }

// NewSet returns an empty set.
func NewSet() *Set { return &Set{d: NewDict(0)} }

// SetOf returns the set of the elements of the iterable x.
func SetOf(x Value) (*Set, error) {
	s := NewSet()
	if src, ok := x.(*Set); ok {
		for _, k := range src.d.Keys() {
			_ = s.d.SetKey(k, None)
		}
		return s, nil
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		if err := s.Add(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Set) String() string    { return reprString(s) }
func (*Set) Type() string        { return "set" }
func (s *Set) Truth() bool       { return s.d.Len() > 0 }
func (s *Set) Len() int          { return s.d.Len() }
func (s *Set) Iterate() Iterator { return &setIter{s.d.Iterate().(*dictIter)} }

// Elems returns the elements in insertion order.
func (s *Set) Elems() []Value { return s.d.Keys() }

// Add inserts x (a TypeError if x is unhashable).
func (s *Set) Add(x Value) error {
	if _, ok, err := s.d.Get(x); ok || err != nil {
		return err
	}
	return s.d.SetKey(x, None)
}

// Has reports whether x is in s (a TypeError if x is unhashable).
func (s *Set) Has(x Value) (bool, error) {
	_, ok, err := s.d.Get(x)
	return ok, err
}

// setIter iterates a set's dict, with CPython's message for a set that
// changed size.
type setIter struct{ it *dictIter }

func (it *setIter) Next() (Value, bool) { return it.it.Next() }
func (it *setIter) Err() error {
	if err := it.it.Err(); err != nil {
		return Errorf("RuntimeError", "Set changed size during iteration")
	}
	return nil
}

// Binary implements | & - ^ between sets and the subset comparisons.
func (s *Set) Binary(op Op, y Value, side Side) (Value, error) {
	t, ok := y.(*Set)
	if !ok {
		return nil, nil
	}
	a, b := s, t
	if side == Right {
		a, b = t, s
	}
	switch op {
	case PIPE:
		return a.combine(b, true, true)
	case AMP:
		return a.combine(b, false, false)
	case MINUS:
		return a.combine(b, false, true)
	case CIRCUMFLEX:
		l, err := a.combine(b, false, true)
		if err != nil {
			return nil, err
		}
		r, err := b.combine(a, false, true)
		if err != nil {
			return nil, err
		}
		for _, k := range r.Elems() {
			_ = l.d.SetKey(k, None)
		}
		return l, nil
	case LE, LT, GE, GT:
		if op == GE || op == GT {
			a, b = b, a
		}
		sub, err := a.subsetOf(b)
		if err != nil || !sub {
			return Bool(false), err
		}
		if op == LT || op == GT {
			return Bool(a.Len() < b.Len()), nil
		}
		return Bool(true), nil
	}
	return nil, nil
}

// combine returns the elements of a that are (in, true) or are not (in,
// false) in b, followed by b's other elements when withB.
func (a *Set) combine(b *Set, withB, notIn bool) (*Set, error) {
	out := NewSet()
	for _, k := range a.Elems() {
		has, err := b.Has(k)
		if err != nil {
			return nil, err
		}
		if has != notIn || withB {
			_ = out.d.SetKey(k, None)
		}
	}
	if withB {
		for _, k := range b.Elems() {
			if err := out.Add(k); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (a *Set) subsetOf(b *Set) (bool, error) {
	if a.Len() > b.Len() {
		return false, nil
	}
	for _, k := range a.Elems() {
		if has, err := b.Has(k); err != nil || !has {
			return false, err
		}
	}
	return true, nil
}

// equalSet reports whether two sets have the same elements.
func equalSet(a, b *Set) (bool, error) {
	if a.Len() != b.Len() {
		return false, nil
	}
	return a.subsetOf(b)
}

var setMethodNames = []string{"add", "clear", "copy", "difference", "discard", "intersection", "issubset", "issuperset", "pop", "remove", "union", "update"}

// AttrNames lists the set's methods.
func (s *Set) AttrNames() []string { return setMethodNames }

// Attr returns the method name bound to s.
func (s *Set) Attr(name string) (Value, error) {
	var fn func(args []Value) (Value, error)
	one := func(f func(Value) (Value, error)) func([]Value) (Value, error) {
		return func(args []Value) (Value, error) {
			if len(args) != 1 {
				return nil, Errorf("TypeError", "set.%s() takes exactly one argument (%d given)", name, len(args))
			}
			return f(args[0])
		}
	}
	setArg := func(x Value) (*Set, error) {
		if t, ok := x.(*Set); ok {
			return t, nil
		}
		return SetOf(x)
	}
	switch name {
	case "add":
		fn = one(func(x Value) (Value, error) { return None, s.Add(x) })
	case "discard", "remove":
		fn = one(func(x Value) (Value, error) {
			_, ok, err := s.d.Delete(x)
			if err != nil {
				return nil, err
			}
			if !ok && name == "remove" {
				return nil, Errorf("KeyError", "%s", Repr(x))
			}
			return None, nil
		})
	case "pop":
		fn = func(args []Value) (Value, error) {
			if len(args) != 0 {
				return nil, Errorf("TypeError", "set.pop() takes no arguments (%d given)", len(args))
			}
			keys := s.Elems()
			if len(keys) == 0 {
				return nil, Errorf("KeyError", "'pop from an empty set'")
			}
			_, _, err := s.d.Delete(keys[0])
			return keys[0], err
		}
	case "clear":
		fn = func([]Value) (Value, error) { s.d.clear(); return None, nil }
	case "copy":
		fn = func([]Value) (Value, error) { return SetOf(s) }
	case "update", "union", "intersection", "difference", "issubset", "issuperset":
		fn = func(args []Value) (Value, error) {
			if name == "issubset" || name == "issuperset" {
				if len(args) != 1 {
					return nil, Errorf("TypeError", "set.%s() takes exactly one argument (%d given)", name, len(args))
				}
			}
			acc := s
			if name != "update" {
				acc, _ = SetOf(s)
			}
			for _, a := range args {
				t, err := setArg(a)
				if err != nil {
					return nil, err
				}
				switch name {
				case "update", "union":
					for _, k := range t.Elems() {
						if err := acc.Add(k); err != nil {
							return nil, err
						}
					}
				case "intersection":
					acc, err = acc.combine(t, false, false)
				case "difference":
					acc, err = acc.combine(t, false, true)
				case "issubset":
					r, err := s.subsetOf(t)
					return Bool(r), err
				case "issuperset":
					r, err := t.subsetOf(s)
					return Bool(r), err
				}
				if err != nil {
					return nil, err
				}
			}
			if name == "update" {
				return None, nil
			}
			return acc, nil
		}
	default:
		return nil, nil
	}
	return NewBuiltin("set."+name, func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		if len(kwargs) > 0 {
			return nil, Errorf("TypeError", "set.%s() takes no keyword arguments", name)
		}
		return fn(args)
	}), nil
}

// builtinSet is set() and set(iterable).
func builtinSet(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(kwargs) > 0 {
		return nil, Errorf("TypeError", "set() takes no keyword arguments")
	}
	switch len(args) {
	case 0:
		return NewSet(), nil
	case 1:
		return SetOf(args[0])
	}
	return nil, Errorf("TypeError", "set expected at most 1 argument, got %d", len(args))
}

// writeSet appends a set's repr: set() or {1, 2}.
func (st *reprState) writeSet(b *strings.Builder, s *Set) {
	if s.Len() == 0 {
		b.WriteString("set()")
		return
	}
	if st.enter(b, s, "{...}") {
		b.WriteByte('{')
		st.writeElems(b, s.Elems())
		b.WriteByte('}')
		st.leave()
	}
}
