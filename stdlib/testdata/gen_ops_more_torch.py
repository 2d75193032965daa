#!/usr/bin/env python3
"""Generate stdlib/testdata/ops_more_torch.json for stdlib/ops_more_torch_test.go.

Golden values from PyTorch 1.13 for nn.hardtanh, copysign, xlogy,
float_power, logit, heaviside, sgn, erfinv, lgamma, digamma and nn.mish (functions, methods, in-place forms,
gradients, grad_fn names, errors), and for the result layout (strides)
of these ops and of lerp, fmod and isclose. Each case is written once in
tsr; to_torch() spells it for PyTorch. Kinds of case:

  cases   a program leaving a tensor in r; the golden keeps its dtype,
          shape, strides and values (Python reprs: nan, inf and -0.0
          survive JSON). Gradient cases end in r = x.grad.
  gradfn  a program leaving a tensor in r; the golden keeps
          type(r.grad_fn).__name__.
  errors  a program that must fail; the golden keeps PyTorch's exception
          kind and first message line (compared when exact is true).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_ops_more_torch.py
"""
import json
import os
import re

import torch
import torch.nn.functional as F

DTYPES = {"f16": "torch.float16", "bf16": "torch.bfloat16", "f32": "torch.float32", "f64": "torch.float64",
          "i8": "torch.int8", "u8": "torch.uint8", "i16": "torch.int16", "i32": "torch.int32",
          "i64": "torch.int64", "bool": "torch.bool"}
FUNCS = ["tensor", "arange", "zeros", "ones", "copysign", "xlogy", "float_power", "logit", "heaviside",
         "lerp", "fmod", "isclose", "sgn", "erfinv", "lgamma", "digamma"]


def to_torch(src, extra=()):
    """Spell a tsr program for PyTorch (only the subset used below); extra
    names more functions to call as torch.NAME(...)."""
    s = re.sub(r"\bnn\.", "F.", src)
    s = re.sub(r"(?<![\w.])(" + "|".join([*FUNCS, *extra]) + r")\(", r"torch.\1(", s)
    s = re.sub(r"\bdtype=(\w+)", lambda m: "dtype=" + DTYPES[m.group(1)], s)
    s = re.sub(r"\.to\((\w+)\)", lambda m: ".to(" + DTYPES[m.group(1)] + ")", s)
    s = re.sub(r"(?<![\w.'])nan\b", "float('nan')", s)
    s = re.sub(r"(?<![\w.'])inf\b", "float('inf')", s)
    s = re.sub(r"\btrue\b", "True", s)
    s = re.sub(r"\bfalse\b", "False", s)
    s = re.sub(r"\bnone\b", "None", s)
    return s


SPECIAL = "tensor([-2.5, -1., -0.0, 0., 0.5, 1., 3., inf, -inf, nan])"
PROB = "tensor([-0.5, 0., 1e-4, 0.25, 0.5, 0.9, 1., 1.5, nan])"
X34 = "arange(12.).reshape(3, 4)"
Y43 = "arange(12.).reshape(4, 3)"
W = "tensor([[0.5, -1., 2.], [1.5, 0.25, -3.]])"
A = "tensor([[0.3, -0.7, 1.2], [-1.6, 0.9, 0.1]], requires_grad=true)"
B = "tensor([0.8, -2.1, 0.6], requires_grad=true)"
P = "tensor([[0.3, 0.7, 1.2], [1.6, 0.9, 0.1]], requires_grad=true)"
Q = "tensor([0.8, 2.1, 0.6], requires_grad=true)"


def grad_cases(name, setup, expr, wrt=("a", "b")):
    """Gradient cases: backward of sum(expr * W), one case per leaf."""
    out = []
    for v in wrt:
        out.append((f"{name}_grad_{v}", f"{setup}\n(({expr}) * {W}).sum().backward()\nr = {v}.grad"))
    return out


