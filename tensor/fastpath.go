package tensor

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
	"github.com/tsrlang/tsr/internal/xmath"
)

// SIMD fast paths for f32 and f64. The generic kernels (binary.go,
// unary.go, reduce.go) handle every dtype and layout and stay the
// reference; for f32/f64 the hot cases are routed here, to the vector
// kernels of backends/cpu (AVX-512, AVX2 or pure Go, chosen by the
// backends registry), and split over GetNumThreads goroutines in chunks
// whose boundaries are 64-byte aligned:
//
//   - add/sub/mul/div and maximum/minimum (and their in-place forms):
//     contiguous operands, a
//     broadcast scalar on either side, and strided layouts whose output
//     rows are unit-stride, with the kernel applied to every contiguous
//     run of at least minKernelRun elements (bias rows, column scalars).
//     Layouts with a transposed operand stay on the generic kernel, whose
//     cache-tiled walk measured faster than packing tiles for the kernels;
//   - exp, tanh, sigmoid, log, sqrt, sin, cos and tan, f32 erf and gelu
//     (one fused kernel each), and pow with a number exponent (fastPowScalar);
//   - sum, mean, amax/amin, max/min(dim), argmax/argmin and logsumexp over
//     a block of consecutive dims of a contiguous tensor: the whole
//     tensor, trailing dims (one kernel call per row) and leading or
//     middle dims (rows accumulated into an output vector with the vector
//     kernels, e.g. MaximumF32 for amax, instead of gathering each
//     output's strided elements);
//   - softmax and log_softmax over any dim (row kernels for the last dim,
//     column-block passes for other dims, a transpose for short columns).
//
// fastPathsOff switches them off, so tests compare fast and generic
// results on the same inputs.

var fastPathsOff atomic.Bool

func fastPathsOn() bool { return !fastPathsOff.Load() }

// vfloat is the element type of the vector kernels.
type vfloat interface{ float32 | float64 }

// vecOps is the kernel table of one float dtype.
type vecOps[T vfloat] struct {
	bin        [opAtan2 + 1]func(dst, a, b []T) // by binOp: add, sub, mul, div, pow, maximum, minimum, atan2 (nil: none)
	addScalar  func(dst, a []T, s T)
	mulScalar  func(dst, a []T, s T)
	exp        func(dst, x []T)
	tanh       func(dst, x []T)
	sigmoid    func(dst, x []T)
	log        func(dst, x []T)
	sqrt       func(dst, x []T)
	erf, gelu  func(dst, x []T) // nil for f64 (the scalar kernels are the same math.Erf)
	sin, cos   func(dst, x []T)
	tan        func(dst, x []T)
	geluTanh   func(dst, x []T)      // gelu(approximate="tanh")
	powScalar  func(dst, x []T, y T) // x ** y for a number y (not 0.5, -0.5, -1, 2, 3, -2: powScalarSpecial)
	abs        func(dst, x []T)
	round      [4]func(dst, x []T)        // by cpu.RoundMode: round (half even), floor, ceil, trunc
	clamp      func(dst, x []T, lo, hi T) // x86 MIN(hi, MAX(lo, x)): NaN x passes
	sum, max   func(x []T) T
	prod       func(x []T) T
	softmax    func(dst, x []T, rows, cols int)
	logSoftmax func(dst, x []T, rows, cols int)
	logSumExp  func(dst, x []T, rows, cols int)
}

var opsF32 = &vecOps[float32]{
	bin: [...]func(dst, a, b []float32){opAdd: cpu.AddF32, opSub: cpu.SubF32, opMul: cpu.MulF32, opDiv: cpu.DivF32,
		opMax: cpu.MaximumF32, opMin: cpu.MinimumF32, opAtan2: cpu.Atan2F32, opPow: cpu.PowF32},
	addScalar: cpu.AddScalarF32, mulScalar: cpu.MulScalarF32,
	exp: cpu.ExpF32, tanh: cpu.TanhF32, sigmoid: cpu.SigmoidF32, log: cpu.LogF32, sqrt: cpu.SqrtF32,
	abs: cpu.AbsF32, clamp: cpu.ClampF32, erf: cpu.ErfF32, gelu: cpu.GeluF32,
	sin: cpu.SinF32, cos: cpu.CosF32, tan: cpu.TanF32, powScalar: cpu.PowScalarF32, geluTanh: cpu.GeluTanhF32,
	round: roundKernels(cpu.RoundF32),
	sum:   cpu.SumF32, max: cpu.MaxF32, prod: cpu.ProdF32,
	softmax: cpu.SoftmaxRowsF32, logSoftmax: cpu.LogSoftmaxRowsF32, logSumExp: cpu.LogSumExpRowsF32,
}

