package lang

import (
	"math"
	"math/big"

	"github.com/tsrlang/tsr/runtime"
)

// Compile parses and compiles a source file into a Program.
func Compile(filename, src string) (*runtime.Program, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return CompileFile(f)
}

// CompileScript is Compile for a whole script: a program run once whose
// globals nothing reads after it ends but its own code (what the tsr
// command runs; not a REPL line, an imported module or a host's Eval).
// A global that the rest of the file never mentions is then as dead as a
// function's unused local: the attention idiom (attn.go) may run fused at
// top level and never assign its intermediate globals.
func CompileScript(filename, src string) (*runtime.Program, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return compileFile(f, true)
}

// CompileFile compiles a parsed file. Errors are *SyntaxError values.
func CompileFile(f *File) (prog *runtime.Program, err error) { return compileFile(f, false) }

// compileFile is CompileFile; script as for CompileScript.
func compileFile(f *File, script bool) (prog *runtime.Program, err error) {
	c := &compiler{
		file:      f,
		prog:      &runtime.Program{Filename: f.Name, Src: f.Src},
		constIdx:  map[any]int{},
		nameIdx:   map[string]int{},
		globalIdx: map[string]int{},
		inner:     map[Node]*scope{},
	}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			prog, err = nil, se
		}
	}()
	top := newScope(nil, true)
	resolveFree(top, f.Stmts, c.inner)
	fc := &fcomp{c: c, scope: top, fn: &runtime.Funcode{Prog: c.prog, Name: "<toplevel>", Pos: Pos{Line: 1, Col: 1}}}
	if script {
		fc.fnBody = f.Stmts
	}
	fc.body(f.Stmts, true)
	c.prog.Toplevel = fc.finish()
	return c.prog, nil
}

type compiler struct {
	file      *File
	prog      *runtime.Program
	constIdx  map[any]int
	nameIdx   map[string]int
	globalIdx map[string]int
	inner     map[Node]*scope
}

func (c *compiler) fail(p Pos, format string, args ...any) {
	panic(newSyntaxError(c.file.Src, p, c.file.Name, false, format, args...))
}

type constKey struct {
	kind byte
	v    any
}

func (c *compiler) constant(v runtime.Value) int {
	var key any
	switch x := v.(type) {
	case runtime.Int:
		key = constKey{'i', int64(x)}
	case runtime.Float:
		key = constKey{'f', math.Float64bits(float64(x))}
	case runtime.String:
		key = constKey{'s', string(x)}
	case *runtime.Einsum:
		key = constKey{'e', x.Equation}
	}
	if key != nil {
		if i, ok := c.constIdx[key]; ok {
			return i
		}
	}
	i := len(c.prog.Consts)
	c.prog.Consts = append(c.prog.Consts, v)
	if key != nil {
		c.constIdx[key] = i
	}
	return i
}

func (c *compiler) name(s string) int {
	if i, ok := c.nameIdx[s]; ok {
		return i
	}
	i := len(c.prog.Names)
	c.prog.Names = append(c.prog.Names, s)
	c.nameIdx[s] = i
	return i
}

func (c *compiler) global(s string) int {
	if i, ok := c.globalIdx[s]; ok {
		return i
	}
	i := len(c.prog.Globals)
	c.prog.Globals = append(c.prog.Globals, s)
	c.globalIdx[s] = i
	return i
}

// exitKind is a construct that a break/continue must leave explicitly.
type exitKind uint8

const (
	exitTry exitKind = iota
	exitBlock
	exitGrad
)

type loopInfo struct {
	breaks    []int // pcs of JMPs to patch to the loop end
	continues []int // pcs of JMPs to patch to the continue target
	depth     int   // stack depth inside the loop body
	exits     int   // len(fcomp.exits) at loop entry
}

// fcomp compiles one function body.
type fcomp struct {
	c        *compiler
	scope    *scope
	fn       *runtime.Funcode
	code     []uint32
	pcpos    []Pos
	pos      Pos
	depth    int
	maxDepth int
	loops    []*loopInfo
	exits    []exitKind
	fnBody   []Stmt // the function's whole body (at top level: the file's, in a script; else nil), for the attention idiom's liveness check
	comp     bool   // the body of a comprehension (a return in a grad block inside it is an error)
}

func (fc *fcomp) finish() *runtime.Funcode {
	f := fc.fn
	f.Code = fc.code
	f.PCPos = fc.pcpos
	f.MaxStack = fc.maxDepth + 1
	if !fc.scope.top {
		f.Locals = fc.scope.locals
		f.Freevars = fc.scope.free
		for i := range fc.scope.locals {
			if fc.scope.cells[i] {
				f.Cells = append(f.Cells, i)
			}
		}
	}
	return f
}

// stackEffect returns the change in stack depth of an instruction.
func stackEffect(op runtime.Opcode, arg int) int {
	switch op {
	case runtime.POP, runtime.STORE_LOCAL, runtime.STORE_CELL, runtime.STORE_GLOBAL, runtime.STORE_LOCAL_C, runtime.STORE_GLOBAL_C, runtime.RECYCLE_POP,
		runtime.ADD, runtime.SUB, runtime.MUL, runtime.CMP_LT, runtime.CMP_LE, runtime.CMP_GT, runtime.CMP_GE,
		runtime.CMP_EQ, runtime.CMP_NE, runtime.BINARY, runtime.BINARY_TMP, runtime.INPLACE, runtime.NOTIN,
		runtime.JMP_FALSE, runtime.JMP_TRUE, runtime.RETURN, runtime.INDEX, runtime.RAISE,
		runtime.LIST_APPEND, runtime.IS:
		return -1
	case runtime.DICT_SET:
		return -2
	case runtime.LIST_EXTEND:
		return -1
	case runtime.KW_MERGE:
		return -2 + arg
	case runtime.CALL_EX:
		return -1 - arg
	case runtime.SET:
		if arg == runtime.MaxArg {
			return 0
		}
		return 1 - arg
	case runtime.UNPACK_EX:
		return arg&0xfff + arg>>12

	case runtime.POPN:
		return -arg
	case runtime.DUP, runtime.CONST, runtime.SMALLINT, runtime.NONE, runtime.TRUE, runtime.FALSE,
		runtime.LOAD_LOCAL, runtime.LOAD_CELL, runtime.LOAD_FREE, runtime.LOAD_CELLREF,
		runtime.LOAD_FREEREF, runtime.LOAD_GLOBAL, runtime.IMPORT, runtime.LOAD_LOCAL_B, runtime.LOAD_GLOBAL_B:
		return 1
	case runtime.DUP2:
		return 2
	case runtime.CALL:
		return -arg
	case runtime.CALL_KW:
		return -(arg & 0xfff) - 2*(arg>>12)
	case runtime.MAKE_FUNC:
		return -1
	case runtime.LIST, runtime.TUPLE, runtime.CONCAT:
		return 1 - arg
	case runtime.DICT:
		return 1 - 2*arg
	case runtime.SLICE:
		return -2
	case runtime.SETINDEX:
		return -3
	case runtime.DEL_INDEX:
		return -2
	case runtime.DEL_ATTR, runtime.DICT_UPDATE:
		return -1
	case runtime.SETATTR:
		return -2
	case runtime.UNPACK:
		return arg - 1
	case runtime.ASSERT:
		return -arg
	case runtime.FORMAT_SPEC:
		return -1
	case runtime.GRAD_BEGIN:
		return -(arg & 0x7fffff)
	case runtime.ATTN:
		return 1 - runtime.AttnOperands // the fall-through path (success)
	}
	return 0 // NOP ROT3 SWAP ATTR METHOD UNARY NOT FORMAT REPR JMP* ITER_* TRY_* BLOCK_* GRAD_END GRAD_ABORT
}

