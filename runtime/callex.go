package runtime

// Star arguments and starred displays: the helpers of CALL_EX,
// LIST_EXTEND, KW_MERGE and UNPACK_EX.

// callableName names fn in the errors of f(*x) and f(**m), as CPython
// names a function ("f() argument after * must be ...").
func callableName(fn Value) string {
	if c, ok := fn.(interface{ Name() string }); ok {
		return c.Name()
	}
	return fn.Type()
}

// extendList appends the elements of the iterable x to l.
func extendList(l *List, x Value) error {
	elems, err := Elements(x)
	if err != nil {
		return err
	}
	if len(l.Elems)+len(elems) > MaxElems {
		return Errorf("MemoryError", "too many elements (more than %d)", MaxElems)
	}
	l.Elems = append(l.Elems, elems...)
	return nil
}

// starArgError is the error of f(*x) when x cannot be iterated.
func starArgError(fn, x Value, err error) error {
	if _, ok := x.(Iterable); ok {
		return err // x iterates but failed midway: its own error
	}
	if _, ok := x.(IterableE); ok {
		return err
	}
	if _, ok := x.(String); ok {
		return err
	}
	if _, ok := x.(*Range); ok {
		return err
	}
	return Errorf("TypeError", "%s() argument after * must be an iterable, not %s", callableName(fn), pyTypeName(x))
}

// kwSet adds the keyword argument name=v to the call's keyword dict d,
// a TypeError if a **mapping before it gave the same name.
func kwSet(fn Value, d *Dict, name, v Value) error {
	if _, dup, _ := d.Get(name); dup {
		return Errorf("TypeError", "%s() got multiple values for keyword argument '%s'", callableName(fn), string(name.(String)))
	}
	return d.SetKey(name, v)
}

// kwMerge adds the items of the mapping m (f(**m)) to the call's keyword
// dict d, with CPython's errors: m must be a mapping (a dict or
// HasMappingItems) with string keys, and
// no name may be given twice.
func kwMerge(fn Value, d *Dict, m Value) error {
	items, ok := mappingItems(m)
	if !ok {
		return Errorf("TypeError", "%s() argument after ** must be a mapping, not %s", callableName(fn), pyTypeName(m))
	}
	for _, kv := range items {
		k, ok := kv[0].(String)
		if !ok {
			return Errorf("TypeError", "keywords must be strings")
		}
		if err := kwSet(fn, d, k, kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// kwargList turns CALL_EX's keyword dict (string keys) into a call's
// keyword arguments.
func kwargList(d *Dict) []Kwarg {
	items := d.Items()
	if len(items) == 0 {
		return nil
	}
	out := make([]Kwarg, len(items))
	for i, kv := range items {
		out[i] = Kwarg{Name: string(kv[0].(String)), Value: kv[1]}
	}
	return out
}

// unpackStar returns the values of a, *b, c = x (before targets, a list
// for the starred one, after targets), with CPython's errors.
func unpackStar(x Value, before, after int) ([]Value, error) {
	var elems []Value
	switch v := x.(type) {
	case Tuple:
		elems = v
	case *List:
		elems = v.Elems
	case *NamedTuple:
		elems = v.Tuple
	default:
		if _, err := Iterate(x); err != nil {
			if ie, ok := x.(IterableE); ok {
				if _, err := ie.IterateE(); err != nil {
					return nil, err
				}
			}
			return nil, Errorf("TypeError", "cannot unpack non-iterable %s object", x.Type())
		}
		l := NewList(nil)
		if err := extendList(l, x); err != nil {
			return nil, err
		}
		elems = l.Elems
	}
	if len(elems) < before+after {
		return nil, Errorf("ValueError", "not enough values to unpack (expected at least %d, got %d)", before+after, len(elems))
	}
	out := make([]Value, 0, before+1+after)
	out = append(out, elems[:before]...)
	out = append(out, NewList(append([]Value(nil), elems[before:len(elems)-after]...)))
	out = append(out, elems[len(elems)-after:]...)
	return out, nil
}
