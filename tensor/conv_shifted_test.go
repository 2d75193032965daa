package tensor

import (
	"fmt"
	"math"
	"testing"
)

// withShifted runs fn with the shifted path forced on (min channels 1) or
// off.
func withShifted(on bool, fn func()) {
	old := shiftedMinChannels
	defer func() { shiftedMinChannels = old }()
	shiftedMinChannels = 1 << 30
	if on {
		shiftedMinChannels = 1
	}
	fn()
}

// maxRelDiff returns max |a-b| / (1 + max |b|) over two same-shape tensors.
func maxRelDiff(t *testing.T, a, b *Tensor) float64 {
	t.Helper()
	if !shapeEq(a.shape, b.shape) {
		t.Fatalf("shapes %v and %v", a.shape, b.shape)
	}
	var av, bv []float64
	if a.dtype == F64 {
		av, bv = a.Contiguous().data64(), b.Contiguous().data64()
	} else {
		av, bv = make([]float64, a.Numel()), make([]float64, b.Numel())
		for i, v := range a.Contiguous().data32() {
			av[i] = float64(v)
		}
		for i, v := range b.Contiguous().data32() {
			bv[i] = float64(v)
		}
	}
	var d, m float64
	for i := range av {
		d = max(d, math.Abs(av[i]-bv[i]))
		m = max(m, math.Abs(bv[i]))
	}
	return d / (1 + m)
}

// TestConvShifted checks the shifted (implicit-GEMM) path of conv2d, its
// input and weight gradients and conv_transpose2d against im2col + GEMM,
// which the PyTorch golden tests of stdlib cover, on geometries with
// padding, dilation, groups and rectangular kernels.
func TestConvShifted(t *testing.T) {
	cases := []struct {
		x, w    []int
		p       ConvParams
		shifted bool // whether the forward takes the shifted path when forced
	}{
		{[]int{2, 3, 7, 8}, []int{4, 3, 3, 3}, ConvParams{Padding: [2]int{1, 1}}, true},
		{[]int{3, 4, 6, 9}, []int{6, 2, 2, 3}, ConvParams{Padding: [2]int{0, 1}, Groups: 2}, true},
		{[]int{1, 2, 9, 10}, []int{3, 2, 3, 2}, ConvParams{Padding: [2]int{2, 1}, Dilation: [2]int{2, 1}}, true},
		{[]int{2, 5, 6, 12}, []int{5, 5, 1, 3}, ConvParams{}, true},
		{[]int{3, 2, 45, 50}, []int{3, 2, 3, 3}, ConvParams{Padding: [2]int{1, 1}}, true}, // several row blocks
		{[]int{2, 4, 5, 6}, []int{4, 4, 1, 5}, ConvParams{}, false},                       // columns mostly discarded
		{[]int{2, 3, 7, 8}, []int{4, 3, 3, 3}, ConvParams{Stride: [2]int{2, 1}, Padding: [2]int{1, 1}}, false},
	}
	g := NewGenerator(7)
	for _, dt := range []DType{F64, F32} {
		for i, c := range cases {
			t.Run(fmt.Sprintf("%s/%d", dt, i), func(t *testing.T) {
				p := c.p
				for j := range 2 {
					p.Stride[j] = max(p.Stride[j], 1)
					p.Dilation[j] = max(p.Dilation[j], 1)
				}
				p.Groups = max(p.Groups, 1)
				x, _ := Randn(g, c.x, dt)
				w, _ := Randn(g, c.w, dt)
				b, _ := Randn(g, []int{c.w[0]}, dt)
				q, err := convShapes("conv2d", x, w, p, false)
				if err != nil {
					t.Fatal(err)
				}
				var on bool
				withShifted(true, func() { on = q.shifted() })
				if on != c.shifted {
					t.Fatalf("shifted() = %v, want %v", on, c.shifted)
				}
				gout, _ := Randn(g, []int{q.n, q.f, q.oh, q.ow}, dt)
				xt, _ := Randn(g, []int{q.n, q.f, q.oh, q.ow}, dt) // a conv_transpose2d input
				type res struct{ y, gx, gw, gb, yt, tgx, tgw *Tensor }
				run := func() (r res) {
					var err error
					if r.y, err = Conv2d(x, w, b, p); err != nil {
						t.Fatal(err)
					}
					if r.gx, r.gw, r.gb, err = ConvBackward(x, w, gout, p, false, true, true, true); err != nil {
						t.Fatal(err)
					}
					if r.yt, err = ConvTranspose2d(xt, w, nil, p); err != nil {
						t.Fatal(err)
					}
					// conv_transpose2d's gradients, at grad_output x.
					if r.tgx, r.tgw, _, err = ConvBackward(xt, w, x, p, true, true, true, false); err != nil {
						t.Fatal(err)
					}
					return r
				}
				var want, got res
				withShifted(false, func() { want = run() })
				withShifted(true, func() { got = run() })
				tol := 1e-12
				if dt == F32 {
					tol = 1e-5
				}
				for _, o := range []struct {
					name string
					a, b *Tensor
				}{{"conv2d", got.y, want.y}, {"grad x", got.gx, want.gx}, {"grad w", got.gw, want.gw},
					{"grad b", got.gb, want.gb}, {"conv_transpose2d", got.yt, want.yt},
					{"conv_transpose2d grad x", got.tgx, want.tgx}, {"conv_transpose2d grad w", got.tgw, want.tgw}} {
					if d := maxRelDiff(t, o.a, o.b); d > tol {
						t.Errorf("%s: relative difference %.3g > %.3g", o.name, d, tol)
					}
				}
			})
		}
	}
}
