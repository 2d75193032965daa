package tensorio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// safetensors format (https://github.com/huggingface/safetensors):
//
//	u64 LE N | N bytes of UTF-8 JSON header | data
//
// The header maps tensor names to {"dtype", "shape", "data_offsets":
// [begin, end]} (offsets relative to the start of data) plus an optional
// "__metadata__" object of string to string.

// MaxSafetensorsHeader is the largest safetensors JSON header accepted, as
// in the reference implementation (MAX_HEADER_SIZE = 100_000_000).
const MaxSafetensorsHeader = 100_000_000

var stDTypes = map[string]string{
	"F16": F16, "BF16": BF16, "F32": F32, "F64": F64,
	"I8": I8, "I16": I16, "I32": I32, "I64": I64, "U8": U8, "BOOL": Bool,
}

func stName(dtype string) string {
	if dtype == Bool {
		return "BOOL"
	}
	return strings.ToUpper(dtype)
}

type stInfo struct {
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets []uint64 `json:"data_offsets"`
}

// DecodeSafetensors parses a complete .safetensors file held in b and
// returns its tensors in header order plus the "__metadata__" map (nil when
// absent). Tensor Data aliases b (no copy), except bool tensors with bytes
// other than 0/1, which are normalised in a copy.
//
// Validation follows the reference implementation, strictly: the header
// size must be at most MaxSafetensorsHeader and within the file, the header
// must be a JSON object starting with '{' (trailing spaces allowed), names
// must be unique, every end >= begin and end-begin must equal
// numel*itemsize, and the offset ranges sorted by begin must tile the data
// exactly: first begins at 0, each begins where the previous ended (no gap,
// no overlap), the last ends at the end of the file. Violations are
// ErrCorrupt *Errors naming the tensor; dtypes other than F16 BF16 F32 F64
// I8 I16 I32 I64 U8 BOOL are ErrUnsupported.
func DecodeSafetensors(b []byte) ([]Entry, map[string]string, error) {
	if len(b) < 8 {
		return nil, nil, newError(ErrCorrupt, "truncated safetensors file: %d bytes, the header size alone takes 8", len(b))
	}
	n := le.Uint64(b)
	if n > MaxSafetensorsHeader {
		return nil, nil, newError(ErrCorrupt, "header size %d exceeds the %d-byte limit", n, MaxSafetensorsHeader)
	}
	if n > uint64(len(b)-8) {
		return nil, nil, newError(ErrCorrupt, "truncated header: header size says %d bytes, file has %d after the size field", n, len(b)-8)
	}
	hdr := b[8 : 8+n]
	data := b[8+n:]
	if len(hdr) == 0 || hdr[0] != '{' {
		return nil, nil, newError(ErrCorrupt, "header is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(hdr))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // '{'
		return nil, nil, newError(ErrCorrupt, "malformed JSON header: %v", err)
	}
	var (
		entries []Entry
		infos   []stInfo
		meta    map[string]string
		seen    = map[string]bool{}
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, newError(ErrCorrupt, "malformed JSON header: %v", err)
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, nil, newError(ErrCorrupt, "duplicate key %q in header", name)
		}
		seen[name] = true
		if name == "__metadata__" {
			if err := dec.Decode(&meta); err != nil {
				return nil, nil, newError(ErrCorrupt, "__metadata__ must map strings to strings: %v", err)
			}
			continue
		}
		var info stInfo
		if err := dec.Decode(&info); err != nil {
			return nil, nil, newError(ErrCorrupt, "tensor %q: malformed entry: %v", name, err)
		}
		dtype, ok := stDTypes[info.DType]
		if !ok {
			if info.DType == "" {
				return nil, nil, newError(ErrCorrupt, "tensor %q: missing dtype", name)
			}
			return nil, nil, newError(ErrUnsupported, "tensor %q: dtype %s is not supported (want F16 BF16 F32 F64 I8 I16 I32 I64 U8 BOOL)", name, info.DType)
		}
		if info.Shape == nil {
			return nil, nil, newError(ErrCorrupt, "tensor %q: missing shape", name)
		}
		if len(info.Offsets) != 2 {
			return nil, nil, newError(ErrCorrupt, "tensor %q: data_offsets must be [begin, end]", name)
		}
		if len(info.Shape) > MaxDims {
			return nil, nil, newError(ErrCorrupt, "tensor %q: %d dimensions (at most %d supported)", name, len(info.Shape), MaxDims)
		}
		shape := make([]int, len(info.Shape))
		for i, d := range info.Shape {
			if d < 0 || int64(int(d)) != d {
				return nil, nil, newError(ErrCorrupt, "tensor %q: bad dimension %d in shape %v", name, d, info.Shape)
			}
			shape[i] = int(d)
		}
		nbytes, err := byteSize(shape, ItemSize(dtype))
		if err != nil {
			return nil, nil, prefix(err, "tensor "+strconv.Quote(name))
		}
		begin, end := info.Offsets[0], info.Offsets[1]
		if end < begin {
			return nil, nil, newError(ErrCorrupt, "tensor %q: data_offsets [%d, %d] end before begin", name, begin, end)
		}
		if end-begin != nbytes {
			return nil, nil, newError(ErrCorrupt, "tensor %q: data_offsets [%d, %d] span %d bytes, shape %v of %s needs %d", name, begin, end, end-begin, shape, info.DType, nbytes)
		}
		if end > uint64(len(data)) {
			return nil, nil, newError(ErrCorrupt, "tensor %q: truncated data: data_offsets end at %d, file has %d data bytes", name, end, len(data))
		}
		entries = append(entries, Entry{Name: name, Array: &Array{DType: dtype, Shape: shape, Data: data[begin:end:end]}})
		infos = append(infos, info)
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, nil, newError(ErrCorrupt, "malformed JSON header: %v", err)
	}
	if rest := hdr[dec.InputOffset():]; len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
		return nil, nil, newError(ErrCorrupt, "malformed JSON header: trailing data after the object")
	}
	// The byte ranges, sorted, must tile [0, len(data)).
	order := make([]int, len(infos))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := infos[order[i]].Offsets, infos[order[j]].Offsets
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		return a[1] < b[1]
	})
	var pos uint64
	for _, i := range order {
		off := infos[i].Offsets
		if off[0] != pos {
			what := "overlaps the previous tensor"
			if off[0] > pos {
				what = fmt.Sprintf("leaves a gap of %d bytes", off[0]-pos)
			}
			return nil, nil, newError(ErrCorrupt, "tensor %q: data_offsets [%d, %d] %s (expected begin %d)", entries[i].Name, off[0], off[1], what, pos)
		}
		pos = off[1]
	}
	if pos != uint64(len(data)) {
		return nil, nil, newError(ErrCorrupt, "tensors cover %d data bytes, file has %d (trailing bytes)", pos, len(data))
	}
	for _, e := range entries {
		if e.Array.DType == Bool {
			e.Array.Data = normaliseBool(e.Array.Data)
		}
	}
	return entries, meta, nil
}

