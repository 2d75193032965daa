#!/usr/bin/env python3
"""Generate stdlib/testdata/h4_fns.json for stdlib/h4_fns_test.go.

Golden values from PyTorch 1.13 for logaddexp2, bitwise_left_shift,
bitwise_right_shift (and in place), i0 (special.i0, i0_), angle on real
tensors, isposinf, isneginf, isreal, positive, diag_embed, block_diag,
vander, trapezoid/trapz and Tensor.register_hook: values, dtypes,
shapes, strides, gradients, grad_fn names and errors. Each case is
written once in tsr; to_torch() (from gen_ops_more_torch.py) spells it
for PyTorch.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_h4_fns.py
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

EXTRA = ["logaddexp2", "bitwise_left_shift", "bitwise_right_shift", "i0", "angle", "isposinf", "isneginf",
         "isreal", "positive", "diag_embed", "block_diag", "vander", "trapezoid", "trapz", "exp2", "mode"]


def to_torch(src):
    s = base_to_torch(src, EXTRA)
    s = s.replace("special.i0(", "torch.special.i0(")
    # tsr's anonymous functions fn(g) { expr } are lambdas
    return re.sub(r"fn\((\w+)\) \{ (.*?) \}", r"lambda \1: \2", s)


def _ties(n, k, seed=11):
    """n small integers below k (as floats), many ties: a tsr list literal."""
    import random
    rnd = random.Random(seed * 1000 + n * 10 + k)
    return "[" + ", ".join(f"{rnd.randrange(k)}." for _ in range(n)) + "]"


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


SPECIAL = "tensor([-2.5, -1., -0.0, 0., 0.5, 1., 3., inf, -inf, nan])"
INTS = "tensor([1, -8, 5, 3, 0, -1, 127, 100])"
A = "a = tensor([[0.3, -0.7, 1.2], [-1.6, 0.9, 0.1]], requires_grad=true)"
V = "v = tensor([0.5, -1.5, 2.], requires_grad=true)"

CASES = [
    # ---- logaddexp2 ----
    ("logaddexp2", f"r = logaddexp2({SPECIAL}, tensor([0.5, -1., inf, -inf, 2., 1., -3., inf, -inf, 0.]))"),
    ("logaddexp2_bcast", "r = logaddexp2(tensor([[0.], [1.5], [-2.]]), tensor([0.5, 2., 700.]))"),
    ("logaddexp2_method_scalar", "r = tensor([1., 2., -30.]).logaddexp2(tensor(3.))"),
    ("logaddexp2_f64", "r = logaddexp2(tensor([1e-10, 1000., -1000.], dtype=f64), tensor([2e-10, 1000., -999.], dtype=f64))"),
    ("logaddexp2_bf16_f32", "r = logaddexp2(tensor([0.3, 7.], dtype=bf16), tensor([1., -2.]))"),
    ("logaddexp2_transposed", "r = logaddexp2(arange(12.).reshape(3, 4).t(), tensor(2.))"),
    *grad("logaddexp2", f"{A}\n{V}", "logaddexp2(a, v)", ("a", "v")),
    # ---- bitwise shifts ----
    ("lshift_i64", f"r = bitwise_left_shift({INTS}, tensor([1, 2, 64, 3, 5, -1, 63, 65]))"),
    ("rshift_i64", f"r = bitwise_right_shift({INTS}, tensor([1, 2, 64, 3, 5, -1, 63, 65]))"),
    ("lshift_i32", f"r = bitwise_left_shift({INTS}.to(i32), tensor([1, 2, 33, 31, -1, 0, 24, 30], dtype=i32))"),
    ("rshift_i32", f"r = bitwise_right_shift({INTS}.to(i32), tensor([1, 2, 33, 31, -1, 0, 24, 30], dtype=i32))"),
    ("lshift_i16", f"r = bitwise_left_shift({INTS}.to(i16), tensor([1, 9, 15, 16, -1, 17, 8, 31], dtype=i16))"),
    ("rshift_i16", f"r = bitwise_right_shift({INTS}.to(i16), tensor([1, 9, 15, 16, -1, 17, 8, 31], dtype=i16))"),
    ("lshift_i8", f"r = bitwise_left_shift({INTS}.to(i8), 7)"),
    ("rshift_i8", f"r = bitwise_right_shift({INTS}.to(i8), tensor([1, 2, 8, 9, -1, 33, 6, 7], dtype=i8))"),
    ("lshift_u8", "r = bitwise_left_shift(tensor([1, 200, 5, 255], dtype=u8), tensor([1, 1, 9, 255], dtype=u8))"),
    ("rshift_u8", "r = bitwise_right_shift(tensor([1, 200, 5, 255], dtype=u8), tensor([1, 9, 255, 7], dtype=u8))"),
    ("lshift_promote", "r = tensor([1, 2], dtype=i32).bitwise_left_shift(tensor([1, 40]))"),
    ("lshift_scalar_keeps", "r = tensor([1, 2], dtype=i32).bitwise_left_shift(3)"),
    ("lshift_number_self", "r = bitwise_left_shift(3, tensor([1, 2]))"),
    ("rshift_bcast", "r = bitwise_right_shift(tensor([[-64], [64]]), tensor([0, 1, 2, 70]))"),
    ("lshift_bool_int", "r = bitwise_left_shift(tensor([true, false]), 1)"),
    ("lshift_", "r = tensor([1, 2, 3])\nr.bitwise_left_shift_(2)"),
    ("rshift_", "r = tensor([-7, 9], dtype=i16)\nr.bitwise_right_shift_(tensor([1]))"),
    ("lshift_transposed", "r = bitwise_left_shift(arange(12).reshape(3, 4).t(), 2)"),
    # ---- i0 ----
    ("i0", f"r = i0({SPECIAL})"),
    ("i0_large", "r = i0(tensor([10., 50., 88., 89., 90., -30.]))"),
    ("i0_f64", "r = i0(tensor([0.25, 5., 50., 700., 713., 714., -3.], dtype=f64))"),
    ("i0_int", "r = i0(tensor([0, 1, 2, -3]))"),
    ("i0_bool", "r = i0(tensor([true, false]))"),
    ("i0_bf16", "r = i0(tensor([0.5, 3., 7.], dtype=bf16))"),
    ("i0_method", "r = tensor([0.1, 0.2]).i0()"),
    ("special_i0", "r = special.i0(tensor([1.5, -2.5]))"),
    ("i0_", "r = tensor([1., 2., -0.5])\nr.i0_()"),
    ("i0_transposed", "r = i0(arange(12.).reshape(3, 4).t() / 4)"),
    *grad("i0", V, "i0(v)", ("v",)),
    ("i0_grad_f64", "x = tensor([0., 0.7, -4., 20.], dtype=f64, requires_grad=true)\ni0(x).sum().backward()\nr = x.grad"),
    # ---- angle ----
    ("angle", f"r = angle({SPECIAL})"),
    ("angle_int", "r = angle(tensor([-3, 0, 2]))"),
    ("angle_f64", "r = tensor([-1e-300, 0.], dtype=f64).angle()"),
    ("angle_bool", "r = angle(tensor([true, false]))"),
    *grad("angle", V, "angle(v)", ("v",)),
    # ---- predicates, positive ----
    ("isposinf", f"r = isposinf({SPECIAL})"),
    ("isneginf", f"r = {SPECIAL}.isneginf()"),
    ("isposinf_int", "r = isposinf(tensor([1, 2]))"),
    ("isneginf_bool", "r = isneginf(tensor([true]))"),
    ("isposinf_f16", "r = isposinf(tensor([inf, -inf, 1.], dtype=f16))"),
    ("isreal", f"r = isreal({SPECIAL})"),
    ("isreal_int_method", "r = tensor([[1, 2]]).isreal()"),
    ("isposinf_transposed", "r = isposinf(arange(12.).reshape(3, 4).t())"),
    ("positive", "r = positive(tensor([1, -2]))"),
    ("positive_method", "r = tensor([1.5, -2.]).positive()"),
    ("positive_same", "x = tensor([1., 2.])\nr = tensor(positive(x).data_ptr() == x.data_ptr())"),
    # ---- diag_embed ----
    ("diag_embed", "r = diag_embed(tensor([1., -2., 3.]))"),
    ("diag_embed_offset", "r = diag_embed(tensor([1., -2., 3.]), 1)"),
    ("diag_embed_neg_offset", "r = diag_embed(tensor([1, 2]), offset=-2)"),
    ("diag_embed_batch_dims", "r = diag_embed(arange(6.).reshape(2, 3), offset=-1, dim1=0, dim2=2)"),
    ("diag_embed_dims_swapped", "r = arange(6.).reshape(2, 3).diag_embed(1, -1, -2)"),
    ("diag_embed_empty", "r = diag_embed(zeros(2, 0))"),
    *grad("diag_embed", A, "diag_embed(a, 1, 0, 2)", ("a",)),
    # ---- block_diag ----
    ("block_diag", "r = block_diag(tensor([[1., 2.], [3., 4.]]), tensor([5., 6.]), tensor(7.))"),
    ("block_diag_promote", "r = block_diag(tensor([[1, 2]]), tensor([[0.5]], dtype=f64), tensor([true]))"),
    ("block_diag_none", "r = block_diag()"),
    ("block_diag_ints", "r = block_diag(tensor([[1, 2]], dtype=i8), tensor([3], dtype=u8))"),
    ("block_diag_empty_block", "r = block_diag(zeros(2, 0), ones(1, 2), zeros(0, 1))"),
    ("block_diag_one", "r = block_diag(tensor([[1., 2.], [3., 4.]]))"),
    *grad("block_diag", f"{A}\n{V}", "block_diag(a, v, a[0, 0])", ("a", "v")),
    # ---- vander ----
    ("vander", "r = vander(tensor([1, 2, 3, 5]))"),
    ("vander_N", "r = vander(tensor([1., -2., 0.5]), N=2)"),
    ("vander_increasing", "r = vander(tensor([1., -2., 0.5]), increasing=true)"),
    ("vander_N_large", "r = vander(tensor([2, 3]), 5, true)"),
    ("vander_N0", "r = vander(tensor([2., 3.]), N=0)"),
    ("vander_i8", "r = vander(tensor([2, -3], dtype=i8))"),
    ("vander_bool", "r = vander(tensor([true, false]))"),
    ("vander_f64", "r = vander(tensor([1.5, 0.25], dtype=f64), 3)"),
    ("vander_empty", "r = vander(zeros(0))"),
    # ---- trapezoid / trapz ----
    ("trapezoid", "r = trapezoid(tensor([1., -2., 3., 0.5]))"),
    ("trapezoid_dx", "r = trapezoid(tensor([1., -2., 3., 0.5]), dx=0.5)"),
    ("trapezoid_x", "r = trapezoid(tensor([1., -2., 3., 0.5]), tensor([0., 1., 3., 3.5]))"),
    ("trapezoid_x_kw", "r = trapezoid(tensor([1., -2., 3., 0.5]), x=tensor([0., -1., 3., 4.]))"),
    ("trapezoid_dim0", "r = trapezoid(arange(12.).reshape(3, 4), dim=0)"),
    ("trapezoid_x_1d_dim0", "r = trapezoid(arange(12.).reshape(3, 4), tensor([0., 2., 5.]), dim=0)"),
    ("trapezoid_x_2d", "r = trapezoid(arange(6.).reshape(2, 3), tensor([[0., 1., 2.], [1., 3., 4.]]))"),
    ("trapezoid_x_bcast", "r = trapezoid(arange(12.).reshape(2, 2, 3), tensor([[0., 1., 3.], [1., 2., 4.]]))"),
    ("trapezoid_int", "r = trapezoid(arange(6).reshape(2, 3))"),
    ("trapezoid_int_dx", "r = trapezoid(tensor([1, 4, 9]), dx=2)"),
    ("trapezoid_int_x", "r = trapezoid(tensor([1, 4, 9]), tensor([0, 1, 3]))"),
    ("trapezoid_f64", "r = trapezoid(tensor([0.1, 0.2, 0.3], dtype=f64), dx=0.1)"),
    ("trapezoid_empty", "r = trapezoid(zeros(2, 0))"),
    ("trapezoid_one", "r = trapezoid(tensor([[5.], [2.]]))"),
    ("trapz", "r = trapz(tensor([1., -2., 3.]), dx=2.)"),
    ("trapz_x", "r = trapz(tensor([1., -2., 3.]), tensor([0., 1., 3.]))"),
    *grad("trapezoid", V, "trapezoid(v, dx=0.5)", ("v",)),
    *grad("trapezoid_x", f"{V}\nq = tensor([0., 1., 3.], requires_grad=true)", "trapezoid(v, q)", ("v", "q")),
    # ---- register_hook ----
    # ---- mode's tie index follows libstdc++'s (unstable) std::sort of the pairs ----
    *[(f"mode_ties_{n}_{k}", f"r = mode(tensor({_ties(n, k)}), 0).indices")
      for n, k in ((17, 3), (40, 4), (100, 5), (257, 3), (1000, 7))],
    ("mode_ties_2d", f"r = mode(tensor({_ties(60, 3)}).reshape(20, 3), 0).indices"),
    ("mode_ties_i64", f"r = mode(tensor({_ties(90, 4)}).long(), -1).indices"),
    ("mode_ties_values", f"r = mode(tensor({_ties(90, 4)}) - 1.5, -1).values"),
    ("mode_nan", "r = mode(tensor([nan, 1., nan])).indices"),
    ("mode_nan_long", f"r = mode(tensor({_ties(30, 2)}).masked_fill(tensor({_ties(30, 2)}) > 0, nan)).indices"),
    # ---- views of an overlapping view (an expanded or unfolded tensor) counted each alias once ----
    ("expand_slice_grad", "a = tensor([0., 1., 3.], requires_grad=true)\n"
     "(a.expand(2, 3)[:, 1:] * tensor([[1., 2.], [3., 4.]])).sum().backward()\nr = a.grad"),
    ("expand_select_grad", "a = tensor([0., 1., 3.], requires_grad=true)\n(a.expand(2, 3)[0] * tensor([1., 2., 3.])).sum().backward()\nr = a.grad"),
    ("expand_diagonal_grad", "a = tensor([0., 1., 3.], requires_grad=true)\n"
     "(a.expand(2, 3).diagonal() * tensor([1., 10.])).sum().backward()\nr = a.grad"),
    ("unfold_slice_grad", "a = arange(5., requires_grad=true)\n"
     "(a.unfold(0, 3, 1)[1:, :2] * tensor([[1., 2.], [3., 4.]])).sum().backward()\nr = a.grad"),
    ("trapezoid_expanded_x_grad", "a = tensor([0., 1., 3.], requires_grad=true)\n"
     "y = trapezoid(tensor([[1., 2., 3.], [4., 5., 6.]]), a.expand(2, 3))\n(y * tensor([1., 2.])).sum().backward()\nr = a.grad"),
    # ---- masked_fill with a 0-d value tensor that requires grad (MaskedFillBackward1) ----
    ("masked_fill_value_grad", "v = tensor(2., requires_grad=true)\nx = tensor([1., 2., 3.], requires_grad=true)\n"
     "y = x.masked_fill(tensor([true, false, true]), v)\n(y * tensor([1., 10., 100.])).sum().backward()\nr = v.grad"),
    ("masked_fill_value_grad_self", "v = tensor(2., requires_grad=true)\nx = tensor([1., 2., 3.], requires_grad=true)\n"
     "y = x.masked_fill(tensor([true, false, true]), v)\n(y * tensor([1., 10., 100.])).sum().backward()\nr = x.grad"),
    ("masked_fill_value_grad_f64", "v = tensor(2., dtype=f64, requires_grad=true)\n"
     "y = zeros(2, 3).masked_fill(tensor([true, false, true]), v)\n(y * arange(6.).reshape(2, 3)).sum().backward()\nr = v.grad"),
    ("masked_fill__value_grad", "v = tensor(2., requires_grad=true)\nz = zeros(3)\n"
     "z.masked_fill_(tensor([false, true, true]), v)\n(z * tensor([1., 10., 100.])).sum().backward()\nr = v.grad"),
    ("index_put_mask_value_grad", "v = tensor(2., dtype=f64, requires_grad=true)\nz = zeros(3)\n"
     "z[tensor([true, false, true])] = v\n(z * tensor([1., 10., 100.])).sum().backward()\nr = v.grad"),
    ("hook_nonleaf", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g * 10 })\n"
     "(y * y).sum().backward()\nr = x.grad"),
    ("hook_retain_before", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.retain_grad()\n"
     "y.register_hook(fn(g) { g * 10 })\n(y * y).sum().backward()\nr = y.grad"),
    ("hook_retain_after", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g * 10 })\n"
     "y.retain_grad()\n(y * y).sum().backward()\nr = y.grad"),
    ("hook_retain_between", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g * 2 })\n"
     "y.retain_grad()\ny.register_hook(fn(g) { g * 3 })\n(y * y).sum().backward()\nr = y.grad"),
    ("hook_retain_after_removed", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\nh = y.register_hook(fn(g) { g * 2 })\n"
     "h.remove()\ny.retain_grad()\ny.register_hook(fn(g) { g * 3 })\n(y * y).sum().backward()\nr = y.grad"),
    ("hook_chain", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g + 1 })\n"
     "y.register_hook(fn(g) { g * 3 })\ny.register_hook(fn(g) { none })\n(y * y).sum().backward()\nr = x.grad"),
    ("hook_leaf_sum", "x = tensor([1., 2.], requires_grad=true)\nx.register_hook(fn(g) { g * g })\n"
     "(x * 3 + x).sum().backward()\nr = x.grad"),
    ("hook_leaf_existing_grad", "x = tensor([1., 2.], requires_grad=true)\nx.grad = ones(2)\n"
     "x.register_hook(fn(g) { g * 0 })\n(x * 3).sum().backward()\nr = x.grad"),
    ("hook_removed", "x = tensor([1., 2.], requires_grad=true)\nh = x.register_hook(fn(g) { g * 100 })\n"
     "h.remove()\nh.remove()\n(x * 3).sum().backward()\nr = x.grad"),
    ("hook_grad_leaf_input", "x = tensor([1., 2.], requires_grad=true)\nx.register_hook(fn(g) { g * 100 })\n"
     "r = grad(x) { (x * 2).sum() }",
     "x = torch.tensor([1., 2.], requires_grad=True)\nx.register_hook(lambda g: g * 100)\n"
     "r = torch.autograd.grad((x * 2).sum(), x)[0]"),
    ("hook_grad_nonleaf_input", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g * 7 })\n"
     "r = grad(y) { (y * 2).sum() }",
     "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\ny.register_hook(lambda g: g * 7)\n"
     "r = torch.autograd.grad((y * 2).sum(), y)[0]"),
    ("hook_grad_through", "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.register_hook(fn(g) { g * 7 })\n"
     "r = grad(x) { (y * 2).sum() }",
     "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\ny.register_hook(lambda g: g * 7)\n"
     "r = torch.autograd.grad((y * 2).sum(), x)[0]"),
    ("hook_multi_output", "x = tensor([1., 2., 3., 4.], requires_grad=true)\np, q = x.split(2)\n"
     "q.register_hook(fn(g) { g * 5 })\n(p.sum() + (q * q).sum()).backward()\nr = x.grad"),
]

GRADFN = [
    ("logaddexp2", "r = logaddexp2(tensor([1.], requires_grad=true), tensor([2.]))"),
    ("i0", "r = i0(tensor([1.], requires_grad=true))"),
    ("special_i0", "r = special.i0(tensor([1.], requires_grad=true))"),
    ("angle", "r = angle(tensor([1.], requires_grad=true))"),
    ("diag_embed", "r = diag_embed(tensor([1., 2.], requires_grad=true))"),
    ("block_diag", "r = block_diag(tensor([1., 2.], requires_grad=true), tensor([[3.]]))"),
    ("vander", "r = vander(tensor([1., 2.], requires_grad=true))"),
    ("vander_increasing", "r = vander(tensor([1., 2.], requires_grad=true), increasing=true)"),
    ("trapezoid", "r = trapezoid(tensor([1., 2.], requires_grad=true))"),
    ("trapezoid_dx", "r = trapezoid(tensor([1., 2.], requires_grad=true), dx=3.)"),
    ("trapezoid_x", "r = trapezoid(tensor([1., 2.], requires_grad=true), tensor([0., 2.]))"),
    ("trapz", "r = trapz(tensor([1., 2.], requires_grad=true))"),
    ("masked_fill_value", "r = zeros(2).masked_fill(tensor([true, false]), tensor(1., requires_grad=true))"),
    ("masked_fill_value_self", "r = zeros(2, requires_grad=true).masked_fill(tensor([true, false]), tensor(1.))"),
]

ERRORS = [
    ("logaddexp2_int", "logaddexp2(tensor([1]), tensor([2]))", True),
    ("lshift_float", "bitwise_left_shift(tensor([1., 2.]), 1)", True),
    ("rshift_float_other", "bitwise_right_shift(tensor([1, 2]), tensor([1.]))", True),
    ("lshift_bool", "bitwise_left_shift(tensor([true]), tensor([true]))", True),
    ("rshift_bool", "tensor([true]).bitwise_right_shift(tensor([false]))", True),
    ("lshift_numbers", "bitwise_left_shift(3, 3)", False),
    ("lshift__promotes", "tensor([1, 2], dtype=i32).bitwise_left_shift_(tensor([1.]))", False),
    ("positive_bool", "positive(tensor([true]))", True),
    ("diag_embed_same_dims", "diag_embed(tensor([1., 2.]), dim1=1, dim2=-1)", True),
    ("diag_embed_dim_range", "diag_embed(tensor([1., 2.]), dim1=2)", True),
    ("block_diag_3d", "block_diag(ones(2, 2), ones(1, 1, 1))", True),
    ("vander_2d", "vander(ones(2, 2))", True),
    ("vander_neg_N", "vander(tensor([1., 2.]), N=-1)", True),
    ("trapezoid_bool", "trapezoid(tensor([true, false]))", True),
    ("trapezoid_x_count", "trapezoid(tensor([1., 2., 3.]), tensor([0., 1.]))", True),
    ("trapezoid_dim_range", "trapezoid(tensor([1., 2.]), dim=1)", True),
    ("hook_no_grad", "tensor([1.]).register_hook(fn(g) { g })", True),
    ("hook_size", "x = tensor([1., 2.], requires_grad=true)\nx.register_hook(fn(g) { ones(3) })\n(x * 1).sum().backward()", False),
    ("hook_type", "x = tensor([1., 2.], requires_grad=true)\nx.register_hook(fn(g) { ones(2, dtype=f64) })\n"
     "(x * 1).sum().backward()", False),
    ("hook_not_tensor", "x = tensor([1., 2.], requires_grad=true)\nx.register_hook(fn(g) { 5 })\n(x * 1).sum().backward()", True),
]


def main():
    write_golden("h4_fns.json", "gen_h4_fns.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
