package stdlib_test

import (
	"bytes"
	"context"
	"testing"

	tsr "github.com/tsrlang/tsr"
)

// Expected outputs are PyTorch 1.13's (printed values, _version, grad_fn
// names, gradients, error kinds and messages) for the same programs, with
// Python's True/False printed as tsr's true/false. One deliberate
// difference: masked_scatter_ on a non-contiguous self fills the masked
// positions in logical (row-major) order, as PyTorch >= 2.1 (pytorch#99638,
// fixed by pytorch#100232); 1.13 filled them in memory order.
var inplaceMoreCases = []struct{ name, src, want string }{
	{"clamp_min", `x = tensor([[1.5, -2.5, 3.0], [0.5, -0.1, 2.0]])
v = x.t()
r = v.clamp_min_(0.25)
print(x); print(x._version)
x.clamp_max_(1.0); print(x); print(x._version)
a = tensor([1.0, -2.0, 3.0], requires_grad=true)
b = a * 1
b.clamp_min_(0.5); print(b.grad_fn); b.sum().backward(); print(a.grad)
a2 = tensor([1.0, -2.0, 3.0], requires_grad=true)
m = tensor([0.0, 0.0, 5.0], requires_grad=true)
b2 = a2 * 1
b2.clamp_max_(m); print(b2); print(b2.grad_fn); b2.sum().backward(); print(a2.grad); print(m.grad)
print(a.clamp_min(0))
try { a.clamp_min_(0); print("no error") } catch e { print(e) }
try { tensor([1, 2]).clamp_max_(tensor([1.5])); print("no error") } catch e { print(e) }`, `tensor([[1.5000, 0.2500, 3.0000],
        [0.5000, 0.2500, 2.0000]])
1
tensor([[1.0000, 0.2500, 1.0000],
        [0.5000, 0.2500, 1.0000]])
2
<ClampMinBackward0>
tensor([1., 0., 1.])
tensor([ 0., -2.,  3.], grad_fn=<ClampMaxBackward1>)
<ClampMaxBackward1>
tensor([0., 1., 1.])
tensor([1., 0., 0.])
tensor([1., 0., 3.], grad_fn=<ClampMinBackward0>)
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
RuntimeError: result type Float can't be cast to the desired output type Long
`},
	{"fmod", `x = tensor([[5.5, -7.0], [3.0, -1.5]])
v = x.t()
v.fmod_(2); print(x); print(x._version)
i = tensor([7, -7, 9]); i.fmod_(4); print(i); print(i._version)
a = tensor([5.5, -7.0, 3.0], requires_grad=true); y = tensor([2.0, 3.0, -2.0], requires_grad=true)
b = a * 1; b.fmod_(y); print(b); print(b.grad_fn); b.sum().backward(); print(a.grad); print(y.grad)
c = a * 1; c.fmod_(2); print(c.grad_fn)
try { tensor([1, 2]).fmod_(1.5); print("no error") } catch e { print(e) }`, `tensor([[ 1.5000, -1.0000],
        [ 1.0000, -1.5000]])
1
tensor([ 3, -3,  1])
1
tensor([ 1.5000, -1.0000,  1.0000], grad_fn=<FmodBackward1>)
<FmodBackward1>
tensor([1., 1., 1.])
tensor([-2.,  2.,  1.])
<FmodBackward0>
RuntimeError: result type Float can't be cast to the desired output type Long
`},
	{"remainder", `x = tensor([[5.5, -7.0], [3.0, -1.5]])
x.t().remainder_(2); print(x); print(x._version)`, `tensor([[1.5000, 1.0000],
        [1.0000, 0.5000]])
1
`},
	{"hypot_atan2", `x = tensor([[3.0, 5.0], [-8.0, 1.0]])
y = tensor([4.0, 12.0])
v = x.t()
v.hypot_(y); print(x); print(x._version)
z = tensor([[1.0, -1.0], [0.5, 2.0]])
z.t().atan2_(tensor([2.0, -3.0])); print(z); print(z._version)
a = tensor([3.0, -1.0], requires_grad=true); w = tensor([4.0, 2.0], requires_grad=true)
b = a * 1; b.hypot_(w); print(b.grad_fn); b.sum().backward(); print(a.grad); print(w.grad)
a.grad = none; w.grad = none
c = a * 1; c.atan2_(w); print(c.grad_fn); c.sum().backward(); print(a.grad); print(w.grad)
try { tensor([1, 2]).atan2_(tensor([1, 1])); print("no error") } catch e { print(e) }
try { tensor([1, 2]).hypot_(tensor([1, 1])); print("no error") } catch e { print(e) }
try { a.hypot_(w); print("no error") } catch e { print(e) }`, `tensor([[ 5.0000,  6.4031],
        [14.4222, 12.0416]])
1
tensor([[ 0.4636, -0.4636],
        [ 2.9764,  2.5536]])
1
<HypotBackward0>
tensor([ 0.6000, -0.4472])
tensor([0.8000, 0.8944])
<Atan2Backward0>
tensor([0.1600, 0.4000])
tensor([-0.1200,  0.2000])
RuntimeError: result type Float can't be cast to the desired output type Long
RuntimeError: "hypot_cpu" not implemented for 'Long'
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
`},
	{"nan_to_num", `x = tensor([[1.0, float("nan")], [float("inf"), -float("inf")]])
v = x.t()
r = v.nan_to_num_(1.0, 2.0); print(x); print(x._version)
z = tensor([1.0, float("nan"), float("inf"), -float("inf")])
z.nan_to_num_(neginf=-3.0); print(z)
i = tensor([1, 2]); i.nan_to_num_(); print(i); print(i._version)
a = tensor([1.0, float("inf"), 3.0], requires_grad=true)
b = a * 2; b.nan_to_num_(); print(b.grad_fn); b.sum().backward(); print(a.grad)`, `tensor([[ 1.0000e+00,  1.0000e+00],
        [ 2.0000e+00, -3.4028e+38]])
1
tensor([ 1.0000e+00,  0.0000e+00,  3.4028e+38, -3.0000e+00])
tensor([1, 2])
1
<NanToNumBackward0>
tensor([2., 0., 2.])
`},
	{"frac", `x = tensor([[1.5, -2.25], [3.75, -0.5]])
x.t().frac_(); print(x); print(x._version)
a = tensor([1.5, -2.25], requires_grad=true)
b = a * 3; b.frac_(); print(b); print(b.grad_fn); b.sum().backward(); print(a.grad)
try { tensor([1, 2]).frac_(); print("no error") } catch e { print(e) }`, `tensor([[ 0.5000, -0.2500],
        [ 0.7500, -0.5000]])
1
tensor([ 0.5000, -0.7500], grad_fn=<FracBackward0>)
<FracBackward0>
tensor([3., 3.])
RuntimeError: "frac_cpu" not implemented for 'Long'
`},
	{"addcmul_addcdiv", `x = tensor([[1.0, 2.0], [3.0, 4.0]])
t1 = tensor([0.5, -1.0]); t2 = tensor([[2.0], [3.0]])
v = x.t()
v.addcmul_(t1, t2, value=0.1); print(x); print(x._version)
v.addcdiv_(t1, t2, value=2); print(x); print(x._version)
print(x.addcmul(t1, t2)); print(x.addcdiv(t1, t2, value=-1))
i = tensor([1, 2]); i.addcmul_(tensor([1, 1]), tensor([3, 4]), value=2); print(i)
i.addcmul_(tensor([1, 1]), tensor([3, 4]), value=0.5); print(i)
a = tensor([1.0, 2.0], requires_grad=true); p = tensor([3.0, -1.0], requires_grad=true); q = tensor([2.0, 4.0], requires_grad=true)
b = a * 1; b.addcmul_(p, q, value=0.5); print(b.grad_fn); b.sum().backward(); print(a.grad); print(p.grad); print(q.grad)
a.grad = none; p.grad = none; q.grad = none
c = a * 1; c.addcdiv_(p, q, value=2); print(c.grad_fn); c.sum().backward(); print(a.grad); print(p.grad); print(q.grad)
try { tensor([1, 2]).addcdiv_(tensor([1, 1]), tensor([1, 1])); print("no error") } catch e { print(e) }
try { tensor([1, 2]).addcmul_(tensor([1.0, 1]), tensor([1, 1])); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).addcmul_(tensor([[1.0], [1.0]]), tensor([1.0, 1])); print("no error") } catch e { print(e) }`, `tensor([[1.1000, 2.1500],
        [2.8000, 3.7000]])
1
tensor([[1.6000, 2.4833],
        [1.8000, 3.0333]])
2
tensor([[2.6000, 0.4833],
        [3.3000, 0.0333]])
tensor([[1.3500, 2.9833],
        [1.6333, 3.3667]])
tensor([ 7, 10])
tensor([ 7, 10])
<AddcmulBackward0>
tensor([1., 1.])
tensor([1., 2.])
tensor([ 1.5000, -0.5000])
<AddcdivBackward0>
tensor([1., 1.])
tensor([1.0000, 0.5000])
tensor([-1.5000,  0.1250])
RuntimeError: Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.
RuntimeError: result type Float can't be cast to the desired output type Long
RuntimeError: output with shape [2] doesn't match the broadcast shape [2, 2]
`},
	{"lerp", `x = tensor([[1.0, 2.0], [3.0, 4.0]])
e = tensor([[10.0, 20.0], [30.0, 40.0]])
v = x.t()
v.lerp_(e, 0.25); print(x); print(x._version)
x.lerp_(e, tensor([0.5, 1.0])); print(x)
a = tensor([1.0, 2.0], requires_grad=true); en = tensor([5.0, -2.0], requires_grad=true); w = tensor([0.3, 0.8], requires_grad=true)
b = a * 1; b.lerp_(en, 0.3); print(b.grad_fn); b.sum().backward(); print(a.grad); print(en.grad)
a.grad = none; en.grad = none
c = a * 1; c.lerp_(en, w); print(c.grad_fn); c.sum().backward(); print(a.grad); print(en.grad); print(w.grad)
try { tensor([1, 2]).lerp_(tensor([1, 1]), 0.5); print("no error") } catch e { print(e) }`, `tensor([[ 3.2500,  9.0000],
        [ 7.2500, 13.0000]])
1
tensor([[ 6.6250, 20.0000],
        [18.6250, 40.0000]])
<LerpBackward0>
tensor([0.7000, 0.7000])
tensor([0.3000, 0.3000])
<LerpBackward1>
tensor([0.7000, 0.2000])
tensor([0.3000, 0.8000])
tensor([ 4., -4.])
RuntimeError: "lerp_kernel_scalar" not implemented for 'Long'
`},
	{"index_fill", `x = arange(12.0).reshape(3, 4)
v = x.t()
r = v.index_fill_(1, tensor([0, 2]), -1.0); print(x); print(x._version)
x.index_fill_(0, tensor(1), 7); print(x)
print(x.index_fill(1, tensor([-1]), 0.5))
i = tensor([1, 2]); i.index_fill_(0, tensor([0]), 2.5); print(i)
s = tensor(1.0); s.index_fill_(0, tensor([0]), 7); print(s)
a = tensor([1.0, 2.0, 3.0], requires_grad=true); val = tensor(5.0, requires_grad=true)
b = a * 2; b.index_fill_(0, tensor([0, 2]), 5); print(b.grad_fn); b.sum().backward(); print(a.grad)
a.grad = none
c = a * 2; c.index_fill_(0, tensor([0, 2]), val); print(c); print(c.grad_fn); c.sum().backward(); print(a.grad); print(val.grad)
try { tensor([1.0, 2]).index_fill_(0, tensor([5]), 1); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).index_fill_(0, tensor([0.0]), 1); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).index_fill_(0, tensor([[0]]), 1); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).index_fill_(1, tensor([0]), 1); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).index_fill_(0, tensor([-3]), 7); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).index_fill_(0, tensor([0]), tensor([2.5])); print("no error") } catch e { print(e) }`, `tensor([[-1., -1., -1., -1.],
        [ 4.,  5.,  6.,  7.],
        [-1., -1., -1., -1.]])
1
tensor([[-1., -1., -1., -1.],
        [ 7.,  7.,  7.,  7.],
        [-1., -1., -1., -1.]])
tensor([[-1.0000, -1.0000, -1.0000,  0.5000],
        [ 7.0000,  7.0000,  7.0000,  0.5000],
        [-1.0000, -1.0000, -1.0000,  0.5000]])
tensor([2, 2])
tensor(7.)
<IndexFillBackward0>
tensor([0., 2., 0.])
tensor([5., 4., 5.], grad_fn=<IndexFillBackward1>)
<IndexFillBackward1>
tensor([0., 2., 0.])
tensor(2.)
IndexError: index 5 is out of bounds for dimension 0 with size 2
IndexError: index_fill_(): Expected dtype int64 for index.
RuntimeError: Index has to be a vector/scalar
IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)
IndexError: index -3 is out of bounds for dimension 0 with size 2
RuntimeError: index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).
`},
	{"masked_scatter", `x = arange(6.0).reshape(2, 3)
v = x.t()
m = tensor([[true, false], [false, true], [true, true]])
v.masked_scatter_(m, tensor([10.0, 20.0, 30.0, 40.0, 50.0])); print(x); print(x._version)
print(x.masked_scatter(tensor([true, false, true]), tensor([[-1.0, -2.0], [-3.0, -4.0]])))
a = tensor([1.0, 2.0, 3.0], requires_grad=true); s = tensor([7.0, 8.0, 9.0, 10.0], requires_grad=true)
b = a * 1; b.masked_scatter_(tensor([true, false, true]), s); print(b); print(b.grad_fn); (b * tensor([1.0, 2.0, 3.0])).sum().backward(); print(a.grad); print(s.grad)
try { tensor([1.0, 2]).masked_scatter_(tensor([true, true]), tensor([1.0])); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).masked_scatter_(tensor([true, true]), tensor([1, 3])); print("no error") } catch e { print(e) }`, `tensor([[10.,  1., 30.],
        [ 3., 20., 40.]])
1
tensor([[-1.,  1., -2.],
        [-3., 20., -4.]])
tensor([7., 2., 8.], grad_fn=<MaskedScatterBackward0>)
<MaskedScatterBackward0>
tensor([0., 2., 0.])
tensor([1., 3., 0., 0.])
RuntimeError: Number of elements of source < number of ones in mask
RuntimeError: masked_scatter: expected self and source to have same dtypes but gotFloat and Long
`},
	{"div_rounding", `x = tensor([[7.0, -7.0], [5.5, -5.5]])
v = x.t()
v.div_(2, rounding_mode="floor"); print(x); print(x._version)
y = tensor([[7.0, -7.0], [5.5, -5.5]])
y.t().div_(tensor([2.0, -3.0]), rounding_mode="trunc"); print(y)
i = tensor([7, -7]); i.div_(2, rounding_mode="floor"); print(i); print(i._version)
i.div_(2, rounding_mode="trunc"); print(i)
f = tensor([1.0, 2.0]); f.div_(4); print(f)
a = tensor([3.0, -5.0], requires_grad=true)
b = a * 1; b.div_(2, rounding_mode="floor"); print(b.grad_fn); b.sum().backward(); print(a.grad)
try { tensor([1, 2]).div_(2.5, rounding_mode="floor"); print("no error") } catch e { print(e) }
try { tensor([1, 2]).div_(2); print("no error") } catch e { print(e) }
try { tensor([1.0, 2]).div_(2, rounding_mode="round"); print("no error") } catch e { print(e) }`, `tensor([[ 3., -4.],
        [ 2., -3.]])
1
tensor([[ 3., -3.],
        [-1.,  1.]])
tensor([ 3, -4])
1
tensor([ 1, -2])
tensor([0.2500, 0.5000])
<DivBackward2>
tensor([0., 0.])
RuntimeError: result type Float can't be cast to the desired output type Long
RuntimeError: result type Float can't be cast to the desired output type Long
RuntimeError: div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'
`},
	{"t_", `x = arange(6.0).reshape(2, 3)
y = x
r = x.t_(); print(list(x.shape)); print(x.stride()); print(y); print(x._version)
print(x.is_contiguous())
x.t_(); print(list(x.shape)); print(x._version)
w = tensor([1.0, 2.0]); w.t_(); print(list(w.shape))
b = arange(6.0).reshape(2, 3); s = b[:, 1:]; s.t_(); print(s); print(s.stride()); print(s._version); print(b._version)
a = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=true)
c = a * 1; c.t_(); print(c.grad_fn); print(list(c.shape)); (c * tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward(); print(a.grad)
try { a.t_(); print("no error") } catch e { print(e) }
try { arange(8.0).reshape(2, 2, 2).t_(); print("no error") } catch e { print(e) }
no_grad { a.t_() }
print(list(a.shape)); print(a.is_leaf); print(a.requires_grad)`, `[3, 2]
(1, 3)
tensor([[0., 3.],
        [1., 4.],
        [2., 5.]])
1
false
[2, 3]
2
[2]
tensor([[1., 4.],
        [2., 5.]])
(1, 3)
1
1
<TBackward1>
[3, 2]
tensor([[1., 3., 5.],
        [2., 4., 6.]])
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
RuntimeError: t_() expects a tensor with <= 2 dimensions, but self is 3D
[3, 2]
true
true
`},
	{"transpose_", `x = arange(24.0).reshape(2, 3, 4)
x.transpose_(0, 2); print(list(x.shape)); print(x.stride()); print(x[1]); print(x._version)
s = x[0]; s.transpose_(0, 1); print(list(s.shape)); print(s.stride()); print(s)
a = arange(6.0).reshape(2, 3).requires_grad_()
c = a * 1; c.transpose_(1, 0); print(c.grad_fn); (c * arange(6.0).reshape(3, 2)).sum().backward(); print(a.grad)
try { x.transpose_(0, 3); print("no error") } catch e { print(e) }`, `[4, 3, 2]
(1, 4, 12)
tensor([[ 1., 13.],
        [ 5., 17.],
        [ 9., 21.]])
1
[2, 3]
(12, 4)
tensor([[ 0.,  4.,  8.],
        [12., 16., 20.]])
<TransposeBackward1>
tensor([[0., 2., 4.],
        [1., 3., 5.]])
IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)
`},
	{"unsqueeze_squeeze", `x = arange(6.0).reshape(2, 3)
v = x.t()
v.unsqueeze_(1); print(list(v.shape)); print(v.stride()); print(v._version)
v.squeeze_(); print(list(v.shape)); print(v.stride())
y = arange(4.0).reshape(1, 4, 1)
y.squeeze_(0); print(list(y.shape)); y.squeeze_(0); print(list(y.shape)); y.squeeze_(-1); print(list(y.shape)); print(y._version)
y.unsqueeze_(-1); print(list(y.shape))
a = tensor([1.0, 2.0], requires_grad=true)
c = a * 1; c.unsqueeze_(0); print(c.grad_fn); print(list(c.shape)); c.squeeze_(); print(c.grad_fn); c.unsqueeze_(1); c.squeeze_(1); print(c.grad_fn)
(c * tensor([3.0, 4.0])).sum().backward(); print(a.grad)
try { a.unsqueeze_(0); print("no error") } catch e { print(e) }
try { tensor([1.0]).unsqueeze_(3); print("no error") } catch e { print(e) }
try { tensor([[1.0]]).squeeze_(5); print("no error") } catch e { print(e) }`, `[3, 1, 2]
(1, 6, 3)
1
[3, 2]
(1, 3)
[4, 1]
[4, 1]
[4]
3
[4, 1]
<UnsqueezeBackward1>
[1, 2]
<SqueezeBackward2>
<SqueezeBackward3>
tensor([3., 4.])
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 3)
IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 5)
`},
	{"grad_more", `x = tensor([3.0, -1.0]); w = tensor([4.0, 2.0], requires_grad=true)
x.hypot_(w); print(x); print(x.grad_fn); x.sum().backward(); print(w.grad)
a = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=true)
b = a * 1; v = b[:, 1:]; v.addcmul_(v + 0, v + 0, value=0.5); print(b); print(b.grad_fn); (b * b).sum().backward(); print(a.grad)
a.grad = none
b = a * 1; v = b[:, 1:]; v.t_(); print(v.grad_fn); print(list(v.shape)); (v * tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward(); print(a.grad)
a.grad = none
b = a * 1; b.t_(); b.unsqueeze_(0); b.mul_(2); b.squeeze_(0); b.transpose_(0, 1); b.frac_(); (b * b).sum().backward(); print(a.grad); print(b._version)
no_grad { a.clamp_min_(2.5) }
print(a); print(a._version); print(a.requires_grad)
p = tensor([1.0, 2.0], requires_grad=true)
try { p.lerp_(tensor([0.0, 0.0]), 0.5); print("no error") } catch e { print(e) }
try { p.index_fill_(0, tensor([0]), 1.0); print("no error") } catch e { print(e) }
try { p[0:1].frac_(); print("no error") } catch e { print(e) }`, `tensor([5.0000, 2.2361], grad_fn=<HypotBackward0>)
<HypotBackward0>
tensor([0.8000, 0.8944])
tensor([[ 1.0000,  4.0000,  7.5000],
        [ 4.0000, 17.5000, 24.0000]], grad_fn=<CopySlices>)
<CopySlices>
tensor([[  2.,  24.,  60.],
        [  8., 210., 336.]])
<TBackward1>
[2, 2]
tensor([[0., 1., 3.],
        [0., 2., 4.]])
tensor([[0., 0., 0.],
        [0., 0., 0.]])
6
tensor([[2.5000, 2.5000, 3.0000],
        [4.0000, 5.0000, 6.0000]], requires_grad=true)
1
true
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.
`},
}

func TestInplaceMore(t *testing.T) {
	for _, c := range inplaceMoreCases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			in := tsr.New(tsr.Options{MaxSteps: 1 << 24, Stdout: &buf})
			if _, err := in.Eval(context.Background(), c.name+".tsr", c.src); err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, buf.String())
			}
			if got := buf.String(); got != c.want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.src, got, c.want)
			}
		})
	}
}
