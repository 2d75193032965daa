package lang

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/tsrlang/tsr/einsum"
	"github.com/tsrlang/tsr/runtime"
)

// SyntaxError is a lexical, grammatical or compile-time error with its
// source position. Error() prints "file:line:col: message", then the source
// line and a caret under the column.
type SyntaxError struct {
	File string
	Pos  Pos
	Msg  string
	// Line is the text of the offending source line ("" if unknown).
	Line string
	// Incomplete is set when the input ended early (open bracket, brace or
	// string, or a trailing operator): a REPL should read more lines.
	Incomplete bool
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	if e.Line != "" {
		b.WriteString("\n    " + strings.ReplaceAll(e.Line, "\t", " ") + "\n    ")
		if e.Pos.Col > 1 {
			b.WriteString(strings.Repeat(" ", int(e.Pos.Col)-1))
		}
		b.WriteString("^")
	}
	return b.String()
}

// ErrorKind returns "SyntaxError".
func (e *SyntaxError) ErrorKind() string { return "SyntaxError" }

// IsIncomplete reports whether err is a syntax error caused by input that
// ended too early, so that a REPL should ask for another line.
func IsIncomplete(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se) && se.Incomplete
}

func newSyntaxError(src string, p Pos, file string, incomplete bool, format string, args ...any) *SyntaxError {
	e := &SyntaxError{File: file, Pos: p, Msg: fmt.Sprintf(format, args...), Incomplete: incomplete}
	e.Line = sourceLine(src, int(p.Line))
	return e
}

func sourceLine(src string, line int) string {
	if line < 1 {
		return ""
	}
	for i := 1; i < line; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimRight(src, "\r")
}

// Parse parses a tsr source file into its syntax tree. Errors are
// *SyntaxError values; IsIncomplete tells an unfinished input apart.
func Parse(filename, src string) (f *File, err error) {
	toks, err := tokenize(filename, src)
	if err != nil {
		return nil, err
	}
	if f, ok, err := fastParse(filename, src, toks); ok {
		return f, err
	}
	// The fast parser gave up: the input has a syntax error (or is one of
	// the odd inputs only participle accepts), and participle's parse
	// decides the outcome and the message.
	pf, err := parseTokens(fileParser, filename, toks)
	if err != nil {
		if se := diagnoseComp(filename, src, toks, err); se != nil {
			return nil, se
		}
		return nil, convertParseError(filename, src, err)
	}
	lw := &lowerer{file: filename, src: src}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			f, err = nil, se
		}
	}()
	f = &File{Name: filename, Src: src, Stmts: lw.stmts(pf.Stmts)}
	return f, nil
}

// fastParse parses toks with the fast parser, lowering each top-level
// statement as soon as it is parsed so that its parse tree is garbage at
// once. ok is false where the fast parser gives up (Parse then uses
// participle). After a lowering error it parses the rest of the input
// without lowering: a syntax error there takes precedence (the fast parser
// gives up and participle reports it), as it does when the whole file is
// parsed before it is lowered.
func fastParse(filename, src string, toks []token) (f *File, ok bool, err error) {
	if !fastParsable(toks) {
		return nil, false, nil
	}
	lw := &lowerer{file: filename, src: src}
	var stmts []Stmt
	var lowerErr error
	lower := func(s *pStmt) {
		defer func() {
			if r := recover(); r != nil {
				se, ok := r.(*SyntaxError)
				if !ok {
					panic(r)
				}
				lowerErr = se
			}
		}()
		stmts = append(stmts, lw.stmt(s))
	}
	p := &fparser{filename: filename, toks: toks}
	if !p.run(func() {
		p.file(func(s *pStmt) {
			if lowerErr == nil {
				lower(s)
			}
		})
	}) {
		return nil, false, nil
	}
	if lowerErr != nil {
		return nil, true, lowerErr
	}
	if stmts == nil {
		stmts = []Stmt{}
	}
	return &File{Name: filename, Src: src, Stmts: stmts}, true, nil
}

func parseTokens[G any](p *participle.Parser[G], file string, toks []token) (g *G, err error) {
	defer func() {
		// Safety net: participle may panic on grammar corner cases; report
		// them as syntax errors rather than crashing the host.
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("cannot parse this input (%v)", r)
		}
	}()
	pl, err := lexer.Upgrade(&sliceLexer{toks: participleTokens(file, toks)})
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}

func convertParseError(file, src string, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		return se
	}
	var perr participle.Error
	if errors.As(err, &perr) {
		p := perr.Position()
		msg := perr.Message()
		incomplete := false
		var ute *participle.UnexpectedTokenError
		if errors.As(err, &ute) {
			t := ute.Unexpected
			switch {
			case t.EOF():
				incomplete = true
				msg = "unexpected end of input"
			case t.Type == tokSep && t.Value == "\n":
				if p.Offset >= len(strings.TrimRight(src, " \t\r\n")) {
					incomplete = true
				}
				msg = "unexpected newline"
			default:
				msg = fmt.Sprintf("unexpected %s", describeToken(t))
			}
		}
		return newSyntaxError(src, Pos{Line: int32(p.Line), Col: int32(p.Column)}, file, incomplete, "%s", msg)
	}
	return newSyntaxError(src, Pos{Line: 1, Col: 1}, file, false, "%v", err)
}

