package runtime

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tsrlang/tsr/numfmt"
)

func init() {
	FloatRepr = numfmt.FloatRepr
	for i := range smallInts {
		smallInts[i] = Int(int64(i) + smallIntMin)
	}
}

const (
	smallIntMin = -256
	smallIntMax = 1024
	// MaxAlloc bounds the size (in elements or bytes) of a string or list
	// built by repetition or concatenation, so that `"x" * 10**12` fails
	// cleanly instead of exhausting memory.
	MaxAlloc = 1 << 28
	// MaxElems bounds the number of elements of a list or tuple built by
	// repetition, concatenation or materialising an iterable (256 MiB of
	// element headers).
	MaxElems = MaxAlloc / 16
)

var smallInts [smallIntMax - smallIntMin]Value

// MakeInt returns i as a Value, without allocating for small values.
func MakeInt(i int64) Value {
	if i >= smallIntMin && i < smallIntMax {
		return smallInts[i-smallIntMin]
	}
	return Int(i)
}

// Formattable is implemented by values that support format specs in
// f-strings and format() (e.g. a 0-d tensor).
type Formattable interface {
	Value
	Format(spec string) (string, error)
}

func unsupported(op Op, x, y Value) error {
	return Errorf("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, x.Type(), y.Type())
}

// numeric returns x as int64 or float64 (bools are ints); kind is 'i', 'f'
// or 0 when x is not a number.
func numeric(x Value) (i int64, f float64, kind byte) {
	switch v := x.(type) {
	case Int:
		return int64(v), 0, 'i'
	case Float:
		return 0, float64(v), 'f'
	case Bool:
		if v {
			return 1, 0, 'i'
		}
		return 0, 0, 'i'
	}
	return 0, 0, 0
}

// Binary applies a binary operator (arithmetic, bitwise, comparison or
// `in`) with Python semantics for scalars, strings and containers, then
// the operands' HasBinary (left operand first).
func Binary(op Op, x, y Value) (_ Value, err error) {
	defer recoverMemoryError(&err)
	xi, xf, xk := numeric(x)
	yi, yf, yk := numeric(y)
	if xk != 0 && yk != 0 {
		if xk == 'i' && yk == 'i' {
			return intBinary(op, xi, yi, x, y)
		}
		if xk == 'i' {
			xf = float64(xi)
		}
		if yk == 'i' {
			yf = float64(yi)
		}
		return floatBinary(op, xf, yf, x, y)
	}
	switch op {
	case EQL, NEQ:
		if hb, ok := x.(HasBinary); ok {
			if r, err := hb.Binary(op, y, Left); r != nil || err != nil {
				return r, err
			}
		}
		if hb, ok := y.(HasBinary); ok {
			if r, err := hb.Binary(op, x, Right); r != nil || err != nil {
				return r, err
			}
		}
		eq, err := Equal(x, y)
		if err != nil {
			return nil, err
		}
		return Bool(eq == (op == EQL)), nil
	case IN:
		if hb, ok := y.(HasBinary); ok {
			if r, err := hb.Binary(op, x, Right); r != nil || err != nil {
				return r, err
			}
		}
		ok, err := Contains(y, x)
		return Bool(ok), err
	}
	if r, err := builtinBinary(op, x, y); r != nil || err != nil {
		return r, err
	}
	if hb, ok := x.(HasBinary); ok {
		if r, err := hb.Binary(op, y, Left); r != nil || err != nil {
			return r, err
		}
	}
	if hb, ok := y.(HasBinary); ok {
		if r, err := hb.Binary(op, x, Right); r != nil || err != nil {
			return r, err
		}
	}
	if op >= LT && op <= GE {
		if c, ok := x.(Comparable); ok {
			if r, err, ok := c.Compare(op, y); ok {
				return Bool(r), err
			}
		}
		return nil, Errorf("TypeError", "'%s' not supported between instances of '%s' and '%s'", op, x.Type(), y.Type())
	}
	return nil, unsupported(op, x, y)
}

func intBinary(op Op, a, b int64, x, y Value) (Value, error) {
	switch op {
	case PLUS:
		return MakeInt(a + b), nil
	case MINUS:
		return MakeInt(a - b), nil
	case STAR:
		return MakeInt(a * b), nil
	case SLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "division by zero")
		}
		return Float(float64(a) / float64(b)), nil
	case SLASHSLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		return MakeInt(floorDiv(a, b)), nil
	case PERCENT:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		return MakeInt(floorMod(a, b)), nil
	case STARSTAR:
		if b < 0 {
			if a == 0 {
				return nil, Errorf("ZeroDivisionError", "0 cannot be raised to a negative power")
			}
			return Float(math.Pow(float64(a), float64(b))), nil
		}
		return MakeInt(ipow(a, b)), nil
	case AMP, PIPE, CIRCUMFLEX:
		_, xb := x.(Bool)
		_, yb := y.(Bool)
		var r int64
		switch op {
		case AMP:
			r = a & b
		case PIPE:
			r = a | b
		default:
			r = a ^ b
		}
		if xb && yb {
			return Bool(r != 0), nil
		}
		return MakeInt(r), nil
	case EQL:
		return Bool(a == b), nil
	case NEQ:
		return Bool(a != b), nil
	case LT:
		return Bool(a < b), nil
	case LE:
		return Bool(a <= b), nil
	case GT:
		return Bool(a > b), nil
	case GE:
		return Bool(a >= b), nil
	case IN:
		return nil, Errorf("TypeError", "argument of type '%s' is not iterable", y.Type())
	}
	return nil, unsupported(op, x, y)
}

