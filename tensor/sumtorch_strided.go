package tensor

import "github.com/tsrlang/tsr/backends/cpu"

// Sums of small non-dense float32/float64 views in PyTorch's order.
//
// The dense fast paths (fastSumMean) reproduce ATen's single-threaded
// cascade_sum for a contiguous block. A view that is not one dense block
// (a slice with a step, an expanded or otherwise overlapping view, a
// strided batch) is laid out by ATen's TensorIterator before the kernel
// runs, and the kernel (SumKernel.cpp) picks its loop from the strides it
// is given. torchSumStrided replays both:
//
//  1. TensorIterator's layout: the output (contiguous over the kept dims,
//     stride 0 on the reduced ones) and the input are viewed through one
//     permutation of the dims, found by reorder_dimensions' insertion sort
//     with should_swap (reduced dims first, then by increasing stride, the
//     output deciding first, a stride 0 skipped, equal strides putting the
//     smaller size first), then adjacent dims whose strides chain are
//     coalesced (coalesce_dimensions). Size-1 dims take part (their
//     strides, PyTorch's for the same view, can steer the sort).
//  2. serial_for_each: the 2-D loop over dims 0 and 1 runs once per index
//     of the outer dims (dim 2 fastest), each call adding its partial sums
//     into the zero-filled output (CastStoreAccumulate).
//  3. cascade_sum's 2-D loop: with V the AVX2 lane count (8 float32, 4
//     float64), a contiguous inner reduction of >= V elements is
//     vectorized_inner_sum (cpu.SumTorch*), contiguous outputs of >= V
//     columns vectorized_outer_sum (the first 4V·⌊n/4V⌋ columns through
//     multi_row_sum, the rest through row_sum), otherwise
//     scalar_inner_sum (row_sum per output) when the reduced stride is the
//     smaller, else scalar_outer_sum (4·⌊n/4⌋ columns through
//     multi_row_sum, the rest through row_sum). A loop that reduces
//     nothing adds the input elementwise.
//
// It is used up to torchSumMaxRow elements: beyond PyTorch's GRAIN_SIZE
// (32768) a multi-threaded PyTorch splits some reductions by thread, and
// there the float64-accumulated paths are kept (faster, as accurate).

// torchSumKernels are the per-dtype primitives of torchSumStrided.
type torchSumKernels[T float32 | float64] struct {
	lanes   int                         // V: AVX2 lanes
	row     func(x []T) T               // vectorized_inner_sum of one contiguous row
	cascade func(x []T, s, st, n int) T // multi_row_sum, one lane
	rowSum  func(x []T, s, st, n int) T // row_sum, one lane
}

var (
	torchSumF32 = torchSumKernels[float32]{8, cpu.SumTorchF32, cpu.CascadeSumStridedF32, cpu.RowSumStridedF32}
	torchSumF64 = torchSumKernels[float64]{4, cpu.SumTorchF64, cpu.CascadeSumStridedF64, cpu.RowSumStridedF64}
)

// torchSumSmall returns the sum (or mean) of t over the reduced dims of p
// in PyTorch's order when t is a non-empty float32/float64 view of at
// most torchSumMaxRow elements, else nil.
func torchSumSmall(t *Tensor, p *reducePlan, mean bool) *Tensor {
	n := t.Numel()
	if !fastPathsOn() || n == 0 || n > torchSumMaxRow || len(t.shape) == 0 {
		return nil
	}
	var out *Tensor
	switch t.dtype {
	case F32:
		out = empty(p.outShape, F32)
		torchSumStrided(t.storage.F32(), t, p.red, out.storage.F32(), &torchSumF32)
	case F64:
		out = empty(p.outShape, F64)
		torchSumStrided(t.storage.F64(), t, p.red, out.storage.F64(), &torchSumF64)
	default:
		return nil
	}
	if mean { // PyTorch's sum(...).div_(n), in the element type
		r := n / out.Numel()
		switch t.dtype {
		case F32:
			d := out.storage.F32()
			for i := range d {
				d[i] /= float32(r)
			}
		case F64:
			d := out.storage.F64()
			for i := range d {
				d[i] /= float64(r)
			}
		}
	}
	return out
}

// smallSumMean is Sum (or Mean) of a float32/float64 tensor of at most
// torchSumMaxRow elements in PyTorch's order, dense or not (ok false for
// other tensors).
func smallSumMean(t *Tensor, dims []int, keepdim, mean bool) (r *Tensor, ok bool, err error) {
	if (t.dtype != F32 && t.dtype != F64) || t.Numel() == 0 || t.Numel() > torchSumMaxRow || !fastPathsOn() {
		return nil, false, nil
	}
	p, err := planReduce(t, dims, keepdim)
	if err != nil {
		return nil, false, err
	}
	if r = fastSumMean(t, p, mean); r == nil {
		r = torchSumSmall(t, p, mean)
	}
	return r, r != nil, nil
}

