package tensorio

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NumPy .npy format, versions 1.0, 2.0 and 3.0:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
//
//	"\x93NUMPY" major minor  header_len (uint16 LE for 1.x, uint32 LE for 2.x/3.x)
//	header: Python dict literal {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
//	        padded with spaces and a final '\n' so the data starts 64-byte aligned
//	data:   numel * itemsize bytes

const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header length we accept. NumPy itself refuses
// headers over 10000 bytes unless allow_pickle-style max_header_size is
// raised; a dtype and a 64-dimensional shape fit in far less.
const maxNPYHeader = 1 << 16

// npyDescr maps a NumPy dtype descr (byte-order char stripped) to a tsr
// dtype.
var npyDescr = map[string]string{
	"f2": F16, "f4": F32, "f8": F64,
	"i1": I8, "i2": I16, "i4": I32, "i8": I64,
	"u1": U8, "b1": Bool,
}

// npyName returns the descr NumPy writes for a little-endian tsr dtype, or
// "" for bf16 (NumPy has no bfloat16).
func npyName(dtype string) string {
	switch dtype {
	case F16:
		return "<f2"
	case F32:
		return "<f4"
	case F64:
		return "<f8"
	case I8:
		return "|i1"
	case I16:
		return "<i2"
	case I32:
		return "<i4"
	case I64:
		return "<i8"
	case U8:
		return "|u1"
	case Bool:
		return "|b1"
	}
	return ""
}

// DecodeNPY parses a complete .npy file held in b.
//
// It accepts format versions 1.0, 2.0 and 3.0, the descrs <f2 <f4 <f8 |i1
// <i2 <i4 <i8 |u1 |b1 (and their big-endian '>' and native '=' spellings,
// '|' or '<' interchangeably), and fortran_order True.
// Big-endian data is byte-swapped and Fortran-order data transposed into a
// new buffer; otherwise the returned Data aliases b (no copy). Bool bytes
// other than 0 and 1 are normalised to 1 (in a copy).
//
// Errors are *Error values: ErrCorrupt for a malformed header or a data
// size that does not match the header (checked before any allocation),
// ErrUnsupported for object, structured, string, complex, unsigned
// 16/32/64-bit and void dtypes (bf16 has no NumPy dtype; see EncodeNPY).
func DecodeNPY(b []byte) (*Array, error) {
	dtype, shape, fortran, bigEndian, hdrEnd, err := parseNPYHeader(b)
	if err != nil {
		return nil, err
	}
	size := ItemSize(dtype)
	nbytes, err := byteSize(shape, size)
	if err != nil {
		return nil, err
	}
	avail := uint64(len(b) - hdrEnd)
	if avail < nbytes {
		return nil, newError(ErrCorrupt, "truncated data: header says %d bytes, file has %d", nbytes, avail)
	}
	if avail > nbytes {
		return nil, newError(ErrCorrupt, "%d trailing bytes after the array data (header says %d bytes)", avail-nbytes, nbytes)
	}
	a := &Array{DType: dtype, Shape: shape, Data: b[hdrEnd:]}
	if bigEndian && size > 1 {
		a.Data = byteSwapped(a.Data, size)
	}
	if fortran && len(shape) > 1 {
		a.Data = fortranToC(a.Data, shape, size)
	}
	if dtype == Bool {
		a.Data = normaliseBool(a.Data)
	}
	return a, nil
}

// parseNPYHeader validates magic, version and header dict, returning the
// offset where data starts.
func parseNPYHeader(b []byte) (dtype string, shape []int, fortran, bigEndian bool, dataStart int, err error) {
	if len(b) < 10 || string(b[:6]) != npyMagic {
		if len(b) < 6 && strings.HasPrefix(npyMagic, string(b)) {
			err = newError(ErrCorrupt, "truncated .npy header (%d bytes)", len(b))
		} else {
			err = newError(ErrCorrupt, "not a .npy file (bad magic, want \\x93NUMPY)")
		}
		return
	}
	major, minor := b[6], b[7]
	var hlen, pre int
	switch major {
	case 1:
		hlen, pre = int(le.Uint16(b[8:])), 10
	case 2, 3:
		if len(b) < 12 {
			err = newError(ErrCorrupt, "truncated .npy header (%d bytes)", len(b))
			return
		}
		h := le.Uint32(b[8:])
		if h > maxNPYHeader {
			err = newError(ErrCorrupt, "header length %d exceeds the %d-byte limit", h, maxNPYHeader)
			return
		}
		hlen, pre = int(h), 12
	default:
		err = newError(ErrUnsupported, "unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", major, minor)
		return
	}
	if minor != 0 {
		err = newError(ErrUnsupported, "unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", major, minor)
		return
	}
	if len(b)-pre < hlen {
		err = newError(ErrCorrupt, "truncated header: header length says %d bytes, file has %d", hlen, len(b)-pre)
		return
	}
	hdr := b[pre : pre+hlen]
	if major == 3 && !utf8.Valid(hdr) {
		err = newError(ErrCorrupt, "header is not valid UTF-8")
		return
	}
	dtype, shape, fortran, bigEndian, err = parseNPYDict(string(hdr))
	return dtype, shape, fortran, bigEndian, pre + hlen, err
}

