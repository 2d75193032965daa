// Package runtime holds tsr's value model, its virtual machine and the
// calling convention shared by the VM and every Go builtin.
//
// This file is the contract between the VM (runtime) and the standard library
// (stdlib): a Value plus small optional interfaces, in the style of
// go.starlark.net/starlark. The VM never knows what a tensor is; a tensor is a
// Value that implements HasBinary, HasAttrs, Indexable, HasSetIndex, Iterable
// and so on, supplied by stdlib.
package runtime

// Value is any tsr value.
type Value interface {
	// String returns the text print() and str() show (Python's str).
	String() string
	// Type returns the tsr type name shown by type() and in errors:
	// "none", "bool", "int", "float", "str", "list", "tuple", "dict",
	// "function", "builtin", "module", "error", "tensor", "dtype", "einsum", ...
	Type() string
	// Truth reports the value's truthiness (Python rules).
	Truth() bool
}

// HasRepr is implemented by values whose repr (inside containers, at the REPL)
// differs from their String, e.g. strings print quoted inside a list.
type HasRepr interface {
	Repr() string
}

// HasAttrs is implemented by values with fields or methods: x.name.
// Attr returns (nil, nil) when the attribute does not exist; the VM then
// raises AttributeError naming the type and the attribute.
type HasAttrs interface {
	Value
	Attr(name string) (Value, error)
	// AttrNames lists the attribute names, sorted, for completion and dir().
	AttrNames() []string
}

// HasSetAttr is implemented by values whose fields can be assigned: x.name = v.
type HasSetAttr interface {
	HasAttrs
	SetAttr(name string, v Value) error
}

// HasDelAttr is implemented by values whose attributes can be deleted:
// del x.name.
type HasDelAttr interface {
	HasAttrs
	DelAttr(name string) error
}

// HasDelIndex is implemented by containers whose items can be deleted:
// del x[key] (dicts and lists are handled by DelIndex itself).
type HasDelIndex interface {
	Value
	DelIndex(key Value) error
}

// Side says on which side of a binary operator the receiver stands.
type Side bool

const (
	// Left: the receiver is the left operand (x op y).
	Left Side = false
	// Right: the receiver is the right operand (y op x); tried after the
	// left operand declined.
	Right Side = true
)

// HasBinary is implemented by values that define binary operators.
// Binary returns (nil, nil) if the operation is not supported for y, so that
// the other operand may be tried. op is one of the binary Op constants,
// including the comparisons EQL..GE (returning any Value, e.g. a bool tensor).
// An arithmetic result must be a new value that nothing else references:
// the VM may let the next operator compute into it (BINARY_TMP). Binary
// may keep its operands: the VM marks a Recyclable operand kept
// (Recyclable.Keep) before lending it to the Binary of a value that is not
// itself Recyclable. A Recyclable value's Binary must keep no reference to
// its operands once it returns (other than through the result, for an
// operator that returns an operand unchanged): the VM lends it variables'
// values without giving up their claims.
type HasBinary interface {
	Value
	Binary(op Op, y Value, side Side) (Value, error)
}

