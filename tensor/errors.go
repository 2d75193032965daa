package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// Error kinds, named after the Python exceptions PyTorch raises.
const (
	RuntimeError = "RuntimeError"
	IndexError   = "IndexError"
	ValueError   = "ValueError"
	TypeError    = "TypeError"
	// MemoryError: an allocation above MaxAllocBytes (see SetMaxAllocBytes).
	MemoryError = "MemoryError"
)

// Error is the error type every fallible function in this package returns.
// Kind is one of RuntimeError, IndexError, ValueError, TypeError; Msg is
// the message without the kind prefix (PyTorch's wording where one exists).
type Error struct {
	Kind string
	Msg  string
}

// Error returns Msg (the kind is available from ErrorKind).
func (e *Error) Error() string { return e.Msg }

// ErrorKind returns the Python exception kind, e.g. "RuntimeError".
func (e *Error) ErrorKind() string { return e.Kind }

func errorf(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// fmtList formats ints as a Python list: [2, 3].
func fmtList(xs []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}

// wrapDim normalises a possibly negative dim against rank n (a 0-d tensor
// accepts dims -1 and 0, as PyTorch). Out of range is an IndexError with
// PyTorch's text.
func wrapDim(d, n int) (int, error) {
	m := n
	if m == 0 {
		m = 1
	}
	if d < -m || d >= m {
		return 0, errorf(IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -m, m-1, d)
	}
	if d < 0 {
		d += m
	}
	return d, nil
}

// errNoDims is PyTorch's IndexError for naming dim d of a 0-d tensor in
// ops that need a real dim (roll, unbind, ...).
func errNoDims(d int) error {
	return errorf(IndexError, "Dimension specified as %d but tensor has no dimensions", d)
}

// wrapDims normalises a list of dims and rejects repeats.
func wrapDims(dims []int, n int) ([]int, error) {
	out := make([]int, len(dims))
	seen := make([]bool, max(n, 1))
	for i, d := range dims {
		w, err := wrapDim(d, n)
		if err != nil {
			return nil, err
		}
		if seen[w] {
			return nil, errorf(RuntimeError, "dim %d appears multiple times in the list of dims", w)
		}
		seen[w] = true
		out[i] = w
	}
	return out, nil
}
