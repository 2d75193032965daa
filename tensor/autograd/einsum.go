package autograd

import (
	"strings"

	"github.com/tsrlang/tsr/einsum"
	"github.com/tsrlang/tsr/tensor"
)

// Einsum evaluates the einsum equation eq over operands (torch.einsum). The
// einsum package plans the contraction order; every step is lowered onto
// recorded ops (diagonal, permute, reshape, expand, sum, mul, matmul), so
// the result is differentiable, and the backward of each pairwise
// contraction is itself a batched matrix product. Integer operands are accumulated in
// i64; the result has PyTorch's dtype (see intEinsumDType).
func Einsum(e *Engine, eq string, operands []*T) (*T, error) {
	r, _, err := einsumScaled(e, eq, operands, nil)
	return r, err
}

// EinsumScaled is Einsum(e, eq, operands) multiplied by the number alpha
// when the multiplication folds into the contraction's last matrix product
// (einsum.ExecuteScaled: a GEMM epilogue, bit for bit the product followed
// by the multiplication, alpha rounded to the dtype): then applied is true.
// It folds only float32/float64 operands of one dtype with no gradient to
// record; otherwise, or when the plan does not end in a product, it
// returns Einsum's result with applied false and the caller multiplies.
func EinsumScaled(e *Engine, eq string, operands []*T, alpha float64) (r *T, applied bool, err error) {
	return einsumScaled(e, eq, operands, &alpha)
}

func einsumScaled(e *Engine, eq string, operands []*T, scale *float64) (*T, bool, error) {
	shapes := make([][]int, len(operands))
	ints := true
	for i, op := range operands {
		shapes[i] = op.Shape()
		if op.DType().IsFloat() {
			ints = false
		}
	}
	var err error
	outDT := tensor.I64
	if ints {
		outDT = intEinsumDType(eq, operands)
		cast := make([]*T, len(operands))
		for i, op := range operands {
			if cast[i], err = op.To(tensor.I64); err != nil {
				return nil, false, err
			}
		}
		operands = cast
	}
	// Plans are cached per (equation, shapes).
	plan, err := einsum.PlanFor(eq, shapes, "")
	if err != nil {
		return nil, false, err
	}
	if scale != nil && !ints && foldableScale(e, operands) {
		return einsum.ExecuteScaled[*T](plan, einsumOps{e}, operands, *scale)
	}
	r, err := einsum.Execute[*T](plan, einsumOps{e}, operands)
	if err != nil || !ints || r.DType() == outDT {
		return r, false, err
	}
	r, err = r.To(outDT)
	return r, false, err
}

// foldableScale reports whether a scale may fold into the einsum's last
// product: one float32 or float64 dtype and no gradient to record.
func foldableScale(e *Engine, operands []*T) bool {
	dt := operands[0].DType()
	for _, op := range operands {
		if op.DType() != dt || dt != tensor.F32 && dt != tensor.F64 {
			return false
		}
	}
	return !e.gradEnabled || !anyRequiresGrad(operands)
}

// intEinsumDType is the dtype PyTorch's einsum gives integer or bool
// operands: their promoted dtype (products and contractions by mul/bmm keep
// it, wrapping around), except that an index summed within one operand
// (absent from the output and from every other operand) goes through sum,
// which gives i64. So einsum("ij,jk->ik") of i32 operands is i32,
// einsum("ij->ji") of an i8 operand i8, and einsum("ij->j") i64.
func intEinsumDType(eq string, operands []*T) tensor.DType {
	dt := operands[0].DType()
	for _, op := range operands[1:] {
		dt = tensor.Promote(dt, op.DType())
	}
	lhs, out, explicit := strings.Cut(strings.ReplaceAll(eq, " ", ""), "->")
	terms := strings.Split(lhs, ",")
	seen := map[rune]int{} // index -> number of operands using it
	count := map[rune]int{}
	for _, term := range terms {
		term = strings.ReplaceAll(term, "...", ".")
		used := map[rune]bool{}
		for _, c := range term {
			count[c]++
			if !used[c] {
				used[c] = true
				seen[c]++
			}
		}
	}
	if !explicit { // implicit output: the indices used once, and "..."
		var b strings.Builder
		for c, n := range count {
			if n == 1 || c == '.' {
				b.WriteRune(c)
			}
		}
		out = b.String()
	}
	out = strings.ReplaceAll(out, "...", ".")
	for c, n := range seen {
		if n == 1 && !strings.ContainsRune(out, c) {
			return tensor.I64
		}
	}
	if dt == tensor.Bool {
		return tensor.I64
	}
	return dt
}

// einsumOps adapts the engine's recorded ops to einsum.Ops. It implements
// einsum.MatmulOps, so every contraction is one matmul over the step's
// batch dimensions with their real strides (tensor.Matmul passes strides to
// cpu.SgemmBatched): a permuted operand is fed to the GEMM as a view instead
// of being copied by a reshape to [B, M, K], and the product needs no
// reshape when M and N are single dimensions, so it is a fresh tensor.
type einsumOps struct{ e *Engine }

var _ einsum.ScaledMatmulOps[*T] = einsumOps{}

func (o einsumOps) Shape(x *T) []int { return x.Shape() }

func (o einsumOps) Diagonal(x *T, d1, d2 int) (*T, error) {
	return o.e.Apply("diagonal", []*T{x}, Attrs{"offset": 0, "dim1": d1, "dim2": d2}, func() (*T, error) {
		return x.Diagonal(0, d1, d2)
	})
}

func (o einsumOps) Permute(x *T, perm []int) (*T, error) { return o.e.permute(x, perm) }

func (o einsumOps) Reshape(x *T, shape []int) (*T, error) { return o.e.reshape(x, shape) }

func (o einsumOps) Expand(x *T, shape []int) (*T, error) { return o.e.expand(x, shape) }

func (o einsumOps) Sum(x *T, dims []int, keepdim bool) (*T, error) { return o.e.sum(x, dims, keepdim) }

func (o einsumOps) Mul(a, b *T) (*T, error) { return o.e.mul(a, b) }

func (o einsumOps) Bmm(a, b *T) (*T, error) {
	return o.e.Apply("bmm", []*T{a, b}, nil, func() (*T, error) { return tensor.Bmm(a, b) })
}

func (o einsumOps) Matmul(a, b *T) (*T, error) { return o.e.matmul(a, b) }

// MatmulScaled implements einsum.ScaledMatmulOps for the last product of
// EinsumScaled (which has checked that no gradient is recorded).
func (o einsumOps) MatmulScaled(a, b *T, alpha float64) (*T, bool, error) {
	if a.DType() != b.DType() || a.DType() != tensor.F32 && a.DType() != tensor.F64 || o.e.gradEnabled && anyRequiresGrad([]*T{a, b}) {
		return nil, false, nil
	}
	r, err := tensor.MatmulScaled(a, b, alpha)
	return r, err == nil, err
}

func (o einsumOps) Zeros(like *T, shape []int) (*T, error) { return tensor.Zeros(shape, like.DType()) }