var opsF64 = &vecOps[float64]{
	bin: [...]func(dst, a, b []float64){opAdd: cpu.AddF64, opSub: cpu.SubF64, opMul: cpu.MulF64, opDiv: cpu.DivF64,
		opMax: cpu.MaximumF64, opMin: cpu.MinimumF64, opAtan2: cpu.Atan2F64, opPow: cpu.PowF64},
	addScalar: cpu.AddScalarF64, mulScalar: cpu.MulScalarF64,
	exp: cpu.ExpF64, tanh: cpu.TanhF64, sigmoid: cpu.SigmoidF64, log: cpu.LogF64, sqrt: cpu.SqrtF64,
	abs: cpu.AbsF64, clamp: cpu.ClampF64,
	sin: cpu.SinF64, cos: cpu.CosF64, tan: cpu.TanF64, powScalar: cpu.PowScalarF64, geluTanh: cpu.GeluTanhF64,
	round: roundKernels(cpu.RoundF64),
	sum:   cpu.SumF64, max: cpu.MaxF64, prod: cpu.ProdF64,
	softmax: cpu.SoftmaxRowsF64, logSoftmax: cpu.LogSoftmaxRowsF64, logSumExp: cpu.LogSumExpRowsF64,
}

// roundKernels binds each rounding mode of f (cpu.RoundF32 / RoundF64).
func roundKernels[T vfloat](f func(dst, x []T, m cpu.RoundMode)) (k [4]func(dst, x []T)) {
	for m := range k {
		k[m] = func(dst, x []T) { f(dst, x, cpu.RoundMode(m)) }
	}
	return k
}

// Work sizes (in elements) below which a kernel stays on one goroutine:
// memory-bound kernels need more work per goroutine than exp-heavy ones.
const (
	grainMem     = parallelGrain
	grainCompute = 1 << 14
)

// minKernelRun is the shortest contiguous run handed to a vector kernel
// from a strided walk; shorter runs use scalar loops.
const minKernelRun = 16

// alignedBounds splits [0, n) into up to GetNumThreads chunks when n is
// at least grain and returns the chunk boundaries (0, ..., n). Interior
// boundaries fall on 64-byte addresses of a slice whose element 0 is at
// base (elements of isz bytes), so no cache line is written by two
// goroutines and every chunk but the first starts vector-aligned.
func alignedBounds(n, grain int, base unsafe.Pointer, isz int) []int {
	k := GetNumThreads()
	if n < grain || k <= 1 {
		return []int{0, n}
	}
	k = min(k, n/(grain/2))
	line := 64 / isz
	head := 0
	if mis := int(uintptr(base) % 64); mis%isz == 0 && mis != 0 {
		head = (64 - mis) / isz
	}
	chunk := ((n+k-1)/k + line - 1) / line * line
	b := []int{0}
	for lo := min(head+chunk, n); lo < n; lo += chunk {
		b = append(b, lo)
	}
	return append(b, n)
}

// runChunks calls fn(i, bounds[i], bounds[i+1]) for each chunk, the first
// on the calling goroutine and the others on the backend's worker pool
// (cpu.ParallelFor), and waits.
func runChunks(bounds []int, fn func(i, lo, hi int)) {
	cpu.ParallelFor(len(bounds)-1, func(i int) { fn(i, bounds[i], bounds[i+1]) })
}

// parallelAligned runs fn over the chunks of alignedBounds.
func parallelAligned(n, grain int, base unsafe.Pointer, isz int, fn func(lo, hi int)) {
	if n < grain || GetNumThreads() <= 1 {
		fn(0, n) // one chunk: no bounds slice, goroutine or WaitGroup
		return
	}
	runChunks(alignedBounds(n, grain, base, isz), func(_, lo, hi int) { fn(lo, hi) })
}

// parallelSlice is parallelAligned over the elements of s.
func parallelSlice[T vfloat](s []T, grain int, fn func(lo, hi int)) {
	if len(s) == 0 {
		return
	}
	var z T
	parallelAligned(len(s), grain, unsafe.Pointer(&s[0]), int(unsafe.Sizeof(z)), fn)
}

