package tensorio

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

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
	cr := csv.NewReader(r)
	if opts.Comma != 0 {
		cr.Comma = opts.Comma
	}
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true

	var (
		data    []byte
		names   []string
		cols    = -1
		colLine int
		rows    int
		first   = true
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, nil, newError(ErrCorrupt, "line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
			}
			return nil, nil, err
		}
		line, _ := cr.FieldPos(0)
		if first {
			first = false
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
			cols, colLine = len(rec), line
			header := opts.Header == HeaderPresent
			if opts.Header == HeaderAuto {
				for _, f := range rec {
					if f = strings.TrimSpace(f); f != "" {
						if _, err := strconv.ParseFloat(f, 64); err != nil {
							header = true
							break
						}
					}
				}
			}
			if header {
				names = make([]string, len(rec))
				for i, f := range rec {
					names[i] = strings.TrimSpace(f)
				}
				continue
			}
		}
		if len(rec) != cols {
			return nil, nil, newError(ErrCorrupt, "line %d: %d fields, want %d (as on line %d)", line, len(rec), cols, colLine)
		}
		for i, f := range rec {
			f = strings.TrimSpace(f)
			var v float64
			if f == "" {
				if !opts.EmptyAsNaN {
					return nil, nil, newError(ErrCorrupt, "line %d, field %d: empty field", line, i+1)
				}
				v = math.NaN()
			} else {
				var err error
				bits := 64
				if dtype == F32 {
					bits = 32
				}
				v, err = strconv.ParseFloat(f, bits)
				if err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, nil, newError(ErrCorrupt, "line %d, field %d: cannot parse %q as a number", line, i+1, clip(f))
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
		return newError(ErrInvalid, "csv needs a 1-D or 2-D array, got shape %v", a.Shape)
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
