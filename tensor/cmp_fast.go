package tensor

// fastCmp computes out = x OP y for a comparison op when out, a and b
// share one dense layout (x == y, x < y on same-shape contiguous
// tensors): a typed loop per op instead of mapBin's closure per element.
// It reports false otherwise.
func fastCmp[T num](op binOp, out, a, b *Tensor, x, y []T) bool {
	n := out.Numel()
	if !fastPathsOn() || n == 0 || !linearLayout(out, a, b) {
		return false
	}
	o := out.storage.Bools()[out.offset : out.offset+n]
	x, y = x[a.offset:a.offset+n], y[b.offset:b.offset+n]
	parallelFor(n, func(lo, hi int) { cmpVec(op, o[lo:hi], x[lo:hi], y[lo:hi]) })
	return true
}

// cmpVec sets o[i] = x[i] OP y[i] (IEEE comparisons: NaN is unequal to
// everything, != to everything).
func cmpVec[T num](op binOp, o []bool, x, y []T) {
	x = x[:len(o)]
	y = y[:len(o)]
	switch op {
	case opEq:
		for i := range o {
			o[i] = x[i] == y[i]
		}
	case opNe:
		for i := range o {
			o[i] = x[i] != y[i]
		}
	case opLt:
		for i := range o {
			o[i] = x[i] < y[i]
		}
	case opLe:
		for i := range o {
			o[i] = x[i] <= y[i]
		}
	case opGt:
		for i := range o {
			o[i] = x[i] > y[i]
		}
	default:
		for i := range o {
			o[i] = x[i] >= y[i]
		}
	}
}
