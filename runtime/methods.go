package runtime

import (
	"strconv"
	"strings"
)

type methodFunc = func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error)

// Methods of the built-in types, bound to their receiver on attribute access.
var (
	listMethods = map[string]*Builtin{}
	dictMethods = map[string]*Builtin{}
	strMethods  = map[string]*Builtin{}
)

func init() {
	for name, fn := range map[string]methodFunc{
		"append": listAppend, "extend": listExtend, "pop": listPop, "insert": listInsert,
		"index": listIndex, "reverse": listReverse, "copy": listCopy, "count": listCount,
		"clear": listClear, "remove": listRemove, "sort": listSort,
	} {
		listMethods[name] = NewBuiltin(name, fn)
	}
	for name, fn := range map[string]methodFunc{
		"keys": dictKeys, "values": dictValues, "items": dictItems, "get": dictGet,
		"pop": dictPop, "update": dictUpdateMethod, "copy": dictCopy, "clear": dictClear,
		"setdefault": dictSetdefault,
	} {
		dictMethods[name] = NewBuiltin(name, fn)
	}
	for name, fn := range map[string]methodFunc{
		"join": strJoin, "split": strSplit, "rsplit": strRsplit, "strip": strStrip, "lstrip": strLstrip, "rstrip": strRstrip,
		"upper": strUpper, "lower": strLower, "startswith": strStartswith, "endswith": strEndswith,
		"replace": strReplace, "format": strFormat, "find": strFind, "count": strCount,
	} {
		strMethods[name] = NewBuiltin(name, fn)
	}
}

// builtinMethod returns x.name bound to x for lists, dicts and strings, or nil.
func builtinMethod(x Value, name string) Value {
	m := unboundMethod(x, name)
	if m == nil {
		return nil
	}
	return m.BindReceiver(x)
}

// unboundMethod returns the method name of a list, dict, str or tuple x,
// not yet bound to x, or nil. The methods never keep their *Builtin
// argument past the call (METHOD reuses bound methods).
func unboundMethod(x Value, name string) *Builtin {
	var m *Builtin
	switch x.(type) {
	case *List:
		m = listMethods[name]
	case *Dict:
		m = dictMethods[name]
	case String:
		m = strMethods[name]
	case Tuple:
		m = tupleMethods[name]
	}
	return m
}

// BuiltinMethodNames lists the method names of a built-in type ("list",
// "dict", "str"), for completion.
func BuiltinMethodNames(typ string) []string {
	switch typ {
	case "list":
		return sortedKeys(listMethods)
	case "dict":
		return sortedKeys(dictMethods)
	case "str":
		return sortedKeys(strMethods)
	case "tuple":
		return sortedKeys(tupleMethods)
	}
	return nil
}

func nargs(b *Builtin, args []Value, kwargs []Kwarg, min, max int) error {
	if len(kwargs) > 0 {
		return Errorf("TypeError", "%s() takes no keyword arguments", b.Name())
	}
	if len(args) < min || len(args) > max {
		if min == max {
			return Errorf("TypeError", "%s() takes exactly %s (%d given)", b.Name(), plural(min, "argument"), len(args))
		}
		return Errorf("TypeError", "%s() takes %d to %d arguments (%d given)", b.Name(), min, max, len(args))
	}
	return nil
}

// ---- list ----

func listAppend(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	l.Elems = appendDoubling(l.Elems, args[0])
	return None, nil
}

func listExtend(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	elems, err := Elements(args[0])
	if err != nil {
		return nil, err
	}
	l.Elems = append(l.Elems, elems...)
	return None, nil
}

func listPop(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	if len(l.Elems) == 0 {
		return nil, Errorf("IndexError", "pop from empty list")
	}
	i := len(l.Elems) - 1
	if len(args) == 1 {
		var err error
		if i, err = seqIndex(args[0], len(l.Elems), "pop"); err != nil {
			return nil, err
		}
	}
	v := l.Elems[i]
	l.Elems = append(l.Elems[:i], l.Elems[i+1:]...)
	return v, nil
}

