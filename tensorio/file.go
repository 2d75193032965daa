package tensorio

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Format names a file format handled by Load and Save.
type Format string

// The formats, detected from the file name's extension (case-insensitive).
const (
	NPY         Format = "npy"         // .npy
	NPZ         Format = "npz"         // .npz
	Safetensors Format = "safetensors" // .safetensors
	CSV         Format = "csv"         // .csv, or .csv.gz (gzip-compressed)
	PNG         Format = "png"         // .png
	JPEG        Format = "jpeg"        // .jpg, .jpeg
)

// FormatOf returns the format for path's extension and whether the file is
// gzip-compressed (.csv.gz). An unknown extension is an ErrInvalid *Error
// naming the path.
func FormatOf(path string) (f Format, gz bool, err error) {
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".csv.gz"):
		return CSV, true, nil
	case strings.HasSuffix(p, ".npy"):
		return NPY, false, nil
	case strings.HasSuffix(p, ".npz"):
		return NPZ, false, nil
	case strings.HasSuffix(p, ".safetensors"):
		return Safetensors, false, nil
	case strings.HasSuffix(p, ".csv"):
		return CSV, false, nil
	case strings.HasSuffix(p, ".png"):
		return PNG, false, nil
	case strings.HasSuffix(p, ".jpg"), strings.HasSuffix(p, ".jpeg"):
		return JPEG, false, nil
	}
	return "", false, &Error{Path: path, Kind: ErrInvalid,
		Msg: "unknown file extension (want .npy, .npz, .safetensors, .csv, .csv.gz, .png, .jpg or .jpeg)"}
}

// File is the content of a file read by Load or written by Save.
//
// Single-array formats (.npy, .csv, images) use Array. Multi-array formats
// (.npz, .safetensors) use Entries, an ordered list of named arrays (npz
// names without the ".npy" suffix, in archive order; safetensors names in
// header order). Exactly one of Array and Entries is set by Load.
type File struct {
	Format   Format
	Array    *Array            // the array of a single-array file
	Entries  []Entry           // the named arrays of a multi-array file
	Metadata map[string]string // safetensors "__metadata__" (nil when absent)
	Columns  []string          // CSV column names (nil when the file has no header)
}

// Lookup returns the entry named name, or nil.
func (f *File) Lookup(name string) *Array {
	for _, e := range f.Entries {
		if e.Name == name {
			return e.Array
		}
	}
	return nil
}

// LoadOptions tunes Load. The zero value (or a nil pointer) gives the
// defaults.
type LoadOptions struct {
	CSV CSVOptions // header detection, dtype and separator for .csv/.csv.gz
}

// Load reads the file at path, choosing the decoder from the extension
// (see FormatOf): .npy (DecodeNPY), .npz (DecodeNPZ), .safetensors
// (DecodeSafetensors), .csv and .csv.gz (DecodeCSV, default options), .png
// and .jpg/.jpeg (DecodeImage; a file whose content is the other of the
// two image formats is still decoded). The returned arrays own their
// memory (they alias one buffer read from the file, never shared).
//
// Content errors are *Errors with Path set, e.g. "data/x.npy: truncated
// data: header says 921408 bytes, file has 1000"; kinds ErrCorrupt,
// ErrUnsupported, ErrInvalid (unknown extension). File-system errors are
// *fs.PathError (errors.Is(err, fs.ErrNotExist) for a missing file).
func Load(path string) (*File, error) { return LoadWith(path, nil) }

// LoadWith is Load with options (opts may be nil).
func LoadWith(path string, opts *LoadOptions) (*File, error) {
	if opts == nil {
		opts = &LoadOptions{}
	}
	format, gz, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	f, err := load(path, format, gz, opts)
	return f, withPath(err, path)
}

func load(path string, format Format, gz bool, opts *LoadOptions) (*File, error) {
	if format == CSV {
		fh, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		var r io.Reader = bufio.NewReaderSize(fh, 1<<16)
		if gz {
			zr, err := gzip.NewReader(r)
			if err != nil {
				return nil, newError(ErrCorrupt, "not a gzip file: %v", err)
			}
			defer zr.Close()
			r = zr
		}
		a, cols, err := DecodeCSV(r, opts.CSV)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) && gz {
				// A gzip stream error (bad checksum, truncation).
				return nil, newError(ErrCorrupt, "corrupt gzip data: %v", err)
			}
			return nil, err
		}
		return &File{Format: CSV, Array: a, Columns: cols}, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	switch format {
	case NPY:
		a, err := DecodeNPY(b)
		if err != nil {
			return nil, err
		}
		return &File{Format: NPY, Array: a}, nil
	case NPZ:
		es, err := DecodeNPZ(b)
		if err != nil {
			return nil, err
		}
		return &File{Format: NPZ, Entries: es}, nil
	case Safetensors:
		es, meta, err := DecodeSafetensors(b)
		if err != nil {
			return nil, err
		}
		return &File{Format: Safetensors, Entries: es, Metadata: meta}, nil
	default: // PNG, JPEG
		a, got, err := DecodeImage(b)
		if err != nil {
			return nil, err
		}
		return &File{Format: Format(got), Array: a}, nil
	}
}

