package stdlib

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensorio"
)

// Module io: io.load and io.save over the tensorio codecs (.npy, .npz,
// .safetensors, .csv and .csv.gz, PNG/JPEG). Every path goes through the
// thread's FSPolicy first (see fs.go).

func init() {
	registerModule("io", "File input/output: io.load(path) and io.save(path, value) for .npy, .npz, .safetensors, .csv(.gz), .png, .jpg.", map[string]runtime.Value{
		"load": moduleFunc("io", "load", ioLoadDoc, ioLoad),
		"save": moduleFunc("io", "save", ioSaveDoc, ioSave),
	})
}

const ioLoadDoc = `io.load(path, header=none, dtype=none): read a file by its extension.
.npy, .csv, .csv.gz, .png, .jpg/.jpeg give one tensor; .npz and .safetensors give a
dict name -> tensor in file order. CSV gives f64 [rows, cols] (dtype=f32 parses at
float32 precision; an integer dtype requires integral values); header=true/false
forces whether the first row holds column names (default: detected). Images give
u8 [H, W] (gray) or [H, W, C] (C = 3 RGB, 4 RGBA); 16-bit PNGs give i32. For other
formats dtype= converts the loaded tensors (like .to(dtype)).
Errors: FileNotFoundError, PermissionError (the host's file policy), ValueError
(corrupt file, naming it), TypeError (a valid file with an unsupported dtype).`

const ioSaveDoc = `io.save(path, value, metadata=none, quality=none, compress=false, columns=none):
write a tensor, a dict name -> tensor, or a list of tensors (named arr_0, arr_1, ...)
in the format of path's extension. .npy/.csv/.png/.jpg take one tensor; .npz and
.safetensors take several. metadata (dict str -> str) is the safetensors
__metadata__; quality (1..100) is the JPEG quality; compress=true deflates .npz
entries (numpy.savez_compressed); columns (list of str) is a CSV header row.
The write is atomic: a temporary file in the same directory, fsynced, then
renamed over path. Returns none.`

