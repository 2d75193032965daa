package runtime

import (
	"errors"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Universe holds the built-in functions and constants every program sees
// (LANGUAGE.md section 8): print, len, range, str, int, float, bool, type,
// abs, min, max, sum, round, zip, enumerate, sorted, format, error, clock,
// list, tuple, dict, repr, any, all, and the constants inf, nan, pi.
// stdlib shadows some of them (abs, min, max, sum, round, float, int, bool,
// len) with tensor-aware versions that delegate here for other values.
var Universe map[string]Value

func init() {
	Universe = map[string]Value{
		"inf": Float(math.Inf(1)),
		"nan": Float(math.NaN()),
		"pi":  Float(math.Pi),
	}
	for name, fn := range map[string]func(*Thread, *Builtin, []Value, []Kwarg) (Value, error){
		"print":     builtinPrint,
		"len":       builtinLen,
		"range":     builtinRange,
		"str":       builtinStr,
		"repr":      builtinRepr,
		"int":       builtinInt,
		"float":     builtinFloat,
		"bool":      builtinBool,
		"type":      builtinType,
		"abs":       builtinAbs,
		"min":       builtinMin,
		"max":       builtinMax,
		"sum":       builtinSum,
		"round":     builtinRound,
		"zip":       builtinZip,
		"enumerate": builtinEnumerate,
		"sorted":    builtinSorted,
		"format":    builtinFormat,
		"error":     builtinError,
		"clock":     builtinClock,
		"list":      builtinList,
		"tuple":     builtinTuple,
		"dict":      builtinDict,
		"set":       builtinSet,
		"any":       builtinAny,
		"all":       builtinAll,
	} {
		Universe[name] = NewBuiltin(name, fn)
	}
}

var clockStart = time.Now()

func noKwargs(name string, kwargs []Kwarg) error {
	if len(kwargs) > 0 {
		return Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", name, kwargs[0].Name)
	}
	return nil
}

func builtinPrint(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sep, end := " ", "\n"
	for _, kw := range kwargs {
		if kw.Name == "flush" {
			continue // Python's flush=: every print is written at once
		}
		if kw.Name != "sep" && kw.Name != "end" {
			return nil, Errorf("TypeError", "print() got an unexpected keyword argument '%s'", kw.Name)
		}
		s, ok := kw.Value.(String)
		if !ok && kw.Value != None {
			return nil, Errorf("TypeError", "print(): %s must be a string or none, not %s", kw.Name, kw.Value.Type())
		}
		switch kw.Name {
		case "sep":
			if ok {
				sep = string(s)
			}
		case "end":
			if ok {
				end = string(s)
			}
		}
	}
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteString(sep)
		}
		t, err := StrE(a)
		if err != nil {
			return nil, err
		}
		sb.WriteString(t)
	}
	sb.WriteString(end)
	if th.Stdout != nil {
		if _, err := io.WriteString(th.Stdout, sb.String()); err != nil {
			return nil, Errorf("IOError", "print: %v", err)
		}
	}
	return None, nil
}

func oneArg(name string, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs(name, kwargs); err != nil {
		return nil, err
	}
	if len(args) != 1 {
		return nil, Errorf("TypeError", "%s() takes exactly one argument (%d given)", name, len(args))
	}
	return args[0], nil
}

func builtinLen(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("len", args, kwargs)
	if err != nil {
		return nil, err
	}
	if r, ok := x.(*Range); ok && r.len64() > math.MaxInt64 {
		return nil, Errorf("OverflowError", "Python int too large to convert to C ssize_t")
	}
	n, ok := Len(x)
	if !ok {
		return nil, Errorf("TypeError", "object of type '%s' has no len()", x.Type())
	}
	return MakeInt(int64(n)), nil
}

