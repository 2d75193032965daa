package lapack

import "fmt"

// Error kinds reported by [Error.ErrorKind]. They are the names of tsr's (and
// Python's) exception classes.
const (
	// KindLinAlg is a numerical failure: singular matrix, matrix not
	// positive-definite, no convergence. PyTorch raises
	// torch.linalg.LinAlgError, a subclass of RuntimeError.
	KindLinAlg = "LinAlgError"
	// KindRuntime is a failure that PyTorch reports as a plain RuntimeError
	// (unknown QR mode, zero pivot in linalg.lu_factor, internal errors).
	KindRuntime = "RuntimeError"
	// KindValue is a malformed call: negative sizes, a slice whose length
	// does not match the stated shape.
	KindValue = "ValueError"
)

// Error is the error type returned by every function of this package. Its
// message is PyTorch's, e.g.
//
//	linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 3 is not positive-definite).
//
// It satisfies tsr's runtime.HasKind interface through ErrorKind.
type Error struct {
	// Kind is one of KindLinAlg, KindRuntime, KindValue.
	Kind string
	// Op is the user-facing operation, e.g. "linalg.svd".
	Op string
	// Msg is the text after "Op: ".
	Msg string
	// Info is the LAPACK info code (> 0) behind a numerical failure, 0 when
	// not applicable. For LU, solve and inv it is the 1-based index of the
	// first exactly-zero pivot U[i,i]; for Cholesky the order of the first
	// leading minor that is not positive-definite.
	Info int
	// batch is 1 + the batch index set by WithBatch, 0 when unset.
	batch int
}

// Error returns "Op: Msg", or "Op: (Batch element i): Msg" after WithBatch,
// matching PyTorch's _linalg_check_errors.
func (e *Error) Error() string {
	if e.batch > 0 {
		return fmt.Sprintf("%s: (Batch element %d): %s", e.Op, e.batch-1, e.Msg)
	}
	return e.Op + ": " + e.Msg
}

// ErrorKind returns the tsr error kind: "LinAlgError", "RuntimeError" or
// "ValueError".
func (e *Error) ErrorKind() string { return e.Kind }

// WithBatch returns a copy of e whose message names batch element i
// (0-based), for callers that loop over a batch of matrices.
func (e *Error) WithBatch(i int) *Error {
	c := *e
	c.batch = i + 1
	return &c
}

func newErr(kind, op string, info int, format string, args ...any) *Error {
	return &Error{Kind: kind, Op: op, Info: info, Msg: fmt.Sprintf(format, args...)}
}

func valueErr(op, format string, args ...any) *Error {
	return newErr(KindValue, op, 0, format, args...)
}

// Messages of PyTorch's _linalg_check_errors (aten/src/ATen/native/BatchLinearAlgebra.cpp).
func errSingularSolve(op string, info int) *Error {
	return newErr(KindLinAlg, op, info, "The solver failed because the input matrix is singular.")
}

func errSingularInv(op string, info int) *Error {
	return newErr(KindLinAlg, op, info, "The diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", info)
}

func errNotPD(op string, info int) *Error {
	return newErr(KindLinAlg, op, info, "The factorization could not be completed because the input is not positive-definite (the leading minor of order %d is not positive-definite).", info)
}

func errSVDConv(op string, info int) *Error {
	return newErr(KindLinAlg, op, info, "The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated singular values (error code: %d).", info)
}

func errEigConv(op string, info int) *Error {
	return newErr(KindLinAlg, op, info, "The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated eigenvalues (error code: %d).", info)
}

func errNonFinite(op string) *Error {
	return newErr(KindLinAlg, op, 0, "The algorithm failed to converge because the input matrix contained non-finite values.")
}

func errLUZeroPivot(op string, info int) *Error {
	return newErr(KindRuntime, op, info, "U[%d,%d] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", info, info)
}

func errIllegal(op string, info int) *Error {
	return newErr(KindRuntime, op, info, "Argument %d has illegal value. Most certainly there is a bug in the implementation calling the backend library.", -info)
}

// IsSingular reports whether err is the zero-pivot error of LU (the
// factorization itself is still valid and returned), so that callers
// implementing torch.linalg.lu or lu_factor_ex can ignore it.
func IsSingular(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Info > 0 && e.Op == opLUFactor
}
