package runtime

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// More of Python's str methods (index/rfind/rindex, the is* predicates,
// title/capitalize/swapcase, zfill/ljust/rjust/center, splitlines,
// partition/rpartition, removeprefix/removesuffix) and the tuple methods
// index and count.

var tupleMethods = map[string]*Builtin{}

func init() {
	for name, fn := range map[string]methodFunc{
		"index": strIndex, "rfind": strRfind, "rindex": strRindex,
		"isdigit": strIsPred(unicode.IsDigit), "isdecimal": strIsPred(unicode.IsDigit), "isnumeric": strIsPred(unicode.IsNumber),
		"isalpha": strIsPred(unicode.IsLetter), "isalnum": strIsPred(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }),
		"isspace": strIsPred(unicode.IsSpace), "isupper": strIsCase(true), "islower": strIsCase(false),
		"title": strTitle, "capitalize": strCapitalize, "swapcase": strSwapcase,
		"zfill": strZfill, "ljust": strJustify('l'), "rjust": strJustify('r'), "center": strJustify('c'),
		"splitlines": strSplitlines, "partition": strPartition(false), "rpartition": strPartition(true),
		"removeprefix": strRemoveAffix(true), "removesuffix": strRemoveAffix(false),
	} {
		strMethods[name] = NewBuiltin(name, fn)
	}
	for name, fn := range map[string]methodFunc{"index": tupleIndex, "count": tupleCount} {
		tupleMethods[name] = NewBuiltin(name, fn)
	}
}

func runeIndex(s string, byteIdx int) int64 {
	if byteIdx <= 0 {
		return int64(byteIdx)
	}
	return int64(utf8.RuneCountInString(s[:byteIdx]))
}

// strOneArg reads the one str argument of partition and removeprefix.
func strOneArg(b *Builtin, args []Value, kwargs []Kwarg) (string, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return "", err
	}
	return strArg(b, args[0])
}

// strSubArg reads the arguments (sub[, start[, end]]) of find, index,
// count and their right-hand forms: start and end (ints or none) select
// the receiver's window s[start:end] in code points, clamped as Python's
// slice bounds. It returns sub, the window, the window's offset in code
// points, and false when end < start (nothing can match, not even "").
func strSubArg(b *Builtin, args []Value, kwargs []Kwarg) (sub, win string, off int64, ok bool, err error) {
	if err = nargs(b, args, kwargs, 1, 3); err != nil {
		return
	}
	if sub, err = strArg(b, args[0]); err != nil {
		return
	}
	win, off, ok, err = strWindow(b, recvStr(b), args[1:])
	return
}

// strWindow returns s[start:end] for Python's optional start and end
// arguments (code points; none or absent means the end of the string),
// the window's offset, and false when end < start after clamping.
func strWindow(b *Builtin, s string, bounds []Value) (string, int64, bool, error) {
	if len(bounds) == 0 {
		return s, 0, true, nil
	}
	n := int64(utf8.RuneCountInString(s))
	start, end := int64(0), n
	for i, v := range bounds {
		if v == None {
			continue
		}
		k, ok := v.(Int)
		if !ok {
			if bv, isBool := v.(Bool); isBool {
				k, ok = Int(b2i(bool(bv))), true
			}
		}
		if !ok {
			return "", 0, false, Errorf("TypeError", "slice indices must be integers or None or have an __index__ method")
		}
		x := int64(k)
		if x < 0 {
			x = max(x+n, 0)
		}
		if i == 1 {
			x = min(x, n) // a start past the end stays there: "ab".find("", 3) == -1
		}
		if i == 0 {
			start = x
		} else {
			end = x
		}
	}
	if end < start {
		return "", start, false, nil
	}
	if int64(len(s)) == n { // ASCII
		return s[start:end], start, true, nil
	}
	bi := func(r int64) int {
		j := 0
		for ; r > 0; r-- {
			_, w := utf8.DecodeRuneInString(s[j:])
			j += w
		}
		return j
	}
	return s[bi(start):bi(end)], start, true, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func strIndex(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sub, win, off, ok, err := strSubArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	i := -1
	if ok {
		i = strings.Index(win, sub)
	}
	if i < 0 {
		return nil, Errorf("ValueError", "substring not found")
	}
	return MakeInt(off + runeIndex(win, i)), nil
}

func strRfind(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sub, win, off, ok, err := strSubArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	i := -1
	if ok {
		i = strings.LastIndex(win, sub)
	}
	if i < 0 {
		return MakeInt(-1), nil
	}
	return MakeInt(off + runeIndex(win, i)), nil
}

func strRindex(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	sub, win, off, ok, err := strSubArg(b, args, kwargs)
	if err != nil {
		return nil, err
	}
	i := -1
	if ok {
		i = strings.LastIndex(win, sub)
	}
	if i < 0 {
		return nil, Errorf("ValueError", "substring not found")
	}
	return MakeInt(off + runeIndex(win, i)), nil
}

// strIsPred is Python's str.isdigit/isalpha/...: true when the string is
// not empty and every character satisfies pred.
func strIsPred(pred func(rune) bool) methodFunc {
	return func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		if err := nargs(b, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		s := recvStr(b)
		if s == "" {
			return Bool(false), nil
		}
		for _, r := range s {
			if !pred(r) {
				return Bool(false), nil
			}
		}
		return Bool(true), nil
	}
}

// strIsCase is str.isupper (upper) or str.islower: at least one cased
// character, and no cased character of the other case.
func strIsCase(upper bool) methodFunc {
	return func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		if err := nargs(b, args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		cased := false
		for _, r := range recvStr(b) {
			if unicode.IsUpper(r) || unicode.IsTitle(r) {
				if !upper {
					return Bool(false), nil
				}
				cased = true
			} else if unicode.IsLower(r) {
				if upper {
					return Bool(false), nil
				}
				cased = true
			}
		}
		return Bool(cased), nil
	}
}

func strTitle(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	var out strings.Builder
	prevCased := false
	for _, r := range recvStr(b) {
		if prevCased {
			out.WriteRune(unicode.ToLower(r))
		} else {
			out.WriteRune(unicode.ToTitle(r))
		}
		prevCased = unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
	}
	return String(out.String()), nil
}

func strCapitalize(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	s := recvStr(b)
	if s == "" {
		return String(""), nil
	}
	r, n := utf8.DecodeRuneInString(s)
	return String(string(unicode.ToUpper(r)) + strings.ToLower(s[n:])), nil
}

func strSwapcase(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	return String(strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		if unicode.IsLower(r) {
			return unicode.ToUpper(r)
		}
		return r
	}, recvStr(b))), nil
}

