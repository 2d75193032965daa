package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// The SIMD fast paths (fastpath.go, fastreduce.go) are checked against the
// generic kernels, which stay the reference: every case runs twice on the
// same inputs, with fastPathsOff set and cleared.

// fastAndGeneric returns f's result with the fast paths on and off.
func fastAndGeneric(t *testing.T, f func() (*Tensor, error)) (fast, gen *Tensor) {
	t.Helper()
	fastPathsOff.Store(true)
	gen, errG := f()
	fastPathsOff.Store(false)
	fast, errF := f()
	if (errF == nil) != (errG == nil) {
		t.Fatalf("error mismatch: fast %v, generic %v", errF, errG)
	}
	if errF != nil {
		t.Fatalf("unexpected error: %v", errF)
	}
	return fast, gen
}

// sameValues compares element by element: NaN matches NaN, infinities
// must be equal, finite values within rtol relative (atol absolute).
func sameValues(t *testing.T, ctx string, got, want *Tensor, rtol, atol float64) {
	t.Helper()
	if !shapeEq(got.shape, want.shape) || got.dtype != want.dtype {
		t.Fatalf("%s: got shape %v %s, want %v %s", ctx, got.shape, got.dtype, want.shape, want.dtype)
	}
	g, w := got.ToFloat64s(), want.ToFloat64s()
	bad := 0
	for i := range w {
		ok := false
		switch {
		case math.IsNaN(w[i]):
			ok = math.IsNaN(g[i])
		case math.IsInf(w[i], 0) || rtol == 0 && atol == 0:
			ok = g[i] == w[i]
		default:
			ok = math.Abs(g[i]-w[i]) <= atol+rtol*math.Abs(w[i])
		}
		if !ok {
			if bad < 5 {
				t.Errorf("%s: element %d = %v, want %v", ctx, i, g[i], w[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d elements differ", ctx, bad, len(w))
	}
}

// testData returns n normal values (times scale); with specials, a few
// NaN, +Inf and -Inf are planted.
func testData(rng *rand.Rand, n int, scale float64, specials bool) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = rng.NormFloat64() * scale
	}
	if specials && n > 0 {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			d[rng.IntN(n)] = v
		}
	}
	return d
}

func mustTensor(t *testing.T, d []float64, shape []int, dt DType) *Tensor {
	t.Helper()
	x, err := FromFloat64s(d, shape, dt)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// oddLens covers every tail length of the 16-lane f32 / 8-lane f64
// kernels and a few longer rows (1..257 in all).
var oddLens = func() []int {
	var l []int
	for n := 1; n <= 40; n++ {
		l = append(l, n)
	}
	return append(l, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257)
}()

var floatDTypes = []DType{F32, F64}

// tolFor is the agreement expected between a vector kernel (≤ 2-4 ulp)
// and the generic float64 formula rounded once.
func tolFor(dt DType) float64 {
	if dt == F32 {
		return 2e-6
	}
	return 1e-13
}

func TestFastBinaryMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []struct {
		name string
		f    func(a, b *Tensor) (*Tensor, error)
	}{{"add", Add}, {"sub", Sub}, {"mul", Mul}, {"div", Div}, {"maximum", Maximum}, {"minimum", Minimum}, {"atan2", Atan2}}
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			for _, specials := range []bool{false, true} {
				a := mustTensor(t, testData(rng, 3*n, 10, specials), []int{3, n}, dt)
				b := mustTensor(t, testData(rng, 3*n, 10, specials), []int{3, n}, dt)
				row := mustTensor(t, testData(rng, n, 10, specials), []int{n}, dt)
				col := mustTensor(t, testData(rng, 3, 10, false), []int{3, 1}, dt)
				tall := mustTensor(t, testData(rng, 3*n, 10, specials), []int{n, 3}, dt)
				tallT, _ := tall.T()
				s := ScalarFloat(rng.NormFloat64())
				z0 := ScalarFloat(0)
				cases := []struct {
					name string
					x, y *Tensor
				}{
					{"contiguous", a, b}, {"scalar-right", a, s}, {"scalar-left", s, b},
					{"zero-right", a, z0}, {"zero-left", z0, b},
					{"row", a, row}, {"row-left", row, b}, {"column", a, col}, {"column-left", col, b},
					{"transposed", a, tallT}, {"transposed-left", tallT, b},
				}
				for _, op := range ops {
					for _, c := range cases {
						fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(c.x, c.y) })
						// + - * / are single IEEE operations, maximum/minimum
						// select, atan2's kernels are the scalar one's bits:
						// results must be identical
						sameValues(t, fmt.Sprintf("%s %s %s n=%d", op.name, c.name, dt, n), fast, gen, 0, 0)
					}
				}
			}
		}
	}
}