// field compiles one f-string replacement field of fs: the value, its
// conversion (REPR: !r, !s, !a), then the spec: none (FORMAT MaxArg,
// format(x, "")), a constant (FORMAT) or built from nested fields
// (FORMAT_SPEC).
func (fc *fcomp) field(fs *FString, f *FField) {
	fc.expr(f.X)
	fc.at(fs)
	switch f.Conv {
	case 'r':
		fc.emit(runtime.REPR, runtime.ConvRepr)
	case 's':
		fc.emit(runtime.REPR, runtime.ConvStr)
	case 'a':
		fc.emit(runtime.REPR, runtime.ConvASCII)
	}
	switch {
	case f.SpecParts != nil:
		for _, q := range f.SpecParts {
			switch q := q.(type) {
			case string:
				fc.constant(runtime.String(q))
			case *FField:
				fc.field(fs, q)
			}
		}
		if len(f.SpecParts) > 1 {
			fc.emit(runtime.CONCAT, len(f.SpecParts))
		}
		fc.at(fs)
		fc.emit(runtime.FORMAT_SPEC, 0)
	case f.Spec == "":
		if f.Conv == 0 {
			fc.emit(runtime.FORMAT, runtime.MaxArg)
		}
	default:
		fc.emit(runtime.FORMAT, fc.c.constant(runtime.String(f.Spec)))
	}
}

func (fc *fcomp) emit(op runtime.Opcode, arg int) int {
	if arg < 0 || arg > runtime.MaxArg {
		fc.c.fail(fc.pos, "program too large (operand %d out of range)", arg)
	}
	pc := len(fc.code)
	fc.code = append(fc.code, runtime.Encode(op, arg))
	fc.pcpos = append(fc.pcpos, fc.pos)
	fc.depth += stackEffect(op, arg)
	if fc.depth > fc.maxDepth {
		fc.maxDepth = fc.depth
	}
	return pc
}

func (fc *fcomp) emit0(op runtime.Opcode) int { return fc.emit(op, 0) }

// patch sets the jump target of the instruction at pc to the current pc.
func (fc *fcomp) patch(pc int) { fc.patchTo(pc, len(fc.code)) }

func (fc *fcomp) patchTo(pc, target int) {
	op, _ := runtime.Decode(fc.code[pc])
	fc.code[pc] = runtime.Encode(op, target)
}

func (fc *fcomp) at(n Node) {
	start, _ := n.Span()
	fc.pos = start
}

// body compiles a function or module body and returns its value. A
// function's value is its tail value (see tail). The module body's value
// (what Exec returns and the REPL echoes) is its last statement's value only
// when that is an expression statement, so that an if statement typed at the
// REPL does not echo a value.
func (fc *fcomp) body(stmts []Stmt, top bool) {
	if !top {
		fc.tail(stmts, true)
		return
	}
	for i := 0; i < len(stmts); i++ {
		st := stmts[i]
		if es, ok := st.(*ExprStmt); ok && i == len(stmts)-1 {
			fc.expr(es.X)
			fc.emit0(runtime.RETURN)
			return
		}
		if m, n, ok := fc.matchAt(stmts[i:]); ok {
			last := i + n - 1
			if _, isExpr := stmts[last].(*ExprStmt); isExpr && last == len(stmts)-1 {
				fc.attnStmts(m, stmts[i:], true)
				fc.emit0(runtime.RETURN)
				return
			}
			fc.attnStmts(m, stmts[i:i+n], false)
			i = last
			continue
		}
		fc.stmt(st)
	}
	if len(stmts) > 0 {
		_, fc.pos = stmts[len(stmts)-1].Span()
	}
	fc.emit0(runtime.NONE)
	fc.emit0(runtime.RETURN)
}

// tail compiles a statement list in value position, leaving exactly one
// value on the stack: the value of its last statement when that is an
// expression statement; for an if (with its else-if chain) or a
// try/catch, the tail value of the branch taken (none for an if without
// else whose condition is false); none for any other statement or an
// empty list. This is how a function's or a gradient block's body yields
// `fn fib(n) { if n < 2 { n } else { fib(n-1) + fib(n-2) } }`.
// With ret set (a function body), every path returns its value instead:
// each branch of a tail if ends in its own RETURN rather than a jump to
// a shared one.
func (fc *fcomp) tail(stmts []Stmt, ret bool) {
	if len(stmts) == 0 {
		fc.emit0(runtime.NONE)
		fc.tailEnd(ret)
		return
	}
	for k := 3; k >= 2; k-- { // the idiom's statements ending the list
		n := len(stmts)
		if n < k {
			continue
		}
		if m, ok := fc.matchStmts(stmts[n-k:]); ok {
			fc.stmts(stmts[:n-k])
			_, isExpr := stmts[n-1].(*ExprStmt)
			fc.attnStmts(m, stmts[n-k:], isExpr)
			if !isExpr {
				_, fc.pos = stmts[n-1].Span()
				fc.emit0(runtime.NONE)
			}
			fc.tailEnd(ret)
			return
		}
	}
	fc.stmts(stmts[:len(stmts)-1])
	last := stmts[len(stmts)-1]
	switch st := last.(type) {
	case *ExprStmt:
		fc.expr(st.X)
	case *IfStmt:
		fc.expr(st.Cond)
		fc.at(st)
		jf := fc.emit0(runtime.JMP_FALSE)
		fc.tail(st.Then, ret)
		if ret {
			fc.patch(jf)
			fc.at(st)
			fc.tail(st.Else, ret)
			return
		}
		fc.at(st)
		j := fc.emit0(runtime.JMP)
		fc.depth-- // the else path starts without the then value
		fc.patch(jf)
		fc.at(st)
		fc.tail(st.Else, ret)
		fc.patch(j)
		return
	case *TryStmt:
		fc.at(st)
		h := fc.emit0(runtime.TRY_BEGIN)
		fc.exits = append(fc.exits, exitTry)
		fc.tail(st.Body, false)
		fc.exits = fc.exits[:len(fc.exits)-1]
		fc.at(st)
		fc.emit0(runtime.TRY_END)
		j := fc.emit0(runtime.JMP)
		fc.depth-- // the catch path starts without the body's value...
		fc.patch(h)
		fc.depth++ // ...but with the error value pushed by the VM
		fc.pos = st.NameP
		fc.store(st.Name, st.Span)
		fc.tail(st.Catch, false)
		fc.patch(j)
	default:
		fc.stmt(last)
		_, fc.pos = last.Span()
		fc.emit0(runtime.NONE)
	}
	fc.tailEnd(ret)
}

