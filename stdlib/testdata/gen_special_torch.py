#!/usr/bin/env python3
"""Generate stdlib/testdata/special_torch.json for stdlib/special_torch_test.go.

Golden values from PyTorch 1.13 for the special module (torch.special),
polygamma, and the layout (strides) of nn.binary_cross_entropy with
reduction="none". The case format and the tsr-to-PyTorch spelling are
gen_ops_more_torch.py's (imported from it); special.f(...) is spelled
torch.special.f(...).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_special_torch.py
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops_more_torch import write_golden  # noqa: E402
from gen_ops_more_torch import to_torch as base_to_torch  # noqa: E402

EXTRA = ["polygamma", "full"]


def to_torch(src):
    """gen_ops_more_torch's spelling, plus special.* and polygamma."""
    s = re.sub(r"(?<![\w.])special\.", "torch.special.", src)
    s = re.sub(r"(?<![\w.])(" + "|".join(EXTRA) + r")\(", r"torch.\1(", s)
    # the string "none" is not the constant none
    return base_to_torch(s.replace('"none"', '"NONE"')).replace('"NONE"', '"none"')


XT = "tensor([[0.1, 0.5, 0.9, 0.3], [0.2, 0.7, 0.4, 0.6], [0.05, 0.95, 0.5, 0.8]]).t()"
YT = "tensor([[0., 1., 0.5], [1., 0., 0.25], [0.5, 0.5, 1.], [0., 1., 0.]])"
WT = "tensor([[1., 2., 3.], [0.5, 1., 2.], [1., 1., 1.], [2., 0., 1.]])"

CASES = [
    # ---- nn.binary_cross_entropy(reduction="none") keeps the input's layout ----
    ("bce_none_transposed", f"r = nn.binary_cross_entropy({XT}, {YT}, reduction=\"none\")"),
    ("bce_none_both_transposed", f"r = nn.binary_cross_entropy({XT}, {YT}.t().contiguous().t(), reduction=\"none\")"),
    ("bce_none_target_transposed", f"r = nn.binary_cross_entropy({XT}.contiguous(), {YT}.t().contiguous().t(), reduction=\"none\")"),
    ("bce_none_weight", f"r = nn.binary_cross_entropy({XT}, {YT}, weight={WT}, reduction=\"none\")"),
    ("bce_none_weight_transposed", f"r = nn.binary_cross_entropy({XT}, {YT}, weight={WT}.t().contiguous().t(), reduction=\"none\")"),
    ("bce_none_f64", f"r = nn.binary_cross_entropy({XT}.to(f64), {YT}.to(f64), reduction=\"none\")"),
    ("bce_none_grad", f"x = {XT}.detach().requires_grad_()\n"
                      f"(nn.binary_cross_entropy(x, {YT}, reduction=\"none\") * arange(12.).reshape(4, 3)).sum().backward()\nr = x.grad"),
    ("bce_mean_transposed", f"r = nn.binary_cross_entropy({XT}, {YT})"),
]

GRADFN = [
    ("bce_none", f"x = {XT}.detach().requires_grad_()\nr = nn.binary_cross_entropy(x, {YT}, reduction=\"none\")"),
]

ERRORS = [
]


def main():
    write_golden("special_torch.json", "gen_special_torch.py", CASES, GRADFN, ERRORS, to_torch)


if __name__ == "__main__":
    main()
