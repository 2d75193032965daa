package runtime

import (
	"math"
	"reflect"
)

// HasIdentity is implemented by values that wrap an object which other
// Go values may wrap too (a tensor value is a fresh wrapper around one
// *tensor.Tensor each time x.grad is read): Identity returns that object,
// and `is` compares it.
type HasIdentity interface {
	Value
	Identity() any
}

// Identical reports whether x is y, tsr's `is`:
//
//   - none, bool: the same value (`x is none`, `flag is true`);
//   - int, float, str (immutable values that tsr does not box): the same
//     type and the same value, a float bit for bit (`nan is nan` holds,
//     `0.0 is -0.0` does not, `1 is 1.0` does not). CPython leaves this
//     implementation-defined (small ints and interned strings are shared,
//     others not); tsr gives the answer CPython gives for a value compared
//     with itself;
//   - tuples: the same tuple (one backing array and length; all empty
//     tuples are one, as in CPython);
//   - values implementing HasIdentity (tensors): the same underlying
//     object;
//   - everything else (lists, dicts, functions, modules, ...): the same
//     reference.
func Identical(x, y Value) bool {
	if _, ok := y.(NoneType); ok {
		_, ok = x.(NoneType)
		return ok
	}
	switch a := x.(type) {
	case NoneType:
		_, ok := y.(NoneType)
		return ok
	case Bool:
		b, ok := y.(Bool)
		return ok && a == b
	case Int:
		b, ok := y.(Int)
		return ok && a == b
	case Float:
		b, ok := y.(Float)
		return ok && math.Float64bits(float64(a)) == math.Float64bits(float64(b))
	case String:
		b, ok := y.(String)
		return ok && a == b
	case Tuple:
		b, ok := y.(Tuple)
		return ok && len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
	case HasIdentity:
		b, ok := y.(HasIdentity)
		return ok && a.Identity() == b.Identity()
	}
	if x == nil || y == nil {
		return x == y
	}
	tx, ty := reflect.TypeOf(x), reflect.TypeOf(y)
	if tx != ty {
		return false
	}
	if tx.Comparable() {
		return sameInterface(x, y)
	}
	// A value of a non-comparable type (a slice or map kind): the same
	// backing store.
	vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
	switch vx.Kind() {
	case reflect.Slice:
		return vx.Len() == vy.Len() && vx.Pointer() == vy.Pointer()
	case reflect.Map, reflect.Func:
		return vx.Pointer() == vy.Pointer()
	}
	return false
}

// sameInterface is x == y for values of one comparable type, false where
// the comparison panics (a struct holding a non-comparable value).
func sameInterface(x, y Value) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return x == y
}
