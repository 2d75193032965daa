package autograd

import (
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// Derivative formulas of the linear-algebra ops (torch.linalg), for real
// inputs, after PyTorch's tools/autograd/derivatives.yaml and
// torch/csrc/autograd/FunctionsManual.cpp. Each formula is written in
// engine ops, so gradients are themselves differentiable (create_graph).
//
// Table entries and what the forward (package tensor/linalg) must record:
//
//	linalg_svd               inputs [A]; outputs [U, S, Vh]; attr full_matrices
//	linalg_eigh              inputs [A]; outputs [L, V]
//	linalg_cholesky          inputs [A]; outputs [L]; attr upper
//	linalg_qr                inputs [A]; outputs [Q, R]; attr mode
//	linalg_solve             inputs [A, B]; outputs [X]; attr vector
//	linalg_solve_triangular  inputs [A, B]; outputs [X]; attr upper (left side)
//	linalg_inv               inputs [A]; outputs [Ainv]
//	linalg_det               inputs [A]; outputs [det]
//	linalg_slogdet           inputs [A]; outputs [sign, logabsdet]
//	linalg_pinv              inputs [A]; outputs [pinv]

// calc chains engine ops, keeping the first error (formulas stay readable).
type calc struct {
	e   *Engine
	err error
}

func (k *calc) do(f func() (*T, error)) *T {
	if k.err != nil {
		return nil
	}
	r, err := f()
	k.err = err
	return r
}

func (k *calc) mm(a, b *T) *T  { return k.do(func() (*T, error) { return k.e.matmul(a, b) }) }
func (k *calc) mul(a, b *T) *T { return k.do(func() (*T, error) { return k.e.mul(a, b) }) }
func (k *calc) div(a, b *T) *T { return k.do(func() (*T, error) { return k.e.div(a, b) }) }
func (k *calc) add(a, b *T) *T { return k.do(func() (*T, error) { return k.e.add(a, b) }) }
func (k *calc) sub(a, b *T) *T { return k.do(func() (*T, error) { return k.e.sub(a, b) }) }
func (k *calc) neg(a *T) *T    { return k.do(func() (*T, error) { return k.e.neg(a) }) }
func (k *calc) mT(a *T) *T     { return k.do(func() (*T, error) { return k.e.mT(a) }) }
func (k *calc) scale(a *T, v float64) *T {
	return k.do(func() (*T, error) { return k.e.mulScalar(a, v) })
}
func (k *calc) tril(a *T, d int) *T { return k.do(func() (*T, error) { return k.e.tri(a, d, false) }) }
func (k *calc) triu(a *T, d int) *T { return k.do(func() (*T, error) { return k.e.tri(a, d, true) }) }
func (k *calc) diagEmbed(v *T) *T   { return k.do(func() (*T, error) { return k.e.diagEmbed(v) }) }
func (k *calc) unsq(a *T, d int) *T {
	return k.do(func() (*T, error) {
		if d < 0 {
			d += a.Dim() + 1
		}
		return k.e.unsqueeze(a, d)
	})
}
func (k *calc) narrow(a *T, dim, start, n int) *T {
	return k.do(func() (*T, error) {
		if dim < 0 {
			dim += a.Dim()
		}
		return k.e.narrow(a, dim, start, n)
	})
}
func (k *calc) solve(A, B *T) *T { return k.do(func() (*T, error) { return k.e.linalgSolve(A, B) }) }
func (k *calc) solveTri(A, B *T, upper, left bool) *T {
	return k.do(func() (*T, error) { return k.e.linalgSolveTriangular(A, B, upper, left) })
}
func (k *calc) sumTo(a *T, shape []int) *T {
	return k.do(func() (*T, error) { return k.e.sumTo(a, shape) })
}

// outputs returns the saved outputs 0..n-1 (see Ctx.Output).
func outputs(c *Ctx, n int) ([]*T, error) {
	out := make([]*T, n)
	for i := range out {
		t, err := c.Output(i)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// inputOutput returns saved input 0 and saved output 0.
func inputOutput(c *Ctx) ([]*T, error) {
	in, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	out, err := c.Output(0)
	if err != nil {
		return nil, err
	}
	return []*T{in, out}, nil
}

func init() {
	def(&Function{Name: "linalg_svd", SaveOutput: true, Backward: svdBackward})
	def(&Function{Name: "linalg_eigh", SaveOutput: true, Backward: eighBackward})
	def(&Function{Name: "linalg_cholesky", SaveOutput: true, Backward: choleskyBackward})
	def(&Function{Name: "linalg_qr", SaveOutput: true, Backward: qrBackward})
	def(&Function{Name: "linalg_solve", SaveInputs: true, SaveOutput: true, Backward: solveBackward})
	def(&Function{Name: "linalg_solve_triangular", SaveInputs: true, SaveOutput: true, Backward: solveTriangularBackward})
	def(&Function{Name: "linalg_inv", SaveOutput: true, Backward: invBackward})
	def(&Function{Name: "linalg_det", SaveInputs: true, SaveOutput: true, Backward: detBackward})
	def(&Function{Name: "linalg_slogdet", SaveInputs: true, Backward: slogdetBackward})
	def(&Function{Name: "linalg_pinv", SaveInputs: true, SaveOutput: true, Backward: pinvBackward})
}

// svdBackward is PyTorch's svd_backward for real inputs. With
// full_matrices the extra columns of U and rows of Vh do not influence A's
// gradient (they span the orthogonal complements), so U, Vh and their
// gradients are first narrowed to k = min(m, n), as PyTorch does.
//
// With E_ij = S_j² − S_i² (diagonal set to 1) and skew(X) = X − Xᵀ:
//
//	gA = U [ (skew(Uᵀ gU) S + S skew(Vᵀ gV)) / E + diag(gS) ] Vh
//
// plus, for m > n, (I − U Uᵀ) gU S⁻¹ Vh, and for m < n,
// U S⁻¹ gVh (I − V Vh). Outputs that received no gradient take PyTorch's
// "undefined" branches, so svdvals with repeated values stays finite.
func svdBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := outputs(c, 3)
	if err != nil {
		return nil, err
	}
	U, S, Vh := sv[0], sv[1], sv[2]
	gU, gS, gVh := gs[0], gs[1], gs[2]
	k := &calc{e: c.E}
	sh := c.InputShape(0)
	m, n := sh[len(sh)-2], sh[len(sh)-1]
	r := min(m, n)
	if c.Bool("full_matrices") {
		U, Vh = k.narrow(U, -1, 0, r), k.narrow(Vh, -2, 0, r)
		gU, gVh = k.narrow(gU, -1, 0, r), k.narrow(gVh, -2, 0, r)
		if k.err != nil {
			return nil, k.err
		}
	}
	hasU, hasV := !allZero(gU), !allZero(gVh)
	var gA *T
	if !hasU && !hasV {
		if allZero(gS) {
			z, err := tensor.Zeros(sh, c.InputDType(0))
			return []*T{z}, err
		}
		if m >= n {
			gA = k.mm(U, k.mul(k.unsq(gS, -1), Vh))
		} else {
			gA = k.mm(k.mul(U, k.unsq(gS, -2)), Vh)
		}
		return []*T{gA}, k.err
	}
	skew := func(x *T) *T { return k.sub(x, k.mT(x)) }
	S2 := k.mul(S, S)
	E := k.sub(k.unsq(S2, -2), k.unsq(S2, -1))
	if k.err != nil {
		return nil, k.err
	}
	eye, err := tensor.Eye(r, r, S.DType())
	if err != nil {
		return nil, err
	}
	E = k.add(E, eye)
	Srow, Scol := k.unsq(S, -2), k.unsq(S, -1)
	switch {
	case hasU && hasV:
		UhgU := skew(k.mm(k.mT(U), gU))
		VhgV := skew(k.mm(Vh, k.mT(gVh)))
		gA = k.div(k.add(k.mul(UhgU, Srow), k.mul(Scol, VhgV)), E)
	case hasU:
		UhgU := skew(k.mm(k.mT(U), gU))
		gA = k.mul(UhgU, k.div(Srow, E))
	default:
		VhgV := skew(k.mm(Vh, k.mT(gVh)))
		gA = k.mul(Scol, k.div(VhgV, E))
	}
	if !allZero(gS) {
		gA = k.add(gA, k.diagEmbed(gS))
	}
	switch {
	case m > n && hasU:
		gA = k.mm(U, gA)
		gUSinv := k.div(gU, Srow)
		gA = k.sub(k.add(gA, gUSinv), k.mm(U, k.mm(k.mT(U), gUSinv)))
		gA = k.mm(gA, Vh)
	case m < n && hasV:
		gA = k.mm(gA, Vh)
		SinvgVh := k.div(gVh, Scol)
		gA = k.sub(k.add(gA, SinvgVh), k.mm(k.mm(SinvgVh, k.mT(Vh)), Vh))
		gA = k.mm(U, gA)
	default:
		gA = k.mm(U, k.mm(gA, Vh))
	}
	return []*T{gA}, k.err
}

// eighBackward is PyTorch's linalg_eig_backward for symmetric input:
//
//	gA = V ( diag(gL) + skew(Vᵀ gV)/2 / E ) Vᵀ,   E_ij = L_j − L_i (diag 1)
//
// which is symmetric. Repeated eigenvalues make E singular; as in PyTorch
// the result is then Inf/NaN unless gV is zero.
func eighBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := outputs(c, 2)
	if err != nil {
		return nil, err
	}
	L, V := sv[0], sv[1]
	gL, gV := gs[0], gs[1]
	k := &calc{e: c.E}
	var inner *T
	if !allZero(gV) {
		VhgV := k.mm(k.mT(V), gV)
		VhgV = k.scale(k.sub(VhgV, k.mT(VhgV)), 0.5)
		E := k.sub(k.unsq(L, -2), k.unsq(L, -1))
		if k.err != nil {
			return nil, k.err
		}
		n := L.Shape()[L.Dim()-1]
		eye, err := tensor.Eye(n, n, L.DType())
		if err != nil {
			return nil, err
		}
		inner = k.div(VhgV, k.add(E, eye))
	}
	if !allZero(gL) || inner == nil {
		d := k.diagEmbed(gL)
		if inner == nil {
			inner = d
		} else {
			inner = k.add(inner, d)
		}
	}
	gA := k.mm(V, k.mm(inner, k.mT(V)))
	return []*T{gA}, k.err
}

// choleskyBackward is PyTorch's cholesky_backward (Murray 2016, "Differen-
// tiation of the Cholesky decomposition"): with P = tril(Lᵀ gL) and
// Φ = (P + tril(P, −1)ᵀ)/2, gA = L⁻ᵀ Φ L⁻¹, symmetric. For upper=true,
// L = Uᵀ and gL = gUᵀ.
func choleskyBackward(c *Ctx, gs []*T) ([]*T, error) {
	L, err := c.Output(0)
	if err != nil {
		return nil, err
	}
	gL := gs[0]
	k := &calc{e: c.E}
	if c.Bool("upper") {
		L, gL = k.mT(L), k.mT(gL)
	}
	P := k.tril(k.mm(k.mT(L), gL), 0)
	Phi := k.scale(k.add(P, k.mT(k.tril(P, -1))), 0.5)
	gA := k.solveTri(k.mT(L), Phi, true, true)
	gA = k.solveTri(L, gA, false, false)
	return []*T{gA}, k.err
}

// qrBackward is PyTorch's linalg_qr_backward for mode "reduced" (or
// "complete" with m == n) and m >= n:
//
//	M  = triu(gR Rᵀ − Qᵀ gQ)
//	gA = (gQ + Q (M + triu(M, 1)ᵀ)) R⁻ᵀ
//
// Errors (PyTorch's): mode "r" (Q was not computed), "complete" with
// m > n; m < n is not implemented in tsr.
func qrBackward(c *Ctx, gs []*T) ([]*T, error) {
	mode := c.String("mode")
	sh := c.InputShape(0)
	m, n := sh[len(sh)-2], sh[len(sh)-1]
	if mode == "r" {
		return nil, errorf("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
	}
	if mode == "complete" && m > n {
		return nil, errorf("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
	}
	if m < n {
		return nil, errorf("linalg.qr: the derivative for wide inputs (nrows < ncols) is not implemented in tsr")
	}
	sv, err := outputs(c, 2)
	if err != nil {
		return nil, err
	}
	Q, R := sv[0], sv[1]
	gQ, gR := gs[0], gs[1]
	k := &calc{e: c.E}
	M := k.triu(k.sub(k.mm(gR, k.mT(R)), k.mm(k.mT(Q), gQ)), 0)
	gA := k.add(gQ, k.mm(Q, k.add(M, k.mT(k.triu(M, 1)))))
	gA = k.solveTri(k.mT(R), gA, false, false)
	return []*T{gA}, k.err
}

// solveBackward: X = A⁻¹B gives gB = A⁻ᵀ g and gA = −gB Xᵀ (outer product
// gB ⊗ X for vector right-hand sides), reduced over broadcast batch dims.
func solveBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := inputOutput(c)
	if err != nil {
		return nil, err
	}
	A, X := sv[0], sv[1]
	k := &calc{e: c.E}
	gB := k.solve(k.mT(A), gs[0])
	var gA *T
	if c.NeedsGrad(0) {
		if c.Bool("vector") {
			gA = k.neg(k.mul(k.unsq(gB, -1), k.unsq(X, -2)))
		} else {
			gA = k.neg(k.mm(gB, k.mT(X)))
		}
		gA = k.sumTo(gA, c.InputShape(0))
	}
	if c.NeedsGrad(1) {
		gB = k.sumTo(gB, c.InputShape(1))
	} else {
		gB = nil
	}
	return []*T{gA, gB}, k.err
}

// solveTriangularBackward: gB = A⁻ᵀ g (a triangular solve with the other
// triangle) and gA = −gB Xᵀ restricted to A's triangle.
func solveTriangularBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := inputOutput(c)
	if err != nil {
		return nil, err
	}
	A, X := sv[0], sv[1]
	upper := c.Bool("upper")
	k := &calc{e: c.E}
	gB := k.solveTri(k.mT(A), gs[0], !upper, true)
	var gA *T
	if c.NeedsGrad(0) {
		gA = k.neg(k.mm(gB, k.mT(X)))
		if upper {
			gA = k.triu(gA, 0)
		} else {
			gA = k.tril(gA, 0)
		}
		gA = k.sumTo(gA, c.InputShape(0))
	}
	if c.NeedsGrad(1) {
		gB = k.sumTo(gB, c.InputShape(1))
	} else {
		gB = nil
	}
	return []*T{gA, gB}, k.err
}

// invBackward: gA = −A⁻ᵀ g A⁻ᵀ.
func invBackward(c *Ctx, gs []*T) ([]*T, error) {
	Ai, err := c.Output(0)
	if err != nil {
		return nil, err
	}
	k := &calc{e: c.E}
	AiT := k.mT(Ai)
	gA := k.neg(k.mm(AiT, k.mm(gs[0], AiT)))
	return []*T{gA}, k.err
}

// detBackward: gA = g·det·A⁻ᵀ, computed as solve(Aᵀ, diag(g·det)). When a
// matrix of the batch is singular, the cofactor matrix is computed from
// the SVD instead (det(U)det(V)·U diag(∏_{j≠i} s_j) Vᵀ, PyTorch's
// approach); that branch is not differentiable a second time.
func detBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := inputOutput(c)
	if err != nil {
		return nil, err
	}
	A, det := sv[0], sv[1]
	k := &calc{e: c.E}
	gd := k.mul(gs[0], det)
	n := A.Shape()[A.Dim()-1]
	if k.err != nil {
		return nil, k.err
	}
	if n == 0 {
		z, err := tensor.Zeros(A.Shape(), A.DType())
		return []*T{z}, err
	}
	ev := k.unsq(gd, -1)
	if k.err != nil {
		return nil, k.err
	}
	ones, err := tensor.Ones(append(append([]int(nil), gd.Shape()...), n), A.DType())
	if err != nil {
		return nil, err
	}
	D := k.diagEmbed(k.mul(ev, ones))
	var gA *T
	if !c.E.GradEnabled() && A.IsContiguous() {
		// as PyTorch's linalg_det_backward for a contiguous A: an LU of
		// Aᵀ (A's buffer as LAPACK reads it) and xGETRS 'N', so the
		// gradient rounds as PyTorch's
		gA = k.do(func() (*T, error) { return kernels.SolveTransposed(A, D) })
	} else {
		gA = k.solve(k.mT(A), D)
	}
	if k.err == nil {
		return []*T{gA}, nil
	}
	if _, ok := k.err.(interface{ ErrorKind() string }); !ok {
		return nil, k.err
	}
	cof, err := cofactor(A)
	if err != nil {
		return nil, err
	}
	g := gs[0]
	if g, err = g.Unsqueeze(g.Dim()); err == nil {
		g, err = g.Unsqueeze(g.Dim())
	}
	if err != nil {
		return nil, err
	}
	// d det / dA is the cofactor matrix, singular A included.
	gA, err = tensor.Mul(g, cof)
	return []*T{gA}, err
}

