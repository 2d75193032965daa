package lang

import (
	"fmt"

	"github.com/tsrlang/tsr/runtime"
)

// The attention idiom. Scaled dot-product attention written out as
//
//	scores = ein"bhid,bhjd->bhij"(q, k) * s
//	probs = softmax(scores, dim=-1)
//	out = ein"bhij,bhjd->bhid"(probs, v)
//
// (or nested in one expression) materialises two [B, H, L, S] tensors
// that only feed the next operation. When scores and probs are locals of
// a function that nothing else reads (or globals of a script that nothing
// else mentions, CompileScript), or the operations are nested, the
// compiler emits an ATTN guard before the code as written:
//
//	TRY_BEGIN catch
//	  <desc> <q> <k> <s> <softmax> <dim> <v>
//	  ATTN fallback        ; the stdlib hook runs it fused, or declines
//	TRY_END
//	JMP done
//	fallback: TRY_END
//	JMP unfused
//	catch: POP             ; an operand failed: the code as written reports it
//	unfused: <the statements or expression as written>
//	done:
//
// The hook (Thread.Attention) runs it only when the fused result is the
// unfused one bit for bit (tensor.SoftmaxAttention), so the rewrite
// changes speed and memory only; every other case (another function
// bound to softmax, autograd, other shapes or dtypes, errors) runs the
// code as written. The operands must be pureOperands, evaluated twice at
// most and without effects (TorchInductor's fuse_attention pattern does
// the same rewrite on graphs).

// attnMatch is one occurrence of the idiom.
type attnMatch struct {
	eqScores, eqOut string
	a, b, s, c      Expr
	op              runtime.Op // STAR or SLASH with s; 0 without
	softmax         Expr       // the function called; nil for x.softmax(dim)
	dim             Expr
	at              Node // position of the guard
}

// matchEinsum2 matches ein"eq"(x, y) with pure operands.
func matchEinsum2(e Expr) (eq string, x, y Expr, ok bool) {
	c, isCall := e.(*Call)
	if !isCall || len(c.Args) != 2 || len(c.Kwargs) != 0 || hasStarred(c.Args) {
		return "", nil, nil, false
	}
	el, isEin := c.Fn.(*EinLit)
	if !isEin {
		return "", nil, nil, false
	}
	return el.Equation, c.Args[0], c.Args[1], true
}

// matchScores fills m from the scores: ein"eq"(a, b) or a @ bᵀ, times or
// divided by s or not. bᵀ is b.transpose(d0, d1) (int literals), b.mT
// or b.T; the hook checks that it swaps the last two dims. The matmul
// form is described by an "equation" starting with "@T": "@T<d0>,<d1>"
// or "@Tall" (.T, all dims reversed).
func matchScores(e Expr, m *attnMatch) bool {
	if bin, ok := e.(*Binary); ok && (bin.Op == runtime.STAR || bin.Op == runtime.SLASH) {
		if !pureOperand(bin.Y) {
			return false
		}
		m.s, m.op, e = bin.Y, bin.Op, bin.X
	}
	if eq, a, b, ok := matchEinsum2(e); ok {
		if !pureOperand(a) || !pureOperand(b) {
			return false
		}
		m.eqScores, m.a, m.b = eq, a, b
		return true
	}
	bin, ok := e.(*Binary)
	if !ok || bin.Op != runtime.AT || !pureOperand(bin.X) {
		return false
	}
	b, eq, ok := matchTransposed(bin.Y)
	if !ok || !pureOperand(b) {
		return false
	}
	m.eqScores, m.a, m.b = eq, bin.X, b
	return true
}

// matchTransposed matches b.transpose(d0, d1) with int literal dims, b.mT
// and b.T, returning b and the scores "equation" (see matchScores).
func matchTransposed(e Expr) (b Expr, eq string, ok bool) {
	switch e := e.(type) {
	case *Attr:
		switch e.Name {
		case "mT":
			return e.X, "@T-2,-1", true
		case "T":
			return e.X, "@Tall", true
		}
	case *Call:
		at, isAttr := e.Fn.(*Attr)
		if !isAttr || at.Name != "transpose" || len(e.Args) != 2 || len(e.Kwargs) != 0 {
			return nil, "", false
		}
		d0, ok0 := intLiteral(e.Args[0])
		d1, ok1 := intLiteral(e.Args[1])
		if ok0 && ok1 {
			return at.X, fmt.Sprintf("@T%d,%d", d0, d1), true
		}
	}
	return nil, "", false
}

