package cpu

import (
	"math"

	"github.com/tsrlang/tsr/backends"
)

// The f32 Box-Muller of PyTorch's normal_fill_16_AVX2 (ATen's
// aten/src/ATen/native/cpu/DistributionTemplates.h, the kernel its x86
// builds run for a contiguous f32 tensor of 16 or more elements), lane by
// lane: the logarithm and the sine/cosine are the Cephes single-precision
// polynomials of ATen's avx_mathfun.h (Pommier's sse_mathfun: log256_ps,
// sincos256_ps), evaluated with the fused multiply-adds that GCC's default
// FMA contraction makes of them, so that randn gives PyTorch's float32
// bits (checked bit for bit against PyTorch 1.13 by tensor's
// TestRandnF32MatchesTorch).
//
// The pure-Go functions below are the reference and the generic kernel;
// the AVX2 and AVX-512 kernels (internal/gen/normal.go) perform the same
// float32 operations in the same order, lane for lane (hardware VFMADD is
// FMA32, VSQRTPS is the float64 square root rounded to float32: a
// square root of a float32 is double-rounding safe), so every kernel gives
// the same bits (TestNormalFill16F32Variants).

// normalFillFn transforms len(b)/16 blocks of 16 uniforms in place
// (len(b) a multiple of 16).
type normalFillFn func(b []float32, mean, std float32)

var normalFill16 normalFillFn

func normalKey() backends.Key {
	return backends.Key{Op: "normal_fill16", DType: "float32", Device: "cpu"}
}

func init() {
	backends.Register(normalKey(), backends.Candidate{Name: "go", Impl: normalFillFn(goNormalFill16F32), Requires: backends.TierGeneric})
	registerNormalAsm()
	c, ok := backends.Lookup(normalKey())
	if !ok {
		panic("cpu: no kernel registered for normal_fill16/float32")
	}
	normalFill16 = c.Impl.(normalFillFn)
}

// NormalFill16F32 transforms uniforms in [0, 1) in place into normal
// samples of the given mean and std, as PyTorch's normal_fill_16_AVX2
// (DistributionTemplates.h) does on each block of 16 float32 values: for
// j < 8, with u1 = 1 - b[j] and u2 = b[j+8], r = sqrt(-2·log(u1)),
// b[j] = r·cos(2π·u2)·std + mean and b[j+8] = r·sin(2π·u2)·std + mean,
// with log and sincos avx_mathfun.h's log256_ps and sincos256_ps (Cephes
// polynomials) and PyTorch's float32 roundings and FMA contractions, so
// the results are PyTorch 1.13's bits. The blocks are b[16k:16k+16];
// len(b) must be a multiple of 16 (it panics otherwise). Outside [0, 1)
// the inputs follow the same arithmetic (u1 <= 0 gives NaN).
func NormalFill16F32(b []float32, mean, std float32) {
	if len(b)%16 != 0 {
		panic("cpu.NormalFill16F32: len(b) is not a multiple of 16")
	}
	if len(b) > 0 {
		normalFill16(b, mean, std)
	}
}

