package runtime

import "strings"

// TypeName is the value of type(x): it prints as the type's name (int,
// float, str, list, tensor, ...) and compares equal to that name as a
// string, to another TypeName of the same type, and to the builtin or
// dtype alias that converts to it, so that Python's `type(x) == int`,
// `type(s) == str` and `type(t) == tensor` hold (int, float and bool are
// also dtype aliases; str, list, tuple, dict and tensor are builtins).
type TypeName string

func (t TypeName) String() string { return string(t) }

// Type returns "type".
func (TypeName) Type() string { return "type" }
func (TypeName) Truth() bool  { return true }

// Binary implements == and != (other operators are unsupported).
func (t TypeName) Binary(op Op, y Value, side Side) (Value, error) {
	if op != EQL && op != NEQ {
		return nil, nil
	}
	return Bool(t.matches(y) == (op == EQL)), nil
}

func (t TypeName) matches(y Value) bool {
	switch v := y.(type) {
	case TypeName:
		return v == t
	case String:
		return string(v) == string(t)
	case *Builtin:
		return v.recv == nil && v.name == string(t)
	}
	// a conversion dtype alias (int, float, bool) names itself
	if n, ok := y.(interface{ Name() string }); ok && y.Type() == "dtype" {
		return n.Name() == string(t)
	}
	// a stdlib class (nn.Linear, optim.SGD) names its instances' type by
	// its last component
	if n, ok := y.(interface{ Name() string }); ok && y.Type() == "class" {
		name := n.Name()
		return name[strings.LastIndexByte(name, '.')+1:] == string(t)
	}
	return false
}
