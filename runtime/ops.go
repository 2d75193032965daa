package runtime

import (
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/tsrlang/tsr/internal/xmath"
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
	defer RecoverMemoryError(&err)
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
	lend(x, y)
	lend(y, x)
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
		if c, ok := y.(Comparable); ok {
			if r, err, ok := c.Compare(reflectOp[op-LT], x); ok {
				return Bool(r), err
			}
		}
		return nil, Errorf("TypeError", "'%s' not supported between instances of '%s' and '%s'", op, x.Type(), y.Type())
	}
	return nil, seqUnsupported(op, x, y)
}

// isSeq reports whether x is a str, list or tuple.
func isSeq(x Value) bool {
	switch x.(type) {
	case String, *List, Tuple:
		return true
	}
	return false
}

// seqUnsupported is the TypeError of a binary operator no operand
// supports, with CPython's wording for sequence concatenation and
// repetition ("can only concatenate str (not "int") to str", "can't
// multiply sequence by non-int of type 'float'").
func seqUnsupported(op Op, x, y Value) error {
	switch {
	case op == PLUS && isSeq(x):
		return Errorf("TypeError", "can only concatenate %s (not \"%s\") to %s", x.Type(), y.Type(), x.Type())
	case op == STAR && isSeq(x):
		return Errorf("TypeError", "can't multiply sequence by non-int of type '%s'", y.Type())
	case op == STAR && isSeq(y):
		return Errorf("TypeError", "can't multiply sequence by non-int of type '%s'", x.Type())
	}
	return unsupported(op, x, y)
}

// reflectOp maps an ordering operator to the one that holds with the
// operands swapped: x < y is y > x.
var reflectOp = [...]Op{LT - LT: GT, LE - LT: GE, GT - LT: LT, GE - LT: LE}

func intBinary(op Op, a, b int64, x, y Value) (Value, error) {
	switch op {
	case PLUS:
		r, ok := AddInt64(a, b)
		if !ok {
			return nil, errIntOverflow()
		}
		return MakeInt(r), nil
	case MINUS:
		r, ok := SubInt64(a, b)
		if !ok {
			return nil, errIntOverflow()
		}
		return MakeInt(r), nil
	case STAR:
		r, ok := MulInt64(a, b)
		if !ok {
			return nil, errIntOverflow()
		}
		return MakeInt(r), nil
	case SLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "division by zero")
		}
		return Float(float64(a) / float64(b)), nil
	case SLASHSLASH:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "integer division or modulo by zero")
		}
		if b == -1 && a == math.MinInt64 {
			return nil, errIntOverflow()
		}
		return MakeInt(floorDiv(a, b)), nil
	case PERCENT:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "integer modulo by zero")
		}
		return MakeInt(floorMod(a, b)), nil
	case STARSTAR:
		if b < 0 {
			if a == 0 {
				return nil, Errorf("ZeroDivisionError", "0.0 cannot be raised to a negative power")
			}
			return Float(xmath.Pow(float64(a), float64(b))), nil
		}
		r, ok := ipow(a, b)
		if !ok {
			return nil, errIntOverflow()
		}
		return MakeInt(r), nil
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

// floorDiv returns Python's a // b for b != 0 (MinInt64 // -1 wraps to
// MinInt64; intBinary reports it as an overflow first).
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

// ipow returns a**b for b >= 0 by binary exponentiation, and false when
// the result is outside int64. (Squaring a overflows only when a later
// bit of b remains, and then the result's magnitude is at least that
// square, which is above 2**63.)
func ipow(a, b int64) (int64, bool) {
	r := int64(1)
	ok := true
	for b > 0 {
		if b&1 == 1 {
			if r, ok = MulInt64(r, a); !ok {
				return 0, false
			}
		}
		b >>= 1
		if b == 0 {
			break
		}
		if a, ok = MulInt64(a, a); !ok {
			return 0, false
		}
	}
	return r, true
}

// errIntOverflow is the error of an int operation whose result is outside
// int64 (tsr ints are int64, not Python's unbounded ints).
func errIntOverflow() error { return Errorf("OverflowError", "int64 overflow") }

// AddInt64 returns a + b and whether it did not overflow int64.
func AddInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s^a)&(s^b) >= 0
}

// SubInt64 returns a - b and whether it did not overflow int64.
func SubInt64(a, b int64) (int64, bool) {
	d := a - b
	return d, (a^b)&(d^a) >= 0
}

