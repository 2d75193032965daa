package stdlib_test

import "testing"

// TestFillDiagonal: fill_diagonal_ as PyTorch 1.13 (expected outputs from
// torch: the same statements with Tensor.fill_diagonal_), including wrap on
// tall and wide matrices, equal-length 3-D, a strided view, the gradient
// through CopySlices, and the errors.
func TestFillDiagonal(t *testing.T) {
	checkPrints(t, []printCase{{`a = zeros(5, 3)
print(a.fill_diagonal_(2.0))
b = zeros(7, 3); b.fill_diagonal_(1, wrap=true); print(b)
c = zeros(3, 3, 3); c.fill_diagonal_(4); print(c[1, 1, 1], c.sum())
d = zeros(3, 5); d.fill_diagonal_(1, wrap=true); print(d)
e = zeros(4, 6)[:, 1:5]; e.fill_diagonal_(3); print(e.sum(), e[3, 3], e[0, 1])
x = ones(3, 3, requires_grad=true); y = x * 1; y.fill_diagonal_(5.0); print(y.grad_fn); y.sum().backward(); print(x.grad)
try { zeros(3, 4, 5).fill_diagonal_(1) } catch e { print(e.kind, e.message) }
try { zeros(3).fill_diagonal_(1) } catch e { print(e.kind, e.message) }
try { ones(2, 2, requires_grad=true).fill_diagonal_(1) } catch e { print(e.kind, e.message) }`, `tensor([[2., 0., 0.],
        [0., 2., 0.],
        [0., 0., 2.],
        [0., 0., 0.],
        [0., 0., 0.]])
tensor([[1., 0., 0.],
        [0., 1., 0.],
        [0., 0., 1.],
        [0., 0., 0.],
        [1., 0., 0.],
        [0., 1., 0.],
        [0., 0., 1.]])
tensor(4.) tensor(12.)
tensor([[1., 0., 0., 0., 0.],
        [0., 1., 0., 0., 0.],
        [0., 0., 1., 0., 0.]])
tensor(12.) tensor(3.) tensor(0.)
<CopySlices>
tensor([[0., 1., 1.],
        [1., 0., 1.],
        [1., 1., 0.]])
RuntimeError all dimensions of input must be of equal length
RuntimeError dimensions must larger than 1
RuntimeError a view of a leaf Variable that requires grad is being used in an in-place operation.`}})
}
