package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

// Elementwise and reduction kernels on contiguous slices.
//
// Every kernel has a pure-Go candidate (registered as "go") and, on amd64,
// AVX2 and AVX-512 assembly candidates; the exported functions call the
// candidate chosen by the backends registry. Length rules: for binary ops
// len(a) and len(b) must be >= len(dst) and dst[i] is computed for
// i < len(dst); violations panic (a programming error in the caller, who
// validates shapes). dst may alias a or b exactly (in-place), but must not
// partially overlap them.

// Kernel function types, one per op kind: the registry Impl types.
type (
	binFn[T float]       func(dst, a, b []T)
	scalarFn[T float]    func(dst, a []T, s T)
	axpyFn[T float]      func(dst []T, alpha T, x []T)
	expShiftFn[T float]  func(dst, x []T, shift T) T // dst = exp(x-shift); returns Σdst
	reduceFn[T float]    func(x []T) T
	dotFn[T float]       func(x, y []T) T
	unFn[T float]        func(dst, x []T)
	clampFn[T float]     func(dst, x []T, lo, hi T)
	rowsFn[T float]      func(dst, x []T, rows, cols int)          // row-wise over rows×cols, contiguous
	rowsInvFn[T float]   func(dst, x []T, rows, cols int, inv []T) // rowsFn, plus one value per row
	powScalarFn[T float] func(dst, x []T, y T)                     // dst = x**y, y not 0, ±Inf or NaN
)

// kernels is the set of primitive kernels of one tier for one dtype.
type kernels[T float] struct {
	add, sub, mul, div   binFn[T]
	addScalar, mulScalar scalarFn[T]
	axpy                 axpyFn[T]
	expShiftSum          expShiftFn[T]
	sum, max             reduceFn[T]
	prod                 reduceFn[T] // product accumulated in T (see ProdF32)
	dot                  dotFn[T]
	maximum, minimum     binFn[T] // elementwise, NaN-propagating
	sqrt, tanh           unFn[T]
	sigmoid, log         unFn[T]
	erf, gelu            unFn[T]     // gelu: the exact (erf) form, see GeluF32
	abs                  unFn[T]     // |x|: the sign bit cleared
	clamp                clampFn[T]  // x86 MIN(hi, MAX(lo, x)): see goClamp
	leakyRelu            scalarFn[T] // x > 0 ? x : x*s: see goLeakyRelu
	sin, cos, tan        unFn[T]     // trig.go
	geluTanh             unFn[T]     // gelu(approximate="tanh"): see GeluTanhF32
	atan2                binFn[T]    // atan2(a, b): a the y coordinate
	pow                  binFn[T]    // a**b: Pow64 (Pow32 for float32)
	powScalar            powScalarFn[T]
	// softmaxRows is a fused row softmax; registerKernels replaces a nil
	// one with the composition of the tier's max, exp_shift_sum and
	// mul_scalar (softmax.go).
	softmaxRows rowsFn[T]
	// expShiftRows is softmaxRows without the last pass: dst = exp(x -
	// rowmax), inv[r] = 1/Σ dst[r,:]; nil means max + exp_shift_sum.
	expShiftRows rowsInvFn[T]
}

// active kernels, resolved from the registry at init.
var kF32 kernels[float32]
var kF64 kernels[float64]

