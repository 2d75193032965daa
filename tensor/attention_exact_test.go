package tensor

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
)

// unfusedAttention is what SoftmaxAttention must reproduce bit for bit:
// MatmulScaled(q, kᵀ, scale), Softmax over the last dim, Matmul with v.
func unfusedAttention(t *testing.T, q, k, v *Tensor, scale float64) *Tensor {
	t.Helper()
	kt, err := k.Transpose(-2, -1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := MatmulScaled(q, kt, scale)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Softmax(s, -1)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Matmul(p, v)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func sameBits(t *testing.T, got, want *Tensor) {
	t.Helper()
	if got.dtype != want.dtype || !slices.Equal(got.shape, want.shape) || !slices.Equal(got.strides, want.strides) {
		t.Fatalf("got %s %v strides %v, want %s %v strides %v", got.dtype, got.shape, got.strides, want.dtype, want.shape, want.strides)
	}
	g, w := got.ToFloat64s(), want.ToFloat64s()
	for i := range w {
		if math.Float64bits(g[i]) != math.Float64bits(w[i]) {
			t.Fatalf("element %d: fused %v (%x), unfused %v (%x)", i, g[i], math.Float64bits(g[i]), w[i], math.Float64bits(w[i]))
		}
	}
}

func TestSoftmaxAttentionBitExact(t *testing.T) {
	g := NewGenerator(11)
	type tc struct {
		name        string
		batch       []int
		L, S, E, Ev int
		dt          DType
		layout      string // "", "bshd" (q, k, v permuted from [B, S, H, D]), "kT" (k from a transposed buffer)
		scale       float64
	}
	cases := []tc{
		{"seed shape scaled", []int{2, 3}, 64, 96, 64, 64, F32, "", 0.125},
		{"odd sizes", []int{3}, 37, 45, 13, 9, F32, "", 0.3},
		{"several query blocks", []int{2}, 300, 257, 16, 24, F32, "", 0.25},
		{"long keys, several K panels in p·v", []int{1}, 30, 1700, 8, 40, F32, "", 0.1},
		{"f64", []int{2, 2}, 70, 33, 8, 12, F64, "", 1 / math.Sqrt(8)},
		{"f64 long keys", []int{1}, 25, 1100, 4, 6, F64, "", 0.7},
		{"bshd views", []int{2, 4}, 40, 40, 16, 16, F32, "bshd", 0.25},
		{"transposed k buffer", []int{2}, 33, 50, 12, 7, F64, "kT", 1},
		{"no batch", nil, 50, 60, 32, 20, F32, "", 1},
		{"scale not a power of two", []int{2}, 24, 24, 24, 24, F32, "", 1 / math.Sqrt(24)},
	}
	mk := func(batch []int, r, c int, dt DType, layout string) *Tensor {
		t.Helper()
		var sh []int
		switch layout {
		case "bshd": // [B, r, H, c] permuted to [B, H, r, c]
			sh = []int{batch[0], r, batch[1], c}
		case "kT":
			sh = append(slices.Clone(batch), c, r)
		default:
			sh = append(slices.Clone(batch), r, c)
		}
		x, err := Randn(g, sh, dt)
		if err != nil {
			t.Fatal(err)
		}
		switch layout {
		case "bshd":
			x, _ = x.Permute(0, 2, 1, 3)
		case "kT":
			x, _ = x.Transpose(-2, -1)
		}
		return x
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kl := c.layout
			q := mk(c.batch, c.L, c.E, c.dt, map[string]string{"kT": ""}[kl])
			k := mk(c.batch, c.S, c.E, c.dt, kl)
			v := mk(c.batch, c.S, c.Ev, c.dt, map[string]string{"kT": ""}[kl])
			got, ok := SoftmaxAttention(q, k, v, c.scale)
			if !ok {
				t.Fatal("not handled")
			}
			sameBits(t, got, unfusedAttention(t, q, k, v, c.scale))
		})
	}
}

