package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

type float interface{ ~float32 | ~float64 }

// GemmKernel is a registered GEMM variant: a register-tile micro-kernel and
// the cache blocking it is run with (the registry Impl for ops "sgemm" and
// "dgemm").
//
// Micro computes the top-left mr×nr corner (1 <= mr <= MR, 1 <= nr <= NR)
// of one MR×NR tile,
//
//	c[i*ldc+j] = alpha*Σ_{p<kc} a[p*MR+i]*b[p*ldb+j] + beta*c[i*ldc+j],
//
// from a packed A micro-panel (MR elements per k step) and a B micro-panel
// with row stride ldb (NR for a packed panel, or B's own row stride when B
// is row-major and read in place; all NR columns must be readable). Only
// the mr×nr corner of c is read or written; beta == 0 means c is not read.
// MicroRowA is Micro with A read in place from row-major storage, A(i,p) =
// a[i*lda+p], all MR rows readable; pfRow >= 0 asks it to prefetch rows
// MR+pfRow and MR+pfRow+1 of a (two rows of the next A micro-panel, when
// a holds them) while it runs, -1 for no prefetch (see aPrefetchRow). One
// call covers at most one KC panel, so goroutines running GEMM stay
// preemptible.
type GemmKernel[T float] struct {
	Name       string
	MR, NR     int // register tile
	KC, MC, NC int // cache blocking with packed A: B micro-panel KC×NR in L1, A block MC×KC in L2, B panel KC×NC in L3
	NCRowA     int // B block KC×NCRowA (L2) when A is read in place
	KCRowA     int // KC when A is read in place (0: KC)
	Micro      func(kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr int)
	MicroRowA  func(kc int, a []T, lda int, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr, pfRow int)
	// EdgeMicro, if not nil, returns a micro-kernel with Micro's contract
	// and packed-A layout but a register tile of er rows (mr <= er < MR,
	// same NR), or er == MR and Micro when there is none smaller: the last
	// row panel of a block with mr < MR rows runs on it instead of
	// computing MR rows (a 64×64 product spends a sixth of its tiles on a
	// 4-row edge). The values are the same bits: each element sums over k
	// in the same order whatever the tile's height.
	EdgeMicro func(mr int) (er int, micro func(kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr int))
	// Pack, if not nil, packs a rows×cols block (cols <= w <= max(MR, NR))
	// into a micro-panel: dst[r*w+j] = src[r*ps+j*js] for j < cols, zero
	// for cols <= j < w. Nil means the portable Go packing.
	Pack func(dst []T, w int, src []T, ps, js, rows, cols int)
}

// smallGemm is the m*n*k below which GEMM runs the plain loops of gemmSmall
// (a variable so tests can force either path on small shapes). The blocked
// path packs nothing for row-major operands of this size and beats the
// plain loops from about 4×4×4 up (measured: 8³ 3.4×, 16³ 7×, 32³ 1.5×).
var smallGemm = 4 * 4 * 4

// parallelFlops is the per-call FLOP count (2*m*n*k*batch) below which GEMM
// runs on the calling goroutine only: below it the fork/join costs more than
// a second core gains (measured ~2-5 µs per fork on this 2-core machine).
// A variable so tests can force the parallel split on small shapes.
var parallelFlops = float64(2 * 96 * 96 * 96)

// gemmChunkCols is the target width (columns, or rows when the rows are
// split) of one multi-threaded work item (splitGemm). An item packs its own
// panels of the operand it does not split: for a chunk of w columns that is
// all of A (m×k elements) for 2·m·k·w FLOPs, one element per 2·w FLOPs, so
// 512 keeps the repacking to a few percent of the item's time (estimated;
// two-core SGEMM 2048 with A transposed measured the same as with two
// static halves, within this machine's noise). A row-major A read in place
// is not packed, and there the column items are the driver's NCRowA blocks.
var gemmChunkCols = 512

type gemmArgs[T float] struct {
	m, n, k       int
	alpha, beta   T
	a             []T
	rsA, csA      int
	b             []T
	rsB, csB      int
	c             []T
	rsC, csC      int
	kern          *GemmKernel[T]
	axpy          func(dst []T, alpha T, x []T)
	bsA, bsB, bsC int
	// scal (dst = x*s) is set when alpha is an epilogue scale of the
	// rounded product (SgemmBatchedScaled; beta is 0), nil for BLAS alpha.
	scal func(dst, x []T, s T)
}

func gemmBatched[T float](kern *GemmKernel[T], axpy func(dst []T, alpha T, x []T),
	batch, m, n, k int, alpha T,
	a []T, bsA, rsA, csA int,
	b []T, bsB, rsB, csB int,
	beta T,
	c []T, bsC, rsC, csC int) {
	gemmBatchedScal(kern, axpy, nil, batch, m, n, k, alpha, a, bsA, rsA, csA, b, bsB, rsB, csB, beta, c, bsC, rsC, csC)
}

