// Command gen generates backends/cpu's amd64 assembly with avo
// (github.com/mmcloughlin/avo). Run it through `go generate ./backends/cpu`,
// which executes:
//
//	go run ./internal/gen -out kernels_amd64.s -stubs kernels_amd64_stubs.go -pkg cpu
//
// It emits:
//   - GEMM micro-kernels (BLIS/GotoBLAS style) computing one MR×NR tile of
//     C = alpha*Ã*B̃ + beta*C from packed panels: Ã holds MR elements per k
//     step, B̃ holds NR elements per k step. AVX-512 f32 12×32 and f64 12×16
//     (24 accumulators of 32 ZMM), AVX2 f32 6×16 and f64 6×8 (12 of 16 YMM).
//     A elements are broadcast with an explicit VBROADCASTSS/SD into a
//     register, which measured faster than the embedded {1toN} form.
//   - Elementwise/reduction kernels over whole vectors (the Go wrappers
//     handle the tail of fewer than one vector and the horizontal reduction).
//   - A vectorised exp (Cephes expf / exp range reduction and polynomials,
//     scaled with VSCALEFPS/PD so overflow and gradual underflow are exact).
//   - Elementwise math (math.go): maximum/minimum with NaN propagation,
//     sqrt, and fused AVX-512 tanh, sigmoid and log.
//   - PyTorch's f32 Box-Muller normal_fill_16 (normal.go), bit for bit,
//     and its MT19937 generator's twist and float32 uniforms (mt.go).
//   - moreKernels (reduce_more.go, arange.go, bint.go): wrapping int64
//     sums, float min reductions, var/std's widening f32 -> f64 sums,
//     linspace's arange blocks, and f32 + - * / with a transposed operand
//     (16×16 register transposes).
//   - sin, cos, tan, atan2, pow with a scalar exponent and the
//     tanh-approximate gelu (trig.go).
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// vt describes an element type on a vector ISA.
type vt struct {
	f64   bool
	avx2  bool // YMM registers instead of ZMM
	es    int  // element size in bytes
	lanes int  // elements per vector
	goT   string
	sfx   string // name suffix, e.g. "F32AVX512"
}

func newVT(f64, avx2 bool) vt {
	t := vt{f64: f64, avx2: avx2, es: 4, goT: "float32"}
	if f64 {
		t.es, t.goT = 8, "float64"
	}
	vb := 64
	if avx2 {
		vb = 32
	}
	t.lanes = vb / t.es
	t.sfx = "F32"
	if f64 {
		t.sfx = "F64"
	}
	if avx2 {
		t.sfx += "AVX2"
	} else {
		t.sfx += "AVX512"
	}
	return t
}

func (t vt) vec() reg.VecVirtual {
	if t.avx2 {
		return YMM()
	}
	return ZMM()
}

func (t vt) vbytes() int { return t.es * t.lanes }

func (t vt) load(m Op, r Op) {
	if t.f64 {
		VMOVUPD(m, r)
	} else {
		VMOVUPS(m, r)
	}
}
func (t vt) store(r Op, m Op) { t.load(r, m) }
func (t vt) zero(r Op) {
	if t.f64 {
		VXORPD(r, r, r)
	} else {
		VXORPS(r, r, r)
	}
}
func (t vt) bcast(src Op, r Op) {
	if t.f64 {
		VBROADCASTSD(src, r)
	} else {
		VBROADCASTSS(src, r)
	}
}

// fma: acc += x*y
func (t vt) fma(x, y, acc Op) {
	if t.f64 {
		VFMADD231PD(x, y, acc)
	} else {
		VFMADD231PS(x, y, acc)
	}
}

// bin emits dst = a OP b in Intel order (Go operands reversed).
func (t vt) bin(op string, b, a, dst Op) {
	switch op + fmt.Sprint(t.f64) {
	case "addfalse":
		VADDPS(b, a, dst)
	case "addtrue":
		VADDPD(b, a, dst)
	case "subfalse":
		VSUBPS(b, a, dst)
	case "subtrue":
		VSUBPD(b, a, dst)
	case "mulfalse":
		VMULPS(b, a, dst)
	case "multrue":
		VMULPD(b, a, dst)
	case "divfalse":
		VDIVPS(b, a, dst)
	case "divtrue":
		VDIVPD(b, a, dst)
	case "maxfalse":
		VMAXPS(b, a, dst)
	case "maxtrue":
		VMAXPD(b, a, dst)
	case "minfalse":
		VMINPS(b, a, dst)
	case "mintrue":
		VMINPD(b, a, dst)
	default:
		panic(op)
	}
}

// bcastParam broadcasts a float parameter from its argument slot into a
// new vector register (legacy-SSE scalar loads cannot reach X16-X31).
func (t vt) bcastParam(name string) reg.VecVirtual {
	r := t.vec()
	t.bcast(paramAddr(name), r)
	return r
}

