package lang

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types produced by the tsr lexer. The names are the symbols the
// participle grammar refers to (@Ident, @Int, ...).
//
// They are untyped so that they compare with both lexer.TokenType and the
// int32 Type of the lexer's own compact token.
const (
	tokEOF     = -1        // lexer.EOF
	tokIdent   = -2 - iota // identifier
	tokKeyword             // reserved word (also the contextual grad/no_grad forms)
	tokInt                 // integer literal
	tokFloat               // float literal
	tokString              // "text" (Value holds the raw source text, quotes included)
	tokFString             // f"..." (Value holds the raw text with its quotes, so that it never matches a grammar literal)
	tokEin                 // ein"..." (Value holds the equation with its quotes, likewise)
	tokPunct               // operator or punctuation
	tokSep                 // newline or ';'
)

// tokenSymbols returns the symbol table (a function, not a variable, so that
// it is ready when the package-level parsers are built during init).
func tokenSymbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":     tokEOF,
		"Ident":   tokIdent,
		"Keyword": tokKeyword,
		"Int":     tokInt,
		"Float":   tokFloat,
		"String":  tokString,
		"FString": tokFString,
		"Ein":     tokEin,
		"Punct":   tokPunct,
		"Sep":     tokSep,
	}
}

var keywords = map[string]bool{
	"fn": true, "if": true, "else": true, "for": true, "in": true, "while": true,
	"break": true, "continue": true, "return": true, "try": true, "catch": true,
	"assert": true, "import": true, "as": true, "and": true, "or": true, "not": true, "is": true,
	"true": true, "false": true, "none": true, "del": true,
}

// Operators, longest first so that the lexer always takes the longest match.
var operators = []string{
	"**=", "//=", "...",
	"**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "@=",
	"&=", "|=", "^=",
	"+", "-", "*", "/", "%", "@", "<", ">", "=", "(", ")", "[", "]", "{", "}",
	",", ":", ";", ".", "|", "^", "&", "~",
}

// continuesLine reports whether a line ending in token t continues on the
// next line (binary operators, assignment operators, '.').
func continuesLine(t token) bool {
	switch t.Type {
	case tokPunct:
		switch t.Value {
		case "+", "-", "*", "/", "//", "%", "@", "**", "<", ">", "<=", ">=", "==", "!=",
			"|", "^", "&", "=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=",
			"&=", "|=", "^=", ".":
			return true
		}
	case tokKeyword:
		switch t.Value {
		case "and", "or", "not", "in", "is":
			return true
		}
	}
	return false
}

// lexDef is the participle lexer definition for tsr.
type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType { return tokenSymbols() }

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return lexDef{}.LexString(filename, string(b))
}

func (lexDef) LexString(filename, src string) (lexer.Lexer, error) {
	toks, err := tokenize(filename, src)
	if err != nil {
		return nil, err
	}
	return &sliceLexer{toks: participleTokens(filename, toks)}, nil
}

// token is the lexer's compact token (32 bytes against lexer.Token's 64):
// the fast parser reads these, and participleTokens converts them for
// participle.
type token struct {
	Value          string
	Off, Line, Col int32
	Type           int32
}

// pos returns t's position in file.
func (t *token) pos(file string) lexer.Position {
	return lexer.Position{Filename: file, Offset: int(t.Off), Line: int(t.Line), Column: int(t.Col)}
}

// participleTokens converts toks to participle's tokens.
func participleTokens(file string, toks []token) []lexer.Token {
	out := make([]lexer.Token, len(toks))
	for i := range toks {
		t := &toks[i]
		out[i] = lexer.Token{Type: lexer.TokenType(t.Type), Value: t.Value, Pos: t.pos(file)}
	}
	return out
}

type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if l.i >= len(l.toks) {
		return l.toks[len(l.toks)-1], nil
	}
	t := l.toks[l.i]
	l.i++
	return t, nil
}