// gemmBatchedScal is gemmBatched; a non-nil scal makes alpha an epilogue
// scale (see SgemmBatchedScaled), which requires beta == 0.
func gemmBatchedScal[T float](kern *GemmKernel[T], axpy func(dst []T, alpha T, x []T), scal func(dst, x []T, s T),
	batch, m, n, k int, alpha T,
	a []T, bsA, rsA, csA int,
	b []T, bsB, rsB, csB int,
	beta T,
	c []T, bsC, rsC, csC int) {
	if batch <= 0 || m <= 0 || n <= 0 {
		return
	}
	g := gemmArgs[T]{m: m, n: n, k: k, alpha: alpha, beta: beta,
		a: a, rsA: rsA, csA: csA, b: b, rsB: rsB, csB: csB, c: c, rsC: rsC, csC: csC,
		kern: kern, axpy: axpy, bsA: bsA, bsB: bsB, bsC: bsC, scal: scal}
	// Prefer a unit column stride for C: C^T = B^T A^T swaps the roles.
	if csC != 1 && rsC == 1 {
		g.m, g.n = n, m
		g.a, g.rsA, g.csA, g.b, g.rsB, g.csB = b, csB, rsB, a, csA, rsA
		g.bsA, g.bsB = bsB, bsA
		g.rsC, g.csC = csC, rsC
	}
	flops := 2 * float64(m) * float64(n) * float64(k) * float64(batch)
	nt := NumThreads()
	if nt <= 1 || flops < parallelFlops {
		for q := 0; q < batch; q++ {
			g.one(q, 0, g.m, 0, g.n)
		}
		return
	}
	// The worker closures capture the arguments: copy them to the heap here
	// only, so the serial path does not allocate.
	gp := new(gemmArgs[T])
	*gp = g
	wc := colChunkWidth(kern, nt, batch, gp.m, gp.n, gp.k, gp.csA)
	splitGemm(nt, batch, gp.m, gp.n, kern.MR, kern.NR, wc, gemmChunkCols, gp.one)
}

// colChunkWidth is splitGemm's target column-item width for gemmBatched
// on nt goroutines: the NCRowA blocks for an A read in place, else
// gemmChunkCols, or one item per goroutine where every item would pack
// all of A (gemmPackedA).
func colChunkWidth[T float](kern *GemmKernel[T], nt, batch, m, n, k, csA int) int {
	if csA == 1 && directA && kern.MicroRowA != nil {
		// A read in place (a kernel's NCRowA may equal gemmChunkCols).
		return kern.NCRowA
	}
	wc := gemmChunkCols
	if n >= m && packWholeA(kern, m, n/nt, k) && batch < nt {
		// Every column item packs all of A (gemmPackedA): one item per
		// goroutine packs it least often (two-core SGEMM 2048 with A
		// transposed: 301 GFLOP/s in halves, 288 in 512-column items).
		wc = max(wc, roundUp((n+nt-1)/nt, kern.NR))
	}
	return wc
}

// splitGemm runs one(q, i0, i1, j0, j1) over batch GEMMs of m×n on nt
// goroutines that take work items from a shared counter (dynamic
// scheduling): a core slowed by another job, or a slower core, takes fewer
// items instead of holding up the result, as it would with one static
// share per goroutine. Items are whole batch entries (about 8 per
// goroutine) when batch >= nt, else chunks of each entry's larger side of
// about wc columns or wr rows in whole MR×NR register tiles (at least nt
// of them). Each item packs its own panels, so no barriers are needed; the
// chunk sizes keep that repacking small (see gemmChunkCols).
func splitGemm(nt, batch, m, n, MR, NR, wc, wr int, one func(q, i0, i1, j0, j1 int)) {
	if batch >= nt {
		g := max(1, batch/(8*nt))
		items := (batch + g - 1) / g
		parallelDynamic(nt, items, func(it int) {
			for q := it * g; q < min((it+1)*g, batch); q++ {
				one(q, 0, m, 0, n)
			}
		})
		return
	}
	byCols := n >= m
	size, unit, w := m, MR, wr
	if byCols {
		size, unit, w = n, NR, wc
	}
	tiles, chunks := splitChunks(nt, size, unit, w)
	parallelDynamic(nt, batch*chunks, func(it int) {
		q, ch := it/chunks, it%chunks
		lo, hi := chunkRange(ch, chunks, tiles, unit, size)
		if byCols {
			one(q, 0, m, lo, hi)
		} else {
			one(q, lo, hi, 0, n)
		}
	})
}

// splitChunks returns how splitGemm cuts one side of size elements: into
// tiles units of unit elements, grouped into chunks work items of about w
// elements (at least nt of them when there are enough tiles).
func splitChunks(nt, size, unit, w int) (tiles, chunks int) {
	tiles = (size + unit - 1) / unit
	return tiles, min(tiles, max(nt, (size+w/2)/w))
}

// chunkRange returns the elements [lo, hi) of splitGemm's work item ch.
func chunkRange(ch, chunks, tiles, unit, size int) (lo, hi int) {
	return ch * tiles / chunks * unit, min((ch+1)*tiles/chunks*unit, size)
}

