package tensorio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestRealDigitsNPY(t *testing.T) {
	g := golden(t)
	f, err := Load(filepath.Join(dataDir, "digits_X.npy"))
	if err != nil {
		t.Fatal(err)
	}
	a := f.Array
	if f.Format != NPY || a.DType != F64 || g.DigitsX.DType != "float64" {
		t.Fatalf("format %s dtype %s", f.Format, a.DType)
	}
	checkSummary(t, "digits_X", a, g.DigitsX.summaryJSON)
	v := mustFloat64s(t, a)
	for j, x := range g.DigitsX.Row5 {
		if v[5*64+j] != x {
			t.Errorf("X[5,%d] = %v, want %v", j, v[5*64+j], x)
		}
	}

	f, err = Load(filepath.Join(dataDir, "digits_y.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Array.DType != I64 {
		t.Fatalf("y dtype %s", f.Array.DType)
	}
	checkSummary(t, "digits_y", f.Array, g.DigitsY.summaryJSON)
	ys, err := f.Array.Int64s()
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, 10)
	for _, y := range ys {
		counts[y]++
	}
	if fmt.Sprint(counts) != fmt.Sprint(g.DigitsY.Counts) {
		t.Errorf("label counts %v, want %v", counts, g.DigitsY.Counts)
	}
}