// diagnoseComp improves participle's error err inside a comprehension's
// clauses. Participle backtracks out of a clause that fails within its
// lookahead and then reports the clause's `for` (or a filter's `if`) as
// unexpected; the fast parser, run over the clauses from the nearest
// `for` before that token, stops at the token actually at fault, which
// is reported instead. It returns nil where it has nothing better.
func diagnoseComp(file, src string, toks []token, err error) *SyntaxError {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) || ute.Unexpected.Type != tokKeyword {
		return nil
	}
	if v := ute.Unexpected.Value; v != "for" && v != "if" {
		return nil
	}
	at := -1
	for i := range toks {
		if int(toks[i].Off) == ute.Unexpected.Pos.Offset && toks[i].Type == tokKeyword {
			at = i
			break
		}
	}
	// the nearest clause `for` at the same bracket depth, after an
	// expression (a for statement follows a newline, ';' or '{')
	start, depth := -1, 0
	for j := at; j > 0 && start < 0; j-- {
		t := &toks[j]
		switch {
		case t.Type == tokPunct && (t.Value == ")" || t.Value == "]" || t.Value == "}"):
			depth++
		case t.Type == tokPunct && (t.Value == "(" || t.Value == "[" || t.Value == "{"):
			if depth == 0 {
				return nil
			}
			depth--
		case depth == 0 && t.Type == tokKeyword && t.Value == "for":
			if prev := &toks[j-1]; prev.Type != tokSep && !(prev.Type == tokPunct && prev.Value == "{") {
				start = j
			}
		}
	}
	if start < 0 {
		return nil
	}
	p := &fparser{filename: file, toks: toks, i: start}
	if p.run(func() { p.compFors() }) || p.i < at {
		return nil
	}
	t := &toks[p.i]
	lt := lexer.Token{Type: lexer.TokenType(t.Type), Value: t.Value, Pos: t.pos(file)}
	return newSyntaxError(src, Pos{Line: t.Line, Col: t.Col}, file, t.Type == tokEOF, "unexpected %s", describeToken(lt))
}

func describeToken(t lexer.Token) string {
	switch t.Type {
	case tokSep:
		if t.Value == ";" {
			return "';'"
		}
		return "newline"
	case tokIdent:
		return "name " + strconv.Quote(t.Value)
	case tokKeyword:
		return "keyword " + strconv.Quote(t.Value)
	case tokString, tokFString, tokEin:
		return "string literal"
	case tokInt, tokFloat:
		return "number " + t.Value
	}
	return strconv.Quote(t.Value)
}

// unquote1 drops the quotes around an f-string or einsum token's text.
func unquote1(raw string) string { return raw[1 : len(raw)-1] }

// ---- lowering: parse tree -> AST ----

type lowerer struct {
	file string
	src  string
	// base shifts positions of an f-string field's sub-parse.
	baseLine, baseCol int32
}

func (lw *lowerer) pos(p lexer.Position) Pos {
	if lw.baseLine != 0 {
		return Pos{Line: lw.baseLine, Col: lw.baseCol + int32(p.Column) - 1}
	}
	return Pos{Line: int32(p.Line), Col: int32(p.Column)}
}

func (lw *lowerer) sp(a, b lexer.Position) span { return span{lw.pos(a), lw.pos(b)} }

func (lw *lowerer) fail(p Pos, format string, args ...any) {
	panic(newSyntaxError(lw.src, p, lw.file, false, format, args...))
}

func (lw *lowerer) stmts(ps []*pStmt) []Stmt {
	out := make([]Stmt, 0, len(ps))
	for _, p := range ps {
		out = append(out, lw.stmt(p))
	}
	return out
}

func (lw *lowerer) block(b *pBlock) []Stmt { return lw.stmts(b.Stmts) }

