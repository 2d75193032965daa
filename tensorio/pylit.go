package tensorio

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A minimal parser for the Python literals that appear in .npy headers:
// dicts with string keys, strings, True/False/None, integers (with an
// optional Python 2 "L" suffix), tuples and lists. Nesting is limited so a
// hostile header cannot exhaust the stack.

type pyDict struct {
	keys []string
	vals []any
}

func (d pyDict) get(k string) any {
	for i, key := range d.keys {
		if key == k {
			return d.vals[i]
		}
	}
	return nil
}

type (
	pyTuple []any
	pyList  []any
	pyNone  struct{}
)

const maxPyDepth = 16

type pyParser struct {
	s   string
	pos int
}

func parsePyLiteral(s string) (any, error) {
	p := &pyParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.errf("unexpected %q after the literal", p.s[p.pos])
	}
	return v, nil
}

func (p *pyParser) errf(format string, args ...any) error {
	return errors.New(strings.TrimSpace("at offset " + strconv.Itoa(p.pos) + ": " + fmt.Sprintf(format, args...)))
}

func (p *pyParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, p.errf("nested too deeply")
	}
	p.space()
	if p.pos >= len(p.s) {
		return nil, p.errf("unexpected end")
	}
	c := p.s[p.pos]
	switch {
	case c == '\'' || c == '"':
		return p.str()
	case c == '(':
		p.pos++
		items, err := p.seq(')', depth)
		return pyTuple(items), err
	case c == '[':
		p.pos++
		items, err := p.seq(']', depth)
		return pyList(items), err
	case c == '{':
		p.pos++
		return p.dict(depth)
	case c == '-' || c == '+' || (c >= '0' && c <= '9'):
		return p.int()
	}
	for _, kw := range []string{"True", "False", "None"} {
		if strings.HasPrefix(p.s[p.pos:], kw) {
			p.pos += len(kw)
			switch kw {
			case "True":
				return true, nil
			case "False":
				return false, nil
			}
			return pyNone{}, nil
		}
	}
	return nil, p.errf("unexpected %q", c)
}

func (p *pyParser) str() (string, error) {
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch c {
		case q:
			return b.String(), nil
		case '\\':
			if p.pos >= len(p.s) {
				return "", p.errf("unterminated string")
			}
			b.WriteByte(p.s[p.pos])
			p.pos++
		case '\n':
			return "", p.errf("newline in string")
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errf("unterminated string")
}

func (p *pyParser) int() (int64, error) {
	start := p.pos
	if p.s[p.pos] == '-' || p.s[p.pos] == '+' {
		p.pos++
	}
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
	if err != nil {
		return 0, p.errf("bad integer %q", clip(p.s[start:p.pos]))
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'L' || p.s[p.pos] == 'l') {
		p.pos++ // Python 2 long suffix, written by old NumPy
	}
	return n, nil
}

// seq parses comma-separated values up to the closing byte; the opening
// byte has been consumed.
func (p *pyParser) seq(close byte, depth int) ([]any, error) {
	var items []any
	for {
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == close {
			p.pos++
			return items, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.space()
		if p.pos >= len(p.s) {
			return nil, p.errf("unexpected end, want %q", close)
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case close:
		default:
			return nil, p.errf("unexpected %q, want ',' or %q", p.s[p.pos], close)
		}
	}
}

func (p *pyParser) dict(depth int) (pyDict, error) {
	var d pyDict
	for {
		p.space()
		if p.pos >= len(p.s) {
			return d, p.errf("unexpected end, want '}'")
		}
		if p.s[p.pos] == '}' {
			p.pos++
			return d, nil
		}
		if c := p.s[p.pos]; c != '\'' && c != '"' {
			return d, p.errf("dict key must be a string")
		}
		k, err := p.str()
		if err != nil {
			return d, err
		}
		for _, old := range d.keys {
			if old == k {
				return d, p.errf("duplicate key %q", k)
			}
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return d, p.errf("want ':' after key %q", k)
		}
		p.pos++
		v, err := p.value(depth + 1)
		if err != nil {
			return d, err
		}
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, v)
		p.space()
		if p.pos >= len(p.s) {
			return d, p.errf("unexpected end, want '}'")
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case '}':
		default:
			return d, p.errf("unexpected %q, want ',' or '}'", p.s[p.pos])
		}
	}
}

// pyRepr renders a parsed literal back for error messages.
func pyRepr(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case pyNone:
		return "None"
	case pyTuple:
		return "(" + joinRepr(x) + ")"
	case pyList:
		return "[" + joinRepr(x) + "]"
	case pyDict:
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = strconv.Quote(k) + ": " + pyRepr(x.vals[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "?"
}

func joinRepr(xs []any) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = pyRepr(x)
	}
	return strings.Join(parts, ", ")
}