// Recyclable is implemented by values whose memory the VM may hand back
// before the garbage collector would, PyTorch-style: a tensor freed when
// its last reference goes reuses a block still hot in cache.
//
// The compiler marks stores whose value is the result of the operator or
// call just before them (x = a + b, y = x.relu(); STORE_LOCAL_C /
// STORE_GLOBAL_C); the VM then calls Claim, which reports whether the
// value is new and nothing but the VM's stack holds it. The variable keeps the claim while its value is
// read only as an operand of arithmetic or comparison operators
// (LOAD_LOCAL_B / LOAD_GLOBAL_B); any other read (a call argument, a
// method's receiver, a container, a closure, the host's Globals.Get)
// drops it. When a claimed variable is overwritten with another value, or
// a function returns with a claimed local, the VM calls Recycle on the
// value it drops: no reference to it remains. A program run while tsr code
// is already running in the same globals (a registered Go function calling
// Eval) first drops every claim on them: the callers' stacks may hold the
// values as operands still to be used. An operand lent to the operator
// method of a value that may keep it (any value but a Recyclable one and
// the runtime's own numbers, strings and containers: a host type's Binary,
// Compare, BinaryTemp or BinaryDefer) is marked Kept first.
type Recyclable interface {
	Value
	// Claim reports whether the value is new and referenced by nothing
	// else; it reports true at most once per value. fresh is -1 for the
	// result of an operator (created by it), or, for the result of a call
	// to a builtin with FreshResults, the Thread.FreshMark taken just
	// before the call (a value created during the call qualifies).
	Claim(fresh int64) bool
	// Recycle releases the value's memory, unless Keep was called; the
	// value is not used again.
	Recycle()
	// Keep records that something the VM does not track may hold the
	// value: Recycle then leaves its memory to the garbage collector.
	// Recyclable values' own operator methods keep no operand.
	Keep()
}

// lend marks y kept (Recyclable.Keep) when it is about to be passed to an
// operator method of x that may keep it: x is neither Recyclable nor a
// Pending (whose operator methods keep no operand) nor one of the
// runtime's own values.
func lend(x, y Value) {
	switch y.(type) {
	case Int, Float, Bool, String, NoneType, *List, Tuple, *Dict:
		return // the common cases, without an interface assertion
	}
	r, ok := y.(Recyclable)
	if !ok {
		return
	}
	switch x.(type) {
	case Int, Float, Bool, String, NoneType, *List, Tuple, *Dict, Recyclable, Pending:
		return
	}
	r.Keep()
}

// HasBinaryTemp is implemented by values that can compute x op y (op one
// of + - * /) into x's own storage when the VM knows x is a temporary:
// still on the VM stack and reachable from nowhere else (BINARY_TMP). x is
// the result of another arithmetic operator (after == 0), or of a builtin
// call, in which case x is a temporary only if it was created after the
// mark after (Thread.FreshMark, taken just before the call). BinaryTemp
// must return exactly what Binary(op, x, y, Left) would, or (nil, nil) to
// decline, after which the VM calls Binary.
type HasBinaryTemp interface {
	Value
	BinaryTemp(op Op, y Value, after int64) (Value, error)
}

// HasBinaryDefer is implemented by values that can postpone x op y when
// the compiler has marked the operator BinaryDefer: BinaryDefer either
// declines with (nil, nil), after which the VM calls Binary, or returns a
// value standing for x op y not yet computed, which only the BINARY_TMP
// consuming it sees: it must implement HasBinaryTemp and return from
// BinaryTemp the finished (x op y) op2 z, never nil. A deferred operation
// must be one that can no longer fail for its operands' sake (checked
// here) and must not read anything the operand between could change.
type HasBinaryDefer interface {
	Value
	BinaryDefer(op Op, y Value) (Value, error)
}

// Pending is implemented by the values HasBinaryDefer.BinaryDefer and
// Thread.EinsumDeferred return in place of a result not yet computed. Its
// BinaryTemp returns an error of the deferred operation itself (a
// MemoryError: the operands were checked when it was deferred) as a
// *DeferredError, which the VM reports at the deferred operation, as
// without the deferral. When the operand between fails instead, the VM
// calls Force, which computes the deferred operation (the undeferred
// program would have) and returns its error, reported in place of the
// operand's.
type Pending interface {
	HasBinaryTemp
	Force() error
}

// DeferredError is a Pending's own failure (see Pending).
type DeferredError struct{ Err error }

func (e *DeferredError) Error() string { return e.Err.Error() }
func (e *DeferredError) Unwrap() error { return e.Err }

// HasInplace is implemented by values with in-place augmented assignment:
// for a tensor, x += y is add_ (it bumps x's version counter) rather than a
// rebinding. Inplace returns (nil, nil) when unsupported; the VM then falls
// back to Binary and rebinds the name.
type HasInplace interface {
	Value
	Inplace(op Op, y Value) (Value, error)
}