CASES = [
    # ---- nn.hardtanh ----
    ("hardtanh_default", f"r = nn.hardtanh({SPECIAL})"),
    ("hardtanh_bounds", f"r = nn.hardtanh({SPECIAL}, -0.5, 2.)"),
    ("hardtanh_kw", f"r = nn.hardtanh({SPECIAL}, min_val=0., max_val=0.75)"),
    ("hardtanh_min_gt_max", "r = nn.hardtanh(tensor([-2., 0., 3.]), 1., -1.)"),
    ("hardtanh_f64", "r = nn.hardtanh(tensor([-2., 0.3, 3.], dtype=f64), -1.5, 2.5)"),
    ("hardtanh_bf16", "r = nn.hardtanh(tensor([-2., 0.3, 3.], dtype=bf16))"),
    ("hardtanh_int", "r = nn.hardtanh(tensor([-2, 0, 3]), -1.5, 2.5)"),
    ("hardtanh_i32", "r = nn.hardtanh(tensor([-5, -1, 0, 7], dtype=i32), -3., 4.)"),
    ("hardtanh_u8", "r = nn.hardtanh(tensor([0, 3, 200], dtype=u8), 1., 100.)"),
    ("hardtanh_transposed", f"r = nn.hardtanh({X34}.t() - 5, -2., 3.)"),
    ("hardtanh_inplace", "r = tensor([-2., 0.5, 3.])\nnn.hardtanh(r, inplace=true)"),
    ("hardtanh_", "r = tensor([-2., 0.5, 3.])\nnn.hardtanh_(r, -1.5, 1.5)"),
    ("hardtanh_grad", "x = tensor([-2., -1., -0.5, 0., 0.5, 1., 2., nan], requires_grad=true)\n"
                      "(nn.hardtanh(x) * arange(1., 9.)).sum().backward()\nr = x.grad"),
    ("hardtanh_grad_bounds", "x = tensor([-0.5, -0.4999, 0.25, 0.7499, 0.75], requires_grad=true)\n"
                             "nn.hardtanh(x, -0.5, 0.75).sum().backward()\nr = x.grad"),
    ("hardtanh_grad_inplace", "x = tensor([-2., 0.5, 3.], requires_grad=true)\ny = x * 2\n"
                              "nn.hardtanh_(y)\n(y * tensor([1., 2., 3.])).sum().backward()\nr = x.grad"),

    # ---- copysign ----
    ("copysign_special", f"r = copysign({SPECIAL}, tensor([-1., 1., 1., -0.0, -2., 0., -inf, -1., 1., -1.]))"),
    ("copysign_scalar_neg0", f"r = copysign({SPECIAL}, -0.0)"),
    ("copysign_scalar_pos", f"r = {SPECIAL}.copysign(2)"),
    ("copysign_bcast", "r = copysign(tensor([[1.], [-2.], [3.]]), tensor([-1., 0., 1., -0.0]))"),
    ("copysign_int", "r = copysign(tensor([1, 2, -3]), tensor([-1, 0, 1]))"),
    ("copysign_int_scalar", "r = tensor([1, -2]).copysign(-2)"),
    ("copysign_bool", "r = copysign(tensor([true, false]), tensor([false, true]))"),
    ("copysign_f16_scalar", "r = copysign(tensor([1.5, -2.], dtype=f16), -2)"),
    ("copysign_f16_f32", "r = copysign(tensor([1.5, -2.], dtype=f16), tensor([-1., 1.]))"),
    ("copysign_f64_int", "r = copysign(tensor([1.5, -2.], dtype=f64), tensor([-1, 1]))"),
    ("copysign_int_f64_0d", "r = copysign(tensor([1, 2]), tensor(-1., dtype=f64))"),
    ("copysign_transposed", f"r = copysign({X34}.t(), -1)"),
    ("copysign_", "r = tensor([1., -2., 3.])\nr.copysign_(tensor([-1., -1., 1.]))"),
    ("copysign_scalar_", "r = tensor([1., -2., 3.], dtype=f64)\nr.copysign_(-0.0)"),
    *grad_cases("copysign", f"a = {A}\nb = {B}", "copysign(a, b)"),
    ("copysign_grad_zero", "a = tensor([0., -0.0, 2., -3.], requires_grad=true)\n"
                           "copysign(a, tensor([-1., 1., -1., -1.])).sum().backward()\nr = a.grad"),
    ("copysign_grad_scalar", f"a = {A}\n(copysign(a, -1.) * {W}).sum().backward()\nr = a.grad"),

    # ---- xlogy ----
    ("xlogy_special", "r = xlogy(tensor([0., 0., 0., 0., 1., 2., -1., 3., 0.5, inf, nan]), "
                      "tensor([0., inf, nan, -1., nan, 3., 2., 0., -1., 2., 0.]))"),
    ("xlogy_bcast", "r = xlogy(tensor([[0.], [1.5], [-2.]]), tensor([0.5, 2., 7.]))"),
    ("xlogy_scalar_other", "r = xlogy(tensor([0., 1., 2.5]), 3.)"),
    ("xlogy_scalar_self", "r = xlogy(2, tensor([0., 1., 2.5, nan]))"),
    ("xlogy_scalar_self_zero", "r = xlogy(0, tensor([0., 1., inf, nan]))"),
    ("xlogy_method", "r = tensor([1., 2.]).xlogy(tensor([4., 0.5]))"),
    ("xlogy_int", "r = xlogy(tensor([0, 2, 3]), tensor([0, 3, 5]))"),
    ("xlogy_bool", "r = xlogy(tensor([true, false]), tensor([3, 0]))"),
    ("xlogy_int_scalar", "r = xlogy(tensor([2, 0]), 3)"),
    ("xlogy_f64", "r = xlogy(tensor([0.3, 7.], dtype=f64), tensor([1e-300, 1e300], dtype=f64))"),
    ("xlogy_f16", "r = xlogy(tensor([0.3, 7.], dtype=f16), tensor([1e-3, 100.], dtype=f16))"),
    ("xlogy_bf16_f32", "r = xlogy(tensor([0.3, 7.], dtype=bf16), tensor([1e-3, 100.]))"),
    ("xlogy_f32_many", "r = xlogy(arange(1., 9.) * 0.37, arange(1., 9.) * 1.91)"),
    ("xlogy_transposed", f"r = xlogy({X34}.t(), 2.)"),
    ("xlogy_", "r = tensor([0., 1., 2.])\nr.xlogy_(tensor([0., 3., 0.5]))"),
    ("xlogy_scalar_", "r = tensor([0., 1., 2.])\nr.xlogy_(4)"),
    *grad_cases("xlogy", f"a = {A}\nb = {Q}", "xlogy(a, b)"),
    ("xlogy_grad_zero_self", "a = tensor([0., 0., 2.], requires_grad=true)\nb = tensor([0., 4., 3.], requires_grad=true)\n"
                             "xlogy(a, b).sum().backward()\nr = a.grad"),
    ("xlogy_grad_zero_other", "a = tensor([0., 0., 2.], requires_grad=true)\nb = tensor([0., 4., 3.], requires_grad=true)\n"
                              "xlogy(a, b).sum().backward()\nr = b.grad"),
    ("xlogy_grad_scalar_self", f"b = {Q}\n(xlogy(3., b) * {W}).sum().backward()\nr = b.grad"),

    # ---- float_power ----
    ("float_power_f32", "r = float_power(tensor([2., -1.5, 0., 10.]), 3)"),
    ("float_power_int", "r = float_power(tensor([2, -3, 0]), 2)"),
    ("float_power_int_neg", "r = tensor([2, -3, 4]).float_power(-1)"),
    ("float_power_half_exp", "r = float_power(tensor([4., -4., 2.], dtype=f16), 0.5)"),
    ("float_power_tensor_exp", "r = float_power(tensor([[2.], [3.]]), tensor([0.5, -1., 3]))"),
    ("float_power_int_exp", "r = float_power(tensor([1.7, 2.]), tensor([3, -2]))"),
    ("float_power_scalar_base", "r = float_power(2, tensor([0.5, -1., 10.]))"),
    ("float_power_bool", "r = float_power(tensor([true, false]), 2)"),
    ("float_power_precision", "r = float_power(tensor([1.1]), 10)"),
    ("float_power_transposed", f"r = float_power({X34}.t(), 2)"),
    ("float_power_", "r = tensor([1.5, 2.], dtype=f64)\nr.float_power_(tensor([2., 0.5]))"),
    ("float_power_scalar_", "r = tensor([1.5, 2.], dtype=f64)\nr.float_power_(3)"),
    *grad_cases("float_power", f"a = {P}\nb = {Q}", "float_power(a, b)"),
    ("float_power_grad_scalar", f"a = {A}\n(float_power(a, 3) * {W}).sum().backward()\nr = a.grad"),
    ("float_power_grad_base", f"b = {B}\n(float_power(2.5, b) * {W}).sum().backward()\nr = b.grad"),

    # ---- logit ----
    ("logit", f"r = logit({PROB})"),
    ("logit_eps", f"r = logit({PROB}, eps=0.1)"),
    ("logit_eps0", f"r = {PROB}.logit(0.)"),
    ("logit_eps_neg", f"r = {PROB}.logit(-1.)"),
    ("logit_eps_big", "r = logit(tensor([0.3, 0.7]), 2.)"),
    ("logit_f64", "r = logit(tensor([1e-10, 0.3, 0.999999], dtype=f64), eps=1e-6)"),
    ("logit_bf16", "r = logit(tensor([0.01, 0.3, 0.999], dtype=bf16))"),
    ("logit_int", "r = logit(tensor([0, 1, 2]))"),
    ("logit_bool", "r = logit(tensor([true, false]))"),
    ("logit_f32_many", "r = logit(arange(1., 10.) / 10)"),
    ("logit_transposed", f"r = logit(({X34} / 12).t())"),
    ("logit_", "r = tensor([0.25, 0.5, 1.])\nr.logit_()"),
    ("logit_eps_", "r = tensor([0.25, 0.5, 1.])\nr.logit_(eps=0.3)"),
    ("logit_grad", "x = tensor([-0.5, 0., 0.25, 0.5, 0.9, 1., 1.5], requires_grad=true)\n"
                   "(logit(x) * arange(1., 8.)).sum().backward()\nr = x.grad"),
    ("logit_grad_eps", "x = tensor([-0.5, 0., 0.1, 0.25, 0.5, 0.9, 1., 1.5], requires_grad=true)\n"
                       "logit(x, eps=0.1).sum().backward()\nr = x.grad"),
    ("logit_grad_f64", "x = tensor([0.2, 0.75], dtype=f64, requires_grad=true)\nlogit(x).sum().backward()\nr = x.grad"),

    # ---- heaviside ----
    ("heaviside", f"r = heaviside({SPECIAL}, tensor(0.5))"),
    ("heaviside_values_bcast", "r = heaviside(tensor([[0., -1.], [0., 2.]]), tensor([7., 9.]))"),
    ("heaviside_values_nan", "r = tensor([0., 1.]).heaviside(tensor([nan]))"),
    ("heaviside_int", "r = heaviside(tensor([-1, 0, 2]), tensor([7]))"),
    ("heaviside_bool", "r = heaviside(tensor([true, false, false]), tensor([true, false, true]))"),
    ("heaviside_f64", "r = heaviside(tensor([-0.0, 1e-300], dtype=f64), tensor(0.25, dtype=f64))"),
    ("heaviside_transposed", f"r = heaviside({X34}.t() - 4, tensor(0.5))"),
    ("heaviside_", "r = tensor([-1., 0., 2.])\nr.heaviside_(tensor([0.5]))"),
    ("heaviside_int_", "r = tensor([-1, 0, 2])\nr.heaviside_(tensor([3]))"),

    # ---- layout of lerp, fmod, isclose (Task 2) and of the new ops ----
    ("lerp_t_scalar_low", f"r = {X34}.t().lerp({Y43}, 0.3)"),
    ("lerp_t_scalar_high", f"r = lerp({X34}.t(), {Y43}, 0.7)"),
    ("lerp_t_tensor_w", f"r = lerp({X34}.t(), {Y43}, tensor([0.1, 0.6, 0.9]))"),
    ("lerp_end_t", f"r = lerp({Y43}, {X34}.t(), 0.2)"),
    ("lerp_both_t", f"r = lerp({X34}.t(), {X34}.t() * 2, 0.2)"),
    ("lerp_permuted", "r = lerp(arange(24.).reshape(2, 3, 4).permute(2, 0, 1), zeros(4, 2, 3), 0.25)"),
    ("lerp_bf16_t", f"r = lerp({X34}.t().to(bf16), {Y43}.to(bf16), 0.3)"),
    ("lerp_nondense", f"r = lerp({X34}[:, ::2], zeros(3, 2), 0.5)"),
    ("lerp_grad_t", f"x = {X34}.requires_grad_()\ny = x.t().lerp({Y43}, 0.3)\n(y * arange(12.).reshape(4, 3)).sum().backward()\nr = x.grad"),
    ("fmod_t_scalar", f"r = fmod({X34}.t() - 5.5, 2.5)"),
    ("fmod_t_tensor", f"r = ({X34}.t() - 5.5).fmod({Y43} + 1)"),
    ("fmod_int_t", f"r = fmod(arange(12).reshape(3, 4).t() - 5, 3)"),
    ("fmod_permuted", "r = fmod(arange(24.).reshape(2, 3, 4).permute(2, 0, 1), 5)"),
    ("fmod_special", "r = fmod(tensor([5., -5., 0., -0.0, inf, 3., nan]), tensor([0., 3., -2., 2., 2., inf, 1.]))"),
    ("fmod_grad_t", f"x = ({X34} + 1).requires_grad_()\nd = tensor([1.5, 2.5, 3.5], requires_grad=true)\n"
                    f"(x.t().fmod(d) * arange(12.).reshape(4, 3)).sum().backward()\nr = d.grad"),
    ("isclose_t", f"r = isclose({X34}.t(), {Y43})"),
    ("isclose_t_both", f"r = isclose({X34}.t(), {X34}.t() + 1e-7)"),
    ("isclose_other_t", f"r = isclose({Y43}, {X34}.t())"),
    ("isclose_permuted", "r = isclose(arange(24.).reshape(2, 3, 4).permute(2, 0, 1), tensor(5.))"),
    ("isclose_int_t", f"r = isclose(arange(12).reshape(3, 4).t(), arange(12).reshape(4, 3))"),

    # ---- sgn, erfinv, lgamma, digamma, nn.mish ----
    ("sgn_special", f"r = sgn({SPECIAL})"),
    ("sgn_method", "r = tensor([[-3., 0.], [2., -0.0]]).sgn()"),
    ("sgn_int", "r = sgn(tensor([-3, 0, 4]))"),
    ("sgn_u8", "r = sgn(tensor([0, 7], dtype=u8))"),
    ("sgn_bool", "r = sgn(tensor([true, false]))"),
    ("sgn_bf16", "r = sgn(tensor([-0.5, 0., 2.], dtype=bf16))"),
    ("sgn_f16", "r = sgn(tensor([-0.5, 0., 2.], dtype=f16))"),
    ("sgn_transposed", f"r = sgn({X34}.t() - 5)"),
    ("sgn_", "r = tensor([-2., 0., 3.])\nr.sgn_()"),
    ("sgn_grad", "x = tensor([nan, inf, -inf, -0.0, 0., 2., -3.], requires_grad=true)\n"
                 "sgn(x).sum().backward()\nr = x.grad"),
    ("erfinv_special", "r = erfinv(tensor([0., -0.0, 1., -1., 1.5, -2., nan, inf, -inf, 0.5, -0.25]))"),
    ("erfinv_tails", "r = erfinv(tensor([0.9, 0.99, 0.999999, -0.9999999, 1e-6, -1e-30]))"),
    ("erfinv_f64", "r = erfinv(tensor([0.3, -0.7, 0.999999999999, 1e-300, -1.], dtype=f64))"),
    ("erfinv_int", "r = erfinv(tensor([0, 1, -1, 2]))"),
    ("erfinv_bool", "r = erfinv(tensor([true, false]))"),
    ("erfinv_bf16", "r = erfinv(tensor([0.25, -0.5, 0.75, 1.], dtype=bf16))"),
    ("erfinv_f16", "r = erfinv(tensor([0.25, -0.5, 0.75, 1.], dtype=f16))",
     "r = torch.erfinv(torch.tensor([0.25, -0.5, 0.75, 1.], dtype=torch.float16).float()).half()"),
    ("erfinv_method", "r = (arange(12.).reshape(3, 4).t() / 12.).erfinv()"),
    ("erfinv_", "r = tensor([0.1, -0.9, 0.5])\nr.erfinv_()"),
    ("erfinv_grad", "x = tensor([nan, 1., -1., 0., 0.5, 1.5, -0.95], requires_grad=true)\n"
                    "(erfinv(x) * arange(1., 8.)).sum().backward()\nr = x.grad"),
    ("erfinv_grad_f64", "x = tensor([0.1, -0.6, 0.99], dtype=f64, requires_grad=true)\n"
                        "erfinv(x).sum().backward()\nr = x.grad"),
    ("lgamma_poles", "r = lgamma(tensor([0., -0.0, -1., -2., -100., 1., 2., inf, -inf, nan]))"),
    ("lgamma_values", "r = lgamma(tensor([0.5, -0.5, -2.5, 3., 10., 0.001, -0.001, 171.5, 1e10]))"),
    ("lgamma_large", "r = lgamma(tensor([1e30, 1e38, 3e38, -1e30, 4e36]))"),
    ("lgamma_f64", "r = lgamma(tensor([0.5, -0.5, 1e-300, 1e300, 171.6, -3.75, 2.], dtype=f64))"),
    ("lgamma_int", "r = lgamma(tensor([0, 1, 2, 5, -3]))"),
    ("lgamma_bool", "r = lgamma(tensor([true, false]))"),
    ("lgamma_bf16", "r = lgamma(tensor([0.5, 3., -2.5, 0.], dtype=bf16))"),
    ("lgamma_f16", "r = lgamma(tensor([0.5, 3., -2.5, 0.], dtype=f16))",
     "r = torch.lgamma(torch.tensor([0.5, 3., -2.5, 0.], dtype=torch.float16).float()).half()"),
    ("lgamma_method", f"r = ({X34}.t() + 0.5).lgamma()"),
    ("lgamma_", "r = tensor([0.5, 4., -1.5])\nr.lgamma_()"),
    ("lgamma_grad", "x = tensor([nan, 0., -1., -0.5, 1., 2., 0.25, 7.5, inf, -inf], requires_grad=true)\n"
                    "lgamma(x).sum().backward()\nr = x.grad"),
    ("lgamma_grad_f64", "x = tensor([0.3, -1.7, 12.], dtype=f64, requires_grad=true)\n"
                        "(lgamma(x) * tensor([1., 2., 3.], dtype=f64)).sum().backward()\nr = x.grad"),
    ("digamma_poles", "r = digamma(tensor([0., -0.0, -1., -2., 1., 2., 10., inf, -inf, nan]))"),
    ("digamma_values", "r = digamma(tensor([0.5, -0.5, -2.5, 1e-3, -1e-3, 9.99, 10.01, 1e10, 1e20, 1e-30]))"),
    ("digamma_f64", "r = digamma(tensor([0.5, -0.5, -2.5, 1e-3, 9.99, 10., 1e10, 1e20, 1e-300], dtype=f64))"),
    ("digamma_int", "r = digamma(tensor([0, 1, 2, -3]))"),
    ("digamma_bool", "r = digamma(tensor([true, false]))"),
    ("digamma_bf16", "r = digamma(tensor([0.5, 3., -2.5, 0.], dtype=bf16))"),
    ("digamma_f16", "r = digamma(tensor([0.5, 3., -2.5, 0.], dtype=f16))",
     "r = torch.digamma(torch.tensor([0.5, 3., -2.5, 0.], dtype=torch.float16).float()).half()"),
    ("digamma_method", f"r = ({X34}.t() - 5.5).digamma()"),
    ("digamma_", "r = tensor([0.5, 4., -1.5])\nr.digamma_()"),
    ("digamma_grad", "x = tensor([nan, 0., -1., -0.5, 1., 0.25, 7.5, 20., inf, 1e-3], requires_grad=true)\n"
                     "digamma(x).sum().backward()\nr = x.grad"),
    ("digamma_grad_f64", "x = tensor([0.3, -1.7, 12., 1e-5], dtype=f64, requires_grad=true)\n"
                         "digamma(x).sum().backward()\nr = x.grad"),
    ("mish_special", "r = nn.mish(tensor([-100., -20., -1., -0.0, 0., 1., 20., 100., inf, -inf, nan]))"),
    ("mish_f64", "r = nn.mish(tensor([-800., -30., -0.5, 0.5, 30., 800.], dtype=f64))"),
    ("mish_bf16", "r = nn.mish(tensor([-2., 0.3, 3.], dtype=bf16))",
     "r = F.mish(torch.tensor([-2., 0.3, 3.], dtype=torch.bfloat16).float()).bfloat16()"),
    ("mish_f16", "r = nn.mish(tensor([-2., 0.3, 3.], dtype=f16))",
     "r = F.mish(torch.tensor([-2., 0.3, 3.], dtype=torch.float16).float()).half()"),
    ("mish_transposed", f"r = nn.mish({X34}.t() - 5)"),
    ("mish_inplace", "r = tensor([-2., 0.5, 3.])\nnn.mish(r, inplace=true)"),
    ("mish_grad", "x = tensor([nan, -inf, inf, -100., -20., -1., 0., 0.5, 1., 20., 100.], requires_grad=true)\n"
                  "(nn.mish(x) * arange(1., 12.)).sum().backward()\nr = x.grad"),
    ("mish_grad_f64", "x = tensor([-3., -0.2, 0.7, 4.], dtype=f64, requires_grad=true)\n"
                      "nn.mish(x).sum().backward()\nr = x.grad"),
    ("mish_grad_inplace", "x = tensor([-2., 0.5, 3.], requires_grad=true)\ny = x * 2\n"
                          "nn.mish(y, inplace=true)\n(y * tensor([1., 2., 3.])).sum().backward()\nr = x.grad"),
]

