package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// packTKernel emits the AVX-512 transposing GEMM packer for panels of
// width w (a compile-time constant: the kernel's MR or NR)
//
//	func packTwNAME(dst *T, src *T, js, rows int)
//
// which sets dst[p*w + j] = src[j*js + p] for p < rows (rows a multiple
// of the vector length L) and j < w: the packed panel of a source whose
// elements are contiguous along the panel's k dimension (a transposed B,
// as in x @ w.t(), or a row-major A packed for the GotoBLAS order). It
// loads L contiguous k values of L source columns, transposes the L×L
// block in registers (unpack, then VSHUFF32X4/VSHUFF64X2 rounds) and
// stores L packed rows: no gathers. Columns j >= w of the last group are
// neither read nor stored.
func packTKernel(t vt, w int) {
	L := t.lanes
	name := fmt.Sprintf("packT%d%s", w, t.sfx)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst *%s, src *%s, js, rows int)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s packs rows (a multiple of %d) k steps of a %d-wide GEMM panel from a source contiguous along k: dst[p*%d+j] = src[j*js+p].", name, L, w, w))
	shift := Imm(2)
	if t.f64 {
		shift = Imm(3)
	}
	dst0 := Load(Param("dst"), GP64())
	src0 := Load(Param("src"), GP64())
	jsb := Load(Param("js"), GP64())
	SHLQ(shift, jsb)
	js3 := GP64()
	LEAQ(Mem{Base: jsb, Index: jsb, Scale: 2}, js3)
	rows0 := Load(Param("rows"), GP64())

	for g := 0; g*L < w; g++ {
		cols := min(L, w-g*L) // live columns in this group
		lbl := fmt.Sprintf("%s_g%d", name, g)
		// bases[q] addresses columns g*L + 4q .. 4q+3
		nb := (cols + 3) / 4
		bases := make([]reg.Register, nb)
		for q := range bases {
			bases[q] = GP64()
			switch {
			case q == 0 && g == 0:
				MOVQ(src0, bases[0])
			case q == 0:
				IMUL3Q(Imm(uint64(g*L)), jsb, bases[0])
				ADDQ(src0, bases[0])
			default:
				LEAQ(Mem{Base: bases[q-1], Index: jsb, Scale: 4}, bases[q])
			}
		}
		d := GP64()
		LEAQ(Mem{Base: dst0, Disp: g * L * t.es}, d)
		n := GP64()
		MOVQ(rows0, n)
		var km reg.Register
		if cols < L {
			km = K()
			m := GP32()
			MOVL(U32(uint64(1)<<uint(cols)-1), m)
			KMOVW(m, km)
		}
		Label(lbl)
		CMPQ(n, U32(L))
		JL(LabelRef(lbl + "_done"))
		v := make([]reg.VecVirtual, L)
		for j := range v {
			v[j] = t.vec()
			if j >= cols {
				t.zero(v[j])
				continue
			}
			t.load(strided4(bases[j/4], jsb, js3, j%4, 0), v[j])
		}
		r := transposeBlock(t, v)
		for p := range r {
			m := Mem{Base: d, Disp: p * w * t.es}
			if km != nil {
				storeMasked(t, r[p], km, m)
			} else {
				t.store(r[p], m)
			}
		}
		for _, b := range bases {
			ADDQ(U32(L*t.es), b)
		}
		ADDQ(U32(L*w*t.es), d)
		SUBQ(U32(L), n)
		JMP(LabelRef(lbl))
		Label(lbl + "_done")
	}
	VZEROUPPER()
	RET()
}

// transposeBlock transposes the L×L block whose row i is v[i] and returns
// its rows: out[j] lane i = v[i] lane j. Stage 1 interleaves pairs of rows
// (VUNPCKLPS/HPS, or PD for f64); for f32 stage 2 interleaves pairs of
// 64-bit elements; the last two stages move 128-bit lanes with VSHUFF32X4
// (imm 0x88 takes lanes 0 and 2 of each source, 0xDD lanes 1 and 3).
func transposeBlock(t vt, v []reg.VecVirtual) []reg.VecVirtual {
	L := len(v)
	unpack := func(hi bool, a, b reg.VecVirtual, pd bool) reg.VecVirtual {
		o := t.vec()
		switch {
		case pd && hi:
			VUNPCKHPD(b, a, o)
		case pd:
			VUNPCKLPD(b, a, o)
		case hi:
			VUNPCKHPS(b, a, o)
		default:
			VUNPCKLPS(b, a, o)
		}
		return o
	}
	shuf := func(imm uint64, a, b reg.VecVirtual) reg.VecVirtual {
		o := t.vec()
		if t.f64 {
			VSHUFF64X2(Imm(imm), b, a, o)
		} else {
			VSHUFF32X4(Imm(imm), b, a, o)
		}
		return o
	}
	// stage is one 128-bit round: within blocks of 2d vectors, out[h+c] =
	// shuf88(in[h+c], in[h+c+d]) and out[h+c+d] = shufDD(in[h+c], in[h+c+d]).
	stage := func(in []reg.VecVirtual, d int) []reg.VecVirtual {
		out := make([]reg.VecVirtual, L)
		for h := 0; h < L; h += 2 * d {
			for c := 0; c < d; c++ {
				out[h+c] = shuf(0x88, in[h+c], in[h+c+d])
				out[h+c+d] = shuf(0xDD, in[h+c], in[h+c+d])
			}
		}
		return out
	}
	// Stage 1: pairs (2i, 2i+1) -> t[2i] = lo, t[2i+1] = hi.
	s := make([]reg.VecVirtual, L)
	for i := 0; i < L; i += 2 {
		s[i] = unpack(false, v[i], v[i+1], t.f64)
		s[i+1] = unpack(true, v[i], v[i+1], t.f64)
	}
	if !t.f64 {
		// Stage 2 (f32): within each group of 4 rows, 64-bit interleave:
		// r[4q+0] = lo(s[4q], s[4q+2]), r[4q+1] = hi(s[4q], s[4q+2]),
		// r[4q+2] = lo(s[4q+1], s[4q+3]), r[4q+3] = hi(s[4q+1], s[4q+3]).
		r := make([]reg.VecVirtual, L)
		for q := 0; q < L; q += 4 {
			r[q] = unpack(false, s[q], s[q+2], true)
			r[q+1] = unpack(true, s[q], s[q+2], true)
			r[q+2] = unpack(false, s[q+1], s[q+3], true)
			r[q+3] = unpack(true, s[q+1], s[q+3], true)
		}
		// r[4q+c] holds column c (mod 4) of rows 4q..4q+3 in each 128-bit
		// lane; two 128-bit rounds finish the transpose.
		return stage(stage(r, 4), 8)
	}
	// f64: s[2i] = rows 2i,2i+1 at even columns, s[2i+1] at odd columns;
	// two 128-bit rounds finish the transpose.
	return stage(stage(s, 2), 4)
}