func goKernels[T float]() kernels[T] {
	return kernels[T]{
		add: func(dst, a, b []T) {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				dst[i] = a[i] + b[i]
			}
		},
		sub: func(dst, a, b []T) {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				dst[i] = a[i] - b[i]
			}
		},
		mul: func(dst, a, b []T) {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				dst[i] = a[i] * b[i]
			}
		},
		div: func(dst, a, b []T) {
			a, b = a[:len(dst)], b[:len(dst)]
			for i := range dst {
				dst[i] = a[i] / b[i]
			}
		},
		addScalar: func(dst, a []T, s T) {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = a[i] + s
			}
		},
		mulScalar: func(dst, a []T, s T) {
			a = a[:len(dst)]
			for i := range dst {
				dst[i] = a[i] * s
			}
		},
		axpy:        goAxpy[T],
		expShiftSum: goExpShiftSum[T],
		sum:         goSum[T],
		max:         goMax[T],
		prod:        goProd[T],
		dot:         goDot[T],
		maximum:     goMaximum[T],
		minimum:     goMinimum[T],
		sqrt:        goSqrt[T],
		tanh:        goTanh[T],
		sigmoid:     goSigmoid[T],
		log:         goLog[T],
		erf:         goErf[T],
		gelu:        goGelu[T],
		abs:         goAbs[T],
		clamp:       goClamp[T],
		leakyRelu:   goLeakyRelu[T],
		geluTanh:    goGeluTanh[T],
		sin:         goSin[T],
		cos:         goCos[T],
		tan:         goTan[T],
		atan2:       goAtan2[T],
		pow:         goPow[T],
		powScalar:   goPowScalar[T],
	}
}

// goAbs clears the sign bit of each x[i] (so |-0| = +0 and |NaN| is a NaN).
func goAbs[T float](dst, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = T(math.Abs(float64(x[i])))
	}
}

// goClamp sets dst[i] = MIN(hi, MAX(lo, x[i])) with the x86 MAXPS/MINPS
// semantics MAX(a, b) = a > b ? a : b and MIN(a, b) = a < b ? a : b: a NaN
// x[i] passes through (as PyTorch's clamp), a tie keeps x[i] (-0.0 stays
// -0.0 against a 0 bound), and lo > hi gives hi. NaN bounds are ignored;
// callers handle them.
func goClamp[T float](dst, x []T, lo, hi T) {
	x = x[:len(dst)]
	for i, v := range x {
		if lo > v {
			v = lo
		}
		if hi < v {
			v = hi
		}
		dst[i] = v
	}
}

// goLeakyRelu sets dst[i] = x[i] > 0 ? x[i] : x[i]*s, PyTorch's
// leaky_relu: a NaN, ±0 or negative x[i] takes the product (so -0.0 stays
// -0.0 for s >= 0, and the product's NaN is the result for a NaN x[i]).
func goLeakyRelu[T float](dst, x []T, s T) {
	x = x[:len(dst)]
	for i, v := range x {
		if !(v > 0) {
			v *= s
		}
		dst[i] = v
	}
}

func goAxpy[T float](dst []T, alpha T, x []T) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += alpha * x[i]
	}
}

// expScalar is exp in T precision as PyTorch's CPU kernels compute it:
// SLEEF's expf / exp (ExpSleefF32, ExpSleefF64), bit-identical to the
// vector kernels.
func expScalar[T float](x T) T {
	if v, ok := any(x).(float32); ok {
		return T(ExpSleefF32(v))
	}
	return T(ExpSleefF64(float64(x)))
}

// SLEEF's xexp (sleefsimddp.c), the 1-ulp f64 exp behind PyTorch's
// Vectorized<double>::exp; the assembly computes the same (internal/gen
// sleefF64).
const (
	sleefLog2eF64 = 1.442695040888963407359924681001892137426645954152985934135449406931
	sleefL2UF64   = .69314718055966295651160180568695068359375
	sleefL2LF64   = .28235290563031577122588448175013436025525412068e-12
)

// sleefExpPolyF64 are c1 .. c10 of xexp's polynomial.
var sleefExpPolyF64 = [...]float64{0.1666666666666669072e+0, 0.4166666666666602598e-1, 0.8333333333314938210e-2,
	0.1388888888914497797e-2, 0.1984126989855865850e-3, 0.2480158687479686264e-4,
	0.2755723402025388239e-5, 0.2755762628169491192e-6, 0.2511210703042288022e-7,
	0.2081276378237164457e-8}

