package runtime

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync/atomic"
)

// DefaultMaxDepth is the call depth limit used when Thread.MaxDepth is 0.
const DefaultMaxDepth = 2000

// vmState is the VM's per-thread state: call stack, value stack arena,
// step counter and cancel flag.
type vmState struct {
	frames    []*frame // frames[:depth] are active; the rest are reused
	arena     []Value  // value stack slab; frames take windows of it
	sp        int      // first free slot of arena
	steps     uint64
	limit     uint64
	cancelled atomic.Bool
	reason    atomic.Pointer[string]
	depth     int
	// entered counts nested VM entries from Go (Exec, Call from a host).
	entered int
	// fresh is the last FRESH_MARK's mark (math.MaxInt64: the callee was
	// not a builtin, so its result may be reachable elsewhere). Every run
	// of tsr code resets it to math.MaxInt64 when it ends, so that a mark
	// taken inside a callee never stands for the call to it.
	fresh int64
	// methods are bound methods free for METHOD to reuse (see bindMethod).
	methods []*Builtin
	// deferEinsum is set by a FreshDefer FRESH_MARK whose callee is an
	// einsum literal, for the CALL right after it (Einsum.Call clears it).
	deferEinsum bool
}

// bindMethod returns the unbound method m bound to recv, from the pool
// when it holds one. CALL gives it back (releaseMethod) after the call:
// the bound method lives only between the METHOD and the CALL.
func (vm *vmState) bindMethod(m *Builtin, recv Value) *Builtin {
	var b *Builtin
	if n := len(vm.methods); n > 0 {
		b = vm.methods[n-1]
		vm.methods[n-1] = nil
		vm.methods = vm.methods[:n-1]
	} else {
		b = new(Builtin)
	}
	// field by field: a struct assignment is a bulk copy with GC barriers
	b.name, b.fn, b.recv, b.Doc = m.name, m.fn, recv, m.Doc
	b.FreshResults, b.pooled = m.FreshResults, true
	return b
}

// releaseMethod returns a bound method made by bindMethod to the pool,
// dropping its receiver (the rest points to static data).
func (vm *vmState) releaseMethod(b *Builtin) {
	b.recv = nil
	if len(vm.methods) < 64 {
		vm.methods = append(vm.methods, b)
	}
}

// frame is one active tsr function call, for tracebacks.
type frame struct {
	fn *Function
	pc int // pc of the instruction being executed (updated at calls and errors)
}

// moduleEnv holds a program's global variable slots.
type moduleEnv struct {
	prog    *Program
	globals []*gslot // slots shared with the Globals the program runs in
}

// gslot is a global variable: its value, and whether the VM has claimed
// that value (see Recyclable).
type gslot struct {
	v       Value
	claimed bool
}

// Globals is a persistent global namespace: every program run in it (the
// entries of a REPL session, the Evals of an embedding Interpreter) shares
// one slot per name, so functions defined by one program see variables
// assigned by a later one.
type Globals struct {
	slots map[string]*gslot
	// running counts the programs running in g (ExecIn); more than one
	// when a host function called by a running program runs another.
	running int
}

// NewGlobals returns a namespace holding the given values.
func NewGlobals(init map[string]Value) *Globals {
	g := &Globals{slots: make(map[string]*gslot, len(init))}
	for k, v := range init {
		g.Set(k, v)
	}
	return g
}

// Get returns the value bound to name.
func (g *Globals) Get(name string) (Value, bool) {
	if p := g.slots[name]; p != nil && p.v != nil {
		p.claimed = false // the caller may keep the value
		return p.v, true
	}
	return nil, false
}

// Set binds name to v.
func (g *Globals) Set(name string, v Value) {
	if p := g.slots[name]; p != nil {
		p.v, p.claimed = v, false
		return
	}
	g.slots[name] = &gslot{v: v}
}

// Delete unbinds name and reports whether it was bound.
func (g *Globals) Delete(name string) bool {
	p := g.slots[name]
	if p == nil || p.v == nil {
		return false
	}
	p.v, p.claimed = nil, false
	return true
}