// addRowsKernel emits
//
//	func addRows128T(acc *T, x *T, ldx int, rows int)
//
// acc[l] += x[r*ldx+l] for r < rows, l < W (W = 128 bytes of T: 32 float32
// or 16 float64; ldx in elements: W for contiguous rows, a row stride to
// sum W columns down a matrix), rows in order: the lane-wise level-0
// accumulation of PyTorch's sum (cpu.SumTorchF32/F64), held in
// 128/vector-bytes registers.
func addRowsKernel(t vt) {
	name := "addRows128" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(acc *%s, x *%s, ldx int, rows int)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s adds rows rows of 128 bytes of x, ldx elements apart, into acc, lane by lane, row by row.", name))
	accp := Load(Param("acc"), GP64())
	xp := Load(Param("x"), GP64())
	ld := Load(Param("ldx"), GP64())
	n := Load(Param("rows"), GP64())
	shiftElems(t, ld)
	nv := 128 / t.vbytes()
	a := make([]reg.VecVirtual, nv)
	for v := range a {
		a[v] = t.vec()
		t.load(Mem{Base: accp, Disp: v * t.vbytes()}, a[v])
	}
	Label(name + "_loop")
	TESTQ(n, n)
	JE(LabelRef(name + "_done"))
	for v := range a {
		t.bin("add", Mem{Base: xp, Disp: v * t.vbytes()}, a[v], a[v])
	}
	ADDQ(ld, xp)
	DECQ(n)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	for v := range a {
		t.store(a[v], Mem{Base: accp, Disp: v * t.vbytes()})
	}
	VZEROUPPER()
	RET()
}

// shiftElems turns an element count in r into bytes.
func shiftElems(t vt, r reg.Register) {
	if t.f64 {
		SHLQ(Imm(3), r)
	} else {
		SHLQ(Imm(2), r)
	}
}

// addRows4Kernel emits
//
//	func addRows128x4T(acc *T, x *T, stride, ldx, rows, fresh int)
//
// addRows128T for four lane groups at once: acc[q*32+l] +=
// x[q*stride+r*ldx+l] for q < 4, r < rows, l < W (acc holds four [32]T
// lane arrays, cpu's [4][rowsMax]T; stride and ldx in elements), starting
// from +0 instead of acc's values when fresh != 0 (acc is then only
// written). The groups are four rows of a last-dim sum (stride = the row
// length, ldx = W) or four adjacent W-column groups of a sum down a
// matrix (stride = W, ldx = the row stride). The four lane-wise chains are
// independent, so their additions overlap where one chain alone waits on
// the add latency.
func addRows4Kernel(t vt) {
	name := "addRows128x4" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(acc *%s, x *%s, stride int, ldx int, rows int, fresh int)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s adds rows rows (ldx elements apart) of 128 bytes of each of four lane groups of x (stride elements apart) into acc's four lane arrays (from +0 when fresh != 0).", name))
	accp := Load(Param("acc"), GP64())
	xp := Load(Param("x"), GP64())
	st := Load(Param("stride"), GP64())
	ld := Load(Param("ldx"), GP64())
	n := Load(Param("rows"), GP64())
	shiftElems(t, st)
	shiftElems(t, ld)
	st3 := GP64()
	LEAQ(Mem{Base: st, Index: st, Scale: 2}, st3)
	nv := 128 / t.vbytes()
	a := make([][]reg.VecVirtual, 4)
	for q := range a {
		a[q] = make([]reg.VecVirtual, nv)
		for v := range a[q] {
			a[q][v] = t.vec()
		}
	}
	fresh := Load(Param("fresh"), GP64())
	TESTQ(fresh, fresh)
	JNE(LabelRef(name + "_zero"))
	for q := range a {
		for v := range a[q] {
			t.load(Mem{Base: accp, Disp: q*32*t.es + v*t.vbytes()}, a[q][v])
		}
	}
	JMP(LabelRef(name + "_loop"))
	Label(name + "_zero")
	for q := range a {
		for v := range a[q] {
			t.zero(a[q][v])
		}
	}
	Label(name + "_loop")
	TESTQ(n, n)
	JE(LabelRef(name + "_done"))
	for q := range a {
		for v := range a[q] {
			t.bin("add", strided4(xp, st, st3, q, v*t.vbytes()), a[q][v], a[q][v])
		}
	}
	ADDQ(ld, xp)
	DECQ(n)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	for q := range a {
		for v := range a[q] {
			t.store(a[q][v], Mem{Base: accp, Disp: q*32*t.es + v*t.vbytes()})
		}
	}
	VZEROUPPER()
	RET()
}