// parallelTasks runs fn over task ranges [t0, t1) of n tasks, each task
// costing about cost elements of work, on up to GetNumThreads goroutines.
// It is parallelTasksAligned with align 1.
func parallelTasks(n, cost, grain int, fn func(t0, t1 int)) {
	parallelTasksAligned(n, 1, cost, grain, fn)
}

// parallelTasksAligned runs fn over disjoint task ranges [t0, t1) covering
// the n tasks, each task costing about cost elements of work, on up to
// GetNumThreads goroutines. The ranges are chunks of about a quarter of a
// goroutine's share (each at least grain/2 of work; a multiple of align
// tasks when a chunk holds at least align), which the goroutines take from
// a shared counter: a core slowed by another job takes fewer chunks
// instead of holding up the result (dynamic scheduling). fn may be called
// several times on one goroutine, never concurrently with itself on the
// same range.
func parallelTasksAligned(n, align, cost, grain int, fn func(t0, t1 int)) {
	parallelTasksChunked(n, align, cost, grain, 4, fn)
}

// parallelTasksChunked is parallelTasksAligned with chunks of about
// 1/perWorker of a goroutine's share: more, smaller chunks balance the
// end of a long run of costly tasks better (a core slowed by another job
// holds up the result by one chunk at most) at the price of more chunk
// switches.
func parallelTasksChunked(n, align, cost, grain, perWorker int, fn func(t0, t1 int)) {
	k := GetNumThreads()
	if n <= 1 || k <= 1 || n*cost < grain {
		fn(0, n)
		return
	}
	k = min(k, n, max(1, n*cost/(grain/2)))
	if k <= 1 {
		fn(0, n)
		return
	}
	per := max((n+perWorker*k-1)/(perWorker*k), (grain/2+cost-1)/max(cost, 1))
	if align > 1 && per >= align {
		per -= per % align
	}
	chunks := (n + per - 1) / per
	k = min(k, chunks)
	var next atomic.Int64
	work := func() {
		for {
			c := int(next.Add(1)) - 1
			if c >= chunks {
				return
			}
			fn(c*per, min(c*per+per, n))
		}
	}
	cpu.ParallelFor(k, func(int) { work() })
}

// ---- binary arithmetic ----

// scalarBufLen is the length of the stack buffers holding a broadcast
// scalar or a gathered strided run.
const scalarBufLen = 256

// binScalarRight sets o = x op s.
func binScalarRight[T vfloat](k *vecOps[T], op binOp, o, x []T, s T) {
	switch op {
	case opAdd:
		k.addScalar(o, x, s)
	case opSub:
		k.addScalar(o, x, -s) // x + (-s) is x - s exactly in IEEE arithmetic
	case opMul:
		k.mulScalar(o, x, s)
	default: // div: true division, not multiplication by 1/s (which rounds twice); max, min
		var buf [scalarBufLen]T
		fillVec(buf[:], s)
		for c := 0; c < len(o); c += scalarBufLen {
			m := min(scalarBufLen, len(o)-c)
			k.bin[op](o[c:c+m], x[c:c+m], buf[:m])
		}
	}
}

// binScalarLeft sets o = s op y.
func binScalarLeft[T vfloat](k *vecOps[T], op binOp, o []T, s T, y []T) {
	switch op {
	case opAdd:
		k.addScalar(o, y, s)
	case opMul:
		k.mulScalar(o, y, s)
	default:
		var buf [scalarBufLen]T
		fillVec(buf[:], s)
		for c := 0; c < len(o); c += scalarBufLen {
			m := min(scalarBufLen, len(o)-c)
			k.bin[op](o[c:c+m], buf[:m], y[c:c+m])
		}
	}
}

func fillVec[T vfloat](b []T, v T) {
	for i := range b {
		b[i] = v
	}
}

func allZero(st []int, shape []int) bool {
	for i, s := range st {
		if s != 0 && shape[i] != 1 {
			return false
		}
	}
	return true
}

