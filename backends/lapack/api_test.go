package lapack

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

func wantKind(t *testing.T, err error, kind, substr string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *Error of kind %s", err, err, kind)
	}
	if e.ErrorKind() != kind || !strings.Contains(e.Error(), substr) {
		t.Fatalf("got %s %q, want %s containing %q", e.ErrorKind(), e.Error(), kind, substr)
	}
}

func TestBadArguments(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		a := []float64{1, 2, 3}
		_, _, _, err := SVD(2, 2, a, false)
		wantKind(t, err, KindValue, "linalg.svd: A: expected a slice of 2×2 = 4 elements, got 3")
		_, err = SVDVals(-1, 2, a)
		wantKind(t, err, KindValue, "negative matrix size -1×2")
		_, _, err = Eigh(2, a, true)
		wantKind(t, err, KindValue, "linalg.eigh")
		_, _, _, _, err = Eig(2, a)
		wantKind(t, err, KindValue, "linalg.eig")
		_, err = Cholesky(2, a, false)
		wantKind(t, err, KindValue, "linalg.cholesky")
		_, _, err = LU(2, a)
		wantKind(t, err, KindValue, "linalg.lu_factor")
		_, err = Solve(1, 2, []float64{1}, a)
		wantKind(t, err, KindValue, "linalg.solve: B: expected a slice of 1×2 = 2 elements, got 3")
		_, err = Inv(2, a)
		wantKind(t, err, KindValue, "linalg.inv")
		_, err = Det(2, a)
		wantKind(t, err, KindValue, "linalg.det")
		_, _, err = Slogdet(2, a)
		wantKind(t, err, KindValue, "linalg.slogdet")
		_, _, err = QR(1, 3, a, "economic")
		wantKind(t, err, KindRuntime, "linalg.qr: received unrecognized mode 'economic' but expected one of 'reduced' (default), 'r', or 'complete'")
		_, _, _, _, err = Lstsq(3, 1, 2, a, a, -1)
		wantKind(t, err, KindValue, "linalg.lstsq: B")
		_, err = SVDVals[float32](1<<31, 0, nil)
		wantKind(t, err, KindValue, "too large")
	})
}

func TestNonFinite(t *testing.T) {
	nan := math.NaN()
	forEachBackend(t, func(t *testing.T) {
		a := []float64{1, nan, 0, 1}
		_, _, _, err := SVD(2, 2, a, true)
		wantKind(t, err, KindLinAlg, "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.")
		_, err = SVDVals(2, 2, []float32{1, float32(math.Inf(1)), 0, 1})
		wantKind(t, err, KindLinAlg, "non-finite")
		_, _, _, _, err = Eig(2, a)
		wantKind(t, err, KindRuntime, "linalg.eig: input tensor should not contain infs or NaNs.")
		_, _, _, _, err = Lstsq(2, 2, 1, []float64{1, 0, 0, 1}, []float64{nan, 1}, -1)
		wantKind(t, err, KindLinAlg, "linalg.lstsq")
		// eigh reads one triangle: NaN there gives NaN results (PyTorch),
		// NaN in the other triangle is ignored.
		w, v, err := Eigh(2, a, false)
		if err != nil || !math.IsNaN(w[0]) || !math.IsNaN(v[3]) {
			t.Fatalf("Eigh(NaN upper) = %v %v %v", w, v, err)
		}
		w, _, err = Eigh(2, a, true)
		if err != nil || w[0] != 1 || w[1] != 1 {
			t.Fatalf("Eigh(lower) = %v %v", w, err)
		}
		d, err := Det(2, a)
		if err != nil || !math.IsNaN(d) {
			t.Fatalf("Det(NaN) = %v %v", d, err)
		}
		s, l, err := Slogdet(2, a)
		if err != nil || !math.IsNaN(s) || !math.IsNaN(l) {
			t.Fatalf("Slogdet(NaN) = %v %v %v", s, l, err)
		}
	})
}

func TestErrorFormatting(t *testing.T) {
	e := errNotPD(opCholesky, 3)
	want := "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 3 is not positive-definite)."
	if e.Error() != want || e.ErrorKind() != "LinAlgError" || e.Info != 3 {
		t.Fatalf("%q %s %d", e.Error(), e.ErrorKind(), e.Info)
	}
	b := e.WithBatch(4)
	if got := b.Error(); got != "linalg.cholesky: (Batch element 4): The factorization could not be completed because the input is not positive-definite (the leading minor of order 3 is not positive-definite)." {
		t.Fatal(got)
	}
	if e.Error() != want {
		t.Fatal("WithBatch modified the receiver")
	}
	// tsr's runtime.HasKind contract, by duck typing.
	var hk interface {
		error
		ErrorKind() string
	} = e
	_ = hk
}

