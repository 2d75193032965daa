#!/usr/bin/env python3
"""Generate stdlib/testdata/h2_fns.json for stdlib/h2_fns_test.go.

Golden values from PyTorch 1.13 for nanmedian, cumulative_trapezoid,
histogram, and torch.nn.functional's cosine_similarity,
pairwise_distance, smooth_l1_loss, huber_loss, kl_div, soft_margin_loss,
logsigmoid, relu6, hardsigmoid, hardswish, selu, celu, softshrink,
hardshrink, threshold, softsign, tanhshrink, softmin and glu: values,
dtypes, shapes, strides, gradients, grad_fn names and errors. Each case is
written once in tsr; to_torch() (from gen_ops_more_torch.py) spells it
for PyTorch.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_h2_fns.py
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

warnings.filterwarnings("ignore")

EXTRA = ["nanmedian", "cumulative_trapezoid", "histogram", "cosine_similarity", "pairwise_distance", "where"]


def to_torch(src):
    # base_to_torch spells none as None, also inside reduction="none"
    return base_to_torch(src, EXTRA).replace('"None"', '"none"')


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


NANS = "tensor([[nan, 2., nan, -1., 5.], [nan, nan, nan, nan, nan], [3., 0.5, -2., 7., nan], [1., 4., 2., 8., 6.]])"
A = "a = tensor([[0.3, -0.7, 1.2, 2.5], [-1.6, 0.9, 0.1, -3.5], [4.2, -0.05, 0.6, -2.9]], requires_grad=true)"
B = "b = tensor([[0.8, -2.1, 0.6, 1.5], [1.1, 0.2, -0.4, -0.9], [-3.0, 0.35, 2.6, -1.2]], requires_grad=true)"
ACT = "tensor([-5., -3., -2.5, -1., -0.5, -0.25, 0., 0.25, 0.5, 1., 2.5, 3., 4., 30., -30., nan])"
HX = "tensor([1., 2., 1., 4., 2.5, -1.5, 0.25, 3.75, 2., 2.])"
W10 = "tensor([1., 2., 3., 4., 5., 6., 7., 8., 9., 10.])"

CASES = [
    # ---- nanmedian ----
    ("nanmedian_all", f"r = nanmedian({NANS})"),
    ("nanmedian_all_nan", "r = nanmedian(tensor([nan, nan]))"),
    ("nanmedian_empty", "r = nanmedian(zeros(0))"),
    ("nanmedian_dim1_values", f"r = nanmedian({NANS}, 1).values"),
    ("nanmedian_dim1_indices", f"r = nanmedian({NANS}, 1).indices"),
    ("nanmedian_dim0_values", f"r = {NANS}.nanmedian(0).values"),
    ("nanmedian_dim0_indices", f"r = {NANS}.nanmedian(dim=0).indices"),
    ("nanmedian_keepdim", f"r = nanmedian({NANS}, -1, keepdim=true).values"),
    ("nanmedian_keepdim_idx", f"r = nanmedian({NANS}, -1, true).indices"),
    ("nanmedian_f64", "r = nanmedian(tensor([[1.5, nan, -2.], [nan, 0.25, 9.]], dtype=f64), 1).values"),
    ("nanmedian_int", "r = nanmedian(tensor([[3, 1, 2, 9], [5, -4, 7, 0]]), 1).values"),
    ("nanmedian_int_idx", "r = nanmedian(tensor([[3, 1, 2, 9], [5, -4, 7, 0]]), 1).indices"),
    ("nanmedian_int_all", "r = nanmedian(tensor([3, 1, 2, 9]))"),
    ("nanmedian_0d", "r = nanmedian(tensor(5.), 0, keepdim=true).values"),
    ("nanmedian_transposed", "r = nanmedian(tensor([[1., nan], [3., 2.], [nan, 4.], [0., 7.]]).t(), 1).values"),
    ("nanmedian_3d", "r = nanmedian(tensor([[[1., nan, 3.], [2., 9., nan]], [[nan, nan, 4.], [5., -1., 0.]]]), 1).values"),
    *grad("nanmedian_dim", A, "nanmedian(a.masked_fill(a > 2., nan), 1).values", ("a",)),
    ("nanmedian_all_grad", "x = tensor([1., nan, 3., nan, 2.], requires_grad=true)\nnanmedian(x).backward()\nr = x.grad"),
    ("nanmedian_all_grad_ties", "x = tensor([2., nan, 3., 2., 1., 2.], requires_grad=true)\n(nanmedian(x) * 3).backward()\nr = x.grad"),
    ("nanmedian_all_grad_nan", "x = tensor([nan, nan], requires_grad=true)\nnanmedian(x).backward()\nr = x.grad"),
    # ---- cumulative_trapezoid ----
    ("ctrap", "r = cumulative_trapezoid(tensor([1., -2., 3., 0.5]))"),
    ("ctrap_dx", "r = cumulative_trapezoid(tensor([1., -2., 3., 0.5]), dx=0.5)"),
    ("ctrap_x", "r = cumulative_trapezoid(tensor([1., -2., 3., 0.5]), tensor([0., 1., 3., 3.5]))"),
    ("ctrap_x_kw", "r = cumulative_trapezoid(tensor([1., -2., 3., 0.5]), x=tensor([0., -1., 3., 4.]))"),
    ("ctrap_dim0", "r = cumulative_trapezoid(arange(12.).reshape(3, 4), dim=0)"),
    ("ctrap_x_1d_dim0", "r = cumulative_trapezoid(arange(12.).reshape(3, 4), tensor([0., 2., 5.]), dim=0)"),
    ("ctrap_x_2d", "r = cumulative_trapezoid(arange(6.).reshape(2, 3), tensor([[0., 1., 2.], [1., 3., 4.]]))"),
    ("ctrap_x_bcast", "r = cumulative_trapezoid(arange(12.).reshape(2, 2, 3), tensor([[0., 1., 3.], [1., 2., 4.]]))"),
    ("ctrap_int", "r = cumulative_trapezoid(arange(6).reshape(2, 3))"),
    ("ctrap_int_dx", "r = cumulative_trapezoid(tensor([1, 4, 9]), dx=2)"),
    ("ctrap_int_x", "r = cumulative_trapezoid(tensor([1, 4, 9]), tensor([0, 1, 3]))"),
    ("ctrap_f64", "r = cumulative_trapezoid(tensor([0.1, 0.2, 0.3], dtype=f64), dx=0.1)"),
    ("ctrap_empty", "r = cumulative_trapezoid(zeros(2, 0))"),
    ("ctrap_one", "r = cumulative_trapezoid(tensor([[5.], [2.]]))"),
    ("ctrap_transposed", "r = cumulative_trapezoid(arange(12.).reshape(3, 4).t())"),
    *grad("ctrap", A, "cumulative_trapezoid(a, dx=0.5)", ("a",)),
    *grad("ctrap_x", f"{A}\nq = tensor([0., 1., 3., 4.5], requires_grad=true)", "cumulative_trapezoid(a, q)", ("a", "q")),
    # ---- histogram ----
    ("hist_int_bins", f"r = histogram({HX}, 3).hist"),
    ("hist_int_bins_edges", f"r = histogram({HX}, 3).bin_edges"),
    ("hist_7", f"r = histogram({HX}, 7).hist"),
    ("hist_7_edges", f"r = histogram({HX}, bins=7).bin_edges"),
    ("hist_tensor_bins", f"r = histogram({HX}, tensor([-1., 1., 2., 2.5, 5.])).hist"),
    ("hist_tensor_bins_edges", f"r = histogram({HX}, tensor([-1., 1., 2., 2.5, 5.])).bin_edges"),
    ("hist_range", f"r = {HX}.histogram(4, range=(0., 3.)).hist"),
    ("hist_range_edges", f"r = {HX}.histogram(4, range=(0., 3.)).bin_edges"),
    ("hist_density", f"r = histogram({HX}, 3, range=(0., 3.), density=true).hist"),
    ("hist_weight", f"r = histogram({HX}, 3, weight={W10}).hist"),
    ("hist_weight_density", f"r = histogram({HX}, tensor([-2., 0., 1., 4.]), weight={W10}, density=true).hist"),
    ("hist_same", "r = histogram(tensor([2., 2.]), 2).bin_edges"),
    ("hist_same_counts", "r = histogram(tensor([2., 2.]), 2).hist"),
    ("hist_empty", "r = histogram(zeros(0), 2).bin_edges"),
    ("hist_f64", "r = histogram(tensor([0.1, 0.2, 0.30000000000000004, 0.7, 1.0], dtype=f64), 10).hist"),
    ("hist_f64_edges", "r = histogram(tensor([0.1, 0.2, 0.3, 0.7, 1.0], dtype=f64), 10).bin_edges"),
    ("hist_f32_edge_cases", "r = histogram(arange(0., 1., 0.1), 10).hist"),
    ("hist_2d", "r = histogram(arange(12.).reshape(3, 4).t(), 5).hist"),
    ("hist_nan_range", "r = histogram(tensor([1., nan, 2.]), 2, range=(0., 3.)).hist"),
    ("hist_nonmono", f"r = histogram({HX}, tensor([2., 1.])).hist"),
    # ---- cosine_similarity, pairwise_distance ----
    ("cos_sim", f"{A}\n{B}\nr = nn.cosine_similarity(a, b)"),
    ("cos_sim_dim0", f"{A}\n{B}\nr = nn.cosine_similarity(a, b, dim=0)"),
    ("cos_sim_bcast", f"{A}\nr = cosine_similarity(a, tensor([1., 2., -1., 0.5]), dim=-1)"),
    ("cos_sim_zero", "r = nn.cosine_similarity(zeros(2, 3), ones(2, 3))"),
    ("cos_sim_eps", "r = nn.cosine_similarity(tensor([[1e-5, 0.]]), tensor([[1., 1.]]), eps=1e-3)"),
    ("cos_sim_f64", "r = nn.cosine_similarity(tensor([[1., 2.]], dtype=f64), tensor([[2., 0.5]]))"),
    *grad("cos_sim", f"{A}\n{B}", "nn.cosine_similarity(a, b)", ("a", "b")),
    *grad("cos_sim_eps", "a = tensor([[1e-5, 0.], [3., 4.]], requires_grad=true)\nb = tensor([[1., 1.], [1., 2.]], requires_grad=true)",
          "nn.cosine_similarity(a, b, eps=1e-3)", ("a", "b")),
    ("pdist", f"{A}\n{B}\nr = nn.pairwise_distance(a, b)"),
    ("pdist_p1_keep", f"{A}\n{B}\nr = nn.pairwise_distance(a, b, p=1., keepdim=true)"),
    ("pdist_1d", "r = pairwise_distance(tensor([1., 2., 3.]), tensor([0., 2., 5.]))"),
    ("pdist_inf", f"{A}\n{B}\nr = nn.pairwise_distance(a, b, p=inf, eps=0.)"),
    *grad("pdist", f"{A}\n{B}", "nn.pairwise_distance(a, b)", ("a", "b")),
    # ---- losses ----
    ("smooth_l1", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b)"),
    ("smooth_l1_none", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b, reduction=\"none\")"),
    ("smooth_l1_beta", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b, reduction=\"none\", beta=0.5)"),
    ("smooth_l1_beta0", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b, beta=0.)"),
    ("smooth_l1_sum", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b, reduction=\"sum\", beta=2.)"),
    ("smooth_l1_legacy", f"{A}\n{B}\nr = nn.smooth_l1_loss(a, b, reduce=false)"),
    *grad("smooth_l1", f"{A}\n{B}", "nn.smooth_l1_loss(a, b, reduction=\"none\", beta=0.8)", ("a", "b")),
    ("huber", f"{A}\n{B}\nr = nn.huber_loss(a, b)"),
    ("huber_none", f"{A}\n{B}\nr = nn.huber_loss(a, b, reduction=\"none\", delta=0.5)"),
    ("huber_sum", f"{A}\n{B}\nr = nn.huber_loss(a, b, \"sum\", 2.)"),
    *grad("huber", f"{A}\n{B}", "nn.huber_loss(a, b, reduction=\"none\", delta=1.5)", ("a", "b")),
    ("kl_div", f"{A}\n{B}\nr = nn.kl_div(a, b.abs())"),
    ("kl_div_none", f"{A}\nr = nn.kl_div(a, tensor([[0., 0.5, 0.25, 0.25], [1., 0., 0., 0.], [0.1, 0.2, 0.3, 0.4]]), reduction=\"none\")"),
    ("kl_div_batchmean", f"{A}\n{B}\nr = nn.kl_div(a, b.abs(), reduction=\"batchmean\")"),
    ("kl_div_log_target", f"{A}\n{B}\nr = nn.kl_div(a, b, reduction=\"sum\", log_target=true)"),
    *grad("kl_div", f"{A}\n{B}", "nn.kl_div(a, b.abs(), reduction=\"none\")", ("a", "b")),
    *grad("kl_div_log", f"{A}\n{B}", "nn.kl_div(a, b, reduction=\"none\", log_target=true)", ("a", "b")),
    ("soft_margin", f"{A}\nr = nn.soft_margin_loss(a, tensor([[1., -1., 1., -1.], [-1., -1., 1., 1.], [1., 1., 1., -1.]]))"),
    *grad("soft_margin", A, "nn.soft_margin_loss(a, tensor([1., -1., 1., -1.]), reduction=\"none\")", ("a",)),
    # ---- activations ----
    *[(f"act_{n}", f"r = nn.{n}({ACT}{extra})") for n, extra in (
        ("logsigmoid", ""), ("relu6", ""), ("hardsigmoid", ""), ("hardswish", ""), ("selu", ""), ("celu", ""),
        ("celu", ", alpha=0.5"), ("softshrink", ""), ("softshrink", ", 1.5"), ("hardshrink", ""),
        ("hardshrink", ", lambd=2.5"), ("threshold", ", 0.5, -7."), ("softsign", ""), ("tanhshrink", ""))],
    ("act_logsigmoid_f64", f"r = nn.logsigmoid({ACT}.to(f64) * 3)"),
    ("act_selu_f64", f"r = nn.selu({ACT}.to(f64))"),
    ("act_hardswish_transposed", "r = nn.hardswish(arange(-6., 6.).reshape(3, 4).t())"),
    ("act_relu6_int", "r = nn.relu6(tensor([-3, 2, 9]))"),
    ("softmin", f"{A}\nr = nn.softmin(a, dim=1)"),
    ("softmin_default", f"{A}\nr = nn.softmin(a)"),
    ("softmin_1d", "r = nn.softmin(tensor([1., 2., 3.]))"),
    ("glu", f"{A}\nr = nn.glu(a)"),
    ("glu_dim0", "r = nn.glu(arange(12.).reshape(4, 3) / 5, 0)"),
    *[g for n, extra in (("logsigmoid", ""), ("relu6", ""), ("hardsigmoid", ""), ("hardswish", ""), ("selu", ""),
                         ("celu", ", 0.7"), ("softshrink", ", 0.3"), ("hardshrink", ", 0.3"), ("threshold", ", 0.2, 5."),
                         ("softsign", ""), ("tanhshrink", ""), ("glu", ""), ("softmin", ", 0"))
      for g in grad(f"act_{n}", "x = tensor([[-4., -3., -1.5, -0.2], [0., 0.25, 1., 2.9], [3., 3.5, -0.7, 0.9]], requires_grad=true)",
                    f"nn.{n}(x{extra})", ("x",))],
]

GRADFN = [
    ("nanmedian_all", "r = nanmedian(tensor([1., nan], requires_grad=true))"),
    ("nanmedian_dim", "r = nanmedian(tensor([[1., nan]], requires_grad=true), 1).values"),
    ("nanmedian_keepdim", "r = nanmedian(tensor([[1., nan]], requires_grad=true), 1, true).values"),
    ("ctrap", "r = cumulative_trapezoid(tensor([1., 2.], requires_grad=true))"),
    ("ctrap_x", "r = cumulative_trapezoid(tensor([1., 2.], requires_grad=true), tensor([0., 2.]))"),
    ("cos_sim", "r = nn.cosine_similarity(ones(2, 3, requires_grad=true), ones(2, 3))"),
    ("pdist", "r = nn.pairwise_distance(ones(2, 3, requires_grad=true), zeros(2, 3))"),
    ("smooth_l1", "r = nn.smooth_l1_loss(ones(2, requires_grad=true), zeros(2))"),
    ("smooth_l1_none", "r = nn.smooth_l1_loss(ones(2, requires_grad=true), zeros(2), reduction=\"none\")"),
    ("huber", "r = nn.huber_loss(ones(2, requires_grad=true), zeros(2))"),
    ("kl_div", "r = nn.kl_div(ones(2, requires_grad=true), ones(2))"),
    ("soft_margin", "r = nn.soft_margin_loss(ones(2, requires_grad=true), ones(2))"),
    *[(f"act_{n}", f"r = nn.{n}(ones(2, 2, requires_grad=true){extra})") for n, extra in (
        ("logsigmoid", ""), ("relu6", ""), ("hardsigmoid", ""), ("hardswish", ""), ("selu", ""), ("celu", ""),
        ("softshrink", ""), ("hardshrink", ""), ("threshold", ", 0.5, 0."), ("softsign", ""), ("tanhshrink", ""),
        ("softmin", ", 1"), ("glu", ""))],
]

ERRORS = [
    ("nanmedian_dim_empty", "nanmedian(zeros(2, 0), 1)", True),
    ("nanmedian_dim_range", "nanmedian(zeros(2, 3), 2)", True),
    ("ctrap_bool", "cumulative_trapezoid(tensor([true, false]))", True),
    ("ctrap_x_count", "cumulative_trapezoid(tensor([1., 2., 3.]), tensor([0., 1.]))", True),
    ("ctrap_x_bool", "cumulative_trapezoid(tensor([1., 2.]), tensor([true, false]))", True),
    ("ctrap_dim_range", "cumulative_trapezoid(tensor([1., 2.]), dim=1)", True),
    ("hist_int", "histogram(tensor([1, 2]), 2)", True),
    ("hist_f16", "histogram(tensor([1., 2.], dtype=f16), 2)", True),
    ("hist_bins0", "histogram(tensor([1., 2.]), 0)", True),
    ("hist_bins_one_edge", "histogram(tensor([1., 2.]), tensor([1.]))", True),
    ("hist_min_max", "histogram(tensor([1., 2.]), 3, range=(3., 1.))", True),
    ("hist_nan", "histogram(tensor([1., nan]), 2)", True),
    ("hist_inf_range", "histogram(tensor([1., 2.]), 2, range=(0., inf))", True),
    ("hist_bins_dtype", "histogram(tensor([1., 2.]), tensor([0., 1.], dtype=f64))", True),
    ("hist_bins_2d", "histogram(tensor([1., 2.]), tensor([[0., 1.]]))", True),
    ("hist_weight_shape", "histogram(tensor([1., 2., 3.]), 3, weight=tensor([1., 2.]))", True),
    ("hist_weight_dtype", "histogram(tensor([1., 2.]), 3, weight=tensor([1, 2]))", True),
    ("hist_tensor_range", "histogram(tensor([1., 2.]), tensor([0., 1.]), range=(0., 1.))", False),
    ("cos_sim_int", "nn.cosine_similarity(tensor([[1, 2]]), tensor([[1, 2]]))", True),
    ("smooth_l1_neg_beta", "nn.smooth_l1_loss(ones(2), zeros(2), beta=-1.)", True),
    ("huber_delta0", "nn.huber_loss(ones(2), zeros(2), delta=0.)", True),
    ("huber_reduction", "nn.huber_loss(ones(2), zeros(2), reduction=\"avg\")", True),
    ("kl_div_reduction", "nn.kl_div(ones(2), zeros(2), reduction=\"avg\")", True),
    ("logsigmoid_int", "nn.logsigmoid(tensor([1, 2]))", False),
    ("hardswish_int", "nn.hardswish(tensor([1, 2]))", False),
    ("softshrink_neg", "nn.softshrink(ones(2), -1.)", True),
    ("glu_odd", "nn.glu(ones(2, 3))", True),
    ("glu_0d", "nn.glu(tensor(1.))", True),
]


def main():
    write_golden("h2_fns.json", "gen_h2_fns.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