// ioLoad implements io.load.
func ioLoad(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var (
		path   string
		header runtime.Value = runtime.None
		dt     dtypeOpt
	)
	if err := runtime.UnpackArgs("io.load", args, kwargs, "path", &path, "header?", &header, "dtype?", &dt); err != nil {
		return nil, err
	}
	format, _, ferr := tensorio.FormatOf(path)
	if ferr != nil {
		return nil, ioError("io.load", path, ferr)
	}
	opts := &tensorio.LoadOptions{}
	switch h := header.(type) {
	case runtime.NoneType:
	case runtime.Bool:
		if format != tensorio.CSV {
			return nil, runtime.Errorf("ValueError", "io.load: header= applies only to .csv files, not %s", path)
		}
		if h {
			opts.CSV.Header = tensorio.HeaderPresent
		} else {
			opts.CSV.Header = tensorio.HeaderAbsent
		}
	default:
		return nil, runtime.Errorf("TypeError", "io.load: header must be true, false or none, not %s", header.Type())
	}
	csvConvert := false
	if format == tensorio.CSV && dt.ok {
		switch dt.dt {
		case tensor.F64:
			opts.CSV.DType = tensorio.F64
		case tensor.F32, tensor.F16, tensor.BF16:
			opts.CSV.DType = tensorio.F32
			csvConvert = dt.dt != tensor.F32
		default:
			opts.CSV.DType = tensorio.F64
			csvConvert = true
		}
	}
	abs, err := checkPath(th, "io.load", path, false)
	if err != nil {
		return nil, err
	}
	f, err := tensorio.LoadWith(abs, opts)
	if err != nil {
		return nil, ioError("io.load", path, err)
	}
	eng := engineOf(th)
	convert := func(name string, a *tensorio.Array) (*TensorValue, error) {
		if format == tensorio.CSV && csvConvert && !dt.dt.IsFloat() {
			// Integer or bool dtype from text: checked, never truncating.
			vals, err := a.Float64s()
			if err != nil {
				return nil, ioError("io.load", path, err)
			}
			a, err = tensorio.FromFloat64s(dt.dt.String(), a.Shape, vals)
			if err != nil {
				return nil, ioError("io.load", path, err)
			}
		}
		t, err := TensorFromArray(a)
		if err != nil {
			if name != "" {
				return nil, runtime.Errorf(errKind(err), "io.load: %s: %s: %s", path, name, errMsg(err))
			}
			return nil, runtime.Errorf(errKind(err), "io.load: %s: %s", path, errMsg(err))
		}
		if dt.ok && t.DType() != dt.dt {
			if t, err = t.To(dt.dt); err != nil {
				return nil, err
			}
		}
		return wrap(eng, t), nil
	}
	if f.Array != nil {
		return convert("", f.Array)
	}
	d := runtime.NewDict(len(f.Entries))
	for _, e := range f.Entries {
		v, err := convert(e.Name, e.Array)
		if err != nil {
			return nil, err
		}
		if err := d.SetIndex(runtime.String(e.Name), v); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// ioSave implements io.save.
func ioSave(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var (
		path     string
		value    runtime.Value
		metadata runtime.Value = runtime.None
		quality  intOpt
		compress bool
		columns  runtime.Value = runtime.None
	)
	if err := runtime.UnpackArgs("io.save", args, kwargs, "path", &path, "value", &value,
		"metadata?", &metadata, "quality?", &quality, "compress?", &compress, "columns?", &columns); err != nil {
		return nil, err
	}
	format, _, ferr := tensorio.FormatOf(path)
	if ferr != nil {
		return nil, ioError("io.save", path, ferr)
	}
	f := &tensorio.File{Format: format}
	switch v := value.(type) {
	case *TensorValue:
		a, err := ArrayFromTensor(v.t)
		if err != nil {
			return nil, err
		}
		f.Array = a
	case *runtime.Dict:
		for _, kv := range v.Items() {
			name, ok := kv[0].(runtime.String)
			if !ok {
				return nil, runtime.Errorf("TypeError", "io.save: dict keys must be strings, not %s", kv[0].Type())
			}
			x, ok := kv[1].(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "io.save: value of %q must be a tensor, not %s", string(name), kv[1].Type())
			}
			a, err := ArrayFromTensor(x.t)
			if err != nil {
				return nil, err
			}
			f.Entries = append(f.Entries, tensorio.Entry{Name: string(name), Array: a})
		}
	case *runtime.List, runtime.Tuple:
		elems, _ := runtime.Elements(v)
		for i, e := range elems {
			x, ok := e.(*TensorValue)
			if !ok {
				return nil, runtime.Errorf("TypeError", "io.save: element %d must be a tensor, not %s", i, e.Type())
			}
			a, err := ArrayFromTensor(x.t)
			if err != nil {
				return nil, err
			}
			f.Entries = append(f.Entries, tensorio.Entry{Name: fmt.Sprintf("arr_%d", i), Array: a})
		}
	default:
		return nil, runtime.Errorf("TypeError", "io.save: value must be a tensor, a dict of tensors or a list of tensors, not %s", value.Type())
	}
	if metadata != runtime.None {
		if format != tensorio.Safetensors {
			return nil, runtime.Errorf("ValueError", "io.save: metadata= applies only to .safetensors files, not %s", path)
		}
		d, ok := metadata.(*runtime.Dict)
		if !ok {
			return nil, runtime.Errorf("TypeError", "io.save: metadata must be a dict of strings, not %s", metadata.Type())
		}
		f.Metadata = make(map[string]string, d.Len())
		for _, kv := range d.Items() {
			k, ok1 := kv[0].(runtime.String)
			s, ok2 := kv[1].(runtime.String)
			if !ok1 || !ok2 {
				return nil, runtime.Errorf("TypeError", "io.save: metadata must map strings to strings, got %s: %s", kv[0].Type(), kv[1].Type())
			}
			f.Metadata[string(k)] = string(s)
		}
	}
	if columns != runtime.None {
		if format != tensorio.CSV {
			return nil, runtime.Errorf("ValueError", "io.save: columns= applies only to .csv files, not %s", path)
		}
		elems, err := runtime.Elements(columns)
		if err != nil {
			return nil, runtime.Errorf("TypeError", "io.save: columns must be a list of strings, not %s", columns.Type())
		}
		f.Columns = make([]string, len(elems))
		for i, e := range elems {
			s, ok := e.(runtime.String)
			if !ok {
				return nil, runtime.Errorf("TypeError", "io.save: columns must be a list of strings, element %d is %s", i, e.Type())
			}
			f.Columns[i] = string(s)
		}
	}
	opts := &tensorio.SaveOptions{Compress: compress}
	if compress && format != tensorio.NPZ {
		return nil, runtime.Errorf("ValueError", "io.save: compress= applies only to .npz files, not %s", path)
	}
	if quality.ok {
		if format != tensorio.JPEG {
			return nil, runtime.Errorf("ValueError", "io.save: quality= applies only to .jpg/.jpeg files, not %s", path)
		}
		if quality.v < 1 || quality.v > 100 {
			return nil, runtime.Errorf("ValueError", "io.save: quality must be in 1..100, got %d", quality.v)
		}
		opts.JPEGQuality = quality.v
	}
	abs, err := checkPath(th, "io.save", path, true)
	if err != nil {
		return nil, err
	}
	if err := tensorio.SaveWith(abs, f, opts); err != nil {
		return nil, ioError("io.save", path, err)
	}
	return runtime.None, nil
}

// ioError converts an error from tensorio or the file system into a tsr
// error naming path as the program wrote it: FileNotFoundError,
// PermissionError, IsADirectoryError, ValueError (corrupt or invalid),
// TypeError (unsupported) or OSError.
func ioError(fname, path string, err error) error {
	var te *tensorio.Error
	if errors.As(err, &te) {
		return runtime.Errorf(errKind(err), "%s: %s: %s", fname, path, te.Msg)
	}
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return runtime.Errorf("FileNotFoundError", "%s: no such file or directory: '%s'", fname, path)
	case errors.Is(err, fs.ErrPermission):
		return runtime.Errorf("PermissionError", "%s: permission denied: '%s'", fname, path)
	case errors.As(err, &pe):
		return runtime.Errorf("OSError", "%s: %s '%s': %v", fname, pe.Op, path, pe.Err)
	}
	return runtime.Errorf("OSError", "%s: %s: %v", fname, path, err)
}