// torchSumStrided sets dst (the contiguous result over the kept dims) to
// the sums of t over the dims marked in red, in ATen's order (see above).
func torchSumStrided[T float32 | float64](x []T, t *Tensor, red []bool, dst []T, k *torchSumKernels[T]) {
	// the dims with the output's strides (contiguous over the kept dims,
	// 0 on the reduced ones) and the input's; size-1 dims stay, as in
	// TensorIterator (their strides can steer the insertion sort)
	nd := len(t.shape)
	shape, sIn, sOut := t.shape, t.strides, make([]int, nd)
	os := 1
	for d := nd - 1; d >= 0; d-- {
		if !red[d] {
			sOut[d] = os
			os *= shape[d]
		}
	}
	clear(dst)
	// reorder_dimensions (perm[0] is the fastest dim)
	swap := func(d0, d1 int) int {
		for op, st := range [2][]int{sOut, sIn} {
			s0, s1 := st[d0], st[d1]
			if op == 0 && (s0 == 0) != (s1 == 0) {
				if s1 == 0 {
					return 1
				}
				return -1
			}
			if s0 == 0 || s1 == 0 {
				continue
			}
			if s0 < s1 {
				return -1
			}
			if s0 > s1 {
				return 1
			}
			if shape[d0] > shape[d1] {
				return 1
			}
		}
		return 0
	}
	perm := reorderDims(nd, swap)
	ps, pin, pout := make([]int, nd), make([]int, nd), make([]int, nd)
	for i, d := range perm {
		ps[i], pin[i], pout[i] = shape[d], sIn[d], sOut[d]
	}
	// coalesce_dimensions
	m := 0
	for d := 1; d < nd; d++ {
		if ps[m] == 1 || ps[d] == 1 || (ps[m]*pin[m] == pin[d] && ps[m]*pout[m] == pout[d]) {
			if ps[m] == 1 {
				pin[m], pout[m] = pin[d], pout[d]
			}
			ps[m] *= ps[d]
			continue
		}
		m++
		ps[m], pin[m], pout[m] = ps[d], pin[d], pout[d]
	}
	nd = m + 1
	ps, pin, pout = ps[:nd], pin[:nd], pout[:nd]
	size0, in0, out0 := ps[0], pin[0], pout[0]
	size1, in1, out1 := 1, 0, 0
	if nd > 1 {
		size1, in1, out1 = ps[1], pin[1], pout[1]
	}
	// serial_for_each over the outer dims, dim 2 fastest
	idx := make([]int, nd)
	inBase, outBase := t.offset, 0
	for {
		sumLoop2D(x, inBase, dst, outBase, size0, size1, in0, in1, out0, out1, k)
		d := 2
		for ; d < nd; d++ {
			idx[d]++
			inBase += pin[d]
			outBase += pout[d]
			if idx[d] < ps[d] {
				break
			}
			inBase -= idx[d] * pin[d]
			outBase -= idx[d] * pout[d]
			idx[d] = 0
		}
		if d >= nd {
			return
		}
	}
}

// sumLoop2D is cascade_sum's 2-D inner loop: size0 x size1 input elements
// at x[in + i*in0 + j*in1] added into dst[out + i*out0 + j*out1].
func sumLoop2D[T float32 | float64](x []T, in int, dst []T, out int, size0, size1, in0, in1, out0, out1 int, k *torchSumKernels[T]) {
	if out0 != 0 && out1 == 0 { // move the reduction to the first dim
		size0, size1, in0, in1, out0, out1 = size1, size0, in1, in0, out1, out0
	}
	if out0 != 0 && out1 != 0 { // not a reduction: elementwise add
		for j := 0; j < size1; j++ {
			for i := 0; i < size0; i++ {
				dst[out+i*out0+j*out1] += x[in+i*in0+j*in1]
			}
		}
		return
	}
	V := k.lanes
	var split int // columns below split go through multi_row_sum
	switch {
	case in0 == 1 && size0 >= V: // vectorized_inner_sum
		for j := 0; j < size1; j++ {
			s := in + j*in1
			dst[out+j*out1] += k.row(x[s : s+size0])
		}
		return
	case in1 == 1 && size1 >= V: // vectorized_outer_sum
		split = size1 / (4 * V) * 4 * V
	case in0 < in1: // scalar_inner_sum
		split = 0
	default: // scalar_outer_sum
		split = size1 / 4 * 4
	}
	for j := 0; j < size1; j++ {
		if j < split {
			dst[out+j*out1] += k.cascade(x, in+j*in1, in0, size0)
		} else {
			dst[out+j*out1] += k.rowSum(x, in+j*in1, in0, size0)
		}
	}
}
