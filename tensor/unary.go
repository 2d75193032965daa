package tensor

import (
	"math"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Unary elementwise ops. Float-valued functions (Exp, Log, Sin, ...) give
// the default float dtype (f32) for integer and bool inputs; f16/bf16 are
// computed in f32 and rounded once. Ops that keep the dtype (Neg, Abs,
// Sign, Floor, ...) work on integers directly. Results are laid out as
// PyTorch's TensorIterator lays out a unary op's output (ElementwiseStrides,
// layout.go): a contiguous, channels-last or otherwise dense input's
// strides are kept (x.t().exp() is transposed like x.t()); other inputs
// give a dense result in the order of their strides.

type unaryKind uint8

const (
	ukFloat unaryKind = iota // float result, ints promote to f32
	ukKeep                   // same dtype, integer version given
	ukPred                   // bool result
)

type unaryDef struct {
	name   string
	kind   unaryKind
	f      func(float64) float64
	i      func(int64) int64 // for ukKeep on integers; nil = identity copy
	p      func(float64) bool
	noBool bool
	f32    func(float32) float32 // optional: f32 (and f16/bf16) in float32 arithmetic, as PyTorch
}

var (
	uNeg = &unaryDef{name: "neg", kind: ukKeep, f: func(x float64) float64 { return -x }, i: func(x int64) int64 { return -x }, noBool: true}
	uAbs = &unaryDef{name: "abs", kind: ukKeep, f: math.Abs, i: func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}, noBool: true}
	uSign = &unaryDef{name: "sign", kind: ukKeep, f: func(x float64) float64 {
		switch {
		case x != x:
			return 0 // ATen: (0 < x) - (x < 0)
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0 // ATen's (0 < x) - (x < 0): sign(-0.0) is +0.0
	}, i: func(x int64) int64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}}
	uSquare = &unaryDef{name: "square", kind: ukKeep, f: func(x float64) float64 { return x * x }, i: func(x int64) int64 { return x * x }}
	uRelu   = &unaryDef{name: "relu", kind: ukKeep, f: func(x float64) float64 {
		if x < 0 { // ATen's clamp_min(x, 0): -0.0 and NaN pass through
			return 0
		}
		return x
	}, i: func(x int64) int64 { return max(x, 0) }, noBool: true}
	uFloor = &unaryDef{name: "floor", kind: ukKeep, f: math.Floor, noBool: true}
	uCeil  = &unaryDef{name: "ceil", kind: ukKeep, f: math.Ceil, noBool: true}
	uRound = &unaryDef{name: "round", kind: ukKeep, f: math.RoundToEven, noBool: true}
	uTrunc = &unaryDef{name: "trunc", kind: ukKeep, f: math.Trunc, noBool: true}

	uExp        = &unaryDef{name: "exp", f: cpu.ExpSleefF64, f32: cpu.ExpSleefF32} // PyTorch's (SLEEF) exp
	uLog        = &unaryDef{name: "log", f: cpu.LogSleefF64, f32: cpu.LogSleefF32} // PyTorch's (SLEEF log_u10 / logf_u10) log, bit for bit
	uLog1p      = &unaryDef{name: "log1p", f: math.Log1p}
	uExpm1      = &unaryDef{name: "expm1", f: math.Expm1}
	uSqrt       = &unaryDef{name: "sqrt", f: math.Sqrt}
	uRsqrt      = &unaryDef{name: "rsqrt", f: func(x float64) float64 { return 1 / math.Sqrt(x) }, f32: rsqrtF32}
	uSin        = &unaryDef{name: "sin", f: cpu.Sin64} // within 1 ulp (math.Sin: up to 7, more for huge x)
	uCos        = &unaryDef{name: "cos", f: cpu.Cos64}
	uTan        = &unaryDef{name: "tan", f: cpu.Tan64}
	uTanh       = &unaryDef{name: "tanh", f: math.Tanh}
	uSigmoid    = &unaryDef{name: "sigmoid", f: sigmoidTorch[float64], f32: sigmoidTorch[float32]}
	uReciprocal = &unaryDef{name: "reciprocal", f: func(x float64) float64 { return 1 / x }}
	uErf        = &unaryDef{name: "erf", f: math.Erf}
	uGelu       = &unaryDef{name: "gelu", f: func(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }, f32: geluF32}
	uGeluTanh   = &unaryDef{name: "gelu", f: cpu.GeluTanhScalarF64, f32: cpu.GeluTanhScalarF32} // PyTorch's steps (vector: cpu.GeluTanhF32/F64)

	uIsNan    = &unaryDef{name: "isnan", kind: ukPred, p: math.IsNaN}
	uIsInf    = &unaryDef{name: "isinf", kind: ukPred, p: func(x float64) bool { return math.IsInf(x, 0) }}
	uIsFinite = &unaryDef{name: "isfinite", kind: ukPred, p: func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }}
)

