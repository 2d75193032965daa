package tensor

// HistogramCounts is the counting loop of torch.histogram (ATen's
// histogramdd kernel for one dimension) over x, an f32 or f64 tensor of
// any shape and layout: edges (len >= 2, increasing, values of x's dtype)
// bound the bins; weight (nil, or x's shape and dtype) weighs each
// element. With uniform (edges from linspace, int bins) an element's bin
// is found by LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH: (x - left) * bins /
// (right - left) in x's dtype, then an upper_bound search of the edges
// around it; otherwise by upper_bound over all edges. Elements outside
// [edges[0], edges[len-1]] are skipped; the last bin includes its right
// edge. A NaN (reached only with an explicit range) counts as PyTorch
// 1.13's x86 kernel counts it: in bin 1 when uniform, the last bin
// otherwise (bin 0 when there is one bin). Counts accumulate in x's dtype;
// the result has len(edges) - 1 bins, as float64s.
func HistogramCounts(x, weight *Tensor, edges []float64, uniform bool) []float64 {
	xc := x.Contiguous()
	n := xc.Numel()
	var wc *Tensor
	if weight != nil {
		wc = weight.Contiguous()
	}
	if x.dtype == F32 {
		e := make([]float32, len(edges))
		for i, v := range edges {
			e[i] = float32(v)
		}
		var w []float32
		if wc != nil {
			w = wc.storage.F32()[wc.offset : wc.offset+n]
		}
		return histogramCount(xc.storage.F32()[xc.offset:xc.offset+n], w, e, uniform)
	}
	var w []float64
	if wc != nil {
		w = wc.storage.F64()[wc.offset : wc.offset+n]
	}
	return histogramCount(xc.storage.F64()[xc.offset:xc.offset+n], w, edges, uniform)
}

func histogramCount[T float32 | float64](x, w, ev []T, uniform bool) []float64 {
	nb := len(ev) - 1
	hist := make([]T, nb)
	left, right := ev[0], ev[nb]
	scale, width := T(nb), right-left
	for i, v := range x {
		if v < left || v > right {
			continue
		}
		var pos int
		switch {
		case v != v:
			pos = nb
			if uniform {
				pos = 1
			}
		case uniform:
			pi := int((v - left) * scale / width)
			pos = upperBoundT(ev, max(0, pi-1), min(pi+2, len(ev)), v) - 1
		default:
			pos = upperBoundT(ev, 0, len(ev), v) - 1
		}
		if pos == nb { // the last bin includes its right edge
			pos--
		}
		if w != nil {
			hist[pos] += w[i]
		} else {
			hist[pos]++
		}
	}
	out := make([]float64, nb)
	for i, h := range hist {
		out[i] = float64(h)
	}
	return out
}

// upperBoundT is std::upper_bound over a[lo:hi]: the first index whose
// element is greater than v (hi when none is).
func upperBoundT[T float32 | float64](a []T, lo, hi int, v T) int {
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if !(v < a[mid]) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