// fastBinary computes out = a op b for op in add/sub/mul/div/pow/maximum/minimum/atan2
// on f32 or f64 operands of out's shape (a, b already broadcast; out may
// be a exactly, for in-place ops). It reports false when the layout is not
// one it handles (the caller then runs the generic kernel).
func fastBinary(op binOp, out, a, b *Tensor) bool {
	if op > opAtan2 || opsF32.bin[op] == nil || !fastPathsOn() || out.Numel() == 0 {
		return false
	}
	switch out.dtype {
	case F32:
		return fastBin(opsF32, op, out.storage.F32(), a.storage.F32(), b.storage.F32(), out, a, b)
	case F64:
		return fastBin(opsF64, op, out.storage.F64(), a.storage.F64(), b.storage.F64(), out, a, b)
	}
	return false
}

func fastBin[T vfloat](k *vecOps[T], op binOp, o, x, y []T, out, a, b *Tensor) bool {
	n := out.Numel()
	if oc := out.IsContiguous(); oc || nonOverlappingDense(out.shape, out.strides) {
		// out fills [offset, offset+n): a contiguous result, or a dense
		// permuted one (TensorIterator's layout of x.t() + y.t()) whose
		// inputs share its strides
		oo := o[out.offset : out.offset+n]
		flat := func(t *Tensor) bool {
			if oc {
				return t.IsContiguous()
			}
			return sameLayout(out, t)
		}
		ac, bc := flat(a), flat(b)
		switch {
		case ac && bc:
			xx, yy := x[a.offset:a.offset+n], y[b.offset:b.offset+n]
			f := k.bin[op]
			parallelSlice(oo, binGrain(op), func(lo, hi int) { f(oo[lo:hi], xx[lo:hi], yy[lo:hi]) })
			return true
		case ac && allZero(b.strides, b.shape):
			xx, s := x[a.offset:a.offset+n], y[b.offset]
			parallelSlice(oo, binGrain(op), func(lo, hi int) { binScalarRight(k, op, oo[lo:hi], xx[lo:hi], s) })
			return true
		case bc && allZero(a.strides, a.shape):
			yy, s := y[b.offset:b.offset+n], x[a.offset]
			parallelSlice(oo, binGrain(op), func(lo, hi int) { binScalarLeft(k, op, oo[lo:hi], s, yy[lo:hi]) })
			return true
		}
	}
	ps, pst := outOrder(out.shape, [3][]int{out.strides, a.strides, b.strides}, 3)
	cs, cst := coalesce(ps, pst, 3)
	nd := len(cs)
	if nd < 2 || cst[0][nd-1] != 1 {
		return false // a single strided run, or a strided output: generic loops
	}
	offs := [3]int{out.offset, a.offset, b.offset}
	// split the outer rows over goroutines
	rows := numel(cs[:nd-1])
	cols := cs[nd-1]
	if cst[1][nd-1] > 1 && cst[1][nd-2] == 1 || cst[2][nd-1] > 1 && cst[2][nd-2] == 1 {
		// A transposed operand: register-transposed panels for the vector
		// kernel (x - x.t()); other such layouts (both operands
		// transposed) take the generic kernel's cache-tiled walk.
		return binTransposed(k, op, o, x, y, cs, cst, offs)
	}
	parallelTasks(rows, cols, binGrain(op), func(r0, r1 int) {
		binRows(k, op, o, x, y, cs, cst, offs, r0, r1)
	})
	return true
}

// binGrain is fastBin's work size per goroutine: pow and atan2 cost tens
// of nanoseconds an element (grainCompute), the others are memory-bound.
func binGrain(op binOp) int {
	if op == opPow || op == opAtan2 {
		return grainCompute
	}
	return grainMem
}

// rowOffsets returns the storage offsets of outer row r (C order over
// cs[:nd-1]) for the three operands.
func rowOffsets(cs []int, cst [3][]int, offs [3]int, r int) [3]int {
	p := offs
	for d := len(cs) - 2; d >= 0 && r > 0; d-- {
		i := r % cs[d]
		r /= cs[d]
		for o := 0; o < 3; o++ {
			p[o] += i * cst[o][d]
		}
	}
	return p
}

// binRows computes outer rows [r0, r1) of a coalesced layout whose output
// rows are unit-stride.
func binRows[T vfloat](k *vecOps[T], op binOp, o, x, y []T, cs []int, cst [3][]int, offs [3]int, r0, r1 int) {
	nd := len(cs)
	n := cs[nd-1]
	sa, sb := cst[1][nd-1], cst[2][nd-1]
	for r := r0; r < r1; r++ {
		p := rowOffsets(cs, cst, offs, r)
		binRun(k, op, o[p[0]:p[0]+n], x, y, p[1], p[2], sa, sb)
	}
}

