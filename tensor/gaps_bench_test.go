package tensor

import "testing"

// Benchmarks of the ops bench/opsweep.sh found slower than PyTorch on a
// 1000x1000 f32 tensor (one thread): run with -cpuprofile to see where the
// time goes.

func gapsOperands(b *testing.B) (x, y *Tensor) {
	g := NewGenerator(0)
	x, _ = Randn(g, []int{1000, 1000}, F32)
	y, _ = Randn(g, []int{1000, 1000}, F32)
	old := GetNumThreads()
	SetNumThreads(1)
	b.Cleanup(func() { SetNumThreads(old) })
	return x, y
}

func BenchmarkGapSubT(b *testing.B) {
	x, _ := gapsOperands(b)
	xt, _ := x.T()
	for b.Loop() {
		r, _ := Sub(x, xt)
		r.Release()
	}
}

func BenchmarkGapEq(b *testing.B) {
	x, y := gapsOperands(b)
	for b.Loop() {
		r, _ := Eq(x, y)
		r.Release()
	}
}

func BenchmarkGapRand(b *testing.B) {
	gapsOperands(b)
	g := NewGenerator(0)
	for b.Loop() {
		r, _ := Rand(g, []int{1000, 1000}, F32)
		r.Release()
	}
}

func BenchmarkGapHistc(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r, _ := Histc(x, 100, 0, 0)
		r.Release()
	}
}

func BenchmarkGapLinspace(b *testing.B) {
	gapsOperands(b)
	for b.Loop() {
		r, _ := Linspace(0, 1, 1000000, F32)
		r.Release()
	}
}

func BenchmarkGapMatVec(b *testing.B) {
	x, _ := gapsOperands(b)
	v, _ := Randn(NewGenerator(1), []int{1000}, F32)
	for b.Loop() {
		r, _ := Matmul(x, v)
		r.Release()
	}
}

func BenchmarkGapClone(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r := x.Contiguous().Clone()
		r.Release()
	}
}

func BenchmarkGapSumI64(b *testing.B) {
	gapsOperands(b)
	x, _ := Randint(NewGenerator(0), 0, 1000, []int{100000}, I64)
	for b.Loop() {
		r, _ := Sum(x, nil, false)
		r.Release()
	}
}

func BenchmarkGapAmin1(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r, _ := Amin(x, []int{1}, false)
		r.Release()
	}
}

func BenchmarkGapAmax1(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r, _ := Amax(x, []int{1}, false)
		r.Release()
	}
}

func BenchmarkGapStack(b *testing.B) {
	gapsOperands(b)
	v, _ := Randn(NewGenerator(1), []int{1000}, F32)
	vs := []*Tensor{v, v, v, v}
	for b.Loop() {
		r, _ := Stack(vs, 0)
		r.Release()
	}
}

func BenchmarkGapStd(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r, _ := Std(x, nil, 1, false)
		r.Release()
	}
}

func BenchmarkGapArgsort(b *testing.B) {
	gapsOperands(b)
	v, _ := Randn(NewGenerator(1), []int{1000}, F32)
	for b.Loop() {
		r, _ := Argsort(v, -1, false)
		r.Release()
	}
}

func BenchmarkGapNorm1(b *testing.B) {
	x, _ := gapsOperands(b)
	for b.Loop() {
		r, _ := Norm(x, 2, []int{1}, false)
		r.Release()
	}
}
