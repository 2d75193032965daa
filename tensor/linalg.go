package tensor

import (
	"github.com/tsrlang/tsr/backends/cpu"
)

// Matrix products. Float products run through backends/cpu's
// SgemmBatched/DgemmBatched with the operands' real strides (transposed
// views are never copied; a matrix operand is copied only when neither of
// its last two dims has unit stride); integer products accumulate in i64.
// f16/bf16 operands are widened to f32 while the GEMM packs them
// (cpu.GemmHalfBatched; no f32 copy of either operand), accumulated in f32
// and rounded once. Both operands must have the same dtype, as in PyTorch.

func dtypeMismatch(a, b *Tensor) error {
	return errorf(RuntimeError, "expected m1 and m2 to have the same dtype, but got: %s != %s", a.dtype, b.dtype)
}

// Matmul is torch.matmul: 1-D x 1-D is a dot product (0-d result); a 1-D
// first operand is treated as a row vector and a 1-D second operand as a
// column vector (the added dim is removed afterwards); otherwise the last
// two dims are matrices and the leading (batch) dims broadcast. Shape
// mismatches are a RuntimeError naming both shapes.
func Matmul(a, b *Tensor) (*Tensor, error) { return matmul(a, b, nil) }

// MatmulScaled returns Matmul(a, b) * alpha for float32 or float64
// operands of one dtype, bit for bit what Matmul followed by a
// multiplication by the number alpha gives (alpha is rounded to the dtype,
// as a wrapped number is), computed in one pass over the result: the
// scale is the GEMM's epilogue (cpu.SgemmBatchedScaled). Other dtypes are
// a RuntimeError; shape errors are Matmul's.
func MatmulScaled(a, b *Tensor, alpha float64) (*Tensor, error) {
	if a.dtype != F32 && a.dtype != F64 {
		return nil, errorf(RuntimeError, "MatmulScaled: expected float32 or float64 operands, got %s", a.dtype)
	}
	return matmul(a, b, &alpha)
}

// matmul is Matmul, times *scale when scale is not nil (F32/F64 only).
func matmul(a, b *Tensor, scale *float64) (*Tensor, error) {
	if len(a.shape) == 1 && len(b.shape) == 1 && scale == nil && a.dtype == b.dtype {
		return Dot(a, b)
	}
	if r := fastMatVec(a, b, scale); r != nil {
		return r, nil
	}
	x, y, batch, n, k, m, err := matmulOperands(a, b)
	if err != nil {
		return nil, err
	}
	out, err := bmmCore(x, y, batch, n, k, m, scale)
	if err != nil {
		return nil, err
	}
	// drop the dims added for 1-D operands
	sh := append([]int(nil), batch...)
	if len(a.shape) != 1 {
		sh = append(sh, n)
	}
	if len(b.shape) != 1 {
		sh = append(sh, m)
	}
	out.shape, out.strides = sh, contiguousStrides(sh)
	return out, nil
}

// fastMatVec is matmul for a row-major f32/f64 matrix a [n, k] times a
// vector b [k] (BLAS gemv): each output is the dot kernel's product of a
// row with b (rows split over threads, values independent of their
// number), reading a once instead of running the GEMM with 31 of its 32
// columns padding. nil when the operands do not qualify (the GEMM path
// then checks and reports errors).
func fastMatVec(a, b *Tensor, scale *float64) *Tensor {
	if !fastPathsOn() || scale != nil || len(a.shape) != 2 || len(b.shape) != 1 || a.dtype != b.dtype ||
		a.dtype != F32 && a.dtype != F64 || a.shape[1] != b.shape[0] || a.shape[1] == 0 {
		return nil
	}
	if !a.IsContiguous() {
		return fastVecMat(a, b)
	}
	n, k := a.shape[0], a.shape[1]
	v := b
	if !v.IsContiguous() {
		v = v.Contiguous()
	}
	out := empty([]int{n}, a.dtype)
	if a.dtype == F32 {
		matVecRows(a.storage.F32()[a.offset:a.offset+n*k], v.storage.F32()[v.offset:v.offset+k], out.storage.F32(), k, cpu.DotF32)
	} else {
		matVecRows(a.storage.F64()[a.offset:a.offset+n*k], v.storage.F64()[v.offset:v.offset+k], out.storage.F64(), k, cpu.DotF64)
	}
	return out
}

