package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file is a hand-written recursive-descent parser for the grammar in
// grammar.go. It builds the same parse tree (p* types) as the participle
// parser, in time linear in the input and without participle's branching
// and reflection, and it is the parser used first.
//
// It is exact on the inputs it accepts: each choice it makes is the one
// participle makes when that choice succeeds (it matches grammar literals
// by token value, as participle does, and tries alternatives in the
// grammar's order), and it gives up on anything it does not accept rather
// than reporting an error itself. Parse then falls back to the participle
// parser, whose errors (and the rare inputs it accepts by backtracking) are
// therefore unchanged. TestFastParseMatchesParticiple and FuzzFastParse
// check this property.

// fastBail is the panic value with which the fast parser gives up.
type fastBail struct{}

// fparser is the state of one fast parse over a token slice that ends with
// an EOF token.
type fparser struct {
	filename string
	toks     []token
	i        int
}

func (p *fparser) bail() { panic(fastBail{}) }

func (p *fparser) peek() *token { return &p.toks[p.i] }

// peekAt returns the token k places ahead (the final EOF past the end).
func (p *fparser) peekAt(k int) *token {
	j := p.i + k
	if j >= len(p.toks) {
		j = len(p.toks) - 1
	}
	return &p.toks[j]
}

func (p *fparser) pos() lexer.Position { return p.toks[p.i].pos(p.filename) }

func (p *fparser) is(v string) bool { return p.toks[p.i].Value == v }

// advance consumes the current token (never the final EOF).
func (p *fparser) advance() {
	if p.toks[p.i].Type == tokEOF {
		p.bail()
	}
	p.i++
}

// expect consumes a token with value v, as a grammar literal "v" does.
func (p *fparser) expect(v string) {
	if p.toks[p.i].Value != v || p.toks[p.i].Type == tokEOF {
		p.bail()
	}
	p.i++
}

// expectType consumes a token of type typ and returns its value.
func (p *fparser) expectType(typ int32) string {
	t := &p.toks[p.i]
	if t.Type != typ {
		p.bail()
	}
	p.i++
	return t.Value
}

// count bumps a repetition counter: participle fails a group that matches
// MaxIterations times, so the fast parser gives up there too.
func (p *fparser) count(n *int) {
	*n++
	if *n >= participle.MaxIterations {
		p.bail()
	}
}

// seps consumes Sep* and returns how many it consumed.
func (p *fparser) seps() int {
	n := 0
	for p.toks[p.i].Type == tokSep {
		p.count(&n)
		p.i++
	}
	return n
}

// fastParsable reports whether the fast parser may handle toks.
func fastParsable(toks []token) bool {
	// f-string and ein tokens keep their quotes, so no token but an
	// operator, keyword or name can match one of participle's untyped
	// grammar literals.
	return len(toks) > 0 && toks[len(toks)-1].Type == tokEOF
}