func listInsert(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	k, ok := AsInt(args[0])
	if !ok {
		return nil, Errorf("TypeError", "insert(): index must be an int, not %s", args[0].Type())
	}
	n := int64(len(l.Elems))
	if k < 0 {
		k += n
		if k < 0 {
			k = 0
		}
	}
	if k > n {
		k = n
	}
	l.Elems = append(l.Elems, nil)
	copy(l.Elems[k+1:], l.Elems[k:])
	l.Elems[k] = args[1]
	return None, nil
}

func listIndex(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	i, err := seqIndexOf(b, b.Receiver().(*List).Elems, args, kwargs)
	if err == nil && i < 0 {
		err = Errorf("ValueError", "%s is not in list", Repr(args[0]))
	}
	return MakeInt(int64(i)), err
}

// seqIndexOf is list.index / tuple.index (x[, start[, stop]]): the first
// position in elems[start:stop] (Python's slice clamping) whose element
// == x, or -1.
func seqIndexOf(b *Builtin, elems []Value, args []Value, kwargs []Kwarg) (int, error) {
	if err := nargs(b, args, kwargs, 1, 3); err != nil {
		return -1, err
	}
	n := len(elems)
	lo, hi := 0, n
	for k, v := range args[1:] {
		x, ok := AsInt(v)
		if !ok {
			return -1, Errorf("TypeError", "slice indices must be integers or have an __index__ method")
		}
		if x < 0 {
			x = max(x+int64(n), 0)
		}
		x = min(x, int64(n))
		if k == 0 {
			lo = int(x)
		} else {
			hi = int(x)
		}
	}
	for i := lo; i < hi && i < len(elems); i++ {
		eq, err := Equal(elems[i], args[0])
		if err != nil {
			return -1, err
		}
		if eq {
			return i, nil
		}
	}
	return -1, nil
}

func listCount(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return countEqual(b.Receiver().(*List).Elems, args[0])
}

// countEqual is list.count / tuple.count: how many elems == x.
func countEqual(elems []Value, x Value) (Value, error) {
	n := 0
	for _, e := range elems {
		eq, err := Equal(e, x)
		if err != nil {
			return nil, err
		}
		if eq {
			n++
		}
	}
	return MakeInt(int64(n)), nil
}

func listRemove(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	for i, e := range l.Elems {
		eq, err := Equal(e, args[0])
		if err != nil {
			return nil, err
		}
		if eq {
			l.Elems = append(l.Elems[:i], l.Elems[i+1:]...)
			return None, nil
		}
	}
	return nil, Errorf("ValueError", "list.remove(x): x not in list")
}

func listReverse(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	e := b.Receiver().(*List).Elems
	for i, j := 0, len(e)-1; i < j; i, j = i+1, j-1 {
		e[i], e[j] = e[j], e[i]
	}
	return None, nil
}