// fastVecMat is fastMatVec for a transposed matrix a [n, k] (strides (1,
// ld), ld >= n: a.t() is row-major, x.t() @ v) times b [k] (BLAS gemv
// 'T' on a.t()): out = sum over j of b[j] * column j of a, each column a
// contiguous row of a.t(), accumulated with the axpy kernel (fused
// multiply-adds in j order) over column blocks of out that stay in L1.
// nil for other layouts.
func fastVecMat(a, b *Tensor) *Tensor {
	n, k := a.shape[0], a.shape[1]
	ld := a.strides[1]
	if a.strides[0] != 1 || ld < n || n == 0 {
		return nil
	}
	v := b
	if !v.IsContiguous() {
		v = v.Contiguous()
	}
	out := zeros([]int{n}, a.dtype)
	span := (k-1)*ld + n
	if a.dtype == F32 {
		vecMatCols(a.storage.F32()[a.offset:a.offset+span], v.storage.F32()[v.offset:v.offset+k], out.storage.F32()[:n], ld, cpu.AxpyF32)
	} else {
		vecMatCols(a.storage.F64()[a.offset:a.offset+span], v.storage.F64()[v.offset:v.offset+k], out.storage.F64()[:n], ld, cpu.AxpyF64)
	}
	return out
}

// vecMatBlock is the number of outputs vecMatCols accumulates at a time
// (8 KiB of f32, 16 KiB of f64: L1-resident while the rows stream by).
const vecMatBlock = 2048

// vecMatCols sets o (zeroed) += y[j] * x[j*ld : j*ld+len(o)] for each j <
// len(y), in j order, over column blocks of o split over threads (values
// independent of their number).
func vecMatCols[T vfloat](x, y, o []T, ld int, axpy func(dst []T, alpha T, x []T)) {
	n, k := len(o), len(y)
	blocks := (n + vecMatBlock - 1) / vecMatBlock
	parallelTasks(blocks, vecMatBlock*k, grainMem, func(b0, b1 int) {
		for c0 := b0 * vecMatBlock; c0 < min(b1*vecMatBlock, n); c0 += vecMatBlock {
			c1 := min(c0+vecMatBlock, n)
			for j, yj := range y {
				axpy(o[c0:c1], yj, x[j*ld+c0:j*ld+c1])
			}
		}
	})
}

// matVecRows sets o[i] = dot(row i of x, y) for the len(o) rows of k
// elements of x, the rows split over threads by element count.
func matVecRows[T vfloat](x, y, o []T, k int, dot func(a, b []T) T) {
	n := len(o)
	parallelFor(n*k, func(lo, hi int) {
		for i := (lo + k - 1) / k; i < (hi+k-1)/k && i < n; i++ {
			o[i] = dot(x[i*k:(i+1)*k], y)
		}
	})
}

// CheckMatmul returns the error Matmul(a, b) would return for its
// operands' ranks, dtypes or shapes (nil when they multiply), without
// computing anything. A Bool product's error comes from the kernel and is
// not reported here.
func CheckMatmul(a, b *Tensor) error {
	if len(a.shape) == 1 && len(b.shape) == 1 && a.dtype == b.dtype {
		if a.shape[0] != b.shape[0] {
			_, err := Dot(a, b)
			return err
		}
		return nil
	}
	_, _, _, _, _, _, err := matmulOperands(a, b)
	return err
}

