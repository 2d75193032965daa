package tensor

import "testing"

// Elementwise ops on 4M-element f32 tensors (2048 x 2048) in the layouts
// TensorIterator's output rule distinguishes: contiguous, both operands
// transposed (a dense permuted layout, run linearly over the storage),
// and mixed (one operand transposed).

const layoutBenchN = 2048

func layoutBenchOperands(b *testing.B) (*Tensor, *Tensor) {
	g := NewGenerator(0)
	x, err := Rand(g, []int{layoutBenchN, layoutBenchN}, F32)
	if err != nil {
		b.Fatal(err)
	}
	y, err := Rand(g, []int{layoutBenchN, layoutBenchN}, F32)
	if err != nil {
		b.Fatal(err)
	}
	return x, y
}

func benchLayoutBin(b *testing.B, x, y *Tensor, op func(a, b *Tensor) (*Tensor, error)) {
	b.SetBytes(3 * 4 * int64(x.Numel()))
	for b.Loop() {
		z, err := op(x, y)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func benchLayoutUn(b *testing.B, x *Tensor, op func(*Tensor) (*Tensor, error)) {
	b.SetBytes(2 * 4 * int64(x.Numel()))
	for b.Loop() {
		z, err := op(x)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkLayoutAddContiguous(b *testing.B) {
	x, y := layoutBenchOperands(b)
	benchLayoutBin(b, x, y, Add)
}

func BenchmarkLayoutAddBothTransposed(b *testing.B) {
	x, y := layoutBenchOperands(b)
	xt, _ := x.T()
	yt, _ := y.T()
	benchLayoutBin(b, xt, yt, Add)
}

func BenchmarkLayoutAddMixed(b *testing.B) {
	x, y := layoutBenchOperands(b)
	yt, _ := y.T()
	benchLayoutBin(b, x, yt, Add)
}

func BenchmarkLayoutMulScalarTransposed(b *testing.B) {
	x, _ := layoutBenchOperands(b)
	xt, _ := x.T()
	benchLayoutBin(b, xt, ScalarFloat(0.5), Mul)
}

func BenchmarkLayoutExpContiguous(b *testing.B) {
	x, _ := layoutBenchOperands(b)
	benchLayoutUn(b, x, Exp)
}

func BenchmarkLayoutExpTransposed(b *testing.B) {
	x, _ := layoutBenchOperands(b)
	xt, _ := x.T()
	benchLayoutUn(b, xt, Exp)
}

func BenchmarkLayoutSinTransposed(b *testing.B) {
	x, _ := layoutBenchOperands(b)
	xt, _ := x.T()
	benchLayoutUn(b, xt, Sin)
}

// x.t() + y: the result follows x.t() (transposed), y is read across.
func BenchmarkLayoutAddMixedFirstTransposed(b *testing.B) {
	x, y := layoutBenchOperands(b)
	xt, _ := x.T()
	benchLayoutBin(b, xt, y, Add)
}

// Small operands: the per-op cost of choosing the layout.
func BenchmarkLayoutAddSmallContiguous(b *testing.B) {
	x, _ := Rand(NewGenerator(0), []int{3, 4}, F32)
	for b.Loop() {
		z, _ := Add(x, ScalarFloat(1))
		z.Release()
	}
}

func BenchmarkLayoutAddSmallTransposed(b *testing.B) {
	x, _ := Rand(NewGenerator(0), []int{3, 4}, F32)
	xt, _ := x.T()
	for b.Loop() {
		z, _ := Add(xt, ScalarFloat(1))
		z.Release()
	}
}