// cofactor returns the cofactor matrices [..., n, n] of A [..., n, n] from
// its SVD: C = det(U)·det(V)·U diag(∏_{j≠i} s_j) Vᵀ.
func cofactor(A *T) (*T, error) {
	U, S, Vh, err := kernels.SVD(A, false)
	if err != nil {
		return nil, err
	}
	dU, err := kernels.Det(U)
	if err != nil {
		return nil, err
	}
	dV, err := kernels.Det(Vh)
	if err != nil {
		return nil, err
	}
	n := S.Shape()[S.Dim()-1]
	s := S.ToFloat64s()
	du, dv := dU.ToFloat64s(), dV.ToFloat64s()
	pi := make([]float64, len(s))
	for b := 0; b < len(s)/n; b++ {
		row := s[b*n : (b+1)*n]
		for i := range row {
			p := du[b] * dv[b]
			for j, v := range row {
				if j != i {
					p *= v
				}
			}
			pi[b*n+i] = p
		}
	}
	P, err := tensor.FromFloat64s(pi, S.Shape(), A.DType())
	if err != nil {
		return nil, err
	}
	if P, err = P.Unsqueeze(P.Dim() - 1); err != nil {
		return nil, err
	}
	US, err := tensor.Mul(U, P)
	if err != nil {
		return nil, err
	}
	return tensor.Matmul(US, Vh)
}

