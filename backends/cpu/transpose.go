package cpu

import "github.com/tsrlang/tsr/backends"

// Transposed panels: the building block of elementwise kernels over a
// transposed operand (x - x.t()). A panel is a block of up to W source
// rows (W = TransposePanelWidthF32 or ...F64), each contiguous along the
// panel's rows; TransposePanel writes it transposed into a dense row-major
// buffer of W columns, where vector kernels read it row by row. The
// AVX-512 variants are the GEMM packer's register transposes (packT32F32,
// packT16F64: 16×16 / 8×8 blocks, no gathers).

// Panel widths (columns of the transposed buffer) of TransposePanelF32 and
// TransposePanelF64: the widths of the GEMM B panels whose packers they
// share.
const (
	TransposePanelWidthF32 = 32
	TransposePanelWidthF64 = 16
)

type transposePanelFn[T float] func(dst, src []T, ld, rows, cols int)

var (
	transposePanelF32 transposePanelFn[float32]
	transposePanelF64 transposePanelFn[float64]
)

func transposePanelKey(dtype string) backends.Key {
	return backends.Key{Op: "transpose_panel", DType: dtype, Device: "cpu"}
}

func init() {
	backends.Register(transposePanelKey("float32"), backends.Candidate{Name: "go", Impl: transposePanelFn[float32](goTransposePanel[float32]), Requires: backends.TierGeneric})
	backends.Register(transposePanelKey("float64"), backends.Candidate{Name: "go", Impl: transposePanelFn[float64](goTransposePanel[float64]), Requires: backends.TierGeneric})
	registerTransposeAsm()
	c, ok := backends.Lookup(transposePanelKey("float32"))
	if !ok {
		panic("cpu: no kernel registered for transpose_panel/float32")
	}
	transposePanelF32 = c.Impl.(transposePanelFn[float32])
	if c, ok = backends.Lookup(transposePanelKey("float64")); !ok {
		panic("cpu: no kernel registered for transpose_panel/float64")
	}
	transposePanelF64 = c.Impl.(transposePanelFn[float64])
}

// TransposePanelF32 sets dst[p*32+j] = src[j*ld+p] for p < rows and
// j < cols: the cols source rows (ld apart, each read over rows
// contiguous elements) transposed into rows rows of a 32-column buffer.
// Columns cols..31 of dst are left as they are. Panics unless 0 < cols <=
// 32, ld >= 1, len(dst) >= (rows-1)*32+cols and len(src) >= (cols-1)*ld+
// rows (rows > 0).
func TransposePanelF32(dst, src []float32, ld, rows, cols int) {
	checkPanel("TransposePanelF32", TransposePanelWidthF32, len(dst), len(src), ld, rows, cols)
	if rows > 0 {
		transposePanelF32(dst, src, ld, rows, cols)
	}
}

// TransposePanelF64 is TransposePanelF32 in float64 with a 16-column
// buffer: dst[p*16+j] = src[j*ld+p].
func TransposePanelF64(dst, src []float64, ld, rows, cols int) {
	checkPanel("TransposePanelF64", TransposePanelWidthF64, len(dst), len(src), ld, rows, cols)
	if rows > 0 {
		transposePanelF64(dst, src, ld, rows, cols)
	}
}

func checkPanel(name string, w, nd, ns, ld, rows, cols int) {
	if cols <= 0 || cols > w || ld < 1 || rows < 0 {
		panic("cpu." + name + ": bad panel shape")
	}
	if rows > 0 && (nd < (rows-1)*w+cols || ns < (cols-1)*ld+rows) {
		panic("cpu." + name + ": slice too short")
	}
}

// goTransposePanel is the scalar reference: one source row at a time into
// a dst column.
func goTransposePanel[T float](dst, src []T, ld, rows, cols int) {
	w := TransposePanelWidthF32
	if _, ok := any(dst).([]float64); ok {
		w = TransposePanelWidthF64
	}
	for j := 0; j < cols; j++ {
		s := src[j*ld : j*ld+rows]
		for p, v := range s {
			dst[p*w+j] = v
		}
	}
}
