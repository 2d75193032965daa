package tensor

import "math"

// 2-d pooling over the last two dims of a float32/float64 tensor (any
// leading dims, each (H, W) plane pooled independently): max, average and
// adaptive average/max pooling with their backward passes, as ATen's CPU
// kernels (MaxPoolKernel.cpp, AvgPoolKernel.cpp, AdaptiveAvgPoolKernel.cpp,
// AdaptiveMaxPoolKernel.cpp). Direct loops over contiguous planes,
// parallel over planes. Indices are int64 flat positions h*W + w within
// the input plane, as PyTorch's return_indices. 1-d pooling is the 2-d
// one with H = 1 (the stdlib layer reshapes); argument checks with
// PyTorch's messages are the caller's.

// PoolParams holds a 2-d pooling window, each pair ordered (height,
// width): Kernel and Stride >= 1, Padding >= 0 (implicit -inf for max, 0
// for average), Dilation >= 1 (max pooling only). CeilMode rounds the
// output size up (a window must still start inside the input or left
// padding). For average pooling, CountIncludePad counts padding elements
// in the divisor and DivisorOverride (when non-zero) replaces it.
type PoolParams struct {
	Kernel, Stride, Padding, Dilation [2]int
	CeilMode, CountIncludePad         bool
	DivisorOverride                   int
}

// PoolOutputSize returns the pooled length along one dim as PyTorch's
// pooling_output_shape: floor or ceil of (in + 2*pad - dil*(k-1) - 1) /
// stride, plus 1; in ceil mode, minus 1 when the last window would start
// in the right padding.
func PoolOutputSize(in, k, pad, stride, dil int, ceil bool) int {
	num := in + 2*pad - dil*(k-1) - 1
	if ceil {
		num += stride - 1
	}
	o := floorDiv(num, stride) + 1
	if ceil && (o-1)*stride >= in+pad {
		o--
	}
	return o
}

// poolPlanes validates a pooling input and returns it contiguous with its
// plane count, height and width.
func poolPlanes(name string, x *Tensor) (*Tensor, int, int, int, error) {
	if x.dtype != F32 && x.dtype != F64 {
		return nil, 0, 0, 0, errorf(RuntimeError, "\"%s\" not implemented for '%s'", name, x.dtype.TorchName())
	}
	if x.Dim() < 2 {
		return nil, 0, 0, 0, errorf(RuntimeError, "%s: expected at least 2 dims, got %s", name, fmtList(x.shape))
	}
	d := x.Dim()
	h, w := x.shape[d-2], x.shape[d-1]
	planes := 1
	for _, s := range x.shape[:d-2] {
		planes *= s
	}
	return x.Contiguous(), planes, h, w, nil
}

func (p *PoolParams) outSize(h, w int) (int, int) {
	return PoolOutputSize(h, p.Kernel[0], p.Padding[0], p.Stride[0], p.Dilation[0], p.CeilMode),
		PoolOutputSize(w, p.Kernel[1], p.Padding[1], p.Stride[1], p.Dilation[1], p.CeilMode)
}

func (p *PoolParams) valid() bool {
	for i := range 2 {
		if p.Kernel[i] < 1 || p.Stride[i] < 1 || p.Padding[i] < 0 || p.Dilation[i] < 1 {
			return false
		}
	}
	return true
}

func withPlane(shape []int, oh, ow int) []int {
	s := append([]int(nil), shape...)
	s[len(s)-2], s[len(s)-1] = oh, ow
	return s
}

// MaxPool2d returns the max over each pooling window of the last two dims
// of x (F32 or F64, any leading dims) and the int64 flat index (h*W + w)
// of each max within its input plane. A NaN in a window is its max (the
// last NaN's index); an all -inf window reports its first in-bounds
// position. Errors for invalid parameters or an empty output.
func MaxPool2d(x *Tensor, p PoolParams) (out, indices *Tensor, err error) {
	x, planes, h, w, err := poolPlanes("max_pool2d", x)
	if err != nil {
		return nil, nil, err
	}
	oh, ow := p.outSize(h, w)
	if !p.valid() || oh < 1 || ow < 1 {
		return nil, nil, errorf(RuntimeError, "max_pool2d: invalid parameters or output size %dx%d for input %s", oh, ow, fmtList(x.shape))
	}
	out = empty(withPlane(x.shape, oh, ow), x.dtype)
	indices = empty(out.shape, I64)
	idx := indices.storage.I64()
	if x.dtype == F32 {
		maxPool(out.storage.F32(), idx, x.data32(), planes, h, w, oh, ow, &p)
	} else {
		maxPool(out.storage.F64(), idx, x.data64(), planes, h, w, oh, ow, &p)
	}
	return out, indices, nil
}

