package tensor

import (
	"github.com/tsrlang/tsr/backends/cpu"
)

// 2-d convolution, transposed convolution and im2col/col2im (unfold and
// fold) on float32 and float64 tensors, lowered as ATen's slow_conv2d and
// Caffe's im2col to column buffers and the batched GEMM of backends/cpu
// (SgemmBatched/DgemmBatched): the columns of one sample are the matrix
// [C*kh*kw, oh*ow] whose row (c, ki, kj) holds input channel c shifted by
// the kernel tap (ki, kj) (zero where it falls into the padding), so a
// convolution is weight [F, C*kh*kw] @ columns. A 1x1 kernel with unit
// stride and no padding reads the input itself as its columns.
//
// The functions here take 4-d tensors [N, C, H, W]; 1-d convolutions are
// the 2-d ones with H = 1 (the stdlib layer reshapes). Argument checks with
// PyTorch's messages are the caller's (stdlib's nn functions); these
// functions return an error for inconsistent shapes or a dtype other than
// F32/F64, never panic on them.

// ConvParams holds the hyper-parameters of a 2-d convolution, each pair
// ordered (height, width): Stride and Dilation >= 1, Padding >= 0 (zero
// padding on both sides), Groups >= 1 dividing both channel counts, and,
// for transposed convolutions only, OutputPadding (extra rows/columns at
// the bottom/right of the output).
type ConvParams struct {
	Stride, Padding, Dilation, OutputPadding [2]int
	Groups                                   int
}

// ConvOutputSize returns the output length of a convolution or pooling
// window along one dim: floor((in + 2*pad - dil*(k-1) - 1) / stride) + 1
// (may be <= 0 when the window does not fit).
func ConvOutputSize(in, k, stride, pad, dil int) int {
	return floorDiv(in+2*pad-dil*(k-1)-1, stride) + 1
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// convGeom is the geometry shared by the column kernels: an "image" side
// [n, c, h, w] that im2col reads (col2im writes), a "column" side [n, f,
// oh, ow] and a weight [f, c/g, kh, kw]. For a convolution the image is
// the input and the column side the output; for a transposed convolution
// the roles swap.
type convGeom struct {
	n, c, h, w             int
	f, oh, ow              int
	kh, kw                 int
	sh, sw, ph, pw, dh, dw int
	g                      int
}

func newGeom(img []int, f int, kernel [2]int, oh, ow int, p ConvParams) *convGeom {
	return &convGeom{n: img[0], c: img[1], h: img[2], w: img[3], f: f, oh: oh, ow: ow,
		kh: kernel[0], kw: kernel[1], sh: p.Stride[0], sw: p.Stride[1], ph: p.Padding[0], pw: p.Padding[1],
		dh: p.Dilation[0], dw: p.Dilation[1], g: max(p.Groups, 1)}
}

// direct reports whether the columns are the image itself (1x1 kernel,
// unit stride, no padding).
func (q *convGeom) direct() bool {
	return q.kh == 1 && q.kw == 1 && q.sh == 1 && q.sw == 1 && q.ph == 0 && q.pw == 0
}

func (q *convGeom) colLen() int { return q.c * q.kh * q.kw * q.oh * q.ow }

// chunk is how many samples one column buffer holds (about 4M elements,
// at least one sample), so that the GEMM runs batched over small images.
func (q *convGeom) chunk() int {
	per := max(q.colLen(), 1)
	return max(1, min(q.n, (4<<20)/per))
}

type float interface{ ~float32 | ~float64 }

// gemmBatched is cpu.SgemmBatched/DgemmBatched for either float type
// (alpha 1, unit column stride of C).
func gemmBatched[E float](batch, m, n, k int, a []E, bsA, rsA, csA int, b []E, bsB, rsB, csB int, beta E, c []E, bsC, rsC int) {
	if batch == 0 || m == 0 || n == 0 {
		return
	}
	switch a := any(a).(type) {
	case []float32:
		cpu.SgemmBatched(batch, m, n, k, 1, a, bsA, rsA, csA, any(b).([]float32), bsB, rsB, csB, float32(beta), any(c).([]float32), bsC, rsC, 1)
	case []float64:
		cpu.DgemmBatched(batch, m, n, k, 1, a, bsA, rsA, csA, any(b).([]float64), bsB, rsB, csB, float64(beta), any(c).([]float64), bsC, rsC, 1)
	}
}

// parallelChunks runs fn over [0, n) split into up to GetNumThreads
// contiguous chunks when work (elements touched) is large enough.
func parallelChunks(n, work int, fn func(lo, hi int)) {
	k := min(GetNumThreads(), n)
	if k <= 1 || work < parallelGrain {
		fn(0, n)
		return
	}
	chunk := (n + k - 1) / k
	cpu.ParallelFor((n+chunk-1)/chunk, func(i int) { fn(i*chunk, min(i*chunk+chunk, n)) })
}

// im2col writes the columns [c*kh*kw, oh*ow] of samples [n0, n1) of img
// (contiguous [n, c, h, w]) into cols, one sample after the other.
func im2col[E float](cols, img []E, q *convGeom, n0, n1 int) {
	L := q.oh * q.ow
	K := q.kh * q.kw
	plane := q.h * q.w
	parallelChunks((n1-n0)*q.c, (n1-n0)*q.colLen(), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			src := img[(n0*q.c+nc)*plane:][:plane]
			for t := range K {
				ki, kj := t/q.kw, t%q.kw
				dst := cols[(nc*K+t)*L:][:L]
				x0 := kj*q.dw - q.pw
				for oy := range q.oh {
					row := dst[oy*q.ow:][:q.ow]
					iy := oy*q.sh - q.ph + ki*q.dh
					if iy < 0 || iy >= q.h {
						clear(row)
						continue
					}
					srow := src[iy*q.w:][:q.w]
					if q.sw == 1 {
						lo := min(max(0, -x0), q.ow)
						hi := max(min(q.ow, q.w-x0), lo)
						clear(row[:lo])
						copy(row[lo:hi], srow[x0+lo:x0+hi])
						clear(row[hi:])
						continue
					}
					for ox := range row {
						if ix := x0 + ox*q.sw; uint(ix) < uint(q.w) {
							row[ox] = srow[ix]
						} else {
							row[ox] = 0
						}
					}
				}
			}
		}
	})
}

