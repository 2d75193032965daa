package tensor

import (
	"math"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Activation kernels without a temporary: relu, hardtanh, clamp and
// leaky_relu on f32/f64 run one pass of a vector kernel (backends/cpu
// ClampF32/F64, LeakyReluF32/F64; AVX2/AVX-512 or the pure-Go reference
// under -tags purego), split over goroutines as every unary op, and their
// in-place forms write straight into the tensor's own storage when its
// layout is dense and non-overlapping (contiguous, or a permutation of
// contiguous). The values are those of the generic paths bit for bit: x86
// MAX/MIN operand order, so NaN and -0.0 pass through relu, clamp and
// hardtanh as in PyTorch, and leaky_relu is PyTorch's x > 0 ? x : x*s.

// vecInplace runs f32 or f64 (by t's dtype) over t's own storage and bumps
// its version; it reports false (t untouched) when t is not f32/f64, is
// empty, not dense and non-overlapping, or the fast paths are off.
func (t *Tensor) vecInplace(f32 func(dst, x []float32), f64 func(dst, x []float64)) bool {
	if !fastPathsOn() || t.Numel() == 0 || !linearLayout(t, t) {
		return false
	}
	switch t.dtype {
	case F32:
		s := t.storage.F32()
		unaryApply(f32, s, s, t, t)
	case F64:
		s := t.storage.F64()
		unaryApply(f64, s, s, t, t)
	default:
		return false
	}
	t.markWritten()
	return true
}

// vecUnary runs f32 or f64 from t into a new tensor laid out as a unary
// op's result (ElementwiseStrides); nil when t is not f32/f64, is empty or
// the fast paths are off.
func vecUnary(t *Tensor, f32 func(dst, x []float32), f64 func(dst, x []float64)) *Tensor {
	if !fastPathsOn() || t.Numel() == 0 || t.dtype != F32 && t.dtype != F64 {
		return nil
	}
	out := emptyIter(t.shape, t.dtype, opOf(t))
	if t.dtype == F32 {
		unaryApply(f32, out.storage.F32(), t.storage.F32(), out, t)
	} else {
		unaryApply(f64, out.storage.F64(), t.storage.F64(), out, t)
	}
	return out
}

func clampF32(lo, hi float32) func(dst, x []float32) {
	return func(dst, x []float32) { cpu.ClampF32(dst, x, lo, hi) }
}

func clampF64(lo, hi float64) func(dst, x []float64) {
	return func(dst, x []float64) { cpu.ClampF64(dst, x, lo, hi) }
}

// ReluInplace sets t to relu(t) = max(t, 0) in place (torch's relu_):
// NaN and -0.0 pass through (ATen's clamp_min(x, 0)); integers are clamped
// at 0; a bool t is a RuntimeError, as an internally overlapping one
// (expanded) is. Bumps t's version once.
func (t *Tensor) ReluInplace() error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	inf := math.Inf(1)
	if t.vecInplace(clampF32(0, float32(inf)), clampF64(0, inf)) {
		return nil
	}
	return t.ApplyInplace(Relu)
}

// HardtanhInplace sets t to hardtanh(t, minVal, maxVal) in place (torch's
// hardtanh_): t < minVal becomes minVal, then t > maxVal becomes maxVal
// (NaN passes); the errors of Hardtanh. Bumps t's version once.
func (t *Tensor) HardtanhInplace(minVal, maxVal float64) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	if minVal == minVal && maxVal == maxVal &&
		t.vecInplace(clampF32(float32(minVal), float32(maxVal)), clampF64(minVal, maxVal)) {
		return nil
	}
	return t.ApplyInplace(func(t *Tensor) (*Tensor, error) { return Hardtanh(t, minVal, maxVal) })
}

// hardtanhFast is Hardtanh's one-pass f32/f64 path; nil where it does not
// apply (other dtypes, NaN bounds).
func hardtanhFast(t *Tensor, minVal, maxVal float64) *Tensor {
	if minVal != minVal || maxVal != maxVal {
		return nil
	}
	return vecUnary(t, clampF32(float32(minVal), float32(maxVal)), clampF64(minVal, maxVal))
}

// LeakyRelu returns t > 0 ? t : t*negativeSlope for an f32 or f64 t
// (torch.nn.functional.leaky_relu's values: a NaN, ±0 or negative element
// takes the product, computed in t's dtype with the slope rounded to it).
// Other dtypes are a RuntimeError (the caller composes them). Not recorded
// for autograd.
func LeakyRelu(t *Tensor, negativeSlope float64) (*Tensor, error) {
	s32 := float32(negativeSlope)
	f32 := func(dst, x []float32) { cpu.LeakyReluF32(dst, x, s32) }
	f64 := func(dst, x []float64) { cpu.LeakyReluF64(dst, x, negativeSlope) }
	if r := vecUnary(t, f32, f64); r != nil {
		return r, nil
	}
	switch t.dtype {
	case F32, F64: // empty, or the fast paths off
		out := emptyIter(t.shape, t.dtype, opOf(t))
		if t.dtype == F32 {
			mapUn(out.storage.F32(), t.storage.F32(), out, t, func(v float32) float32 { return leaky(v, s32) })
		} else {
			mapUn(out.storage.F64(), t.storage.F64(), out, t, func(v float64) float64 { return leaky(v, negativeSlope) })
		}
		return out, nil
	}
	return nil, errorf(RuntimeError, "\"leaky_relu_cpu\" not implemented for '%s'", pyTypeName(t.dtype))
}

// LeakyReluInplace is LeakyRelu in place (torch's leaky_relu_): f32 and
// f64 only, the errors of an in-place op otherwise. Bumps t's version once.
func (t *Tensor) LeakyReluInplace(negativeSlope float64) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	s32 := float32(negativeSlope)
	if t.vecInplace(func(dst, x []float32) { cpu.LeakyReluF32(dst, x, s32) },
		func(dst, x []float64) { cpu.LeakyReluF64(dst, x, negativeSlope) }) {
		return nil
	}
	return t.ApplyInplace(func(t *Tensor) (*Tensor, error) { return LeakyRelu(t, negativeSlope) })
}

func leaky[T vfloat](v, s T) T {
	if !(v > 0) {
		v *= s
	}
	return v
}

// UnaryInplace sets t to the unary op name of t in place, where f is that
// op out of place (Relu, Abs, ...): relu, abs, neg and square, whose
// vector kernels may write over their input, run straight over a dense
// f32/f64 t's storage; every other case is t.ApplyInplace(f) (computed,
// then copied back). The values are f's bit for bit; an internally
// overlapping t is a RuntimeError. Bumps t's version once.
func (t *Tensor) UnaryInplace(name string, f func(*Tensor) (*Tensor, error)) error {
	if err := t.checkWritable(); err != nil {
		return err
	}
	var u *unaryDef
	switch name {
	case "relu":
		u = uRelu
	case "abs":
		u = uAbs
	case "neg":
		u = uNeg
	case "square":
		u = uSquare
	}
	if u != nil && t.vecInplace(unaryVec(u, opsF32), unaryVec(u, opsF64)) {
		return nil
	}
	return t.ApplyInplace(f)
}