// listSort implements list.sort(key=none, reverse=false): an in-place,
// stable sort in Python's order (the same comparisons as sorted, min and
// max). As in Python, key and reverse are keyword-only; the key function is
// called once per element.
func listSort(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) > 0 {
		return nil, Errorf("TypeError", "sort() takes no positional arguments")
	}
	var key Value = None
	var reverse bool
	if err := UnpackArgs("sort", nil, kwargs, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	l := b.Receiver().(*List)
	elems := append([]Value(nil), l.Elems...)
	keys := elems
	if key != None {
		keys = make([]Value, len(elems))
		for i, e := range elems {
			k, err := th.Call(key, []Value{e}, nil)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	if err := sortValues(elems, keys, reverse); err != nil {
		return nil, err
	}
	l.Elems = elems
	return None, nil
}

func listCopy(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return NewList(append([]Value{}, b.Receiver().(*List).Elems...)), nil
}

func listClear(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	b.Receiver().(*List).Elems = nil
	return None, nil
}

// ---- dict ----

func dictKeys(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return NewList(b.Receiver().(*Dict).Keys()), nil
}

func dictValues(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	d := b.Receiver().(*Dict)
	es := d.live()
	out := make([]Value, len(es))
	for i, e := range es {
		out[i] = e.value
	}
	return NewList(out), nil
}

func dictItems(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	d := b.Receiver().(*Dict)
	es := d.live()
	out := make([]Value, len(es))
	for i, e := range es {
		out[i] = Tuple{e.key, e.value}
	}
	return NewList(out), nil
}

func dictGet(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	v, ok, err := b.Receiver().(*Dict).Get(args[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		if len(args) == 2 {
			return args[1], nil
		}
		return None, nil
	}
	return v, nil
}

func dictPop(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	v, ok, err := b.Receiver().(*Dict).Delete(args[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		if len(args) == 2 {
			return args[1], nil
		}
		return nil, Errorf("KeyError", "%s", Repr(args[0]))
	}
	return v, nil
}

func dictUpdateMethod(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if len(args) > 1 {
		return nil, Errorf("TypeError", "update expected at most 1 argument, got %d", len(args))
	}
	d := b.Receiver().(*Dict)
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
	return None, nil
}

func dictCopy(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	d := b.Receiver().(*Dict)
	c := NewDict(d.Len())
	_ = dictUpdate(c, d)
	return c, nil
}

func dictClear(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	d := b.Receiver().(*Dict)
	d.clear()
	return None, nil
}

func dictSetdefault(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	d := b.Receiver().(*Dict)
	v, ok, err := d.Get(args[0])
	if err != nil {
		return nil, err
	}
	if ok {
		return v, nil
	}
	def := None
	if len(args) == 2 {
		def = args[1]
	}
	return def, d.SetKey(args[0], def)
}

// ---- str ----

func recvStr(b *Builtin) string { return string(b.Receiver().(String)) }

func strArg(b *Builtin, v Value) (string, error) {
	s, ok := v.(String)
	if !ok {
		return "", Errorf("TypeError", "%s(): argument must be str, not %s", b.Name(), v.Type())
	}
	return string(s), nil
}

func strJoin(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	elems, err := Elements(args[0])
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		s, ok := e.(String)
		if !ok {
			return nil, Errorf("TypeError", "join(): sequence item %d: expected str, %s found", i, e.Type())
		}
		parts[i] = string(s)
	}
	return String(strings.Join(parts, recvStr(b))), nil
}

func strSplit(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var sep Value = None
	maxsplit := -1
	if err := UnpackArgs("split", args, kwargs, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
		return nil, err
	}
	s := recvStr(b)
	var parts []string
	if sep == None {
		parts = strings.Fields(s)
		if maxsplit >= 0 && len(parts) > maxsplit+1 {
			// re-split keeping the remainder intact
			rest := strings.TrimLeft(s, " \t\n\r\v\f")
			parts = parts[:0]
			for i := 0; i < maxsplit; i++ {
				j := strings.IndexAny(rest, " \t\n\r\v\f")
				parts = append(parts, rest[:j])
				rest = strings.TrimLeft(rest[j:], " \t\n\r\v\f")
			}
			parts = append(parts, rest)
		}
	} else {
		sp, err := strArg(b, sep)
		if err != nil {
			return nil, err
		}
		if sp == "" {
			return nil, Errorf("ValueError", "empty separator")
		}
		parts = strings.SplitN(s, sp, maxsplit+1)
		if maxsplit < 0 {
			parts = strings.Split(s, sp)
		}
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = String(p)
	}
	return NewList(out), nil
}

// strRsplit is Python's str.rsplit(sep=None, maxsplit=-1): split from the
// right, so at most maxsplit cuts are made at the rightmost separators.
func strRsplit(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	var sep Value = None
	maxsplit := -1
	if err := UnpackArgs("rsplit", args, kwargs, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
		return nil, err
	}
	if maxsplit < 0 {
		return strSplit(th, b, args, kwargs)
	}
	s := recvStr(b)
	var parts []string // rightmost first
	if sep == None {
		const ws = " \t\n\r\v\f"
		rest := strings.TrimRight(s, ws)
		for i := 0; i < maxsplit && rest != ""; i++ {
			j := strings.LastIndexAny(rest, ws)
			if j < 0 {
				break
			}
			parts = append(parts, rest[j+1:])
			rest = strings.TrimRight(rest[:j], ws)
		}
		if rest != "" {
			parts = append(parts, rest)
		}
	} else {
		sp, err := strArg(b, sep)
		if err != nil {
			return nil, err
		}
		if sp == "" {
			return nil, Errorf("ValueError", "empty separator")
		}
		rest := s
		for i := 0; i < maxsplit; i++ {
			j := strings.LastIndex(rest, sp)
			if j < 0 {
				break
			}
			parts = append(parts, rest[j+len(sp):])
			rest = rest[:j]
		}
		parts = append(parts, rest)
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[len(parts)-1-i] = String(p)
	}
	return NewList(out), nil
}

func stripFunc(b *Builtin, args []Value, kwargs []Kwarg, f func(string, string) string) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	cut := " \t\n\r\v\f"
	if len(args) == 1 && args[0] != None {
		s, err := strArg(b, args[0])
		if err != nil {
			return nil, err
		}
		cut = s
	}
	return String(f(recvStr(b), cut)), nil
}

func strStrip(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return stripFunc(b, args, kwargs, strings.Trim)
}
func strLstrip(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return stripFunc(b, args, kwargs, strings.TrimLeft)
}
func strRstrip(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return stripFunc(b, args, kwargs, strings.TrimRight)
}

func strUpper(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return String(strings.ToUpper(recvStr(b))), nil
}

func strLower(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return String(strings.ToLower(recvStr(b))), nil
}

func affix(b *Builtin, args []Value, kwargs []Kwarg, f func(string, string) bool) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	s, _, inRange, err := strWindow(b, recvStr(b), args[1:])
	if err != nil {
		return nil, err
	}
	if t, ok := args[0].(Tuple); ok {
		for _, e := range t {
			p, err := strArg(b, e)
			if err != nil {
				return nil, err
			}
			if inRange && f(s, p) {
				return Bool(true), nil
			}
		}
		return Bool(false), nil
	}
	p, err := strArg(b, args[0])
	if err != nil {
		return nil, err
	}
	return Bool(inRange && f(s, p)), nil
}

func strStartswith(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return affix(b, args, kwargs, strings.HasPrefix)
}
func strEndswith(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	return affix(b, args, kwargs, strings.HasSuffix)
}

func strReplace(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 2, 3); err != nil {
		return nil, err
	}
	old, err := strArg(b, args[0])
	if err != nil {
		return nil, err
	}
	nw, err := strArg(b, args[1])
	if err != nil {
		return nil, err
	}
	n := -1
	if len(args) == 3 {
		k, ok := AsInt(args[2])
		if !ok {
			return nil, Errorf("TypeError", "replace(): count must be an int")
		}
		n = int(k)
	}
	s := recvStr(b)
	if n < 0 && len(nw) > len(old) && strings.Count(s, old)*(len(nw)-len(old)) > MaxAlloc {
		return nil, Errorf("MemoryError", "replace(): result too large")
	}
	return String(strings.Replace(s, old, nw, n)), nil
}