func (lw *lowerer) stmt(p *pStmt) Stmt {
	switch {
	case p.Fn != nil:
		return lw.funcDef(p.Fn.Name, p.Fn.Params, p.Fn.Body, p.Fn.Pos, p.Fn.EndPos)
	case p.If != nil:
		return lw.ifStmt(p.If)
	case p.For != nil:
		f := p.For
		return &ForStmt{span: lw.sp(f.Pos, f.EndPos), Target: lw.targets(f.Targets), X: lw.expr(f.X), Body: lw.block(f.Body)}
	case p.While != nil:
		return &WhileStmt{span: lw.sp(p.While.Pos, p.While.EndPos), Cond: lw.expr(p.While.Cond), Body: lw.block(p.While.Body)}
	case p.Branch != nil:
		return &BranchStmt{span: lw.sp(p.Branch.Pos, p.Branch.EndPos), Continue: p.Branch.Kw == "continue"}
	case p.Return != nil:
		r := &ReturnStmt{span: lw.sp(p.Return.Pos, p.Return.EndPos)}
		if p.Return.X != nil {
			r.X = lw.exprList(p.Return.X)
		}
		return r
	case p.Try != nil:
		t := p.Try
		return &TryStmt{span: lw.sp(t.Pos, t.EndPos), Body: lw.block(t.Body), Name: t.Name,
			NameP: lw.pos(t.Catch.Pos), Catch: lw.block(t.Catch)}
	case p.Assert != nil:
		a := &AssertStmt{span: lw.sp(p.Assert.Pos, p.Assert.EndPos), Cond: lw.expr(p.Assert.Cond)}
		if p.Assert.Msg != nil {
			a.Msg = lw.expr(p.Assert.Msg)
		}
		return a
	case p.Import != nil:
		path, ok := lw.stringValue(p.Import.Path, lw.pos(p.Import.Pos))
		if !ok {
			lw.fail(lw.pos(p.Import.Pos), "invalid import path")
		}
		return &ImportStmt{span: lw.sp(p.Import.Pos, p.Import.EndPos), Path: path, Name: p.Import.Name}
	case p.Del != nil:
		d := &DelStmt{span: lw.sp(p.Del.Pos, p.Del.EndPos)}
		var add func(x Expr)
		add = func(x Expr) {
			switch x := x.(type) {
			case *Ident, *Index, *Attr:
				d.Targets = append(d.Targets, x)
			case *TupleExpr:
				for _, e := range x.Elems {
					add(e)
				}
			case *ListExpr:
				for _, e := range x.Elems {
					add(e)
				}
			default:
				start, _ := x.Span()
				lw.fail(start, "cannot delete this expression (del takes names, subscripts and attributes)")
			}
		}
		add(lw.exprList(p.Del.X))
		return d
	case p.Block != nil:
		return &BlockStmt{span: lw.sp(p.Block.Pos, p.Block.EndPos), Kind: p.Block.Kind, Body: lw.block(p.Block.Body)}
	case p.Simple != nil:
		s := p.Simple
		if s.Op != "=" && len(s.More) > 0 {
			// a += b = c: CPython's grammar has no such statement
			lw.fail(lw.pos(s.RHS.EndPos), "invalid syntax (an augmented assignment cannot be chained)")
		}
		// the targets, left to right: LHS, then (chained) RHS and each of
		// More but the last, which is the value
		targets := []*pExprList{s.LHS}
		value := s.RHS
		if len(s.More) > 0 {
			targets = append(targets, s.RHS)
			targets = append(targets, s.More[:len(s.More)-1]...)
			value = s.More[len(s.More)-1]
		}
		if s.Op != "" {
			for _, l := range targets {
				if len(l.Elems) == 1 && !l.Trailing && l.Elems[0].Star {
					lw.fail(lw.pos(l.Pos), "starred assignment target must be in a list or tuple")
				}
			}
		}
		lhs := lw.exprList(s.LHS)
		if s.Op == "" {
			return &ExprStmt{span: lw.sp(s.Pos, s.EndPos), X: lhs}
		}
		var more []Expr
		for _, l := range targets[1:] {
			more = append(more, lw.exprList(l))
		}
		a := &AssignStmt{span: lw.sp(s.Pos, s.EndPos), LHS: lhs, More: more, RHS: lw.exprList(value), OpPos: lw.pos(s.LHS.EndPos)}
		if s.Op != "=" {
			a.Aug = true
			a.Op = binaryOps[strings.TrimSuffix(s.Op, "=")].op
			if _, ok := lhs.(*TupleExpr); ok {
				lw.fail(a.OpPos, "augmented assignment to a tuple is not allowed")
			}
		}
		lw.checkTarget(lhs)
		for _, x := range more {
			lw.checkTarget(x)
		}
		return a
	}
	lw.fail(lw.pos(p.Pos), "invalid statement")
	return nil
}

// checkTarget reports an error unless x can be assigned to.
func (lw *lowerer) checkTarget(x Expr) {
	switch x := x.(type) {
	case *Ident, *Index, *Attr:
	case *TupleExpr:
		lw.checkTargets(x.Elems)
	case *ListExpr:
		lw.checkTargets(x.Elems)
	case *Starred:
		lw.fail(x.Start, "starred assignment target must be in a list or tuple")
	default:
		start, _ := x.Span()
		lw.fail(start, "cannot assign to this expression")
	}
}

// checkTargets checks the elements of a tuple or list target: at most one
// of them starred (a, *rest = xs).
func (lw *lowerer) checkTargets(elems []Expr) {
	starred := false
	for _, e := range elems {
		if st, ok := e.(*Starred); ok {
			if starred {
				lw.fail(st.Start, "multiple starred expressions in assignment")
			}
			starred = true
			lw.checkTarget(st.X)
			continue
		}
		lw.checkTarget(e)
	}
}

// targets lowers a for loop's or comprehension's targets: one target, or
// a tuple of several (`for i, v in ...`).
func (lw *lowerer) targets(ts []*pTarget) Expr {
	if len(ts) == 1 {
		x := lw.target(ts[0])
		lw.checkTarget(x)
		return x
	}
	t := &TupleExpr{span: lw.sp(ts[0].Pos, ts[len(ts)-1].EndPos)}
	for _, x := range ts {
		t.Elems = append(t.Elems, lw.target(x))
	}
	lw.checkTarget(t)
	return t
}

