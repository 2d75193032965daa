package lang

import "github.com/tsrlang/tsr/runtime"

// Pos is a source position: 1-based line and column (in runes).
type Pos = runtime.Pos

// Node is any syntax tree node; Span returns its start and end positions
// (End is just past the last token).
type Node interface {
	Span() (start, end Pos)
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// span is embedded in every node.
type span struct{ Start, End Pos }

// Span returns the node's start and end positions.
func (s span) Span() (Pos, Pos) { return s.Start, s.End }

// File is a parsed source file.
type File struct {
	Name  string
	Src   string
	Stmts []Stmt
}

// ---- expressions ----

type (
	// Ident is a name reference.
	Ident struct {
		span
		Name string
	}
	// Literal is a constant: int64, float64, string, bool or nil (none),
	// or a *big.Int for an integer literal outside int64's range (its
	// evaluation raises OverflowError).
	Literal struct {
		span
		Value any
	}
	// EinLit is an ein"..." literal, already validated.
	EinLit struct {
		span
		Equation string
	}
	// FString is an f"..." literal: Parts is a sequence of literal text
	// (string) and *FField (a self-documenting {expr=} field adds its
	// text as a string part just before its *FField).
	FString struct {
		span
		Parts []any
	}
	// FField is one {expr!conv:spec} replacement field of an f-string.
	// Conv is 0, 'r' (repr), 's' (str) or 'a' (ascii: repr here). A spec
	// with nested fields ({v:>{w}.2f}) has SpecParts (string and *FField,
	// as FString.Parts) and an empty Spec.
	FField struct {
		X         Expr
		Conv      byte
		Spec      string
		SpecParts []any
	}
	// Unary is a prefix operator: -x, +x, ~x, not x.
	Unary struct {
		span
		Op runtime.Op
		X  Expr
	}
	// Binary is x op y; Op is a runtime.Op, or opAnd/opOr/opNotIn/opIs/opIsNot.
	Binary struct {
		span
		Op   runtime.Op
		OpAt Pos
		X, Y Expr
	}
	// Compare is a chained comparison a < b <= c: each operand is
	// evaluated once and the result is the conjunction (Python semantics).
	Compare struct {
		span
		Ops      []runtime.Op
		OpAts    []Pos
		Operands []Expr
	}
	// Call is fn(args, name=value).
	Call struct {
		span
		Fn     Expr
		Args   []Expr
		Kwargs []*Kwarg
		LParen Pos
	}
	// Kwarg is one name=value argument, or with an empty Name a
	// **mapping argument whose items are the keyword arguments.
	Kwarg struct {
		Name  string
		Value Expr
	}
	// Starred is *X: an iterable unpacked into a call's positional
	// arguments (f(*xs)) or into a tuple or list display ([*a, *b]), or
	// the starred target of an assignment (a, *rest = xs).
	Starred struct {
		span
		X Expr
	}
	// Index is x[key] (several subscripts make a *TupleExpr key).
	Index struct {
		span
		X   Expr
		Key Expr
	}
	// SliceExpr is lo:hi:step inside a subscript; absent parts are nil.
	SliceExpr struct {
		span
		Lo, Hi, Step Expr
	}
	// EllipsisExpr is `...` inside a subscript.
	EllipsisExpr struct{ span }
	// Attr is x.name.
	Attr struct {
		span
		X    Expr
		Name string
	}
	// ListExpr is [a, b].
	ListExpr struct {
		span
		Elems []Expr
	}
	// TupleExpr is (a, b), a bare a, b, or a multi-subscript key.
	TupleExpr struct {
		span
		Elems []Expr
	}
	// SetExpr is a set display {a, b} (elements may be *x).
	SetExpr struct {
		span
		Elems []Expr
	}
	// DictExpr is {k: v, ...}. A nil Keys[i] marks a **mapping entry
	// ({**d, "k": v}) whose mapping is Values[i].
	DictExpr struct {
		span
		Keys, Values []Expr
	}
	// CondExpr is the conditional expression `X if Cond else Else`: only
	// the branch chosen is evaluated.
	CondExpr struct {
		span
		X, Cond, Else Expr
	}
	// Comprehension is a list comprehension [Elt for ...] or, with Dict
	// set, a dict comprehension {Key: Value for ...}. It has a scope of its
	// own, as in Python 3: its targets do not leak into the enclosing
	// scope. The first clause's iterable is evaluated in the enclosing
	// scope, everything else in the comprehension's.
	//
	// With Set, it is a set comprehension {Elt for ...}. A generator
	// expression (Elt for ...), outside a call or as a call's only
	// argument, is a list comprehension: tsr evaluates it eagerly.
	Comprehension struct {
		span
		Dict       bool
		Set        bool
		Elt        Expr
		Key, Value Expr
		Fors       []*CompFor
	}
	// CompFor is one `for Target in X if Ifs[0] if Ifs[1] ...` clause of a
	// comprehension; the target unpacks as a for statement's does.
	CompFor struct {
		span
		Target Expr
		X      Expr
		Ifs    []Expr
	}
	// FuncExpr is an anonymous function fn(x) { ... }.
	FuncExpr struct {
		span
		Func *FuncDef
	}
	// GradExpr is grad(w, b) { ... } or value_and_grad(w, b) { ... }.
	GradExpr struct {
		span
		WithValue bool
		Wrt       []Expr
		Body      []Stmt
	}
)

// Operators of Binary beyond runtime.Op's set.
const (
	opAnd   runtime.Op = 100
	opOr    runtime.Op = 101
	opNotIn runtime.Op = 102
	opIs    runtime.Op = 103
	opIsNot runtime.Op = 104
)

func (*Ident) exprNode()         {}
func (*Literal) exprNode()       {}
func (*EinLit) exprNode()        {}
func (*FString) exprNode()       {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*Call) exprNode()          {}
func (*Compare) exprNode()       {}
func (*Index) exprNode()         {}
func (*SliceExpr) exprNode()     {}
func (*EllipsisExpr) exprNode()  {}
func (*Attr) exprNode()          {}
func (*ListExpr) exprNode()      {}
func (*TupleExpr) exprNode()     {}
func (*DictExpr) exprNode()      {}
func (*FuncExpr) exprNode()      {}
func (*CondExpr) exprNode()      {}
func (*Comprehension) exprNode() {}
func (*Starred) exprNode()       {}
func (*SetExpr) exprNode()       {}
func (*GradExpr) exprNode()      {}

// ---- statements ----

type (
	// ExprStmt is an expression evaluated for its value or effect.
	ExprStmt struct {
		span
		X Expr
	}
	// AssignStmt is lhs = rhs, or lhs op= rhs when Op is set (Aug true).
	// A chained assignment lhs = t1 = t2 = rhs has the further targets
	// t1, t2 in More: as in Python, rhs is evaluated once and then stored
	// into LHS and each of More, left to right. More is nil otherwise
	// (always for an augmented assignment).
	AssignStmt struct {
		span
		LHS   Expr
		More  []Expr
		RHS   Expr
		Aug   bool
		Op    runtime.Op
		OpPos Pos
	}
	// FuncDef is fn name(params) { body }; Name is "" for fn expressions.
	FuncDef struct {
		span
		Name   string
		Params []*Param
		// PosOnly is the number of positional-only parameters: those
		// before a / in the parameter list (0 without one).
		PosOnly  int
		Body     []Stmt
		BodyOpen Pos
	}
	// Param is one parameter with an optional default. Star is 1 for
	// *name (Name "" for a bare * before keyword-only parameters), 2 for
	// **name; parameters after a * are keyword-only.
	Param struct {
		Pos     Pos
		Name    string
		Default Expr
		Star    int
	}
	// IfStmt is if cond { } else { }; Else holds a nested *IfStmt for else if.
	IfStmt struct {
		span
		Cond Expr
		Then []Stmt
		Else []Stmt
	}
	// ForStmt is for target in x { }.
	ForStmt struct {
		span
		Target Expr
		X      Expr
		Body   []Stmt
	}
	// WhileStmt is while cond { }.
	WhileStmt struct {
		span
		Cond Expr
		Body []Stmt
	}
	// BranchStmt is break or continue.
	BranchStmt struct {
		span
		Continue bool
	}
	// ReturnStmt is return [x].
	ReturnStmt struct {
		span
		X Expr
	}
	// TryStmt is try { } catch name { }.
	TryStmt struct {
		span
		Body  []Stmt
		Name  string
		NameP Pos
		Catch []Stmt
	}
	// AssertStmt is assert cond[, msg].
	AssertStmt struct {
		span
		Cond Expr
		Msg  Expr
	}
	// ImportStmt is import "path" as name.
	ImportStmt struct {
		span
		Path string
		Name string
	}
	// DelStmt is del x, d[k], l[i:j]: it unbinds names and deletes
	// items of dicts and lists.
	DelStmt struct {
		span
		Targets []Expr
	}
	// BlockStmt is no_grad { } or detect_anomaly { }.
	BlockStmt struct {
		span
		Kind string
		Body []Stmt
	}
)

func (*ExprStmt) stmtNode()   {}
func (*AssignStmt) stmtNode() {}
func (*FuncDef) stmtNode()    {}
func (*IfStmt) stmtNode()     {}
func (*ForStmt) stmtNode()    {}
func (*WhileStmt) stmtNode()  {}
func (*BranchStmt) stmtNode() {}
func (*ReturnStmt) stmtNode() {}
func (*TryStmt) stmtNode()    {}
func (*AssertStmt) stmtNode() {}
func (*ImportStmt) stmtNode() {}
func (*BlockStmt) stmtNode()  {}
func (*DelStmt) stmtNode()    {}
