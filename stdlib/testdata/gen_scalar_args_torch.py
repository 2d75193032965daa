#!/usr/bin/env python3
"""Generate stdlib/testdata/scalar_args_torch.json for stdlib/scalar_args_torch_test.go.

Golden values from PyTorch 1.13 for Python numbers given to ops as
arguments: add/sub's alpha= (checked against the result dtype, converted
to it, int results wrapping and float ones not) and the overflow check
c10::checked_convert applies when a number is converted to a tensor's
dtype (where, pow's exponent, fill_, full, full_like, new_full,
masked_fill, index_fill, scatter's value, linspace, clamp), next to the
ops that take the number unchecked and give inf (add, mul, tensor(),
float pow). The case format and the tsr-to-PyTorch spelling are
gen_ops_more_torch.py's (imported from it).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_scalar_args_torch.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops_more_torch import write_golden  # noqa: E402
from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402

EXTRA = ["add", "sub", "where", "full", "full_like", "linspace", "pow"]


def to_torch(src):
    """gen_ops_more_torch's spelling, plus the function forms used here."""
    return base_to_torch(src, EXTRA)


X = "tensor([1.5, -2., 0.25])"
I = "tensor([1, -2, 3])"
B = "tensor([true, false, true])"
H = "ones(3, dtype=f16)"
BF = "ones(3, dtype=bf16)"
C = "tensor([true, false, true])"

CASES = [
    # ---- alpha: int other * alpha in the result dtype ----
    ("alpha_f32_bigint", f"r = {X}.add(2**62, alpha=4)"),
    ("alpha_f32_bigint_sub", f"r = {X}.sub(2**62, alpha=4)"),
    ("alpha_f32_bigint_tensor", f"r = {X}.add(tensor(2**62), alpha=4)"),
    ("alpha_f32_bigalpha", f"r = {X}.add(3, alpha=2**62)"),
    ("alpha_f32_int_tensor_bigalpha", f"r = {X}.add(tensor([3, 1, -1]), alpha=2**62)"),
    ("alpha_i64_wraps", f"r = {I}.add(2**62, alpha=4)"),
    ("alpha_i64_wraps_tensor", f"r = {I}.add(tensor([2**62]), alpha=4)"),
    ("alpha_i64_bigalpha", f"r = {I}.add({I}, alpha=2**62)"),
    ("alpha_i8_wraps", f"r = {I}.to(i8).add(100, alpha=3)"),
    ("alpha_i8_wraps_big_other", f"r = {I}.to(i8).add(1000, alpha=3)"),
    ("alpha_int_float_other", f"r = {I}.add(1.5, alpha=2.5)"),
    ("alpha_int_float_tensor", f"r = {I}.add({X}, alpha=2.5)"),
    ("alpha_float_int_tensor", f"r = {X}.add({I}, alpha=2.5)"),
    ("alpha_int_alpha_float_result", f"r = {I}.add({X}, alpha=2)"),
    ("alpha_f64_float", f"r = {X}.to(f64).sub({I}, alpha=0.1)"),
    ("alpha_f64_huge", f"r = {X}.to(f64).add(2, alpha=1e308)"),
    ("alpha_inf", f"r = {X}.add(1, alpha=inf)"),
    ("alpha_f16", f"r = {H}.add(1, alpha=65504)"),
    ("alpha_f16_inf", f"r = {H}.add(1, alpha=inf)"),
    ("alpha_f16_neg", f"r = {H}.sub(tensor([1., 2., 3.], dtype=f16), alpha=-300)"),
    ("alpha_bf16", f"r = {BF}.add(1, alpha=70000)"),
    ("alpha_function", f"r = add({X}, {I}, alpha=-3)"),
    ("alpha_inplace", f"x = {X}\nx.add_(2**62, alpha=4)\nr = x"),
    ("alpha_inplace_sub", f"x = {I}\nx.sub_({I}, alpha=3)\nr = x"),
    ("alpha_int_zero", f"r = {I}.add({I}, alpha=0)"),
    ("alpha_i32_big", f"r = {I}.to(i32).add(1, alpha=70000)"),
    # ---- alpha on bool tensors ----
    ("alpha_bool_int", f"r = {B}.add({B}, alpha=2)"),
    ("alpha_bool_true", f"r = {B}.add({B}, alpha=true)"),
    ("alpha_bool_false", f"r = {B}.add({B}, alpha=false)"),
    ("alpha_bool_zero", f"r = {B}.add({B}, alpha=0)"),
    ("alpha_bool_neg", f"r = {B}.add(tensor([false, true, true]), alpha=-1)"),
    ("alpha_bool_number_true", f"r = {B}.add(true, alpha=2)"),
    ("alpha_bool_int_number", f"r = {B}.add(1, alpha=2)"),
    ("alpha_bool_float_tensor", f"r = {B}.add({X}, alpha=2.5)"),
    ("alpha_bool_int_tensor", f"r = {B}.add({I}, alpha=2)"),
    ("alpha_int_bool_tensor", f"r = {I}.add({B}, alpha=3)"),
    ("alpha_float_bool_tensor", f"r = {X}.add({B}, alpha=2.5)"),
    ("alpha_grad", f"x = tensor([1., 2.], requires_grad=true)\ny = tensor([3., 4.], requires_grad=true)\n"
                   "(x.sub(y, alpha=2.5) * tensor([1., -2.])).sum().backward()\nr = y.grad"),
    ("alpha_grad_f64_other", f"x = tensor([1., 2.], dtype=f64, requires_grad=true)\ny = tensor([3., 4.], requires_grad=true)\n"
                             "x.add(y, alpha=0.1).sum().backward()\nr = y.grad"),
    ("alpha_grad_f64_value", f"x = tensor([1., 2.], dtype=f64)\ny = tensor([0.1, 0.3])\nr = x.add(y, alpha=0.1)"),
    # ---- numbers converted without a check: inf, not an error ----
    ("noraise_add", f"r = {H}.add(70000)"),
    ("noraise_mul", f"r = {H} * 70000."),
    ("noraise_bf16_add", f"r = {BF}.add(1e39)"),
    ("noraise_tensor", "r = tensor([70000., -1e39], dtype=f16)"),
    ("noraise_pow_f32", "r = ones(2).pow(1e39)"),
    ("noraise_pow_bf16", f"r = {BF}.pow(70000.)"),
    ("noraise_pow_f16_inf", f"r = {H}.pow(inf)"),
    ("noraise_pow_f16_max", f"r = {H}.pow(65504.)"),
    ("noraise_pow_number_base", f"r = 70000. ** {H}"),
    ("noraise_pow_int_float_exp", "r = ones(2, dtype=i8).pow(1e39)"),
    ("noraise_where_bf16", f"r = where({C}, {BF}, 70000.)"),
    ("noraise_where_f16_int", f"r = where({C}, {H}, 300)"),
    ("noraise_where_numbers", f"r = where({C}, 70000., 2.)"),
    ("noraise_where_f16_tensor", f"r = where({C}, tensor(70000.), {H})"),
    ("noraise_fill_inf", f"r = {H}.fill_(-inf)"),
    ("noraise_full_inf", "r = full([2], inf, dtype=f16)"),
    ("noraise_full_like_f32", f"r = full_like({H}, 70000., dtype=f32)"),
    ("noraise_fill_bf16", f"r = {BF}.fill_(70000.)"),
    ("noraise_masked_fill_f32", f"r = ones(3).masked_fill({C}, 70000.)"),
    ("noraise_linspace_inf", "r = linspace(0, inf, 3, dtype=f16)"),
    ("noraise_clamp_bf16", f"r = {BF}.clamp(min=300)"),
    ("noraise_eq", "r = tensor([inf, 1.], dtype=f16).eq(70000)"),
]