// intLiteral returns the value of an int literal, negated or not.
func intLiteral(e Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*Unary); ok && u.Op == runtime.UMINUS {
		neg, e = true, u.X
	}
	l, ok := e.(*Literal)
	if !ok {
		return 0, false
	}
	v, ok := l.Value.(int64)
	if neg {
		v = -v
	}
	return v, ok
}

// matchOutput matches the output product: ein"eq"(x, y), or x @ y with
// the equation "@".
func matchOutput(e Expr) (eq string, x, y Expr, ok bool) {
	if bin, isBin := e.(*Binary); isBin && bin.Op == runtime.AT {
		return "@", bin.X, bin.Y, true
	}
	return matchEinsum2(e)
}

// matchSoftmax matches softmax(x, d), softmax(x, dim=d), mod.softmax(x, d)
// and x.softmax(d) (d pure; dim= accepted in every form), returning x.
func matchSoftmax(e Expr, m *attnMatch) (x Expr, ok bool) {
	c, isCall := e.(*Call)
	if !isCall || len(c.Kwargs) > 1 || len(c.Kwargs) == 1 && c.Kwargs[0].Name != "dim" {
		return nil, false
	}
	args := c.Args
	switch fn := c.Fn.(type) {
	case *Ident:
		if fn.Name != "softmax" {
			return nil, false
		}
		m.softmax = fn
	case *Attr:
		if fn.Name != "softmax" {
			return nil, false
		}
		if len(c.Args)+len(c.Kwargs) == 1 { // x.softmax(d)
			m.softmax, args = nil, append([]Expr{fn.X}, c.Args...)
		} else if _, isIdent := fn.X.(*Ident); isIdent { // nn.softmax(x, d)
			m.softmax = fn
		} else {
			return nil, false
		}
	default:
		return nil, false
	}
	switch {
	case len(args) == 2 && len(c.Kwargs) == 0:
		m.dim = args[1]
	case len(args) == 1 && len(c.Kwargs) == 1:
		m.dim = c.Kwargs[0].Value
	default:
		return nil, false
	}
	if !pureOperand(m.dim) {
		return nil, false
	}
	return args[0], true
}

// matchNested matches the idiom as one expression:
// ein"…"(softmax(ein"…"(a, b) * s, dim), c), softmax(a @ b.mT * s, dim) @ c
// and the mixtures. The probabilities must be the output product's first
// operand: ein"bhjd,bhij->bhid"(v, p) is a transposed view of a product
// with v as the GEMM's A, which the fused kernel does not reproduce.
func matchNested(e Expr) (*attnMatch, bool) {
	m := &attnMatch{at: e}
	eq, probs, c, ok := matchOutput(e)
	if !ok || !pureOperand(c) {
		return nil, false
	}
	m.eqOut, m.c = eq, c
	scores, ok := matchSoftmax(probs, m)
	if !ok || !matchScores(scores, m) {
		return nil, false
	}
	return m, true
}

// stmtValue returns the expression whose value a statement consumes:
// an expression statement's, a plain assignment's right-hand side, a
// return's value.
func stmtValue(st Stmt) Expr {
	switch st := st.(type) {
	case *ExprStmt:
		return st.X
	case *AssignStmt:
		if !st.Aug && len(st.More) == 0 {
			return st.RHS
		}
	case *ReturnStmt:
		return st.X
	}
	return nil
}

// matchAt matches the idiom over the statements starting sts: three
// (x = scores; y = softmax(x, dim); <stmt consuming the product of y>)
// or two (x = scores; <stmt consuming the product of softmax(x, dim)>,
// or y = softmax(scores, dim); <stmt consuming the product of y>). It
// returns the match and how many statements it spans.
func (fc *fcomp) matchAt(sts []Stmt) (*attnMatch, int, bool) {
	for n := 3; n >= 2; n-- {
		if len(sts) >= n {
			if m, ok := fc.matchStmts(sts[:n]); ok {
				return m, n, true
			}
		}
	}
	return nil, 0, false
}