// FMA32 is the float32 fused multiply-add a*b + c with one rounding
// (VFMADD on float32 lanes), for pure-Go code that must reproduce
// compiled C's contracted mul+add bit for bit: the product is exact in
// float64, so only the float64 rounding of the sum can make the float32
// rounding wrong, and only when it lands on a float32 halfway point (or in
// the float32 subnormal range); then the sum is rounded to odd instead.
func FMA32(a, b, c float32) float32 {
	p, q := float64(a)*float64(b), float64(c)
	s := p + q
	if bits := math.Float64bits(s); bits&(1<<29-1) == 1<<28 || bits<<1 < 897<<53 {
		bv := s - p
		// e is the exact error of s (TwoSum)
		if e := (p - (s - bv)) + (q - bv); e != 0 && bits&1 == 0 {
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}

// FMA32Quick is FMA32's common case, small enough to be inlined into a
// caller's loop: a*b + c rounded through float64, with ok reporting that
// this is FMA32's result (the float64 sum is not on a float32 halfway
// point nor in the float32 subnormal range). When ok is false, call FMA32.
func FMA32Quick(a, b, c float32) (r float32, ok bool) {
	s := float64(a)*float64(b) + float64(c)
	bits := math.Float64bits(s)
	return float32(s), bits&(1<<29-1) != 1<<28 && bits<<1 >= 897<<53
}

// cephesLogf is avx_mathfun's log256_ps for one lane: NaN for x <= 0.
func cephesLogf(x float32) float32 {
	invalid := x <= 0
	const minNormPos = 0x1p-126
	if !(x > minNormPos) { // _mm256_max_ps(x, min_norm_pos)
		x = minNormPos
	}
	bits := math.Float32bits(x)
	e := float32(int32(bits>>23)-0x7f) + 1
	x = math.Float32frombits(bits&^0x7f800000 | 0x3f000000) // mantissa in [0.5, 1)
	var tmp float32
	small := x < float32(0.707106781186547524) // sqrt(1/2)
	if small {
		tmp = x
		e--
	}
	x = x - 1 + tmp // x+x-1 or x-1
	z := x * x
	y := FMA32(7.0376836292e-2, x, -1.1514610310e-1)
	y = FMA32(y, x, 1.1676998740e-1)
	y = FMA32(y, x, -1.2420140846e-1)
	y = FMA32(y, x, 1.4249322787e-1)
	y = FMA32(y, x, -1.6668057665e-1)
	y = FMA32(y, x, 2.0000714765e-1)
	y = FMA32(y, x, -2.4999993993e-1)
	y = FMA32(y, x, 3.3333331174e-1)
	y = y * x
	y = FMA32(y, z, float32(e*-2.12194440e-4))
	y = FMA32(-z, 0.5, y)
	x = FMA32(e, 0.693359375, x+y)
	if invalid {
		return float32(math.NaN())
	}
	return x
}

// cephesSincosf is avx_mathfun's sincos256_ps for one lane.
func cephesSincosf(x float32) (sin, cos float32) {
	signSin := math.Float32bits(x) & 0x80000000
	x = math.Float32frombits(math.Float32bits(x) &^ 0x80000000)
	j := int32(x * float32(1.27323954473516)) // 4/pi, truncated
	j = (j + 1) &^ 1
	y := float32(j)
	signSin ^= uint32(j&4) << 29
	signCos := uint32(^(j-2)&4) << 29
	sinPoly := j&2 == 0
	// extended-precision x - y*pi/4
	x = FMA32(y, -0.78515625, x)
	x = FMA32(y, -2.4187564849853515625e-4, x)
	x = FMA32(y, -3.77489497744594108e-8, x)
	z := x * x
	yc := FMA32(2.443315711809948e-5, z, -1.388731625493765e-3)
	yc = FMA32(yc, z, 4.166664568298827e-2)
	yc *= z
	yc = FMA32(yc, z, -(z * 0.5))
	yc++
	ys := FMA32(-1.9515295891e-4, z, 8.3321608736e-3)
	ys = FMA32(ys, z, -1.6666654611e-1)
	ys *= z
	ys = FMA32(ys, x, x)
	if !sinPoly {
		ys, yc = yc, ys
	}
	return math.Float32frombits(math.Float32bits(ys) ^ signSin), math.Float32frombits(math.Float32bits(yc) ^ signCos)
}

// normalFill16Block transforms one block of 16 uniforms in place into
// normal samples: u1 = 1 - b[j], u2 = b[j+8] for j < 8.
func normalFill16Block(b *[16]float32, mean, std float32) {
	const twoPi = float32(2 * math.Pi)
	for j := 0; j < 8; j++ {
		radius := float32(math.Sqrt(float64(-2 * cephesLogf(1-b[j]))))
		s, c := cephesSincosf(float32(twoPi * b[j+8]))
		b[j] = FMA32(float32(radius*c), std, mean)
		b[j+8] = FMA32(float32(radius*s), std, mean)
	}
}

// goNormalFill16F32 is the generic normal_fill16 kernel.
func goNormalFill16F32(b []float32, mean, std float32) {
	for k := 0; k+16 <= len(b); k += 16 {
		normalFill16Block((*[16]float32)(b[k:k+16]), mean, std)
	}
}