// binRun computes the unit-stride output run oo from operand runs starting
// at pa and pb with strides sa and sb.
func binRun[T vfloat](k *vecOps[T], op binOp, oo, x, y []T, pa, pb, sa, sb int) {
	n := len(oo)
	switch {
	case n >= minKernelRun && sa == 1 && sb == 1:
		k.bin[op](oo, x[pa:pa+n], y[pb:pb+n])
	case n >= minKernelRun && sa == 1 && sb == 0:
		binScalarRight(k, op, oo, x[pa:pa+n], y[pb])
	case n >= minKernelRun && sa == 0 && sb == 1:
		binScalarLeft(k, op, oo, x[pa], y[pb:pb+n])
	default:
		for i := range oo {
			oo[i] = arith1(op, x[pa+i*sa], y[pb+i*sb])
		}
	}
}

func arith1[T vfloat](op binOp, p, q T) T {
	switch op {
	case opAdd:
		return p + q
	case opSub:
		return p - q
	case opMul:
		return p * q
	case opMax: // the generic kernel's (and the vector kernel's) NaN and ±0 rules
		if p != p || p > q {
			return p
		}
		return q
	case opMin:
		if p != p || p < q {
			return p
		}
		return q
	case opAtan2:
		return T(cpu.Atan2(float64(p), float64(q)))
	case opPow:
		if p32, ok := any(p).(float32); ok {
			return T(cpu.Pow32(p32, float32(q)))
		}
		return T(cpu.Pow64(float64(p), float64(q)))
	}
	return p / q
}

// ---- unary ----

// sigmoidVec is Sigmoid's vector kernel, PyTorch's steps: e = exp(-x) with
// the exp kernel (SLEEF's results), then 1/(1 + e), each rounded to T; in
// blocks so that the intermediates stay in cache, with the vector kernels
// (which allow dst to alias an operand exactly); the tail that ATen leaves
// to its scalar loop takes libm's exp (xmath.Exp, rounded to T). fastUnary
// uses it for tensors of up to torchSumMaxRow elements, the fused sigmoid
// kernels above.
func sigmoidVec[T vfloat](k *vecOps[T]) func(dst, x []T) {
	return func(dst, x []T) {
		// ATen's cpu_kernel_vec runs the last n mod 2V elements (V = 8
		// float32, 4 float64 lanes) through the scalar lambda, whose
		// std::exp is libm's (correctly rounded in practice), not SLEEF's.
		// They are computed first: dst may alias x.
		var z T
		tail := len(dst) % (64 / int(unsafe.Sizeof(z)))
		var tailVals [16]T
		for j := range tail {
			tailVals[j] = 1 / (1 + T(xmath.Exp(-float64(x[len(dst)-tail+j]))))
		}
		var buf, ones [512]T
		for j := range ones {
			ones[j] = 1
		}
		for i := 0; i < len(dst)-tail; i += len(buf) {
			b := buf[:min(len(buf), len(dst)-tail-i)]
			d := dst[i : i+len(b)]
			k.mulScalar(b, x[i:i+len(b)], -1)
			k.exp(d, b)
			k.addScalar(d, d, 1)
			k.bin[opDiv](d, ones[:len(d)], d)
		}
		copy(dst[len(dst)-tail:], tailVals[:tail])
	}
}

// fastUnary computes out = u(src) for exp, tanh, sigmoid, log and sqrt on
// f32/f64 (src has out's dtype and shape). It reports
// false for other ops and dtypes.
func fastUnary(u *unaryDef, out, src *Tensor) bool {
	if !fastPathsOn() || out.Numel() == 0 {
		return false
	}
	switch out.dtype {
	case F32:
		f := unaryVec(u, opsF32)
		if u == uSigmoid && out.Numel() > torchSumMaxRow {
			f = opsF32.sigmoid // large tensors: the fused kernel (within 3 ulp)
		}
		if f == nil {
			return false
		}
		unaryApply(f, out.storage.F32(), src.storage.F32(), out, src)
		return true
	case F64:
		f := unaryVec(u, opsF64)
		if u == uSigmoid && out.Numel() > torchSumMaxRow {
			f = opsF64.sigmoid // large tensors: the fused kernel (within 4 ulp)
		}
		if f == nil {
			return false
		}
		unaryApply(f, out.storage.F64(), src.storage.F64(), out, src)
		return true
	}
	return false
}

