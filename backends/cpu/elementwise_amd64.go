//go:build amd64 && !purego

package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

func registerRowsAsm() {
	f32, f64 := rowsKey("float32"), rowsKey("float64")
	backends.Register(f32, backends.Candidate{Name: "avx2", Impl: asmRows(addRows128F32AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(f32, backends.Candidate{Name: "avx512", Impl: asmRows(addRows128F32AVX512), Requires: backends.TierAVX512, Priority: 20})
	backends.Register(f64, backends.Candidate{Name: "avx2", Impl: asmRows(addRows128F64AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(f64, backends.Candidate{Name: "avx512", Impl: asmRows(addRows128F64AVX512), Requires: backends.TierAVX512, Priority: 20})
	f32, f64 = rows4Key("float32"), rows4Key("float64")
	backends.Register(f32, backends.Candidate{Name: "avx2", Impl: asmRows4(addRows128x4F32AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(f32, backends.Candidate{Name: "avx512", Impl: asmRows4(addRows128x4F32AVX512), Requires: backends.TierAVX512, Priority: 20})
	backends.Register(f64, backends.Candidate{Name: "avx2", Impl: asmRows4(addRows128x4F64AVX2), Requires: backends.TierAVX2, Priority: 10})
	backends.Register(f64, backends.Candidate{Name: "avx512", Impl: asmRows4(addRows128x4F64AVX512), Requires: backends.TierAVX512, Priority: 20})
}

func registerKernelsAsm() {
	g32, g64 := goKernels[float32](), goKernels[float64]()
	registerKernels("float32", "avx2", backends.TierAVX2, 10, kernels[float32]{
		add: vecBin(8, addF32AVX2, g32.add), sub: vecBin(8, subF32AVX2, g32.sub),
		mul: vecBin(8, mulF32AVX2, g32.mul), div: vecBin(8, divF32AVX2, g32.div),
		addScalar: vecScalar(8, addScalarF32AVX2, g32.addScalar), mulScalar: vecScalar(8, mulScalarF32AVX2, g32.mulScalar),
		axpy: vecAxpy(8, axpyF32AVX2, g32.axpy),
		sum:  vecSum(8, sumF32AVX2), max: vecMax(8, maxF32AVX2), prod: vecProd(8, prodF32AVX2), dot: vecDot(8, dotF32AVX2),
		maximum: vecBin(8, maximumF32AVX2, g32.maximum), minimum: vecBin(8, minimumF32AVX2, g32.minimum),
		sqrt: vecUn(8, sqrtF32AVX2, g32.sqrt),
		abs:  vecAbs(8, andMaskF32AVX2, g32.abs), clamp: vecClamp(8, clampF32AVX2, g32.clamp),
		leakyRelu: vecScalar(8, leakyReluF32AVX2, g32.leakyRelu),
	})
	registerKernels("float64", "avx2", backends.TierAVX2, 10, kernels[float64]{
		add: vecBin(4, addF64AVX2, g64.add), sub: vecBin(4, subF64AVX2, g64.sub),
		mul: vecBin(4, mulF64AVX2, g64.mul), div: vecBin(4, divF64AVX2, g64.div),
		addScalar: vecScalar(4, addScalarF64AVX2, g64.addScalar), mulScalar: vecScalar(4, mulScalarF64AVX2, g64.mulScalar),
		axpy: vecAxpy(4, axpyF64AVX2, g64.axpy),
		sum:  vecSum(4, sumF64AVX2), max: vecMax(4, maxF64AVX2), prod: vecProd(4, prodF64AVX2), dot: vecDot(4, dotF64AVX2),
		maximum: vecBin(4, maximumF64AVX2, g64.maximum), minimum: vecBin(4, minimumF64AVX2, g64.minimum),
		sqrt: vecUn(4, sqrtF64AVX2, g64.sqrt),
		abs:  vecAbs(4, andMaskF64AVX2, g64.abs), clamp: vecClamp(4, clampF64AVX2, g64.clamp),
		leakyRelu: vecScalar(4, leakyReluF64AVX2, g64.leakyRelu),
	})
	registerKernels("float32", "avx512", backends.TierAVX512, 20, kernels[float32]{
		add: vecBin(16, addF32AVX512, g32.add), sub: vecBin(16, subF32AVX512, g32.sub),
		mul: vecBin(16, mulF32AVX512, g32.mul), div: vecBin(16, divF32AVX512, g32.div),
		addScalar: vecScalar(16, addScalarF32AVX512, g32.addScalar), mulScalar: vecScalar(16, mulScalarF32AVX512, g32.mulScalar),
		axpy:        vecAxpy(16, axpyF32AVX512, g32.axpy),
		expShiftSum: vecExp(16, expShiftSumF32AVX512),
		sum:         vecSum(16, sumF32AVX512), max: vecMax(16, maxF32AVX512), prod: vecProd(16, prodF32AVX512), dot: vecDot(16, dotF32AVX512),
		maximum: vecBin(16, maximumF32AVX512, g32.maximum), minimum: vecBin(16, minimumF32AVX512, g32.minimum),
		sqrt: masked(sqrtF32AVX512), tanh: masked(tanhF32AVX512),
		abs: vecAbs(16, andMaskF32AVX512, g32.abs), clamp: vecClamp(16, clampF32AVX512, g32.clamp),
		leakyRelu: vecScalar(16, leakyReluF32AVX512, g32.leakyRelu),
		sigmoid:   masked(sigmoidF32AVX512), log: masked(logF32AVX512),
		erf: masked(erfF32AVX512), gelu: masked(geluF32AVX512),
		sin: trigVec(16, sinF32AVX512, g32.sin), cos: trigVec(16, cosF32AVX512, g32.cos), tan: trigVec(16, tanF32AVX512, g32.tan),
		atan2: maskedBin(atan2F32AVX512), powScalar: powScalarAVX512, geluTanh: masked(geluTanhF32AVX512),
		softmaxRows: fusedRows(softmaxRowsF32AVX512), expShiftRows: fusedRowsInv(expShiftRowsF32AVX512),
	})
	registerKernels("float64", "avx512", backends.TierAVX512, 20, kernels[float64]{
		add: vecBin(8, addF64AVX512, g64.add), sub: vecBin(8, subF64AVX512, g64.sub),
		mul: vecBin(8, mulF64AVX512, g64.mul), div: vecBin(8, divF64AVX512, g64.div),
		addScalar: vecScalar(8, addScalarF64AVX512, g64.addScalar), mulScalar: vecScalar(8, mulScalarF64AVX512, g64.mulScalar),
		axpy:        vecAxpy(8, axpyF64AVX512, g64.axpy),
		expShiftSum: vecExp(8, expShiftSumF64AVX512),
		sum:         vecSum(8, sumF64AVX512), max: vecMax(8, maxF64AVX512), prod: vecProd(8, prodF64AVX512), dot: vecDot(8, dotF64AVX512),
		maximum: vecBin(8, maximumF64AVX512, g64.maximum), minimum: vecBin(8, minimumF64AVX512, g64.minimum),
		sqrt: masked(sqrtF64AVX512), tanh: masked(tanhF64AVX512),
		abs: vecAbs(8, andMaskF64AVX512, g64.abs), clamp: vecClamp(8, clampF64AVX512, g64.clamp),
		leakyRelu: vecScalar(8, leakyReluF64AVX512, g64.leakyRelu),
		sigmoid:   masked(sigmoidF64AVX512), log: masked(logF64AVX512),
		sin: trigVec(8, sinF64AVX512, g64.sin), cos: trigVec(8, cosF64AVX512, g64.cos), tan: trigVec(8, tanF64AVX512, g64.tan),
		atan2: maskedBin(atan2F64AVX512), geluTanh: masked(geluTanhF64AVX512),
		pow: powF64Vec, powScalar: powScalarF64Vec,
		softmaxRows: fusedRows(softmaxRowsF64AVX512), expShiftRows: fusedRowsInv(expShiftRowsF64AVX512),
	})
}

// fusedRows adapts a one-call row kernel (rows×cols contiguous, cols >= 1).
func fusedRows[T float](vec func(dst, x *T, rows, cols int)) rowsFn[T] {
	return func(dst, x []T, rows, cols int) {
		if rows <= 0 || cols <= 0 {
			return
		}
		_, _ = dst[rows*cols-1], x[rows*cols-1]
		vec(&dst[0], &x[0], rows, cols)
	}
}

// fusedRowsInv is fusedRows for a kernel that also writes one value per row.
func fusedRowsInv[T float](vec func(dst, x *T, rows, cols int, inv *T)) rowsInvFn[T] {
	return func(dst, x []T, rows, cols int, inv []T) {
		if rows <= 0 || cols <= 0 {
			return
		}
		_, _, _ = dst[rows*cols-1], x[rows*cols-1], inv[rows-1]
		vec(&dst[0], &x[0], rows, cols, &inv[0])
	}
}

// The adapters below run the assembly over the whole vectors of a slice
// and the pure-Go kernel over the remaining tail (< one vector). Slices are
// re-sliced to len(dst) first, so the assembly stays inside them.

func vecBin[T float](lanes int, vec func(dst, a, b *T, n int), tail binFn[T]) binFn[T] {
	return func(dst, a, b []T) {
		n := len(dst)
		a, b = a[:n], b[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &a[0], &b[0], nv)
		}
		if nv < n {
			tail(dst[nv:], a[nv:], b[nv:])
		}
	}
}

// vecUn is vecBin for unary kernels.
func vecUn[T float](lanes int, vec func(dst, x *T, n int), tail unFn[T]) unFn[T] {
	return func(dst, x []T) {
		n := len(dst)
		x = x[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &x[0], nv)
		}
		if nv < n {
			tail(dst[nv:], x[nv:])
		}
	}
}

// masked adapts an AVX-512 unary kernel that handles any length itself
// (the last partial vector under an opmask), so every element goes
// through the same code whatever its position.
func masked[T float](vec func(dst, x *T, n int)) unFn[T] {
	return func(dst, x []T) {
		n := len(dst)
		if n == 0 {
			return
		}
		x = x[:n]
		vec(&dst[0], &x[0], n)
	}
}

// trigVec adapts a sin/cos/tan kernel, which stops before the first
// vector holding a finite |x| >= 2^29 and returns the number of elements
// it did: that vector goes through ref (the math package's Payne–Hanek
// reduction), then the kernel resumes. The kernel writes nothing for the
// vector it stops at, so dst may be x.
func trigVec[T float](lanes int, vec func(dst, x *T, n int) int, ref unFn[T]) unFn[T] {
	return func(dst, x []T) {
		x = x[:len(dst)]
		for len(dst) > 0 {
			k := vec(&dst[0], &x[0], len(dst))
			if k >= len(dst) {
				return
			}
			m := min(lanes, len(dst)-k)
			ref(dst[k:k+m], x[k:k+m])
			dst, x = dst[k+m:], x[k+m:]
		}
	}
}

// maskedBin is masked for a binary kernel.
func maskedBin[T float](vec func(dst, a, b *T, n int)) binFn[T] {
	return func(dst, a, b []T) {
		n := len(dst)
		if n == 0 {
			return
		}
		a, b = a[:n], b[:n]
		vec(&dst[0], &a[0], &b[0], n)
	}
}

// powScalarAVX512 is PowScalarF32's AVX-512 kernel: the sign and NaN
// rules of C pow for the scalar y are passed as smask (x's sign bit is
// kept when y is an odd integer) and lo (-Inf when y is not an integer:
// finite x < 0 gives NaN; +Inf disables that).
func powScalarAVX512(dst, x []float32, y float32) {
	n := len(dst)
	if n == 0 {
		return
	}
	x = x[:n]
	smask, lo := powSignRules(y)
	powScalarF32AVX512(&dst[0], &x[0], n, float64(y), lo, smask)
}

// powF64Vec is PowF64's AVX-512 kernel: powF64AVX512 runs Pow64's fast
// path over whole vectors and stops at the first vector with an element
// off it (special, subnormal or negative x, x = 1, y zero or not finite,
// |y·log x| >= 704), which Pow64 computes; then the kernel resumes. Every
// element gets Pow64's bits. dst may be x or y.
func powF64Vec(dst, x, y []float64) {
	n := len(dst)
	x, y = x[:n], y[:n]
	for i := 0; i < n; {
		i += powF64AVX512(&dst[i], &x[i], &y[i], n-i, &powLogTab[0][0], &powExpTab[0][0])
		for end := min(i+8, n); i < end; i++ {
			dst[i] = Pow64(x[i], y[i])
		}
	}
}

// powScalarF64Vec is powF64Vec with one exponent y (PowScalarF64).
func powScalarF64Vec(dst, x []float64, y float64) {
	n := len(dst)
	x = x[:n]
	if y == 0 || y != y || math.IsInf(y, 0) {
		goPowScalar(dst, x, y)
		return
	}
	for i := 0; i < n; {
		i += powScalarF64AVX512(&dst[i], &x[i], n-i, y, &powLogTab[0][0], &powExpTab[0][0])
		for end := min(i+8, n); i < end; i++ {
			dst[i] = Pow64(x[i], y)
		}
	}
}

// vecAbs adapts a bitwise-and kernel to |x| (the mask clears the sign bit).
func vecAbs[T float](lanes int, vec func(dst, x *T, n int, m T), tail unFn[T]) unFn[T] {
	var m T
	switch p := any(&m).(type) {
	case *float32:
		*p = math.Float32frombits(1<<31 - 1)
	case *float64:
		*p = math.Float64frombits(1<<63 - 1)
	}
	return func(dst, x []T) {
		n := len(dst)
		x = x[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &x[0], nv, m)
		}
		if nv < n {
			tail(dst[nv:], x[nv:])
		}
	}
}

// vecClamp adapts a clamp kernel to any length (the tail in Go).
func vecClamp[T float](lanes int, vec func(dst, x *T, n int, lo, hi T), tail clampFn[T]) clampFn[T] {
	return func(dst, x []T, lo, hi T) {
		n := len(dst)
		x = x[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &x[0], nv, lo, hi)
		}
		if nv < n {
			tail(dst[nv:], x[nv:], lo, hi)
		}
	}
}

func vecScalar[T float](lanes int, vec func(dst, a *T, n int, s T), tail scalarFn[T]) scalarFn[T] {
	return func(dst, a []T, s T) {
		n := len(dst)
		a = a[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &a[0], nv, s)
		}
		if nv < n {
			tail(dst[nv:], a[nv:], s)
		}
	}
}

func vecAxpy[T float](lanes int, vec func(dst, x *T, n int, alpha T), tail axpyFn[T]) axpyFn[T] {
	return func(dst []T, alpha T, x []T) {
		n := len(dst)
		x = x[:n]
		nv := n - n%lanes
		if nv > 0 {
			vec(&dst[0], &x[0], nv, alpha)
		}
		if nv < n {
			tail(dst[nv:], alpha, x[nv:])
		}
	}
}

// vecExp adapts the exp-shift-sum kernel. The tail of fewer than one
// vector also goes through the kernel, on a one-vector buffer padded with
// copies of its first element (the padding lanes are discarded), so every
// element is computed by the same code whatever its position, and a tensor
// of a few elements costs one vector instead of the scalar SLEEF emulation
// (~50 ns an element). The tail's sum adds its values in order in float64,
// as the scalar path did.
func vecExp[T float](lanes int, vec func(dst, x *T, n int, shift T, sum *T)) expShiftFn[T] {
	return func(dst, x []T, shift T) T {
		n := len(dst)
		x = x[:n]
		nv := n - n%lanes
		var s float64
		var out [16]T
		if nv > 0 {
			vec(&dst[0], &x[0], nv, shift, &out[0])
			for _, v := range out[:lanes] {
				s += float64(v)
			}
		}
		if m := n - nv; m > 0 {
			var xb, db [16]T
			copy(xb[:m], x[nv:])
			for i := m; i < lanes; i++ {
				xb[i] = xb[0]
			}
			vec(&db[0], &xb[0], lanes, shift, &out[0])
			copy(dst[nv:], db[:m])
			for _, v := range db[:m] {
				s += float64(v)
			}
		}
		return T(s)
	}
}

// sumBlock is the number of elements one assembly reduction call covers;
// partial sums over at most sumBlock/lanes elements per lane keep float32
// rounding error small, and block sums are combined in float64.
const sumBlock = 4096

func vecSum[T float](lanes int, vec func(x *T, n int, out *T)) reduceFn[T] {
	return func(x []T) T {
		var s, comp float64
		var out [16]T
		for len(x) >= lanes {
			nb := min(len(x), sumBlock)
			nb -= nb % lanes
			vec(&x[0], nb, &out[0])
			var bs float64
			for _, v := range out[:lanes] {
				bs += float64(v)
			}
			s, comp = twoSumAcc(s, comp, bs)
			x = x[nb:]
		}
		for _, v := range x {
			s, comp = twoSumAcc(s, comp, float64(v))
		}
		return T(s + comp)
	}
}

func vecDot[T float](lanes int, vec func(x, y *T, n int, out *T)) dotFn[T] {
	return func(x, y []T) T {
		y = y[:len(x)]
		var s, comp float64
		var out [16]T
		for len(x) >= lanes {
			nb := min(len(x), sumBlock)
			nb -= nb % lanes
			vec(&x[0], &y[0], nb, &out[0])
			var bs float64
			for _, v := range out[:lanes] {
				bs += float64(v)
			}
			s, comp = twoSumAcc(s, comp, bs)
			x, y = x[nb:], y[nb:]
		}
		for i, v := range x {
			s, comp = twoSumAcc(s, comp, float64(v)*float64(y[i]))
		}
		return T(s + comp)
	}
}

// vecProd runs the 4-accumulator product kernel over the whole vectors
// of rows of at least 4 vectors, multiplies its lanes in order, then the
// tail; shorter rows go left to right (goProd).
func vecProd[T float](lanes int, vec func(x *T, n int, out *T)) reduceFn[T] {
	return func(x []T) T {
		if len(x) < 4*lanes {
			return goProd(x)
		}
		nv := len(x) - len(x)%lanes
		var out [16]T
		vec(&x[0], nv, &out[0])
		p := T(1)
		for _, v := range out[:lanes] {
			p *= v
		}
		for _, v := range x[nv:] {
			p *= v
		}
		return p
	}
}

func vecMax[T float](lanes int, vec func(x *T, n int, out, nan *T)) reduceFn[T] {
	return func(x []T) T {
		m := T(math.Inf(-1))
		nv := len(x) - len(x)%lanes
		if nv > 0 {
			var out, nan [16]T
			vec(&x[0], nv, &out[0], &nan[0])
			for i, v := range out[:lanes] {
				if nan[i] != nan[i] { // some element of this lane is NaN: return the first NaN
					for _, u := range x[:nv] {
						if u != u {
							return u
						}
					}
				}
				if v > m {
					m = v
				}
			}
		}
		for _, v := range x[nv:] {
			if v != v {
				return v
			}
			if v > m {
				m = v
			}
		}
		return m
	}
}

func registerHalfAsm() {
	reg := func(op string, impl any) {
		backends.Register(backends.Key{Op: op, DType: "float16", Device: "cpu"},
			backends.Candidate{Name: "avx512", Impl: impl, Requires: backends.TierAVX512, Priority: 20})
	}
	reg("f16_to_f32", cvtFn[float32, uint16](func(dst []float32, src []uint16) {
		if len(dst) > 0 {
			_ = src[len(dst)-1]
			f16ToF32AVX512(&dst[0], &src[0], len(dst))
		}
	}))
	reg("f32_to_f16", cvtFn[uint16, float32](func(dst []uint16, src []float32) {
		if len(dst) > 0 {
			_ = src[len(dst)-1]
			f32ToF16AVX512(&dst[0], &src[0], len(dst))
		}
	}))
}
