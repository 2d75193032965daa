package tensor

import "testing"

// Data-movement ops on a 1000 x 1000 f32 tensor (bench/opsweep's cases):
// go test -run '^$' -bench DataMove ./tensor

func dataMoveX(b *testing.B) *Tensor {
	x, err := Randn(NewGenerator(0), []int{1000, 1000}, F32)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

func benchDataMove(b *testing.B, op func() (*Tensor, error)) {
	for b.Loop() {
		z, err := op()
		if err != nil {
			b.Fatal(err)
		}
		z.Release()
	}
}

func BenchmarkDataMove(b *testing.B) {
	x := dataMoveX(b)
	xt, _ := x.T()
	idx, _ := ArangeInt(0, 1000, 1, I64)
	idx2, _ := idx.Reshape(1000, 1)
	gi, _ := idx2.Expand(1000, 100)
	mask, _ := Gt(x, ScalarFloat(0))
	b.Run("flip0", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Flip(x, []int{0}) }) })
	b.Run("flip1", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Flip(x, []int{1}) }) })
	b.Run("tril", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Tril(x, 0) }) })
	b.Run("roll", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Roll(x, []int{5}, []int{1}) }) })
	b.Run("cat0", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Cat([]*Tensor{x, x}, 0) }) })
	b.Run("clone", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return x.Clone(), nil }) })
	b.Run("transpose", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return xt.Contiguous(), nil }) })
	b.Run("gather", func(b *testing.B) { benchDataMove(b, func() (*Tensor, error) { return Gather(x, 1, gi) }) })
	b.Run("masked_fill", func(b *testing.B) {
		benchDataMove(b, func() (*Tensor, error) { return MaskedFill(x, mask, ScalarFloat(0)) })
	})
	b.Run("fill_half", func(b *testing.B) {
		v, _ := x.Narrow(0, 0, 500)
		for b.Loop() {
			if err := v.FillInplace(ScalarFloat(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
