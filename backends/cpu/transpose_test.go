package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every transpose_panel variant writes exactly dst[p*W+j] = src[j*ld+p]
// (bit for bit; NaN, -0 and subnormals included) on odd row counts 1..257,
// every column count up to W, leading dimensions equal to and larger than
// the rows, and leaves the other dst elements alone.
func TestTransposePanelVariants(t *testing.T) {
	testTransposePanel[float32](t, "float32", TransposePanelWidthF32, func(v float64) uint64 { return uint64(math.Float32bits(float32(v))) })
	testTransposePanel[float64](t, "float64", TransposePanelWidthF64, math.Float64bits)
}

func testTransposePanel[T float](t *testing.T, dtype string, w int, bits func(float64) uint64) {
	r := rand.New(rand.NewPCG(7, 8))
	sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324}
	for _, c := range candidatesFor(t, "transpose_panel", dtype) {
		f := c.Impl.(transposePanelFn[T])
		for _, rows := range []int{1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 255, 257} {
			for _, cols := range []int{1, 3, w - 1, w} {
				for _, extra := range []int{0, 5} {
					ld := rows + extra
					src := make([]T, (cols-1)*ld+rows)
					for i := range src {
						if r.IntN(8) == 0 {
							src[i] = T(sp[r.IntN(len(sp))])
						} else {
							src[i] = T(r.NormFloat64())
						}
					}
					dst := make([]T, rows*w)
					for i := range dst {
						dst[i] = 42
					}
					f(dst, src, ld, rows, cols)
					for p := 0; p < rows; p++ {
						for j := 0; j < w; j++ {
							want := T(42)
							if j < cols {
								want = src[j*ld+p]
							}
							if got := dst[p*w+j]; bits(float64(got)) != bits(float64(want)) && !(got != got && want != want) {
								t.Fatalf("%s/%s rows %d cols %d ld %d: dst[%d][%d] = %v, want %v", c.Name, dtype, rows, cols, ld, p, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestTransposePanelPanics(t *testing.T) {
	for _, f := range []func(){
		func() { TransposePanelF32(make([]float32, 64), make([]float32, 64), 2, 2, 33) }, // cols > W
		func() { TransposePanelF32(make([]float32, 10), make([]float32, 64), 2, 2, 32) }, // dst short
		func() { TransposePanelF64(make([]float64, 32), make([]float64, 5), 2, 2, 4) },   // src short
		func() { TransposePanelF64(make([]float64, 32), make([]float64, 64), 0, 2, 4) },  // ld < 1
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}