func builtinRange(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("range", kwargs); err != nil {
		return nil, err
	}
	var ints [3]int64
	for i, a := range args {
		if i >= 3 {
			return nil, Errorf("TypeError", "range() takes at most 3 arguments (%d given)", len(args))
		}
		v, ok := AsInt(a)
		if !ok {
			return nil, Errorf("TypeError", "range(): arguments must be int, not %s", a.Type())
		}
		ints[i] = v
	}
	switch len(args) {
	case 0:
		return nil, Errorf("TypeError", "range() expected at least 1 argument, got 0")
	case 1:
		return NewRange(0, ints[0], 1), nil
	case 2:
		return NewRange(ints[0], ints[1], 1), nil
	}
	if ints[2] == 0 {
		return nil, Errorf("ValueError", "range() arg 3 must not be zero")
	}
	return NewRange(ints[0], ints[1], ints[2]), nil
}

func builtinStr(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return String(""), nil
	}
	x, err := oneArg("str", args, kwargs)
	if err != nil {
		return nil, err
	}
	if s, ok := x.(String); ok {
		return s, nil
	}
	t, err := StrE(x)
	return String(t), err
}

func builtinRepr(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("repr", args, kwargs)
	if err != nil {
		return nil, err
	}
	t, err := ReprE(x)
	return String(t), err
}

func builtinInt(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return MakeInt(0), nil
	}
	var x, base Value = nil, None
	if err := UnpackArgs("int", args, kwargs, "x", &x, "base?", &base); err != nil {
		return nil, err
	}
	if base != None {
		bi, ok := base.(Int)
		if !ok {
			return nil, Errorf("TypeError", "'%s' object cannot be interpreted as an integer", base.Type())
		}
		if bi != 0 && (bi < 2 || bi > 36) {
			return nil, Errorf("ValueError", "int() base must be >= 2 and <= 36, or 0")
		}
		s, ok := x.(String)
		if !ok {
			return nil, Errorf("TypeError", "int() can't convert non-string with explicit base")
		}
		return parseIntBase(string(s), int(bi))
	}
	switch v := x.(type) {
	case Int:
		return v, nil
	case Bool:
		i, _ := AsInt(v)
		return MakeInt(i), nil
	case Float:
		f := float64(v)
		if math.IsNaN(f) {
			return nil, Errorf("ValueError", "cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			return nil, Errorf("OverflowError", "cannot convert float infinity to integer")
		}
		if math.Abs(f) >= 1<<63 {
			return nil, Errorf("OverflowError", "cannot convert float %s to integer", v)
		}
		return MakeInt(int64(f)), nil
	case String:
		return parseIntBase(string(v), 10)
	}
	return nil, Errorf("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '%s'", x.Type())
}

// parseIntBase is Python's int(s, base): surrounding whitespace, a sign,
// for base 0, 2, 8 or 16 a matching 0x/0o/0b prefix (base 0 infers the
// base from it, and then rejects a decimal with a leading zero, as "017"),
// and single underscores between digits (or right after a prefix).
func parseIntBase(src string, base int) (Value, error) {
	bad := func() error {
		return Errorf("ValueError", "invalid literal for int() with base %d: %s", base, QuoteString(src))
	}
	s := strings.TrimSpace(src)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	b := base
	prefixed := false
	if len(s) >= 2 && s[0] == '0' {
		p := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if p != 0 && (base == 0 || base == p) {
			b, s, prefixed = p, s[2:], true
		}
	}
	if b == 0 {
		b = 10
		if strings.TrimLeft(s, "0_") != "" && s != "" && s[0] == '0' {
			return nil, bad() // "017": a leading zero needs a prefix in base 0
		}
	}
	if prefixed && strings.HasPrefix(s, "_") {
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return nil, bad()
	}
	u, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), b, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, bad()
	}
	if errors.Is(err, strconv.ErrRange) || u > 1<<63 || (!neg && u == 1<<63) {
		return nil, errIntOverflow()
	}
	if neg {
		return MakeInt(-int64(u)), nil
	}
	return MakeInt(int64(u)), nil
}