// ExpSleefF64 returns e^x as SLEEF's xexp computes it (≤ 1 ulp): k =
// rint(x·log2 e), s = x - k·L2U - k·L2L with FMA, the degree-10 polynomial
// by Estrin's scheme then three FMAs, times 2^k (two exact power-of-two
// products, one rounding); 0 below -1000, +Inf above 709.782712893384.
func ExpSleefF64(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 709.782712893384:
		return math.Inf(1)
	case x < -1000:
		return 0
	}
	c := &sleefExpPolyF64
	u := math.RoundToEven(x * sleefLog2eF64)
	q := int(u)
	s := math.FMA(u, -sleefL2UF64, x)
	s = math.FMA(u, -sleefL2LF64, s)
	s2 := s * s
	s4 := s2 * s2
	s8 := s4 * s4
	mla := math.FMA
	u = mla(s8, mla(s, c[9], c[8]),
		mla(s4, mla(s2, mla(s, c[7], c[6]), mla(s, c[5], c[4])),
			mla(s2, mla(s, c[3], c[2]), mla(s, c[1], c[0]))))
	u = mla(u, s, 0.5)
	u = mla(u, s, 1)
	u = mla(u, s, 1)
	return u * pow2(q>>1) * pow2(q-q>>1)
}

// pow2 is 2^k for a normal exponent k.
func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

// SLEEF's xexpf (sleefsimdsp.c; Shibata & Ozaki), the 1-ulp f32 exp behind
// PyTorch's Vectorized<float>::exp and so torch.exp, softmax and friends
// on CPU. The assembly kernels compute the same operations in the same
// order (internal/gen sleefF32), so f32 exp is bit-identical across tiers,
// slice tails and PyTorch.
const (
	sleefLog2eF32 float32 = 1.442695040888963407359924681001892137426645954152985934135449406931
	sleefL2UF32   float32 = 0.693145751953125
	sleefL2LF32   float32 = 1.428606765330187045e-06
)

var sleefExpPolyF32 = [...]float32{0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
	0.0416664853692054748535156, 0.166666671633720397949219, 0.5}

// fma32 is a*b+c rounded to float32. The product of two float32 values
// is exact in float64; the float64 sum can round once before the float32
// rounding, which differs from a single-rounding FMA only in rare ties.
func fma32(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// ExpSleefF32 returns e^x as SLEEF's expf computes it (≤ 1 ulp): k =
// rint(x·log2 e) in float32, s = x - k·L2U - k·L2L with FMA, e^s =
// 1 + (s + s²·P(s)) (P of degree 5, Horner with FMA), times 2^k; 0 below
// -104, +Inf above 100, NaN for NaN.
func ExpSleefF32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x < -104:
		return 0
	case x > 100:
		return float32(math.Inf(1))
	}
	q := float32(math.RoundToEven(float64(x * sleefLog2eF32)))
	s := fma32(q, -sleefL2UF32, x)
	s = fma32(q, -sleefL2LF32, s)
	u := sleefExpPolyF32[0]
	for _, c := range sleefExpPolyF32[1:] {
		u = fma32(u, s, c)
	}
	u = 1 + fma32(s*s, u, s)
	// u·2^q in one rounding (float64 holds it exactly, also when the
	// float32 result is subnormal or overflows)
	return float32(math.Ldexp(float64(u), int(q)))
}

func goExpShiftSum[T float](dst, x []T, shift T) T {
	x = x[:len(dst)]
	var s float64
	for i := range dst {
		v := expScalar(x[i] - shift)
		dst[i] = v
		s += float64(v)
	}
	return T(s)
}

// goSum is pairwise-free but exact enough: it accumulates in float64 with
// Neumaier compensation, so even float64 inputs sum to within a few ulp.
func goSum[T float](x []T) T {
	var s, comp float64
	for _, v := range x {
		s, comp = twoSumAcc(s, comp, float64(v))
	}
	return T(s + comp)
}