// col2im adds the columns of samples [n0, n1) (as im2col lays them out)
// back into img, which the caller has zeroed: the adjoint of im2col.
func col2im[E float](img, cols []E, q *convGeom, n0, n1 int) {
	L := q.oh * q.ow
	K := q.kh * q.kw
	plane := q.h * q.w
	parallelChunks((n1-n0)*q.c, (n1-n0)*q.colLen(), func(lo, hi int) {
		for nc := lo; nc < hi; nc++ {
			dst := img[(n0*q.c+nc)*plane:][:plane]
			for t := range K {
				ki, kj := t/q.kw, t%q.kw
				src := cols[(nc*K+t)*L:][:L]
				x0 := kj*q.dw - q.pw
				for oy := range q.oh {
					iy := oy*q.sh - q.ph + ki*q.dh
					if iy < 0 || iy >= q.h {
						continue
					}
					row := src[oy*q.ow:][:q.ow]
					drow := dst[iy*q.w:][:q.w]
					if q.sw == 1 {
						lo := min(max(0, -x0), q.ow)
						hi := max(min(q.ow, q.w-x0), lo)
						d := drow[x0+lo : x0+hi]
						for i, v := range row[lo:hi] {
							d[i] += v
						}
						continue
					}
					for ox, v := range row {
						if ix := x0 + ox*q.sw; uint(ix) < uint(q.w) {
							drow[ix] += v
						}
					}
				}
			}
		}
	})
}

// colsForward computes the column side out [n, f, oh*ow] = weight @
// im2col(img) per group; with bias (length f) added (nil: none).
func colsForward[E float](out, img, w, bias []E, q *convGeom) {
	L := q.oh * q.ow
	K := q.kh * q.kw
	cg, fg := q.c/q.g, q.f/q.g
	if q.shifted() {
		shiftedConv(out, img, w, bias, q, false)
		return
	}
	var beta E
	if bias != nil {
		for nf := range q.n * q.f {
			v := bias[nf%q.f]
			row := out[nf*L:][:L]
			for i := range row {
				row[i] = v
			}
		}
		beta = 1
	}
	if q.direct() {
		for g := range q.g {
			gemmBatched(q.n, fg, L, cg, w[g*fg*cg:], 0, cg, 1, img[g*cg*L:], q.c*L, L, 1, beta, out[g*fg*L:], q.f*L, L)
		}
		return
	}
	nb := q.chunk()
	cols := make([]E, nb*q.colLen())
	for n0 := 0; n0 < q.n; n0 += nb {
		n1 := min(n0+nb, q.n)
		im2col(cols, img, q, n0, n1)
		for g := range q.g {
			gemmBatched(n1-n0, fg, L, cg*K, w[g*fg*cg*K:], 0, cg*K, 1, cols[g*cg*K*L:], q.colLen(), L, 1,
				beta, out[(n0*q.f+g*fg)*L:], q.f*L, L)
		}
	}
}

