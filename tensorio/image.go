package tensorio

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
)

// Image decoding guards. PNG and JPEG decoders allocate the whole image
// from the dimensions in the header before reading pixel data, so a tiny
// file claiming 100000x100000 pixels would allocate gigabytes. We refuse
// images whose pixel count exceeds max(imagePixelFloor, imagePixelsPerByte
// * file size): deflate expands at most 1032x and a 1-bit PNG packs 8
// pixels per byte, so a genuine PNG stays under 8256 pixels per file byte;
// baseline/progressive JPEG needs at least about one bit per 8x8 block.
var (
	imagePixelFloor    uint64 = 1 << 22 // 4 Mpixel (2048x2048) always allowed
	imagePixelsPerByte uint64 = 8800
)

// DecodeImage decodes a PNG or JPEG image held in b and returns it as an
// array in [H, W] (grayscale), [H, W, 3] (RGB) or [H, W, 4] (RGBA, straight
// i.e. non-premultiplied alpha) layout, plus the format name ("png" or
// "jpeg").
//
// 8-bit images give u8. 16-bit PNGs give i32 with values 0..65535 (no
// precision is dropped). A PNG with an alpha channel or transparency
// (tRNS) gives 4 channels, gray+alpha included (R=G=B); a palette is
// expanded to RGB, or RGBA when any palette entry is translucent. JPEG
// YCbCr and CMYK images are converted to RGB with Go's image/color
// formulas (JFIF, may differ from libjpeg by 1 in a few pixels).
//
// Errors are *Errors: ErrCorrupt for undecodable data or dimensions that
// the file is too small to hold (checked before decoding allocates),
// ErrUnsupported for other image formats.
func DecodeImage(b []byte) (*Array, string, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		if err == image.ErrFormat {
			return nil, "", newError(ErrUnsupported, "not a PNG or JPEG image")
		}
		return nil, "", newError(ErrCorrupt, "bad image header: %v", err)
	}
	if format != "png" && format != "jpeg" {
		return nil, "", newError(ErrUnsupported, "image format %s is not supported (want png or jpeg)", format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, "", newError(ErrCorrupt, "bad image dimensions %dx%d", cfg.Width, cfg.Height)
	}
	px := uint64(cfg.Width) * uint64(cfg.Height)
	if limit := max(imagePixelFloor, imagePixelsPerByte*uint64(len(b))); px > limit {
		return nil, "", newError(ErrCorrupt, "header claims %dx%d pixels, too many for a %d-byte file", cfg.Width, cfg.Height, len(b))
	}
	var img image.Image
	if format == "png" {
		img, err = png.Decode(bytes.NewReader(b))
	} else {
		img, err = jpeg.Decode(bytes.NewReader(b))
	}
	if err != nil {
		return nil, "", newError(ErrCorrupt, "bad %s data: %v", format, err)
	}
	return imageToArray(img), format, nil
}

// imageToArray converts a decoded image to the layouts DecodeImage
// documents.
func imageToArray(img image.Image) *Array {
	r := img.Bounds()
	h, w := r.Dy(), r.Dx()
	u8 := func(c int) *Array {
		shape := []int{h, w, c}
		if c == 1 {
			shape = shape[:2]
		}
		return &Array{DType: U8, Shape: shape, Data: make([]byte, h*w*c)}
	}
	i32 := func(c int) *Array {
		shape := []int{h, w, c}
		if c == 1 {
			shape = shape[:2]
		}
		return &Array{DType: I32, Shape: shape, Data: make([]byte, 4*h*w*c)}
	}
	switch m := img.(type) {
	case *image.Gray:
		a := u8(1)
		for y := 0; y < h; y++ {
			copy(a.Data[y*w:(y+1)*w], m.Pix[y*m.Stride:])
		}
		return a
	case *image.RGBA: // opaque truecolor PNG: alpha is always 255
		a := u8(3)
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			out := a.Data[3*y*w:]
			for x := 0; x < w; x++ {
				copy(out[3*x:3*x+3], row[4*x:4*x+3])
			}
		}
		return a
	case *image.NRGBA:
		a := u8(4)
		for y := 0; y < h; y++ {
			copy(a.Data[4*y*w:4*(y+1)*w], m.Pix[y*m.Stride:])
		}
		return a
	case *image.YCbCr:
		a := u8(3)
		for y := 0; y < h; y++ {
			out := a.Data[3*y*w:]
			for x := 0; x < w; x++ {
				yi, ci := m.YOffset(r.Min.X+x, r.Min.Y+y), m.COffset(r.Min.X+x, r.Min.Y+y)
				out[3*x], out[3*x+1], out[3*x+2] = color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
			}
		}
		return a
	case *image.CMYK:
		a := u8(3)
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			out := a.Data[3*y*w:]
			for x := 0; x < w; x++ {
				out[3*x], out[3*x+1], out[3*x+2] = color.CMYKToRGB(row[4*x], row[4*x+1], row[4*x+2], row[4*x+3])
			}
		}
		return a
	case *image.Paletted:
		pal := make([]color.NRGBA, len(m.Palette))
		opaque := true
		for i, c := range m.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
			// Only entries actually used matter, but a translucent entry
			// in the palette is what PIL also reports as RGBA.
			opaque = opaque && pal[i].A == 255
		}
		c := 3
		if !opaque {
			c = 4
		}
		a := u8(c)
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			out := a.Data[c*y*w:]
			for x := 0; x < w; x++ {
				var p color.NRGBA
				if int(row[x]) < len(pal) {
					p = pal[row[x]]
				}
				out[c*x], out[c*x+1], out[c*x+2] = p.R, p.G, p.B
				if c == 4 {
					out[c*x+3] = p.A
				}
			}
		}
		return a
	case *image.Gray16:
		a := i32(1)
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride:]
			for x := 0; x < w; x++ {
				le.PutUint32(a.Data[4*(y*w+x):], uint32(row[2*x])<<8|uint32(row[2*x+1]))
			}
		}
		return a
	case *image.RGBA64, *image.NRGBA64:
		var pix []byte
		var stride, c int
		if m64, ok := m.(*image.RGBA64); ok { // opaque 16-bit truecolor
			pix, stride, c = m64.Pix, m64.Stride, 3
		} else {
			n := m.(*image.NRGBA64)
			pix, stride, c = n.Pix, n.Stride, 4
		}
		a := i32(c)
		for y := 0; y < h; y++ {
			row := pix[y*stride:]
			for x := 0; x < w; x++ {
				for k := 0; k < c; k++ {
					v := uint32(row[8*x+2*k])<<8 | uint32(row[8*x+2*k+1])
					le.PutUint32(a.Data[4*((y*w+x)*c+k):], v)
				}
			}
		}
		return a
	}
	// Any other image type: straight RGBA through the color model.
	a := u8(4)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := color.NRGBAModel.Convert(img.At(r.Min.X+x, r.Min.Y+y)).(color.NRGBA)
			copy(a.Data[4*(y*w+x):], []byte{p.R, p.G, p.B, p.A})
		}
	}
	return a
}