func (lw *lowerer) target(t *pTarget) Expr {
	if t.Name != "" {
		sp := lw.sp(t.Pos, t.EndPos)
		if t.Star {
			id := &Ident{span: span{Pos{Line: sp.Start.Line, Col: sp.Start.Col + 1}, sp.End}, Name: t.Name}
			return &Starred{span: sp, X: id}
		}
		return &Ident{span: sp, Name: t.Name}
	}
	tup := &TupleExpr{span: lw.sp(t.Pos, t.EndPos)}
	for _, s := range t.Sub {
		tup.Elems = append(tup.Elems, lw.target(s))
	}
	return tup
}

func (lw *lowerer) ifStmt(p *pIf) *IfStmt {
	s := &IfStmt{span: lw.sp(p.Pos, p.EndPos), Cond: lw.expr(p.Cond), Then: lw.block(p.Then)}
	if p.ElseIf != nil {
		s.Else = []Stmt{lw.ifStmt(p.ElseIf)}
	} else if p.Else != nil {
		s.Else = lw.block(p.Else)
	}
	return s
}

func (lw *lowerer) funcDef(name string, params []*pParam, body *pBlock, start, end lexer.Position) *FuncDef {
	fd := &FuncDef{span: lw.sp(start, end), Name: name, Body: lw.block(body), BodyOpen: lw.pos(body.Pos)}
	seen := map[string]bool{}
	sawDefault, sawStar, sawDStar, sawSlash := false, false, false, false
	for i, p := range params {
		prm := &Param{Pos: lw.pos(p.Pos), Name: p.Name}
		if p.Slash {
			// the / that ends the positional-only parameters (PEP 570)
			switch {
			case p.Default != nil:
				lw.fail(lw.pos(p.Default.Pos), "invalid syntax")
			case sawDStar:
				lw.fail(prm.Pos, "arguments cannot follow var-keyword argument")
			case sawSlash:
				lw.fail(prm.Pos, "/ may appear only once")
			case sawStar:
				lw.fail(prm.Pos, "/ must be ahead of *")
			case len(fd.Params) == 0:
				lw.fail(prm.Pos, "at least one argument must precede /")
			}
			sawSlash = true
			fd.PosOnly = len(fd.Params)
			continue
		}
		switch p.Star {
		case "*":
			prm.Name, prm.Star = p.SName, 1
			if sawStar {
				lw.fail(prm.Pos, "* argument may appear only once")
			}
			if p.Default != nil {
				lw.fail(prm.Pos, "var-positional argument cannot have default value")
			}
			if prm.Name == "" && (i+1 == len(params) || params[i+1].Star != "") {
				lw.fail(prm.Pos, "named arguments must follow bare *")
			}
			sawStar = true
		case "**":
			prm.Name, prm.Star = p.SName, 2
			if prm.Name == "" {
				lw.fail(prm.Pos, "expected a parameter name after '**'")
			}
			if p.Default != nil {
				lw.fail(prm.Pos, "var-keyword argument cannot have default value")
			}
		}
		if sawDStar {
			lw.fail(prm.Pos, "arguments cannot follow var-keyword argument")
		}
		sawDStar = prm.Star == 2
		if prm.Name != "" {
			if seen[prm.Name] {
				lw.fail(prm.Pos, "duplicate parameter %q", prm.Name)
			}
			seen[prm.Name] = true
		}
		if p.Default != nil {
			prm.Default = lw.expr(p.Default)
			sawDefault = true
		} else if sawDefault && prm.Star == 0 && !sawStar {
			lw.fail(prm.Pos, "parameter %q without a default follows a parameter with a default", p.Name)
		}
		fd.Params = append(fd.Params, prm)
	}
	return fd
}

func (lw *lowerer) exprList(p *pExprList) Expr {
	if len(p.Elems) == 1 && !p.Trailing {
		return lw.expr(p.Elems[0])
	}
	t := &TupleExpr{span: lw.sp(p.Pos, p.EndPos)}
	for _, e := range p.Elems {
		t.Elems = append(t.Elems, lw.starExpr(e))
	}
	return t
}

// starExpr lowers an element of a tuple or list display, where *x (a
// Starred) may stand.
func (lw *lowerer) starExpr(p *pExpr) Expr {
	if !p.Star {
		return lw.expr(p)
	}
	x := lw.plainExpr(p)
	_, end := x.Span()
	return &Starred{span: span{lw.pos(p.Pos), end}, X: x}
}

// Binding powers, lowest first (LANGUAGE.md section 4).
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precBitOr
	precXor
	precBitAnd
	precAdd
	precMul
	precUnary
	precPow
)

type binInfo struct {
	op   runtime.Op
	prec int
}

