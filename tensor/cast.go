package tensor

// Dtype conversion. Floats convert to integers by truncation toward zero
// (NaN and out-of-range values as PyTorch's x86 build: see toI32 and
// f64ToI64), anything converts to bool as value != 0, and f64 -> f16/bf16 goes through
// f32 (round to nearest even at each step), which is what PyTorch's CPU
// conversions do.

import (
	"math"

	"github.com/tsrlang/tsr/backends/cpu"
)

type num interface {
	~float32 | ~float64 | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8
}

// To returns t converted to dtype dt: t itself when the dtype already
// matches, else a new contiguous tensor.
func (t *Tensor) To(dt DType) (*Tensor, error) {
	if !dt.Valid() {
		return nil, errorf(TypeError, "invalid dtype")
	}
	if dt == t.dtype {
		return t, nil
	}
	out := empty(t.shape, dt)
	castInto(out, t)
	return out, nil
}

// toDType returns t converted to dt (t itself when equal), laid out as
// Tensor.to(dt) in PyTorch (preserve_format: a dense t's strides, else
// dense strides in the order of t's), as ATen converts the inputs of an
// elementwise op to their common dtype; it never fails.
func (t *Tensor) toDType(dt DType) *Tensor {
	if t.dtype == dt {
		return t
	}
	out := newTensor(newStorage(dt, t.Numel(), false), append([]int(nil), t.shape...), preservedStrides(t), 0, dt)
	castInto(out, t)
	return out
}

// castInto writes src (converted) into dst; shapes must match.
func castInto(dst, src *Tensor) {
	if dst.dtype == src.dtype {
		copySame(dst, src)
		return
	}
	ss := src.storage
	switch src.dtype {
	case F32:
		castFrom(dst, src, ss.F32())
	case F64:
		castFrom(dst, src, ss.F64())
	case I8:
		castFrom(dst, src, ss.I8())
	case I16:
		castFrom(dst, src, ss.I16())
	case I32:
		castFrom(dst, src, ss.I32())
	case I64:
		castFrom(dst, src, ss.I64())
	case U8, Bool:
		castFrom(dst, src, ss.U8())
	case F16:
		if dst.dtype == F32 {
			castLoopVec(dst.storage.F32(), ss.U16(), dst, src, F16ToF32, cpu.F16ToF32)
			return
		}
		tmp := src.toDType(F32)
		castInto(dst, tmp)
	case BF16:
		if dst.dtype == F32 {
			castLoopVec(dst.storage.F32(), ss.U16(), dst, src, BF16ToF32, cpu.BF16ToF32)
			return
		}
		tmp := src.toDType(F32)
		castInto(dst, tmp)
	}
}

func castFrom[S num](dst, src *Tensor, s []S) {
	ds := dst.storage
	switch dst.dtype {
	case F32:
		castLoop(ds.F32(), s, dst, src)
	case F64:
		castLoop(ds.F64(), s, dst, src)
	case I8:
		castLoopFn(ds.I8(), s, dst, src, func(v S) int8 { return int8(toI32(v)) })
	case I16:
		castLoopFn(ds.I16(), s, dst, src, func(v S) int16 { return int16(toI32(v)) })
	case I32:
		castLoopFn(ds.I32(), s, dst, src, toI32[S])
	case I64:
		castLoopFn(ds.I64(), s, dst, src, toI64[S])
	case U8:
		castLoopFn(ds.U8(), s, dst, src, func(v S) uint8 { return uint8(toI64(v)) })
	case Bool:
		castLoopFn(ds.Bools(), s, dst, src, func(v S) bool { return v != 0 })
	case F16:
		if s32, ok := any(s).([]float32); ok {
			castLoopVec(ds.U16(), s32, dst, src, F32ToF16, cpu.F32ToF16)
			return
		}
		castLoopFn(ds.U16(), s, dst, src, func(v S) uint16 { return F32ToF16(float32(v)) })
	case BF16:
		castLoopFn(ds.U16(), s, dst, src, func(v S) uint16 { return F32ToBF16(float32(v)) })
	}
}

// toI64 converts with C semantics made total: floats truncate, NaN and out
// of range saturate to MinInt64 (x86 behaviour), then callers wrap.
func toI64[S num](v S) int64 {
	switch any(v).(type) {
	case float32, float64:
		return f64ToI64(float64(v))
	}
	return int64(v)
}

// toI32 converts to int32 as PyTorch's x86 build does for i32, i16 and i8
// targets (CVTTSS2SI/CVTTSD2SI): floats truncate, NaN and values outside
// [-2^31, 2^31) give MinInt32; integers wrap. Narrower targets then wrap
// the int32 (3e9 -> i16 is 0, as in PyTorch; u8 goes through int64).
func toI32[S num](v S) int32 {
	switch any(v).(type) {
	case float32, float64:
		f := float64(v)
		if f != f || f >= 2147483648 || f <= -2147483649 {
			return math.MinInt32
		}
		return int32(f)
	}
	return int32(v)
}

func castLoop[D, S num](d []D, s []S, dst, src *Tensor) {
	walkEW2(dst.shape, dst, src, func(pd, ps, n, sd, ss int) {
		if sd == 1 && ss == 1 {
			dd, sv := d[pd:pd+n], s[ps:ps+n]
			for i := range dd {
				dd[i] = D(sv[i])
			}
			return
		}
		for i := 0; i < n; i++ {
			d[pd+i*sd] = D(s[ps+i*ss])
		}
	})
}

func castLoopFn[D, S any](d []D, s []S, dst, src *Tensor, f func(S) D) {
	castLoopVec(d, s, dst, src, f, func(dd []D, sv []S) {
		sv = sv[:len(dd)]
		for i := range dd {
			dd[i] = f(sv[i])
		}
	})
}

// castLoopVec is castLoopFn with unit-stride runs converted by vec (a
// slice kernel with the same results as f).
func castLoopVec[D, S any](d []D, s []S, dst, src *Tensor, f func(S) D, vec func(dst []D, src []S)) {
	walkEW2(dst.shape, dst, src, func(pd, ps, n, sd, ss int) {
		if sd == 1 && ss == 1 {
			vec(d[pd:pd+n], s[ps:ps+n])
			return
		}
		for i := 0; i < n; i++ {
			d[pd+i*sd] = f(s[ps+i*ss])
		}
	})
}