func builtinFloat(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return Float(0), nil
	}
	x, err := oneArg("float", args, kwargs)
	if err != nil {
		return nil, err
	}
	if f, ok := AsFloat(x); ok {
		return Float(f), nil
	}
	if s, ok := x.(String); ok {
		t := strings.ToLower(strings.TrimSpace(string(s)))
		switch strings.TrimLeft(t, "+-") {
		case "inf", "infinity", "nan":
			f := math.Inf(1)
			if strings.HasSuffix(t, "nan") {
				f = math.NaN()
			} else if strings.HasPrefix(t, "-") {
				f = math.Inf(-1)
			}
			return Float(f), nil
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
		if err != nil && !strings.Contains(err.Error(), "range") || t == "" {
			return nil, Errorf("ValueError", "could not convert string to float: %s", QuoteString(string(s)))
		}
		return Float(f), nil
	}
	return nil, Errorf("TypeError", "float() argument must be a string or a real number, not '%s'", x.Type())
}

func builtinBool(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return Bool(false), nil
	}
	x, err := oneArg("bool", args, kwargs)
	if err != nil {
		return nil, err
	}
	t, err := truth(x)
	return Bool(t), err
}

func builtinType(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("type", args, kwargs)
	if err != nil {
		return nil, err
	}
	return TypeName(x.Type()), nil
}

func builtinAbs(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("abs", args, kwargs)
	if err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case Int:
		if v == math.MinInt64 {
			return nil, errIntOverflow()
		}
		if v < 0 {
			return MakeInt(-int64(v)), nil
		}
		return v, nil
	case Float:
		return Float(math.Abs(float64(v))), nil
	case Bool:
		i, _ := AsInt(v)
		return MakeInt(i), nil
	}
	return nil, Errorf("TypeError", "bad operand type for abs(): '%s'", x.Type())
}

// minMax implements min and max: one iterable or several arguments, with
// key= and default=. As in Python, an element replaces the best so far when
// element op best holds (op is LT for min, GT for max), so the first of
// equal elements wins.
func minMax(th *Thread, name string, args []Value, kwargs []Kwarg, op Op) (Value, error) {
	var key, def Value
	for _, kw := range kwargs {
		switch kw.Name {
		case "key":
			key = kw.Value
		case "default":
			def = kw.Value
		default:
			return nil, Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
	}
	var elems []Value
	switch len(args) {
	case 0:
		return nil, Errorf("TypeError", "%s expected at least 1 argument, got 0", name)
	case 1:
		var err error
		if elems, err = Elements(args[0]); err != nil {
			return nil, Errorf("TypeError", "'%s' object is not iterable", args[0].Type())
		}
	default:
		elems = args
	}
	if len(elems) == 0 {
		if def != nil {
			return def, nil
		}
		return nil, Errorf("ValueError", "%s() arg is an empty sequence", name)
	}
	best := elems[0]
	bestKey := best
	if key != nil && key != None {
		k, err := th.Call(key, []Value{best}, nil)
		if err != nil {
			return nil, err
		}
		bestKey = k
	}
	for _, e := range elems[1:] {
		ek := e
		if key != nil && key != None {
			k, err := th.Call(key, []Value{e}, nil)
			if err != nil {
				return nil, err
			}
			ek = k
		}
		better, err := compareOp(op, ek, bestKey, 0)
		if err != nil {
			return nil, err
		}
		if better {
			best, bestKey = e, ek
		}
	}
	return best, nil
}

func builtinMin(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return minMax(th, "min", args, kwargs, LT)
}

func builtinMax(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return minMax(th, "max", args, kwargs, GT)
}

func builtinSum(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var it, start Value = nil, MakeInt(0)
	if err := UnpackArgs("sum", args, kwargs, "iterable", &it, "start?", &start); err != nil {
		return nil, err
	}
	elems, err := Elements(it)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", it.Type())
	}
	acc := start
	for _, e := range elems {
		if acc, err = Binary(PLUS, acc, e); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func builtinRound(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var x, nd Value = nil, None
	if err := UnpackArgs("round", args, kwargs, "number", &x, "ndigits?", &nd); err != nil {
		return nil, err
	}
	if nd == None {
		switch v := x.(type) {
		case Int:
			return v, nil
		case Bool:
			i, _ := AsInt(v)
			return MakeInt(i), nil
		case Float:
			f := math.RoundToEven(float64(v))
			switch {
			case math.IsNaN(f):
				return nil, Errorf("ValueError", "cannot convert float NaN to integer")
			case math.IsInf(f, 0):
				return nil, Errorf("OverflowError", "cannot convert float infinity to integer")
			case math.Abs(f) >= 1<<63:
				return nil, Errorf("OverflowError", "int too large to convert to int64")
			}
			return MakeInt(int64(f)), nil
		}
		return nil, Errorf("TypeError", "type %s doesn't define round()", x.Type())
	}
	n, ok := AsInt(nd)
	if !ok {
		return nil, Errorf("TypeError", "round(): ndigits must be an int, not %s", nd.Type())
	}
	switch v := x.(type) {
	case Int, Bool:
		i, _ := AsInt(v)
		if n >= 0 {
			return MakeInt(i), nil
		}
		if -n > 18 {
			return MakeInt(0), nil
		}
		p, _ := ipow(10, -n)
		q := floorDiv(i, p)
		r := i - q*p
		if 2*r > p || 2*r == p && q%2 != 0 {
			q++
		}
		r, ok := MulInt64(q, p)
		if !ok {
			return nil, errIntOverflow()
		}
		return MakeInt(r), nil
	case Float:
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return v, nil
		}
		if n >= 0 {
			if n > 300 {
				return v, nil
			}
			r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(n), 64), 64)
			return Float(r), nil
		}
		p := math.Pow(10, float64(-n))
		return Float(math.RoundToEven(f/p) * p), nil
	}
	return nil, Errorf("TypeError", "type %s doesn't define round()", x.Type())
}