func TestBackendSelection(t *testing.T) {
	if b := Backend(); b != "gonum" && !strings.HasPrefix(b, "openblas (") && !strings.HasPrefix(b, "lapack (") {
		t.Fatalf("Backend() = %q", b)
	}
	defer SetBackend("auto")
	if err := SetBackend("cuda"); err == nil {
		t.Fatal("SetBackend(cuda) succeeded")
	}
	if err := SetBackend("gonum"); err != nil || Backend() != "gonum" {
		t.Fatalf("gonum: %v %q", err, Backend())
	}
	if desc, err := SystemLibrary(); err == nil {
		if err := SetBackend("system"); err != nil || Backend() != desc {
			t.Fatalf("system: %v %q %q", err, Backend(), desc)
		}
		t.Logf("system LAPACK: %s", desc)
	} else {
		t.Logf("no system LAPACK: %v", err)
	}
	// TSR_LAPACK=gonum forces the fallback at first use.
	t.Setenv("TSR_LAPACK", "gonum")
	defaultOnce = sync.Once{}
	if b := Backend(); b != "gonum" {
		t.Fatalf("TSR_LAPACK=gonum: Backend() = %q", b)
	}
	t.Setenv("TSR_LAPACK", "")
	defaultOnce = sync.Once{}
	if _, err := SystemLibrary(); err == nil && Backend() == "gonum" {
		t.Fatal("default did not pick the system library")
	}
	_, err := loadSystem([]string{"/nonexistent/libnothing.so"})
	wantKind(t, err, KindRuntime, "system LAPACK not found (tried /nonexistent/libnothing.so)")
	// libc has no LAPACK symbols.
	_, err = loadSystem([]string{"libc.so.6"})
	wantKind(t, err, KindRuntime, "symbol dgesdd_ not found")
}

func randMat(r *rand.Rand, m, n int) []float64 {
	a := make([]float64, m*n)
	for i := range a {
		a[i] = r.NormFloat64()
	}
	return a
}

// TestLargerRandom exercises the blocked code paths (sizes above LAPACK's
// and gonum's block sizes) through invariants only.
func TestLargerRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const m, n = 150, 90
	a := randMat(r, m, n)
	sq := randMat(r, n, n)
	spd := matmul(n, n, n, sq, tr64(n, n, sq))
	for i := 0; i < n; i++ {
		spd[i*n+i] += float64(n)
	}
	b := randMat(r, m, 3)
	const tl = 1e-10
	forEachBackend(t, func(t *testing.T) {
		u, s, vt, err := SVD(m, n, a, false)
		if err != nil {
			t.Fatal(err)
		}
		us := make([]float64, m*n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				us[i*n+j] = u[i*n+j] * s[j]
			}
		}
		closeTo(t, "U S Vt", matmul(m, n, n, us, vt), a, tl)
		checkOrtho(t, "U", m, n, u, true, tl)

		w, v, err := Eigh(n, spd, true)
		if err != nil {
			t.Fatal(err)
		}
		vw := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				vw[i*n+j] = v[i*n+j] * w[j]
			}
		}
		closeTo(t, "A V", matmul(n, n, n, spd, v), vw, tl*maxAbs(spd))

		l, err := Cholesky(n, spd, false)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "L Lᵀ", matmul(n, n, n, l, tr64(n, n, l)), spd, tl*maxAbs(spd))

		x, err := Solve(n, 3, sq, b[:n*3])
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "A x", matmul(n, n, 3, sq, x), b[:n*3], tl*100)

		inv, err := Inv(n, sq)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "A inv", matmul(n, n, n, sq, inv), identity[float64](n), tl*100)

		q, rr, err := QR(m, n, a, "complete")
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "Q R", matmul(m, m, n, q, rr), a, tl)
		checkOrtho(t, "Q", m, m, q, true, tl)

		xl, res, rank, _, err := Lstsq(m, n, 3, a, b, -1)
		if err != nil || rank != n || len(res) != 3 {
			t.Fatal(err, rank, len(res))
		}
		// Normal equations: Aᵀ (A x − b) = 0.
		rv := matmul(m, n, 3, a, xl)
		for i := range rv {
			rv[i] -= b[i]
		}
		closeTo(t, "Aᵀ r", matmul(n, m, 3, tr64(m, n, a), rv), make([]float64, n*3), tl*100)

		// float32 path on the same data, looser.
		a32 := from64[float32](a)
		s32, err := SVDVals(m, n, a32)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "s f32", to64(s32), s, 1e-4*s[0])
		d32, err := Det(n, from64[float32](spd[:n*n]))
		sg, lad, err2 := Slogdet(n, spd)
		if err != nil || err2 != nil || sg != 1 || !math.IsInf(float64(d32), 1) && math.Abs(math.Log(float64(d32))-lad) > 1e-3 {
			t.Fatalf("det f32 %v, slogdet %v %v (%v %v)", d32, sg, lad, err, err2)
		}
	})
}

func TestConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 40
	a := randMat(r, n, n)
	forEachBackend(t, func(t *testing.T) {
		want, err := SVDVals(n, n, a)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for it := 0; it < 5; it++ {
					s, err := SVDVals(n, n, a)
					if err != nil {
						errs <- err
						return
					}
					for i := range s {
						if math.Abs(s[i]-want[i]) > 1e-12*want[0] {
							errs <- errors.New("concurrent SVD result differs")
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	})
}

func TestEigComplexPairs(t *testing.T) {
	// Rotation by 90° scaled: eigenvalues ±2i, eigenvectors (1, ∓i)/√2.
	a := []float64{0, -2, 2, 0}
	forEachBackend(t, func(t *testing.T) {
		wr, wi, vr, vi, err := Eig(2, a)
		if err != nil {
			t.Fatal(err)
		}
		closeTo(t, "wr", wr, []float64{0, 0}, 1e-15)
		closeTo(t, "wi", wi, []float64{2, -2}, 1e-15)
		// Conjugate pair: v1 = conj(v0).
		for i := 0; i < 2; i++ {
			if vr[i*2] != vr[i*2+1] || vi[i*2] != -vi[i*2+1] {
				t.Fatalf("not a conjugate pair: %v %v", vr, vi)
			}
		}
	})
}

// TestInvMatchesTorch: with the system LAPACK, Inv is PyTorch's
// linalg.inv bit for bit, which is linalg.solve(A, I) (xGETRF + xGETRS),
// signed zeros included (xGETRI gave -0.0 at [2, 1] here, printed by
// PyTorch's formatter as -0.0000).
func TestInvMatchesTorch(t *testing.T) {
	defer SetBackend("auto")
	if err := SetBackend("system"); err != nil {
		t.Skip("system LAPACK not found: apt-get install libopenblas0-pthread")
	}
	a := []float64{4, 1, 2, 1, 3, 0.5, 2, 0.5, 5}
	want := []float64{ // torch.linalg.inv(A.double()).tolist()
		0.3352272727272727, -0.09090909090909091, -0.125,
		-0.09090909090909091, 0.36363636363636365, 0.0,
		-0.125, 0.0, 0.25}
	want32 := []float32{ // torch.linalg.inv(A).tolist() (f32)
		0.33522728085517883, -0.09090909361839294, -0.125,
		-0.09090909361839294, 0.3636363744735718, 0.0,
		-0.125, 0.0, 0.25}
	got, err := Inv(3, a)
	if err != nil {
		t.Fatal(err)
	}
	got32, err := Inv(3, fromF64[float32](a))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("f64 inv[%d] = %v, want %v", i, got[i], want[i])
		}
		if math.Float32bits(got32[i]) != math.Float32bits(want32[i]) {
			t.Errorf("f32 inv[%d] = %v, want %v", i, got32[i], want32[i])
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 7, 31, 70} {
		m := randMat(r, n, n)
		id := make([]float64, n*n)
		for i := 0; i < n; i++ {
			id[i*n+i] = 1
		}
		inv, err := Inv(n, m)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := Solve(n, n, m, id)
		if err != nil {
			t.Fatal(err)
		}
		for i := range inv {
			if math.Float64bits(inv[i]) != math.Float64bits(sol[i]) {
				t.Fatalf("n=%d: inv[%d] = %v, solve(A, I) = %v", n, i, inv[i], sol[i])
			}
		}
	}
	// a zero pivot still reports PyTorch's index
	_, err = Inv(2, []float64{1, 2, 2, 4})
	wantKind(t, err, KindLinAlg, "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.")
}
