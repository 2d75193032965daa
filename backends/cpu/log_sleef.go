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
