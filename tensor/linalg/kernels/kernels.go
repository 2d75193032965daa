// Package kernels is the pure, tensor-level layer of tsr's linear algebra:
// each function takes *tensor.Tensor operands of shape [..., m, n], checks
// dtypes and shapes with PyTorch's messages, loops over the leading (batch)
// dims calling one backends/lapack routine per matrix, and returns freshly
// allocated contiguous results in the input's dtype.
//
// Nothing here records autograd history: the differentiable, user-facing
// API is package tensor/linalg, which runs these functions inside the
// autograd engine (and the engine's derivative formulas call them too).
//
// Dtypes: f32 and f64 only. f16/bf16 and integer inputs are rejected with
// the RuntimeError PyTorch's CPU kernels raise. Numerical failures are
// *lapack.Error values of kind "LinAlgError" (PyTorch's
// torch.linalg.LinAlgError, a subclass of RuntimeError); inside a batch
// they name the batch element.
//
// Matrices inside a batch are computed one after the other (each LAPACK
// call may itself be multi-threaded by the system library).
package kernels

import (
	"fmt"

	"github.com/tsrlang/tsr/backends/lapack"
	"github.com/tsrlang/tsr/tensor"
)

// T is a shorthand for the tensor type.
type T = tensor.Tensor

// Error is the error type of argument problems found here (wrong rank,
// dtype, shapes). Numerical failures come back as *lapack.Error.
type Error struct {
	Kind string // "RuntimeError" or "ValueError"
	Msg  string
}

func (e *Error) Error() string     { return e.Msg }
func (e *Error) ErrorKind() string { return e.Kind }

func errorf(format string, args ...any) error {
	return &Error{Kind: "RuntimeError", Msg: fmt.Sprintf(format, args...)}
}

// TorchName returns PyTorch's scalar-type name of dt ("Float", "Long"), as
// it appears in error messages.
func TorchName(dt tensor.DType) string { return dt.TorchName() }

// cpuKernel names the PyTorch CPU kernel whose dispatch rejects f16/bf16
// for each op (PyTorch 1.13's message: "\"linalg_svd_cpu\" not implemented
// for 'Half'").
var cpuKernel = map[string]string{
	"linalg.svd":              "linalg_svd_cpu",
	"linalg.cholesky":         "cholesky_cpu",
	"linalg.eigh":             "linalg_eigh_cpu",
	"linalg.eig":              "linalg_eig_out_cpu",
	"linalg.eigvals":          "linalg_eig_out_cpu",
	"linalg.qr":               "geqrf_cpu",
	"linalg.det":              "lu_cpu",
	"linalg.solve":            "lu_cpu",
	"linalg.solve_triangular": "triangular_solve_cpu",
}

// CheckFloat rejects dtypes other than f32/f64 for op ("linalg.svd") with
// PyTorch's messages.
func CheckFloat(op string, A *T) error {
	dt := A.DType()
	switch {
	case dt == tensor.F32 || dt == tensor.F64:
		return nil
	case dt.IsHalf():
		if k, ok := cpuKernel[op]; ok {
			return errorf("\"%s\" not implemented for '%s'", k, TorchName(dt))
		}
		return errorf("%s: Low precision dtypes not supported. Got %s", op, TorchName(dt))
	case op == "linalg.eigh":
		return errorf("\"linalg_eigh_cpu\" not implemented for '%s'", TorchName(dt))
	case op == "linalg.eig" || op == "linalg.eigvals":
		return errorf("Unknown Complex ScalarType for %s", TorchName(dt))
	}
	return errorf("%s: Expected a floating point or complex tensor as input. Got %s", op, TorchName(dt))
}

// CheckMatrix checks that A is a float (f32/f64) batch of matrices, square
// when square is set, and returns its batch shape and matrix size.
func CheckMatrix(op string, A *T, square bool) (batch []int, m, n int, err error) {
	if A.Dim() < 2 {
		return nil, 0, 0, errorf("%s: The input tensor A must have at least 2 dimensions.", op)
	}
	if err := CheckFloat(op, A); err != nil {
		return nil, 0, 0, err
	}
	sh := A.Shape()
	m, n = sh[len(sh)-2], sh[len(sh)-1]
	if square && m != n {
		return nil, 0, 0, errorf("%s: A must be batches of square matrices, but they are %d by %d matrices", op, m, n)
	}
	return append([]int(nil), sh[:len(sh)-2]...), m, n, nil
}

func prod(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

func shapeOf(batch []int, tail ...int) []int {
	return append(append(make([]int, 0, len(batch)+len(tail)), batch...), tail...)
}

// data returns the elements of t, contiguous, as a []F (sharing t's
// storage when t is already contiguous).
func data[F lapack.Float](t *T) []F {
	c := t.Contiguous()
	off, n := c.StorageOffset(), c.Numel()
	var z F
	if _, ok := any(z).(float32); ok {
		return any(c.Storage().F32()[off : off+n]).([]F)
	}
	return any(c.Storage().F64()[off : off+n]).([]F)
}

// alloc returns a new contiguous tensor of shape and dtype dt together
// with its element slice.
func alloc[F lapack.Float](shape []int, dt tensor.DType) (*T, []F) {
	t, err := tensor.Empty(shape, dt)
	if err != nil {
		panic(err) // shapes here are derived from valid tensors
	}
	return t, data[F](t)
}

// batchErr names batch element i in a LAPACK error when the input had
// batch dims, as PyTorch does.
func batchErr(err error, i int, batched bool) error {
	if le, ok := err.(*lapack.Error); ok && batched {
		return le.WithBatch(i)
	}
	return err
}

// is32 reports whether dt is f32 (the only other accepted dtype is f64).
func is32(dt tensor.DType) bool { return dt == tensor.F32 }

// Backend returns the name of the active LAPACK implementation (see
// lapack.Backend): "gonum" or the system library's name.
func Backend() string { return lapack.Backend() }