// scanner is the hand-written tokenizer. Newlines are significant, except
// inside (), [] and dict braces, after a line-continuing operator, and before
// `else`/`catch`.
type scanner struct {
	file  string
	src   string
	off   int
	line  int
	col   int
	toks  []token
	stack []byte // open brackets: '(', '[', '{' (block), 'F' (a function's or gradient block's body), 'N' (a named function definition's body) or 'd' (dict brace)
	// openTok holds the index in toks of each bracket on stack, and
	// parenOpen that of the '(' the last ')' closed.
	openTok   []int
	parenOpen int
	// opened holds the source position of each bracket on stack, so that an
	// unclosed one is reported where it was opened (as Python 3.10+ does).
	opened []lexer.Position
	// blockClose is the offset of the last '}' that closed a block (-1
	// before any): an `else` after it is an if statement's, whose '{'
	// opens a block; any other `else` is a conditional expression's, whose
	// '{' opens a dict. The body of a function or gradient block ('F') is
	// no such block: in `1 if fn(x) { x } else {}` the `else` is the
	// conditional expression's.
	blockClose int
	// stmtEnd is len(toks) right after a '}' that closed a statement block
	// ('{'), else -1: a token other than else, catch, ';' or a closing
	// bracket that follows it on the same line starts a new statement
	// (`if n < 2 { return n } fib(n - 1)`), so a separator goes first.
	stmtEnd    int
	stmtEndPos lexer.Position // just after that '}': where the separator is
}

func tokenize(file, src string) ([]token, error) {
	if !utf8.ValidString(src) {
		return nil, invalidUTF8(file, src)
	}
	// Source text averages well over two bytes a token: one allocation
	// (rather than a chain of growing copies) holds the tokens.
	s := &scanner{file: file, src: src, line: 1, col: 1, toks: make([]token, 0, len(src)/2+4), blockClose: -1, stmtEnd: -1}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.toks, nil
}

