package tensor

import "testing"

// Benchmarks of the selection, scan and indexing kernels (sizes of the
// bug report; compare with bench/*.py for PyTorch).

func benchRandn(b *testing.B, n int, dt DType) *Tensor {
	b.Helper()
	x, err := Randn(NewGenerator(1), []int{n}, dt)
	if err != nil {
		b.Fatal(err)
	}
	return x
}

func BenchmarkTopk1e6(b *testing.B) {
	x := benchRandn(b, 1_000_000, F32)
	for b.Loop() {
		Topk(x, 10, 0, true)
	}
}

func BenchmarkMedian1e7(b *testing.B) {
	x := benchRandn(b, 10_000_000, F32)
	for b.Loop() {
		MedianAll(x)
	}
}

func BenchmarkSort1e7(b *testing.B) {
	x := benchRandn(b, 10_000_000, F32)
	for b.Loop() {
		Sort(x, 0, false)
	}
}

func BenchmarkSortF64_1e7(b *testing.B) {
	x := benchRandn(b, 10_000_000, F64)
	for b.Loop() {
		Sort(x, 0, false)
	}
}

func BenchmarkSortRows1000(b *testing.B) {
	x := benchRandn(b, 1_000_000, F32)
	x, _ = x.Reshape(1000, 1000)
	for b.Loop() {
		Sort(x, 1, false)
	}
}

func BenchmarkCumsum1e7(b *testing.B) {
	x := benchRandn(b, 10_000_000, F32)
	for b.Loop() {
		Cumsum(x, 0)
	}
}

func BenchmarkMaskSelect1e7(b *testing.B) {
	x := benchRandn(b, 10_000_000, F32)
	z, _ := Zeros(nil, F32)
	m, _ := Gt(x, z)
	for b.Loop() {
		x.Index(Adv(m))
	}
}

func BenchmarkIndexInt1e6(b *testing.B) {
	x := benchRandn(b, 10_000_000, F32)
	ix, _ := Randint(NewGenerator(2), 0, 10_000_000, []int{1_000_000}, I64)
	for b.Loop() {
		x.Index(Adv(ix))
	}
}

func BenchmarkGather1e6(b *testing.B) {
	x := benchRandn(b, 1_000_000, F32)
	x, _ = x.Reshape(1000, 1000)
	ix, _ := Randint(NewGenerator(2), 0, 1000, []int{1000, 1000}, I64)
	for b.Loop() {
		Gather(x, 1, ix)
	}
}
