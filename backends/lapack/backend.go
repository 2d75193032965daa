package lapack

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/tsrlang/tsr/backends/gonumblas"
)

// Float is the element type of every function: float32 or float64.
type Float interface {
	float32 | float64
}

// qrMode is the parsed mode argument of QR.
type qrMode int

const (
	qrReduced qrMode = iota
	qrComplete
	qrR
)

// kernels is one engine's implementation for one element type. Contract for
// every method: sizes are positive (the public layer handles 0-size cases),
// inputs are read-only, outputs are fresh row-major slices, info follows
// LAPACK (0 success, > 0 routine-specific failure, < 0 illegal argument).
type kernels[T Float] interface {
	// gesdd: job 'A' (u m×m, vt n×n), 'S' (u m×k, vt k×n) or 'N' (s only).
	gesdd(m, n int, a []T, job byte) (u, s, vt []T, info int)
	// syevd: reads the lower (lower=true) or upper triangle; w ascending,
	// v (if wantV) has the eigenvectors as columns.
	syevd(n int, a []T, lower, wantV bool) (w, v []T, info int)
	// geev: right eigenvectors packed as LAPACK does (complex pairs in
	// consecutive columns), as columns of row-major v.
	geev(n int, a []T, wantV bool) (wr, wi, v []T, info int)
	// potrf: factor of the named triangle; the other triangle is garbage.
	potrf(n int, a []T, upper bool) (f []T, info int)
	// getrf: LU with 1-based pivots.
	getrf(n int, a []T) (lu []T, piv []int, info int)
	// detLU: diagonal of U and the number of row interchanges of an LU of
	// A or Aᵀ (same determinant).
	detLU(n int, a []T) (diag []T, swaps int)
	// gesv: solution of A X = B, B n×nrhs.
	gesv(n, nrhs int, a, b []T) (x []T, info int)
	// gesvT: solution of Aᵀ X = B from an LU of Aᵀ (system LAPACK: the
	// row-major buffer factored as it is, then xGETRS with TRANS='N').
	gesvT(n, nrhs int, a, b []T) (x []T, info int)
	// getri: inverse (system LAPACK: getrf + getrs on the identity);
	// info is getrf's on singular input.
	getri(n int, a []T) (inv []T, info int)
	// geqrf: Householder QR (geqrf+orgqr).
	geqrf(m, n int, a []T, mode qrMode) (q, r []T, info int)
	// gelsd: minimum-norm least squares via SVD; resid is non-nil only
	// when m > n and rank == n.
	gelsd(m, n, nrhs int, a, b []T, rcond T) (x, resid, sv []T, rank, info int)
}

// engine is one implementation for both element types.
type engine struct {
	name string
	f64  kernels[float64]
	f32  kernels[float32]
}

// kern returns e's kernels for element type T.
func kern[T Float](e *engine) kernels[T] {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(e.f32).(kernels[T])
	}
	return any(e.f64).(kernels[T])
}

var (
	gonumEngine = &engine{name: "gonum", f64: gonum64{}, f32: gonum32{}}

	sysOnce   sync.Once
	sysEngine *engine
	sysErr    error

	defaultOnce sync.Once
	current     atomic.Pointer[engine]
)

var tsrBLASOnce sync.Once

// useGonum makes the gonum engine current. The first time, it installs
// backends/gonumblas as gonum's float64 BLAS (blas64.Use), so that the
// blocked level-3 parts of gonum's LAPACK (Dgemm in Dlarfb, Dlabrd/Dgebrd,
// Dlatrd/Dsytrd, Dgetrf, Dpotrf, ...) run on tsr's packed SIMD GEMM
// instead of gonum's pure-Go one. blas64.Use is process-wide: gonum/mat
// code in the same process then uses that BLAS too (same results up to
// rounding).
func useGonum() {
	tsrBLASOnce.Do(func() { blas64.Use(gonumblas.Implementation{}) })
	current.Store(gonumEngine)
}

// system loads the system LAPACK once and returns its engine or the reason
// it is unavailable.
func system() (*engine, error) {
	sysOnce.Do(func() {
		env := os.Getenv("TSR_LAPACK")
		var names []string
		if strings.ContainsRune(env, '/') {
			names = []string{env}
		} else {
			names = libraryCandidates()
		}
		sysEngine, sysErr = loadSystem(names)
	})
	return sysEngine, sysErr
}

func active() *engine {
	defaultOnce.Do(func() {
		if strings.EqualFold(os.Getenv("TSR_LAPACK"), "gonum") {
			useGonum()
			return
		}
		if e, err := system(); err == nil {
			current.Store(e)
		} else {
			useGonum()
		}
	})
	return current.Load()
}

// Backend describes the engine in use: "openblas (PATH)" or "lapack (PATH)"
// for a system library (PATH is the file actually mapped), or "gonum" for
// the pure-Go fallback. The first call loads the system library unless
// TSR_LAPACK=gonum.
func Backend() string { return active().name }

// SystemLibrary loads (once) the system LAPACK and returns its description
// as in [Backend], or the error explaining why none could be used (library
// not found, or a required symbol missing). It does not change the engine
// in use.
func SystemLibrary() (string, error) {
	e, err := system()
	if err != nil {
		return "", err
	}
	return e.name, nil
}

// SetBackend selects the engine used by all later calls, process-wide:
// "gonum" for the pure-Go fallback, "system" for the system LAPACK (an error
// if it cannot be loaded; the engine is then unchanged), "auto" for the
// default choice (system if available, else gonum, ignoring TSR_LAPACK). It
// is meant for tests and benchmarks that compare the engines in one process;
// calls already running finish on the engine they started with.
func SetBackend(name string) error {
	active()
	switch strings.ToLower(name) {
	case "gonum":
		useGonum()
	case "system":
		e, err := system()
		if err != nil {
			return err
		}
		current.Store(e)
	case "auto":
		if e, err := system(); err == nil {
			current.Store(e)
		} else {
			useGonum()
		}
	default:
		return valueErr("lapack.SetBackend", "unknown backend %q (want \"gonum\", \"system\" or \"auto\")", name)
	}
	return nil
}

// recoverTo converts a panic inside an engine into a RuntimeError stored in
// *err, so that no panic escapes the package.
func recoverTo(op string, err *error) {
	if r := recover(); r != nil {
		*err = newErr(KindRuntime, op, 0, "internal error in %s: %v", Backend(), r)
	}
}
