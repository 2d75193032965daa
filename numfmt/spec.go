package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is the error FormatSpec returns. Its message is the one Python
// gives for the same call, e.g. "Unknown format code 'd' for object of type
// 'float'"; Kind is the Python exception class: "ValueError" for a bad
// spec, "OverflowError" for format(-1, 'c'), "TypeError" for a value of an
// unsupported Go type.
type Error struct {
	Kind string
	Msg  string
}

// Error returns the message alone, as Python's str(exc) does.
func (e *Error) Error() string { return e.Msg }

// ErrorKind returns the Python exception class name, e.g. "ValueError".
func (e *Error) ErrorKind() string { return e.Kind }

func valueError(format string, args ...any) error {
	return &Error{Kind: "ValueError", Msg: fmt.Sprintf(format, args...)}
}

// Thousands-separator modes (CPython's LocaleType).
const (
	sepNone      = 0
	sepComma     = ','
	sepUnderline = '_'
	sepUnder4    = 4 // '_' every four digits, for b/o/x/X
)

// spec is a parsed format spec (CPython's InternalFormatSpec).
type spec struct {
	fill      rune
	align     rune
	alt       bool
	noNeg0    bool
	sign      rune // 0, '+', '-' or ' '
	width     int  // -1 when absent
	sep       int  // sepNone, sepComma, sepUnderline, sepUnder4
	precision int  // -1 when absent
	typ       rune
}

func isAlign(c rune) bool { return c == '<' || c == '>' || c == '=' || c == '^' }

// parseSpec is a port of CPython's parse_internal_render_format_spec
// (Python/formatter_unicode.c, 3.11+ messages). typeName names the value in
// error messages.
func parseSpec(s []rune, typeName string, defType, defAlign rune) (spec, error) {
	f := spec{fill: ' ', align: defAlign, width: -1, precision: -1, typ: defType}
	pos, end := 0, len(s)
	fillSet, alignSet := false, false
	if end-pos >= 2 && isAlign(s[pos+1]) {
		f.align, f.fill = s[pos+1], s[pos]
		fillSet, alignSet = true, true
		pos += 2
	} else if end-pos >= 1 && isAlign(s[pos]) {
		f.align = s[pos]
		alignSet = true
		pos++
	}
	if pos < end && (s[pos] == ' ' || s[pos] == '+' || s[pos] == '-') {
		f.sign = s[pos]
		pos++
	}
	if pos < end && s[pos] == 'z' {
		f.noNeg0 = true
		pos++
	}
	if pos < end && s[pos] == '#' {
		f.alt = true
		pos++
	}
	if !fillSet && pos < end && s[pos] == '0' {
		f.fill = '0'
		if !alignSet && defAlign == '>' {
			f.align = '='
		}
		pos++
	}
	n, consumed, err := getInteger(s, &pos)
	if err != nil {
		return f, err
	}
	if consumed > 0 {
		f.width = n
	}
	if pos < end && s[pos] == ',' {
		f.sep = sepComma
		pos++
	}
	if pos < end && s[pos] == '_' {
		if f.sep != sepNone {
			return f, valueError("Cannot specify both ',' and '_'.")
		}
		f.sep = sepUnderline
		pos++
	}
	if pos < end && s[pos] == ',' && f.sep == sepUnderline {
		return f, valueError("Cannot specify both ',' and '_'.")
	}
	if pos < end && s[pos] == '.' {
		pos++
		n, consumed, err := getInteger(s, &pos)
		if err != nil {
			return f, err
		}
		if consumed == 0 {
			return f, valueError("Format specifier missing precision")
		}
		f.precision = n
	}
	if end-pos > 1 {
		return f, valueError("Invalid format specifier '%s' for object of type '%s'", string(s), typeName)
	}
	if end-pos == 1 {
		f.typ = s[pos]
	}
	if f.sep != sepNone {
		switch f.typ {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if f.sep == sepUnderline {
				f.sep = sepUnder4
				break
			}
			fallthrough
		default:
			return f, valueError("Cannot specify '%c' with %s.", rune(f.sep), quoteCode(f.typ))
		}
	}
	return f, nil
}

