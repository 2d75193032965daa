package tensor

import "math"

// The f32 Box-Muller of PyTorch's normal_fill_16_AVX2 (the kernel its x86
// builds run for a contiguous f32 tensor of 16 or more elements), lane by
// lane: the logarithm and the sine/cosine are the Cephes single-precision
// polynomials of ATen's avx_mathfun.h (Pommier's sse_mathfun), evaluated
// with the fused multiply-adds that GCC's default FMA contraction makes of
// them, so that randn gives PyTorch's float32 bits. Checked bit for bit
// against PyTorch 1.13 (see TestRandnF32MatchesTorch).

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
	y := fma32(7.0376836292e-2, x, -1.1514610310e-1)
	y = fma32(y, x, 1.1676998740e-1)
	y = fma32(y, x, -1.2420140846e-1)
	y = fma32(y, x, 1.4249322787e-1)
	y = fma32(y, x, -1.6668057665e-1)
	y = fma32(y, x, 2.0000714765e-1)
	y = fma32(y, x, -2.4999993993e-1)
	y = fma32(y, x, 3.3333331174e-1)
	y = y * x
	y = fma32(y, z, float32(e*-2.12194440e-4))
	y = fma32(-z, 0.5, y)
	x = fma32(e, 0.693359375, x+y)
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
	x = fma32(y, -0.78515625, x)
	x = fma32(y, -2.4187564849853515625e-4, x)
	x = fma32(y, -3.77489497744594108e-8, x)
	z := x * x
	yc := fma32(2.443315711809948e-5, z, -1.388731625493765e-3)
	yc = fma32(yc, z, 4.166664568298827e-2)
	yc *= z
	yc = fma32(yc, z, -(z * 0.5))
	yc++
	ys := fma32(-1.9515295891e-4, z, 8.3321608736e-3)
	ys = fma32(ys, z, -1.6666654611e-1)
	ys *= z
	ys = fma32(ys, x, x)
	if !sinPoly {
		ys, yc = yc, ys
	}
	return math.Float32frombits(math.Float32bits(ys) ^ signSin), math.Float32frombits(math.Float32bits(yc) ^ signCos)
}

// normalFill16F32 transforms 16 uniforms in [0, 1) in place into normal
// samples: u1 = 1 - b[j], u2 = b[j+8] for j < 8.
func normalFill16F32(b []float32, mean, std float32) {
	const twoPi = float32(2 * math.Pi)
	for j := 0; j < 8; j++ {
		radius := float32(math.Sqrt(float64(-2 * cephesLogf(1-b[j]))))
		s, c := cephesSincosf(float32(twoPi * b[j+8]))
		b[j] = fma32(float32(radius*c), std, mean)
		b[j+8] = fma32(float32(radius*s), std, mean)
	}
}

// normalF32 is Normal's path for an f32 tensor of 16 or more elements: d
// (the f64 buffer of the result) receives the samples.
func normalF32(g *Generator, d []float64, mean, std float32) {
	n := len(d)
	u := make([]float32, n)
	for i := range u {
		u[i] = float32(g.uniform01(F32))
	}
	// The transforms are independent once the uniforms are drawn.
	parallelTasks(n/16, 16*64, parallelGrain, func(b0, b1 int) {
		for b := b0; b < b1; b++ {
			normalFill16F32(u[16*b:16*b+16], mean, std)
		}
	})
	if n%16 != 0 { // a ragged tail redraws and transforms the last 16
		tail := u[n-16:]
		for i := range tail {
			tail[i] = float32(g.uniform01(F32))
		}
		normalFill16F32(tail, mean, std)
	}
	for i, v := range u {
		d[i] = float64(v)
	}
}
