package tensor

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The data-movement fast paths (datamove.go) against the generic paths
// they replace: every dtype, contiguous, transposed, sliced, expanded and
// empty inputs, negative dims. Results must match bit for bit, with the
// same shape, dtype and strides.

// sameMoveBits fails unless got and want have the same shape, dtype and
// strides and the same element bits in C order.
func sameMoveBits(t *testing.T, ctx string, got, want *Tensor) {
	t.Helper()
	if !shapeEq(got.shape, want.shape) || got.dtype != want.dtype || !shapeEq(got.strides, want.strides) {
		t.Fatalf("%s: got shape %v strides %v %s, want %v %v %s", ctx, got.shape, got.strides, got.dtype, want.shape, want.strides, want.dtype)
	}
	if g, w := elemBytes(got), elemBytes(want); !bytes.Equal(g, w) {
		t.Fatalf("%s: element bits differ", ctx)
	}
}

// elemBytes is t's elements' bytes in C order.
func elemBytes(t *Tensor) []byte {
	isz := t.dtype.ItemSize()
	b := t.storage.Bytes()
	var out []byte
	t.Offsets(func(off int) { out = append(out, b[off*isz:(off+1)*isz]...) })
	return out
}

// moveLayouts returns inputs of dtype dt in the layouts the fast paths
// distinguish; each has at least 2 dims.
func moveLayouts(t *testing.T, rng *rand.Rand, dt DType) []struct {
	name string
	x    *Tensor
} {
	t.Helper()
	mk := func(shape ...int) *Tensor {
		n := numel(shape)
		d := testData(rng, n, 4, dt.IsFloat())
		if dt == Bool {
			for i := range d {
				d[i] = float64(rng.IntN(2))
			}
		}
		return mustTensor(t, d, shape, dt)
	}
	must := func(x *Tensor, err error) *Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	c := mk(3, 9, 11)
	row := mk(1, 11)
	return []struct {
		name string
		x    *Tensor
	}{
		{"contiguous", c},
		{"matrix", mk(13, 17)},
		{"transposed", must(c.Transpose(1, 2))},
		{"permuted", must(c.Permute(2, 0, 1))},
		{"sliced", must(must(c.Narrow(2, 1, 8)).Slice(1, 0, 9, 2))},
		{"expanded", must(row.Expand(9, 11))},
		{"expanded-col", must(mk(9, 1).Expand(9, 11))},
		{"one-row", mk(1, 11)},
		{"empty-rows", mk(0, 4)},
		{"empty-cols", mk(3, 0)},
		{"empty-batch", mk(0, 3, 4)},
	}
}

func TestFastFlipMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			nd := c.x.Dim()
			for _, dims := range [][]int{{0}, {-1}, {1}, {0, -1}, {}} {
				if nd == 2 && len(dims) == 2 {
					dims = []int{0, 1}
				}
				fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Flip(c.x, dims) })
				sameMoveBits(t, fmt.Sprintf("flip %s %s %v", c.name, dt, dims), fast, gen)
			}
			if nd == 3 {
				fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Flip(c.x, []int{0, 2, 1}) })
				sameMoveBits(t, fmt.Sprintf("flip %s %s all", c.name, dt), fast, gen)
			}
		}
		s := mustTensor(t, []float64{1}, nil, dt)
		fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Flip(s, nil) })
		sameMoveBits(t, "flip 0-d "+dt.String(), fast, gen)
	}
}

func TestFastRollMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			cases := []struct {
				shifts, dims []int
			}{{[]int{5}, []int{1}}, {[]int{-3}, []int{-1}}, {[]int{1, 2}, []int{0, -1}}, {[]int{7}, nil},
				{[]int{0}, []int{0}}, {[]int{-100}, []int{0}}, {[]int{2, -1}, []int{1, 1}}}
			for _, r := range cases {
				fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Roll(c.x, r.shifts, r.dims) })
				sameMoveBits(t, fmt.Sprintf("roll %s %s %v %v", c.name, dt, r.shifts, r.dims), fast, gen)
			}
		}
	}
}

func TestFastTriangleMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			for _, k := range []int{0, 1, -1, 3, -4, 100, -100, math.MaxInt, math.MinInt} {
				for _, upper := range []bool{false, true} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) {
						if upper {
							return Triu(c.x, k)
						}
						return Tril(c.x, k)
					})
					sameMoveBits(t, fmt.Sprintf("upper=%v %s %s k=%d", upper, c.name, dt, k), fast, gen)
				}
			}
		}
	}
}

func TestFastGatherMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			if c.x.Numel() == 0 {
				continue
			}
			sh := c.x.shape
			nd := len(sh)
			for _, dim := range []int{0, 1, -1} {
				d, _ := wrapDim(dim, nd)
				// index shapes: t's, a smaller one, and dim d longer
				ish := make([]int, nd)
				for k := range ish {
					ish[k] = max(sh[k]-1, 1)
				}
				ish[d] = sh[d] + 3
				for _, shape := range [][]int{sh, ish} {
					n := numel(shape)
					iv := make([]int64, n)
					for i := range iv {
						iv[i] = int64(rng.IntN(sh[d]))
					}
					idx, err := FromInt64s(iv, shape, I64)
					if err != nil {
						t.Fatal(err)
					}
					idxT, _ := idx.Transpose(0, nd-1) // a transposed index of the transposed shape
					ivT, _ := FromInt64s(iv[:numel(idxT.shape)], idxT.shape, I64)
					idxTT, _ := ivT.Transpose(0, nd-1)
					col, _ := idx.Narrow(nd-1, 0, 1) // an index expanded along the last dim
					exp, _ := col.Expand(shape...)
					i32 := idx.toDType(I32)
					for name, ix := range map[string]*Tensor{"contiguous": idx, "transposed": idxTT, "expanded": exp, "i32": i32} {
						fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Gather(c.x, dim, ix) })
						sameMoveBits(t, fmt.Sprintf("gather %s %s dim=%d index %s %v", c.name, dt, dim, name, ix.shape), fast, gen)
					}
				}
			}
		}
	}
	// errors: the same message for the first bad index in C order
	x := mustTensor(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32)
	for _, iv := range [][]int64{{0, 3, 1, -1}, {0, 1, 2, -2}} {
		idx, _ := FromInt64s(iv, []int{2, 2}, I64)
		var msgs [2]string
		for k, off := range []bool{true, false} {
			fastPathsOff.Store(off)
			_, err := Gather(x, 1, idx)
			if err == nil {
				t.Fatalf("gather %v: no error", iv)
			}
			msgs[k] = err.Error()
		}
		fastPathsOff.Store(false)
		if msgs[0] != msgs[1] {
			t.Fatalf("gather %v: fast error %q, generic %q", iv, msgs[1], msgs[0])
		}
	}
}

func TestFastMaskedFillMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			sh := c.x.shape
			mb := make([]bool, numel(sh))
			for i := range mb {
				mb[i] = rng.IntN(2) == 1
			}
			mask, err := FromBools(mb, sh)
			if err != nil {
				t.Fatal(err)
			}
			last := make([]int, len(sh))
			for k := range last {
				last[k] = 1
			}
			last[len(sh)-1] = sh[len(sh)-1]
			rb := make([]bool, numel(last))
			for i := range rb {
				rb[i] = rng.IntN(2) == 1
			}
			mrow, _ := FromBools(rb, last) // broadcast mask
			mT, _ := mask.Transpose(0, len(sh)-1)
			mTc := mT.Contiguous()
			mTT, _ := mTc.Transpose(0, len(sh)-1) // a transposed mask of t's shape
			for _, v := range []*Tensor{ScalarFloat(2.5), ScalarInt(-3), ScalarBool(true), ScalarFloat(math.NaN())} {
				for name, m := range map[string]*Tensor{"mask": mask, "row-mask": mrow, "transposed-mask": mTT} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return MaskedFill(c.x, m, v) })
					sameMoveBits(t, fmt.Sprintf("masked_fill %s %s %s %v", c.name, dt, name, v.FlatFloat64(0)), fast, gen)
				}
			}
		}
	}
}

func TestFastFillMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 6))
	for _, dt := range selDTypes {
		for _, c := range moveLayouts(t, rng, dt) {
			for _, v := range []*Tensor{ScalarFloat(1.5), ScalarInt(0), ScalarInt(-7), ScalarBool(true), ScalarFloat(math.Inf(-1))} {
				var res [2]*Tensor
				for k, off := range []bool{true, false} {
					fastPathsOff.Store(off)
					base := c.x.Clone()
					if c.x.hasInternalOverlap() {
						base = c.x // fill_ writes an expanded view once per location
						base, _ = base.Contiguous().Narrow(0, 0, 1)
						base, _ = base.Expand(c.x.shape...)
					}
					view := base
					if base.Dim() >= 2 && base.shape[0] > 1 && !base.hasInternalOverlap() {
						view, _ = base.Slice(0, 1, base.shape[0], 2) // every other row
					}
					ver := base.Version()
					if err := view.FillInplace(v); err != nil {
						t.Fatal(err)
					}
					if base.Version() != ver+1 {
						t.Fatalf("fill_ %s %s: version %d, want %d", c.name, dt, base.Version(), ver+1)
					}
					res[k] = base
				}
				fastPathsOff.Store(false)
				sameMoveBits(t, fmt.Sprintf("fill_ %s %s %v", c.name, dt, v.FlatFloat64(0)), res[1], res[0])
			}
		}
	}
	// long runs: the doubling copy of fillRun
	for _, n := range []int{1, 63, 64, 65, 127, 129, 1000, 4097} {
		x := mustTensor(t, make([]float64, n+2), []int{n + 2}, F32)
		v, _ := x.Narrow(0, 1, n)
		if err := v.FillInplace(ScalarFloat(3)); err != nil {
			t.Fatal(err)
		}
		got := x.ToFloat64s()
		if got[0] != 0 || got[n+1] != 0 {
			t.Fatalf("fill_ n=%d wrote outside the view", n)
		}
		for i := 1; i <= n; i++ {
			if got[i] != 3 {
				t.Fatalf("fill_ n=%d: element %d = %v", n, i, got[i])
			}
		}
	}
}

func TestFastTransposeCopyMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 7))
	for _, dt := range selDTypes {
		for _, shape := range [][]int{{8, 8}, {33, 70}, {67, 9}, {3, 40, 41}} {
			d := testData(rng, numel(shape), 4, dt.IsFloat())
			x := mustTensor(t, d, shape, dt)
			nd := len(shape)
			xt, _ := x.Transpose(nd-2, nd-1)
			xs, _ := xt.Narrow(nd-1, 1, shape[nd-2]-2)
			for name, v := range map[string]*Tensor{"transposed": xt, "sliced": xs} {
				fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return v.Contiguous(), nil })
				sameMoveBits(t, fmt.Sprintf("contiguous %s %s %v", name, dt, shape), fast, gen)
				fast, gen = fastAndGeneric(t, func() (*Tensor, error) { return v.ClonePreserve(), nil })
				sameMoveBits(t, fmt.Sprintf("clone %s %s %v", name, dt, shape), fast, gen)
			}
		}
	}
}

// Cat writes its parts through raw views: the result still owns its
// storage (Release and in-place reuse stay possible), and roll's too.
func TestCatRollResultOwnsStorage(t *testing.T) {
	x := mustTensor(t, []float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, F32)
	c, err := Cat([]*Tensor{x, x}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !c.OwnsStorage() {
		t.Fatal("cat result does not own its storage")
	}
	if got := c.ToFloat64s(); !floatsEq(got, []float64{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("cat = %v", got)
	}
	r, err := Roll(x, []int{1}, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OwnsStorage() || !x.OwnsStorage() {
		t.Fatal("roll result or input lost storage ownership")
	}
	if got := r.ToFloat64s(); !floatsEq(got, []float64{3, 1, 2, 6, 4, 5}) {
		t.Fatalf("roll = %v", got)
	}
}
