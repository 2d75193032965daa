package cpu

import (
	"math"
	"math/big"
	"math/bits"
)

// Accurate float64 sine, cosine and tangent, the scalar reference of the
// f64 sin, cos and tan kernels (the AVX-512 kernels compute the same operations for
// |x| < sinCosBound and call these beyond it).
//
// Reduction: q = rint(|x|·2/π), r = |x| - q·π/2 as a double-double rh + rl:
// for |x| < 2^27 by Cody–Waite with π/2 in four parts, the first three of
// 26 bits (q·part is exact; the first subtraction is exact, the next two
// are error-free TwoSums, the fourth part's product is rounded, ~2^-100);
// beyond, by Payne–Hanek with the 1216 bits of 4/π of the math package
// (exact big-integer product, then the fraction as a double-double times
// π/2). Kernels (|rh| <= π/4, Cephes' coefficients as math.Sin):
//
//	sin(rh + rl) = rh + (rl·(1 - z/2) + rh·z·S(z)),  z = rh²
//	cos(rh + rl) = w + (((1 - w) - z/2) + (z²·C(z) - rh·rl)),  w = 1 - z/2
//
// (the second is FreeBSD's k_cos.c compensation), chosen and signed by
// q mod 4. Both are within 1 ulp of the exact result on every tested
// input (TestSinCos64Accuracy and the glibc golden values), where
// math.Sin and math.Cos are up to 7 ulp off next to multiples of π and
// tens of ulp off for huge arguments. sin(±0) = ±0; NaN and ±Inf give NaN.

// sinCosBound is the |x| below which the Cody–Waite reduction is used.
const sinCosBound = 1 << 27