// unaryVec returns the vector kernel of u, or nil. The kernels' accuracy
// (measured against the float64 math functions, backends/cpu
// elementwise_math.go): exp ≤ 2 ulp, tanh ≤ 2, sigmoid ≤ 3 (f32) / 4 (f64),
// log SLEEF's bits (torch.log's, cpu.LogSleefF32/F64), sqrt exact, round/floor/ceil/trunc exact, f32 erf and gelu those of the scalar kernels but
// where the f32 erf is not correctly rounded (none in 10^7 inputs,
// cpu.ErfF32); relu, abs, neg and square exact (relu is PyTorch's
// clamp_min(x, 0): -0.0 and NaN pass through; neg flips the sign bit);
// sin, cos and tan within 1 ulp (f64: the scalar kernels' bits,
// cpu.Sin64/Cos64/Tan64; f32: those rounded once but near ties); gelu(approximate="tanh") the scalar
// steps around a tanh within 1 ulp (f32) / 2 ulp (f64) of math.Tanh.
func unaryVec[T vfloat](u *unaryDef, k *vecOps[T]) func(dst, x []T) {
	switch u {
	case uRelu:
		return func(dst, x []T) { k.clamp(dst, x, 0, T(math.Inf(1))) }
	case uAbs:
		return k.abs
	case uNeg:
		return negate[T]
	case uSquare:
		mul := k.bin[opMul]
		return func(dst, x []T) { mul(dst, x, x) }
	case uExp:
		return k.exp
	case uTanh:
		return k.tanh
	case uSigmoid:
		return sigmoidVec(k)
	case uLog:
		return k.log // SLEEF's logf_u10 / log_u10: torch.log's bits at every size
	case uSqrt:
		return k.sqrt
	case uErf:
		return k.erf
	case uRound:
		return k.round[cpu.RoundHalfEven]
	case uFloor:
		return k.round[cpu.RoundFloor]
	case uCeil:
		return k.round[cpu.RoundCeil]
	case uTrunc:
		return k.round[cpu.RoundTrunc]
	case uGelu:
		return k.gelu
	case uSin:
		return k.sin
	case uCos:
		return k.cos
	case uTan:
		return k.tan
	case uGeluTanh:
		return k.geluTanh
	}
	return nil
}

// fastPowScalar is a ** b for a Python-number exponent b and an f32 or
// f64 result (the exponents of powScalarSpecial are handled before):
// cpu.PowScalarF32 (f32 exponent, as PyTorch's vectorised kernel, which
// casts the exponent to the tensor's dtype) or PowScalarF64, laid out as
// the general path lays out a op b. nil when it does not apply.
func fastPowScalar(a, b *Tensor, ct, ot DType) *Tensor {
	if !fastPathsOn() || !b.wrapped || a.wrapped || ct != ot || (ct != F32 && ct != F64) || a.Numel() == 0 {
		return nil
	}
	y := b.FlatFloat64(0)
	x := a.toDType(ct)
	out := emptyIter(a.shape, ct, opAs(a, ct), opAs(b, ct))
	if ct == F32 {
		y32 := float32(y)
		unaryApply(func(dst, x []float32) { opsF32.powScalar(dst, x, y32) }, out.storage.F32(), x.storage.F32(), out, x)
	} else {
		unaryApply(func(dst, x []float64) { opsF64.powScalar(dst, x, y) }, out.storage.F64(), x.storage.F64(), out, x)
	}
	return out
}