// twoSumAcc is one step of Neumaier's compensated summation.
func twoSumAcc(s, comp, v float64) (float64, float64) {
	t := s + v
	if math.Abs(s) >= math.Abs(v) {
		comp += (s - t) + v
	} else {
		comp += (v - t) + s
	}
	return t, comp
}

func goDot[T float](x, y []T) T {
	y = y[:len(x)]
	var s, comp float64
	for i, v := range x {
		s, comp = twoSumAcc(s, comp, float64(v)*float64(y[i]))
	}
	return T(s + comp)
}

// goProd multiplies x left to right in T (PyTorch's scalar loop).
func goProd[T float](x []T) T {
	p := T(1)
	for _, v := range x {
		p *= v
	}
	return p
}

// ProdF32 returns the product of x accumulated in float32, as PyTorch's
// prod for float (binary_kernel_reduce_vec in scalar_t, not a wider
// type): intermediate products overflow to ±Inf and underflow to 0 in
// float32 as PyTorch's do. Rows of fewer than 4 vectors (64 elements with
// AVX-512, 32 with AVX2) are multiplied left to right, as PyTorch's
// scalar loop for short rows (bit-identical); longer rows use 4 vector
// accumulators whose lanes are multiplied in lane order, then the tail
// left to right: the same kind of association as PyTorch's vectorized
// reduction, but not its exact lane grouping, so the last bits of long
// products may differ from PyTorch's. NaN propagates; 0·Inf is NaN.
func ProdF32(x []float32) float32 { return kF32.prod(x) }

// ProdF64 is ProdF32 in float64.
func ProdF64(x []float64) float64 { return kF64.prod(x) }

func goMax[T float](x []T) T {
	m := T(math.Inf(-1))
	for _, v := range x {
		if v != v {
			return v
		}
		if v > m {
			m = v
		}
	}
	return m
}

// registerKernels registers k under the op names used by the registry
// (e.g. "add", "exp_shift_sum") for dtype. A nil kernel of an optional op
// (exp_shift_sum and the math ops) is not registered: that tier has no
// candidate and the next lower one is used.
func registerKernels[T float](dtype, name string, tier backends.Tier, prio int, k kernels[T]) {
	reg := func(op string, impl any) {
		backends.Register(backends.Key{Op: op, DType: dtype, Device: "cpu"},
			backends.Candidate{Name: name, Impl: impl, Requires: tier, Priority: prio})
	}
	for _, u := range []struct {
		op string
		f  unFn[T]
	}{{"sqrt", k.sqrt}, {"tanh", k.tanh}, {"sigmoid", k.sigmoid}, {"log", k.log}, {"erf", k.erf}, {"gelu", k.gelu},
		{"sin", k.sin}, {"cos", k.cos}, {"tan", k.tan}, {"gelu_tanh", k.geluTanh}} {
		if u.f != nil {
			reg(u.op, u.f)
		}
	}
	if k.abs != nil {
		reg("abs", k.abs)
	}
	if k.clamp != nil {
		reg("clamp", k.clamp)
	}
	if k.leakyRelu != nil {
		reg("leaky_relu", k.leakyRelu)
	}
	if k.atan2 != nil {
		reg("atan2", k.atan2)
	}
	if k.pow != nil {
		reg("pow", k.pow)
	}
	if k.powScalar != nil {
		reg("pow_scalar", k.powScalar)
	}
	if k.maximum != nil {
		reg("maximum", k.maximum)
	}
	if k.minimum != nil {
		reg("minimum", k.minimum)
	}
	reg("add", k.add)
	reg("sub", k.sub)
	reg("mul", k.mul)
	reg("div", k.div)
	reg("add_scalar", k.addScalar)
	reg("mul_scalar", k.mulScalar)
	reg("axpy", k.axpy)
	if k.expShiftSum != nil {
		reg("exp_shift_sum", k.expShiftSum)
	}
	reg("sum", k.sum)
	reg("max", k.max)
	if k.prod != nil {
		reg("prod", k.prod)
	}
	reg("dot", k.dot)
	// The composites below use the tier's own primitives.
	prim := k
	if prim.expShiftSum == nil {
		prim.expShiftSum = goExpShiftSum[T]
	}
	if k.softmaxRows == nil {
		k.softmaxRows = func(dst, x []T, rows, cols int) { softmaxRowsComposite(&prim, dst, x, rows, cols, false) }
	} else if _, isF64 := any(T(0)).(float64); isF64 {
		// PyTorch sums a float64 row in 4 lanes combined in order
		// (reduceSumTorchF64), which the fused kernel's lanes do not: the
		// composite for inputs of up to torchOrderMax elements.
		fused := k.softmaxRows
		k.softmaxRows = func(dst, x []T, rows, cols int) {
			if rows*cols <= torchOrderMax {
				softmaxRowsComposite(&prim, dst, x, rows, cols, false)
				return
			}
			fused(dst, x, rows, cols)
		}
	} else if _, isF32 := any(T(0)).(float32); isF32 {
		// rows shorter than one AVX2 vector: PyTorch adds them left to right
		// (reduceSumTorchF32), which the fused kernel's lane sums do not
		fused := k.softmaxRows
		k.softmaxRows = func(dst, x []T, rows, cols int) {
			if cols < 8 {
				softmaxRowsComposite(&prim, dst, x, rows, cols, false)
				return
			}
			fused(dst, x, rows, cols)
		}
	}
	reg("softmax_rows", k.softmaxRows)
	if k.expShiftRows == nil {
		k.expShiftRows = func(dst, x []T, rows, cols int, inv []T) { expShiftRowsComposite(&prim, dst, x, rows, cols, inv) }
	}
	reg("exp_shift_rows", k.expShiftRows)
}

