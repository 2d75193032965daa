package runtime

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// percentFormat is Python's printf-style string formatting, format % args
// (CPython 3.11's PyUnicode_Format): conversions
// %[(name)][flags][width][.precision]type with the flags "-+ #0", width
// and precision numbers or "*" (taken from args), and the types d i u o x
// X e E f F g G c s r a and %%. args is a tuple of the values, a dict for
// %(name) conversions, or any other value as the only one. Errors are
// CPython's: TypeError "not enough arguments for format string", "not all
// arguments converted during string formatting", "format requires a
// mapping", "%d format: a real number is required, not str"; ValueError
// "incomplete format", "unsupported format character 'z' (0x7a) at index
// 1"; KeyError for a missing name.
func percentFormat(format string, args Value) (Value, error) {
	var items []Value
	var mapping *Dict
	listArg := false
	switch a := args.(type) {
	case Tuple:
		items = a
	case *NamedTuple:
		items = a.Tuple
	default:
		items = []Value{args}
		switch a := args.(type) {
		case *Dict:
			mapping = a
		case *List:
			// a list is a mapping to CPython's check: it need not be consumed
			listArg = true
		}
	}
	// a non-tuple argument is consumed by the first conversion; a dict
	// argument need not be consumed at all
	next := 0
	usedMapping := false
	nextArg := func() (Value, error) {
		if next >= len(items) {
			return nil, Errorf("TypeError", "not enough arguments for format string")
		}
		next++
		return items[next-1], nil
	}
	var b strings.Builder
	i := 0
	for i < len(format) {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			b.WriteString(format[i:])
			break
		}
		b.WriteString(format[i : i+j])
		i += j + 1
		if i >= len(format) {
			return nil, Errorf("ValueError", "incomplete format")
		}
		var arg Value
		if format[i] == '(' {
			if mapping == nil {
				return nil, Errorf("TypeError", "format requires a mapping")
			}
			depth, k := 1, i+1
			for ; k < len(format) && depth > 0; k++ {
				switch format[k] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth > 0 {
				return nil, Errorf("ValueError", "incomplete format key")
			}
			key := String(format[i+1 : k-1])
			v, ok, err := mapping.Get(key)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, Errorf("KeyError", "%s", QuoteString(string(key)))
			}
			arg, usedMapping, i = v, true, k
		}
		var flags struct{ left, plus, space, alt, zero bool }
	flagLoop:
		for i < len(format) {
			switch format[i] {
			case '-':
				flags.left = true
			case '+':
				flags.plus = true
			case ' ':
				flags.space = true
			case '#':
				flags.alt = true
			case '0':
				flags.zero = true
			default:
				break flagLoop
			}
			i++
		}
		// width and precision: digits, or * for the next argument
		number := func() (int, bool, error) {
			if i < len(format) && format[i] == '*' {
				i++
				v, err := nextArg()
				if err != nil {
					return 0, false, err
				}
				n, ok := v.(Int)
				if !ok {
					return 0, false, Errorf("TypeError", "* wants int")
				}
				return int(n), true, nil
			}
			k := i
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
			if k == i {
				return 0, false, nil
			}
			n, err := strconv.Atoi(format[k:i])
			if err != nil || n > MaxAlloc {
				return 0, false, Errorf("ValueError", "width too big")
			}
			return n, true, nil
		}
		width, _, err := number()
		if err != nil {
			return nil, err
		}
		if width < 0 { // a negative * width left-aligns
			flags.left, width = true, -width
		}
		prec, hasPrec := 0, false
		if i < len(format) && format[i] == '.' {
			i++
			if prec, _, err = number(); err != nil {
				return nil, err
			}
			hasPrec = true
			if prec < 0 {
				prec = 0
			}
		}
		// length modifiers are accepted and ignored, as in CPython
		for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
			i++
		}
		if i >= len(format) {
			return nil, Errorf("ValueError", "incomplete format")
		}
		c, size := utf8.DecodeRuneInString(format[i:])
		i += size
		if c == '%' {
			b.WriteByte('%')
			continue
		}
		if arg == nil {
			if arg, err = nextArg(); err != nil {
				return nil, err
			}
		}
		var s string
		numeric := false
		switch c {
		case 's', 'r', 'a':
			switch c {
			case 's':
				s, err = StrE(arg)
			case 'r':
				s, err = ReprE(arg)
			default:
				if s, err = ReprE(arg); err == nil {
					s = asciiEscape(s)
				}
			}
			if err != nil {
				return nil, err
			}
			if hasPrec && utf8.RuneCountInString(s) > prec {
				s = string([]rune(s)[:prec])
			}
		case 'c':
			switch v := arg.(type) {
			case Int:
				if v < 0 || v > 0x10ffff {
					return nil, Errorf("OverflowError", "%%c arg not in range(0x110000)")
				}
				s = string(rune(v))
			case String:
				if utf8.RuneCountInString(string(v)) != 1 {
					return nil, Errorf("TypeError", "%%c requires int or char")
				}
				s = string(v)
			default:
				return nil, Errorf("TypeError", "%%c requires int or char")
			}
		case 'd', 'i', 'u', 'o', 'x', 'X':
			numeric = true
			n, err := percentInt(c, arg)
			if err != nil {
				return nil, err
			}
			neg := n < 0
			u := uint64(n)
			if neg {
				u = -u
			}
			base, prefix := 10, ""
			switch c {
			case 'o':
				base, prefix = 8, "0o"
			case 'x':
				base, prefix = 16, "0x"
			case 'X':
				base, prefix = 16, "0X"
			}
			digits := strconv.FormatUint(u, base)
			if c == 'X' {
				digits = strings.ToUpper(digits)
			}
			if hasPrec && len(digits) < prec {
				digits = strings.Repeat("0", prec-len(digits)) + digits
			}
			if !flags.alt {
				prefix = ""
			}
			s = signOf(neg, flags.plus, flags.space) + prefix + digits
		case 'e', 'E', 'f', 'F', 'g', 'G':
			numeric = true
			if !hasPrec {
				prec = 6
			}
			spec := ""
			if flags.plus {
				spec = "+"
			} else if flags.space {
				spec = " "
			}
			if flags.alt {
				spec += "#"
			}
			spec += "." + strconv.Itoa(prec) + string(c)
			if s, err = percentFloat(c, arg, spec); err != nil {
				return nil, err
			}
		default:
			return nil, Errorf("ValueError", "unsupported format character '%c' (0x%x) at index %d", c, c, i-size)
		}
		pad := width - utf8.RuneCountInString(s)
		switch {
		case pad <= 0:
			b.WriteString(s)
		case flags.left:
			b.WriteString(s)
			b.WriteString(strings.Repeat(" ", pad))
		case flags.zero && numeric: // zero padding goes after the sign and prefix (CPython pads inf and nan with zeros too)
			k := 0
			if k < len(s) && (s[k] == '-' || s[k] == '+' || s[k] == ' ') {
				k++
			}
			if len(s) >= k+2 && s[k] == '0' && (s[k+1] == 'x' || s[k+1] == 'X' || s[k+1] == 'o') {
				k += 2
			}
			b.WriteString(s[:k])
			b.WriteString(strings.Repeat("0", pad))
			b.WriteString(s[k:])
		default:
			b.WriteString(strings.Repeat(" ", pad))
			b.WriteString(s)
		}
		if b.Len() > MaxAlloc {
			return nil, Errorf("MemoryError", "string too large")
		}
	}
	if next < len(items) && !usedMapping && mapping == nil && !listArg {
		return nil, Errorf("TypeError", "not all arguments converted during string formatting")
	}
	return String(b.String()), nil
}