GRADFN = [
    ("hardtanh", "r = nn.hardtanh(tensor([0.5, 2.], requires_grad=true))"),
    ("hardtanh_inplace", "r = tensor([0.5, 2.], requires_grad=true) * 1\nnn.hardtanh_(r)"),
    ("copysign_tensor", "r = copysign(tensor([0.5, 2.], requires_grad=true), tensor(-1.))"),
    ("copysign_scalar", "r = tensor([0.5, 2.], requires_grad=true).copysign(-1.)"),
    ("copysign_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.copysign_(tensor([-1., 1.]))"),
    ("copysign_scalar_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.copysign_(-1)"),
    ("xlogy_tensors", "r = xlogy(tensor([0.5, 2.], requires_grad=true), tensor([2., 3.]))"),
    ("xlogy_scalar_self", "r = xlogy(2., tensor([0.5, 2.], requires_grad=true))"),
    ("xlogy_scalar_other", "r = xlogy(tensor([0.5, 2.], requires_grad=true), 3)"),
    ("xlogy_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.xlogy_(tensor([2., 3.]))"),
    ("xlogy_scalar_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.xlogy_(2)"),
    ("float_power_scalar", "r = float_power(tensor([0.5, 2.], requires_grad=true), 2)"),
    ("float_power_tensor", "r = tensor([0.5, 2.], requires_grad=true).float_power(tensor([2., 3.]))"),
    ("float_power_base", "r = float_power(2, tensor([0.5, 2.], requires_grad=true))"),
    ("float_power_", "r = tensor([0.5, 2.], dtype=f64, requires_grad=true) * 1\nr.float_power_(2)"),
    ("logit", "r = logit(tensor([0.5, 0.2], requires_grad=true))"),
    ("logit_eps", "r = tensor([0.5, 0.2], requires_grad=true).logit(eps=0.1)"),
    ("logit_", "r = tensor([0.5, 0.2], requires_grad=true) * 1\nr.logit_()"),
    ("heaviside", "r = heaviside(tensor([0.5, 0.], requires_grad=true), tensor(0.5))"),
    ("heaviside_", "r = tensor([0.5, 0.], requires_grad=true) * 1\nr.heaviside_(tensor(0.5))"),
    ("lerp_scalar", "r = lerp(tensor([0.5, 2.], requires_grad=true), tensor([1., 1.]), 0.3)"),
    ("lerp_tensor", "r = tensor([0.5, 2.], requires_grad=true).lerp(tensor([1., 1.]), tensor([0.3, 0.9]))"),
    ("fmod_scalar", "r = tensor([0.5, 2.], requires_grad=true).fmod(1.5)"),
    ("fmod_tensor", "r = fmod(tensor([0.5, 2.], requires_grad=true), tensor([1.5, 0.7]))"),

    ("sgn", "r = sgn(tensor([0.5, -2.], requires_grad=true))"),
    ("sgn_", "r = tensor([0.5, -2.], requires_grad=true) * 1\nr.sgn_()"),
    ("erfinv", "r = erfinv(tensor([0.5, -0.2], requires_grad=true))"),
    ("erfinv_", "r = tensor([0.5, -0.2], requires_grad=true) * 1\nr.erfinv_()"),
    ("lgamma", "r = tensor([0.5, 2.], requires_grad=true).lgamma()"),
    ("lgamma_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.lgamma_()"),
    ("digamma", "r = digamma(tensor([0.5, 2.], requires_grad=true))"),
    ("digamma_", "r = tensor([0.5, 2.], requires_grad=true) * 1\nr.digamma_()"),
    ("mish", "r = nn.mish(tensor([0.5, 2.], requires_grad=true))"),
    ("mish_inplace", "r = tensor([0.5, 2.], requires_grad=true) * 1\nnn.mish(r, inplace=true)"),
]

