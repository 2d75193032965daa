package tensor

import (
	"math"
	"slices"
	"testing"
)

// sdpaRef is softmax(scale·q kᵀ + mask) v in float64 by the textbook
// loops, for q [B, L, E], k [B, S, E], v [B, S, Ev] and mask [B, L, S]
// (all already expanded to the batch and contiguous; mask may be nil).
func sdpaRef(q, k, v, mask []float64, maskBool []bool, B, L, S, E, Ev int, causal bool, scale float64) []float64 {
	out := make([]float64, B*L*Ev)
	row := make([]float64, S)
	for b := 0; b < B; b++ {
		for i := 0; i < L; i++ {
			m := math.Inf(-1)
			for j := 0; j < S; j++ {
				var s float64
				for p := 0; p < E; p++ {
					s += q[(b*L+i)*E+p] * k[(b*S+j)*E+p]
				}
				s *= scale
				mi := (b*L+i)*S + j
				switch {
				case causal && j > i:
					s = math.Inf(-1)
				case maskBool != nil && !maskBool[mi]:
					s = math.Inf(-1)
				case mask != nil:
					s += mask[mi]
				}
				row[j] = s
				m = math.Max(m, s)
			}
			var sum float64
			for j := range row {
				row[j] = math.Exp(row[j] - m)
				sum += row[j]
			}
			for d := 0; d < Ev; d++ {
				var o float64
				for j := 0; j < S; j++ {
					o += row[j] / sum * v[(b*S+j)*Ev+d]
				}
				out[(b*L+i)*Ev+d] = o
			}
		}
	}
	return out
}

func flatExpanded(t *testing.T, x *Tensor, shape []int) []float64 {
	t.Helper()
	e, err := x.Expand(shape...)
	if err != nil {
		t.Fatal(err)
	}
	return e.Contiguous().ToFloat64s()
}

func TestScaledDotProductAttention(t *testing.T) {
	g := NewGenerator(7)
	type tc struct {
		name            string
		batchQ, batchK  []int // batch dims of q and of k, v
		L, S, E, Ev     int
		causal          bool
		mask            string // "", "bool", "float"
		maskShape       []int  // before broadcasting
		transposeInputs bool   // q, k, v as transposed views
		dt              DType
		tol             float64
	}
	cases := []tc{
		{name: "f32 basic", batchQ: []int{2, 3}, batchK: []int{2, 3}, L: 37, S: 45, E: 16, Ev: 9, dt: F32, tol: 2e-6},
		{name: "f64 basic", batchQ: []int{2}, batchK: []int{2}, L: 70, S: 33, E: 8, Ev: 12, dt: F64, tol: 1e-13},
		{name: "f32 long rows", batchQ: []int{1}, batchK: []int{1}, L: 300, S: 700, E: 24, Ev: 20, dt: F32, tol: 2e-6},
		{name: "causal L<S", batchQ: []int{3}, batchK: []int{3}, L: 50, S: 130, E: 8, Ev: 8, causal: true, dt: F32, tol: 2e-6},
		{name: "causal L>S", batchQ: []int{2}, batchK: []int{2}, L: 290, S: 40, E: 8, Ev: 5, causal: true, dt: F64, tol: 1e-13},
		{name: "causal big", batchQ: []int{2}, batchK: []int{2}, L: 260, S: 260, E: 32, Ev: 32, causal: true, dt: F32, tol: 2e-6},
		{name: "bool mask bcast", batchQ: []int{2, 2}, batchK: []int{2, 2}, L: 19, S: 23, E: 4, Ev: 6, mask: "bool", maskShape: []int{19, 23}, dt: F32, tol: 2e-6},
		{name: "float mask per head", batchQ: []int{2, 2}, batchK: []int{2, 2}, L: 19, S: 23, E: 4, Ev: 6, mask: "float", maskShape: []int{2, 1, 19, 23}, dt: F64, tol: 1e-13},
		{name: "key mask row", batchQ: []int{3}, batchK: []int{3}, L: 11, S: 64, E: 8, Ev: 8, mask: "bool", maskShape: []int{3, 1, 64}, dt: F32, tol: 2e-6},
		{name: "batch broadcast", batchQ: []int{4, 2}, batchK: []int{2}, L: 13, S: 17, E: 8, Ev: 3, dt: F32, tol: 2e-6},
		{name: "2-D", batchQ: nil, batchK: nil, L: 5, S: 6, E: 3, Ev: 2, dt: F64, tol: 1e-13},
		{name: "strided views", batchQ: []int{3}, batchK: []int{3}, L: 29, S: 31, E: 12, Ev: 12, transposeInputs: true, dt: F32, tol: 2e-6},
		{name: "f16", batchQ: []int{2}, batchK: []int{2}, L: 9, S: 10, E: 8, Ev: 4, dt: F16, tol: 3e-3},
		{name: "bf16", batchQ: []int{2}, batchK: []int{2}, L: 9, S: 10, E: 8, Ev: 4, dt: BF16, tol: 2e-2},
	}
	mk := func(batch []int, r, c int, dt DType, transposed bool) *Tensor {
		sh := append(append([]int(nil), batch...), r, c)
		if transposed {
			sh = append(append([]int(nil), batch...), c, r)
		}
		x, err := Randn(g, sh, F64)
		if err != nil {
			t.Fatal(err)
		}
		x = x.toDType(dt)
		if transposed {
			x, _ = x.Transpose(-2, -1)
		}
		return x
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := mk(c.batchQ, c.L, c.E, c.dt, c.transposeInputs)
			k := mk(c.batchK, c.S, c.E, c.dt, c.transposeInputs)
			v := mk(c.batchK, c.S, c.Ev, c.dt, c.transposeInputs)
			batch, _ := BroadcastShapes(c.batchQ, c.batchK)
			B := 1
			for _, s := range batch {
				B *= s
			}
			full := append(append([]int(nil), batch...), c.L, c.S)
			var mask *Tensor
			var mf []float64
			var mb []bool
			switch c.mask {
			case "bool":
				u, _ := Rand(g, c.maskShape, F64)
				vals := u.ToFloat64s()
				for i := range vals {
					if vals[i] < 0.3 {
						vals[i] = 0
					} else {
						vals[i] = 1
					}
				}
				vals[0] = 1 // keep row 0 attending somewhere
				mask, _ = FromFloat64s(vals, c.maskShape, Bool)
				for _, x := range flatExpanded(t, mask, full) {
					mb = append(mb, x != 0)
				}
			case "float":
				mask, _ = Randn(g, c.maskShape, c.dt)
				mf = flatExpanded(t, mask, full)
			}
			scale := 1 / math.Sqrt(float64(c.E))
			got, err := ScaledDotProductAttention(q, k, v, mask, c.causal, scale)
			if err != nil {
				t.Fatal(err)
			}
			wantShape := append(append([]int(nil), batch...), c.L, c.Ev)
			if !slices.Equal(got.Shape(), wantShape) || got.DType() != c.dt {
				t.Fatalf("shape %v dtype %v, want %v %v", got.Shape(), got.DType(), wantShape, c.dt)
			}
			qf := flatExpanded(t, q, append(append([]int(nil), batch...), c.L, c.E))
			kf := flatExpanded(t, k, append(append([]int(nil), batch...), c.S, c.E))
			vf := flatExpanded(t, v, append(append([]int(nil), batch...), c.S, c.Ev))
			want := sdpaRef(qf, kf, vf, mf, mb, B, c.L, c.S, c.E, c.Ev, c.causal, scale)
			gv := got.ToFloat64s()
			for i := range want {
				if !(math.Abs(gv[i]-want[i]) <= c.tol*(1+math.Abs(want[i]))) {
					t.Fatalf("element %d: got %v, want %v", i, gv[i], want[i])
				}
			}
		})
	}
}

