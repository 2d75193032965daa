package tensor

// ConstantPad returns x padded with value: pads lists (before, after)
// amounts for the last len(pads)/2 dims, starting from the last dim (nn.pad's
// order), all >= 0. The result is contiguous and written in one pass, row
// by row (fill, copy of the input row, fill), rows split over goroutines.
// value is converted to x's dtype as Full converts it. ok is false, with
// nothing done, for negative amounts, an odd or too long pads list, or
// dtypes wider than 8 bytes (the caller composes narrow and cat instead).
func ConstantPad(x *Tensor, pads []int, value float64) (out *Tensor, ok bool, err error) {
	nd := len(x.shape)
	if len(pads)%2 != 0 || len(pads)/2 > nd || nd == 0 {
		return nil, false, nil
	}
	for _, p := range pads {
		if p < 0 {
			return nil, false, nil
		}
	}
	before := make([]int, nd)
	sh := append([]int(nil), x.shape...)
	for k := 0; k < len(pads)/2; k++ {
		d := nd - 1 - k
		before[d] = pads[2*k]
		sh[d] += pads[2*k] + pads[2*k+1]
	}
	fill, err := Full([]int{1}, value, x.dtype)
	if err != nil {
		return nil, false, err
	}
	out = empty(sh, x.dtype)
	if out.Numel() == 0 {
		return out, true, nil
	}
	xc := x.Contiguous()
	switch x.dtype.ItemSize() {
	case 1:
		padRows[uint8](out, xc, fill, before)
	case 2:
		padRows[uint16](out, xc, fill, before)
	case 4:
		padRows[uint32](out, xc, fill, before)
	case 8:
		padRows[uint64](out, xc, fill, before)
	default:
		return nil, false, nil
	}
	return out, true, nil
}

// padRows writes ConstantPad's result: out row r (its index over all but
// the last dim) is the fill value, or before[last] fills, input row, fills.
func padRows[T uint8 | uint16 | uint32 | uint64](out, x, fill *Tensor, before []int) {
	v := typed[T](fill.storage)[0]
	o := typed[T](out.storage)[:out.Numel()]
	var src []T
	if n := x.Numel(); n > 0 {
		src = typed[T](x.storage)[x.offset : x.offset+n]
	}
	nd := len(out.shape)
	w, iw := out.shape[nd-1], x.shape[nd-1]
	b := before[nd-1]
	rows := len(o) / w
	parallelTasks(rows, w, grainMem, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			dst := o[r*w : (r+1)*w]
			// the input row of output row r, or -1 in the padding
			in, stride, q := 0, 1, r
			for d := nd - 2; d >= 0; d-- {
				c := q%out.shape[d] - before[d]
				q /= out.shape[d]
				if c < 0 || c >= x.shape[d] {
					in = -1
					break
				}
				in += c * stride
				stride *= x.shape[d]
			}
			if in < 0 || iw == 0 {
				for i := range dst {
					dst[i] = v
				}
				continue
			}
			for i := range dst[:b] {
				dst[i] = v
			}
			copy(dst[b:b+iw], src[in*iw:(in+1)*iw])
			for i := b + iw; i < w; i++ {
				dst[i] = v
			}
		}
	})
}
