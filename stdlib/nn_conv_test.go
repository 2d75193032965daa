package stdlib_test

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

// conv1d/2d, conv_transpose1d/2d, unfold, fold, the pools and the norms of
// nn_conv.go, nn_pool.go and nn_norm.go against PyTorch 1.13 through
// testdata/gen_conv.py (testdata/conv.json): values, dtypes, shapes,
// strides, gradients, grad_fn names and errors; and the gradients against
// central finite differences in float64.

func loadConv(t *testing.T) *opsMoreTorchGolden {
	t.Helper()
	return loadTorchGolden(t, "testdata/conv.json", 108, 18, 74)
}

func TestConvGolden(t *testing.T) { checkConvCases(t, loadConv(t)) }
func TestConvGradFn(t *testing.T) { checkTorchGradFns(t, loadConv(t)) }
func TestConvErrors(t *testing.T) { checkTorchErrors(t, loadConv(t)) }

// fdVals returns n deterministic values in (-1, 1).
func fdVals(n int, k float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		x := float64(i)*k + 0.1
		v[i] = x - float64(int(x)) - 0.5 + float64(i%3)*0.1
	}
	return v
}

// TestConvFiniteDifference checks every analytic gradient against central
// differences (pool inputs without ties, so max and its gradient are
// smooth at the points).
func TestConvFiniteDifference(t *testing.T) {
	x := fdLeaf{"x", "1, 2, 4, 5", fdVals(40, 0.377)}
	w := fdLeaf{"w", "4, 1, 2, 3", fdVals(24, 0.617)}
	b := fdLeaf{"b", "4", []float64{0.3, -0.2, 0.5, 0.1}}
	wt := fdLeaf{"w", "2, 3, 2, 2", fdVals(24, 0.617)}
	x1 := fdLeaf{"x", "2, 2, 5", fdVals(20, 0.377)}
	w1 := fdLeaf{"w", "3, 2, 2", fdVals(12, 0.617)}
	g := fdLeaf{"g", "2", []float64{1.2, 0.7}}
	h := fdLeaf{"h", "2", []float64{0.3, -0.4}}
	checkFiniteDifferences(t, []fdCase{
		{"nn.conv2d(x, w, b, stride=(1, 2), padding=1, dilation=(2, 1), groups=2)", []fdLeaf{x, w, b}},
		{"nn.conv2d(x, w, padding=\"same\", groups=2)", []fdLeaf{x, w}},
		{"nn.conv1d(x, w, stride=2, padding=1)", []fdLeaf{x1, w1}},
		{"nn.conv_transpose2d(x, w, b[:3], stride=2, padding=1, output_padding=1)", []fdLeaf{x, wt, {"b", "3", []float64{0.3, -0.2, 0.5}}}},
		{"nn.unfold(x, (2, 3), padding=1, stride=(2, 1))", []fdLeaf{x}},
		{"nn.fold(x.reshape(1, 4, 10), (3, 6), 2)", []fdLeaf{x}},
		{"nn.max_pool2d(x, 2, 1, 1, dilation=(1, 2))", []fdLeaf{x}},
		{"nn.max_pool1d(x, 3, 2, 1, ceil_mode=true)", []fdLeaf{x1}},
		{"nn.avg_pool2d(x, 3, 2, 1, ceil_mode=true, count_include_pad=false)", []fdLeaf{x}},
		{"nn.avg_pool1d(x, 2, 1, 1, ceil_mode=true)", []fdLeaf{x1}},
		{"nn.adaptive_avg_pool2d(x, (3, 2))", []fdLeaf{x}},
		{"nn.adaptive_max_pool2d(x, (3, 2))", []fdLeaf{x}},
		{"nn.adaptive_avg_pool1d(x, 3)", []fdLeaf{x1}},
		{"nn.batch_norm(x, none, none, g, h, training=true)", []fdLeaf{x, g, h}},
		{"nn.group_norm(x, 1, g, h)", []fdLeaf{x, g, h}},
		{"nn.instance_norm(x, weight=g, bias=h)", []fdLeaf{x, g, h}},
	})
}

// TestConvProgram runs the new functions as a user would write them
// (outputs from PyTorch 1.13).
func TestConvProgram(t *testing.T) {
	checkPrints(t, []printCase{
		{`x = arange(16.).reshape(1, 1, 4, 4)
print(nn.conv2d(x, ones(1, 1, 2, 2), stride=2))
v = nn.max_pool2d(x, 2, return_indices=true)
print(v[0].shape, v[1])`, "tensor([[[[10., 18.],\n          [42., 50.]]]])\n[1, 1, 2, 2] tensor([[[[ 5,  7],\n          [13, 15]]]])"},
		{`m = zeros(2)
v = ones(2)
nn.batch_norm(tensor([[1., 2.], [3., 6.]]), m, v, training=true)
print(m, v)`, "tensor([0.2000, 0.4000]) tensor([1.1000, 1.7000])"},
	})
}

// checkConvCases is checkTorchCases with a tolerance for sums whose order
// differs from PyTorch's (its CPU convolutions run oneDNN kernels): f32
// within 1e-5 of the largest magnitude, bf16 within one bf16 ulp of it,
// f64 within 1e-10 of it (batch_norm's weight gradient cancels); NaN and infinities exactly, integers exactly.
func checkConvCases(t *testing.T, g *opsMoreTorchGolden) {
	for _, c := range g.Cases {
		t.Run(c.Name, func(t *testing.T) {
			r := evalTensor(t, c.Tsr)
			if r.DType().String() != c.DType || !slices.Equal(r.Shape(), c.Shape) {
				t.Fatalf("%s\ndtype %s shape %v, want %s %v", c.Tsr, r.DType(), r.Shape(), c.DType, c.Shape)
			}
			if !slices.Equal(r.Strides(), c.Strides) {
				t.Errorf("%s\nstrides %v, want %v", c.Tsr, r.Strides(), c.Strides)
			}
			if !r.DType().IsFloat() {
				checkTensor(t, c.extraCase, r)
				return
			}
			got := r.ToFloat64s()
			want := make([]float64, len(c.Values))
			scale := 0.0
			for k, s := range c.Values {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				want[k] = v
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					scale = math.Max(scale, math.Abs(v))
				}
			}
			tol := map[string]float64{"f32": 1e-5, "bf16": 0x1p-7, "f64": 1e-10}[c.DType] * scale
			for k, wv := range want {
				g := got[k]
				ok := g == wv || math.IsNaN(g) && math.IsNaN(wv) || !math.IsInf(wv, 0) && math.Abs(g-wv) <= tol
				if !ok {
					t.Errorf("%s\nelement %d = %v, want %v (tolerance %g)", c.Tsr, k, g, wv, tol)
				}
			}
		})
	}
}
