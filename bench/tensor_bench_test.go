package bench

import (
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Elementwise add of two 4M-element f32 tensors (2048 x 2048), compared
// against NumPy by bench/run_elementwise.sh (bench/elementwise.py times the
// same operations). The result is released each iteration so its buffer
// is recycled through the tensor pool, as an interpreter does for dropped
// temporaries (NumPy's allocator reuses freed memory the same way).

const benchN = 2048

func benchOperands(b *testing.B) (*tensor.Tensor, *tensor.Tensor) {
	g := tensor.NewGenerator(0)
	x, err := tensor.Rand(g, []int{benchN, benchN}, tensor.F32)
	if err != nil {
		b.Fatal(err)
	}
	y, err := tensor.Rand(g, []int{benchN, benchN}, tensor.F32)
	if err != nil {
		b.Fatal(err)
	}
	return x, y
}

func BenchmarkTensorAddContiguousF32(b *testing.B) {
	x, y := benchOperands(b)
	b.SetBytes(3 * 4 * benchN * benchN)
	for b.Loop() {
		z, err := tensor.Add(x, y)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkTensorAddTransposedF32(b *testing.B) {
	x, y := benchOperands(b)
	yt, _ := y.T()
	b.SetBytes(3 * 4 * benchN * benchN)
	for b.Loop() {
		z, err := tensor.Add(x, yt)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkTensorAddInplaceF32(b *testing.B) {
	x, y := benchOperands(b)
	b.SetBytes(3 * 4 * benchN * benchN)
	for b.Loop() {
		if err := x.AddInplace(y); err != nil {
			b.Fatal(err)
		}
	}
}
