package gonumblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

func rnd(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64()*2 - 1
	}
	return v
}

func close(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) || (math.IsNaN(got[i]) != math.IsNaN(want[i])) {
			t.Fatalf("%s: [%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestDgemmMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ref, impl := gonum.Implementation{}, Implementation{}
	trans := []blas.Transpose{blas.NoTrans, blas.Trans}
	for _, dims := range [][3]int{{1, 1, 1}, {3, 5, 7}, {33, 17, 65}, {130, 70, 300}, {0, 3, 4}, {4, 3, 0}} {
		m, n, k := dims[0], dims[1], dims[2]
		for _, tA := range trans {
			for _, tB := range trans {
				for _, beta := range []float64{0, 1, -0.5} {
					lda, ldb, ldc := k+2, n+1, n+3
					if tA == blas.Trans {
						lda = m + 2
					}
					if tB == blas.Trans {
						ldb = k + 1
					}
					a, b := rnd(r, 400*lda+10), rnd(r, 400*ldb+10)
					c := rnd(r, max(m, 1)*ldc)
					c2 := append([]float64(nil), c...)
					ref.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, beta, c, ldc)
					impl.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, beta, c2, ldc)
					close(t, "Dgemm", c2, c, 1e-12)
				}
			}
		}
	}
}

func TestSgemmMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ref, impl := gonum.Implementation{}, Implementation{}
	m, n, k := 70, 45, 130
	a, b := make([]float32, m*k), make([]float32, k*n)
	for i := range a {
		a[i] = float32(r.Float64())
	}
	for i := range b {
		b[i] = float32(r.Float64())
	}
	c, c2 := make([]float32, m*n), make([]float32, m*n)
	ref.Sgemm(blas.Trans, blas.NoTrans, m, n, k, 1, a, m, b, n, 0, c, n)
	impl.Sgemm(blas.Trans, blas.NoTrans, m, n, k, 1, a, m, b, n, 0, c2, n)
	for i := range c {
		if math.Abs(float64(c[i]-c2[i])) > 1e-4*math.Abs(float64(c[i])) {
			t.Fatalf("Sgemm [%d] = %v, want %v", i, c2[i], c[i])
		}
	}
}

func TestDsyrkMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ref, impl := gonum.Implementation{}, Implementation{}
	for _, n := range []int{5, 65, 150} {
		for _, k := range []int{1, 40, 131} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					lda := k + 1
					if tA == blas.Trans {
						lda = n + 1
					}
					a := rnd(r, 200*lda)
					ldc := n + 2
					c := rnd(r, n*ldc)
					c2 := append([]float64(nil), c...)
					ref.Dsyrk(ul, tA, n, k, 0.7, a, lda, 0.3, c, ldc)
					impl.Dsyrk(ul, tA, n, k, 0.7, a, lda, 0.3, c2, ldc)
					close(t, "Dsyrk", c2, c, 1e-12)
				}
			}
		}
	}
}

func TestPanicsLikeGonum(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("no panic for short A")
		}
	}()
	Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, 3, 3, 3, 1, make([]float64, 2), 3, make([]float64, 9), 3, 0, make([]float64, 9), 3)
}

// TestCholeskyThroughLAPACK installs the implementation globally and checks
// that gonum's LAPACK Cholesky factorises an SPD matrix correctly with it.
func TestCholeskyThroughLAPACK(t *testing.T) {
	old := blas64.Implementation()
	blas64.Use(Implementation{})
	defer blas64.Use(old)
	n := 300
	r := rand.New(rand.NewPCG(7, 8))
	x := mat.NewDense(n, n, rnd(r, n*n))
	var spd mat.SymDense
	spd.SymOuterK(1, x)
	for i := 0; i < n; i++ {
		spd.SetSym(i, i, spd.At(i, i)+float64(n))
	}
	a := blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.Data[i*n+j] = spd.At(i, j)
		}
	}
	if _, ok := lapack64.Potrf(a); !ok {
		t.Fatal("Potrf failed")
	}
	// Check U^T U == spd.
	u := mat.NewTriDense(n, mat.Upper, a.Data)
	var prod mat.Dense
	prod.Mul(u.T(), u)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if math.Abs(prod.At(i, j)-spd.At(i, j)) > 1e-9*float64(n) {
				t.Fatalf("U^T U [%d,%d] = %v, want %v", i, j, prod.At(i, j), spd.At(i, j))
			}
		}
	}
}
