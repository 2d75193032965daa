#!/usr/bin/env python3
"""Generate stdlib/testdata/conv.json for stdlib/nn_conv_test.go.

Golden values from PyTorch 1.13 for torch.nn.functional's conv1d, conv2d,
conv_transpose1d, conv_transpose2d, unfold, fold, max_pool1d/2d,
avg_pool1d/2d, adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d,
batch_norm (with the running-statistics update), group_norm and
instance_norm: values, dtypes, shapes, strides, gradients, grad_fn names
and errors. Each case is written once in tsr; to_torch() (from
gen_ops_more_torch.py) spells it for PyTorch.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_conv.py
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

warnings.filterwarnings("ignore")


def to_torch(src):
    return base_to_torch(src).replace("none", "None")


def data(shape, k=0.37, dt=""):
    n = 1
    for s in shape:
        n *= s
    d = f", dtype={dt}" if dt else ""
    return f"(arange({n}.{d}) * {k}).sin().reshape({', '.join(map(str, shape))})"


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape).to(y.dtype)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


X = "x = " + data([2, 4, 5, 6]) + ".requires_grad_()"
W = "w = " + data([6, 2, 3, 3], 0.53) + ".requires_grad_()"
B = "b = " + data([6], 1.1) + ".requires_grad_()"
X1 = "x = " + data([2, 4, 7]) + ".requires_grad_()"
W1 = "w = " + data([6, 2, 3], 0.53) + ".requires_grad_()"
WT = "w = " + data([4, 3, 3, 2], 0.53) + ".requires_grad_()"
WT1 = "w = " + data([4, 3, 3], 0.53) + ".requires_grad_()"
B3 = "b = " + data([3], 1.1) + ".requires_grad_()"
X64 = "x = " + data([2, 4, 5, 6], dt="f64") + ".requires_grad_()"
W64 = "w = " + data([6, 2, 3, 3], 0.53, "f64") + ".requires_grad_()"
PX = "x = " + data([2, 3, 7, 8], 0.71) + ".requires_grad_()"
PX1 = "x = " + data([2, 3, 9], 0.71) + ".requires_grad_()"
NX = "x = " + data([3, 4, 5, 2], 0.71) + ".requires_grad_()"
NX64 = "x = " + data([3, 4, 5, 2], 0.71, "f64") + ".requires_grad_()"
NW64 = "g = " + data([4], 0.9, "f64") + ".add(1.).requires_grad_()"
NB64 = "h = " + data([4], 1.3, "f64") + ".requires_grad_()"
NW = "g = " + data([4], 0.9) + ".add(1.).requires_grad_()"
NB = "h = " + data([4], 1.3) + ".requires_grad_()"

CASES = [
    # ---- conv2d ----
    ("conv2d_groups", f"{X}\n{W}\nr = nn.conv2d(x, w, groups=2)"),
    ("conv2d_bias_pad", f"{X}\n{W}\n{B}\nr = nn.conv2d(x, w, b, padding=1, groups=2)"),
    ("conv2d_stride_dil", f"{X}\n{W}\nr = nn.conv2d(x, w, stride=(2, 1), padding=(2, 1), dilation=(2, 1), groups=2)"),
    ("conv2d_same", f"{X}\n{W}\nr = nn.conv2d(x, w, padding=\"same\", groups=2)"),
    ("conv2d_same_even", f"{X}\nw = {data([3, 4, 2, 4], 0.53)}\nr = nn.conv2d(x, w, padding=\"same\", dilation=(1, 1))"),
    ("conv2d_valid", f"{X}\nw = {data([3, 4, 2, 2], 0.53)}\nr = nn.conv2d(x, w, padding=\"valid\", stride=2)"),
    ("conv2d_1x1", f"{X}\nw = {data([5, 4, 1, 1], 0.53)}\nr = nn.conv2d(x, w)"),
    ("conv2d_1x1_groups", f"{X}\nw = {data([4, 1, 1, 1], 0.53)}\nr = nn.conv2d(x, w, groups=4)"),
    ("conv2d_unbatched", f"{X}\n{W}\nr = nn.conv2d(x[1], w, groups=2, stride=2)"),
    ("conv2d_f64", f"{X64}\n{W64}\nr = nn.conv2d(x, w, groups=2, padding=(1, 2))"),
    ("conv2d_bf16", f"{X}\n{W}\nr = nn.conv2d(x.to(bf16), w.to(bf16), groups=2)"),
    ("conv2d_int", f"r = nn.conv2d(arange(40).reshape(1, 2, 4, 5), arange(8).reshape(2, 1, 2, 2) - 3, groups=2)"),
    ("conv2d_noncontig", f"{X}\n{W}\nr = nn.conv2d(x.transpose(2, 3), w, groups=2)"),
    *grad("conv2d", f"{X}\n{W}\n{B}", "nn.conv2d(x, w, b, stride=2, padding=(1, 2), dilation=(1, 2), groups=2)", "xwb"),
    *grad("conv2d_1x1", f"{X}\nw = {data([5, 4, 1, 1], 0.53)}.requires_grad_()", "nn.conv2d(x, w)", "xw"),
    *grad("conv2d_same", f"{X}\nw = {data([3, 4, 2, 4], 0.53)}.requires_grad_()", "nn.conv2d(x, w, padding=\"same\")", "xw"),
    *grad("conv2d_unbatched", f"{X}\n{W}", "nn.conv2d(x[0], w, groups=2)", "xw"),
    # ---- conv1d ----
    ("conv1d", f"{X1}\n{W1}\nr = nn.conv1d(x, w, groups=2)"),
    ("conv1d_pad_stride", f"{X1}\n{W1}\nr = nn.conv1d(x, w, stride=2, padding=2, dilation=2, groups=2)"),
    ("conv1d_same", f"{X1}\nw = {data([3, 4, 4], 0.53)}\nr = nn.conv1d(x, w, padding=\"same\", dilation=1)"),
    ("conv1d_unbatched", f"{X1}\n{W1}\nr = nn.conv1d(x[0], w, groups=2)"),
    *grad("conv1d", f"{X1}\n{W1}\nb = {data([6], 1.1)}.requires_grad_()", "nn.conv1d(x, w, b, stride=2, padding=1, groups=2)", "xwb"),
    # ---- conv_transpose ----
    ("conv_t2d", f"{X}\n{WT}\nr = nn.conv_transpose2d(x, w)"),
    ("conv_t2d_stride", f"{X}\n{WT}\n{B3}\nr = nn.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)"),
    ("conv_t2d_groups_dil", f"{X}\nw = {data([4, 2, 2, 3], 0.53)}\nr = nn.conv_transpose2d(x, w, stride=(1, 2), groups=2, dilation=(2, 1))"),
    ("conv_t1d", f"{X1}\n{WT1}\n{B3}\nr = nn.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2)"),
    *grad("conv_t2d", f"{X}\n{WT}\n{B3}", "nn.conv_transpose2d(x, w, b, stride=2, padding=(0, 1), output_padding=(1, 0))", "xwb"),
    *grad("conv_t1d", f"{X1}\nw = {data([4, 1, 3], 0.53)}.requires_grad_()", "nn.conv_transpose1d(x, w, groups=2, dilation=2)", "xw"),
    # ---- unfold / fold ----
    ("unfold", f"{X}\nr = nn.unfold(x, 2)"),
    ("unfold_args", f"{X}\nr = nn.unfold(x, (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))"),
    ("unfold_unbatched", f"{X}\nr = nn.unfold(x[0], 3, padding=1)"),
    ("fold", f"r = nn.fold({data([2, 12, 9])}, (4, 5), (2, 3))"),
    ("fold_args", f"r = nn.fold({data([2, 8, 18])}, (5, 6), 2, dilation=2, padding=1, stride=(2, 1))"),
    *grad("unfold", X, "nn.unfold(x, (2, 3), padding=1, stride=2)", "x"),
    *grad("fold", "x = " + data([2, 12, 9]) + ".requires_grad_()", "nn.fold(x, (4, 5), (2, 3))", "x"),
    # ---- max pool ----
    ("max_pool2d", f"{PX}\nr = nn.max_pool2d(x, 2)"),
    ("max_pool2d_args", f"{PX}\nr = nn.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2))"),
    ("max_pool2d_ceil", f"{PX}\nr = nn.max_pool2d(x, 3, 2, ceil_mode=true)"),
    ("max_pool2d_idx", f"{PX}\nr = nn.max_pool2d(x, 3, 2, 1, return_indices=true)[1]"),
    ("max_pool2d_3d", f"{PX}\nr = nn.max_pool2d(x[0], 2, 1)"),
    ("max_pool2d_nan", "r = nn.max_pool2d(tensor([[[1., nan, 3.], [nan, 2., -inf], [-inf, -inf, 0.]]]), 2, 1)"),
    ("max_pool2d_nan_idx", "r = nn.max_pool2d(tensor([[[1., nan, 3.], [nan, 2., -inf], [-inf, -inf, 0.]]]), 2, 1, return_indices=true)[1]"),
    ("max_pool2d_f64", f"x = {data([1, 2, 5, 5], 0.3, 'f64')}\nr = nn.max_pool2d(x, 2, ceil_mode=true)"),
    ("max_pool2d_bf16", f"{PX}\nr = nn.max_pool2d(x.to(bf16), 2)"),
    ("max_pool1d", f"{PX1}\nr = nn.max_pool1d(x, 3, 2, 1)"),
    ("max_pool1d_idx", f"{PX1}\nr = nn.max_pool1d(x, 2, ceil_mode=true, return_indices=true)[1]"),
    ("max_pool1d_2d", f"{PX1}\nr = nn.max_pool1d(x[0], 2, dilation=2)"),
    *grad("max_pool2d", PX, "nn.max_pool2d(x, 3, 1, 1)", "x"),
    *grad("max_pool1d", PX1, "nn.max_pool1d(x, 3, 2, ceil_mode=true)", "x"),
    # ---- avg pool ----
    ("avg_pool2d", f"{PX}\nr = nn.avg_pool2d(x, 2)"),
    ("avg_pool2d_pad", f"{PX}\nr = nn.avg_pool2d(x, 3, 2, 1)"),
    ("avg_pool2d_nopad", f"{PX}\nr = nn.avg_pool2d(x, 3, 2, 1, count_include_pad=false)"),
    ("avg_pool2d_ceil", f"{PX}\nr = nn.avg_pool2d(x, (3, 2), (2, 3), (1, 1), ceil_mode=true)"),
    ("avg_pool2d_divisor", f"{PX}\nr = nn.avg_pool2d(x, 3, 2, 1, divisor_override=5)"),
    ("avg_pool2d_int", "r = nn.avg_pool2d(arange(-10, 20).reshape(1, 5, 6), 2)"),
    ("avg_pool2d_f64", f"x = {data([1, 2, 5, 5], 0.3, 'f64')}\nr = nn.avg_pool2d(x, 2, ceil_mode=true, count_include_pad=false)"),
    ("avg_pool1d", f"{PX1}\nr = nn.avg_pool1d(x, 3, 2, 1, ceil_mode=true, count_include_pad=false)"),
    *grad("avg_pool2d", PX, "nn.avg_pool2d(x, 3, 2, 1, ceil_mode=true)", "x"),
    *grad("avg_pool2d_div", PX, "nn.avg_pool2d(x, 2, 1, 1, divisor_override=3)", "x"),
    *grad("avg_pool1d", PX1, "nn.avg_pool1d(x, 4, 2, 2, count_include_pad=false)", "x"),
    # ---- adaptive ----
    ("adaptive_avg2d", f"{PX}\nr = nn.adaptive_avg_pool2d(x, (3, 5))"),
    ("adaptive_avg2d_none", f"{PX}\nr = nn.adaptive_avg_pool2d(x, (none, 3))"),
    ("adaptive_avg2d_1", f"{PX}\nr = nn.adaptive_avg_pool2d(x, 1)"),
    ("adaptive_avg2d_up", f"{PX}\nr = nn.adaptive_avg_pool2d(x[0], 10)"),
    ("adaptive_avg1d", f"{PX1}\nr = nn.adaptive_avg_pool1d(x, 4)"),
    ("adaptive_max2d", f"{PX}\nr = nn.adaptive_max_pool2d(x, (3, 5))"),
    ("adaptive_max2d_idx", f"{PX}\nr = nn.adaptive_max_pool2d(x, 3, return_indices=true)[1]"),
    ("adaptive_max1d", f"{PX1}\nr = nn.adaptive_max_pool1d(x, 4)"),
    ("adaptive_max1d_idx", f"{PX1}\nr = nn.adaptive_max_pool1d(x[0], 5, return_indices=true)[1]"),
    *grad("adaptive_avg2d", PX, "nn.adaptive_avg_pool2d(x, (3, 5))", "x"),
    *grad("adaptive_max2d", PX, "nn.adaptive_max_pool2d(x, (4, 3))", "x"),
    *grad("adaptive_avg1d", PX1, "nn.adaptive_avg_pool1d(x, 4)", "x"),
    # ---- batch_norm ----
    ("bn_train", f"{NX}\nr = nn.batch_norm(x, none, none, training=true)"),
    ("bn_train_affine", f"{NX}\n{NW}\n{NB}\nr = nn.batch_norm(x, zeros(4), ones(4), g, h, training=true, eps=0.1)"),
    ("bn_running_mean", f"{NX}\nm = zeros(4) + 0.5\nv = ones(4)\nnn.batch_norm(x, m, v, training=true, momentum=0.3)\nr = m"),
    ("bn_running_var", f"{NX}\nm = zeros(4) + 0.5\nv = ones(4)\nnn.batch_norm(x, m, v, training=true, momentum=0.3)\nr = v"),
    ("bn_eval", f"{NX}\n{NW}\n{NB}\nr = nn.batch_norm(x, tensor([0.1, -0.2, 0.3, 0.]), tensor([1., 2., 0.5, 3.]), g, h)"),
    ("bn_2d", f"r = nn.batch_norm({data([5, 3])}, none, none, training=true)"),
    ("bn_f64", f"r = nn.batch_norm({data([3, 2, 4], 0.4, 'f64')}, none, none, training=true)"),
    *grad("bn_train", f"{NX64}\n{NW64}\n{NB64}", "nn.batch_norm(x, none, none, g, h, training=true)", ("x", "g", "h")),
    *grad("bn_eval", f"{NX}\n{NW}", "nn.batch_norm(x, tensor([0.1, -0.2, 0.3, 0.]), tensor([1., 2., 0.5, 3.]), g)", ("x", "g")),
    # ---- group_norm / instance_norm ----
    ("gn", f"{NX}\nr = nn.group_norm(x, 2)"),
    ("gn_affine", f"{NX}\n{NW}\n{NB}\nr = nn.group_norm(x, 4, g, h, eps=0.01)"),
    ("gn_2d", f"r = nn.group_norm({data([3, 6])}, 3)"),
    *grad("gn", f"{NX}\n{NW}\n{NB}", "nn.group_norm(x, 2, g, h)", ("x", "g", "h")),
    ("in", f"{NX}\nr = nn.instance_norm(x)"),
    ("in_affine", f"{NX}\n{NW}\n{NB}\nr = nn.instance_norm(x, weight=g, bias=h)"),
    ("in_running_mean", f"{NX}\nm = zeros(4) + 0.5\nv = ones(4)\nnn.instance_norm(x, m, v, momentum=0.2)\nr = m"),
    ("in_running_var", f"{NX}\nm = zeros(4) + 0.5\nv = ones(4)\nnn.instance_norm(x, m, v, momentum=0.2)\nr = v"),
    ("in_eval", f"{NX}\nr = nn.instance_norm(x, tensor([0.1, -0.2, 0.3, 0.]), tensor([1., 2., 0.5, 3.]), use_input_stats=false)"),
    *grad("in", f"{NX}\n{NW}\n{NB}", "nn.instance_norm(x, weight=g, bias=h)", ("x", "g", "h")),
]

GRADFN = [(f"gradfn_{n}", f"{X}\n{W}\nx2 = {data([2, 4, 7])}.requires_grad_()\nr = {e}") for n, e in [
    ("conv2d", "nn.conv2d(x, w, groups=2)"), ("conv2d_unbatched", "nn.conv2d(x[0], w, groups=2)"),
    ("conv1d", "nn.conv1d(x2, w[:, :, 0], groups=2)"), ("conv_t2d", "nn.conv_transpose2d(x, w[:4])"),
    ("unfold", "nn.unfold(x, 2)"), ("fold", "nn.fold(nn.unfold(x, 2), (5, 6), 2)"),
    ("max_pool2d", "nn.max_pool2d(x, 2)"), ("max_pool1d", "nn.max_pool1d(x2, 2)"),
    ("avg_pool2d", "nn.avg_pool2d(x, 2)"), ("avg_pool1d", "nn.avg_pool1d(x2, 2)"),
    ("adaptive_avg2d", "nn.adaptive_avg_pool2d(x, 3)"), ("adaptive_avg2d_1", "nn.adaptive_avg_pool2d(x, 1)"),
    ("adaptive_max2d", "nn.adaptive_max_pool2d(x, 3)"), ("adaptive_avg1d", "nn.adaptive_avg_pool1d(x2, 3)"),
    ("bn", "nn.batch_norm(x, none, none, training=true)"), ("bn_eval", "nn.batch_norm(x, zeros(4), ones(4))"),
    ("gn", "nn.group_norm(x, 2)"), ("in", "nn.instance_norm(x)")]]

XE = data([2, 4, 5, 6])
X1E = data([2, 4, 7])
ERRORS = [
    ("conv2d_channels", f"nn.conv2d({XE}, zeros(6, 2, 3, 3))", True),
    ("conv2d_groups_channels", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), groups=3)", True),
    ("conv2d_unbatched_channels", f"nn.conv2d({XE}[0], zeros(6, 3, 3, 3))", True),
    ("conv2d_dim", f"nn.conv2d({XE}[0, 0], zeros(6, 2, 3, 3))", True),
    ("conv1d_dim", f"nn.conv1d({X1E}[0, 0], zeros(6, 2, 3))", True),
    ("conv2d_kernel_big", f"nn.conv2d({XE}, zeros(6, 2, 9, 3), groups=2)", True),
    ("conv2d_stride0", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), stride=0, groups=2)", True),
    ("conv2d_pad_neg", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), padding=-1, groups=2)", True),
    ("conv2d_dil0", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), dilation=0, groups=2)", True),
    ("conv2d_groups0", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), groups=0)", True),
    ("conv2d_bias", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), zeros(5), groups=2)", True),
    ("conv2d_pad_str", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), padding=\"foo\", groups=2)", True),
    ("conv2d_same_strided", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), padding=\"same\", stride=2, groups=2)", True),
    ("conv2d_stride_len", f"nn.conv2d({XE}, zeros(6, 2, 3, 3), stride=(1, 2, 3), groups=2)", True),
    ("conv2d_weight_dim", f"nn.conv2d({XE}, zeros(6, 4, 3))", True),
    ("conv2d_dtype", f"nn.conv2d({XE}.to(f64), zeros(6, 4, 3, 3))", True),
    ("conv2d_dtype_w", f"nn.conv2d({XE}, zeros(6, 4, 3, 3, dtype=f64))", True),
    ("conv2d_dtype_b", f"nn.conv2d({XE}, zeros(6, 4, 3, 3), zeros(6, dtype=f64))", True),
    ("conv2d_weight_groups", f"nn.conv2d({XE}, zeros(5, 2, 3, 3), groups=2)", True),
    ("conv2d_half", f"nn.conv2d({XE}.to(f16), zeros(6, 4, 3, 3, dtype=f16))", True),
    ("conv_t2d_channels", f"nn.conv_transpose2d({XE}, zeros(5, 3, 3, 3))", True),
    ("conv_t2d_outpad", f"nn.conv_transpose2d({XE}, zeros(4, 3, 3, 3), output_padding=1)", True),
    ("conv_t2d_bias", f"nn.conv_transpose2d({XE}, zeros(4, 3, 3, 3), zeros(4))", True),
    ("conv_t2d_groups", f"nn.conv_transpose2d({XE}, zeros(4, 3, 3, 3), groups=3)", True),
    ("unfold_2d", f"nn.unfold({XE}[0, 0], 2)", True),
    ("unfold_kernel0", f"nn.unfold({XE}, 0)", True),
    ("unfold_pad_neg", f"nn.unfold({XE}, 2, padding=-1)", True),
    ("unfold_big", f"nn.unfold({XE}, 7)", False),
    ("unfold_int", f"nn.unfold(zeros(1, 1, 3, 3, dtype=i64), 2)", True),
    ("fold_div", "nn.fold(zeros(2, 15, 20), (5, 6), 2)", True),
    ("fold_blocks", "nn.fold(zeros(2, 16, 21), (5, 6), 2)", True),
    ("fold_dim", "nn.fold(zeros(16), (5, 6), 2)", True),
    ("max_pool2d_stride_neg", f"nn.max_pool2d({XE}, 2, stride=-1)", True),
    ("max_pool2d_k0", f"nn.max_pool2d({XE}, 0)", True),
    ("max_pool2d_k3", f"nn.max_pool2d({XE}, (2, 2, 2))", True),
    ("max_pool2d_s3", f"nn.max_pool2d({XE}, 2, (1, 1, 1))", True),
    ("max_pool2d_pad_neg", f"nn.max_pool2d({XE}, 2, padding=-1)", True),
    ("max_pool2d_pad_big", f"nn.max_pool2d({XE}, 2, padding=2)", True),
    ("max_pool2d_dil0", f"nn.max_pool2d({XE}, 3, dilation=0)", True),
    ("max_pool2d_dim", f"nn.max_pool2d({XE}[0, 0], 2)", True),
    ("max_pool2d_small", f"nn.max_pool2d({XE}, 7)", True),
    ("max_pool2d_int", "nn.max_pool2d(zeros(1, 4, 4, dtype=i64), 2)", True),
    ("max_pool2d_half", "nn.max_pool2d(zeros(1, 4, 4, dtype=f16), 2)", True),
    ("max_pool1d_dim", f"nn.max_pool1d({X1E}[0, 0], 2)", True),
    ("max_pool1d_int", "nn.max_pool1d(zeros(1, 4, dtype=i64), 2)", True),
    ("max_pool1d_k2", f"nn.max_pool1d({X1E}.requires_grad_(), (2, 2))", True),
    ("max_pool1d_small", f"nn.max_pool1d({X1E}.requires_grad_(), 9)", True),
    ("avg_pool2d_dim", f"nn.avg_pool2d({XE}[0, 0], 2)", True),
    ("avg_pool2d_half", "nn.avg_pool2d(zeros(1, 4, 4, dtype=f16), 2)", True),
    ("avg_pool2d_div0", f"nn.avg_pool2d({XE}, 2, divisor_override=0)", True),
    ("avg_pool2d_k3", f"nn.avg_pool2d({XE}, (2, 2, 2))", True),
    ("avg_pool1d_dim", f"nn.avg_pool1d({X1E}[0, 0], 2)", True),
    ("avg_pool1d_pad", f"nn.avg_pool1d({X1E}, 2, padding=2)", True),
    ("adaptive_avg2d_neg", f"nn.adaptive_avg_pool2d({XE}, -1)", True),
    ("adaptive_avg2d_dim", f"nn.adaptive_avg_pool2d({XE}[0, 0], 2)", True),
    ("adaptive_avg2d_len", f"nn.adaptive_avg_pool2d({XE}, (2, 2, 2))", True),
    ("adaptive_avg1d_len", f"nn.adaptive_avg_pool1d({X1E}, (2, 2))", True),
    ("adaptive_avg1d_dim", f"nn.adaptive_avg_pool1d({X1E}[0, 0], 2)", True),
    ("adaptive_max2d_dim", f"nn.adaptive_max_pool2d({XE}[0, 0], 2)", True),
    ("adaptive_avg2d_int", "nn.adaptive_avg_pool2d(zeros(1, 4, 4, dtype=i64), 2)", True),
    ("adaptive_avg2d_empty", "nn.adaptive_avg_pool2d(zeros(2, 4, 0, 6), 2)", True),
    ("bn_one_value", f"nn.batch_norm({XE}[:1, :, :1, :1], none, none, training=true)", True),
    ("bn_eval_none", f"nn.batch_norm({XE}, none, none)", True),
    ("bn_running_size", f"nn.batch_norm({XE}, zeros(3), ones(3))", True),
    ("bn_var_size", f"nn.batch_norm({XE}, zeros(4), ones(3))", True),
    ("bn_weight_size", f"nn.batch_norm({XE}, zeros(4), ones(4), ones(3))", True),
    ("bn_int", "nn.batch_norm(zeros(2, 3, dtype=i64), none, none, training=true)", True),
    ("gn_groups", f"nn.group_norm({XE}, 3)", True),
    ("gn_groups0", f"nn.group_norm({XE}, 0)", True),
    ("gn_weight", f"nn.group_norm({XE}, 2, ones(3))", True),
    ("gn_int", "nn.group_norm(zeros(2, 4, dtype=i64), 2)", True),
    ("in_spatial", f"nn.instance_norm({XE}[:, :, :1, :1])", True),
    ("in_running_size", f"nn.instance_norm({XE}, zeros(3), ones(3))", True),
    ("in_weight_size", f"nn.instance_norm({XE}, weight=ones(3))", True),
]


def main():
    write_golden("conv.json", "gen_conv.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
