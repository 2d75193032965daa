package tensor

import "runtime"

// Stride-1 convolutions without a column buffer ("shifted views", the
// implicit-GEMM idea of cuDNN's IMPLICIT_GEMM and of Vasudevan et al.,
// "Parallel Multi Channel Convolution using General Matrix
// Multiplication", 2017). The input of one sample is copied once into a
// zero-padded buffer xp [c, hp, wp] (hp = h + 2*ph, wp = w + 2*pw). The
// output is computed on a grid of oh rows of wp columns, of which the
// first ow are the output and the rest are discarded: output pixel
// l = y*wp + x reads, for the kernel tap (ki, kj), the padded input at
// l + ki*dh*wp + kj*dw, so the input rows of one tap are the padded planes
// shifted by a constant, a row-major matrix [c, oh*wp] with row stride
// hp*wp. A convolution is then, per tap t and group,
//
//	out[f, l] += W_t[f, c] @ xp[c, off_t + l]
//
// kh*kw GEMMs of inner dimension c/groups that read xp in place (the GEMM
// driver packs its panels from it), instead of one GEMM of inner dimension
// c/groups*kh*kw over an im2col buffer kh*kw times the input's size. The
// wasted work is the (wp - ow) discarded columns per row. im2col + GEMM
// stays the path for strided convolutions, few channels per group (each
// tap's GEMM would be too thin) and narrow images.

// shiftedMinChannels is the fewest input channels per group for which the
// shifted path is used (a variable so tests can force either path).
var shiftedMinChannels = 16

// shifted reports whether the convolution q runs on the shifted path:
// unit stride, a kernel larger than 1x1 (or padding), at least
// shiftedMinChannels input channels per group, and at most a quarter of
// the computed columns discarded.
func (q *convGeom) shifted() bool {
	wp := q.w + 2*q.pw
	return q.sh == 1 && q.sw == 1 && !q.direct() && q.n > 0 &&
		q.c/q.g >= shiftedMinChannels && 4*q.ow >= 3*wp
}

// adjoint returns the geometry of the convolution that computes the
// adjoint of q with respect to its input (the input gradient, or a
// transposed convolution) when q has unit stride: the column side
// [n, f, oh, ow] convolved with the weight flipped in both spatial dims
// and with its two channel dims swapped, with padding dil*(k-1) - pad.
// ok is false for other strides, for padding larger than dil*(k-1), or
// when that convolution's output is not [n, c, h, w].
func (q *convGeom) adjoint() (a *convGeom, ok bool) {
	if q.sh != 1 || q.sw != 1 {
		return nil, false
	}
	ph, pw := q.dh*(q.kh-1)-q.ph, q.dw*(q.kw-1)-q.pw
	if ph < 0 || pw < 0 ||
		ConvOutputSize(q.oh, q.kh, 1, ph, q.dh) != q.h || ConvOutputSize(q.ow, q.kw, 1, pw, q.dw) != q.w {
		return nil, false
	}
	return &convGeom{n: q.n, c: q.f, h: q.oh, w: q.ow, f: q.c, oh: q.h, ow: q.w,
		kh: q.kh, kw: q.kw, sh: 1, sw: 1, ph: ph, pw: pw, dh: q.dh, dw: q.dw, g: q.g}, true
}

// tapWeights returns the weight of q tap-major, wt[(t*f + o)*cg + i] for
// tap t, output channel o and input channel i of o's group (cg = c/g).
// With adj, w is the weight of the convolution q is the adjoint of
// ([q.c, q.f/g, kh, kw]), flipped in both spatial dims.
func tapWeights[E float](w []E, q *convGeom, adj bool) []E {
	K := q.kh * q.kw
	cg, fg := q.c/q.g, q.f/q.g
	wt := make([]E, K*q.f*cg)
	for o := range q.f {
		for i := range cg {
			var src []E
			if adj {
				// original filter gi*cg + i, its input channel o%fg.
				gi := o / fg
				src = w[((gi*cg+i)*fg+o%fg)*K:][:K]
			} else {
				src = w[(o*cg+i)*K:][:K]
			}
			for t, v := range src {
				if adj {
					t = K - 1 - t
				}
				wt[(t*q.f+o)*cg+i] = v
			}
		}
	}
	return wt
}