// run calls f and reports whether it finished without giving up.
func (p *fparser) run(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(fastBail); !bail {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// file parses pFile, `Sep* ( @@ Sep+ )*` up to EOF, handing each top-level
// statement to each as soon as it is parsed.
func (p *fparser) file(each func(*pStmt)) {
	p.seps()
	n := 0
	for p.peek().Type != tokEOF {
		p.count(&n)
		s := p.stmt()
		if p.seps() == 0 {
			p.bail()
		}
		each(s)
	}
}

// field parses pFieldExpr, `@@ Sep*` up to EOF.
func (p *fparser) field() *pFieldExpr {
	f := &pFieldExpr{X: p.exprList()}
	p.seps()
	if p.peek().Type != tokEOF {
		p.bail()
	}
	return f
}

func (p *fparser) stmt() *pStmt {
	s := &pStmt{Pos: p.pos()}
	t := p.peek()
	switch {
	case t.Value == "fn" && p.peekAt(1).Type == tokIdent:
		s.Fn = p.fnDef()
	case t.Value == "if":
		s.If = p.ifStmt()
	case t.Value == "for":
		s.For = p.forStmt()
	case t.Value == "while":
		w := &pWhile{Pos: p.pos()}
		p.advance()
		w.Cond = p.expr()
		w.Body = p.block()
		w.EndPos = p.pos()
		s.While = w
	case t.Value == "break" || t.Value == "continue":
		s.Branch = &pBranch{Pos: p.pos(), Kw: t.Value}
		p.advance()
		s.Branch.EndPos = p.pos()
	case t.Value == "return":
		r := &pReturn{Pos: p.pos(), Kw: t.Value}
		p.advance()
		if canStartExpr(p.peek()) {
			r.X = p.exprList()
		}
		r.EndPos = p.pos()
		s.Return = r
	case t.Value == "try":
		tr := &pTry{Pos: p.pos()}
		p.advance()
		tr.Body = p.block()
		p.expect("catch")
		tr.Name = p.expectType(tokIdent)
		tr.Catch = p.block()
		tr.EndPos = p.pos()
		s.Try = tr
	case t.Value == "assert":
		a := &pAssert{Pos: p.pos()}
		p.advance()
		a.Cond = p.expr()
		if p.is(",") {
			p.advance()
			a.Msg = p.expr()
		}
		a.EndPos = p.pos()
		s.Assert = a
	case t.Value == "del" && t.Type == tokKeyword:
		d := &pDel{Pos: p.pos()}
		p.advance()
		d.X = p.exprList()
		d.EndPos = p.pos()
		s.Del = d
	case t.Value == "import":
		im := &pImport{Pos: p.pos()}
		p.advance()
		im.Path = p.expectType(tokString)
		p.expect("as")
		im.Name = p.expectType(tokIdent)
		im.EndPos = p.pos()
		s.Import = im
	case t.Type == tokKeyword && (t.Value == "no_grad" || t.Value == "detect_anomaly"):
		b := &pBlockStmt{Pos: p.pos(), Kind: t.Value}
		p.advance()
		b.Body = p.block()
		b.EndPos = p.pos()
		s.Block = b
	default:
		s.Simple = p.simple()
	}
	return s
}

func (p *fparser) fnDef() *pFnDef {
	f := &pFnDef{Pos: p.pos()}
	p.expect("fn")
	f.Name = p.expectType(tokIdent)
	f.Params = p.params()
	f.Body = p.block()
	f.EndPos = p.pos()
	return f
}

// params parses `"(" ( @@ ( "," @@ )* ","? )? ")"` of pParam.
func (p *fparser) params() []*pParam {
	p.expect("(")
	var out []*pParam
	if canStartParam(p.peek()) {
		out = append(out, p.param())
		n := 0
		for p.is(",") && canStartParam(p.peekAt(1)) {
			p.count(&n)
			p.advance()
			out = append(out, p.param())
		}
		if p.is(",") {
			p.advance()
		}
	}
	p.expect(")")
	return out
}

// canStartParam reports whether t begins a pParam: a name, *, ** or /.
func canStartParam(t *token) bool {
	return t.Type == tokIdent || t.Type != tokEOF && (t.Value == "*" || t.Value == "**" || t.Value == "/")
}

func (p *fparser) param() *pParam {
	prm := &pParam{Pos: p.pos()}
	if t := p.peek(); t.Type != tokEOF && t.Value == "/" {
		prm.Slash = true
		p.i++
	} else if t.Type != tokEOF && (t.Value == "*" || t.Value == "**") {
		prm.Star = t.Value
		p.i++
		if p.peek().Type == tokIdent {
			prm.SName = p.peek().Value
			p.i++
		}
	} else {
		prm.Name = p.expectType(tokIdent)
	}
	if p.is("=") {
		p.advance()
		prm.Default = p.expr()
	}
	return prm
}

func (p *fparser) block() *pBlock {
	b := &pBlock{Pos: p.pos()}
	p.expect("{")
	b.Open = true
	p.seps()
	n := 0
	for !p.is("}") {
		p.count(&n)
		b.Stmts = append(b.Stmts, p.stmt())
		if p.seps() == 0 {
			p.bail()
		}
	}
	p.expect("}")
	b.EndPos = p.pos()
	return b
}

func (p *fparser) ifStmt() *pIf {
	s := &pIf{Pos: p.pos()}
	p.expect("if")
	s.Cond = p.expr()
	s.Then = p.block()
	if p.is("else") {
		p.advance()
		if p.is("if") {
			s.ElseIf = p.ifStmt()
		} else {
			s.Else = p.block()
		}
	}
	s.EndPos = p.pos()
	return s
}

func (p *fparser) forStmt() *pFor {
	f := &pFor{Pos: p.pos()}
	p.expect("for")
	f.Targets = append(f.Targets, p.target())
	n := 0
	for p.is(",") {
		p.count(&n)
		p.advance()
		f.Targets = append(f.Targets, p.target())
	}
	p.expect("in")
	f.X = p.expr()
	f.Body = p.block()
	f.EndPos = p.pos()
	return f
}

func (p *fparser) target() *pTarget {
	t := &pTarget{Pos: p.pos()}
	switch {
	case p.is("*") && p.peekAt(1).Type == tokIdent:
		t.Star = true
		t.Name = p.peekAt(1).Value
		p.i += 2
	case p.peek().Type == tokIdent:
		t.Name = p.peek().Value
		p.advance()
	case p.is("("):
		p.advance()
		t.Sub = append(t.Sub, p.target())
		n := 0
		for p.is(",") && (p.peekAt(1).Type == tokIdent || p.peekAt(1).Value == "(" || p.peekAt(1).Value == "*") {
			p.count(&n)
			p.advance()
			t.Sub = append(t.Sub, p.target())
		}
		if p.is(",") {
			p.advance()
		}
		p.expect(")")
	default:
		p.bail()
	}
	t.EndPos = p.pos()
	return t
}

func isAssignOp(v string) bool {
	switch v {
	case "=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=", "&=", "|=", "^=":
		return true
	}
	return false
}

func (p *fparser) simple() *pSimple {
	s := &pSimple{Pos: p.pos(), LHS: p.exprList()}
	if t := p.peek(); t.Type != tokEOF && isAssignOp(t.Value) {
		s.Op = t.Value
		p.advance()
		s.RHS = p.exprList()
		n := 0
		for p.is("=") {
			p.count(&n)
			p.advance()
			s.More = append(s.More, p.exprList())
		}
	}
	s.EndPos = p.pos()
	return s
}

// canStartExpr reports whether t may begin a pExpr (a superset is fine: the
// fast parser then commits to an expression and gives up if it fails).
func canStartExpr(t *token) bool {
	switch t.Type {
	case tokFloat, tokInt, tokString, tokFString, tokEin, tokIdent:
		return true
	case tokEOF:
		return false
	}
	switch t.Value {
	case "not", "-", "+", "~", "true", "false", "none", "fn", "(", "[", "{", "grad", "value_and_grad", "*":
		return true
	}
	return false
}

// canStartArg reports whether t may begin a pArg: an expression or **.
func canStartArg(t *token) bool {
	return canStartExpr(t) || t.Type != tokEOF && t.Value == "**"
}

func (p *fparser) exprList() *pExprList {
	l := &pExprList{Pos: p.pos()}
	l.Elems, l.Trailing = sepList(p, canStartExpr, p.expr)
	l.EndPos = p.pos()
	return l
}

// optExpr parses an expression if one starts here (the grammar's `@@?`),
// else returns nil.
func (p *fparser) optExpr() *pExpr {
	if canStartExpr(p.peek()) {
		return p.expr()
	}
	return nil
}

// sepList parses the grammar's `@@ ("," @@)* ","?`: an item, then one more
// after each comma followed by a token canStart accepts, and reports
// whether a trailing comma ended the list.
func sepList[T any](p *fparser, canStart func(*token) bool, item func() T) ([]T, bool) {
	out := []T{item()}
	n := 0
	for p.is(",") && canStart(p.peekAt(1)) {
		p.count(&n)
		p.advance()
		out = append(out, item())
	}
	if p.is(",") {
		p.advance()
		return out, true
	}
	return out, false
}

// binaryOp returns the operator at the current token ("notin" for the two
// tokens `not in`) and how many tokens it spans, or 0.
func (p *fparser) binaryOp() (string, int) {
	t := p.peek()
	switch t.Value {
	case "or", "and", "==", "!=", "<=", ">=", "<", ">", "in", "|", "^", "&", "+", "-", "*", "//", "/", "%", "@", "**":
		if t.Type != tokEOF {
			return t.Value, 1
		}
	case "not":
		if p.peekAt(1).Value == "in" {
			return "notin", 2
		}
	case "is":
		if p.peekAt(1).Value == "not" {
			return "isnot", 2
		}
		return "is", 1
	}
	return "", 0
}

// chain parses the grammar's `@@ @@*` of pUnary and pBinary.
func (p *fparser) chain() (*pUnary, []*pBinary) {
	head := p.unary()
	var tail []*pBinary
	n := 0
	for {
		op, k := p.binaryOp()
		if k == 0 {
			break
		}
		p.count(&n)
		b := &pBinary{Pos: p.pos(), Op: op}
		p.i += k
		b.X = p.unary()
		tail = append(tail, b)
	}
	return head, tail
}

func (p *fparser) expr() *pExpr {
	e := &pExpr{Pos: p.pos()}
	if p.is("*") {
		e.Star = true
		p.i++
	}
	e.Head, e.Tail = p.chain()
	if p.is("if") {
		c := &pIfElse{Pos: p.pos()}
		p.advance()
		c.Cond = p.orTest()
		if p.is("else") {
			p.advance()
			c.Else = p.expr()
		}
		c.EndPos = p.pos()
		e.If = c
	}
	e.EndPos = p.pos()
	return e
}

func (p *fparser) orTest() *pOrTest {
	e := &pOrTest{Pos: p.pos()}
	e.Head, e.Tail = p.chain()
	e.EndPos = p.pos()
	return e
}

// compFors parses pCompFor+ (at least one: the current token is "for").
func (p *fparser) compFors() []*pCompFor {
	var out []*pCompFor
	n := 0
	for p.is("for") {
		p.count(&n)
		c := &pCompFor{Pos: p.pos()}
		p.advance()
		c.Targets = append(c.Targets, p.target())
		m := 0
		for p.is(",") {
			p.count(&m)
			p.advance()
			c.Targets = append(c.Targets, p.target())
		}
		p.expect("in")
		c.X = p.orTest()
		m = 0
		for p.is("if") {
			p.count(&m)
			p.advance()
			c.Ifs = append(c.Ifs, p.orTest())
		}
		c.EndPos = p.pos()
		out = append(out, c)
	}
	return out
}

// moreItems parses the grammar's `( "," @@ )* ","?` after a display's
// first item.
func moreItems[T any](p *fparser, canStart func(*token) bool, item func() T) []T {
	var out []T
	n := 0
	for p.is(",") && canStart(p.peekAt(1)) {
		p.count(&n)
		p.advance()
		out = append(out, item())
	}
	if p.is(",") {
		p.advance()
	}
	return out
}

func (p *fparser) unary() *pUnary {
	u := &pUnary{Pos: p.pos()}
	n := 0
	for {
		t := p.peek()
		if t.Value != "not" && t.Value != "-" && t.Value != "+" && t.Value != "~" {
			break
		}
		p.count(&n)
		u.Ops = append(u.Ops, &pPrefix{Pos: t.pos(p.filename), Op: t.Value})
		p.i++
	}
	u.X = p.postfix()
	u.EndPos = p.pos()
	return u
}

func (p *fparser) postfix() *pPostfix {
	x := &pPostfix{Pos: p.pos(), X: p.primary()}
	n := 0
	for {
		var s *pSuffix
		switch {
		case p.is("("):
			s = &pSuffix{Pos: p.pos(), Call: true}
			p.advance()
			if canStartArg(p.peek()) {
				s.Args, _ = sepList(p, canStartArg, p.arg)
			}
			p.expect(")")
		case p.is("["):
			s = &pSuffix{Pos: p.pos(), Index: true}
			p.advance()
			s.Subs, _ = sepList(p, canStartSub, p.sub)
			p.expect("]")
		case p.is("."):
			s = &pSuffix{Pos: p.pos()}
			p.advance()
			s.Attr = p.expectType(tokIdent)
		}
		if s == nil {
			break
		}
		p.count(&n)
		s.EndPos = p.pos()
		x.Suffix = append(x.Suffix, s)
	}
	x.EndPos = p.pos()
	return x
}

func (p *fparser) arg() *pArg {
	a := &pArg{Pos: p.pos()}
	if t := p.peek(); t.Type != tokEOF && (t.Value == "*" || t.Value == "**") {
		a.Star = t.Value
		p.i++
	} else if p.peek().Type == tokIdent && p.peekAt(1).Value == "=" {
		a.Name = p.peek().Value
		p.i += 2
	}
	a.X = p.expr()
	if p.is("for") {
		a.Comp = p.compFors()
	}
	return a
}

func canStartSub(t *token) bool {
	return canStartExpr(t) || (t.Type != tokEOF && (t.Value == "..." || t.Value == ":"))
}

func (p *fparser) sub() *pSub {
	s := &pSub{Pos: p.pos()}
	switch {
	case p.is("..."):
		p.advance()
		s.Ellipsis = true
	case canStartExpr(p.peek()):
		s.Lo = p.expr()
		if p.is(":") {
			p.advance()
			s.Colon = true
			s.Hi = p.optExpr()
			if p.is(":") {
				p.advance()
				s.Colon2 = true
				s.Step = p.optExpr()
			}
		}
	case p.is(":"):
		p.advance()
		s.SColon = true
		s.SHi = p.optExpr()
		if p.is(":") {
			p.advance()
			s.SColon2 = true
			s.SStep = p.optExpr()
		}
	default:
		p.bail()
	}
	s.EndPos = p.pos()
	return s
}

// exprs parses `( @@ ( "," @@ )* ","? )?` of pExpr and reports whether it
// ended with a comma.
func (p *fparser) exprs() ([]*pExpr, bool) {
	if !canStartExpr(p.peek()) {
		return nil, false
	}
	return sepList(p, canStartExpr, p.expr)
}

func (p *fparser) primary() *pPrimary {
	x := &pPrimary{Pos: p.pos()}
	t := p.peek()
	v := t.Value
	switch {
	case t.Type == tokFloat:
		x.Float = &v
		p.i++
	case t.Type == tokInt:
		x.Int = &v
		p.i++
	case t.Type == tokString:
		x.Str = &v
		p.i++
	case t.Type == tokFString:
		x.FStr = &v
		p.i++
	case t.Type == tokEin:
		x.Ein = &v
		p.i++
	case t.Type == tokEOF:
		p.bail()
	case v == "true" || v == "false" || v == "none":
		x.Const = v
		p.i++
	case v == "fn":
		l := &pLambda{Pos: p.pos()}
		p.advance()
		l.Params = p.params()
		l.Body = p.block()
		l.EndPos = p.pos()
		x.Lambda = l
	case t.Type == tokKeyword && (v == "grad" || v == "value_and_grad"):
		g := &pGrad{Pos: p.pos(), Kind: v}
		p.advance()
		p.expect("(")
		g.Wrt, _ = p.exprs()
		p.expect(")")
		g.Body = p.block()
		g.EndPos = p.pos()
		x.Grad = g
	case t.Type == tokIdent:
		x.Ident = v
		p.i++
	case v == "(":
		pr := &pParen{Pos: p.pos(), Open: true}
		p.advance()
		if canStartExpr(p.peek()) {
			pr.First = p.expr()
			if p.is("for") {
				pr.Comp = p.compFors()
			} else {
				pr.More = moreItems(p, canStartExpr, p.expr)
				if pr.More == nil && p.toks[p.i-1].Value == "," {
					pr.Comma = true
				}
			}
		}
		p.expect(")")
		pr.EndPos = p.pos()
		x.Paren = pr
	case v == "[":
		l := &pList{Pos: p.pos(), Open: true}
		p.advance()
		if canStartExpr(p.peek()) {
			l.First = p.expr()
			if p.is("for") {
				l.Comp = p.compFors()
			} else {
				l.More = moreItems(p, canStartExpr, p.expr)
			}
		}
		p.expect("]")
		l.EndPos = p.pos()
		x.List = l
	case v == "{":
		d := &pDict{Pos: p.pos(), Open: true}
		p.advance()
		if canStartEntry(p.peek()) {
			d.First = p.entry()
			if p.is("for") {
				d.Comp = p.compFors()
			} else {
				d.More = moreItems(p, canStartEntry, p.entry)
			}
		}
		p.expect("}")
		d.EndPos = p.pos()
		x.Dict = d
	default:
		p.bail()
	}
	x.EndPos = p.pos()
	return x
}

// canStartEntry reports whether t may begin a pEntry: an expression or **.
func canStartEntry(t *token) bool {
	return canStartExpr(t) || t.Type != tokEOF && t.Value == "**"
}

func (p *fparser) entry() *pEntry {
	e := &pEntry{Pos: p.pos()}
	if t := p.peek(); t.Type != tokEOF && t.Value == "**" {
		e.DStar = true
		p.i++
	}
	e.K = p.expr()
	if p.is(":") {
		p.advance()
		e.V = p.expr()
	}
	return e
}

// fastParseFile parses toks into a pFile with the fast parser; ok is false
// where it gives up.
func fastParseFile(file string, toks []token) (f *pFile, ok bool) {
	if !fastParsable(toks) {
		return nil, false
	}
	p := &fparser{filename: file, toks: toks}
	f = &pFile{}
	ok = p.run(func() { p.file(func(s *pStmt) { f.Stmts = append(f.Stmts, s) }) })
	return f, ok
}

// fastParseField parses an f-string field's tokens with the fast parser.
func fastParseField(file string, toks []token) (f *pFieldExpr, ok bool) {
	if !fastParsable(toks) {
		return nil, false
	}
	p := &fparser{filename: file, toks: toks}
	ok = p.run(func() { f = p.field() })
	return f, ok
}