// invalidUTF8 returns the error for a source that is not valid UTF-8
// (LANGUAGE.md section 1): it points at the first bad byte and shows it as
// \xHH; the quoted source line shows each bad byte as U+FFFD, so that the
// caret stays under it.
func invalidUTF8(file, src string) *SyntaxError {
	off := 0
	for off < len(src) {
		r, size := utf8.DecodeRuneInString(src[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		off += size
	}
	if off == len(src) {
		off = 0 // not reached: src is invalid
	}
	start := strings.LastIndexByte(src[:off], '\n') + 1
	p := Pos{Line: int32(1 + strings.Count(src[:off], "\n")), Col: int32(1 + utf8.RuneCountInString(src[start:off]))}
	e := newSyntaxError(src, p, file, false, "invalid UTF-8 encoding (byte \\x%02x)", src[off])
	var b strings.Builder
	for i := 0; i < len(e.Line); {
		r, size := utf8.DecodeRuneInString(e.Line[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(e.Line[i : i+size])
		}
		i += size
	}
	e.Line = b.String()
	return e
}

func (s *scanner) pos() lexer.Position {
	return lexer.Position{Filename: s.file, Offset: s.off, Line: s.line, Column: s.col}
}

func (s *scanner) errAt(p lexer.Position, incomplete bool, format string, args ...any) error {
	return newSyntaxError(s.src, Pos{Line: int32(p.Line), Col: int32(p.Column)}, s.file, incomplete, format, args...)
}

// advance moves over n bytes (which contain no newline).
func (s *scanner) advance(n int) {
	s.col += utf8.RuneCountInString(s.src[s.off : s.off+n])
	s.off += n
}

func (s *scanner) emit(typ lexer.TokenType, val string, p lexer.Position) {
	if s.stmtEnd == len(s.toks) && typ != tokSep && !followsBlock(typ, val) {
		q := s.stmtEndPos
		s.toks = append(s.toks, token{Type: tokSep, Value: ";", Off: int32(q.Offset), Line: int32(q.Line), Col: int32(q.Column)})
	}
	s.toks = append(s.toks, token{Type: int32(typ), Value: val, Off: int32(p.Offset), Line: int32(p.Line), Col: int32(p.Column)})
}

func (s *scanner) last() (token, bool) {
	if len(s.toks) == 0 {
		return token{}, false
	}
	return s.toks[len(s.toks)-1], true
}

// newlineSignificant reports whether a newline at this point ends a statement.
func (s *scanner) newlineSignificant() bool {
	if n := len(s.stack); n > 0 && s.stack[n-1] != '{' && s.stack[n-1] != 'F' && s.stack[n-1] != 'N' {
		return false
	}
	t, ok := s.last()
	if !ok || t.Type == tokSep {
		return false
	}
	if continuesLine(t) || (t.Type == tokPunct && (t.Value == "{" || t.Value == ",")) {
		return false
	}
	return true
}

// followsBlock reports whether a token may follow a statement block's '}'
// on the same line without starting a new statement.
func followsBlock(typ lexer.TokenType, val string) bool {
	switch typ {
	case tokKeyword:
		return val == "else" || val == "catch"
	case tokIdent:
		return val == "elif" // keeps the error "unexpected name \"elif\""
	case tokPunct:
		switch val {
		case "}", ")", "]", ";", ",":
			return true
		}
	}
	return false
}

// endsOperand reports whether t can end an operand, which makes a following
// '{' a block brace rather than a dict literal.
func endsOperand(t token) bool {
	switch t.Type {
	case tokIdent, tokInt, tokFloat, tokString, tokFString, tokEin:
		return true
	case tokKeyword:
		switch t.Value {
		case "true", "false", "none", "else", "try", "no_grad", "detect_anomaly":
			return true
		}
	case tokPunct:
		return t.Value == ")" || t.Value == "]" || t.Value == "}"
	}
	return false
}

func (s *scanner) run() error {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			s.advance(1)
			continue
		case c == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] == '\n':
			// explicit line continuation
			s.off += 2
			s.line++
			s.col = 1
			continue
		case c == '#':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		case c == '\n':
			p := s.pos()
			if s.newlineSignificant() {
				s.emit(tokSep, "\n", p)
			}
			s.off++
			s.line++
			s.col = 1
			continue
		}
		p := s.pos()
		rest := s.src[s.off:]
		switch {
		case isDigit(c) || (c == '.' && len(rest) > 1 && isDigit(rest[1])):
			if err := s.number(p); err != nil {
				return err
			}
		case c == '"' || c == '\'':
			raw, err := s.stringLit(p, 0)
			if err != nil {
				return err
			}
			s.emit(tokString, raw, p)
		case (c == 'f' || c == 'F') && len(rest) > 1 && (rest[1] == '"' || rest[1] == '\''):
			s.advance(1)
			raw, err := s.stringLit(p, 'f')
			if err != nil {
				return err
			}
			s.emit(tokFString, raw, p)
		case strings.HasPrefix(rest, `ein"`) || strings.HasPrefix(rest, `ein'`):
			s.advance(3)
			raw, err := s.stringLit(p, 'e')
			if err != nil {
				return err
			}
			s.emit(tokEin, raw, p)
		case isIdentStart(rest):
			n := identLen(rest)
			word := rest[:n]
			s.advance(n)
			if keywords[word] {
				s.emit(tokKeyword, word, p)
			} else {
				s.emit(tokIdent, word, p)
			}
		default:
			op := ""
			for _, o := range operators {
				if strings.HasPrefix(rest, o) {
					op = o
					break
				}
			}
			if op == "" {
				r, size := utf8.DecodeRuneInString(rest)
				if r == utf8.RuneError && size == 1 {
					return invalidUTF8(s.file, s.src)
				}
				return s.errAt(p, false, "unexpected character %q", r)
			}
			if err := s.punct(op, p); err != nil {
				return err
			}
		}
	}
	if n := len(s.stack); n > 0 {
		// Point at the innermost bracket that was never closed; the input is
		// still incomplete, so a REPL asks for more lines.
		return s.errAt(s.opened[n-1], true, "'%c' was never closed", closerOf(s.stack[n-1]))
	}
	p := s.endPos()
	if t, ok := s.last(); ok && continuesLine(t) {
		return s.errAt(p, true, "unexpected end of input after %q", t.Value)
	}
	if t, ok := s.last(); ok && t.Type != tokSep {
		s.emit(tokSep, "\n", p)
	}
	s.markContextual()
	s.emit(tokEOF, "", p)
	return nil
}

