package bench

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

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

// loopMedian runs op for the benchmark's iterations and also reports the
// median time of one iteration as "med-ns/op": on a loaded machine the
// mean (ns/op) includes the iterations that lost the CPU, while the
// reference scripts report medians (bench/elementwise.py --report uses
// med-ns/op when present).
func loopMedian(b *testing.B, op func() error) {
	var ts []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		ts = append(ts, time.Since(t0))
	}
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds()), "med-ns/op")
}

// benchBinary times op(x, y) with 3 x 16 MiB of traffic per call.
func benchBinary(b *testing.B, x, y *tensor.Tensor, op func(a, b *tensor.Tensor) (*tensor.Tensor, error)) {
	b.SetBytes(3 * 4 * int64(x.Numel()))
	loopMedian(b, func() error {
		z, err := op(x, y)
		if err == nil {
			z.Release()
		}
		return err
	})
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
	loopMedian(b, func() error { return x.AddInplace(y) })
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
	loopMedian(b, func() error {
		z, err := op(x)
		if err == nil {
			z.Release()
		}
		return err
	})
}

func BenchmarkTensorExpF32(b *testing.B)     { benchUnary(b, tensor.Exp) }
func BenchmarkTensorTanhF32(b *testing.B)    { benchUnary(b, tensor.Tanh) }
func BenchmarkTensorSigmoidF32(b *testing.B) { benchUnary(b, tensor.Sigmoid) }
func BenchmarkTensorLogF32(b *testing.B)     { benchUnary(b, tensor.Log) }
func BenchmarkTensorSqrtF32(b *testing.B)    { benchUnary(b, tensor.Sqrt) }

func BenchmarkTensorMaximumF32(b *testing.B) {
	x, y := benchOperands(b)
	benchBinary(b, x, y, tensor.Maximum)
}

func benchReduce(b *testing.B, op func(*tensor.Tensor) (*tensor.Tensor, error)) {
	x, _ := benchOperands(b)
	b.SetBytes(4 * int64(x.Numel()))
	loopMedian(b, func() error {
		z, err := op(x)
		if err == nil {
			z.Release()
		}
		return err
	})
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

func BenchmarkTensorSumTransposedDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) {
		xt, _ := x.T()
		return tensor.Sum(xt, []int{0}, false)
	})
}

func BenchmarkTensorMeanDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Mean(x, []int{0}, false) })
}

func BenchmarkTensorAmaxDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Amax(x, []int{0}, false) })
}

func BenchmarkTensorAminDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Amin(x, []int{0}, false) })
}

// BenchmarkTensorMaxDim0F32 is max(x, dim=0): values and first indices.
func BenchmarkTensorMaxDim0F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) {
		v, i, err := tensor.MaxDim(x, 0, false)
		if err == nil {
			i.Release()
		}
		return v, err
	})
}

func BenchmarkTensorAmaxDim1F32(b *testing.B) {
	benchReduce(b, func(x *tensor.Tensor) (*tensor.Tensor, error) { return tensor.Amax(x, []int{1}, false) })
}

func BenchmarkTensorMaxAllF32(b *testing.B) { benchReduce(b, tensor.Max) }