func floorDiv(a, b int64) int64 {
	if b == -1 {
		return -a // avoid the MinInt64 / -1 trap
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 {
	if b == -1 {
		return 0
	}
	r := a % b
	if r != 0 && ((r < 0) != (b < 0)) {
		r += b
	}
	return r
}

func ipow(a, b int64) int64 {
	r := int64(1)
	for b > 0 {
		if b&1 == 1 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

func floatBinary(op Op, a, b float64, x, y Value) (Value, error) {
	switch op {
	case PLUS:
		return Float(a + b), nil
	case MINUS:
		return Float(a - b), nil
	case STAR:
		return Float(a * b), nil
	case SLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "float division by zero")
		}
		return Float(a / b), nil
	case SLASHSLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "float floor division by zero")
		}
		return Float(math.Floor(a / b)), nil
	case PERCENT:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "float modulo")
		}
		r := math.Mod(a, b)
		if r != 0 && ((r < 0) != (b < 0)) {
			r += b
		}
		return Float(r), nil
	case STARSTAR:
		if a == 0 && b < 0 {
			return nil, Errorf("ZeroDivisionError", "0.0 cannot be raised to a negative power")
		}
		return Float(math.Pow(a, b)), nil
	case EQL:
		return Bool(a == b), nil
	case NEQ:
		return Bool(a != b), nil
	case LT:
		return Bool(a < b), nil
	case LE:
		return Bool(a <= b), nil
	case GT:
		return Bool(a > b), nil
	case GE:
		return Bool(a >= b), nil
	case IN:
		return nil, Errorf("TypeError", "argument of type '%s' is not iterable", y.Type())
	}
	return nil, unsupported(op, x, y)
}

