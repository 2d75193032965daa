package tensor

import (
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func eqInts(a, b []int) bool { return shapeEq(a, b) }

// The examples of LANGUAGE.md section 9 that concern this package.
func TestLanguageExamples(t *testing.T) {
	m := must[*Tensor](t)
	x := m(m(Arange(0, 12, 1, F32)).Reshape(3, 4))
	if !eqInts(x.Shape(), []int{3, 4}) || !eqInts(x.Strides(), []int{4, 1}) || !x.IsContiguous() {
		t.Fatalf("x: %v %v %v", x.Shape(), x.Strides(), x.IsContiguous())
	}
	xt := m(x.T())
	if !eqInts(xt.Shape(), []int{4, 3}) || !eqInts(xt.Strides(), []int{1, 4}) || xt.IsContiguous() || xt.DataPtr() != x.DataPtr() {
		t.Fatalf("xt: %v %v %v", xt.Shape(), xt.Strides(), xt.IsContiguous())
	}
	s := m(Arange(0, 10, 1, F32))
	w := m(s.AsStrided([]int{4, 4}, []int{2, 1}, 0))
	if !eqInts(w.Shape(), []int{4, 4}) || w.DataPtr() != s.DataPtr() {
		t.Fatal("sliding window")
	}
	if got := m(w.Select(0, 3)).ToFloat64s(); !floatsEq(got, []float64{6, 7, 8, 9}) {
		t.Fatalf("w[3] = %v", got)
	}
	_, err := s.AsStrided([]int{4, 4}, []int{3, 1}, 0)
	if err == nil || err.(*Error).Kind != RuntimeError || err.Error() != "as_strided: view of size [4, 4] with stride [3, 1] and offset 0 needs storage of 13 elements, but the storage has 10" {
		t.Fatalf("as_strided error: %v", err)
	}
	if st := m(m(Empty([]int{2, 3, 4}, F32)).Permute(2, 0, 1)).Strides(); !eqInts(st, []int{1, 12, 4}) {
		t.Fatalf("permute strides %v", st)
	}
	l := m(FromFloat64s([]float64{1000, 1001, 1002}, []int{3}, F32))
	v, _ := m(LogSumExp(l, []int{0}, false)).Item()
	if math.Abs(v.(float64)-1002.4076) > 1e-4 {
		t.Fatalf("logsumexp %v", v)
	}
	e := m(m(Zeros([]int{1, 1, 128, 128}, F32)).Expand(16, 8, 128, 128))
	if !eqInts(e.Strides(), []int{0, 0, 128, 1}) {
		t.Fatalf("expand strides %v", e.Strides())
	}
	a := m(m(ArangeInt(0, 6, 1, I64)).Reshape(2, 3))
	_, err = m(a.T()).View(-1)
	if err == nil || !strings.Contains(err.Error(), "reshape") {
		t.Fatalf("view error %v", err)
	}
	if got := m(m(a.T()).Reshape(-1)).ToInt64s(); got[1] != 3 || got[5] != 5 {
		t.Fatalf("reshape %v", got)
	}
	f16, _ := Finfo(F16)
	bf, _ := Finfo(BF16)
	if f16.Max != 65504 || bf.Eps != 0.0078125 {
		t.Fatal("finfo")
	}
}

func floatsEq(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// Views allocate no storage: the pool counters do not move.
func TestViewsAllocateNothing(t *testing.T) {
	m := must[*Tensor](t)
	x := m(Zeros([]int{64, 64, 8}, F32))
	a0, b0, _ := PoolStats()
	v := m(x.Transpose(0, 2))
	v = m(v.Narrow(1, 3, 10))
	v = m(v.Unsqueeze(0))
	v = m(v.Expand(5, -1, -1, -1))
	v = m(v.Select(0, 2))
	v = m(v.Diagonal(0, 0, 2))
	v = m(x.View(64, 512))
	v = m(v.Unfold(1, 16, 8))
	v = m(x.Reshape(-1))
	v = m(x.Index(At(1), Span(2, SliceNone, 3), NewAxis(), Ellipsis()))
	v = m(x.AsStrided([]int{10, 10}, []int{5, 1}, 7))
	_ = m(x.Permute(2, 1, 0))
	_ = m(x.Movedim([]int{0}, []int{2}))
	_ = m(x.Flatten(0, 1))
	_ = m(x.MT())
	_ = m(x.Squeeze())
	parts, _ := x.Chunk(3, 0)
	a1, b1, _ := PoolStats()
	if a1 != a0 || b1 != b0 {
		t.Fatalf("views allocated: %d storages, %d bytes", a1-a0, b1-b0)
	}
	if v.Storage() != x.Storage() || parts[2].Storage() != x.Storage() || !v.IsView() || v.Base() != x {
		t.Fatal("views must share storage and record their base")
	}
	// and the version counter is shared
	if err := v.AddInplace(ScalarInt(1)); err != nil {
		t.Fatal(err)
	}
	if x.Version() != 1 || parts[0].Version() != 1 {
		t.Fatalf("version %d", x.Version())
	}
}

func TestPoolReuse(t *testing.T) {
	x, _ := Empty([]int{1 << 16}, F32) // 256 KiB: pooled
	if !x.Release() {
		t.Fatal("release of an unshared tensor should succeed")
	}
	_, _, h0 := PoolStats()
	y, _ := Zeros([]int{1 << 16}, F32)
	_, _, h1 := PoolStats()
	// sync.Pool may drop entries at GC, so a miss is allowed; contents must be zero.
	_ = h1 - h0
	for _, v := range y.Storage().F32()[:1<<16] {
		if v != 0 {
			t.Fatal("Zeros from a recycled buffer is not zero")
		}
	}
	v, _ := y.View(-1)
	if y.Release() || v.Release() {
		t.Fatal("Release must refuse tensors with views")
	}
	if LiveBytes() <= 0 {
		t.Fatal("LiveBytes should count live storages")
	}
}

// Random view chains against a reference model that tracks, for every
// element, its flat index in the original contiguous tensor.
func TestViewChainProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 300; iter++ {
		shape := []int{1 + r.IntN(4), 1 + r.IntN(4), 1 + r.IntN(4)}
		n := numel(shape)
		base, _ := Arange(0, float64(n), 1, F64)
		x, _ := base.Reshape(shape...)
		ref := &refArr{shape: append([]int(nil), shape...)}
		ref.data = make([]int, n)
		for i := range ref.data {
			ref.data[i] = i
		}
		for step := 0; step < 6; step++ {
			nd := len(x.Shape())
			var y *Tensor
			var err error
			switch op := r.IntN(5); {
			case op == 0 && nd >= 2:
				a, b := r.IntN(nd), r.IntN(nd)
				y, err = x.Transpose(a, b)
				ref = ref.transpose(a, b)
			case op == 1 && nd >= 1:
				d := r.IntN(nd)
				if x.Shape()[d] == 0 {
					continue
				}
				s := r.IntN(x.Shape()[d])
				l := r.IntN(x.Shape()[d] - s + 1)
				y, err = x.Narrow(d, s, l)
				ref = ref.narrow(d, s, l)
			case op == 2 && nd >= 1:
				d := r.IntN(nd)
				if x.Shape()[d] == 0 {
					continue
				}
				i := r.IntN(x.Shape()[d])
				y, err = x.Select(d, i)
				ref = ref.sel(d, i)
			case op == 3:
				d := r.IntN(nd + 1)
				y, err = x.Unsqueeze(d)
				ref = ref.unsqueeze(d)
			case op == 4 && nd >= 1:
				d := r.IntN(nd)
				step := 1 + r.IntN(3)
				y, err = x.Slice(d, SliceNone, SliceNone, step)
				ref = ref.stepSlice(d, step)
			default:
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			x = y
			got := x.ToFloat64s()
			if !eqInts(x.Shape(), ref.shape) || len(got) != len(ref.data) {
				t.Fatalf("iter %d: shape %v vs ref %v", iter, x.Shape(), ref.shape)
			}
			for i := range got {
				if int(got[i]) != ref.data[i] {
					t.Fatalf("iter %d step %d: element %d = %v, want %d", iter, step, i, got[i], ref.data[i])
				}
			}
			// contiguity agrees with "copy is identical in memory order"
			if x.IsContiguous() && x.Numel() > 1 {
				d := x.Storage().F64()[x.StorageOffset():]
				for i := range got {
					if d[i] != got[i] {
						t.Fatalf("contiguous tensor not laid out in C order")
					}
				}
			}
		}
	}
}

// refArr is a dense reference array of original indices.
type refArr struct {
	shape []int
	data  []int
}

func (r *refArr) at(idx []int) int {
	off := 0
	for d, i := range idx {
		off = off*r.shape[d] + i
	}
	return r.data[off]
}

func (r *refArr) build(shape []int, f func(idx []int) int) *refArr {
	out := &refArr{shape: shape, data: make([]int, numel(shape))}
	idx := make([]int, len(shape))
	for i := range out.data {
		rem := i
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d] = rem % shape[d]
			rem /= shape[d]
		}
		out.data[i] = f(idx)
	}
	return out
}

