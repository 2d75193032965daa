package einsum

import (
	"fmt"
	"slices"
)

// Ops are the primitive tensor operations einsum lowers to. T is the
// caller's tensor type (the tensor runtime passes *tensor.Tensor, possibly
// through autograd-recording wrappers, which makes einsum differentiable).
// Execute never mutates its operands; every method must return a new value
// (a view where stated) and must accept zero-size dimensions. Execute
// passes fresh copies of the Plan's int slices, so an implementation may
// keep or modify the slices it receives.
//
// The executor is dtype-agnostic: it never looks at element values. The
// tensor runtime decides accumulation types; it accumulates integer einsums
// in int64 (Sum and Bmm of integer tensors), unlike Debian's torch 1.13,
// whose int8 einsum overflows.
type Ops[T any] interface {
	// Shape returns x's shape (not retained by the caller).
	Shape(x T) []int
	// Diagonal is torch.diagonal(x, 0, dim1, dim2): it removes both
	// dimensions (of equal size, dim1 < dim2) and appends the diagonal as
	// the last dimension. A view.
	Diagonal(x T, dim1, dim2 int) (T, error)
	// Permute reorders dimensions: result dim k is x's dim perm[k]. A view.
	Permute(x T, perm []int) (T, error)
	// Reshape returns x with the given shape (same element count, C order):
	// a view when the strides allow it, else a copy. Inserting or removing
	// size-1 dimensions is always a view.
	Reshape(x T, shape []int) (T, error)
	// Expand broadcasts size-1 dimensions to shape (stride-0 view). The
	// current lowering does not need it (broadcast size-1 dimensions are
	// squeezed out by Prep instead, which lets the other operand sum them
	// early); it is part of the contract for callers and future lowerings.
	Expand(x T, shape []int) (T, error)
	// Sum sums over dims (ascending, distinct); with keepdim false they are
	// removed. Summing an empty dimension gives zeros.
	Sum(x T, dims []int, keepdim bool) (T, error)
	// Mul is the broadcasting (NumPy rules) elementwise product. Execute
	// always passes operands of equal rank.
	Mul(a, b T) (T, error)
	// Bmm is the batched matrix product [B,M,K] x [B,K,N] -> [B,M,N];
	// with K = 0 the result is zeros.
	Bmm(a, b T) (T, error)
	// Zeros returns a zero-filled tensor of shape with like's dtype and
	// device.
	Zeros(like T, shape []int) (T, error)
}

// MatmulOps is an optional extension of Ops. When the Ops value passed to
// Execute implements it, each StepBmm is lowered to one Matmul with the
// step's batch dimensions kept as separate leading dimensions
// ([batch..., M, K] x [batch..., K, N], see Step.MatLeft) instead of a Bmm
// on merged [B, M, K] views. Merging permuted batch dimensions can force
// Reshape to copy an operand, and the Bmm result of a multi-dimensional
// batch must be reshaped (a view of the product); a strided batched GEMM
// such as tensor.Matmul takes the batch dimensions with their real
// strides, and its result is returned as is when M and N are single
// dimensions (e.g. "bhid,bhjd->bhij", "ij,jk->ik").
type MatmulOps[T any] interface {
	Ops[T]
	// Matmul is torch.matmul restricted to operands of equal rank >= 2 and
	// equal batch (leading) shapes: [batch..., M, K] x [batch..., K, N] ->
	// [batch..., M, N]; with K = 0 the result is zeros.
	Matmul(a, b T) (T, error)
}

// Execute runs plan p on operands, which must have exactly the shapes the
// plan was bound to (checked; *Error otherwise). Errors returned by ops are
// passed through unchanged.
//
// Lowering (PyTorch's einsum / sumproduct_pair): each operand is prepared
// (broadcast size-1 dimensions squeezed by a Reshape view, repeated labels
// turned into Diagonal views); each step sums labels that occur in only one
// of its operands and nowhere later, permutes the operands to
// [batch, left-only, contracted] and [batch, contracted, right-only],
// reshapes them to 3-D and calls Bmm (Matmul on [batch..., M, K] views when
// ops implements MatmulOps), then reshapes back (a step without a
// contracted label is a broadcasting Mul); the last tensor is summed (single
// operand only) and permuted into output order. When a summed label has size
// 0 (Plan.Zero) the result is Zeros(operands[0], OutShape). Single-operand einsums are
// views plus sums: "ij->ji" is one Permute, "ii->i" one Diagonal. The result
// may be a view of an operand and may be non-contiguous.
func Execute[T any](p *Plan, ops Ops[T], operands []T) (T, error) {
	r, _, err := execute(p, ops, operands, nil)
	return r, err
}