// geluF32 is PyTorch's f32 gelu, x * 0.5 * (1 + erf(x * M_SQRT1_2)) with
// every step rounded to float32 (cpu.GeluScalarF32; contiguous f32 runs
// use the vector kernel cpu.GeluF32, the same results).
var geluF32 = cpu.GeluScalarF32

func unary(u *unaryDef, t *Tensor) (*Tensor, error) {
	switch u.kind {
	case ukPred:
		if !t.dtype.IsFloat() {
			// ones_like / zeros_like (preserve_format), as ATen
			out := EmptyPreserve(t, Bool)
			if u == uIsFinite {
				fillRaw(out, 1)
			} else {
				fillRaw(out, 0)
			}
			return out, nil
		}
		out := emptyIter(t.shape, Bool, opOf(t))
		src := t.toDType(computeType(t.dtype))
		o := out.storage.Bools()
		switch src.dtype {
		case F32:
			x := src.storage.F32()
			mapUn(o, x, out, src, func(v float32) bool { return u.p(float64(v)) })
		default:
			x := src.storage.F64()
			mapUn(o, x, out, src, u.p)
		}
		return out, nil
	case ukKeep:
		if t.dtype == Bool {
			if u.noBool {
				if u == uNeg {
					return nil, errorf(RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
				}
				return nil, errorf(RuntimeError, "\"%s_cpu\" not implemented for 'Bool'", u.name)
			}
			if u == uSquare {
				return unary(u, t.toDType(I64))
			}
			return t.ClonePreserve(), nil
		}
		if t.dtype.IsInt() {
			if u.i == nil { // floor, ceil, round, trunc: ATen returns self.clone()
				return t.ClonePreserve(), nil
			}
			out := emptyIter(t.shape, t.dtype, opOf(t))
			unaryInt(u.i, out, t)
			return out, nil
		}
	}
	// float path
	dt := t.dtype
	if !dt.IsFloat() {
		dt = DefaultFloat
	}
	ct := computeType(dt)
	src := t.toDType(ct)
	out := emptyIter(t.shape, ct, opAs(t, dt))
	if !fastUnary(u, out, src) {
		unaryFloatKernel32(u, out, src)
	}
	return out.toDType(dt), nil
}

// computeType maps f16/bf16 to f32 (the dtype kernels compute in).
func computeType(dt DType) DType {
	if dt.IsHalf() {
		return F32
	}
	return dt
}

func unaryFloatKernel32(u *unaryDef, out, src *Tensor) {
	if u.f32 != nil && src.dtype == F32 {
		mapUn(out.storage.F32(), src.storage.F32(), out, src, u.f32)
		return
	}
	unaryFloatKernel(u.f, out, src)
}

func unaryFloatKernel(f func(float64) float64, out, src *Tensor) {
	if src.dtype == F32 {
		mapUn(out.storage.F32(), src.storage.F32(), out, src, func(v float32) float32 { return float32(f(float64(v))) })
	} else {
		mapUn(out.storage.F64(), src.storage.F64(), out, src, f)
	}
}

func unaryInt(f func(int64) int64, out, src *Tensor) {
	switch src.dtype {
	case I8:
		mapUn(out.storage.I8(), src.storage.I8(), out, src, func(v int8) int8 { return int8(f(int64(v))) })
	case I16:
		mapUn(out.storage.I16(), src.storage.I16(), out, src, func(v int16) int16 { return int16(f(int64(v))) })
	case I32:
		mapUn(out.storage.I32(), src.storage.I32(), out, src, func(v int32) int32 { return int32(f(int64(v))) })
	case I64:
		mapUn(out.storage.I64(), src.storage.I64(), out, src, f)
	case U8:
		mapUn(out.storage.U8(), src.storage.U8(), out, src, func(v uint8) uint8 { return uint8(f(int64(v))) })
	}
}

// mapUn applies f elementwise from src into out (same shape): over flat
// runs when both share one dense layout, else along a strided walk in
// out's memory order.
func mapUn[O, T any](o []O, x []T, out, src *Tensor, f func(T) O) {
	n := out.Numel()
	if n == 0 {
		return
	}
	if linearLayout(out, src) {
		oo, xx := o[out.offset:out.offset+n], x[src.offset:src.offset+n]
		parallelFor(n, func(lo, hi int) {
			oo, xx := oo[lo:hi], xx[lo:hi]
			for i := range oo {
				oo[i] = f(xx[i])
			}
		})
		return
	}
	walkEW2(out.shape, out, src, func(po, ps, n, so, ss int) {
		for i := 0; i < n; i++ {
			o[po+i*so] = f(x[ps+i*ss])
		}
	})
}

// Neg returns -t (bool is a RuntimeError), laid out by TensorIterator's
// rule as Exp.
func Neg(t *Tensor) (*Tensor, error) { return unary(uNeg, t) }

// Abs returns |t|.
func Abs(t *Tensor) (*Tensor, error) { return unary(uAbs, t) }

// Sign returns -1, 0 or 1 in t's dtype (0 for NaN and a signed zero for
// +-0, as ATen's (0 < x) - (x < 0)); bool is returned as a copy.
func Sign(t *Tensor) (*Tensor, error) { return unary(uSign, t) }

// Square returns t*t (bool gives i64, as PyTorch's pow(t, 2)).
func Square(t *Tensor) (*Tensor, error) { return unary(uSquare, t) }

// Relu returns max(t, 0) (NaN propagates; bool is a RuntimeError).
func Relu(t *Tensor) (*Tensor, error) { return unary(uRelu, t) }

// Floor rounds toward -inf (integers: a copy).
func Floor(t *Tensor) (*Tensor, error) { return unary(uFloor, t) }

// Ceil rounds toward +inf (integers: a copy).
func Ceil(t *Tensor) (*Tensor, error) { return unary(uCeil, t) }

// Round rounds half to even, as torch.round (integers: a copy).
func Round(t *Tensor) (*Tensor, error) { return unary(uRound, t) }

// Trunc rounds toward zero (integers: a copy).
func Trunc(t *Tensor) (*Tensor, error) { return unary(uTrunc, t) }

// Exp returns e**t (SIMD kernel for f32/f64, within 2 ulp). As every
// unary op, the result keeps a dense t's strides and is dense in the order
// of t's strides otherwise (TensorIterator's rule, ElementwiseStrides):
// t.t().exp() is transposed like t.t().
func Exp(t *Tensor) (*Tensor, error) { return unary(uExp, t) }

// Log returns the natural logarithm (log of a negative number is NaN).
func Log(t *Tensor) (*Tensor, error) { return unary(uLog, t) }

// Log1p returns log(1 + t), accurate near 0.
func Log1p(t *Tensor) (*Tensor, error) { return unary(uLog1p, t) }

// Expm1 returns exp(t) - 1, accurate near 0.
func Expm1(t *Tensor) (*Tensor, error) { return unary(uExpm1, t) }

// Sqrt returns the square root.
func Sqrt(t *Tensor) (*Tensor, error) { return unary(uSqrt, t) }

// rsqrtF32 is PyTorch's float rsqrt: 1 / sqrt(x) in float arithmetic
// (two roundings, not the correctly rounded 1/sqrt).
func rsqrtF32(x float32) float32 { return 1 / float32(math.Sqrt(float64(x))) }

// Rsqrt returns 1/sqrt(t).
func Rsqrt(t *Tensor) (*Tensor, error) { return unary(uRsqrt, t) }

// Sin returns sin(t) (radians).
func Sin(t *Tensor) (*Tensor, error) { return unary(uSin, t) }

// Cos returns cos(t).
func Cos(t *Tensor) (*Tensor, error) { return unary(uCos, t) }

// Tan returns tan(t).
func Tan(t *Tensor) (*Tensor, error) { return unary(uTan, t) }

// Tanh returns tanh(t) (Cephes' formulas, composed from the SIMD kernels
// for f32/f64; within a few ulp, tanh(-0) = -0).
func Tanh(t *Tensor) (*Tensor, error) { return unary(uTanh, t) }

// Sigmoid returns 1/(1+exp(-t)) as PyTorch's vectorized CPU kernel
// computes it, in the compute dtype (f32 for f16, bf16 and integers): exp
// is SLEEF's (ExpSleefF32/F64, torch.exp's), then 1 + e and 1/(1 + e) are
// each rounded (its scalar tail with libm's exp), so the results are
// PyTorch's bit for bit for tensors of up to 65536 elements (larger ones
// take the fused kernels, within a few ulp); 0 below about -88.7 (f32) or
// -709 (f64), where exp(-t) overflows.
func Sigmoid(t *Tensor) (*Tensor, error) { return unary(uSigmoid, t) }

// sigmoidTorch is one element of Sigmoid: 1/(1+exp(-x)) in T with SLEEF's exp.
func sigmoidTorch[T float32 | float64](x T) T {
	var e T
	switch v := any(x).(type) {
	case float32:
		e = T(cpu.ExpSleefF32(-v))
	case float64:
		e = T(cpu.ExpSleefF64(-v))
	}
	return 1 / (1 + e)
}

// Reciprocal returns 1/t (integers give f32).
func Reciprocal(t *Tensor) (*Tensor, error) { return unary(uReciprocal, t) }

// Erf returns the error function.
func Erf(t *Tensor) (*Tensor, error) { return unary(uErf, t) }

// Gelu returns x*Phi(x). approximate is "none" (exact, with erf) or "tanh"
// (Hendrycks & Gimpel's tanh approximation); anything else is a
// RuntimeError.
func Gelu(t *Tensor, approximate string) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		return nil, errorf(RuntimeError, "\"GeluKernelImpl\" not implemented for '%s'", pyTypeName(t.dtype))
	}
	switch approximate {
	case "", "none":
		return unary(uGelu, t)
	case "tanh":
		return unary(uGeluTanh, t)
	}
	return nil, errorf(RuntimeError, "approximate argument must be either none or tanh.")
}

