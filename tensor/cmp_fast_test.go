package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// specialValues fills n values with a mix of equal pairs, NaN, ±Inf and
// ±0 (for float dtypes) and small integers, so every comparison sees true
// and false results.
func specialValues(r *rand.Rand, n int, dt DType) []float64 {
	sp := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1}
	d := make([]float64, n)
	for i := range d {
		switch {
		case dt.IsFloat() && r.IntN(4) == 0:
			d[i] = sp[r.IntN(len(sp))]
		case dt == U8:
			d[i] = float64(r.IntN(4))
		default:
			d[i] = float64(r.IntN(5) - 2)
		}
	}
	return d
}

// The typed comparison loops (fastCmp) give the generic kernel's bools for
// every op and dtype, on odd sizes, on contiguous and on transposed (dense,
// same layout) operands, and split over goroutines.
func TestFastCmpMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ops := []struct {
		name string
		f    func(a, b *Tensor) (*Tensor, error)
	}{{"eq", Eq}, {"ne", Ne}, {"lt", Lt}, {"le", Le}, {"gt", Gt}, {"ge", Ge}}
	old := GetNumThreads()
	defer SetNumThreads(old)
	for _, dt := range []DType{F32, F64, I64, I32, I16, I8, U8} {
		for _, n := range []int{1, 2, 3, 7, 16, 17, 31, 64, 127, 255, 257} {
			a, _ := FromFloat64s(specialValues(r, 3*n, dt), []int{3, n}, dt)
			b, _ := FromFloat64s(specialValues(r, 3*n, dt), []int{3, n}, dt)
			at, _ := a.Contiguous().T() // (n, 3), strides (1, n): dense, not contiguous
			bt, _ := b.Contiguous().T()
			for _, op := range ops {
				for _, c := range [][2]*Tensor{{a, b}, {at, bt}, {a, a}} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(c[0], c[1]) })
					ctx := fmt.Sprintf("%s %s %v", op.name, dt, c[0].shape)
					if !slices.Equal(fast.shape, gen.shape) || !slices.Equal(fast.strides, gen.strides) || !slices.Equal(fast.ToBools(), gen.ToBools()) {
						t.Fatalf("%s: fast %v %v, generic %v %v", ctx, fast.strides, fast.ToBools(), gen.strides, gen.ToBools())
					}
				}
			}
		}
	}
	// parallel split
	SetNumThreads(3)
	n := parallelGrain + 13
	a, _ := FromFloat64s(specialValues(r, n, F32), []int{n}, F32)
	b, _ := FromFloat64s(specialValues(r, n, F32), []int{n}, F32)
	fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Le(a, b) })
	if !slices.Equal(fast.ToBools(), gen.ToBools()) {
		t.Fatal("le split over goroutines differs from the generic kernel")
	}
	// hand-checked IEEE results
	x, _ := FromFloat64s([]float64{math.NaN(), 1, math.Inf(-1), 0}, []int{4}, F32)
	y, _ := FromFloat64s([]float64{math.NaN(), 1, -3, math.Copysign(0, -1)}, []int{4}, F32)
	for _, c := range []struct {
		f    func(a, b *Tensor) (*Tensor, error)
		want []bool
	}{{Eq, []bool{false, true, false, true}}, {Ne, []bool{true, false, true, false}}, {Lt, []bool{false, false, true, false}}, {Ge, []bool{false, true, false, true}}} {
		got, err := c.f(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.ToBools(), c.want) {
			t.Errorf("got %v, want %v", got.ToBools(), c.want)
		}
	}
}
