package cpu

import "math"

// LogSleefF32 returns ln x as SLEEF's logf_u10 computes it (xlogf_u1 of
// sleefsimdsp.c with FMA: the AVX2/AVX-512 kernel torch.log runs for f32
// on the CPU, tails included), so its results are PyTorch's bit for bit.
// Algorithm: x = m·2^e with m in [0.75, 1.5), y = (m-1)/(m+1) in
// double-float arithmetic, ln x = e·ln2 + 2y + y³·P(y²) (P of degree 2),
// summed as a float pair; subnormal inputs are scaled by 2^64 first.
// Special values: ln(±0) = -Inf, ln(x<0) = NaN, ln(+Inf) = +Inf.
func LogSleefF32(d float32) float32 {
	o := d < math.SmallestNonzeroFloat32*(1<<23) // FLT_MIN
	if o {
		d = float32(d * (1 << 32) * (1 << 32))
	}
	e := int32(math.Float32bits(float32(d*(1.0/0.75)))>>23&0xff) - 0x7f
	m := math.Float32frombits(uint32(int32(math.Float32bits(d)) + (-e)<<23))
	if o {
		e -= 64
	}
	// s = (ln2 as a float pair) · e
	sx, sy := dfMulF32(0.69314718246459960938, -1.904654323148236017e-09, float32(e))
	nx, ny := dfAdd2F32(-1, m)
	dx, dy := dfAdd2F32(1, m)
	xx, xy := dfDivF32(nx, ny, dx, dy)
	x2 := float32(xx * xx)
	t := fma32(0.3027294874, x2, 0.3996108174)
	t = fma32(t, x2, 0.6666694880)
	// s += 2x (|s| >= |2x| is SLEEF's assumption, not needed for exactness here)
	ax, ay := float32(xx*2), float32(xy*2)
	s := float32(sx + ax)
	sy = float32(float32(float32(float32(sx-s)+ax)+sy) + ay)
	sx = s
	// s += x²·x·t
	v := float32(float32(x2*xx) * t)
	s = float32(sx + v)
	sy = float32(float32(float32(sx-s)+v) + sy)
	r := float32(s + sy)
	switch {
	case math.IsInf(float64(d), 1):
		return float32(math.Inf(1))
	case d < 0 || d != d:
		return float32(math.NaN())
	case d == 0:
		return float32(math.Inf(-1))
	}
	return r
}

// dfMulF32 is SLEEF's dfmul_vf2_vf2_vf with FMA: the float pair (x, y)
// times z, as a float pair.
func dfMulF32(x, y, z float32) (float32, float32) {
	s := float32(x * z)
	return s, fma32(y, z, fma32(x, z, -s))
}

// dfAdd2F32 is SLEEF's dfadd2_vf2_vf_vf: x + y exactly, as a float pair
// (Knuth's two-sum).
func dfAdd2F32(x, y float32) (float32, float32) {
	s := float32(x + y)
	v := float32(s - x)
	return s, float32(float32(x-float32(s-v)) + float32(y-v))
}

// dfDivF32 is SLEEF's dfdiv_vf2_vf2_vf2 with FMA: the float pair (nx, ny)
// divided by (dx, dy), as a float pair.
func dfDivF32(nx, ny, dx, dy float32) (float32, float32) {
	t := float32(1 / dx)
	s := float32(nx * t)
	u := fma32(t, nx, -s)
	v := fma32(-dy, t, fma32(-dx, t, 1))
	return s, fma32(s, v, fma32(ny, t, u))
}

// LogSleefSliceF32 sets dst[i] = LogSleefF32(x[i]) for i < len(dst).
// Panics if x is shorter than dst.
func LogSleefSliceF32(dst, x []float32) {
	checkBin("LogSleefSliceF32", len(dst), len(x), len(x))
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = LogSleefF32(v)
	}
}

// LogSleefF64 returns ln x as SLEEF's log_u10 computes it (xlog_u1 of
// sleefsimddp.c with FMA: the AVX2 kernel torch.log runs for f64 on the
// CPU), so its results are PyTorch's bit for bit. Algorithm: x = m·2^e with
// m in [0.75, 1.5), y = (m-1)/(m+1) in double-double arithmetic, ln x =
// e·ln2 + 2y + y³·P(y²) (P of degree 6, Estrin's scheme), summed as a
// double pair; subnormal inputs are scaled by 2^64 first. Special values:
// ln(±0) = -Inf, ln(x<0) = NaN, ln(+Inf) = +Inf.
func LogSleefF64(d float64) float64 {
	o := d < 0x1p-1022 // DBL_MIN
	if o {
		d *= 0x1p64
	}
	e := int64(math.Float64bits(d*(1.0/0.75))>>52&0x7ff) - 0x3ff
	m := math.Float64frombits(uint64(int64(math.Float64bits(d)) + (-e)<<52))
	if o {
		e -= 64
	}
	nx, ny := ddAdd2F64(-1, m)
	dx, dy := ddAdd2F64(1, m)
	xx, xy := ddDivF64(nx, ny, dx, dy)
	// The float64 conversions round each product, so that a compiler
	// allowed to fuse x*y + z (GOAMD64=v3) keeps SLEEF's operation order.
	x2 := float64(xx * xx)
	x4 := float64(x2 * x2)
	x8 := float64(x4 * x4)
	t := math.FMA(x8,
		math.FMA(x4, 0.1532076988502701353, math.FMA(x2, 0.1525629051003428716, 0.1818605932937785996)),
		math.FMA(x4, math.FMA(x2, 0.2222214519839380009, 0.2857142932794299317), math.FMA(x2, 0.3999999999635251990, 0.6666666666667333541)))
	// s = (ln2 as a double pair) · e
	fe := float64(e)
	sx := float64(0.693147180559945286226764 * fe)
	sy := math.FMA(2.319046813846299558417771e-17, fe, math.FMA(0.693147180559945286226764, fe, -sx))
	// s += 2x
	ax, ay := xx*2, xy*2
	s := sx + ax
	sy = (((sx - s) + ax) + sy) + ay
	sx = s
	// s += x²·x·t
	v := float64(float64(x2*xx) * t)
	s = sx + v
	sy = ((sx - s) + v) + sy
	r := s + sy
	switch {
	case math.IsInf(d, 1):
		return math.Inf(1)
	case d < 0 || d != d:
		return math.NaN()
	case d == 0:
		return math.Inf(-1)
	}
	return r
}

// LogSleefSliceF64 sets dst[i] = LogSleefF64(x[i]) for i < len(dst).
// Panics if x is shorter than dst.
func LogSleefSliceF64(dst, x []float64) {
	checkBin("LogSleefSliceF64", len(dst), len(x), len(x))
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = LogSleefF64(v)
	}
}

// ddAdd2F64 is SLEEF's ddadd2_vd2_vd_vd: x + y exactly, as a double pair.
func ddAdd2F64(x, y float64) (float64, float64) {
	s := x + y
	v := s - x
	return s, (x - (s - v)) + (y - v)
}

// ddDivF64 is SLEEF's dddiv_vd2_vd2_vd2 with FMA.
func ddDivF64(nx, ny, dx, dy float64) (float64, float64) {
	t := 1 / dx
	s := float64(nx * t)
	u := math.FMA(t, nx, -s)
	v := math.FMA(-dy, t, math.FMA(-dx, t, 1))
	return s, math.FMA(s, v, math.FMA(ny, t, u))
}