// Prefetch options for the GEMM micro-kernels: gemmPrefetchA is the distance
// in bytes ahead of the packed A stream (0: none), gemmPrefetchC prefetches
// the C tile before the k loop. Measured on the development Xeon (2048³,
// thread CPU time, interleaved): neither these nor software prefetch of the
// streamed B micro-panel 16/32 rows ahead moved the result beyond the ±3%
// noise, as the hardware streamers already cover the sequential panels; C
// prefetch is kept because it is free and helps when C is cold.
const (
	gemmPrefetchA = 0
	gemmPrefetchC = true
)

// strided4 addresses row k (0..3) of four rows stride bytes apart from
// base, plus disp: base + k·stride + disp, with stride3 = 3·stride in a
// register (x86 scales go up to 8, so row 3 needs it).
func strided4(base, stride, stride3 reg.Register, k, disp int) Mem {
	m := Mem{Base: base, Disp: disp}
	switch k {
	case 1:
		m.Index, m.Scale = stride, 1
	case 2:
		m.Index, m.Scale = stride, 2
	case 3:
		m.Index, m.Scale = stride3, 1
	}
	return m
}

// gemmKernel emits a GEMM micro-kernel computing the top-left mr×nr part of
// one MR×NR tile, C[i*ldc+j] = alpha*Σ_p A(i,p)*B(p,j) + beta*C[i*ldc+j],
// with beta == 0 meaning C is not read:
//
//   - B(p,j) = b[p*ldb + j] (ldb = NR for a packed micro-panel; any row
//     stride for a row-major B read in place), all NR columns readable;
//   - packed A (rowA false): A(i,p) = a[p*MR + i], a packed micro-panel;
//   - row-major A (rowA true): A(i,p) = a[i*lda + p], read in place; all MR
//     rows must be readable (the driver packs a last, partial panel).
//
// AVX-512 kernels take nmask, bit j set iff column j < nr, and mask C with
// opmask registers; AVX2 kernels take a pointer to NR int32/int64 lane masks,
// or nil for a full tile. mr >= 1 rows of C are written. kc >= 1.
//
// The k loop is unrolled 4 times; A elements are broadcast with an explicit
// VBROADCASTSS/SD into a register (measured faster than the embedded
// {1toN} form). The C tile is prefetched into L1 before the k loop so that
// the read-modify-write at the end does not stall on L2/L3.
func gemmKernel(t vt, mr, nv int, rowA bool) {
	nr := nv * t.lanes
	name := fmt.Sprintf("gemm%dx%d%s", mr, nr, t.sfx)
	aSig := "a *" + t.goT
	if rowA {
		name = fmt.Sprintf("gemm%dx%dRowA%s", mr, nr, t.sfx)
		aSig += ", lda int"
	}
	maskSig := "nmask uint64"
	if t.avx2 {
		maskSig = "nmask *int" + fmt.Sprint(8*t.es)
	}
	// The AVX-512 row-major-A kernels also take pf, pfn: in each of the
	// first pfn 4-step iterations they prefetch into L2 one cache line of
	// each of two A rows, pf and pf+lda, then advance pf by a line (pfn <= 0:
	// no prefetch). The driver points pf at two rows of the next A
	// micro-panel, which is otherwise fetched from L3 when its first tile
	// runs (DGEMM 2048³: +2.5%).
	pfA := rowA && !t.avx2
	pfSig := ""
	if pfA {
		pfSig = fmt.Sprintf(", pf *%s, pfn int", t.goT)
	}
	TEXT(name, NOSPLIT, fmt.Sprintf("func(kc int, %s, b *%s, ldb int, c *%s, ldc int, alpha, beta %s, mr int, %s%s)",
		aSig, t.goT, t.goT, t.goT, maskSig, pfSig))
	Pragma("noescape")
	if rowA {
		Doc(fmt.Sprintf("%s computes the mr×nr corner of a %dx%d tile of C = alpha*A*B + beta*C, A row-major (lda), B with row stride ldb.", name, mr, nr))
	} else {
		Doc(fmt.Sprintf("%s computes the mr×nr corner of a %dx%d tile of C = alpha*A*B + beta*C, A packed, B with row stride ldb.", name, mr, nr))
	}
	shift := Imm(2)
	if t.f64 {
		shift = Imm(3)
	}

	if gemmPrefetchC {
		pc := Load(Param("c"), GP64())
		ldc := Load(Param("ldc"), GP64())
		SHLQ(shift, ldc)
		for i := 0; i < mr; i++ {
			PREFETCHT0(Mem{Base: pc})
			PREFETCHT0(Mem{Base: pc, Disp: nr*t.es - 1})
			if i < mr-1 {
				ADDQ(ldc, pc)
			}
		}
	}

	kc := Load(Param("kc"), GP64())
	pb := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(shift, ldb)
	ldb3 := GP64()
	LEAQ(Mem{Base: ldb, Index: ldb, Scale: 2}, ldb3)
	// A addressing: packed uses pa + disp; row-major uses row bases
	// (rows 4q..4q+3 at base[q] + {0, lda, 2*lda, 3*lda}).
	var pa, lda, lda3 reg.Register
	var bases []reg.Register
	if rowA {
		b0 := Load(Param("a"), GP64())
		lda = Load(Param("lda"), GP64())
		SHLQ(shift, lda)
		lda3 = GP64()
		LEAQ(Mem{Base: lda, Index: lda, Scale: 2}, lda3)
		bases = []reg.Register{b0}
		for q := 1; q*4 < mr; q++ {
			bq := GP64()
			LEAQ(Mem{Base: bases[q-1], Index: lda, Scale: 4}, bq)
			bases = append(bases, bq)
		}
	} else {
		pa = Load(Param("a"), GP64())
	}
	aAddr := func(i, u int) Mem {
		if !rowA {
			return Mem{Base: pa, Disp: (u*mr + i) * t.es}
		}
		return strided4(bases[i/4], lda, lda3, i%4, u*t.es)
	}
	bAddr := func(u, v int) Mem { return strided4(pb, ldb, ldb3, u, v*t.vbytes()) }

	acc := make([][]reg.VecVirtual, mr)
	for i := range acc {
		acc[i] = make([]reg.VecVirtual, nv)
		for v := range acc[i] {
			acc[i][v] = t.vec()
			t.zero(acc[i][v])
		}
	}
	bv := make([]reg.VecVirtual, nv)
	for v := range bv {
		bv[v] = t.vec()
	}
	ta := t.vec()

	step := func(u int) {
		for v := 0; v < nv; v++ {
			t.load(bAddr(u, v), bv[v])
		}
		for i := 0; i < mr; i++ {
			t.bcast(aAddr(i, u), ta)
			for v := 0; v < nv; v++ {
				t.fma(bv[v], ta, acc[i][v])
			}
		}
	}
	advance := func(steps int) {
		if rowA {
			for _, b := range bases {
				ADDQ(U32(steps*t.es), b)
			}
		} else {
			ADDQ(U32(steps*mr*t.es), pa)
		}
		if steps == 4 {
			LEAQ(Mem{Base: pb, Index: ldb, Scale: 4}, pb)
		} else {
			ADDQ(ldb, pb)
		}

	}
	var pfp, pfn reg.Register
	if pfA {
		pfp = Load(Param("pf"), GP64())
		pfn = Load(Param("pfn"), GP64())
	}
	const unroll = 4
	Label(name + "_loop4")
	CMPQ(kc, Imm(unroll))
	JL(LabelRef(name + "_loop1"))
	if gemmPrefetchA > 0 && !rowA {
		for off := 0; off < unroll*mr*t.es; off += 64 {
			PREFETCHT0(Mem{Base: pa, Disp: gemmPrefetchA + off})
		}
	}
	if pfA {
		skip := name + "_nopf"
		TESTQ(pfn, pfn)
		JLE(LabelRef(skip))
		PREFETCHT1(Mem{Base: pfp})
		PREFETCHT1(Mem{Base: pfp, Index: lda, Scale: 1})
		ADDQ(Imm(64), pfp)
		DECQ(pfn)
		Label(skip)
	}
	for u := 0; u < unroll; u++ {
		step(u)
	}
	advance(unroll)
	SUBQ(Imm(unroll), kc)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_loop1")
	TESTQ(kc, kc)
	JE(LabelRef(name + "_kdone"))
	step(0)
	advance(1)
	DECQ(kc)
	JMP(LabelRef(name + "_loop1"))

	Label(name + "_kdone")
	pc := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(shift, ldc)
	mrows := Load(Param("mr"), GP64())
	// beta == ±0 <=> its bits shifted left by one are zero (NaN takes the beta path).
	bb := GP64()
	if t.f64 {
		MOVQ(paramAddr("beta"), bb)
		SHLQ(Imm(1), bb)
	} else {
		MOVL(paramAddr("beta"), bb.As32())
		SHLL(Imm(1), bb.As32())
	}
	// Scale by alpha first, so the alpha register is free for the masks.
	valpha := t.bcastParam("alpha")
	for i := 0; i < mr; i++ {
		for v := 0; v < nv; v++ {
			t.bin("mul", valpha, acc[i][v], acc[i][v])
		}
	}
	done := name + "_done"
	// rowExit leaves after row i when mr == i+1.
	rowExit := func(i int) {
		if i < mr-1 {
			CMPQ(mrows, Imm(uint64(i+1)))
			JEQ(LabelRef(done))
			ADDQ(ldc, pc)
		}
	}
	if !t.avx2 {
		nm := GP64()
		Load(Param("nmask"), nm)
		ks := make([]reg.Register, nv)
		for v := 0; v < nv; v++ {
			ks[v] = K()
			KMOVW(nm.As32(), ks[v])
			if v < nv-1 {
				SHRQ(Imm(uint64(t.lanes)), nm)
			}
		}
		TESTQ(bb, bb)
		JNE(LabelRef(name + "_beta"))
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				storeMasked(t, acc[i][v], ks[v], Mem{Base: pc, Disp: v * t.vbytes()})
			}
			rowExit(i)
		}
		JMP(LabelRef(done))
		Label(name + "_beta")
		vbeta := t.bcastParam("beta")
		tc := t.vec()
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				m := Mem{Base: pc, Disp: v * t.vbytes()}
				if t.f64 {
					VMOVUPD_Z(m, ks[v], tc)
				} else {
					VMOVUPS_Z(m, ks[v], tc)
				}
				t.fma(tc, vbeta, acc[i][v])
				storeMasked(t, acc[i][v], ks[v], m)
			}
			rowExit(i)
		}
	} else {
		mp := Load(Param("nmask"), GP64())
		TESTQ(mp, mp)
		JNE(LabelRef(name + "_masked"))
		// Full-width tile: plain loads and stores.
		TESTQ(bb, bb)
		JNE(LabelRef(name + "_beta"))
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				t.store(acc[i][v], Mem{Base: pc, Disp: v * t.vbytes()})
			}
			rowExit(i)
		}
		JMP(LabelRef(done))
		Label(name + "_beta")
		vbeta := t.bcastParam("beta")
		tc := t.vec()
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				m := Mem{Base: pc, Disp: v * t.vbytes()}
				t.load(m, tc)
				t.fma(tc, vbeta, acc[i][v])
				t.store(acc[i][v], m)
			}
			rowExit(i)
		}
		JMP(LabelRef(done))
		// Partial width: VMASKMOV with the lane masks.
		Label(name + "_masked")
		mk := make([]reg.VecVirtual, nv)
		for v := 0; v < nv; v++ {
			mk[v] = t.vec()
			VMOVDQU(Mem{Base: mp, Disp: v * t.vbytes()}, mk[v])
		}
		TESTQ(bb, bb)
		JNE(LabelRef(name + "_mbeta"))
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				maskMov(t, acc[i][v], mk[v], Mem{Base: pc, Disp: v * t.vbytes()}, true)
			}
			rowExit(i)
		}
		JMP(LabelRef(done))
		Label(name + "_mbeta")
		vbeta2 := t.bcastParam("beta")
		tc2 := t.vec()
		for i := 0; i < mr; i++ {
			for v := 0; v < nv; v++ {
				m := Mem{Base: pc, Disp: v * t.vbytes()}
				maskMov(t, tc2, mk[v], m, false)
				t.fma(tc2, vbeta2, acc[i][v])
				maskMov(t, acc[i][v], mk[v], m, true)
			}
			rowExit(i)
		}
	}
	Label(done)
	VZEROUPPER()
	RET()
}

