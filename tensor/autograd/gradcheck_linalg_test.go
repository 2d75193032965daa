package autograd

import (
	"fmt"
	"testing"

	"github.com/tsrlang/tsr/tensor"
	"github.com/tsrlang/tsr/tensor/linalg/kernels"
)

// linalgGradCases are finite-difference checks (f64) of the linear-algebra
// derivative formulas. Outputs defined only up to sign (singular vectors,
// eigenvectors) are checked through sign-invariant functions of them
// (U Vh, U Uᵀ, V diag(c) Vᵀ), as PyTorch's own gradchecks do.
func linalgGradCases() []gradCase {
	addDiag := func(e *Engine, x *T, v float64) (*T, error) {
		n := x.Shape()[x.Dim()-1]
		eye, _ := tensor.Eye(n, n, tensor.F64)
		d, _ := tensor.Mul(eye, tensor.ScalarFloat(v))
		return e.add(x, d)
	}
	spd := func(e *Engine, x *T) (*T, error) { // X Xᵀ + n I
		xt, err := e.mT(x)
		if err != nil {
			return nil, err
		}
		p, err := e.matmul(x, xt)
		if err != nil {
			return nil, err
		}
		return addDiag(e, p, float64(x.Shape()[x.Dim()-1]))
	}
	sym := func(e *Engine, x *T) (*T, error) {
		xt, err := e.mT(x)
		if err != nil {
			return nil, err
		}
		return e.add(x, xt)
	}
	svd := func(e *Engine, x *T, full bool) ([]*T, error) {
		return e.ApplyMulti("linalg_svd", []*T{x}, Attrs{"full_matrices": full}, func() ([]*T, error) {
			u, s, vh, err := kernels.SVD(x, full)
			return []*T{u, s, vh}, err
		})
	}
	eigh := func(e *Engine, x *T) ([]*T, error) {
		return e.ApplyMulti("linalg_eigh", []*T{x}, nil, func() ([]*T, error) {
			w, v, err := kernels.Eigh(x, false)
			return []*T{w, v}, err
		})
	}
	flatCat := func(e *Engine, ts ...*T) (*T, error) {
		fs := make([]*T, len(ts))
		for i, t := range ts {
			f, err := e.reshape(t, []int{-1})
			if err != nil {
				return nil, err
			}
			fs[i] = f
		}
		return e.Apply("cat", fs, Attrs{"dim": 0}, func() (*T, error) { return tensor.Cat(fs, 0) })
	}
	svdUVh := func(shape []int, full bool) gradCase {
		return gradCase{op: "linalg_svd", shapes: [][]int{shape}, f: func(e *Engine, in []*T) (*T, error) {
			o, err := svd(e, in[0], full)
			if err != nil {
				return nil, err
			}
			sh := in[0].Shape()
			k := min(sh[len(sh)-2], sh[len(sh)-1])
			U, err := e.narrow(o[0], o[0].Dim()-1, 0, k)
			if err != nil {
				return nil, err
			}
			Vh, err := e.narrow(o[2], o[2].Dim()-2, 0, k)
			if err != nil {
				return nil, err
			}
			uv, err := e.matmul(U, Vh) // invariant under (u_i, v_i) -> -(u_i, v_i)
			if err != nil {
				return nil, err
			}
			return flatCat(e, uv, o[1])
		}}
	}
	svdProj := func(shape []int, useV bool) gradCase { // U Uᵀ or V Vᵀ alone
		return gradCase{op: "linalg_svd", shapes: [][]int{shape}, f: func(e *Engine, in []*T) (*T, error) {
			o, err := svd(e, in[0], false)
			if err != nil {
				return nil, err
			}
			if useV {
				vt, err := e.mT(o[2])
				if err != nil {
					return nil, err
				}
				return e.matmul(vt, o[2])
			}
			ut, err := e.mT(o[0])
			if err != nil {
				return nil, err
			}
			return e.matmul(o[0], ut)
		}}
	}
	return []gradCase{
		svdUVh([]int{4, 3}, false),
		svdUVh([]int{3, 5}, false),
		svdUVh([]int{2, 3, 3}, false),
		svdUVh([]int{4, 2}, true),
		svdProj([]int{5, 2}, false),
		svdProj([]int{2, 5}, true),
		{op: "linalg_svd", shapes: [][]int{{3, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			o, err := svd(e, in[0], false)
			if err != nil {
				return nil, err
			}
			return o[1], nil // svdvals
		}},
		{op: "linalg_eigh", shapes: [][]int{{2, 4, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := sym(e, in[0])
			if err != nil {
				return nil, err
			}
			o, err := eigh(e, a)
			if err != nil {
				return nil, err
			}
			c, _ := tensor.FromFloat64s([]float64{1, -2, 0.5, 3}, []int{4}, tensor.F64)
			vc, err := e.mul(o[1], c) // V diag(c) Vᵀ is sign-invariant
			if err != nil {
				return nil, err
			}
			vt, err := e.mT(o[1])
			if err != nil {
				return nil, err
			}
			p, err := e.matmul(vc, vt)
			if err != nil {
				return nil, err
			}
			return flatCat(e, p, o[0])
		}},
		{op: "linalg_cholesky", shapes: [][]int{{2, 3, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := spd(e, in[0])
			if err != nil {
				return nil, err
			}
			return e.Apply("linalg_cholesky", []*T{a}, nil, func() (*T, error) { return kernels.Cholesky(a, false) })
		}},
		{op: "linalg_cholesky", shapes: [][]int{{4, 4}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := spd(e, in[0])
			if err != nil {
				return nil, err
			}
			return e.Apply("linalg_cholesky", []*T{a}, Attrs{"upper": true}, func() (*T, error) { return kernels.Cholesky(a, true) })
		}},
		{op: "linalg_qr", shapes: [][]int{{5, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			o, err := e.ApplyMulti("linalg_qr", in, Attrs{"mode": "reduced"}, func() ([]*T, error) {
				q, r, err := kernels.QR(in[0], "reduced")
				return []*T{q, r}, err
			})
			if err != nil {
				return nil, err
			}
			return flatCat(e, o[0], o[1])
		}},
		{op: "linalg_qr", shapes: [][]int{{2, 3, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			o, err := e.ApplyMulti("linalg_qr", in, Attrs{"mode": "complete"}, func() ([]*T, error) {
				q, r, err := kernels.QR(in[0], "complete")
				return []*T{q, r}, err
			})
			if err != nil {
				return nil, err
			}
			return flatCat(e, o[0], o[1])
		}},
		{op: "linalg_solve", shapes: [][]int{{3, 3}, {2, 3, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 3)
			if err != nil {
				return nil, err
			}
			return e.linalgSolve(a, in[1])
		}},
		{op: "linalg_solve", shapes: [][]int{{2, 3, 3}, {2, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 3)
			if err != nil {
				return nil, err
			}
			return e.linalgSolve(a, in[1]) // vector right-hand side
		}},
		{op: "linalg_solve_triangular", shapes: [][]int{{3, 3}, {3, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 3)
			if err != nil {
				return nil, err
			}
			return e.linalgSolveTriangular(a, in[1], true, true)
		}},
		{op: "linalg_solve_triangular", shapes: [][]int{{3, 3}, {2, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 3)
			if err != nil {
				return nil, err
			}
			return e.linalgSolveTriangular(a, in[1], false, false)
		}},
		{op: "linalg_inv", shapes: [][]int{{2, 3, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 2)
			if err != nil {
				return nil, err
			}
			return e.Apply("linalg_inv", []*T{a}, nil, func() (*T, error) { return kernels.Inv(a) })
		}},
		{op: "linalg_det", shapes: [][]int{{2, 3, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			return e.Apply("linalg_det", in, nil, func() (*T, error) { return kernels.Det(in[0]) })
		}},
		{op: "linalg_slogdet", shapes: [][]int{{3, 3}}, f: func(e *Engine, in []*T) (*T, error) {
			a, err := addDiag(e, in[0], 2)
			if err != nil {
				return nil, err
			}
			o, err := e.ApplyMulti("linalg_slogdet", []*T{a}, nil, func() ([]*T, error) {
				s, l, err := kernels.Slogdet(a)
				return []*T{s, l}, err
			})
			if err != nil {
				return nil, err
			}
			return o[1], nil
		}},
		{op: "linalg_pinv", shapes: [][]int{{4, 2}}, f: func(e *Engine, in []*T) (*T, error) {
			return e.Apply("linalg_pinv", in, nil, func() (*T, error) { return kernels.Pinv(in[0], kernels.Tol{}, false) })
		}},
		{op: "linalg_pinv", shapes: [][]int{{2, 2, 5}}, f: func(e *Engine, in []*T) (*T, error) {
			return e.Apply("linalg_pinv", in, nil, func() (*T, error) { return kernels.Pinv(in[0], kernels.Tol{}, false) })
		}},
	}
}

func TestGradcheckLinalg(t *testing.T) {
	covered := map[string]bool{}
	for i, c := range linalgGradCases() {
		covered[c.op] = true
		t.Run(fmt.Sprintf("%s_%d", c.op, i), func(t *testing.T) { gradcheck(t, c, uint64(100+i)) })
	}
	for _, op := range Ops() {
		if len(op) > 7 && op[:7] == "linalg_" && !covered[op] {
			t.Errorf("op %q has a derivative formula but no gradcheck case", op)
		}
	}
}

// TestDetBackwardSingular checks the cofactor branch: d det(A)/dA for a
// singular A of rank n−1 is its (non-zero) cofactor matrix.
func TestDetBackwardSingular(t *testing.T) {
	e := NewEngine()
	A, _ := tensor.FromFloat64s([]float64{1, 2, 3, 2, 4, 6, 1, 0, 1}, []int{3, 3}, tensor.F64)
	A.SetRequiresGrad(true)
	d, err := e.Apply("linalg_det", []*T{A}, nil, func() (*T, error) { return kernels.Det(A) })
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.Grad([]*T{d}, []*T{A}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	// cofactors of [[1,2,3],[2,4,6],[1,0,1]]
	want := []float64{4, 4, -4, -2, -2, 2, 0, 0, 0}
	for i, v := range g[0].ToFloat64s() {
		if d := v - want[i]; d > 1e-9 || d < -1e-9 {
			t.Fatalf("grad %v, want %v", g[0].ToFloat64s(), want)
		}
	}
}

// TestSVDValsRepeated checks that singular values of a matrix with
// repeated singular values (the identity) get the finite gradient U Vh.
func TestSVDValsRepeated(t *testing.T) {
	e := NewEngine()
	A, _ := tensor.Eye(3, 3, tensor.F64)
	A.SetRequiresGrad(true)
	o, err := e.ApplyMulti("linalg_svd", []*T{A}, nil, func() ([]*T, error) {
		u, s, vh, err := kernels.SVD(A, false)
		return []*T{u, s, vh}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := e.sum(o[1], nil, false)
	g, err := e.Grad([]*T{s}, []*T{A}, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range g[0].ToFloat64s() {
		want := 0.0
		if i%4 == 0 {
			want = 1
		}
		if d := v - want; d > 1e-12 || d < -1e-12 {
			t.Fatalf("grad of sum(svdvals(I)) = %v, want I", g[0].ToFloat64s())
		}
	}
}
