package stdlib

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tsrlang/tsr/runtime"
	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/autograd"
	"github.com/tsrlang/tsr/tensor/linalg"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// More of torch.linalg: matrix_power, multi_dot, cross, vecdot and
// matrix_exp. matrix_power, multi_dot, cross and vecdot are composed from
// recorded matmul/mul/sum/cat ops (differentiable, batched where PyTorch
// batches); matrix_exp is Higham's scaling and squaring with a Padé
// approximant and records PyTorch's backward (the exponential of a 2n x 2n
// block matrix).

func init() {
	m := modules["linalg"]
	if m == nil {
		panic("stdlib: linalg_more.go initialised before linalg.go")
	}
	fn := func(name, doc string, f builtinFn) { m.Members[name] = moduleFunc("linalg", name, doc, f) }
	fn("matrix_power", "matrix_power(A, n): A [..., m, m] to the integer power n by repeated squaring (n = 0: the identity; n < 0: inv(A) to the power -n, LinAlgError for singular A). Differentiable.", linalgMatrixPower)
	fn("multi_dot", "multi_dot(tensors): the product of two or more matrices in the cheapest association order (matrix-chain dynamic programming); the first and last may be vectors. Differentiable.", linalgMultiDot)
	fn("cross", "cross(input, other, dim=-1): the cross product along dim (size 3), operands broadcast. Differentiable.", linalgCross)
	fn("vecdot", "vecdot(x, y, dim=-1): sum(x * y, dim), operands broadcast. Differentiable.", linalgVecdot)
	fn("matrix_exp", "matrix_exp(A): the matrix exponential of A [..., n, n] (f32/f64) by scaling and squaring with a degree 3-13 Padé approximant (Higham 2005, as expm). Differentiable.", linalgMatrixExp)
}

// squareMatrices checks A is a batch of square matrices, with PyTorch's
// message naming fname.
func squareMatrices(fname string, A *T) error {
	if A.Dim() < 2 {
		return runtime.Errorf("RuntimeError", "%s: The input tensor A must have at least 2 dimensions.", fname)
	}
	s := A.Shape()
	if r, c := s[len(s)-2], s[len(s)-1]; r != c {
		return runtime.Errorf("RuntimeError", "%s: A must be batches of square matrices, but they are %d by %d matrices", fname, r, c)
	}
	return nil
}

func linalgMatrixPower(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	var n int
	if err := runtime.UnpackArgs("linalg.matrix_power", args, kwargs, "A", &A, "n", &n); err != nil {
		return nil, err
	}
	r, err := matrixPower(engineOf(th), A.t, n)
	return tensorResult(th, r, err)
}

// matrixPower is A^n by binary powering: O(log n) recorded matmuls.
func matrixPower(e *Engine, A *T, n int) (*T, error) {
	if err := squareMatrices("linalg.matrix_power", A); err != nil {
		return nil, err
	}
	s := A.Shape()
	m := s[len(s)-1]
	switch {
	case n == 0:
		I, err := tensor.Eye(m, m, A.DType())
		if err != nil {
			return nil, err
		}
		if I, err = I.Expand(s...); err != nil {
			return nil, err
		}
		return I.Contiguous(), nil
	case n == 1:
		return cloneOp(e, A)
	case n < 0:
		inv, err := linalg.Inv(e, A)
		if err != nil {
			return nil, err
		}
		A, n = inv, -n
		if n == 1 {
			return A, nil
		}
	}
	var result *T
	z := A
	var err error
	for {
		if n&1 == 1 {
			if result == nil {
				result = z
			} else if result, err = applyBinary(e, "matmul", tensor.Matmul, result, z); err != nil {
				return nil, err
			}
		}
		n >>= 1
		if n == 0 {
			return result, nil
		}
		if z, err = applyBinary(e, "matmul", tensor.Matmul, z, z); err != nil {
			return nil, err
		}
	}
}

