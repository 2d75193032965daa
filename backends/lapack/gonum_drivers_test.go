package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// Tests of the gonum engine's own SVD and eigh drivers (gesvdRows,
// syevRows), beyond the golden cases: tall, wide and square shapes in both
// modes, repeated and clustered values, indefinite and scaled matrices.
// Eigenvalues are compared with gonum's Dsyev without vectors (Dsterf, an
// independent algorithm) and singular values with gonum's Dgesvd.

func checkSVD(t *testing.T, m, n int, a []float64, full bool) {
	t.Helper()
	u, s, vt, info := gesvdRows(m, n, a, full)
	if info != 0 {
		t.Fatalf("%dx%d full=%v: info %d", m, n, full, info)
	}
	k := min(m, n)
	ucols, vrows := k, k
	if full {
		ucols, vrows = m, n
	}
	if len(u) != m*ucols || len(vt) != vrows*n || len(s) != k {
		t.Fatalf("%dx%d full=%v: lengths %d %d %d", m, n, full, len(u), len(s), len(vt))
	}
	norm := max(maxAbs(a), 1e-300)
	tol := 1e-13 * float64(max(m, n)) * norm
	_, sRef, _, _ := gonum64{}.gesdd(m, n, a, 'N')
	closeTo(t, "s vs Dgesvd", s, sRef, tol)
	if !slices.IsSortedFunc(s, func(x, y float64) int { return -cmpF(x, y) }) {
		t.Fatalf("s not descending: %v", s)
	}
	us := make([]float64, m*k)
	for i := range m {
		for j := range k {
			us[i*k+j] = u[i*ucols+j] * s[j]
		}
	}
	closeTo(t, "U S Vt", matmul(m, k, n, us, vt[:k*n]), a, tol)
	checkOrtho(t, "U", m, ucols, u, true, 1e-13*float64(m))
	checkOrtho(t, "Vt", vrows, n, vt, false, 1e-13*float64(n))
}

func cmpF(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func TestGonumSVDDriver(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][2]int{{1, 1}, {1, 7}, {7, 1}, {2, 2}, {40, 40}, {70, 30}, {30, 70}, {130, 129}} {
		a := randMat(r, sh[0], sh[1])
		for _, full := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dx%d/full=%v", sh[0], sh[1], full), func(t *testing.T) {
				checkSVD(t, sh[0], sh[1], a, full)
			})
		}
	}
	// Rank-deficient (repeated zero singular values), the zero matrix,
	// and extreme scales (the rangeScale path).
	m, n := 20, 12
	lowRank := matmul(m, 3, n, randMat(r, m, 3), randMat(r, 3, n))
	for name, a := range map[string][]float64{
		"rank3": lowRank,
		"zero":  make([]float64, m*n),
		"tiny":  scaled(lowRank, 1e-300),
		"huge":  scaled(lowRank, 1e300),
	} {
		t.Run(name, func(t *testing.T) { checkSVD(t, m, n, a, true) })
	}
}

func scaled(a []float64, f float64) []float64 {
	b := slices.Clone(a)
	for i := range b {
		b[i] *= f
	}
	return b
}

func checkEigh(t *testing.T, n int, a []float64, lower bool) {
	t.Helper()
	uplo := blas.Upper
	if lower {
		uplo = blas.Lower
	}
	w, v, info := syevRows(n, slices.Clone(a), uplo)
	if info != 0 {
		t.Fatalf("n=%d: info %d", n, info)
	}
	// The full symmetric matrix from the triangle read.
	s := slices.Clone(a)
	for i := range n {
		for j := range i {
			if lower {
				s[j*n+i] = s[i*n+j]
			} else {
				s[i*n+j] = s[j*n+i]
			}
		}
	}
	norm := max(maxAbs(s), 1e-300)
	tol := 1e-13 * float64(n) * norm
	wRef, _, info := gonum64{}.syevd(n, a, lower, false)
	if info != 0 {
		t.Fatalf("Dsyev info %d", info)
	}
	closeTo(t, "w vs Dsyev", w, wRef, tol)
	if !slices.IsSorted(w) {
		t.Fatalf("w not ascending: %v", w)
	}
	vw := make([]float64, n*n)
	for i := range n {
		for j := range n {
			vw[i*n+j] = v[i*n+j] * w[j]
		}
	}
	closeTo(t, "A V = V diag(w)", matmul(n, n, n, s, v), vw, tol)
	checkOrtho(t, "V", n, n, v, true, 1e-13*float64(n))
}

func TestGonumEighDriver(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sym := func(n int) []float64 {
		a := randMat(r, n, n)
		return matmul(n, n, n, a, tr64(n, n, a)) // PSD, then made indefinite below
	}
	for _, n := range []int{1, 2, 3, 50, 97} {
		a := sym(n)
		for i := range n {
			a[i*n+i] -= float64(n) / 2 // indefinite
		}
		for _, lower := range []bool{true, false} {
			t.Run(fmt.Sprintf("n=%d/lower=%v", n, lower), func(t *testing.T) { checkEigh(t, n, a, lower) })
		}
	}
	n := 16
	ident := identity[float64](n)
	neg := scaled(ident, -3)
	// A matrix with a 5-fold repeated eigenvalue and a cluster.
	q, _, _, _ := gesvdRows(n, n, randMat(r, n, n), false)
	diag := []float64{2, 2, 2, 2, 2, 1, 1 + 1e-12, 1 - 1e-12, -4, 0, 0, 3, 5, 7, 9, 11}
	qd := make([]float64, n*n)
	for i := range n {
		for j := range n {
			qd[i*n+j] = q[i*n+j] * diag[j]
		}
	}
	repeated := matmul(n, n, n, qd, tr64(n, n, q))
	garbage := slices.Clone(repeated) // the unread triangle must not matter
	for i := range n {
		for j := i + 1; j < n; j++ {
			garbage[i*n+j] = math.NaN()
		}
	}
	for name, a := range map[string][]float64{
		"identity": ident, "-3I": neg, "zero": make([]float64, n*n),
		"repeated": repeated, "upper-garbage": garbage,
		"tiny": scaled(repeated, 1e-300), "huge": scaled(repeated, 1e300),
	} {
		t.Run(name, func(t *testing.T) { checkEigh(t, n, a, true) })
	}
}
