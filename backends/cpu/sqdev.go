package cpu

import "github.com/tsrlang/tsr/backends"

// The two float64 passes of var/std over float32 data: the mean, then the
// sum of squared deviations from it, each a float64 sum of the widened
// elements (not PyTorch's Welford; the order of the partial sums is the
// variant's, so results agree to float64 rounding across variants).

type sqDevFn func(x []float32) float64

var sqDevF32 sqDevFn

func sqDevKey() backends.Key { return backends.Key{Op: "sqdev", DType: "float32", Device: "cpu"} }

func init() {
	backends.Register(sqDevKey(), backends.Candidate{Name: "go", Impl: sqDevFn(goSqDevF32), Requires: backends.TierGeneric})
	registerSqDevAsm()
	c, ok := backends.Lookup(sqDevKey())
	if !ok {
		panic("cpu: no kernel registered for sqdev/float32")
	}
	sqDevF32 = c.Impl.(sqDevFn)
}

// SqDevF32 returns Σ (float64(x[i]) - mean)² with mean = Σ float64(x[i]) /
// len(x), both sums in float64 (var and std of f32 data: divide by n -
// correction). NaN or ±Inf in x give NaN. Panics on an empty x.
func SqDevF32(x []float32) float64 {
	if len(x) == 0 {
		panic("cpu.SqDevF32: empty slice")
	}
	return sqDevF32(x)
}

// SqDevF64 is SqDevF32 for float64 data (the scalar passes; no vector
// variant). Panics on an empty x.
func SqDevF64(x []float64) float64 {
	if len(x) == 0 {
		panic("cpu.SqDevF64: empty slice")
	}
	return goSqDev(x)
}

// goSqDevF32 is the registered scalar reference for float32.
func goSqDevF32(x []float32) float64 { return goSqDev(x) }

// goSqDev is the scalar reference: each pass over four interleaved partial
// sums.
func goSqDev[T float](x []T) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i])
		s1 += float64(x[i+1])
		s2 += float64(x[i+2])
		s3 += float64(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i])
	}
	return sqDevFrom(x, (s0+s1+s2+s3)/float64(len(x)))
}

// sqDevFrom is the second pass: Σ (float64(x[i]) - mean)².
func sqDevFrom[T float](x []T, mean float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := float64(x[i])-mean, float64(x[i+1])-mean, float64(x[i+2])-mean, float64(x[i+3])-mean
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		d := float64(x[i]) - mean
		s0 += d * d
	}
	return s0 + s1 + s2 + s3
}
