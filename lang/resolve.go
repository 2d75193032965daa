package lang

// Name resolution, in the manner of go.starlark.net/resolve: function
// scope like Python. A name assigned anywhere in a function body (parameter,
// assignment target, for target, catch name, fn definition, import) is a
// local of that function; blocks do not open scopes. A name used but not
// local is looked up in the enclosing functions (becoming a free variable,
// and a cell in the function that owns it), else it is a global. At top
// level every name is a global.

type scope struct {
	parent   *scope // enclosing function scope; nil for top level and its direct children
	top      bool
	locals   []string
	localIdx map[string]int
	cells    map[int]bool
	free     []string
	freeIdx  map[string]int
}

func newScope(parent *scope, top bool) *scope {
	return &scope{parent: parent, top: top, localIdx: map[string]int{}, cells: map[int]bool{}, freeIdx: map[string]int{}}
}

func (s *scope) addLocal(name string) int {
	if i, ok := s.localIdx[name]; ok {
		return i
	}
	i := len(s.locals)
	s.locals = append(s.locals, name)
	s.localIdx[name] = i
	return i
}

// lookupFree resolves name as a free variable of s, registering it in s
// and in every scope between s and the owner, and marking the owner's
// local as a cell. It reports false if name is not a local of any
// enclosing function (so it is a global).
func (s *scope) lookupFree(name string) bool {
	if _, ok := s.freeIdx[name]; ok {
		return true
	}
	p := s.parent
	if p == nil {
		return false
	}
	if i, ok := p.localIdx[name]; ok {
		p.cells[i] = true
	} else if !p.lookupFree(name) {
		return false
	}
	s.freeIdx[name] = len(s.free)
	s.free = append(s.free, name)
	return true
}

// collectLocals adds to s every name bound in stmts (not descending into
// nested function bodies).
func collectLocals(s *scope, stmts []Stmt) {
	for _, st := range stmts {
		switch st := st.(type) {
		case *AssignStmt:
			collectExpr(s, st.RHS)
			collectExpr(s, st.LHS)
			bindTarget(s, st.LHS)
			for _, x := range st.More {
				collectExpr(s, x)
				bindTarget(s, x)
			}
		case *ExprStmt:
			collectExpr(s, st.X)
		case *FuncDef:
			collectDefaults(s, st)
			s.addLocal(st.Name)
		case *IfStmt:
			collectExpr(s, st.Cond)
			collectLocals(s, st.Then)
			collectLocals(s, st.Else)
		case *ForStmt:
			collectExpr(s, st.X)
			bindTarget(s, st.Target)
			collectLocals(s, st.Body)
		case *WhileStmt:
			collectExpr(s, st.Cond)
			collectLocals(s, st.Body)
		case *TryStmt:
			collectLocals(s, st.Body)
			s.addLocal(st.Name)
			collectLocals(s, st.Catch)
		case *ImportStmt:
			s.addLocal(st.Name)
		case *BlockStmt:
			collectLocals(s, st.Body)
		case *DelStmt:
			for _, x := range st.Targets {
				collectExpr(s, x)
				bindTarget(s, x)
			}
		case *ReturnStmt:
			collectExpr(s, st.X)
		case *AssertStmt:
			collectExpr(s, st.Cond)
			collectExpr(s, st.Msg)
		}
	}
}

// collectExpr finds grad blocks anywhere inside x: their bodies bind
// names in the enclosing scope. It does not enter function literals'
// bodies (their own scope), only their parameters' defaults, which are
// evaluated in this one.
func collectExpr(s *scope, x Expr) {
	walkExpr(x, func(n Node) bool {
		switch n := n.(type) {
		case *GradExpr:
			collectLocals(s, n.Body)
			return false
		case *FuncExpr:
			collectDefaults(s, n.Func)
			return false
		case *Comprehension:
			collectExpr(s, n.Fors[0].X)
			return false
		}
		return true
	})
}

// compIter is the name of a comprehension scope's one parameter: the
// first clause's iterable, evaluated in the enclosing scope (CPython's
// ".0"; no source name can spell it).
const compIter = ".0"

// compScope returns the scope of comprehension x, nested in parent (nil
// at top level): its parameter, its targets and the names that grad
// blocks inside it bind.
func compScope(parent *scope, x *Comprehension) *scope {
	s := newScope(parent, false)
	s.addLocal(compIter)
	for _, c := range x.Fors {
		bindTarget(s, c.Target)
	}
	walkCompInner(x, func(n Node) bool {
		if e, ok := n.(Expr); ok {
			collectExpr(s, e)
		}
		return false
	})
	return s
}

// collectDefaults runs collectExpr over fd's parameter defaults.
func collectDefaults(s *scope, fd *FuncDef) {
	for _, p := range fd.Params {
		collectExpr(s, p.Default)
	}
}

func bindTarget(s *scope, x Expr) {
	switch x := x.(type) {
	case *Ident:
		s.addLocal(x.Name)
	case *TupleExpr:
		for _, e := range x.Elems {
			bindTarget(s, e)
		}
	case *ListExpr:
		for _, e := range x.Elems {
			bindTarget(s, e)
		}
	case *Starred:
		bindTarget(s, x.X)
	}
}

// resolveFree walks a function body and registers every free variable
// reference, so that cells are known before any code is emitted. A
// nested function's defaults belong to this scope, its body to its own.
func resolveFree(s *scope, stmts []Stmt, inner map[Node]*scope) {
	walkStmts(stmts, resolver(s, inner))
}

// resolver returns resolveFree's visitor for scope s. A comprehension,
// like a nested function, gets a scope of its own (inner[x]); only its
// first iterable is resolved in s.
func resolver(s *scope, inner map[Node]*scope) func(Node) bool {
	var visit func(Node) bool
	visit = func(n Node) bool {
		switch n := n.(type) {
		case *Ident:
			if !s.top {
				if _, ok := s.localIdx[n.Name]; !ok {
					s.lookupFree(n.Name)
				}
			}
		case *FuncDef:
			for _, p := range n.Params {
				walkExpr(p.Default, visit)
			}
			parent := s
			if s.top {
				parent = nil
			}
			child := newScope(parent, false)
			for _, p := range n.slotOrder() {
				child.addLocal(p.Name)
			}
			collectLocals(child, n.Body)
			inner[n] = child
			resolveFree(child, n.Body, inner)
			return false
		case *Comprehension:
			walkExpr(n.Fors[0].X, visit)
			parent := s
			if s.top {
				parent = nil
			}
			child := compScope(parent, n)
			inner[n] = child
			walkCompInner(n, resolver(child, inner))
			return false
		}
		return true
	}
	return visit
}

// slotOrder returns fd's named parameters in the order of their local
// slots (runtime.Funcode): the positional ones, the keyword-only ones,
// *args, **kwargs.
func (fd *FuncDef) slotOrder() []*Param {
	var pos, kw, star, dstar []*Param
	kwonly := false
	for _, p := range fd.Params {
		switch {
		case p.Star == 1:
			kwonly = true
			if p.Name != "" {
				star = append(star, p)
			}
		case p.Star == 2:
			dstar = append(dstar, p)
		case kwonly:
			kw = append(kw, p)
		default:
			pos = append(pos, p)
		}
	}
	out := append(pos, kw...)
	out = append(out, star...)
	return append(out, dstar...)
}
