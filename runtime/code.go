package runtime

import (
	"fmt"
	"sync"
)

// Pos is a source position: 1-based line and column (in runes).
type Pos struct {
	Line, Col int32
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Opcode is a VM instruction's operation. An instruction is one uint32
// word: the opcode in the low 8 bits and a 24-bit operand above it.
type Opcode uint8

// MaxArg is the largest instruction operand.
const MaxArg = 1<<24 - 1

// Instruction set. "arg" is the 24-bit operand; stack effects are written
// before -- after.
// ClaimCall is the STORE_LOCAL_C / STORE_GLOBAL_C argument bit saying the
// stored value is the result of the call just before (compiled with
// FRESH_MARK), claimed when it was created during that call; without it,
// the value is an operator's result.
const ClaimCall = 1 << 23

// FreshDefer is the FRESH_MARK argument bit that allows a deferred einsum
// (see FRESH_MARK).
const FreshDefer = 1 << 20

// AttnMethodSoftmax is the ATTN descriptor flag (see Thread.Attention) for
// the method form x.softmax(dim): its softmax operand is None, which a
// softmax name bound to none also gives.
const AttnMethodSoftmax = 1 << 8

// BinaryDefer is the BINARY argument bit (above the Op) that the compiler
// sets on x @ y when the product feeds a BINARY_TMP * or / by a
// side-effect-free operand: a left operand implementing HasBinaryDefer may
// then return a pending product that the BINARY_TMP finishes (a number
// folds in as the GEMM's epilogue scale).
const BinaryDefer = 1 << 16

const (
	NOP Opcode = iota

	// stack manipulation
	POP  // x --
	POPN // x1..xn -- ; arg = n
	DUP  // x -- x x
	DUP2 // x y -- x y x y
	ROT3 // x y z -- z x y  (moves top below two)
	SWAP // x y -- y x

	// constants
	CONST    // -- consts[arg]
	SMALLINT // -- Int(arg - SmallIntBias)
	NONE     // -- None
	TRUE     // -- true
	FALSE    // -- false

	// variables
	LOAD_LOCAL   // -- locals[arg]
	STORE_LOCAL  // x -- ; locals[arg] = x
	LOAD_CELL    // -- *locals[arg] (the local is a captured cell)
	STORE_CELL   // x --
	LOAD_FREE    // -- *freevars[arg]
	LOAD_CELLREF // -- cell: pushes the cell of local arg (for closures)
	LOAD_FREEREF // -- cell: pushes free cell arg (for nested closures)
	LOAD_GLOBAL  // -- globals[arg] (NameError if unbound)
	STORE_GLOBAL // x --

	// operators (int/float fast paths inline, then the generic path)
	ADD    // x y -- x+y
	SUB    // x y -- x-y
	MUL    // x y -- x*y
	CMP_LT // x y -- x<y
	CMP_LE // x y -- x<=y
	CMP_GT // x y -- x>y
	CMP_GE // x y -- x>=y
	CMP_EQ // x y -- x==y
	CMP_NE // x y -- x!=y
	BINARY // x y -- x op y ; arg = Op (| BinaryDefer)
	// BINARY_TMP is BINARY where x is the result of another arithmetic
	// operator, a temporary nothing else can reach: a value implementing
	// HasBinaryTemp may compute x op y into x (NumPy's temporary elision).
	BINARY_TMP // x y -- x op y ; arg = Op (+ - * /), | 1<<16 when x is a call's result (see FRESH_MARK)
	// FRESH_MARK precedes a CALL whose result feeds BINARY_TMP: when the
	// callee (arg slots below the top) is a builtin with FreshResults or an
	// einsum literal, it records Thread.FreshMark(), so that only a value
	// the call created counts as a temporary; any other callee (a tsr or
	// host function may return a value it also stored) records a mark
	// nothing passes.
	//
	// With FreshDefer set in arg (the compiler sets it for an ein"..."
	// literal's call under * or / by an operand whose evaluation has no
	// effects), an einsum callee is run through Thread.EinsumDeferred
	// when that is installed: the CALL pushes a value that only the
	// BINARY_TMP consuming it sees, and that runs the contraction there,
	// with the operand in hand (a number folds in as the GEMM's scale).
	FRESH_MARK // -- ; arg = number of argument slots above the callee (| FreshDefer)
	INPLACE    // x y -- x op= y ; arg = Op (HasInplace first)
	UNARY      // x -- op x ; arg = Op (UMINUS, UPLUS, TILDE)
	UNARY_NOT  // x -- not x
	NOTIN      // x y -- x not in y

	// control flow (arg = target pc)
	JMP
	JMP_FALSE        // x -- ; jump if falsy
	JMP_TRUE         // x -- ; jump if truthy
	JMP_FALSE_OR_POP // x -- x (jump) | -- (fall through) ; `and`
	JMP_TRUE_OR_POP  // x -- x (jump) | -- (fall through) ; `or`
	ITER_PUSH        // iterable -- iterator
	ITER_NEXT        // iterator -- iterator x ; at the end pops nothing and jumps to arg
	RETURN           // x --

	// calls and construction
	CALL      // fn args... -- result ; arg = npos
	CALL_KW   // fn args... (name value)... -- result ; arg = npos | nkw<<12
	MAKE_FUNC // defaults_tuple freevars_tuple -- fn ; arg = function index
	LIST      // x1..xn -- list ; arg = n
	TUPLE     // x1..xn -- tuple ; arg = n
	DICT      // k1 v1 .. kn vn -- dict ; arg = n
	SLICE     // lo hi step -- slice
	INDEX     // x key -- x[key]
	SETINDEX  // v x key -- ; x[key] = v
	ATTR      // x -- x.name ; arg = names index
	SETATTR   // v x -- ; x.name = v
	UNPACK    // x -- xn..x1 ; arg = n (x1 on top)
	FORMAT    // x -- str ; arg = consts index of the spec, or MaxArg for str()
	CONCAT    // s1..sn -- s ; arg = n
	IMPORT    // -- module ; arg = consts index of the path
	ASSERT    // [msg] -- ; raise AssertionError ; arg = 1 if a message is on the stack

	// exceptions and blocks
	TRY_BEGIN   // -- ; push a handler at pc arg
	TRY_END     // -- ; pop the innermost handler
	BLOCK_ENTER // -- ; enter no_grad/detect_anomaly (arg = consts index of the name)
	BLOCK_EXIT  // -- ; leave the innermost block (calls its exit)
	GRAD_BEGIN  // w1..wn -- ; arg = n | withValue<<23
	GRAD_END    // x -- grads ; finish the innermost gradient block
	GRAD_ABORT  // -- ; abort the innermost gradient block (break/continue)
	RAISE       // err -- ; raise the *ErrorValue on top of the stack (e.g. an int literal outside int64)

	// f-string fields with a conversion or a computed spec
	REPR        // x -- repr(x), str(x) or ascii(x) ; arg = ConvRepr, ConvStr or ConvASCII (f"{x!r}", "!s", "!a")
	FORMAT_SPEC // x spec -- format(x, spec) ; f"{x:>{w}}"

	// ATTN is the fused attention idiom (see Thread.Attention): the
	// compiler emits it, inside a TRY_BEGIN that falls back, before the
	// unfused code of softmax(ein"…"(a, b) op s, dim) fed to a second
	// einsum with c. On success it replaces the AttnOperands operands
	// with the result; when Thread.Attention declines it pops them and
	// jumps to arg, where the unfused code runs.
	ATTN // desc a b s softmax dim c -- result ; arg = pc of the fallback

	// METHOD is ATTR for the callee of a call x.name(...): a method of a
	// built-in list, dict, str or tuple is bound to x without allocating
	// (the bound method comes from the thread's pool and goes back to it
	// when the CALL consuming it returns).
	METHOD // x -- x.name ; arg = names index

	// Early release of dead tensors (see Recyclable). LOAD_LOCAL_B and
	// LOAD_GLOBAL_B are loads whose value only feeds an arithmetic or
	// comparison operator, which keeps no reference to its operands: unlike
	// LOAD_LOCAL and LOAD_GLOBAL they leave the variable's claim in place.
	// STORE_LOCAL_C and STORE_GLOBAL_C store the result of the operator
	// just before them and claim it when Recyclable.Claim says it is new
	// and unshared; a later store to a claimed variable (or, for a local,
	// the function's return) recycles the value it overwrites.
	LOAD_LOCAL_B   // -- locals[arg]
	LOAD_GLOBAL_B  // -- globals[arg]
	STORE_LOCAL_C  // x -- ; locals[arg&^ClaimCall] = x, claimed
	STORE_GLOBAL_C // x -- ; globals[arg&^ClaimCall] = x, claimed
	// RECYCLE_POP follows the call of a lending method on an operator's
	// result (the compiler DUPs that receiver before METHOD): it drops the
	// receiver's copy from below the call's result and recycles it when
	// Recyclable.Claim(-1) accepts it ((a - b).sum(): nothing else ever saw
	// the difference).
	RECYCLE_POP // recv result -- result

	// comprehensions and identity
	LIST_APPEND // list it1..itn x -- list it1..itn ; list.append(x), arg = n (the iterators above the list)
	DICT_SET    // dict it1..itn k v -- dict it1..itn ; dict[k] = v, arg = n
	IS          // x y -- x is y (arg 0) or x is not y (arg 1); see Identical

	// star arguments and displays: f(a, *xs, k=v, **d), [*xs, y], a, *b = xs
	LIST_EXTEND // list x -- list ; list.extend(x); arg 1: f(*x), the callee below the list (for the error)
	KW_MERGE    // fn list dict k v -- fn list dict (arg 0) | fn list dict m -- fn list dict (arg 1: **m) ; duplicates are a TypeError
	CALL_EX     // fn list [dict] -- result ; arg 1 when the keyword dict is there
	LIST_TUPLE  // list -- tuple
	UNPACK_EX   // x -- xn..x1 ; a, *b, c = x: arg = before | after<<12, n = before+1+after (x1 on top; the starred one a list)
	SET         // x1..xn -- set ; arg = n, or MaxArg: list -- set (a set comprehension's or starred display's list)

	// del
	DEL_LOCAL  // -- ; unbind local arg (UnboundLocalError if unbound)
	DEL_CELL   // -- ; unbind the captured local arg
	DEL_GLOBAL // -- ; unbind global arg (NameError if unbound)
	DEL_INDEX  // x key -- ; del x[key]
	DEL_ATTR   // x -- ; del x.name ; arg = names index

	// {**m, k: v}: merge the mapping m into the dict below it (CPython's DICT_UPDATE)
	DICT_UPDATE // dict m -- dict

	numOpcodes
)

// REPR operands: the f-string conversion.
const (
	ConvRepr  = 0 // !r
	ConvStr   = 1 // !s
	ConvASCII = 2 // !a
)

// SmallIntBias is subtracted from SMALLINT's operand.
const SmallIntBias = 1 << 23

var opcodeNames = [...]string{
	NOP: "NOP", POP: "POP", POPN: "POPN", DUP: "DUP", DUP2: "DUP2", ROT3: "ROT3", SWAP: "SWAP",
	CONST: "CONST", SMALLINT: "SMALLINT", NONE: "NONE", TRUE: "TRUE", FALSE: "FALSE",
	LOAD_LOCAL: "LOAD_LOCAL", STORE_LOCAL: "STORE_LOCAL", LOAD_CELL: "LOAD_CELL",
	STORE_CELL: "STORE_CELL", LOAD_FREE: "LOAD_FREE", LOAD_CELLREF: "LOAD_CELLREF",
	LOAD_FREEREF: "LOAD_FREEREF", LOAD_GLOBAL: "LOAD_GLOBAL", STORE_GLOBAL: "STORE_GLOBAL",
	ADD: "ADD", SUB: "SUB", MUL: "MUL", CMP_LT: "CMP_LT", CMP_LE: "CMP_LE", CMP_GT: "CMP_GT", CMP_GE: "CMP_GE", CMP_EQ: "CMP_EQ", CMP_NE: "CMP_NE",
	BINARY: "BINARY", BINARY_TMP: "BINARY_TMP", FRESH_MARK: "FRESH_MARK", INPLACE: "INPLACE", UNARY: "UNARY", UNARY_NOT: "UNARY_NOT", NOTIN: "NOTIN",
	JMP: "JMP", JMP_FALSE: "JMP_FALSE", JMP_TRUE: "JMP_TRUE", JMP_FALSE_OR_POP: "JMP_FALSE_OR_POP",
	JMP_TRUE_OR_POP: "JMP_TRUE_OR_POP", ITER_PUSH: "ITER_PUSH", ITER_NEXT: "ITER_NEXT", RETURN: "RETURN",
	CALL: "CALL", CALL_KW: "CALL_KW", MAKE_FUNC: "MAKE_FUNC", LIST: "LIST", TUPLE: "TUPLE", DICT: "DICT",
	SLICE: "SLICE", INDEX: "INDEX", SETINDEX: "SETINDEX", ATTR: "ATTR", SETATTR: "SETATTR",
	UNPACK: "UNPACK", FORMAT: "FORMAT", CONCAT: "CONCAT", IMPORT: "IMPORT", ASSERT: "ASSERT",
	TRY_BEGIN: "TRY_BEGIN", TRY_END: "TRY_END", BLOCK_ENTER: "BLOCK_ENTER", BLOCK_EXIT: "BLOCK_EXIT",
	GRAD_BEGIN: "GRAD_BEGIN", GRAD_END: "GRAD_END", GRAD_ABORT: "GRAD_ABORT",
	RAISE: "RAISE", REPR: "REPR", FORMAT_SPEC: "FORMAT_SPEC", ATTN: "ATTN", METHOD: "METHOD",
	LOAD_LOCAL_B: "LOAD_LOCAL_B", LOAD_GLOBAL_B: "LOAD_GLOBAL_B", STORE_LOCAL_C: "STORE_LOCAL_C", STORE_GLOBAL_C: "STORE_GLOBAL_C",
	RECYCLE_POP: "RECYCLE_POP", LIST_APPEND: "LIST_APPEND", DICT_SET: "DICT_SET", IS: "IS",
	LIST_EXTEND: "LIST_EXTEND", KW_MERGE: "KW_MERGE", CALL_EX: "CALL_EX", LIST_TUPLE: "LIST_TUPLE", UNPACK_EX: "UNPACK_EX", SET: "SET",
	DEL_LOCAL: "DEL_LOCAL", DEL_CELL: "DEL_CELL", DEL_GLOBAL: "DEL_GLOBAL", DEL_INDEX: "DEL_INDEX", DEL_ATTR: "DEL_ATTR",
	DICT_UPDATE: "DICT_UPDATE",
}

// AttnOperands is the number of stack operands of ATTN.
const AttnOperands = 7

func (op Opcode) String() string {
	if int(op) < len(opcodeNames) && opcodeNames[op] != "" {
		return opcodeNames[op]
	}
	return fmt.Sprintf("OP%d", op)
}

// IsJump reports whether op's operand is a code address.
func (op Opcode) IsJump() bool {
	switch op {
	case JMP, JMP_FALSE, JMP_TRUE, JMP_FALSE_OR_POP, JMP_TRUE_OR_POP, ITER_NEXT, TRY_BEGIN, ATTN:
		return true
	}
	return false
}

// Encode packs an instruction.
func Encode(op Opcode, arg int) uint32 { return uint32(op) | uint32(arg)<<8 }

// Decode unpacks an instruction.
func Decode(insn uint32) (Opcode, int) { return Opcode(insn & 0xff), int(insn >> 8) }

// Program is a compiled tsr source file.
type Program struct {
	Filename string
	// Consts is the constant pool (Int, Float, String, Einsum, Tuple of kwarg names).
	Consts []Value
	// Names holds attribute names used by ATTR/SETATTR.
	Names []string
	// Globals lists the global (top-level) variable names, by slot.
	Globals []string
	// Toplevel is the module body; Functions are all function bodies
	// (MAKE_FUNC operands index this slice).
	Toplevel  *Funcode
	Functions []*Funcode
	// Src is the source text, for error messages.
	Src string

	// methods[t][i] is the method Names[i] of the built-in type t (list,
	// dict, str, tuple: see methodType), or nil; METHOD's lookup table,
	// filled on first use.
	methodsOnce sync.Once
	methods     [4][]*Builtin
}

// methodType numbers the built-in types with methods for
// Program.methods; -1 for the other values.
func methodType(x Value) int {
	switch x.(type) {
	case *List:
		return 0
	case *Dict:
		return 1
	case String:
		return 2
	case Tuple:
		return 3
	}
	return -1
}

// method returns the method Names[name] of the list, dict, str or tuple x,
// unbound, or nil (see unboundMethod), without hashing the name.
func (p *Program) method(x Value, name int) *Builtin {
	t := methodType(x)
	if t < 0 {
		return nil
	}
	p.methodsOnce.Do(func() {
		for t, table := range []map[string]*Builtin{listMethods, dictMethods, strMethods, tupleMethods} {
			p.methods[t] = make([]*Builtin, len(p.Names))
			for i, n := range p.Names {
				p.methods[t][i] = table[n]
			}
		}
	})
	return p.methods[t][name]
}

// Funcode is the compiled code of one function (or the module body).
type Funcode struct {
	Prog *Program
	Name string
	Pos  Pos // position of the definition
	Code []uint32
	// PCPos[pc] is the source position of instruction pc.
	PCPos []Pos
	// Params are the parameter names (the first NumParams locals);
	// NumDefaults of them, at the end, have defaults. The first NumPosOnly
	// of them are positional-only (declared before a /): a keyword argument
	// of that name is an error, or goes to **kwargs when there is one.
	NumParams   int
	NumDefaults int
	NumPosOnly  int
	// NumKwOnly keyword-only parameters (those after a *) follow the
	// positional ones; KwOnlyDefault[i] tells whether the i-th has a
	// default. Their defaults follow the positional parameters' in the
	// function's defaults tuple, in order.
	NumKwOnly     int
	KwOnlyDefault []bool
	// VarArgs: the local after the keyword-only parameters receives a
	// tuple of the extra positional arguments (*args). VarKw: the local
	// after that receives a dict of the extra keyword arguments (**kwargs).
	VarArgs, VarKw bool
	// Locals names every local slot; Cells lists the local slots that are
	// captured by inner functions (they hold cells).
	Locals []string
	Cells  []int
	// Freevars names the variables captured from enclosing functions.
	Freevars []string
	MaxStack int
}

// fastArity is the number of positional arguments with which a call
// binds by copying them into the parameter slots (no keyword arguments),
// or -1 when the function has keyword-only, *args or **kwargs parameters.
func (fc *Funcode) fastArity() int {
	if fc.NumKwOnly > 0 || fc.VarArgs || fc.VarKw {
		return -1
	}
	return fc.NumParams
}

// Position returns the source position of instruction pc.
func (fc *Funcode) Position(pc int) Pos {
	if pc >= 0 && pc < len(fc.PCPos) {
		return fc.PCPos[pc]
	}
	return fc.Pos
}