// TestFastPowScalarMatchesGeneric: x ** number on the vector kernels
// (cpu.PowScalarF32, within 1 ulp of math.Pow rounded; f64 is math.Pow
// itself) against the generic loop, contiguous and transposed, with NaN
// and ±Inf, for exponents with and without special cases.
func TestFastPowScalarMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			x := mustTensor(t, testData(rng, 3*n, 4, true), []int{3, n}, dt)
			xt, _ := mustTensor(t, testData(rng, 3*n, 4, true), []int{n, 3}, dt).T()
			for _, y := range []float64{1.5, -1.5, 4, 7, -3, 0.1, 0, 1, math.Inf(1), math.NaN(), 2, 0.5} {
				for _, in := range []*Tensor{x, xt} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return Pow(in, ScalarFloat(y)) })
					tol := tolFor(dt)
					if dt == F64 {
						tol = 0
					}
					sameValues(t, fmt.Sprintf("pow %v %s n=%d contiguous=%v", y, dt, n, in.IsContiguous()), fast, gen, tol, 0)
					if !shapeEq(fast.strides, gen.strides) {
						t.Fatalf("pow %v %s: strides %v, generic %v", y, dt, fast.strides, gen.strides)
					}
				}
			}
		}
	}
}

func TestFastInplaceMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			ad := testData(rng, 2*n, 5, true)
			b := mustTensor(t, testData(rng, 2*n, 5, true), []int{2, n}, dt)
			s := ScalarFloat(1.5)
			for _, name := range []string{"add", "sub", "mul", "div", "maximum", "minimum"} {
				for _, other := range []*Tensor{b, s} {
					var res [2]*Tensor
					for k, off := range []bool{true, false} {
						fastPathsOff.Store(off)
						x := mustTensor(t, ad, []int{2, n}, dt)
						v := x.Version()
						if err := x.BinaryInplace(name, other); err != nil {
							t.Fatal(err)
						}
						if x.Version() != v+1 {
							t.Fatalf("%s_: version %d, want %d", name, x.Version(), v+1)
						}
						res[k] = x
					}
					fastPathsOff.Store(false)
					sameValues(t, fmt.Sprintf("%s_ %s n=%d", name, dt, n), res[1], res[0], 0, 0)
				}
			}
		}
	}
}

func TestFastUnaryMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ops := []struct {
		name string
		f    func(*Tensor) (*Tensor, error)
	}{{"exp", Exp}, {"tanh", Tanh}, {"sigmoid", Sigmoid}, {"log", Log}, {"sqrt", Sqrt}, {"sin", Sin}, {"cos", Cos}, {"tan", Tan},
		{"gelu_tanh", func(x *Tensor) (*Tensor, error) { return Gelu(x, "tanh") }}}
	for _, dt := range floatDTypes {
		for _, n := range oddLens {
			x := mustTensor(t, testData(rng, 3*n, 4, true), []int{3, n}, dt)
			xt, _ := mustTensor(t, testData(rng, 3*n, 4, true), []int{n, 3}, dt).T()
			for _, op := range ops {
				for _, in := range []*Tensor{x, xt} {
					fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(in) })
					atol := 0.0
					if op.name == "gelu_tanh" { // 1 + tanh cancels in the left tail: 1 ulp of tanh, times x/2
						atol = 1e-6
						if dt == F64 {
							atol = 1e-14
						}
					}
					sameValues(t, fmt.Sprintf("%s %s n=%d contiguous=%v", op.name, dt, n, in.IsContiguous()), fast, gen, tolFor(dt), atol)
				}
			}
		}
	}
}

