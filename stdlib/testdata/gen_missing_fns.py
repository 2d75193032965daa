#!/usr/bin/env python3
"""Generate stdlib/testdata/missing_fns.json for stdlib/missing_fns_test.go.

Golden values from PyTorch 1.13 for gcd, lcm, ldexp, nextafter (and their
in-place forms), addmv, addr, baddbmm, the in-place addmm_, addmv_, addr_,
baddbmm_, and index_copy/index_copy_: values (dtype, shape, strides),
gradients (cases ending in r = x.grad), grad_fn names and errors (kind,
and the first message line where exact). Each case is written once in
tsr; to_torch() (from gen_ops_more_torch.py) spells it for PyTorch.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_missing_fns.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402
from gen_ops_more_torch import write_golden  # noqa: E402

EXTRA = ["gcd", "lcm", "ldexp", "nextafter", "addmv", "addr", "baddbmm", "addmm", "index_copy", "randn", "full"]


def to_torch(src):
    return base_to_torch(src, EXTRA)


IA = "tensor([-12, 0, 0, 4, 7, -9223372036854775807 - 1, 4611686018427387904, 15])"
IB = "tensor([18, 0, -5, -6, 0, 6, 3, -25])"
FA = "tensor([1., 0., -0., 0., -1., 1e-30, inf, -inf, nan, 2.])"
FB = "tensor([2., -1., 1., -0., -1., 0., 0., inf, 1., nan])"
M = "arange(6.).reshape(2, 3)"
V = "tensor([1., 2., 3.])"
B1 = "arange(12.).reshape(2, 2, 3)"
B2 = "arange(12.).reshape(2, 3, 2)"
X34 = "zeros(3, 4)"


def grad(name, setup, expr, leaves):
    """Gradient cases: backward of sum(expr * weights), one case per leaf."""
    return [(f"{name}_grad_{v}", f"{setup}\ny = {expr}\n(y * arange(1., y.numel() + 1.).reshape(y.shape)).sum()"
             f".backward()\nr = {v}.grad") for v in leaves]


GM = ("m = tensor([[0.3, -0.7, 1.2], [-1.6, 0.9, 0.1]], requires_grad=true)\n"
      "v = tensor([0.8, -2.1, 0.6], requires_grad=true)\ns = tensor([0.5, -1.5], requires_grad=true)")
GR = ("a = tensor([0.3, -0.7], dtype=f64, requires_grad=true)\nb = tensor([0.8, -2.1, 0.6], dtype=f64, requires_grad=true)\n"
      "s = tensor([[0.5, -1.5, 2.], [1., 0.25, -3.]], dtype=f64, requires_grad=true)")
GB = ("p = tensor([[[0.3, -0.7], [1.2, 0.4]], [[-1.6, 0.9], [0.1, 2.]]], requires_grad=true)\n"
      "q = tensor([[[0.8, -2.1, 0.6], [1.5, 0.2, -0.3]], [[0.7, 1.1, -1.], [0.25, -0.5, 2.]]], requires_grad=true)\n"
      "s = tensor([[0.5, -1.5, 2.], [1., 0.25, -3.]], requires_grad=true)")
GI = ("s = tensor([[0.5, -1.5, 2.], [1., 0.25, -3.], [4., -2., 0.75]], requires_grad=true)\n"
      "c = tensor([[1.5, -0.5, 3.], [2., 0.125, -1.]], requires_grad=true)")

CASES = [
    # ---- gcd, lcm ----
    ("gcd_i64", f"r = gcd({IA}, {IB})"),
    ("lcm_i64", f"r = lcm({IA}, {IB})"),
    ("gcd_method", f"r = {IA}.gcd({IB})"),
    ("lcm_method_kw", f"r = {IA}.lcm(other={IB})"),
    ("gcd_i32_i64", "r = gcd(tensor([12, -8], dtype=i32), tensor([18, 6]))"),
    ("gcd_i8_min", "r = gcd(tensor([-128, 6, -128], dtype=i8), tensor([6, -128, 0], dtype=i8))"),
    ("lcm_i8_wrap", "r = lcm(tensor([100, 100, -100, 60], dtype=i8), tensor([3, 2, 3, 7], dtype=i8))"),
    ("lcm_u8_wrap", "r = lcm(tensor([200, 12, 0], dtype=u8), tensor([3, 18, 5], dtype=u8))"),
    ("lcm_i16", "r = lcm(tensor([300, -7], dtype=i16), tensor([250, 9], dtype=i16))"),
    ("lcm_i32_wrap", "r = lcm(tensor([100000, -6], dtype=i32), tensor([30001, 4], dtype=i32))"),
    ("gcd_broadcast", "r = gcd(arange(12).reshape(3, 4), tensor([6, 4, 9, 8]))"),
    ("gcd_0d", "r = gcd(tensor(12), tensor([8, 9]))"),
    ("gcd_transposed", "r = gcd(arange(12).reshape(3, 4).t(), tensor(6))"),
    ("gcd_empty", "r = gcd(zeros(0, 3, dtype=i64), tensor([1, 2, 3]))"),
    ("gcd_", f"r = {IA}\nr.gcd_({IB})"),
    ("lcm_", f"r = {IA}\nr.lcm_({IB})"),
    ("gcd__i8_other_i64", "r = tensor([12, -8], dtype=i8)\nr.gcd_(tensor([18, 6]))"),
    ("lcm__broadcast", "r = arange(6).reshape(2, 3)\nr.lcm_(tensor([4, 6, 10]))"),
    # ---- ldexp ----
    ("ldexp_int_int", "r = ldexp(tensor([1, 2, -3]), tensor([3, -1, 0]))"),
    ("ldexp_f32_int", "r = ldexp(tensor([1.5, -2., 0.25]), tensor([3, -1, 200]))"),
    ("ldexp_f64_int", "r = ldexp(tensor([1.5, -2., 1e-300]), tensor([3, -1, -100]))"),
    ("ldexp_f32_f64", "r = ldexp(tensor([1.5, -2.]), tensor([3., 0.5], dtype=f64))"),
    ("ldexp_f16_int", "r = ldexp(tensor([1.5, -2.], dtype=f16), tensor([3, -1]))"),
    ("ldexp_f16_f16", "r = ldexp(tensor([1.5, -2.], dtype=f16), tensor([3., -1.], dtype=f16))"),
    ("ldexp_i32_i8", "r = ldexp(tensor([1, 2], dtype=i32), tensor([3, -1], dtype=i8))"),
    ("ldexp_broadcast", "r = ldexp(arange(3.).reshape(3, 1), tensor([0, 1, 2, -1]))"),
    ("ldexp_method", "r = tensor([1., 2.]).ldexp(tensor([2, 3]))"),
    ("ldexp_special", "r = ldexp(tensor([inf, -inf, nan, 0., -0.]), tensor([1, 2, 3, -1, 4]))"),
    ("ldexp_", "r = tensor([1., 2., 3.])\nr.ldexp_(tensor([3, -1, 2]))"),
    ("ldexp__f64_f32other", "r = tensor([1., 2.], dtype=f64)\nr.ldexp_(tensor([0.5, -1.]))"),
    *grad("ldexp", "x = tensor([1.5, -0.5, 2.], requires_grad=true)\ne = tensor([1., -2., 0.5], requires_grad=true)",
          "ldexp(x, e)", ("x", "e")),
    # ---- nextafter ----
    ("nextafter_f32", f"r = nextafter({FA}, {FB})"),
    ("nextafter_f64", f"r = nextafter({FA}.to(f64), {FB}.to(f64))"),
    ("nextafter_bf16", f"r = nextafter({FA}.to(bf16), {FB}.to(bf16))"),
    ("nextafter_bf16_more", "r = nextafter(tensor([1., -1., 3e38, 1e-40, -1e-40], dtype=bf16), tensor([0., 0., inf, 1., -1.], dtype=bf16))"),
    ("nextafter_f32_f64", "r = nextafter(tensor([1., 0.]), tensor([2., 3.], dtype=f64))"),
    ("nextafter_max", "r = nextafter(tensor([3.4028234663852886e38, -3.4028234663852886e38]), tensor([inf, -inf]))"),
    ("nextafter_broadcast", "r = nextafter(arange(3.).reshape(3, 1), tensor([-1., 10.]))"),
    ("nextafter_method", "r = tensor([1., 2.]).nextafter(tensor([0., 3.]))"),
    ("nextafter_", "r = tensor([1., 2.])\nr.nextafter_(tensor([0., 3.]))"),
    ("nextafter__f32_f64other", "r = tensor([1., 2.])\nr.nextafter_(tensor([3., -1.], dtype=f64))"),
    ("nextafter__f64_f32other", "r = tensor([1., 2.], dtype=f64)\nr.nextafter_(tensor([3., -1.]))"),
    # ---- addmv ----
    ("addmv", f"r = addmv(tensor([1., 1.]), {M}, {V})"),
    ("addmv_scalars", f"r = addmv(tensor(1.), {M}, {V}, beta=2, alpha=0.5)"),
    ("addmv_beta0_nan", f"r = addmv(tensor([nan, 1.]), {M}, {V}, beta=0)"),
    ("addmv_method", f"r = tensor([1., -1.]).addmv({M}, {V}, alpha=-1)"),
    ("addmv_int", f"r = addmv(tensor([1, 1]), {M}.long(), {V}.long(), beta=2, alpha=3)"),
    ("addmv_int_float_alpha", f"r = addmv(tensor([1, 1]), {M}.long(), {V}.long(), alpha=0.5)"),
    ("addmv_int_input", f"r = addmv(tensor([1, 1]), {M}, {V})"),
    ("addmv_f64", f"r = addmv(tensor([1., 1.], dtype=f64), {M}.to(f64), {V}.to(f64), beta=0.25)"),
    ("addmv_transposed", f"r = addmv(tensor([1., 1., 1.]), {M}.t(), tensor([1., -1.]))"),
    ("addmv_", f"r = tensor([1., 1.])\nr.addmv_({M}, {V}, beta=0.5)"),
    *grad("addmv", GM, "addmv(s, m, v, beta=0.5, alpha=-2)", ("m", "v", "s")),
    # ---- addr ----
    ("addr", f"r = addr(zeros(2, 3), tensor([1., 2.]), {V})"),
    ("addr_scalars", f"r = addr(ones(3), tensor([1., 2.]), {V}, beta=2, alpha=3)"),
    ("addr_beta0_nan", f"r = addr(full([2, 3], nan), tensor([1., 2.]), {V}, beta=0)"),
    ("addr_promote", f"r = addr(zeros(3, 3), {V}.to(f64), {V})"),
    ("addr_int", f"r = addr(ones(3, 3, dtype=i64), {V}.long(), {V}.long(), beta=2, alpha=-1)"),
    ("addr_int_input_float_vecs", f"r = addr(ones(3, 3, dtype=i64), {V}, {V})"),
    ("addr_bool", "b = tensor([true, false, true])\nr = addr(tensor([[false], [true]]), tensor([true, true]), b)"),
    ("addr_bool_beta_int", "b = tensor([true, false])\nr = addr(zeros(2, 2, dtype=bool), b, b, beta=2)"),
    ("addr_bool_alpha_false", "b = tensor([true, false])\nr = addr(ones(2, 2, dtype=bool), b, b, alpha=false)"),
    ("addr_bool_beta_false", "b = tensor([true, false])\nr = addr(ones(2, 2, dtype=bool), b, b, beta=false)"),
    ("addr_bf16", "r = addr(zeros(2, 2, dtype=bf16), ones(2, dtype=bf16), ones(2, dtype=bf16), alpha=0.1)"),
    ("addmv_bf16", "r = addmv(zeros(2, dtype=bf16), ones(2, 2, dtype=bf16), ones(2, dtype=bf16), alpha=0.1)"),
    ("addmv_bool_alpha", "r = addmv(zeros(2), ones(2, 2), ones(2), alpha=true)"),
    ("addr_method", f"r = ones(2, 1).addr(tensor([1., 2.]), {V}, alpha=2)"),
    ("addr_", f"r = ones(2, 3)\nr.addr_(tensor([1., 2.]), {V}, beta=0.5)"),
    *grad("addr", GR, "addr(s, a, b, beta=-0.5, alpha=1.5)", ("a", "b", "s")),
    # ---- baddbmm ----
    ("baddbmm", f"r = baddbmm(ones(2, 2), {B1}, {B2})"),
    ("baddbmm_scalars", f"r = baddbmm(ones(2, 2), {B1}, {B2}, beta=0.5, alpha=2)"),
    ("baddbmm_beta0_nan", f"r = baddbmm(full([2, 2, 2], nan), {B1}, {B2}, beta=0)"),
    ("baddbmm_int_float_alpha", f"r = baddbmm(ones(2, 2, dtype=i64), {B1}.long(), {B2}.long(), alpha=0.5)"),
    ("baddbmm_int", f"r = baddbmm(ones(2, 2, dtype=i64), {B1}.long(), {B2}.long(), beta=3, alpha=2)"),
    ("baddbmm_method", f"r = ones(1, 2).baddbmm({B1}, {B2}, alpha=-1)"),
    ("baddbmm_transposed", f"r = baddbmm(zeros(2, 2), {B2}.transpose(1, 2), {B1}.transpose(1, 2))"),
    ("baddbmm_", f"r = ones(2, 2, 2)\nr.baddbmm_({B1}, {B2}, beta=2)"),
    *grad("baddbmm", GB, "baddbmm(s, p, q, beta=0.5, alpha=-2)", ("p", "q", "s")),
    # ---- addmm_ ----
    ("addmm_", f"r = ones(2, 2)\nr.addmm_({M}, {M}.t())"),
    ("addmm__scalars", f"r = ones(2, 2)\nr.addmm_({M}, {M}.t(), beta=0, alpha=0.5)"),
    *grad("addmm_inplace", "x = tensor([[0.3, -0.7, 1.2], [-1.6, 0.9, 0.1]], requires_grad=true)\n"
          "w = tensor([[0.5, -1.], [1.5, 0.25], [2., -3.]], requires_grad=true)",
          "ones(2, 2).addmm_(x, w, beta=2, alpha=0.5)", ("x", "w")),
    *grad("addmv_inplace", GM, "(s * 1).addmv_(m, v, alpha=3)", ("m", "v", "s")),
    # ---- index_copy ----
    ("index_copy_dim0", f"r = {X34}.index_copy(0, tensor([0, 2]), arange(8.).reshape(2, 4))"),
    ("index_copy_dim1", f"r = {X34}.index_copy(1, tensor([3, 0]), arange(6.).reshape(3, 2))"),
    ("index_copy_neg_dim", f"r = index_copy({X34}, -1, tensor([1]), ones(3, 1))"),
    ("index_copy_kw", f"r = index_copy({X34}, dim=0, index=tensor([1]), source=ones(1, 4))"),
    ("index_copy_0d_index", "r = zeros(5).index_copy(0, tensor(1), tensor(3.))"),
    ("index_copy_0d_self", "r = tensor(5.).index_copy(0, tensor([0]), tensor([3.]))"),
    ("index_copy_scalar_src", "r = zeros(3).index_copy(0, tensor([2]), tensor(1.))"),
    ("index_copy_int", "r = zeros(3, 4, dtype=i64).index_copy(0, tensor([0, 2]), ones(2, 4, dtype=i64))"),
    ("index_copy_bool", "r = zeros(4, dtype=bool).index_copy(0, tensor([3, 1]), tensor([true, false]))"),
    ("index_copy_3d", "r = zeros(2, 3, 2).index_copy(1, tensor([2, 0]), arange(8.).reshape(2, 2, 2))"),
    ("index_copy_empty", f"r = {X34}.index_copy(0, tensor([], dtype=i64), ones(0, 4))"),
    ("index_copy_transposed", f"r = {X34}.t().index_copy(0, tensor([1]), ones(1, 3))"),
    ("index_copy_", f"r = {X34}\nr.index_copy_(1, tensor([2]), ones(3, 1))"),
    *grad("index_copy", GI, "index_copy(s, 0, tensor([2, 0]), c)", ("s", "c")),
    *grad("index_copy_inplace", GI, "(s * 1).index_copy_(1, tensor([1]), c.t()[:, 0:1])", ("s", "c")),
]

GRADFN = [
    ("nextafter", "r = nextafter(tensor([1., 2.], requires_grad=true), tensor([0., 3.]))"),
    ("nextafter_", "r = tensor([1., 2.], requires_grad=true) * 1\nr.nextafter_(tensor([0., 3.]))"),
    ("ldexp", "r = ldexp(tensor([1., 2.], requires_grad=true), tensor([1, 2]))"),
    ("addmv", f"r = addmv(tensor([1., 1.], requires_grad=true), {M}, {V})"),
    ("addmv_beta0", f"r = addmv(tensor([1., 1.]), {M}.requires_grad_(), {V}, beta=0)"),
    ("addmv_", f"r = tensor([1., 1.], requires_grad=true) * 1\nr.addmv_({M}, {V})"),
    ("addr", f"r = addr(zeros(2, 3), tensor([1., 2.], requires_grad=true), {V})"),
    ("addr_", f"r = zeros(2, 3, requires_grad=true) * 1\nr.addr_(tensor([1., 2.]), {V})"),
    ("baddbmm", f"r = baddbmm(ones(2, 2), {B1}.requires_grad_(), {B2})"),
    ("baddbmm_", f"r = ones(2, 2, 2, requires_grad=true) * 1\nr.baddbmm_({B1}, {B2})"),
    ("addmm_", f"r = ones(2, 2, requires_grad=true) * 1\nr.addmm_({M}, {M}.t())"),
    ("index_copy", f"r = {X34}.requires_grad_().index_copy(0, tensor([0]), ones(1, 4))"),
    ("index_copy_src", f"r = {X34}.index_copy(0, tensor([0]), ones(1, 4, requires_grad=true))"),
    ("index_copy_", f"r = {X34}.requires_grad_() * 1\nr.index_copy_(0, tensor([0]), ones(1, 4))"),
]

ERRORS = [
    ("gcd_f32", "gcd(tensor([1., 2.]), tensor([3., 4.]))", True),
    ("gcd_bool", "gcd(tensor([true]), tensor([true]))", True),
    ("gcd_int_float", "gcd(tensor([12]), tensor(18.))", True),
    ("lcm_f64", "lcm(tensor([1.], dtype=f64), tensor([3.], dtype=f64))", True),
    ("lcm_f16_method", "tensor([1.], dtype=f16).lcm(tensor([3.], dtype=f16))", True),
    ("gcd_number", "gcd(tensor([12]), 18)", True),
    ("gcd_broadcast", "gcd(tensor([1, 2]), tensor([1, 2, 3]))", True),
    ("gcd__float", "tensor([1., 2.]).gcd_(tensor([3., 4.]))", True),
    ("gcd__broadcast_self", "tensor([1, 2]).gcd_(tensor([[1], [2]]))", True),
    ("lcm__overlap", "z = arange(6)\nz[1:4].lcm_(z[0:3])", True),
    ("nextafter_int", "nextafter(tensor([1, 0]), tensor([2, 3]))", True),
    ("nextafter_f16", "nextafter(tensor([1.], dtype=f16), tensor([2.], dtype=f16))", True),
    ("nextafter_number", "nextafter(tensor([1.]), 2.)", True),
    ("nextafter_backward", "x = tensor([1., 2.], requires_grad=true)\nnextafter(x, tensor([0., 3.])).sum().backward()", True),
    ("nextafter__leaf", "tensor([1., 2.], requires_grad=true).nextafter_(tensor([0., 3.]))", True),
    ("ldexp_number", "ldexp(tensor([1.]), 3)", True),
    ("gcd__number", "tensor([12]).gcd_(18)", True),
    ("nextafter__number", "tensor([1.]).nextafter_(2.)", True),
    ("ldexp__int", "tensor([1, 2]).ldexp_(tensor([3, -1]))", True),
    ("ldexp__grad", "r = tensor([1., 2.], requires_grad=true) * 1\nr.ldexp_(tensor([1, 2]))", True),
    ("ldexp__grad_other", "tensor([1., 2.]).ldexp_(tensor([1., 2.], requires_grad=true))", True),
    ("ldexp_broadcast", "ldexp(tensor([1., 2.]), tensor([1, 2, 3]))", True),
    ("addmv_size", f"addmv(tensor([1., 1., 1.]), {M}, {V})", True),
    ("addmv_vec_size", f"addmv(tensor([1., 1.]), {M}, ones(2))", True),
    ("addmv_mat_1d", f"addmv(tensor([1., 1.]), {V}, {V})", True),
    ("addmv_vec_2d", f"addmv(tensor([1., 1.]), {M}, {M})", True),
    ("addmv_dtype", f"addmv(tensor([1., 1.]), {M}.to(f64), {V})", True),
    ("addmv__size", f"ones(1).addmv_({M}, {V})", True),
    ("addmv__leaf", f"ones(2, requires_grad=true).addmv_({M}, {V})", True),
    ("addr_vec1_2d", f"addr(zeros(3), tensor([[1., 2.]]), {V})", True),
    ("addr_vec2_2d", f"addr(zeros(3), {V}, {M})", True),
    ("addr_expand", f"addr(zeros(4), {V}, {V})", True),
    ("addr_int_alpha", f"addr(zeros(3, 3, dtype=i64), {V}.long(), {V}.long(), alpha=0.5)", True),
    ("addr_int_beta", f"addr(zeros(3, 3, dtype=i64), {V}.long(), {V}.long(), beta=0.5, alpha=0.5)", True),
    ("addr_bool_alpha_float_result", "addr(zeros(2, 2), ones(2), ones(2), alpha=true)", True),
    ("addr_bool_beta_int_result", "addr(zeros(2, 2, dtype=i64), ones(2, dtype=i64), ones(2, dtype=i64), beta=true)", True),
    ("addmv_bool", "addmv(zeros(2, dtype=bool), ones(2, 2, dtype=bool), tensor([true, false]))", True),
    ("addmv_f16", "addmv(zeros(2, dtype=f16), ones(2, 2, dtype=f16), ones(2, dtype=f16))", True),
    ("baddbmm_bool", "baddbmm(zeros(1, 1, 1, dtype=bool), ones(1, 1, 1, dtype=bool), ones(1, 1, 1, dtype=bool))", True),
    ("baddbmm_f16", "baddbmm(zeros(1, 1, 1, dtype=f16), ones(1, 1, 2, dtype=f16), ones(1, 2, 1, dtype=f16))", True),
    ("addr__size", f"zeros(1, 3).addr_({V}, {V})", True),
    ("addr__cast", f"zeros(3, 3, dtype=i64).addr_({V}, {V})", True),
    ("baddbmm_expand", f"baddbmm(ones(3, 2), {B1}, {B2})", True),
    ("baddbmm_batch1_2d", f"baddbmm(ones(2, 2), {B1}[0], {B2})", True),
    ("baddbmm_batch2_2d", f"baddbmm(ones(2, 2), {B1}, {B2}[0])", True),
    ("baddbmm_inner", f"baddbmm(ones(2, 2), {B1}, {B1})", True),
    ("baddbmm_batch", f"baddbmm(ones(2, 2), {B1}, {B2}[0:1])", True),
    ("baddbmm_dtype", f"baddbmm(ones(2, 2), {B1}, {B2}.to(f64))", True),
    ("baddbmm__size", f"ones(2, 2).baddbmm_({B1}, {B2})", True),
    ("addmm__size", f"ones(1, 2).addmm_({M}, {M}.t())", True),
    ("addmm__shapes", f"ones(2, 2).addmm_({M}, {M})", True),
    ("addmm__leaf", f"ones(2, 2, requires_grad=true).addmm_({M}, {M}.t())", True),
    ("index_copy_index_i32", f"{X34}.index_copy(0, tensor([0, 2], dtype=i32), ones(2, 4))", True),
    ("index_copy_index_float", f"{X34}.index_copy(0, tensor([0., 2.]), ones(2, 4))", True),
    ("index_copy_index_2d", f"{X34}.index_copy(0, tensor([[0, 2]]), ones(2, 4))", True),
    ("index_copy_oob", f"{X34}.index_copy(0, tensor([0, 3]), ones(2, 4))", True),
    ("index_copy_negative", f"{X34}.index_copy(0, tensor([0, -1]), ones(2, 4))", True),
    ("index_copy_count", f"{X34}.index_copy(0, tensor([0, 1, 2]), ones(2, 4))", True),
    ("index_copy_slice", f"{X34}.index_copy(0, tensor([0, 1]), ones(2, 3))", True),
    ("index_copy_slice_3d", "zeros(2, 3, 4).index_copy(1, tensor([0, 2]), ones(3, 2, 5))", True),
    ("index_copy_slice_scalar", "zeros(1, 3).index_copy(0, tensor([0]), tensor(1.))", True),
    ("index_copy_dims", f"{X34}.index_copy(0, tensor([0, 1]), ones(2, 4, 1))", True),
    ("index_copy_scalar_src_count", "zeros(3).index_copy(0, tensor([0, 2]), tensor(1.))", True),
    ("index_copy_dtype", f"{X34}.index_copy(0, tensor([0, 1]), ones(2, 4, dtype=f64))", True),
    ("index_copy_dim_oob", f"{X34}.index_copy(2, tensor([0, 1]), ones(2, 4))", True),
    ("index_copy_0d_oob", "tensor(2.).index_copy(0, tensor([1]), tensor([1.]))", True),
    ("index_copy__leaf", "zeros(3, requires_grad=true).index_copy_(0, tensor([0]), tensor([1.]))", True),
    ("index_copy__overlap", "z = arange(6.)\nz.index_copy_(0, tensor([0, 1]), z[1:3])", True),
    ("index_copy__overlap_index", "z = arange(6)\nz.index_copy_(0, z[0:2], tensor([7, 8]))", True),
]


def main():
    write_golden("missing_fns.json", "gen_missing_fns.py", CASES, GRADFN, ERRORS, to_torch=to_torch)


if __name__ == "__main__":
    main()