func builtinZip(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := noKwargs("zip", kwargs); err != nil {
		return nil, err
	}
	lists := make([][]Value, len(args))
	n := -1
	for i, a := range args {
		elems, err := Elements(a)
		if err != nil {
			return nil, Errorf("TypeError", "zip argument #%d must support iteration", i+1)
		}
		lists[i] = elems
		if n < 0 || len(elems) < n {
			n = len(elems)
		}
	}
	if n < 0 {
		n = 0
	}
	out := make([]Value, n)
	for j := 0; j < n; j++ {
		t := make(Tuple, len(lists))
		for i := range lists {
			t[i] = lists[i][j]
		}
		out[j] = t
	}
	return NewList(out), nil
}

func builtinEnumerate(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var it Value
	var start int64
	if err := UnpackArgs("enumerate", args, kwargs, "iterable", &it, "start?", &start); err != nil {
		return nil, err
	}
	elems, err := Elements(it)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", it.Type())
	}
	out := make([]Value, len(elems))
	for i, e := range elems {
		out[i] = Tuple{MakeInt(start + int64(i)), e}
	}
	return NewList(out), nil
}

func builtinSorted(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var it, key Value = nil, None
	var reverse bool
	if err := UnpackArgs("sorted", args, kwargs, "iterable", &it, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	elems, err := Elements(it)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", it.Type())
	}
	elems = append([]Value{}, elems...)
	keys := elems
	if key != None {
		keys = make([]Value, len(elems))
		for i, e := range elems {
			if keys[i], err = th.Call(key, []Value{e}, nil); err != nil {
				return nil, err
			}
		}
	}
	if err := sortValues(elems, keys, reverse); err != nil {
		return nil, err
	}
	return NewList(elems), nil
}