// MulInt64 returns a * b and whether it did not overflow int64: the
// 128-bit product (math/bits.Mul64, corrected for the signs) must be the
// sign extension of its low 64 bits.
func MulInt64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	shi := int64(hi) - (a>>63)&b - (b>>63)&a
	return int64(lo), shi == int64(lo)>>63
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
		q, _ := floatDivmod(a, b)
		return Float(q), nil
	case PERCENT:
		if b == 0 {
			return nil, Errorf("ZeroDivisionError", "float modulo")
		}
		_, r := floatDivmod(a, b)
		return Float(r), nil
	case STARSTAR:
		if a == 0 && b < 0 {
			return nil, Errorf("ZeroDivisionError", "0.0 cannot be raised to a negative power")
		}
		r := xmath.Pow(a, b)
		if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) && !math.IsNaN(a) {
			// Python raises where a finite power overflows (float ** is checked, * is not)
			return nil, Errorf("OverflowError", "(34, 'Numerical result out of range')")
		}
		return Float(r), nil
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

// floatDivmod returns Python's (a // b, a % b) for floats, b != 0, by
// CPython's float_divmod: the quotient is computed from a - fmod(a, b) so
// that 1 // 0.1 == 9.0 (not floor(1 / 0.1) == 10.0), and a zero remainder
// or quotient carries the sign Python gives it (-0.0 % 5 == 0.0,
// 5 % -0.5 == -0.0).
func floatDivmod(a, b float64) (q, r float64) {
	r = math.Mod(a, b)
	div := (a - r) / b
	if r != 0 {
		if (b < 0) != (r < 0) {
			r += b
			div -= 1
		}
	} else {
		r = math.Copysign(0, b)
	}
	if div != 0 {
		q = math.Floor(div)
		if div-q > 0.5 {
			q++
		}
	} else {
		q = math.Copysign(0, a/b)
	}
	return q, r
}

