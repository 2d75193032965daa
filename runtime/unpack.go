package runtime

import (
	"fmt"
	"sort"
	"strings"
)

// Unpacker is implemented by pointer types that UnpackArgs can fill from a
// tsr value with custom conversion rules (e.g. stdlib's shape or dtype
// arguments).
type Unpacker interface {
	Unpack(v Value) error
}

// UnpackArgs binds positional and keyword arguments to Go variables, in the
// manner of starlark.UnpackArgs. pairs alternates parameter names and
// pointers: "x", &x, "dim?", &dim. A name ending in "?" is optional (its
// variable keeps its value when the argument is absent); every parameter
// after the first optional one must be optional too. Supported pointers:
// *Value, *int, *int64, *float64, *bool, *string, *[]int (a list or tuple of
// ints, or a single int), **List, *Tuple, *Callable and any Unpacker.
// Errors are TypeErrors naming the function and the parameter.
func UnpackArgs(fnname string, args []Value, kwargs []Kwarg, pairs ...any) error {
	n := len(pairs) / 2
	if len(args) > n {
		return Errorf("TypeError", "%s() takes at most %d positional arguments (%d given)", fnname, n, len(args))
	}
	set := make([]bool, n)
	for i, a := range args {
		if err := unpackOne(fnname, pairs[2*i].(string), a, pairs[2*i+1]); err != nil {
			return err
		}
		set[i] = true
	}
kw:
	for _, kv := range kwargs {
		for i := 0; i < n; i++ {
			name := strings.TrimSuffix(pairs[2*i].(string), "?")
			if name == kv.Name {
				if set[i] {
					return Errorf("TypeError", "%s() got multiple values for argument '%s'", fnname, name)
				}
				if err := unpackOne(fnname, name, kv.Value, pairs[2*i+1]); err != nil {
					return err
				}
				set[i] = true
				continue kw
			}
		}
		return Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", fnname, kv.Name)
	}
	for i := 0; i < n; i++ {
		name := pairs[2*i].(string)
		if !set[i] && !strings.HasSuffix(name, "?") {
			return Errorf("TypeError", "%s() missing required argument '%s'", fnname, name)
		}
	}
	return nil
}

func unpackOne(fnname, name string, v Value, ptr any) error {
	name = strings.TrimSuffix(name, "?")
	bad := func(want string) error {
		return Errorf("TypeError", "%s(): argument '%s' must be %s, not %s", fnname, name, want, v.Type())
	}
	switch p := ptr.(type) {
	case *Value:
		*p = v
	case *int:
		i, ok := AsInt(v)
		if !ok {
			return bad("int")
		}
		*p = int(i)
	case *int64:
		i, ok := AsInt(v)
		if !ok {
			return bad("int")
		}
		*p = i
	case *float64:
		f, ok := AsFloat(v)
		if !ok {
			return bad("float")
		}
		*p = f
	case *bool:
		b, ok := v.(Bool)
		if !ok {
			return bad("bool")
		}
		*p = bool(b)
	case *string:
		s, ok := v.(String)
		if !ok {
			return bad("str")
		}
		*p = string(s)
	case *[]int:
		ints, ok := AsInts(v)
		if !ok {
			return bad("a list of ints")
		}
		*p = ints
	case **List:
		l, ok := v.(*List)
		if !ok {
			return bad("list")
		}
		*p = l
	case *Tuple:
		t, ok := v.(Tuple)
		if !ok {
			return bad("tuple")
		}
		*p = t
	case *Callable:
		c, ok := v.(Callable)
		if !ok {
			return bad("callable")
		}
		*p = c
	case Unpacker:
		if err := p.Unpack(v); err != nil {
			if _, ok := err.(HasKind); ok {
				return err
			}
			return Errorf("TypeError", "%s(): argument '%s': %v", fnname, name, err)
		}
	default:
		panic(fmt.Sprintf("UnpackArgs: unsupported pointer type %T", ptr))
	}
	return nil
}

// AsInt converts an Int or Bool to int64 (not a Float).
func AsInt(v Value) (int64, bool) {
	switch x := v.(type) {
	case Int:
		return int64(x), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// AsFloat converts an Int, Float or Bool to float64.
func AsFloat(v Value) (float64, bool) {
	switch x := v.(type) {
	case Float:
		return float64(x), true
	case Int:
		return float64(x), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// AsInts converts an Int, or a List or Tuple of Ints, to []int.
func AsInts(v Value) ([]int, bool) {
	var elems []Value
	switch x := v.(type) {
	case Int:
		return []int{int(x)}, true
	case *List:
		elems = x.Elems
	case Tuple:
		elems = x
	default:
		return nil, false
	}
	out := make([]int, len(elems))
	for i, e := range elems {
		n, ok := e.(Int)
		if !ok {
			return nil, false
		}
		out[i] = int(n)
	}
	return out, true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