// Names returns the bound names, sorted.
func (g *Globals) Names() []string {
	var names []string
	for k, p := range g.slots {
		if p.v != nil {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return names
}

// slot returns name's slot, creating it (bound to the Universe value of
// that name, if any) when absent.
func (g *Globals) slot(name string) *gslot {
	if p := g.slots[name]; p != nil {
		return p
	}
	p := new(gslot)
	if v, ok := Universe[name]; ok {
		p.v = v
	}
	g.slots[name] = p
	return p
}

// claimMark is the Recyclable.Claim argument of a STORE_*_C instruction:
// the fresh mark of the call just before it (ClaimCall), else -1.
func (vm *vmState) claimMark(insn uint32) int64 {
	if insn>>8&ClaimCall != 0 {
		return vm.fresh
	}
	return -1
}

// claimable reports whether v is a Recyclable value that Claim(fresh)
// accepts. Numbers, the common results of scalar code, are ruled out by
// their concrete type before the (costlier) interface assertion.
func claimable(v Value, fresh int64) bool {
	switch v.(type) {
	case Int, Float, Bool:
		return false
	}
	r, ok := v.(Recyclable)
	return ok && r.Claim(fresh)
}

// recycle hands back old, the value of a claimed variable being
// overwritten with v (or a claimed local at its function's return, v the
// returned value), unless it is v itself.
func recycle(old, v Value) {
	if r, ok := old.(Recyclable); ok && Value(r) != v {
		r.Recycle()
	}
}

// Function is a tsr function value: compiled code plus its defaults and
// captured cells (a closure).
type Function struct {
	code     *Funcode
	fastN    int // code.fastArity()
	env      *moduleEnv
	defaults Tuple
	freevars []*cell
}

// Name returns the function's name ("<fn>" for an anonymous function).
func (f *Function) Name() string      { return f.code.Name }
func (f *Function) String() string    { return "<function " + f.code.Name + ">" }
func (*Function) Type() string        { return "function" }
func (*Function) Truth() bool         { return true }
func (f *Function) Funcode() *Funcode { return f.code }

// Signature renders f's parameter list as Python's inspect.signature
// does: "(a, b, /, c=2, *args, d, e=1.5, **kw)", each default by its
// repr, a bare * before keyword-only parameters when there is no *args.
func (f *Function) Signature() string {
	fc := f.code
	np, nk := fc.NumParams, fc.NumKwOnly
	var parts []string
	d := 0
	dflt := func(name string, has bool) string {
		if has && d < len(f.defaults) {
			name += "=" + Repr(f.defaults[d])
			d++
		}
		return name
	}
	for i := 0; i < np; i++ {
		parts = append(parts, dflt(fc.Locals[i], i >= np-fc.NumDefaults))
		if i+1 == fc.NumPosOnly {
			parts = append(parts, "/")
		}
	}
	slot := np + nk
	if fc.VarArgs {
		parts = append(parts, "*"+fc.Locals[slot])
		slot++
	} else if nk > 0 {
		parts = append(parts, "*")
	}
	for i := 0; i < nk; i++ {
		parts = append(parts, dflt(fc.Locals[np+i], i < len(fc.KwOnlyDefault) && fc.KwOnlyDefault[i]))
	}
	if fc.VarKw {
		parts = append(parts, "**"+fc.Locals[slot])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Call runs the function on th.
func (f *Function) Call(th *Thread, args []Value, kwargs []Kwarg) (Value, error) {
	return th.callFunction(f, args, kwargs)
}

// cell is a captured variable shared by a function and its closures.
type cell struct{ v Value }

func (*cell) String() string { return "<cell>" }
func (*cell) Type() string   { return "cell" }
func (*cell) Truth() bool    { return true }

// iterValue carries an Iterator on the operand stack during a for loop.
type iterValue struct{ it Iterator }

func (*iterValue) String() string { return "<iterator>" }
func (*iterValue) Type() string   { return "iterator" }
func (*iterValue) Truth() bool    { return true }

// Einsum is the value of an ein"..." literal: calling it runs the equation
// through the thread's Einsum hook (installed by stdlib).
type Einsum struct {
	Equation string
}

func (e *Einsum) String() string { return "ein\"" + e.Equation + "\"" }
func (*Einsum) Type() string     { return "einsum" }
func (*Einsum) Truth() bool      { return true }
func (e *Einsum) Name() string   { return e.String() }

// Call evaluates the einsum on the given operands via th.Einsum.
func (e *Einsum) Call(th *Thread, args []Value, kwargs []Kwarg) (Value, error) {
	if th.Einsum == nil {
		return nil, Errorf("RuntimeError", "einsum literals are not available: no einsum implementation installed on this thread")
	}
	deferred := th.vm.deferEinsum
	th.vm.deferEinsum = false
	if deferred && th.EinsumDeferred != nil {
		return th.EinsumDeferred(th, e.Equation, args, kwargs)
	}
	return th.Einsum(th, e.Equation, args, kwargs)
}

// Cancel asks the running program to stop at its next check (loop back
// edge or call) with a "Cancelled" error carrying reason. Safe to call from
// any goroutine.
func (th *Thread) Cancel(reason string) {
	th.vm.reason.Store(&reason)
	th.vm.cancelled.Store(true)
}

// ResetCancel clears a previous Cancel so the thread can run again.
func (th *Thread) ResetCancel() {
	th.vm.cancelled.Store(false)
}

// Steps returns the number of VM steps executed by the current (or last)
// top-level run.
func (th *Thread) Steps() uint64 { return th.vm.steps }

// CurrentPos returns "file:line:col" of the instruction the innermost
// running tsr function is executing (its last call or operator), or "" when
// none is running. Libraries use it to remember where an op was recorded
// (autograd's anomaly mode).
func (th *Thread) CurrentPos() string {
	if n := th.vm.depth; n > 0 {
		fr := th.vm.frames[n-1]
		code := fr.fn.code
		return code.Prog.Filename + ":" + code.Position(fr.pc).String()
	}
	return ""
}

// CurrentFile returns the file name of the innermost running tsr function,
// or "" when none is running (used to resolve imports relatively).
func (th *Thread) CurrentFile() string {
	if n := th.vm.depth; n > 0 {
		return th.vm.frames[n-1].fn.code.Prog.Filename
	}
	return ""
}

func (th *Thread) cancelErr() error {
	reason := "cancelled"
	if p := th.vm.reason.Load(); p != nil {
		reason = *p
	}
	return &KindError{Kind: "Cancelled", Msg: reason}
}

// Exec runs a compiled program's top-level code. Global slots are filled
// from env (by name) and then from Universe; after the run, every bound
// global is written back into env (so a REPL or host sees new variables).
// It returns the value of the program's last expression statement.
// Errors are *EvalError values.
func (th *Thread) Exec(prog *Program, env map[string]Value) (Value, error) {
	g := NewGlobals(env)
	v, err := th.ExecIn(prog, g)
	for _, name := range prog.Globals {
		if x, ok := g.Get(name); ok && env != nil {
			env[name] = x
		}
	}
	return v, err
}

// ExecIn runs a compiled program's top-level code in the namespace g,
// whose values persist across runs. Names g lacks fall back to Universe.
func (th *Thread) ExecIn(prog *Program, g *Globals) (Value, error) {
	if th.vm.entered > 0 || g.running > 0 {
		// A nested run (a registered Go function called by running tsr
		// code runs another program in the same globals): the callers'
		// stacks may hold values of claimed globals that they read as
		// operands (LOAD_GLOBAL_B) and have yet to use, which this program
		// may overwrite. Drop every claim: those values are recycled by
		// the GC instead.
		for _, p := range g.slots {
			p.claimed = false
		}
	}
	g.running++
	defer func() { g.running-- }()
	me := &moduleEnv{prog: prog, globals: make([]*gslot, len(prog.Globals))}
	for i, name := range prog.Globals {
		me.globals[i] = g.slot(name)
	}
	fn := &Function{code: prog.Toplevel, env: me, fastN: prog.Toplevel.fastArity()}
	return th.CallValue(fn, nil, nil)
}

// CallValue calls fn from Go (a host, or a builtin such as sorted's key=).
// At the outermost entry it resets the step counter and converts any
// error into an *EvalError and any Go panic into an internal error.
func (th *Thread) CallValue(fn Value, args []Value, kwargs []Kwarg) (v Value, err error) {
	vm := &th.vm
	if vm.entered == 0 {
		vm.steps = 0
		vm.limit = th.MaxSteps
		if vm.limit == 0 {
			vm.limit = math.MaxUint64
		}
		vm.depth = 0
		vm.sp = 0
		defer func() {
			if r := recover(); r != nil {
				v, err = nil, th.internalError(r)
			}
			vm.entered = 0
			vm.depth = 0
			vm.sp = 0
		}()
	}
	vm.entered++
	v, err = th.call(fn, args, kwargs)
	vm.entered--
	if err != nil {
		err = th.wrapError(err)
	}
	return v, err
}

// Call is CallValue under a shorter name, for builtins that call back into
// tsr (sorted's key=, bench.timeit).
func (th *Thread) Call(fn Value, args []Value, kwargs []Kwarg) (Value, error) {
	return th.CallValue(fn, args, kwargs)
}

// call dispatches a call to any callable value.
func (th *Thread) call(fn Value, args []Value, kwargs []Kwarg) (Value, error) {
	switch f := fn.(type) {
	case *Function:
		return th.callFunction(f, args, kwargs)
	case Callable:
		return callBuiltin(th, f, args, kwargs)
	}
	return nil, Errorf("TypeError", "'%s' object is not callable", fn.Type())
}

// callBuiltin calls a Go callable, turning a MemoryError panic into an
// error (see RecoverMemoryError) and a nil result into None.
func callBuiltin(th *Thread, f Callable, args []Value, kwargs []Kwarg) (v Value, err error) {
	defer RecoverMemoryError(&err)
	v, err = f.Call(th, args, kwargs)
	if err == nil && v == nil {
		v = None
	}
	return v, err
}

// callFunction binds arguments and runs a tsr function.
func (th *Thread) callFunction(fn *Function, args []Value, kwargs []Kwarg) (Value, error) {
	vm := &th.vm
	maxDepth := th.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if vm.depth >= maxDepth {
		return nil, Errorf("RecursionError", "maximum recursion depth exceeded (%d calls)", maxDepth)
	}
	if vm.cancelled.Load() {
		return nil, th.cancelErr()
	}
	fc := fn.code
	nlocals := len(fc.Locals)
	need := nlocals + fc.MaxStack
	if vm.sp+need > len(vm.arena) {
		// Start a fresh slab; frames still running keep their windows of
		// the old one, which becomes garbage once they return.
		size := 2 * len(vm.arena)
		if size < 1024 {
			size = 1024
		}
		for size < need {
			size *= 2
		}
		vm.arena = make([]Value, size)
		vm.sp = 0
	}
	arena := vm.arena
	base := vm.sp
	slab := arena[base : base+need : base+need]
	vm.sp += need
	locals := slab[:nlocals:nlocals]
	if len(args) == fn.fastN && len(kwargs) == 0 {
		copy(locals, args) // the common case of bindArgs
	} else if err := bindArgs(fn, locals, args, kwargs); err != nil {
		vm.sp = base
		clear(slab)
		return nil, err
	}
	for _, c := range fc.Cells {
		locals[c] = &cell{v: locals[c]}
	}
	var fr *frame
	if vm.depth < len(vm.frames) {
		fr = vm.frames[vm.depth]
	} else {
		fr = new(frame)
		vm.frames = append(vm.frames, fr)
	}
	fr.fn, fr.pc = fn, 0
	vm.depth++
	v, err := th.run(fr, locals, slab[nlocals:])
	vm.depth--
	fr.fn = nil
	clear(slab)
	if &vm.arena[0] == &arena[0] {
		vm.sp = base
	} else {
		vm.sp = 0 // a deeper call moved to a new slab, which holds no live frame now
	}
	return v, err
}

// bindArgs assigns positional, keyword and default arguments to the
// parameter slots, the extra positional arguments to *args and the extra
// keyword arguments to **kwargs, with CPython's errors.
func bindArgs(fn *Function, locals []Value, args []Value, kwargs []Kwarg) error {
	fc := fn.code
	np, nk := fc.NumParams, fc.NumKwOnly
	if len(args) > np && !fc.VarArgs {
		return tooManyPositional(fc, len(args), kwargs)
	}
	copy(locals, args[:min(len(args), np)])
	slot := np + nk
	if fc.VarArgs {
		if len(args) > np {
			locals[slot] = Tuple(append([]Value(nil), args[np:]...))
		} else {
			locals[slot] = Tuple{}
		}
		slot++
	}
	var extra *Dict
	if fc.VarKw {
		extra = NewDict(0)
		locals[slot] = extra
	}
	for _, kw := range kwargs {
		found := false
		for i := fc.NumPosOnly; i < np+nk; i++ {
			if fc.Locals[i] == kw.Name {
				if locals[i] != nil {
					return Errorf("TypeError", "%s() got multiple values for argument '%s'", fc.Name, kw.Name)
				}
				locals[i] = kw.Value
				found = true
				break
			}
		}
		if !found {
			if extra == nil {
				if names := posOnlyPassed(fc, kwargs); names != "" {
					return Errorf("TypeError", "%s() got some positional-only arguments passed as keyword arguments: '%s'", fc.Name, names)
				}
				return Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", fc.Name, kw.Name)
			}
			if _, dup, _ := extra.Get(String(kw.Name)); dup {
				return Errorf("TypeError", "%s() got multiple values for keyword argument '%s'", fc.Name, kw.Name)
			}
			if err := extra.SetKey(String(kw.Name), kw.Value); err != nil {
				return err
			}
		}
	}
	if len(args) < np {
		first := np - fc.NumDefaults
		var missing []string
		for i := len(args); i < np; i++ {
			if locals[i] != nil {
				continue
			}
			if i >= first {
				locals[i] = fn.defaults[i-first]
				continue
			}
			missing = append(missing, "'"+fc.Locals[i]+"'")
		}
		if len(missing) > 0 {
			return Errorf("TypeError", "%s() missing %s: %s", fc.Name, plural(len(missing), "required positional argument"), joinNames(missing))
		}
	}
	if nk > 0 {
		d := fc.NumDefaults
		var missing []string
		for i := 0; i < nk; i++ {
			has := i < len(fc.KwOnlyDefault) && fc.KwOnlyDefault[i]
			if locals[np+i] == nil {
				if has {
					locals[np+i] = fn.defaults[d]
				} else {
					missing = append(missing, "'"+fc.Locals[np+i]+"'")
				}
			}
			if has {
				d++
			}
		}
		if len(missing) > 0 {
			return Errorf("TypeError", "%s() missing %s: %s", fc.Name, plural(len(missing), "required keyword-only argument"), joinNames(missing))
		}
	}
	return nil
}

// posOnlyPassed lists, as CPython's error does ("a, b"), the keyword
// arguments that name positional-only parameters of fc.
func posOnlyPassed(fc *Funcode, kwargs []Kwarg) string {
	var names []string
	for _, kw := range kwargs {
		for _, n := range fc.Locals[:fc.NumPosOnly] {
			if n == kw.Name {
				names = append(names, n)
				break
			}
		}
	}
	return strings.Join(names, ", ")
}

// tooManyPositional is CPython's error for n positional arguments given
// to fc, which takes fewer and has no *args.
func tooManyPositional(fc *Funcode, n int, kwargs []Kwarg) error {
	np := fc.NumParams
	takes := plural(np, "positional argument")
	if fc.NumDefaults > 0 {
		takes = fmt.Sprintf("from %d to %d positional arguments", np-fc.NumDefaults, np)
	}
	kwonly := 0
	for _, kw := range kwargs {
		for i := np; i < np+fc.NumKwOnly; i++ {
			if fc.Locals[i] == kw.Name {
				kwonly++
			}
		}
	}
	if kwonly > 0 {
		return Errorf("TypeError", "%s() takes %s but %s (and %s) were given", fc.Name, takes,
			plural(n, "positional argument"), plural(kwonly, "keyword-only argument"))
	}
	were := "were"
	if n == 1 {
		were = "was"
	}
	return Errorf("TypeError", "%s() takes %s but %d %s given", fc.Name, takes, n, were)
}

// joinNames lists names as CPython's "missing ... arguments" message does:
// 'a', 'a' and 'b', 'a', 'b', and 'c'.
func joinNames(names []string) string {
	switch n := len(names); n {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	default:
		return strings.Join(names[:n-1], ", ") + ", and " + names[n-1]
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// handler is an active try block.
type handler struct {
	pc     int // catch code
	sp     int // stack depth to restore
	ndefer int // number of deferred exits to keep
}

// deferred is an active no_grad/detect_anomaly block or gradient block.
type deferred struct {
	exit func()
	sess GradSession
}

func (d deferred) abort() {
	if d.sess != nil {
		d.sess.Abort()
	} else if d.exit != nil {
		d.exit()
	}
}

func unwindDefers(ds []deferred, keep int) []deferred {
	for i := len(ds) - 1; i >= keep; i-- {
		ds[i].abort()
	}
	return ds[:keep]
}

// run is the interpreter loop for one frame.
func (th *Thread) run(fr *frame, locals, stack []Value) (result Value, err error) {
	vm := &th.vm
	fn := fr.fn
	fc := fn.code
	code := fc.Code
	prog := fc.Prog
	consts := prog.Consts
	globals := fn.env.globals
	var (
		handlers []handler
		defers   []deferred
		sp, pc   int
		x, y, z  Value
		// pend is a Pending this frame's BINARY_TMP has yet to consume,
		// made by the instruction at pendPC
		pend   Pending
		pendPC int
		// claimed has bit i set while local i holds a value the VM
		// claimed (STORE_LOCAL_C): only operators have read it since.
		claimed uint64
	)
	defer func() {
		// The marks this run took (FRESH_MARK) say nothing about the call
		// that ran it: a tsr function's result, or a builtin's that ran tsr
		// code (a callback, a nested program), may be kept elsewhere.
		vm.fresh = math.MaxInt64
		if r := recover(); r != nil {
			fr.pc = pc - 1
			unwindDefers(defers, 0)
			result, err = nil, th.internalError(r)
		}
	}()

loop:
	for {
		insn := code[pc]
		pc++
		vm.steps++
		if vm.steps > vm.limit {
			err = Errorf("LimitError", "step limit exceeded (%d steps)", vm.limit)
			goto fail
		}
		switch Opcode(insn & 0xff) {
		case NOP:
		case POP:
			sp--
			stack[sp] = nil
		case POPN:
			n := int(insn >> 8)
			clear(stack[sp-n : sp])
			sp -= n
		case DUP:
			stack[sp] = stack[sp-1]
			sp++
		case DUP2:
			stack[sp] = stack[sp-2]
			stack[sp+1] = stack[sp-1]
			sp += 2
		case ROT3:
			stack[sp-3], stack[sp-2], stack[sp-1] = stack[sp-1], stack[sp-3], stack[sp-2]
		case SWAP:
			stack[sp-2], stack[sp-1] = stack[sp-1], stack[sp-2]
		case CONST:
			stack[sp] = consts[insn>>8]
			sp++
		case SMALLINT:
			stack[sp] = MakeInt(int64(insn>>8) - SmallIntBias)
			sp++
		case NONE:
			stack[sp] = None
			sp++
		case TRUE:
			stack[sp] = Bool(true)
			sp++
		case FALSE:
			stack[sp] = Bool(false)
			sp++
		case LOAD_LOCAL:
			x = locals[insn>>8]
			if x == nil {
				err = Errorf("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", fc.Locals[insn>>8])
				goto fail
			}
			stack[sp] = x
			sp++
			claimed &^= 1 << (insn >> 8) // 0 for locals past 63
		case RECYCLE_POP:
			x, z = stack[sp-2], stack[sp-1]
			sp--
			stack[sp-1], stack[sp] = z, nil
			if claimable(x, -1) && x != z { // x first: z may be an uncomparable value
				x.(Recyclable).Recycle()
			}
		case LOAD_LOCAL_B:
			x = locals[insn>>8]
			if x == nil {
				err = Errorf("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", fc.Locals[insn>>8])
				goto fail
			}
			stack[sp] = x
			sp++
		case STORE_LOCAL:
			sp--
			if claimed>>(insn>>8)&1 != 0 {
				claimed &^= 1 << (insn >> 8)
				recycle(locals[insn>>8], stack[sp])
			}
			locals[insn>>8] = stack[sp]
			stack[sp] = nil
		case STORE_LOCAL_C:
			sp--
			i := insn >> 8 &^ ClaimCall
			if claimed>>i&1 != 0 {
				claimed &^= 1 << i
				recycle(locals[i], stack[sp])
			}
			locals[i] = stack[sp]
			if i < 64 && claimable(stack[sp], vm.claimMark(insn)) {
				claimed |= 1 << i
			}
			stack[sp] = nil
		case LOAD_CELL:
			x = locals[insn>>8].(*cell).v
			if x == nil {
				err = Errorf("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", fc.Locals[insn>>8])
				goto fail
			}
			stack[sp] = x
			sp++
		case STORE_CELL:
			sp--
			locals[insn>>8].(*cell).v = stack[sp]
			stack[sp] = nil
		case LOAD_FREE:
			x = fn.freevars[insn>>8].v
			if x == nil {
				err = Errorf("NameError", "cannot access free variable '%s' where it is not associated with a value in enclosing scope", fc.Freevars[insn>>8])
				goto fail
			}
			stack[sp] = x
			sp++
		case LOAD_CELLREF:
			stack[sp] = locals[insn>>8]
			sp++
		case LOAD_FREEREF:
			stack[sp] = fn.freevars[insn>>8]
			sp++
		case LOAD_GLOBAL:
			g := globals[insn>>8]
			if x = g.v; x == nil {
				err = nameError(prog.Globals[insn>>8])
				goto fail
			}
			g.claimed = false
			stack[sp] = x
			sp++
		case LOAD_GLOBAL_B:
			if x = globals[insn>>8].v; x == nil {
				err = nameError(prog.Globals[insn>>8])
				goto fail
			}
			stack[sp] = x
			sp++
		case STORE_GLOBAL:
			sp--
			g := globals[insn>>8]
			if g.claimed {
				g.claimed = false
				recycle(g.v, stack[sp])
			}
			g.v = stack[sp]
			stack[sp] = nil
		case STORE_GLOBAL_C:
			sp--
			g := globals[insn>>8&^ClaimCall]
			if g.claimed {
				g.claimed = false
				recycle(g.v, stack[sp])
			}
			g.v = stack[sp]
			if claimable(g.v, vm.claimMark(insn)) {
				g.claimed = true
			}
			stack[sp] = nil

		case ADD:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					// On int64 overflow fall through: Binary raises OverflowError.
					if s := a + b; (s^a)&(s^b) >= 0 {
						stack[sp-2] = MakeInt(int64(s))
						sp--
						stack[sp] = nil
						continue
					}
				}
			}
			if z, err = Binary(PLUS, x, y); err != nil {
				goto fail
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case SUB:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					// On int64 overflow fall through: Binary raises OverflowError.
					if s := a - b; (a^b)&(s^a) >= 0 {
						stack[sp-2] = MakeInt(int64(s))
						sp--
						stack[sp] = nil
						continue
					}
				}
			}
			if z, err = Binary(MINUS, x, y); err != nil {
				goto fail
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case MUL:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					if p, ok := MulInt64(int64(a), int64(b)); ok {
						stack[sp-2] = MakeInt(p)
						sp--
						stack[sp] = nil
						continue
					}
				}
			}
			if z, err = Binary(STAR, x, y); err != nil {
				goto fail
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE:
			x, y = stack[sp-2], stack[sp-1]
			op := Opcode(insn & 0xff)
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					var r bool
					switch op {
					case CMP_LT:
						r = a < b
					case CMP_LE:
						r = a <= b
					case CMP_GT:
						r = a > b
					case CMP_GE:
						r = a >= b
					case CMP_EQ:
						r = a == b
					default:
						r = a != b
					}
					stack[sp-2] = Bool(r)
					sp--
					stack[sp] = nil
					continue
				}
			}
			if z, err = Binary(cmpOps[op-CMP_LT], x, y); err != nil {
				goto fail
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case BINARY:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					if z, ok := intArith(Op(insn>>8), int64(a), int64(b)); ok {
						sp--
						stack[sp-1], stack[sp] = z, nil
						continue
					}
				}
			}
			fr.pc = pc - 1 // library ops (anomaly mode) may ask for the position
			z = nil
			if insn>>8&BinaryDefer != 0 {
				if hd, ok := x.(HasBinaryDefer); ok {
					if z, err = binaryDefer(hd, Op(insn>>8&^BinaryDefer), y); err != nil {
						goto fail
					}
					if p, ok := z.(Pending); ok {
						pend, pendPC = p, pc-1
					}
				}
			}
			if z == nil {
				if z, err = Binary(Op(insn>>8&^BinaryDefer), x, y); err != nil {
					goto fail
				}
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case ATTN:
			fr.pc = pc - 1
			ops := stack[sp-AttnOperands : sp]
			var ok bool
			if th.Attention != nil {
				z, ok = th.Attention(th, ops)
			}
			clear(ops)
			sp -= AttnOperands
			if ok {
				stack[sp] = z
				sp++
			} else {
				pc = int(insn >> 8)
			}
		case FRESH_MARK:
			vm.fresh = math.MaxInt64
			if th.FreshMark != nil {
				arg := int(insn >> 8)
				switch f := stack[sp-1-arg&^FreshDefer].(type) {
				case *Builtin:
					if f.FreshResults {
						vm.fresh = th.FreshMark()
					}
				case *Einsum:
					vm.fresh = th.FreshMark()
					// consumed (and cleared) by the CALL just after
					vm.deferEinsum = arg&FreshDefer != 0
				}
			}
		case BINARY_TMP:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					if z, ok := intArith(Op(insn>>8&0xffff), int64(a), int64(b)); ok {
						sp--
						stack[sp-1], stack[sp] = z, nil
						continue
					}
				}
			}
			fr.pc = pc - 1
			z = nil
			op, after := Op(insn>>8&0xffff), int64(0)
			if insn>>24 != 0 {
				after = vm.fresh
			}
			if ht, ok := x.(HasBinaryTemp); ok {
				if pend != nil && x == Value(pend) {
					pend = nil
					if z, err = binaryTemp(ht, op, y, after); err != nil {
						if de, ok := err.(*DeferredError); ok {
							err, pc = de.Err, pendPC+1 // reported where it was deferred
						}
						goto fail
					}
				} else if z, err = binaryTemp(ht, op, y, after); err != nil {
					goto fail
				}
			}
			if z == nil {
				if z, err = Binary(op, x, y); err != nil {
					goto fail
				}
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case INPLACE:
			x, y = stack[sp-2], stack[sp-1]
			if a, ok := x.(Int); ok {
				if b, ok := y.(Int); ok {
					switch Op(insn >> 8) {
					case PLUS:
						if s := a + b; (s^a)&(s^b) >= 0 {
							stack[sp-2] = MakeInt(int64(s))
							sp--
							stack[sp] = nil
							continue
						}
					case MINUS:
						if s := a - b; (a^b)&(s^a) >= 0 {
							stack[sp-2] = MakeInt(int64(s))
							sp--
							stack[sp] = nil
							continue
						}
					}
				}
			}
			if z, err = Inplace(Op(insn>>8), x, y); err != nil {
				goto fail
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case UNARY:
			if z, err = Unary(Op(insn>>8), stack[sp-1]); err != nil {
				goto fail
			}
			stack[sp-1] = z
		case UNARY_NOT:
			var t bool
			if t, err = truth(stack[sp-1]); err != nil {
				goto fail
			}
			stack[sp-1] = Bool(!t)
		case NOTIN:
			x, y = stack[sp-2], stack[sp-1]
			if z, err = Binary(IN, x, y); err != nil {
				goto fail
			}
			if b, ok := z.(Bool); ok {
				z = !b
			} else {
				z = Bool(!z.Truth())
			}
			sp--
			stack[sp-1], stack[sp] = z, nil

		case JMP:
			target := int(insn >> 8)
			if target < pc && vm.cancelled.Load() {
				err = th.cancelErr()
				goto fail
			}
			pc = target
		case JMP_FALSE:
			sp--
			x = stack[sp]
			stack[sp] = nil
			if b, ok := x.(Bool); ok {
				if !b {
					pc = int(insn >> 8)
				}
			} else {
				var t bool
				if t, err = truth(x); err != nil {
					goto fail
				}
				if !t {
					pc = int(insn >> 8)
				}
			}
		case JMP_TRUE:
			sp--
			x = stack[sp]
			stack[sp] = nil
			var t bool
			if t, err = truth(x); err != nil {
				goto fail
			}
			if t {
				pc = int(insn >> 8)
			}
		case JMP_FALSE_OR_POP:
			var t bool
			if t, err = truth(stack[sp-1]); err != nil {
				goto fail
			}
			if !t {
				pc = int(insn >> 8)
			} else {
				sp--
				stack[sp] = nil
			}
		case JMP_TRUE_OR_POP:
			var t bool
			if t, err = truth(stack[sp-1]); err != nil {
				goto fail
			}
			if t {
				pc = int(insn >> 8)
			} else {
				sp--
				stack[sp] = nil
			}
		case ITER_PUSH:
			var it Iterator
			if it, err = Iterate(stack[sp-1]); err != nil {
				goto fail
			}
			stack[sp-1] = &iterValue{it: it}
		case ITER_NEXT:
			iv := stack[sp-1].(*iterValue)
			var ok bool
			if ri, isRange := iv.it.(*rangeIter); isRange {
				if ri.left > 0 {
					x, ok = MakeInt(ri.next), true
					ri.left--
					ri.next += ri.step
				}
			} else {
				x, ok = iv.it.Next()
			}
			if !ok {
				if err = IterErr(iv.it); err != nil {
					goto fail
				}
				pc = int(insn >> 8)
				continue
			}
			stack[sp] = x
			sp++
		case RETURN:
			result = stack[sp-1]
			unwindDefers(defers, 0)
			for claimed != 0 {
				i := bits.TrailingZeros64(claimed)
				claimed &^= 1 << i
				recycle(locals[i], result)
			}
			return result, nil

		case CALL, CALL_KW:
			var kwargs []Kwarg
			npos := int(insn >> 8)
			if Opcode(insn&0xff) == CALL_KW {
				nkw := npos >> 12
				npos &= 0xfff
				kwargs = make([]Kwarg, nkw)
				base := sp - 2*nkw
				for i := range kwargs {
					kwargs[i] = Kwarg{Name: string(stack[base+2*i].(String)), Value: stack[base+2*i+1]}
				}
				clear(stack[base:sp])
				sp = base
			}
			f := stack[sp-npos-1]
			args := stack[sp-npos : sp]
			fr.pc = pc - 1
			if g, ok := f.(*Function); ok {
				z, err = th.callFunction(g, args, kwargs)
			} else {
				deferred := vm.deferEinsum
				z, err = th.call(f, args, kwargs)
				vm.deferEinsum = false // also when the call failed before Einsum.Call
				if b, ok := f.(*Builtin); ok && b.pooled {
					vm.releaseMethod(b)
				}
				if deferred && err == nil {
					if p, ok := z.(Pending); ok {
						pend, pendPC = p, pc-1
					}
				}
			}
			if err != nil {
				goto fail
			}
			clear(stack[sp-npos-1 : sp])
			sp -= npos
			stack[sp-1] = z
		case CALL_EX:
			var kwargs []Kwarg
			if insn>>8 != 0 {
				kwargs = kwargList(stack[sp-1].(*Dict))
				sp--
				stack[sp] = nil
			}
			args := stack[sp-1].(*List).Elems
			f := stack[sp-2]
			fr.pc = pc - 1
			if g, ok := f.(*Function); ok {
				z, err = th.callFunction(g, args, kwargs)
			} else {
				z, err = th.call(f, args, kwargs)
				if b, ok := f.(*Builtin); ok && b.pooled {
					vm.releaseMethod(b)
				}
			}
			if err != nil {
				goto fail
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = z
		case LIST_EXTEND:
			if err = extendList(stack[sp-2].(*List), stack[sp-1]); err != nil {
				if insn>>8 != 0 {
					err = starArgError(stack[sp-3], stack[sp-1], err)
				}
				goto fail
			}
			sp--
			stack[sp] = nil
		case KW_MERGE:
			if insn>>8 == 0 {
				err = kwSet(stack[sp-5], stack[sp-3].(*Dict), stack[sp-2], stack[sp-1])
				sp -= 2
				stack[sp], stack[sp+1] = nil, nil
			} else {
				err = kwMerge(stack[sp-4], stack[sp-2].(*Dict), stack[sp-1])
				sp--
				stack[sp] = nil
			}
			if err != nil {
				goto fail
			}
		case SET:
			n := int(insn >> 8)
			set := NewSet()
			elems := stack[sp-1 : sp]
			if n == MaxArg {
				elems = stack[sp-1].(*List).Elems
				n = 1
			} else {
				elems = stack[sp-n : sp]
			}
			for _, e := range elems {
				if err = set.Add(e); err != nil {
					goto fail
				}
			}
			clear(stack[sp-n : sp])
			sp -= n
			stack[sp] = set
			sp++
		case DEL_LOCAL:
			if locals[insn>>8] == nil {
				err = Errorf("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", fc.Locals[insn>>8])
				goto fail
			}
			locals[insn>>8] = nil
			claimed &^= 1 << (insn >> 8)
		case DEL_CELL:
			if c := locals[insn>>8].(*cell); c.v == nil {
				err = Errorf("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", fc.Locals[insn>>8])
				goto fail
			} else {
				c.v = nil
			}
		case DEL_GLOBAL:
			g := globals[insn>>8]
			if g.v == nil {
				err = nameError(prog.Globals[insn>>8])
				goto fail
			}
			g.v, g.claimed = nil, false
		case DEL_INDEX:
			fr.pc = pc - 1
			if err = DelIndex(stack[sp-2], stack[sp-1]); err != nil {
				goto fail
			}
			sp -= 2
			stack[sp], stack[sp+1] = nil, nil
		case DEL_ATTR:
			fr.pc = pc - 1
			if err = DelAttr(stack[sp-1], prog.Names[insn>>8]); err != nil {
				goto fail
			}
			sp--
			stack[sp] = nil
		case DICT_UPDATE:
			if err = mergeMapping(stack[sp-2].(*Dict), stack[sp-1]); err != nil {
				goto fail
			}
			sp--
			stack[sp] = nil
		case LIST_TUPLE:
			stack[sp-1] = Tuple(stack[sp-1].(*List).Elems)
		case UNPACK_EX:
			before, after := int(insn>>8)&0xfff, int(insn>>20)
			var elems []Value
			if elems, err = unpackStar(stack[sp-1], before, after); err != nil {
				goto fail
			}
			sp--
			for i := len(elems) - 1; i >= 0; i-- {
				stack[sp] = elems[i]
				sp++
			}
		case MAKE_FUNC:
			free := stack[sp-1].(Tuple)
			defs := stack[sp-2].(Tuple)
			gc := prog.Functions[insn>>8]
			g := &Function{code: gc, env: fn.env, defaults: defs, fastN: gc.fastArity()}
			if len(free) > 0 {
				g.freevars = make([]*cell, len(free))
				for i, c := range free {
					g.freevars[i] = c.(*cell)
				}
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = g
		case LIST:
			n := int(insn >> 8)
			elems := make([]Value, n)
			copy(elems, stack[sp-n:sp])
			clear(stack[sp-n : sp])
			sp -= n
			stack[sp] = NewList(elems)
			sp++
		case TUPLE:
			n := int(insn >> 8)
			var t Tuple
			if n > 0 {
				t = make(Tuple, n)
				copy(t, stack[sp-n:sp])
				clear(stack[sp-n : sp])
			} else {
				t = Tuple{}
			}
			sp -= n
			stack[sp] = t
			sp++
		case DICT:
			n := int(insn >> 8)
			d := NewDict(n)
			base := sp - 2*n
			for i := 0; i < n; i++ {
				if err = d.SetKey(stack[base+2*i], stack[base+2*i+1]); err != nil {
					goto fail
				}
			}
			clear(stack[base:sp])
			sp = base
			stack[sp] = d
			sp++
		case SLICE:
			s := &Slice{Start: stack[sp-3], Stop: stack[sp-2], Step: stack[sp-1]}
			clear(stack[sp-3 : sp])
			sp -= 3
			stack[sp] = s
			sp++
		case INDEX:
			x, y = stack[sp-2], stack[sp-1]
			z = nil
			// fast paths: an in-range int into a list, any key into a dict
			switch c := x.(type) {
			case *List:
				if k, ok := y.(Int); ok {
					if i := int64(k); i >= 0 && i < int64(len(c.Elems)) {
						z = c.Elems[i]
					} else if i < 0 && i >= -int64(len(c.Elems)) {
						z = c.Elems[i+int64(len(c.Elems))]
					}
				}
			case *Dict:
				if z, err = c.Index(y); err != nil {
					goto fail
				}
			}
			if z == nil {
				if z, err = Index(x, y); err != nil {
					goto fail
				}
			}
			sp--
			stack[sp-1], stack[sp] = z, nil
		case SETINDEX:
			x, y = stack[sp-2], stack[sp-1]
			done := false
			switch c := x.(type) {
			case *List:
				if k, ok := y.(Int); ok {
					if i := int64(k); i >= 0 && i < int64(len(c.Elems)) {
						c.Elems[i], done = stack[sp-3], true
					} else if i < 0 && i >= -int64(len(c.Elems)) {
						c.Elems[i+int64(len(c.Elems))], done = stack[sp-3], true
					}
				}
			case *Dict:
				if err = c.SetKey(y, stack[sp-3]); err != nil {
					goto fail
				}
				done = true
			}
			if !done {
				if err = SetIndex(x, y, stack[sp-3]); err != nil {
					goto fail
				}
			}
			clear(stack[sp-3 : sp])
			sp -= 3
		case ATTR:
			fr.pc = pc - 1
			if z, err = GetAttr(stack[sp-1], prog.Names[insn>>8]); err != nil {
				goto fail
			}
			stack[sp-1] = z
		case LIST_APPEND:
			sp--
			l := stack[sp-1-int(insn>>8)].(*List)
			l.Elems = appendDoubling(l.Elems, stack[sp])
			stack[sp] = nil
		case DICT_SET:
			if err = stack[sp-3-int(insn>>8)].(*Dict).SetKey(stack[sp-2], stack[sp-1]); err != nil {
				goto fail
			}
			sp -= 2
			stack[sp], stack[sp+1] = nil, nil
		case IS:
			r := Identical(stack[sp-2], stack[sp-1])
			if insn>>8 != 0 {
				r = !r
			}
			sp--
			stack[sp-1], stack[sp] = Bool(r), nil
		case METHOD:
			x = stack[sp-1]
			if m := prog.method(x, int(insn>>8)); m != nil {
				stack[sp-1] = vm.bindMethod(m, x)
				break
			}
			fr.pc = pc - 1
			if z, err = GetAttr(x, prog.Names[insn>>8]); err != nil {
				goto fail
			}
			stack[sp-1] = z
		case SETATTR:
			if err = SetAttr(stack[sp-1], prog.Names[insn>>8], stack[sp-2]); err != nil {
				goto fail
			}
			clear(stack[sp-2 : sp])
			sp -= 2
		case UNPACK:
			n := int(insn >> 8)
			var elems []Value
			if elems, err = unpackN(stack[sp-1], n); err != nil {
				goto fail
			}
			sp--
			for i := n - 1; i >= 0; i-- {
				stack[sp] = elems[i]
				sp++
			}
		case FORMAT:
			arg := int(insn >> 8)
			x = stack[sp-1]
			if arg == MaxArg {
				if _, ok := x.(String); !ok {
					var s string
					if s, err = FormatValue(x, ""); err != nil {
						goto fail
					}
					stack[sp-1] = String(s)
				}
			} else {
				var s string
				if s, err = FormatValue(x, string(consts[arg].(String))); err != nil {
					goto fail
				}
				stack[sp-1] = String(s)
			}
		case REPR:
			var s string
			switch insn >> 8 {
			case ConvStr:
				s, err = StrE(stack[sp-1])
			case ConvASCII:
				if s, err = ReprE(stack[sp-1]); err == nil {
					s = asciiEscape(s)
				}
			default:
				s, err = ReprE(stack[sp-1])
			}
			if err != nil {
				goto fail
			}
			stack[sp-1] = String(s)
		case FORMAT_SPEC:
			spec, ok := stack[sp-1].(String)
			if !ok {
				err = Errorf("TypeError", "format spec must be a str, not %s", stack[sp-1].Type())
				goto fail
			}
			var s string
			if s, err = FormatValue(stack[sp-2], string(spec)); err != nil {
				goto fail
			}
			stack[sp-1] = nil
			sp--
			stack[sp-1] = String(s)
		case CONCAT:
			n := int(insn >> 8)
			parts := stack[sp-n : sp]
			size := 0
			for _, v := range parts {
				size += len(v.(String))
			}
			var b strings.Builder
			b.Grow(size)
			for _, v := range parts {
				b.WriteString(string(v.(String)))
			}
			clear(stack[sp-n : sp])
			sp -= n
			stack[sp] = String(b.String())
			sp++
		case IMPORT:
			path := string(consts[insn>>8].(String))
			if th.Load == nil {
				err = Errorf("ImportError", "import is not available in this interpreter")
				goto fail
			}
			fr.pc = pc - 1
			var m *Module
			if m, err = th.Load(th, path); err != nil {
				goto fail
			}
			stack[sp] = m
			sp++
		case ASSERT:
			msg := "" // Python: a bare assert has an empty message
			if insn>>8 == 1 {
				sp--
				msg = stack[sp].String()
				stack[sp] = nil
			}
			err = &KindError{Kind: "AssertionError", Msg: msg}
			goto fail

		case TRY_BEGIN:
			handlers = append(handlers, handler{pc: int(insn >> 8), sp: sp, ndefer: len(defers)})
		case TRY_END:
			handlers = handlers[:len(handlers)-1]
		case BLOCK_ENTER:
			name := string(consts[insn>>8].(String))
			if th.Hooks == nil {
				err = Errorf("RuntimeError", "%s blocks are not available: no context hooks installed on this thread", name)
				goto fail
			}
			var exit func()
			if exit, err = th.Hooks.EnterBlock(th, name); err != nil {
				goto fail
			}
			defers = append(defers, deferred{exit: exit})
		case BLOCK_EXIT:
			d := defers[len(defers)-1]
			defers = defers[:len(defers)-1]
			if d.exit != nil {
				d.exit()
			}
		case GRAD_BEGIN:
			n := int(insn>>8) & 0x7fffff
			withValue := insn>>8&(1<<23) != 0
			if th.Hooks == nil {
				err = Errorf("RuntimeError", "gradient blocks are not available: no context hooks installed on this thread")
				goto fail
			}
			wrt := make([]Value, n)
			copy(wrt, stack[sp-n:sp])
			clear(stack[sp-n : sp])
			sp -= n
			var sess GradSession
			if sess, err = th.Hooks.BeginGrad(th, wrt, withValue); err != nil {
				goto fail
			}
			defers = append(defers, deferred{sess: sess})
		case GRAD_END:
			d := defers[len(defers)-1]
			defers = defers[:len(defers)-1]
			if z, err = d.sess.Finish(stack[sp-1]); err != nil {
				goto fail
			}
			if z == nil {
				z = None
			}
			stack[sp-1] = z
		case GRAD_ABORT:
			d := defers[len(defers)-1]
			defers = defers[:len(defers)-1]
			d.sess.Abort()
		case RAISE:
			sp--
			x = stack[sp]
			stack[sp] = nil
			if ev, ok := x.(*ErrorValue); ok {
				err = &KindError{Kind: ev.Kind, Msg: ev.Message}
			} else {
				err = Errorf("TypeError", "exceptions must be error values, not %s", x.Type())
			}
			goto fail
		default:
			err = fmt.Errorf("invalid opcode %v", Opcode(insn&0xff))
			goto fail
		}
		continue loop

	fail:
		if pend != nil {
			// the operand of a deferred operation failed: the undeferred
			// program would have computed that operation first
			if perr := forcePending(pend); perr != nil {
				err, pc = perr, pendPC+1
			}
			pend = nil
		}
		fr.pc = pc - 1
		err = th.wrapError(err)
		if len(handlers) > 0 && catchable(err) {
			h := handlers[len(handlers)-1]
			handlers = handlers[:len(handlers)-1]
			defers = unwindDefers(defers, h.ndefer)
			clear(stack[h.sp:sp])
			sp = h.sp
			stack[sp] = err.(*EvalError).Value()
			sp++
			pc = h.pc
			err = nil
			continue loop
		}
		unwindDefers(defers, 0)
		return nil, err
	}
}

var cmpOps = [...]Op{CMP_LT - CMP_LT: LT, CMP_LE - CMP_LT: LE, CMP_GT - CMP_LT: GT, CMP_GE - CMP_LT: GE, CMP_EQ - CMP_LT: EQL, CMP_NE - CMP_LT: NEQ}

// intArith is the int fast path of BINARY and BINARY_TMP: a op b for
// + - * // %, or ok false when the generic path (Binary) must run: another
// operator, a zero divisor or an overflow, for which Binary raises the
// error.
func intArith(op Op, a, b int64) (_ Value, ok bool) {
	switch op {
	case PLUS:
		if r, ok := AddInt64(a, b); ok {
			return MakeInt(r), true
		}
	case MINUS:
		if r, ok := SubInt64(a, b); ok {
			return MakeInt(r), true
		}
	case STAR:
		if r, ok := MulInt64(a, b); ok {
			return MakeInt(r), true
		}
	case PERCENT:
		if b != 0 {
			return MakeInt(floorMod(a, b)), true
		}
	case SLASHSLASH:
		if b != 0 && (b != -1 || a != math.MinInt64) {
			return MakeInt(floorDiv(a, b)), true
		}
	}
	return nil, false
}

// unpackN returns the n elements of x for a, b, ... = x.
func unpackN(x Value, n int) ([]Value, error) {
	var elems []Value
	switch v := x.(type) {
	case Tuple:
		elems = v
	case *List:
		elems = v.Elems
	case *NamedTuple:
		elems = v.Tuple
	default:
		if ie, ok := x.(IterableE); ok {
			// a value that refuses iteration says why (a 0-d tensor:
			// "iteration over a 0-d tensor"), before its length is used
			if _, err := ie.IterateE(); err != nil {
				return nil, err
			}
		}
		if s, ok := x.(HasLen); ok {
			if l := s.Len(); l != n {
				return nil, unpackCountErr(l, n)
			}
		}
		it, err := Iterate(x)
		if err != nil {
			return nil, Errorf("TypeError", "cannot unpack non-iterable %s object", x.Type())
		}
		for {
			v, ok := it.Next()
			if !ok {
				if err := IterErr(it); err != nil {
					return nil, err
				}
				break
			}
			elems = append(elems, v)
			if len(elems) > n {
				return nil, unpackCountErr(len(elems), n)
			}
		}
	}
	if len(elems) != n {
		return nil, unpackCountErr(len(elems), n)
	}
	return elems, nil
}

func unpackCountErr(got, want int) error {
	if got > want {
		return Errorf("ValueError", "too many values to unpack (expected %d)", want)
	}
	return Errorf("ValueError", "not enough values to unpack (expected %d, got %d)", want, got)
}

// binaryDefer is hd.BinaryDefer with a MemoryError panic as its error.
func binaryDefer(hd HasBinaryDefer, op Op, y Value) (_ Value, err error) {
	defer RecoverMemoryError(&err)
	lend(hd, y)
	return hd.BinaryDefer(op, y)
}

// binaryTemp is ht.BinaryTemp with a MemoryError panic as its error.
func binaryTemp(ht HasBinaryTemp, op Op, y Value, after int64) (_ Value, err error) {
	defer RecoverMemoryError(&err)
	lend(ht, y)
	return ht.BinaryTemp(op, y, after)
}

// forcePending is p.Force with a MemoryError panic as its error.
func forcePending(p Pending) (err error) {
	defer RecoverMemoryError(&err)
	return p.Force()
}

// nameError is the NameError for an undefined global, with a hint for the
// Python and PyTorch spellings a newcomer types first (None, True, torch).
func nameError(name string) error {
	hint := ""
	switch name {
	case "None", "True", "False":
		hint = fmt.Sprintf(" (tsr spells it '%s')", strings.ToLower(name))
	case "torch", "np", "numpy", "F":
		hint = " (tsr has no such namespace: tensor functions are top-level (ones, randn, cat), nn.functional's are in nn, and linalg, optim, special are modules)"
	}
	return Errorf("NameError", "name '%s' is not defined%s", name, hint)
}
