package tensorio

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/x448/float16"
)

// HeaderMode says whether the first CSV row holds column names.
type HeaderMode int

const (
	// HeaderAuto treats the first row as a header when at least one of its
	// non-empty fields does not parse as a number.
	HeaderAuto HeaderMode = iota
	// HeaderPresent always treats the first row as column names.
	HeaderPresent
	// HeaderAbsent treats every row as data.
	HeaderAbsent
)

// CSVOptions controls DecodeCSV. The zero value reads comma-separated f64
// with an auto-detected header and refuses empty fields.
type CSVOptions struct {
	Header     HeaderMode
	DType      string // F64 (default when "") or F32
	Comma      rune   // field separator; ',' when 0
	EmptyAsNaN bool   // read empty fields as NaN instead of failing
}

// DecodeCSV reads numeric CSV from r into a [rows, cols] array of
// opts.DType (f64 by default, or f32, each field parsed with
// strconv.ParseFloat at that precision, so correctly rounded) plus the
// column names (nil without a header). Fields may be surrounded by spaces;
// NaN, Inf and -Inf are accepted in any case; a leading UTF-8 byte-order
// mark is ignored; blank lines are skipped. A header-only input gives shape
// [0, cols]; an empty input is an ErrCorrupt *Error.
//
// Errors name the line (1-based, as in a text editor): a row with a
// different number of fields than the first ("line 7: 3 fields, want 4"),
// an unparsable or empty field ("line 2, field 3: cannot parse "x" as a
// number"), or malformed quoting. They are ErrCorrupt *Errors; an invalid
// opts.DType is ErrInvalid; read errors from r are returned as is.
func DecodeCSV(r io.Reader, opts CSVOptions) (*Array, []string, error) {
	dtype := opts.DType
	if dtype == "" {
		dtype = F64
	}
	if dtype != F64 && dtype != F32 {
		return nil, nil, newError(ErrInvalid, "csv dtype must be f64 or f32, not %q", dtype)
	}
	comma := opts.Comma
	if comma == 0 {
		comma = ','
	}
	if comma == '"' || comma == '\r' || comma == '\n' || comma == utf8.RuneError || !utf8.ValidRune(comma) {
		return nil, nil, newError(ErrInvalid, "invalid csv separator %q", comma)
	}
	src := newCSVSource(r, comma)
	bits := 64
	if dtype == F32 {
		bits = 32
	}
	var (
		data    []byte
		names   []string
		cols    = -1
		colLine int
		rows    int
	)
	for {
		rec, line, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if cols < 0 {
			rec[0] = bytes.TrimPrefix(rec[0], []byte("\ufeff"))
			cols, colLine = len(rec), line
			header := opts.Header == HeaderPresent
			if opts.Header == HeaderAuto {
				for _, f := range rec {
					if f = bytes.TrimSpace(f); len(f) != 0 {
						if _, err := strconv.ParseFloat(string(f), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
							header = true
							break
						}
					}
				}
			}
			if header {
				names = make([]string, len(rec))
				for i, f := range rec {
					names[i] = string(bytes.TrimSpace(f))
				}
				continue
			}
		}
		if len(rec) != cols {
			return nil, nil, newError(ErrCorrupt, "line %d: %d fields, want %d (as on line %d)", line, len(rec), cols, colLine)
		}
		for i, f := range rec {
			f = bytes.TrimSpace(f)
			var v float64
			if len(f) == 0 {
				if !opts.EmptyAsNaN {
					return nil, nil, newError(ErrCorrupt, "line %d, field %d: empty field", line, i+1)
				}
				v = math.NaN()
			} else {
				var err error
				v, err = strconv.ParseFloat(string(f), bits)
				if err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, nil, newError(ErrCorrupt, "line %d, field %d: cannot parse %q as a number", line, i+1, clip(string(f)))
				}
			}
			if dtype == F32 {
				data = le.AppendUint32(data, math.Float32bits(float32(v)))
			} else {
				data = le.AppendUint64(data, math.Float64bits(v))
			}
		}
		rows++
	}
	if cols < 0 {
		return nil, nil, newError(ErrCorrupt, "empty csv: no rows")
	}
	if data == nil {
		data = []byte{}
	}
	return &Array{DType: dtype, Shape: []int{rows, cols}, Data: data}, names, nil
}

// csvSource yields CSV records as byte-slice fields. Lines without a
// double quote (the common numeric case) are split directly, without
// per-field allocation; from the first line holding a '"' on, the rest of
// the input goes through encoding/csv, so quoting follows RFC 4180 exactly
// as encoding/csv implements it. Both paths skip empty lines, treat \r\n
// as \n and count lines from 1.
type csvSource struct {
	br       *bufio.Reader
	comma    []byte
	line     int // lines consumed by the fast path
	fields   [][]byte
	slow     *csv.Reader
	slowBase int // lines consumed before the slow path took over
}