func TestScaledDotProductAttentionEdges(t *testing.T) {
	q, _ := FromFloat64s([]float64{1, 0, 0, 1}, []int{2, 2}, F32)
	k, _ := FromFloat64s([]float64{1, 0, 0, 1, 1, 1}, []int{3, 2}, F32)
	v, _ := FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{3, 2}, F32)
	// hand-derived: with scale 0 every row averages v's rows.
	got, err := ScaledDotProductAttention(q, k, v, nil, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range got.ToFloat64s() {
		want := []float64{3, 4}[i%2]
		if math.Abs(x-want) > 1e-6 {
			t.Fatalf("scale 0: element %d = %v, want %v", i, x, want)
		}
	}
	// a row with every key masked out is NaN, like softmax over all -inf.
	m, _ := FromFloat64s([]float64{0, 0, 0, 1, 0, 1}, []int{2, 3}, Bool)
	got, err = ScaledDotProductAttention(q, k, v, m, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := got.ToFloat64s()
	if !math.IsNaN(r[0]) || !math.IsNaN(r[1]) {
		t.Fatalf("all-masked row: %v, want NaN", r[:2])
	}
	// row 1 attends keys 0 and 2: scores 0 and 1 (q1 = [0 1]).
	w0, w2 := 1/(1+math.E), math.E/(1+math.E)
	if want := w0*1 + w2*5; math.Abs(r[2]-want) > 1e-6 {
		t.Fatalf("masked row: %v, want %v", r[2], want)
	}
	// E == 0 with a batch dim: every score is 0, the result averages v.
	qe, _ := Zeros([]int{2, 5, 0}, F32)
	ke, _ := Zeros([]int{2, 7, 0}, F32)
	ve, _ := FromFloat64s([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, []int{2, 7, 1}, F32)
	oe, err := ScaledDotProductAttention(qe, ke, ve, nil, false, math.Inf(1))
	if err != nil {
		t.Fatal(err)
	}
	if r := oe.ToFloat64s(); !slices.Equal(oe.Shape(), []int{2, 5, 1}) || math.Abs(r[0]-3) > 1e-6 || math.Abs(r[9]-10) > 1e-6 {
		t.Fatalf("E=0: %v %v, want means 3 and 10", oe.Shape(), r)
	}
	// an f32 mask on an f16 query is allowed (PyTorch's rule), and added.
	qh, kh, vh := q.toDType(F16), k.toDType(F16), v.toDType(F16)
	fm, _ := FromFloat64s([]float64{0, -1e9, 0, 0, 0, 0}, []int{2, 3}, F32)
	oh, err := ScaledDotProductAttention(qh, kh, vh, fm, false, 0)
	if err != nil || oh.DType() != F16 {
		t.Fatalf("f32 mask on f16: %v %v", oh, err)
	}
	if r := oh.ToFloat64s(); r[0] != 3 || r[1] != 4 || r[2] != 3 { // row 0 averages keys 0 and 2
		t.Fatalf("f32 mask on f16: %v", r)
	}
	// empty sizes
	q0, _ := Zeros([]int{2, 0, 4}, F32)
	k0, _ := Zeros([]int{2, 3, 4}, F32)
	v0, _ := Zeros([]int{2, 3, 5}, F32)
	if o, err := ScaledDotProductAttention(q0, k0, v0, nil, false, 1); err != nil || !slices.Equal(o.Shape(), []int{2, 0, 5}) {
		t.Fatalf("L=0: %v %v", o, err)
	}
	ks, _ := Zeros([]int{2, 0, 4}, F32)
	vs, _ := Zeros([]int{2, 0, 5}, F32)
	qs, _ := Ones([]int{2, 3, 4}, F32)
	if o, err := ScaledDotProductAttention(qs, ks, vs, nil, true, 1); err != nil || !slices.Equal(o.Shape(), []int{2, 3, 5}) {
		t.Fatalf("S=0: %v %v", o, err)
	}
	for name, f := range map[string]func() error{
		"1-D": func() error {
			x, _ := Ones([]int{3}, F32)
			_, err := ScaledDotProductAttention(x, k, v, nil, false, 1)
			return err
		},
		"E mismatch": func() error {
			x, _ := Ones([]int{2, 3}, F32)
			_, err := ScaledDotProductAttention(x, k, v, nil, false, 1)
			return err
		},
		"S mismatch": func() error {
			x, _ := Ones([]int{4, 2}, F32)
			_, err := ScaledDotProductAttention(q, k, x, nil, false, 1)
			return err
		},
		"dtype": func() error {
			x := v.toDType(F64)
			_, err := ScaledDotProductAttention(q, k, x, nil, false, 1)
			return err
		},
		"int": func() error {
			x := q.toDType(I64)
			_, err := ScaledDotProductAttention(x, x, x, nil, false, 1)
			return err
		},
		"mask+causal": func() error {
			_, err := ScaledDotProductAttention(q, k, v, m, true, 1)
			return err
		},
		"mask shape": func() error {
			x, _ := Ones([]int{3, 3}, Bool)
			_, err := ScaledDotProductAttention(q, k, v, x, false, 1)
			return err
		},
		"mask dtype": func() error {
			x, _ := Ones([]int{2, 3}, F64)
			_, err := ScaledDotProductAttention(q, k, v, x, false, 1)
			return err
		},
		"int mask": func() error {
			x, _ := Ones([]int{2, 3}, I64)
			_, err := ScaledDotProductAttention(q, k, v, x, false, 1)
			return err
		},
		"mask adds dims": func() error {
			x, _ := Ones([]int{4, 2, 3}, Bool)
			_, err := ScaledDotProductAttention(q, k, v, x, false, 1)
			return err
		},
		"batch": func() error {
			a, _ := Ones([]int{2, 2, 2}, F32)
			b, _ := Ones([]int{3, 3, 2}, F32)
			_, err := ScaledDotProductAttention(a, b, b, nil, false, 1)
			return err
		},
	} {
		err := f()
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if e, ok := err.(*Error); !ok || e.Kind != RuntimeError {
			t.Fatalf("%s: %v, want a RuntimeError", name, err)
		}
	}
}

// A zero scale multiplies the scores, so an infinite q or k entry gives
// NaN as the written-out softmax(q kᵀ · 0) v does (0 · inf).
func TestScaledDotProductAttentionZeroScale(t *testing.T) {
	q, _ := FromFloat64s([]float64{math.Inf(1), 1, 2, 3, 4, 5}, []int{3, 2}, F32)
	v, _ := FromFloat64s([]float64{1, 2, 3, 4, 5, 6}, []int{3, 2}, F32)
	out, err := ScaledDotProductAttention(q, v, v, nil, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := out.ToFloat64s()
	// row 0 has q[0,0] = inf: every score of it is NaN; the others are
	// plain averages of v's rows (all scores 0; k = v is finite)
	if !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("row with inf: %v, want NaN", got[:2])
	}
	if got[2] != 3 || got[3] != 4 {
		t.Errorf("row 1: %v, want [3 4]", got[2:4])
	}
}