func TestSoftmaxAttentionDeclines(t *testing.T) {
	g := NewGenerator(3)
	r := func(dt DType, sh ...int) *Tensor {
		x, err := Randn(g, sh, dt)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cases := []struct {
		name    string
		q, k, v *Tensor
	}{
		{"f16", r(F16, 2, 16, 8), r(F16, 2, 16, 8), r(F16, 2, 16, 8)},
		{"mixed dtypes", r(F32, 2, 16, 8), r(F64, 2, 16, 8), r(F32, 2, 16, 8)},
		{"broadcast batch", r(F32, 1, 16, 8), r(F32, 2, 16, 8), r(F32, 2, 16, 8)},
		{"E too wide", r(F32, 1, 4, 300), r(F32, 1, 4, 300), r(F32, 1, 4, 4)},
		{"tiny", r(F32, 2, 2, 2), r(F32, 2, 2, 2), r(F32, 2, 2, 2)},
		{"k and v lengths differ", r(F32, 16, 8), r(F32, 16, 8), r(F32, 15, 8)},
		{"E differs", r(F32, 16, 8), r(F32, 16, 9), r(F32, 16, 8)},
		{"empty", r(F32, 0, 16, 8), r(F32, 0, 16, 8), r(F32, 0, 16, 8)},
		{"1-D", r(F32, 64), r(F32, 64), r(F32, 64)},
	}
	for _, c := range cases {
		if _, ok := SoftmaxAttention(c.q, c.k, c.v, 1); ok {
			t.Errorf("%s: handled, want declined", c.name)
		}
	}
	q := r(F32, 2, 16, 8)
	fastPathsOff.Store(true)
	_, ok := SoftmaxAttention(q, q, q, 1)
	fastPathsOff.Store(false)
	if ok {
		t.Error("handled with the fast paths off")
	}
}

// SoftmaxAttention either declines or gives the unfused bits where the
// unfused p·v GEMM runs blocks of fewer rows than the kernel's register
// tile: fewer queries than that, or a multi-threaded split of the query
// rows leaving a short last block. Those blocks pack A and sum the keys in
// the packed-A K panels, not the in-place ones the fused GEMM uses.
func TestSoftmaxAttentionShortRowBlocks(t *testing.T) {
	g := NewGenerator(7)
	r := func(dt DType, sh ...int) *Tensor {
		x, err := Randn(g, sh, dt)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		for _, c := range []struct {
			batch       []int
			L, S, E, Ev int
			dt          DType
		}{
			{[]int{2}, 5, 500, 16, 8, F32},
			{[]int{1, 3}, 3, 1100, 8, 17, F32},
			{nil, 11, 800, 64, 64, F32},
			{[]int{2}, 3, 300, 8, 4, F64},
			{nil, 13, 8600, 16, 8, F32},
			{nil, 13, 8600, 16, 8, F64},
			{[]int{1}, 25, 8600, 16, 8, F32},
		} {
			sh := func(a, b int) []int { return append(slices.Clone(c.batch), a, b) }
			q, k, v := r(c.dt, sh(c.L, c.E)...), r(c.dt, sh(c.S, c.E)...), r(c.dt, sh(c.S, c.Ev)...)
			if got, ok := SoftmaxAttention(q, k, v, 0.25); ok {
				t.Run(fmt.Sprintf("procs %d %v L%d S%d %s", procs, c.batch, c.L, c.S, c.dt), func(t *testing.T) {
					sameBits(t, got, unfusedAttention(t, q, k, v, 0.25))
				})
			}
		}
	}
}

// A zero scale is not BLAS's alpha = 0 (C not computed): the unfused
// scores are 0·(q·k), NaN where q·k is infinite or NaN.
func TestSoftmaxAttentionZeroScale(t *testing.T) {
	g := NewGenerator(5)
	for _, dt := range []DType{F32, F64} {
		for _, scale := range []float64{0, math.Copysign(0, -1)} {
			var qkv [3]*Tensor
			for i, n := range []int{20, 24, 24} {
				x, err := Randn(g, []int{2, n, 16}, dt)
				if err != nil {
					t.Fatal(err)
				}
				qkv[i] = x
			}
			q, k, v := qkv[0], qkv[1], qkv[2]
			if dt == F32 {
				q.storage.F32()[0] = float32(math.Inf(1))
			} else {
				q.storage.F64()[0] = math.NaN()
			}
			if got, ok := SoftmaxAttention(q, k, v, scale); ok {
				sameBits(t, got, unfusedAttention(t, q, k, v, scale))
			}
		}
	}
}