func newCSVSource(r io.Reader, comma rune) *csvSource {
	return &csvSource{br: bufio.NewReaderSize(r, 1<<16), comma: utf8.AppendRune(nil, comma)}
}

// next returns the next record and its line number, io.EOF at the end, an
// ErrCorrupt *Error for malformed quoting, or a read error from the
// underlying reader.
func (s *csvSource) next() ([][]byte, int, error) {
	if s.slow != nil {
		rec, err := s.slow.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, newError(ErrCorrupt, "line %d, column %d: %v", s.slowBase+pe.Line, pe.Column, pe.Err)
			}
			return nil, 0, err
		}
		line, _ := s.slow.FieldPos(0)
		s.fields = s.fields[:0]
		for _, f := range rec {
			s.fields = append(s.fields, []byte(f))
		}
		return s.fields, s.slowBase + line, nil
	}
	for {
		line, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = s.br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return nil, 0, err
		}
		if len(line) == 0 {
			return nil, 0, io.EOF
		}
		if bytes.IndexByte(line, '"') >= 0 {
			s.slow = csv.NewReader(io.MultiReader(bytes.NewReader(append([]byte(nil), line...)), s.br))
			s.slow.Comma, _ = utf8.DecodeRune(s.comma)
			s.slow.FieldsPerRecord = -1
			s.slow.ReuseRecord = true
			s.slow.TrimLeadingSpace = true
			s.slowBase = s.line
			return s.next()
		}
		s.line++
		if n := len(line); line[n-1] == '\n' {
			line = line[:n-1]
			if n >= 2 && line[n-2] == '\r' {
				line = line[:n-2]
			}
		} else if line[n-1] == '\r' { // dropped before EOF, as encoding/csv does
			line = line[:n-1]
		}
		if len(line) == 0 {
			continue // empty lines are skipped
		}
		s.fields = s.fields[:0]
		for {
			i := bytes.Index(line, s.comma)
			if i < 0 {
				s.fields = append(s.fields, line)
				break
			}
			s.fields = append(s.fields, line[:i])
			line = line[i+len(s.comma):]
		}
		return s.fields, s.line, nil
	}
}

// EncodeCSV writes a 1-D (one column) or 2-D array of any dtype as CSV to
// w, preceded by a header row when columns is non-nil (len(columns) must
// equal the column count; names are quoted as needed). Floats are written
// in the shortest form that reads back to the same value at their
// precision (f16/bf16/f32 as float32), so DecodeCSV with the matching
// dtype round-trips exactly; integers in decimal; bool as 0 and 1.
// A wrong rank or column count is an ErrInvalid *Error.
func EncodeCSV(w io.Writer, a *Array, columns []string) error {
	if err := a.Validate(); err != nil {
		return err
	}
	var rows, cols int
	switch len(a.Shape) {
	case 1:
		rows, cols = a.Shape[0], 1
	case 2:
		rows, cols = a.Shape[0], a.Shape[1]
	default:
		return newError(ErrInvalid, "csv needs a 1-D or 2-D array, got shape %s", shapeStr(a.Shape))
	}
	if columns != nil && len(columns) != cols {
		return newError(ErrInvalid, "%d column names for %d columns", len(columns), cols)
	}
	cw := csv.NewWriter(w)
	if columns != nil {
		if err := cw.Write(columns); err != nil {
			return err
		}
	}
	rec := make([]string, cols)
	buf := make([]byte, 0, 32*cols)
	ends := make([]int, cols)
	d := a.Data
	for r := 0; r < rows; r++ {
		buf = buf[:0]
		for c := 0; c < cols; c++ {
			i := r*cols + c
			switch a.DType {
			case F64:
				buf = strconv.AppendFloat(buf, math.Float64frombits(le.Uint64(d[8*i:])), 'g', -1, 64)
			case F32:
				buf = strconv.AppendFloat(buf, float64(math.Float32frombits(le.Uint32(d[4*i:]))), 'g', -1, 32)
			case F16:
				buf = strconv.AppendFloat(buf, float64(float16.Frombits(le.Uint16(d[2*i:])).Float32()), 'g', -1, 32)
			case BF16:
				buf = strconv.AppendFloat(buf, float64(bf16ToF32(le.Uint16(d[2*i:]))), 'g', -1, 32)
			default:
				buf = strconv.AppendInt(buf, intAt(a.DType, d, i), 10)
			}
			ends[c] = len(buf)
		}
		s := string(buf)
		start := 0
		for c := range rec {
			rec[c] = s[start:ends[c]]
			start = ends[c]
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