// tailEnd returns the value on top of the stack when ret is set.
func (fc *fcomp) tailEnd(ret bool) {
	if ret {
		fc.emit0(runtime.RETURN)
	}
}

func (fc *fcomp) stmts(stmts []Stmt) {
	for i := 0; i < len(stmts); i++ {
		if m, n, ok := fc.matchAt(stmts[i:]); ok {
			fc.attnStmts(m, stmts[i:i+n], false)
			i += n - 1
			continue
		}
		fc.stmt(stmts[i])
	}
}

// attnStmts compiles the attention idiom's statements sts (matched as
// m): the fused guard, then the statements as written up to the output
// product's value, which the last statement then consumes. In tail
// position (the last statement is the body's last expression) the value
// stays on the stack.
func (fc *fcomp) attnStmts(m *attnMatch, sts []Stmt, tail bool) {
	fc.attn(m, func() {
		for _, st := range sts[:len(sts)-1] {
			fc.stmt(st)
		}
		fc.expr(stmtValue(sts[len(sts)-1]))
	})
	st := sts[len(sts)-1]
	fc.at(st)
	switch st := st.(type) {
	case *ExprStmt:
		if !tail {
			fc.emit0(runtime.POP)
		}
	case *AssignStmt:
		fc.assign(st.LHS)
	case *ReturnStmt:
		fc.emit0(runtime.RETURN)
	}
}

func (fc *fcomp) stmt(st Stmt) {
	fc.at(st)
	switch st := st.(type) {
	case *ExprStmt:
		fc.expr(st.X)
		fc.emit0(runtime.POP)
	case *AssignStmt:
		if st.Aug {
			fc.augAssign(st)
		} else if len(st.More) > 0 {
			// a = b = rhs: rhs once, then each target left to right; no
			// claim, as every target aliases the one value
			// (DUP before each store but the last, as CPython's DUP_TOP)
			fc.expr(st.RHS)
			for i, x := range append([]Expr{st.LHS}, st.More...) {
				fc.at(st)
				if i < len(st.More) {
					fc.emit0(runtime.DUP)
				}
				fc.assign(x)
			}
		} else {
			id, isName := st.LHS.(*Ident)
			if call, ok := st.RHS.(*Call); ok && isName {
				if _, nested := matchNested(call); !nested {
					// y = f(...): a builtin's new result may be claimed
					fc.call(call, true)
					fc.storeClaim(id.Name, id.Span, runtime.ClaimCall)
					break
				}
			}
			fc.expr(st.RHS)
			if isName && claims(st.RHS) {
				fc.storeClaim(id.Name, id.Span, 0)
			} else {
				fc.assign(st.LHS)
			}
		}
	case *FuncDef:
		fc.function(st)
		fc.at(st)
		fc.store(st.Name, st.Span)
	case *IfStmt:
		fc.expr(st.Cond)
		fc.at(st)
		jf := fc.emit0(runtime.JMP_FALSE)
		fc.stmts(st.Then)
		if len(st.Else) > 0 {
			j := fc.emit0(runtime.JMP)
			fc.patch(jf)
			fc.stmts(st.Else)
			fc.patch(j)
		} else {
			fc.patch(jf)
		}
	case *WhileStmt:
		head := len(fc.code)
		fc.expr(st.Cond)
		fc.at(st)
		jf := fc.emit0(runtime.JMP_FALSE)
		lp := &loopInfo{depth: fc.depth, exits: len(fc.exits)}
		fc.loops = append(fc.loops, lp)
		fc.stmts(st.Body)
		fc.loops = fc.loops[:len(fc.loops)-1]
		fc.at(st)
		fc.emit(runtime.JMP, head)
		fc.patch(jf)
		for _, pc := range lp.breaks {
			fc.patch(pc)
		}
		for _, pc := range lp.continues {
			fc.patchTo(pc, head)
		}
	case *ForStmt:
		fc.expr(st.X)
		fc.at(st.X)
		fc.emit0(runtime.ITER_PUSH)
		head := fc.emit0(runtime.ITER_NEXT)
		fc.depth++ // the element pushed by ITER_NEXT
		fc.assign(st.Target)
		lp := &loopInfo{depth: fc.depth, exits: len(fc.exits)}
		fc.loops = append(fc.loops, lp)
		fc.stmts(st.Body)
		fc.loops = fc.loops[:len(fc.loops)-1]
		fc.at(st)
		fc.emit(runtime.JMP, head)
		fc.patch(head)
		for _, pc := range lp.breaks {
			fc.patch(pc)
		}
		for _, pc := range lp.continues {
			fc.patchTo(pc, head)
		}
		fc.emit0(runtime.POP) // the iterator
	case *BranchStmt:
		if len(fc.loops) == 0 {
			what := "break"
			if st.Continue {
				what = "continue"
			}
			fc.c.fail(st.Start, "'%s' outside a loop", what)
		}
		lp := fc.loops[len(fc.loops)-1]
		saved := fc.depth
		for i := len(fc.exits) - 1; i >= lp.exits; i-- {
			switch fc.exits[i] {
			case exitTry:
				fc.emit0(runtime.TRY_END)
			case exitBlock:
				fc.emit0(runtime.BLOCK_EXIT)
			case exitGrad:
				fc.emit0(runtime.GRAD_ABORT)
			}
		}
		if n := fc.depth - lp.depth; n > 0 {
			fc.emit(runtime.POPN, n)
		}
		j := fc.emit0(runtime.JMP)
		if st.Continue {
			lp.continues = append(lp.continues, j)
		} else {
			lp.breaks = append(lp.breaks, j)
		}
		fc.depth = saved
	case *ReturnStmt:
		if fc.scope.top {
			fc.c.fail(st.Start, "'return' outside a function")
		}
		if fc.comp {
			fc.c.fail(st.Start, "'return' inside a comprehension")
		}
		saved := fc.depth
		if st.X != nil {
			fc.expr(st.X)
		} else {
			fc.emit0(runtime.NONE)
		}
		fc.at(st)
		fc.emit0(runtime.RETURN)
		fc.depth = saved
	case *TryStmt:
		h := fc.emit0(runtime.TRY_BEGIN)
		fc.exits = append(fc.exits, exitTry)
		fc.stmts(st.Body)
		fc.exits = fc.exits[:len(fc.exits)-1]
		fc.at(st)
		fc.emit0(runtime.TRY_END)
		j := fc.emit0(runtime.JMP)
		fc.patch(h)
		fc.depth++ // the error value pushed by the VM
		fc.pos = st.NameP
		fc.store(st.Name, st.Span)
		fc.stmts(st.Catch)
		fc.patch(j)
	case *AssertStmt:
		fc.expr(st.Cond)
		fc.at(st)
		j := fc.emit0(runtime.JMP_TRUE)
		if st.Msg != nil {
			fc.expr(st.Msg)
			fc.at(st)
			fc.emit(runtime.ASSERT, 1)
		} else {
			fc.emit(runtime.ASSERT, 0)
		}
		fc.patch(j)
	case *ImportStmt:
		fc.emit(runtime.IMPORT, fc.c.constant(runtime.String(st.Path)))
		fc.store(st.Name, st.Span)
	case *DelStmt:
		for _, x := range st.Targets {
			fc.at(x)
			switch x := x.(type) {
			case *Ident:
				fc.del(x)
			case *Index:
				fc.expr(x.X)
				fc.subscript(x.Key)
				fc.at(x)
				fc.emit0(runtime.DEL_INDEX)
			case *Attr:
				fc.expr(x.X)
				fc.at(x)
				fc.emit(runtime.DEL_ATTR, fc.c.name(x.Name))
			}
		}
	case *BlockStmt:
		fc.emit(runtime.BLOCK_ENTER, fc.c.constant(runtime.String(st.Kind)))
		fc.exits = append(fc.exits, exitBlock)
		fc.stmts(st.Body)
		fc.exits = fc.exits[:len(fc.exits)-1]
		_, fc.pos = st.Span()
		fc.emit0(runtime.BLOCK_EXIT)
	default:
		fc.c.fail(fc.pos, "unsupported statement")
	}
}

