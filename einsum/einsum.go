// Package einsum parses einsum equations, binds them to operand shapes,
// chooses a pairwise contraction order and lowers the contraction onto a few
// primitive tensor operations.
//
// The package knows shapes, never tensors: the compiler calls Parse to check
// ein"..." literals at compile time, and the tensor runtime runs a Plan with
// Execute, passing its own tensor type through the Ops interface. The
// semantics follow torch.einsum (aten/src/ATen/native/Linear.cpp):
//
//   - letters a-z and A-Z are indices, "..." is an ellipsis (at most one per
//     term), spaces are ignored, "->" is optional;
//   - an index repeated inside one operand takes a diagonal;
//   - an index absent from the output is summed;
//   - an index of size 1 in one operand broadcasts against the same index
//     of another size in another operand, and the dimensions covered by
//     "..." broadcast right-aligned like NumPy broadcasting;
//   - in implicit mode (no "->") the output is the ellipsis dimensions
//     followed by the indices that occur exactly once over all inputs,
//     sorted with capitals first ("aB" gives "Ba", as in PyTorch);
//   - in explicit mode an output without "..." sums the ellipsis dimensions
//     away (PyTorch; NumPy rejects that).
//
// Contraction paths for three or more operands use the opt_einsum / NumPy
// einsum_path cost model (see Plan); each pairwise contraction lowers to
// permute + reshape + bmm, as PyTorch's sumproduct_pair does.
package einsum

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Label identifies one einsum index. Letters are numbered as in PyTorch,
// capitals first: 'A'..'Z' are 0..25 and 'a'..'z' are 26..51, so sorting
// labels numerically gives the implicit-output order. Values from
// EllipsisLabel upward are the dimensions covered by "..." after binding:
// EllipsisLabel+k is the k-th ellipsis dimension counted from the left of
// the broadcast ellipsis shape.
type Label uint8

const (
	// NumLetters is the number of letter labels (52).
	NumLetters = 52
	// EllipsisLabel is the first label used for ellipsis dimensions.
	EllipsisLabel Label = NumLetters
	// MaxEllipsisDims is the largest number of dimensions "..." may cover
	// (the label space is 128 wide). Bind reports an error beyond it.
	MaxEllipsisDims = 128 - NumLetters
)

// LabelOf returns the label of the letter c and true, or 0 and false when
// c is not in a-z or A-Z.
func LabelOf(c byte) (Label, bool) {
	switch {
	case c >= 'A' && c <= 'Z':
		return Label(c - 'A'), true
	case c >= 'a' && c <= 'z':
		return Label(c-'a') + 26, true
	}
	return 0, false
}

// IsEllipsis reports whether l is an ellipsis dimension (l >= EllipsisLabel).
func (l Label) IsEllipsis() bool { return l >= EllipsisLabel }

// Letter returns the letter of a letter label, or 0 for an ellipsis label.
func (l Label) Letter() byte {
	switch {
	case l < 26:
		return 'A' + byte(l)
	case l < NumLetters:
		return 'a' + byte(l-26)
	}
	return 0
}

// String returns the letter ("i"), or "...k" for the k-th ellipsis dimension.
func (l Label) String() string {
	if l.IsEllipsis() {
		return fmt.Sprintf("...%d", l-EllipsisLabel)
	}
	return string(l.Letter())
}

// Term is the subscript list of one operand or of the output.
type Term struct {
	// Labels are the letter indices in order; the ellipsis is not included.
	Labels []Label
	// Ellipsis is the position in Labels where "..." stands (the number of
	// letters before it), or -1 when the term has no ellipsis.
	Ellipsis int
	// Pos is the byte offset of the term's first character in the equation.
	Pos int
	// LabelPos[k] is the byte offset of Labels[k] in the equation.
	LabelPos []int
}

// HasEllipsis reports whether the term contains "...".
func (t Term) HasEllipsis() bool { return t.Ellipsis >= 0 }

// String returns the term in canonical form, e.g. "i...k".
func (t Term) String() string {
	var b strings.Builder
	for k, l := range t.Labels {
		if k == t.Ellipsis {
			b.WriteString("...")
		}
		b.WriteByte(l.Letter())
	}
	if t.Ellipsis == len(t.Labels) {
		b.WriteString("...")
	}
	return b.String()
}

// Equation is a parsed and validated einsum equation. It is immutable and
// safe for concurrent use.
type Equation struct {
	// Src is the equation exactly as given to Parse.
	Src string
	// Inputs holds one term per operand.
	Inputs []Term
	// Output is the output term. In implicit mode it is computed by Parse:
	// "..." (if any input has one) followed by the letters that occur
	// exactly once over all inputs, in Label order (capitals first).
	Output Term
	// Explicit is true when the equation contains "->".
	Explicit bool
}

// NumOperands returns the number of operands the equation expects.
func (e *Equation) NumOperands() int { return len(e.Inputs) }

// String returns the canonical explicit form, e.g. "ij,jk->ik" for
// "ij, jk"; "..." is kept.
func (e *Equation) String() string {
	var b strings.Builder
	for k, t := range e.Inputs {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t.String())
	}
	b.WriteString("->")
	b.WriteString(e.Output.String())
	return b.String()
}