func TestFastUnaryRanges(t *testing.T) {
	// wide inputs: overflow, underflow, the tanh polynomial/exp switch at
	// 0.625, sigmoid's tails
	var d []float64
	for v := -120.0; v <= 120; v += 0.37 {
		d = append(d, v)
	}
	d = append(d, 0, math.Copysign(0, -1), 0.625, -0.625, 0.6249, 1e-30, -1e-30, 88.5, 89, -87, -104, 709, 710, -745, math.NaN(), math.Inf(1), math.Inf(-1),
		1e-300, 1e-38, 1, 1.0000001, 0.9999999, 3e38, 1e300, math.MaxFloat64)
	for _, dt := range floatDTypes {
		x := mustTensor(t, d, []int{len(d)}, dt)
		for _, op := range []struct {
			name string
			f    func(*Tensor) (*Tensor, error)
			atol float64
		}{
			{"exp", Exp, 0},
			{"tanh", Tanh, 0},
			// sigmoid's subnormal results far left: a few units of the last place
			{"sigmoid", Sigmoid, 1e-320},
			{"log", Log, 0},
			{"sqrt", Sqrt, 0},
		} {
			fast, gen := fastAndGeneric(t, func() (*Tensor, error) { return op.f(x) })
			atol := op.atol
			if dt == F32 && atol > 0 {
				atol = 1e-44
			}
			sameValues(t, op.name+" "+dt.String(), fast, gen, tolFor(dt), atol)
		}
		// tanh is odd: tanh(-0) = -0, as the generic path and PyTorch
		nz := mustTensor(t, []float64{math.Copysign(0, -1), 0}, []int{2}, dt)
		th, _ := Tanh(nz)
		if v := th.ToFloat64s(); !math.Signbit(v[0]) || math.Signbit(v[1]) {
			t.Errorf("tanh(-0, +0) %s = %v, want signed zeros -0, +0", dt, v)
		}
	}
}

// TestFastMaxDimTies checks max/min(dim) over leading dims with many ties
// (small integers) and NaNs planted in later row blocks: values and the
// first index of the extreme must match the generic path exactly.
func TestFastMaxDimTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, dt := range floatDTypes {
		for _, shape := range [][]int{{300, 40}, {2, 200, 33}, {129, 17}, {65, 1024 + 20}} {
			d := make([]float64, numel(shape))
			for i := range d {
				d[i] = float64(rng.IntN(7) - 3)
			}
			for range 3 {
				d[len(d)/2+rng.IntN(len(d)/2)] = math.NaN()
			}
			d[len(d)-1] = 100 // an extreme in the last block
			x := mustTensor(t, d, shape, dt)
			for dim := range shape {
				for _, isMax := range []bool{true, false} {
					var res [2][2]*Tensor
					for k, off := range []bool{true, false} {
						fastPathsOff.Store(off)
						f := MaxDim
						if !isMax {
							f = MinDim
						}
						v, ix, err := f(x, dim, false)
						if err != nil {
							t.Fatal(err)
						}
						res[k] = [2]*Tensor{v, ix}
					}
					fastPathsOff.Store(false)
					ctx := fmt.Sprintf("%s %v dim=%d max=%v", dt, shape, dim, isMax)
					sameValues(t, "values "+ctx, res[1][0], res[0][0], 0, 0)
					sameValues(t, "indices "+ctx, res[1][1], res[0][1], 0, 0)
				}
				f, g := fastAndGeneric(t, func() (*Tensor, error) { return Amin(x, []int{dim}, false) })
				sameValues(t, "amin", f, g, 0, 0)
			}
		}
	}
}

// reduceShapes are [outer, r, inner] style shapes whose reductions over dim
// 0, 1, 2, the last dim and all dims hit every block layout (inner == 1,
// short and long inner runs, single rows).
func reduceShapes() [][]int {
	var s [][]int
	// every f32 tail length (n mod 16) and a few longer rows
	for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 33, 47, 64, 100, 129, 257} {
		s = append(s, []int{n}, []int{3, n}, []int{n, 5}, []int{2, n, 17})
	}
	return append(s, []int{1, 1}, []int{4, 1, 7}, []int{2, 3, 1, 33})
}

func TestFastReductionsMatchGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dt := range floatDTypes {
		tol := tolFor(dt)
		// f32 column sums add up to sumBlockRows rows in f32 before
		// widening to f64 (the generic path sums in f64): allow a few ulps
		// of Σ|x| (up to ~1200 here) in absolute error
		sumTol := tol
		if dt == F32 {
			sumTol = 5e-5
		}
		for _, shape := range reduceShapes() {
			for _, specials := range []bool{false, true} {
				x0 := mustTensor(t, testData(rng, numel(shape), 3, specials), shape, dt)
				dimSets := [][]int{nil, {-1}, {0}}
				if len(shape) > 2 {
					dimSets = append(dimSets, []int{1}, []int{0, 1}, []int{1, 2}, []int{0, 2})
				}
				// contiguous, transposed (dense permutations take the fast
				// path when the kept dims keep their memory order) and
				// strided (not dense: generic path) inputs
				inputs := []*Tensor{x0}
				if len(shape) >= 2 {
					xt, _ := x0.Transpose(0, len(shape)-1)
					xs, _ := x0.Slice(len(shape)-1, 0, shape[len(shape)-1], 2)
					inputs = append(inputs, xt, xs)
				}
				if len(shape) == 3 {
					xp, _ := x0.Permute(1, 2, 0)
					inputs = append(inputs, xp)
				}
				for _, x := range inputs {
					for _, dims := range dimSets {
						for _, keep := range []bool{false, true} {
							ctx := fmt.Sprintf("%s %v strides %v dims=%v keep=%v specials=%v", dt, x.shape, x.strides, dims, keep, specials)
							f, g := fastAndGeneric(t, func() (*Tensor, error) { return Sum(x, dims, keep) })
							sameValues(t, "sum "+ctx, f, g, tol, sumTol)
							f, g = fastAndGeneric(t, func() (*Tensor, error) { return Mean(x, dims, keep) })
							sameValues(t, "mean "+ctx, f, g, tol, sumTol)
							f, g = fastAndGeneric(t, func() (*Tensor, error) { return Amax(x, dims, keep) })
							sameValues(t, "amax "+ctx, f, g, 0, 0)
							f, g = fastAndGeneric(t, func() (*Tensor, error) { return Amin(x, dims, keep) })
							sameValues(t, "amin "+ctx, f, g, 0, 0)
							f, g = fastAndGeneric(t, func() (*Tensor, error) { return LogSumExp(x, dims, keep) })
							sameValues(t, "logsumexp "+ctx, f, g, tol, tol)
						}
					}
					for d := range x.shape {
						ctx := fmt.Sprintf("%s %v strides %v dim=%d specials=%v", dt, x.shape, x.strides, d, specials)
						var fv, fi, gv, gi *Tensor
						for _, off := range []bool{true, false} {
							fastPathsOff.Store(off)
							v, i, err := MaxDim(x, d, false)
							if err != nil {
								t.Fatal(err)
							}
							if off {
								gv, gi = v, i
							} else {
								fv, fi = v, i
							}
						}
						sameValues(t, "max(dim) values "+ctx, fv, gv, 0, 0)
						sameValues(t, "max(dim) indices "+ctx, fi, gi, 0, 0)
						dd := d
						f, g := fastAndGeneric(t, func() (*Tensor, error) { return Argmin(x, &dd, true) })
						sameValues(t, "argmin "+ctx, f, g, 0, 0)
					}
					f, g := fastAndGeneric(t, func() (*Tensor, error) { return Argmax(x, nil, false) })
					sameValues(t, "argmax all", f, g, 0, 0)
					f, g = fastAndGeneric(t, func() (*Tensor, error) { return Max(x) })
					sameValues(t, "max all", f, g, 0, 0)
					f, g = fastAndGeneric(t, func() (*Tensor, error) { return Min(x) })
					sameValues(t, "min all", f, g, 0, 0)
				}
			}
		}
	}
}

func TestFastSoftmaxMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range floatDTypes {
		tol := tolFor(dt)
		for _, shape := range reduceShapes() {
			for _, specials := range []bool{false, true} {
				x := mustTensor(t, testData(rng, numel(shape), 20, specials), shape, dt)
				inputs := []*Tensor{x}
				if len(shape) >= 2 {
					xt, _ := x.Transpose(0, 1)
					inputs = append(inputs, xt)
				}
				for _, in := range inputs {
					for d := range shape {
						ctx := fmt.Sprintf("%s %v dim=%d contiguous=%v specials=%v", dt, in.shape, d, in.IsContiguous(), specials)
						f, g := fastAndGeneric(t, func() (*Tensor, error) { return Softmax(in, d) })
						sameValues(t, "softmax "+ctx, f, g, 4*tol, tol)
						f, g = fastAndGeneric(t, func() (*Tensor, error) { return LogSoftmax(in, d) })
						// log_softmax ~ x - max - log(s): absolute error scales with |x|
						sameValues(t, "log_softmax "+ctx, f, g, 4*tol, 40*tol)
					}
				}
			}
		}
	}
}

func TestFastSoftmaxSpecialRows(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	d := []float64{
		-inf, -inf, -inf, -inf, // all -inf: NaN (0/0), as PyTorch
		1, -inf, 2, -inf, // -inf entries give probability 0
		1, inf, 2, 3, // +inf: NaN
		1, nan, 2, 3, // NaN propagates to the row
		1e4, 1e4 - 1, -1e4, 0, // large logits do not overflow
	}
	for _, dt := range floatDTypes {
		x := mustTensor(t, d, []int{5, 4}, dt)
		got, err := Softmax(x, 1)
		if err != nil {
			t.Fatal(err)
		}
		e := 1 / (1 + math.Exp(-1))
		want := []float64{nan, nan, nan, nan,
			1 / (1 + math.E), 0, math.E / (1 + math.E), 0,
			nan, nan, nan, nan,
			nan, nan, nan, nan,
			e, 1 - e, 0, 0}
		sameValues(t, "softmax special "+dt.String(), got, mustTensor(t, want, []int{5, 4}, dt), 1e-6, 1e-7)
		xt, _ := x.T()
		gotT, err := Softmax(xt, 0) // the same rows as columns of a transposed view
		if err != nil {
			t.Fatal(err)
		}
		back, _ := gotT.T()
		sameValues(t, "softmax special columns "+dt.String(), back.Contiguous(), got, 1e-6, 1e-7)
		lse, err := LogSumExp(x, []int{1}, false)
		if err != nil {
			t.Fatal(err)
		}
		wantLse := []float64{-inf, math.Log(math.E + math.E*math.E), inf, nan, 1e4 + math.Log(1+math.Exp(-1))}
		sameValues(t, "logsumexp special "+dt.String(), lse, mustTensor(t, wantLse, []int{5}, dt), 1e-6, 0)
	}
}

