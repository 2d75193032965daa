// Package numfmt formats numbers and tensors as tsr prints them: Python's
// float repr and format-spec mini-language (for f-strings and format()), and
// PyTorch's tensor formatter (torch/_tensor_str.py). It knows nothing of the
// tensor type: callers describe the data through TensorData.
//
// (Placeholder signatures: the numfmt implementation replaces this file.)
package numfmt

import (
	"fmt"
	"strconv"
)

// FloatRepr formats f as Python's repr(float): shortest round-trip digits,
// "1.0", "0.1", "1e-05", "1e+16", "inf", "-inf", "nan".
func FloatRepr(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// FormatSpec formats x (int64, float64, bool or string) with a Python
// format spec such as ".4f", ".3e", ",", ">10", "%", "08.3f", "x". An
// invalid spec returns a ValueError-kind error.
func FormatSpec(x any, spec string) (string, error) { return fmt.Sprint(x), nil }

// Kind is the element kind of a tensor being printed.
type Kind uint8

const (
	Float Kind = iota // floating point: printed with PyTorch's float rules
	Int               // integers
	Bool              // booleans, printed true/false
)

// TensorData describes a tensor for FormatTensor. Elements are addressed by
// their flat index in C (row-major) order; only the elements that appear in
// the output are read, so summarising a huge tensor is cheap.
type TensorData struct {
	Shape []int
	Kind  Kind
	Float func(i int) float64 // Kind == Float (values already rounded to the dtype)
	Int   func(i int) int64   // Kind == Int
	Bool  func(i int) bool    // Kind == Bool
	// Suffix holds extra "key=value" parts printed after the data, in
	// order, e.g. "dtype=i32", "requires_grad=true", "grad_fn=<MulBackward>".
	Suffix []string
}

// FormatTensor renders t exactly as PyTorch's repr would (precision 4,
// scientific switch, 80-column line width, "..." summary above 1000
// elements with 3 edge items), with "tensor(" prefix and tsr's spelling of
// booleans (true/false) and dtype names.
func FormatTensor(t TensorData) string { return fmt.Sprint("tensor(", t.Shape, ")") }
