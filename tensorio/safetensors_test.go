package tensorio

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// stFile builds a safetensors file from a header string and data.
func stFile(header string, data []byte) []byte {
	b := make([]byte, 8, 8+len(header)+len(data))
	le.PutUint64(b, uint64(len(header)))
	return append(append(b, header...), data...)
}

func TestDecodeSafetensorsHandBuilt(t *testing.T) {
	// Layout as written by the reference implementation: F32 [2] then U8 [3].
	data := []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 7, 8, 9} // 1.0, -2.0, 7 8 9
	h := `{"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[1,3],"data_offsets":[8,11]}}    `
	es, meta, err := DecodeSafetensors(stFile(h, data))
	if err != nil {
		t.Fatal(err)
	}
	if meta["format"] != "pt" || len(es) != 2 || es[0].Name != "w" || es[1].Name != "b" {
		t.Fatalf("meta %v entries %+v", meta, es)
	}
	v := mustFloat64s(t, es[0].Array)
	if v[0] != 1 || v[1] != -2 {
		t.Errorf("w = %v", v)
	}
	if es[1].Array.DType != U8 || !equalShape(es[1].Array.Shape, []int{1, 3}) || !bytes.Equal(es[1].Array.Data, []byte{7, 8, 9}) {
		t.Errorf("b = %+v", es[1].Array)
	}
}

func TestSafetensorsRoundTripAllDTypes(t *testing.T) {
	var in []Entry
	for i, dt := range []string{Bool, U8, I8, I16, F16, BF16, I32, F32, I64, F64} {
		a, err := FromFloat64s(dt, []int{2, 2}, []float64{float64(i), 1, 0, -1 * float64(i%2)})
		if dt == U8 {
			a, err = FromFloat64s(dt, []int{2, 2}, []float64{float64(i), 1, 0, 255})
		}
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Entry{"t_" + dt, a})
	}
	in = append(in, Entry{"empty", &Array{DType: F32, Shape: []int{0, 3}, Data: []byte{}}})
	meta := map[string]string{"format": "pt", "note": `<quotes " & unicode é>`}
	var buf bytes.Buffer
	if err := EncodeSafetensors(&buf, in, meta); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	n := le.Uint64(b)
	if n%8 != 0 {
		t.Errorf("header size %d not a multiple of 8", n)
	}
	if !strings.Contains(string(b[8:8+n]), `"dtype":"BF16"`) || !strings.Contains(string(b[8:8+n]), `"dtype":"BOOL"`) {
		t.Errorf("header %s", b[8:8+n])
	}
	out, meta2, err := DecodeSafetensors(b)
	if err != nil {
		t.Fatal(err)
	}
	if meta2["note"] != meta["note"] || len(meta2) != 2 {
		t.Errorf("metadata %v", meta2)
	}
	if len(out) != len(in) {
		t.Fatalf("%d entries", len(out))
	}
	for i := range in {
		o := out[i]
		if o.Name != in[i].Name || o.Array.DType != in[i].Array.DType || !equalShape(o.Array.Shape, in[i].Array.Shape) || !bytes.Equal(o.Array.Data, in[i].Array.Data) {
			t.Errorf("entry %d: got %+v, want %+v", i, o, in[i])
		}
	}
	// Layout: data sorted by decreasing item size, so every tensor starts at
	// an offset that is a multiple of its item size (header size is too).
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &hdr); err != nil {
		t.Fatal(err)
	}
	for _, e := range in {
		var info stInfo
		if err := json.Unmarshal(hdr[e.Name], &info); err != nil {
			t.Fatal(err)
		}
		if size := uint64(ItemSize(e.Array.DType)); info.Offsets[0]%size != 0 {
			t.Errorf("%s starts at %d, not aligned to %d", e.Name, info.Offsets[0], size)
		}
	}
	if off := func() uint64 { var i stInfo; json.Unmarshal(hdr["t_i64"], &i); return i.Offsets[0] }(); off != 0 {
		t.Errorf("i64 tensor at offset %d, want 0 (first of the largest item size)", off)
	}
	wantErr(t, EncodeSafetensors(&buf, []Entry{{"__metadata__", in[0].Array}}, nil), ErrInvalid, "reserved")
	wantErr(t, EncodeSafetensors(&buf, []Entry{{"a", in[0].Array}, {"a", in[1].Array}}, nil), ErrInvalid, "duplicate")
	wantErr(t, EncodeSafetensors(&buf, []Entry{{"a", &Array{DType: F32, Shape: []int{2}, Data: []byte{1}}}}, nil), ErrInvalid, `tensor "a"`, "data has 1 bytes")
}

func TestSafetensorsCorrupt(t *testing.T) {
	eight := make([]byte, 8)
	cases := []struct {
		name string
		b    []byte
		kind error
		frag string
	}{
		{"tiny", []byte{1, 2}, ErrCorrupt, "truncated safetensors file"},
		{"huge header", func() []byte { b := make([]byte, 16); le.PutUint64(b, 1<<40); return b }(), ErrCorrupt, "exceeds the 100000000-byte limit"},
		{"header past end", func() []byte { b := stFile("{}", nil); le.PutUint64(b, 50); return b }(), ErrCorrupt, "truncated header: header size says 50 bytes, file has 2"},
		{"not object", stFile(`[1]`, nil), ErrCorrupt, "not a JSON object"},
		{"bad json", stFile(`{"a":`, nil), ErrCorrupt, "malformed"},
		{"trailing json", stFile(`{} {}`, nil), ErrCorrupt, "trailing data"},
		{"duplicate", stFile(`{"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}}`, nil), ErrCorrupt, "duplicate key"},
		{"dtype", stFile(`{"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}}`, []byte{0}), ErrUnsupported, `tensor "a": dtype F8_E4M3`},
		{"offsets len", stFile(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0]}}`, []byte{0}), ErrCorrupt, "data_offsets must be"},
		{"reversed", stFile(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[1,0]}}`, []byte{0}), ErrCorrupt, "end before begin"},
		{"size mismatch", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, eight), ErrCorrupt, "span 4 bytes, shape [2] of F32 needs 8"},
		{"past end", stFile(`{"a":{"dtype":"F32","shape":[2,1000000000],"data_offsets":[0,8000000000]}}`, eight), ErrCorrupt, "truncated data: data_offsets end at 8000000000, file has 8 data bytes"},
		{"overlap", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), ErrCorrupt, `tensor "b"`},
		{"gap", stFile(`{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[2],"data_offsets":[4,6]}}`, make([]byte, 6)), ErrCorrupt, "gap of 2 bytes"},
		{"trailing data", stFile(`{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}`, make([]byte, 6)), ErrCorrupt, "cover 2 data bytes, file has 6"},
		{"negative dim", stFile(`{"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,0]}}`, nil), ErrCorrupt, "bad dimension -1"},
		{"overflow", stFile(`{"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,0]}}`, nil), ErrCorrupt, "too large"},
		{"metadata type", stFile(`{"__metadata__":{"a":1}}`, nil), ErrCorrupt, "__metadata__ must map strings to strings"},
		{"no shape", stFile(`{"a":{"dtype":"U8","data_offsets":[0,0]}}`, nil), ErrCorrupt, "missing shape"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeSafetensors(c.b)
			wantErr(t, err, c.kind, c.frag)
		})
	}
}