// builtinBinary handles strings, lists and tuples; it returns (nil, nil)
// when the operands are not of those types.
func builtinBinary(op Op, x, y Value) (Value, error) {
	if op == STAR { // a bool repeats a sequence as the int it is ("ab" * true)
		if bv, ok := y.(Bool); ok && isSeq(x) {
			y = Int(b2i(bool(bv)))
		} else if bv, ok := x.(Bool); ok && isSeq(y) {
			x = Int(b2i(bool(bv)))
		}
	}
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
		case PERCENT:
			return percentFormat(string(a), y)
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
			if b, ok := y.(Tuple); ok && a.SizeLike {
				// torch.Size + tuple is a torch.Size (x.shape[:-1] + (n,))
				elems := make([]Value, 0, len(a.Elems)+len(b))
				return &List{Elems: append(append(elems, a.Elems...), b...), SizeLike: true}, nil
			}
		case STAR:
			if n, ok := y.(Int); ok {
				elems, err := repeatElems(a.Elems, int64(n))
				if err != nil {
					return nil, err
				}
				return &List{Elems: elems, SizeLike: a.SizeLike}, nil
			}
		case LT, LE, GT, GE:
			if b, ok := y.(*List); ok {
				r, err := seqCompare(op, a.Elems, b.Elems, 0)
				return Bool(r), err
			}
			if b, ok := y.(Tuple); ok && a.SizeLike {
				r, err := seqCompare(op, a.Elems, b, 0)
				return Bool(r), err
			}
		}
	case Tuple:
		switch op {
		case PLUS:
			if b, ok := y.(Tuple); ok {
				t := make(Tuple, 0, len(a)+len(b))
				return append(append(t, a...), b...), nil
			}
			if b, ok := y.(*List); ok && b.SizeLike {
				// tuple + torch.Size is a tuple, as in Python
				t := make(Tuple, 0, len(a)+len(b.Elems))
				return append(append(t, a...), b.Elems...), nil
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
				r, err := seqCompare(op, a, b, 0)
				return Bool(r), err
			}
			if b, ok := y.(*List); ok && b.SizeLike {
				r, err := seqCompare(op, a, b.Elems, 0)
				return Bool(r), err
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
				return &List{Elems: elems, SizeLike: b.SizeLike}, nil
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

// seqCompare applies the ordering operator op (LT, LE, GT, GE) to two
// sequences lexicographically, as Python does: the first pair of elements
// that are not equal decides, by op applied to that pair; otherwise the
// lengths do. depth counts the enclosing sequence comparisons.
func seqCompare(op Op, a, b []Value, depth int) (bool, error) {
	if depth > MaxNesting {
		return false, errComparisonDepth()
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		eq, err := equal(a[i], b[i], depth+1)
		if err != nil {
			return false, err
		}
		if !eq {
			return compareOp(op, a[i], b[i], depth+1)
		}
	}
	return cmpResult(op, len(a)-len(b)), nil
}

func errComparisonDepth() error {
	return Errorf("RecursionError", "maximum recursion depth exceeded in comparison")
}

// compareOp reports whether x op y holds for an ordering operator (LT, LE,
// GT, GE), with Python semantics: numbers and strings directly, lists and
// tuples lexicographically, anything else through Binary (the operands'
// HasBinary, either side, then Comparable) followed by the truth of the
// result, so a one-element tensor result counts as its value and a
// multi-element one is the RuntimeError of truth().
func compareOp(op Op, x, y Value, depth int) (bool, error) {
	switch a := x.(type) {
	case *List:
		if b, ok := y.(*List); ok {
			return seqCompare(op, a.Elems, b.Elems, depth)
		}
	case Tuple:
		if b, ok := y.(Tuple); ok {
			return seqCompare(op, a, b, depth)
		}
	}
	r, err := Binary(op, x, y)
	if err != nil {
		return false, err
	}
	if b, ok := r.(Bool); ok {
		return bool(b), nil
	}
	return truth(r)
}

// Less reports x < y with Python semantics (see compareOp): the order used
// by sorted, min and list.sort. Values that are not ordered give a
// TypeError.
func Less(x, y Value) (bool, error) { return compareOp(LT, x, y, 0) }

// Compare orders x and y (-1, 0, +1) by x < y, then x > y; a TypeError
// when they are not ordered.
func Compare(x, y Value) (int, error) {
	lt, err := compareOp(LT, x, y, 0)
	if err != nil || lt {
		return -1, err
	}
	gt, err := compareOp(GT, x, y, 0)
	if err != nil || gt {
		return 1, err
	}
	return 0, nil
}

// Equal reports x == y with Python semantics: 1 == 1.0; deep equality of
// lists, tuples and dicts (a container is equal to itself without looking at
// its elements, so a list that contains itself equals itself); for other
// values the operands' == operator (HasBinary, either side) and the truth
// of its result (a one-element tensor counts as its value, a multi-element
// one is a RuntimeError), then Comparable, then identity. Values of unrelated
// types are unequal. Structures nested deeper than MaxNesting give a
// RecursionError.
func Equal(x, y Value) (bool, error) { return equal(x, y, 0) }

func equal(x, y Value, depth int) (bool, error) {
	if x == nil || y == nil {
		return x == y, nil
	}
	xi, xf, xk := numeric(x)
	yi, yf, yk := numeric(y)
	if xk != 0 && yk != 0 {
		if xk == 'i' && yk == 'i' {
			return xi == yi, nil
		}
		if xk == 'i' {
			xf = float64(xi)
		}
		if yk == 'i' {
			yf = float64(yi)
		}
		return xf == yf, nil
	}
	switch a := x.(type) {
	case String:
		if b, ok := y.(String); ok {
			return a == b, nil
		}
	case NoneType:
		if _, ok := y.(NoneType); ok {
			return true, nil
		}
	case *List:
		switch b := y.(type) {
		case *List:
			if a == b {
				return true, nil
			}
			return equalSeq(a.Elems, b.Elems, depth+1)
		case Tuple:
			if a.SizeLike {
				return equalSeq(a.Elems, b, depth+1)
			}
		}
	case Tuple:
		var bt []Value
		switch b := y.(type) {
		case Tuple:
			bt = b
		case *NamedTuple:
			bt = b.Tuple
		case *List:
			if b.SizeLike {
				return equalSeq(a, b.Elems, depth+1)
			}
		}
		if bt != nil {
			if len(a) == len(bt) && (len(a) == 0 || &a[0] == &bt[0]) {
				return true, nil
			}
			return equalSeq(a, bt, depth+1)
		}
	case *NamedTuple:
		return equal(a.Tuple, y, depth)
	case *Dict:
		if b, ok := y.(*Dict); ok {
			return equalDict(a, b, depth+1)
		}
	case *Set:
		if b, ok := y.(*Set); ok {
			return equalSet(a, b)
		}
	case *Range:
		if b, ok := y.(*Range); ok {
			return a.Len() == b.Len() && (a.Len() == 0 || a.start == b.start && (a.Len() == 1 || a.step == b.step)), nil
		}
	case *ErrorValue:
		if b, ok := y.(*ErrorValue); ok {
			return a == b || a.Kind == b.Kind && a.Message == b.Message, nil
		}
	}
	return equalOther(x, y)
}

// equalOther compares values that are not two built-in values of one kind:
// identity, the == operator of either operand, then Comparable.
func equalOther(x, y Value) (bool, error) {
	if isSame(x, y) {
		return true, nil
	}
	if hb, ok := x.(HasBinary); ok {
		r, err := hb.Binary(EQL, y, Left)
		if err != nil {
			return false, err
		}
		if r != nil {
			return truth(r)
		}
	}
	if hb, ok := y.(HasBinary); ok {
		r, err := hb.Binary(EQL, x, Right)
		if err != nil {
			return false, err
		}
		if r != nil {
			return truth(r)
		}
	}
	if c, ok := x.(Comparable); ok {
		if r, err, ok := c.Compare(EQL, y); ok {
			return r, err
		}
	}
	if c, ok := y.(Comparable); ok {
		if r, err, ok := c.Compare(EQL, x); ok {
			return r, err
		}
	}
	return false, nil
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

func equalSeq(a, b []Value, depth int) (bool, error) {
	if len(a) != len(b) {
		return false, nil
	}
	if depth > MaxNesting {
		return false, errComparisonDepth()
	}
	for i := range a {
		eq, err := equal(a[i], b[i], depth)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

func equalDict(a, b *Dict, depth int) (bool, error) {
	if a == b {
		return true, nil
	}
	if a.Len() != b.Len() {
		return false, nil
	}
	if depth > MaxNesting {
		return false, errComparisonDepth()
	}
	for _, e := range a.live() {
		v, found, err := b.Get(e.key)
		if err != nil || !found {
			return false, err
		}
		eq, err := equal(e.value, v, depth)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// Contains reports whether x is in container c (list, tuple, dict keys,
// substring of a string, range, or any Iterable), comparing elements with
// Equal.
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
	case *Set:
		return v.Has(x)
	case *Range:
		switch i, f, k := numeric(x); k {
		case 'i':
			return v.index(i) >= 0, nil
		case 'f':
			i, ok := floatInt64(f)
			return ok && v.index(i) >= 0, nil
		}
		if _, ok := x.(HasBinary); !ok || v.Len() > MaxElems {
			return false, nil
		}
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
	defer RecoverMemoryError(&err)
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
	defer RecoverMemoryError(&err)
	switch v := x.(type) {
	case Int:
		switch op {
		case UMINUS:
			if v == math.MinInt64 {
				return nil, errIntOverflow()
			}
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

// RecoverMemoryError, deferred directly (defer RecoverMemoryError(&err)),
// turns a MemoryError-kind panic — how the tensor runtime reports an
// allocation it cannot make from deep inside an op — into the error a
// builtin or operator returns, so scripts can catch it. Any other panic
// continues (the VM reports it as an internal error).
func RecoverMemoryError(err *error) {
	if r := recover(); r != nil {
		if k, ok := r.(HasKind); ok && k.ErrorKind() == "MemoryError" {
			*err = k
			return
		}
		panic(r)
	}
}

// Truthy is x's truthiness as `if x` sees it, with the error of a value
// whose truth is undefined (HasTruthE: a multi-element tensor).
func Truthy(x Value) (bool, error) { return truth(x) }

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
		return v.Iterate(), nil
	case String:
		return &strIter{s: string(v)}, nil
	case IterableE:
		return v.IterateE()
	case Iterable:
		return v.Iterate(), nil
	}
	return nil, Errorf("TypeError", "'%s' object is not iterable", x.Type())
}

// ErrIterator is an Iterator whose iteration can end in an error (a dict
// whose keys changed while it was iterated); Next returns false then, and
// Err the error.
type ErrIterator interface {
	Iterator
	Err() error
}

// IterErr returns the error that ended it, or nil.
func IterErr(it Iterator) error {
	if e, ok := it.(ErrIterator); ok {
		return e.Err()
	}
	return nil
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
			return out, IterErr(it)
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
		if f, ok := x.(Formattable); ok {
			return f.Format("") // a 0-d tensor formats its item, as Tensor.__format__
		}
		return StrE(x)
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
	// Python's object.__format__: only the empty spec (str) is supported
	return "", Errorf("TypeError", "unsupported format string passed to %s.__format__", pyTypeName(x))
}

// pyTypeName is x's Python type name in messages (NoneType for none).
func pyTypeName(x Value) string {
	if x == None {
		return "NoneType"
	}
	return x.Type()
}