// augAssign compiles x op= y: the target is evaluated once; INPLACE tries
// the value's in-place operator before the binary one.
func (fc *fcomp) augAssign(st *AssignStmt) {
	switch lhs := st.LHS.(type) {
	case *Ident:
		fc.load(lhs)
		fc.expr(st.RHS)
		fc.pos = st.OpPos
		fc.emit(runtime.INPLACE, int(st.Op))
		fc.store(lhs.Name, lhs.Span)
	case *Index:
		fc.expr(lhs.X)
		fc.subscript(lhs.Key)
		fc.emit0(runtime.DUP2)
		fc.at(lhs)
		fc.emit0(runtime.INDEX)
		fc.expr(st.RHS)
		fc.pos = st.OpPos
		fc.emit(runtime.INPLACE, int(st.Op))
		fc.emit0(runtime.ROT3) // x key v -> v x key
		fc.at(lhs)
		fc.emit0(runtime.SETINDEX)
	case *Attr:
		fc.expr(lhs.X)
		fc.emit0(runtime.DUP)
		fc.at(lhs)
		fc.emit(runtime.ATTR, fc.c.name(lhs.Name))
		fc.expr(st.RHS)
		fc.pos = st.OpPos
		fc.emit(runtime.INPLACE, int(st.Op))
		fc.emit0(runtime.SWAP)
		fc.at(lhs)
		fc.emit(runtime.SETATTR, fc.c.name(lhs.Name))
	default:
		fc.c.fail(st.Start, "invalid augmented assignment target")
	}
}

// assign stores the value on top of the stack into target x.
func (fc *fcomp) assign(x Expr) {
	switch x := x.(type) {
	case *Ident:
		fc.store(x.Name, x.Span)
	case *Index:
		fc.expr(x.X)
		fc.subscript(x.Key)
		fc.at(x)
		fc.emit0(runtime.SETINDEX)
	case *Attr:
		fc.expr(x.X)
		fc.at(x)
		fc.emit(runtime.SETATTR, fc.c.name(x.Name))
	case *TupleExpr:
		fc.unpack(x, x.Elems)
	case *ListExpr:
		fc.unpack(x, x.Elems)
	default:
		start, _ := x.Span()
		fc.c.fail(start, "cannot assign to this expression")
	}
}

func (fc *fcomp) unpack(x Expr, elems []Expr) {
	fc.at(x)
	star := -1
	for i, e := range elems {
		if _, ok := e.(*Starred); ok {
			star = i
		}
	}
	if star < 0 {
		fc.emit(runtime.UNPACK, len(elems))
	} else {
		after := len(elems) - star - 1
		if star > 0xfff || after > 0xfff {
			start, _ := x.Span()
			fc.c.fail(start, "too many expressions in star-unpacking assignment")
		}
		fc.emit(runtime.UNPACK_EX, star|after<<12)
	}
	for _, e := range elems {
		if st, ok := e.(*Starred); ok {
			e = st.X
		}
		fc.assign(e)
	}
}

// hasStarred reports whether any of elems is a *x.
func hasStarred(elems []Expr) bool {
	for _, e := range elems {
		if _, ok := e.(*Starred); ok {
			return true
		}
	}
	return false
}

// starList compiles elements with *x among them into one list: LIST of
// the leading plain ones, then LIST_APPEND (a plain one) or LIST_EXTEND
// (a *x) for each of the rest. callee is 1 for a call's positional
// arguments (the callee lies under the list, named in LIST_EXTEND's
// error), else 0.
func (fc *fcomp) starList(at Expr, elems []Expr, callee int) {
	n := 0
	for n < len(elems) {
		if _, ok := elems[n].(*Starred); ok {
			break
		}
		fc.expr(elems[n])
		n++
	}
	fc.at(at)
	fc.emit(runtime.LIST, n)
	for _, e := range elems[n:] {
		if st, ok := e.(*Starred); ok {
			fc.expr(st.X)
			fc.at(st)
			fc.emit(runtime.LIST_EXTEND, callee)
		} else {
			fc.expr(e)
			fc.emit(runtime.LIST_APPEND, 0)
		}
	}
}

// callStar compiles a call with *args or **kwargs arguments: the callee,
// the list of positional arguments, the dict of keyword arguments when
// there are any, then CALL_EX. As in CPython, all positional arguments
// (starred or not) are evaluated before the keyword arguments. fresh is
// callMark's (FRESH_MARK before CALL_EX; never a deferred einsum).
func (fc *fcomp) callStar(x *Call, fresh bool) {
	if a, ok := x.Fn.(*Attr); ok {
		fc.expr(a.X)
		fc.at(a)
		fc.emit(runtime.METHOD, fc.c.name(a.Name))
	} else {
		fc.expr(x.Fn)
	}
	fc.starList(x, x.Args, 1)
	if len(x.Kwargs) > 0 {
		fc.at(x)
		fc.emit(runtime.DICT, 0)
		for _, kw := range x.Kwargs {
			if kw.Name == "" {
				fc.expr(kw.Value)
				fc.at(kw.Value)
				fc.emit(runtime.KW_MERGE, 1)
			} else {
				fc.constant(runtime.String(kw.Name))
				fc.expr(kw.Value)
				fc.at(x)
				fc.emit(runtime.KW_MERGE, 0)
			}
		}
	}
	fc.at(x)
	kw := 0
	if len(x.Kwargs) > 0 {
		kw = 1
	}
	if fresh {
		fc.emit(runtime.FRESH_MARK, 1+kw) // the callee is under the list (and the dict)
	}
	fc.emit(runtime.CALL_EX, kw)
}