// TestFastParallel runs inputs big enough to be split over goroutines
// (run it with -race) with an odd thread count, against the generic
// kernels.
func TestFastParallel(t *testing.T) {
	old := GetNumThreads()
	defer SetNumThreads(old)
	SetNumThreads(3)
	rng := rand.New(rand.NewPCG(11, 12))
	const rows, cols = 301, 1003 // > parallelGrain elements, odd sizes
	for _, dt := range floatDTypes {
		tol := tolFor(dt)
		// f32 column sums add up to sumBlockRows rows in f32 before
		// widening: an absolute error of a few ulps of Σ|x| (about 500 here)
		sumTol := tol
		if dt == F32 {
			sumTol = 1e-4
		}
		a := mustTensor(t, testData(rng, rows*cols, 2, true), []int{rows, cols}, dt)
		b := mustTensor(t, testData(rng, rows*cols, 2, true), []int{rows, cols}, dt)
		row := mustTensor(t, testData(rng, cols, 2, false), []int{cols}, dt)
		bt, _ := mustTensor(t, testData(rng, rows*cols, 2, false), []int{cols, rows}, dt).T()
		for _, c := range []struct {
			name string
			f    func() (*Tensor, error)
			tol  float64
		}{
			{"add", func() (*Tensor, error) { return Add(a, b) }, 0},
			{"add offset view", func() (*Tensor, error) {
				a1, _ := a.Narrow(0, 1, rows-1)
				b1, _ := b.Narrow(0, 0, rows-1)
				return Sub(a1, b1)
			}, 0},
			{"div scalar", func() (*Tensor, error) { return Div(a, ScalarFloat(3)) }, 0},
			{"mul row", func() (*Tensor, error) { return Mul(a, row) }, 0},
			{"add transposed", func() (*Tensor, error) { return Add(a, bt) }, 0},
			{"exp", func() (*Tensor, error) { return Exp(a) }, tol},
			{"sigmoid", func() (*Tensor, error) { return Sigmoid(a) }, tol},
			{"tanh", func() (*Tensor, error) { return Tanh(a) }, tol},
			{"sum all", func() (*Tensor, error) { return Sum(b, nil, false) }, sumTol},
			{"sum all finite", func() (*Tensor, error) { return Sum(row, nil, false) }, tol},
			{"sum dim0", func() (*Tensor, error) { return Sum(a, []int{0}, false) }, sumTol},
			{"mean dim1", func() (*Tensor, error) { return Mean(a, []int{1}, false) }, tol},
			{"sum transposed dim0", func() (*Tensor, error) { return Sum(bt, []int{0}, false) }, sumTol},
			{"sum transposed dim1", func() (*Tensor, error) { return Sum(bt, []int{1}, false) }, sumTol},
			{"amax dim0", func() (*Tensor, error) { return Amax(a, []int{0}, false) }, 0},
			{"max all", func() (*Tensor, error) { return Max(a) }, 0},
			{"min all", func() (*Tensor, error) { return Min(b) }, 0},
			{"softmax last", func() (*Tensor, error) { return Softmax(a, 1) }, 4 * tol},
			{"softmax dim0", func() (*Tensor, error) { return Softmax(a, 0) }, 4 * tol},
			{"log_softmax dim0", func() (*Tensor, error) { return LogSoftmax(a, 0) }, 4 * tol},
			{"logsumexp dim1", func() (*Tensor, error) { return LogSumExp(a, []int{1}, false) }, tol},
		} {
			f, g := fastAndGeneric(t, c.f)
			sameValues(t, c.name+" "+dt.String(), f, g, c.tol, c.tol)
		}
		x := mustTensor(t, testData(rng, rows*cols, 2, false), []int{rows, cols}, dt)
		y := x.Clone()
		fastPathsOff.Store(true)
		if err := y.AddInplace(b); err != nil {
			t.Fatal(err)
		}
		fastPathsOff.Store(false)
		if err := x.AddInplace(b); err != nil {
			t.Fatal(err)
		}
		sameValues(t, "add_ "+dt.String(), x, y, 0, 0)
	}
}

func TestAlignedBounds(t *testing.T) {
	old := GetNumThreads()
	defer SetNumThreads(old)
	buf := make([]float32, 1<<20+64)
	for _, k := range []int{1, 2, 3, 7} {
		SetNumThreads(k)
		for _, off := range []int{0, 1, 5, 16} {
			for _, n := range []int{0, 1, 1000, grainMem - 1, grainMem, 3*grainMem + 17, 1 << 20} {
				s := buf[off : off+n]
				var base unsafe.Pointer
				if n > 0 {
					base = unsafe.Pointer(&s[0])
				}
				b := alignedBounds(n, grainMem, base, 4)
				if b[0] != 0 || b[len(b)-1] != n || len(b)-1 > k {
					t.Fatalf("k=%d n=%d off=%d: bounds %v", k, n, off, b)
				}
				for i := 1; i < len(b)-1; i++ {
					if b[i] <= b[i-1] || (uintptr(base)+uintptr(4*b[i]))%64 != 0 {
						t.Fatalf("k=%d n=%d off=%d: bad interior bound %d in %v", k, n, off, b[i], b)
					}
				}
			}
		}
	}
}

