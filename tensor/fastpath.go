package tensor

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tsrlang/tsr/backends/cpu"
)

// SIMD fast paths for f32 and f64. The generic kernels (binary.go,
// unary.go, reduce.go) handle every dtype and layout and stay the
// reference; for f32/f64 the hot cases are routed here, to the vector
// kernels of backends/cpu (AVX-512, AVX2 or pure Go, chosen by the
// backends registry), and split over GetNumThreads goroutines in chunks
// whose boundaries are 64-byte aligned:
//
//   - add/sub/mul/div (and their in-place forms): contiguous operands, a
//     broadcast scalar on either side, and strided layouts whose output
//     rows are unit-stride, with the kernel applied to every contiguous
//     run of at least minKernelRun elements (bias rows, column scalars).
//     Layouts with a transposed operand stay on the generic kernel, whose
//     cache-tiled walk measured faster than packing tiles for the kernels;
//   - exp, tanh and sigmoid (tanh and sigmoid composed from the vector
//     kernels, see tanhVec and sigmoidVec);
//   - sum, mean, amax/amin, max/min(dim), argmax/argmin and logsumexp over
//     a block of consecutive dims of a contiguous tensor: the whole
//     tensor, trailing dims (one kernel call per row) and leading or
//     middle dims (rows accumulated into an output vector with the vector
//     kernels instead of gathering each output's strided elements);
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
	bin        [opDiv + 1]func(dst, a, b []T) // by binOp: add, sub, mul, div
	addScalar  func(dst, a []T, s T)
	mulScalar  func(dst, a []T, s T)
	exp        func(dst, x []T)
	sum, max   func(x []T) T
	softmax    func(dst, x []T, rows, cols int)
	logSoftmax func(dst, x []T, rows, cols int)
	logSumExp  func(dst, x []T, rows, cols int)
}

var opsF32 = &vecOps[float32]{
	bin:       [...]func(dst, a, b []float32){cpu.AddF32, cpu.SubF32, cpu.MulF32, cpu.DivF32},
	addScalar: cpu.AddScalarF32, mulScalar: cpu.MulScalarF32,
	exp: cpu.ExpF32,
	sum: cpu.SumF32, max: cpu.MaxF32,
	softmax: cpu.SoftmaxRowsF32, logSoftmax: cpu.LogSoftmaxRowsF32, logSumExp: cpu.LogSumExpRowsF32,
}

var opsF64 = &vecOps[float64]{
	bin:       [...]func(dst, a, b []float64){cpu.AddF64, cpu.SubF64, cpu.MulF64, cpu.DivF64},
	addScalar: cpu.AddScalarF64, mulScalar: cpu.MulScalarF64,
	exp: cpu.ExpF64,
	sum: cpu.SumF64, max: cpu.MaxF64,
	softmax: cpu.SoftmaxRowsF64, logSoftmax: cpu.LogSoftmaxRowsF64, logSumExp: cpu.LogSumExpRowsF64,
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
// on the calling goroutine and the others on new ones, and waits.
func runChunks(bounds []int, fn func(i, lo, hi int)) {
	var wg sync.WaitGroup
	for i := 1; i+1 < len(bounds); i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fn(i, bounds[i], bounds[i+1])
		}(i)
	}
	fn(0, bounds[0], bounds[1])
	wg.Wait()
}

