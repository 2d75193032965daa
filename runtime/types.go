package runtime

import (
	"fmt"
	"io"
	"strconv"
)

// Op is an operator token used by HasBinary, HasUnary, HasInplace and Comparable.
type Op uint8

// Operators. Binary arithmetic, comparisons and unary operators share one
// numbering so that the compiler can emit them as opcode arguments.
const (
	PLUS       Op = iota // +
	MINUS                // -
	STAR                 // *
	SLASH                // /
	SLASHSLASH           // //
	PERCENT              // %
	AT                   // @
	STARSTAR             // **
	AMP                  // &
	PIPE                 // |
	CIRCUMFLEX           // ^
	EQL                  // ==
	NEQ                  // !=
	LT                   // <
	LE                   // <=
	GT                   // >
	GE                   // >=
	IN                   // in
	NOT                  // not (unary)
	TILDE                // ~ (unary)
	UPLUS                // + (unary)
	UMINUS               // - (unary)
)

var opNames = [...]string{"+", "-", "*", "/", "//", "%", "@", "**", "&", "|", "^",
	"==", "!=", "<", "<=", ">", ">=", "in", "not", "~", "+", "-"}

// String returns the operator's source spelling.
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("op%d", op)
}

// NoneType is the type of None.
type NoneType struct{}

// None is tsr's none.
var None Value = NoneType{}

func (NoneType) String() string { return "none" }
func (NoneType) Type() string   { return "none" }
func (NoneType) Truth() bool    { return false }

// Bool is a tsr bool; it prints as true/false.
type Bool bool

func (b Bool) String() string {
	if b {
		return "true"
	}
	return "false"
}
func (Bool) Type() string  { return "bool" }
func (b Bool) Truth() bool { return bool(b) }

// Int is a tsr int: an int64. Python's big ints are not supported: an
// arithmetic result outside int64 is an OverflowError ("int64 overflow").
type Int int64

func (i Int) String() string { return strconv.FormatInt(int64(i), 10) }
func (Int) Type() string     { return "int" }
func (i Int) Truth() bool    { return i != 0 }

// Float is a tsr float (float64). It prints with Python's shortest round-trip repr.
type Float float64

func (Float) Type() string     { return "float" }
func (f Float) Truth() bool    { return f != 0 }
func (f Float) String() string { return FloatRepr(float64(f)) }

// FloatRepr formats f as Python's repr(float) does: shortest round-trip
// digits, "1.0" for integral values, exponent form below 1e-4 and from 1e16
// ("1e-05", "1e+16"), "inf", "-inf", "nan". Replaced by numfmt when linked.
var FloatRepr = func(f float64) string { return fmt.Sprint(f) }

// String is a tsr string.
type String string

func (s String) String() string { return string(s) }
func (String) Type() string     { return "str" }
func (s String) Truth() bool    { return len(s) > 0 }

// Repr returns the quoted form used inside containers, as Python's repr:
// 'text' (see QuoteString).
func (s String) Repr() string { return QuoteString(string(s)) }

// Repr returns v's repr: Repr() when v has one, else String().
func Repr(v Value) string {
	if r, ok := v.(HasRepr); ok {
		return r.Repr()
	}
	return v.String()
}

// List is a mutable tsr list.
type List struct {
	Elems []Value
	// SizeLike marks a list that stands for a torch.Size (a tensor's shape):
	// it also compares equal to a tuple holding the same elements, as
	// torch.Size does (x.shape == (2, 3)). It is otherwise a plain list.
	SizeLike bool
}

// NewList returns a list holding elems (not copied).
func NewList(elems []Value) *List { return &List{Elems: elems} }

// String returns the list's repr, Python style: [1, 'a', [...]] (a list
// that contains itself prints the inner occurrence as [...]).
func (l *List) String() string { return reprString(l) }
func (*List) Type() string     { return "list" }
func (l *List) Truth() bool    { return len(l.Elems) > 0 }
func (l *List) Len() int       { return len(l.Elems) }

