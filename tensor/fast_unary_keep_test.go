package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// relu, abs, neg, square and clamp with number bounds through the vector
// kernels against the generic loops, bit for bit (signed zeros included),
// for contiguous, transposed and sliced f32/f64 inputs with -0.0, NaN and
// infinities planted.
func TestFastUnaryKeepMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	negZero := math.Copysign(0, -1)
	num := func(v float64) *Tensor { x, _ := FromFloat64s([]float64{v}, []int{}, F64); x.wrapped = true; return x }
	ops := []struct {
		name string
		f    func(x *Tensor) (*Tensor, error)
	}{
		{"relu", Relu}, {"abs", Abs}, {"neg", Neg}, {"square", Square},
		{"clamp(-0.5, 0.5)", func(x *Tensor) (*Tensor, error) { return Clamp(x, num(-0.5), num(0.5)) }},
		{"clamp(min=0)", func(x *Tensor) (*Tensor, error) { return Clamp(x, num(0), nil) }},
		{"clamp(max=-0.0)", func(x *Tensor) (*Tensor, error) { return Clamp(x, nil, num(negZero)) }},
		{"clamp(1, -1)", func(x *Tensor) (*Tensor, error) { return Clamp(x, num(1), num(-1)) }},
		{"clamp(nan)", func(x *Tensor) (*Tensor, error) { return Clamp(x, num(math.NaN()), nil) }},
	}
	for _, dt := range []DType{F32, F64} {
		for _, n := range []int{1, 17, 1000, 70000} {
			d := testData(rng, 2*n, 1, true)
			for i := 0; i < len(d); i += 7 {
				d[i] = negZero
			}
			x := mustTensor(t, d, []int{2, n}, dt)
			xt, err := x.T()
			if err != nil {
				t.Fatal(err)
			}
			xs, err := x.Narrow(1, n/3, n-n/3)
			if err != nil {
				t.Fatal(err)
			}
			inputs := map[string]*Tensor{"contiguous": x, "transposed": xt, "sliced": xs}
			for layout, in := range inputs {
				for _, op := range ops {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(in) })
					ctx := fmt.Sprintf("%s %v n=%d %s", op.name, dt, n, layout)
					if !shapeEq(fast.Strides(), gen.Strides()) {
						t.Errorf("%s: strides %v, generic %v", ctx, fast.Strides(), gen.Strides())
					}
					g, w := fast.ToFloat64s(), gen.ToFloat64s()
					for i := range w {
						if !(g[i] != g[i] && w[i] != w[i]) && math.Float64bits(g[i]) != math.Float64bits(w[i]) {
							t.Fatalf("%s: element %d = %v, generic %v", ctx, i, g[i], w[i])
						}
					}
				}
			}
		}
	}
}