// parseNPYDict interprets the header dict literal.
func parseNPYDict(s string) (dtype string, shape []int, fortran, bigEndian bool, err error) {
	v, err := parsePyLiteral(s)
	if err != nil {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header %q: %v", clip(s), err)
	}
	d, ok := v.(pyDict)
	if !ok {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header %q: not a dict", clip(s))
	}
	if len(d.keys) != 3 {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header %q: want exactly the keys descr, fortran_order, shape", clip(s))
	}
	descr, fo, sh := d.get("descr"), d.get("fortran_order"), d.get("shape")
	if descr == nil || fo == nil || sh == nil {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header %q: want exactly the keys descr, fortran_order, shape", clip(s))
	}
	ds, ok := descr.(string)
	if !ok {
		return "", nil, false, false, newError(ErrUnsupported, "structured dtype %s is not supported", clip(pyRepr(descr)))
	}
	dtype, bigEndian, err = npyDType(ds)
	if err != nil {
		return "", nil, false, false, err
	}
	fortran, ok = fo.(bool)
	if !ok {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header: fortran_order is %s, want True or False", clip(pyRepr(fo)))
	}
	t, ok := sh.(pyTuple)
	if !ok {
		return "", nil, false, false, newError(ErrCorrupt, "malformed header: shape is %s, want a tuple of ints", clip(pyRepr(sh)))
	}
	if len(t) > MaxDims {
		return "", nil, false, false, newError(ErrCorrupt, "shape has %d dimensions (at most %d supported)", len(t), MaxDims)
	}
	shape = make([]int, len(t))
	for i, x := range t {
		n, ok := x.(int64)
		if !ok || n < 0 || int64(int(n)) != n {
			return "", nil, false, false, newError(ErrCorrupt, "malformed header: shape %s has a bad dimension", clip(pyRepr(sh)))
		}
		shape[i] = int(n)
	}
	return dtype, shape, fortran, bigEndian, nil
}

// npyDType maps a descr string such as "<f8" to a tsr dtype.
func npyDType(descr string) (dtype string, bigEndian bool, err error) {
	if descr == "" {
		return "", false, newError(ErrCorrupt, "empty dtype descr")
	}
	order, code := descr[0], descr[1:]
	switch order {
	case '<', '=', '|':
	case '>':
		bigEndian = true
	default:
		order, code = '=', descr
	}
	if dt, ok := npyDescr[code]; ok {
		// '=' (native) and '|' on a multi-byte type are never written by
		// NumPy; like NumPy we read them as the reader's native order,
		// which is little-endian on every platform tsr supports.
		return dt, bigEndian, nil
	}
	why := ""
	switch {
	case code == "O" || strings.HasPrefix(code, "O"):
		why = "object arrays (pickled Python objects) are not supported"
	case strings.HasPrefix(code, "u"):
		why = "unsigned integers wider than 8 bits are not supported (tsr has u8 only); convert to a signed type"
	case strings.HasPrefix(code, "c"):
		why = "complex dtypes are not supported"
	case strings.HasPrefix(code, "U") || strings.HasPrefix(code, "S") || strings.HasPrefix(code, "a"):
		why = "string dtypes are not supported"
	case strings.HasPrefix(code, "V"):
		why = "void/raw dtypes are not supported (ml_dtypes bfloat16 is saved as <V2; use .safetensors for bf16)"
	case strings.HasPrefix(code, "M") || strings.HasPrefix(code, "m"):
		why = "datetime/timedelta dtypes are not supported"
	case code == "f16" || code == "f12":
		why = "long double is not supported"
	default:
		why = "unknown dtype"
	}
	return "", false, newError(ErrUnsupported, "dtype %q: %s", descr, why)
}