func maxPool[E float](out []E, idx []int64, x []E, planes, h, w, oh, ow int, p *PoolParams) {
	kh, kw := p.Kernel[0], p.Kernel[1]
	sh, sw := p.Stride[0], p.Stride[1]
	ph, pw := p.Padding[0], p.Padding[1]
	dh, dw := p.Dilation[0], p.Dilation[1]
	parallelChunks(planes, planes*oh*ow*kh*kw, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*h*w:][:h*w]
			o := out[pl*oh*ow:][:oh*ow]
			ix := idx[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				h0 := oy*sh - ph
				h1 := min(h0+(kh-1)*dh+1, h)
				for h0 < 0 {
					h0 += dh
				}
				for ox := range ow {
					w0 := ox*sw - pw
					w1 := min(w0+(kw-1)*dw+1, w)
					for w0 < 0 {
						w0 += dw
					}
					best := int64(h0*w + w0)
					m := E(math.Inf(-1))
					for iy := h0; iy < h1; iy += dh {
						row := src[iy*w:]
						for jx := w0; jx < w1; jx += dw {
							if v := row[jx]; v > m || v != v {
								m, best = v, int64(iy*w+jx)
							}
						}
					}
					o[oy*ow+ox], ix[oy*ow+ox] = m, best
				}
			}
		}
	})
}

// MaxPoolBackward scatters gout (the pooled shape) to the input positions
// indices (as MaxPool2d or AdaptiveMaxPool2d return them) of a zero
// tensor of inputShape, adding where windows share a max. gout is F32 or
// F64, indices I64 of gout's shape.
func MaxPoolBackward(gout, indices *Tensor, inputShape []int) (*Tensor, error) {
	gout, planes, oh, ow, err := poolPlanes("max_pool2d_backward", gout)
	if err != nil {
		return nil, err
	}
	if indices.dtype != I64 || !shapeEq(indices.shape, gout.shape) || len(inputShape) != gout.Dim() {
		return nil, errorf(RuntimeError, "max_pool_backward: indices %s do not match grad_output %s", fmtList(indices.shape), fmtList(gout.shape))
	}
	d := len(inputShape)
	h, w := inputShape[d-2], inputShape[d-1]
	gx := zeros(inputShape, gout.dtype)
	if gx.Numel() != planes*h*w {
		return nil, errorf(RuntimeError, "max_pool_backward: input shape %s does not match grad_output %s", fmtList(inputShape), fmtList(gout.shape))
	}
	ic := indices.Contiguous()
	idx := ic.storage.I64()[ic.offset:][:ic.Numel()]
	for _, i := range idx {
		if i < 0 || int(i) >= h*w {
			return nil, errorf(RuntimeError, "max_pool_backward: index %d out of range for a %dx%d plane", i, h, w)
		}
	}
	if gout.dtype == F32 {
		scatterPlanes(gx.storage.F32(), gout.data32(), idx, planes, h*w, oh*ow)
	} else {
		scatterPlanes(gx.storage.F64(), gout.data64(), idx, planes, h*w, oh*ow)
	}
	return gx, nil
}

func scatterPlanes[E float](gx, g []E, idx []int64, planes, in, out int) {
	parallelChunks(planes, planes*out, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := gx[pl*in:][:in]
			for k, v := range g[pl*out:][:out] {
				dst[idx[pl*out+k]] += v
			}
		}
	})
}

// avgWindow returns the clipped window [h0, h1) x [w0, w1) of output
// (oy, ox) and its divisor, as ATen's avg_pool2d.
func avgWindow(p *PoolParams, h, w, oy, ox int) (h0, h1, w0, w1 int, div float64) {
	h0 = oy*p.Stride[0] - p.Padding[0]
	w0 = ox*p.Stride[1] - p.Padding[1]
	h1 = min(h0+p.Kernel[0], h+p.Padding[0])
	w1 = min(w0+p.Kernel[1], w+p.Padding[1])
	size := (h1 - h0) * (w1 - w0)
	h0, w0 = max(h0, 0), max(w0, 0)
	h1, w1 = min(h1, h), min(w1, w)
	switch {
	case p.DivisorOverride != 0:
		div = float64(p.DivisorOverride)
	case p.CountIncludePad:
		div = float64(size)
	default:
		div = float64((h1 - h0) * (w1 - w0))
	}
	return
}