// isStarCall reports whether x has a *args or **kwargs argument.
func isStarCall(x *Call) bool {
	if hasStarred(x.Args) {
		return true
	}
	for _, kw := range x.Kwargs {
		if kw.Name == "" {
			return true
		}
	}
	return false
}

func (fc *fcomp) store(name string, span func() (Pos, Pos)) {
	s := fc.scope
	if s.top {
		fc.emit(runtime.STORE_GLOBAL, fc.c.global(name))
		return
	}
	i, ok := s.localIdx[name]
	if !ok {
		start, _ := span()
		fc.c.fail(start, "internal error: %q is not a local", name)
	}
	if s.cells[i] {
		fc.emit(runtime.STORE_CELL, i)
	} else {
		fc.emit(runtime.STORE_LOCAL, i)
	}
}

// storeClaim is store for the value of an operator just computed
// (claims) or, with flag runtime.ClaimCall, of a call compiled with its
// FRESH_MARK, which the VM may claim: STORE_LOCAL_C / STORE_GLOBAL_C.
func (fc *fcomp) storeClaim(name string, span func() (Pos, Pos), flag int) {
	s := fc.scope
	if s.top {
		if g := fc.c.global(name); g < runtime.ClaimCall {
			fc.emit(runtime.STORE_GLOBAL_C, g|flag)
			return
		}
	} else if i, ok := s.localIdx[name]; ok && !s.cells[i] && i < runtime.ClaimCall {
		fc.emit(runtime.STORE_LOCAL_C, i|flag)
		return
	}
	fc.store(name, span)
}

// del compiles del name: the name is the function's local (del binds it,
// as an assignment does) or, at top level, a global.
func (fc *fcomp) del(id *Ident) {
	s := fc.scope
	if s.top {
		fc.emit(runtime.DEL_GLOBAL, fc.c.global(id.Name))
		return
	}
	i, ok := s.localIdx[id.Name]
	if !ok {
		fc.c.fail(id.Start, "internal error: %q is not a local", id.Name)
	}
	if s.cells[i] {
		fc.emit(runtime.DEL_CELL, i)
	} else {
		fc.emit(runtime.DEL_LOCAL, i)
	}
}

func (fc *fcomp) load(id *Ident) {
	fc.at(id)
	s := fc.scope
	if !s.top {
		if i, ok := s.localIdx[id.Name]; ok {
			if s.cells[i] {
				fc.emit(runtime.LOAD_CELL, i)
			} else {
				fc.emit(runtime.LOAD_LOCAL, i)
			}
			return
		}
		if i, ok := s.freeIdx[id.Name]; ok {
			fc.emit(runtime.LOAD_FREE, i)
			return
		}
	}
	fc.emit(runtime.LOAD_GLOBAL, fc.c.global(id.Name))
}

// subscript compiles an index key; several subscripts make a tuple.
func (fc *fcomp) subscript(key Expr) {
	if t, ok := key.(*TupleExpr); ok {
		for _, e := range t.Elems {
			fc.expr(e)
		}
		fc.at(t)
		fc.emit(runtime.TUPLE, len(t.Elems))
		return
	}
	fc.expr(key)
}

func (fc *fcomp) constant(v runtime.Value) { fc.emit(runtime.CONST, fc.c.constant(v)) }

func (fc *fcomp) expr(x Expr) {
	fc.at(x)
	switch x := x.(type) {
	case *Ident:
		fc.load(x)
	case *Literal:
		switch v := x.Value.(type) {
		case nil:
			fc.emit0(runtime.NONE)
		case bool:
			if v {
				fc.emit0(runtime.TRUE)
			} else {
				fc.emit0(runtime.FALSE)
			}
		case int64:
			fc.intConst(v)
		case *big.Int:
			fc.raise("OverflowError", "int64 overflow")
		case float64:
			fc.constant(runtime.Float(v))
		case string:
			fc.constant(runtime.String(v))
		}
	case *EinLit:
		fc.constant(&runtime.Einsum{Equation: x.Equation})
	case *FString:
		n := 0
		for _, p := range x.Parts {
			switch p := p.(type) {
			case string:
				fc.constant(runtime.String(p))
			case *FField:
				fc.field(x, p)
			}
			n++
		}
		if n == 0 {
			fc.constant(runtime.String(""))
		} else if n > 1 {
			fc.emit(runtime.CONCAT, n)
		}
	case *Unary:
		if lit, ok := x.X.(*Literal); ok && x.Op == runtime.UMINUS {
			switch v := lit.Value.(type) {
			case int64:
				fc.intConst(-v)
				return
			case *big.Int:
				if v.Cmp(minusMinInt64) == 0 {
					fc.intConst(math.MinInt64)
					return
				}
			case float64:
				fc.constant(runtime.Float(-v))
				return
			}
		}
		if x.Op == runtime.UMINUS || x.Op == runtime.TILDE {
			fc.operand(x.X)
		} else {
			fc.expr(x.X)
		}
		fc.at(x)
		if x.Op == runtime.NOT {
			fc.emit0(runtime.UNARY_NOT)
		} else {
			fc.emit(runtime.UNARY, int(x.Op))
		}
	case *Binary:
		if m, ok := matchNested(x); ok && x.Op == runtime.AT {
			fc.attn(m, func() { fc.binary(x) })
		} else {
			fc.binary(x)
		}
	case *Compare:
		fc.compare(x)
	case *Call:
		if m, ok := matchNested(x); ok {
			fc.attn(m, func() { fc.call(x, false) })
		} else {
			fc.call(x, false)
		}
	case *Index:
		fc.expr(x.X)
		fc.subscript(x.Key)
		fc.at(x)
		fc.emit0(runtime.INDEX)
	case *SliceExpr:
		for _, e := range []Expr{x.Lo, x.Hi, x.Step} {
			if e == nil {
				fc.emit0(runtime.NONE)
			} else {
				fc.expr(e)
			}
		}
		fc.at(x)
		fc.emit0(runtime.SLICE)
	case *EllipsisExpr:
		fc.constant(runtime.Ellipsis)
	case *Attr:
		fc.expr(x.X)
		fc.at(x)
		fc.emit(runtime.ATTR, fc.c.name(x.Name))
	case *ListExpr:
		if hasStarred(x.Elems) {
			fc.starList(x, x.Elems, 0)
			break
		}
		for _, e := range x.Elems {
			fc.expr(e)
		}
		fc.at(x)
		fc.emit(runtime.LIST, len(x.Elems))
	case *TupleExpr:
		if hasStarred(x.Elems) {
			fc.starList(x, x.Elems, 0)
			fc.emit0(runtime.LIST_TUPLE)
			break
		}
		for _, e := range x.Elems {
			fc.expr(e)
		}
		fc.at(x)
		fc.emit(runtime.TUPLE, len(x.Elems))
	case *Starred:
		fc.c.fail(x.Start, "can't use starred expression here")
	case *SetExpr:
		if hasStarred(x.Elems) {
			fc.starList(x, x.Elems, 0)
			fc.emit(runtime.SET, runtime.MaxArg)
			break
		}
		for _, e := range x.Elems {
			fc.expr(e)
		}
		fc.at(x)
		fc.emit(runtime.SET, len(x.Elems))
	case *DictExpr:
		fc.dict(x)
	case *FuncExpr:
		fc.function(x.Func)
	case *GradExpr:
		fc.grad(x)
	case *CondExpr:
		fc.expr(x.Cond)
		fc.at(x)
		jf := fc.emit0(runtime.JMP_FALSE)
		fc.expr(x.X)
		fc.at(x)
		j := fc.emit0(runtime.JMP)
		fc.depth-- // the else path starts without X's value
		fc.patch(jf)
		fc.expr(x.Else)
		fc.patch(j)
	case *Comprehension:
		fc.comprehension(x)
	default:
		fc.c.fail(fc.pos, "unsupported expression")
	}
}

