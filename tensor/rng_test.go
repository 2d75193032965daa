package tensor

import (
	"math"
	"slices"
	"testing"
)

// The generator reproduces PyTorch's CPU generator: each want is what
// PyTorch 1.13 gives after torch.manual_seed(seed) for the same calls.
func TestGeneratorMatchesTorch(t *testing.T) {
	g := NewGenerator(0)
	f32 := func(x *Tensor, err error) []float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x.ToFloat64s()
	}
	if got, want := f32(Rand(g, []int{3}, F32)), []float64{0.49625658988952637, 0.7682217955589294, 0.08847743272781372}; !slices.Equal(got, want) {
		t.Errorf("rand(3) = %v, want %v", got, want)
	}
	// below 16 elements: normal_distribution<double>, cached sin sample
	g.ManualSeed(0)
	if got, want := f32(Randn(g, []int{3}, F32)), []float64{1.5409960746765137, -0.293428897857666, -2.1787893772125244}; !slices.Equal(got, want) {
		t.Errorf("randn(3) = %v, want %v", got, want)
	}
	g.ManualSeed(0)
	if got, want := f32(Randn(g, []int{2, 2}, F64)), []float64{1.5409961082440433, -0.2934289057609464, -2.1787893820745574, 0.5684312772806678}; !slices.Equal(got, want) {
		t.Errorf("randn(2, 2, f64) = %v, want %v", got, want)
	}
	// 16 or more: normal_fill, with the ragged tail redrawn
	g.ManualSeed(0)
	x := f32(Randn(g, []int{20}, F32))
	// (PyTorch's AVX2 log/sincos approximations may differ in the last bit)
	for i, want := range map[int]float64{0: -1.1258398294448853, 15: -0.843676745891571, 17: 1.2590092420578003, 19: 0.05373690277338028} {
		if d := x[i] - want; d > 1e-6*math.Abs(want) || d < -1e-6*math.Abs(want) {
			t.Errorf("randn(20)[%d] = %v, want %v", i, x[i], want)
		}
	}
	g.ManualSeed(0)
	if got, want := f32(Randint(g, 0, 10, []int{5}, I64)), []float64{4, 9, 3, 0, 3}; !slices.Equal(got, want) {
		t.Errorf("randint(0, 10, [5]) = %v, want %v", got, want)
	}
	if got, want := Randperm(g, 5), []int64{4, 0, 3, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("randperm(5) = %v, want %v", got, want)
	}
	g.ManualSeed(7) // a range of 2^32 or more draws 64 bits
	if got, want := f32(Randint(g, 0, 5000000000, []int{2}, I64)), []float64{3939636932, 3634995702}; !slices.Equal(got, want) {
		t.Errorf("randint(0, 5e9, [2]) = %v, want %v", got, want)
	}
	g.ManualSeed(0) // x.uniform_(-2, 2) then x.normal_(1, 2) on a 3-element f32 x
	if got, want := f32(Uniform(g, []int{3}, F32, -2, 2)), []float64{-0.014973640441894531, 1.0728871822357178, -1.6460902690887451}; !slices.Equal(got, want) {
		t.Errorf("uniform_(-2, 2) = %v, want %v", got, want)
	}
	if got, want := f32(Normal(g, []int{3}, F32, 1, 2)), []float64{1.728676438331604, 1.2687926292419434, 1.3284324407577515}; !slices.Equal(got, want) {
		t.Errorf("normal_(1, 2) = %v, want %v", got, want)
	}
}