var binaryOps = map[string]binInfo{
	"or": {opOr, precOr}, "and": {opAnd, precAnd},
	"==": {runtime.EQL, precCmp}, "!=": {runtime.NEQ, precCmp}, "<": {runtime.LT, precCmp},
	"<=": {runtime.LE, precCmp}, ">": {runtime.GT, precCmp}, ">=": {runtime.GE, precCmp},
	"in": {runtime.IN, precCmp}, "notin": {opNotIn, precCmp},
	"is": {opIs, precCmp}, "isnot": {opIsNot, precCmp},
	"|": {runtime.PIPE, precBitOr}, "^": {runtime.CIRCUMFLEX, precXor}, "&": {runtime.AMP, precBitAnd},
	"+": {runtime.PLUS, precAdd}, "-": {runtime.MINUS, precAdd},
	"*": {runtime.STAR, precMul}, "/": {runtime.SLASH, precMul}, "//": {runtime.SLASHSLASH, precMul},
	"%": {runtime.PERCENT, precMul}, "@": {runtime.AT, precMul},
	"**": {runtime.STARSTAR, precPow},
}

// pratt resolves the precedence of a flat operand/operator sequence.
type pratt struct {
	lw    *lowerer
	units []*pUnary
	ops   []*pBinary
	i     int // next operand
	k     int // next prefix operator within units[i]
}

func (lw *lowerer) expr(p *pExpr) Expr {
	if p.Star {
		lw.fail(lw.pos(p.Pos), "can't use starred expression here")
	}
	return lw.plainExpr(p)
}

// plainExpr lowers p, ignoring a leading * (see starExpr).
func (lw *lowerer) plainExpr(p *pExpr) Expr {
	x := lw.chain(p.Head, p.Tail)
	if c := p.If; c != nil {
		if c.Else == nil {
			lw.fail(lw.pos(c.EndPos), "expected 'else' after 'if' expression")
		}
		start, _ := x.Span()
		y := lw.expr(c.Else)
		_, end := y.Span()
		x = &CondExpr{span: span{start, end}, X: x, Cond: lw.orTest(c.Cond), Else: y}
	}
	return x
}

// orTest lowers an operator chain without a conditional expression.
func (lw *lowerer) orTest(p *pOrTest) Expr { return lw.chain(p.Head, p.Tail) }

// chain resolves the precedence of an operand/operator sequence.
func (lw *lowerer) chain(head *pUnary, tail []*pBinary) Expr {
	pr := &pratt{lw: lw, units: []*pUnary{head}}
	for _, t := range tail {
		pr.ops = append(pr.ops, t)
		pr.units = append(pr.units, t.X)
	}
	return pr.parse(0)
}

// compFors lowers a comprehension's for clauses.
func (lw *lowerer) compFors(ps []*pCompFor) []*CompFor {
	out := make([]*CompFor, 0, len(ps))
	for _, p := range ps {
		c := &CompFor{span: lw.sp(p.Pos, p.EndPos), Target: lw.targets(p.Targets), X: lw.orTest(p.X)}
		for _, cond := range p.Ifs {
			c.Ifs = append(c.Ifs, lw.orTest(cond))
		}
		out = append(out, c)
	}
	return out
}

// parse parses an operand (with its prefix operators) followed by the
// binary operators that bind at least as tightly as minPrec. units[i] is the
// next operand and ops[i-1] the operator after the last consumed operand.
func (pr *pratt) parse(minPrec int) Expr {
	lw := pr.lw
	u := pr.units[pr.i]
	var left Expr
	if pr.k < len(u.Ops) {
		op := u.Ops[pr.k]
		pr.k++
		start := lw.pos(op.Pos)
		var x Expr
		var uop runtime.Op
		if op.Op == "not" {
			if minPrec > precNot {
				lw.fail(start, "'not' must be parenthesised here")
			}
			uop = runtime.NOT
			x = pr.parse(precNot) // "not not x" nests; comparisons and tighter bind inside
		} else {
			uop = map[string]runtime.Op{"-": runtime.UMINUS, "+": runtime.UPLUS, "~": runtime.TILDE}[op.Op]
			x = pr.parse(precPow)
		}
		_, end := x.Span()
		left = &Unary{span: span{start, end}, Op: uop, X: x}
	} else {
		left = lw.postfix(u.X)
		pr.i++
		pr.k = 0
	}
	chained := false
	for pr.i-1 < len(pr.ops) {
		b := pr.ops[pr.i-1]
		info := binaryOps[b.Op]
		if info.prec < minPrec {
			break
		}
		next := info.prec + 1
		if info.op == runtime.STARSTAR {
			next = precPow // right-associative
		}
		right := pr.parse(next)
		start, _ := left.Span()
		_, end := right.Span()
		if info.prec == precCmp && chained {
			// a < b < c: extend the chain
			c, ok := left.(*Compare)
			if !ok {
				l := left.(*Binary)
				c = &Compare{Ops: []runtime.Op{l.Op}, OpAts: []Pos{l.OpAt}, Operands: []Expr{l.X, l.Y}}
			}
			c.span = span{start, end}
			c.Ops = append(c.Ops, info.op)
			c.OpAts = append(c.OpAts, lw.pos(b.Pos))
			c.Operands = append(c.Operands, right)
			left = c
			continue
		}
		if info.prec == precCmp {
			chained = true
		}
		left = &Binary{span: span{start, end}, Op: info.op, OpAt: lw.pos(b.Pos), X: left, Y: right}
	}
	return left
}