// SaveOptions tunes Save. The zero value (or a nil pointer) gives the
// defaults.
type SaveOptions struct {
	Compress    bool // .npz: deflate entries like numpy.savez_compressed (default: stored, like numpy.savez)
	JPEGQuality int  // .jpg/.jpeg: 1..100, 0 means 75
}

// Save writes f to path, choosing the encoder from the extension (see
// FormatOf; f.Format is ignored):
//
//   - .npy, .csv, .csv.gz, .png, .jpg/.jpeg take one array: f.Array, or
//     f.Entries when it holds exactly one entry. CSV writes f.Columns as a
//     header when non-nil.
//   - .npz and .safetensors take f.Entries; a lone f.Array is saved under
//     the name "arr_0" (numpy.savez's name for a positional array).
//     Safetensors writes f.Metadata as "__metadata__".
//
// The write is atomic: the data goes to a temporary file in the same
// directory (".<name>.tmp-*"), which is flushed, fsynced, closed and
// renamed over path, and the directory is fsynced. On any error the
// temporary file is removed and an existing file at path is left
// untouched. A new file gets mode 0644; an existing file keeps its mode.
//
// Errors: *Error of kind ErrInvalid (bad extension, arrays not matching
// the format) or ErrUnsupported (bf16 in .npy/.npz), with Path set; I/O
// errors wrapped with the path.
func Save(path string, f *File) error { return SaveWith(path, f, nil) }

// SaveArray saves a single array: Save(path, &File{Array: a}).
func SaveArray(path string, a *Array) error { return Save(path, &File{Array: a}) }

// SaveWith is Save with options (opts may be nil).
func SaveWith(path string, f *File, opts *SaveOptions) error {
	if opts == nil {
		opts = &SaveOptions{}
	}
	format, gz, err := FormatOf(path)
	if err != nil {
		return err
	}
	if f == nil {
		return &Error{Path: path, Kind: ErrInvalid, Msg: "nothing to save (nil File)"}
	}
	enc, err := encoder(format, gz, f, opts)
	if err != nil {
		return withPath(err, path)
	}
	return withPath(writeFileAtomic(path, enc), path)
}

// encoder validates f for the format and returns the function writing it.
func encoder(format Format, gz bool, f *File, opts *SaveOptions) (func(io.Writer) error, error) {
	switch format {
	case NPZ, Safetensors:
		entries := f.Entries
		if entries == nil && f.Array != nil {
			entries = []Entry{{Name: "arr_0", Array: f.Array}}
		} else if f.Array != nil {
			return nil, newError(ErrInvalid, "File has both Array and Entries")
		}
		if format == NPZ {
			return func(w io.Writer) error { return EncodeNPZ(w, entries, opts.Compress) }, nil
		}
		return func(w io.Writer) error { return EncodeSafetensors(w, entries, f.Metadata) }, nil
	}
	a := f.Array
	if a == nil {
		if len(f.Entries) != 1 {
			return nil, newError(ErrInvalid, "%s holds one array, got %d named arrays", format, len(f.Entries))
		}
		a = f.Entries[0].Array
	} else if len(f.Entries) > 0 {
		return nil, newError(ErrInvalid, "File has both Array and Entries")
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	switch format {
	case NPY:
		if _, err := npyHeader(a); err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return EncodeNPY(w, a) }, nil
	case CSV:
		return func(w io.Writer) error {
			if !gz {
				return EncodeCSV(w, a, f.Columns)
			}
			zw := gzip.NewWriter(w)
			if err := EncodeCSV(zw, a, f.Columns); err != nil {
				return err
			}
			return zw.Close()
		}, nil
	case PNG:
		return func(w io.Writer) error { return EncodePNG(w, a) }, nil
	default: // JPEG
		return func(w io.Writer) error { return EncodeJPEG(w, a, opts.JPEGQuality) }, nil
	}
}

// testHookWriter, when set by tests, wraps the temporary file's writer so
// tests can inject write failures.
var testHookWriter func(io.Writer) io.Writer

// writeFileAtomic writes the output of write to path atomically: temporary
// file in the same directory, buffered write, flush, fsync, close, chmod,
// rename over path, fsync of the directory. On error the temporary file is
// removed and path is untouched.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return newError(ErrInvalid, "not a regular file")
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var w io.Writer = tmp
	if testHookWriter != nil {
		w = testHookWriter(w)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory so a rename in it is durable. Windows cannot
// open directories for sync; there it is a no-op.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	// Some file systems refuse fsync on directories (EINVAL); the rename
	// itself has succeeded, so that is not an error.
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