// colsBackward computes img = col2im(weight^T @ cols) per group (the
// adjoint of colsForward without bias); img is overwritten.
func colsBackward[E float](img, cols, w []E, q *convGeom) {
	L := q.oh * q.ow
	K := q.kh * q.kw
	cg, fg := q.c/q.g, q.f/q.g
	if q.direct() {
		for g := range q.g {
			gemmBatched(q.n, cg, L, fg, w[g*fg*cg:], 0, 1, cg, cols[g*fg*L:], q.f*L, L, 1, 0, img[g*cg*L:], q.c*L, L)
		}
		return
	}
	if a, ok := q.adjoint(); ok && a.shifted() {
		shiftedConv(img, cols, w, nil, a, true)
		return
	}
	clear(img)
	nb := q.chunk()
	buf := make([]E, nb*q.colLen())
	for n0 := 0; n0 < q.n; n0 += nb {
		n1 := min(n0+nb, q.n)
		for g := range q.g {
			gemmBatched(n1-n0, cg*K, L, fg, w[g*fg*cg*K:], 0, 1, cg*K, cols[(n0*q.f+g*fg)*L:], q.f*L, L, 1,
				0, buf[g*cg*K*L:], q.colLen(), L)
		}
		col2im(img, buf, q, n0, n1)
	}
}

// colsWeightGrad computes gw [f, c/g * kh*kw] = sum over samples of cols
// [f, oh*ow] @ im2col(img)^T per group; gw is overwritten.
func colsWeightGrad[E float](gw, img, cols []E, q *convGeom) {
	L := q.oh * q.ow
	K := q.kh * q.kw
	cg, fg := q.c/q.g, q.f/q.g
	if q.n == 0 || L == 0 {
		clear(gw)
		return
	}
	if q.shifted() {
		shiftedWeightGrad(gw, img, cols, q)
		return
	}
	var buf []E
	if !q.direct() {
		buf = make([]E, q.colLen())
	}
	for n := range q.n {
		src := img[n*q.c*q.h*q.w:]
		if buf != nil {
			im2col(buf, img, q, n, n+1)
			src = buf
		}
		var beta E
		if n > 0 {
			beta = 1
		}
		for g := range q.g {
			gemmBatched(1, fg, cg*K, L, cols[(n*q.f+g*fg)*L:], 0, L, 1, src[g*cg*K*L:], 0, 1, L,
				beta, gw[g*fg*cg*K:], 0, cg*K)
		}
	}
}

// biasGrad sums g [n, f, L] over n and L into a length-f slice.
func biasGrad[E float](gb, g []E, n, f, L int) {
	clear(gb)
	for i := range n * f {
		var s E
		for _, v := range g[i*L:][:L] {
			s += v
		}
		gb[i%f] += s
	}
}

// convCheck validates a float 4-d input and weight of one dtype and
// returns them contiguous.
func convCheck(name string, ts ...*Tensor) ([]*Tensor, error) {
	out := make([]*Tensor, len(ts))
	for i, t := range ts {
		if t == nil {
			continue
		}
		if t.dtype != F32 && t.dtype != F64 {
			return nil, errorf(RuntimeError, "%s: expected a float32 or float64 tensor, got %s", name, t.dtype.TorchName())
		}
		if t.dtype != ts[0].dtype {
			return nil, errorf(RuntimeError, "%s: expected all tensors to have dtype %s, got %s", name, ts[0].dtype.TorchName(), t.dtype.TorchName())
		}
		out[i] = t.Contiguous()
	}
	return out, nil
}