// Error is the error returned by Parse, Bind and the shape checks of
// Execute. Its kind is always "ValueError".
type Error struct {
	// Msg is the full message, starting with "einsum: ".
	Msg string
	// Pos is the byte offset into the equation of the character the error
	// is about, or -1 when the error is not about one character (shape
	// errors from Bind). The compiler adds it to the position of the first
	// character after ein" to point inside the literal.
	Pos int
}

// Error returns Msg.
func (e *Error) Error() string { return e.Msg }

// ErrorKind returns "ValueError", the tsr error kind of every einsum error.
func (e *Error) ErrorKind() string { return "ValueError" }

func errorf(pos int, format string, args ...any) *Error {
	return &Error{Msg: "einsum: " + fmt.Sprintf(format, args...), Pos: pos}
}

func operandName(k int) string {
	if k < 0 {
		return "the output"
	}
	return fmt.Sprintf("operand %d", k)
}

// Parse parses and validates an einsum equation such as "bhid,bhjd->bhij",
// "ii->", "...ij,...jk" or "i...k,k...j->i...j". It checks everything that
// does not depend on shapes; the operand count is checked by Bind.
//
// Errors are *Error values (kind ValueError) whose Pos points at the
// offending character, with messages such as
//
//	einsum: invalid character '1' in equation
//	einsum: more than one '...' in operand 0
//	einsum: '.' in operand 0 is not part of an ellipsis '...'
//	einsum: '->' must appear at most once
//	einsum: index 'i' appears more than once in the output
//	einsum: output index 'k' does not appear in any input
func Parse(eq string) (*Equation, error) {
	e := &Equation{Src: eq}
	arrow := -1
	for i := 0; i+1 < len(eq); i++ {
		if eq[i] == '-' && eq[i+1] == '>' {
			if arrow >= 0 {
				return nil, errorf(i, "'->' must appear at most once")
			}
			arrow = i
		}
	}
	lhsEnd := len(eq)
	if arrow >= 0 {
		lhsEnd = arrow
		e.Explicit = true
	}
	// Input terms, split at commas.
	start := 0
	for k := 0; ; k++ {
		end := start
		for end < lhsEnd && eq[end] != ',' {
			end++
		}
		t, err := parseTerm(eq, start, end, k)
		if err != nil {
			return nil, err
		}
		e.Inputs = append(e.Inputs, t)
		if end >= lhsEnd {
			break
		}
		start = end + 1
	}
	if e.Explicit {
		out, err := parseTerm(eq, arrow+2, len(eq), -1)
		if err != nil {
			return nil, err
		}
		var seen [NumLetters]int
		for k, l := range out.Labels {
			if seen[l] > 0 {
				return nil, errorf(out.LabelPos[k], "index '%c' appears more than once in the output", l.Letter())
			}
			seen[l]++
		}
		var inInput [NumLetters]bool
		for _, t := range e.Inputs {
			for _, l := range t.Labels {
				inInput[l] = true
			}
		}
		for k, l := range out.Labels {
			if !inInput[l] {
				return nil, errorf(out.LabelPos[k], "output index '%c' does not appear in any input", l.Letter())
			}
		}
		e.Output = out
	} else {
		var count [NumLetters]int
		ell := false
		for _, t := range e.Inputs {
			for _, l := range t.Labels {
				count[l]++
			}
			ell = ell || t.HasEllipsis()
		}
		out := Term{Ellipsis: -1, Pos: len(eq)}
		if ell {
			out.Ellipsis = 0
		}
		for l := Label(0); l < NumLetters; l++ {
			if count[l] == 1 {
				out.Labels = append(out.Labels, l)
				out.LabelPos = append(out.LabelPos, -1)
			}
		}
		e.Output = out
	}
	return e, nil
}

// parseTerm parses eq[start:end] as the term of operand k (k < 0: output).
func parseTerm(eq string, start, end, k int) (Term, error) {
	t := Term{Ellipsis: -1, Pos: start}
	for i := start; i < end; {
		c := eq[i]
		switch {
		case c == ' ':
			i++
		case c == '.':
			if i+2 < end && eq[i+1] == '.' && eq[i+2] == '.' {
				if t.Ellipsis >= 0 {
					return t, errorf(i, "more than one '...' in %s", operandName(k))
				}
				t.Ellipsis = len(t.Labels)
				i += 3
				continue
			}
			return t, errorf(i, "'.' in %s is not part of an ellipsis '...'", operandName(k))
		default:
			l, ok := LabelOf(c)
			if !ok {
				return t, invalidChar(eq, i, k)
			}
			t.Labels = append(t.Labels, l)
			t.LabelPos = append(t.LabelPos, i)
			i++
		}
	}
	return t, nil
}

func invalidChar(eq string, i, k int) *Error {
	r, _ := utf8.DecodeRuneInString(eq[i:])
	switch {
	case r == '-' && k >= 0:
		return errorf(i, "invalid character '-' in equation (did you mean '->'?)")
	case r == ',' && k < 0:
		return errorf(i, "invalid character ',' in the output (the output is a single term)")
	case r == utf8.RuneError:
		return errorf(i, "invalid byte 0x%02x in equation", eq[i])
	case r < 0x20 || r == 0x7f:
		return errorf(i, "invalid character %q in equation", r)
	}
	return errorf(i, "invalid character '%c' in equation", r)
}