// minRowBlock returns the fewest rows of A that gemmBatched (on
// NumThreads goroutines) hands one call of gemmPacked or gemmSmall for
// batch m×n×k products with a unit-column-stride C: m unless it splits
// the rows over goroutines.
func minRowBlock(MR, batch, m, n, k int) int {
	nt := NumThreads()
	flops := 2 * float64(m) * float64(n) * float64(k) * float64(batch)
	if nt <= 1 || flops < parallelFlops || batch >= nt || n >= m {
		return m
	}
	tiles, chunks := splitChunks(nt, m, MR, gemmChunkCols)
	least := m
	for ch := range chunks {
		lo, hi := chunkRange(ch, chunks, tiles, MR, m)
		least = min(least, hi-lo)
	}
	return least
}

// one computes rows [i0,i1) × columns [j0,j1) of batch entry q.
func (g *gemmArgs[T]) one(q, i0, i1, j0, j1 int) {
	m, n, k := i1-i0, j1-j0, g.k
	if m <= 0 || n <= 0 {
		return
	}
	c := g.c[q*g.bsC+i0*g.rsC+j0*g.csC:]
	if g.scal != nil {
		g.oneScaled(c, g.a[q*g.bsA+i0*g.rsA:], g.b[q*g.bsB+j0*g.csB:], m, n)
		return
	}
	if k == 0 || g.alpha == 0 {
		scaleC(c, m, n, g.rsC, g.csC, g.beta)
		return
	}
	a := g.a[q*g.bsA+i0*g.rsA:]
	b := g.b[q*g.bsB+j0*g.csB:]
	if m*n*k < smallGemm {
		gemmSmall(m, n, k, g.alpha, a, g.rsA, g.csA, b, g.rsB, g.csB, g.beta, c, g.rsC, g.csC, g.axpy)
		return
	}
	gemmPacked(g.kern, m, n, k, g.alpha, a, g.rsA, g.csA, b, g.rsB, g.csB, g.beta, c, g.rsC, g.csC, nil)
}

// oneScaled is one for an epilogue alpha (beta == 0): C = alpha * (A*B)
// with the product rounded first. A single-panel packed GEMM gets alpha
// itself (its micro-kernel multiplies the finished accumulators, which is
// that rounding order); any other path computes the product with alpha = 1
// and scales the rows after.
func (g *gemmArgs[T]) oneScaled(c, a, b []T, m, n int) {
	k := g.k
	packed := k > 0 && m*n*k >= smallGemm
	if packed && k <= panelK(g.kern, g.csA, false) {
		gemmPacked(g.kern, m, n, k, g.alpha, a, g.rsA, g.csA, b, g.rsB, g.csB, 0, c, g.rsC, g.csC, nil)
		return
	}
	switch {
	case k == 0:
		scaleC(c, m, n, g.rsC, g.csC, 0)
	case packed:
		gemmPacked(g.kern, m, n, k, 1, a, g.rsA, g.csA, b, g.rsB, g.csB, 0, c, g.rsC, g.csC, nil)
	default:
		gemmSmall(m, n, k, 1, a, g.rsA, g.csA, b, g.rsB, g.csB, 0, c, g.rsC, g.csC, g.axpy)
	}
	for i := 0; i < m; i++ {
		row := c[i*g.rsC:]
		if g.csC == 1 {
			g.scal(row[:n], row[:n], g.alpha)
			continue
		}
		for j := 0; j < n; j++ {
			row[j*g.csC] *= g.alpha
		}
	}
}

// panelK is the KC gemmPacked uses for an A with column stride csA (src:
// operands from a packSource): k <= panelK means a single K panel. A
// row-major A gets KCRowA whatever its rows: a block of fewer than MR rows
// (packed) sums over the same K panels as the blocks read in place, so a
// product's values do not depend on how its rows are split over threads.
func panelK[T float](kern *GemmKernel[T], csA int, src bool) int {
	if !src && directA && csA == 1 && kern.MicroRowA != nil && kern.KCRowA > 0 {
		return kern.KCRowA
	}
	return kern.KC
}

// scaleC sets C = beta*C (C = 0 without reading it when beta == 0).
func scaleC[T float](c []T, m, n, rsC, csC int, beta T) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			idx := i*rsC + j*csC
			if beta == 0 {
				c[idx] = 0
			} else {
				c[idx] *= beta
			}
		}
	}
}

// gemmSmall is the no-packing path: row-by-row rank-1 updates
// C[i,:] += (alpha*A[i,p]) * B[p,:], with a vectorised axpy when B and C
// rows are contiguous, else a strided dot-product loop.
func gemmSmall[T float](m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int, axpy func(dst []T, alpha T, x []T)) {
	if csB == 1 && csC == 1 {
		for i := 0; i < m; i++ {
			crow := c[i*rsC : i*rsC+n]
			if beta == 0 {
				clear(crow)
			} else if beta != 1 {
				for j := range crow {
					crow[j] *= beta
				}
			}
			for p := 0; p < k; p++ {
				s := alpha * a[i*rsA+p*csA]
				axpy(crow, s, b[p*rsB:p*rsB+n])
			}
		}
		return
	}
	for i := 0; i < m; i++ {
		ai := a[i*rsA:]
		for j := 0; j < n; j++ {
			bj := b[j*csB:]
			var acc T
			for p := 0; p < k; p++ {
				acc += ai[p*csA] * bj[p*rsB]
			}
			idx := i*rsC + j*csC
			if beta == 0 {
				c[idx] = alpha * acc
			} else {
				c[idx] = alpha*acc + beta*c[idx]
			}
		}
	}
}

