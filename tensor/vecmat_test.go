package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// x.t() @ v (fastVecMat: axpy over the rows of x) agrees with the GEMM
// path to rounding on odd shapes, with a leading dimension larger than the
// rows, a strided vector, NaN/Inf propagation, and split over goroutines
// (same values whatever the thread count).
func TestVecMatMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	must := func(x *Tensor, err error) *Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	fill := func(n int) []float64 {
		d := make([]float64, n)
		for i := range d {
			d[i] = r.NormFloat64()
		}
		return d
	}
	old := GetNumThreads()
	defer SetNumThreads(old)
	for _, dt := range []DType{F32, F64} {
		for _, k := range []int{1, 2, 7, 17, 64, 257} {
			for _, n := range []int{1, 3, 15, 16, 17, 100, 257, 2049, 5000} {
				ctx := fmt.Sprintf("%s k=%d n=%d", dt, k, n)
				m := must(FromFloat64s(fill(k*(n+3)), []int{k, n + 3}, dt))
				mt := must(must(m.Narrow(1, 1, n)).T()) // [n, k], strides (1, n+3)
				vb := must(FromFloat64s(fill(2*k), []int{2 * k}, dt))
				v := must(vb.Slice(0, 0, 2*k, 2)) // strided [k]
				fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Matmul(mt, v) })
				tol := 1e-5
				if dt == F64 {
					tol = 1e-12
				}
				sameValues(t, ctx, fast, gen, tol, tol*math.Sqrt(float64(k)))
				SetNumThreads(3)
				f3 := must(Matmul(mt, v))
				SetNumThreads(1)
				if !slices.Equal(f3.ToFloat64s(), must(Matmul(mt, v)).ToFloat64s()) {
					t.Fatalf("%s: values depend on the thread count", ctx)
				}
			}
		}
	}
	// hand-checked, with a NaN and an Inf in x: [[1, 2], [3, 4], [5, 6]].t() @ [1, 10]
	x := must(FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32))
	v := must(FromFloat64s([]float64{1, 10}, []int{2}, F32))
	if got, want := must(Matmul(must(x.T()), v)).ToFloat64s(), []float64{41, 52, 63}; !slices.Equal(got, want) {
		t.Errorf("x.t() @ v = %v, want %v", got, want)
	}
	x = must(FromFloat64s([]float64{math.NaN(), 2, math.Inf(1), 4, 5, 6}, []int{2, 3}, F32))
	got := must(Matmul(must(x.T()), v)).ToFloat64s()
	if !math.IsNaN(got[0]) || got[1] != 52 || !math.IsInf(got[2], 1) {
		t.Errorf("x.t() @ v with NaN/Inf = %v", got)
	}
}