func (p *ConvParams) valid(transposed bool) bool {
	for i := range 2 {
		if p.Stride[i] < 1 || p.Dilation[i] < 1 || p.Padding[i] < 0 || p.OutputPadding[i] < 0 {
			return false
		}
		if !transposed && p.OutputPadding[i] != 0 {
			return false
		}
	}
	return p.Groups >= 1
}

// convShapes checks a convolution's input x [N, C, H, W] and weight
// [F, C/groups, kh, kw] (transposed: [C, F/groups, kh, kw]) and returns
// the geometry (image side: the input of a convolution, the output of a
// transposed one).
func convShapes(name string, x, w *Tensor, p ConvParams, transposed bool) (*convGeom, error) {
	if x.Dim() != 4 || w.Dim() != 4 || !p.valid(transposed) {
		return nil, errorf(RuntimeError, "%s: expected 4-d input and weight and valid parameters, got input %s, weight %s", name, fmtList(x.shape), fmtList(w.shape))
	}
	g := p.Groups
	k := [2]int{w.shape[2], w.shape[3]}
	if !transposed {
		if w.shape[0]%g != 0 || w.shape[1]*g != x.shape[1] {
			return nil, errorf(RuntimeError, "%s: weight %s does not match input %s with groups=%d", name, fmtList(w.shape), fmtList(x.shape), g)
		}
		oh := ConvOutputSize(x.shape[2], k[0], p.Stride[0], p.Padding[0], p.Dilation[0])
		ow := ConvOutputSize(x.shape[3], k[1], p.Stride[1], p.Padding[1], p.Dilation[1])
		if oh < 1 || ow < 1 {
			return nil, errorf(RuntimeError, "%s: kernel %s does not fit input %s", name, fmtList(k[:]), fmtList(x.shape))
		}
		return newGeom(x.shape, w.shape[0], k, oh, ow, p), nil
	}
	if w.shape[0] != x.shape[1] || w.shape[0]%g != 0 {
		return nil, errorf(RuntimeError, "%s: weight %s does not match input %s with groups=%d", name, fmtList(w.shape), fmtList(x.shape), g)
	}
	var hw [2]int
	for i := range 2 {
		hw[i] = (x.shape[2+i]-1)*p.Stride[i] - 2*p.Padding[i] + p.Dilation[i]*(k[i]-1) + p.OutputPadding[i] + 1
		if hw[i] < 1 {
			return nil, errorf(RuntimeError, "%s: output size %d is too small", name, hw[i])
		}
	}
	return newGeom([]int{x.shape[0], w.shape[1] * g, hw[0], hw[1]}, x.shape[1], k, x.shape[2], x.shape[3], p), nil
}

// Conv2d returns the 2-d cross-correlation of x [N, C, H, W] with weight
// [F, C/groups, kh, kw] plus bias [F] (nil: none): out [N, F, oh, ow],
// oh = ConvOutputSize(H, kh, ...). F32 or F64, all of one dtype.
// Algorithm: im2col + batched GEMM (see the file comment).
func Conv2d(x, weight, bias *Tensor, p ConvParams) (*Tensor, error) {
	ts, err := convCheck("conv2d", x, weight, bias)
	if err != nil {
		return nil, err
	}
	q, err := convShapes("conv2d", ts[0], ts[1], p, false)
	if err != nil {
		return nil, err
	}
	if bias != nil && (bias.Dim() != 1 || bias.shape[0] != q.f) {
		return nil, errorf(RuntimeError, "conv2d: bias %s does not match %d output channels", fmtList(bias.shape), q.f)
	}
	if err := allocCheck(x.dtype, q.chunk()*q.colLen()); err != nil {
		return nil, err
	}
	out := empty([]int{q.n, q.f, q.oh, q.ow}, x.dtype)
	if out.Numel() == 0 {
		return out, nil
	}
	if x.dtype == F32 {
		colsForward(out.storage.F32(), ts[0].data32(), ts[1].data32(), ts[2].data32(), q)
	} else {
		colsForward(out.storage.F64(), ts[0].data64(), ts[1].data64(), ts[2].data64(), q)
	}
	return out, nil
}

// data32 and data64 return a contiguous tensor's elements (nil for nil).
func (t *Tensor) data32() []float32 {
	if t == nil {
		return nil
	}
	return t.storage.F32()[t.offset : t.offset+t.Numel()]
}

