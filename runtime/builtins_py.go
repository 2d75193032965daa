package runtime

import (
	"strconv"
	"unicode/utf8"
)

// More of Python's builtins, beyond the spec's list, with CPython 3.11's
// results and error kinds: reversed, map and filter (eager: they return
// lists), isinstance, ord, chr, divmod, hex, oct, bin, callable, getattr
// and hasattr.
func init() {
	for name, fn := range map[string]func(*Thread, *Builtin, []Value, []Kwarg) (Value, error){
		"reversed":   builtinReversed,
		"map":        builtinMap,
		"filter":     builtinFilter,
		"isinstance": builtinIsinstance,
		"ord":        builtinOrd,
		"chr":        builtinChr,
		"divmod":     builtinDivmod,
		"hex": func(th *Thread, b *Builtin, args []Value, kw []Kwarg) (Value, error) {
			return intBase("hex", "0x", 16, args, kw)
		},
		"oct": func(th *Thread, b *Builtin, args []Value, kw []Kwarg) (Value, error) {
			return intBase("oct", "0o", 8, args, kw)
		},
		"bin": func(th *Thread, b *Builtin, args []Value, kw []Kwarg) (Value, error) {
			return intBase("bin", "0b", 2, args, kw)
		},
		"callable": builtinCallable,
		"getattr":  builtinGetattr,
		"hasattr":  builtinHasattr,
	} {
		Universe[name] = NewBuiltin(name, fn)
	}
}

// builtinReversed returns the elements of a sequence (a dict's keys) in
// reverse order, as a list (Python returns an iterator; iterating it
// gives the same values).
func builtinReversed(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("reversed", args, kwargs)
	if err != nil {
		return nil, err
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not reversible", x.Type())
	}
	out := make([]Value, len(elems))
	for i, e := range elems {
		out[len(elems)-1-i] = e
	}
	return NewList(out), nil
}

// builtinMap calls fn on the elements of the iterables taken in parallel,
// stopping at the shortest, and returns the results as a list.
func builtinMap(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("map", kwargs); err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, Errorf("TypeError", "map() must have at least two arguments.")
	}
	lists := make([][]Value, len(args)-1)
	n := -1
	for i, a := range args[1:] {
		elems, err := Elements(a)
		if err != nil {
			return nil, Errorf("TypeError", "'%s' object is not iterable", a.Type())
		}
		lists[i] = elems
		if n < 0 || len(elems) < n {
			n = len(elems)
		}
	}
	out := make([]Value, n)
	for j := range out {
		call := make([]Value, len(lists))
		for i := range lists {
			call[i] = lists[i][j]
		}
		v, err := th.Call(args[0], call, nil)
		if err != nil {
			return nil, err
		}
		out[j] = v
	}
	return NewList(out), nil
}

// builtinFilter returns the elements of an iterable for which fn is true
// (fn none: the true elements), as a list.
func builtinFilter(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("filter", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, Errorf("TypeError", "filter expected 2 arguments, got %d", len(args))
	}
	elems, err := Elements(args[1])
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", args[1].Type())
	}
	var out []Value
	for _, e := range elems {
		v := e
		if args[0] != None {
			if v, err = th.Call(args[0], []Value{e}, nil); err != nil {
				return nil, err
			}
		}
		ok, err := truth(v)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, e)
		}
	}
	return NewList(out), nil
}

// builtinIsinstance reports whether type(x) is the type classinfo names
// (as type(x) == classinfo, see TypeName), or one of a tuple of them; a
// bool is also an int, as in Python.
func builtinIsinstance(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("isinstance", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, Errorf("TypeError", "isinstance expected 2 arguments, got %d", len(args))
	}
	x, info := args[0], args[1]
	classes := []Value{info}
	if t, ok := info.(Tuple); ok {
		classes = t
	}
	for _, c := range classes {
		if !isTypeLike(c) {
			return nil, Errorf("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union")
		}
		if TypeName(x.Type()).matches(c) {
			return Bool(true), nil
		}
		if _, isBool := x.(Bool); isBool && TypeName("int").matches(c) {
			return Bool(true), nil
		}
	}
	return Bool(false), nil
}

// isTypeLike reports whether c can stand for a type: a type(x) value, a
// builtin that converts to a type (int, str, list, tensor, ...) or a dtype
// alias (int, float, bool), or a stdlib class (nn.Linear).
func isTypeLike(c Value) bool {
	switch v := c.(type) {
	case TypeName:
		return true
	case *Builtin:
		return v.recv == nil
	}
	if _, ok := c.(interface{ Name() string }); ok && c.Type() == "class" {
		return true // nn.Linear, optim.SGD
	}
	return c.Type() == "dtype"
}

