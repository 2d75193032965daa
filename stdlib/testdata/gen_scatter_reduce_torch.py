#!/usr/bin/env python3
"""Generate stdlib/testdata/scatter_reduce_torch.json for stdlib/scatter_reduce_torch_test.go.

Golden values from PyTorch 1.13 for scatter_reduce / scatter_reduce_
(every reduce with include_self true and false, float, integer and bool
dtypes, gradients, grad_fn names and errors). The case format and the
tsr-to-PyTorch spelling are gen_ops_more_torch.py's (imported from it).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_scatter_reduce_torch.py
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from gen_ops_more_torch import write_golden  # noqa: E402
from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402


def to_torch(src):
    """gen_ops_more_torch's spelling, plus the function form scatter_reduce."""
    return base_to_torch(src, ["scatter_reduce"])

warnings.simplefilter("ignore")  # scatter_reduce is "in beta"

REDUCES = ["sum", "prod", "mean", "amax", "amin"]
S = "tensor([[1., 2., 3.], [4., 5., 6.]])"
IDX = "tensor([[0, 1, 0], [0, 0, 0]])"
SRC = "tensor([[10., 20., 30.], [40., 50., 60.]])"
SI = "tensor([[1, 2, 3], [4, 5, -6]])"
SRCI = "tensor([[10, -21, 30], [40, 50, -61]])"
# gradient inputs: ties (amin: self 3 and src 3 in column 2), a zero for prod
A = "tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=true)"
B = "tensor([[10., 2., 30.], [40., 50., 3.]], requires_grad=true)"
AZ = "tensor([0., 2., 3., 1.5], requires_grad=true)"
BZ = "tensor([0., 0., 4., 5., 2., 0.5], requires_grad=true)"
IZ = "tensor([0, 0, 1, 1, 2, 0])"
W = "tensor([[1., -2., 3.], [0.5, 5., -6.]])"
WZ = "tensor([1., 2., -3., 0.5])"

CASES = []
GRADFN = []
for red in REDUCES:
    for inc in ["true", "false"]:
        n = f"{red}_{'self' if inc == 'true' else 'noself'}"
        CASES += [
            (f"{n}_f32", f"r = {S}.scatter_reduce(0, {IDX}, {SRC}, \"{red}\", include_self={inc})"),
            (f"{n}_dim1_f64", f"r = {S}.to(f64).scatter_reduce(1, tensor([[2, 2, 0, 2], [1, 1, 1, 0]]), "
                              f"tensor([[1.5, -2., 7., 0.25], [3., -1., 2., 8.]], dtype=f64), \"{red}\", include_self={inc})"),
            (f"{n}_i64", f"r = {SI}.scatter_reduce(0, {IDX}, {SRCI}, \"{red}\", include_self={inc})"),
            (f"{n}_fn", f"r = scatter_reduce({S}, -2, {IDX}, {SRC}, reduce=\"{red}\", include_self={inc})"),
            (f"{n}_inplace", f"r = {S}\nr.scatter_reduce_(0, {IDX}, {SRC}, \"{red}\", include_self={inc})"),
            (f"{n}_nan", f"r = tensor([1., nan, 3.]).scatter_reduce(0, tensor([0, 0, 1, 1]), "
                         f"tensor([nan, 2., 5., 1.]), \"{red}\", include_self={inc})"),
            (f"{n}_grad_a", f"a = {A}\nb = {B}\n(a.scatter_reduce(0, {IDX}, b, \"{red}\", include_self={inc}) * {W}).sum().backward()\nr = a.grad"),
            (f"{n}_grad_b", f"a = {A}\nb = {B}\n(a.scatter_reduce(0, {IDX}, b, \"{red}\", include_self={inc}) * {W}).sum().backward()\nr = b.grad"),
            (f"{n}_zgrad_a", f"a = {AZ}\nb = {BZ}\n(a.scatter_reduce(0, {IZ}, b, \"{red}\", include_self={inc}) * {WZ}).sum().backward()\nr = a.grad"),
            (f"{n}_zgrad_b", f"a = {AZ}\nb = {BZ}\n(a.scatter_reduce(0, {IZ}, b, \"{red}\", include_self={inc}) * {WZ}).sum().backward()\nr = b.grad"),
        ]
        if red != "mean":
            CASES.append((f"{n}_bool", f"r = tensor([true, false, false]).scatter_reduce(0, tensor([0, 0, 1, 2]), "
                                       f"tensor([false, true, false, false]), \"{red}\", include_self={inc})"))
        GRADFN.append((f"{n}_gradfn", f"a = {A}\nr = a.scatter_reduce(0, {IDX}, {SRC}, \"{red}\", include_self={inc})"))
