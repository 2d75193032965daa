package bench

import (
	"testing"

	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
)

// mlpStep runs forward and backward of a 2-layer MLP step on the engine:
// loss = mean(tanh(x @ w1) @ w2), x [64, 256], w1, w2 [256, 256] f32.
// It is the workload bench/mlp_torch.py times in PyTorch.
func mlpStep(b *testing.B, e *autograd.Engine, x, w1, w2 *tensor.Tensor) {
	h, err := e.Apply("matmul", []*tensor.Tensor{x, w1}, nil, func() (*tensor.Tensor, error) { return tensor.Matmul(x, w1) })
	if err != nil {
		b.Fatal(err)
	}
	a, err := e.Apply("tanh", []*tensor.Tensor{h}, nil, func() (*tensor.Tensor, error) { return tensor.Tanh(h) })
	if err != nil {
		b.Fatal(err)
	}
	o, err := e.Apply("matmul", []*tensor.Tensor{a, w2}, nil, func() (*tensor.Tensor, error) { return tensor.Matmul(a, w2) })
	if err != nil {
		b.Fatal(err)
	}
	l, err := e.Apply("mean", []*tensor.Tensor{o}, autograd.Attrs{}, func() (*tensor.Tensor, error) { return tensor.Mean(o, nil, false) })
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Grad([]*tensor.Tensor{l}, []*tensor.Tensor{w1, w2}, nil, false, false); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMLPStep is forward+backward of the 2-layer MLP step; compare
// with `bench/run_autograd.sh`, which runs PyTorch on the same shapes.
func BenchmarkMLPStep(b *testing.B) {
	g := tensor.NewGenerator(0)
	x, _ := tensor.Randn(g, []int{64, 256}, tensor.F32)
	w1, _ := tensor.Randn(g, []int{256, 256}, tensor.F32)
	w2, _ := tensor.Randn(g, []int{256, 256}, tensor.F32)
	w1.SetRequiresGrad(true)
	w2.SetRequiresGrad(true)
	e := autograd.NewEngine()
	for b.Loop() {
		mlpStep(b, e, x, w1, w2)
	}
}

// BenchmarkTapeOverhead measures what recording adds to one op: the same
// one-element multiply with and without an input that requires grad. The
// difference between the two is the tape's cost per recorded op.
func BenchmarkTapeOverhead(b *testing.B) {
	x, _ := tensor.FromFloat64s([]float64{2}, []int{1}, tensor.F32)
	y, _ := tensor.FromFloat64s([]float64{3}, []int{1}, tensor.F32)
	e := autograd.NewEngine()
	mul := func() (*tensor.Tensor, error) { return tensor.Mul(x, y) }
	b.Run("pure", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Apply("mul", []*tensor.Tensor{x, y}, nil, mul); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recorded", func(b *testing.B) {
		x.SetRequiresGrad(true)
		defer x.SetRequiresGrad(false)
		for b.Loop() {
			if _, err := e.Apply("mul", []*tensor.Tensor{x, y}, nil, mul); err != nil {
				b.Fatal(err)
			}
		}
	})
}