// resolveKernels reads the chosen kernels for dtype back from the registry.
func resolveKernels[T float](dtype string) kernels[T] {
	get := func(op string) any {
		c, ok := backends.Lookup(backends.Key{Op: op, DType: dtype, Device: "cpu"})
		if !ok {
			panic("cpu: no kernel registered for " + op + "/" + dtype)
		}
		return c.Impl
	}
	return kernels[T]{
		add:          get("add").(binFn[T]),
		sub:          get("sub").(binFn[T]),
		mul:          get("mul").(binFn[T]),
		div:          get("div").(binFn[T]),
		addScalar:    get("add_scalar").(scalarFn[T]),
		mulScalar:    get("mul_scalar").(scalarFn[T]),
		axpy:         get("axpy").(axpyFn[T]),
		expShiftSum:  get("exp_shift_sum").(expShiftFn[T]),
		sum:          get("sum").(reduceFn[T]),
		max:          get("max").(reduceFn[T]),
		prod:         get("prod").(reduceFn[T]),
		dot:          get("dot").(dotFn[T]),
		maximum:      get("maximum").(binFn[T]),
		minimum:      get("minimum").(binFn[T]),
		sqrt:         get("sqrt").(unFn[T]),
		tanh:         get("tanh").(unFn[T]),
		sigmoid:      get("sigmoid").(unFn[T]),
		log:          get("log").(unFn[T]),
		erf:          get("erf").(unFn[T]),
		gelu:         get("gelu").(unFn[T]),
		abs:          get("abs").(unFn[T]),
		clamp:        get("clamp").(clampFn[T]),
		leakyRelu:    get("leaky_relu").(scalarFn[T]),
		geluTanh:     get("gelu_tanh").(unFn[T]),
		sin:          get("sin").(unFn[T]),
		cos:          get("cos").(unFn[T]),
		tan:          get("tan").(unFn[T]),
		atan2:        get("atan2").(binFn[T]),
		pow:          get("pow").(binFn[T]),
		powScalar:    get("pow_scalar").(powScalarFn[T]),
		softmaxRows:  get("softmax_rows").(rowsFn[T]),
		expShiftRows: get("exp_shift_rows").(rowsInvFn[T]),
	}
}