// TestFastSumOverflowingChunks: a long f32 row whose halves overflow f32
// but whose total does not (the per-goroutine partial sums are rounded to
// f32 by the kernel).
func TestFastSumOverflowingChunks(t *testing.T) {
	old := GetNumThreads()
	defer SetNumThreads(old)
	SetNumThreads(2)
	n := 4 * grainMem
	d := make([]float64, n)
	for i := 0; i < 4; i++ {
		d[i] = 3e38      // first chunk: 1.2e39, beyond f32
		d[n-1-i] = -3e38 // last chunk: -1.2e39
	}
	d[n/2] = math.Ldexp(1, 100) // a multiple of ulp(1.2e39): exact in float64 sums
	x := mustTensor(t, d, []int{n}, F32)
	s, err := Sum(x, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, want := s.ToFloat64s()[0], math.Ldexp(1, 100); v != want {
		t.Fatalf("sum = %v, want %v", v, want)
	}
	// an infinite element gives ±Inf, not the NaN of compensated kernels
	d[7] = math.Inf(1)
	x = mustTensor(t, d, []int{n}, F32)
	s, _ = Sum(x, nil, false)
	if v := s.ToFloat64s()[0]; !math.IsInf(v, 1) {
		t.Fatalf("sum with +Inf = %v, want +Inf", v)
	}
}

// TestParallelTasksCoversOnce checks the dynamic task scheduler: every
// task in exactly one range, ranges on multiples of align once a chunk
// holds align tasks, for several thread counts and costs.
func TestParallelTasksCoversOnce(t *testing.T) {
	old := GetNumThreads()
	defer SetNumThreads(old)
	for _, k := range []int{1, 2, 3, 8} {
		SetNumThreads(k)
		for _, c := range []struct{ n, align, cost int }{
			{640, 5, 100000}, {641, 5, 100000}, {7, 1, 1 << 20}, {1000, 1, 10}, {100000, 1, 64}, {3, 4, 1 << 20}, {1, 1, 1 << 30},
		} {
			cover := make([]int32, c.n)
			var mu sync.Mutex
			var ranges [][2]int
			parallelTasksAligned(c.n, c.align, c.cost, parallelGrain, func(t0, t1 int) {
				mu.Lock()
				ranges = append(ranges, [2]int{t0, t1})
				mu.Unlock()
				for i := t0; i < t1; i++ {
					atomic.AddInt32(&cover[i], 1)
				}
			})
			for i, v := range cover {
				if v != 1 {
					t.Fatalf("threads %d %+v: task %d run %d times", k, c, i, v)
				}
			}
			if len(ranges) > 1 && ranges[0][1]-ranges[0][0] >= c.align {
				for _, r := range ranges {
					if r[0]%c.align != 0 {
						t.Errorf("threads %d %+v: range %v not aligned", k, c, r)
					}
				}
			}
		}
	}
}

// Sums over a long non-last dim (more than sumSuperRows rows) split into
// row superblocks: the same bits on one goroutine as on several, and the
// float64 reference to within rounding.
func TestSumSuperblocksThreadIndependent(t *testing.T) {
	defer SetNumThreads(GetNumThreads())
	g := NewGenerator(11)
	for _, shape := range [][]int{{3000, 70}, {2, 2500, 33}, {1025, 4100}} {
		for _, dt := range []DType{F32, F64} {
			x, err := Randn(g, shape, dt)
			if err != nil {
				t.Fatal(err)
			}
			var got [2][]float64
			for i, th := range []int{1, 2} {
				SetNumThreads(th)
				s, err := Sum(x, []int{len(shape) - 2}, false)
				if err != nil {
					t.Fatal(err)
				}
				got[i] = s.ToFloat64s()
			}
			for j := range got[0] {
				if math.Float64bits(got[0][j]) != math.Float64bits(got[1][j]) {
					t.Fatalf("%v %v: element %d is %v on one goroutine, %v on two", shape, dt, j, got[0][j], got[1][j])
				}
			}
			// float64 reference
			xs := x.ToFloat64s()
			r, inner := shape[len(shape)-2], shape[len(shape)-1]
			for j := range got[0] {
				o, c := j/inner, j%inner
				var ref float64
				for i := 0; i < r; i++ {
					ref += xs[(o*r+i)*inner+c]
				}
				tol := 1e-12
				if dt == F32 {
					tol = 1e-5
				}
				if math.Abs(got[0][j]-ref) > tol*(1+math.Abs(ref)) {
					t.Fatalf("%v %v: element %d is %v, reference %v", shape, dt, j, got[0][j], ref)
				}
			}
		}
	}
}