// errKind maps tensorio error kinds to tsr error kinds.
func errKind(err error) string {
	switch {
	case errors.Is(err, tensorio.ErrUnsupported):
		return "TypeError"
	case errors.Is(err, tensorio.ErrCorrupt), errors.Is(err, tensorio.ErrInvalid):
		return "ValueError"
	}
	var ke interface{ ErrorKind() string }
	if errors.As(err, &ke) {
		return ke.ErrorKind()
	}
	return "RuntimeError"
}

// errMsg returns a tensorio error's message without its path prefix.
func errMsg(err error) string {
	var te *tensorio.Error
	if errors.As(err, &te) {
		return te.Msg
	}
	return err.Error()
}

// nativeLittle reports whether this machine stores numbers little-endian,
// tensorio's byte order (true on every platform tsr is tested on).
var nativeLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// TensorFromArray returns a new contiguous tensor holding a copy of a's
// elements, with a's dtype and shape. Every tensorio dtype maps to the tensor
// dtype of the same name (f16 bf16 f32 f64 i8 i16 i32 i64 u8 bool). It copies
// once (the tensor allocator owns its buffers). An Array failing Validate is
// an *tensorio.Error of kind ErrInvalid.
func TensorFromArray(a *tensorio.Array) (*tensor.Tensor, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	dt, err := tensor.ParseDType(a.DType)
	if err != nil {
		return nil, err
	}
	t, err := tensor.Empty(a.Shape, dt)
	if err != nil {
		return nil, err
	}
	dst := t.Storage().Bytes()
	copy(dst, a.Data)
	if dt == tensor.Bool {
		// a bool is one byte holding 0 or 1 (tensorio's readers normalise
		// theirs; a host's Array may hold any nonzero byte for true)
		for i, b := range dst[:len(a.Data)] {
			if b > 1 {
				dst[i] = 1
			}
		}
	}
	if !nativeLittle {
		swapBytes(dst[:len(a.Data)], dt.ItemSize())
	}
	return t, nil
}

// ArrayFromTensor returns t's elements as a tensorio.Array in C order
// (dtype and shape as t's). A contiguous tensor is not copied: Data aliases
// t's storage, so the Array must not be kept past the next write to t (io.save
// encodes it at once). A non-contiguous view is copied. Gradients and
// autograd history are ignored (the values are saved, as PyTorch's detach()).
func ArrayFromTensor(t *tensor.Tensor) (*tensorio.Array, error) {
	if t.Device() != "cpu" {
		return nil, runtime.Errorf("RuntimeError", "cannot save a tensor on device %s; move it to the cpu first", t.Device())
	}
	if !t.IsContiguous() {
		t = t.Contiguous()
	}
	es := t.ElementSize()
	off := t.StorageOffset() * es
	n := t.Numel() * es
	var data []byte
	if n > 0 {
		data = t.Storage().Bytes()[off : off+n : off+n]
	} else {
		data = []byte{}
	}
	if !nativeLittle {
		data = append([]byte(nil), data...)
		swapBytes(data, es)
	}
	return &tensorio.Array{DType: t.DType().String(), Shape: append([]int(nil), t.Shape()...), Data: data}, nil
}

// swapBytes reverses the bytes of each size-byte element of b in place.
func swapBytes(b []byte, size int) {
	if size <= 1 {
		return
	}
	for i := 0; i+size <= len(b); i += size {
		e := b[i : i+size]
		for l, r := 0, size-1; l < r; l, r = l+1, r-1 {
			e[l], e[r] = e[r], e[l]
		}
	}
}