func strFind(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sub, win, off, ok, err := strSubArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	i := -1
	if ok {
		i = strings.Index(win, sub)
	}
	if i < 0 {
		return MakeInt(-1), nil
	}
	return MakeInt(off + runeIndex(win, i)), nil
}

func strCount(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sub, win, _, ok, err := strSubArg(b, args, kwargs)
	if err != nil || !ok {
		return MakeInt(0), err
	}
	return MakeInt(int64(strings.Count(win, sub))), nil
}

// strFormat implements Python's str.format: "{}" (automatic numbering),
// "{0}", "{name}", each followed by ".attr" and "[key]" lookups, a "!r",
// "!s" or "!a" conversion, and a ":spec" that may itself contain fields
// ("{:{w}.{p}f}"); "{{" and "}}" are literal braces.
func strFormat(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	auto := 0
	return formatFields(recvStr(b), args, kwargs, &auto, 0)
}

func formatFields(s string, args []Value, kwargs []Kwarg, auto *int, depth int) (Value, error) {
	if depth > 1 {
		return nil, Errorf("ValueError", "Max string recursion exceeded")
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '{' && i+1 < len(s) && s[i+1] == '{' || c == '}' && i+1 < len(s) && s[i+1] == '}' {
			out.WriteByte(c)
			i++
			continue
		}
		if c == '}' {
			return nil, Errorf("ValueError", "Single '}' encountered in format string")
		}
		if c != '{' {
			out.WriteByte(c)
			continue
		}
		// the field runs to the matching '}' (the spec may nest fields)
		j, nest := i+1, 1
		for ; j < len(s); j++ {
			if s[j] == '[' { // a key may hold braces and colons
				for j < len(s) && s[j] != ']' {
					j++
				}
				continue
			}
			if s[j] == '{' {
				nest++
			} else if s[j] == '}' {
				if nest--; nest == 0 {
					break
				}
			}
		}
		if j >= len(s) {
			if i+1 == len(s) {
				return nil, Errorf("ValueError", "Single '{' encountered in format string")
			}
			return nil, Errorf("ValueError", "expected '}' before end of string")
		}
		field := s[i+1 : j]
		i = j
		// split name[!conv][:spec]; the name ends at the first '!' or ':' outside [...]
		k := 0
		for k < len(field) && field[k] != '!' && field[k] != ':' {
			if field[k] == '[' {
				for k < len(field) && field[k] != ']' {
					k++
				}
			}
			if k < len(field) {
				k++
			}
		}
		name, rest := field[:k], field[k:]
		conv := byte(0)
		if strings.HasPrefix(rest, "!") {
			if len(rest) < 2 || (len(rest) > 2 && rest[2] != ':') {
				return nil, Errorf("ValueError", "expected ':' after conversion specifier")
			}
			conv, rest = rest[1], rest[2:]
		}
		spec := strings.TrimPrefix(rest, ":")
		v, err := formatLookup(name, args, kwargs, auto)
		if err != nil {
			return nil, err
		}
		switch conv {
		case 0:
		case 'r', 'a', 's':
			var t string
			if conv == 's' {
				t, err = StrE(v)
			} else if t, err = ReprE(v); err == nil && conv == 'a' {
				t = asciiEscape(t)
			}
			if err != nil {
				return nil, err
			}
			v = String(t)
		default:
			return nil, Errorf("ValueError", "Unknown conversion specifier %c", conv)
		}
		if strings.ContainsRune(spec, '{') {
			sv, err := formatFields(spec, args, kwargs, auto, depth+1)
			if err != nil {
				return nil, err
			}
			spec = string(sv.(String))
		}
		text, err := FormatValue(v, spec)
		if err != nil {
			return nil, err
		}
		out.WriteString(text)
	}
	return String(out.String()), nil
}