// minusMinInt64 is 2**63, the one literal outside int64 whose negation
// (-9223372036854775808) is an int64.
var minusMinInt64 = new(big.Int).Lsh(big.NewInt(1), 63)

// raise emits code that raises an error of the given kind when evaluated,
// in expression position (the compiler's stack model gets the value the
// expression would have pushed).
func (fc *fcomp) raise(kind, msg string) {
	fc.constant(&runtime.ErrorValue{Kind: kind, Message: msg})
	fc.emit0(runtime.RAISE)
	fc.depth++
	if fc.depth > fc.maxDepth {
		fc.maxDepth = fc.depth
	}
}

func (fc *fcomp) intConst(v int64) {
	if v >= -runtime.SmallIntBias && v < runtime.SmallIntBias {
		fc.emit(runtime.SMALLINT, int(v+runtime.SmallIntBias))
	} else {
		fc.constant(runtime.Int(v))
	}
}

var specialised = map[runtime.Op]runtime.Opcode{
	runtime.PLUS: runtime.ADD, runtime.MINUS: runtime.SUB, runtime.STAR: runtime.MUL,
	runtime.LT: runtime.CMP_LT, runtime.LE: runtime.CMP_LE, runtime.GT: runtime.CMP_GT, runtime.GE: runtime.CMP_GE,
	runtime.EQL: runtime.CMP_EQ, runtime.NEQ: runtime.CMP_NE,
}

func (fc *fcomp) binary(x *Binary) {
	switch x.Op {
	case opAnd, opOr:
		fc.expr(x.X)
		fc.at(x)
		op := runtime.JMP_FALSE_OR_POP
		if x.Op == opOr {
			op = runtime.JMP_TRUE_OR_POP
		}
		j := fc.emit0(op)
		fc.depth-- // the fall-through path pops
		fc.expr(x.Y)
		fc.patch(j)
		return
	}
	elide := x.Op == runtime.PLUS || x.Op == runtime.MINUS || x.Op == runtime.STAR || x.Op == runtime.SLASH
	call, isCall := x.X.(*Call)
	switch {
	case elide && operatorTemp(x.X):
		if m, ok := x.X.(*Binary); ok && m.Op == runtime.AT && (x.Op == runtime.STAR || x.Op == runtime.SLASH) && pureOperand(x.Y) {
			// (a @ b) * s: the product may wait for s (BinaryDefer)
			fc.operand(m.X)
			fc.operand(m.Y)
			fc.pos = m.OpAt
			fc.emit(runtime.BINARY, int(runtime.AT)|runtime.BinaryDefer)
		} else {
			fc.expr(x.X)
		}
		fc.operand(x.Y)
		fc.pos = x.OpAt
		fc.emit(runtime.BINARY_TMP, int(x.Op))
	case elide && isCall:
		_, ein := call.Fn.(*EinLit)
		fc.callMark(call, true, ein && (x.Op == runtime.STAR || x.Op == runtime.SLASH) && pureOperand(x.Y))
		fc.operand(x.Y)
		fc.pos = x.OpAt
		fc.emit(runtime.BINARY_TMP, int(x.Op)|1<<16)
	default:
		fc.operand(x.X)
		fc.operand(x.Y)
		fc.pos = x.OpAt
		fc.binop(x.Op)
	}
}

// operand compiles an operand of an arithmetic or bitwise operator or of
// unary - and ~, which keep no reference to their operands: a variable is
// read with LOAD_LOCAL_B / LOAD_GLOBAL_B, leaving its claim (see
// runtime.Recyclable) in place.
func (fc *fcomp) operand(e Expr) {
	id, ok := e.(*Ident)
	if !ok {
		fc.expr(e)
		return
	}
	fc.at(id)
	s := fc.scope
	if !s.top {
		if i, ok := s.localIdx[id.Name]; ok && !s.cells[i] {
			fc.emit(runtime.LOAD_LOCAL_B, i)
			return
		}
		if _, ok := s.localIdx[id.Name]; ok {
			fc.load(id)
			return
		}
		if _, ok := s.freeIdx[id.Name]; ok {
			fc.load(id)
			return
		}
	}
	fc.emit(runtime.LOAD_GLOBAL_B, fc.c.global(id.Name))
}

// lendingMethods are the tensor methods whose receiver, a variable, is
// read without dropping its claim (see runtime.Recyclable): reductions and
// elementwise functions that return a new tensor or a number, never the
// receiver or a view of it, and keep no reference to it (no autograd
// history: a claimed tensor does not require grad). A variable's claim
// only ever concerns a tensor, so other receivers with these method names
// are unaffected. stdlib's TestLendingMethods checks each name.
var lendingMethods = map[string]bool{
	"sum": true, "mean": true, "norm": true, "item": true, "tolist": true,
	"max": true, "min": true, "amax": true, "amin": true, "argmax": true, "argmin": true,
	"std": true, "var": true, "prod": true, "all": true, "any": true,
	"numel": true, "dim": true, "size": true,
	"abs": true, "exp": true, "log": true, "sqrt": true, "tanh": true, "sigmoid": true,
	"relu": true, "softmax": true, "log_softmax": true, "logsumexp": true,
	"dot": true, "matmul": true, "clone": true,
}