// builtinBinary handles strings, lists and tuples; it returns (nil, nil)
// when the operands are not of those types.
func builtinBinary(op Op, x, y Value) (Value, error) {
	switch a := x.(type) {
	case String:
		switch op {
		case PLUS:
			if b, ok := y.(String); ok {
				if len(a)+len(b) > MaxAlloc {
					return nil, Errorf("MemoryError", "string too large")
				}
				return a + b, nil
			}
		case STAR:
			if n, ok := y.(Int); ok {
				return repeatString(a, int64(n))
			}
		case LT, LE, GT, GE:
			if b, ok := y.(String); ok {
				return Bool(cmpResult(op, strings.Compare(string(a), string(b)))), nil
			}
		}
	case *List:
		switch op {
		case PLUS:
			if b, ok := y.(*List); ok {
				if len(a.Elems)+len(b.Elems) > MaxElems {
					return nil, Errorf("MemoryError", "list too large")
				}
				elems := make([]Value, 0, len(a.Elems)+len(b.Elems))
				return NewList(append(append(elems, a.Elems...), b.Elems...)), nil
			}
		case STAR:
			if n, ok := y.(Int); ok {
				elems, err := repeatElems(a.Elems, int64(n))
				if err != nil {
					return nil, err
				}
				return NewList(elems), nil
			}
		case LT, LE, GT, GE:
			if b, ok := y.(*List); ok {
				c, err := compareSeq(a.Elems, b.Elems)
				if err != nil {
					return nil, err
				}
				return Bool(cmpResult(op, c)), nil
			}
		}
	case Tuple:
		switch op {
		case PLUS:
			if b, ok := y.(Tuple); ok {
				t := make(Tuple, 0, len(a)+len(b))
				return append(append(t, a...), b...), nil
			}
		case STAR:
			if n, ok := y.(Int); ok {
				elems, err := repeatElems(a, int64(n))
				if err != nil {
					return nil, err
				}
				return Tuple(elems), nil
			}
		case LT, LE, GT, GE:
			if b, ok := y.(Tuple); ok {
				c, err := compareSeq(a, b)
				if err != nil {
					return nil, err
				}
				return Bool(cmpResult(op, c)), nil
			}
		}
	case Int:
		if op == STAR {
			switch b := y.(type) {
			case String:
				return repeatString(b, int64(a))
			case *List:
				elems, err := repeatElems(b.Elems, int64(a))
				if err != nil {
					return nil, err
				}
				return NewList(elems), nil
			case Tuple:
				elems, err := repeatElems(b, int64(a))
				if err != nil {
					return nil, err
				}
				return Tuple(elems), nil
			}
		}
	}
	return nil, nil
}

func repeatString(s String, n int64) (Value, error) {
	if n <= 0 || len(s) == 0 {
		return String(""), nil
	}
	if n > MaxAlloc || int64(len(s))*n > MaxAlloc {
		return nil, Errorf("MemoryError", "repeated string is too large (%d x %d bytes)", n, len(s))
	}
	return String(strings.Repeat(string(s), int(n))), nil
}

func repeatElems(elems []Value, n int64) ([]Value, error) {
	if n <= 0 || len(elems) == 0 {
		return []Value{}, nil
	}
	if n > MaxElems || int64(len(elems))*n > MaxElems {
		return nil, Errorf("MemoryError", "repeated sequence is too large (%d x %d elements)", n, len(elems))
	}
	out := make([]Value, 0, int(n)*len(elems))
	for i := int64(0); i < n; i++ {
		out = append(out, elems...)
	}
	return out, nil
}

func cmpResult(op Op, c int) bool {
	switch op {
	case LT:
		return c < 0
	case LE:
		return c <= 0
	case GT:
		return c > 0
	case GE:
		return c >= 0
	case EQL:
		return c == 0
	}
	return c != 0
}

// compareSeq compares two sequences lexicographically.
func compareSeq(a, b []Value) (int, error) {
	for i := 0; i < len(a) && i < len(b); i++ {
		eq, err := Equal(a[i], b[i])
		if err != nil {
			return 0, err
		}
		if eq {
			continue
		}
		c, err := Compare(a[i], b[i])
		return c, err
	}
	switch {
	case len(a) < len(b):
		return -1, nil
	case len(a) > len(b):
		return 1, nil
	}
	return 0, nil
}

// Compare orders x and y (-1, 0, +1) for sorted/min/max; a TypeError when
// they are not ordered.
func Compare(x, y Value) (int, error) {
	r, err := Binary(LT, x, y)
	if err != nil {
		return 0, err
	}
	if b, ok := r.(Bool); ok && bool(b) {
		return -1, nil
	}
	r, err = Binary(GT, x, y)
	if err != nil {
		return 0, err
	}
	if b, ok := r.(Bool); ok && bool(b) {
		return 1, nil
	}
	return 0, nil
}

