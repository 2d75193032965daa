package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// This file is tsr's participle grammar: the parse tree types (p*), which
// lower.go turns into the AST. Binary expressions are parsed as a flat
// operand/operator list and given their precedence by a binding-power
// (Pratt) pass during lowering, which keeps the parse tree shallow.

type pFile struct {
	Stmts []*pStmt `parser:"Sep* ( @@ Sep+ )*"`
}

type pStmt struct {
	Pos    lexer.Position
	Fn     *pFnDef     `parser:"@@"`
	If     *pIf        `parser:"| @@"`
	For    *pFor       `parser:"| @@"`
	While  *pWhile     `parser:"| @@"`
	Branch *pBranch    `parser:"| @@"`
	Return *pReturn    `parser:"| @@"`
	Try    *pTry       `parser:"| @@"`
	Assert *pAssert    `parser:"| @@"`
	Import *pImport    `parser:"| @@"`
	Del    *pDel       `parser:"| @@"`
	Block  *pBlockStmt `parser:"| @@"`
	Simple *pSimple    `parser:"| @@"`
}

type pFnDef struct {
	Pos    lexer.Position
	Name   string    `parser:"\"fn\" @Ident"`
	Params []*pParam `parser:"\"(\" ( @@ ( \",\" @@ )* \",\"? )? \")\""`
	Body   *pBlock   `parser:"@@"`
	EndPos lexer.Position
}

// pParam is a parameter: name, name=default, *name (or a bare * before
// keyword-only parameters), **name, or the / that ends the positional-only
// parameters (Slash).
type pParam struct {
	Pos     lexer.Position
	Slash   bool   `parser:"( @\"/\""`
	Star    string `parser:"| @( \"*\" | \"**\" )"`
	SName   string `parser:"  @Ident?"`
	Name    string `parser:"| @Ident )"`
	Default *pExpr `parser:"( \"=\" @@ )?"`
}

type pBlock struct {
	Pos    lexer.Position
	Open   bool     `parser:"@\"{\" Sep*"`
	Stmts  []*pStmt `parser:"( @@ Sep+ )* \"}\""`
	EndPos lexer.Position
}

type pIf struct {
	Pos    lexer.Position
	Cond   *pExpr  `parser:"\"if\" @@"`
	Then   *pBlock `parser:"@@"`
	ElseIf *pIf    `parser:"( \"else\" ( @@"`
	Else   *pBlock `parser:"| @@ ) )?"`
	EndPos lexer.Position
}

type pFor struct {
	Pos     lexer.Position
	Targets []*pTarget `parser:"\"for\" @@ ( \",\" @@ )*"`
	X       *pExpr     `parser:"\"in\" @@"`
	Body    *pBlock    `parser:"@@"`
	EndPos  lexer.Position
}

type pTarget struct {
	Pos    lexer.Position
	Star   bool       `parser:"@\"*\"?"`
	Name   string     `parser:"@Ident"`
	Sub    []*pTarget `parser:"| \"(\" @@ ( \",\" @@ )* \",\"? \")\""`
	EndPos lexer.Position
}

type pWhile struct {
	Pos    lexer.Position
	Cond   *pExpr  `parser:"\"while\" @@"`
	Body   *pBlock `parser:"@@"`
	EndPos lexer.Position
}

type pBranch struct {
	Pos    lexer.Position
	Kw     string `parser:"@(\"break\" | \"continue\")"`
	EndPos lexer.Position
}

type pReturn struct {
	Pos    lexer.Position
	Kw     string     `parser:"@\"return\""`
	X      *pExprList `parser:"@@?"`
	EndPos lexer.Position
}

type pTry struct {
	Pos    lexer.Position
	Body   *pBlock `parser:"\"try\" @@"`
	Name   string  `parser:"\"catch\" @Ident"`
	Catch  *pBlock `parser:"@@"`
	EndPos lexer.Position
}

type pAssert struct {
	Pos    lexer.Position
	Cond   *pExpr `parser:"\"assert\" @@"`
	Msg    *pExpr `parser:"( \",\" @@ )?"`
	EndPos lexer.Position
}

type pImport struct {
	Pos    lexer.Position
	Path   string `parser:"\"import\" @String"`
	Name   string `parser:"\"as\" @Ident"`
	EndPos lexer.Position
}

// pDel is del target, ...
type pDel struct {
	Pos    lexer.Position
	X      *pExprList `parser:"\"del\" @@"`
	EndPos lexer.Position
}

type pBlockStmt struct {
	Pos    lexer.Position
	Kind   string  `parser:"@(\"no_grad\":Keyword | \"detect_anomaly\":Keyword)"`
	Body   *pBlock `parser:"@@"`
	EndPos lexer.Position
}