// EncodeSafetensors writes entries and metadata (may be nil) as a
// .safetensors file to w. The header lists the tensors in the given order;
// the data is laid out by decreasing item size (stable), so that with the
// header padded to a multiple of 8 bytes (with spaces, as the reference
// writer does) every tensor starts at an offset aligned to its item size.
// Names must be non-empty, unique and not "__metadata__" (ErrInvalid);
// every Array must pass Validate.
func EncodeSafetensors(w io.Writer, entries []Entry, metadata map[string]string) error {
	seen := map[string]bool{}
	for _, e := range entries {
		switch {
		case e.Name == "":
			return newError(ErrInvalid, "empty tensor name")
		case e.Name == "__metadata__":
			return newError(ErrInvalid, "tensor name __metadata__ is reserved")
		case seen[e.Name]:
			return newError(ErrInvalid, "duplicate tensor name %q", e.Name)
		}
		seen[e.Name] = true
		if err := e.Array.Validate(); err != nil {
			return prefix(err, "tensor "+strconv.Quote(e.Name))
		}
	}
	layout := make([]int, len(entries))
	for i := range layout {
		layout[i] = i
	}
	sort.SliceStable(layout, func(i, j int) bool {
		return ItemSize(entries[layout[i]].Array.DType) > ItemSize(entries[layout[j]].Array.DType)
	})
	offsets := make([][2]uint64, len(entries))
	var pos uint64
	for _, i := range layout {
		n := uint64(len(entries[i].Array.Data))
		offsets[i] = [2]uint64{pos, pos + n}
		pos += n
	}
	var h bytes.Buffer
	h.WriteByte('{')
	if metadata != nil {
		keys := make([]string, 0, len(metadata))
		for k := range metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h.WriteString(`"__metadata__":{`)
		for i, k := range keys {
			if i > 0 {
				h.WriteByte(',')
			}
			h.WriteString(jsonString(k))
			h.WriteByte(':')
			h.WriteString(jsonString(metadata[k]))
		}
		h.WriteByte('}')
		if len(entries) > 0 {
			h.WriteByte(',')
		}
	}
	for i, e := range entries {
		if i > 0 {
			h.WriteByte(',')
		}
		fmt.Fprintf(&h, `%s:{"dtype":"%s","shape":[`, jsonString(e.Name), stName(e.Array.DType))
		for j, d := range e.Array.Shape {
			if j > 0 {
				h.WriteByte(',')
			}
			h.WriteString(strconv.Itoa(d))
		}
		fmt.Fprintf(&h, `],"data_offsets":[%d,%d]}`, offsets[i][0], offsets[i][1])
	}
	h.WriteByte('}')
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	var size [8]byte
	le.PutUint64(size[:], uint64(h.Len()))
	if _, err := w.Write(size[:]); err != nil {
		return err
	}
	if _, err := w.Write(h.Bytes()); err != nil {
		return err
	}
	for _, i := range layout {
		if _, err := w.Write(entries[i].Array.Data); err != nil {
			return err
		}
	}
	return nil
}

// jsonString quotes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // unreachable: strings always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}
