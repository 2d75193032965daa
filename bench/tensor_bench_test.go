package bench

import (
	"os"
	"strconv"
	"testing"

	"github.com/tsrlang/tsr/tensor"
)

// TSR_NUM_THREADS sets the kernel thread count of the tensor benchmarks
// (the run_*.sh scripts pass THREADS through it).
func init() {
	if n, err := strconv.Atoi(os.Getenv("TSR_NUM_THREADS")); err == nil && n > 0 {
		tensor.SetNumThreads(n)
	}
}

// Elementwise and reduction benchmarks over 4M-element f32 tensors
// (2048 x 2048), compared against NumPy by bench/run_elementwise.sh
// (bench/elementwise.py times the same operations; the case names match).
// Results are released each iteration so their buffers are recycled
// through the tensor pool, as an interpreter does for dropped temporaries
// (NumPy's allocator reuses freed memory the same way).

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

// benchBinary times op(x, y) with 3 x 16 MiB of traffic per call.
func benchBinary(b *testing.B, x, y *tensor.Tensor, op func(a, b *tensor.Tensor) (*tensor.Tensor, error)) {
	b.SetBytes(3 * 4 * int64(x.Numel()))
	for b.Loop() {
		z, err := op(x, y)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkTensorAddContiguousF32(b *testing.B) {
	x, y := benchOperands(b)
	benchBinary(b, x, y, tensor.Add)
}

func BenchmarkTensorAddTransposedF32(b *testing.B) {
	x, y := benchOperands(b)
	yt, _ := y.T()
	benchBinary(b, x, yt, tensor.Add)
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

func BenchmarkTensorMulScalarF32(b *testing.B) {
	x, _ := benchOperands(b)
	benchBinary(b, x, tensor.ScalarFloat(0.125), tensor.Mul)
}

func BenchmarkTensorAddRowBroadcastF32(b *testing.B) {
	x, y := benchOperands(b)
	row, _ := y.Select(0, 0)
	benchBinary(b, x, row, tensor.Add)
}

func benchUnary(b *testing.B, op func(*tensor.Tensor) (*tensor.Tensor, error)) {
	x, _ := benchOperands(b)
	b.SetBytes(2 * 4 * int64(x.Numel()))
	for b.Loop() {
		z, err := op(x)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkTensorExpF32(b *testing.B)     { benchUnary(b, tensor.Exp) }
func BenchmarkTensorTanhF32(b *testing.B)    { benchUnary(b, tensor.Tanh) }
func BenchmarkTensorSigmoidF32(b *testing.B) { benchUnary(b, tensor.Sigmoid) }

func benchReduce(b *testing.B, op func(*tensor.Tensor) (*tensor.Tensor, error)) {
	x, _ := benchOperands(b)
	b.SetBytes(4 * int64(x.Numel()))
	for b.Loop() {
		z, err := op(x)
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkTensorSumAllF32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Sum(x, nil, false) })
}

func BenchmarkTensorSumDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Sum(x, []int{0}, false) })
}

func BenchmarkTensorSumDim1F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Sum(x, []int{1}, false) })
}

func BenchmarkTensorMeanDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Mean(x, []int{0}, false) })
}

func BenchmarkTensorAmaxDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Amax(x, []int{0}, false) })
}

func BenchmarkTensorAmaxDim1F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Amax(x, []int{1}, false) })
}

func BenchmarkTensorMaxAllF32(b *testing.B) { benchReduce(b, tensor.Max) }
