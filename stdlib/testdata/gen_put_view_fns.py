#!/usr/bin/env python3
"""Generate stdlib/testdata/put_view_fns.json for stdlib/put_view_fns_test.go.\n\nGolden values from PyTorch 1.13 for put/put_ (values, gradients,\ngrad_fn names, errors), the attribute assignment x.data = t, and\nx.view(dtype) (values, dtype, shape, strides, errors). Each case is\nwritten once in tsr; to_torch() (from gen_ops_more_torch.py) spells it\nfor PyTorch, with view(DTYPE) spelled view(torch.DTYPE).\n\nRun with /usr/bin/python3 (torch installed):\n\n    /usr/bin/python3 stdlib/testdata/gen_put_view_fns.py\n"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import DTYPES  # noqa: E402
from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

EXTRA = ["put", "full", "float_power", "masked_fill", "index_add", "scatter", "scatter_add", "scatter_reduce"]


def to_torch(src):
    s = base_to_torch(src, EXTRA)
    return re.sub(r"\.view\((\w+)\)", lambda m: ".view(" + DTYPES.get(m.group(1), m.group(1)) + ")", s)


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


X23 = "arange(6.).reshape(2, 3)"
GP = ("s = tensor([[0.5, -1.5, 2.], [1., 0.25, -3.]], requires_grad=true)\n"
      "c = tensor([1.5, -0.5, 3., 2.], requires_grad=true)")

CASES = [
    # ---- put, put_ ----
    ("put", f"r = put({X23}, tensor([0, 5]), tensor([-1., -2.]))"),
    ("put_method", f"r = {X23}.put(tensor([4, 1]), tensor([-1., -2.]))"),
    ("put_negative", f"r = put({X23}, tensor([-1, -6]), tensor([-1., -2.]))"),
    ("put_index_2d", f"r = put({X23}, tensor([[0, 1], [2, 3]]), tensor([9., 8., 7., 6.]))"),
    ("put_source_2d", f"r = put({X23}, tensor([0, 1, 2, 3]), tensor([[9., 8.], [7., 6.]]))"),
    ("put_accumulate", f"r = put({X23}, tensor([1, 1, -5, 0]), tensor([1., 2., 4., 8.]), accumulate=true)"),
    ("put_kw", f"r = {X23}.put(index=tensor([2]), source=tensor([5.]), accumulate=false)"),
    ("put_transposed", f"r = {X23}.t().put(tensor([0, 1]), tensor([-1., -2.]))"),
    ("put_0d", "r = put(tensor(1.), tensor(0), tensor(3.))"),
    ("put_0d_self_1d_index", "r = put(tensor(1.), tensor([-1]), tensor([3.]))"),
    ("put_empty", "r = put(zeros(0), tensor([], dtype=i64), zeros(0))"),
    ("put_empty_index", f"r = put({X23}, tensor([], dtype=i64), zeros(0))"),
    ("put_i64", "r = put(arange(5), tensor([0, 4]), tensor([-7, 9]))"),
    ("put_i8_wrap", "r = zeros(3, dtype=i8).put(tensor([0, 0]), tensor([100, 100], dtype=i8), accumulate=true)"),
    ("put_u8", "r = zeros(3, dtype=u8).put(tensor([2, 2]), tensor([200, 100], dtype=u8), accumulate=true)"),
    ("put_bool_accumulate", "r = zeros(3, dtype=bool).put(tensor([0, 0]), tensor([true, true]), accumulate=true)"),
    ("put_bool", "r = ones(3, dtype=bool).put(tensor([1]), tensor([false]))"),
    ("put_f64", "r = zeros(3, dtype=f64).put(tensor([2]), tensor([0.1], dtype=f64))"),
    ("put_f16_accumulate", "r = zeros(3, dtype=f16).put(tensor([0, 0]), tensor([1., 2.], dtype=f16), accumulate=true)"),
    ("put_bf16", "r = zeros(3, dtype=bf16).put(tensor([0, 2]), tensor([1.5, 2.25], dtype=bf16))"),
    ("put_", f"r = {X23}\nr.put_(tensor([1, -1]), tensor([10., 20.]))"),
    ("put__accumulate", f"r = {X23}\nr.put_(tensor([1, 1]), tensor([10., 20.]), accumulate=true)"),
    ("put__transposed", f"r = {X23}.t()\nr.put_(tensor([0, 1]), tensor([-1., -2.]))"),
    ("put__view", f"b = {X23}\nb[1].put_(tensor([0, 2]), tensor([-1., -2.]))\nr = b"),
    ("put__version", f"x = {X23}\nx.put_(tensor([0]), tensor([1.]))\nr = tensor(x._version)"),
    *grad("put", GP, "put(s, tensor([[0, -1], [4, 2]]), c)", ("s", "c")),
    *grad("put_acc", GP, "put(s, tensor([1, 1, -2, 0]), c, accumulate=true)", ("s", "c")),
    *grad("put_dup", GP, "put(s, tensor([3, 3, 5, 0]), c.reshape(2, 2))", ("c",)),
    *grad("put_inplace", GP, "(s * 1).put_(tensor([0, 1, 2, 3]), c)", ("s", "c")),
    *grad("put_inplace_acc", GP, "(s * 1).t().put_(tensor([0, 1, 2, 3]), c, accumulate=true)", ("s", "c")),
    # ---- x.data = t ----
    ("data_set", "x = zeros(3, requires_grad=true)\ny = ones(2, 2)\nx.data = y\ny[0, 0] = 5.\nr = x.detach()"),
    ("data_set_dtype", "x = zeros(3, requires_grad=true)\nx.data = ones(2, dtype=f64)\nr = x.detach()"),
    ("data_set_int_plain", "x = zeros(3)\nx.data = arange(4)\nr = x"),
    ("data_set_transposed", f"x = {X23}\nx.data = x.t()\nr = x"),
    ("data_set_strided", "x = zeros(3)\nx.data = arange(10.)[1::3]\nr = x"),
    ("data_set_version", "z = zeros(3)\nz.add_(1)\nw = ones(3)\nw.add_(1)\nw.add_(1)\nz.data = w\nz.add_(1)\n"
     "r = tensor([z._version, w._version])"),
    ("data_set_requires_grad", "x = zeros(3, requires_grad=true)\nx.data = ones(2)\nr = tensor(x.requires_grad and x.is_leaf)"),
    ("data_set_nonleaf_backward", "a = ones(3, requires_grad=true)\nb = a * 2\nb.data = zeros(3)\n(b * b).sum().backward()\nr = a.grad"),
    ("data_set_grad_kept", "p = ones(3, requires_grad=true)\n(p * 2).sum().backward()\np.data = ones(2)\nr = p.grad"),
    ("data_set_then_grad", "p = ones(3, requires_grad=true)\np.data = tensor([1., 2.])\n(p * p).sum().backward()\nr = p.grad"),
    ("data_set_view_kept", "v = arange(6.)\nvv = v[1:3]\nv.data = zeros(2)\nr = vv"),
    # ---- view(dtype) ----
    ("view_f32_i32", "r = tensor([1., -2., 0.5, 3.]).view(i32)"),
    ("view_f32_f16", "r = tensor([1., -2., 0.5, 3.]).view(f16)"),
    ("view_f32_bf16", "r = tensor([1., -2., 0.5, 3.]).view(bf16)"),
    ("view_f32_u8", "r = tensor([1., -2.]).view(u8)"),
    ("view_f16_f32", "r = tensor([1., -2., 0.5, 3.], dtype=f16).view(f32)"),
    ("view_f16_i16", "r = tensor([1., -2., 0.5, 3.], dtype=f16).view(i16)"),
    ("view_f16_bf16", "r = tensor([1., -2., 0.5, 3.], dtype=f16).view(bf16)"),
    ("view_i16_i32", "r = tensor([1, 2, 3, 4], dtype=i16).view(i32)"),
    ("view_i8_i32", "r = tensor([[1, 2, 3, 4], [-1, -2, -3, -4]], dtype=i8).view(i32)"),
    ("view_i8_u8", "r = tensor([1, -2, 3, 4], dtype=i8).view(u8)"),
    ("view_u8_bool", "r = tensor([1, 0, 1, 1], dtype=u8).view(bool)"),
    ("view_bool_i32", "r = tensor([[true, false, false, false], [false, true, false, false]]).view(i32)"),
    ("view_i64_f64", "r = tensor([4607182418800017408, -4611686018427387904]).view(f64)"),
    ("view_f64_i32", "r = tensor([1., -2.], dtype=f64).view(i32)"),
    ("view_same", "r = tensor([[1., 2.], [3., 4.]]).view(f32)"),
    ("view_kw", "r = tensor([1., 2.]).view(dtype=i32)"),
    ("view_0d_same_size", "r = tensor(1.).view(i32)"),
    ("view_transposed_same_size", f"r = {X23}.t().view(i32)"),
    ("view_expanded_down", "r = tensor([1., 2., 3.]).expand(2, 3).view(f16)"),
    ("view_sliced_up", "r = arange(8.).to(f16).reshape(2, 4)[:, 2:4].view(f32)"),
    ("view_rows_down", "r = arange(12.).reshape(3, 4)[1:].view(bf16)"),
    ("view_empty_down", "r = zeros(0).view(f16)"),
    ("view_empty_up", "r = zeros(0, dtype=f16).view(f32)"),
    ("view_write_through", "x = tensor([1., -2.])\nv = x.view(i32)\nv[0] = 0\nr = x"),
    ("view_version_shared", "x = tensor([1., -2.])\nv = x.view(i32)\nv.add_(1)\nr = tensor([x._version, v._version])"),
    ("view_not_differentiable", "x = tensor([1., -2.], requires_grad=true)\nv = (x * 1).view(f32)\n"
     "r = tensor([v.requires_grad, v.is_leaf, x.view(i32).requires_grad])"),
    ("view_data_ptr", "x = arange(6.)[2:]\nr = tensor([x.view(f16).data_ptr() == x.data_ptr(), x.view(f64).data_ptr() == x.data_ptr()])"),
    # ---- in-place index/scatter ops beside memory they do not overlap ----
    ("index_add__strided_source", "z = arange(6.)\nz.index_add_(0, tensor([0, 1]), z[1:5:2])\nr = z"),
    ("scatter_add__strided_src", "z = arange(6.)\nz.scatter_add_(0, tensor([0, 1]), z[1:5:2])\nr = z"),
    ("scatter__2d_strided_src", "z = arange(6.).reshape(2, 3)\nz.scatter_(1, tensor([[0], [1]]), z[:, 1:2])\nr = z"),
    ("scatter__empty_index_empty_src", "z = arange(6.)\nz.scatter_(0, tensor([], dtype=i64), z[1:1])\nr = z"),
    ("index_add_out_of_place_overlap", "z = arange(6.)\nr = z.index_add(0, tensor([0, 1]), z[1:3])"),
    ("scatter_out_of_place_overlap", "z = arange(6.)\nr = z.scatter(0, tensor([0, 1]), z[1:3])"),
    ("scatter_reduce_out_of_place_overlap", "z = arange(6.)\nr = z.scatter_reduce(0, tensor([4, 5]), z[0:2], \"prod\")"),
    ("masked_fill__value_0d_f64", "r = zeros(3)\nr.masked_fill_(tensor([true, false, true]), tensor(1.5, dtype=f64))"),
    ("masked_fill__value_0d_into_int", "r = zeros(3, dtype=i64)\nr.masked_fill_(tensor([true, false, true]), tensor(1.5))"),
    ("index_put_mask_value_1_elem", "r = arange(6.)\nr[r > 2] = tensor([-1.])"),
    # ---- tril_, triu_ ----
    ("tril_", "r = arange(12.).reshape(3, 4)\nr.tril_()"),
    ("triu_", "r = arange(12.).reshape(3, 4)\nr.triu_()"),
    ("tril__diagonal", "r = arange(12.).reshape(3, 4)\nr.tril_(-1)"),
    ("triu__kw", "r = arange(12.).reshape(3, 4)\nr.triu_(diagonal=2)"),
    ("tril__transposed", "r = arange(12.).reshape(3, 4).t()\nr.tril_(1)"),
    ("triu__batched", "r = arange(12.).reshape(2, 2, 3)\nr.triu_()"),
    ("tril__int", "r = arange(9).reshape(3, 3)\nr.tril_()"),
    ("tril__version", "r = arange(12.).reshape(3, 4)\nr.tril_()\nr = tensor(r._version)"),
    ("tril__view_writes_base", "b = arange(12.).reshape(3, 4)\nb[1:].tril_()\nr = b"),
    *grad("tril_inplace", "x = arange(12.).reshape(3, 4).requires_grad_()", "(x * 1).tril_(-1)", ("x",)),
    *grad("triu_inplace", "x = arange(12.).reshape(3, 4).requires_grad_()", "(x * 1).triu_(1)", ("x",)),
]

GRADFN = [
    ("put", f"r = put({X23}.requires_grad_(), tensor([0]), tensor([1.]))"),
    ("put_source", f"r = {X23}.put(tensor([0]), tensor([1.], requires_grad=true))"),
    ("put_", f"r = {X23}.requires_grad_() * 1\nr.put_(tensor([0]), tensor([1.]))"),
    ("put__accumulate", f"r = {X23}.requires_grad_() * 1\nr.put_(tensor([0]), tensor([1.]), accumulate=true)"),
    ("data_set_nonleaf", "a = ones(3, requires_grad=true)\nr = a * 2\nr.data = zeros(2)"),
    ("tril_", "r = arange(9.).reshape(3, 3).requires_grad_() * 1\nr.tril_()"),
    ("triu_", "r = arange(9.).reshape(3, 3).requires_grad_() * 1\nr.triu_(1)"),
]

ERRORS = [
    ("put_oob", f"put({X23}, tensor([6]), tensor([1.]))", True),
    ("put_oob_negative", f"put({X23}, tensor([0, -7]), tensor([1., 2.]))", True),
    ("put_index_i32", f"put({X23}, tensor([0], dtype=i32), tensor([1.]))", True),
    ("put_index_float", f"put({X23}, tensor([0.]), tensor([1.]))", True),
    ("put_dtype", f"put({X23}, tensor([0]), tensor([1.], dtype=f64))", True),
    ("put_count", f"put({X23}, tensor([0, 1]), tensor([1.]))", True),
    ("put_empty_self", "put(zeros(0), tensor([0]), tensor([1.]))", True),
    ("put_number_source", f"put({X23}, tensor([0]), 1.)", True),
    ("put_method_number_source", f"{X23}.put(tensor([0]), 1.)", True),
    ("put_list_index", f"put({X23}, [0], tensor([1.]))", True),
    ("put__number_source", f"{X23}.put_(tensor([0]), 1.)", True),
    ("put__leaf", "zeros(3, requires_grad=true).put_(tensor([0]), tensor([1.]))", True),
    ("put__expanded", "zeros(3).expand(2, 3).put_(tensor([0]), tensor([1.]))", True),
    ("put__overlap_source", "z = arange(6.)\nz.put_(tensor([0, 1]), z[1:3])", True),
    ("put__overlap_index", "z = arange(6)\nz.put_(z[0:2], tensor([7, 8]))", True),
    ("put__oob", "zeros(3).put_(tensor([3]), tensor([1.]))", True),
    ("data_set_int_requires_grad", "x = zeros(3, requires_grad=true)\nx.data = ones(2, dtype=i64)", True),
    ("data_set_number", "x = zeros(3)\nx.data = 5", False),
    ("data_set_none", "x = zeros(3)\nx.data = none", False),
    ("data_set_shape_grad_mismatch", "p = ones(3, requires_grad=true)\n(p * 2).sum().backward()\np.data = ones(2)\n"
     "(p * 2).sum().backward()", True),
    ("grad_set_size", "g = zeros(3, requires_grad=true)\ng.grad = ones(2)", True),
    ("grad_set_dtype", "g = zeros(3, requires_grad=true)\ng.grad = ones(3, dtype=f64)", True),
    ("view_up_size", "zeros(3, dtype=f16).view(f32)", True),
    ("view_up_size_i8_f64", "zeros(2, 4, dtype=i8).view(f64)", True),
    ("view_up_offset", "zeros(5, dtype=f16)[1:].view(f32)", True),
    ("view_up_offset_2d", "zeros(2, 4, dtype=f16)[:, 1:3].view(f32)", True),
    ("view_up_stride_last", "zeros(4, 2, dtype=f16).t().view(f32)", True),
    ("view_up_stride_step", "zeros(8, dtype=f16)[::2].view(f32)", True),
    ("view_up_stride_outer", "zeros(2, 0, dtype=f16).view(f32)", True),
    ("view_up_stride_outer_odd", "zeros(2, 3, dtype=f16)[:, 0:2].view(f32)", True),
    ("view_down_stride_last", "zeros(4, 2).t().view(f16)", True),
    ("view_down_expanded", "zeros(2, 1).expand(2, 4).view(f16)", True),
    ("view_down_0d", "tensor(1.).view(f16)", True),
    ("view_up_0d", "tensor(1., dtype=f16).view(f32)", True),
    # ---- in-place index/scatter ops: assert_no_overlap(self, index/src) ----
    ("index_add__overlap_partial", "z = arange(6.)\nz.index_add_(0, tensor([0, 1]), z[1:3])", True),
    ("index_add__overlap_disjoint_rows", "z = arange(6.)\nz.index_add_(0, tensor([4, 5]), z[0:2])", True),
    ("index_add__overlap_index", "z = arange(6)\nz.index_add_(0, z[0:2], tensor([7, 8]))", True),
    ("index_add__overlap_alpha", "z = arange(6.)\nz.index_add_(0, tensor([0, 1]), z[1:3], alpha=2)", True),
    ("index_add__overlap_before_bounds", "z = arange(6.)\nz.index_add_(0, tensor([9]), z[1:2])", True),
    ("index_add__count_before_overlap", "z = arange(6.)\nz.index_add_(0, tensor([0, 1, 2]), z[1:3])", True),
    ("index_add__dtype_before_overlap", "z = arange(6.)\nz.index_add_(0, tensor([0]), z[1:2].to(f64))", True),
    ("scatter__overlap_src", "z = arange(6.)\nz.scatter_(0, tensor([0, 1]), z[1:3])", True),
    ("scatter__overlap_full", "z = arange(6.)\nz.scatter_(0, tensor([0, 1]), z[0:2])", True),
    ("scatter__overlap_index", "z = arange(6)\nz.scatter_(0, z[0:2], tensor([7, 8]))", True),
    ("scatter__value_overlap_index", "z = arange(6)\nz.scatter_(0, z[1:3], 5)", True),
    ("scatter__overlap_before_bounds", "z = arange(6.)\nz.scatter_(0, tensor([9]), z[1:2])", True),
    ("scatter__overlap_empty_index", "z = arange(6.)\nz.scatter_(0, tensor([], dtype=i64), z[1:3])", True),
    ("scatter__shape_before_overlap", "z = arange(6.)\nz.scatter_(0, tensor([0, 1, 2]), z[1:3])", True),
    ("scatter__dtype_before_overlap", "z = arange(6.)\nz.scatter_(0, tensor([0]), z[1:3].to(f64))", True),
    ("scatter_add__overlap_src", "z = arange(6.)\nz.scatter_add_(0, tensor([0, 1]), z[1:3])", True),
    ("scatter_add__overlap_index", "z = arange(6)\nz.scatter_add_(0, z[0:2], tensor([7, 8]))", True),
    ("scatter_add__overlap_before_bounds", "z = arange(6.)\nz.scatter_add_(0, tensor([9]), z[1:2])", True),
    ("scatter_reduce__overlap_src", "z = arange(6.)\nz.scatter_reduce_(0, tensor([0, 1]), z[1:3], \"sum\")", True),
    ("scatter_reduce__overlap_amax", "z = arange(6.)\nz.scatter_reduce_(0, tensor([0, 1]), z[0:2], \"amax\")", True),
    ("scatter_reduce__overlap_index", "z = arange(6)\nz.scatter_reduce_(0, z[0:2], tensor([7, 8]), \"sum\")", True),
    ("scatter_reduce__overlap_before_reduce", "z = arange(6.)\nz.scatter_reduce_(0, tensor([0]), z[1:2], \"bad\")", True),
    ("scatter_reduce__overlap_empty_index", "z = arange(6.)\nz.scatter_reduce_(0, tensor([], dtype=i64), z[1:3], \"sum\")", True),
    ("scatter_reduce__shape_before_overlap", "z = arange(6.)\nz.scatter_reduce_(0, tensor([0, 1, 2]), z[1:3], \"sum\")", True),
    ("scatter__expanded_self", "z = zeros(3).expand(2, 3)\nz.scatter_(0, tensor([[0]]), ones(1, 1))", True),
    ("index_add__expanded_self", "z = zeros(3).expand(2, 3)\nz.index_add_(0, tensor([0]), ones(1, 3))", True),
    # ---- masked_fill: the value must be 0-d (checked before the mask's dtype) ----
    ("masked_fill__value_1d", "r = zeros(3)\nr.masked_fill_(tensor([true, false, true]), tensor([1.]))", True),
    ("masked_fill__value_2d", "r = zeros(3)\nr.masked_fill_(tensor([true, false, true]), tensor([[1.]]))", True),
    ("masked_fill__value_empty", "r = zeros(3)\nr.masked_fill_(tensor([true, false, true]), zeros(0))", True),
    ("masked_fill__value_2_elems", "r = zeros(3)\nr.masked_fill_(tensor([true, false, true]), tensor([1., 2.]))", True),
    ("masked_fill_value_1d", "zeros(3).masked_fill(tensor([true, false, true]), tensor([1.]))", True),
    ("masked_fill_function_value_1d", "masked_fill(zeros(3), tensor([true, false, true]), tensor([1.]))", True),
    ("masked_fill__value_before_mask", "zeros(3).masked_fill_(tensor([1, 0, 1], dtype=i32), tensor([1.]))", True),
    ("masked_fill__leaf_first", "zeros(3, requires_grad=true).masked_fill_(tensor([true, false, true]), tensor([1.]))", True),
    ("masked_fill__nonleaf_value_1d", "r = zeros(3, requires_grad=true) * 1\nr.masked_fill_(tensor([true, false, true]), tensor([1.]))", True),
    # ---- float_power_: self's dtype is checked first ----
    ("float_power__dtype_before_leaf", "tensor([1., 2.], requires_grad=true).float_power_(2)", True),
    ("float_power__dtype_before_overlap", "r = arange(6.)\nr[1:3].float_power_(r[0:2])", True),
    ("float_power__dtype_before_expanded", "tensor([1., 2.]).expand(2, 2).float_power_(2)", True),
    ("float_power__dtype_before_broadcast", "arange(6.)[1:3].float_power_(tensor([1., 2., 3.]))", True),
    ("float_power__f64_overlap", "r = arange(6., dtype=f64)\nr[1:3].float_power_(r[0:2])", True),
    ("float_power__f64_leaf", "tensor([1., 2.], dtype=f64, requires_grad=true).float_power_(2)", True),
    ("float_power__f64_expanded", "tensor([1., 2.], dtype=f64).expand(2, 2).float_power_(2)", True),
    ("tril__1d", "arange(3.).tril_()", True),
    ("triu__leaf", "ones(3, 3, requires_grad=true).triu_()", True),
]


def main():
    write_golden("put_view_fns.json", "gen_put_view_fns.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