// shiftedChunk is how many samples shiftedConv and shiftedWeightGrad
// process at once: one per GEMM thread (the batched GEMM splits over them).
func (q *convGeom) shiftedChunk() int { return max(1, min(q.n, runtime.GOMAXPROCS(0))) }

// padImage copies samples [n0, n1) of img [n, c, h, w] into xp as
// [n1-n0, c, h+2*ph, w+2*pw] with zero borders.
func padImage[E float](xp, img []E, q *convGeom, n0, n1 int) {
	hp, wp := q.h+2*q.ph, q.w+2*q.pw
	plane := hp * wp
	parallelChunks((n1-n0)*q.c, (n1-n0)*q.c*plane, func(lo, hi int) {
		for sc := lo; sc < hi; sc++ {
			dst := xp[sc*plane:][:plane]
			src := img[(n0*q.c+sc)*q.h*q.w:][:q.h*q.w]
			clear(dst[:q.ph*wp+q.pw])
			for y := range q.h {
				d := dst[(y+q.ph)*wp+q.pw:]
				copy(d[:q.w], src[y*q.w:][:q.w])
				if y < q.h-1 {
					clear(d[q.w : q.w+2*q.pw])
				}
			}
			clear(dst[(q.h+q.ph)*wp-q.pw:])
		}
	})
}

// shiftedConv computes out [n, f, oh, ow] = the convolution q of img
// [n, c, h, w] with weight w plus bias (length f, nil: none), on the
// shifted path (see above; q.shifted() must hold). With adj, w is the
// weight of the convolution q is the adjoint of (see tapWeights).
func shiftedConv[E float](out, img, w, bias []E, q *convGeom, adj bool) {
	K := q.kh * q.kw
	cg, fg := q.c/q.g, q.f/q.g
	wt := tapWeights(w, q, adj)
	wp := q.w + 2*q.pw
	plane := (q.h + 2*q.ph) * wp
	ln := (q.oh-1)*wp + q.ow // computed columns (the last row's tail is not needed)
	ld := q.oh * wp          // row stride of the scratch output
	L := q.oh * q.ow
	nb := q.shiftedChunk()
	xp := make([]E, nb*q.c*plane)
	tmp := make([]E, nb*q.f*ld)
	for n0 := 0; n0 < q.n; n0 += nb {
		n1 := min(n0+nb, q.n)
		padImage(xp, img, q, n0, n1)
		for t := range K {
			off := t/q.kw*q.dh*wp + t%q.kw*q.dw
			var beta E
			if t > 0 {
				beta = 1
			}
			for g := range q.g {
				gemmBatched(n1-n0, fg, ln, cg, wt[(t*q.f+g*fg)*cg:], 0, cg, 1,
					xp[g*cg*plane+off:], q.c*plane, plane, 1, beta, tmp[g*fg*ld:], q.f*ld, ld)
			}
		}
		parallelChunks((n1-n0)*q.f, (n1-n0)*q.f*L, func(lo, hi int) {
			for sf := lo; sf < hi; sf++ {
				dst := out[(n0*q.f+sf)*L:][:L]
				src := tmp[sf*ld:][:ld]
				var b E
				if bias != nil {
					b = bias[sf%q.f]
				}
				for y := range q.oh {
					d, s := dst[y*q.ow:][:q.ow], src[y*wp:][:q.ow]
					if bias == nil {
						copy(d, s)
						continue
					}
					for x, v := range s {
						d[x] = v + b
					}
				}
			}
		})
	}
}