// AvgPool2d returns the mean over each pooling window of the last two
// dims of x (F32 or F64): the window sum divided by DivisorOverride when
// set, else by the window size counting padding (CountIncludePad) or not.
// Dilation is ignored (must be 1). Sums accumulate in float64.
func AvgPool2d(x *Tensor, p PoolParams) (*Tensor, error) {
	x, planes, h, w, err := poolPlanes("avg_pool2d", x)
	if err != nil {
		return nil, err
	}
	p.Dilation = [2]int{1, 1}
	oh, ow := p.outSize(h, w)
	if !p.valid() || oh < 1 || ow < 1 {
		return nil, errorf(RuntimeError, "avg_pool2d: invalid parameters or output size %dx%d for input %s", oh, ow, fmtList(x.shape))
	}
	out := empty(withPlane(x.shape, oh, ow), x.dtype)
	if x.dtype == F32 {
		avgPool(out.storage.F32(), x.data32(), planes, h, w, oh, ow, &p)
	} else {
		avgPool(out.storage.F64(), x.data64(), planes, h, w, oh, ow, &p)
	}
	return out, nil
}

func avgPool[E float](out, x []E, planes, h, w, oh, ow int, p *PoolParams) {
	parallelChunks(planes, planes*oh*ow*p.Kernel[0]*p.Kernel[1], func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*h*w:][:h*w]
			o := out[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				for ox := range ow {
					h0, h1, w0, w1, div := avgWindow(p, h, w, oy, ox)
					var s float64
					for iy := h0; iy < h1; iy++ {
						for _, v := range src[iy*w+w0 : iy*w+w1] {
							s += float64(v)
						}
					}
					o[oy*ow+ox] = E(s / div)
				}
			}
		}
	})
}

// AvgPool2dBackward returns the gradient of AvgPool2d with respect to its
// input of shape inputShape: each output gradient divided by its window's
// divisor and added to the window's in-bounds positions.
func AvgPool2dBackward(gout *Tensor, inputShape []int, p PoolParams) (*Tensor, error) {
	gout, planes, oh, ow, err := poolPlanes("avg_pool2d_backward", gout)
	if err != nil {
		return nil, err
	}
	p.Dilation = [2]int{1, 1}
	d := len(inputShape)
	if d != gout.Dim() || !p.valid() {
		return nil, errorf(RuntimeError, "avg_pool2d_backward: input shape %s does not match grad_output %s", fmtList(inputShape), fmtList(gout.shape))
	}
	h, w := inputShape[d-2], inputShape[d-1]
	if eh, ew := p.outSize(h, w); eh != oh || ew != ow {
		return nil, errorf(RuntimeError, "avg_pool2d_backward: input shape %s does not match grad_output %s", fmtList(inputShape), fmtList(gout.shape))
	}
	gx := zeros(inputShape, gout.dtype)
	if gout.dtype == F32 {
		avgPoolBack(gx.storage.F32(), gout.data32(), planes, h, w, oh, ow, &p)
	} else {
		avgPoolBack(gx.storage.F64(), gout.data64(), planes, h, w, oh, ow, &p)
	}
	return gx, nil
}

func avgPoolBack[E float](gx, g []E, planes, h, w, oh, ow int, p *PoolParams) {
	parallelChunks(planes, planes*oh*ow*p.Kernel[0]*p.Kernel[1], func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := gx[pl*h*w:][:h*w]
			src := g[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				for ox := range ow {
					h0, h1, w0, w1, div := avgWindow(p, h, w, oy, ox)
					v := E(float64(src[oy*ow+ox]) / div)
					for iy := h0; iy < h1; iy++ {
						row := dst[iy*w+w0 : iy*w+w1]
						for j := range row {
							row[j] += v
						}
					}
				}
			}
		}
	})
}

// adaptiveRange is ATen's adaptive pooling window along one dim: [floor(o
// * in / out), ceil((o+1) * in / out)).
func adaptiveRange(o, in, out int) (int, int) {
	return o * in / out, ((o+1)*in + out - 1) / out
}

// AdaptiveAvgPool2d averages the last two dims of x (F32 or F64) over the
// oh x ow adaptive windows (ATen's start = floor(i*H/oh), end =
// ceil((i+1)*H/oh)). oh, ow >= 1 (0 gives an empty result). Sums
// accumulate in float64.
func AdaptiveAvgPool2d(x *Tensor, oh, ow int) (*Tensor, error) {
	x, planes, h, w, err := poolPlanes("adaptive_avg_pool2d", x)
	if err != nil {
		return nil, err
	}
	if oh < 0 || ow < 0 {
		return nil, errorf(RuntimeError, "adaptive_avg_pool2d: negative output size %dx%d", oh, ow)
	}
	out := empty(withPlane(x.shape, oh, ow), x.dtype)
	if out.Numel() == 0 {
		return out, nil
	}
	if x.dtype == F32 {
		adaptiveAvg(out.storage.F32(), x.data32(), planes, h, w, oh, ow)
	} else {
		adaptiveAvg(out.storage.F64(), x.data64(), planes, h, w, oh, ow)
	}
	return out, nil
}