func (r *refArr) transpose(a, b int) *refArr {
	sh := append([]int(nil), r.shape...)
	sh[a], sh[b] = sh[b], sh[a]
	src := make([]int, len(sh))
	return r.build(sh, func(idx []int) int {
		copy(src, idx)
		src[a], src[b] = idx[b], idx[a]
		return r.at(src)
	})
}

func (r *refArr) narrow(d, s, l int) *refArr {
	sh := append([]int(nil), r.shape...)
	sh[d] = l
	src := make([]int, len(sh))
	return r.build(sh, func(idx []int) int {
		copy(src, idx)
		src[d] += s
		return r.at(src)
	})
}

func (r *refArr) stepSlice(d, step int) *refArr {
	sh := append([]int(nil), r.shape...)
	sh[d] = (sh[d] + step - 1) / step
	src := make([]int, len(sh))
	return r.build(sh, func(idx []int) int {
		copy(src, idx)
		src[d] *= step
		return r.at(src)
	})
}

func (r *refArr) sel(d, i int) *refArr {
	sh := append(append([]int(nil), r.shape[:d]...), r.shape[d+1:]...)
	return r.build(sh, func(idx []int) int {
		src := append(append(append([]int(nil), idx[:d]...), i), idx[d:]...)
		return r.at(src)
	})
}

