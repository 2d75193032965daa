package lang

// walkStmts calls f for each statement of stmts in order and for every
// node inside it (expressions and nested statements), in evaluation
// order: an assignment's right-hand side before its target, a for loop's
// iterable before its target and body, a call's function before its
// arguments and keyword values. A function definition or literal is
// visited as its *FuncDef (the literal's *FuncExpr first), then its
// parameters' defaults and its body, unless f returns false for it (or
// for any node: its children are then skipped). Names that are not
// *Ident nodes (parameters, function, catch and import names) are read
// from the node that declares them.
func walkStmts(stmts []Stmt, f func(Node) bool) {
	for _, st := range stmts {
		walkStmt(st, f)
	}
}

func walkStmt(st Stmt, f func(Node) bool) {
	if !f(st) {
		return
	}
	switch st := st.(type) {
	case *ExprStmt:
		walkExpr(st.X, f)
	case *AssignStmt:
		walkExpr(st.RHS, f)
		walkExpr(st.LHS, f)
		for _, x := range st.More {
			walkExpr(x, f)
		}
	case *FuncDef:
		walkFunc(st, f)
	case *IfStmt:
		walkExpr(st.Cond, f)
		walkStmts(st.Then, f)
		walkStmts(st.Else, f)
	case *ForStmt:
		walkExpr(st.X, f)
		walkExpr(st.Target, f)
		walkStmts(st.Body, f)
	case *WhileStmt:
		walkExpr(st.Cond, f)
		walkStmts(st.Body, f)
	case *ReturnStmt:
		walkExpr(st.X, f)
	case *TryStmt:
		walkStmts(st.Body, f)
		walkStmts(st.Catch, f)
	case *AssertStmt:
		walkExpr(st.Cond, f)
		walkExpr(st.Msg, f)
	case *BlockStmt:
		walkStmts(st.Body, f)
	case *DelStmt:
		for _, x := range st.Targets {
			walkExpr(x, f)
		}
	case *BranchStmt, *ImportStmt:
	default:
		panic("lang: walk of an unknown statement")
	}
}

// walkFunc walks a function's parameter defaults and body (fd itself
// was visited by the caller).
func walkFunc(fd *FuncDef, f func(Node) bool) {
	for _, p := range fd.Params {
		walkExpr(p.Default, f)
	}
	walkStmts(fd.Body, f)
}

func walkExpr(x Expr, f func(Node) bool) {
	if x == nil || !f(x) {
		return
	}
	field := func(fl *FField) {
		walkExpr(fl.X, f)
		for _, q := range fl.SpecParts {
			if g, ok := q.(*FField); ok {
				walkExpr(g.X, f)
			}
		}
	}
	switch x := x.(type) {
	case *Ident, *Literal, *EinLit, *EllipsisExpr:
	case *FString:
		for _, p := range x.Parts {
			if fl, ok := p.(*FField); ok {
				field(fl)
			}
		}
	case *Unary:
		walkExpr(x.X, f)
	case *Binary:
		walkExpr(x.X, f)
		walkExpr(x.Y, f)
	case *Compare:
		for _, e := range x.Operands {
			walkExpr(e, f)
		}
	case *Call:
		walkExpr(x.Fn, f)
		for _, a := range x.Args {
			walkExpr(a, f)
		}
		for _, kw := range x.Kwargs {
			walkExpr(kw.Value, f)
		}
	case *Index:
		walkExpr(x.X, f)
		walkExpr(x.Key, f)
	case *SliceExpr:
		walkExpr(x.Lo, f)
		walkExpr(x.Hi, f)
		walkExpr(x.Step, f)
	case *Attr:
		walkExpr(x.X, f)
	case *Starred:
		walkExpr(x.X, f)
	case *ListExpr:
		for _, e := range x.Elems {
			walkExpr(e, f)
		}
	case *TupleExpr:
		for _, e := range x.Elems {
			walkExpr(e, f)
		}
	case *SetExpr:
		for _, e := range x.Elems {
			walkExpr(e, f)
		}
	case *DictExpr:
		for i := range x.Keys {
			walkExpr(x.Keys[i], f)
			walkExpr(x.Values[i], f)
		}
	case *FuncExpr:
		if f(x.Func) {
			walkFunc(x.Func, f)
		}
	case *CondExpr:
		walkExpr(x.Cond, f)
		walkExpr(x.X, f)
		walkExpr(x.Else, f)
	case *Comprehension:
		walkExpr(x.Fors[0].X, f)
		walkCompInner(x, f)
	case *GradExpr:
		for _, w := range x.Wrt {
			walkExpr(w, f)
		}
		walkStmts(x.Body, f)
	default:
		panic("lang: walk of an unknown expression")
	}
}

// walkCompInner walks the parts of comprehension x evaluated in its own
// scope, in evaluation order: each clause's target and filters (and the
// next clause's iterable), then the element (a dict's key, then its
// value). The first clause's iterable, evaluated in the enclosing scope,
// is not visited.
func walkCompInner(x *Comprehension, f func(Node) bool) {
	for i, c := range x.Fors {
		if i > 0 {
			walkExpr(c.X, f)
		}
		walkExpr(c.Target, f)
		for _, cond := range c.Ifs {
			walkExpr(cond, f)
		}
	}
	if x.Dict {
		walkExpr(x.Key, f)
		walkExpr(x.Value, f)
	} else {
		walkExpr(x.Elt, f)
	}
}