ERRORS = [
    ("hardtanh_bool", "nn.hardtanh(tensor([true]))", True),
    ("hardtanh_u8_negative", "nn.hardtanh(tensor([1], dtype=u8))", True),
    ("heaviside_dtypes", "heaviside(tensor([1, 0]), tensor([0.5]))", True),
    ("heaviside_dtypes_0d", "heaviside(tensor([1., 0.]), tensor(0.5, dtype=f64))", True),
    ("heaviside_number", "heaviside(tensor([1., 0.]), 0.5)", True),
    ("heaviside_backward", "x = tensor([1., 0.], requires_grad=true)\nheaviside(x, tensor(0.5)).sum().backward()", True),
    ("float_power__f32", "tensor([2.]).float_power_(2)", True),
    ("float_power__int", "tensor([2]).float_power_(2)", True),
    ("copysign__int", "tensor([1, 2]).copysign_(-1.)", True),
    ("xlogy__int", "tensor([1, 2]).xlogy_(2.)", True),
    ("logit__int", "tensor([1, 2]).logit_()", True),
    ("copysign_shapes", "copysign(ones(2), ones(3))", False),
    ("xlogy_inplace_bcast", "tensor([1.]).xlogy_(ones(3))", False),
    ("fmod_bool", "fmod(tensor([true]), tensor([true]))", True),
    ("fmod_int_zero", "fmod(tensor([1, 2]), 0)", False),

    ("mish_int", "nn.mish(tensor([1, 2]))", True),
    ("mish_bool", "nn.mish(tensor([true]))", True),
    ("erfinv__int", "tensor([1, 2]).erfinv_()", True),
    ("lgamma__int", "tensor([1, 2]).lgamma_()", True),
    ("digamma__bool", "tensor([true]).digamma_()", True),
    ("mish_inplace_leaf", "nn.mish(tensor([1., 2.], requires_grad=true), inplace=true)", True),
]