// sortValues sorts elems in place by keys (elems itself when keys is the
// same slice), stably, with Python's order (Less); reverse sorts in
// descending order while keeping equal elements in their original order,
// as Python's sort(reverse=True) does. The first comparison error is
// returned, leaving elems in some permutation of its original elements.
func sortValues(elems, keys []Value, reverse bool) error {
	idx := make([]int, len(elems))
	for i := range idx {
		idx[i] = i
	}
	var cmpErr error
	sort.SliceStable(idx, func(i, j int) bool {
		if cmpErr != nil {
			return false
		}
		a, b := keys[idx[i]], keys[idx[j]]
		if reverse {
			a, b = b, a
		}
		lt, err := compareOp(LT, a, b, 0)
		if err != nil {
			cmpErr = err
		}
		return lt
	})
	if cmpErr != nil {
		return cmpErr
	}
	sorted := make([]Value, len(elems))
	for i, k := range idx {
		sorted[i] = elems[k]
	}
	copy(elems, sorted)
	return nil
}

func builtinFormat(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var x Value
	spec := ""
	if err := UnpackArgs("format", args, kwargs, "value", &x, "format_spec?", &spec); err != nil {
		return nil, err
	}
	s, err := FormatValue(x, spec)
	if err != nil {
		return nil, err
	}
	return String(s), nil
}

// builtinError implements error(kind, message): it raises an error of that
// kind (RuntimeError when kind is empty) with that message.
func builtinError(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var kind, msg string
	if err := UnpackArgs("error", args, kwargs, "kind", &kind, "message", &msg); err != nil {
		return nil, err
	}
	if kind == "" {
		kind = "RuntimeError"
	}
	return nil, &KindError{Kind: kind, Msg: msg}
}

func builtinClock(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) > 0 || len(kwargs) > 0 {
		return nil, Errorf("TypeError", "clock() takes no arguments")
	}
	return Float(time.Since(clockStart).Seconds()), nil
}

func builtinList(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return NewList([]Value{}), nil
	}
	x, err := oneArg("list", args, kwargs)
	if err != nil {
		return nil, err
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", x.Type())
	}
	return NewList(append([]Value{}, elems...)), nil
}

func builtinTuple(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return Tuple{}, nil
	}
	x, err := oneArg("tuple", args, kwargs)
	if err != nil {
		return nil, err
	}
	if t, ok := x.(Tuple); ok {
		return t, nil
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, Errorf("TypeError", "'%s' object is not iterable", x.Type())
	}
	return Tuple(append([]Value{}, elems...)), nil
}

func builtinDict(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) > 1 {
		return nil, Errorf("TypeError", "dict expected at most 1 argument, got %d", len(args))
	}
	d := NewDict(len(kwargs))
	if len(args) == 1 {
		if err := dictUpdate(d, args[0]); err != nil {
			return nil, err
		}
	}
	for _, kw := range kwargs {
		if err := d.SetKey(String(kw.Name), kw.Value); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// dictUpdate adds the entries of a dict or an iterable of pairs to d.
func dictUpdate(d *Dict, src Value) error {
	if s, ok := src.(*Dict); ok {
		for _, e := range s.live() {
			if err := d.SetKey(e.key, e.value); err != nil {
				return err
			}
		}
		return nil
	}
	elems, err := Elements(src)
	if err != nil {
		return Errorf("TypeError", "'%s' object is not iterable", src.Type())
	}
	for i, e := range elems {
		kv, err := Elements(e)
		if err != nil || len(kv) != 2 {
			return Errorf("ValueError", "dictionary update sequence element #%d has the wrong length (need a key, value pair)", i)
		}
		if err := d.SetKey(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func builtinAny(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("any", args, kwargs)
	if err != nil {
		return nil, err
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		t, err := truth(e)
		if err != nil {
			return nil, err
		}
		if t {
			return Bool(true), nil
		}
	}
	return Bool(false), nil
}

func builtinAll(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	x, err := oneArg("all", args, kwargs)
	if err != nil {
		return nil, err
	}
	elems, err := Elements(x)
	if err != nil {
		return nil, err
	}
	for _, e := range elems {
		t, err := truth(e)
		if err != nil {
			return nil, err
		}
		if !t {
			return Bool(false), nil
		}
	}
	return Bool(true), nil
}