// linalgMultiDot multiplies the chain in the order that minimises scalar
// multiplications (the classic O(k^3) matrix-chain dynamic programme, as
// PyTorch for k > 3).
func linalgMultiDot(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var seq runtime.Value
	if err := runtime.UnpackArgs("linalg.multi_dot", args, kwargs, "tensors", &seq); err != nil {
		return nil, err
	}
	ts, err := tensorList("multi_dot", seq)
	if err != nil {
		return nil, err
	}
	k := len(ts)
	if k < 2 {
		return nil, runtime.Errorf("RuntimeError", "multi_dot(): expected at least 2 tensors but got %d", k)
	}
	e := engineOf(th)
	firstVec, lastVec := ts[0].Dim() == 1, ts[k-1].Dim() == 1
	for i, t := range ts {
		want := 2
		if (i == 0 && firstVec) || (i == k-1 && lastVec) {
			want = 1
		}
		if t.Dim() != want {
			if i == 0 || i == k-1 {
				return nil, runtime.Errorf("RuntimeError", "multi_dot(): the %s tensor must be 1D or 2D but got %dD", map[bool]string{true: "first", false: "last"}[i == 0], t.Dim())
			}
			return nil, runtime.Errorf("RuntimeError", "multi_dot(): tensor %d must be 2D but got %dD", i, t.Dim())
		}
		if t.DType() != ts[0].DType() {
			return nil, runtime.Errorf("RuntimeError", "multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and tensor %d is %s", kernels.TorchName(ts[0].DType()), i, kernels.TorchName(t.DType()))
		}
	}
	if firstVec {
		if ts[0], err = reshapeOp(e, ts[0], []int{1, -1}); err != nil {
			return nil, err
		}
	}
	if lastVec {
		if ts[k-1], err = reshapeOp(e, ts[k-1], []int{-1, 1}); err != nil {
			return nil, err
		}
	}
	dims := make([]int, k+1)
	dims[0] = ts[0].Shape()[0]
	for i, t := range ts {
		if t.Shape()[0] != dims[i] {
			return nil, runtime.Errorf("RuntimeError", "multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied", i-1, i, intList(ts[i-1].Shape()), intList(t.Shape()))
		}
		dims[i+1] = t.Shape()[1]
	}
	// cost[i][j]: cheapest product of ts[i..j]; split[i][j]: its last split
	cost := make([][]float64, k)
	split := make([][]int, k)
	for i := range cost {
		cost[i] = make([]float64, k)
		split[i] = make([]int, k)
	}
	for l := 1; l < k; l++ {
		for i := 0; i+l < k; i++ {
			j := i + l
			cost[i][j] = math.Inf(1)
			for s := i; s < j; s++ {
				c := cost[i][s] + cost[s+1][j] + float64(dims[i])*float64(dims[s+1])*float64(dims[j+1])
				if c < cost[i][j] {
					cost[i][j], split[i][j] = c, s
				}
			}
		}
	}
	var chain func(i, j int) (*T, error)
	chain = func(i, j int) (*T, error) {
		if i == j {
			return ts[i], nil
		}
		l, err := chain(i, split[i][j])
		if err != nil {
			return nil, err
		}
		r, err := chain(split[i][j]+1, j)
		if err != nil {
			return nil, err
		}
		return applyBinary(e, "mm", tensor.Mm, l, r)
	}
	r, err := chain(0, k-1)
	if err != nil {
		return nil, err
	}
	switch {
	case firstVec && lastVec:
		r, err = reshapeOp(e, r, []int{})
	case firstVec:
		r, err = reshapeOp(e, r, []int{-1})
	case lastVec:
		r, err = reshapeOp(e, r, []int{-1})
	}
	return tensorResult(th, r, err)
}

// broadcastPair expands a and b to their common shape (recorded).
func broadcastPair(e *Engine, a, b *T) (*T, *T, error) {
	shape, err := tensor.BroadcastShapes(a.Shape(), b.Shape())
	if err != nil {
		return nil, nil, err
	}
	if !sameShape(a.Shape(), shape) {
		if a, err = expandOp(e, a, shape); err != nil {
			return nil, nil, err
		}
	}
	if !sameShape(b.Shape(), shape) {
		if b, err = expandOp(e, b, shape); err != nil {
			return nil, nil, err
		}
	}
	return a, b, nil
}