DTYPE_NAMES = {getattr(torch, v.split(".")[1]): k for k, v in DTYPES.items()}


def run(src, torch_src=None):
    env = {"torch": torch, "F": F}
    exec(torch_src or to_torch(src), env)
    return env


def write_golden(filename, generator, cases_in, gradfn_in, errors_in, to_torch=None):
    """Runs the (name, tsr[, torch override]) value cases, (name, tsr) grad_fn
    cases and (name, tsr, exact) error cases through PyTorch and writes the
    golden JSON beside this script (read by stdlib's checkTorch* tests)."""
    to_torch = to_torch or globals()["to_torch"]
    cases = []
    for name, tsr, *override in cases_in:
        # an override spells the case for PyTorch where tsr differs on
        # purpose (f16/bf16 ops PyTorch 1.13's CPU lacks: computed in f32)
        src = override[0] if override else to_torch(tsr)
        r = run(tsr, src)["r"].detach()
        flat = r.reshape(-1)
        if r.dtype.is_floating_point:
            values = [repr(float(v)) for v in flat.double().tolist()]
        else:
            values = [str(v) for v in flat.tolist()]
        cases.append({"name": name, "tsr": tsr, "torch": src, "dtype": DTYPE_NAMES[r.dtype],
                      "shape": list(r.shape), "strides": list(r.stride()), "values": values})
    gradfn = []
    for name, tsr in gradfn_in:
        r = run(tsr, to_torch(tsr))["r"]
        gradfn.append({"name": name, "tsr": tsr, "torch": to_torch(tsr), "grad_fn": type(r.grad_fn).__name__})
    errors = []
    for name, tsr, exact in errors_in:
        try:
            run(tsr, to_torch(tsr))
        except Exception as e:  # noqa: BLE001 - recording the kind is the point
            errors.append({"name": name, "tsr": tsr, "torch": to_torch(tsr), "kind": type(e).__name__,
                           "msg": str(e).split("\n")[0], "exact": exact})
            continue
        raise SystemExit(f"{name}: torch did not raise")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
    with open(path, "w") as f:
        json.dump({"generator": generator, "torch": torch.__version__,
                   "cases": cases, "gradfn": gradfn, "errors": errors}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases, {len(gradfn)} grad_fn names, {len(errors)} errors to {path}")


def main():
    write_golden("ops_more_torch.json", "gen_ops_more_torch.py", CASES, GRADFN, ERRORS)


if __name__ == "__main__":
    main()