// quoteCode spells a presentation type as CPython's messages do: 'x' for a
// printable ASCII character, '\x1f' style otherwise.
func quoteCode(c rune) string {
	if c > 32 && c < 128 {
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("'\\x%x'", c)
}

func unknownType(c rune, typeName string) error {
	return valueError("Unknown format code %s for object of type '%s'", quoteCode(c), typeName)
}

// getInteger consumes decimal digits at *pos (CPython's get_integer).
func getInteger(s []rune, pos *int) (n, consumed int, err error) {
	for *pos < len(s) {
		c := s[*pos]
		if c < '0' || c > '9' {
			break
		}
		d := int(c - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, 0, valueError("Too many decimal digits in format string")
		}
		n = n*10 + d
		*pos++
		consumed++
	}
	return n, consumed, nil
}

// maxWidth bounds widths and precisions so that a spec like "{:9999999999}"
// is an error rather than an attempt to allocate gigabytes (Python would
// raise MemoryError).
const maxWidth = 1 << 24

// FormatSpec formats x with a Python format spec, as Python's
// format(x, spec) does. x may be int64 (or int), float64, bool or string;
// the grammar is Python's
//
//	[[fill]align][sign][z][#][0][width][grouping][.precision][type]
//
// with align one of < > ^ =, sign one of + - space, grouping , or _, and
// type one of b c d o x X n (integers), e E f F g G n % (floats and
// integers), s (strings), or none. With no type a float prints as
// repr(float) would, or, given a precision, like 'g' keeping at least one
// digit after the point. Rounding is correct rounding of the exact binary
// value, ties to even: format(2.675, ".2f") is "2.67". An empty spec gives
// the value's str(), with booleans spelled true/false as tsr prints them;
// a non-empty spec formats a bool as the integer 0 or 1, as Python does.
//
// Errors are *Error values of kind ValueError with Python's message (e.g.
// "Unknown format code 'd' for object of type 'float'", "Precision not
// allowed in integer format specifier"), OverflowError for format(-1, "c"),
// and TypeError for an unsupported Go type. The algorithm is a port of
// CPython's Python/formatter_unicode.c and pystrtod.c (3.11+).
func FormatSpec(x any, spec string) (string, error) {
	switch v := x.(type) {
	case string:
		return formatString(v, spec)
	case bool:
		if spec == "" {
			if v {
				return "true", nil
			}
			return "false", nil
		}
		var i int64
		if v {
			i = 1
		}
		return formatInt(i, spec, "bool")
	case int64:
		return formatInt(v, spec, "int")
	case int:
		return formatInt(int64(v), spec, "int")
	case float64:
		return formatFloat(v, spec)
	default:
		return "", &Error{Kind: "TypeError", Msg: fmt.Sprintf("format: unsupported value of Go type %T", x)}
	}
}

func checkSizes(f spec) error {
	if f.width > maxWidth {
		return &Error{Kind: "ValueError", Msg: "width too big"}
	}
	if f.precision > maxWidth {
		return &Error{Kind: "ValueError", Msg: "precision too big"}
	}
	return nil
}

// formatString is CPython's format_string_internal.
func formatString(v, specStr string) (string, error) {
	if specStr == "" {
		return v, nil
	}
	f, err := parseSpec([]rune(specStr), "str", 's', '<')
	if err != nil {
		return "", err
	}
	if f.typ != 's' {
		return "", unknownType(f.typ, "str")
	}
	switch {
	case f.sign == ' ':
		return "", valueError("Space not allowed in string format specifier")
	case f.sign != 0:
		return "", valueError("Sign not allowed in string format specifier")
	case f.noNeg0:
		return "", valueError("Negative zero coercion (z) not allowed in string format specifier")
	case f.alt:
		return "", valueError("Alternate form (#) not allowed in string format specifier")
	case f.align == '=':
		return "", valueError("'=' alignment not allowed in string format specifier")
	}
	if err := checkSizes(f); err != nil {
		return "", err
	}
	n := utf8.RuneCountInString(v)
	if f.precision >= 0 && n > f.precision {
		r := []rune(v)[:f.precision]
		v, n = string(r), f.precision
	}
	if f.width <= n {
		return v, nil
	}
	pad := f.width - n
	var left int
	switch f.align {
	case '>':
		left = pad
	case '^':
		left = pad / 2
	}
	fill := string(f.fill)
	return strings.Repeat(fill, left) + v + strings.Repeat(fill, pad-left), nil
}

// formatInt is CPython's _PyLong_FormatAdvancedWriter / format_long_internal.
func formatInt(v int64, specStr, typeName string) (string, error) {
	if specStr == "" {
		return strconv.FormatInt(v, 10), nil
	}
	f, err := parseSpec([]rune(specStr), typeName, 'd', '>')
	if err != nil {
		return "", err
	}
	switch f.typ {
	case 'b', 'c', 'd', 'o', 'x', 'X', 'n':
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		return formatFloatSpec(float64(v), f)
	default:
		return "", unknownType(f.typ, typeName)
	}
	if f.precision != -1 {
		return "", valueError("Precision not allowed in integer format specifier")
	}
	if f.noNeg0 {
		return "", valueError("Negative zero coercion (z) not allowed in integer format specifier")
	}
	if err := checkSizes(f); err != nil {
		return "", err
	}
	var sign rune
	var prefix, digits, remainder string
	if f.typ == 'c' {
		if f.sign != 0 {
			return "", valueError("Sign not allowed with integer format specifier 'c'")
		}
		if f.alt {
			return "", valueError("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if v < 0 || v > 0x10ffff {
			return "", &Error{Kind: "OverflowError", Msg: "%c arg not in range(0x110000)"}
		}
		remainder = string(rune(v))
		if v >= 0xd800 && v <= 0xdfff {
			// A lone surrogate has no UTF-8 form; Go strings cannot hold it.
			remainder = "\uFFFD"
		}
	} else {
		base := 10
		switch f.typ {
		case 'b':
			base, prefix = 2, "0b"
		case 'o':
			base, prefix = 8, "0o"
		case 'x':
			base, prefix = 16, "0x"
		case 'X':
			base, prefix = 16, "0X"
		}
		if !f.alt {
			prefix = ""
		}
		u := uint64(v)
		if v < 0 {
			sign = '-'
			u = -u
		}
		digits = strconv.FormatUint(u, base)
		if f.typ == 'X' {
			digits = strings.ToUpper(digits)
		}
	}
	sep := f.sep
	if f.typ == 'n' {
		sep = sepNone // the C locale, which Python uses for 'n', does not group
	}
	return fillNumber(f, sign, prefix, digits, false, remainder, sep), nil
}

// formatFloat is CPython's _PyFloat_FormatAdvancedWriter.
func formatFloat(v float64, specStr string) (string, error) {
	if specStr == "" {
		return FloatRepr(v), nil
	}
	f, err := parseSpec([]rune(specStr), "float", 0, '>')
	if err != nil {
		return "", err
	}
	switch f.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
		return formatFloatSpec(v, f)
	default:
		return "", unknownType(f.typ, "float")
	}
}

// formatFloatSpec is CPython's format_float_internal.
func formatFloatSpec(v float64, f spec) (string, error) {
	if err := checkSizes(f); err != nil {
		return "", err
	}
	typ := f.typ
	prec := f.precision
	defPrec := 6
	fl := floatFlags{alt: f.alt, noNeg0: f.noNeg0}
	if typ == 0 {
		fl.addDot0 = true
		typ = 'r'
		defPrec = 0
	}
	if typ == 'n' {
		typ = 'g'
	}
	pct := false
	if typ == '%' {
		typ = 'f'
		v *= 100
		pct = true
	}
	if prec < 0 {
		prec = defPrec
	} else if typ == 'r' {
		typ = 'g'
	}
	s := doubleToString(v, byte(typ), prec, fl)
	if pct {
		s += "%"
	}
	var sign rune
	if s[0] == '-' {
		sign = '-'
		s = s[1:]
	}
	// parse_number: leading digits, then an optional '.', then the rest.
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	digits, rest := s[:i], s[i:]
	hasDecimal := len(rest) > 0 && rest[0] == '.'
	if hasDecimal {
		rest = rest[1:]
	}
	sep := f.sep
	if f.typ == 'n' {
		sep = sepNone
	}
	return fillNumber(f, sign, "", digits, hasDecimal, rest, sep), nil
}

// fillNumber lays out
//
//	<lpadding><sign><prefix><spadding><grouped digits><decimal><remainder><rpadding>
//
// as CPython's calc_number_widths and fill_number do. signChar is '-' for a
// negative number and 0 otherwise.
func fillNumber(f spec, signChar rune, prefix, digits string, hasDecimal bool, remainder string, sep int) string {
	var sign rune
	switch f.sign {
	case '+':
		sign = '+'
		if signChar == '-' {
			sign = '-'
		}
	case ' ':
		sign = ' '
		if signChar == '-' {
			sign = '-'
		}
	default:
		if signChar == '-' {
			sign = '-'
		}
	}
	nSign := 0
	if sign != 0 {
		nSign = 1
	}
	nDecimal := 0
	if hasDecimal {
		nDecimal = 1
	}
	nRemainder := utf8.RuneCountInString(remainder)
	nonDigit := nSign + len(prefix) + nDecimal + nRemainder
	minWidth := 0
	if f.fill == '0' && f.align == '=' {
		minWidth = f.width - nonDigit
	}
	grouped := ""
	if len(digits) > 0 {
		grouped = groupDigits(digits, minWidth, sep)
	}
	nGrouped := len(grouped)
	var lpad, spad, rpad int
	if pad := f.width - (nonDigit + nGrouped); pad > 0 {
		switch f.align {
		case '<':
			rpad = pad
		case '^':
			lpad = pad / 2
			rpad = pad - lpad
		case '=':
			spad = pad
		default:
			lpad = pad
		}
	}
	var b strings.Builder
	fill := string(f.fill)
	b.WriteString(strings.Repeat(fill, lpad))
	if sign != 0 {
		b.WriteRune(sign)
	}
	b.WriteString(prefix)
	b.WriteString(strings.Repeat(fill, spad))
	b.WriteString(grouped)
	if hasDecimal {
		b.WriteByte('.')
	}
	b.WriteString(remainder)
	b.WriteString(strings.Repeat(fill, rpad))
	return b.String()
}

// groupDigits inserts thousands separators into digits and pads it with
// zeros (separated too) to at least minWidth characters: a port of
// CPython's _PyUnicode_InsertThousandsGrouping with grouping "\3" (',' and
// '_'), "\4" ('_' in b/o/x/X) or none.
func groupDigits(digits string, minWidth int, sep int) string {
	group := 0
	var sepCh byte
	switch sep {
	case sepComma:
		group, sepCh = 3, ','
	case sepUnderline:
		group, sepCh = 3, '_'
	case sepUnder4:
		group, sepCh = 4, '_'
	}
	// Build the result right to left.
	out := make([]byte, 0, max(len(digits), minWidth)+len(digits)/3+2)
	remaining := len(digits)
	emit := func(l int, withSep bool) {
		nZeros := max(0, l-remaining)
		nChars := max(0, min(remaining, l))
		if withSep {
			out = append(out, sepCh)
		}
		for i := 0; i < nChars; i++ {
			out = append(out, digits[remaining-1-i])
		}
		for i := 0; i < nZeros; i++ {
			out = append(out, '0')
		}
		remaining -= nChars
	}
	useSep := false
	broken := false
	if group > 0 {
		for {
			l := min(group, max(remaining, minWidth, 1))
			emit(l, useSep)
			useSep = true
			minWidth -= l
			if remaining <= 0 && minWidth <= 0 {
				broken = true
				break
			}
			minWidth--
		}
	}
	if !broken {
		emit(max(remaining, minWidth, 1), useSep)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}