// formatLookup resolves a str.format field name: an argument (automatic,
// by position or by keyword), then its .attr and [key] parts ([0] is an
// int index, [k] the str key 'k', as Python's).
func formatLookup(name string, args []Value, kwargs []Kwarg, auto *int) (Value, error) {
	end := strings.IndexAny(name, ".[")
	if end < 0 {
		end = len(name)
	}
	first, rest := name[:end], name[end:]
	var v Value
	if first == "" || first[0] >= '0' && first[0] <= '9' {
		k := *auto
		if first == "" {
			if *auto < 0 {
				return nil, Errorf("ValueError", "cannot switch from manual field specification to automatic field numbering")
			}
			*auto++
		} else {
			n, err := strconv.Atoi(first)
			if err != nil {
				return nil, Errorf("ValueError", "invalid format field %q", first)
			}
			if *auto > 0 {
				return nil, Errorf("ValueError", "cannot switch from automatic field numbering to manual field specification")
			}
			k, *auto = n, -1
		}
		if k >= len(args) {
			return nil, Errorf("IndexError", "Replacement index %d out of range for positional args tuple", k)
		}
		v = args[k]
	} else {
		for _, kw := range kwargs {
			if kw.Name == first {
				v = kw.Value
			}
		}
		if v == nil {
			return nil, Errorf("KeyError", "%s", QuoteString(first))
		}
	}
	for rest != "" {
		var err error
		if rest[0] == '.' {
			e := strings.IndexAny(rest[1:], ".[") + 1
			if e == 0 {
				e = len(rest)
			}
			if v, err = GetAttr(v, rest[1:e]); err != nil {
				return nil, err
			}
			rest = rest[e:]
			continue
		}
		e := strings.IndexByte(rest, ']')
		if rest[0] != '[' || e < 0 {
			return nil, Errorf("ValueError", "Only '.' or '[' may follow ']' in format field specifier")
		}
		key := rest[1:e]
		var kv Value = String(key)
		if n, err := strconv.Atoi(key); err == nil && n >= 0 {
			kv = MakeInt(int64(n))
		}
		if v, err = Index(v, kv); err != nil {
			return nil, err
		}
		rest = rest[e+1:]
	}
	return v, nil
}
