#!/usr/bin/env python3
"""Generate stdlib/testdata/torch_aliases.json for stdlib/torch_aliases_test.go.

Golden values from PyTorch 1.13 for signbit, the comparison aliases
(greater, greater_equal, less, less_equal, not_equal) and the in-place
comparisons (gt_, ..., greater_, ...), tensor_split/hsplit/vsplit/dsplit,
rot90, inner, vdot, take_along_dim, quantile/nanquantile, cartesian_prod,
histc, unique_consecutive, and the memory-overlap errors of copy_ and
index assignment. Each case is written once in tsr; to_torch() (from
gen_ops_more_torch.py) spells it for PyTorch. Kinds of case:

  cases    a program leaving in r a tensor or a tuple/list of tensors; the
           golden keeps, per tensor, its dtype, shape, strides, storage
           offset and values (Python reprs: nan, inf and -0.0 survive
           JSON). Gradient cases end in r = x.grad.
  grad_fns a program leaving in r a tensor or a tuple of tensors; the
           golden keeps type(t.grad_fn).__name__ of each ("NoneType" for
           none).
  errors   a program that must fail; the golden keeps PyTorch's exception
           kind and first message line (compared when exact is true).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_torch_aliases.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from gen_ops_more_torch import DTYPE_NAMES, run  # noqa: E402
from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402

EXTRA = ["signbit", "greater", "greater_equal", "less", "less_equal", "not_equal", "gt", "eq",
         "tensor_split", "hsplit", "vsplit", "dsplit", "rot90", "inner", "vdot", "take_along_dim",
         "quantile", "nanquantile", "cartesian_prod", "histc", "unique_consecutive", "full"]


def to_torch(src):
    """gen_ops_more_torch's spelling plus this file's functions."""
    return base_to_torch(src, EXTRA)


X = "arange(10.)"
X3 = "arange(24.).reshape(2, 3, 4)"
X34 = "arange(12.).reshape(3, 4)"
SPECIAL = "tensor([-2.5, -1., -0.0, 0., 0.5, 1., 3., inf, -inf, nan, -nan])"
ROW = "tensor([[0.5, -1., 3., 3., 2., -4.], [1., nan, 0., 2., 5., 1.]])"
ROW_NONAN = "tensor([[0.5, -1., 3., 3., 2., -4.], [1., 7., 0., 2., 5., 1.]])"
QS = "tensor([0., 0.1, 0.25, 0.5, 0.7, 1.])"


def grad(name, setup, expr, leaves=("x",)):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


CASES = [
    # ---- signbit ----
    ("signbit_f32", f"r = signbit({SPECIAL})"),
    ("signbit_f64", f"r = signbit({SPECIAL}.to(f64))"),
    ("signbit_f16", f"r = signbit({SPECIAL}.to(f16))"),
    # PyTorch's vectorized f32 -> bf16 cast turns every NaN into 0xffff
    # (sign bit set), its scalar conversion (tensor(..., dtype=bf16)) into
    # 0x7fc0: bf16 NaNs are left out (tsr keeps a NaN's sign)
    ("signbit_bf16", "r = tensor([-2.5, -0.0, 0., 3., inf, -inf], dtype=bf16).signbit()"),
    ("signbit_i8", "r = signbit(tensor([-128, -1, 0, 1, 127], dtype=i8))"),
    ("signbit_i16", "r = signbit(tensor([-3, 0, 3], dtype=i16))"),
    ("signbit_i32", "r = signbit(tensor([-3, 0, 3], dtype=i32))"),
    ("signbit_i64", "r = signbit(tensor([-9223372036854775807, 0, 5]))"),
    ("signbit_u8", "r = signbit(tensor([0, 200], dtype=u8))"),
    ("signbit_bool", "r = signbit(tensor([true, false]))"),
    ("signbit_transposed", f"r = signbit({X34}.t() - 5)"),
    ("signbit_empty", "r = signbit(zeros(0, 3))"),
    ("signbit_0d", "r = signbit(tensor(-0.0))"),
    ("signbit_grad_input", "r = signbit(tensor([-1., 2.], requires_grad=true))"),

    # ---- comparison aliases ----
    ("greater_transposed", f"r = greater({X34}.t(), 5)"),
    ("greater_equal_bcast", "r = greater_equal(tensor([[1.], [2.], [3.]]), tensor([1., 2.5]))"),
    ("less_int_float", "r = less(tensor([1, 2, 3]), tensor([1.5, 1.5, 3.5]))"),
    ("less_equal_nan", "r = less_equal(tensor([nan, 1., inf]), tensor([nan, 1., inf]))"),
    ("not_equal_bool_int", "r = not_equal(tensor([true, false, true]), tensor([1, 1, 0]))"),
    ("greater_method", "r = tensor([1., 5.]).greater(2)"),
    ("less_method_kw", "r = tensor([1., 5.]).less(other=tensor(2.))"),
    ("not_equal_method", "r = tensor([1, 5], dtype=u8).not_equal(5)"),
    ("greater_equal_f16", "r = greater_equal(tensor([0.1, 0.2], dtype=f16), 0.1)"),
    ("less_equal_kw", "r = less_equal(tensor([1., 2.]), other=1.5)"),
    # in place: the 0/1 result in self's dtype, compared in the promoted dtype
    ("gt_float", "r = tensor([1., 2., 3.])\nr.gt_(2)"),
    ("gt_int_float_other", "r = tensor([1, 2, 3])\nr.gt_(2.5)"),
    ("lt_bool", "r = tensor([true, false])\nr.lt_(0.5)"),
    ("ne_u8_tensor", "r = tensor([1, 2, 3], dtype=u8)\nr.ne_(tensor([1., 2., 4.]))"),
    ("eq_bcast", "r = tensor([[1., 2.], [3., 1.]])\nr.eq_(tensor([1., 1.]))"),
    ("le_nan", "r = tensor([nan, 1., 2.])\nr.le_(1.)"),
    ("ge_f64", "r = tensor([0.1, 0.2], dtype=f64)\nr.ge_(tensor(0.2, dtype=f64))"),
    ("greater__", "r = tensor([1., 2., 3.])\nr.greater_(tensor([0., 2., 5.]))"),
    ("greater_equal__", "r = tensor([1, 2, 3])\nr.greater_equal_(2)"),
    ("less__", "r = tensor([1., 2., 3.])\nr.less_(2)"),
    ("less_equal__", "r = tensor([1., 2., 3.])\nr.less_equal_(2)"),
    ("not_equal__", "r = tensor([1., 2., 3.])\nr.not_equal_(2)"),
    ("gt_view", f"x = {X34}\nv = x.t()\nv.lt_(5)\nr = x"),
    ("gt_returns_self_strides", f"x = {X34}.t()\nr = x.ge_(4)"),
    ("gt_version", "r = tensor([1., 2., 3.])\nr.gt_(1)\nr.less_equal_(0)\nr = tensor(r._version)"),
    ("gt_grad", "x = tensor([1., 2., 3.], requires_grad=true)\ny = x * 2\ny.gt_(3)\n"
                "(y * tensor([1., 2., 3.])).sum().backward()\nr = x.grad"),
    ("greater_grad_tensor", "x = tensor([1., 2., 3.], requires_grad=true)\ny = x * 2\ny.greater_(tensor([1., 5., 5.]))\n"
                            "(y * tensor([1., 2., 3.]) + x).sum().backward()\nr = x.grad"),

    # ---- tensor_split, hsplit, vsplit, dsplit ----
    ("tensor_split_sections", f"r = tensor_split({X}, 3)"),
    ("tensor_split_indices", f"r = tensor_split({X}, [1, 4])"),
    ("tensor_split_tuple", f"r = tensor_split({X}, (1, 4))"),
    ("tensor_split_tensor_indices", f"r = tensor_split({X}, tensor([1, 4]))"),
    ("tensor_split_tensor_sections", f"r = tensor_split({X}, tensor(3))"),
    ("tensor_split_neg_clamped", f"r = tensor_split({X}, [-3, 2, 20])"),
    ("tensor_split_more_sections", f"r = tensor_split({X}, 13)"),
    ("tensor_split_empty_list", f"r = tensor_split({X}, [])"),
    ("tensor_split_empty_tensor", f"r = tensor_split({X}, tensor([], dtype=i64))"),
    ("tensor_split_dim_neg", f"r = tensor_split({X3}, 3, dim=-1)"),
    ("tensor_split_dim1_indices", f"r = tensor_split({X3}, (1,), 1)"),
    ("tensor_split_method", f"r = {X3}.tensor_split(2, 1)"),
    ("tensor_split_kw_indices", f"r = tensor_split({X3}, indices=[1], dim=2)"),
    ("tensor_split_kw_sections", f"r = tensor_split({X3}, sections=2, dim=2)"),
    ("tensor_split_kw_tensor", f"r = tensor_split({X3}, tensor_indices_or_sections=tensor(2), dim=2)"),
    ("tensor_split_transposed", f"r = tensor_split({X3}.transpose(0, 2), 3, 0)"),
    ("tensor_split_zero_size", "r = tensor_split(zeros(0, 3), 2)"),
    ("tensor_split_int", "r = tensor_split(arange(7), 2)"),
    ("tensor_split_views", f"x = {X}\nps = tensor_split(x, 3)\nps[1][0] = 100.\nr = x"),
    ("hsplit_1d", f"r = hsplit({X}, 5)"),
    ("hsplit_3d", f"r = hsplit({X3}, 3)"),
    ("hsplit_indices", f"r = hsplit({X3}, [1, 2])"),
    ("hsplit_0d_tensor", f"r = hsplit({X3}, tensor(3))"),
    ("hsplit_kw", f"r = hsplit({X3}, sections=3)"),
    ("hsplit_zero_size", "r = hsplit(zeros(2, 0), 2)"),
    ("vsplit", f"r = vsplit({X3}, 2)"),
    ("vsplit_indices", f"r = vsplit({X3}, [1])"),
    ("vsplit_method", f"r = {X34}.vsplit([1, 1, 5])"),
    ("dsplit", f"r = dsplit({X3}, 2)"),
    ("dsplit_indices", f"r = dsplit({X3}, [1, 3])"),
    ("dsplit_method", f"r = {X3}.dsplit([1, 3])"),
    ("dsplit_kw", f"r = dsplit({X3}, indices=[1, 3])"),
    ("tensor_split_grad", "x = arange(6., requires_grad=true)\nps = tensor_split(x * 1, [2, 5])\n"
                          "(ps[0].sum() * 2. + ps[2].sum()).backward()\nr = x.grad"),
    ("hsplit_grad", "x = arange(6., requires_grad=true)\nps = hsplit(x.reshape(2, 3) * 1, 3)\n"
                    "(ps[1] * tensor([[1.], [2.]])).sum().backward()\nr = x.grad"),

    # ---- rot90 ----
    ("rot90_default", f"r = rot90({X34})"),
    ("rot90_k2", f"r = rot90({X34}, 2)"),
    ("rot90_k3", f"r = rot90({X3}, 3, [1, 2])"),
    ("rot90_k0", f"r = rot90({X34}, 0)"),
    ("rot90_k4", f"r = rot90({X34}, 4)"),
    ("rot90_k_neg", f"r = rot90({X3}, -1)"),
    ("rot90_k5_dims", f"r = rot90({X3}, 5, [2, 0])"),
    ("rot90_neg_dims", f"r = rot90({X3}, 1, (-1, -2))"),
    ("rot90_kw", f"r = rot90({X3}, k=2, dims=[1, 2])"),
    ("rot90_method", f"r = {X3}.rot90(1, [1, 2])"),
    ("rot90_transposed_k0", f"r = rot90({X3}.transpose(0, 2), 0)"),
    ("rot90_transposed_k1", f"r = rot90({X3}.transpose(0, 2), 1)"),
    ("rot90_transposed_k2", f"r = rot90({X3}.transpose(0, 2), 2)"),
    ("rot90_sliced_k2", f"r = rot90({X3}[:, ::2], 2)"),
    ("rot90_int", "r = rot90(arange(4).reshape(2, 2))"),
    ("rot90_bool", "r = rot90(tensor([[true, false], [false, false]]), -1)"),
    ("rot90_f64", "r = rot90(arange(6., dtype=f64).reshape(2, 3), 3)"),
    ("rot90_empty", "r = rot90(zeros(0, 3))"),
    *grad("rot90_k1", "x = arange(24., requires_grad=true)", "rot90(x.reshape(2, 3, 4), 1, [2, 0])"),
    *grad("rot90_k2", "x = arange(12., requires_grad=true)", "rot90(x.reshape(3, 4), 2)"),
    *grad("rot90_k3", "x = arange(12., requires_grad=true)", "rot90(x.reshape(3, 4), -1)"),
    *grad("rot90_k0", "x = arange(12., requires_grad=true)", "rot90(x.reshape(3, 4), 0)"),

    # ---- inner, vdot ----
    ("inner_1d", f"r = inner({X}[:3], {X}[1:4])"),
    ("inner_0d_left", f"r = inner(tensor(2.), {X3})"),
    ("inner_0d_right_int", f"r = inner({X3}, tensor(2))"),
    ("inner_0d_int", "r = inner(tensor(2), tensor(3))"),
    ("inner_3d_1d", f"r = inner({X3}, {X}[:4])"),
    ("inner_3d_2d", f"r = inner({X3}, {X3}[0])"),
    ("inner_2d_3d", f"r = inner({X3}[0], {X3})"),
    ("inner_transposed", f"r = inner({X3}.transpose(0, 2), {X3}[:, :, 0].t())"),
    ("inner_empty_k", "r = inner(zeros(2, 0), zeros(3, 0))"),
    ("inner_empty_m", "r = inner(zeros(0, 3), zeros(3))"),
    ("inner_int", "r = inner(arange(6).reshape(2, 3), arange(3))"),
    ("inner_f64", "r = inner(tensor([[0.1, 0.2], [0.3, 0.4]], dtype=f64), tensor([[1e-3, 1e3]], dtype=f64))"),
    ("inner_method", f"r = {X3}.inner({X}[:4])"),
    *grad("inner_1d", "x = tensor([1., -2., 3.], requires_grad=true)\nw = tensor([0.5, 4., -1.], requires_grad=true)",
          "inner(x, w).reshape(1)", ("x", "w")),
    *grad("inner_3d_2d", "x = arange(24., requires_grad=true)\nw = arange(8., requires_grad=true)",
          "inner(x.reshape(2, 3, 4), w.reshape(2, 4))", ("x", "w")),
    *grad("inner_0d", "x = arange(6., requires_grad=true)\nw = tensor(2., requires_grad=true)",
          "inner(x.reshape(2, 3), w)", ("x", "w")),
    ("vdot", "r = vdot(tensor([1., 2., 3.]), tensor([4., -5., 6.]))"),
    ("vdot_f64", "r = vdot(tensor([0.1, 0.2], dtype=f64), tensor([0.3, 0.4], dtype=f64))"),
    ("vdot_int", "r = vdot(arange(3), arange(3))"),
    ("vdot_strided", f"r = vdot({X}[::2], {X}[1::2])"),
    ("vdot_empty", "r = vdot(zeros(0), zeros(0))"),
    ("vdot_method", "r = tensor([1., 2.]).vdot(tensor([3., 4.]))"),
    *grad("vdot", "x = tensor([1., -2., 3.], requires_grad=true)\nw = tensor([0.5, 4., -1.], requires_grad=true)",
          "vdot(x, w).reshape(1)", ("x", "w")),

    # ---- take_along_dim ----
    ("take_along_dim_flat", f"r = take_along_dim({X3}, tensor([0, 5, 23]))"),
    ("take_along_dim_flat_2d_idx", f"r = take_along_dim({X3}, tensor([[0, 5], [1, 23]]))"),
    ("take_along_dim_dim", f"r = take_along_dim({X3}, tensor([[[0], [2], [1]]]), dim=2)"),
    ("take_along_dim_bcast", f"r = take_along_dim({X3}, tensor([[[0, 3]]]), dim=-1)"),
    ("take_along_dim_bcast_self", f"r = take_along_dim({X3}[:, :1], tensor([[[0, 3]], [[1, 1]]]).expand(2, 3, 2), dim=2)"),
    ("take_along_dim_dim0", f"r = take_along_dim({X3}, tensor([[[1, 0, 1, 0]]]), dim=0)"),
    ("take_along_dim_transposed_dim", f"r = take_along_dim({X3}.transpose(0, 2), tensor([[[1]], [[0]], [[1]], [[1]]]), dim=2)"),
    ("take_along_dim_0d", "r = take_along_dim(tensor(5.), tensor(0))"),
    ("take_along_dim_method", f"r = {X3}.take_along_dim(tensor([[[1]]]), 1)"),
    ("take_along_dim_empty_idx", f"r = take_along_dim({X3}, zeros(2, 0, 4, dtype=i64), dim=1)"),
    ("take_along_dim_int", "r = take_along_dim(arange(6).reshape(2, 3), tensor([[2, 0]]), dim=1)"),
    *grad("take_along_dim", "x = arange(6., requires_grad=true)",
          "take_along_dim(x.reshape(2, 3), tensor([[0, 0], [2, 1]]), dim=1)"),
    *grad("take_along_dim_bcast", "x = arange(6., requires_grad=true)",
          "take_along_dim(x.reshape(2, 3), tensor([[0], [2]]).expand(2, 4), dim=1)"),
    *grad("take_along_dim_flat", "x = arange(6., requires_grad=true)",
          "take_along_dim(x.reshape(2, 3), tensor([5, 0, 0]))"),

    # ---- quantile, nanquantile ----
    ("quantile_scalar", f"r = quantile({X}, 0.3)"),
    ("quantile_int_q", f"r = quantile({X}, 1)"),
    ("quantile_vector", f"r = quantile({ROW_NONAN}, {QS})"),
    ("quantile_0d_tensor_q", f"r = quantile({X3}, tensor(0.3), dim=0)"),
    ("quantile_vec_dim1", f"r = quantile({X3}, tensor([0.25, 0.5, 1.]), dim=1)"),
    ("quantile_vec_dim1_keepdim", f"r = quantile({X3}, tensor([0.25, 0.5, 1.]), dim=1, keepdim=true)"),
    ("quantile_vec_none_keepdim", f"r = quantile({X3}, tensor([0.25, 0.5]), keepdim=true)"),
    ("quantile_scalar_dim1", f"r = quantile({X3}, 0.3, dim=1)"),
    ("quantile_scalar_dim_last_keepdim", f"r = quantile({X3}, 0.3, dim=-1, keepdim=true)"),
    ("quantile_0d_input", "r = quantile(tensor(3.), 0.5)"),
    ("quantile_0d_input_dim", "r = quantile(tensor(3.), 0.5, dim=0, keepdim=true)"),
    ("quantile_0d_input_vec_keepdim", "r = quantile(tensor(3.), tensor([0.5, 0.2]), keepdim=true)"),
    ("quantile_empty_q", f"r = quantile({X}, tensor([]))"),
    ("quantile_empty_q_dim", f"r = quantile({X3}, tensor([]), dim=1)"),
    ("quantile_nan", f"r = quantile({ROW}, {QS}, dim=1)"),
    ("quantile_nan_flat", f"r = quantile({ROW}, 0.5)"),
    ("quantile_transposed", f"r = quantile({ROW_NONAN}.t(), tensor([0.2, 0.9]), dim=0)"),
    ("quantile_f64", f"r = quantile({ROW_NONAN}.to(f64), tensor([0.1, 0.33, 0.9], dtype=f64), dim=1)"),
    ("quantile_f64_scalar", "r = quantile(tensor([0.1, 0.7, 0.2], dtype=f64), 0.3)"),
    ("quantile_method", f"r = {X3}.quantile(0.5)"),
    ("quantile_kw", f"r = quantile(input={X3}, q=0.5, dim=none, keepdim=true, interpolation=\"lower\")"),
    ("quantile_ties_inf", "r = quantile(tensor([-inf, 1., 1., 1., inf]), tensor([0., 0.1, 0.5, 0.9, 1.]))"),
    ("nanquantile", "r = nanquantile(tensor([1., nan, 3.]), 0.5)"),
    ("nanquantile_all_nan_row", "r = nanquantile(tensor([[nan, nan], [1., 2.]]), tensor([0.5, 1.0]), dim=1)"),
    ("nanquantile_f64_q0d", "r = nanquantile(tensor([[nan, 5.], [1., 2.]], dtype=f64), tensor(0.7, dtype=f64), dim=0)"),
    ("nanquantile_method", f"r = {X3}.nanquantile(0.5, dim=2, interpolation=\"nearest\")"),
    ("nanquantile_rows", f"r = nanquantile({ROW}, {QS}, dim=-1, keepdim=true)"),
    *[(f"quantile_{m}", f"r = quantile({ROW_NONAN}, {QS}, dim=1, interpolation=\"{m}\")")
      for m in ("linear", "lower", "higher", "midpoint", "nearest")],
    *[(f"nanquantile_{m}", f"r = nanquantile({ROW}, tensor([0.1, 0.375, 0.5, 0.625, 0.9]), dim=1, interpolation=\"{m}\")")
      for m in ("linear", "lower", "higher", "midpoint", "nearest")],
    *[(f"quantile_{m}_scalar", f"r = quantile(tensor([3., 1., 2., 5.]), 0.5, interpolation=\"{m}\")")
      for m in ("lower", "higher", "midpoint", "nearest")],
    ("quantile_nearest_half_even", "r = quantile(arange(5.), tensor([0.125, 0.375, 0.625, 0.875]), interpolation=\"nearest\")"),
    *grad("quantile", "x = tensor([3., 1., 2., 5., 2.], requires_grad=true)\nq = tensor([0.3, 0.9, 0.5], requires_grad=true)",
          "quantile(x, q)", ("x", "q")),
    *grad("quantile_dim", "x = tensor([[3., 1., 2.], [5., 2., 0.]], requires_grad=true)",
          "quantile(x, tensor([0.2, 0.75]), dim=1, keepdim=true)"),
    *grad("quantile_lower", "x = tensor([3., 1., 2., 5.], requires_grad=true)\nq = tensor([0.3, 0.9], requires_grad=true)",
          "quantile(x, q, interpolation=\"lower\")"),
    *grad("quantile_midpoint", "x = tensor([3., 1., 2., 5.], requires_grad=true)\nq = tensor([0.3, 0.9], requires_grad=true)",
          "quantile(x, q, interpolation=\"midpoint\")"),
    *grad("nanquantile", "x = tensor([3., nan, 2., 5.], requires_grad=true)\nq = tensor([0.3, 0.9], requires_grad=true)",
          "nanquantile(x, q)", ("x", "q")),

    # ---- histc ----
    ("histc_range", "r = histc(tensor([0., 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0, 1.1, -0.1]), 5, min=0, max=1)"),
    ("histc_default_bins", "r = histc(tensor([1., 2., 1., 4.]))"),
    ("histc_auto_range", "r = histc(tensor([3., -1., 2., 2., 7.]), 4)"),
    ("histc_const", "r = histc(tensor([2., 2.]), 4)"),
    ("histc_empty", "r = histc(zeros(0), 4)"),
    ("histc_0d", "r = histc(tensor(3.), 3)"),
    ("histc_f64", "r = histc(tensor([0., 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0], dtype=f64), 3, 0, 1)"),
    ("histc_bf16", "r = histc(tensor([0., 0.1, 0.5, 0.99, 1.], dtype=bf16), 3, 0, 1)"),
    ("histc_edges_f32", "r = histc(arange(0., 1., 0.1), 10, 0, 1)"),
    ("histc_edges_f64", "r = histc(arange(0., 1., 0.1, dtype=f64), 10, 0, 1)"),
    ("histc_odd_range", "r = histc(arange(-3., 3., 0.3), 7, min=-2.2, max=1.3)"),
    ("histc_transposed", f"r = histc({X3}.transpose(0, 2), 4)"),
    ("histc_nan_inf", "r = histc(tensor([nan, inf, -inf, 0.5]), 2, 0, 1)"),
    ("histc_nan_bin0", "r = histc(tensor([0.7, nan, 0.9, nan, 0.2], dtype=f64), 3, 0, 1)"),
    ("histc_nan_bin0_bf16", "r = histc(tensor([nan, 0.9], dtype=bf16), 2, 0, 1)"),
    ("histc_method", f"r = {X}.histc(bins=3, min=1, max=4)"),
    ("histc_kw", f"r = histc(input={X}, bins=3, min=1, max=4)"),
    ("histc_grad_input", "r = histc(arange(4., requires_grad=true), 4)"),

    # ---- cartesian_prod ----
    ("cartesian_prod_one", "r = cartesian_prod(tensor([1, 2]))"),
    ("cartesian_prod_one_same", "a = tensor([1, 2])\nr = cartesian_prod(a)\nr[0] = 5\nr = a"),
    ("cartesian_prod_two", "r = cartesian_prod(tensor([1., 2.]), tensor([3., 4., 5.]))"),
    ("cartesian_prod_three", "r = cartesian_prod(tensor([1, 2]), tensor([3]), tensor([5, 6]))"),
    ("cartesian_prod_empty", "r = cartesian_prod(tensor([1, 2]), tensor([], dtype=i64))"),
    ("cartesian_prod_strided", f"r = cartesian_prod({X}[::3], {X}[1:3])"),
    ("cartesian_prod_bool", "r = cartesian_prod(tensor([true, false]), tensor([false]))"),
    *grad("cartesian_prod", "x = tensor([1., 2.], requires_grad=true)\nw = tensor([3., 4., 5.], requires_grad=true)",
          "cartesian_prod(x, w)", ("x", "w")),

    # ---- unique_consecutive ----
    ("unique_consecutive", "r = unique_consecutive(tensor([1, 1, 2, 2, 3, 1, 1, 2]))"),
    ("unique_consecutive_all", "r = unique_consecutive(tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_inverse=true, return_counts=true)"),
    ("unique_consecutive_inverse", "r = unique_consecutive(tensor([1, 1, 2]), return_inverse=true)"),
    ("unique_consecutive_counts", "r = unique_consecutive(tensor([1, 1, 2]), return_counts=true)"),
    ("unique_consecutive_2d_flat", "r = unique_consecutive(tensor([[1, 1], [2, 2]]), return_inverse=true)"),
    ("unique_consecutive_transposed", "r = unique_consecutive(tensor([[1, 2], [1, 3]]).t(), return_inverse=true)"),
    ("unique_consecutive_nan", "r = unique_consecutive(tensor([nan, nan, 1., 1., -0.0, 0.]), return_counts=true)"),
    ("unique_consecutive_empty", "r = unique_consecutive(zeros(0), return_inverse=true, return_counts=true)"),
    ("unique_consecutive_0d", "r = unique_consecutive(tensor(3.), return_inverse=true, return_counts=true)"),
    ("unique_consecutive_bool", "r = unique_consecutive(tensor([true, true, false]), return_counts=true)"),
    ("unique_consecutive_bf16", "r = unique_consecutive(tensor([1., 1., 2.5], dtype=bf16))"),
    ("unique_consecutive_dim0", "r = unique_consecutive(tensor([[1, 2], [1, 2], [3, 4], [1, 2]]), return_inverse=true, "
                                "return_counts=true, dim=0)"),
    ("unique_consecutive_dim1", "r = unique_consecutive(tensor([[1, 1, 2], [1, 1, 3]]), return_inverse=true, "
                                "return_counts=true, dim=1)"),
    ("unique_consecutive_dim_neg", "r = unique_consecutive(tensor([[1, 1, 2], [1, 1, 3]]), dim=-1)"),
    ("unique_consecutive_dim_3d", f"r = unique_consecutive({X3} // 13, dim=1, return_counts=true)"),
    ("unique_consecutive_dim_nan", "r = unique_consecutive(tensor([[nan, 1.], [nan, 1.]]), dim=0, return_counts=true)"),
    ("unique_consecutive_dim_zero_size", "r = unique_consecutive(zeros(0, 2), dim=0, return_inverse=true, return_counts=true)"),
    ("unique_consecutive_1d_dim0", "r = unique_consecutive(tensor([1., 1., 2.]), dim=0, return_inverse=true)"),
    ("unique_consecutive_method", "r = tensor([1, 1, 2]).unique_consecutive(return_counts=true)"),

    # ---- copy_ and index assignment through overlapping memory: allowed ----
    ("overlap_same_slice", "z = arange(5.)\nz[0:2] = z[0:2]\nr = z"),
    ("overlap_same_slice_version", "z = arange(5.)\nz[0:2] = z[0:2]\nr = tensor(z._version)"),
    ("overlap_copy_self", "z = arange(6.).reshape(2, 3)\nz.copy_(z)\nr = z"),
    ("overlap_same_copy_", "z = arange(6.)\nz[1:3].copy_(z[1:3])\nr = z"),
    ("overlap_same_via_view", "z = arange(6.)\nz[0:3] = z.view(2, 3)[0]\nr = z"),
    ("overlap_ellipsis_self", "z = arange(6.)\nz[...] = z\nr = z"),
    ("overlap_strided_disjoint", "z = arange(6.)\nz[::2] = z[1::2]\nr = z"),
    ("overlap_strided_src", "z = arange(6.)\nz[0:3] = z[::2]\nr = z"),
    ("overlap_nondense_2d_shift", "z = arange(6.).reshape(2, 3)\nz[:, 0:2] = z[:, 1:3]\nr = z"),
    ("overlap_flip_copy", "z = arange(6.)\nz[2:] = z[:4].flip(0)\nr = z"),
    ("overlap_fill_0d", "z = arange(6.)\nz[0:3] = z[1]\nr = z"),
    ("overlap_bcast_1elem", "z = arange(6.)\nz[1:4] = z[0:1]\nr = z"),
    ("overlap_bcast_rows", "z = arange(6.)\nw = z.view(2, 3)\nw[:] = z[0:3]\nr = z"),
    ("overlap_adjacent", "z = arange(6.)\nz[0:2].copy_(z[2:4])\nr = z"),
    ("overlap_rows", "z = arange(6.).reshape(2, 3)\nz[0] = z[1]\nr = z"),
    ("overlap_leading_ones_full", "z = arange(4.)\nz[0:2] = z.view(2, 2)[0:1]\nr = z"),
    ("overlap_mask_fill_view", "z = arange(6.)\nz[z > 2] = z[0:1]\nr = z"),
    ("overlap_mask_fill_0d", "z = arange(6.)\nz[z > 2] = z[0]\nr = z"),
    ("overlap_mask_slice", "z = arange(4.).view(2, 2)\nz[0:1, tensor([true, false])] = z[1, 1:2]\nr = z"),
    ("overlap_adv_nondense_view", "z = arange(8.).view(2, 4)\nz[:, 0:2][tensor([0])] = z[1, 0:2]\nr = z"),
    ("overlap_adv_other", "z = arange(8.)\nw = arange(2.)\nz[tensor([0, 1])] = w\nr = z"),
    ("overlap_empty", "z = arange(6.)\nz[0:0] = z[1:1]\nr = z"),
]

GRADFN = [
    ("signbit", "r = signbit(tensor([-1., 2.], requires_grad=true))"),
    ("greater", "r = greater(tensor([-1., 2.], requires_grad=true), 0)"),
    ("gt_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.gt_(1)"),
    ("gt_tensor", "r = tensor([1., 2.], requires_grad=true) * 1\nr.gt_(tensor([0., 3.]))"),
    ("greater_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.greater_(1)"),
    ("greater__tensor", "r = tensor([1., 2.], requires_grad=true) * 1\nr.greater_(tensor([0., 3.]))"),
    ("greater_equal_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.greater_equal_(1)"),
    ("less_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.less_(tensor(1.))"),
    ("less_equal_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.less_equal_(1)"),
    ("not_equal_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.not_equal_(1)"),
    ("eq_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.eq_(tensor([1., 1.]))"),
    ("ne_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.ne_(2.)"),
    ("lt_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.lt_(2.)"),
    ("le_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.le_(tensor([2., 2.]))"),
    ("ge_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.ge_(2.)"),
    ("tensor_split", "r = tensor_split(arange(4., requires_grad=true) * 1, 2)"),
    ("tensor_split_indices", "r = tensor_split(arange(4., requires_grad=true) * 1, [1, 9])"),
    ("hsplit", "r = hsplit(arange(4., requires_grad=true) * 1, 2)"),
    ("vsplit", "r = vsplit(arange(4., requires_grad=true).reshape(2, 2), [1])"),
    ("dsplit", "r = dsplit(arange(4., requires_grad=true).reshape(1, 1, 4), 2)"),
    ("rot90", "r = rot90(arange(4., requires_grad=true).reshape(2, 2))"),
    ("rot90_k0", "r = rot90(arange(4., requires_grad=true).reshape(2, 2), 0)"),
    ("rot90_k2", "r = rot90(arange(4., requires_grad=true).reshape(2, 2), 2)"),
    ("inner_1d", "r = inner(arange(3., requires_grad=true), arange(3.))"),
    ("inner_2d", "r = inner(arange(6., requires_grad=true).reshape(2, 3), arange(6.).reshape(2, 3))"),
    ("inner_0d", "r = inner(arange(6., requires_grad=true).reshape(2, 3), tensor(2.))"),
    ("vdot", "r = vdot(arange(3., requires_grad=true), arange(3.))"),
    ("take_along_dim", "r = take_along_dim(arange(6., requires_grad=true).reshape(2, 3), tensor([[0], [2]]), dim=1)"),
    ("take_along_dim_flat", "r = take_along_dim(arange(6., requires_grad=true).reshape(2, 3), tensor([0, 0]))"),
    ("quantile", "r = quantile(tensor([3., 1., 2.], requires_grad=true), 0.5)"),
    ("quantile_vector", "r = quantile(tensor([3., 1., 2.], requires_grad=true), tensor([0.5, 0.1]))"),
    ("quantile_q_grad", "r = quantile(tensor([3., 1., 2.]), tensor([0.5, 0.1], requires_grad=true))"),
    ("quantile_lower", "r = quantile(tensor([3., 1., 2.], requires_grad=true), 0.5, interpolation=\"lower\")"),
    ("nanquantile", "r = nanquantile(tensor([[3., 1., 2.]], requires_grad=true), tensor([0.5, 0.1]), dim=1)"),
    ("histc", "r = histc(tensor([3., 1., 2.], requires_grad=true), 4)"),
    ("cartesian_prod", "r = cartesian_prod(tensor([3., 1.], requires_grad=true), tensor([2.]))"),
    ("unique_consecutive", "r = unique_consecutive(tensor([1., 1., 2.], requires_grad=true))"),
    ("unique_consecutive_tuple", "r = unique_consecutive(tensor([1., 1., 2.], requires_grad=true), return_counts=true)"),
    ("unique_consecutive_dim", "r = unique_consecutive(tensor([[1., 1., 2.]], requires_grad=true), dim=1)"),
]

OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
           "memory location. Please clone() the tensor before performing the operation.")

ERRORS = [
    ("gt__bcast", "tensor([1., 2., 3.]).ge_(tensor([[1.], [2.]]))", True),
    ("gt__leaf", "tensor([1.], requires_grad=true).gt_(0)", True),
    ("greater__leaf", "tensor([1.], requires_grad=true).greater_(0)", True),
    ("tensor_split_neg_sections", f"tensor_split({X}, -1)", True),
    ("tensor_split_zero_sections", f"tensor_split({X}, 0)", True),
    ("tensor_split_0d", "tensor_split(tensor(1.), 1)", True),
    ("tensor_split_float_tensor", f"tensor_split({X}, tensor([1.]))", True),
    ("tensor_split_i32_tensor", f"tensor_split({X}, tensor([1], dtype=i32))", True),
    ("tensor_split_2d_tensor", f"tensor_split({X}, tensor([[1]]))", True),
    ("tensor_split_dim_oob", f"tensor_split({X3}, 3, dim=3)", True),
    ("tensor_split_float_list", f"tensor_split({X}, [1.5])", False),
    ("tensor_split_bool", f"tensor_split({X}, true)", False),
    ("hsplit_nondiv", f"hsplit({X3}, 2)", True),
    ("hsplit_zero", f"hsplit({X3}, 0)", True),
    ("hsplit_neg", f"hsplit({X3}, -1)", True),
    ("hsplit_0d", "hsplit(tensor(1.), 1)", True),
    ("vsplit_1d", f"vsplit({X}, 2)", True),
    ("vsplit_nondiv", f"vsplit({X3}, 3)", True),
    ("dsplit_2d", f"dsplit({X3}[0], 2)", True),
    ("dsplit_nondiv", f"dsplit({X3}, 3)", True),
    ("rot90_same_dims", f"rot90({X3}, 1, [1, 1])", True),
    ("rot90_dims_differ_by_ndim", f"rot90({X3}, 1, [0, -3])", True),
    ("rot90_1d", f"rot90({X})", True),
    ("rot90_3_dims", f"rot90({X3}, 1, [0, 1, 2])", True),
    ("rot90_dim1_oob_ndim", f"rot90({X3}, 1, [0, 3])", True),
    ("rot90_dim0_oob", f"rot90({X3}, 1, [-4, 1])", True),
    ("rot90_dim1_oob", f"rot90({X3}, 1, [1, 5])", True),
    ("inner_mismatch", f"inner({X3}, {X}[:3])", True),
    ("inner_dtype", f"inner({X3}, {X3}.to(f64))", True),
    ("inner_int_float", "inner(arange(6).reshape(2, 3), arange(3.))", True),
    ("vdot_2d", f"vdot({X3}[0], {X}[:4])", True),
    ("vdot_dtype", f"vdot({X}[:4], {X}[:4].to(f64))", True),
    ("vdot_size", f"vdot({X}[:3], {X}[:4])", True),
    ("vdot_0d", "vdot(tensor(1.), tensor(2.))", True),
    ("vdot_bool", "vdot(tensor([true]), tensor([false]))", True),
    ("dot_bool", "tensor([true]).dot(tensor([false]))", True),
    ("take_along_dim_flat_view", f"take_along_dim({X3}.transpose(0, 2), tensor([0, 5]))", True),
    ("take_along_dim_flat_idx_view", f"take_along_dim({X3}, tensor([[0, 5], [1, 23]]).t())", True),
    ("take_along_dim_oob", f"take_along_dim({X3}, tensor([24]))", True),
    ("take_along_dim_neg", f"take_along_dim({X3}, tensor([-1]))", True),
    ("take_along_dim_ndim", f"take_along_dim({X3}, tensor([0]), dim=0)", True),
    ("take_along_dim_dtype", f"take_along_dim({X3}, tensor([[[0]]], dtype=i32), dim=0)", True),
    ("take_along_dim_dtype_flat", f"take_along_dim({X3}, tensor([0], dtype=i32))", True),
    ("take_along_dim_incompatible", f"take_along_dim({X3}, zeros(3, 3, 1, dtype=i64), dim=2)", True),
    ("take_along_dim_dim_oob", f"take_along_dim({X3}, zeros(1, 1, 1, dtype=i64), dim=3)", True),
    ("take_along_dim_idx_oob", f"take_along_dim({X3}, full([1, 1, 1], 4), dim=2)", True),
    ("take_along_dim_0d_dim", "take_along_dim(tensor(5.), tensor(0), dim=0)", True),
    ("quantile_q_big", f"quantile({X}, 1.5)", True),
    ("quantile_q_neg", f"quantile({X}, -0.1)", True),
    ("quantile_q_nan", f"quantile({X}, nan)", True),
    ("quantile_q_tensor_range", f"quantile({X}, tensor([0.5, 1.5]))", True),
    ("quantile_q_tensor_nan", f"quantile({X}, tensor([nan]))", True),
    ("quantile_q_2d", f"quantile({X}, tensor([[0.5]]))", True),
    ("quantile_q_dtype", f"quantile({X}, tensor([0.5], dtype=f64))", True),
    ("quantile_int_input", "quantile(arange(5), 0.5)", True),
    ("quantile_int_input_tensor_q", "quantile(arange(5), tensor(0.5))", True),
    ("quantile_f16_input", f"quantile({X}.to(f16), 0.5)", True),
    ("quantile_empty", "quantile(zeros(0), 0.5)", True),
    ("quantile_empty_dim", "quantile(zeros(0, 3), 0.5, dim=1)", True),
    ("quantile_interpolation", f"quantile({X}, 0.5, interpolation=\"foo\")", True),
    ("quantile_interpolation_int", "quantile(arange(5), 0.5, interpolation=\"foo\")", True),
    ("quantile_interpolation_q_first", f"quantile({X}, 1.5, interpolation=\"foo\")", True),
    ("quantile_interpolation_dim_oob", f"quantile({X}, 0.5, dim=3, interpolation=\"x\")", True),
    ("quantile_dim_oob", f"quantile({X3}, 0.5, dim=3)", True),
    ("quantile_int_dim_oob", "quantile(arange(5), 0.5, dim=3)", True),
    ("quantile_q_range_dim_oob", f"quantile({X}, tensor([1.5]), dim=3)", True),
    ("quantile_q_list", f"quantile({X}, [0.3])", False),
    ("nanquantile_q_big", f"nanquantile({X}, 2.)", True),
    ("nanquantile_int_input", "nanquantile(arange(5), 0.5)", True),
    ("histc_bins_zero", f"histc({X}, 0)", True),
    ("histc_bins_neg", f"histc({X}, -1)", True),
    ("histc_bins_before_range", f"histc({X}, 0, min=5, max=1)", True),
    ("histc_min_gt_max", f"histc({X}, 3, min=5, max=1)", True),
    ("histc_min_gt_max_fmt", f"histc({X}, 3, min=0.1, max=1e-7)", True),
    ("histc_inf", f"histc({X}, 3, min=0, max=inf)", True),
    ("histc_inf_fmt", f"histc({X}, 3, min=-1e300, max=-inf)", True),
    ("histc_nan_min", f"histc({X}, 3, min=nan, max=1)", True),
    ("histc_inf_data", "histc(tensor([1., inf, 2.]), 3)", True),
    ("histc_nan_data", "histc(tensor([1., nan, 2.]), 3)", False),
    ("histc_int", "histc(arange(5), 3)", True),
    ("histc_int_range_first", "histc(arange(3), 3, min=5, max=1)", True),
    ("histc_f16", f"histc({X}.to(f16), 3, 0, 1)", True),
    ("cartesian_prod_2d", "cartesian_prod(tensor([[1, 2]]), tensor([3]))", True),
    ("cartesian_prod_one_2d", "cartesian_prod(tensor([[1, 2]]))", True),
    ("cartesian_prod_0d", "cartesian_prod(tensor(1), tensor([3]))", True),
    ("cartesian_prod_dtype", "cartesian_prod(tensor([1, 2]), tensor([3.]))", True),
    ("cartesian_prod_none", "cartesian_prod()", True),
    ("unique_consecutive_dim_oob", "unique_consecutive(tensor([[1, 1, 2], [1, 1, 3]]), dim=2)", True),
    ("unique_consecutive_dim_0d", "unique_consecutive(tensor(3), dim=0)", True),
    ("unique_consecutive_f16", "unique_consecutive(tensor([1., 1.], dtype=f16))", True),
    ("unique_consecutive_f16_dim", "unique_consecutive(tensor([[1., 1.]], dtype=f16), dim=1)", True),
    ("unique_consecutive_f16_1d_dim0", "unique_consecutive(tensor([1., 1.], dtype=f16), dim=0)", True),
    ("unique_consecutive_zero_other_dim", "unique_consecutive(zeros(2, 0), dim=0)", True),
    ("unique_consecutive_backward", "x = tensor([1., 1., 2.], requires_grad=true)\n"
                                    "unique_consecutive(x).sum().backward()", True),
    # copy_ and index assignment through overlapping memory
    ("overlap_slice_partial", "z = arange(5.)\nz[1:3] = z[0:2]", True),
    ("overlap_copy_transposed", "z = arange(4.).reshape(2, 2)\nz.copy_(z.t())", True),
    ("overlap_setitem_transposed", "z = arange(4.).reshape(2, 2)\nz[:] = z.t()", True),
    ("overlap_setitem_transposed_view", "z = arange(4.).reshape(2, 2)\nz.t()[:] = z", True),
    ("overlap_copy_prefix", "z = arange(6.)\nz[0:3].copy_(z[0:1])", True),
    ("overlap_copy_0d_inside", "z = arange(6.)\nz[0:3].copy_(z[1])", True),
    ("overlap_copy_1_vs_0d", "z = arange(4.)\nz[0:1].copy_(z[0])", True),
    ("overlap_copy_unbroadcast_src", "z = arange(6.)\nz.view(2, 3).copy_(z[0:3])", True),
    ("overlap_leading_ones", "z = arange(6.)\nz[1:4] = z[0:3].unsqueeze(0)", True),
    ("overlap_leading_ones_shift", "z = arange(4.)\nz[1:3] = z.view(2, 2)[0:1]", True),
    ("overlap_unsqueezed_dst", "z = arange(4.)\nz.unsqueeze(0)[0, 1:3] = z[0:2]", True),
    ("overlap_rows_dense", "z = arange(6.).reshape(3, 2)\nz[0:2] = z[1:3]", True),
    ("overlap_through_view", "z = arange(6.)\nw = z.view(2, 3)\nw[0, 0:2] = z[1:3]", True),
    ("overlap_int", "z = arange(6)\nz[1:3] = z[0:2]", True),
    ("overlap_u8", "z = arange(8, dtype=u8)\nz[0:4] = z[1:5]", True),
    ("overlap_shape_and_overlap", "z = arange(6.)\nz[0:2].copy_(z[1:4])", True),
    ("overlap_grad", "z = arange(6., requires_grad=true) * 1\nz[1:3] = z[0:2]", True),
    ("overlap_copy_view_of_leaf", "z = arange(4., requires_grad=true)\nz[0:2].copy_(z[1:3])", True),
    ("overlap_copy_nonblocking", "z = arange(5.)\nz[1:3].copy_(z[0:2], non_blocking=true)", True),
    ("overlap_adv_partial", "z = arange(6.)\nz[[0, 1]] = z[1:3]", True),
    ("overlap_adv_same", "z = arange(6.)\nz[tensor([0, 1])] = z[0:2]", True),
    ("overlap_adv_disjoint", "z = arange(6.)\ni = tensor([0, 1])\nz[i] = z[4:6]", True),
    ("overlap_adv_0d", "z = arange(6.)\nz[[0, 1]] = z[0]", True),
    ("overlap_adv_1elem", "z = arange(4.)\nz[tensor([0])] = z[3:4]", True),
    ("overlap_mask_partial", "z = arange(6.)\nz[z > 2] = z[0:3]", True),
    ("overlap_mask_two_indices", "z = arange(4.).view(2, 2)\nz[tensor([true, false]), tensor([0])] = z[1, 1]", True),
    ("overlap_index_tensor", "z = arange(6)\nz[z[0:2]] = 7", True),
]


def record(t):
    t = t.detach()
    flat = t.reshape(-1)
    if t.dtype.is_floating_point:
        values = [repr(float(v)) for v in flat.double().tolist()]
    else:
        values = [str(v) for v in flat.tolist()]
    return {"dtype": DTYPE_NAMES[t.dtype], "shape": list(t.shape), "strides": list(t.stride()),
            "offset": t.storage_offset(), "values": values}


def main():
    cases = []
    for name, tsr in CASES:
        src = to_torch(tsr)
        try:
            r = run(tsr, src)["r"]
        except Exception as e:
            raise SystemExit(f"{name}: {e}")
        tup = isinstance(r, (tuple, list))
        outs = list(r) if tup else [r]
        if any(t is None for t in outs):
            raise SystemExit(f"{name}: r is None")
        cases.append({"name": name, "tsr": tsr, "torch": src, "tuple": tup, "outputs": [record(t) for t in outs]})
    gradfns = []
    for name, tsr in GRADFN:
        src = to_torch(tsr)
        r = run(tsr, src)["r"]
        outs = list(r) if isinstance(r, (tuple, list)) else [r]
        gradfns.append({"name": name, "tsr": tsr, "torch": src, "grad_fns": [type(t.grad_fn).__name__ for t in outs]})
    errors = []
    for name, tsr, exact in ERRORS:
        src = to_torch(tsr)
        try:
            run(tsr, src)
        except Exception as e:  # noqa: BLE001 - recording the kind is the point
            errors.append({"name": name, "tsr": tsr, "torch": src, "kind": type(e).__name__,
                           "msg": str(e).split("\n")[0], "exact": exact})
            continue
        raise SystemExit(f"{name}: torch did not raise")
    for e in errors:
        if e["name"].startswith("overlap_") and e["msg"] != OVERLAP and "leaf" not in e["msg"]:
            raise SystemExit(f"{e['name']}: unexpected message {e['msg']}")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_aliases.json")
    with open(path, "w") as f:
        json.dump({"generator": "gen_torch_aliases.py", "torch": torch.__version__,
                   "cases": cases, "grad_fns": gradfns, "errors": errors}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases, {len(gradfns)} grad_fn cases, {len(errors)} errors to {path}")


if __name__ == "__main__":
    main()