// negate sets dst[i] = -x[i]: the sign bit flipped (IEEE 754 negate), so
// that a NaN's sign flips too, as PyTorch's vectorised neg (an XOR with
// -0.0); multiplying by -1 would pass a NaN through unchanged. It XORs 8
// bytes at a time (two f32) where dst and x are equally aligned.
func negate[T vfloat](dst, x []T) {
	x = x[:len(dst)]
	if len(dst) == 0 {
		return
	}
	size := int(unsafe.Sizeof(dst[0]))
	mask := uint64(1) << 63
	if size == 4 {
		mask |= 1 << 31
		if uintptr(unsafe.Pointer(&dst[0]))%8 != 0 && uintptr(unsafe.Pointer(&x[0]))%8 != 0 {
			dst[0] = -x[0]
			dst, x = dst[1:], x[1:]
		}
	}
	n := len(dst) * size / 8
	if n == 0 || uintptr(unsafe.Pointer(&dst[0]))%8 != 0 || uintptr(unsafe.Pointer(&x[0]))%8 != 0 {
		for i, v := range x {
			dst[i] = -v
		}
		return
	}
	d := unsafe.Slice((*uint64)(unsafe.Pointer(&dst[0])), n)
	s := unsafe.Slice((*uint64)(unsafe.Pointer(&x[0])), n)
	for i := range d {
		d[i] = s[i] ^ mask
	}
	for i := n * 8 / size; i < len(dst); i++ {
		dst[i] = -x[i]
	}
}

// fastClamp is Clamp for an f32/f64 t with bounds that are numbers or 0-d
// tensors of no higher dtype category (the result keeps t's dtype), none
// of them NaN: one pass of the vector clamp kernel, laid out as a unary op
// (a 0-d operand has no say in TensorIterator's layout). nil otherwise.
func fastClamp(t, lo, hi *Tensor) *Tensor {
	l, h, ok := fastClampBounds(t, lo, hi)
	if !ok {
		return nil
	}
	// the layout of Clamp's passes: max(lo, t), then min(hi, ·), the
	// 0-d bound first (binaryClamp)
	cur := opOf(t)
	for _, b := range []*Tensor{lo, hi} {
		if b != nil {
			cur = iterOperand{t.shape, iterStrides(t.shape, []iterOperand{opOf(b), cur})}
		}
	}
	sh := append([]int(nil), t.shape...)
	out := newTensor(newStorage(t.dtype, t.Numel(), false), sh, cur.strides, 0, t.dtype)
	if t.dtype == F32 {
		lf, hf := float32(l), float32(h)
		unaryApply(func(dst, x []float32) { opsF32.clamp(dst, x, lf, hf) }, out.storage.F32(), t.storage.F32(), out, t)
	} else {
		unaryApply(func(dst, x []float64) { opsF64.clamp(dst, x, l, h) }, out.storage.F64(), t.storage.F64(), out, t)
	}
	return out
}

// fastClampBounds returns the bounds of fastClamp (±Inf for a nil one)
// and whether its conditions hold.
func fastClampBounds(t, lo, hi *Tensor) (l, h float64, ok bool) {
	if !fastPathsOn() || t.dtype != F32 && t.dtype != F64 || t.Numel() == 0 {
		return 0, 0, false
	}
	l, h = math.Inf(-1), math.Inf(1)
	for i, b := range []*Tensor{lo, hi} {
		if b == nil {
			continue
		}
		if b.Dim() != 0 || ResultType(t, b) != t.dtype {
			return 0, 0, false
		}
		v := RoundToDType(b.FlatFloat64(0), t.dtype)
		if v != v {
			return 0, 0, false
		}
		if i == 0 {
			l = v
		} else {
			h = v
		}
	}
	if lo != nil && hi != nil && ResultType(t, lo, hi) != t.dtype {
		return 0, 0, false
	}
	return l, h, true
}

// unaryApply runs the vector function f from src into out: split over
// goroutines when both are contiguous or share one dense layout, else
// along the strided walk (in out's memory order) with short strided runs
// gathered into a buffer.
func unaryApply[T vfloat](f func(dst, x []T), o, x []T, out, src *Tensor) {
	n := out.Numel()
	if linearLayout(out, src) {
		oo, xx := o[out.offset:out.offset+n], x[src.offset:src.offset+n]
		parallelSlice(oo, grainCompute, func(lo, hi int) { f(oo[lo:hi], xx[lo:hi]) })
		return
	}
	walkEW2(out.shape, out, src, func(po, ps, n, so, ss int) {
		if so == 1 && ss == 1 {
			f(o[po:po+n], x[ps:ps+n])
			return
		}
		var buf [scalarBufLen]T
		for c := 0; c < n; c += scalarBufLen {
			m := min(scalarBufLen, n-c)
			b := buf[:m]
			for i := range b {
				b[i] = x[ps+(c+i)*ss]
			}
			f(b, b)
			for i, v := range b {
				o[po+(c+i)*so] = v
			}
		}
	})
}