func builtinOrd(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("ord", args, kwargs)
	if err != nil {
		return nil, err
	}
	s, ok := x.(String)
	if !ok {
		return nil, Errorf("TypeError", "ord() expected string of length 1, but %s found", x.Type())
	}
	if n := utf8.RuneCountInString(string(s)); n != 1 {
		return nil, Errorf("TypeError", "ord() expected a character, but string of length %d found", n)
	}
	r, _ := utf8.DecodeRuneInString(string(s))
	return MakeInt(int64(r)), nil
}

func builtinChr(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("chr", args, kwargs)
	if err != nil {
		return nil, err
	}
	i, ok := x.(Int)
	if !ok {
		return nil, Errorf("TypeError", "'%s' object cannot be interpreted as an integer", x.Type())
	}
	if i < 0 || i > 0x10FFFF {
		return nil, Errorf("ValueError", "chr() arg not in range(0x110000)")
	}
	return String(string(rune(i))), nil
}

// builtinDivmod returns (a // b, a % b) with the operators' own rules
// (floor division, the sign of b; ZeroDivisionError).
func builtinDivmod(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("divmod", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, Errorf("TypeError", "divmod expected 2 arguments, got %d", len(args))
	}
	if isFloatZeroDivmod(args[0], args[1]) {
		return nil, Errorf("ZeroDivisionError", "float divmod()") // CPython's message
	}
	q, err := Binary(SLASHSLASH, args[0], args[1])
	if err != nil {
		return nil, err
	}
	r, err := Binary(PERCENT, args[0], args[1])
	if err != nil {
		return nil, err
	}
	return Tuple{q, r}, nil
}

// isFloatZeroDivmod reports a float divmod by zero: a number divided by a
// zero, one of the two a float.
func isFloatZeroDivmod(a, b Value) bool {
	_, af := a.(Float)
	switch d := b.(type) {
	case Float:
		return d == 0 && (af || isIntLike(a))
	case Int:
		return d == 0 && af
	case Bool:
		return !bool(d) && af
	}
	return false
}

func isIntLike(v Value) bool {
	switch v.(type) {
	case Int, Bool:
		return true
	}
	return false
}

// intBase is hex, oct or bin: an int as prefix + digits, a minus sign in
// front of the prefix for a negative one.
func intBase(name, prefix string, base int, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	var v int64
	switch i := x.(type) {
	case Int:
		v = int64(i)
	case Bool:
		if i {
			v = 1
		}
	default:
		return nil, Errorf("TypeError", "'%s' object cannot be interpreted as an integer", x.Type())
	}
	if v < 0 {
		// -v overflows for MinInt64: format the magnitude as unsigned
		return String("-" + prefix + strconv.FormatUint(uint64(-(v+1))+1, base)), nil
	}
	return String(prefix + strconv.FormatInt(v, base)), nil
}

func builtinCallable(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("callable", args, kwargs)
	if err != nil {
		return nil, err
	}
	_, ok := x.(Callable)
	return Bool(ok), nil
}

// builtinGetattr is x.name, or default when x has no such attribute.
func builtinGetattr(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("getattr", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 2 && len(args) != 3 {
		return nil, Errorf("TypeError", "getattr expected 2 or 3 arguments, got %d", len(args))
	}
	name, ok := args[1].(String)
	if !ok {
		return nil, Errorf("TypeError", "attribute name must be string, not '%s'", args[1].Type())
	}
	v, err := GetAttr(args[0], string(name))
	if err != nil && len(args) == 3 && errorKind(err) == "AttributeError" {
		return args[2], nil
	}
	return v, err
}

// builtinHasattr reports whether getattr(x, name) succeeds.
func builtinHasattr(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("hasattr", kwargs); err != nil {
		return nil, err
	}
	if len(args) != 2 {
		return nil, Errorf("TypeError", "hasattr expected 2 arguments, got %d", len(args))
	}
	name, ok := args[1].(String)
	if !ok {
		return nil, Errorf("TypeError", "attribute name must be string, not '%s'", args[1].Type())
	}
	if _, err := GetAttr(args[0], string(name)); err != nil {
		if errorKind(err) == "AttributeError" {
			return Bool(false), nil
		}
		return nil, err
	}
	return Bool(true), nil
}

// errorKind returns the kind of a tsr error ("" for another error).
func errorKind(err error) string {
	if k, ok := err.(HasKind); ok {
		return k.ErrorKind()
	}
	return ""
}
