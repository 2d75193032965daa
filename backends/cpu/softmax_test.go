package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// testSoftmaxVariants runs every registered softmax_rows candidate of the
// dtype against a float64 softmax: ragged widths around the vector length,
// in place and not, rows with -Inf (masked scores), a row of all -Inf and
// rows with NaN or +Inf (all NaN, as in PyTorch), and scores far enough
// below the max that exp underflows.
func testSoftmaxVariants[T float](t *testing.T, dtype string, tol float64) {
	rng := rand.New(rand.NewPCG(31, 32))
	ninf, pinf, nan := T(math.Inf(-1)), T(math.Inf(1)), T(math.NaN())
	type variant struct {
		name string
		f    rowsFn[T]
	}
	var variants []variant
	for _, c := range candidatesFor(t, "softmax_rows", dtype) {
		variants = append(variants, variant{"softmax_rows/" + c.Name, c.Impl.(rowsFn[T])})
	}
	// exp_shift_rows: exp(x - max) times inv[r] is the softmax.
	for _, c := range candidatesFor(t, "exp_shift_rows", dtype) {
		g := c.Impl.(rowsInvFn[T])
		variants = append(variants, variant{"exp_shift_rows/" + c.Name, func(dst, x []T, rows, cols int) {
			inv := make([]T, rows+1)
			inv[rows] = 42 // sentinel: one value per row, no more
			g(dst, x, rows, cols, inv)
			if inv[rows] != 42 {
				t.Fatalf("%s wrote past inv[rows-1]", c.Name)
			}
			for r := 0; r < rows; r++ {
				for j := r * cols; j < (r+1)*cols; j++ {
					dst[j] *= inv[r]
				}
			}
		}})
	}
	for _, c := range variants {
		f := c.f
		for _, cols := range []int{1, 2, 7, 8, 15, 16, 17, 31, 33, 64, 100, 257, 512} {
			const rows = 7
			x := randVec[T](rng, rows*cols, -30, 30)
			for i := 0; i < cols; i += 3 { // row 1: masked keys
				x[cols+i] = ninf
			}
			if cols > 1 {
				x[cols+1] = 5
				x[2*cols+cols-1] = 200 // row 2: the others underflow
			}
			for i := 3 * cols; i < 4*cols; i++ { // row 3: all -Inf
				x[i] = ninf
			}
			x[4*cols+cols/2] = nan  // row 4: NaN
			x[5*cols+cols/3] = pinf // row 5: +Inf
			for _, inPlace := range []bool{false, true} {
				dst := make([]T, len(x))
				src := x
				if inPlace {
					src = append([]T(nil), x...)
					dst = src
				}
				f(dst, src, rows, cols)
				for r := 0; r < rows; r++ {
					xr := x[r*cols : (r+1)*cols]
					m := math.Inf(-1)
					for _, v := range xr {
						m = math.Max(m, float64(v))
					}
					var s float64
					for _, v := range xr {
						s += math.Exp(float64(v) - m)
					}
					for j, v := range xr {
						got := float64(dst[r*cols+j])
						want := math.Exp(float64(v)-m) / s
						hasNaN := false
						for _, u := range xr {
							if u != u || math.IsInf(float64(u), 1) {
								hasNaN = true
							}
						}
						if math.IsInf(m, -1) || hasNaN {
							if got == got {
								t.Fatalf("%s cols=%d row %d: %v, want NaN", c.name, cols, r, got)
							}
							continue
						}
						// x - m rounds in T: relative error up to eps·|x - m| in the result
						if !(math.Abs(got-want) <= tol*(1+math.Abs(float64(v)-m))*want+1e-300) && !(want < 1e-30 && math.Abs(got-want) < 1e-30) {
							t.Fatalf("%s cols=%d inPlace=%v row %d col %d: %v, want %v", c.name, cols, inPlace, r, j, got, want)
						}
					}
				}
			}
		}
	}
}

func TestSoftmaxVariantsF32(t *testing.T) { testSoftmaxVariants[float32](t, "float32", 4e-7) }
func TestSoftmaxVariantsF64(t *testing.T) { testSoftmaxVariants[float64](t, "float64", 1e-15) }

// ReduceSumTorch follows ATen's vec::reduce_all lane for lane: exact on
// small integers whatever the order, a tree over the 8 float32 lanes, and
// the first vector loaded rather than added to zero (a row of -0 sums to
// -0, as PyTorch's).
func TestReduceSumTorchOrder(t *testing.T) {
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if s := ReduceSumTorch(x); s != 66 {
		t.Fatalf("sum %v, want 66", s)
	}
	// lanes 0 and 4 hold 1e8 and -1e8: the tree adds them first, so the
	// ones in the other lanes survive (adding the lanes in order would
	// lose lanes 1-3 into 1e8, giving 3)
	y := []float32{1e8, 1, 1, 1, -1e8, 1, 1, 1}
	if s := ReduceSumTorch(y); s != 6 {
		t.Fatalf("tree sum %v, want 6", s)
	}
	// float64: lane i takes x[i], x[i+4], ... (x[4] = 1 is lost into lane
	// 0's 1e17), then ((a0+a1)+a2)+a3; left to right would give 2
	z := []float64{1e17, -1e17, 1, 0, 1, 0, 0, 0}
	if s := ReduceSumTorch(z); s != 1 {
		t.Fatalf("f64 sum %v, want 1", s)
	}
	neg := math.Copysign(0, -1)
	for _, n := range []int{3, 4, 8, 9} {
		r32, r64 := make([]float32, n), make([]float64, n)
		for i := range r32 {
			r32[i], r64[i] = float32(neg), neg
		}
		if s := ReduceSumTorch(r32); !math.Signbit(float64(s)) {
			t.Errorf("f32 sum of %d -0 is %v, want -0", n, s)
		}
		if s := ReduceSumTorch(r64); !math.Signbit(s) {
			t.Errorf("f64 sum of %d -0 is %v, want -0", n, s)
		}
	}
}