func linalgCross(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	dim := -1
	if err := runtime.UnpackArgs("linalg.cross", args, kwargs, "input", &x, "other", &y, "dim?", &dim); err != nil {
		return nil, err
	}
	if x.t.DType() != y.t.DType() {
		return nil, runtime.Errorf("RuntimeError", "expected scalar type %s but found %s", kernels.TorchName(x.t.DType()), kernels.TorchName(y.t.DType()))
	}
	if x.t.Dim() != y.t.Dim() {
		return nil, runtime.Errorf("RuntimeError", "linalg.cross: inputs must have the same number of dimensions.")
	}
	e := engineOf(th)
	a, c, err := broadcastPair(e, x.t, y.t)
	if err != nil {
		return nil, err
	}
	d, err := normDim(dim, a.Dim())
	if err != nil {
		return nil, err
	}
	if x.t.Shape()[d] != 3 || y.t.Shape()[d] != 3 {
		return nil, runtime.Errorf("RuntimeError", "linalg.cross: inputs dimension %d must have length 3. Got %d and %d", dim, x.t.Shape()[d], y.t.Shape()[d])
	}
	comp := func(t *T, i int) (*T, error) { return narrowOp(e, t, d, i, 1) }
	var as, bs [3]*T
	for i := 0; i < 3; i++ {
		if as[i], err = comp(a, i); err != nil {
			return nil, err
		}
		if bs[i], err = comp(c, i); err != nil {
			return nil, err
		}
	}
	parts := make([]*T, 3)
	for i := 0; i < 3; i++ {
		j, k := (i+1)%3, (i+2)%3
		p, err := applyBinary(e, "mul", tensor.Mul, as[j], bs[k])
		if err != nil {
			return nil, err
		}
		q, err := applyBinary(e, "mul", tensor.Mul, as[k], bs[j])
		if err != nil {
			return nil, err
		}
		if parts[i], err = applyBinary(e, "sub", tensor.Sub, p, q); err != nil {
			return nil, err
		}
	}
	r, err := e.Apply("cat", parts, autograd.Attrs{"dim": d}, func() (*T, error) { return tensor.Cat(parts, d) })
	if err == nil {
		autograd.SetGradFnName(r, "LinalgCrossBackward0")
	}
	return tensorResult(th, r, err)
}

func linalgVecdot(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var x, y tensorArg
	dim := -1
	if err := runtime.UnpackArgs("linalg.vecdot", args, kwargs, "x", &x, "y", &y, "dim?", &dim); err != nil {
		return nil, err
	}
	if x.t.DType() != y.t.DType() {
		return nil, runtime.Errorf("RuntimeError", "linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of type %s instead", kernels.TorchName(x.t.DType()), kernels.TorchName(y.t.DType()))
	}
	e := engineOf(th)
	p, err := applyBinary(e, "mul", tensor.Mul, x.t, y.t)
	if err != nil {
		return nil, err
	}
	d, err := normDim(dim, p.Dim())
	if err != nil {
		return nil, err
	}
	r, err := sumOp(e, p, []int{d}, false)
	return tensorResult(th, r, err)
}

// ---- matrix exponential ----

func linalgMatrixExp(th *runtime.Thread, b *runtime.Builtin, args []runtime.Value, kwargs []runtime.Kwarg) (runtime.Value, error) {
	var A tensorArg
	if err := runtime.UnpackArgs("linalg.matrix_exp", args, kwargs, "A", &A); err != nil {
		return nil, err
	}
	r, err := matrixExp(engineOf(th), A.t)
	return tensorResult(th, r, err)
}