func adaptiveAvg[E float](out, x []E, planes, h, w, oh, ow int) {
	parallelChunks(planes, planes*h*w, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*h*w:][:h*w]
			o := out[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				h0, h1 := adaptiveRange(oy, h, oh)
				for ox := range ow {
					w0, w1 := adaptiveRange(ox, w, ow)
					var s float64
					for iy := h0; iy < h1; iy++ {
						for _, v := range src[iy*w+w0 : iy*w+w1] {
							s += float64(v)
						}
					}
					o[oy*ow+ox] = E(s / float64((h1-h0)*(w1-w0)))
				}
			}
		}
	})
}

// AdaptiveAvgPool2dBackward returns the gradient of AdaptiveAvgPool2d with
// respect to its input of shape inputShape.
func AdaptiveAvgPool2dBackward(gout *Tensor, inputShape []int) (*Tensor, error) {
	gout, planes, oh, ow, err := poolPlanes("adaptive_avg_pool2d_backward", gout)
	if err != nil {
		return nil, err
	}
	d := len(inputShape)
	if d != gout.Dim() {
		return nil, errorf(RuntimeError, "adaptive_avg_pool2d_backward: input shape %s does not match grad_output %s", fmtList(inputShape), fmtList(gout.shape))
	}
	h, w := inputShape[d-2], inputShape[d-1]
	gx := zeros(inputShape, gout.dtype)
	if gx.Numel() != planes*h*w {
		return nil, errorf(RuntimeError, "adaptive_avg_pool2d_backward: input shape %s does not match grad_output %s", fmtList(inputShape), fmtList(gout.shape))
	}
	if gout.dtype == F32 {
		adaptiveAvgBack(gx.storage.F32(), gout.data32(), planes, h, w, oh, ow)
	} else {
		adaptiveAvgBack(gx.storage.F64(), gout.data64(), planes, h, w, oh, ow)
	}
	return gx, nil
}

func adaptiveAvgBack[E float](gx, g []E, planes, h, w, oh, ow int) {
	if oh == 0 || ow == 0 {
		return
	}
	parallelChunks(planes, planes*h*w, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			dst := gx[pl*h*w:][:h*w]
			src := g[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				h0, h1 := adaptiveRange(oy, h, oh)
				for ox := range ow {
					w0, w1 := adaptiveRange(ox, w, ow)
					v := E(float64(src[oy*ow+ox]) / float64((h1-h0)*(w1-w0)))
					for iy := h0; iy < h1; iy++ {
						row := dst[iy*w+w0 : iy*w+w1]
						for j := range row {
							row[j] += v
						}
					}
				}
			}
		}
	})
}

// AdaptiveMaxPool2d returns the max of the last two dims of x (F32 or
// F64) over the oh x ow adaptive windows and the int64 flat index of each
// max within its input plane (NaN propagates, as MaxPool2d). Its backward
// is MaxPoolBackward.
func AdaptiveMaxPool2d(x *Tensor, oh, ow int) (out, indices *Tensor, err error) {
	x, planes, h, w, err := poolPlanes("adaptive_max_pool2d", x)
	if err != nil {
		return nil, nil, err
	}
	if oh < 0 || ow < 0 {
		return nil, nil, errorf(RuntimeError, "adaptive_max_pool2d: negative output size %dx%d", oh, ow)
	}
	out = empty(withPlane(x.shape, oh, ow), x.dtype)
	indices = empty(out.shape, I64)
	if out.Numel() == 0 {
		return out, indices, nil
	}
	idx := indices.storage.I64()
	if x.dtype == F32 {
		adaptiveMax(out.storage.F32(), idx, x.data32(), planes, h, w, oh, ow)
	} else {
		adaptiveMax(out.storage.F64(), idx, x.data64(), planes, h, w, oh, ow)
	}
	return out, indices, nil
}

func adaptiveMax[E float](out []E, idx []int64, x []E, planes, h, w, oh, ow int) {
	parallelChunks(planes, planes*h*w, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			src := x[pl*h*w:][:h*w]
			o := out[pl*oh*ow:][:oh*ow]
			ix := idx[pl*oh*ow:][:oh*ow]
			for oy := range oh {
				h0, h1 := adaptiveRange(oy, h, oh)
				for ox := range ow {
					w0, w1 := adaptiveRange(ox, w, ow)
					best := int64(h0*w + w0)
					m := E(math.Inf(-1))
					for iy := h0; iy < h1; iy++ {
						for jx := w0; jx < w1; jx++ {
							if v := src[iy*w+jx]; v > m || v != v {
								m, best = v, int64(iy*w+jx)
							}
						}
					}
					o[oy*ow+ox], ix[oy*ow+ox] = m, best
				}
			}
		}
	})
}