func (r *refArr) unsqueeze(d int) *refArr {
	sh := append(append(append([]int(nil), r.shape[:d]...), 1), r.shape[d:]...)
	return r.build(sh, func(idx []int) int {
		src := append(append([]int(nil), idx[:d]...), idx[d+1:]...)
		return r.at(src)
	})
}

func TestHalfConversions(t *testing.T) {
	// bf16 round to nearest even: 1 + 2^-8 is a tie between 1 and 1+2^-7 -> 1.
	if got := BF16ToF32(F32ToBF16(1 + 1.0/256)); got != 1 {
		t.Errorf("bf16(1+2^-8) = %v", got)
	}
	if got := BF16ToF32(F32ToBF16(1 + 3.0/256)); got != 1+4.0/256 {
		t.Errorf("bf16(1+3*2^-8) = %v", got)
	}
	if !math.IsNaN(float64(BF16ToF32(F32ToBF16(float32(math.NaN()))))) {
		t.Error("bf16 NaN")
	}
	if got := F16ToF32(F32ToF16(65520)); !math.IsInf(float64(got), 1) {
		t.Errorf("f16(65520) = %v, want inf", got)
	}
	x, _ := FromFloat64s([]float64{0.1, 0.2}, []int{2}, BF16)
	y, _ := Add(x, ScalarFloat(0.1))
	if y.DType() != BF16 {
		t.Errorf("bf16 + float scalar gives %v", y.DType())
	}
}

func TestOverlapAndShares(t *testing.T) {
	m := must[*Tensor](t)
	x := m(Zeros([]int{4, 4}, F32))
	e := m(m(m(Zeros([]int{4}, F32)).Unsqueeze(0)).Expand(3, 4))
	// PyTorch 1.13 allows fill_/zero_ (and a scalar index_put) on an
	// expanded view: every element gets the one value.
	if err := e.FillInplace(ScalarInt(1)); err != nil || e.FlatFloat64(11) != 1 {
		t.Errorf("fill_ on an expanded view: %v", err)
	}
	for _, f := range []func() error{
		func() error { return e.AddInplace(ScalarInt(1)) },
		func() error { return e.CopyInplace(x) },
	} {
		err := f()
		if err == nil || !strings.HasPrefix(err.Error(), "unsupported operation: more than one element") {
			t.Errorf("expected overlap error, got %v", err)
		}
	}
	a := m(x.Narrow(0, 0, 2))
	b := m(x.Narrow(0, 2, 2))
	c := m(x.Narrow(0, 1, 2))
	if SharesMemory(a, b) || !SharesMemory(a, c) || SharesMemory(a, m(Zeros([]int{2}, F32))) {
		t.Error("SharesMemory")
	}
	// in-place with an overlapping source reads the source first
	v := m(Arange(0, 5, 1, F32))
	dst := m(v.Narrow(0, 1, 4))
	src := m(v.Narrow(0, 0, 4))
	if err := dst.CopyInplace(src); err != nil {
		t.Fatal(err)
	}
	if got := v.ToFloat64s(); !floatsEq(got, []float64{0, 0, 1, 2, 3}) {
		t.Errorf("overlapping copy_ gave %v", got)
	}
}

