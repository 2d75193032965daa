package tensorio

import (
	"archive/zip"
	"bytes"
	"path/filepath"
	"testing"
)

func TestRealDigitsNPZ(t *testing.T) {
	g := golden(t)
	f, err := Load(filepath.Join(dataDir, "digits.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != NPZ || f.Array != nil || len(f.Entries) != 2 {
		t.Fatalf("got %+v", f)
	}
	for i, n := range g.DigitsNPZ.Names {
		if f.Entries[i].Name != n {
			t.Errorf("entry %d named %q, want %q", i, f.Entries[i].Name, n)
		}
	}
	X, y := f.Lookup("X"), f.Lookup("y")
	if X == nil || y == nil || X.DType != F32 || y.DType != I64 {
		t.Fatalf("X %+v y %+v", X, y)
	}
	checkSummary(t, "npz X", X, g.DigitsNPZ.X)
	checkSummary(t, "npz y", y, g.DigitsNPZ.Y)
}

func TestNPZFixtures(t *testing.T) {
	g := golden(t)
	for name, want := range g.NPZ {
		es, err := DecodeNPZ(fixture(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(es) != len(want.Names) {
			t.Fatalf("%s: %d entries, want %d", name, len(es), len(want.Names))
		}
		for i, e := range es {
			if e.Name != want.Names[i] {
				t.Errorf("%s: entry %d %q, want %q", name, i, e.Name, want.Names[i])
			}
			var s float64
			for _, x := range mustFloat64s(t, e.Array) {
				s += x
			}
			if s != want.Sums[i] {
				t.Errorf("%s/%s: sum %v, want %v", name, e.Name, s, want.Sums[i])
			}
		}
	}
}

func TestNPZRoundTrip(t *testing.T) {
	a, _ := FromFloat64s(F32, []int{2, 2}, []float64{1, 2, 3, 4})
	b, _ := FromInt64s(I64, []int{3}, []int64{-1, 0, 1 << 40})
	c := &Array{DType: Bool, Shape: []int{}, Data: []byte{1}}
	in := []Entry{{"weights", a}, {"idx", b}, {"flag", c}}
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		if err := EncodeNPZ(&buf, in, compress); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		wantMethod := zip.Store
		if compress {
			wantMethod = zip.Deflate
		}
		if zr.File[0].Name != "weights.npy" || zr.File[0].Method != wantMethod {
			t.Errorf("entry %q method %d", zr.File[0].Name, zr.File[0].Method)
		}
		out, err := DecodeNPZ(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for i := range in {
			if out[i].Name != in[i].Name || out[i].Array.DType != in[i].Array.DType ||
				!equalShape(out[i].Array.Shape, in[i].Array.Shape) || !bytes.Equal(out[i].Array.Data, in[i].Array.Data) {
				t.Errorf("compress=%v entry %d: got %+v want %+v", compress, i, out[i], in[i])
			}
		}
	}
	var buf bytes.Buffer
	wantErr(t, EncodeNPZ(&buf, []Entry{{"a", a}, {"a", b}}, false), ErrInvalid, "duplicate")
	wantErr(t, EncodeNPZ(&buf, []Entry{{"", a}}, false), ErrInvalid, "empty")
}

// zipWith builds a zip whose single entry has the given name, method and
// content, then lets tamper edit the raw bytes.
func zipWith(t *testing.T, name string, method uint16, content []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(content)
	zw.Close()
	return buf.Bytes()
}

func TestNPZCorrupt(t *testing.T) {
	good := npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", make([]byte, 32))
	_, err := DecodeNPZ([]byte("not a zip at all"))
	wantErr(t, err, ErrCorrupt, "not a valid .npz")

	_, err = DecodeNPZ(zipWith(t, "a.txt", zip.Store, []byte("hi")))
	wantErr(t, err, ErrUnsupported, `entry "a.txt" is not a .npy file`)

	_, err = DecodeNPZ(zipWith(t, "x.npy", zip.Store, good[:len(good)-8]))
	wantErr(t, err, ErrCorrupt, "x.npy: truncated data: header says 32 bytes, file has 24")

	// Lie in the central directory about the uncompressed size: claim
	// 1 TB for a small deflated entry. Must be refused before allocating.
	b := zipWith(t, "x.npy", zip.Deflate, good)
	cd := bytes.LastIndex(b, []byte("PK\x01\x02"))
	le.PutUint32(b[cd+24:], 0xfffffff0)
	_, err = DecodeNPZ(b)
	wantErr(t, err, ErrCorrupt, "x.npy", "impossible")

	// A flipped data byte in a stored entry fails the CRC check.
	b = zipWith(t, "x.npy", zip.Store, good)
	b[bytes.Index(b, []byte(npyMagic))+len(good)-1] ^= 1
	_, err = DecodeNPZ(b)
	wantErr(t, err, ErrCorrupt, "x.npy", "checksum")
}

func TestReadAtMost(t *testing.T) {
	src := bytes.Repeat([]byte("abcdefgh"), 5<<20) // 40 MiB: several growth steps past 16 MiB
	got, err := readAtMost(bytes.NewReader(src), uint64(len(src)))
	if err != nil || !bytes.Equal(got, src) || cap(got) != len(src) {
		t.Errorf("exact: len %d cap %d err %v", len(got), cap(got), err)
	}
	got, err = readAtMost(bytes.NewReader(src[:10]), 1<<40) // lying size: small buffer
	if err != nil || len(got) != 10 || cap(got) > 16<<20 {
		t.Errorf("short: len %d cap %d err %v", len(got), cap(got), err)
	}
	if _, err := readAtMost(bytes.NewReader(src[:10]), 9); err == nil {
		t.Error("longer than declared: no error")
	}
	if got, err := readAtMost(bytes.NewReader(nil), 0); err != nil || len(got) != 0 {
		t.Errorf("empty: %v", err)
	}
}