// matchStmts matches the idiom spread over exactly the statements sts of
// a function body (or of a script's top level, CompileScript): each but
// the last assigns a name that only the next step reads (the softmax's
// argument, the output product's probabilities), and those names are
// dead everywhere else.
func (fc *fcomp) matchStmts(sts []Stmt) (*attnMatch, bool) {
	if fc.fnBody == nil || len(sts) < 2 {
		return nil, false
	}
	defs := make([]*AssignStmt, len(sts)-1)
	for k, st := range sts[:len(sts)-1] {
		a, ok := st.(*AssignStmt)
		if !ok || a.Aug || len(a.More) > 0 {
			return nil, false
		}
		if _, ok := a.LHS.(*Ident); !ok {
			return nil, false
		}
		defs[k] = a
	}
	e := stmtValue(sts[len(sts)-1])
	if e == nil {
		return nil, false
	}
	m := &attnMatch{at: sts[0]}
	eq, probs, c, ok := matchOutput(e)
	if !ok || !pureOperand(c) {
		return nil, false
	}
	m.eqOut, m.c = eq, c
	// resolve replaces a reference to the latest unused definition by its
	// right-hand side
	next := len(defs) - 1
	resolve := func(x Expr) Expr {
		if next >= 0 && isIdentNamed(x, defs[next].LHS.(*Ident).Name) {
			x = defs[next].RHS
			next--
		}
		return x
	}
	scores, ok := matchSoftmax(resolve(probs), m)
	if !ok {
		return nil, false
	}
	if !matchScores(resolve(scores), m) || next != -1 {
		return nil, false
	}
	// The defined names must be plain locals (not parameters, not
	// captured) that appear nowhere in the function but in their
	// definition and the one read above (a name defined twice counts
	// both).
	want := map[string]int{}
	for _, d := range defs {
		n := d.LHS.(*Ident).Name
		want[n] += 2
		if fc.scope.top {
			continue // a script's globals (CompileScript): countName decides
		}
		i, ok := fc.scope.localIdx[n]
		if !ok || fc.scope.cells[i] || i < fc.fn.NumParams {
			return nil, false
		}
	}
	for n, w := range want {
		if countName(fc.fnBody, n) != w {
			return nil, false
		}
	}
	return m, true
}

func isIdentNamed(e Expr, name string) bool {
	id, ok := e.(*Ident)
	return ok && id.Name == name
}

// attn emits the ATTN guard for m; unfused compiles the code as written,
// leaving the value the idiom's output einsum produces on the stack.
func (fc *fcomp) attn(m *attnMatch, unfused func()) {
	fc.at(m.at)
	h := fc.emit0(runtime.TRY_BEGIN)
	flags := int64(m.op)
	if m.softmax == nil {
		flags |= runtime.AttnMethodSoftmax
	}
	fc.constant(runtime.Tuple{runtime.String(m.eqScores), runtime.String(m.eqOut), runtime.Int(flags)})
	for _, e := range []Expr{m.a, m.b, m.s, m.softmax, m.dim, m.c} {
		if e == nil {
			fc.emit0(runtime.NONE)
		} else {
			fc.expr(e)
		}
	}
	fc.at(m.at)
	decline := fc.emit0(runtime.ATTN) // on success: the operands replaced by the result
	fc.emit0(runtime.TRY_END)
	done := fc.emit0(runtime.JMP)
	fc.depth-- // the other paths start without the result
	fc.patch(decline)
	fc.emit0(runtime.TRY_END)
	toUnfused := fc.emit0(runtime.JMP)
	fc.patch(h)
	fc.depth++ // the error value pushed by the VM
	fc.emit0(runtime.POP)
	fc.patch(toUnfused)
	unfused()
	fc.patch(done)
}

// countName counts the occurrences of name in stmts, nested function
// bodies included: references, assignment targets, parameters, function,
// catch and import names.
func countName(stmts []Stmt, name string) int {
	n := 0
	walkStmts(stmts, func(nd Node) bool {
		switch nd := nd.(type) {
		case *Ident:
			if nd.Name == name {
				n++
			}
		case *FuncDef:
			if nd.Name == name {
				n++
			}
			for _, p := range nd.Params {
				if p.Name == name {
					n++
				}
			}
		case *TryStmt:
			if nd.Name == name {
				n++
			}
		case *ImportStmt:
			if nd.Name == name {
				n++
			}
		}
		return true
	})
	return n
}