CASES += [
    ("mean_u8_wrap", "r = tensor([2, 3], dtype=u8).scatter_reduce(0, tensor([0, 0]), tensor([5, 250], dtype=u8), \"mean\")"),
    ("sum_u8_wrap", "r = tensor([2, 3], dtype=u8).scatter_reduce(0, tensor([0, 0]), tensor([5, 250], dtype=u8), \"sum\")"),
    ("amin_i8_noself", "r = tensor([2, 3], dtype=i8).scatter_reduce(0, tensor([0, 0]), tensor([5, -128], dtype=i8), \"amin\", include_self=false)"),
    ("amax_i32_noself", "r = tensor([2, 3], dtype=i32).scatter_reduce(0, tensor([1]), tensor([-7], dtype=i32), \"amax\", include_self=false)"),
    ("mean_i64_floor", "r = tensor([2, 3]).scatter_reduce(0, tensor([0, 0]), tensor([5, -8]), \"mean\", include_self=false)"),
    ("mean_f16", "r = tensor([1., 2., 3.], dtype=f16).scatter_reduce(0, tensor([0, 0, 0]), tensor([1000., 0.1, 3.], dtype=f16), \"mean\")"),
    ("prod_0d", "r = tensor(2.).scatter_reduce(0, tensor(0), tensor(5.), \"prod\")"),
    ("prod_empty_index", "r = tensor([2., 3.]).scatter_reduce(0, tensor([], dtype=i64), tensor([5.]), \"prod\", include_self=false)"),
    ("sum_transposed", "r = arange(6.).reshape(2, 3).t().scatter_reduce(0, tensor([[0], [2]]), tensor([[1.], [2.]]), \"sum\")"),
    ("amax_3d_dim1", "r = arange(24.).reshape(2, 3, 4).scatter_reduce(1, tensor([[[0, 1], [0, 0]], [[2, 2], [1, 0]]]), "
                     "-arange(8.).reshape(2, 2, 2) * 3, \"amax\")"),
]
GRADFN.append(("inplace_gradfn", f"a = {A}\nr = a * 1\nr.scatter_reduce_(0, {IDX}, {SRC}, \"mean\")"))

ERRORS = [
    ("bad_reduce", f"{S}.scatter_reduce(0, {IDX}, {SRC}, \"max\")", True),
    ("index_i32", f"{S}.scatter_reduce(0, {IDX}.to(i32), {SRC}, \"sum\")", True),
    ("src_dtype", f"{S}.scatter_reduce(0, {IDX}, {SRC}.to(f64), \"sum\")", True),
    ("index_too_big", f"{S}.scatter_reduce(0, tensor([[0, 1, 0, 0]]), {SRC}, \"sum\")", True),
    ("index_oob", f"{S}.scatter_reduce(0, tensor([[5]]), {SRC}, \"sum\")", True),
    ("index_negative", f"{S}.scatter_reduce(0, tensor([[-1]]), {SRC}, \"sum\")", True),
    ("index_rank", f"{S}.scatter_reduce(0, tensor([0]), {SRC}, \"sum\")", True),
    ("src_rank", f"{S}.scatter_reduce(0, {IDX}, tensor([1., 2.]), \"sum\")", True),
    ("bad_dim", f"{S}.scatter_reduce(2, {IDX}, {SRC}, \"sum\")", True),
    ("src_number", f"{S}.scatter_reduce(0, {IDX}, 5.0, \"sum\")", False),
    ("src_small", f"{S}.scatter_reduce(0, {IDX}, {SRC}[:1], \"sum\")", True),
    ("bool_mean", "tensor([true]).scatter_reduce(0, tensor([0]), tensor([false]), \"mean\")", True),
    ("inplace_leaf", f"{A}.scatter_reduce_(0, {IDX}, {SRC}, \"sum\")", True),
]


def main():
    write_golden("scatter_reduce_torch.json", "gen_scatter_reduce_torch.py", CASES, GRADFN, ERRORS, to_torch)

if __name__ == "__main__":
    main()
