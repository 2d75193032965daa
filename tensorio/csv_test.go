package tensorio

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRealDigitsCSV(t *testing.T) {
	g := golden(t)
	f, err := Load(filepath.Join(dataDir, "digits.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != CSV || f.Array.DType != F64 || f.Columns != nil {
		t.Fatalf("format %s dtype %s columns %v", f.Format, f.Array.DType, f.Columns)
	}
	checkSummary(t, "digits.csv.gz", f.Array, g.DigitsCSV.summaryJSON)
	v := mustFloat64s(t, f.Array)
	for j, x := range g.DigitsCSV.Row1796 {
		if v[1796*65+j] != x {
			t.Errorf("row 1796 col %d = %v, want %v", j, v[1796*65+j], x)
		}
	}
	// The CSV's 64 pixel columns equal digits_X.npy.
	xf, err := Load(filepath.Join(dataDir, "digits_X.npy"))
	if err != nil {
		t.Fatal(err)
	}
	x := mustFloat64s(t, xf.Array)
	for r := 0; r < 1797; r++ {
		for c := 0; c < 64; c++ {
			if v[r*65+c] != x[r*64+c] {
				t.Fatalf("csv[%d,%d] = %v, npy %v", r, c, v[r*65+c], x[r*64+c])
			}
		}
	}
	// f32 option.
	f, err = LoadWith(filepath.Join(dataDir, "digits.csv.gz"), &LoadOptions{CSV: CSVOptions{DType: F32}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Array.DType != F32 || !equalShape(f.Array.Shape, []int{1797, 65}) {
		t.Errorf("f32: %s %v", f.Array.DType, f.Array.Shape)
	}
}

func decodeCSVString(s string, o CSVOptions) (*Array, []string, error) {
	return DecodeCSV(strings.NewReader(s), o)
}

func TestDecodeCSV(t *testing.T) {
	a, names, err := decodeCSVString("\ufeffx, y ,label\n1, 2.5,3\n\n-4e2,nan,-Inf\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, "|") != "x|y|label" || !equalShape(a.Shape, []int{2, 3}) {
		t.Fatalf("names %q shape %v", names, a.Shape)
	}
	v := mustFloat64s(t, a)
	if v[0] != 1 || v[1] != 2.5 || v[3] != -400 || !math.IsNaN(v[4]) || !math.IsInf(v[5], -1) {
		t.Errorf("values %v", v)
	}
	// Auto: numeric first row is data.
	a, names, err = decodeCSVString("1,2\n3,4\n", CSVOptions{})
	if err != nil || names != nil || !equalShape(a.Shape, []int{2, 2}) {
		t.Fatalf("%v %v %v", a, names, err)
	}
	// Forced header on a numeric row (e.g. years as column names).
	a, names, err = decodeCSVString("2020,2021\n3,4\n", CSVOptions{Header: HeaderPresent})
	if err != nil || strings.Join(names, ",") != "2020,2021" || !equalShape(a.Shape, []int{1, 2}) {
		t.Fatalf("%v %v %v", a, names, err)
	}
	// Forced no header: a text first row is then an error naming line 1.
	_, _, err = decodeCSVString("a,b\n1,2\n", CSVOptions{Header: HeaderAbsent})
	wantErr(t, err, ErrCorrupt, `line 1, field 1: cannot parse "a" as a number`)
	// Header only: [0, cols].
	a, names, err = decodeCSVString("a;b;c\n", CSVOptions{Comma: ';'})
	if err != nil || len(names) != 3 || !equalShape(a.Shape, []int{0, 3}) {
		t.Fatalf("%v %v %v", a, names, err)
	}
	// f32 parses at f32 precision (correctly rounded, no double rounding).
	a, _, err = decodeCSVString("0.1\n16777217\n", CSVOptions{DType: F32})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := a.Float32s()
	if f[0] != float32(0.1) || f[1] != 16777216 {
		t.Errorf("f32 values %v", f)
	}
	// Empty fields.
	_, _, err = decodeCSVString("1,2\n3,\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 2, field 2: empty field")
	a, _, err = decodeCSVString("1,2\n3,\n", CSVOptions{EmptyAsNaN: true})
	if err != nil || !math.IsNaN(mustFloat64s(t, a)[3]) {
		t.Errorf("EmptyAsNaN: %v %v", a, err)
	}
}

func TestDecodeCSVErrors(t *testing.T) {
	_, _, err := decodeCSVString("a,b\n1,2\n3,4\n5,6,7\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 4: 3 fields, want 2 (as on line 1)")
	_, _, err = decodeCSVString("1,2\n\n\n3\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 4: 1 fields, want 2")
	_, _, err = decodeCSVString("1,\"2\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 1")
	_, _, err = decodeCSVString("", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "empty csv")
	_, _, err = decodeCSVString("1\n", CSVOptions{DType: I64})
	wantErr(t, err, ErrInvalid, "f64 or f32")
	_, _, err = decodeCSVString("1,2\n3,x4\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, `line 2, field 2: cannot parse "x4"`)
}

func TestLoadCSVErrorsNameFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ragged.csv")
	os.WriteFile(p, []byte("a,b\n1,2\n3\n"), 0o644)
	_, err := Load(p)
	wantErr(t, err, ErrCorrupt, p+": line 3: 1 fields, want 2")

	p = filepath.Join(dir, "bad.csv.gz")
	os.WriteFile(p, []byte("plain text, not gzip"), 0o644)
	_, err = Load(p)
	wantErr(t, err, ErrCorrupt, p+": not a gzip file")

	// A truncated gzip stream.
	b, _ := os.ReadFile(filepath.Join(dataDir, "digits.csv.gz"))
	p = filepath.Join(dir, "trunc.csv.gz")
	os.WriteFile(p, b[:len(b)/2], 0o644)
	_, err = Load(p)
	wantErr(t, err, ErrCorrupt, p+": corrupt gzip data")
}

func TestCSVRoundTrip(t *testing.T) {
	vals := []float64{0.1, -2, 1e300, math.Inf(1), 5e-324, 123456789.123}
	a, _ := FromFloat64s(F64, []int{3, 2}, vals)
	var buf bytes.Buffer
	if err := EncodeCSV(&buf, a, []string{"a,b", "c"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "\"a,b\",c\n0.1,-2\n") {
		t.Errorf("csv %q", buf.String())
	}
	b, names, err := DecodeCSV(&buf, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if names[0] != "a,b" || !bytes.Equal(a.Data, b.Data) {
		t.Errorf("round trip: %v %v", names, mustFloat64s(t, b))
	}
	// f32 and f16 are written at their own precision and read back exactly.
	for _, dt := range []string{F32, F16, BF16} {
		a, _ := FromFloat64s(dt, []int{4}, []float64{0.1, 1.0 / 3, 1000.5, -7})
		buf.Reset()
		if err := EncodeCSV(&buf, a, nil); err != nil {
			t.Fatal(err)
		}
		b, _, err := DecodeCSV(&buf, CSVOptions{DType: F32})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := a.Float32s()
		got, _ := b.Float32s()
		for i := range want {
			if want[i] != got[i] {
				t.Errorf("%s: %v != %v", dt, got, want)
			}
		}
	}
	// Integers and bools.
	a, _ = FromInt64s(I32, []int{2, 2}, []int64{-3, 0, 2147483647, 4})
	buf.Reset()
	EncodeCSV(&buf, a, nil)
	if buf.String() != "-3,0\n2147483647,4\n" {
		t.Errorf("int csv %q", buf.String())
	}
	buf.Reset()
	EncodeCSV(&buf, &Array{DType: Bool, Shape: []int{2}, Data: []byte{1, 0}}, nil)
	if buf.String() != "1\n0\n" {
		t.Errorf("bool csv %q", buf.String())
	}
	wantErr(t, EncodeCSV(&buf, &Array{DType: U8, Shape: []int{1, 1, 1}, Data: []byte{1}}, nil), ErrInvalid, "1-D or 2-D")
	wantErr(t, EncodeCSV(&buf, a, []string{"x"}), ErrInvalid, "1 column names for 2 columns")
}

// Quoted fields switch to encoding/csv midway; line numbers stay right.
func TestDecodeCSVQuotesAndLineEndings(t *testing.T) {
	in := "a,b\r\n1,2\r\n\r\n\"3\",\" 4\"\r\n\"5\n\",6\n7,8,9\n"
	_, _, err := decodeCSVString(in, CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 7: 3 fields, want 2 (as on line 1)")
	a, names, err := decodeCSVString(in[:len(in)-len("7,8,9\n")], CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v := mustFloat64s(t, a); names[1] != "b" || len(v) != 6 || v[2] != 3 || v[3] != 4 || v[4] != 5 || v[5] != 6 {
		t.Errorf("values %v names %q", v, names)
	}
	_, _, err = decodeCSVString("1,2\n3,4\n5,\"6\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 3, column")
	_, _, err = decodeCSVString("1,2\n3,4\n5,6\"x\n", CSVOptions{})
	wantErr(t, err, ErrCorrupt, "line 3, column", "bare \"")
	// Tab-separated, a final line without newline and a trailing \r.
	a, _, err = decodeCSVString("1\t2\n3\t4\r", CSVOptions{Comma: '\t'})
	if err != nil || !equalShape(a.Shape, []int{2, 2}) || mustFloat64s(t, a)[3] != 4 {
		t.Errorf("tsv: %v %v", a, err)
	}
	// A line longer than the 64 KiB read buffer.
	long := strings.Repeat("1.25,", 20000) + "2\n"
	a, _, err = decodeCSVString(long+long, CSVOptions{})
	if err != nil || !equalShape(a.Shape, []int{2, 20001}) {
		t.Fatalf("long lines: %v", err)
	}
	if v := mustFloat64s(t, a); v[20000] != 2 || v[20001] != 1.25 {
		t.Errorf("long line values %v %v", v[20000], v[20001])
	}
	_, _, err = decodeCSVString("1\n", CSVOptions{Comma: '"'})
	wantErr(t, err, ErrInvalid, "separator")
}