// arrayToImage builds an image.Image from u8 [H,W], [H,W,1], [H,W,3],
// [H,W,4] or (allow16) i32 of the same shapes with values 0..65535.
func arrayToImage(a *Array, allow16 bool) (image.Image, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	c := 0
	switch {
	case len(a.Shape) == 2:
		c = 1
	case len(a.Shape) == 3 && (a.Shape[2] == 1 || a.Shape[2] == 3 || a.Shape[2] == 4):
		c = a.Shape[2]
	}
	if c == 0 {
		return nil, newError(ErrInvalid, "image needs shape [H, W], [H, W, 1], [H, W, 3] or [H, W, 4], got %v", a.Shape)
	}
	h, w := a.Shape[0], a.Shape[1]
	if h == 0 || w == 0 {
		return nil, newError(ErrInvalid, "image has zero size %v", a.Shape)
	}
	r := image.Rect(0, 0, w, h)
	switch {
	case a.DType == U8:
		switch c {
		case 1:
			return &image.Gray{Pix: a.Data, Stride: w, Rect: r}, nil
		case 4:
			return &image.NRGBA{Pix: a.Data, Stride: 4 * w, Rect: r}, nil
		}
		m := image.NewRGBA(r)
		for i := 0; i < h*w; i++ {
			copy(m.Pix[4*i:4*i+3], a.Data[3*i:3*i+3])
			m.Pix[4*i+3] = 255
		}
		return m, nil
	case a.DType == I32 && allow16:
		vals := make([]uint16, h*w*c)
		for i := range vals {
			v := int32(le.Uint32(a.Data[4*i:]))
			if v < 0 || v > 65535 {
				return nil, newError(ErrInvalid, "16-bit image value %d at index %d is outside 0..65535", v, i)
			}
			vals[i] = uint16(v)
		}
		switch c {
		case 1:
			m := image.NewGray16(r)
			for i, v := range vals {
				m.Pix[2*i], m.Pix[2*i+1] = byte(v>>8), byte(v)
			}
			return m, nil
		case 4:
			m := image.NewNRGBA64(r)
			for i, v := range vals {
				m.Pix[2*i], m.Pix[2*i+1] = byte(v>>8), byte(v)
			}
			return m, nil
		}
		m := image.NewRGBA64(r)
		for i := 0; i < h*w; i++ {
			for k := 0; k < 3; k++ {
				v := vals[3*i+k]
				m.Pix[8*i+2*k], m.Pix[8*i+2*k+1] = byte(v>>8), byte(v)
			}
			m.Pix[8*i+6], m.Pix[8*i+7] = 255, 255
		}
		return m, nil
	}
	want := "u8"
	if allow16 {
		want = "u8 (or i32 0..65535 for 16-bit)"
	}
	return nil, newError(ErrInvalid, "image dtype must be %s, got %s", want, a.DType)
}

// EncodePNG writes a as a PNG to w. a is u8 [H, W] or [H, W, 1]
// (grayscale), [H, W, 3] (RGB) or [H, W, 4] (RGBA, straight alpha), or i32
// of those shapes with values 0..65535 for a 16-bit PNG. Go's encoder
// stores an RGBA image whose alpha is 255 everywhere as RGB, so such an
// image reads back as [H, W, 3]. Wrong shapes or dtypes are ErrInvalid
// *Errors.
func EncodePNG(w io.Writer, a *Array) error {
	img, err := arrayToImage(a, true)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

// EncodeJPEG writes a as a baseline JPEG (4:2:0 chroma subsampling for
// color) to w with quality 1..100 (0 means jpeg.DefaultQuality, 75). a is
// u8 [H, W], [H, W, 1] or [H, W, 3]; JPEG has no alpha, so [H, W, 4] is an
// ErrInvalid *Error, as are other shapes, dtypes and qualities.
func EncodeJPEG(w io.Writer, a *Array, quality int) error {
	if quality == 0 {
		quality = jpeg.DefaultQuality
	}
	if quality < 1 || quality > 100 {
		return newError(ErrInvalid, "jpeg quality %d outside 1..100", quality)
	}
	if len(a.Shape) == 3 && a.Shape[2] == 4 {
		return newError(ErrInvalid, "jpeg has no alpha channel: cannot encode shape %v (drop the alpha channel first)", a.Shape)
	}
	img, err := arrayToImage(a, false)
	if err != nil {
		return err
	}
	return jpeg.Encode(w, img, &jpeg.Options{Quality: quality})
}
