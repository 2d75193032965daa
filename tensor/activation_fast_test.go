package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// actOp is one activation: its in-place form and the reference, the
// generic path's out-of-place value (computed with the fast paths off).
type actOp struct {
	name    string
	inplace func(x *Tensor) error
	ref     func(x *Tensor) (*Tensor, error)
}

func actOps() []actOp {
	leakyRef := func(s float64) func(x *Tensor) (*Tensor, error) {
		// PyTorch's x > 0 ? x : x*s in x's dtype, element by element
		return func(x *Tensor) (*Tensor, error) {
			v := x.ToFloat64s()
			for i, e := range v {
				if !(e > 0) {
					if x.dtype == F32 {
						v[i] = float64(float32(e) * float32(s))
					} else {
						v[i] = e * s
					}
				}
			}
			return FromFloat64s(v, x.shape, x.dtype)
		}
	}
	clampRef := func(lo, hi float64) func(x *Tensor) (*Tensor, error) {
		return func(x *Tensor) (*Tensor, error) { return Clamp(x, ScalarFloat(lo), ScalarFloat(hi)) }
	}
	return []actOp{
		{"relu_", func(x *Tensor) error { return x.ReluInplace() }, Relu},
		{"UnaryInplace(relu)", func(x *Tensor) error { return x.UnaryInplace("relu", Relu) }, Relu},
		{"abs_", func(x *Tensor) error { return x.UnaryInplace("abs", Abs) }, Abs},
		{"neg_", func(x *Tensor) error { return x.UnaryInplace("neg", Neg) }, Neg},
		{"square_", func(x *Tensor) error { return x.UnaryInplace("square", Square) }, Square},
		{"exp_ (general)", func(x *Tensor) error { return x.UnaryInplace("exp", Exp) }, Exp},
		{"hardtanh_", func(x *Tensor) error { return x.HardtanhInplace(-1, 1) }, func(x *Tensor) (*Tensor, error) { return Hardtanh(x, -1, 1) }},
		{"hardtanh_(0,6)", func(x *Tensor) error { return x.HardtanhInplace(0, 6) }, func(x *Tensor) (*Tensor, error) { return Hardtanh(x, 0, 6) }},
		{"hardtanh_(2,1)", func(x *Tensor) error { return x.HardtanhInplace(2, 1) }, func(x *Tensor) (*Tensor, error) { return Hardtanh(x, 2, 1) }},
		{"leaky_relu_(0.01)", func(x *Tensor) error { return x.LeakyReluInplace(0.01) }, leakyRef(0.01)},
		{"leaky_relu_(0.3)", func(x *Tensor) error { return x.LeakyReluInplace(0.3) }, leakyRef(0.3)},
		{"leaky_relu_(-2)", func(x *Tensor) error { return x.LeakyReluInplace(-2) }, leakyRef(-2)},
		{"clamp_", func(x *Tensor) error { return x.ClampInplace(ScalarFloat(-0.5), ScalarFloat(0.7)) }, clampRef(-0.5, 0.7)},
		{"clamp_(min)", func(x *Tensor) error { return x.ClampInplace(ScalarFloat(0), nil) }, func(x *Tensor) (*Tensor, error) { return Clamp(x, ScalarFloat(0), nil) }},
	}
}

// TestActivationInplaceMatchesGeneric: the in-place activations write
// into the tensor's own storage (same data pointer, version bumped once)
// the bits of the generic out-of-place path, on contiguous, transposed
// (dense) and step-sliced (not dense: the general path) f32/f64 inputs
// with NaN, ±Inf, ±0 and subnormals planted, large enough to be split
// over goroutines.
func TestActivationInplaceMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	prev := GetNumThreads()
	SetNumThreads(2)
	defer SetNumThreads(prev)
	for _, dt := range []DType{F32, F64} {
		d := h7Data(rng, 300*131, 2)
		for k := 0; k < 40; k++ {
			d[rng.IntN(len(d))] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e-40, -1e-40, 1e-310}[k%8]
		}
		base, err := FromFloat64s(d, []int{300, 131}, dt)
		if err != nil {
			t.Fatal(err)
		}
		layouts := map[string]func() *Tensor{
			"contiguous": func() *Tensor { return base.Clone() },
			"transposed": func() *Tensor { tr, _ := base.Clone().T(); return tr },
			"sliced":     func() *Tensor { s, _ := base.Clone().Slice(1, 1, 131, 2); return s },
		}
		for _, op := range actOps() {
			for lname, mk := range layouts {
				x := mk()
				fastPathsOff.Store(true)
				want, err := op.ref(x)
				fastPathsOff.Store(false)
				if err != nil {
					t.Fatal(err)
				}
				ptr, ver := x.DataPtr(), x.Version()
				if err := op.inplace(x); err != nil {
					t.Fatalf("%s %s %s: %v", op.name, dt, lname, err)
				}
				if x.DataPtr() != ptr || x.Version() != ver+1 {
					t.Fatalf("%s %s %s: data pointer %x -> %x, version %d -> %d (want the same storage, one bump)", op.name, dt, lname, ptr, x.DataPtr(), ver, x.Version())
				}
				sameBitsTensor(t, op.name+" "+dt.String()+" "+lname, x, want)
			}
		}
	}
}

