package tensor

import (
	"math"

	"github.com/tsrlang/tsr/backends/cpu"
)

// Broadcasting binary ops. Each takes two tensors (use ScalarFloat /
// ScalarInt / ScalarBool for Python numbers), broadcasts their shapes,
// computes the result dtype with ResultType (PyTorch promotion; wrapped
// numbers and 0-d tensors have lower priority), and returns a new tensor
// laid out by PyTorch's TensorIterator rule (ElementwiseStrides, layout.go):
// contiguous for contiguous inputs, else following the inputs' strides
// (x.t() + 1 is transposed like x.t()). f16/bf16 are computed in f32 and
// rounded once.

type binOp uint8

const (
	opAdd binOp = iota
	opSub
	opMul
	opDiv
	opFloorDiv
	opRem
	opPow
	opMax
	opMin
	opAtan2
	opHypot
	opFmax
	opFmin
	opLogAddExp
	opTruncDiv
	opFmod
	opCopysign
	opXlogy
	opHeaviside
	opGcd
	opLcm
	opNextafter
	opNextafterBF16
	opLogAddExp2
	opLShift
	opRShift
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opLAnd
	opLOr
	opLXor
	opBAnd
	opBOr
	opBXor
)

var binNames = [...]string{"add", "sub", "mul", "div", "floor_divide", "remainder", "pow", "maximum", "minimum", "atan2", "hypot", "fmax", "fmin", "logaddexp", "div_trunc",
	"fmod", "copysign", "xlogy", "heaviside", "gcd", "lcm", "nextafter", "nextafter", "logaddexp2", "lshift", "rshift",
	"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"}

func (op binOp) isCmp() bool     { return op >= opEq && op <= opGe }
func (op binOp) isLogical() bool { return op >= opLAnd && op <= opLXor }
func (op binOp) isBitwise() bool { return op >= opBAnd }