func (lw *lowerer) postfix(p *pPostfix) Expr {
	x := lw.primary(p.X)
	start := lw.pos(p.Pos)
	for _, s := range p.Suffix {
		end := lw.pos(s.EndPos)
		switch {
		case s.Call:
			c := &Call{span: span{start, end}, Fn: x, LParen: lw.pos(s.Pos)}
			seen := map[string]bool{}
			sawDStar := false
			for _, a := range s.Args {
				var v Expr
				if len(a.Comp) > 0 {
					// f(x for x in xs): Python's generator expression,
					// evaluated eagerly into a list
					if len(s.Args) != 1 || a.Name != "" || a.Star != "" {
						lw.fail(lw.pos(a.Pos), "Generator expression must be parenthesized")
					}
					v = &Comprehension{span: span{lw.pos(a.Pos), lw.pos(a.Comp[len(a.Comp)-1].EndPos)}, Elt: lw.expr(a.X), Fors: lw.compFors(a.Comp)}
				} else {
					v = lw.expr(a.X)
				}
				switch {
				case a.Star == "**":
					sawDStar = true
					c.Kwargs = append(c.Kwargs, &Kwarg{Value: v})
				case a.Name != "":
					if seen[a.Name] {
						lw.fail(lw.pos(a.Pos), "keyword argument %q repeated", a.Name)
					}
					seen[a.Name] = true
					c.Kwargs = append(c.Kwargs, &Kwarg{Name: a.Name, Value: v})
				case a.Star == "*":
					if sawDStar {
						lw.fail(lw.pos(a.Pos), "iterable argument unpacking follows keyword argument unpacking")
					}
					_, end := v.Span()
					c.Args = append(c.Args, &Starred{span: span{lw.pos(a.Pos), end}, X: v})
				default:
					if sawDStar {
						lw.fail(lw.pos(a.Pos), "positional argument follows keyword argument unpacking")
					}
					if len(c.Kwargs) > 0 {
						lw.fail(lw.pos(a.Pos), "positional argument follows keyword argument")
					}
					c.Args = append(c.Args, v)
				}
			}
			x = c
		case s.Index:
			var key Expr
			if len(s.Subs) == 1 {
				key = lw.sub(s.Subs[0])
			} else {
				t := &TupleExpr{span: lw.sp(s.Subs[0].Pos, s.Subs[len(s.Subs)-1].EndPos)}
				for _, sub := range s.Subs {
					t.Elems = append(t.Elems, lw.sub(sub))
				}
				key = t
			}
			x = &Index{span: span{start, end}, X: x, Key: key}
		default:
			x = &Attr{span: span{start, end}, X: x, Name: s.Attr}
		}
	}
	return x
}

func (lw *lowerer) sub(s *pSub) Expr {
	sp := lw.sp(s.Pos, s.EndPos)
	switch {
	case s.Ellipsis:
		return &EllipsisExpr{span: sp}
	case s.SColon:
		sl := &SliceExpr{span: sp}
		if s.SHi != nil {
			sl.Hi = lw.expr(s.SHi)
		}
		if s.SStep != nil {
			sl.Step = lw.expr(s.SStep)
		}
		return sl
	case s.Colon:
		sl := &SliceExpr{span: sp}
		if s.Lo != nil {
			sl.Lo = lw.expr(s.Lo)
		}
		if s.Hi != nil {
			sl.Hi = lw.expr(s.Hi)
		}
		if s.Step != nil {
			sl.Step = lw.expr(s.Step)
		}
		return sl
	case s.Lo != nil:
		return lw.expr(s.Lo)
	}
	lw.fail(sp.Start, "empty subscript")
	return nil
}

func (lw *lowerer) stringValue(raw string, p Pos) (string, bool) {
	if len(raw) < 2 {
		return "", false
	}
	s, off, ok := unquote(raw[1 : len(raw)-1])
	if !ok {
		lw.fail(Pos{Line: p.Line, Col: p.Col + 1 + int32(off)}, "invalid escape sequence in string literal")
	}
	return s, true
}