// pio2Parts are π/2 = p[0] + p[1] + p[2] + p[3] (+ ~2^-130): p[0..2] of
// 26 significant bits, p[3] rounded to 53 (internal/gen computes the same).
var pio2Parts = func() (p [4]float64) {
	rest, _, err := big.ParseFloat(halfPiDigits, 10, 400, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	for i := range p {
		prec := uint(26)
		if i == 3 {
			prec = 53
		}
		v := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(rest)
		p[i], _ = v.Float64()
		rest.Sub(rest, new(big.Float).SetFloat64(p[i]))
	}
	return p
}()

// halfPiDigits is π/2 to 120 significant digits.
const halfPiDigits = "1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267105853399107404325664115332"

const (
	twoOverPi = 2 / math.Pi
	pio2Hi    = 1.57079632679489655800e+00 // π/2 = pio2Hi + pio2Lo (+ ~2^-110)
	pio2Lo    = 6.12323399573676603587e-17
)

// sinPoly / cosPoly are math's (Cephes) coefficients, highest first.
var (
	sinPoly = [...]float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	cosPoly = [...]float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
)

// mPi4 is 4/π = Σ mPi4[i]·2^(-64i), truncated (the math package's table).
var mPi4 = [...]uint64{0x0000000000000001, 0x45f306dc9c882a53, 0xf84eafa3ea69bb81, 0xb6c52b3278872083,
	0xfca2c757bd778ac3, 0x6e48dc74849ba5c0, 0x0c925dd413a32439, 0xfc3bd63962534e7d, 0xd1046bea5d768909,
	0xd338e04d68befc82, 0x7323ac7306a673e9, 0x3908bf177bf25076, 0x3ff12fffbc0b301f, 0xde5e2316b414da3e,
	0xda6cfd9e4f96136e, 0x9e8c7ecd3cbfd45a, 0xea4f758fd7cbe2f6, 0x7a0e73ef14a525d4, 0xd7f6bf623f1aba10,
	0xac06608df8f6d757}

// mPi4Int is 4/π·2^1216 truncated, as one integer.
var mPi4Int = func() *big.Int {
	m := new(big.Int)
	for _, w := range mPi4 {
		m.Lsh(m, 64)
		m.Or(m, new(big.Int).SetUint64(w))
	}
	return m
}()

// twoSum returns s = a + b and the exact error e (a + b = s + e).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// reducePio2 returns q mod 4 and rh + rl = a - q·π/2 for a = |x| >= 0,
// finite (see the file comment).
func reducePio2(a float64) (n int, rh, rl float64) {
	if a >= sinCosBound {
		return reducePio2Big(a)
	}
	p := &pio2Parts
	q := math.RoundToEven(float64(a * twoOverPi))
	r1 := math.FMA(-q, p[0], a)
	s, e1 := twoSum(r1, -float64(q*p[1]))
	s2, e2 := twoSum(s, -float64(q*p[2]))
	t := math.FMA(-q, p[3], float64(e1+e2))
	rh = s2 + t
	rl = t - float64(rh-s2)
	return int(q) & 3, rh, rl
}

// reducePio2Big is reducePio2 for a >= 2^27 (math's trigReduce widened to
// a 192-bit product): with a = m·2^exp, the four 64-bit words of 4/π
// starting at bit exp+61 (mPi4) times m give y = a·4/π mod 8 as a 3.189
// fixed-point number; q = round(y/2) mod 4 and the fraction y/2 - q, in
// [-1/2, 1/2], as a double-double, times π/2.
func reducePio2Big(a float64) (n int, rh, rl float64) {
	ix := math.Float64bits(a)
	exp := int(ix>>52&0x7ff) - 1023 - 52
	m := ix&(1<<52-1) | 1<<52
	digit, shift := uint(exp+61)/64, uint(exp+61)%64
	word := func(i uint) uint64 {
		if i < uint(len(mPi4)) {
			return mPi4[i]
		}
		return 0
	}
	var z [4]uint64
	for i := range z {
		z[i] = word(digit+uint(i)) << shift
		if shift != 0 {
			z[i] |= word(digit+uint(i)+1) >> (64 - shift)
		}
	}
	z3hi, _ := bits.Mul64(z[3], m)
	z2hi, z2lo := bits.Mul64(z[2], m)
	z1hi, z1lo := bits.Mul64(z[1], m)
	lo, c := bits.Add64(z2lo, z3hi, 0)
	mid, c := bits.Add64(z1lo, z2hi, c)
	hi, _ := bits.Add64(z[0]*m, z1hi, c)
	// y/2 mod 4 = hi>>62 . (the other 190 bits); round to nearest
	n = int(hi >> 62)
	f0, f1, f2 := hi<<2|mid>>62, mid<<2|lo>>62, lo<<2 // fraction of y/2, 2^-192 units
	neg := f0>>63 != 0
	if neg { // fraction >= 1/2: q+1, and the fraction minus 1 (negated)
		n++
		var b uint64
		f2, b = bits.Sub64(0, f2, 0)
		f1, b = bits.Sub64(0, f1, b)
		f0, _ = bits.Sub64(0, f0, b)
	}
	// |fraction| = (f0, f1, f2)·2^-192 < 2^-1 as a double-double
	lz := uint(bits.LeadingZeros64(f0))
	if f0 == 0 {
		f0, f1, f2, lz = f1, f2, 0, uint(bits.LeadingZeros64(f1))+64
		if lz >= 128 { // zero fraction: cannot happen for a float64 (π is irrational)
			return n & 3, 0, 0
		}
	}
	sh := lz % 64
	if sh != 0 {
		f0 = f0<<sh | f1>>(64-sh)
		f1 = f1<<sh | f2>>(64-sh)
	}
	scale := -64 - int(lz)
	fh := math.Ldexp(float64(f0>>11<<11), scale)
	fl := math.Ldexp(float64(f0&0x7ff)+math.Ldexp(float64(f1), -64), scale)
	if neg {
		fh, fl = -fh, -fl
	}
	h := fh * pio2Hi
	l := math.FMA(fh, pio2Hi, -h) + float64(fh*pio2Lo) + float64(fl*pio2Hi)
	rh = h + l
	rl = l - float64(rh-h)
	return n & 3, rh, rl
}

// reducePio2BigSlow is reducePio2Big with math/big (the test reference):
// N = m·(4/π·2^1216) exactly
// (a = m·2^exp), x·2/π = N/2^S, q = round(N/2^S), and the remainder
// (N - q·2^S)/2^S in [-1/2, 1/2] as a double-double, times π/2.
func reducePio2BigSlow(a float64) (n int, rh, rl float64) {
	ix := math.Float64bits(a)
	exp := int(ix>>52&0x7ff) - 1023 - 52
	m := ix&(1<<52-1) | 1<<52
	N := new(big.Int).Mul(new(big.Int).SetUint64(m), mPi4Int)
	S := uint(1217 - exp) // x·2/π = N·2^-S; exp <= 971, so S >= 246
	q := new(big.Int).Add(N, new(big.Int).Lsh(big.NewInt(1), S-1))
	q.Rsh(q, S)
	R := new(big.Int).Sub(N, new(big.Int).Lsh(q, S))
	if w := q.Bits(); len(w) > 0 {
		n = int(w[0] & 3)
	}
	f := new(big.Float).SetPrec(256).SetInt(R)
	f.SetMantExp(f, -int(S))
	fh, _ := f.Float64()
	f.Sub(f, new(big.Float).SetPrec(256).SetFloat64(fh))
	fl, _ := f.Float64()
	h := fh * pio2Hi
	l := math.FMA(fh, pio2Hi, -h) + float64(fh*pio2Lo) + float64(fl*pio2Hi)
	rh = h + l
	rl = l - float64(rh-h)
	return n, rh, rl
}

// sinCosKernels returns sin(rh + rl) and cos(rh + rl) for |rh| <= π/4,
// each also as a double-double s + sl, c + cl (the rounding errors of the
// last additions, for tan).
func sinCosKernels(rh, rl float64) (s, sl, c, cl float64) {
	z := rh * rh
	ps, pc := sinPoly[0], cosPoly[0]
	for i := 1; i < len(sinPoly); i++ {
		ps = math.FMA(ps, z, sinPoly[i])
		pc = math.FMA(pc, z, cosPoly[i])
	}
	hz := 0.5 * z
	v := rh * z
	small := math.FMA(v, ps, math.FMA(-hz, rl, rl))
	s = rh + small
	sl = small - float64(s-rh)
	w := 1 - hz
	corr := float64(float64(1-w)-hz) + math.FMA(float64(z*z), pc, -float64(rh*rl))
	c = w + corr
	cl = corr - float64(c-w)
	return s, sl, c, cl
}

// Sin64 is sin(x) within 1 ulp (see the file comment): the scalar
// reference of SinF64 and SinF32.
func Sin64(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := reducePio2(math.Abs(x))
	s, _, c, _ := sinCosKernels(rh, rl)
	r := s
	if n&1 != 0 {
		r = c
	}
	if n&2 != 0 {
		r = -r
	}
	if math.Signbit(x) {
		r = -r
	}
	return r
}

// Cos64 is cos(x) within 1 ulp, the scalar reference of CosF64 and CosF32.
func Cos64(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := reducePio2(math.Abs(x))
	s, _, c, _ := sinCosKernels(rh, rl)
	r := c
	if n&1 != 0 {
		r = -s
	}
	if n&2 != 0 {
		r = -r
	}
	return r
}

// Tan64 is tan(x) within 1 ulp, the scalar reference of TanF64 and
// TanF32: the double-double quotient (s + sl)/(c + cl), or -(c + cl)/(s +
// sl) for odd q, of sinCosKernels' results: t0 = nh/dh, then one
// correction t0 + (fma(-t0, dh, nh) + fma(-t0, dl, nl))/dh.
func Tan64(x float64) float64 {
	if x != x || math.IsInf(x, 0) {
		return math.NaN()
	}
	n, rh, rl := reducePio2(math.Abs(x))
	s, sl, c, cl := sinCosKernels(rh, rl)
	nh, nl, dh, dl := s, sl, c, cl
	if n&1 != 0 {
		nh, nl, dh, dl = -c, -cl, s, sl
	}
	t0 := nh / dh
	r := math.FMA(-t0, dh, nh) + math.FMA(-t0, dl, nl)
	t := t0 + r/dh
	if math.Signbit(x) {
		t = -t
	}
	return t
}