// endPos returns the position just after the last non-blank character, so
// that end-of-input errors point at a visible source line.
func (s *scanner) endPos() lexer.Position {
	trimmed := strings.TrimRight(s.src, " \t\r\n\f")
	line := 1 + strings.Count(trimmed, "\n")
	last := trimmed[strings.LastIndexByte(trimmed, '\n')+1:]
	return lexer.Position{Filename: s.file, Offset: len(trimmed), Line: line, Column: utf8.RuneCountInString(last) + 1}
}

func closerOf(b byte) byte {
	switch b {
	case '(':
		return '('
	case '[':
		return '['
	}
	return '{'
}

func (s *scanner) punct(op string, p lexer.Position) error {
	switch op {
	case "(", "[":
		s.stack = append(s.stack, op[0])
		s.opened = append(s.opened, p)
		s.openTok = append(s.openTok, len(s.toks))
	case "{":
		kind := byte('d')
		if t, ok := s.last(); ok && endsOperand(t) && (t.Value != "else" || s.elseAfterBlock()) {
			kind = '{'
			if t.Type == tokPunct && t.Value == ")" && s.bodyAfterParen() {
				kind = 'F'
				if s.namedFnDef() {
					kind = 'N'
				}
			}
		}
		s.stack = append(s.stack, kind)
		s.opened = append(s.opened, p)
		s.openTok = append(s.openTok, len(s.toks))
	case ")", "]", "}":
		want := map[string]byte{")": '(', "]": '[', "}": '{'}[op]
		n := len(s.stack)
		if n == 0 {
			return s.errAt(p, false, "unexpected %q", op)
		}
		top := s.stack[n-1]
		if top == 'd' || top == 'F' || top == 'N' {
			top = '{'
		}
		if top != want {
			return s.errAt(p, false, "unexpected %q: unclosed '%c'", op, closerOf(s.stack[n-1]))
		}
		if op == ")" {
			s.parenOpen = s.openTok[n-1]
		}
		stmtBlock := false
		if op == "}" && (s.stack[n-1] == '{' || s.stack[n-1] == 'F' || s.stack[n-1] == 'N') {
			if s.stack[n-1] == 'N' {
				// a named function definition is a statement too
				// (fn f() { 10 } print(f())), but not a block an
				// else may follow
				stmtBlock = true
			}
			if s.stack[n-1] == '{' {
				s.blockClose = p.Offset
				stmtBlock = true
			}
			// a block's last statement ends at its closing brace
			if t, ok := s.last(); ok && t.Type != tokSep && !(t.Type == tokPunct && t.Value == "{") {
				s.emit(tokSep, "\n", p)
			}
		}
		s.stack = s.stack[:n-1]
		s.opened = s.opened[:n-1]
		s.openTok = s.openTok[:n-1]
		if stmtBlock {
			s.advance(len(op))
			s.emit(tokPunct, op, p)
			s.stmtEnd = len(s.toks)
			s.stmtEndPos = lexer.Position{Filename: p.Filename, Offset: p.Offset + 1, Line: p.Line, Column: p.Column + 1}
			return nil
		}
	case ";":
		s.advance(1)
		if t, ok := s.last(); ok && t.Type != tokSep {
			s.emit(tokSep, ";", p)
		}
		return nil
	}
	s.advance(len(op))
	s.emit(tokPunct, op, p)
	return nil
}

