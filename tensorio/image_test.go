package tensorio

import (
	"bytes"
	"hash/crc32"
	"path/filepath"
	"testing"
)

func TestRealCamera(t *testing.T) {
	g := golden(t)
	f, err := Load(filepath.Join(dataDir, "camera.png"))
	if err != nil {
		t.Fatal(err)
	}
	a := f.Array
	if f.Format != PNG || a.DType != U8 || g.Camera.DType != "uint8" {
		t.Fatalf("format %s dtype %s", f.Format, a.DType)
	}
	checkSummary(t, "camera", a, g.Camera.summaryJSON)
	for _, p := range g.Camera.Pixels {
		if got := a.Data[p[0]*512+p[1]]; int(got) != p[2] {
			t.Errorf("camera[%d,%d] = %d, want %d", p[0], p[1], got, p[2])
		}
	}
	// Encode and decode again: lossless.
	var buf bytes.Buffer
	if err := EncodePNG(&buf, a); err != nil {
		t.Fatal(err)
	}
	b, format, err := DecodeImage(buf.Bytes())
	if err != nil || format != "png" || !bytes.Equal(a.Data, b.Data) || !equalShape(b.Shape, a.Shape) {
		t.Errorf("round trip: %v %s", err, format)
	}
}

// The fixtures were written and decoded by PIL (golden.json): PNG must
// match exactly, JPEG within a small tolerance (IDCT/colour rounding
// differ between libjpeg and Go).
func TestDecodeImageFixtures(t *testing.T) {
	g := golden(t)
	for name, want := range g.Images {
		a, _, err := DecodeImage(fixture(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !equalShape(a.Shape, want.Shape) {
			t.Errorf("%s (%s): shape %v, want %v", name, want.Mode, a.Shape, want.Shape)
			continue
		}
		wantDType := U8
		if name == "gray16.png" {
			wantDType = I32
		}
		if a.DType != wantDType {
			t.Errorf("%s: dtype %s, want %s", name, a.DType, wantDType)
		}
		got := mustFloat64s(t, a)
		// JPEG: libjpeg upsamples chroma with a triangle filter ("fancy
		// upsampling"), Go replicates samples; gray has no chroma.
		tol, meanTol := 0.0, 0.0
		switch name {
		case "smooth.jpg":
			tol, meanTol = 8, 3 // measured: max 5, mean 2.5 on this steep colour ramp
		case "smooth_gray.jpg":
			tol, meanTol = 1, 0.5
		}
		bad, sumAbs := 0, 0.0
		for i := range got {
			d := got[i] - float64(want.Values[i])
			sumAbs += max(d, -d)
			if d > tol || d < -tol {
				bad++
				if bad < 4 {
					t.Errorf("%s: value %d = %v, PIL %v", name, i, got[i], want.Values[i])
				}
			}
		}
		if mean := sumAbs / float64(len(got)); mean > meanTol {
			t.Errorf("%s: mean abs difference from PIL %.3f > %v", name, mean, meanTol)
		}
	}
}

func TestImageRoundTrips(t *testing.T) {
	shapes := [][]int{{3, 5}, {3, 5, 1}, {3, 5, 3}, {3, 5, 4}}
	for _, shape := range shapes {
		a := &Array{DType: U8, Shape: shape}
		n := 1
		for _, d := range shape {
			n *= d
		}
		a.Data = make([]byte, n)
		for i := range a.Data {
			a.Data[i] = byte(i * 37)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, a); err != nil {
			t.Fatal(err)
		}
		b, _, err := DecodeImage(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		wantShape := shape
		if len(shape) == 3 && shape[2] == 1 {
			wantShape = shape[:2]
		}
		if !equalShape(b.Shape, wantShape) || !bytes.Equal(b.Data, a.Data) {
			t.Errorf("png %v: got %v %v", shape, b.Shape, b.Data[:8])
		}
	}
	// An opaque RGBA image comes back as RGB (Go's encoder writes RGB).
	a := &Array{DType: U8, Shape: []int{1, 2, 4}, Data: []byte{1, 2, 3, 255, 4, 5, 6, 255}}
	var buf bytes.Buffer
	EncodePNG(&buf, a)
	b, _, _ := DecodeImage(buf.Bytes())
	if !equalShape(b.Shape, []int{1, 2, 3}) || !bytes.Equal(b.Data, []byte{1, 2, 3, 4, 5, 6}) {
		t.Errorf("opaque rgba: %v %v", b.Shape, b.Data)
	}
	// 16-bit.
	a16, _ := FromInt64s(I32, []int{2, 2, 3}, []int64{0, 1, 65535, 300, 40000, 2, 3, 4, 5, 6, 7, 8})
	buf.Reset()
	if err := EncodePNG(&buf, a16); err != nil {
		t.Fatal(err)
	}
	b, _, _ = DecodeImage(buf.Bytes())
	if b.DType != I32 || !bytes.Equal(b.Data, a16.Data) {
		t.Errorf("16-bit: %v", mustFloat64s(t, b))
	}
	bad, _ := FromInt64s(I32, []int{1, 1}, []int64{70000})
	wantErr(t, EncodePNG(&buf, bad), ErrInvalid, "outside 0..65535")
	wantErr(t, EncodePNG(&buf, &Array{DType: F32, Shape: []int{1, 1}, Data: make([]byte, 4)}), ErrInvalid, "dtype must be")
	wantErr(t, EncodePNG(&buf, &Array{DType: U8, Shape: []int{1, 1, 2}, Data: make([]byte, 2)}), ErrInvalid, "[H, W, 3]")
	wantErr(t, EncodePNG(&buf, &Array{DType: U8, Shape: []int{0, 4}, Data: nil}), ErrInvalid, "zero size")

	// JPEG: lossy, check closeness on a smooth image.
	g := golden(t)
	want := g.Images["smooth.jpg"]
	src, _ := FromInt64s(U8, want.Shape, want.Values)
	for _, q := range []int{0, 95} {
		buf.Reset()
		if err := EncodeJPEG(&buf, src, q); err != nil {
			t.Fatal(err)
		}
		b, format, err := DecodeImage(buf.Bytes())
		if err != nil || format != "jpeg" || !equalShape(b.Shape, src.Shape) {
			t.Fatalf("jpeg q=%d: %v %s %v", q, err, format, b.Shape)
		}
		var maxd int
		for i := range b.Data {
			d := int(b.Data[i]) - int(src.Data[i])
			maxd = max(maxd, d, -d)
		}
		if lim := map[int]int{0: 24, 95: 8}[q]; maxd > lim {
			t.Errorf("jpeg q=%d: max abs error %d > %d", q, maxd, lim)
		}
	}
	wantErr(t, EncodeJPEG(&buf, a, 90), ErrInvalid, "no alpha")
	wantErr(t, EncodeJPEG(&buf, src, 101), ErrInvalid, "quality")
}

// pngChunk returns a PNG chunk with a correct CRC.
func pngChunk(typ string, data []byte) []byte {
	b := make([]byte, 4, 12+len(data))
	be32(b, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	c := make([]byte, 4)
	be32(c, crc32.ChecksumIEEE(b[4:]))
	return append(b, c...)
}

func be32(b []byte, v uint32) { b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v) }

func TestDecodeImageLyingHeader(t *testing.T) {
	ihdr := make([]byte, 13)
	be32(ihdr[0:], 100000)
	be32(ihdr[4:], 100000)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA: 40 GB if allocated
	b := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	b = append(b, pngChunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00})...)
	_, _, err := DecodeImage(b)
	wantErr(t, err, ErrCorrupt, "100000x100000 pixels, too many")

	_, _, err = DecodeImage([]byte("GIF89a......"))
	wantErr(t, err, ErrUnsupported, "not a PNG or JPEG")
	cam := fixture(t, "rgb.png")
	_, _, err = DecodeImage(cam[:len(cam)-20])
	wantErr(t, err, ErrCorrupt, "png")
}
