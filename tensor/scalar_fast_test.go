package tensor

import (
	"math"
	"slices"
	"testing"
)

// binaryScalarFast (tensor op Python number) returns exactly what the
// general path returns, with the vector kernels off, for both operand
// orders, every dtype/scalar kind it takes, special values and sizes on
// both sides of the parallel threshold.
func TestBinaryScalarFastMatchesGeneral(t *testing.T) {
	scalars := []*Tensor{
		ScalarFloat(2.5), ScalarFloat(-0.0), ScalarFloat(math.Inf(1)), ScalarFloat(math.NaN()),
		ScalarFloat(1e-40), ScalarFloat(3.0000001192092896), ScalarInt(3), ScalarInt(-7),
		ScalarInt(1<<53 + 1), ScalarInt(1<<24 + 1), ScalarBool(true),
	}
	ops := []binOp{opAdd, opSub, opMul, opDiv}
	for _, dt := range []DType{F32, F64} {
		for _, n := range []int{1, 5, 33, grainMem + 7} {
			data := make([]float64, n)
			for i := range data {
				data[i] = float64(i%11-5) * 0.37
			}
			data[0] = math.Inf(-1)
			if n > 2 {
				data[1], data[2] = math.NaN(), 0
			}
			x, err := FromFloat64s(data, []int{n}, dt)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range scalars {
				for _, op := range ops {
					for _, left := range []bool{false, true} {
						a, b := x, s
						if left {
							a, b = s, x
						}
						got := binaryScalarFast(op, a, b)
						if op == opSub && s.dtype == Bool {
							if got != nil {
								t.Fatal("x - true must raise, not take the fast path")
							}
							continue
						}
						if got == nil {
							t.Fatalf("%s %v: fast path not taken", dt, binNames[op])
						}
						fastPathsOff.Store(true)
						want, err := binary(op, a, b)
						fastPathsOff.Store(false)
						if err != nil {
							t.Fatal(err)
						}
						if got.dtype != want.dtype || !slices.Equal(got.shape, want.shape) || !slices.Equal(got.strides, want.strides) {
							t.Fatalf("layout/dtype: got %s %v %v, want %s %v %v", got.dtype, got.shape, got.strides, want.dtype, want.shape, want.strides)
						}
						g, w := got.ToFloat64s(), want.ToFloat64s()
						for i := range g {
							if math.Float64bits(g[i]) != math.Float64bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
								t.Fatalf("%s n=%d %v left=%v scalar %v: [%d] = %v, general path %v", dt, n, binNames[op], left, s.FlatFloat64(0), i, g[i], w[i])
							}
						}
					}
				}
			}
		}
	}
}

// Operands the fast path must leave to the general one.
func TestBinaryScalarFastDeclines(t *testing.T) {
	x, _ := FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32)
	xt, _ := x.T()
	i, _ := FromInt64s([]int64{1, 2}, []int{2}, I64)
	h, _ := FromFloat64s([]float64{1, 2}, []int{2}, F16)
	y, _ := FromFloat64s([]float64{1, 2, 3}, []int{3}, F32)
	cases := []struct {
		op   binOp
		a, b *Tensor
	}{
		{opAdd, xt, ScalarFloat(1)},           // not contiguous
		{opAdd, i, ScalarFloat(1)},            // int tensor: promotes to float
		{opAdd, h, ScalarFloat(1)},            // half
		{opAdd, x, y},                         // no wrapped number
		{opPow, x, ScalarFloat(2)},            // not + - * /
		{opAdd, ScalarFloat(1), ScalarInt(2)}, // two numbers
	}
	for k, c := range cases {
		if binaryScalarFast(c.op, c.a, c.b) != nil {
			t.Fatalf("case %d: fast path taken", k)
		}
	}
}

// A contiguous tensor whose size-1 dim has a stride other than the
// row-major one is not a fast-path operand: tensor op number then has
// TensorIterator's layout, (12, 4, 12, 1) for y.unsqueeze(1).permute(0,
// 2, 1, 3) with y [2, 3, 4], as PyTorch 1.13 gives for x + 1, 2 * x, 1 - x
// and x / 3 (the general path with a 0-d tensor already did).
func TestBinaryScalarFastSizeOneStrides(t *testing.T) {
	data := make([]float64, 24)
	for i := range data {
		data[i] = float64(i)
	}
	for _, dt := range []DType{F32, F64} {
		y, _ := FromFloat64s(data, []int{2, 3, 4}, dt)
		u, _ := y.Unsqueeze(1)
		x, _ := u.Permute(0, 2, 1, 3) // [2, 3, 1, 4] strides (12, 4, 12, 1): contiguous
		if !x.IsContiguous() {
			t.Fatal("setup: x should be contiguous")
		}
		want := []int{12, 4, 12, 1}
		for _, op := range []binOp{opAdd, opSub, opMul, opDiv} {
			for _, left := range []bool{false, true} {
				a, b := x, ScalarFloat(2)
				if left {
					a, b = b, a
				}
				out, err := binary(op, a, b)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(out.Strides(), want) {
					t.Errorf("%s %s left=%v: strides %v, want %v", dt, binNames[op], left, out.Strides(), want)
				}
			}
		}
	}
}