// pSimple is an expression statement, an assignment lhs = rhs, an
// augmented assignment lhs op= rhs, or a chained assignment a = b = rhs:
// LHS, RHS and then More, the last of them the value (the lowering rejects
// More after an augmented operator, as CPython's grammar does).
type pSimple struct {
	Pos    lexer.Position
	LHS    *pExprList   `parser:"@@"`
	Op     string       `parser:"( @(\"=\" | \"+=\" | \"-=\" | \"*=\" | \"/=\" | \"//=\" | \"%=\" | \"@=\" | \"**=\" | \"&=\" | \"|=\" | \"^=\")"`
	RHS    *pExprList   `parser:"@@"`
	More   []*pExprList `parser:"( \"=\" @@ )* )?"`
	EndPos lexer.Position
}

type pExprList struct {
	Pos      lexer.Position
	Elems    []*pExpr `parser:"@@ ( \",\" @@ )*"`
	Trailing bool     `parser:"@\",\"?"`
	EndPos   lexer.Position
}

// pExpr is an expression: a chain of operands and binary operators,
// optionally the X of a conditional expression `X if cond else y`.
//
// Star marks a starred expression *x: the grammar takes it wherever an
// expression may stand, and the lowering accepts it only in a display or
// an assignment target ("can't use starred expression here", as CPython).
type pExpr struct {
	Pos    lexer.Position
	Star   bool       `parser:"@\"*\"?"`
	Head   *pUnary    `parser:"@@"`
	Tail   []*pBinary `parser:"@@*"`
	If     *pIfElse   `parser:"@@?"`
	EndPos lexer.Position
}

// pOrTest is an operator chain without a conditional expression (Python's
// or_test): the condition of `x if cond else y`, and a comprehension's
// iterable and filters.
type pOrTest struct {
	Pos    lexer.Position
	Head   *pUnary    `parser:"@@"`
	Tail   []*pBinary `parser:"@@*"`
	EndPos lexer.Position
}

// pIfElse is the `if cond else y` of a conditional expression. The grammar
// takes the else part as optional so that its absence is reported by the
// lowering, with one clear message, whichever parser ran.
type pIfElse struct {
	Pos    lexer.Position
	Cond   *pOrTest `parser:"\"if\" @@"`
	Else   *pExpr   `parser:"( \"else\" @@ )?"`
	EndPos lexer.Position
}

// pCompFor is one `for targets in x if cond ...` clause of a comprehension.
type pCompFor struct {
	Pos     lexer.Position
	Targets []*pTarget `parser:"\"for\" @@ ( \",\" @@ )*"`
	X       *pOrTest   `parser:"\"in\" @@"`
	Ifs     []*pOrTest `parser:"( \"if\" @@ )*"`
	EndPos  lexer.Position
}

type pBinary struct {
	Pos lexer.Position
	Op  string  `parser:"@( \"or\" | \"and\" | \"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\" | \"not\" \"in\" | \"in\" | \"is\" \"not\" | \"is\" | \"|\" | \"^\" | \"&\" | \"+\" | \"-\" | \"*\" | \"//\" | \"/\" | \"%\" | \"@\" | \"**\" )"`
	X   *pUnary `parser:"@@"`
}

type pUnary struct {
	Pos    lexer.Position
	Ops    []*pPrefix `parser:"@@*"`
	X      *pPostfix  `parser:"@@"`
	EndPos lexer.Position
}

type pPrefix struct {
	Pos lexer.Position
	Op  string `parser:"@(\"not\" | \"-\" | \"+\" | \"~\")"`
}

type pPostfix struct {
	Pos    lexer.Position
	X      *pPrimary  `parser:"@@"`
	Suffix []*pSuffix `parser:"@@*"`
	EndPos lexer.Position
}

type pSuffix struct {
	Pos    lexer.Position
	Call   bool    `parser:"(  @\"(\""`
	Args   []*pArg `parser:"( @@ ( \",\" @@ )* \",\"? )? \")\""`
	Index  bool    `parser:"| @\"[\""`
	Subs   []*pSub `parser:"@@ ( \",\" @@ )* \",\"? \"]\""`
	Attr   string  `parser:"| \".\" @Ident )"`
	EndPos lexer.Position
}

// pArg is a call argument: an expression, name=expression, *iterable,
// **mapping, or (as the only argument) a generator expression x for x in
// xs (Comp).
type pArg struct {
	Pos  lexer.Position
	Star string      `parser:"( @( \"*\" | \"**\" )"`
	Name string      `parser:"| @Ident \"=\" )?"`
	X    *pExpr      `parser:"@@"`
	Comp []*pCompFor `parser:"@@*"`
}