// Equal reports x == y with Python semantics (1 == 1.0, deep equality of
// lists, tuples and dicts; values of unrelated types are unequal).
func Equal(x, y Value) (bool, error) {
	if x == nil || y == nil {
		return x == y, nil
	}
	_, _, xk := numeric(x)
	_, _, yk := numeric(y)
	if xk != 0 && yk != 0 {
		r, err := Binary(EQL, x, y)
		if err != nil {
			return false, err
		}
		return r.Truth(), nil
	}
	switch a := x.(type) {
	case String:
		b, ok := y.(String)
		return ok && a == b, nil
	case NoneType:
		_, ok := y.(NoneType)
		return ok, nil
	case *List:
		b, ok := y.(*List)
		if !ok {
			return false, nil
		}
		return equalSeq(a.Elems, b.Elems)
	case Tuple:
		var bt []Value
		switch b := y.(type) {
		case Tuple:
			bt = b
		case *NamedTuple:
			bt = b.Tuple
		default:
			return false, nil
		}
		return equalSeq(a, bt)
	case *NamedTuple:
		return Equal(a.Tuple, y)
	case *Dict:
		b, ok := y.(*Dict)
		if !ok || a.Len() != b.Len() {
			return false, nil
		}
		for _, e := range a.entries {
			v, found, err := b.Get(e.key)
			if err != nil || !found {
				return false, err
			}
			eq, err := Equal(e.value, v)
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	case *Range:
		b, ok := y.(*Range)
		return ok && a.Len() == b.Len() && (a.Len() == 0 || a.start == b.start && (a.Len() == 1 || a.step == b.step)), nil
	case *ErrorValue:
		b, ok := y.(*ErrorValue)
		return ok && (a == b || a.Kind == b.Kind && a.Message == b.Message), nil
	}
	if c, ok := x.(Comparable); ok {
		if r, err, ok := c.Compare(EQL, y); ok {
			return r, err
		}
	}
	return isSame(x, y), nil
}

// isSame reports identity for values of comparable dynamic type.
func isSame(x, y Value) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return x == y
}