// HasUnary is implemented by values that define unary - + ~.
type HasUnary interface {
	Value
	Unary(op Op) (Value, error)
}

// Indexable is implemented by values that support x[key]. The key is the
// value of the subscript: an Int, a *Slice, Ellipsis, None, a Tuple of those
// for x[a, b:c, ...], or any other Value (e.g. a tensor for advanced indexing).
type Indexable interface {
	Value
	Index(key Value) (Value, error)
}

// HasSetIndex is implemented by values that support x[key] = v.
type HasSetIndex interface {
	Indexable
	SetIndex(key Value, v Value) error
}

// Iterable is implemented by values usable in for loops and unpacking.
type Iterable interface {
	Value
	Iterate() Iterator
}

// Iterator yields the elements of an Iterable.
type Iterator interface {
	// Next returns the next element and true, or (nil, false) at the end.
	Next() (Value, bool)
}

// IterableE is an Iterable whose iteration can fail (a 0-d tensor raises
// TypeError "iteration over a 0-d tensor"); the VM prefers IterateE.
type IterableE interface {
	Iterable
	IterateE() (Iterator, error)
}

// HasTruthE is implemented by values whose truth can be undefined (a tensor
// with more than one element raises RuntimeError); if, while, not, and, or
// and bool() prefer TruthE over Truth.
type HasTruthE interface {
	Value
	TruthE() (bool, error)
}

// Sequence is an Iterable with a known length (len()).
type Sequence interface {
	Iterable
	Len() int
}

// HasLen is implemented by values that support len() without being iterable
// in order (e.g. dict views are Sequences; a tensor is a Sequence too).
type HasLen interface {
	Value
	Len() int
}

// Comparable is implemented by values with a total order (sorted, min, max,
// < <= > >=) or custom equality. Compare returns (false, nil, false) when
// the comparison is not defined for y.
type Comparable interface {
	Value
	Compare(op Op, y Value) (result bool, err error, ok bool)
}

// Kwarg is one keyword argument of a call: f(name=value).
type Kwarg struct {
	Name  string
	Value Value
}

// Callable is implemented by functions, builtins, bound methods, einsum
// literals and any value that can be called.
type Callable interface {
	Value
	// Name returns the name used in tracebacks and errors.
	Name() string
	// Call runs the callable on thread th. Errors returned by a builtin are
	// wrapped by the VM with the call's position and the tsr call stack.
	Call(th *Thread, args []Value, kwargs []Kwarg) (Value, error)
}

// HasKind is implemented by Go errors that carry a tsr error kind
// ("RuntimeError", "IndexError", "ValueError", "TypeError", "LinAlgError",
// ...). The VM turns any such error returned from a builtin into a tsr error
// of that kind; errors without a kind become "RuntimeError".
type HasKind interface {
	error
	ErrorKind() string
}

// ContextHooks connects the language's block forms to the library that
// implements them (stdlib's autograd binding). The VM never imports tensor
// code; stdlib installs a ContextHooks on each Thread.
type ContextHooks interface {
	// EnterBlock enters a named block context: "no_grad" or
	// "detect_anomaly". The returned exit function is called exactly once
	// when the block is left, normally or by an error, break, continue or
	// return.
	EnterBlock(th *Thread, name string) (exit func(), err error)
	// BeginGrad starts a gradient block `grad(w, b) { ... }` (withValue=false)
	// or `value_and_grad(w, b) { ... }` (withValue=true) over the listed
	// values, with a fresh tape.
	BeginGrad(th *Thread, wrt []Value, withValue bool) (GradSession, error)
}

// GradSession is one running gradient block.
type GradSession interface {
	// Finish receives the block's last expression value and returns the
	// block's value: for grad, one gradient if one value was listed, else a
	// tuple of gradients; for value_and_grad, (value, gradients).
	Finish(result Value) (Value, error)
	// Abort is called instead of Finish when the block is left by an error
	// or a jump; it restores the state BeginGrad changed.
	Abort()
}
