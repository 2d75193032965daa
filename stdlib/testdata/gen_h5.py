#!/usr/bin/env python3
"""Generate stdlib/testdata/h5_fns.json for stdlib/h5_fns_test.go.

Golden values from PyTorch 1.13 for the aliases and small methods of
stdlib/ops_h5.go and ops_h5_more.go (mH, H, arctan2, fix, cumsum_,
sum_to_size, rsub, diagflat, combinations, frexp, renorm, addbmm, the
*_scatter functions, index_put, gradient, ...) and for the random fills
of stdlib/random_h5.go, which reproduce PyTorch's CPU streams after
manual_seed (exponential_, cauchy_, log_normal_, geometric_, random_,
bernoulli_, poisson, get_rng_state bytes). Each case is written once in
tsr; to_torch() (from gen_ops_more_torch.py) spells it for PyTorch.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_h5.py
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

warnings.filterwarnings("ignore")

EXTRA = ["arctan2", "fix", "rsub", "ger", "diagflat", "combinations", "frexp", "renorm", "addbmm", "slice_scatter",
         "select_scatter", "diagonal_scatter", "index_put", "gradient", "scalar_tensor", "as_tensor", "asarray",
         "chain_matmul", "split_with_sizes", "manual_seed", "empty", "full", "rand", "randn", "poisson",
         "get_rng_state", "set_rng_state", "is_nonzero", "bmm", "trunc"]


def to_torch(src):
    return base_to_torch(src, EXTRA)


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


A = "a = tensor([[0.3, -0.7, 1.2, 2.5], [-1.6, 0.9, 0.1, -3.5], [4.2, -0.05, 0.6, -2.9]], requires_grad=true)"
V = "v = tensor([0.5, -1.5, 2.25, 3.], requires_grad=true)"
X34 = "arange(12.).reshape(3, 4)"

CASES = [
    # ---- aliases, small methods ----
    ("mH", f"r = {X34}.mH"),
    ("mH_batch", "r = arange(24.).reshape(2, 3, 4).mH"),
    ("H", f"r = {X34}.H"),
    ("H_0d", "r = tensor(2.5).H"),
    ("arctan2", "r = arctan2(tensor([1., -1., 0., 2.]), tensor([1., 1., -1., 0.5]))"),
    ("arctan2_", "r = tensor([1., -1.])\nr.arctan2_(tensor([2., -2.]))"),
    ("fix", "r = fix(tensor([-2.5, -0.5, 0.5, 2.7]))"),
    ("fix_", "r = tensor([-2.5, 2.7])\nr.fix_()"),
    ("multiply_", "r = tensor([1., 2.])\nr.multiply_(3)"),
    ("divide_", "r = tensor([1., 2.])\nr.divide_(tensor([4., 8.]))"),
    ("subtract_", "r = tensor([1., 2.])\nr.subtract_(tensor([4., 8.]), alpha=2)"),
    ("cumsum_", f"r = {X34}\nr.cumsum_(1)"),
    ("cumsum__i32", "r = tensor([1, 2, 3], dtype=i32)\nr.cumsum_(0)"),
    ("cumprod_", "r = tensor([[1., 2.], [3., 4.]])\nr.cumprod_(0)"),
    *grad("cumsum_", A, "(a * 1).cumsum_(1)", ("a",)),
    *grad("cumprod_", A, "(a * 1).cumprod_(0)", ("a",)),
    ("logical_not_", "r = tensor([0., 2., -1.])\nr.logical_not_()"),
    ("bitwise_not_", "r = tensor([0, 5, -3])\nr.bitwise_not_()"),
    ("bitwise_not__bool", "r = tensor([true, false])\nr.bitwise_not_()"),
    ("new_empty_strided", "r = ones(2).new_empty_strided([2, 3], [1, 2]).fill_(1.)"),
    ("sum_to_size", f"r = {X34}.sum_to_size(4)"),
    ("sum_to_size_keep", f"r = {X34}.sum_to_size(3, 1)"),
    ("sum_to_size_same", f"r = {X34}.sum_to_size(3, 4)"),
    *grad("sum_to_size", A, "a.sum_to_size(1, 4)", ("a",)),
    ("split_with_sizes", f"r = {X34}.split_with_sizes([1, 3], 1)[1]"),
    ("split_with_sizes_fn", f"r = split_with_sizes({X34}, [2, 1])[0]"),
    ("resize_shrink", "r = arange(6.)\nr.resize_(2, 2)"),
    ("resize_same", "r = arange(6.)\nr.resize_(3, 2)"),
    ("as_tensor", "r = as_tensor([1, 2], dtype=f64)"),
    ("as_tensor_t", "r = as_tensor(tensor([1, 2]), dtype=f32)"),
    ("asarray", "r = asarray([1, 2.])"),
    ("scalar_tensor", "r = scalar_tensor(3)"),
    ("scalar_tensor_bool", "r = scalar_tensor(true)"),
    ("scalar_tensor_i64", "r = scalar_tensor(3, dtype=i64)"),
    ("rsub", "r = rsub(tensor([1., 2.]), 5)"),
    ("rsub_t", "r = rsub(tensor([1., 2.]), tensor([3., 3.]), alpha=2)"),
    ("rsub_int", "r = rsub(tensor([1, 2]), tensor([10, 20]))"),
    *grad("rsub", f"{A}\n{V}", "rsub(a, v, alpha=2)", ("a", "v")),
    ("ger", "r = ger(tensor([1., 2.]), tensor([3., 4., 5.]))"),
    ("diagflat", "r = diagflat(tensor([[1., 2.], [3., 4.]]))"),
    ("diagflat_off", "r = diagflat(tensor([1., 2.]), -1)"),
    *grad("diagflat", V, "diagflat(v, 1)", ("v",)),
    ("chain_matmul", f"r = chain_matmul({X34}, {X34}.t(), ones(3, 2))"),
    ("chain_matmul_one", f"r = chain_matmul({X34})"),
    # ---- combinations, frexp, renorm, addbmm ----
    ("combinations", "r = combinations(tensor([1., 2., 3., 4.]))"),
    ("combinations_r3", "r = combinations(tensor([1, 2, 3, 4]), r=3)"),
    ("combinations_rep", "r = combinations(tensor([1., 2., 3.]), with_replacement=true)"),
    ("combinations_r0", "r = combinations(tensor([1., 2., 3.]), 0)"),
    *grad("combinations", V, "combinations(v)", ("v",)),
    ("frexp_m", "r = frexp(tensor([8., 0.3, -5., 0., 1e-40, 3.4e38, inf, -inf, nan])).mantissa"),
    ("frexp_e", "r = frexp(tensor([8., 0.3, -5., 0., 1e-40, 3.4e38])).exponent"),
    ("frexp_f64", "r = frexp(tensor([1e-310, 7.5, -1e300], dtype=f64)).mantissa"),
    ("frexp_e_f64", "r = frexp(tensor([1e-310, 7.5, -1e300], dtype=f64)).exponent"),
    *grad("frexp", V, "frexp(v).mantissa", ("v",)),
    ("renorm", f"r = renorm({X34}, 2, 0, 5.)"),
    ("renorm_dim1_p1", f"r = {X34}.renorm(1, 1, 10.)"),
    ("renorm_3d", "r = renorm(arange(24.).reshape(2, 3, 4) - 10, 3, 1, 8.)"),
    ("renorm_", f"r = {X34}\nr.renorm_(2, 1, 6.)"),
    *grad("renorm", A, "renorm(a, 2, 0, 3.)", ("a",)),
    ("addbmm", "r = addbmm(ones(2, 3), arange(12.).reshape(2, 2, 3), arange(18.).reshape(2, 3, 3))"),
    ("addbmm_beta_alpha", "r = addbmm(ones(3), arange(12.).reshape(2, 2, 3), arange(18.).reshape(2, 3, 3), beta=0.5, alpha=2)"),
    ("addbmm_beta0_nan", "r = addbmm(full([2, 3], nan), arange(12.).reshape(2, 2, 3), arange(18.).reshape(2, 3, 3), beta=0)"),
    ("addbmm_", "r = ones(2, 3)\nr.addbmm_(arange(12.).reshape(2, 2, 3), arange(18.).reshape(2, 3, 3), alpha=0.5)"),
    *grad("addbmm", "s = tensor([[1., -2.], [0.5, 3.]], requires_grad=true)\n"
          "b1 = tensor([[[0.1, 0.2], [0.3, 0.4]], [[1., -1.], [2., 0.5]]], requires_grad=true)\n"
          "b2 = tensor([[[1.5, -0.5], [0.25, 2.]], [[0.7, 0.1], [-0.3, 0.9]]], requires_grad=true)",
          "addbmm(s, b1, b2, beta=0.5, alpha=2)", ("s", "b1", "b2")),
    # ---- scatters, index_put ----
    # PyTorch 1.13's Python binding of slice_scatter misreads start/end/step
    # (SymInt arguments): the golden calls the ATen op directly
    ("slice_scatter", "r = slice_scatter(zeros(4, 3), ones(2, 3), start=1, end=3)",
     "r = torch.ops.aten.slice_scatter(torch.zeros(4, 3), torch.ones(2, 3), 0, 1, 3, 1)"),
    ("slice_scatter_step", "r = slice_scatter(zeros(3, 5), arange(9.).reshape(3, 3), dim=1, start=0, step=2)",
     "r = torch.ops.aten.slice_scatter(torch.zeros(3, 5), torch.arange(9.).reshape(3, 3), 1, 0, None, 2)"),
    ("select_scatter", "r = select_scatter(zeros(2, 3), tensor([1., 2.]), 1, -1)"),
    ("diagonal_scatter", "r = diagonal_scatter(zeros(3, 3), tensor([1., 2.]), 1)"),
    ("diagonal_scatter_dims", "r = zeros(2, 3, 3).diagonal_scatter(ones(3, 2), 0, 0, 2)"),
    *[(n, src, to_torch(src).replace("torch.slice_scatter(a, w, dim=1, start=1, end=3)",
                                     "torch.ops.aten.slice_scatter(a, w, 1, 1, 3, 1)"))
      for n, src in grad("slice_scatter", f"{A}\nw = tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=true)",
                         "slice_scatter(a, w, dim=1, start=1, end=3)", ("a", "w"))],
    *grad("select_scatter", f"{A}\n{V}", "select_scatter(a, v, 0, 1)", ("a", "v")),
    *grad("diagonal_scatter", f"{A}\nw = tensor([1., 2., 3.], requires_grad=true)", "diagonal_scatter(a, w)", ("a", "w")),
    ("index_put", "r = index_put(zeros(3, 2), (tensor([0, 2]),), tensor([1., 2.]))"),
    ("index_put_2", "r = zeros(3, 2).index_put((tensor([0, 2]), tensor([1])), tensor([1., 2.]))"),
    ("index_put_acc", "r = index_put(zeros(3, 2), (tensor([0, 2, 0]), tensor([1, 1, 1])), tensor([1., 2., 4.]), true)"),
    ("index_put_acc_rows", "r = index_put(zeros(3, 2), (tensor([0, 0, -1]),), tensor([1., 2.]), accumulate=true)"),
    ("index_put_acc_bool", "r = index_put(zeros(3, 2), (tensor([[true, false], [false, false], [true, true]]),), tensor(1.), true)"),
    ("index_put_", "r = zeros(4)\nr.index_put_((tensor([1, 1, 3]),), tensor([1., 2., 3.]), accumulate=true)"),
    ("index_put_int", "r = zeros(3, dtype=i64).index_put((tensor([1, 1]),), tensor([5, 6]), accumulate=true)"),
    *grad("index_put_acc", f"{A}\nw = tensor([1., 2., 3.], requires_grad=true)",
          "index_put(a, (tensor([0, 2, 0]), tensor([1, 1, 1])), w, true)", ("a", "w")),
    *grad("index_put", f"{A}\nw = tensor([1., 2.], requires_grad=true)",
          "index_put(a, (tensor([0, 2]), tensor([3, 0])), w)", ("a", "w")),
    # ---- gradient ----
    ("gradient", "r = gradient(tensor([1., 4., 9., 16., 25.]))[0]"),
    ("gradient_e2", "r = gradient(tensor([1., 4., 9., 16., 25.]), edge_order=2)[0]"),
    ("gradient_h", "r = gradient(tensor([1., 4., 9., 16., 25.]), spacing=0.5)[0]"),
    ("gradient_int", "r = gradient(tensor([1, 4, 9]))[0]"),
    ("gradient_2d_0", "r = gradient(tensor([[1., 2., 4.], [3., 7., 8.]]), spacing=2.)[0]"),
    ("gradient_2d_1", "r = gradient(tensor([[1., 2., 4.], [3., 7., 8.]]), spacing=[2., 3.])[1]"),
    ("gradient_dim", "r = gradient(tensor([[1., 2., 4.], [3., 7., 8.]]), dim=1)[0]"),
    ("gradient_dims", "r = gradient(arange(24.).reshape(2, 3, 4) ** 2, dim=[2, 0])[0]"),
    ("gradient_coords", "r = gradient(tensor([1., 2., 4., 9.]), spacing=[tensor([0., 1., 3., 3.5])])[0]"),
    ("gradient_coords_e2", "r = gradient(tensor([1., 2., 4., 9.]), spacing=[tensor([0., 1., 3., 3.5])], edge_order=2)[0]"),
    ("gradient_coords_2d", "r = gradient(tensor([[1., 2., 4.], [3., 7., 8.]]), spacing=[tensor([0., 2.]), tensor([-1., 0., 2.])])[1]"),
    *grad("gradient", A, "gradient(a, spacing=[0.5, 2.])[1]", ("a",)),
    *grad("gradient_e2", A, "gradient(a, edge_order=2, dim=1)[0]", ("a",)),
    # ---- random fills (PyTorch's streams) ----
    ("exponential_", "manual_seed(0)\nr = empty(20, dtype=f64).exponential_(2.)"),
    ("exponential_f32", "manual_seed(1)\nr = empty(4, 5).exponential_()"),
    ("cauchy_", "manual_seed(2)\nr = empty(20, dtype=f64).cauchy_(1., 2.)"),
    ("cauchy_f32", "manual_seed(2)\nr = empty(20).cauchy_()"),
    ("log_normal_", "manual_seed(3)\nr = empty(21, dtype=f64).log_normal_(1., 0.5)"),
    ("log_normal_f32", "manual_seed(3)\nr = empty(3, 7).log_normal_()"),
    ("geometric_", "manual_seed(4)\nr = empty(20, dtype=f64).geometric_(0.3)"),
    ("geometric_i64", "manual_seed(4)\nr = empty(20, dtype=i64).geometric_(0.05)"),
    ("random_f32", "manual_seed(5)\nr = empty(10).random_()"),
    ("random_f64", "manual_seed(5)\nr = empty(10, dtype=f64).random_()"),
    ("random_i64", "manual_seed(5)\nr = empty(10, dtype=i64).random_()"),
    ("random_i32", "manual_seed(5)\nr = empty(10, dtype=i32).random_()"),
    ("random_u8", "manual_seed(5)\nr = empty(10, dtype=u8).random_()"),
    ("random_bool", "manual_seed(5)\nr = empty(10, dtype=bool).random_()"),
    ("random_to", "manual_seed(6)\nr = empty(10, dtype=i64).random_(10)"),
    ("random_from_to", "manual_seed(6)\nr = empty(10, dtype=f64).random_(-5, 5)"),
    ("random_big", "manual_seed(6)\nr = empty(10, dtype=i64).random_(0, 10000000000)"),
    ("bernoulli_", "manual_seed(7)\nr = empty(20, dtype=f64).bernoulli_(0.3)"),
    ("bernoulli_f32", "manual_seed(7)\nr = empty(20).bernoulli_()"),
    ("bernoulli_p_f32", "manual_seed(7)\nr = empty(20).bernoulli_(arange(20.) / 20)"),
    ("bernoulli_p_f64", "manual_seed(7)\nr = empty(20, dtype=f64).bernoulli_(arange(20., dtype=f64) / 20)"),
    ("poisson", "manual_seed(8)\nr = poisson(tensor([0., 0.5, 3., 9.9, 10., 12., 50., 1000., 0.01, 7.]))"),
    ("poisson_f64", "manual_seed(8)\nr = poisson(arange(12., dtype=f64).reshape(3, 4) * 2.5)"),
    ("rng_state_seed", "manual_seed(9)\nr = get_rng_state()"),
    ("rng_state_after_rand", "manual_seed(9)\nx = rand(5)\nr = get_rng_state()"),
    ("rng_state_after_f64", "manual_seed(9)\nx = rand(3, dtype=f64)\nr = get_rng_state()"),
    ("rng_state_restore", "manual_seed(10)\ns = get_rng_state()\nx = rand(7)\nset_rng_state(s)\nr = rand(7)"),
    ("rng_state_restore_normal", "manual_seed(11)\ns = get_rng_state()\nx = empty(3, dtype=f64).log_normal_()\n"
                                 "set_rng_state(s)\nr = empty(3, dtype=f64).log_normal_()"),
]

GRADFN = [
    ("cumsum_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.cumsum_(0)"),
    ("cumprod_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.cumprod_(0)"),
    ("fix_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.fix_()"),
    ("sum_to_size", "r = ones(2, 3, requires_grad=true).sum_to_size(2, 1)"),
    ("rsub_scalar", "r = rsub(ones(2, requires_grad=true), 2)"),
    ("rsub_tensor", "r = rsub(ones(2, requires_grad=true), ones(2))"),
    ("diagflat", "r = diagflat(ones(2, requires_grad=true))"),
    ("combinations", "r = combinations(ones(3, requires_grad=true))"),
    ("frexp", "r = frexp(ones(3, requires_grad=true)).mantissa"),
    ("renorm", "r = renorm(ones(2, 3, requires_grad=true), 2, 0, 1.)"),
    ("addbmm", "r = addbmm(ones(2, 2, requires_grad=true), ones(2, 2, 2), ones(2, 2, 2))"),
    ("select_scatter", "r = select_scatter(ones(2, 3, requires_grad=true), ones(2), 1, 0)"),
    ("diagonal_scatter", "r = diagonal_scatter(ones(2, 3, requires_grad=true), ones(2))"),
    ("index_put", "r = index_put(ones(3, requires_grad=true), (tensor([0]),), tensor(2.))"),
    ("index_put_acc", "r = index_put(ones(3, requires_grad=true), (tensor([0, 0]),), tensor(2.), accumulate=true)"),
    ("index_put_", "r = ones(3, requires_grad=true) * 1\nr.index_put_((tensor([0, 0]),), tensor(2.), accumulate=true)"),
    ("gradient", "r = gradient(ones(3, requires_grad=true))[0]"),
]

ERRORS = [
    ("mH_1d", "ones(3).mH", True),
    ("H_1d", "ones(3).H", True),
    ("H_3d", "ones(2, 2, 2).H", True),
    ("bitwise_not__float", "ones(2).bitwise_not_()", True),
    ("sum_to_size_bad", "ones(2, 3).sum_to_size(2)", True),
    ("split_with_sizes_sum", "ones(3).split_with_sizes([1, 1])", True),
    ("resize_grad", "ones(2, requires_grad=true).resize_(3)", True),
    ("is_nonzero_empty", "is_nonzero(tensor([]))", True),
    ("is_nonzero_many", "is_nonzero(tensor([1, 2]))", True),
    ("chain_matmul_none", "chain_matmul()", True),
    ("chain_matmul_1d", "chain_matmul(ones(2))", True),
    ("combinations_2d", "combinations(ones(2, 2))", True),
    ("combinations_neg", "combinations(ones(3), r=-1)", True),
    ("frexp_int", "frexp(tensor([1, 2]))", True),
    ("renorm_1d", "renorm(ones(3), 2, 0, 1.)", True),
    ("renorm_p0", "renorm(ones(2, 3), 0, 0, 1.)", True),
    ("renorm_maxnorm", "renorm(ones(2, 3), 1, 0, -1.)", True),
    ("addbmm_2d", "addbmm(ones(2, 2), ones(2, 2), ones(2, 2, 2))", True),
    ("slice_scatter_shape", "slice_scatter(ones(3), ones(2), start=0, end=1)", True),
    ("select_scatter_shape", "select_scatter(ones(2, 3), ones(3), 1, 0)", True),
    ("diagonal_scatter_shape", "diagonal_scatter(ones(2, 3), ones(3))", True),
    ("index_put_float_idx", "index_put(zeros(3, 2), (tensor([0.]),), tensor(1.))", True),
    ("index_put_oob", "index_put(zeros(3, 2), (tensor([5]),), tensor(1.), true)", True),
    ("index_put_dtype", "zeros(3, dtype=i64).index_put_((tensor([1, 1]),), tensor([1.5, 2.]), accumulate=true)", True),
    ("gradient_edge3", "gradient(tensor([1., 2., 4.]), edge_order=3)", True),
    ("gradient_small", "gradient(tensor([1., 4.]), edge_order=2)", True),
    ("gradient_spacing_len", "gradient(tensor([1., 2., 4.]), spacing=[1., 2.])", True),
    ("exponential__int", "empty(3, dtype=i64).exponential_()", True),
    ("geometric__p", "empty(3).geometric_(1.5)", True),
    ("log_normal__std", "empty(3).log_normal_(1., -1.)", True),
    ("random__bounds", "empty(3).random_(5, 5)", True),
    ("bernoulli__p", "empty(3).bernoulli_(1.5)", True),
    ("poisson_neg", "poisson(tensor([-1.]))", True),
    ("set_rng_state_size", "set_rng_state(zeros(10, dtype=u8))", True),
]


def main():
    write_golden("h5_fns.json", "gen_h5.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
