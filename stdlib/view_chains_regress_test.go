package stdlib_test

import "testing"

// Regressions found by testdata/gen_view_chains.py, a differential tester of
// random chains of views, in-place writes through them, and gradients, against
// PyTorch 1.13. Expected outputs are PyTorch's, printed in tsr's spelling.

// TestEmptySliceOffsetDataPtrChunkExpand0d: an empty slice keeps its clamped start as storage offset, data_ptr() of an empty tensor is 0, chunk of an empty dim gives chunks pieces, and a 0-d tensor expands with stride 0.
func TestEmptySliceOffsetDataPtrChunkExpand0d(t *testing.T) {
	checkPrints(t, []printCase{{`x = arange(6.).reshape(2, 3)
print(x[5:].storage_offset(), x[:, 7:].storage_offset(), x[1:, 2:1].storage_offset(), x[:, -1:0].storage_offset())
print(x[2:].data_ptr(), x[:, 3:].data_ptr() == x.data_ptr(), x[1:].data_ptr() == x.data_ptr() + 12)
print(zeros(0, 3).chunk(3, 0), len(zeros(2, 0).chunk(2, 1)))
print(tensor(5).expand(1).stride(), tensor(5).expand(2, 1).stride(), tensor(5).broadcast_to([1, 3]).stride())`, `6 3 5 2
0 false true
(tensor([], size=(0, 3)), tensor([], size=(0, 3)), tensor([], size=(0, 3))) 2
(0,) (0, 0) (0, 0)`}})
}

// TestWritesIntoExpandedViews: x[i] = number (a fill_) and masked_fill_ write an expanded view, as PyTorch allows; in-place ops on an empty expanded view are fine.
func TestWritesIntoExpandedViews(t *testing.T) {
	checkPrints(t, []printCase{{`b = arange(2).reshape([2, 1, 1])
v = b.broadcast_to([2, 2, 3]).permute(1, 0, 2)
v[-2, 1::2] = 7
print(b)
v[0] = tensor(8)
print(b)
v.masked_fill_(v == 8, 9)
print(b)
e = zeros(0, 1).expand(0, 4)
e.add_(1)
e.mul_(2)
e.copy_(ones(4))
print(e, e.shape, e.stride())`, `tensor([[[0]],

        [[7]]])
tensor([[[8]],

        [[8]]])
tensor([[[9]],

        [[9]]])
tensor([], size=(0, 4)) [0, 4] (1, 0)`}})
}

// TestSumOfEmptyViewPastStorage: sum of an empty view whose offset lies past the end of its storage (was an internal error: slice bounds out of range).
func TestSumOfEmptyViewPastStorage(t *testing.T) {
	checkPrints(t, []printCase{{`v = arange(1.).as_strided([1, 3], [4, 0], 0).narrow(-2, 1, 0).diagonal(-2, -1, 0)
print(v.shape, v.stride(), v.storage_offset(), v.sum(-1), v.sum(), v.prod(0))`, `[0] (4,) 4 tensor(0.) tensor(0.) tensor(1.)`}})
}

// TestInplaceAsStridedOfViewGrad: in-place add_ through x[2, 0].as_strided(...), which reaches storage outside x[2, 0]: the gradient of the written region flows into the base (was 0 at the element outside x[2, 0]).
func TestInplaceAsStridedOfViewGrad(t *testing.T) {
	checkPrints(t, []printCase{{`b = arange(9.).reshape(3, 3).requires_grad_()
c = b * 1
v = c[2, 0].as_strided([2], [3], 3)
v.add_(-1.)
(c * arange(9.).reshape(3, 3)).sum().backward()
print(b.grad)`, `tensor([[0., 1., 2.],
        [3., 4., 5.],
        [6., 7., 8.]])`}})
}

// TestInplaceThroughIdentityOpGrad: in-place writes through flatten(d, d) and to(same dtype), which return their input: the write reaches the base's history (was lost).
func TestInplaceThroughIdentityOpGrad(t *testing.T) {
	checkPrints(t, []printCase{{`b = arange(4.).requires_grad_()
c = b * 1
y = c[1:].flatten(0, 0)
y.mul_(2)
(c * arange(4.)).sum().backward()
print(b.grad)
b = arange(4.).requires_grad_()
c = b * 1
y = c.to(f32)
y.mul_(3)
c.sum().backward()
print(b.grad)`, `tensor([0., 2., 4., 6.])
tensor([3., 3., 3., 3.])`}})
}

// TestCopySlicesExpandedViewBackward: fill_ through an expanded view of a non-leaf: backward raises PyTorch's RuntimeError (CopySlices copies into the expanded region).
func TestCopySlicesExpandedViewBackward(t *testing.T) {
	checkPrints(t, []printCase{{`b = arange(4.).requires_grad_()
c = b * 1
v = c.unflatten(0, [2, 2]).flatten().broadcast_to([2, 4])
v.fill_(1.5)
print(c)
try { (c * 2).sum().backward() } catch e { print(e.kind) }`, `tensor([1.5000, 1.5000, 1.5000, 1.5000], grad_fn=<CopySlices>)
RuntimeError`}})
}