// ScaledMatmulOps is an optional extension of MatmulOps for ExecuteScaled:
// MatmulScaled(a, b, alpha) must equal Matmul(a, b) multiplied by the
// number alpha, bit for bit (typically a GEMM with alpha in its epilogue,
// one pass over the result instead of two). It may decline by returning
// ok false (e.g. for dtypes it does not scale), and ExecuteScaled then
// uses Matmul.
type ScaledMatmulOps[T any] interface {
	MatmulOps[T]
	MatmulScaled(a, b T, alpha float64) (r T, ok bool, err error)
}

// ExecuteScaled is Execute with the result multiplied by alpha when that
// folds into the contraction: the plan's last step is a matrix product
// lowered through ScaledMatmulOps and only views follow it (no final sum,
// no broadcasting Mul). Then it returns the scaled result and applied =
// true. Otherwise it returns Execute's result unscaled and applied = false,
// and the caller multiplies (tsr's `ein"..."(q, k) * s`).
func ExecuteScaled[T any](p *Plan, ops Ops[T], operands []T, alpha float64) (r T, applied bool, err error) {
	return execute(p, ops, operands, &alpha)
}

func execute[T any](p *Plan, ops Ops[T], operands []T, scale *float64) (T, bool, error) {
	var zero T
	if len(operands) != len(p.Shapes) {
		return zero, false, errorf(-1, "number of operands (%d) does not match the equation (%d)", len(operands), len(p.Shapes))
	}
	cur := make([]T, len(operands))
	for k, x := range operands {
		if sh := ops.Shape(x); !slices.Equal(sh, p.Shapes[k]) {
			return zero, false, errorf(-1, "operand %d has shape %v but the plan was bound to %v", k, fmtShape(sh), fmtShape(p.Shapes[k]))
		}
	}
	if p.Zero {
		r, err := ops.Zeros(operands[0], slices.Clone(p.OutShape))
		return r, false, err
	}
	for k, x := range operands {
		pr := &p.Preps[k]
		var err error
		if pr.Squeeze != nil {
			if x, err = ops.Reshape(x, slices.Clone(pr.Squeeze)); err != nil {
				return zero, false, err
			}
		}
		for _, d := range pr.Diagonals {
			if x, err = ops.Diagonal(x, d[0], d[1]); err != nil {
				return zero, false, err
			}
		}
		cur[k] = x
	}
	mm, useMatmul := any(ops).(MatmulOps[T])
	smm, canScale := any(ops).(ScaledMatmulOps[T])
	applied := false
	for s := range p.Steps {
		st := &p.Steps[s]
		a, b := cur[st.Left], cur[st.Right]
		cur = slices.Delete(cur, st.Right, st.Right+1)
		cur = slices.Delete(cur, st.Left, st.Left+1)
		viewL, viewR, outShape := st.ViewLeft, st.ViewRight, st.OutShape
		if useMatmul && st.Kind == StepBmm {
			viewL, viewR, outShape = st.MatLeft, st.MatRight, st.MatOut
		}
		a, err := prepareSide(ops, a, st.SumLeftDims, st.PermLeft, viewL)
		if err != nil {
			return zero, false, err
		}
		b, err = prepareSide(ops, b, st.SumRightDims, st.PermRight, viewR)
		if err != nil {
			return zero, false, err
		}
		var r T
		switch {
		case st.Kind == StepMul:
			r, err = ops.Mul(a, b)
		case useMatmul && canScale && scale != nil && s == len(p.Steps)-1 && p.Final.SumDims == nil:
			if r, applied, err = smm.MatmulScaled(a, b, *scale); err == nil && !applied {
				r, err = mm.Matmul(a, b)
			}
		case useMatmul:
			r, err = mm.Matmul(a, b)
		default:
			r, err = ops.Bmm(a, b)
		}
		if err == nil && st.Kind == StepBmm && outShape != nil {
			r, err = ops.Reshape(r, slices.Clone(outShape))
		}
		if err != nil {
			return zero, false, err
		}
		cur = append(cur, r)
	}
	x := cur[0]
	var err error
	if p.Final.SumDims != nil {
		if x, err = ops.Sum(x, slices.Clone(p.Final.SumDims), false); err != nil {
			return zero, false, err
		}
	}
	if p.Final.Perm != nil {
		if x, err = ops.Permute(x, slices.Clone(p.Final.Perm)); err != nil {
			return zero, false, err
		}
	}
	return x, applied, nil
}

func prepareSide[T any](ops Ops[T], x T, sum, perm, view []int) (T, error) {
	var err error
	if sum != nil {
		if x, err = ops.Sum(x, slices.Clone(sum), false); err != nil {
			return x, err
		}
	}
	if perm != nil {
		if x, err = ops.Permute(x, slices.Clone(perm)); err != nil {
			return x, err
		}
	}
	if view != nil {
		x, err = ops.Reshape(x, slices.Clone(view))
	}
	return x, err
}

func fmtShape(s []int) string {
	return fmt.Sprint(s)
}