func (lw *lowerer) primary(p *pPrimary) Expr {
	sp := lw.sp(p.Pos, p.EndPos)
	switch {
	case p.Int != nil:
		text := strings.ReplaceAll(*p.Int, "_", "")
		base := 10
		if strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X") {
			text, base = text[2:], 16
		}
		if v, err := strconv.ParseInt(text, base, 64); err == nil {
			return &Literal{span: sp, Value: v}
		}
		bi, ok := new(big.Int).SetString(text, base)
		if !ok {
			lw.fail(sp.Start, "invalid integer literal %s", *p.Int)
		}
		// Out of int64's range: evaluating it raises OverflowError (the
		// compiler folds -9223372036854775808).
		return &Literal{span: sp, Value: bi}
	case p.Float != nil:
		// Like Python's float literals, a literal beyond float64's range is
		// inf (and one below its smallest subnormal is 0.0).
		f, err := strconv.ParseFloat(strings.ReplaceAll(*p.Float, "_", ""), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			lw.fail(sp.Start, "invalid float literal %s", *p.Float)
		}
		return &Literal{span: sp, Value: f}
	case p.Str != nil:
		s, _ := lw.stringValue(*p.Str, sp.Start)
		return &Literal{span: sp, Value: s}
	case p.FStr != nil:
		return lw.fstring(unquote1(*p.FStr), sp)
	case p.Ein != nil:
		eq := unquote1(*p.Ein)
		if _, err := einsum.Parse(eq); err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "einsum") {
				msg = "einsum: " + msg
			}
			lw.fail(sp.Start, "%s", msg)
		}
		return &EinLit{span: sp, Equation: eq}
	case p.Const != "":
		switch p.Const {
		case "true":
			return &Literal{span: sp, Value: true}
		case "false":
			return &Literal{span: sp, Value: false}
		}
		return &Literal{span: sp, Value: nil}
	case p.Lambda != nil:
		fd := lw.funcDef("", p.Lambda.Params, p.Lambda.Body, p.Lambda.Pos, p.Lambda.EndPos)
		return &FuncExpr{span: sp, Func: fd}
	case p.Grad != nil:
		g := &GradExpr{span: sp, WithValue: p.Grad.Kind == "value_and_grad", Body: lw.block(p.Grad.Body)}
		for _, w := range p.Grad.Wrt {
			g.Wrt = append(g.Wrt, lw.expr(w))
		}
		if len(g.Wrt) == 0 {
			lw.fail(sp.Start, "%s block needs at least one value to differentiate with respect to", p.Grad.Kind)
		}
		return g
	case p.Ident != "":
		return &Ident{span: sp, Name: p.Ident}
	case p.Paren != nil:
		pr := p.Paren
		if pr.Comp != nil {
			// (x for x in xs): a generator expression, evaluated eagerly
			return &Comprehension{span: sp, Elt: lw.expr(pr.First), Fors: lw.compFors(pr.Comp)}
		}
		if pr.First != nil && len(pr.More) == 0 && !pr.Comma {
			return lw.expr(pr.First)
		}
		t := &TupleExpr{span: sp}
		if pr.First != nil {
			t.Elems = append(t.Elems, lw.starExpr(pr.First))
		}
		for _, e := range pr.More {
			t.Elems = append(t.Elems, lw.starExpr(e))
		}
		return t
	case p.List != nil:
		if p.List.Comp != nil {
			return &Comprehension{span: sp, Elt: lw.expr(p.List.First), Fors: lw.compFors(p.List.Comp)}
		}
		l := &ListExpr{span: sp}
		if p.List.First != nil {
			l.Elems = append(l.Elems, lw.starExpr(p.List.First))
		}
		for _, e := range p.List.More {
			l.Elems = append(l.Elems, lw.starExpr(e))
		}
		return l
	case p.Dict != nil && p.Dict.First != nil && p.Dict.First.V == nil && !p.Dict.First.DStar:
		if p.Dict.Comp != nil {
			return &Comprehension{span: sp, Set: true, Elt: lw.expr(p.Dict.First.K), Fors: lw.compFors(p.Dict.Comp)}
		}
		set := &SetExpr{span: sp, Elems: []Expr{lw.starExpr(p.Dict.First.K)}}
		for _, e := range p.Dict.More {
			if e.V != nil {
				lw.fail(lw.pos(e.V.Pos), "invalid syntax: a set display has no key: value entries")
			}
			if e.DStar {
				lw.fail(lw.pos(e.Pos), "invalid syntax: a set display cannot unpack a mapping with **")
			}
			set.Elems = append(set.Elems, lw.starExpr(e.K))
		}
		return set
	case p.Dict != nil:
		if p.Dict.Comp != nil {
			if p.Dict.First.DStar {
				lw.fail(lw.pos(p.Dict.First.Pos), "dict unpacking cannot be used in dict comprehension")
			}
			return &Comprehension{span: sp, Dict: true, Key: lw.expr(p.Dict.First.K), Value: lw.expr(p.Dict.First.V),
				Fors: lw.compFors(p.Dict.Comp)}
		}
		d := &DictExpr{span: sp}
		entries := p.Dict.More
		if p.Dict.First != nil {
			entries = append([]*pEntry{p.Dict.First}, entries...)
		}
		for _, e := range entries {
			if e.DStar {
				// **mapping: a nil key, as in CPython's AST
				if e.V != nil {
					lw.fail(lw.pos(e.V.Pos), "invalid syntax")
				}
				d.Keys = append(d.Keys, nil)
				d.Values = append(d.Values, lw.expr(e.K))
				continue
			}
			if e.V == nil {
				lw.fail(lw.pos(e.Pos), "':' expected after dictionary key")
			}
			d.Keys = append(d.Keys, lw.expr(e.K))
			d.Values = append(d.Values, lw.expr(e.V))
		}
		return d
	}
	lw.fail(sp.Start, "invalid expression")
	return nil
}

