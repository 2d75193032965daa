// Package numfmt formats numbers and tensors as tsr prints them: Python's
// float repr and format-spec mini-language (for f-strings and format()), and
// PyTorch's tensor formatter (torch/_tensor_str.py). It knows nothing of the
// tensor type: callers describe the data through TensorData.
//
// Everything here is checked byte for byte against CPython 3.11 and
// PyTorch output by golden files in testdata/, produced by the generator
// scripts kept next to them.
package numfmt

// FloatRepr formats f exactly as Python's repr(float) (and str(float)) do:
// the shortest decimal digits that read back as f, in fixed notation with at
// least one digit after the point ("1.0", "0.1", "100.0", "0.0001",
// "1234567890123456.0") when the decimal exponent is in [-4, 16), and in
// exponent notation otherwise ("1e-05", "1e+16", "1.5e+300"); "-0.0",
// "inf", "-inf" and "nan" for the special values.
//
// Port of CPython's float_repr (format_float_short with mode 0 and
// Py_DTSF_ADD_DOT_0); the shortest digits come from strconv.
func FloatRepr(f float64) string {
	return doubleToString(f, 'r', 0, floatFlags{addDot0: true})
}
