package tensorio

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{
		"a.npy": NPY, "A.NPZ": NPZ, "m.safetensors": Safetensors, "x.csv": CSV, "x.CSV.GZ": CSV,
		"p.png": PNG, "j.jpg": JPEG, "j.jpeg": JPEG,
	} {
		f, gz, err := FormatOf(path)
		if err != nil || f != want || gz != strings.HasSuffix(strings.ToLower(path), ".gz") {
			t.Errorf("%s: %v %v %v", path, f, gz, err)
		}
	}
	_, _, err := FormatOf("model.pt")
	wantErr(t, err, ErrInvalid, "model.pt: unknown file extension")
	_, err = Load("data.gz")
	wantErr(t, err, ErrInvalid, "data.gz: unknown file extension")
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.npy"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "nope.npy") {
		t.Errorf("got %v", err)
	}
}

// Save then Load every format.
func TestSaveLoadAllFormats(t *testing.T) {
	dir := t.TempDir()
	x, _ := FromFloat64s(F32, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6.5})
	img := &Array{DType: U8, Shape: []int{2, 3, 3}, Data: bytes.Repeat([]byte{10, 20, 30}, 6)}
	ids, _ := FromInt64s(I64, []int{3}, []int64{7, 8, 9})
	cases := []struct {
		name string
		f    *File
	}{
		{"x.npy", &File{Array: x}},
		{"x.npz", &File{Entries: []Entry{{"x", x}, {"ids", ids}}}},
		{"x.safetensors", &File{Entries: []Entry{{"x", x}, {"ids", ids}}, Metadata: map[string]string{"k": "v"}}},
		{"x.csv", &File{Array: x, Columns: []string{"a", "b", "c"}}},
		{"x.csv.gz", &File{Array: x}},
		{"x.png", &File{Array: img}},
		{"x.jpg", &File{Array: img}},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := Save(p, c.f); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v %v", c.name, st.Mode(), err)
		}
		g, err := Load(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch {
		case c.f.Array != nil && c.name != "x.jpg" && !strings.HasPrefix(c.name, "x.csv"):
			if !bytes.Equal(g.Array.Data, c.f.Array.Data) || g.Array.DType != c.f.Array.DType {
				t.Errorf("%s: got %+v", c.name, g.Array)
			}
		case strings.HasPrefix(c.name, "x.csv"):
			v := mustFloat64s(t, g.Array)
			if v[5] != 6.5 || !equalShape(g.Array.Shape, []int{2, 3}) || strings.Join(g.Columns, ",") != strings.Join(c.f.Columns, ",") {
				t.Errorf("%s: %v %v", c.name, v, g.Columns)
			}
		case c.f.Entries != nil:
			if len(g.Entries) != 2 || g.Entries[1].Name != "ids" || !bytes.Equal(g.Lookup("ids").Data, ids.Data) {
				t.Errorf("%s: %+v", c.name, g.Entries)
			}
		}
	}
	if g, _ := Load(filepath.Join(dir, "x.safetensors")); g.Metadata["k"] != "v" {
		t.Errorf("metadata %v", g.Metadata)
	}
	// A lone Array saved to npz gets numpy's positional name.
	p := filepath.Join(dir, "one.npz")
	if err := SaveArray(p, x); err != nil {
		t.Fatal(err)
	}
	if g, err := Load(p); err != nil || g.Entries[0].Name != "arr_0" {
		t.Errorf("%v %v", g, err)
	}
	// Compressed npz.
	if err := SaveWith(p, &File{Entries: []Entry{{"x", x}}}, &SaveOptions{Compress: true}); err != nil {
		t.Fatal(err)
	}
	// Wrong content for the format.
	wantErr(t, Save(filepath.Join(dir, "two.npy"), &File{Entries: []Entry{{"a", x}, {"b", x}}}), ErrInvalid, "two.npy: npy holds one array, got 2")
	wantErr(t, Save(filepath.Join(dir, "b.npy"), &File{Array: &Array{DType: BF16, Shape: []int{1}, Data: []byte{0, 0}}}), ErrUnsupported, "b.npy: dtype bf16")
	wantErr(t, Save(filepath.Join(dir, "bad.png"), &File{Array: x}), ErrInvalid, "bad.png: image dtype")
	wantErr(t, Save(filepath.Join(dir, "nil.npy"), nil), ErrInvalid, "nil File")
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// failAfter fails every write once n bytes have been written.
type failAfter struct {
	w io.Writer
	n int
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errors.New("disk full (injected)")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// A write that fails midway leaves the previous file intact and no
// temporary file behind.
func TestSaveAtomicOnFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.npz")
	old := []byte("previous content")
	if err := os.WriteFile(p, old, 0o600); err != nil {
		t.Fatal(err)
	}
	big, _ := FromFloat64s(F64, []int{1 << 18}, make([]float64, 1<<18)) // 2 MiB: crosses the 1 MiB buffer
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, old) {
			t.Errorf("%s: target changed: %q", what, got[:min(len(got), 32)])
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Errorf("%s: directory holds %d entries, want only the target", what, len(ents))
		}
	}
	// 1. The disk fails after 100 kB.
	testHookWriter = func(w io.Writer) io.Writer { return &failAfter{w: w, n: 100_000} }
	err := Save(p, &File{Entries: []Entry{{"a", big}}})
	testHookWriter = nil
	check("write error", err)
	if !strings.Contains(err.Error(), "disk full (injected)") || !strings.Contains(err.Error(), p) {
		t.Errorf("error %q", err)
	}
	// 2. The encoder fails midway: the second entry is bf16, refused after
	// the first entry has been written.
	bf := &Array{DType: BF16, Shape: []int{1}, Data: []byte{0, 0}}
	check("encoder error", Save(p, &File{Entries: []Entry{{"a", big}, {"b", bf}}}))
	// 3. Success replaces the content and keeps the file's mode.
	if err := Save(p, &File{Entries: []Entry{{"a", big}}}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", st.Mode().Perm())
	}
	if g, err := Load(p); err != nil || len(g.Entries) != 1 {
		t.Errorf("%v %v", g, err)
	}
}

func TestSaveIntoMissingDir(t *testing.T) {
	x, _ := FromFloat64s(F32, []int{1}, []float64{1})
	err := SaveArray(filepath.Join(t.TempDir(), "no", "such", "x.npy"), x)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}