// Iterate returns an iterator that reads the list as it goes, as Python's
// does: elements appended during a for loop are visited, and removing one
// shifts the rest under the iterator.
func (l *List) Iterate() Iterator {
	return &listIter{l: l}
}

type listIter struct {
	l *List
	i int
}

func (it *listIter) Next() (Value, bool) {
	if it.i >= len(it.l.Elems) {
		return nil, false
	}
	v := it.l.Elems[it.i]
	it.i++
	return v, true
}

// Tuple is an immutable tsr tuple.
type Tuple []Value

// String returns the tuple's repr: (1, 'a') or (1,).
func (t Tuple) String() string    { return reprString(t) }
func (Tuple) Type() string        { return "tuple" }
func (t Tuple) Truth() bool       { return len(t) > 0 }
func (t Tuple) Len() int          { return len(t) }
func (t Tuple) Iterate() Iterator { return &sliceIter{elems: t} }

// NamedTuple is a tuple whose elements also have field names, as PyTorch's
// torch.return_types (values/indices, U/S/Vh, sign/logabsdet, ...).
type NamedTuple struct {
	TypeName string // e.g. "max", "svd"; printed as torch.return_types.<TypeName>
	Fields   []string
	Tuple
}

// String returns name(field=repr, ...).
func (n *NamedTuple) String() string { return reprString(n) }
func (*NamedTuple) Type() string     { return "tuple" }

// Attr returns a field by name.
func (n *NamedTuple) Attr(name string) (Value, error) {
	for i, f := range n.Fields {
		if f == name {
			return n.Tuple[i], nil
		}
	}
	return nil, nil
}

// AttrNames lists the field names.
func (n *NamedTuple) AttrNames() []string { return append([]string(nil), n.Fields...) }

type sliceIter struct {
	elems []Value
	i     int
}

func (it *sliceIter) Next() (Value, bool) {
	if it.i >= len(it.elems) {
		return nil, false
	}
	v := it.elems[it.i]
	it.i++
	return v, true
}

// Slice is the value of a slice subscript a:b:c; absent parts are None.
type Slice struct {
	Start, Stop, Step Value
}

func (s *Slice) String() string {
	p := func(v Value) string {
		if v == None {
			return "none"
		}
		return v.String()
	}
	return fmt.Sprintf("slice(%s, %s, %s)", p(s.Start), p(s.Stop), p(s.Step))
}
func (*Slice) Type() string { return "slice" }
func (*Slice) Truth() bool  { return true }

// EllipsisType is the type of the ... subscript.
type EllipsisType struct{}

// Ellipsis is the value of `...` in a subscript.
var Ellipsis Value = EllipsisType{}

func (EllipsisType) String() string { return "..." }
func (EllipsisType) Type() string   { return "ellipsis" }
func (EllipsisType) Truth() bool    { return true }

// Module is a namespace value: a stdlib module (linalg, nn, io, ...) or a
// user module loaded with import.
//
// A stdlib module (Env == nil) is read-only: m.x = v is an AttributeError.
// A user module (Env != nil) is a view of the global namespace its file ran
// in, as in Python: reading m.x reads the module's live global x, and
// m.x = v rebinds that global, so the module's own functions see the new
// value.
type Module struct {
	ModName string
	// Members holds the exported names. For a user module its values are
	// the globals as they stood after the module ran; Attr prefers the live
	// value in Env.
	Members map[string]Value
	Doc     string
	// Env is the global namespace of a user module's file; nil for a stdlib
	// module.
	Env *Globals
}

func (m *Module) String() string { return "<module " + m.ModName + ">" }
func (*Module) Type() string     { return "module" }
func (*Module) Truth() bool      { return true }

// Attr returns a member of the module, or (nil, nil). For a user module it
// is the live value of the module's global of that name.
func (m *Module) Attr(name string) (Value, error) {
	v, ok := m.Members[name]
	if ok && m.Env != nil {
		if g, bound := m.Env.Get(name); bound {
			return g, nil
		}
	}
	return v, nil
}

