// Package lapack is tsr's dense linear-algebra layer: SVD, symmetric and
// general eigendecomposition, Cholesky, LU, solve, inverse, determinants, QR
// and least squares on raw row-major float64/float32 slices.
//
// # Two implementations
//
// Every function runs on one of two engines, chosen at run time:
//
//   - the system LAPACK (OpenBLAS, or any library exporting the reference
//     Fortran symbols such as dgesdd_), loaded with dlopen through
//     github.com/ebitengine/purego, so no cgo is needed;
//   - gonum's pure-Go LAPACK (gonum.org/v1/gonum/lapack/gonum), always
//     available, but slower for SVD and eigenproblems (QR iteration
//     instead of divide and conquer, scalar Givens rotations). Its level-3
//     BLAS is tsr's GEMM (backends/gonumblas, installed process-wide with
//     blas64.Use when the engine is first selected), and SVD and Eigh with
//     vectors use this package's own drivers around gonum's routines, which
//     apply every rotation to contiguous rows, in cache-sized column blocks
//     on all cores (see gesvdRows and syevRows in gonum_kernels.go).
//
// The system library is looked up lazily on first use. The environment
// variable TSR_LAPACK selects the engine: "gonum" forces the fallback, a path
// (containing '/') loads exactly that library, anything else (or unset)
// searches libopenblas.so.0, libopenblas.so, the Debian/Ubuntu
// openblas-pthread directories, libopenblasp-r0.*.so, then liblapack.so.3
// (OpenBLAS first: a bare liblapack.so.3 may be the slow reference
// implementation); see [Backend], [SystemLibrary] and [SetBackend]. A
// library missing any of the twenty routines used is skipped.
//
// # Layout
//
// All matrices are dense row-major: element (i, j) of an m×n matrix is
// a[i*n+j]. LAPACK is column-major; a row-major buffer of A is a
// column-major buffer of Aᵀ, which the system engine exploits where the
// algebra allows (SVD: Aᵀ = U'ΣV'ᵀ gives A = V'ΣU'ᵀ, so LAPACK's U and Vᵀ
// outputs are read as our Vᵀ and U with no copy; Cholesky and symmetric
// eigenproblems: the lower triangle of a row-major buffer is the upper
// triangle of the column-major one; inverse: inv(Aᵀ)ᵀ = inv(A); solve: factor
// Aᵀ and call xGETRS with TRANS='T'). Solve and inverse thus factor Aᵀ, as
// PyTorch does for row-major input, so the zero-pivot index in
// "linalg.inv: The diagonal element k is zero" is PyTorch's. LU, QR, Eig and
// Lstsq need the factorization of A itself: the input is copied transposed
// (O(n²) next to the O(n³) factorization), so LU pivots equal PyTorch's.
//
// Inputs are never modified. Results are freshly allocated.
//
// # Conventions (PyTorch's torch.linalg)
//
// Singular values are descending, symmetric eigenvalues ascending, pivots are
// LAPACK's 1-based ipiv, a 0-size matrix gives correctly shaped empty
// results (det of a 0×0 matrix is 1). Numerical failures are returned as
// *Error with ErrorKind() "LinAlgError" and PyTorch's message text
// (torch.linalg.LinAlgError is a subclass of RuntimeError); malformed
// arguments give "ValueError" or "RuntimeError". No function panics on bad
// input: a panic inside an engine is recovered and returned as a
// RuntimeError.
//
// # Precision
//
// The float32 variants call the s-routines (sgesdd_, ...) of the system
// LAPACK; gonum has no float32 LAPACK, so the gonum engine computes float32
// inputs in float64 and rounds the results.
//
// # Concurrency
//
// All functions are safe for concurrent use. Batched inputs are the caller's
// loop (one call per matrix).
//
// # Fortran calling convention
//
// Every LAPACK argument is passed by pointer, integers as 32-bit (LP64
// OpenBLAS; ILP64 "64_" builds are not used). Character arguments (jobz,
// uplo, trans) get gfortran's hidden string-length arguments appended after
// the explicit ones as size_t values of 1; C-translated LAPACKs ignore them
// harmlessly under the System V calling convention.
package lapack