// slogdetBackward: only logabsdet is differentiable; glogabsdet·A⁻ᵀ,
// computed as solve(Aᵀ, diag(g)).
func slogdetBackward(c *Ctx, gs []*T) ([]*T, error) {
	A, err := c.Input(0)
	if err != nil {
		return nil, err
	}
	g := gs[1]
	n := A.Shape()[A.Dim()-1]
	if n == 0 || allZero(g) {
		z, err := tensor.Zeros(A.Shape(), A.DType())
		return []*T{z}, err
	}
	k := &calc{e: c.E}
	ones, err := tensor.Ones(append(append([]int(nil), g.Shape()...), n), A.DType())
	if err != nil {
		return nil, err
	}
	D := k.diagEmbed(k.mul(k.unsq(g, -1), ones))
	gA := k.solve(k.mT(A), D)
	return []*T{gA}, k.err
}

// pinvBackward is PyTorch's pinv_backward (Golub & Pereyra 1973), written
// to keep intermediate matrices at the smaller of m, n. With P = A⁺:
//
//	m <= n:  K = gᵀP;  gA = −(P K)ᵀ + K Pᵀ − A P K Pᵀ + Pᵀ P (gᵀ − K A)
//	m >  n:  K = P gᵀ; gA = −(K P)ᵀ + (gᵀ − A K) P Pᵀ + Pᵀ K − Pᵀ K P A
func pinvBackward(c *Ctx, gs []*T) ([]*T, error) {
	sv, err := inputOutput(c)
	if err != nil {
		return nil, err
	}
	A, P := sv[0], sv[1]
	g := gs[0]
	sh := A.Shape()
	m, n := sh[len(sh)-2], sh[len(sh)-1]
	k := &calc{e: c.E}
	Ph, gh := k.mT(P), k.mT(g)
	var gA *T
	if m <= n {
		K := k.mm(gh, P)
		KPh := k.mm(K, Ph)
		gA = k.add(k.sub(k.add(k.neg(k.mT(k.mm(P, K))), KPh), k.mm(k.mm(A, P), KPh)),
			k.mm(k.mm(Ph, P), k.sub(gh, k.mm(K, A))))
	} else {
		K := k.mm(P, gh)
		PhK := k.mm(Ph, K)
		gA = k.sub(k.add(k.add(k.neg(k.mT(k.mm(K, P))), k.mm(k.mm(k.sub(gh, k.mm(A, K)), P), Ph)), PhK),
			k.mm(k.mm(PhK, P), A))
	}
	return []*T{gA}, k.err
}