type pSub struct {
	Pos      lexer.Position
	Ellipsis bool   `parser:"(  @\"...\""`
	Lo       *pExpr `parser:" | @@"`
	Colon    bool   `parser:"   ( @\":\""`
	Hi       *pExpr `parser:"     @@?"`
	Colon2   bool   `parser:"     ( @\":\""`
	Step     *pExpr `parser:"       @@? )? )?"`
	SColon   bool   `parser:" | @\":\""`
	SHi      *pExpr `parser:"   @@?"`
	SColon2  bool   `parser:"   ( @\":\""`
	SStep    *pExpr `parser:"     @@? )? )"`
	EndPos   lexer.Position
}

type pPrimary struct {
	Pos    lexer.Position
	Float  *string  `parser:"@Float"`
	Int    *string  `parser:"| @Int"`
	Str    *string  `parser:"| @String"`
	FStr   *string  `parser:"| @FString"`
	Ein    *string  `parser:"| @Ein"`
	Const  string   `parser:"| @(\"true\" | \"false\" | \"none\")"`
	Lambda *pLambda `parser:"| @@"`
	Grad   *pGrad   `parser:"| @@"`
	Ident  string   `parser:"| @Ident"`
	Paren  *pParen  `parser:"| @@"`
	List   *pList   `parser:"| @@"`
	Dict   *pDict   `parser:"| @@"`
	EndPos lexer.Position
}

type pLambda struct {
	Pos    lexer.Position
	Params []*pParam `parser:"\"fn\" \"(\" ( @@ ( \",\" @@ )* \",\"? )? \")\""`
	Body   *pBlock   `parser:"@@"`
	EndPos lexer.Position
}

type pGrad struct {
	Pos    lexer.Position
	Kind   string   `parser:"@(\"grad\":Keyword | \"value_and_grad\":Keyword)"`
	Wrt    []*pExpr `parser:"\"(\" ( @@ ( \",\" @@ )* \",\"? )? \")\""`
	Body   *pBlock  `parser:"@@"`
	EndPos lexer.Position
}

// pParen is a parenthesised expression, a tuple display (First and More,
// or First and Comma for a 1-tuple) or a generator expression (x for ...)
// (First and Comp).
type pParen struct {
	Pos    lexer.Position
	Open   bool        `parser:"@\"(\""`
	First  *pExpr      `parser:"( @@"`
	Comp   []*pCompFor `parser:"  ( @@+"`
	More   []*pExpr    `parser:"  | ( \",\" @@ )+ \",\"?"`
	Comma  bool        `parser:"  | @\",\" )? )? \")\""`
	EndPos lexer.Position
}

// pList is a list display [a, b] (First and More) or a list
// comprehension [x for ...] (First and Comp).
type pList struct {
	Pos    lexer.Position
	Open   bool        `parser:"@\"[\""`
	First  *pExpr      `parser:"( @@"`
	Comp   []*pCompFor `parser:"  ( @@+"`
	More   []*pExpr    `parser:"  | ( \",\" @@ )+ \",\"? | \",\" )? )? \"]\""`
	EndPos lexer.Position
}

// pDict is a dict display {k: v, ...} (First and More) or a dict
// comprehension {k: v for ...} (First and Comp); without the ": v", a
// set display or comprehension.
type pDict struct {
	Pos    lexer.Position
	Open   bool        `parser:"@\"{\""`
	First  *pEntry     `parser:"( @@"`
	Comp   []*pCompFor `parser:"  ( @@+"`
	More   []*pEntry   `parser:"  | ( \",\" @@ )+ \",\"? | \",\" )? )? \"}\""`
	EndPos lexer.Position
}

// pEntry is a dict display's key: value, **mapping (DStar, V nil), or
// (V nil) a set display's element.
type pEntry struct {
	Pos   lexer.Position
	DStar bool   `parser:"@\"**\"?"`
	K     *pExpr `parser:"@@"`
	V     *pExpr `parser:"( \":\" @@ )?"`
}

// pFieldExpr is the grammar of an f-string replacement field's expression.
type pFieldExpr struct {
	X *pExprList `parser:"@@ Sep*"`
}

var (
	fileParser = participle.MustBuild[pFile](
		participle.Lexer(lexDef{}),
		participle.UseLookahead(3),
	)
	fieldParser = participle.MustBuild[pFieldExpr](
		participle.Lexer(lexDef{}),
		participle.UseLookahead(3),
	)
)