// TestActivationFastValues: PyTorch 1.13's values on the special inputs
// (torch.relu, F.hardtanh, F.leaky_relu of [-0.0, 0.0, nan, -2, 3, -inf,
// inf, 1e-45]), out of place and in place, f32 and f64; and the errors.
func TestActivationFastValues(t *testing.T) {
	nz, nan, inf := math.Copysign(0, -1), math.NaN(), math.Inf(1)
	in := []float64{nz, 0, nan, -2, 3, -inf, inf, 1e-45}
	for _, dt := range []DType{F32, F64} {
		tiny := 1e-45
		if dt == F32 {
			tiny = float64(float32(1e-45))
		}
		for _, c := range []struct {
			name string
			out  func(x *Tensor) (*Tensor, error)
			inpl func(x *Tensor) error
			want []float64
		}{
			{"relu", Relu, (*Tensor).ReluInplace, []float64{nz, 0, nan, 0, 3, 0, inf, tiny}},
			{"hardtanh", func(x *Tensor) (*Tensor, error) { return Hardtanh(x, -1, 1) }, func(x *Tensor) error { return x.HardtanhInplace(-1, 1) },
				[]float64{nz, 0, nan, -1, 1, -1, 1, tiny}},
			{"leaky_relu(0.5)", func(x *Tensor) (*Tensor, error) { return LeakyRelu(x, 0.5) }, func(x *Tensor) error { return x.LeakyReluInplace(0.5) },
				[]float64{nz, 0, nan, -1, 3, -inf, inf, tiny}},
			{"leaky_relu(0)", func(x *Tensor) (*Tensor, error) { return LeakyRelu(x, 0) }, func(x *Tensor) error { return x.LeakyReluInplace(0) },
				[]float64{nz, 0, nan, nz, 3, nan, inf, tiny}},
		} {
			// 8 values repeated past a vector width, so that the vector
			// kernels and the tails both see each
			var d, w []float64
			for range 5 {
				d, w = append(d, in...), append(w, c.want...)
			}
			x, _ := FromFloat64s(d, []int{len(d)}, dt)
			want, _ := FromFloat64s(w, []int{len(w)}, dt)
			got, err := c.out(x)
			if err != nil {
				t.Fatal(err)
			}
			sameBitsTensor(t, c.name+" "+dt.String(), got, want)
			if err := c.inpl(x); err != nil {
				t.Fatal(err)
			}
			sameBitsTensor(t, c.name+"_ "+dt.String(), x, want)
		}
	}
	// an expanded tensor cannot be written in place; integers go the
	// generic way; leaky_relu of an integer is torch's error
	e, _ := ScalarFloat(1).Expand(3)
	if err := e.ReluInplace(); err == nil {
		t.Error("relu_ of an expanded tensor: no error")
	}
	if err := e.LeakyReluInplace(0.1); err == nil {
		t.Error("leaky_relu_ of an expanded tensor: no error")
	}
	i, _ := FromFloat64s([]float64{-3, 2}, []int{2}, I64)
	if err := i.ReluInplace(); err != nil || i.FlatInt64(0) != 0 || i.FlatInt64(1) != 2 {
		t.Errorf("relu_ of i64: %v %v", i.ToInt64s(), err)
	}
	if _, err := LeakyRelu(i, 0.1); err == nil || err.Error() != `"leaky_relu_cpu" not implemented for 'Long'` {
		t.Errorf("leaky_relu of i64: %v", err)
	}
}