// packKernel emits the GEMM packing routine (AVX-512 only)
//
//	func NAME(dst *T, w int, src *T, ps, rows int, idx *int32, lmask, smask uint64)
//
// which, for r < rows, writes row r of the packed panel, dst[r*w + j] for
// the lanes j set in smask (j < 2 vectors), from src[r*ps + j] (idx nil:
// contiguous source rows) or src[r*ps + idx[j]] (VGATHERDPS/PD), reading
// only the lanes set in lmask and storing zero in the others. Strides are in
// elements; it packs A (ps = csA, idx[j] = j*rsA) and B (ps = rsB, idx[j] =
// j*csB) micro-panels, zero-padding partial ones.
func packKernel(t vt) {
	name := "pack" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst *%s, w int, src *%s, ps, rows int, idx *int32, lmask, smask uint64)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s packs rows of up to %d elements (contiguous, or gathered at idx) into a GEMM micro-panel.", name, 2*t.lanes))
	shift := Imm(2)
	if t.f64 {
		shift = Imm(3)
	}
	dst, src := GP64(), GP64()
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	w, ps, rows := GP64(), GP64(), GP64()
	Load(Param("w"), w)
	Load(Param("ps"), ps)
	Load(Param("rows"), rows)
	SHLQ(shift, w)
	SHLQ(shift, ps)
	lm, sm := GP64(), GP64()
	Load(Param("lmask"), lm)
	Load(Param("smask"), sm)
	kl, ks := []reg.Register{K(), K()}, []reg.Register{K(), K()}
	// lanes masks for vectors 0 and 1
	KMOVW(lm.As32(), kl[0])
	KMOVW(sm.As32(), ks[0])
	SHRQ(Imm(uint64(t.lanes)), lm)
	SHRQ(Imm(uint64(t.lanes)), sm)
	KMOVW(lm.As32(), kl[1])
	KMOVW(sm.As32(), ks[1])
	ix := GP64()
	Load(Param("idx"), ix)
	x := []reg.VecVirtual{t.vec(), t.vec()}
	TESTQ(rows, rows)
	JE(LabelRef(name + "_done"))
	TESTQ(ix, ix)
	JNE(LabelRef(name + "_gather"))
	Label(name + "_copy")
	for v := 0; v < 2; v++ {
		m := Mem{Base: src, Disp: v * t.vbytes()}
		if t.f64 {
			VMOVUPD_Z(m, kl[v], x[v])
		} else {
			VMOVUPS_Z(m, kl[v], x[v])
		}
		storeMasked(t, x[v], ks[v], Mem{Base: dst, Disp: v * t.vbytes()})
	}
	ADDQ(ps, src)
	ADDQ(w, dst)
	DECQ(rows)
	JNE(LabelRef(name + "_copy"))
	JMP(LabelRef(name + "_done"))

	Label(name + "_gather")
	// index vectors: 16 int32 per ZMM (f32) or 8 per YMM (f64)
	iv := make([]reg.VecVirtual, 2)
	for v := 0; v < 2; v++ {
		if t.f64 {
			iv[v] = YMM()
			VMOVDQU(Mem{Base: ix, Disp: v * 32}, iv[v])
		} else {
			iv[v] = ZMM()
			VMOVDQU32(Mem{Base: ix, Disp: v * 64}, iv[v])
		}
	}
	lm2 := GP64()
	Label(name + "_gloop")
	Load(Param("lmask"), lm2)
	for v := 0; v < 2; v++ {
		k := K()
		KMOVW(lm2.As32(), k)
		if v == 0 {
			SHRQ(Imm(uint64(t.lanes)), lm2)
		}
		t.zero(x[v])
		m := Mem{Base: src, Index: iv[v], Scale: uint8(t.es)}
		if t.f64 {
			VGATHERDPD(m, k, x[v])
		} else {
			VGATHERDPS(m, k, x[v])
		}
		storeMasked(t, x[v], ks[v], Mem{Base: dst, Disp: v * t.vbytes()})
	}
	ADDQ(ps, src)
	ADDQ(w, dst)
	DECQ(rows)
	JNE(LabelRef(name + "_gloop"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// storeMasked stores the lanes of x selected by k to m.
func storeMasked(t vt, x reg.VecVirtual, k reg.Register, m Mem) {
	if t.f64 {
		VMOVUPD(x, k, m)
	} else {
		VMOVUPS(x, k, m)
	}
}

// maskMov is VMASKMOVPS/PD: store x's lanes selected by mask to m (store),
// or load m's selected lanes into x, zeroing the others (!store).
func maskMov(t vt, x, mask reg.VecVirtual, m Mem, store bool) {
	switch {
	case store && t.f64:
		VMASKMOVPD(x, mask, m)
	case store:
		VMASKMOVPS(x, mask, m)
	case t.f64:
		VMASKMOVPD(m, mask, x)
	default:
		VMASKMOVPS(m, mask, x)
	}
}

// binary emits func NAME(dst, a, b *T, n int): dst[i] = a[i] OP b[i] for
// i < n, n a multiple of the vector length.
func binary(t vt, op string) {
	name := op + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, a, b *%s, n int)", t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = a %s b over n elements (n a multiple of %d).", name, op, t.lanes))
	d := Load(Param("dst"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	n := Load(Param("n"), GP64())
	loopN(t, n, 4, func(u int, off int) {
		x, y := t.vec(), t.vec()
		t.load(Mem{Base: a, Disp: off}, x)
		t.load(Mem{Base: b, Disp: off}, y)
		t.bin(op, y, x, x)
		t.store(x, Mem{Base: d, Disp: off})
	}, d, a, b)
}

// loopN emits a loop over n elements (a multiple of t.lanes) processing
// `unroll` vectors per iteration, then one vector per iteration. body gets
// the byte offset of the vector; ptrs are advanced after each iteration.
func loopN(t vt, n reg.Register, unroll int, body func(u, off int), ptrs ...reg.Register) {
	big := fmt.Sprintf("L%d_big", labelID)
	one := fmt.Sprintf("L%d_one", labelID)
	end := fmt.Sprintf("L%d_end", labelID)
	labelID++
	Label(big)
	CMPQ(n, U32(unroll*t.lanes))
	JL(LabelRef(one))
	for u := 0; u < unroll; u++ {
		body(u, u*t.vbytes())
	}
	for _, p := range ptrs {
		ADDQ(U32(unroll*t.vbytes()), p)
	}
	SUBQ(U32(unroll*t.lanes), n)
	JMP(LabelRef(big))
	Label(one)
	CMPQ(n, U32(t.lanes))
	JL(LabelRef(end))
	body(0, 0)
	for _, p := range ptrs {
		ADDQ(U32(t.vbytes()), p)
	}
	SUBQ(U32(t.lanes), n)
	JMP(LabelRef(one))
	Label(end)
}

var labelID int

// scalarOp emits func NAME(dst, a *T, n int, s T): dst = a OP s.
func scalarOp(t vt, op string) {
	name := op + "Scalar" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, a *%s, n int, s %s)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = a %s s over n elements (n a multiple of %d).", name, op, t.lanes))
	d := Load(Param("dst"), GP64())
	a := Load(Param("a"), GP64())
	n := Load(Param("n"), GP64())
	vs := t.bcastParam("s")
	loopN(t, n, 4, func(u, off int) {
		x := t.vec()
		t.load(Mem{Base: a, Disp: off}, x)
		t.bin(op, vs, x, x)
		t.store(x, Mem{Base: d, Disp: off})
	}, d, a)
	VZEROUPPER()
	RET()
}

