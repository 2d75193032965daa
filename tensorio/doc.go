// Package tensorio reads and writes arrays in the file formats tsr's io.load
// and io.save support: NumPy .npy and .npz, Hugging Face .safetensors,
// numeric CSV (optionally gzip-compressed), and PNG/JPEG images.
//
// It works on a neutral Array type (dtype name, shape, little-endian
// C-order bytes) and does not depend on tsr's tensor package; the language
// binding converts between the two, using the Float64s/Float32s/Int64s and
// FromFloat64s/FromFloat32s/FromInt64s helpers.
//
// Entry points:
//
//   - Load / LoadWith and Save / SaveWith / SaveArray pick the format from
//     the file extension and exchange a *File (one Array, or ordered named
//     Entries, plus safetensors metadata and CSV column names). Saves are
//     atomic (temporary file + fsync + rename).
//   - DecodeNPY/EncodeNPY, DecodeNPZ/EncodeNPZ,
//     DecodeSafetensors/EncodeSafetensors, DecodeCSV/EncodeCSV,
//     DecodeImage/EncodePNG/EncodeJPEG work on bytes or streams.
//
// Decoders never panic on malformed input and check every size declared in
// a header against the bytes actually present before allocating, so a
// corrupt or hostile file yields an *Error (kinds ErrCorrupt,
// ErrUnsupported, ErrInvalid) instead of a crash or a huge allocation. The
// fuzz targets in this package exercise that.
//
// Conventions: bool is one byte per element (0/1); bf16 is stored in
// .safetensors (BF16) but refused in .npy/.npz, since NumPy has no
// bfloat16; 16-bit PNGs load as i32 values 0..65535.
package tensorio
