package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// dtoa returns the decimal digits of |d| and the position of the decimal
// point (value = 0.DIGITS × 10^decpt), in the form CPython's _Py_dg_dtoa
// gives them to format_float_short: no leading zeros, trailing zeros
// stripped, and "0" with decpt 1 for a result that is zero.
//
//	mode 0: shortest digits that round-trip (repr).
//	mode 2: n significant digits (n >= 1), correctly rounded.
//	mode 3: n digits after the decimal point, correctly rounded.
//
// d must be finite. Go's strconv produces correctly rounded (round half to
// even on exact ties) and shortest round-trip digits, as David Gay's dtoa does.
func dtoa(d float64, mode, n int) (digits []byte, decpt int) {
	d = math.Abs(d)
	var buf [32]byte
	switch mode {
	case 3:
		s := strconv.AppendFloat(buf[:0], d, 'f', n, 64)
		dot := len(s)
		all := make([]byte, 0, len(s))
		for i, c := range s {
			if c == '.' {
				dot = i
				continue
			}
			all = append(all, c)
		}
		decpt = dot
		i := 0
		for i < len(all) && all[i] == '0' {
			i++
			decpt--
		}
		digits = all[i:]
	default:
		prec := -1
		if mode == 2 {
			prec = n - 1
		}
		s := strconv.AppendFloat(buf[:0], d, 'e', prec, 64)
		e := strings.LastIndexByte(string(s), 'e')
		exp, _ := strconv.Atoi(string(s[e+1:]))
		digits = make([]byte, 0, e)
		for _, c := range s[:e] {
			if c != '.' {
				digits = append(digits, c)
			}
		}
		decpt = exp + 1
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return []byte{'0'}, 1
	}
	return digits, decpt
}

// floatFlags are the Py_DTSF_* flags of PyOS_double_to_string.
type floatFlags struct {
	sign    bool // Py_DTSF_SIGN: '+' on non-negative numbers
	addDot0 bool // Py_DTSF_ADD_DOT_0: "1.0" rather than "1" ('r' and 'g')
	alt     bool // Py_DTSF_ALT: keep a trailing '.' / trailing zeros
	noNeg0  bool // Py_DTSF_NO_NEG_0: a result that rounds to zero has no '-'
}

// doubleToString is a port of CPython's PyOS_double_to_string together with
// format_float_short (Python/pystrtod.c): code is one of 'e','E','f','F',
// 'g','G','r' and prec is the precision as the format spec gives it
// (0 for 'r').
func doubleToString(d float64, code byte, prec int, fl floatFlags) string {
	upper := false
	mode := 0
	switch code {
	case 'E':
		upper = true
		code = 'e'
		fallthrough
	case 'e':
		mode = 2
		prec++
	case 'F':
		upper = true
		code = 'f'
		fallthrough
	case 'f':
		mode = 3
	case 'G':
		upper = true
		code = 'g'
		fallthrough
	case 'g':
		mode = 2
		if prec == 0 {
			prec = 1
		}
	default: // 'r'
		code = 'r'
		mode = 0
		prec = 0
	}

	var b strings.Builder
	neg := math.Signbit(d)
	if math.IsNaN(d) || math.IsInf(d, 0) {
		if math.IsNaN(d) {
			neg = false // the sign of a nan is ignored
		}
		if neg {
			b.WriteByte('-')
		} else if fl.sign {
			b.WriteByte('+')
		}
		s := "inf"
		if math.IsNaN(d) {
			s = "nan"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		b.WriteString(s)
		return b.String()
	}

	digits, decpt := dtoa(d, mode, prec)
	if fl.noNeg0 && neg && len(digits) == 1 && digits[0] == '0' {
		neg = false
	}
	ndig := len(digits)

	useExp := false
	vEnd := ndig
	switch code {
	case 'e':
		useExp = true
		vEnd = prec
	case 'f':
		vEnd = decpt + prec
	case 'g':
		lim := prec
		if fl.addDot0 {
			lim = prec - 1
		}
		if decpt <= -4 || decpt > lim {
			useExp = true
		}
		if fl.alt {
			vEnd = prec
		}
	case 'r':
		if decpt <= -4 || decpt > 16 {
			useExp = true
		}
	}
	exp := 0
	if useExp {
		exp = decpt - 1
		decpt = 1
	}
	vStart := 0
	if decpt <= 0 {
		vStart = decpt - 1
	}
	if !useExp && fl.addDot0 {
		vEnd = max(vEnd, decpt+1)
	} else {
		vEnd = max(vEnd, decpt)
	}

	if neg {
		b.WriteByte('-')
	} else if fl.sign {
		b.WriteByte('+')
	}
	zeros := func(n int) {
		for ; n > 0; n-- {
			b.WriteByte('0')
		}
	}
	if decpt <= 0 {
		zeros(decpt - vStart)
		b.WriteByte('.')
		zeros(-decpt)
	} else {
		zeros(-vStart)
	}
	if 0 < decpt && decpt <= ndig {
		b.Write(digits[:decpt])
		b.WriteByte('.')
		b.Write(digits[decpt:])
	} else {
		b.Write(digits)
	}
	if ndig < decpt {
		zeros(decpt - ndig)
		b.WriteByte('.')
		zeros(vEnd - decpt)
	} else {
		zeros(vEnd - ndig)
	}
	s := b.String()
	if s[len(s)-1] == '.' && !fl.alt {
		s = s[:len(s)-1]
	}
	if useExp {
		e := byte('e')
		if upper {
			e = 'E'
		}
		sign := byte('+')
		if exp < 0 {
			sign = '-'
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		s += string([]byte{e, sign}) + es
	}
	return s
}