// bodyAfterParen reports whether a '{' after the ')' just closed opens
// the body of a function (fn(...) {, fn name(...) {) or of a gradient
// block (grad(...) {, value_and_grad(...) {).
func (s *scanner) bodyAfterParen() bool {
	k := s.parenOpen
	if k < 1 {
		return false
	}
	before := &s.toks[k-1]
	switch {
	case before.Type == tokKeyword && before.Value == "fn":
		return true
	case before.Type == tokIdent && (before.Value == "grad" || before.Value == "value_and_grad"):
		return k < 2 || !(s.toks[k-2].Type == tokPunct && s.toks[k-2].Value == ".")
	case before.Type == tokIdent && k >= 2:
		return s.toks[k-2].Type == tokKeyword && s.toks[k-2].Value == "fn"
	}
	return false
}

// namedFnDef reports whether the '(' ... ')' just closed is the parameter
// list of a named function definition at the start of a statement
// (`fn name(...)` after a separator, a block's '{' or the start of the
// source), whose body's '}' then ends the statement.
func (s *scanner) namedFnDef() bool {
	k := s.parenOpen
	if k < 2 || s.toks[k-1].Type != tokIdent || s.toks[k-2].Type != tokKeyword || s.toks[k-2].Value != "fn" {
		return false
	}
	if k == 2 {
		return true
	}
	p := &s.toks[k-3]
	return p.Type == tokSep || p.Type == tokPunct && (p.Value == "{" || p.Value == "}")
}

// elseAfterBlock reports whether the last token, an `else` keyword,
// follows (across newlines) a '}' that closed a block: the else of an if
// statement, not of a conditional expression `x if c else {...}`.
func (s *scanner) elseAfterBlock() bool {
	for i := len(s.toks) - 2; i >= 0; i-- {
		t := &s.toks[i]
		if t.Type == tokSep {
			continue
		}
		return t.Type == tokPunct && t.Value == "}" && int(t.Off) == s.blockClose
	}
	return false
}

// markContextual turns grad/value_and_grad followed by a parenthesised list
// and a block, and no_grad/detect_anomaly followed by a block, into keywords;
// it also drops a newline before `else` and `catch`.
func (s *scanner) markContextual() {
	toks := s.toks
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Type == tokSep && i+1 < len(toks) && toks[i+1].Type == tokKeyword &&
			(toks[i+1].Value == "else" || toks[i+1].Value == "catch") {
			continue
		}
		out = append(out, t)
	}
	toks = out
	for i, t := range toks {
		if t.Type != tokIdent || (i > 0 && toks[i-1].Type == tokPunct && toks[i-1].Value == ".") {
			continue
		}
		switch t.Value {
		case "no_grad", "detect_anomaly":
			if i+1 < len(toks) && toks[i+1].Value == "{" && toks[i+1].Type == tokPunct {
				toks[i].Type = tokKeyword
			}
		case "grad", "value_and_grad":
			if i+1 < len(toks) && toks[i+1].Type == tokPunct && toks[i+1].Value == "(" {
				depth := 0
				for j := i + 1; j < len(toks); j++ {
					if toks[j].Type != tokPunct {
						continue
					}
					switch toks[j].Value {
					case "(", "[", "{":
						depth++
					case ")", "]", "}":
						depth--
					}
					if depth == 0 {
						if j+1 < len(toks) && toks[j+1].Type == tokPunct && toks[j+1].Value == "{" {
							toks[i].Type = tokKeyword
						}
						break
					}
				}
			}
		}
	}
	s.toks = toks
}