// matrixExp computes exp(A) for every matrix of the batch in float64 and
// rounds once to A's dtype. The backward is PyTorch's (FunctionsManual
// linalg_matrix_exp_differential): grad_A is the top-right n x n block of
// exp([[A^T, G], [0, A^T]]).
func matrixExp(e *Engine, A *T) (*T, error) {
	if err := squareMatrices("linalg.matrix_exp", A); err != nil {
		return nil, err
	}
	dt := A.DType()
	if dt != tensor.F32 && dt != tensor.F64 {
		return nil, runtime.Errorf("RuntimeError", "matrix_exp: Expected a floating point or complex tensor as input. Got %s", kernels.TorchName(dt))
	}
	shape := append([]int(nil), A.Shape()...)
	n := shape[len(shape)-1]
	forward := func() (*T, error) {
		av := A.ToFloat64s()
		out := make([]float64, len(av))
		for off := 0; off+n*n <= len(av) && n > 0; off += n * n {
			expm(av[off:off+n*n], out[off:off+n*n], n)
		}
		return tensor.FromFloat64s(out, shape, dt)
	}
	backward := func(g *T) ([]*T, error) {
		if e.GradEnabled() && n > 0 {
			ga, err := matrixExpGradGraph(e, A, g)
			return []*T{ga}, err
		}
		av, gv := A.ToFloat64s(), g.ToFloat64s()
		out := make([]float64, len(av))
		m := 2 * n
		blk := make([]float64, m*m)
		res := make([]float64, m*m)
		for off := 0; off+n*n <= len(av) && n > 0; off += n * n {
			for i := range blk {
				blk[i] = 0
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					aT := av[off+j*n+i]
					blk[i*m+j] = aT
					blk[(n+i)*m+n+j] = aT
					blk[i*m+n+j] = gv[off+i*n+j]
				}
			}
			expm(blk, res, m)
			for i := 0; i < n; i++ {
				copy(out[off+i*n:off+(i+1)*n], res[i*m+n:i*m+2*n])
			}
		}
		ga, err := tensor.FromFloat64s(out, shape, g.DType())
		return []*T{ga}, err
	}
	return e.ApplyCustom("LinalgMatrixExpBackward", []*T{A}, forward, backward)
}

// matrixExpGradGraph is matrixExp's backward in recorded ops, for a
// create_graph backward: the top-right block of matrixExp([[Aᵀ, G], [0,
// Aᵀ]]), itself differentiable.
func matrixExpGradGraph(e *Engine, A, g *T) (*T, error) {
	d := A.Dim()
	n := A.Shape()[d-1]
	cat := func(ts []*T, dim int) (*T, error) {
		return e.Apply("cat", ts, autograd.Attrs{"dim": dim}, func() (*T, error) { return tensor.Cat(ts, dim) })
	}
	At, err := transposeOp(e, A, d-2, d-1)
	if err != nil {
		return nil, err
	}
	z, err := tensor.Zeros(A.Shape(), A.DType())
	if err != nil {
		return nil, err
	}
	top, err := cat([]*T{At, g}, d-1)
	if err != nil {
		return nil, err
	}
	bottom, err := cat([]*T{z, At}, d-1)
	if err != nil {
		return nil, err
	}
	blk, err := cat([]*T{top, bottom}, d-2)
	if err != nil {
		return nil, err
	}
	E, err := matrixExp(e, blk)
	if err != nil {
		return nil, err
	}
	if E, err = narrowOp(e, E, d-2, 0, n); err != nil {
		return nil, err
	}
	return narrowOp(e, E, d-1, n, n)
}

// Padé coefficients b_0..b_m of the [m/m] approximant to exp and the
// largest 1-norms theta_m for which it is accurate to double precision
// without scaling (Higham, "The Scaling and Squaring Method for the Matrix
// Exponential Revisited", SIAM J. Matrix Anal. Appl. 26(4), 2005, table 2.3).
var (
	padeDegrees = []int{3, 5, 7, 9}
	padeTheta   = map[int]float64{3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1, 9: 2.097847961257068e0, 13: 5.371920351148152e0}
	padeCoef    = map[int][]float64{
		3:  {120, 60, 12, 1},
		5:  {30240, 15120, 3360, 420, 30, 1},
		7:  {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1},
		9:  {17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1},
		13: {64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1},
	}
)

