package tensorio

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"strings"
)

// Entry is one named array of a multi-array file (.npz, .safetensors).
type Entry struct {
	Name  string
	Array *Array
}

// maxDeflateRatio bounds how much a deflate stream can expand: DEFLATE's
// longest match (258 bytes) costs at least 2 bits, so output <= 1032x input
// (RFC 1951; zlib's "technical details" note). A zip entry declaring more
// than this is lying, and we refuse before allocating.
const maxDeflateRatio = 1032

// DecodeNPZ parses a .npz archive (a zip of .npy files, stored or deflated,
// zip64 included) held in b, returning its arrays in archive order with the
// ".npy" suffix removed from the names (as numpy.load does for keys).
//
// Each entry's declared size is checked against its compressed size (and
// the deflate expansion bound) before reading, and the data is read with a
// buffer that grows with the bytes actually produced, so a lying directory
// cannot trigger a huge allocation. CRC-32 is verified. Entry errors name
// the entry: "X.npy: truncated data: ...". Entries not ending in ".npy" and
// duplicate names are ErrUnsupported / ErrCorrupt *Errors; other errors are
// as for DecodeNPY.
func DecodeNPZ(b []byte) ([]Entry, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if errors.Is(err, zip.ErrInsecurePath) && zr != nil {
		err = nil // names like "../x.npy" are harmless: nothing is extracted
	}
	if err != nil {
		return nil, newError(ErrCorrupt, "not a valid .npz (zip) archive: %v", err)
	}
	var out []Entry
	seen := map[string]bool{}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") { // directory entry
			continue
		}
		if !strings.HasSuffix(f.Name, ".npy") {
			return nil, newError(ErrUnsupported, "entry %q is not a .npy file", f.Name)
		}
		name := strings.TrimSuffix(f.Name, ".npy")
		if seen[name] {
			return nil, newError(ErrCorrupt, "duplicate entry %q", f.Name)
		}
		seen[name] = true
		data, err := readZipEntry(f, int64(len(b)))
		if err != nil {
			return nil, prefix(err, f.Name)
		}
		a, err := DecodeNPY(data)
		if err != nil {
			return nil, prefix(err, f.Name)
		}
		out = append(out, Entry{Name: name, Array: a})
	}
	return out, nil
}

// readZipEntry reads one entry fully after sanity-checking declared sizes.
func readZipEntry(f *zip.File, archiveSize int64) ([]byte, error) {
	size, csize := f.UncompressedSize64, f.CompressedSize64
	if csize > uint64(archiveSize) {
		return nil, newError(ErrCorrupt, "compressed size %d exceeds the archive size %d", csize, archiveSize)
	}
	switch f.Method {
	case zip.Store:
		if size != csize {
			return nil, newError(ErrCorrupt, "stored entry declares %d bytes but holds %d", size, csize)
		}
	case zip.Deflate:
		if size/maxDeflateRatio > csize+1 {
			return nil, newError(ErrCorrupt, "declared size %d is impossible for %d deflated bytes", size, csize)
		}
	default:
		return nil, newError(ErrUnsupported, "compression method %d (want stored or deflated)", f.Method)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, newError(ErrCorrupt, "%v", err)
	}
	defer rc.Close()
	data, err := readAtMost(rc, size)
	if err != nil {
		return nil, newError(ErrCorrupt, "%v", err)
	}
	if uint64(len(data)) != size {
		return nil, newError(ErrCorrupt, "truncated entry: directory says %d bytes, got %d", size, len(data))
	}
	return data, nil
}

// readAtMost reads r to EOF expecting n bytes. The buffer starts at
// min(n, 16 MiB) and doubles only as real data arrives. Reading more than n
// bytes is an error (archive/zip reports it as zip.ErrFormat too).
func readAtMost(r io.Reader, n uint64) ([]byte, error) {
	const chunk = 16 << 20
	buf := make([]byte, 0, min(n, chunk))
	for {
		if len(buf) == cap(buf) {
			if uint64(len(buf)) >= n {
				// Expect EOF now; probe one byte.
				var one [1]byte
				k, err := io.ReadFull(r, one[:])
				if k > 0 {
					return nil, errors.New("entry is longer than its declared size")
				}
				if err == io.EOF || err == io.ErrUnexpectedEOF {
					return buf, nil
				}
				return nil, err
			}
			grow := min(uint64(cap(buf)), n-uint64(len(buf)))
			nb := make([]byte, len(buf), uint64(len(buf))+grow)
			copy(nb, buf)
			buf = nb
		}
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// EncodeNPZ writes entries as a .npz archive to w, like numpy.savez (stored)
// or numpy.savez_compressed (compress=true, deflate). Each entry becomes
// "<Name>.npy" encoded by EncodeNPY. Names must be non-empty and unique
// (ErrInvalid otherwise); bf16 arrays are refused as in EncodeNPY.
func EncodeNPZ(w io.Writer, entries []Entry, compress bool) error {
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Name == "" {
			return newError(ErrInvalid, "empty array name")
		}
		if seen[e.Name] {
			return newError(ErrInvalid, "duplicate array name %q", e.Name)
		}
		seen[e.Name] = true
	}
	zw := zip.NewWriter(w)
	if compress {
		zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
			return flate.NewWriter(out, flate.DefaultCompression)
		})
	}
	for _, e := range entries {
		hdr, err := npyHeader(e.Array)
		if err != nil {
			return prefix(err, e.Name)
		}
		fh := &zip.FileHeader{Name: e.Name + ".npy", Method: zip.Store}
		if compress {
			fh.Method = zip.Deflate
		}
		fw, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		if _, err := fw.Write(hdr); err != nil {
			return err
		}
		if _, err := fw.Write(e.Array.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}
