package bench

import (
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// Softmax over 4M f32 elements, compared against PyTorch and NumPy by
// bench/softmax.sh (bench/softmax.py times the same cases).

func benchSoftmax(b *testing.B, rows, cols, dim int, log bool) {
	x, err := tensor.Randn(tensor.NewGenerator(1), []int{rows, cols}, tensor.F32)
	if err != nil {
		b.Fatal(err)
	}
	op := tensor.Softmax
	if log {
		op = tensor.LogSoftmax
	}
	b.SetBytes(2 * 4 * int64(rows*cols))
	loopMedian(b, func() error {
		z, err := op(x, dim)
		if err == nil {
			z.Release()
		}
		return err
	})
}

func BenchmarkSoftmaxRows1024F32(b *testing.B)    { benchSoftmax(b, 4096, 1024, -1, false) }
func BenchmarkSoftmaxRows128F32(b *testing.B)     { benchSoftmax(b, 32768, 128, -1, false) }
func BenchmarkLogSoftmaxRows1024F32(b *testing.B) { benchSoftmax(b, 4096, 1024, -1, true) }
func BenchmarkSoftmaxDim0F32(b *testing.B)        { benchSoftmax(b, 2048, 2048, 0, false) }

func BenchmarkSoftmaxLogSumExpRows1024F32(b *testing.B) {
	x, err := tensor.Randn(tensor.NewGenerator(1), []int{4096, 1024}, tensor.F32)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(4 * int64(x.Numel()))
	loopMedian(b, func() error {
		z, err := tensor.LogSumExp(x, []int{-1}, false)
		if err == nil {
			z.Release()
		}
		return err
	})
}
