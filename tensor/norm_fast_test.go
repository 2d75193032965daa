package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// fastNorm2 (dot kernels) against scaledNorm2 (the float64 scaled loop):
// within one unit in the last place of the result dtype, for rows of every
// length up to 300 and for the trailing dims of 3-D tensors.
func TestFastNorm2MatchesScaled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []DType{F32, F64} {
		for n := 1; n <= 300; n += 7 {
			data := make([]float64, 3*n)
			for i := range data {
				data[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
			}
			x, err := FromFloat64s(data, []int{3, n}, dt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Norm(x, 2, []int{1}, false)
			if err != nil {
				t.Fatal(err)
			}
			for o := 0; o < 3; o++ {
				row := x.ToFloat64s()[o*n : (o+1)*n]
				want := RoundToDType(scaledNorm2(row), dt)
				g := got.FlatFloat64(o)
				ulp := math.Abs(want) * 0x1p-49 // both sums round: a few ulps
				if dt == F32 {
					ulp = math.Abs(want) * 0x1p-23
				}
				if math.Abs(g-want) > ulp {
					t.Errorf("%v n=%d row %d: %v, want %v", dt, n, o, g, want)
				}
			}
		}
	}
	x, _ := FromFloat64s(make([]float64, 2*3*4), []int{2, 3, 4}, F32)
	for i := range 24 {
		x.storage.F32()[i] = float32(i%5) - 2
	}
	all, _ := Norm(x, 2, nil, false)
	// Σ over i < 24 of ((i mod 5) - 2)²: values -2..2 cycle, 4 full cycles (10 each) + 4 more (4+1+0+1)
	if want := float32(math.Sqrt(46)); all.storage.F32()[0] != want {
		t.Errorf("norm of all: %v, want %v", all.storage.F32()[0], want)
	}
	last2, _ := Norm(x, 2, []int{1, 2}, true)
	if s := last2.Shape(); len(s) != 3 || s[0] != 2 || s[1] != 1 || s[2] != 1 {
		t.Errorf("keepdim shape %v", s)
	}
}

// Rows whose squares overflow or underflow in the kernels' lanes take the
// scaled loop; NaN and Inf propagate as PyTorch's norm does.
func TestFastNorm2Extremes(t *testing.T) {
	cases := []struct {
		dt   DType
		row  []float64
		want float64
	}{
		{F32, []float64{3e20, 4e20}, 5e20},
		{F32, []float64{3e-25, 4e-25}, 5e-25},
		{F32, []float64{3e-40, 4e-40}, 5e-40}, // subnormal f32
		{F64, []float64{3e200, 4e200}, 5e200},
		{F64, []float64{3e-200, 4e-200}, 5e-200},
		{F32, []float64{math.Inf(1), 1}, math.Inf(1)},
		{F32, []float64{math.Inf(-1), math.Inf(1)}, math.Inf(1)},
		{F32, []float64{math.NaN(), 1}, math.NaN()},
		{F64, []float64{math.Inf(1), math.NaN()}, math.NaN()},
		{F32, []float64{0, 0, 0}, 0},
	}
	for _, c := range cases {
		x, err := FromFloat64s(c.row, []int{len(c.row)}, c.dt)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Norm(x, 2, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		g, want := r.FlatFloat64(0), RoundToDType(c.want, c.dt)
		if math.IsNaN(want) != math.IsNaN(g) || !math.IsNaN(want) && math.Abs(g-want) > math.Abs(want)*1e-6 {
			t.Errorf("%v %v: %v, want %v", c.dt, c.row, g, want)
		}
	}
}

// fastVarStd (rows read in place, interleaved float64 sums) against the
// generic two-pass loop: within a float64 rounding of each other, so equal
// after rounding to f32 but for rare ties; NaN/Inf propagate alike; too
// few elements for the correction give the same inf/nan.
func TestFastVarStdMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range []DType{F32, F64} {
		for _, shape := range [][]int{{1}, {5}, {3, 7}, {4, 1000}, {2, 3, 33}, {1, 1}} {
			x := mustTensor(t, testData(rng, numel(shape), 3, false), shape, dt)
			for _, dims := range [][]int{nil, {-1}, {1, 2}} {
				if len(dims) > 0 && len(dims)+1 > len(shape) && dims[0] > 0 {
					continue
				}
				for _, corr := range []int{0, 1, 2} {
					for _, std := range []bool{false, true} {
						fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return varStd(x, dims, corr, false, std) })
						tol := 1e-13
						if dt == F32 {
							tol = 0x1p-23
						}
						sameValues(t, fmt.Sprintf("%v %v dims=%v corr=%d std=%v", dt, shape, dims, corr, std), fast, gen, tol, 0)
					}
				}
			}
		}
	}
	y := mustTensor(t, []float64{1, math.NaN(), 3, 4, math.Inf(1), 6}, []int{2, 3}, F32)
	fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Std(y, []int{1}, 1, false) })
	sameValues(t, "nan/inf rows", fast, gen, 0, 0)
}

// fastMatVec (one dot kernel call per row) against the GEMM path: within
// float rounding of the k-term sums; a strided vector; NaN/Inf propagate.
func TestFastMatVecMatchesGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range []DType{F32, F64} {
		for _, nk := range [][2]int{{1, 1}, {3, 5}, {17, 33}, {300, 257}, {0, 4}, {64, 4096}} {
			n, k := nk[0], nk[1]
			a := mustTensor(t, testData(rng, n*k, 1, n*k > 100), []int{n, k}, dt)
			b2 := mustTensor(t, testData(rng, 2*k, 1, false), []int{2 * k}, dt)
			b, err := b2.AsStrided([]int{k}, []int{2}, 0) // a strided vector
			if err != nil {
				t.Fatal(err)
			}
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Matmul(a, b) })
			tol := 1e-12
			if dt == F32 {
				tol = 1e-5
			}
			sameValues(t, fmt.Sprintf("%v %dx%d @ %d", dt, n, k, k), fast, gen, tol, tol*math.Sqrt(float64(k)))
		}
	}
}