// clampKernel emits func NAME(dst, x *T, n int, lo, hi T): dst[i] =
// MIN(hi, MAX(lo, x[i])) with the x86 semantics MAX(a, b) = a > b ? a : b
// and MIN(a, b) = a < b ? a : b (a NaN x passes through both; a tie keeps
// x, so -0.0 stays -0.0 against a 0 bound), as PyTorch's vec::clamp.
func clampKernel(t vt) {
	name := "clamp" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int, lo, hi %s)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = min(hi, max(lo, x)) (x86 MINPS/MAXPS operand order: NaN x passes) over n elements (n a multiple of %d).", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	vlo := t.bcastParam("lo")
	vhi := t.bcastParam("hi")
	loopN(t, n, 4, func(u, off int) {
		v := t.vec()
		t.load(Mem{Base: x, Disp: off}, v)
		t.bin("max", v, vlo, v) // Intel: MAX(lo, v)
		t.bin("min", v, vhi, v) // Intel: MIN(hi, v)
		t.store(v, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

// leakyReluKernel emits func NAME(dst, x *T, n int, s T): dst[i] = x[i] >
// 0 ? x[i] : x[i]*s, PyTorch's leaky_relu (vec::blendv(x*s, x, x > 0)): a
// NaN, ±0 or negative x takes the product x*s, so -0.0 stays -0.0 for s >=
// 0 and +Inf stays +Inf for s == 0. dst may alias x.
func leakyReluKernel(t vt) {
	name := "leakyRelu" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int, s %s)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = x > 0 ? x : x*s (PyTorch's leaky_relu; NaN x gives x*s) over n elements (n a multiple of %d).", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	vs := t.bcastParam("s")
	zero := t.vec()
	t.zero(zero)
	const cmpGTOQ = 30 // GT_OQ: false when either operand is NaN
	loopN(t, n, 4, func(u, off int) {
		v, p := t.vec(), t.vec()
		t.load(Mem{Base: x, Disp: off}, v)
		t.bin("mul", vs, v, p) // p = v*s
		if t.avx2 {
			m := t.vec()
			t.cmp(cmpGTOQ, zero, v, m) // m = v > 0
			if t.f64 {
				VBLENDVPD(m, v, p, p)
			} else {
				VBLENDVPS(m, v, p, p)
			}
		} else {
			k := K()
			t.cmp(cmpGTOQ, zero, v, k)
			t.movMasked(v, k, p)
		}
		t.store(p, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

// andKernel emits func NAME(dst, x *T, n int, m T): dst[i] = x[i] & m
// bitwise (m a bit pattern: the sign-clearing mask gives abs).
func andKernel(t vt) {
	name := "andMask" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int, m %s)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = x & m bitwise over n elements (n a multiple of %d).", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	vm := t.bcastParam("m")
	loopN(t, n, 4, func(u, off int) {
		v := t.vec()
		t.load(Mem{Base: x, Disp: off}, v)
		if t.avx2 {
			VPAND(vm, v, v)
		} else {
			VPANDD(vm, v, v)
		}
		t.store(v, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

// axpy emits func NAME(dst, x *T, n int, alpha T): dst += alpha*x.
func axpy(t vt) {
	name := "axpy" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int, alpha %s)", t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst += alpha*x over n elements (n a multiple of %d).", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	va := t.bcastParam("alpha")
	loopN(t, n, 4, func(u, off int) {
		xv, dv := t.vec(), t.vec()
		t.load(Mem{Base: x, Disp: off}, xv)
		t.load(Mem{Base: d, Disp: off}, dv)
		t.fma(xv, va, dv)
		t.store(dv, Mem{Base: d, Disp: off})
	}, d, x)
	VZEROUPPER()
	RET()
}

// reduce emits sum/dot/max/min kernels that store their per-lane partial
// result (and for max and min a NaN detector: a lane is NaN iff some x in
// it is NaN) to out; the Go wrapper reduces the lanes.
func reduce(t vt, kind string) {
	name := kind + t.sfx
	var sig string
	switch kind {
	case "sum", "prod":
		sig = fmt.Sprintf("func(x *%s, n int, out *%s)", t.goT, t.goT)
	case "dot":
		sig = fmt.Sprintf("func(x, y *%s, n int, out *%s)", t.goT, t.goT)
	case "max", "min":
		sig = fmt.Sprintf("func(x *%s, n int, out, nan *%s)", t.goT, t.goT)
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s stores %d per-lane partial %ss of x[:n] (n a multiple of %d, > 0) to out.", name, t.lanes, kind, t.lanes))
	x := Load(Param("x"), GP64())
	var y reg.Register
	ptrs := []reg.Register{x}
	if kind == "dot" {
		y = Load(Param("y"), GP64())
		ptrs = append(ptrs, y)
	}
	n := Load(Param("n"), GP64())
	const na = 4
	acc := make([]reg.VecVirtual, na)
	var nanacc, ones reg.VecVirtual
	for i := range acc {
		acc[i] = t.vec()
		if kind == "max" || kind == "min" {
			t.load(Mem{Base: x}, acc[i]) // n > 0: seed with the first vector
		} else if kind == "prod" {
			if i == 0 {
				t.copyVec(constVec(t, 1), acc[i])
			} else {
				t.copyVec(acc[0], acc[i])
			}
		} else {
			t.zero(acc[i])
		}
	}
	if kind == "max" || kind == "min" {
		nanacc, ones = t.vec(), t.vec()
		t.zero(nanacc)
		if t.avx2 {
			VPCMPEQD(ones, ones, ones)
		} else {
			VPTERNLOGD(Imm(0xff), ones, ones, ones)
		}
	}
	loopN(t, n, na, func(u, off int) {
		xv := t.vec()
		t.load(Mem{Base: x, Disp: off}, xv)
		switch kind {
		case "sum":
			t.bin("add", xv, acc[u], acc[u])
		case "prod":
			t.bin("mul", xv, acc[u], acc[u])
		case "dot":
			t.fma(Mem{Base: y, Disp: off}, xv, acc[u])
		case "max", "min":
			t.bin(kind, xv, acc[u], acc[u])
			// NaN lanes of x set the lane of nanacc to all-ones bits
			// (a NaN); ±Inf does not (x*0 would, sending rows with a
			// masked -Inf down the wrapper's slow scan).
			if t.avx2 {
				m := t.vec()
				t.cmp(cmpUnord, xv, xv, m)
				if t.f64 {
					VORPD(m, nanacc, nanacc)
				} else {
					VORPS(m, nanacc, nanacc)
				}
			} else {
				k := K()
				t.cmp(cmpUnord, xv, xv, k)
				t.movMasked(ones, k, nanacc)
			}
		}
	}, ptrs...)
	op := "add"
	switch kind {
	case "max", "min":
		op = kind
	case "prod":
		op = "mul"
	}
	t.bin(op, acc[1], acc[0], acc[0])
	t.bin(op, acc[3], acc[2], acc[2])
	t.bin(op, acc[2], acc[0], acc[0])
	out := Load(Param("out"), GP64())
	t.store(acc[0], Mem{Base: out})
	if kind == "max" || kind == "min" {
		np := Load(Param("nan"), GP64())
		t.store(nanacc, Mem{Base: np})
	}
	VZEROUPPER()
	RET()
}

// expShiftSum emits func NAME(dst, x *T, n int, shift T, sum *T):
// dst[i] = exp(x[i] - shift), and stores per-lane partial sums of dst to sum.
// AVX-512 only (it relies on VRNDSCALE and VSCALEF).
//
// Algorithm (Cephes, S. L. Moshier): clamp the argument to a range outside
// of which the result is 0 or +Inf, k = round(x*log2(e)), r = x - k*ln2
// with ln2 split in two (C1 + C2, Cody–Waite), exp(r) by the Cephes
// polynomial (expf: degree-5 minimax for (e^r - 1 - r)/r^2; exp: the
// [2/3] Padé form 1 + 2r·P(r²)/(Q(r²) - r·P(r²))), then scale by 2^k with
// VSCALEF, which rounds once and handles overflow and gradual underflow.
// Max error measured 1 ulp f32 / 2 ulp f64 over the whole range (see tests).
func expShiftSum(t vt) {
	name := "expShiftSum" + t.sfx
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x *%s, n int, shift %s, sum *%s)", t.goT, t.goT, t.goT))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes dst = exp(x - shift) over n elements (n a multiple of %d) and stores per-lane sums of dst to sum.", name, t.lanes))
	d := Load(Param("dst"), GP64())
	x := Load(Param("x"), GP64())
	n := Load(Param("n"), GP64())
	vshift := t.bcastParam("shift")
	k := func(v float64) reg.VecVirtual {
		r := t.vec()
		g := GP64()
		if t.f64 {
			MOVQ(U64(f64bits(v)), g)
		} else {
			MOVQ(U64(uint64(f32bits(float32(v)))), g)
		}
		if t.f64 {
			VPBROADCASTQ(g, r)
		} else {
			VPBROADCASTD(g.As32(), r)
		}
		return r
	}
	var hi, lo, log2e, c1, c2 float64
	if t.f64 {
		hi, lo = 710, -746
		log2e, c1, c2 = sleefF64.log2e, sleefF64.l2u, sleefF64.l2l
	} else {
		hi, lo = 89, -104
		log2e, c1, c2 = sleefF32.log2e, sleefF32.l2u, sleefF32.l2l
	}
	vhi, vlo, vlog2e, vc1, vc2 := k(hi), k(lo), k(log2e), k(c1), k(c2)
	var coef []reg.VecVirtual
	var pc []reg.VecVirtual
	if t.f64 {
		for _, c := range sleefF64.c {
			pc = append(pc, k(c))
		}
	} else {
		for _, c := range sleefF32.p {
			coef = append(coef, k(c))
		}
	}
	one := k(1)
	var half reg.VecVirtual
	if t.f64 {
		half = k(0.5)
	}
	sumacc := t.vec()
	t.zero(sumacc)
	loopN(t, n, 1, func(u, off int) {
		v := t.vec()
		t.load(Mem{Base: x, Disp: off}, v)
		t.bin("sub", vshift, v, v)
		// Lanes at or below the low clamp underflow to +0: they are zeroed
		// by the final VSCALEF under this mask instead of being computed,
		// since an underflowing VSCALEF takes a microcode assist that is
		// ~20x slower (a softmax row of masked -Inf scores would crawl).
		// NLE_UQ keeps NaN lanes.
		km := K()
		t.cmp(cmpNLEUQ, vlo, v, km)
		// clamp keeping NaN: Intel VMINPS returns the second source on NaN.
		t.bin("min", v, vhi, v)
		t.bin("max", v, vlo, v)
		kk := t.vec()
		t.bin("mul", vlog2e, v, kk)
		if t.f64 {
			VRNDSCALEPD(Imm(0), kk, kk)
		} else {
			VRNDSCALEPS(Imm(0), kk, kk)
		}
		// r = x - k*C1 - k*C2 (f32: + k*2.12e-4 since C2 is negative)
		if t.f64 {
			VFNMADD231PD(kk, vc1, v)
			VFNMADD231PD(kk, vc2, v)
		} else {
			VFNMADD231PS(kk, vc1, v)
			VFNMADD231PS(kk, vc2, v)
		}
		p := t.vec()
		if t.f64 {
			p = sleefExpF64Poly(pc, half, one, v)
			VSCALEFPD_Z(kk, p, km, p)
		} else {
			VMOVAPS(coef[0], p)
			for _, c := range coef[1:] {
				VFMADD213PS(c, v, p)
			}
			rr := t.vec()
			VMULPS(v, v, rr)
			// y = 1 + (r + r²·p), SLEEF's order (see sleefF32)
			VFMADD231PS(p, rr, v)
			VADDPS(one, v, v)
			VSCALEFPS_Z(kk, v, km, v)
			p = v
		}
		t.store(p, Mem{Base: d, Disp: off})
		t.bin("add", p, sumacc, sumacc)
	}, d, x)
	sp := Load(Param("sum"), GP64())
	t.store(sumacc, Mem{Base: sp})
	VZEROUPPER()
	RET()
}

func main() {
	ConstraintExpr("amd64,!purego")
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			t := newVT(f64, avx2)
			if !avx2 {
				packKernel(t)
			}
			for _, rowA := range []bool{false, true} {
				if !avx2 {
					gemmKernel(t, 12, 2, rowA) // f32 12x32, f64 12x16
					if !rowA {
						// Edge tiles for a last row panel of <= 4 or <= 8 rows.
						gemmKernel(t, 4, 2, false)
						gemmKernel(t, 8, 2, false)
					}
				} else {
					gemmKernel(t, 6, 2, rowA) // f32 6x16, f64 6x8
				}
			}
			for _, op := range []string{"add", "sub", "mul", "div"} {
				binary(t, op)
				VZEROUPPER()
				RET()
			}
			scalarOp(t, "add")
			scalarOp(t, "mul")
			axpy(t)
			reduce(t, "sum")
			reduce(t, "dot")
			reduce(t, "max")
			if !avx2 {
				expShiftSum(t)
			}
		}
	}
	// after the others, so their generated labels keep their numbers
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			mathKernels(newVT(f64, avx2))
		}
	}
	for _, f64 := range []bool{false, true} {
		softmaxRows(newVT(f64, false), false)
	}
	for _, f64 := range []bool{false, true} {
		softmaxRows(newVT(f64, false), true)
	}
	halfConv()
	packTKernel(newVT(false, false), 32) // f32 B panels (NR)
	packTKernel(newVT(false, false), 12) // f32 A panels (MR)
	packTKernel(newVT(true, false), 16)  // f64 B panels
	packTKernel(newVT(true, false), 12)  // f64 A panels
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			addRowsKernel(newVT(f64, avx2))
			addRows4Kernel(newVT(f64, avx2))
		}
	}
	for _, avx2 := range []bool{false, true} {
		normalFill16(newVT(false, avx2))
	}
	for _, avx2 := range []bool{false, true} {
		mtTwist(newVT(false, avx2))
		mtUniform(newVT(false, avx2))
	}
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			clampKernel(newVT(f64, avx2))
			andKernel(newVT(f64, avx2))
		}
	}
	erfKernels()
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			reduce(newVT(f64, avx2), "prod")
		}
	}
	roundKernels()
	moreKernels()
	trigKernels()
	powF64Kernels()
	for _, avx2 := range []bool{false, true} {
		for _, f64 := range []bool{false, true} {
			leakyReluKernel(newVT(f64, avx2))
		}
	}
	Generate()
}

func f64bits(v float64) uint64 { return math.Float64bits(v) }
func f32bits(v float32) uint32 { return math.Float32bits(v) }

// paramAddr is the stack address of a scalar parameter.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