func strZfill(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	w, ok := AsInt(args[0])
	if !ok {
		return nil, Errorf("TypeError", "zfill(): argument must be an int, not %s", args[0].Type())
	}
	s := recvStr(b)
	pad := int(w) - utf8.RuneCountInString(s)
	if pad <= 0 {
		return String(s), nil
	}
	sign := ""
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	return String(sign + strings.Repeat("0", pad) + s), nil
}

// strJustify is ljust ('l'), rjust ('r') or center ('c') with Python's
// placement of the odd padding character in center.
func strJustify(how byte) methodFunc {
	return func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		if err := nargs(b, args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		w, ok := AsInt(args[0])
		if !ok {
			return nil, Errorf("TypeError", "%s(): width must be an int, not %s", b.Name(), args[0].Type())
		}
		fill := " "
		if len(args) == 2 {
			f, err := strArg(b, args[1])
			if err != nil {
				return nil, err
			}
			if utf8.RuneCountInString(f) != 1 {
				return nil, Errorf("TypeError", "The fill character must be exactly one character long")
			}
			fill = f
		}
		s := recvStr(b)
		width := int(w)
		marg := width - utf8.RuneCountInString(s)
		if marg <= 0 {
			return String(s), nil
		}
		left := 0
		switch how {
		case 'r':
			left = marg
		case 'c':
			left = marg/2 + (marg & width & 1)
		}
		return String(strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left)), nil
	}
}

func strSplitlines(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	keep := false
	if err := UnpackArgs("splitlines", args, kwargs, "keepends?", &keep); err != nil {
		return nil, err
	}
	s := recvStr(b)
	var out []Value
	for len(s) > 0 {
		i := strings.IndexAny(s, "\n\r\v\f\x1c\x1d\x1e")
		if i < 0 {
			out = append(out, String(s))
			break
		}
		end := i + 1
		if s[i] == '\r' && end < len(s) && s[end] == '\n' {
			end++
		}
		if keep {
			out = append(out, String(s[:end]))
		} else {
			out = append(out, String(s[:i]))
		}
		s = s[end:]
	}
	if out == nil {
		out = []Value{}
	}
	return NewList(out), nil
}

func strPartition(right bool) methodFunc {
	return func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		sep, err := strOneArg(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if sep == "" {
			return nil, Errorf("ValueError", "empty separator")
		}
		s := recvStr(b)
		var i int
		if right {
			i = strings.LastIndex(s, sep)
		} else {
			i = strings.Index(s, sep)
		}
		if i < 0 {
			if right {
				return Tuple{String(""), String(""), String(s)}, nil
			}
			return Tuple{String(s), String(""), String("")}, nil
		}
		return Tuple{String(s[:i]), String(sep), String(s[i+len(sep):])}, nil
	}
}

func strRemoveAffix(prefix bool) methodFunc {
	return func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
		a, err := strOneArg(b, args, kwargs)
		if err != nil {
			return nil, err
		}
		if prefix {
			return String(strings.TrimPrefix(recvStr(b), a)), nil
		}
		return String(strings.TrimSuffix(recvStr(b), a)), nil
	}
}

func tupleIndex(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	i, err := seqIndexOf(b, b.Receiver().(Tuple), args, kwargs)
	if err == nil && i < 0 {
		err = Errorf("ValueError", "tuple.index(x): x not in tuple")
	}
	return MakeInt(int64(i)), err
}

func tupleCount(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error) {
	if err := nargs(b, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return countEqual(b.Receiver().(Tuple), args[0])
}