// expm writes exp(a) (n x n, row-major) into out: Higham 2005 algorithm
// 2.3 — the lowest Padé degree m in {3, 5, 7, 9} whose theta_m bounds
// ||A||_1, else degree 13 on A / 2^s with s = ceil(log2(||A||_1 /
// theta_13)), followed by s squarings. Non-finite input gives NaN.
func expm(a, out []float64, n int) {
	norm := 0.0
	finite := true
	for j := 0; j < n; j++ {
		c := 0.0
		for i := 0; i < n; i++ {
			v := a[i*n+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				finite = false
			}
			c += math.Abs(v)
		}
		norm = math.Max(norm, c)
	}
	if !finite {
		for i := range out {
			out[i] = math.NaN()
		}
		return
	}
	A := mat.NewDense(n, n, append([]float64(nil), a...))
	m, s := 13, 0
	for _, d := range padeDegrees {
		if norm <= padeTheta[d] {
			m = d
			break
		}
	}
	if m == 13 && norm > padeTheta[13] {
		s = int(math.Ceil(math.Log2(norm / padeTheta[13])))
		A.Scale(math.Pow(2, -float64(s)), A)
	}
	b := padeCoef[m]
	ident := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		ident.Set(i, i, 1)
	}
	U, V := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	A2 := mat.NewDense(n, n, nil)
	A2.Mul(A, A)
	if m < 13 {
		// powers A^0, A^2, A^4, ... up to A^(m-1)
		pows := []*mat.Dense{ident, A2}
		for len(pows) < (m+1)/2 {
			p := mat.NewDense(n, n, nil)
			p.Mul(pows[len(pows)-1], A2)
			pows = append(pows, p)
		}
		inner := mat.NewDense(n, n, nil)
		for k, p := range pows {
			addScaled(inner, b[2*k+1], p)
			addScaled(V, b[2*k], p)
		}
		U.Mul(A, inner)
	} else {
		A4, A6 := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
		A4.Mul(A2, A2)
		A6.Mul(A4, A2)
		t := mat.NewDense(n, n, nil)
		addScaled(t, b[13], A6)
		addScaled(t, b[11], A4)
		addScaled(t, b[9], A2)
		inner := mat.NewDense(n, n, nil)
		inner.Mul(A6, t)
		addScaled(inner, b[7], A6)
		addScaled(inner, b[5], A4)
		addScaled(inner, b[3], A2)
		addScaled(inner, b[1], ident)
		U.Mul(A, inner)
		t.Zero()
		addScaled(t, b[12], A6)
		addScaled(t, b[10], A4)
		addScaled(t, b[8], A2)
		V.Mul(A6, t)
		addScaled(V, b[6], A6)
		addScaled(V, b[4], A4)
		addScaled(V, b[2], A2)
		addScaled(V, b[0], ident)
	}
	P, Q := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	P.Add(V, U)
	Q.Sub(V, U)
	var lu mat.LU
	lu.Factorize(Q)
	R := mat.NewDense(n, n, nil)
	if err := lu.SolveTo(R, false, P); err != nil {
		// Q = V - U is well conditioned in the approximant's range; a
		// failure means overflow, reported as non-finite values
		if _, ok := err.(mat.Condition); !ok {
			for i := range out {
				out[i] = math.NaN()
			}
			return
		}
	}
	for ; s > 0; s-- {
		R2 := mat.NewDense(n, n, nil)
		R2.Mul(R, R)
		R = R2
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = R.At(i, j)
		}
	}
}

// addScaled sets dst += c * m (both n x n, freshly allocated, so their
// raw data are contiguous row-major slices of equal layout).
func addScaled(dst *mat.Dense, c float64, m *mat.Dense) {
	d, s := dst.RawMatrix().Data, m.RawMatrix().Data
	for i, v := range s {
		d[i] += c * v
	}
}