func TestErrorsNeverPanic(t *testing.T) {
	m := must[*Tensor](t)
	x := m(Zeros([]int{2, 3}, F32))
	calls := []func() error{
		func() error { _, err := x.View(4, -1); return err },
		func() error { _, err := x.Transpose(0, 5); return err },
		func() error { _, err := x.Permute(0); return err },
		func() error { _, err := x.Expand(3, 3); return err },
		func() error { _, err := x.Select(0, 9); return err },
		func() error { _, err := x.Slice(0, 0, 1, 0); return err },
		func() error { _, err := x.AsStrided([]int{2}, []int{-1}, 0); return err },
		func() error { _, err := x.Index(At(0), At(0), At(0)); return err },
		func() error { _, err := Matmul(x, x); return err },
		func() error { _, err := Add(x, m(Zeros([]int{4}, F32))); return err },
		func() error { _, err := Sum(x, []int{2}, false); return err },
		func() error { _, err := Mean(m(Zeros([]int{2}, I64)), nil, false); return err },
		func() error { _, err := Cat([]*Tensor{x, m(Zeros([]int{2, 4, 1}, F32))}, 0); return err },
		func() error { _, err := FloorDivide(m(Ones([]int{2}, I64)), m(Zeros([]int{2}, I64))); return err },
		func() error { _, err := ParseDType("float128"); return err },
		func() error { _, err := x.Item(); return err },
		func() error { _, err := Matmul(x, m(Zeros([]int{3}, F64))); return err },
	}
	for i, f := range calls {
		err := f()
		if err == nil {
			t.Errorf("call %d: expected an error", i)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("call %d: error %T is not *Error", i, err)
		}
	}
	if err := calls[5](); err.(*Error).Kind != ValueError || err.Error() != "step must be greater than zero" {
		t.Errorf("slice step error: %v", err)
	}
	if err := calls[9](); err.Error() != "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1" {
		t.Errorf("broadcast error: %v", err)
	}
	if err := calls[8](); err.Error() != "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)" {
		t.Errorf("matmul error: %v", err)
	}
}

func TestGeneratorDeterminism(t *testing.T) {
	g := NewGenerator(42)
	a, _ := Randn(g, []int{100}, F32)
	g.ManualSeed(42)
	b, _ := Randn(g, []int{100}, F32)
	if !floatsEq(a.ToFloat64s(), b.ToFloat64s()) {
		t.Fatal("same seed must give the same stream")
	}
	u, _ := Rand(g, []int{10000}, BF16)
	for _, v := range u.ToFloat64s() {
		if v < 0 || v >= 1 {
			t.Fatalf("rand bf16 out of [0, 1): %v", v)
		}
	}
	ri, _ := Randint(g, -3, 3, []int{1000}, I32)
	for _, v := range ri.ToInt64s() {
		if v < -3 || v >= 3 {
			t.Fatalf("randint out of range: %v", v)
		}
	}
}

// Two goroutines working on separate tensors (run with -race).
func TestConcurrentSeparateTensors(t *testing.T) {
	var wg sync.WaitGroup
	for k := 0; k < 4; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			g := NewGenerator(uint64(k))
			for i := 0; i < 20; i++ {
				a, _ := Randn(g, []int{64, 64}, F32)
				b, _ := Matmul(a, a)
				_ = b.AddInplace(ScalarInt(1))
				_, _ = Sum(b, nil, false)
				c, _ := Empty([]int{1 << 15}, F32)
				c.Release()
			}
		}(k)
	}
	wg.Wait()
}

func TestStridedMatmulNoCopy(t *testing.T) {
	m := must[*Tensor](t)
	g := NewGenerator(3)
	a := m(Randn(g, []int{5, 7}, F64))
	b := m(Randn(g, []int{6, 7}, F64))
	bt := m(b.T()) // [7, 6], column-major
	got := m(Matmul(a, bt))
	want := m(Matmul(a, bt.Contiguous()))
	for i, v := range got.ToFloat64s() {
		if math.Abs(v-want.ToFloat64s()[i]) > 1e-12 {
			t.Fatal("strided matmul differs from contiguous")
		}
	}
	if gemmOperand(bt) != bt {
		t.Fatal("a transposed operand must not be copied")
	}
}

func TestLargeElementwise(t *testing.T) {
	// exercises the goroutine split and the strided split paths
	m := must[*Tensor](t)
	n := 1 << 19
	a := m(Arange(0, float64(n), 1, F32))
	b := m(Full([]int{n}, 2, F32))
	c := m(Add(a, b))
	if v := c.FlatFloat64(n - 1); v != float64(n-1)+2 {
		t.Fatalf("add last = %v", v)
	}
	a2 := m(a.View(512, 1024))
	b2 := m(m(b.View(1024, 512)).T())
	d := m(Mul(a2, b2))
	if v := d.FlatFloat64(1024*300 + 7); v != 2*float64(1024*300+7) {
		t.Fatalf("strided mul = %v", v)
	}
}

func TestStringHookup(t *testing.T) {
	x, _ := FromInt64s([]int64{1, 2}, []int{2}, I32)
	s := x.String()
	if !strings.HasPrefix(s, "tensor(") {
		t.Errorf("String() = %q", s)
	}
}