// binaryTypes returns the compute dtype and the result dtype of op.
func binaryTypes(op binOp, rt DType) (ct, ot DType, err error) {
	ct, ot = rt, rt
	switch {
	case op.isCmp():
		ot = Bool
	case op.isLogical():
		ct, ot = Bool, Bool
		return
	case op.isBitwise():
		if rt.IsFloat() {
			return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for '%s'", binNames[op], pyTypeName(rt))
		}
		return
	case op == opDiv || op == opAtan2 || op == opCopysign || op == opXlogy:
		if !rt.IsFloat() {
			ct, ot = DefaultFloat, DefaultFloat
		}
	case op == opGcd || op == opLcm:
		if rt.IsFloat() || rt == Bool {
			return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for '%s'", binNames[op], pyTypeName(rt))
		}
	case op == opNextafter || op == opNextafterBF16:
		if !rt.IsFloat() || rt == F16 {
			return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for '%s'", binNames[op], pyTypeName(rt))
		}
	case op == opLShift || op == opRShift:
		if rt.IsFloat() || rt == Bool {
			return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for '%s'", binNames[op], pyTypeName(rt))
		}
	case op == opHypot || op == opLogAddExp || op == opLogAddExp2:
		if !rt.IsFloat() {
			return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for '%s'", binNames[op], pyTypeName(rt))
		}
	case op == opSub && rt == Bool:
		return 0, 0, errorf(RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
	case (op == opFloorDiv || op == opRem || op == opPow || op == opTruncDiv || op == opFmod) && rt == Bool:
		return 0, 0, errorf(RuntimeError, "\"%s_cpu\" not implemented for 'Bool'", binNames[op])
	}
	if ct.IsHalf() {
		ct = F32
	}
	return
}

func binary(op binOp, a, b *Tensor) (*Tensor, error) {
	if r := binaryScalarFast(op, a, b); r != nil {
		return r, nil
	}
	shape, err := BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	rt := ResultType(a, b)
	ct, ot, err := binaryTypes(op, rt)
	if err != nil {
		return nil, err
	}
	if op == opSub && (a.dtype == Bool || b.dtype == Bool) {
		return nil, errorf(RuntimeError, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	if op == opPow && !ct.IsFloat() && b.wrapped && b.FlatInt64(0) < 0 {
		return nil, errorf(RuntimeError, "Integers to negative integer powers are not allowed.")
	}
	if op == opPow {
		if r, ok, err := powScalarSpecial(a, b, ot); ok {
			return r, err
		}
		if r := fastPowScalar(a, b, ct, ot); r != nil {
			return r, nil
		}
	}
	// The layout is TensorIterator's over the inputs converted to the
	// common dtype (integers to the default float for div and atan2).
	common := rt
	if (op == opDiv || op == opAtan2 || op == opCopysign || op == opXlogy) && !rt.IsFloat() {
		common = DefaultFloat
	}
	ac := broadcastTo(a.toDType(ct), shape)
	bc := broadcastTo(b.toDType(ct), shape)
	outDT := ct
	if op.isCmp() {
		outDT = Bool
	}
	out := emptyIter(shape, outDT, opAs(a, common), opAs(b, common))
	if err := binaryKernel(op, out, ac, bc); err != nil {
		return nil, err
	}
	return out.toDType(ot), nil
}

// binaryScalarFast is binary's path for the commonest small-tensor op: a
// contiguous f32/f64 tensor and a Python number (x * 2.0, 1 - x) under
// + - * /. It skips the general path's 0-d conversion and broadcast views
// (a third of the time of an op on a few elements) and returns what that
// path returns: a contiguous result of the tensor's dtype computed with the
// number converted to it (ints directly, as the cast would); nil when the
// operands do not qualify.
func binaryScalarFast(op binOp, a, b *Tensor) *Tensor {
	if op != opAdd && op != opSub && op != opMul && op != opDiv || !fastPathsOn() {
		return nil
	}
	t, s, left := a, b, false
	if a.wrapped {
		t, s, left = b, a, true
	}
	if !s.wrapped || t.wrapped || t.dtype != F32 && t.dtype != F64 || !rowMajor(t.shape, t.strides) || t.Numel() == 0 ||
		op == opSub && s.dtype == Bool { // an error, from the general path
		return nil
	}
	out := empty(t.shape, t.dtype)
	n := out.Numel()
	if t.dtype == F32 {
		var v float32
		switch s.dtype {
		case I64:
			v = float32(s.FlatInt64(0))
		default: // F64, Bool
			v = float32(s.FlatFloat64(0))
		}
		scalarRun(opsF32, op, out.storage.F32()[:n], t.storage.F32()[t.offset:t.offset+n], v, left)
	} else {
		var v float64
		switch s.dtype {
		case I64:
			v = float64(s.FlatInt64(0))
		default:
			v = s.FlatFloat64(0)
		}
		scalarRun(opsF64, op, out.storage.F64()[:n], t.storage.F64()[t.offset:t.offset+n], v, left)
	}
	return out
}

// rowMajor reports whether strides are exactly the row-major strides of
// shape, size-1 dims included. binaryScalarFast needs this rather than
// IsContiguous: a contiguous tensor whose size-1 dim has another stride
// (x.unsqueeze(1).permute(0, 2, 1, 3)) gets TensorIterator's layout from
// the general path (shapes differ from the 0-d number's, so no fast
// set-up), e.g. (12, 4, 12, 1) for [2, 3, 1, 4] as in PyTorch, not (12,
// 4, 4, 1).
func rowMajor(shape, strides []int) bool {
	exp := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if strides[i] != exp {
			return false
		}
		exp *= shape[i]
	}
	return true
}

// scalarRun sets o = x op s (or s op x when left), split over workers.
func scalarRun[T vfloat](k *vecOps[T], op binOp, o, x []T, s T, left bool) {
	if len(o) < grainMem { // serial, and no closure to allocate
		if left {
			binScalarLeft(k, op, o, s, x)
		} else {
			binScalarRight(k, op, o, x, s)
		}
		return
	}
	parallelSlice(o, grainMem, func(lo, hi int) {
		if left {
			binScalarLeft(k, op, o[lo:hi], s, x[lo:hi])
		} else {
			binScalarRight(k, op, o[lo:hi], x[lo:hi], s)
		}
	})
}

// binaryKernel computes out = a op b; a and b have dtype ct and out's
// shape; out has dtype ct (arithmetic) or Bool (comparisons).
func binaryKernel(op binOp, out, a, b *Tensor) error {
	if fastBinary(op, out, a, b) {
		return nil
	}
	switch a.dtype {
	case F32:
		return binT(op, out, a, b, a.storage.F32(), b.storage.F32())
	case F64:
		return binT(op, out, a, b, a.storage.F64(), b.storage.F64())
	case I8:
		return binInt(op, out, a, b, a.storage.I8(), b.storage.I8())
	case I16:
		return binInt(op, out, a, b, a.storage.I16(), b.storage.I16())
	case I32:
		return binInt(op, out, a, b, a.storage.I32(), b.storage.I32())
	case I64:
		return binInt(op, out, a, b, a.storage.I64(), b.storage.I64())
	case U8:
		return binInt(op, out, a, b, a.storage.U8(), b.storage.U8())
	case Bool:
		return binBool(op, out, a, b)
	}
	return errorf(RuntimeError, "%s: unsupported dtype %s", binNames[op], a.dtype)
}

type intNum interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8
}

func binInt[T intNum](op binOp, out, a, b *Tensor, x, y []T) error {
	if op.isBitwise() {
		var f func(p, q T) T
		switch op {
		case opBAnd:
			f = func(p, q T) T { return p & q }
		case opBOr:
			f = func(p, q T) T { return p | q }
		default:
			f = func(p, q T) T { return p ^ q }
		}
		mapBin(typed[T](out.storage), x, y, out, a, b, f)
		return nil
	}
	switch op {
	case opGcd:
		mapBin(typed[T](out.storage), x, y, out, a, b, gcdInt[T])
		return nil
	case opLcm:
		mapBin(typed[T](out.storage), x, y, out, a, b, lcmInt[T])
		return nil
	case opLShift:
		mapBin(typed[T](out.storage), x, y, out, a, b, shiftLeft[T])
		return nil
	case opRShift:
		mapBin(typed[T](out.storage), x, y, out, a, b, shiftRight[T])
		return nil
	}
	return binT(op, out, a, b, x, y)
}

func isFloatT[T num]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

func binT[T num](op binOp, out, a, b *Tensor, x, y []T) error {
	if op.isCmp() {
		if fastCmpScalar(op, out, a, b, x, y) || fastCmp(op, out, a, b, x, y) {
			return nil
		}
		o := out.storage.Bools()
		var f func(p, q T) bool
		switch op {
		case opEq:
			f = func(p, q T) bool { return p == q }
		case opNe:
			f = func(p, q T) bool { return p != q }
		case opLt:
			f = func(p, q T) bool { return p < q }
		case opLe:
			f = func(p, q T) bool { return p <= q }
		case opGt:
			f = func(p, q T) bool { return p > q }
		default:
			f = func(p, q T) bool { return p >= q }
		}
		mapBin(o, x, y, out, a, b, f)
		return nil
	}
	o := typed[T](out.storage)
	switch op {
	case opAdd, opSub, opMul, opDiv:
		fastArith(op, o, x, y, out, a, b)
		return nil
	}
	fl := isFloatT[T]()
	var f func(p, q T) T
	zeroDiv := false
	switch op {
	case opMax:
		f = func(p, q T) T {
			if p != p || p > q {
				return p
			}
			return q
		}
	case opMin:
		f = func(p, q T) T {
			if p != p || p < q {
				return p
			}
			return q
		}
	case opPow:
		if fl {
			f = func(p, q T) T { // within 0.52 ulp (math.Pow: up to thousands)
				if p32, ok := any(p).(float32); ok {
					return T(cpu.Pow32(p32, float32(q))) // the fast path's kernel
				}
				return T(cpu.Pow64(float64(p), float64(q)))
			}
		} else {
			f = func(p, q T) T { return T(ipow(int64(p), int64(q))) }
		}
	case opAtan2:
		f = func(p, q T) T { return T(cpu.Atan2(float64(p), float64(q))) } // atan2(-0+, -x) = -π, as C
	case opHypot:
		f = func(p, q T) T { return T(math.Hypot(float64(p), float64(q))) }
	case opLogAddExp:
		f = func(p, q T) T { return T(logAddExp(float64(p), float64(q))) }
	case opLogAddExp2:
		var z T
		if _, f32 := any(z).(float32); f32 {
			f = func(p, q T) T { return T(logAddExp2(float32(p), float32(q))) }
		} else {
			f = func(p, q T) T { return T(logAddExp2(float64(p), float64(q))) }
		}
	case opFmax: // NaN only when both are NaN; a tie (-0 vs 0) keeps p, as PyTorch's vector kernel
		f = func(p, q T) T {
			if q != q || p >= q {
				return p
			}
			return q
		}
	case opFmin:
		f = func(p, q T) T {
			if q != q || p <= q {
				return p
			}
			return q
		}
	case opFloorDiv:
		if fl {
			f = func(p, q T) T { return T(floorDivFloat(float64(p), float64(q))) }
		} else {
			f = func(p, q T) T {
				if q == 0 {
					zeroDiv = true
					return 0
				}
				pi, qi := int64(p), int64(q)
				d := pi / qi
				if pi%qi != 0 && (pi < 0) != (qi < 0) {
					d--
				}
				return T(d)
			}
		}
	case opTruncDiv:
		if fl {
			f = func(p, q T) T { return T(math.Trunc(float64(p) / float64(q))) }
		} else {
			f = func(p, q T) T {
				if q == 0 {
					zeroDiv = true
					return 0
				}
				return T(int64(p) / int64(q))
			}
		}
	case opRem:
		if fl {
			f = func(p, q T) T { return T(remFloat(float64(p), float64(q))) }
		} else {
			f = func(p, q T) T {
				if q == 0 {
					zeroDiv = true
					return 0
				}
				qi := int64(q)
				r := int64(p) % qi
				if r != 0 && (r < 0) != (qi < 0) {
					r += qi
				}
				return T(r)
			}
		}
	case opFmod: // C fmod: the sign of the dividend
		if fl {
			f = func(p, q T) T { return T(math.Mod(float64(p), float64(q))) }
		} else {
			f = func(p, q T) T {
				if q == 0 {
					zeroDiv = true
					return 0
				}
				return T(int64(p) % int64(q))
			}
		}
	case opNextafter: // float dtypes only (binaryTypes); C nextafter: y when x == y
		var z T
		if _, f32 := any(z).(float32); f32 {
			f = func(p, q T) T {
				if p == q {
					return q
				}
				return T(math.Nextafter32(float32(p), float32(q)))
			}
		} else {
			f = func(p, q T) T {
				if p == q {
					return q
				}
				return T(math.Nextafter(float64(p), float64(q)))
			}
		}
	case opNextafterBF16: // bf16 values held in f32: step one bf16 ulp
		f = func(p, q T) T { return T(nextafterBF16(float32(p), float32(q))) }
	case opCopysign: // float dtypes only (binaryTypes)
		f = func(p, q T) T { return T(math.Copysign(float64(p), float64(q))) }
	case opXlogy: // ATen's xlogy kernel, in the dtype's own arithmetic
		f = func(p, q T) T {
			if q != q {
				return T(math.NaN())
			}
			if p == 0 {
				return 0
			}
			return p * T(cpu.Log64(float64(q)))
		}
	case opHeaviside: // ATen: a == 0 ? b : (a > 0); NaN gives 0
		f = func(p, q T) T {
			if p == 0 {
				return q
			}
			if p > 0 {
				return 1
			}
			return 0
		}
	default:
		return errorf(RuntimeError, "%s: not supported for %T", binNames[op], x)
	}
	mapBin(o, x, y, out, a, b, f)
	if zeroDiv {
		return errorf(RuntimeError, "ZeroDivisionError")
	}
	return nil
}

// powScalarSpecial is ATen's pow_tensor_scalar_kernel for a Python-number
// exponent b and a result dtype dt of f32, f64 or bf16: 0.5, -0.5 and -1
// dispatch to sqrt, rsqrt and reciprocal (so (-0.0) ** 0.5 is -0.0 and
// (-inf) ** 0.5 is nan, unlike C pow), and 2, 3, -2 are x*x, x*x*x and
// 1/(x*x) in dt's own arithmetic (rounded after each step). f16 uses C
// pow throughout, as PyTorch 1.13 does. ok is false when none applies.
func powScalarSpecial(a, b *Tensor, dt DType) (r *Tensor, ok bool, err error) {
	if !b.wrapped || (dt != F32 && dt != F64 && dt != BF16) {
		return nil, false, nil
	}
	x := a.toDType(dt)
	mul := func(p, q *Tensor) *Tensor {
		r, err := binary(opMul, p, q)
		if err != nil {
			panic(err) // same shape and float dtype: cannot fail
		}
		return r
	}
	switch b.FlatFloat64(0) {
	case 0.5:
		r, err = Sqrt(x)
	case -0.5:
		r, err = Rsqrt(x)
	case -1:
		r, err = Reciprocal(x)
	case 2:
		r = mul(x, x)
	case 3:
		r = mul(mul(x, x), x)
	case -2:
		r, err = Reciprocal(mul(x, x))
	default:
		return nil, false, nil
	}
	if err == nil && r.dtype != dt {
		r = r.toDType(dt)
	}
	return r, true, err
}

// floorDivFloat is ATen's div_floor_floating.
func floorDivFloat(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fd := math.Floor(div)
	if div-fd > 0.5 {
		fd++
	}
	return fd
}

// remFloat is Python's float modulo (result has the divisor's sign).
func remFloat(a, b float64) float64 {
	mod := math.Mod(a, b)
	if mod != 0 && (b < 0) != (mod < 0) {
		mod += b
	}
	return mod
}

// ipow is integer power with wrap-around; negative exponents follow ATen's
// kernel (1 for base 1, +-1 for base -1, else 0).
func ipow(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for b > 0 {
		if b&1 != 0 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

func binBool(op binOp, out, a, b *Tensor) error {
	x, y := a.storage.Bools(), b.storage.Bools()
	o := out.storage.Bools()
	var f func(p, q bool) bool
	switch op {
	case opAdd, opMax, opLOr, opBOr:
		f = func(p, q bool) bool { return p || q }
	case opMul, opMin, opLAnd, opBAnd:
		f = func(p, q bool) bool { return p && q }
	case opHeaviside: // a == 0 ? b : a > 0
		f = func(p, q bool) bool { return p || q }
	case opLXor, opBXor, opNe:
		f = func(p, q bool) bool { return p != q }
	case opEq:
		f = func(p, q bool) bool { return p == q }
	case opLt:
		f = func(p, q bool) bool { return !p && q }
	case opLe:
		f = func(p, q bool) bool { return !p || q }
	case opGt:
		f = func(p, q bool) bool { return p && !q }
	case opGe:
		f = func(p, q bool) bool { return p || !q }
	default:
		return errorf(RuntimeError, "\"%s_cpu\" not implemented for 'Bool'", binNames[op])
	}
	mapBin(o, x, y, out, a, b, f)
	return nil
}

// mapBin applies f elementwise over three same-shape operands: over flat
// runs of storage when they share one dense layout (linearLayout), else
// along a strided walk in out's memory order.
func mapBin[O, T any](o []O, x, y []T, out, a, b *Tensor, f func(p, q T) O) {
	n := out.Numel()
	if n > 0 && linearLayout(out, a, b) {
		oo, xx, yy := o[out.offset:out.offset+n], x[a.offset:a.offset+n], y[b.offset:b.offset+n]
		parallelFor(n, func(lo, hi int) {
			oo, xx, yy := oo[lo:hi], xx[lo:hi], yy[lo:hi]
			for i := range oo {
				oo[i] = f(xx[i], yy[i])
			}
		})
		return
	}
	walkEW(out.shape, 3, [3][]int{out.strides, a.strides, b.strides}, [3]int{out.offset, a.offset, b.offset},
		func(po, pa, pb, n, so, sa, sb int) {
			for i := 0; i < n; i++ {
				o[po+i*so] = f(x[pa+i*sa], y[pb+i*sb])
			}
		})
}

// fastArith is the hot path for + - * / : typed loops without function
// calls, split over goroutines when large and contiguous (or sharing one
// dense layout).
func fastArith[T num](op binOp, o, x, y []T, out, a, b *Tensor) {
	n := out.Numel()
	if n == 0 {
		return
	}
	if linearLayout(out, a, b) {
		oo, xx, yy := o[out.offset:out.offset+n], x[a.offset:a.offset+n], y[b.offset:b.offset+n]
		parallelFor(n, func(lo, hi int) { arithVec(op, oo[lo:hi], xx[lo:hi], yy[lo:hi]) })
		return
	}
	if d := outerDim(out); n >= parallelGrain && GetNumThreads() > 1 && d >= 0 && out.shape[d] > 1 {
		// split out's outermost dim in memory (dim 0 of a contiguous
		// result, the last of a transposed one) across goroutines
		parallelTasks(out.shape[d], n/out.shape[d], parallelGrain, func(r0, r1 int) {
			arithStrided(op, o, x, y, narrowDim(out, d, r0, r1), narrowDim(a, d, r0, r1), narrowDim(b, d, r0, r1))
		})
		return
	}
	arithStrided(op, o, x, y, out, a, b)
}

// outerDim returns the dim of a dense t with the largest stride (0 for a
// contiguous t), or -1 when t is 0-d or not dense.
func outerDim(t *Tensor) int {
	if len(t.shape) == 0 {
		return -1
	}
	if t.IsContiguous() {
		return 0
	}
	if !nonOverlappingDense(t.shape, t.strides) {
		return -1
	}
	d := 0
	for i, s := range t.strides {
		if t.shape[i] > 1 && (t.shape[d] <= 1 || s > t.strides[d]) {
			d = i
		}
	}
	return d
}

// narrowDim is a cheap metadata-only slice of dim d (internal, no base).
func narrowDim(t *Tensor, d, lo, hi int) *Tensor {
	sh := append([]int(nil), t.shape...)
	sh[d] = hi - lo
	return &Tensor{storage: t.storage, shape: sh, strides: t.strides, offset: t.offset + lo*t.strides[d], dtype: t.dtype}
}

func arithStrided[T num](op binOp, o, x, y []T, out, a, b *Tensor) {
	walkEW(out.shape, 3, [3][]int{out.strides, a.strides, b.strides}, [3]int{out.offset, a.offset, b.offset},
		func(po, pa, pb, n, so, sa, sb int) {
			if so == 1 && sa == 1 && sb == 1 {
				arithVec(op, o[po:po+n], x[pa:pa+n], y[pb:pb+n])
				return
			}
			if so == 1 && sa == 1 && sb == 0 {
				arithScalar(op, o[po:po+n], x[pa:pa+n], y[pb])
				return
			}
			switch op {
			case opAdd:
				for i := 0; i < n; i++ {
					o[po+i*so] = x[pa+i*sa] + y[pb+i*sb]
				}
			case opSub:
				for i := 0; i < n; i++ {
					o[po+i*so] = x[pa+i*sa] - y[pb+i*sb]
				}
			case opMul:
				for i := 0; i < n; i++ {
					o[po+i*so] = x[pa+i*sa] * y[pb+i*sb]
				}
			case opDiv:
				for i := 0; i < n; i++ {
					o[po+i*so] = x[pa+i*sa] / y[pb+i*sb]
				}
			}
		})
}

func arithVec[T num](op binOp, o, x, y []T) {
	x = x[:len(o)]
	y = y[:len(o)]
	switch op {
	case opAdd:
		i := 0
		for ; i+4 <= len(o); i += 4 {
			o0, x0, y0 := o[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
			o0[0] = x0[0] + y0[0]
			o0[1] = x0[1] + y0[1]
			o0[2] = x0[2] + y0[2]
			o0[3] = x0[3] + y0[3]
		}
		for ; i < len(o); i++ {
			o[i] = x[i] + y[i]
		}
	case opSub:
		i := 0
		for ; i+4 <= len(o); i += 4 {
			o0, x0, y0 := o[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
			o0[0] = x0[0] - y0[0]
			o0[1] = x0[1] - y0[1]
			o0[2] = x0[2] - y0[2]
			o0[3] = x0[3] - y0[3]
		}
		for ; i < len(o); i++ {
			o[i] = x[i] - y[i]
		}
	case opMul:
		i := 0
		for ; i+4 <= len(o); i += 4 {
			o0, x0, y0 := o[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
			o0[0] = x0[0] * y0[0]
			o0[1] = x0[1] * y0[1]
			o0[2] = x0[2] * y0[2]
			o0[3] = x0[3] * y0[3]
		}
		for ; i < len(o); i++ {
			o[i] = x[i] * y[i]
		}
	case opDiv:
		i := 0
		for ; i+4 <= len(o); i += 4 {
			o0, x0, y0 := o[i:i+4:i+4], x[i:i+4:i+4], y[i:i+4:i+4]
			o0[0] = x0[0] / y0[0]
			o0[1] = x0[1] / y0[1]
			o0[2] = x0[2] / y0[2]
			o0[3] = x0[3] / y0[3]
		}
		for ; i < len(o); i++ {
			o[i] = x[i] / y[i]
		}
	}
}

func arithScalar[T num](op binOp, o, x []T, y T) {
	x = x[:len(o)]
	switch op {
	case opAdd:
		for i := range o {
			o[i] = x[i] + y
		}
	case opSub:
		for i := range o {
			o[i] = x[i] - y
		}
	case opMul:
		for i := range o {
			o[i] = x[i] * y
		}
	case opDiv:
		for i := range o {
			o[i] = x[i] / y
		}
	}
}

// Add returns a + b (broadcast, promoted). Bool + bool is logical or. As
// every elementwise op, the result is laid out by PyTorch's TensorIterator
// rule (ElementwiseStrides): contiguous for contiguous inputs, transposed
// for x.t() + 1, following the first input that orders the dims.
func Add(a, b *Tensor) (*Tensor, error) { return binary(opAdd, a, b) }

// Sub returns a - b. Two bool operands are a RuntimeError.
func Sub(a, b *Tensor) (*Tensor, error) { return binary(opSub, a, b) }

// Mul returns a * b. Bool * bool is logical and.
func Mul(a, b *Tensor) (*Tensor, error) { return binary(opMul, a, b) }

// Div returns a / b as true division: integer and bool inputs give the
// default float dtype (f32).
func Div(a, b *Tensor) (*Tensor, error) { return binary(opDiv, a, b) }

// FloorDivide returns floor(a / b) (Python's //). Integer division by zero
// is a RuntimeError "ZeroDivisionError".
func FloorDivide(a, b *Tensor) (*Tensor, error) { return binary(opFloorDiv, a, b) }

// TruncDivide returns a / b rounded toward zero (div with
// rounding_mode="trunc"). Integer inputs divide exactly in integers (the
// result keeps the promoted integer dtype; division by zero is a
// RuntimeError "ZeroDivisionError"), as PyTorch's div_trunc kernel.
func TruncDivide(a, b *Tensor) (*Tensor, error) { return binary(opTruncDiv, a, b) }

// Remainder returns a mod b with the sign of b (Python's %).
func Remainder(a, b *Tensor) (*Tensor, error) { return binary(opRem, a, b) }

// Pow returns a ** b. For integer dtypes a negative Python-int exponent is
// a RuntimeError, as in PyTorch.
func Pow(a, b *Tensor) (*Tensor, error) { return binary(opPow, a, b) }

// Maximum returns the elementwise maximum (NaN propagates).
func Maximum(a, b *Tensor) (*Tensor, error) { return binary(opMax, a, b) }

// Minimum returns the elementwise minimum (NaN propagates).
func Minimum(a, b *Tensor) (*Tensor, error) { return binary(opMin, a, b) }

// Hypot returns sqrt(a**2 + b**2) without overflow (float dtypes only).
func Hypot(a, b *Tensor) (*Tensor, error) { return binary(opHypot, a, b) }

// Fmax is the elementwise maximum ignoring NaN (NaN only where both are).
func Fmax(a, b *Tensor) (*Tensor, error) { return binary(opFmax, a, b) }

// Fmin is the elementwise minimum ignoring NaN (NaN only where both are).
func Fmin(a, b *Tensor) (*Tensor, error) { return binary(opFmin, a, b) }

// LogAddExp2 returns log2(2**a + 2**b) elementwise, computed as ATen's
// logaddexp2 kernel: max(a, b) + log2(1 + 2**-|a - b|), each step rounded
// to the compute dtype, and a itself when a and b are the same infinity
// (float dtypes only; f16 and bf16 computed in f32; integer or bool
// operands are a RuntimeError).
func LogAddExp2(a, b *Tensor) (*Tensor, error) { return binary(opLogAddExp2, a, b) }

// logAddExp2 is ATen's scalar logaddexp2 in T: pow and log2 rounded
// once from float64 (as the correctly rounded results glibc and SLEEF's
// u10 functions nearly always give; log2 as Log/ln 2, since Go's Log2
// cancels just above 1), the subtraction, the 1 + and the final addition
// in T.
func logAddExp2[T float32 | float64](a, b T) T {
	if math.IsInf(float64(a), 0) && a == b {
		return a
	}
	if a != a || b != b {
		return T(math.NaN())
	}
	m := max(a, b)
	d := a - b
	if d < 0 {
		d = -d
	}
	e := T(math.Exp2(-float64(d)))
	return m + T(math.Log(float64(1+e))/math.Ln2) // Go's Log2 loses bits just above 1
}

// BitwiseLeftShift returns a << b elementwise (torch.bitwise_left_shift;
// integer dtypes, broadcast and promoted). As PyTorch 1.13's CPU kernel
// computes it in C++: int8, int16, int32 and uint8 are shifted as 32-bit
// int (int64 as 64-bit), the count taken modulo 32 (64) as x86 does
// (so a negative count is a large one, -1 shifting by 31 or 63), and the
// result truncated to the dtype. Float and bool operands are a
// RuntimeError ("lshift_cpu" not implemented).
func BitwiseLeftShift(a, b *Tensor) (*Tensor, error) { return binary(opLShift, a, b) }

// BitwiseRightShift returns a >> b elementwise, arithmetic for signed
// dtypes, with BitwiseLeftShift's promotion and count rules.
func BitwiseRightShift(a, b *Tensor) (*Tensor, error) { return binary(opRShift, a, b) }

func shiftLeft[T intNum](p, q T) T {
	if _, ok := any(p).(int64); ok {
		return T(uint64(p) << (uint64(q) & 63))
	}
	return T(int32(uint32(int32(p)) << (uint32(int32(q)) & 31)))
}

func shiftRight[T intNum](p, q T) T {
	if _, ok := any(p).(int64); ok {
		return T(int64(p) >> (uint64(q) & 63))
	}
	return T(int32(p) >> (uint32(int32(q)) & 31))
}

// LogAddExp returns log(exp(a) + exp(b)) computed stably (float dtypes
// only).
func LogAddExp(a, b *Tensor) (*Tensor, error) { return binary(opLogAddExp, a, b) }

// Atan2 returns atan2(a, b) in radians; integer inputs give f32.
func Atan2(a, b *Tensor) (*Tensor, error) { return binary(opAtan2, a, b) }

// Eq returns a == b as a bool tensor (computed in the promoted dtype),
// laid out by TensorIterator's rule (ElementwiseStrides) as Add.
func Eq(a, b *Tensor) (*Tensor, error) { return binary(opEq, a, b) }

// Ne returns a != b as bool.
func Ne(a, b *Tensor) (*Tensor, error) { return binary(opNe, a, b) }

// Lt returns a < b as bool.
func Lt(a, b *Tensor) (*Tensor, error) { return binary(opLt, a, b) }

// Le returns a <= b as bool.
func Le(a, b *Tensor) (*Tensor, error) { return binary(opLe, a, b) }

// Gt returns a > b as bool.
func Gt(a, b *Tensor) (*Tensor, error) { return binary(opGt, a, b) }

// Ge returns a >= b as bool.
func Ge(a, b *Tensor) (*Tensor, error) { return binary(opGe, a, b) }

// LogicalAnd returns (a != 0) && (b != 0) as bool.
func LogicalAnd(a, b *Tensor) (*Tensor, error) { return binary(opLAnd, a, b) }

// LogicalOr returns (a != 0) || (b != 0) as bool.
func LogicalOr(a, b *Tensor) (*Tensor, error) { return binary(opLOr, a, b) }

// LogicalXor returns (a != 0) != (b != 0) as bool.
func LogicalXor(a, b *Tensor) (*Tensor, error) { return binary(opLXor, a, b) }

// BitwiseAnd returns a & b for integer or bool tensors (float is a
// RuntimeError).
func BitwiseAnd(a, b *Tensor) (*Tensor, error) { return binary(opBAnd, a, b) }

// BitwiseOr returns a | b for integer or bool tensors.
func BitwiseOr(a, b *Tensor) (*Tensor, error) { return binary(opBOr, a, b) }

// BitwiseXor returns a ^ b for integer or bool tensors.
func BitwiseXor(a, b *Tensor) (*Tensor, error) { return binary(opBXor, a, b) }