func init() {
	registerKernels("float32", "go", backends.TierGeneric, 0, goKernels[float32]())
	registerKernels("float64", "go", backends.TierGeneric, 0, goKernels[float64]())
	registerKernelsAsm()
	registerRows()
	resolveRows()
	kF32 = resolveKernels[float32]("float32")
	kF64 = resolveKernels[float64]("float64")
}

// axpyF32 / axpyF64 adapt the active axpy for the small-GEMM path.
func axpyF32(dst []float32, alpha float32, x []float32) { kF32.axpy(dst, alpha, x) }
func axpyF64(dst []float64, alpha float64, x []float64) { kF64.axpy(dst, alpha, x) }

func checkBin(name string, n, la, lb int) {
	if la < n || lb < n {
		panic("cpu." + name + ": input shorter than dst")
	}
}

// AddF32 sets dst[i] = a[i] + b[i] for i < len(dst). Panics if a or b is shorter than dst.
func AddF32(dst, a, b []float32) { checkBin("AddF32", len(dst), len(a), len(b)); kF32.add(dst, a, b) }

// SubF32 sets dst[i] = a[i] - b[i] for i < len(dst). Panics if a or b is shorter than dst.
func SubF32(dst, a, b []float32) { checkBin("SubF32", len(dst), len(a), len(b)); kF32.sub(dst, a, b) }

// MulF32 sets dst[i] = a[i] * b[i] for i < len(dst). Panics if a or b is shorter than dst.
func MulF32(dst, a, b []float32) { checkBin("MulF32", len(dst), len(a), len(b)); kF32.mul(dst, a, b) }

// DivF32 sets dst[i] = a[i] / b[i] (IEEE division: x/0 = ±Inf, 0/0 = NaN)
// for i < len(dst). Panics if a or b is shorter than dst.
func DivF32(dst, a, b []float32) { checkBin("DivF32", len(dst), len(a), len(b)); kF32.div(dst, a, b) }

// AddScalarF32 sets dst[i] = a[i] + s for i < len(dst). Panics if a is shorter than dst.
func AddScalarF32(dst, a []float32, s float32) {
	checkBin("AddScalarF32", len(dst), len(a), len(a))
	kF32.addScalar(dst, a, s)
}

// MulScalarF32 sets dst[i] = a[i] * s for i < len(dst). Panics if a is shorter than dst.
func MulScalarF32(dst, a []float32, s float32) {
	checkBin("MulScalarF32", len(dst), len(a), len(a))
	kF32.mulScalar(dst, a, s)
}

// AxpyF32 sets dst[i] += alpha*x[i] for i < len(dst) (BLAS saxpy; fused
// multiply-add in the SIMD variants). Panics if x is shorter than dst.
func AxpyF32(dst []float32, alpha float32, x []float32) {
	checkBin("AxpyF32", len(dst), len(x), len(x))
	kF32.axpy(dst, alpha, x)
}

// ExpF32 sets dst[i] = e^x[i] for i < len(dst), with at most 2 ulp error
// (exp(NaN) = NaN, overflow to +Inf, gradual underflow to 0). The SIMD
// variant uses Cephes expf: Cody–Waite range reduction x = k·ln2 + r and a
// degree-5 polynomial, scaled by 2^k with VSCALEFPS. Panics if x is shorter than dst.
func ExpF32(dst, x []float32) {
	checkBin("ExpF32", len(dst), len(x), len(x))
	kF32.expShiftSum(dst, x, 0)
}