type workspace[T float] struct {
	ap, bp []T
	tile   []T
}

var (
	wsPoolF32 sync.Pool
	wsPoolF64 sync.Pool
)

// getWorkspace returns a pooled workspace with room for a KC×NC B panel, an
// MC×KC A block (both rounded up to whole micro-panels) and one tile.
func getWorkspace[T float](MR, NR, KC, MC, NC int) *workspace[T] {
	var ws *workspace[T]
	var zero T
	switch any(zero).(type) {
	case float32:
		if v := wsPoolF32.Get(); v != nil {
			ws = any(v).(*workspace[T])
		}
	case float64:
		if v := wsPoolF64.Get(); v != nil {
			ws = any(v).(*workspace[T])
		}
	}
	if ws == nil {
		ws = &workspace[T]{}
	}
	if need := roundUp(MC, MR) * KC; cap(ws.ap) < need {
		ws.ap = make([]T, need)
	}
	if need := roundUp(NC, NR) * KC; cap(ws.bp) < need {
		ws.bp = make([]T, need)
	}
	if need := MR * NR; cap(ws.tile) < need {
		ws.tile = make([]T, need)
	}
	return ws
}

func putWorkspace[T float](ws *workspace[T]) {
	var zero T
	switch any(zero).(type) {
	case float32:
		wsPoolF32.Put(ws)
	case float64:
		wsPoolF64.Put(ws)
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

// directB reports whether B (row-major, csB == 1) is read in place rather
// than packed: when few A micro-panels reuse each B micro-panel, packing
// costs more than the strided reads it saves.
func directB(m, n, k, MR int) bool { return m <= directBRows*MR || k*n <= directBElems }

// B is read in place when m <= directBRows*MR or k*n <= directBElems
// (variables for tests and tuning).
var (
	directBRows  = 4
	directBElems = 256 * 256
	directA      = true // read row-major A in place (MicroRowA)
)

// packSource packs the operands of a GEMM whose A and B are not T slices:
// packA fills ap with the micro-panels of A[ic:ic+mc, pc:pc+kc] (packA's
// layout), packB fills bp with those of B[pc:pc+kc, jc:jc+nc] (packB's).
type packSource[T float] struct {
	packA func(ap []T, ic, pc, mc, kc int)
	packB func(bp []T, pc, jc, kc, nc int)
}

// gemmPacked is the GotoBLAS five-loop GEMM on one matrix (k >= 1).
//
// A row-major A (csA == 1) is read in place by MicroRowA instead of being
// packed (only a last panel of fewer than MR rows is packed); the tile loop
// then runs over A micro-panels outermost, so the MR×KC A micro-panel stays
// in L1 while packed B micro-panels stream from a KC×NCRowA B block in L2
// (BLIS's loop order with the operands' roles swapped). Otherwise A is
// packed into MC×KC blocks (L2) and B micro-panels are the L1-resident
// operand (GotoBLAS order). A row-major B is read in place when directB says
// so. C tiles are written in place, partial tiles masked, when csC == 1,
// else through a scratch tile. With src not nil, A and B are not read from
// a and b but packed by src's functions (another storage format, widened
// while packing), always in the GotoBLAS order.
func gemmPacked[T float](kern *GemmKernel[T], m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int, src *packSource[T]) {
	MR, NR := kern.MR, kern.NR
	inA := src == nil && directA && csA == 1 && kern.MicroRowA != nil && m >= MR
	if src == nil && !inA && packWholeA(kern, m, n, k) {
		gemmPackedA(kern, m, n, k, alpha, a, rsA, csA, b, rsB, csB, beta, c, rsC, csC)
		return
	}
	inB := src == nil && csB == 1 && directB(m, n, k, MR)
	KC, MC, NC := panelK(kern, csA, src != nil), kern.MC, kern.NC
	if inA {
		MC, NC = m, kern.NCRowA
	}
	KC, MC, NC = min(KC, k), min(MC, m), min(NC, n)
	ws := getWorkspace[T](MR, NR, KC, MC, NC)
	defer putWorkspace(ws)
	tile := ws.tile[:MR*NR]
	for jc := 0; jc < n; jc += NC {
		nc := min(NC, n-jc)
		nj := (nc + NR - 1) / NR
		for pc := 0; pc < k; pc += KC {
			kc := min(KC, k-pc)
			var bp []T
			if src != nil {
				bp = ws.bp[:nj*NR*kc]
				src.packB(bp, pc, jc, kc, nc)
			} else {
				bp = packBBlock(kern, ws, b, pc, jc, kc, nc, rsB, csB, inB)
			}
			betaEff := beta
			if pc > 0 {
				betaEff = 1
			}
			for ic := 0; ic < m; ic += MC {
				mc := min(MC, m-ic)
				ni := (mc + MR - 1) / MR
				var ap []T
				edgeMR, edgeMicro := MR, kern.Micro
				switch {
				case src != nil:
					ap = ws.ap[:ni*MR*kc]
					src.packA(ap, ic, pc, mc, kc)
				case !inA:
					ap = ws.ap[:ni*MR*kc]
					packA(kern.Pack, ap, a, ic, pc, mc, kc, rsA, csA, MR)
				case mc%MR != 0:
					ap = ws.ap[:MR*kc]
					edgeMR, edgeMicro = edgeKernel(kern, mc%MR)
					packA(kern.Pack, ap[:edgeMR*kc], a, ic+mc/MR*MR, pc, mc%MR, kc, rsA, csA, edgeMR)
				}
				for t := 0; t < ni*nj; t++ {
					var ir, jr int
					if inA {
						ir, jr = t/nj*MR, t%nj*NR
					} else {
						jr, ir = t/ni*NR, t%ni*MR
					}
					mr, nr := min(MR, mc-ir), min(NR, nc-jr)
					bpan, ldb := bPanel(bp, b, inB, pc, jc, jr, kc, nr, NR, rsB)
					off := (ic+ir)*rsC + (jc+jr)*csC
					cdst, ldc, al, be, cm, cn := c[off:], rsC, alpha, betaEff, mr, nr
					if csC != 1 {
						cdst, ldc, al, be, cm, cn = tile, NR, 1, 0, MR, NR
					}
					switch {
					case inA && mr == MR:
						kern.MicroRowA(kc, a[(ic+ir)*rsA+pc:], rsA, bpan, ldb, cdst, ldc, al, be, cm, cn, aPrefetchRow(jr/NR, ir, mc, MR))
					case inA:
						if csC != 1 {
							cm = edgeMR
						}
						edgeMicro(kc, ap[:edgeMR*kc], bpan, ldb, cdst, ldc, al, be, cm, cn)
					default:
						kern.Micro(kc, ap[ir*kc:(ir+MR)*kc], bpan, ldb, cdst, ldc, al, be, cm, cn)
					}
					if csC != 1 {
						addTile(c[off:], rsC, csC, tile[:mr*NR], NR, nr, alpha, betaEff)
					}
				}
			}
		}
	}
}

// edgeKernel returns the register-tile height and packed-A micro-kernel
// for a last row panel of mr < MR rows (GemmKernel.EdgeMicro).
func edgeKernel[T float](kern *GemmKernel[T], mr int) (int, func(kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, mr, nr int)) {
	if kern.EdgeMicro == nil {
		return kern.MR, kern.Micro
	}
	return kern.EdgeMicro(mr)
}

// aPrefetchRow is the pfRow (see GemmKernel.MicroRowA) for tile j of the
// row of tiles at A row ir (of mc) in the row-major-A loop order: tiles
// 0..MR/2-1 prefetch two rows each of the next A micro-panel, which would
// otherwise come from L3 while its first tile runs; -1 when there is no
// full next panel.
func aPrefetchRow(j, ir, mc, MR int) int {
	if 2*j+1 >= MR || ir+2*MR > mc {
		return -1
	}
	return 2 * j
}

// packWholeAElems is the most elements of A (m rows × KC, rounded up to
// whole micro-panels) that gemmPackedA packs at once; a taller A takes the
// GotoBLAS order.
const packWholeAElems = 4 << 20

// packWholeA reports whether gemmPacked runs an A that it cannot read in
// place as gemmPackedA.
func packWholeA[T float](kern *GemmKernel[T], m, n, k int) bool {
	return packWholeAOn && m > kern.MR && n > kern.NR && roundUp(m, kern.MR)*min(kern.KC, k) <= packWholeAElems
}

// packWholeAOn enables gemmPackedA (a variable for tests and tuning).
var packWholeAOn = true

// gemmPackedA is gemmPacked for an A that is not row-major (x.T @ w: the
// weight gradient of a linear layer), in the loop order of the in-place
// A: for each K panel it packs all m rows of A[:, pc:pc+kc] once, then
// for each KC×NCRowA block of B (packed into L2) runs the tiles with the
// A micro-panels outermost, each streamed once per B block from the
// packed copy (contiguous, so the hardware prefetchers fetch it ahead).
// The GotoBLAS order instead walks the C tiles of a 12-row strip down
// MC rows for each B micro-panel, 12 rows on 12 pages per tile: SGEMM
// 2048 with A transposed ran 145 GFLOP/s that way (KC 128-384 and MC
// 120-960 alike), 157 this way (DGEMM 69 -> 76.5). The K panels are the
// GotoBLAS order's (KC), so the values are the same bits whichever order
// runs.
func gemmPackedA[T float](kern *GemmKernel[T], m, n, k int, alpha T, a []T, rsA, csA int, b []T, rsB, csB int, beta T, c []T, rsC, csC int) {
	MR, NR := kern.MR, kern.NR
	inB := csB == 1 && directB(m, n, k, MR)
	KC, NC := min(kern.KC, k), min(kern.NCRowA, n)
	ws := getWorkspace[T](MR, NR, KC, m, NC)
	defer putWorkspace(ws)
	tile := ws.tile[:MR*NR]
	ni := (m + MR - 1) / MR
	full := m / MR * MR
	edgeMR, edgeMicro := edgeKernel(kern, max(1, m-full))
	for pc := 0; pc < k; pc += KC {
		kc := min(KC, k-pc)
		ap := ws.ap[:ni*MR*kc]
		packA(kern.Pack, ap[:full*kc], a, 0, pc, full, kc, rsA, csA, MR)
		if full < m {
			packA(kern.Pack, ap[full*kc:(full+edgeMR)*kc], a, full, pc, m-full, kc, rsA, csA, edgeMR)
		}
		betaEff := beta
		if pc > 0 {
			betaEff = 1
		}
		for jc := 0; jc < n; jc += NC {
			nc := min(NC, n-jc)
			bp := packBBlock(kern, ws, b, pc, jc, kc, nc, rsB, csB, inB)
			for ir := 0; ir < m; ir += MR {
				mr := min(MR, m-ir)
				er, micro := MR, kern.Micro
				if mr < MR {
					er, micro = edgeMR, edgeMicro
				}
				apan := ap[ir*kc : (ir+er)*kc]
				for jr := 0; jr < nc; jr += NR {
					nr := min(NR, nc-jr)
					bpan, ldb := bPanel(bp, b, inB, pc, jc, jr, kc, nr, NR, rsB)
					off := ir*rsC + (jc+jr)*csC
					if csC == 1 {
						micro(kc, apan, bpan, ldb, c[off:], rsC, alpha, betaEff, mr, nr)
						continue
					}
					micro(kc, apan, bpan, ldb, tile, NR, 1, 0, er, NR)
					addTile(c[off:], rsC, csC, tile[:mr*NR], NR, nr, alpha, betaEff)
				}
			}
		}
	}
}

// packBBlock packs B[pc:pc+kc, jc:jc+nc] for a tile loop into ws.bp as
// NR-wide micro-panels (packB) and returns them; with inB (B read in
// place) only a last partial panel is packed, zero-padded, or nothing.
func packBBlock[T float](kern *GemmKernel[T], ws *workspace[T], b []T, pc, jc, kc, nc, rsB, csB int, inB bool) []T {
	NR := kern.NR
	switch {
	case !inB:
		bp := ws.bp[:(nc+NR-1)/NR*NR*kc]
		packB(kern.Pack, bp, b, pc, jc, kc, nc, rsB, csB, NR)
		return bp
	case nc%NR != 0:
		bp := ws.bp[:NR*kc]
		packB(kern.Pack, bp, b, pc, jc+nc/NR*NR, kc, nc%NR, rsB, csB, NR)
		return bp
	}
	return nil
}

// bPanel returns the B micro-panel of the tile at column jr (nr <= NR
// columns) of the block packBBlock made (bp) and its row stride: a packed
// panel, or with inB B itself for a whole panel and bp's partial one.
func bPanel[T float](bp, b []T, inB bool, pc, jc, jr, kc, nr, NR, rsB int) ([]T, int) {
	switch {
	case !inB:
		return bp[jr*kc : (jr+NR)*kc], NR
	case nr == NR:
		return b[pc*rsB+jc+jr:], rsB
	}
	return bp, NR
}

// addTile sets C[i,j] = alpha*tile[i*NR+j] + beta*C[i,j] (C not read when
// beta == 0) for the rows of tile and j < nr, C at c[i*rsC+j*csC].
func addTile[T float](c []T, rsC, csC int, tile []T, NR, nr int, alpha, beta T) {
	for i := 0; i*NR < len(tile); i++ {
		trow := tile[i*NR : i*NR+nr]
		cr := c[i*rsC:]
		if beta == 0 {
			for j, v := range trow {
				cr[j*csC] = alpha * v
			}
		} else {
			for j, v := range trow {
				cr[j*csC] = alpha*v + beta*cr[j*csC]
			}
		}
	}
}

// packA packs A[ic:ic+mc, pc:pc+kc] into micro-panels of MR rows:
// ap[(r/MR)*MR*kc + p*MR + r%MR] = A[ic+r, pc+p], zero-padding the last panel.
// pack, when not nil, is the kernel's assembly packer (GemmKernel.Pack).
func packA[T float](pack func(dst []T, w int, src []T, ps, js, rows, cols int), ap, a []T, ic, pc, mc, kc, rsA, csA, MR int) {
	for r0 := 0; r0 < mc; r0 += MR {
		panel := ap[r0*kc : (r0+MR)*kc]
		rows := min(MR, mc-r0)
		base := (ic+r0)*rsA + pc*csA
		if pack != nil {
			pack(panel, MR, a[base:], csA, rsA, kc, rows)
			continue
		}
		switch {
		case csA == 1:
			for i := 0; i < rows; i++ {
				src := a[base+i*rsA : base+i*rsA+kc]
				for p, v := range src {
					panel[p*MR+i] = v
				}
			}
		case rsA == 1 && rows == MR:
			for p := 0; p < kc; p++ {
				copy(panel[p*MR:p*MR+MR], a[base+p*csA:base+p*csA+MR])
			}
		default:
			for p := 0; p < kc; p++ {
				dst := panel[p*MR : p*MR+rows]
				src := base + p*csA
				for i := range dst {
					dst[i] = a[src+i*rsA]
				}
			}
		}
		if rows < MR {
			for p := 0; p < kc; p++ {
				clear(panel[p*MR+rows : p*MR+MR])
			}
		}
	}
}

// packBRows is the row block of packB for a row-major B (see packB).
const packBRows = 32

// packB packs B[pc:pc+kc, jc:jc+nc] into micro-panels of NR columns:
// bp[(s/NR)*NR*kc + p*NR + s%NR] = B[pc+p, jc+s], zero-padding the last panel.
//
// A row-major B (csB == 1) with an assembly packer is packed packBRows rows
// at a time across all the micro-panels, so each source row is read once,
// sequentially, instead of one NR-wide strip of every row per micro-panel
// (a 2048² f64 B packed in 2.4 ms instead of 2.7-4.0).
func packB[T float](pack func(dst []T, w int, src []T, ps, js, rows, cols int), bp, b []T, pc, jc, kc, nc, rsB, csB, NR int) {
	if pack != nil && csB == 1 && kc > packBRows && nc > NR {
		for p0 := 0; p0 < kc; p0 += packBRows {
			rows := min(packBRows, kc-p0)
			for s0 := 0; s0 < nc; s0 += NR {
				pack(bp[s0*kc+p0*NR:s0*kc+(p0+rows)*NR], NR, b[(pc+p0)*rsB+jc+s0:], rsB, 1, rows, min(NR, nc-s0))
			}
		}
		return
	}
	for s0 := 0; s0 < nc; s0 += NR {
		panel := bp[s0*kc : (s0+NR)*kc]
		cols := min(NR, nc-s0)
		base := pc*rsB + (jc+s0)*csB
		if pack != nil {
			pack(panel, NR, b[base:], rsB, csB, kc, cols)
			continue
		}
		switch {
		case csB == 1:
			for p := 0; p < kc; p++ {
				copy(panel[p*NR:p*NR+cols], b[base+p*rsB:base+p*rsB+cols])
			}
		case rsB == 1:
			for j := 0; j < cols; j++ {
				src := b[base+j*csB : base+j*csB+kc]
				for p, v := range src {
					panel[p*NR+j] = v
				}
			}
		default:
			for p := 0; p < kc; p++ {
				dst := panel[p*NR : p*NR+cols]
				src := base + p*rsB
				for j := range dst {
					dst[j] = b[src+j*csB]
				}
			}
		}
		if cols < NR {
			for p := 0; p < kc; p++ {
				clear(panel[p*NR+cols : p*NR+NR])
			}
		}
	}
}

// parallelCalls counts parallelFor calls that used the pool (for tests).
var parallelCalls atomic.Int64

// gemmThreads is SetNumThreads's count (0: GOMAXPROCS).
var gemmThreads atomic.Int32

// SetNumThreads sets how many goroutines a GEMM splits into (the calling
// one and pool workers), as PyTorch's set_num_threads limits its matmul;
// n < 1 restores the default, GOMAXPROCS. A product's values do not depend
// on it.
func SetNumThreads(n int) { gemmThreads.Store(int32(max(n, 0))) }

// NumThreads returns how many goroutines a GEMM splits into: the
// SetNumThreads count, or GOMAXPROCS when none was set.
func NumThreads() int {
	if n := gemmThreads.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// Worker pool: GOMAXPROCS-1 persistent goroutines (the caller is the last
// worker), started on first use.
//
// Handing a task to a parked goroutine costs a scheduler wake-up, measured
// at 15-300 µs on this VM (the woken goroutine waits in the caller's run
// queue until another thread wakes to steal it) — longer than a whole
// 256³ SGEMM. So, like OpenBLAS's threads, a worker that finishes a task
// spins for poolSpin before it parks: while it spins, parallelFor hands it
// the next task through its slot with two atomic operations, and the
// caller spin-waits for the tasks it handed out in the same way before it
// blocks.
var (
	poolOnce    sync.Once
	poolTasks   chan func()
	poolWorkers []*poolWorker
)

// poolSpin is how long an idle pool worker, and a caller waiting for its
// workers, spin before they block.
const poolSpin = 200 * time.Microsecond

// Worker states.
const (
	workerBusy     = iota // running a task, or parked on poolTasks
	workerSpinning        // idle and polling: may be claimed
	workerClaimed         // claimed by parallelFor: its task is (being) stored in slot
)

type poolWorker struct {
	state atomic.Int32
	slot  atomic.Pointer[func()]
}

func startPool() {
	n := runtime.GOMAXPROCS(0) - 1
	if n < 1 {
		n = 1
	}
	poolTasks = make(chan func(), 4*n)
	poolWorkers = make([]*poolWorker, n)
	for i := range poolWorkers {
		w := new(poolWorker)
		poolWorkers[i] = w
		go w.run()
	}
}

// run is the worker loop: spin (claimable) for poolSpin after each task,
// then park on poolTasks.
func (w *poolWorker) run() {
	for {
		w.state.Store(workerSpinning)
		f := w.spin()
		if f == nil {
			f = <-poolTasks
		}
		f()
	}
}

// spin polls for a task for poolSpin: a claim through the slot, or one on
// poolTasks. It returns nil, with the worker marked busy, when none came.
func (w *poolWorker) spin() func() {
	start := time.Now()
	for iter := 1; ; iter++ {
		if w.state.Load() == workerClaimed {
			return w.take()
		}
		select {
		case f := <-poolTasks:
			if w.state.CompareAndSwap(workerSpinning, workerBusy) {
				return f
			}
			// Claimed meanwhile: run both.
			g := w.take()
			return func() { f(); g() }
		default:
		}
		if iter%64 == 0 {
			if time.Since(start) > poolSpin {
				if w.state.CompareAndSwap(workerSpinning, workerBusy) {
					return nil
				}
				return w.take() // claimed just now
			}
			// Let a goroutine readied onto this P run (a caller woken
			// from wg.Wait by this worker's last task lands here).
			runtime.Gosched()
		}
	}
}

// take waits for the task of a claim (stored right after the claiming
// CAS) and marks the worker busy.
func (w *poolWorker) take() func() {
	for {
		if p := w.slot.Swap(nil); p != nil {
			w.state.Store(workerBusy)
			return *p
		}
	}
}

// handOff gives f to a spinning pool worker, reporting false when none is
// spinning.
func handOff(f func()) bool {
	for _, w := range poolWorkers {
		if w.state.Load() == workerSpinning && w.state.CompareAndSwap(workerSpinning, workerClaimed) {
			w.slot.Store(&f)
			return true
		}
	}
	return false
}

// parallelDynamic runs f(0..items-1) on up to nt goroutines (the caller's
// and pool workers), each taking the next item from a shared counter until
// none is left, and waits for all.
func parallelDynamic(nt, items int, f func(item int)) {
	var next atomic.Int64
	parallelFor(min(nt, items), func(int) {
		for {
			i := int(next.Add(1)) - 1
			if i >= items {
				return
			}
			f(i)
		}
	})
}

// ParallelFor runs f(0), ..., f(n-1) concurrently, f(0) on the calling
// goroutine and the others on the backend's worker pool (GOMAXPROCS-1
// persistent goroutines shared with GEMM), and returns when all have
// returned. Handing a task to a pool worker that ran one within the last
// 200 µs costs about a microsecond, against 15-300 µs for a new or parked
// goroutine on this project's VM. It may be called from inside f (nested
// calls run their tasks themselves when the workers are busy). A panic in
// f is not recovered: callers pass functions that do not panic.
func ParallelFor(n int, f func(i int)) { parallelFor(n, f) }

// parallelFor runs f(0..n-1), f(0) on the calling goroutine and the rest on
// pool workers (a spinning one if any, else through the pool queue, or
// inline when the queue is full), and waits for all.
func parallelFor(n int, f func(i int)) {
	if n <= 1 {
		if n == 1 {
			f(0)
		}
		return
	}
	poolOnce.Do(startPool)
	parallelCalls.Add(1)
	var wg sync.WaitGroup
	var left atomic.Int32
	left.Store(int32(n - 1))
	queued := false
	for i := 1; i < n; i++ {
		wg.Add(1)
		task := func() {
			defer func() { left.Add(-1); wg.Done() }() // also if f ends its goroutine
			f(i)
		}
		if handOff(task) {
			continue
		}
		select {
		case poolTasks <- task:
			queued = true
		default:
			task()
		}
	}
	f(0)
	if queued {
		// Run queued tasks here (ours or another caller's) while any are
		// left: a parked worker woken through the queue may still wait in
		// this goroutine's run queue, and when parallelFor is called from
		// inside a task every worker may be busy. Once the queue is empty
		// our remaining tasks are running: block.
		for left.Load() != 0 {
			select {
			case t := <-poolTasks:
				t()
			default:
				wg.Wait()
				return
			}
		}
		return
	}
	// Spin-wait first: blocking in wg.Wait parks this goroutine, and the
	// worker's wg.Done would then have to wake it (see poolSpin).
	start := time.Now()
	for iter := 1; left.Load() != 0; iter++ {
		// No runtime.Gosched here: yielding made two-thread SGEMM 128³
		// 45% slower.
		if iter%64 == 0 && time.Since(start) > poolSpin {
			wg.Wait()
			return
		}
	}
}