// byteSwapped returns a copy of d with each size-byte item reversed.
func byteSwapped(d []byte, size int) []byte {
	out := make([]byte, len(d))
	for i := 0; i+size <= len(d); i += size {
		for j := 0; j < size; j++ {
			out[i+j] = d[i+size-1-j]
		}
	}
	return out
}

// fortranToC returns a new buffer holding column-major (Fortran order) data
// d of the given shape and item size in row-major (C) order.
func fortranToC(d []byte, shape []int, size int) []byte {
	out := make([]byte, len(d))
	n := len(shape)
	// Fortran strides (in bytes) of each axis.
	fstride := make([]int, n)
	s := size
	for i := 0; i < n; i++ {
		fstride[i] = s
		s *= shape[i]
	}
	if len(d) == 0 {
		return out
	}
	// Walk output in C order with an odometer over the index, tracking the
	// source offset incrementally.
	idx := make([]int, n)
	src := 0
	inner := shape[n-1]
	istr := fstride[n-1]
	for o := 0; o < len(out); {
		for k := 0; k < inner; k++ {
			copy(out[o:o+size], d[src+k*istr:])
			o += size
		}
		// Advance the odometer on axes n-2 .. 0.
		ax := n - 2
		for ; ax >= 0; ax-- {
			idx[ax]++
			src += fstride[ax]
			if idx[ax] < shape[ax] {
				break
			}
			src -= fstride[ax] * shape[ax]
			idx[ax] = 0
		}
		if ax < 0 {
			break
		}
	}
	return out
}

// normaliseBool returns d if every byte is 0 or 1, else a copy with nonzero
// bytes set to 1 (NumPy treats any nonzero byte as True).
func normaliseBool(d []byte) []byte {
	for i, x := range d {
		if x > 1 {
			out := append([]byte(nil), d...)
			for j := i; j < len(out); j++ {
				if out[j] != 0 {
					out[j] = 1
				}
			}
			return out
		}
	}
	return d
}

// EncodeNPY writes a as a .npy file to w, byte-identical to numpy.save of
// the same array: version 1.0 (2.0 when the header exceeds 65535 bytes), C
// order, little-endian, header padded so the data starts 64-byte aligned.
//
// bf16 is refused with an ErrUnsupported *Error: NumPy has no bfloat16
// dtype and no convention exists that NumPy would read back as bfloat16
// (use .safetensors, or convert to f32). An Array failing Validate is an
// ErrInvalid *Error; write errors from w are returned as is.
func EncodeNPY(w io.Writer, a *Array) error {
	hdr, err := npyHeader(a)
	if err != nil {
		return err
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	_, err = w.Write(a.Data)
	return err
}

// npyHeader builds magic, version, length and padded header dict.
func npyHeader(a *Array) ([]byte, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	descr := npyName(a.DType)
	if descr == "" {
		return nil, newError(ErrUnsupported, "dtype %s cannot be saved as .npy: NumPy has no bfloat16 (save as .safetensors, or convert to f32)", a.DType)
	}
	var sh strings.Builder
	sh.WriteByte('(')
	for i, d := range a.Shape {
		if i > 0 {
			sh.WriteString(", ")
		}
		sh.WriteString(strconv.Itoa(d))
	}
	if len(a.Shape) == 1 {
		sh.WriteByte(',')
	}
	sh.WriteByte(')')
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, sh.String())
	// NumPy >= 1.24 leaves room for the first axis to grow in place
	// (GROWTH_AXIS_MAX_DIGITS = 21).
	if len(a.Shape) > 0 {
		if pad := 21 - len(strconv.Itoa(a.Shape[0])); pad > 0 {
			dict += strings.Repeat(" ", pad)
		}
	}
	build := func(pre int) []byte {
		total := pre + len(dict) + 1
		pad := (64 - total%64) % 64
		var buf bytes.Buffer
		buf.WriteString(npyMagic)
		hl := len(dict) + pad + 1
		if pre == 10 {
			buf.Write([]byte{1, 0, byte(hl), byte(hl >> 8)})
		} else {
			buf.Write([]byte{2, 0, byte(hl), byte(hl >> 8), byte(hl >> 16), byte(hl >> 24)})
		}
		buf.WriteString(dict)
		buf.WriteString(strings.Repeat(" ", pad))
		buf.WriteByte('\n')
		return buf.Bytes()
	}
	h := build(10)
	if len(h)-10 > 65535 {
		h = build(12)
	}
	return h, nil
}

// clip shortens s for error messages.
func clip(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}
