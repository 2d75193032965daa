package tensor

import (
	"runtime"

	"github.com/tsrlang/tsr/backends/cpu"
)

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
//
// The kw taps of one kernel row are stacked along the GEMM's rows: per
// kernel row ki and group, Z[(kj, o), l] += W[o, :, ki, kj] @ xp[:, ki*dh*wp
// + l], a GEMM of kw*f/g rows (for a 3-wide kernel a multiple of the
// micro-kernel's 12 rows whenever f/g is a multiple of 4, where f/g rows
// alone would leave a partial register tile), and then out[o, l] = sum
// over kj of Z[(kj, o), l + kj*dw], which also drops the discarded
// columns. The output rows are processed in blocks so that Z stays in L2.
func shiftedConv[E float](out, img, w, bias []E, q *convGeom, adj bool) {
	kw := q.kw
	cg, fg := q.c/q.g, q.f/q.g
	wt := tapWeights(w, q, adj)
	// wk[ki][g][kj][o][i]: the rows of one kernel row's GEMM per group.
	wk := make([]E, len(wt))
	for t := range q.kh * kw {
		ki, kj := t/kw, t%kw
		for o := range q.f {
			g, fo := o/fg, o%fg
			copy(wk[((((ki*q.g+g)*kw+kj)*fg)+fo)*cg:][:cg], wt[(t*q.f+o)*cg:][:cg])
		}
	}
	wp := q.w + 2*q.pw
	plane := (q.h + 2*q.ph) * wp
	ext := (kw - 1) * q.dw // extra Z columns for the kj shifts
	// Blocks of rb output rows: about 1024 Z columns each.
	nblk := max(1, (q.oh*wp+512)/1024)
	rb := (q.oh + nblk - 1) / nblk
	ldz := (rb-1)*wp + q.ow + ext
	zrows := kw * q.f
	L := q.oh * q.ow
	nb := q.shiftedChunk()
	xp := make([]E, nb*q.c*plane)
	z := make([]E, nb*zrows*ldz)
	for n0 := 0; n0 < q.n; n0 += nb {
		n1 := min(n0+nb, q.n)
		padImage(xp, img, q, n0, n1)
		for y0 := 0; y0 < q.oh; y0 += rb {
			y1 := min(y0+rb, q.oh)
			nz := (y1-y0-1)*wp + q.ow + ext
			for ki := range q.kh {
				var beta E
				if ki > 0 {
					beta = 1
				}
				for g := range q.g {
					gemmBatched(n1-n0, kw*fg, nz, cg, wk[(ki*q.g+g)*kw*fg*cg:], 0, cg, 1,
						xp[g*cg*plane+ki*q.dh*wp+y0*wp:], q.c*plane, plane, 1, beta, z[g*kw*fg*ldz:], zrows*ldz, ldz)
				}
			}
			parallelChunks((n1-n0)*q.f, (n1-n0)*q.f*(y1-y0)*q.ow*kw, func(lo, hi int) {
				for sf := lo; sf < hi; sf++ {
					s, o := sf/q.f, sf%q.f
					g, fo := o/fg, o%fg
					zs := z[(s*zrows+g*kw*fg+fo)*ldz:]
					n := nz - ext
					shiftAdd(zs[:n], zs, ldz*fg, q.dw, kw)
					if bias != nil {
						addScalar(zs[:n], bias[o])
					}
					dst := out[(n0*q.f+sf)*L:][:L]
					for y := y0; y < y1; y++ {
						copy(dst[y*q.ow:][:q.ow], zs[(y-y0)*wp:][:q.ow])
					}
				}
			})
		}
	}
}

// shiftAdd adds to d (the Z row of kj = 0) the Z rows of 0 < kj < kw,
// shifted by kj*dw: d[x] += z[kj*(rs + dw) + x] (rs: Z's stride between
// the kj blocks of one output channel).
func shiftAdd[E float](d, z []E, rs, dw, kw int) {
	n := len(d)
	for kj := 1; kj < kw; kj++ {
		src := z[kj*(rs+dw):][:n]
		switch d := any(d).(type) {
		case []float32:
			cpu.AddF32(d, d, any(src).([]float32))
		case []float64:
			cpu.AddF64(d, d, any(src).([]float64))
		}
	}
}

// addScalar adds s to every element of d.
func addScalar[E float](d []E, s E) {
	switch d := any(d).(type) {
	case []float32:
		cpu.AddScalarF32(d, d, float32(s))
	case []float64:
		cpu.AddScalarF64(d, d, float64(s))
	}
}

// shiftedWeightGrad computes gw [f, c/g, kh, kw] = sum over samples of the
// products of gout [n, f, oh, ow] with the input img [n, c, h, w] under
// every kernel tap, for a convolution q with q.shifted(): per sample,
// kernel row ki and group, G[(kj, o), l] @ xp[:, ki*dh*wp + l]^T, where G
// holds gout on shiftedConv's grid of wp columns shifted right by kj*dw
// (zero elsewhere), a GEMM of kw*f/g rows, c/g columns and inner dimension
// the grid size, summed over samples (without an im2col buffer).
func shiftedWeightGrad[E float](gw, img, gout []E, q *convGeom) {
	kw, K := q.kw, q.kh*q.kw
	cg, fg := q.c/q.g, q.f/q.g
	wp := q.w + 2*q.pw
	plane := (q.h + 2*q.ph) * wp
	ext := (kw - 1) * q.dw
	nz := (q.oh-1)*wp + q.ow + ext
	L := q.oh * q.ow
	zrows := kw * q.f
	xp := make([]E, q.c*plane)
	gs := make([]E, zrows*nz)
	acc := make([]E, q.kh*zrows*cg) // [ki][g][kj][o][i]
	for n := range q.n {
		padImage(xp, img, q, n, n+1)
		parallelChunks(zrows, zrows*nz, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				// row r = (g, kj, fo) of G.
				g, kj, fo := r/(kw*fg), r/fg%kw, r%fg
				row := gs[r*nz:][:nz]
				src := gout[(n*q.f+g*fg+fo)*L:][:L]
				clear(row)
				for y := range q.oh {
					copy(row[y*wp+kj*q.dw:][:q.ow], src[y*q.ow:][:q.ow])
				}
			}
		})
		var beta E
		if n > 0 {
			beta = 1
		}
		for ki := range q.kh {
			for g := range q.g {
				gemmBatched(1, kw*fg, cg, nz, gs[g*kw*fg*nz:], 0, nz, 1,
					xp[g*cg*plane+ki*q.dh*wp:], 0, 1, plane, beta, acc[(ki*q.g+g)*kw*fg*cg:], 0, cg)
			}
		}
	}
	for ki := range q.kh {
		for g := range q.g {
			for kj := range kw {
				for fo := range fg {
					src := acc[(((ki*q.g+g)*kw+kj)*fg+fo)*cg:][:cg]
					t := ki*kw + kj
					for i, v := range src {
						gw[((g*fg+fo)*cg+i)*K+t] = v
					}
				}
			}
		}
	}
}