// SumF32 returns Σx. The SIMD variants sum blocks of 4096 elements in 64
// float32 lanes and add the block sums in float64; the pure-Go variant
// accumulates in float64 with Neumaier compensation. The result is within
// 1e-6 relative of the float64 sum for well-conditioned inputs. Sum of an
// empty slice is 0.
func SumF32(x []float32) float32 {
	if r := kF32.sum(x); r == r {
		return r
	}
	// The compensation term turns ±Inf into NaN (Inf - Inf); redo the sum
	// plainly so that Inf propagates as IEEE addition says.
	return float32(plainSum(x))
}

// plainSum is an uncompensated float64 sum: the reference for inputs with
// infinities, where it is exact in the IEEE sense (Inf, -Inf or NaN).
func plainSum[T float32 | float64](x []T) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s
}

// plainDot is plainSum of the products.
func plainDot[T float32 | float64](x, y []T) float64 {
	var s float64
	for i, v := range x {
		s += float64(v) * float64(y[i])
	}
	return s
}

// MaxF32 returns the largest element of x; NaN if any element is NaN;
// -Inf for an empty slice (callers reject empty reductions themselves).
func MaxF32(x []float32) float32 { return kF32.max(x) }

// DotF32 returns Σ x[i]*y[i] for i < len(x), accumulated as SumF32 does.
// Panics if y is shorter than x.
func DotF32(x, y []float32) float32 {
	checkBin("DotF32", len(x), len(y), len(y))
	if r := kF32.dot(x, y); r == r {
		return r
	}
	return float32(plainDot(x, y[:len(x)]))
}

// AddF64 is AddF32 in float64.
func AddF64(dst, a, b []float64) { checkBin("AddF64", len(dst), len(a), len(b)); kF64.add(dst, a, b) }

// SubF64 is SubF32 in float64.
func SubF64(dst, a, b []float64) { checkBin("SubF64", len(dst), len(a), len(b)); kF64.sub(dst, a, b) }

// MulF64 is MulF32 in float64.
func MulF64(dst, a, b []float64) { checkBin("MulF64", len(dst), len(a), len(b)); kF64.mul(dst, a, b) }

// DivF64 is DivF32 in float64.
func DivF64(dst, a, b []float64) { checkBin("DivF64", len(dst), len(a), len(b)); kF64.div(dst, a, b) }

// AddScalarF64 is AddScalarF32 in float64.
func AddScalarF64(dst, a []float64, s float64) {
	checkBin("AddScalarF64", len(dst), len(a), len(a))
	kF64.addScalar(dst, a, s)
}

// MulScalarF64 is MulScalarF32 in float64.
func MulScalarF64(dst, a []float64, s float64) {
	checkBin("MulScalarF64", len(dst), len(a), len(a))
	kF64.mulScalar(dst, a, s)
}

// AxpyF64 is AxpyF32 in float64 (BLAS daxpy).
func AxpyF64(dst []float64, alpha float64, x []float64) {
	checkBin("AxpyF64", len(dst), len(x), len(x))
	kF64.axpy(dst, alpha, x)
}

// ExpF64 is ExpF32 in float64; the SIMD variant uses Cephes exp (Cody–Waite
// reduction and the [2/3] Padé form), scaled with VSCALEFPD; ≤ 2 ulp.
func ExpF64(dst, x []float64) {
	checkBin("ExpF64", len(dst), len(x), len(x))
	kF64.expShiftSum(dst, x, 0)
}

// SumF64 is SumF32 in float64: blocks of 4096 in 32 lanes, block sums added
// with Neumaier compensation.
func SumF64(x []float64) float64 {
	if r := kF64.sum(x); r == r {
		return r
	}
	return plainSum(x)
}

// MaxF64 is MaxF32 in float64.
func MaxF64(x []float64) float64 { return kF64.max(x) }

// DotF64 is DotF32 in float64.
func DotF64(x, y []float64) float64 {
	checkBin("DotF64", len(x), len(y), len(y))
	if r := kF64.dot(x, y); r == r {
		return r
	}
	return plainDot(x, y[:len(x)])
}
