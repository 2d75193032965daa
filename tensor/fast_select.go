package tensor

import (
	"bytes"
	"unsafe"
)

// Typed loops for comparisons against a scalar, where(cond, a, b) and
// all/any over bool tensors: the generic kernels call a closure per
// element and walk broadcast operands stride by stride.

// fastCmpScalar computes out = x OP s for a comparison op when out and x
// share one dense layout and y is a broadcast single element (x > 0),
// or the mirrored case (0 < x). It reports false otherwise.
func fastCmpScalar[T num](op binOp, out, a, b *Tensor, x, y []T) bool {
	if !fastPathsOn() || out.Numel() == 0 {
		return false
	}
	o := out.storage.Bools()
	n := out.Numel()
	switch {
	case allZero(b.strides, b.shape) && linearLayout(out, a):
		cmpScalarLoop(op, o[out.offset:out.offset+n], x[a.offset:a.offset+n], y[b.offset])
	case allZero(a.strides, a.shape) && linearLayout(out, b):
		// s OP v is v OP' s with the operands swapped
		cmpScalarLoop(swapCmp(op), o[out.offset:out.offset+n], y[b.offset:b.offset+n], x[a.offset])
	default:
		return false
	}
	return true
}

// swapCmp returns the comparison OP' with s OP v == v OP' s.
func swapCmp(op binOp) binOp {
	switch op {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return op // eq, ne
}

func cmpScalarLoop[T num](op binOp, o []bool, x []T, s T) {
	parallelFor(len(o), func(lo, hi int) {
		o, x := o[lo:hi], x[lo:hi:hi]
		x = x[:len(o)]
		switch op {
		case opEq:
			for i, v := range x {
				o[i] = v == s
			}
		case opNe:
			for i, v := range x {
				o[i] = v != s
			}
		case opLt:
			for i, v := range x {
				o[i] = v < s
			}
		case opLe:
			for i, v := range x {
				o[i] = v <= s
			}
		case opGt:
			for i, v := range x {
				o[i] = v > s
			}
		default:
			for i, v := range x {
				o[i] = v >= s
			}
		}
	})
}

// whereOperand reports how a where operand maps onto out: a single
// element (scalar), or out's dense layout (linear); ok false otherwise.
func whereOperand(out, t *Tensor) (scalar, ok bool) {
	if t.Numel() == 1 {
		return true, true
	}
	return false, shapeEq(t.shape, out.shape) && linearLayout(out, t)
}

// fastWhere sets out = cond ? a : b when cond shares out's dense layout
// and a and b (in out's dtype, broadcast to its shape) each share it or
// are a single element: one branch-free select per element, by element
// bits. It reports false otherwise.
func fastWhere(out, cond, a, b *Tensor) bool {
	if !fastPathsOn() || out.Numel() == 0 || a.dtype != out.dtype || b.dtype != out.dtype {
		return false
	}
	if sc, ok := whereOperand(out, cond); sc || !ok {
		return false
	}
	as, aok := whereOperand(out, a)
	bs, bok := whereOperand(out, b)
	if !aok || !bok {
		return false
	}
	m := cond.storage.U8()[cond.offset:]
	switch out.dtype.ItemSize() {
	case 1:
		whereLoop(typed[uint8](out.storage), m, typed[uint8](a.storage), typed[uint8](b.storage), out, a, b, as, bs)
	case 2:
		whereLoop(typed[uint16](out.storage), m, typed[uint16](a.storage), typed[uint16](b.storage), out, a, b, as, bs)
	case 4:
		whereLoop(typed[uint32](out.storage), m, typed[uint32](a.storage), typed[uint32](b.storage), out, a, b, as, bs)
	case 8:
		whereLoop(typed[uint64](out.storage), m, typed[uint64](a.storage), typed[uint64](b.storage), out, a, b, as, bs)
	default:
		return false
	}
	return true
}

func whereLoop[T uint8 | uint16 | uint32 | uint64](o []T, m []uint8, x, y []T, out, a, b *Tensor, as, bs bool) {
	n := out.Numel()
	o = o[out.offset : out.offset+n]
	m = m[:n]
	ao, bo := a.offset, b.offset
	if as {
		ao = a.flatOffset(0)
	}
	if bs {
		bo = b.flatOffset(0)
	}
	parallelFor(n, func(lo, hi int) {
		oo, mm := o[lo:hi], m[lo:hi]
		switch {
		case !as && !bs:
			xx, yy := x[ao+lo:ao+hi], y[bo+lo:bo+hi]
			for i := range oo {
				v, w := xx[i], yy[i]
				if mm[i] == 0 {
					v = w
				}
				oo[i] = v
			}
		case !as:
			xx, w := x[ao+lo:ao+hi], y[bo]
			for i := range oo {
				v := xx[i]
				if mm[i] == 0 {
					v = w
				}
				oo[i] = v
			}
		case !bs:
			v, yy := x[ao], y[bo+lo:bo+hi]
			for i := range oo {
				w := yy[i]
				if mm[i] != 0 {
					w = v
				}
				oo[i] = w
			}
		default:
			v, w := x[ao], y[bo]
			for i := range oo {
				r := v
				if mm[i] == 0 {
					r = w
				}
				oo[i] = r
			}
		}
	})
}

// fastAllAny reduces a bool tensor with all (or any) over a block of
// consecutive dims (blockLayout): rows are scanned for a zero (all) or
// nonzero (any) byte with early exit, columns combined row by row.
// It returns nil when no fast path applies.
func fastAllAny(t *Tensor, p *reducePlan, all bool) *Tensor {
	if t.dtype != Bool {
		return nil
	}
	outer, r, inner, ok := blockLayout(t, p.red)
	if !ok {
		return nil
	}
	out := empty(p.outShape, Bool)
	d := out.storage.U8()
	x := t.storage.U8()[t.offset:]
	if inner == 1 {
		for o := 0; o < outer; o++ {
			row := x[o*r : (o+1)*r]
			if all {
				d[o] = b2u8(bytes.IndexByte(row, 0) < 0)
			} else {
				d[o] = b2u8(anyNonzero(row))
			}
		}
		return out
	}
	for o := 0; o < outer; o++ {
		dd := d[o*inner : (o+1)*inner]
		copy(dd, x[o*r*inner:o*r*inner+inner])
		for i := 1; i < r; i++ {
			row := x[(o*r+i)*inner : (o*r+i+1)*inner]
			if all {
				for j, v := range row {
					dd[j] &= v
				}
			} else {
				for j, v := range row {
					dd[j] |= v
				}
			}
		}
	}
	return out
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// anyNonzero reports whether some byte of b is nonzero, eight at a time.
func anyNonzero(b []byte) bool {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		p := unsafe.Pointer(&b[i])
		w := *(*uint64)(p) | *(*uint64)(unsafe.Add(p, 8)) | *(*uint64)(unsafe.Add(p, 16)) | *(*uint64)(unsafe.Add(p, 24))
		if w != 0 {
			return true
		}
	}
	for ; i < len(b); i++ {
		if b[i] != 0 {
			return true
		}
	}
	return false
}