// SetAttr performs m.name = v. On a user module it binds the module's global
// name (creating it if new), so the module's functions see v; a stdlib module
// is read-only and the error is an AttributeError.
func (m *Module) SetAttr(name string, v Value) error {
	if m.Env == nil {
		if _, ok := m.Members[name]; ok {
			return Errorf("AttributeError", "cannot assign to '%s.%s': stdlib module '%s' is read-only", m.ModName, name, m.ModName)
		}
		return Errorf("AttributeError", "cannot add attribute '%s' to stdlib module '%s': it is read-only", name, m.ModName)
	}
	m.Env.Set(name, v)
	m.Members[name] = v
	return nil
}

// DelAttr performs del m.name. On a user module it unbinds the module's
// global name (AttributeError "module 'm' has no attribute 'x'" if it is
// not bound); a stdlib module is read-only.
func (m *Module) DelAttr(name string) error {
	if m.Env == nil {
		return Errorf("AttributeError", "cannot delete '%s.%s': stdlib module '%s' is read-only", m.ModName, name, m.ModName)
	}
	_, member := m.Members[name]
	bound := m.Env.Delete(name)
	delete(m.Members, name)
	if !member && !bound {
		return Errorf("AttributeError", "module '%s' has no attribute '%s'", m.ModName, name)
	}
	return nil
}

// AttrNames lists the members, sorted.
func (m *Module) AttrNames() []string { return sortedKeys(m.Members) }

// ErrorValue is a tsr error: the value bound by `catch e`, or made by error().
// e.kind and e.message are its fields; print(e) shows "Kind: message".
type ErrorValue struct {
	Kind    string
	Message string
	// Traceback is the tsr call stack at the point the error was raised,
	// innermost last, formatted one frame per line ("file:line:col: in fn").
	Traceback []string
}

// String returns "Kind: message", or the kind alone when the message is
// empty (Python's str of an exception with no message).
func (e *ErrorValue) String() string {
	if e.Message == "" {
		return e.Kind
	}
	return e.Kind + ": " + e.Message
}
func (*ErrorValue) Type() string { return "error" }
func (*ErrorValue) Truth() bool  { return true }

// Attr returns kind, message or traceback.
func (e *ErrorValue) Attr(name string) (Value, error) {
	switch name {
	case "kind":
		return String(e.Kind), nil
	case "message":
		return String(e.Message), nil
	}
	return nil, nil
}

// AttrNames lists the fields.
func (e *ErrorValue) AttrNames() []string { return []string{"kind", "message"} }