func (t *Tensor) data64() []float64 {
	if t == nil {
		return nil
	}
	return t.storage.F64()[t.offset : t.offset+t.Numel()]
}

// ConvTranspose2d returns the 2-d transposed convolution (the adjoint of
// Conv2d with respect to its input) of x [N, C, H, W] with weight
// [C, F/groups, kh, kw] plus bias [F] (nil: none): out [N, F, oh, ow],
// oh = (H-1)*stride - 2*padding + dilation*(kh-1) + output_padding + 1.
// Algorithm: GEMM weight^T @ x per group, then col2im.
func ConvTranspose2d(x, weight, bias *Tensor, p ConvParams) (*Tensor, error) {
	ts, err := convCheck("conv_transpose2d", x, weight, bias)
	if err != nil {
		return nil, err
	}
	q, err := convShapes("conv_transpose2d", ts[0], ts[1], p, true)
	if err != nil {
		return nil, err
	}
	if bias != nil && (bias.Dim() != 1 || bias.shape[0] != q.c) {
		return nil, errorf(RuntimeError, "conv_transpose2d: bias %s does not match %d output channels", fmtList(bias.shape), q.c)
	}
	if err := allocCheck(x.dtype, q.chunk()*q.colLen()); err != nil {
		return nil, err
	}
	out := empty([]int{q.n, q.c, q.h, q.w}, x.dtype)
	if out.Numel() == 0 {
		return out, nil
	}
	if x.dtype == F32 {
		o := out.storage.F32()
		colsBackward(o, ts[0].data32(), ts[1].data32(), q)
		addChannelBias(o, ts[2].data32(), q.n, q.c, q.h*q.w)
	} else {
		o := out.storage.F64()
		colsBackward(o, ts[0].data64(), ts[1].data64(), q)
		addChannelBias(o, ts[2].data64(), q.n, q.c, q.h*q.w)
	}
	return out, nil
}

func addChannelBias[E float](out, bias []E, n, c, L int) {
	if bias == nil {
		return
	}
	for i := range n * c {
		v := bias[i%c]
		row := out[i*L:][:L]
		for j := range row {
			row[j] += v
		}
	}
}

// ConvBackward returns the gradients of Conv2d (transposed false) or
// ConvTranspose2d (transposed true) with respect to x, weight and bias,
// given the output gradient gout (the forward's output shape); each is
// computed only when its need flag is set (nil otherwise). x, weight and
// gout must be of one float dtype (F32 or F64).
// Algorithm: for a convolution, gx = col2im(weight^T @ gout), gw = sum
// over samples of gout @ im2col(x)^T, gb = gout summed over N, H, W; for
// a transposed convolution the image and column sides swap.
func ConvBackward(x, weight, gout *Tensor, p ConvParams, transposed, needX, needW, needB bool) (gx, gw, gb *Tensor, err error) {
	name := "convolution_backward"
	ts, err := convCheck(name, x, weight, gout)
	if err != nil {
		return nil, nil, nil, err
	}
	x, weight, gout = ts[0], ts[1], ts[2]
	q, err := convShapes(name, x, weight, p, transposed)
	if err != nil {
		return nil, nil, nil, err
	}
	img, col := x, gout // the image and column sides
	outShape := []int{q.n, q.f, q.oh, q.ow}
	if transposed {
		img, col = gout, x
		outShape = []int{q.n, q.c, q.h, q.w}
	}
	if !shapeEq(gout.shape, outShape) {
		return nil, nil, nil, errorf(RuntimeError, "%s: grad_output %s, expected %s", name, fmtList(gout.shape), fmtList(outShape))
	}
	if err := allocCheck(x.dtype, q.chunk()*q.colLen()); err != nil {
		return nil, nil, nil, err
	}
	dt := x.dtype
	if needX {
		gx = empty(x.shape, dt)
	}
	if needW {
		gw = empty(weight.shape, dt)
	}
	if needB {
		gb = empty([]int{gout.shape[1]}, dt)
	}
	run := func(f32 bool) {
		if f32 {
			convBackwardT(q, transposed, img.data32(), col.data32(), weight.data32(), gx.data32(), gw.data32(), gb.data32(), gout.data32(), gout.shape)
		} else {
			convBackwardT(q, transposed, img.data64(), col.data64(), weight.data64(), gx.data64(), gw.data64(), gb.data64(), gout.data64(), gout.shape)
		}
	}
	run(dt == F32)
	return gx, gw, gb, nil
}