// matmulOperands checks Matmul's operands and returns them as matrices
// (1-D operands unsqueezed), the broadcast batch shape and n×k @ k×m.
func matmulOperands(a, b *Tensor) (x, y *Tensor, batch []int, n, k, m int, err error) {
	da, db := len(a.shape), len(b.shape)
	if da == 0 || db == 0 {
		return nil, nil, nil, 0, 0, 0, errorf(RuntimeError, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da, db)
	}
	if a.dtype != b.dtype {
		return nil, nil, nil, 0, 0, 0, dtypeMismatch(a, b)
	}
	x, y = a, b
	if da == 1 {
		x, _ = a.Unsqueeze(0)
	}
	if db == 1 {
		y, _ = b.Unsqueeze(1)
	}
	n, k = x.shape[len(x.shape)-2], x.shape[len(x.shape)-1]
	k2 := y.shape[len(y.shape)-2]
	m = y.shape[len(y.shape)-1]
	batch, err = BroadcastShapes(x.shape[:len(x.shape)-2], y.shape[:len(y.shape)-2])
	if k != k2 || err != nil {
		return nil, nil, nil, 0, 0, 0, matmulShapeError(a, b, err)
	}
	return x, y, batch, n, k, m, nil
}

// matmulShapeError is the error of torch.matmul(a, b) (1.13) when the
// inner sizes differ or the batch dims do not broadcast (berr): as ATen's
// matmul, an N-D operand (N >= 3) against a 1-D or 2-D one is folded to a
// matrix and fails in mv or mm, with the folded sizes; both N-D fail in
// the batch broadcast or in bmm, with the broadcast batch size.
func matmulShapeError(a, b *Tensor, berr error) error {
	da, db := len(a.shape), len(b.shape)
	mm := func(r1, c1, r2, c2 int) error {
		return errorf(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", r1, c1, r2, c2)
	}
	mv := func(r, c, n int) error {
		return errorf(RuntimeError, "size mismatch, got %d, %dx%d,%d", r, r, c, n)
	}
	rows := func(s []int) int { // product of all but the last dim
		p := 1
		for _, v := range s[:len(s)-1] {
			p *= v
		}
		return p
	}
	permuted := da == 3 && db == 2 && a.strides[2] != 1 && a.strides[0] == a.shape[1]*a.shape[2]
	switch {
	case da == 2 && db == 1:
		return mv(a.shape[0], a.shape[1], b.shape[0])
	case da <= 2 && db <= 2:
		r1, c1 := 1, a.shape[0]
		if da == 2 {
			r1, c1 = a.shape[0], a.shape[1]
		}
		return mm(r1, c1, b.shape[0], b.shape[1])
	case da >= 3 && db <= 2 && !permuted:
		if db == 1 {
			return mv(rows(a.shape), a.shape[da-1], b.shape[0])
		}
		return mm(rows(a.shape), a.shape[da-1], b.shape[0], b.shape[1])
	case db >= 3 && da <= 2: // b.mT folded against a (or a.t())
		r := rows(b.shape) / b.shape[db-2] * b.shape[db-1]
		if da == 1 {
			return mv(r, b.shape[db-2], a.shape[0])
		}
		return mm(r, b.shape[db-2], a.shape[1], a.shape[0])
	}
	if berr != nil {
		return errorf(RuntimeError, "%s", berr.Error())
	}
	batch, _ := BroadcastShapes(a.shape[:da-2], b.shape[:max(db-2, 0)])
	bs := 1
	for _, v := range batch {
		bs *= v
	}
	k2 := b.shape[0]
	if db >= 2 {
		k2 = b.shape[db-2]
	}
	return errorf(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", bs, a.shape[da-1], bs, k2)
}

// bmmCore computes expand(x)[batch, n, k] @ expand(y)[batch, k, m] into a
// new contiguous tensor of shape batch+[n, m], times *scale (an epilogue
// of the F32/F64 GEMM) when scale is not nil.
func bmmCore(x, y *Tensor, batch []int, n, k, m int, scale *float64) (*Tensor, error) {
	dt := x.dtype
	if dt == Bool {
		return nil, errorf(RuntimeError, "\"addmm_impl_cpu_\" not implemented for 'Bool'")
	}
	ct := computeType(dt)
	xs := append(append([]int(nil), batch...), n, k)
	ys := append(append([]int(nil), batch...), k, m)
	// f16/bf16 operands stay 16-bit: the GEMM widens them while packing.
	xe := gemmOperand(broadcastTo(x, xs))
	ye := gemmOperand(broadcastTo(y, ys))
	if !dt.IsHalf() {
		xe, ye = xe.toDType(ct), ye.toDType(ct)
	}
	osh := append(append([]int(nil), batch...), n, m)
	var out *Tensor
	if k > 0 && (ct == F32 || ct == F64) {
		out = empty(osh, ct) // beta = 0: the GEMM writes every element without reading it
	} else {
		out = zeros(osh, ct)
	}
	nb := len(batch)
	bst := [3][]int{xe.strides[:nb], ye.strides[:nb], out.strides[:nb]}
	rsA, csA := xe.strides[nb], xe.strides[nb+1]
	rsB, csB := ye.strides[nb], ye.strides[nb+1]
	rsC, csC := out.strides[nb], out.strides[nb+1]
	if n*m == 0 {
		return out.toDType(dt), nil
	}
	walk(batch, 3, bst, [3]int{xe.offset, ye.offset, out.offset}, func(pa, pb, pc, q, sa, sb, sc int) {
		switch {
		case dt.IsHalf():
			format := cpu.F16
			if dt == BF16 {
				format = cpu.BF16
			}
			cpu.GemmHalfBatched(format, q, n, m, k, 1, xe.storage.U16()[pa:], sa, rsA, csA, ye.storage.U16()[pb:], sb, rsB, csB, 0, out.storage.F32()[pc:], sc, rsC, csC)
		case ct == F32 && scale != nil:
			cpu.SgemmBatchedScaled(q, n, m, k, float32(*scale), xe.storage.F32()[pa:], sa, rsA, csA, ye.storage.F32()[pb:], sb, rsB, csB, out.storage.F32()[pc:], sc, rsC, csC)
		case ct == F64 && scale != nil:
			cpu.DgemmBatchedScaled(q, n, m, k, *scale, xe.storage.F64()[pa:], sa, rsA, csA, ye.storage.F64()[pb:], sb, rsB, csB, out.storage.F64()[pc:], sc, rsC, csC)
		case ct == F32:
			cpu.SgemmBatched(q, n, m, k, 1, xe.storage.F32()[pa:], sa, rsA, csA, ye.storage.F32()[pb:], sb, rsB, csB, 0, out.storage.F32()[pc:], sc, rsC, csC)
		case ct == F64:
			cpu.DgemmBatched(q, n, m, k, 1, xe.storage.F64()[pa:], sa, rsA, csA, ye.storage.F64()[pb:], sb, rsB, csB, 0, out.storage.F64()[pc:], sc, rsC, csC)
		default:
			for i := 0; i < q; i++ {
				igemm(xe, ye, out, pa+i*sa, pb+i*sb, pc+i*sc, n, k, m, rsA, csA, rsB, csB, rsC, csC)
			}
		}
	})
	return out.toDType(dt), nil
}

// gemmOperand copies t when neither matrix dim has unit stride (GEMM
// kernels pack faster from a unit-stride side). Size-1 dims count as unit.
func gemmOperand(t *Tensor) *Tensor {
	nd := len(t.shape)
	r, c := t.shape[nd-2], t.shape[nd-1]
	rs, cs := t.strides[nd-2], t.strides[nd-1]
	if cs == 1 || rs == 1 || r == 1 || c == 1 {
		return t
	}
	return t.Clone()
}

// igemm is the integer matmul (i64 accumulation, wrapped to the dtype).
func igemm(a, b, c *Tensor, pa, pb, pc, n, k, m, rsA, csA, rsB, csB, rsC, csC int) {
	acc := make([]int64, m)
	for i := 0; i < n; i++ {
		clear(acc)
		for p := 0; p < k; p++ {
			av := loadI64(a.storage, a.dtype, pa+i*rsA+p*csA)
			if av == 0 {
				continue
			}
			for j := 0; j < m; j++ {
				acc[j] += av * loadI64(b.storage, b.dtype, pb+p*rsB+j*csB)
			}
		}
		for j := 0; j < m; j++ {
			storeI64(c.storage, c.dtype, pc+i*rsC+j*csC, acc[j])
		}
	}
}

// Mm multiplies two matrices: [n, k] @ [k, m] -> [n, m].
func Mm(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 2 {
		return nil, errorf(RuntimeError, "self must be a matrix")
	}
	if len(b.shape) != 2 {
		return nil, errorf(RuntimeError, "mat2 must be a matrix")
	}
	return Matmul(a, b)
}

// Bmm multiplies batches of matrices: [B, n, k] @ [B, k, m] -> [B, n, m]
// (no broadcasting).
func Bmm(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 3 {
		return nil, errorf(RuntimeError, "batch1 must be a 3D tensor")
	}
	if len(b.shape) != 3 {
		return nil, errorf(RuntimeError, "batch2 must be a 3D tensor")
	}
	if b.shape[0] != a.shape[0] || b.shape[1] != a.shape[2] {
		return nil, errorf(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", a.shape[0], a.shape[2], b.shape[0], b.shape[1])
	}
	return Matmul(a, b)
}

// Dot returns the 0-d inner product of two 1-D tensors of equal length and
// dtype (bool is a RuntimeError, as PyTorch's).
func Dot(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 1 || len(b.shape) != 1 {
		return nil, errorf(RuntimeError, "1D tensors expected, but got %dD and %dD tensors", len(a.shape), len(b.shape))
	}
	if a.dtype != b.dtype {
		return nil, errorf(RuntimeError, "dot : expected both vectors to have same dtype, but found %s and %s", pyTypeName(a.dtype), pyTypeName(b.dtype))
	}
	if a.shape[0] != b.shape[0] {
		return nil, errorf(RuntimeError, "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", a.shape[0], b.shape[0], a.shape[0], b.shape[0])
	}
	if a.dtype == Bool {
		return nil, errorf(RuntimeError, "\"dot\" not implemented for 'Bool'")
	}
	x, _ := a.Unsqueeze(0)
	y, _ := b.Unsqueeze(1)
	out, err := bmmCore(x, y, nil, 1, a.shape[0], 1, nil)
	if err != nil {
		return nil, err
	}
	out.shape, out.strides = []int{}, []int{}
	return out, nil
}

// Outer returns the outer product a[i]*b[j] of two 1-D tensors (promoted
// like Mul).
func Outer(a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 1 || len(b.shape) != 1 {
		return nil, errorf(RuntimeError, "outer: expected 1D tensors, but got %dD and %dD tensors", len(a.shape), len(b.shape))
	}
	x, _ := a.Unsqueeze(1)
	return Mul(x, b)
}

// Trace returns the sum of the main diagonal of a 2-D tensor (ints give
// i64).
func Trace(t *Tensor) (*Tensor, error) {
	if len(t.shape) != 2 {
		return nil, errorf(RuntimeError, "trace: expected a matrix, but got tensor with dim %d", len(t.shape))
	}
	d, _ := t.Diagonal(0, 0, 1)
	return Sum(d, nil, false)
}

// Diag builds a square matrix with the 1-D input on diagonal offset, or
// returns a copy of diagonal offset of a 2-D input.
func Diag(t *Tensor, offset int) (*Tensor, error) {
	switch len(t.shape) {
	case 1:
		n := t.shape[0]
		sz := n + abs(offset)
		out := zeros([]int{sz, sz}, t.dtype)
		d, _ := out.Diagonal(offset, 0, 1)
		copySame(d, t)
		return out, nil
	case 2:
		d, _ := t.Diagonal(offset, 0, 1)
		return d.Clone(), nil
	}
	return nil, errorf(RuntimeError, "diag(): Supports 1D or 2D tensors. Got %dD", len(t.shape))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