// Error makes the Go error of the given kind that a builtin returns; the VM
// turns it into a tsr error with position and traceback.
func Errorf(kind, format string, args ...any) error {
	return &KindError{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// KindError is a Go error with a tsr error kind, returned by builtins.
type KindError struct {
	Kind string
	Msg  string
}

func (e *KindError) Error() string     { return e.Msg }
func (e *KindError) ErrorKind() string { return e.Kind }

// Builtin is a Go function callable from tsr, optionally bound to a receiver
// (a method such as x.view).
type Builtin struct {
	name string
	fn   func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error)
	recv Value
	// Doc is the help text shown by the REPL's :help.
	Doc string
	// FreshResults promises that a value the builtin creates during a call
	// and returns is kept nowhere else, so that the operator consuming it
	// may compute into it (temporary elision, FRESH_MARK). A value that
	// existed before the call is never treated as fresh, so returning a
	// receiver or an argument is fine; caching a new result and returning
	// it is not. False (the default, e.g. for host functions) turns the
	// elision off for the builtin's results.
	FreshResults bool
	// pooled marks a method bound by METHOD, returned to the thread's
	// pool when the call consuming it returns.
	pooled bool
}

// NewBuiltin returns a builtin named name that calls fn.
func NewBuiltin(name string, fn func(th *Thread, b *Builtin, args []Value, kwargs []Kwarg) (Value, error)) *Builtin {
	return &Builtin{name: name, fn: fn}
}

// BindReceiver returns a copy of b bound to recv (for methods).
func (b *Builtin) BindReceiver(recv Value) *Builtin {
	return &Builtin{name: b.name, fn: b.fn, recv: recv, Doc: b.Doc, FreshResults: b.FreshResults}
}

// Receiver returns the bound receiver, or nil.
func (b *Builtin) Receiver() Value { return b.recv }

func (b *Builtin) Name() string { return b.name }
func (b *Builtin) String() string {
	if b.recv != nil {
		return "<built-in method " + b.name + " of " + b.recv.Type() + ">"
	}
	return "<built-in function " + b.name + ">"
}
func (*Builtin) Type() string { return "builtin" }
func (*Builtin) Truth() bool  { return true }

// Call invokes the Go function.
func (b *Builtin) Call(th *Thread, args []Value, kwargs []Kwarg) (Value, error) {
	return b.fn(th, b, args, kwargs)
}

// Thread is the state of one running tsr program: output, limits, hooks and
// per-interpreter state owned by libraries (random generator, grad mode).
// A Thread is used by one goroutine at a time.
type Thread struct {
	// Name is shown in tracebacks.
	Name string
	// Stdout receives print output. Nil means discard.
	Stdout io.Writer
	// Hooks implements grad/no_grad blocks; nil makes them an error.
	Hooks ContextHooks
	// MaxSteps bounds the number of VM steps (0 = unlimited); exceeding it
	// is a "LimitError".
	MaxSteps uint64
	// Load resolves `import "path" as m`; nil makes import an error.
	Load func(th *Thread, path string) (*Module, error)
	// Einsum evaluates an ein"..." literal called on operands; stdlib
	// installs it. Nil makes calling an einsum literal an error.
	Einsum func(th *Thread, eq string, args []Value, kwargs []Kwarg) (Value, error)
	// EinsumDeferred, when set, is called instead of Einsum for an ein"..."
	// literal's call marked FreshDefer (`ein"..."(q, k) * s` with a
	// side-effect-free s): it checks the call as Einsum would, raising the
	// same errors, but may return a value standing for the contraction
	// not yet run. That value is seen only by the BINARY_TMP consuming
	// it: it must implement HasBinaryTemp and return the finished result
	// of x op y from BinaryTemp (never nil). Nil makes such calls plain.
	EinsumDeferred func(th *Thread, eq string, args []Value, kwargs []Kwarg) (Value, error)
	// Attention, when set, runs the attention idiom the compiler found
	// (ATTN): ops holds the AttnOperands values desc, a, b, s, softmax,
	// dim and c, where desc is a Tuple (String equation of the scores
	// einsum, String equation of the output einsum, Int flags: the Op
	// between the scores and s, or 0 when there is no s (then s is None),
	// | AttnMethodSoftmax for the method form x.softmax(dim)) and softmax
	// is the function called (None for the method form). It returns the
	// result with true only when that result is exactly what the unfused
	// code would compute
	// (same values bit for bit, dtype, shape, strides, no autograd
	// recording), and false otherwise, without side effects: then the
	// unfused code runs. Nil declines everything.
	Attention func(th *Thread, ops []Value) (Value, bool)
	// FreshMark returns a mark such that a value created later can be told
	// from one that existed before (stdlib installs tensor.AllocSeq). With
	// it, an operator applied to a builtin call's result may compute into
	// that result (BINARY_TMP after FRESH_MARK); nil turns this off.
	FreshMark func() int64
	// MaxDepth bounds the tsr call depth (0 = DefaultMaxDepth); exceeding
	// it is a RecursionError.
	MaxDepth int

	locals map[string]any
	vm     vmState
}

// SetLocal stores library state on the thread (e.g. stdlib's RNG).
func (th *Thread) SetLocal(key string, v any) {
	if th.locals == nil {
		th.locals = map[string]any{}
	}
	th.locals[key] = v
}

// Local returns a value stored with SetLocal, or nil.
func (th *Thread) Local(key string) any { return th.locals[key] }