func convBackwardT[E float](q *convGeom, transposed bool, img, col, w, gx, gw, gb, gout []E, gshape []int) {
	if gx != nil {
		if transposed {
			colsForward(gx, img, w, nil, q) // gout is the image side
		} else {
			colsBackward(gx, col, w, q) // gout is the column side
		}
	}
	if gw != nil {
		colsWeightGrad(gw, img, col, q)
	}
	if gb != nil {
		biasGrad(gb, gout, gshape[0], gshape[1], gshape[2]*gshape[3])
	}
}

// Im2Col returns the sliding blocks (torch.nn.functional.unfold) of x
// [N, C, H, W] for a kernel (kh, kw): [N, C*kh*kw, L], L = oh*ow the
// number of block positions (ConvOutputSize per dim), row (c, ki, kj)
// holding channel c at tap (ki, kj), zero in the padding. Stride,
// Padding and Dilation of p are used. F32 or F64.
func Im2Col(x *Tensor, kernel [2]int, p ConvParams) (*Tensor, error) {
	ts, err := convCheck("im2col", x)
	if err != nil {
		return nil, err
	}
	x = ts[0]
	p.Groups = 1
	if x.Dim() != 4 || kernel[0] < 1 || kernel[1] < 1 || !p.valid(false) {
		return nil, errorf(RuntimeError, "im2col: expected 4-d input and positive kernel, got %s", fmtList(x.shape))
	}
	oh := ConvOutputSize(x.shape[2], kernel[0], p.Stride[0], p.Padding[0], p.Dilation[0])
	ow := ConvOutputSize(x.shape[3], kernel[1], p.Stride[1], p.Padding[1], p.Dilation[1])
	if oh < 1 || ow < 1 {
		return nil, errorf(RuntimeError, "im2col: kernel %s does not fit input %s", fmtList(kernel[:]), fmtList(x.shape))
	}
	q := newGeom(x.shape, 0, kernel, oh, ow, p)
	out := empty([]int{q.n, q.c * q.kh * q.kw, oh * ow}, x.dtype)
	if out.Numel() == 0 {
		return out, nil
	}
	if x.dtype == F32 {
		im2col(out.storage.F32(), x.data32(), q, 0, q.n)
	} else {
		im2col(out.storage.F64(), x.data64(), q, 0, q.n)
	}
	return out, nil
}

// Col2Im sums sliding blocks back into an image (torch.nn.functional.fold,
// the adjoint of Im2Col): cols [N, C*kh*kw, L] with L = oh*ow for the
// image size outSize (H, W) gives [N, C, H, W]. F32 or F64.
func Col2Im(cols *Tensor, outSize, kernel [2]int, p ConvParams) (*Tensor, error) {
	ts, err := convCheck("col2im", cols)
	if err != nil {
		return nil, err
	}
	cols = ts[0]
	p.Groups = 1
	K := kernel[0] * kernel[1]
	if cols.Dim() != 3 || kernel[0] < 1 || kernel[1] < 1 || !p.valid(false) || cols.shape[1]%K != 0 {
		return nil, errorf(RuntimeError, "col2im: expected 3-d input [N, C*kh*kw, L], got %s", fmtList(cols.shape))
	}
	oh := ConvOutputSize(outSize[0], kernel[0], p.Stride[0], p.Padding[0], p.Dilation[0])
	ow := ConvOutputSize(outSize[1], kernel[1], p.Stride[1], p.Padding[1], p.Dilation[1])
	if oh < 1 || ow < 1 || oh*ow != cols.shape[2] {
		return nil, errorf(RuntimeError, "col2im: %d blocks do not match output size %s", cols.shape[2], fmtList(outSize[:]))
	}
	q := newGeom([]int{cols.shape[0], cols.shape[1] / K, outSize[0], outSize[1]}, 0, kernel, oh, ow, p)
	out := zeros([]int{q.n, q.c, q.h, q.w}, cols.dtype)
	if out.Numel() == 0 {
		return out, nil
	}
	if cols.dtype == F32 {
		col2im(out.storage.F32(), cols.data32(), q, 0, q.n)
	} else {
		col2im(out.storage.F64(), cols.data64(), q, 0, q.n)
	}
	return out, nil
}