func equalSeq(a, b []Value) (bool, error) {
	if len(a) != len(b) {
		return false, nil
	}
	for i := range a {
		eq, err := Equal(a[i], b[i])
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// Contains reports whether x is in container c (list, tuple, dict keys,
// substring of a string, range, or any Iterable).
func Contains(c, x Value) (bool, error) {
	switch v := c.(type) {
	case String:
		s, ok := x.(String)
		if !ok {
			return false, Errorf("TypeError", "'in <string>' requires string as left operand, not %s", x.Type())
		}
		return strings.Contains(string(v), string(s)), nil
	case *Dict:
		_, found, err := v.Get(x)
		return found, err
	case *Range:
		i, ok := x.(Int)
		if !ok {
			return false, nil
		}
		return v.index(int64(i)) >= 0, nil
	}
	it, err := Iterate(c)
	if err != nil {
		return false, Errorf("TypeError", "argument of type '%s' is not iterable", c.Type())
	}
	for {
		e, ok := it.Next()
		if !ok {
			return false, nil
		}
		eq, err := Equal(e, x)
		if err != nil {
			return false, err
		}
		if eq {
			return true, nil
		}
	}
}

// Inplace applies an augmented assignment operator: the left operand's
// HasInplace if it has one (a tensor's x += y is add_), else Binary.
func Inplace(op Op, x, y Value) (_ Value, err error) {
	defer recoverMemoryError(&err)
	if ip, ok := x.(HasInplace); ok {
		if r, err := ip.Inplace(op, y); r != nil || err != nil {
			return r, err
		}
	}
	if l, ok := x.(*List); ok && op == PLUS {
		// Python's list += iterable extends in place.
		elems, err := Elements(y)
		if err != nil {
			return nil, Errorf("TypeError", "'%s' object is not iterable", y.Type())
		}
		l.Elems = append(l.Elems, elems...)
		return l, nil
	}
	return Binary(op, x, y)
}

// Unary applies -x, +x or ~x.
func Unary(op Op, x Value) (_ Value, err error) {
	defer recoverMemoryError(&err)
	switch v := x.(type) {
	case Int:
		switch op {
		case UMINUS:
			return MakeInt(-int64(v)), nil
		case UPLUS:
			return v, nil
		case TILDE:
			return MakeInt(^int64(v)), nil
		}
	case Float:
		switch op {
		case UMINUS:
			return -v, nil
		case UPLUS:
			return v, nil
		}
	case Bool:
		i := int64(0)
		if v {
			i = 1
		}
		switch op {
		case UMINUS:
			return MakeInt(-i), nil
		case UPLUS:
			return MakeInt(i), nil
		case TILDE:
			return MakeInt(^i), nil
		}
	}
	if u, ok := x.(HasUnary); ok {
		if r, err := u.Unary(op); r != nil || err != nil {
			return r, err
		}
	}
	return nil, Errorf("TypeError", "bad operand type for unary %s: '%s'", op, x.Type())
}

// recoverMemoryError turns a MemoryError-kind panic — how the tensor
// runtime reports an allocation it cannot make from deep inside an op —
// into the error a builtin or operator returns, so scripts can catch it.
// Any other panic continues (the VM reports it as an internal error).
func recoverMemoryError(err *error) {
	if r := recover(); r != nil {
		if k, ok := r.(HasKind); ok && k.ErrorKind() == "MemoryError" {
			*err = k
			return
		}
		panic(r)
	}
}

// truth returns x's truthiness, with the error of a value whose truth is
// undefined (HasTruthE: a multi-element tensor).
func truth(x Value) (bool, error) {
	if t, ok := x.(HasTruthE); ok {
		return t.TruthE()
	}
	return x.Truth(), nil
}

// Iterate returns an iterator over x: list, tuple, dict (keys), string
// (characters), range, or any Iterable.
func Iterate(x Value) (Iterator, error) {
	switch v := x.(type) {
	case *Range:
		return &rangeIter{next: v.start, stop: v.stop, step: v.step}, nil
	case *Dict:
		keys := make([]Value, len(v.entries))
		for i, e := range v.entries {
			keys[i] = e.key
		}
		return &sliceIter{elems: keys}, nil
	case String:
		return &strIter{s: string(v)}, nil
	case IterableE:
		return v.IterateE()
	case Iterable:
		return v.Iterate(), nil
	}
	return nil, Errorf("TypeError", "'%s' object is not iterable", x.Type())
}

// Elements returns all elements of an iterable value.
func Elements(x Value) ([]Value, error) {
	switch v := x.(type) {
	case *List:
		return v.Elems, nil
	case Tuple:
		return v, nil
	case *Range:
		if v.Len() > MaxElems {
			return nil, Errorf("MemoryError", "%s is too large to materialise", v)
		}
	}
	it, err := Iterate(x)
	if err != nil {
		return nil, err
	}
	var out []Value
	for {
		e, ok := it.Next()
		if !ok {
			return out, nil
		}
		out = append(out, e)
		if len(out) > MaxElems {
			return nil, Errorf("MemoryError", "too many elements")
		}
	}
}

type strIter struct {
	s string
	i int
}

func (it *strIter) Next() (Value, bool) {
	if it.i >= len(it.s) {
		return nil, false
	}
	_, n := utf8.DecodeRuneInString(it.s[it.i:])
	v := String(it.s[it.i : it.i+n])
	it.i += n
	return v, true
}

// Len returns the length of a sized value, or false.
func Len(x Value) (int, bool) {
	switch v := x.(type) {
	case String:
		return utf8.RuneCountInString(string(v)), true
	case *Dict:
		return v.Len(), true
	case HasLen:
		return v.Len(), true
	case Sequence:
		return v.Len(), true
	}
	return 0, false
}

// Str returns str(x).
func Str(x Value) string { return x.String() }

// FormatValue formats x with a Python format spec (f"{x:spec}", format()).
func FormatValue(x Value, spec string) (string, error) {
	if spec == "" {
		return x.String(), nil
	}
	switch v := x.(type) {
	case Int:
		return numfmt.FormatSpec(int64(v), spec)
	case Float:
		return numfmt.FormatSpec(float64(v), spec)
	case Bool:
		return numfmt.FormatSpec(bool(v), spec)
	case String:
		return numfmt.FormatSpec(string(v), spec)
	case Formattable:
		return v.Format(spec)
	}
	return numfmt.FormatSpec(x.String(), spec)
}