// IsNan returns t != t as bool.
func IsNan(t *Tensor) (*Tensor, error) { return unary(uIsNan, t) }

// IsInf returns whether each element is +-inf.
func IsInf(t *Tensor) (*Tensor, error) { return unary(uIsInf, t) }

// IsFinite returns whether each element is neither NaN nor +-inf.
func IsFinite(t *Tensor) (*Tensor, error) { return unary(uIsFinite, t) }

// LogicalNot returns t == 0 as bool.
func LogicalNot(t *Tensor) (*Tensor, error) {
	b := t.toDType(Bool)
	out := emptyIter(t.shape, Bool, opOf(t))
	mapUn(out.storage.Bools(), b.storage.Bools(), out, b, func(v bool) bool { return !v })
	return out, nil
}

// BitwiseNot returns ~t for integer and bool tensors.
func BitwiseNot(t *Tensor) (*Tensor, error) {
	switch {
	case t.dtype == Bool:
		return LogicalNot(t)
	case t.dtype.IsInt():
		out := emptyIter(t.shape, t.dtype, opOf(t))
		unaryInt(func(x int64) int64 { return ^x }, out, t)
		return out, nil
	}
	return nil, errorf(RuntimeError, "\"bitwise_not_cpu\" not implemented for '%s'", pyTypeName(t.dtype))
}

// NanToNum replaces NaN with nan and +inf/-inf with posinf/neginf; a nil
// posinf/neginf means the dtype's largest/most negative finite value.
// Non-float tensors are returned as a copy.
func NanToNum(t *Tensor, nan float64, posinf, neginf *float64) (*Tensor, error) {
	if !t.dtype.IsFloat() {
		return t.ClonePreserve(), nil
	}
	fi, _ := Finfo(t.dtype)
	pi, ni := fi.Max, fi.Min
	if posinf != nil {
		pi = *posinf
	}
	if neginf != nil {
		ni = *neginf
	}
	f := func(x float64) float64 {
		switch {
		case x != x:
			return nan
		case math.IsInf(x, 1):
			return pi
		case math.IsInf(x, -1):
			return ni
		}
		return x
	}
	ct := computeType(t.dtype)
	src := t.toDType(ct)
	out := emptyIter(t.shape, ct, opOf(t))
	unaryFloatKernel(f, out, src)
	return out.toDType(t.dtype), nil
}