// fstring splits an f-string body into literal parts and replacement fields
// and parses each field's expression.
func (lw *lowerer) fstring(body string, sp span) Expr {
	fs := &FString{span: sp}
	var lit strings.Builder
	col0 := sp.Start.Col + 2 // after f"
	i := 0
	for i < len(body) {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			lit.WriteString(body[i : i+2])
			i += 2
			continue
		case c == '{' && i+1 < len(body) && body[i+1] == '{':
			lit.WriteByte('{')
			i += 2
			continue
		case c == '}' && i+1 < len(body) && body[i+1] == '}':
			lit.WriteByte('}')
			i += 2
			continue
		case c == '}':
			lw.fail(Pos{Line: sp.Start.Line, Col: col0 + int32(i)}, "f-string: single '}' is not allowed")
		case c == '{':
			// find the end of the field, tracking nesting and strings
			depth, j, colon := 0, i+1, -1
			var quote byte
			for ; j < len(body); j++ {
				d := body[j]
				if quote != 0 {
					if d == quote {
						quote = 0
					}
					continue
				}
				switch d {
				case '"', '\'':
					quote = d
				case '(', '[', '{':
					depth++
				case ')', ']':
					depth--
				case '}':
					depth--
				case ':':
					if depth == 0 && colon < 0 {
						colon = j
					}
				}
				if depth < 0 {
					break
				}
			}
			if j >= len(body) {
				lw.fail(Pos{Line: sp.Start.Line, Col: col0 + int32(i)}, "f-string: expecting '}'")
			}
			exprText, spec := body[i+1:j], ""
			if colon >= 0 {
				exprText, spec = body[i+1:colon], body[colon+1:j]
			}
			// a conversion !r, !s or !a ends the expression ("!=" does not)
			var conv byte
			if n := len(exprText); n >= 2 && exprText[n-2] == '!' && strings.IndexByte("rsa", exprText[n-1]) >= 0 {
				conv, exprText = exprText[n-1], exprText[:n-2]
			}
			// a self-documenting field {expr=} (Python 3.8) prints its own
			// text, "=" and any spaces around it, then the value: its repr
			// unless a conversion or a format spec is given
			var echo string
			if t := strings.TrimRight(exprText, " "); len(t) >= 2 && t[len(t)-1] == '=' && strings.IndexByte("=!<>", t[len(t)-2]) < 0 {
				echo, exprText = exprText, t[:len(t)-1]
				if conv == 0 && spec == "" {
					conv = 'r'
				}
			}
			if lit.Len() > 0 {
				s, off, ok := unquote(lit.String())
				if !ok {
					lw.fail(Pos{Line: sp.Start.Line, Col: col0 + int32(off)}, "invalid escape sequence in f-string")
				}
				fs.Parts = append(fs.Parts, s)
				lit.Reset()
			}
			if echo != "" {
				fs.Parts = append(fs.Parts, echo)
			}
			fieldPos := Pos{Line: sp.Start.Line, Col: col0 + int32(i) + 1}
			if strings.TrimSpace(exprText) == "" {
				lw.fail(fieldPos, "f-string: empty expression not allowed")
			}
			field := &FField{X: lw.fieldExpr(exprText, fieldPos), Conv: conv, Spec: spec}
			if strings.ContainsAny(spec, "{}") {
				// nested replacement fields in the spec: parse it as an f-string body
				specPos := Pos{Line: sp.Start.Line, Col: col0 + int32(colon+1) - 2}
				nested := lw.fstring(spec, span{Start: specPos, End: specPos}).(*FString)
				for _, p := range nested.Parts {
					if f, ok := p.(*FField); ok && f.SpecParts != nil {
						lw.fail(fieldPos, "f-string: expressions nested too deeply")
					}
				}
				field.Spec, field.SpecParts = "", nested.Parts
			}
			fs.Parts = append(fs.Parts, field)
			i = j + 1
			continue
		}
		lit.WriteByte(c)
		i++
	}
	if lit.Len() > 0 {
		s, off, ok := unquote(lit.String())
		if !ok {
			lw.fail(Pos{Line: sp.Start.Line, Col: col0 + int32(off)}, "invalid escape sequence in f-string")
		}
		fs.Parts = append(fs.Parts, s)
	}
	return fs
}

func (lw *lowerer) fieldExpr(text string, at Pos) Expr {
	toks, err := tokenize(lw.file, text)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			lw.fail(Pos{Line: at.Line, Col: at.Col + se.Pos.Col - 1}, "f-string: %s", se.Msg)
		}
		lw.fail(at, "f-string: %v", err)
	}
	pf, ok := fastParseField(lw.file, toks)
	if !ok {
		pf, err = parseTokens(fieldParser, lw.file, toks)
	}
	if err != nil {
		var perr participle.Error
		if errors.As(err, &perr) {
			lw.fail(Pos{Line: at.Line, Col: at.Col + int32(perr.Position().Column) - 1}, "f-string: %s", perr.Message())
		}
		lw.fail(at, "f-string: %v", err)
	}
	sub := &lowerer{file: lw.file, src: lw.src, baseLine: at.Line, baseCol: at.Col}
	return sub.exprList(pf.X)
}