// parallelAligned runs fn over the chunks of alignedBounds.
func parallelAligned(n, grain int, base unsafe.Pointer, isz int, fn func(lo, hi int)) {
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
func parallelTasks(n, cost, grain int, fn func(t0, t1 int)) {
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
	var wg sync.WaitGroup
	per := (n + k - 1) / k
	for t0 := per; t0 < n; t0 += per {
		wg.Add(1)
		go func(t0, t1 int) {
			defer wg.Done()
			fn(t0, t1)
		}(t0, min(t0+per, n))
	}
	fn(0, min(per, n))
	wg.Wait()
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
	default: // true division, not multiplication by 1/s (which rounds twice)
		var buf [scalarBufLen]T
		fillVec(buf[:], s)
		for c := 0; c < len(o); c += scalarBufLen {
			m := min(scalarBufLen, len(o)-c)
			k.bin[opDiv](o[c:c+m], x[c:c+m], buf[:m])
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

// fastBinary computes out = a op b for op in add/sub/mul/div on f32 or f64
// operands of out's shape (a, b already broadcast; out may be a exactly,
// for in-place ops). It reports false when the layout is not one it
// handles (the caller then runs the generic kernel).
func fastBinary(op binOp, out, a, b *Tensor) bool {
	if op > opDiv || !fastPathsOn() || out.Numel() == 0 {
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
	if out.IsContiguous() {
		oo := o[out.offset : out.offset+n]
		ac, bc := a.IsContiguous(), b.IsContiguous()
		switch {
		case ac && bc:
			xx, yy := x[a.offset:a.offset+n], y[b.offset:b.offset+n]
			f := k.bin[op]
			parallelSlice(oo, grainMem, func(lo, hi int) { f(oo[lo:hi], xx[lo:hi], yy[lo:hi]) })
			return true
		case ac && allZero(b.strides, b.shape):
			xx, s := x[a.offset:a.offset+n], y[b.offset]
			parallelSlice(oo, grainMem, func(lo, hi int) { binScalarRight(k, op, oo[lo:hi], xx[lo:hi], s) })
			return true
		case bc && allZero(a.strides, a.shape):
			yy, s := y[b.offset:b.offset+n], x[a.offset]
			parallelSlice(oo, grainMem, func(lo, hi int) { binScalarLeft(k, op, oo[lo:hi], s, yy[lo:hi]) })
			return true
		}
	}
	cs, cst := coalesce(out.shape, [3][]int{out.strides, a.strides, b.strides}, 3)
	nd := len(cs)
	if nd < 2 || cst[0][nd-1] != 1 {
		return false // a single strided run, or a strided output: generic loops
	}
	offs := [3]int{out.offset, a.offset, b.offset}
	// split the outer rows over goroutines
	rows := numel(cs[:nd-1])
	cols := cs[nd-1]
	if cst[1][nd-1] > 1 && cst[1][nd-2] == 1 || cst[2][nd-1] > 1 && cst[2][nd-2] == 1 {
		// A transposed operand: the generic kernel's cache-tiled walk is
		// faster than packing tiles for the vector kernel (measured).
		return false
	}
	parallelTasks(rows, cols, grainMem, func(r0, r1 int) {
		binRows(k, op, o, x, y, cs, cst, offs, r0, r1)
	})
	return true
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
	}
	return p / q
}

// ---- unary ----

// fastUnary computes out = u(src) for exp, tanh and sigmoid on f32/f64
// (src has out's dtype and shape; out is contiguous). It reports false for
// other ops and dtypes.
func fastUnary(u *unaryDef, out, src *Tensor) bool {
	if !fastPathsOn() || out.Numel() == 0 {
		return false
	}
	switch out.dtype {
	case F32:
		f := unaryVec(u, opsF32)
		if f == nil {
			return false
		}
		unaryApply(f, out.storage.F32(), src.storage.F32(), out, src)
		return true
	case F64:
		f := unaryVec(u, opsF64)
		if f == nil {
			return false
		}
		unaryApply(f, out.storage.F64(), src.storage.F64(), out, src)
		return true
	}
	return false
}

func unaryVec[T vfloat](u *unaryDef, k *vecOps[T]) func(dst, x []T) {
	switch u {
	case uExp:
		return k.exp
	case uTanh:
		return func(dst, x []T) { tanhVec(k, dst, x) }
	case uSigmoid:
		return func(dst, x []T) { sigmoidVec(k, dst, x) }
	}
	return nil
}

// sigmoidVec sets dst = 1/(1+e^-x) with four vector passes over L1-sized
// chunks (negate, exp, add 1, divide), as PyTorch's vectorized CPU kernel:
// relative error within a few ulp; below about -88.7 (f32) or -709 (f64)
// e^-x overflows and the result is 0 instead of a subnormal.
func sigmoidVec[T vfloat](k *vecOps[T], dst, x []T) {
	var ones [scalarBufLen]T
	fillVec(ones[:], 1)
	for c := 0; c < len(dst); c += scalarBufLen {
		m := min(scalarBufLen, len(dst)-c)
		d := dst[c : c+m]
		k.mulScalar(d, x[c:c+m], -1)
		k.exp(d, d)
		k.addScalar(d, d, 1)
		k.bin[opDiv](d, ones[:m], d)
	}
}

// tanhVec sets dst = tanh(x) with the vector kernels, in L1-sized chunks,
// following Cephes (tanhf for f32, tanh for f64, as Go's math.Tanh): for
// |x| >= 0.625, 1 - 2/(e^(2x) + 1) (which saturates to ±1 without
// overflow); below, x + x·z·P(z) with z = x² (f32: degree-4 polynomial;
// f64: the [2/3] rational P(z)/Q(z)), given x's sign so tanh(-0) = -0. Both
// branches are computed for every element and selected without branches.
// dst may be x.
func tanhVec[T vfloat](k *vecOps[T], dst, x []T) {
	const chunk = 1024 // 4-8 KiB per buffer: fewer kernel calls, still in L1
	var e, z, p, q, twos [chunk]T
	fillVec(twos[:min(chunk, len(dst))], 2)
	var zero T
	f32 := unsafe.Sizeof(zero) == 4
	for c := 0; c < len(dst); c += chunk {
		m := min(chunk, len(dst)-c)
		xc, ec, zc, pc := x[c:c+m], e[:m], z[:m], p[:m]
		// large |x|: 1 - 2/(e^(2x) + 1)
		k.mulScalar(ec, xc, 2)
		k.exp(ec, ec)
		k.addScalar(ec, ec, 1)
		k.bin[opDiv](ec, twos[:m], ec)
		k.mulScalar(ec, ec, -1)
		k.addScalar(ec, ec, 1)
		// small |x|: x + x·z·P(z)
		k.bin[opMul](zc, xc, xc)
		if f32 {
			k.mulScalar(pc, zc, T(-5.70498872745e-3))
			for _, coef := range [...]T{2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1} {
				k.addScalar(pc, pc, coef)
				k.bin[opMul](pc, pc, zc)
			}
		} else {
			qc := q[:m]
			k.mulScalar(pc, zc, T(-9.64399179425052238628e-1))
			k.addScalar(pc, pc, T(-9.92877231001918586564e1))
			k.bin[opMul](pc, pc, zc)
			k.addScalar(pc, pc, T(-1.61468768441708447952e3))
			k.addScalar(qc, zc, T(1.12811678491632931402e2))
			k.bin[opMul](qc, qc, zc)
			k.addScalar(qc, qc, T(2.23548839060100448583e3))
			k.bin[opMul](qc, qc, zc)
			k.addScalar(qc, qc, T(4.84406305325125486048e3))
			k.bin[opDiv](pc, pc, qc)
			k.bin[opMul](pc, pc, zc)
		}
		k.bin[opMul](pc, pc, xc)
		k.bin[opAdd](pc, pc, xc)
		dc := dst[c : c+m]
		if f32 {
			tanhSelect32(f32s(dc), f32s(xc), f32s(pc), f32s(ec))
		} else {
			tanhSelect64(f64s(dc), f64s(xc), f64s(pc), f64s(ec))
		}
	}
}

// f32s and f64s view a []T as its concrete type (T known to match).
func f32s[T vfloat](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

func f64s[T vfloat](s []T) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// tanhSelect32 sets d[i] = |p[i]| with x[i]'s sign where |x[i]| < 0.625,
// else e[i] (NaN is not small, so it takes e = NaN).
func tanhSelect32(d, x, p, e []float32) {
	x, p, e = x[:len(d)], p[:len(d)], e[:len(d)]
	for i := range d {
		xb := math.Float32bits(x[i])
		var m uint32 // all ones where |x| < 0.625 (a CMOV, not a branch)
		if xb&0x7fffffff < 0x3f200000 {
			m = ^uint32(0)
		}
		pb := math.Float32bits(p[i])&0x7fffffff | xb&0x80000000
		d[i] = math.Float32frombits(pb&m | math.Float32bits(e[i])&^m)
	}
}

// tanhSelect64 is tanhSelect32 for float64.
func tanhSelect64(d, x, p, e []float64) {
	x, p, e = x[:len(d)], p[:len(d)], e[:len(d)]
	for i := range d {
		xb := math.Float64bits(x[i])
		var m uint64
		if xb&0x7fffffffffffffff < 0x3fe4000000000000 {
			m = ^uint64(0)
		}
		pb := math.Float64bits(p[i])&0x7fffffffffffffff | xb&0x8000000000000000
		d[i] = math.Float64frombits(pb&m | math.Float64bits(e[i])&^m)
	}
}

// unaryApply runs the vector function f from src into out: split over
// goroutines when both are contiguous, else along the strided walk with
// short strided runs gathered into a buffer.
func unaryApply[T vfloat](f func(dst, x []T), o, x []T, out, src *Tensor) {
	n := out.Numel()
	if out.IsContiguous() && src.IsContiguous() {
		oo, xx := o[out.offset:out.offset+n], x[src.offset:src.offset+n]
		parallelSlice(oo, grainCompute, func(lo, hi int) { f(oo[lo:hi], xx[lo:hi]) })
		return
	}
	walk2(out.shape, out, src, func(po, ps, n, so, ss int) {
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