// signOf is the sign of a formatted number: "-", or "+" / " " for a
// non-negative one under the + / space flag.
func signOf(neg, plus, space bool) string {
	switch {
	case neg:
		return "-"
	case plus:
		return "+"
	case space:
		return " "
	}
	return ""
}

// percentInt is the integer value of a %d, %x or %o operand: an int or
// bool, a float (truncated, for %d, %i and %u only) or a 0-d tensor.
func percentInt(c rune, arg Value) (int64, error) {
	if n, ok := AsInt(arg); ok {
		return n, nil
	}
	f, isFloat := arg.(Float)
	if fm, ok := arg.(Formattable); ok && !isFloat {
		// a 0-d tensor: its item, as int(t)
		s, err := fm.Format("")
		if err != nil {
			return 0, err
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, Errorf("TypeError", "%%%c format: a real number is required, not %s", c, arg.Type())
		}
		f, isFloat = Float(v), true
	}
	if !isFloat {
		if c == 'd' || c == 'i' || c == 'u' {
			return 0, Errorf("TypeError", "%%%c format: a real number is required, not %s", c, pyTypeName(arg))
		}
		return 0, Errorf("TypeError", "%%%c format: an integer is required, not %s", c, pyTypeName(arg))
	}
	if c != 'd' && c != 'i' && c != 'u' {
		return 0, Errorf("TypeError", "%%%c format: an integer is required, not float", c)
	}
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return 0, Errorf("ValueError", "cannot convert float NaN to integer")
	case math.IsInf(v, 0):
		return 0, Errorf("OverflowError", "cannot convert float infinity to integer")
	case math.Abs(v) >= 1<<63:
		return 0, errIntOverflow()
	}
	return int64(v), nil
}

// percentFloat formats a %e, %f or %g operand (an int, float, bool or 0-d
// tensor) with the equivalent format spec.
func percentFloat(c rune, arg Value, spec string) (string, error) {
	if f, ok := AsFloat(arg); ok {
		return FormatValue(Float(f), spec)
	}
	if fm, ok := arg.(Formattable); ok {
		return fm.Format(spec)
	}
	return "", Errorf("TypeError", "must be real number, not %s", pyTypeName(arg))
}