GRADFN = [
    ("alpha_add", "x = tensor([1., 2.], requires_grad=true)\nr = x.add(3, alpha=2)"),
]

ERRORS = [
    # ---- alpha ----
    ("alpha_int_float", f"{I}.add(1, alpha=2.5)", True),
    ("alpha_int_float_one", f"{I}.add({I}, alpha=1.0)", True),
    ("alpha_int_float_sub", f"{I}.sub({I}, alpha=2.5)", True),
    ("alpha_int_float_function", f"add({I}, {I}, alpha=0.5)", True),
    ("alpha_int_float_inplace", f"{I}.add_({I}, alpha=2.5)", True),
    ("alpha_bool_float", f"{B}.add({B}, alpha=2.5)", True),
    ("alpha_bool_number_float", f"{B}.add(true, alpha=2.0)", True),
    ("alpha_bool_float_result", f"{X}.add({I}, alpha=true)", True),
    ("alpha_bool_int_result", f"{I}.add({B}, alpha=true)", True),
    ("alpha_bool_f32", f"{X}.add({X}, alpha=true)", True),
    ("alpha_bool_sub", f"{B}.sub({B}, alpha=true)", True),
    ("alpha_f32_overflow", f"{X}.add(1, alpha=1e308)", True),
    ("alpha_f32_overflow_max", f"{X}.add(1, alpha=3.4028235e38)", True),
    ("alpha_f16_overflow", "zeros(2, dtype=f16).add(1, alpha=70000)", True),
    ("alpha_f16_overflow_sub", f"{H}.sub(1, alpha=70000)", True),
    ("alpha_f16_overflow_tensor", f"{H}.add({H}, alpha=65520)", True),
    ("alpha_f16_overflow_inplace", f"{H}.add_(1, alpha=-65519)", True),
    ("alpha_bf16_overflow", f"{BF}.add(1, alpha=3.4e38)", True),
    ("alpha_i8_overflow", f"{I}.to(i8).add(1, alpha=1000)", True),
    ("alpha_u8_overflow", f"{I}.abs().to(u8).add(1, alpha=-257)", True),
    ("alpha_i8_float", f"{I}.to(i8).add(1, alpha=1e39)", True),
    ("alpha_string", f"{X}.add(1, alpha=\"a\")", False),
    # ---- numbers converted with c10's overflow check ----
    ("where_f16", f"where({C}, {H}, 70000.)", True),
    ("where_f16_left", f"where({C}, 70000., {H})", True),
    ("where_f16_int", f"where({C}, {H}, 2**40)", True),
    ("where_bf16", f"where({C}, {BF}, 1e39)", True),
    ("where_f32", f"where({C}, ones(3), 1e39)", True),
    ("where_numbers", f"where({C}, 1e39, 2.)", True),
    ("where_i8", f"where({C}, ones(3, dtype=i8), 300)", True),
    ("pow_f16", f"{H}.pow(70000.)", True),
    ("pow_f16_int", f"{H}.pow(70000)", True),
    ("pow_f16_neg", f"{H}.pow(-65520.)", True),
    ("pow_f16_operator", f"{H} ** 70000.", True),
    ("pow_f16_function", f"pow({H}, 70000.)", True),
    ("pow_f16_inplace", f"{H}.pow_(70000.)", True),
    ("pow_bf16", f"{BF}.pow(1e39)", True),
    ("pow_i8", "ones(2, dtype=i8).pow(300)", True),
    ("pow_i16", "ones(2, dtype=i16).pow(40000)", True),
    ("fill_f16", f"{H}.fill_(70000.)", True),
    ("fill_f16_tensor", f"{H}.fill_(tensor(70000.))", True),
    ("fill_bf16", f"{BF}.fill_(1e39)", True),
    ("fill_f32", "ones(2).fill_(1e39)", True),
    ("full_f16", "full([2], 70000., dtype=f16)", True),
    ("full_f16_int", "full([2], 70000, dtype=f16)", True),
    ("full_bf16", "full([2], 1e39, dtype=bf16)", True),
    ("full_f32", "full([2], 1e39)", True),
    ("full_like_f16", f"full_like({H}, 70000.)", True),
    ("new_full_f16", f"{H}.new_full([2], 70000.)", True),
    ("masked_fill_f16", f"{H}.masked_fill({C}, 70000.)", True),
    ("masked_fill_f16_tensor", f"{H}.masked_fill({C}, tensor(70000.))", True),
    ("masked_fill_inplace_f16", f"{H}.masked_fill_({C}, 70000.)", True),
    ("masked_fill_bf16", f"{BF}.masked_fill({C}, 1e39)", True),
    ("index_fill_f16", f"{H}.index_fill(0, tensor([0]), 70000.)", True),
    ("index_fill_inplace_f16", f"{H}.index_fill_(0, tensor([0]), 70000.)", True),
    ("index_fill_f16_tensor", f"{H}.index_fill(0, tensor([0]), tensor(70000.))", True),
    ("scatter_f16", f"{H}.scatter(0, tensor([0]), 70000.)", True),
    ("scatter_f16_value", f"{H}.scatter(0, tensor([0]), value=70000.)", True),
    ("linspace_f16", "linspace(0, 70000, 3, dtype=f16)", True),
    ("linspace_f16_start", "linspace(70000, 0, 3, dtype=f16)", True),
    ("linspace_bf16", "linspace(0, 1e39, 3, dtype=bf16)", True),
    ("clamp_bf16", f"{BF}.clamp(max=1e39)", True),
    ("clamp_bf16_min", f"{BF}.clamp(min=-1e39)", True),
    ("clamp_inplace_bf16", f"{BF}.clamp_(max=1e39)", True),
    ("clamp_f32", "ones(2).clamp(max=1e39)", True),
    ("clamp_i8", "ones(2, dtype=i8).clamp(min=300)", True),
]


def main():
    write_golden("scalar_args_torch.json", "gen_scalar_args_torch.py", CASES, GRADFN, ERRORS, to_torch)


if __name__ == "__main__":
    main()