// claims reports whether an assignment of e's value may claim it (see
// runtime.Recyclable): e is an operator whose result is new, computed by
// the instruction just before the store.
func claims(e Expr) bool {
	switch e := e.(type) {
	case *Binary:
		return e.Op != opAnd && e.Op != opOr
	case *Unary:
		return e.Op == runtime.UMINUS || e.Op == runtime.TILDE
	}
	return false
}

// call compiles a call; fresh marks its result as a candidate temporary
// for the BINARY_TMP that consumes it (FRESH_MARK just before the CALL).
func (fc *fcomp) call(x *Call, fresh bool) { fc.callMark(x, fresh, false) }

// callMark is call; deferScale (an ein"..." literal's call under * or /
// by a pureOperand) sets runtime.FreshDefer on the FRESH_MARK, allowing
// the VM to run the contraction when the operator has its other operand,
// so that a number folds into the contraction as its scale.
func (fc *fcomp) callMark(x *Call, fresh, deferScale bool) {
	if isStarCall(x) {
		fc.callStar(x, fresh)
		return
	}
	recycleRecv := false
	if a, ok := x.Fn.(*Attr); ok {
		switch {
		case lendingMethods[a.Name] && claims(a.X):
			// (a - b).sum(): the receiver is an operator's result that
			// only this call sees; RECYCLE_POP hands it back after
			fc.expr(a.X)
			fc.emit0(runtime.DUP)
			recycleRecv = true
		case lendingMethods[a.Name]:
			fc.operand(a.X)
		default:
			fc.expr(a.X)
		}
		fc.at(a)
		fc.emit(runtime.METHOD, fc.c.name(a.Name))
	} else {
		fc.expr(x.Fn)
	}
	for _, a := range x.Args {
		fc.expr(a)
	}
	for _, kw := range x.Kwargs {
		fc.constant(runtime.String(kw.Name))
		fc.expr(kw.Value)
	}
	fc.at(x)
	if fresh {
		arg := len(x.Args) + 2*len(x.Kwargs)
		if deferScale && arg < runtime.FreshDefer {
			arg |= runtime.FreshDefer
		}
		fc.emit(runtime.FRESH_MARK, arg)
	}
	if len(x.Kwargs) == 0 {
		fc.emit(runtime.CALL, len(x.Args))
	} else {
		if len(x.Args) > 0xfff || len(x.Kwargs) > 0xfff {
			fc.c.fail(x.Start, "too many arguments")
		}
		fc.emit(runtime.CALL_KW, len(x.Args)|len(x.Kwargs)<<12)
	}
	if recycleRecv {
		fc.emit0(runtime.RECYCLE_POP)
	}
}

// pureOperand reports whether evaluating e can neither change state nor
// observe a change another evaluation order would make: int and float
// literals, names, and unary and arithmetic binary operators over those
// (tsr has no operator overloading; tensor arithmetic allocates and reads
// only). Evaluated before a deferred contraction instead of after it, such
// an operand gives the same values; only which of two errors is reported
// first could differ (an undefined name and a failing contraction).
func pureOperand(e Expr) bool {
	switch e := e.(type) {
	case *Literal:
		switch e.Value.(type) {
		case int64, float64:
			return true
		}
	case *Ident:
		return true
	case *Unary:
		return (e.Op == runtime.UMINUS || e.Op == runtime.UPLUS) && pureOperand(e.X)
	case *Binary:
		switch e.Op {
		case runtime.PLUS, runtime.MINUS, runtime.STAR, runtime.SLASH, runtime.SLASHSLASH, runtime.PERCENT, runtime.STARSTAR:
			return pureOperand(e.X) && pureOperand(e.Y)
		}
	}
	return false
}

// operatorTemp reports whether e's value is a temporary that only the
// enclosing operator sees: the result of an arithmetic binary operator or
// of unary minus (both build a new value; and/or return an operand, unary
// plus returns its operand, so they do not qualify).
func operatorTemp(e Expr) bool {
	switch e := e.(type) {
	case *Binary:
		switch e.Op {
		case runtime.PLUS, runtime.MINUS, runtime.STAR, runtime.SLASH, runtime.SLASHSLASH,
			runtime.PERCENT, runtime.STARSTAR, runtime.AT:
			return true
		}
	case *Unary:
		return e.Op == runtime.UMINUS
	}
	return false
}

func (fc *fcomp) binop(op runtime.Op) {
	if op == opNotIn {
		fc.emit0(runtime.NOTIN)
	} else if op == opIs {
		fc.emit(runtime.IS, 0)
	} else if op == opIsNot {
		fc.emit(runtime.IS, 1)
	} else if code, ok := specialised[op]; ok {
		fc.emit0(code)
	} else {
		fc.emit(runtime.BINARY, int(op))
	}
}

// compare compiles a chained comparison: each middle operand is evaluated
// once; the first false comparison short-circuits.
func (fc *fcomp) compare(x *Compare) {
	fc.expr(x.Operands[0])
	var exits []int
	for i, op := range x.Ops {
		fc.expr(x.Operands[i+1])
		last := i == len(x.Ops)-1
		if !last {
			fc.emit0(runtime.DUP)  // a b b
			fc.emit0(runtime.ROT3) // b a b
		}
		fc.pos = x.OpAts[i]
		fc.binop(op)
		if !last {
			exits = append(exits, fc.emit0(runtime.JMP_FALSE_OR_POP))
			fc.depth-- // the fall-through path pops the result
		}
	}
	end := fc.emit0(runtime.JMP)
	for _, j := range exits {
		fc.patch(j)
	}
	fc.depth++ // on this path the middle operand is still below the result
	fc.emit0(runtime.SWAP)
	fc.emit0(runtime.POP)
	fc.patch(end)
}

// dict compiles a dict display. Entries up to the first **mapping build
// the dict (DICT); after that each **mapping, and each run of key: value
// entries built as a dict of its own, is merged in order (DICT_UPDATE),
// so later keys win as in CPython.
func (fc *fcomp) dict(x *DictExpr) {
	i, n := 0, len(x.Keys)
	run := func() {
		j := i
		for ; i < n && x.Keys[i] != nil; i++ {
			fc.expr(x.Keys[i])
			fc.expr(x.Values[i])
		}
		fc.at(x)
		fc.emit(runtime.DICT, i-j)
	}
	run()
	for i < n {
		if x.Keys[i] == nil {
			fc.expr(x.Values[i])
			fc.at(x.Values[i])
			i++
		} else {
			run()
		}
		fc.emit0(runtime.DICT_UPDATE)
	}
}

