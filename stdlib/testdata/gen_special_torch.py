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

EXTRA = ["polygamma", "full", "erfc"]


def to_torch(src):
    """gen_ops_more_torch's spelling, plus special.* and polygamma."""
    s = re.sub(r"(?<![\w.])special\.", "torch.special.", src)
    # the string "none" is not the constant none
    return base_to_torch(s.replace('"none"', '"NONE"'), EXTRA).replace('"NONE"', '"none"')


XT = "tensor([[0.1, 0.5, 0.9, 0.3], [0.2, 0.7, 0.4, 0.6], [0.05, 0.95, 0.5, 0.8]]).t()"
YT = "tensor([[0., 1., 0.5], [1., 0., 0.25], [0.5, 0.5, 1.], [0., 1., 0.]])"
WT = "tensor([[1., 2., 3.], [0.5, 1., 2.], [1., 1., 1.], [2., 0., 1.]])"

EDGE = "tensor([-2.5, -1., -0.0, 0., 0.5, 1., 3., 40., inf, -inf, nan])"
POS = "tensor([0.1, 0.5, 1., 2.5, 7., 12.5, 1e3, inf, nan])"
G = "tensor([0.3, 1.7, 2.5], requires_grad=true)"

SPECIAL_CASES = []
for f32 in (True, False):
    sfx, cast = ("f32", "") if f32 else ("f64", ".to(f64)")
    for fn, arg in [("expit", EDGE), ("logit", "tensor([0., 0.25, 0.5, 1., 1.5, nan])"), ("erf", EDGE),
                    ("erfc", EDGE), ("erfinv", "tensor([-1., -0.5, 0., 0.75, 1., 2., nan])"),
                    ("gammaln", EDGE), ("digamma", EDGE), ("psi", POS), ("ndtr", EDGE), ("entr", EDGE),
                    ("sinc", EDGE), ("round", "tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7])"),
                    ("log1p", EDGE), ("expm1", EDGE), ("exp2", EDGE)]:
        SPECIAL_CASES.append((f"special_{fn}_{sfx}", f"r = special.{fn}({arg}{cast})"))
    for n in (0, 1, 2, 3, 5):
        SPECIAL_CASES.append((f"polygamma_{n}_{sfx}", f"r = polygamma({n}, {EDGE}{cast})"))
    SPECIAL_CASES += [
        (f"special_polygamma_{sfx}", f"r = special.polygamma(2, {POS}{cast})"),
        (f"polygamma_method_{sfx}", f"r = {POS}{cast}.polygamma(4)"),
        (f"zeta_{sfx}", f"r = special.zeta(tensor([2., 1., 0.5, 3., 2., 4.5, 2., 30.]){cast}, "
                        f"tensor([1., 1., 1., -2., -1.5, 0.5, 1e9, 2.]){cast})"),
        (f"zeta_broadcast_{sfx}", f"r = special.zeta(tensor([[2.], [3.]]){cast}, tensor([0.5, 1., 10.]){cast})"),
        (f"multigammaln_{sfx}", f"r = special.multigammaln(tensor([2.5, 3., 10.]){cast}, 3)"),
        (f"xlogy_{sfx}", f"r = special.xlogy(tensor([0., 2., 3.]){cast}, tensor([0., 0.5, inf]){cast})"),
        (f"softmax_{sfx}", f"r = special.softmax(tensor([[1., 2.], [3., -inf]]){cast}, 1)"),
        (f"log_softmax_{sfx}", f"r = special.log_softmax(tensor([[1., 2.], [3., 0.]]){cast}, 0)"),
        (f"logsumexp_{sfx}", f"r = special.logsumexp(tensor([[1., 2.], [3., 1000.]]){cast}, 1)"),
    ]
SPECIAL_CASES += [
    ("multigammaln_pole", "r = special.multigammaln(tensor([0.5, 1., 3.]), 3)"),
    ("multigammaln_int", "r = special.multigammaln(tensor([2, 3]), 1)"),
    ("zeta_number", "r = special.zeta(2., tensor([1., 2.]))"),
    ("zeta_int", "r = special.zeta(tensor([2, 3]), 1)"),
    ("polygamma_int", "r = polygamma(2, tensor([1, 2]))"),
    ("erfc_int", "r = erfc(tensor([0, 1]))"),
    ("erfc_method", "r = tensor([0.5, 2.]).erfc()"),
    ("erfc_inplace", "x = tensor([0.5, 2.])\nx.erfc_()\nr = x"),
    ("ndtr_int", "r = special.ndtr(tensor([0, 1]))"),
    ("entr_int", "r = special.entr(tensor([0, 1, 2]))"),
    ("ndtr_transposed", "r = special.ndtr(arange(6.).reshape(2, 3).t())"),
    # gradients (torch's formulas; torch's own results)
    ("grad_erfc", f"x = {G}\n(erfc(x) * tensor([1., -2., 3.])).sum().backward()\nr = x.grad"),
    ("grad_ndtr", f"x = {G}\n(special.ndtr(x) * tensor([1., -2., 3.])).sum().backward()\nr = x.grad"),
    ("grad_entr", f"x = {G}\n(special.entr(x) * tensor([1., -2., 3.])).sum().backward()\nr = x.grad"),
    ("grad_polygamma", f"x = {G}\n(polygamma(2, x) * tensor([1., -2., 3.])).sum().backward()\nr = x.grad"),
    ("grad_polygamma0", f"x = {G}\npolygamma(0, x).sum().backward()\nr = x.grad"),
    ("grad_multigammaln", f"x = {G}\nspecial.multigammaln(x + 1, 2).sum().backward()\nr = x.grad"),
    ("grad_expit", f"x = {G}\nspecial.expit(x).sum().backward()\nr = x.grad"),
    ("grad_gammaln", f"x = {G}.detach().to(f64).requires_grad_()\nspecial.gammaln(x).sum().backward()\nr = x.grad"),
]

CASES = SPECIAL_CASES + [
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
    ("erfc", f"x = {G}\nr = erfc(x)"),
    ("ndtr", f"x = {G}\nr = special.ndtr(x)"),
    ("entr", f"x = {G}\nr = special.entr(x)"),
    ("polygamma", f"x = {G}\nr = polygamma(3, x)"),
    ("polygamma0", f"x = {G}\nr = x.polygamma(0)"),
    ("bce_none", f"x = {XT}.detach().requires_grad_()\nr = nn.binary_cross_entropy(x, {YT}, reduction=\"none\")"),
]

ERRORS = [
    ("polygamma_negative", "polygamma(-1, tensor([1.]))", True),
    ("multigammaln_p", "special.multigammaln(tensor([2.]), 0)", True),
]


def main():
    write_golden("special_torch.json", "gen_special_torch.py", CASES, GRADFN, ERRORS, to_torch)


if __name__ == "__main__":
    main()
