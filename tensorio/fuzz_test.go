package tensorio

import (
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets check that decoders never panic, that a success yields
// a valid Array, and that re-encoding a decoded value decodes to the same
// value. Seeds are the real data files and the fixtures. Run one with e.g.
//
//	go test -run '^$' -fuzz '^FuzzNPY$' -fuzztime 30s ./tensorio

func addSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

func sameArray(a, b *Array) bool {
	return a.DType == b.DType && equalShape(a.Shape, b.Shape) && bytes.Equal(a.Data, b.Data)
}

func FuzzNPY(f *testing.F) {
	addSeeds(f, "testdata/fixtures/*.npy", filepath.Join(dataDir, "digits_y.npy"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeNPY(b)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("decoded invalid array: %v", err)
		}
		var buf bytes.Buffer
		if err := EncodeNPY(&buf, a); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		a2, err := DecodeNPY(buf.Bytes())
		if err != nil || !sameArray(a, a2) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func FuzzNPZ(f *testing.F) {
	addSeeds(f, "testdata/fixtures/*.npz")
	small, _ := FromInt64s(I16, []int{2}, []int64{1, -1})
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		EncodeNPZ(&buf, []Entry{{"a", small}}, compress)
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := DecodeNPZ(b)
		if err != nil {
			return
		}
		for _, e := range es {
			if err := e.Array.Validate(); err != nil {
				t.Fatalf("%s: decoded invalid array: %v", e.Name, err)
			}
		}
		var buf bytes.Buffer
		if err := EncodeNPZ(&buf, es, true); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		es2, err := DecodeNPZ(buf.Bytes())
		if err != nil || len(es2) != len(es) {
			t.Fatalf("round trip: %v", err)
		}
		for i := range es {
			if es[i].Name != es2[i].Name || !sameArray(es[i].Array, es2[i].Array) {
				t.Fatalf("round trip changed entry %d", i)
			}
		}
	})
}

func FuzzSafetensors(f *testing.F) {
	x, _ := FromFloat64s(F32, []int{2, 2}, []float64{1, 2, 3, 4})
	y, _ := FromInt64s(BF16, []int{3}, []int64{1, 2, 3})
	z := &Array{DType: Bool, Shape: []int{2}, Data: []byte{0, 1}}
	var buf bytes.Buffer
	EncodeSafetensors(&buf, []Entry{{"x", x}, {"y", y}, {"z", z}}, map[string]string{"format": "pt"})
	f.Add(buf.Bytes())
	f.Add(stFile(`{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[0],"data_offsets":[2,2]}}`, []byte{1, 2}))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, meta, err := DecodeSafetensors(b)
		if err != nil {
			return
		}
		for _, e := range es {
			if err := e.Array.Validate(); err != nil {
				t.Fatalf("%s: decoded invalid array: %v", e.Name, err)
			}
		}
		var out bytes.Buffer
		if err := EncodeSafetensors(&out, es, meta); err != nil {
			if strings.Contains(err.Error(), "empty tensor name") {
				return // "" is a legal JSON key but not a name we write
			}
			t.Fatalf("re-encode: %v", err)
		}
		es2, meta2, err := DecodeSafetensors(out.Bytes())
		if err != nil || len(es2) != len(es) || len(meta2) != len(meta) {
			t.Fatalf("round trip: %v", err)
		}
		for i := range es {
			if es[i].Name != es2[i].Name || !sameArray(es[i].Array, es2[i].Array) {
				t.Fatalf("round trip changed tensor %q", es[i].Name)
			}
		}
	})
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n3,4\n"), false)
	f.Add([]byte("1.5,-2e3,nan\n4,5,inf\n"), true)
	f.Add([]byte("\ufeff\"x\",y\n1, 2\n"), false)
	f.Add([]byte("1,2\r\n\r\n\"3\",4\n5,6\r"), false)
	f.Fuzz(func(t *testing.T, b []byte, f32 bool) {
		checkCSVSourceMatchesEncodingCSV(t, b)
		opts := CSVOptions{EmptyAsNaN: true}
		if f32 {
			opts.DType = F32
		}
		a, cols, err := DecodeCSV(bytes.NewReader(b), opts)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil || len(a.Shape) != 2 {
			t.Fatalf("decoded invalid array %v: %v", a.Shape, err)
		}
		if cols != nil && len(cols) != a.Shape[1] {
			t.Fatalf("%d names for %d columns", len(cols), a.Shape[1])
		}
		var buf bytes.Buffer
		if err := EncodeCSV(&buf, a, nil); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if a.Shape[0] == 0 {
			return // nothing to read back without a header
		}
		opts.Header = HeaderAbsent
		a2, _, err := DecodeCSV(&buf, opts)
		if err != nil {
			t.Fatalf("re-decode: %v\n%q", err, buf.String())
		}
		// NaN payloads are not preserved by text; compare as numbers.
		v1, _ := a.Float64s()
		v2, _ := a2.Float64s()
		if len(v1) != len(v2) {
			t.Fatalf("round trip shape %v -> %v", a.Shape, a2.Shape)
		}
		for i := range v1 {
			if v1[i] != v2[i] && !(v1[i] != v1[i] && v2[i] != v2[i]) {
				t.Fatalf("round trip value %d: %v -> %v", i, v1[i], v2[i])
			}
		}
	})
}

func FuzzImage(f *testing.F) {
	addSeeds(f, "testdata/fixtures/*.png", "testdata/fixtures/*.jpg")
	// Keep the fuzzer's allocations small: allow 64 kpixel outright, then
	// the usual bound per file byte.
	defer func(floor uint64) { imagePixelFloor = floor }(imagePixelFloor)
	imagePixelFloor = 1 << 16
	f.Fuzz(func(t *testing.T, b []byte) {
		a, format, err := DecodeImage(b)
		if err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("decoded invalid array: %v", err)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, a); err != nil {
			t.Fatalf("re-encode %s %v %s: %v", format, a.Shape, a.DType, err)
		}
		a2, _, err := DecodeImage(buf.Bytes())
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		opaque4 := len(a.Shape) == 3 && a.Shape[2] == 4 && len(a2.Shape) == 3 && a2.Shape[2] == 3
		if !opaque4 && !sameArray(a, a2) {
			t.Fatalf("png round trip changed %v -> %v", a.Shape, a2.Shape)
		}
	})
}

// checkCSVSourceMatchesEncodingCSV: the fast splitter must produce the same
// records (up to surrounding spaces, which DecodeCSV trims) and line
// numbers as encoding/csv alone, and fail exactly when it fails.
func checkCSVSourceMatchesEncodingCSV(t *testing.T, b []byte) {
	ref := csv.NewReader(bytes.NewReader(b))
	ref.FieldsPerRecord = -1
	ref.TrimLeadingSpace = true
	src := newCSVSource(bytes.NewReader(b), ',')
	for {
		want, refErr := ref.Read()
		got, line, err := src.next()
		if refErr != nil {
			if (refErr == io.EOF) != (err == io.EOF) || err == nil {
				t.Fatalf("encoding/csv: %v, fast path: %v", refErr, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("fast path error %v, encoding/csv read %q", err, want)
		}
		if refLine, _ := ref.FieldPos(0); refLine != line {
			t.Fatalf("line %d, encoding/csv says %d", line, refLine)
		}
		if len(got) != len(want) {
			t.Fatalf("fields %q, encoding/csv %q", got, want)
		}
		for i := range want {
			if g, w := bytes.TrimSpace(got[i]), strings.TrimSpace(want[i]); string(g) != w {
				t.Fatalf("field %d %q, encoding/csv %q", i, g, w)
			}
		}
	}
}