// function compiles a nested function and emits MAKE_FUNC, leaving the
// function value on the stack.
func (fc *fcomp) function(fd *FuncDef) {
	inner := fc.c.inner[fd]
	code := &runtime.Funcode{Prog: fc.c.prog, Pos: fd.Start, NumPosOnly: fd.PosOnly}
	nd := 0
	kwonly := false
	for _, p := range fd.Params {
		switch {
		case p.Star == 1:
			kwonly = true
			code.VarArgs = p.Name != ""
		case p.Star == 2:
			code.VarKw = true
		case kwonly:
			code.NumKwOnly++
			code.KwOnlyDefault = append(code.KwOnlyDefault, p.Default != nil)
		default:
			code.NumParams++
			if p.Default != nil {
				code.NumDefaults++
			}
		}
	}
	// the defaults tuple: the positional parameters' defaults, then the
	// keyword-only parameters'
	for pass := 0; pass < 2; pass++ {
		kwonly = false
		for _, p := range fd.Params {
			if p.Star == 1 {
				kwonly = true
			}
			if p.Default != nil && kwonly == (pass == 1) {
				fc.expr(p.Default)
				nd++
			}
		}
	}
	fc.at(fd)
	fc.emit(runtime.TUPLE, nd)
	fc.captures(inner, fd.Start)
	code.Name = fd.Name
	if code.Name == "" {
		code.Name = "<fn>"
	}
	sub := &fcomp{c: fc.c, scope: inner, fn: code}
	sub.pos = fd.BodyOpen
	sub.fnBody = fd.Body
	sub.body(fd.Body, false)
	idx := len(fc.c.prog.Functions)
	fc.c.prog.Functions = append(fc.c.prog.Functions, sub.finish())
	fc.at(fd)
	fc.emit(runtime.MAKE_FUNC, idx)
}

// grad compiles grad(w...) { body } / value_and_grad(w...) { body }.
func (fc *fcomp) grad(x *GradExpr) {
	if len(x.Body) == 0 {
		fc.c.fail(x.Start, "a gradient block must end with an expression (the value to differentiate)")
	}
	switch x.Body[len(x.Body)-1].(type) {
	case *ExprStmt, *IfStmt, *TryStmt:
	default:
		fc.c.fail(x.Start, "a gradient block must end with an expression (the value to differentiate), not a statement")
	}
	for _, w := range x.Wrt {
		fc.expr(w)
	}
	fc.at(x)
	arg := len(x.Wrt)
	if x.WithValue {
		arg |= 1 << 23
	}
	fc.emit(runtime.GRAD_BEGIN, arg)
	fc.exits = append(fc.exits, exitGrad)
	fc.tail(x.Body, false)
	fc.exits = fc.exits[:len(fc.exits)-1]
	fc.at(x)
	fc.emit0(runtime.GRAD_END)
}

// captures pushes the tuple of the cells a nested function (or
// comprehension) with scope inner closes over.
func (fc *fcomp) captures(inner *scope, at Pos) {
	for _, name := range inner.free {
		if i, ok := fc.scope.localIdx[name]; ok && !fc.scope.top {
			fc.emit(runtime.LOAD_CELLREF, i)
		} else if i, ok := fc.scope.freeIdx[name]; ok {
			fc.emit(runtime.LOAD_FREEREF, i)
		} else {
			fc.c.fail(at, "internal error: cannot capture %q", name)
		}
	}
	fc.emit(runtime.TUPLE, len(inner.free))
}

// comprehension compiles a list or dict comprehension as CPython 3.11
// does: a nested function of one parameter (the first clause's iterable,
// evaluated here, in the enclosing scope), called at once. Its targets
// are that function's locals, so they do not leak, and a closure made in
// the element captures them as any closure captures a local: late
// binding, `[fn() { i } for i in range(3)]` makes three functions that
// all return 2, as Python's lambdas do.
func (fc *fcomp) comprehension(x *Comprehension) {
	inner := fc.c.inner[x]
	fc.at(x)
	fc.emit(runtime.TUPLE, 0) // no defaults
	fc.captures(inner, x.Start)
	name := "<listcomp>"
	if x.Dict {
		name = "<dictcomp>"
	} else if x.Set {
		name = "<setcomp>"
	}
	sub := &fcomp{c: fc.c, scope: inner, comp: true, fn: &runtime.Funcode{
		Prog: fc.c.prog, Name: name, Pos: x.Start, NumParams: 1,
	}}
	sub.compBody(x)
	idx := len(fc.c.prog.Functions)
	fc.c.prog.Functions = append(fc.c.prog.Functions, sub.finish())
	fc.at(x)
	fc.emit(runtime.MAKE_FUNC, idx)
	fc.expr(x.Fors[0].X)
	fc.at(x)
	fc.emit(runtime.CALL, 1)
	if x.Set {
		fc.emit(runtime.SET, runtime.MaxArg)
	}
}

// compBody compiles a comprehension's function: the result list (dict)
// at the bottom of the stack, one iterator above it per clause, each
// clause a for loop over the next, its filters jumping back to its head,
// and in the innermost loop LIST_APPEND (DICT_SET) into the result below
// the iterators.
func (fc *fcomp) compBody(x *Comprehension) {
	fc.at(x)
	if x.Dict {
		fc.emit(runtime.DICT, 0)
	} else {
		fc.emit(runtime.LIST, 0)
	}
	heads := make([]int, len(x.Fors))
	skips := make([][]int, len(x.Fors)) // filters' JMP_FALSEs, to the JMP back to their clause's head
	for i, c := range x.Fors {
		if i == 0 {
			fc.at(c.X)
			fc.emit(runtime.LOAD_LOCAL, 0) // compIter
		} else {
			fc.expr(c.X)
		}
		fc.at(c.X)
		fc.emit0(runtime.ITER_PUSH)
		heads[i] = fc.emit0(runtime.ITER_NEXT)
		fc.depth++ // the element pushed by ITER_NEXT
		fc.assign(c.Target)
		for _, cond := range c.Ifs {
			fc.expr(cond)
			fc.at(cond)
			skips[i] = append(skips[i], fc.emit0(runtime.JMP_FALSE))
		}
	}
	n := len(x.Fors)
	if x.Dict {
		fc.expr(x.Key)
		fc.expr(x.Value)
		fc.at(x)
		fc.emit(runtime.DICT_SET, n)
	} else {
		fc.expr(x.Elt)
		fc.at(x)
		fc.emit(runtime.LIST_APPEND, n)
	}
	for i := n - 1; i >= 0; i-- {
		fc.at(x.Fors[i])
		for _, j := range skips[i] {
			fc.patch(j) // a backward JMP, where the VM checks for cancellation
		}
		fc.emit(runtime.JMP, heads[i])
		fc.patch(heads[i])
		fc.emit0(runtime.POP) // the iterator
	}
	_, fc.pos = x.Span()
	fc.emit0(runtime.RETURN)
}
