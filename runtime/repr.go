package runtime

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNesting bounds how deeply nested containers may be printed, compared
// or hashed before the operation fails with a RecursionError (Python's
// default recursion limit), so that a deeply nested list cannot overflow the
// Go stack.
const MaxNesting = 1000

// reprState is the state of one repr/str rendering: the containers being
// printed, innermost last (a container met again while it is being printed
// is a cycle and prints as [...], {...} or (...), as Python does), and the
// error of a structure nested deeper than MaxNesting.
type reprState struct {
	active []any
	err    error
}

// containerID returns the identity of a container value that can be part of
// a cycle, or nil.
func containerID(v Value) any {
	switch x := v.(type) {
	case *List:
		return x
	case *Dict:
		return x
	case *NamedTuple:
		return x
	case Tuple:
		if len(x) > 0 {
			return tupleID{&x[0], len(x)}
		}
	}
	return nil
}

// tupleID identifies a tuple by its first element's address and its length
// (a shorter tuple sliced from the same array is a different tuple).
type tupleID struct {
	first *Value
	n     int
}

// enter pushes container id; it reports false (after writing the cycle or
// depth marker) when v must not be expanded.
func (st *reprState) enter(b *strings.Builder, id any, marker string) bool {
	for _, a := range st.active {
		if a == id {
			b.WriteString(marker)
			return false
		}
	}
	if len(st.active) >= MaxNesting {
		if st.err == nil {
			st.err = Errorf("RecursionError", "maximum recursion depth exceeded while getting the repr of an object")
		}
		b.WriteString(marker)
		return false
	}
	st.active = append(st.active, id)
	return true
}

func (st *reprState) leave() { st.active = st.active[:len(st.active)-1] }

// writeRepr appends v's repr to b.
func (st *reprState) writeRepr(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case String:
		b.WriteString(QuoteString(string(x)))
	case *List:
		if st.enter(b, x, "[...]") {
			b.WriteByte('[')
			st.writeElems(b, x.Elems)
			b.WriteByte(']')
			st.leave()
		}
	case Tuple:
		if len(x) == 0 {
			b.WriteString("()")
			return
		}
		if st.enter(b, tupleID{&x[0], len(x)}, "(...)") {
			b.WriteByte('(')
			st.writeElems(b, x)
			if len(x) == 1 {
				b.WriteByte(',')
			}
			b.WriteByte(')')
			st.leave()
		}
	case *NamedTuple:
		if st.enter(b, x, "(...)") {
			b.WriteString(x.TypeName + "(")
			for i, f := range x.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(f + "=")
				st.writeRepr(b, x.Tuple[i])
			}
			b.WriteByte(')')
			st.leave()
		}
	case *Set:
		st.writeSet(b, x)
	case *Dict:
		if st.enter(b, x, "{...}") {
			b.WriteByte('{')
			for i, e := range x.live() {
				if i > 0 {
					b.WriteString(", ")
				}
				st.writeRepr(b, e.key)
				b.WriteString(": ")
				st.writeRepr(b, e.value)
			}
			b.WriteByte('}')
			st.leave()
		}
	default:
		b.WriteString(Repr(v))
	}
}

func (st *reprState) writeElems(b *strings.Builder, elems []Value) {
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		st.writeRepr(b, e)
	}
}

// reprString renders a container's repr, ignoring a depth error (the
// over-deep part prints as [...]); ReprE and StrE report it.
func reprString(v Value) string {
	var st reprState
	var b strings.Builder
	st.writeRepr(&b, v)
	return b.String()
}

// ReprE returns repr(v), or a RecursionError when v nests containers more
// than MaxNesting deep. Containers that contain themselves print the inner
// occurrence as [...], {...} or (...), as Python does.
func ReprE(v Value) (string, error) {
	if containerID(v) == nil {
		return Repr(v), nil
	}
	var st reprState
	var b strings.Builder
	st.writeRepr(&b, v)
	return b.String(), st.err
}

// StrE returns str(v) (a string is itself; a container is its repr), with
// ReprE's RecursionError for an over-deep container.
func StrE(v Value) (string, error) {
	if containerID(v) == nil {
		return v.String(), nil
	}
	return ReprE(v)
}

// QuoteString returns Python's repr of the string s: single quotes, unless
// s contains a single quote and no double quote; backslash escapes for the
// quote, \\, \n, \r, \t; \xhh, \uhhhh or \Uhhhhhhhh for non-printable
// characters (unicode.IsPrint, which matches Python's str.isprintable), and
// \xhh for each byte of invalid UTF-8.
func QuoteString(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < ' ' || c == 0x7f:
				b = appendHex(b, 'x', uint32(c), 2)
			default:
				b = append(b, c)
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = appendHex(b, 'x', uint32(c), 2)
		case unicode.IsPrint(r):
			b = append(b, s[i:i+n]...)
		case r < 0x100:
			b = appendHex(b, 'x', uint32(r), 2)
		case r < 0x10000:
			b = appendHex(b, 'u', uint32(r), 4)
		default:
			b = appendHex(b, 'U', uint32(r), 8)
		}
		i += n
	}
	b = append(b, quote)
	return string(b)
}

func appendHex(b []byte, kind byte, v uint32, digits int) []byte {
	b = append(b, '\\', kind)
	h := strconv.FormatUint(uint64(v), 16)
	for i := len(h); i < digits; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// asciiEscape is Python's ascii() applied to a repr: every non-ASCII rune
// becomes \xhh, \uhhhh or \Uhhhhhhhh.
func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r < 0x10000:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	return b.String()
}