// EncodeNPY must reproduce numpy.save byte for byte.
func TestEncodeNPYMatchesNumPy(t *testing.T) {
	names := []string{"f2_le.npy", "f4_le.npy", "f8_le.npy", "i1_le.npy", "i2_le.npy", "i4_le.npy", "i8_le.npy",
		"u1_le.npy", "b1_le.npy", "scalar.npy", "empty.npy", "vec.npy"}
	for _, name := range names {
		b := fixture(t, name)
		a, err := DecodeNPY(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := EncodeNPY(&buf, a); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(buf.Bytes(), b) {
			t.Errorf("%s: re-encoded bytes differ from numpy.save\n got %q\nwant %q", name, buf.Bytes()[:min(buf.Len(), 128)], b[:128])
		}
	}
	b, err := os.ReadFile(filepath.Join(dataDir, "digits_X.npy"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := DecodeNPY(b)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := EncodeNPY(&buf, a); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), b) {
		t.Error("digits_X.npy: re-encoded bytes differ")
	}
}

// Every dtype, big-endian, Fortran order and the three format versions
// decode to the values NumPy reports.
func TestDecodeNPYFixtures(t *testing.T) {
	g := golden(t)
	names := make([]string, 0, len(g.NPY))
	for n := range g.NPY {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) < 30 {
		t.Fatalf("only %d npy fixtures in golden.json", len(names))
	}
	for _, name := range names {
		want := g.NPY[name]
		a, err := DecodeNPY(fixture(t, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !equalShape(a.Shape, want.Shape) {
			t.Errorf("%s: shape %v, want %v", name, a.Shape, want.Shape)
			continue
		}
		wantDType := map[string]string{"f2": F16, "f4": F32, "f8": F64, "i1": I8, "i2": I16, "i4": I32, "i8": I64, "u1": U8, "b1": Bool}[name[:2]]
		if wantDType != "" && a.DType != wantDType {
			t.Errorf("%s: dtype %s, want %s", name, a.DType, wantDType)
		}
		v := mustFloat64s(t, a)
		for i := range v {
			if v[i] != want.Values[i] {
				t.Errorf("%s: element %d = %v, want %v", name, i, v[i], want.Values[i])
				break
			}
		}
	}
}

func TestDecodeNPYUnsupported(t *testing.T) {
	for name, frag := range map[string]string{
		"object.npy":     "object arrays",
		"u2.npy":         "unsigned integers wider than 8 bits",
		"c8.npy":         "complex",
		"structured.npy": "structured dtype",
	} {
		_, err := DecodeNPY(fixture(t, name))
		wantErr(t, err, ErrUnsupported, frag)
	}
	var buf bytes.Buffer
	err := EncodeNPY(&buf, &Array{DType: BF16, Shape: []int{1}, Data: []byte{0, 0}})
	wantErr(t, err, ErrUnsupported, "bfloat16")
}

// npyBytes builds a .npy file with an arbitrary header dict and data.
func npyBytes(dict string, data []byte) []byte {
	h := dict + "\n"
	b := []byte(npyMagic + "\x01\x00")
	b = append(b, byte(len(h)), byte(len(h)>>8))
	b = append(b, h...)
	return append(b, data...)
}

func TestDecodeNPYCorrupt(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		kind error
		frag string
	}{
		{"empty", nil, ErrCorrupt, "truncated .npy header"},
		{"magic", []byte("PK\x03\x04 this is a zip"), ErrCorrupt, "bad magic"},
		{"version", []byte(npyMagic + "\x04\x00\x10\x00{}"), ErrUnsupported, "version 4.0"},
		{"short header", []byte(npyMagic + "\x01\x00\xff\x00{'descr'"), ErrCorrupt, "truncated header: header length says 255 bytes, file has 8"},
		{"v2 huge header", []byte(npyMagic + "\x02\x00\xff\xff\xff\xff{"), ErrCorrupt, "exceeds"},
		{"not dict", npyBytes("[1, 2]", nil), ErrCorrupt, "not a dict"},
		{"syntax", npyBytes("{'descr': '<f8', 'shape': (2,3}", nil), ErrCorrupt, "malformed header"},
		{"missing key", npyBytes("{'descr': '<f8', 'shape': (2,), 'x': 1}", nil), ErrCorrupt, "want exactly the keys"},
		{"negative dim", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (-2,)}", nil), ErrCorrupt, "bad dimension"},
		{"float dim", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (2.5,)}", nil), ErrCorrupt, "malformed header"},
		{"overflow", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", nil), ErrCorrupt, "too large"},
		{"lying shape", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000)}", make([]byte, 16)), ErrCorrupt, "truncated data: header says 80000000000 bytes, file has 16"},
		{"trailing", npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)}", make([]byte, 8)), ErrCorrupt, "4 trailing bytes"},
		{"fortran type", npyBytes("{'descr': '<i4', 'fortran_order': 1, 'shape': (1,)}", make([]byte, 4)), ErrCorrupt, "fortran_order"},
		{"shape type", npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': 3}", make([]byte, 4)), ErrCorrupt, "want a tuple"},
		{"deep", npyBytes("{'descr': "+strings.Repeat("(", 1000)+"}", nil), ErrCorrupt, "nested too deeply"},
		{"void", npyBytes("{'descr': '<V2', 'fortran_order': False, 'shape': (1,)}", make([]byte, 2)), ErrUnsupported, "bfloat16"},
	}
	for _, c := range cases {
		a, err := DecodeNPY(c.b)
		if a != nil {
			t.Errorf("%s: got an array", c.name)
		}
		t.Run(c.name, func(t *testing.T) { wantErr(t, err, c.kind, c.frag) })
	}
}

// The error for a truncated real file names the file and both sizes.
func TestLoadTruncatedNPYNamesFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(dataDir, "digits_X.npy"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "digits.npy")
	if err := os.WriteFile(path, b[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(path)
	wantErr(t, err, ErrCorrupt)
	want := path + ": truncated data: header says 920064 bytes, file has 872"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestNPYPythonLiteralQuirks(t *testing.T) {
	// Python 2 NumPy wrote long suffixes, double quotes are legal Python,
	// and keys may come in any order.
	a, err := DecodeNPY(npyBytes(`{"shape": (2L, 1L), 'fortran_order': False, "descr": "<i2"}`, []byte{1, 0, 0xff, 0xff}))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := a.Int64s()
	if !equalShape(a.Shape, []int{2, 1}) || v[0] != 1 || v[1] != -1 {
		t.Errorf("got %v %v", a.Shape, v)
	}
	// '|' and '=' on multi-byte types read as native (little-endian), as NumPy does.
	for _, d := range []string{"|f8", "=f8", "f8"} {
		a, err := DecodeNPY(npyBytes("{'descr': '"+d+"', 'fortran_order': False, 'shape': ()}", []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}))
		if err != nil || mustFloat64s(t, a)[0] != 1 {
			t.Errorf("%s: %v", d, err)
		}
	}
	// Bool bytes other than 0/1 are normalised, without touching the input.
	in := npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", []byte{0, 7, 1})
	a, err = DecodeNPY(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Data, []byte{0, 1, 1}) || in[len(in)-2] != 7 {
		t.Errorf("bool data %v, input %v", a.Data, in[len(in)-3:])
	}
}

func TestFortranToC3D(t *testing.T) {
	// Fortran-order [2,3,4] of i8 with value = 100*i + 10*j + k stored at
	// offset i + 2*j + 6*k.
	shape := []int{2, 3, 4}
	f := make([]byte, 24)
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 4; k++ {
				f[i+2*j+6*k] = byte(16*i + 4*j + k)
			}
		}
	}
	c := fortranToC(f, shape, 1)
	for n := range c {
		if c[n] != byte(n/12*16+n/4%3*4+n%4) {
			t.Fatalf("C order %v", c)
		}
	}
}

func TestNPYNaNAndInf(t *testing.T) {
	a, err := FromFloat64s(F64, []int{3}, []float64{math.NaN(), math.Inf(-1), -0.0})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := EncodeNPY(&buf, a); err != nil {
		t.Fatal(err)
	}
	b, err := DecodeNPY(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Data, b.Data) {
		t.Error("NaN/Inf/-0 bits not preserved")
	}
	if _, err := DecodeNPY(buf.Bytes()[:buf.Len()-1]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
}
