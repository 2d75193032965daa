package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
	"github.com/x448/float16"
)

// Conversions between float32 and the 16-bit formats, over slices. The
// binary16 ones are registry ops ("f16_to_f32", "f32_to_f16"; AVX-512 uses
// VCVTPH2PS/VCVTPS2PH, elsewhere x448/float16); bfloat16 is a shift.

type cvtFn[D, S any] func(dst []D, src []S)

var (
	f16ToF32 cvtFn[float32, uint16]
	f32ToF16 cvtFn[uint16, float32]
)

func goF16ToF32(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i, h := range src {
		dst[i] = float16.Frombits(h).Float32()
	}
}

func goF32ToF16(dst []uint16, src []float32) {
	src = src[:len(dst)]
	for i, f := range src {
		dst[i] = float16.Fromfloat32(f).Bits()
	}
}

func init() {
	for _, c := range []struct {
		op   string
		impl any
	}{{"f16_to_f32", cvtFn[float32, uint16](goF16ToF32)}, {"f32_to_f16", cvtFn[uint16, float32](goF32ToF16)}} {
		backends.Register(backends.Key{Op: c.op, DType: "float16", Device: "cpu"},
			backends.Candidate{Name: "go", Impl: c.impl, Requires: backends.TierGeneric})
	}
	registerHalfAsm()
	get := func(op string) any {
		c, _ := backends.Lookup(backends.Key{Op: op, DType: "float16", Device: "cpu"})
		return c.Impl
	}
	f16ToF32 = get("f16_to_f32").(cvtFn[float32, uint16])
	f32ToF16 = get("f32_to_f16").(cvtFn[uint16, float32])
}

// F16ToF32 sets dst[i] to the binary16 value with bits src[i], exactly,
// for i < len(dst). Panics if src is shorter than dst.
func F16ToF32(dst []float32, src []uint16) {
	if len(src) < len(dst) {
		panic("cpu.F16ToF32: src shorter than dst")
	}
	f16ToF32(dst, src)
}

// F32ToF16 sets dst[i] to the binary16 bits of src[i] rounded to nearest
// even (overflow to ±Inf, subnormals kept, NaN stays NaN), for i <
// len(dst). Panics if src is shorter than dst.
func F32ToF16(dst []uint16, src []float32) {
	if len(src) < len(dst) {
		panic("cpu.F32ToF16: src shorter than dst")
	}
	f32ToF16(dst, src)
}

// BF16ToF32 sets dst[i] to the bfloat16 value with bits src[i] (exact: the
// top half of a float32), for i < len(dst). Panics if src is shorter.
func BF16ToF32(dst []float32, src []uint16) {
	src = src[:len(dst)]
	for i, h := range src {
		dst[i] = math.Float32frombits(uint32(h) << 16)
	}
}
