package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Histc's typed f32/f64 path (histcCount, MinMaxFloat) counts exactly as
// the generic float64 loop: odd sizes, strided input, NaN (bin 0), ±Inf
// and values on the edges, default and explicit ranges.
func TestHistcFastMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dt := range []DType{F32, F64} {
		for _, n := range []int{1, 2, 3, 7, 16, 17, 31, 64, 127, 255, 257} {
			d := make([]float64, 2*n)
			for i := range d {
				switch r.IntN(10) {
				case 0:
					d[i] = math.Inf(1 - 2*r.IntN(2))
				case 1:
					d[i] = float64(r.IntN(3)) - 1 // -1, 0, 1: the edges of [-1, 1]
				case 2:
					if n > 100 {
						d[i] = math.NaN()
					}
				default:
					d[i] = r.NormFloat64()
				}
			}
			x, _ := FromFloat64s(d, []int{n, 2}, dt)
			xt, _ := x.T() // strided
			finite := make([]float64, 0, len(d))
			for _, v := range d {
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					finite = append(finite, v)
				}
			}
			xf, _ := FromFloat64s(finite, []int{len(finite)}, dt)
			for _, c := range []struct {
				x       *Tensor
				bins    int
				lo, hi  float64
				wantErr bool
			}{{xt, 7, -1, 1, false}, {xt, 1, -1, 1, false}, {x, 100, -0.5, 2.5, false}, {xf, 13, 0, 0, false}, {x, 5, 0, 0, true}} {
				if c.x.Numel() == 0 {
					continue
				}
				ctx := fmt.Sprintf("%s n=%d bins=%d [%g, %g]", dt, n, c.bins, c.lo, c.hi)
				fastPathsOff.Store(true)
				gen, errG := Histc(c.x, c.bins, c.lo, c.hi)
				fastPathsOff.Store(false)
				fast, errF := Histc(c.x, c.bins, c.lo, c.hi)
				if (errF != nil) != (errG != nil) || errF != nil && errF.Error() != errG.Error() {
					t.Fatalf("%s: errors differ: fast %v, generic %v", ctx, errF, errG)
				}
				if errF != nil {
					continue
				}
				if fast.dtype != dt || !slices.Equal(fast.ToFloat64s(), gen.ToFloat64s()) {
					t.Fatalf("%s: fast %v, generic %v", ctx, fast.ToFloat64s(), gen.ToFloat64s())
				}
			}
		}
	}
	// a constant input, an empty one, a 0-d one: the range is widened by 1
	// on each side
	for _, c := range []struct {
		d     []float64
		shape []int
		want  []float64
	}{{[]float64{2, 2}, []int{2}, []float64{0, 0, 2, 0}}, {nil, []int{0}, []float64{0, 0, 0, 0}}, {[]float64{3}, nil, []float64{0, 0, 1, 0}}} {
		for _, dt := range []DType{F32, F64} {
			x, _ := FromFloat64s(c.d, c.shape, dt)
			h, err := Histc(x, 4, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.ToFloat64s(); !slices.Equal(got, c.want) {
				t.Errorf("histc(%v, 4) = %v, want %v", c.d, got, c.want)
			}
		}
	}
	// hand-counted: bins of width 0.5 over [0, 2]; 2 goes in the last bin,
	// NaN in bin 0, -1 and 3 nowhere
	x, _ := FromFloat64s([]float64{0, 0.49, 0.5, 1.99, 2, math.NaN(), -1, 3}, []int{8}, F32)
	h, err := Histc(x, 4, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.ToFloat64s(), []float64{3, 1, 0, 2}; !slices.Equal(got, want) {
		t.Errorf("histc = %v, want %v", got, want)
	}
}

// histogramRef is HistogramCounts' loop over float64s with each
// accumulation rounded to the dtype (the implementation it replaced).
func histogramRef(vals, ws, ev []float64, uniform bool, dt DType) []float64 {
	r := func(v float64) float64 { return RoundToDType(v, dt) }
	nb := len(ev) - 1
	hist := make([]float64, nb)
	left, right := ev[0], ev[nb]
	ub := func(lo, hi int, v float64) int {
		for lo < hi {
			mid := (lo + hi) / 2
			if !(v < ev[mid]) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return lo
	}
	for i, v := range vals {
		if v < left || v > right {
			continue
		}
		var pos int
		switch {
		case math.IsNaN(v):
			pos = nb
			if uniform {
				pos = 1
			}
		case !uniform:
			pos = ub(0, len(ev), v) - 1
		default:
			var p float64
			if dt == F32 {
				p = float64((float32(v) - float32(left)) * float32(nb) / (float32(right) - float32(left)))
			} else {
				p = (v - left) * float64(nb) / (right - left)
			}
			pi := int(p)
			pos = ub(max(0, pi-1), min(pi+2, len(ev)), v) - 1
		}
		if pos == nb {
			pos--
		}
		w := 1.0
		if ws != nil {
			w = ws[i]
		}
		hist[pos] = r(hist[pos] + w)
	}
	return hist
}

// HistogramCounts (typed, in the dtype) counts as the float64 reference:
// uniform (linspace) and explicit edges, weights, NaN, ±Inf, values on
// edges, odd sizes, strided input.
func TestHistogramCountsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []DType{F32, F64} {
		for _, n := range []int{1, 2, 3, 7, 17, 31, 64, 127, 257} {
			d := make([]float64, 2*n)
			ws := make([]float64, 2*n)
			for i := range d {
				switch r.IntN(10) {
				case 0:
					d[i] = math.Inf(1 - 2*r.IntN(2))
				case 1:
					d[i] = float64(r.IntN(5))/2 - 1
				case 2:
					d[i] = math.NaN()
				default:
					d[i] = RoundToDType(r.NormFloat64(), dt)
				}
				ws[i] = RoundToDType(r.Float64()*3, dt)
			}
			x, _ := FromFloat64s(d, []int{2, n}, dt)
			xt, _ := x.Contiguous().T() // (n, 2), strided
			w, _ := FromFloat64s(ws, []int{2, n}, dt)
			wt, _ := w.Contiguous().T()
			for _, bins := range []int{1, 2, 5, 100} {
				lin, _ := Linspace(-1, 1.5, bins+1, dt)
				ev := lin.ToFloat64s()
				for _, c := range []struct {
					x, w    *Tensor
					uniform bool
				}{{x, nil, true}, {xt, nil, true}, {x, w, true}, {xt, wt, false}, {x, nil, false}} {
					var wv []float64
					if c.w != nil {
						wv = c.w.ToFloat64s()
					}
					got := HistogramCounts(c.x, c.w, ev, c.uniform)
					want := histogramRef(c.x.ToFloat64s(), wv, ev, c.uniform, dt)
					if !slices.Equal(got, want) {
						t.Fatalf("%s n=%d bins=%d uniform=%v weighted=%v: got %v, want %v", dt, n, bins, c.uniform, c.w != nil, got, want)
					}
				}
			}
		}
	}
}