func (s *scanner) number(p lexer.Position) error {
	rest := s.src[s.off:]
	n := 0
	isFloat := false
	if strings.HasPrefix(rest, "0x") || strings.HasPrefix(rest, "0X") {
		n = 2
		for n < len(rest) && (isHex(rest[n]) || rest[n] == '_') {
			n++
		}
		if n == 2 {
			return s.errAt(p, false, "invalid hexadecimal literal")
		}
	} else {
		for n < len(rest) && (isDigit(rest[n]) || rest[n] == '_') {
			n++
		}
		if n < len(rest) && rest[n] == '.' && !strings.HasPrefix(rest[n:], "...") &&
			!(n+1 < len(rest) && isIdentStart(rest[n+1:]) && rest[n+1] != 'e' && rest[n+1] != 'E') {
			isFloat = true
			n++
			for n < len(rest) && (isDigit(rest[n]) || rest[n] == '_') {
				n++
			}
		}
		if n < len(rest) && (rest[n] == 'e' || rest[n] == 'E') {
			m := n + 1
			if m < len(rest) && (rest[m] == '+' || rest[m] == '-') {
				m++
			}
			if m < len(rest) && isDigit(rest[m]) {
				for m < len(rest) && isDigit(rest[m]) {
					m++
				}
				n = m
				isFloat = true
			}
		}
	}
	if n < len(rest) && isIdentStart(rest[n:]) {
		return s.errAt(p, false, "invalid numeric literal %q", rest[:n+identLen(rest[n:])])
	}
	text := rest[:n]
	if strings.HasSuffix(text, "_") || strings.Contains(text, "__") {
		return s.errAt(p, false, "invalid numeric literal %q", text)
	}
	s.advance(n)
	if isFloat {
		s.emit(tokFloat, text, p)
	} else {
		s.emit(tokInt, text, p)
	}
	return nil
}

// stringLit scans a quoted literal starting at the quote and returns its raw
// text including quotes. For f-strings, quotes inside {} are nested strings.
func (s *scanner) stringLit(p lexer.Position, kind byte) (string, error) {
	start := s.off
	q := s.src[s.off]
	i := s.off + 1
	depth := 0
	for {
		if i >= len(s.src) {
			return "", s.errAt(p, true, "unterminated string literal")
		}
		c := s.src[i]
		switch {
		case c == '\n':
			return "", s.errAt(p, false, "unterminated string literal")
		case c == '\\':
			i += 2
			continue
		case kind == 'f' && c == '{':
			if depth == 0 && i+1 < len(s.src) && s.src[i+1] == '{' {
				i += 2
				continue
			}
			depth++
		case kind == 'f' && c == '}' && depth > 0:
			depth--
		case kind == 'f' && depth > 0 && (c == '"' || c == '\'') && c != q:
			// a nested string of the other quote kind inside a replacement field
			j := strings.IndexByte(s.src[i+1:], c)
			if j >= 0 {
				i += j + 2
				continue
			}
		case c == q:
			if kind == 'f' && depth > 0 {
				// nested string with the same quote inside a replacement field
				j := strings.IndexByte(s.src[i+1:], q)
				if j >= 0 && !strings.Contains(s.src[i+1:i+1+j], "\n") {
					i += j + 2
					continue
				}
			}
			raw := s.src[start : i+1]
			s.advance(i + 1 - s.off)
			return raw, nil
		}
		i++
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

func identLen(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			n += size
			continue
		}
		break
	}
	return n
}

// unquote decodes a string literal's body (without quotes): \n \t \r \0 \"
// \' \\ \xHH \uHHHH. It returns the offset of a bad escape on error.
func unquote(body string) (string, int, bool) {
	if !strings.Contains(body, "\\") {
		return body, 0, true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(body) {
			return "", i, false
		}
		i++
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '"', '\'', '\\', '{', '}':
			b.WriteByte(body[i])
		case 'x', 'u':
			n := 2
			if body[i] == 'u' {
				n = 4
			}
			if i+n >= len(body)+0 && i+n > len(body)-1+1 {
				return "", i - 1, false
			}
			var r rune
			for k := 1; k <= n; k++ {
				if i+k >= len(body) || !isHex(body[i+k]) {
					return "", i - 1, false
				}
				d := body[i+k]
				switch {
				case isDigit(d):
					r = r*16 + rune(d-'0')
				case d >= 'a':
					r = r*16 + rune(d-'a'+10)
				default:
					r = r*16 + rune(d-'A'+10)
				}
			}
			b.WriteRune(r)
			i += n
		default:
			return "", i - 1, false
		}
	}
	return b.String(), 0, true
}
