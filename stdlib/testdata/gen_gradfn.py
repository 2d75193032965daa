#!/usr/bin/python3
"""PyTorch 1.13 grad_fn node names for gradfn_golden.json (TestGradFnNames).

Each case pairs a tsr expression with the same PyTorch expression; the
golden file records type(result.grad_fn).__name__. Inputs: x [3, 4],
v [4], b3 [2, 3, 4], sq [3, 3] (all requiring grad), spd [3, 3] SPD.

    /usr/bin/python3 stdlib/testdata/gen_gradfn.py > stdlib/testdata/gradfn_golden.json

Cases where tsr deliberately follows PyTorch 2.x instead are listed in
TWO_X (1.13 prints ReshapeAliasBackward0 and NormBackward1 there).
"""
import json

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
v = torch.randn(4, requires_grad=True)
b3 = torch.randn(2, 3, 4, requires_grad=True)
sq = torch.randn(3, 3, requires_grad=True)
spd = (sq @ sq.t() + 3 * torch.eye(3)).detach().requires_grad_()
lin = torch.nn.Linear(4, 2)

# (tsr expression, torch expression)
CASES = [
    ("x + 1", "x + 1"), ("x + x", "x + x"), ("x - 1", "x - 1"), ("1 - x", "1 - x"),
    ("x * 2", "x * 2"), ("x / 2", "x / 2"), ("2 / x", "2 / x"), ("-x", "-x"),
    ("x ** 2", "x ** 2"), ("x ** x", "x ** x"), ("2 ** x", "2 ** x"),
    ("x.exp()", "x.exp()"), ("x.log1p()", "x.log1p()"), ("x.expm1()", "x.expm1()"),
    ("x.sum()", "x.sum()"), ("x.sum(0)", "x.sum(0)"), ("x.mean()", "x.mean()"), ("x.mean(1)", "x.mean(1)"),
    ("x.prod()", "x.prod()"), ("x.prod(0)", "x.prod(0)"), ("x.square()", "x.square()"),
    ("x.clamp(0, 1)", "x.clamp(0, 1)"), ("x.relu()", "x.relu()"), ("x.sigmoid()", "x.sigmoid()"),
    ("x @ x.t()", "x @ x.t()"), ("v @ v", "v @ v"), ("x @ v", "x @ v"), ("b3 @ x.t()", "b3 @ x.t()"),
    ("x.mm(x.t())", "x.mm(x.t())"), ("outer(v, v)", "torch.outer(v, v)"),
    ("x.t()", "x.t()"), ("x.T", "x.T"), ("x.mT", "x.mT"), ("x.transpose(0, 1)", "x.transpose(0, 1)"),
    ("x.view(12)", "x.view(12)"), ("x.t().reshape(12)", "x.t().reshape(12)"),
    ("x[0]", "x[0]"), ("x[1:]", "x[1:]"), ("x[:, 1]", "x[:, 1]"), ("x[none]", "x[None]"),
    ("x[tensor([0, 1])]", "x[torch.tensor([0, 1])]"), ("x.unsqueeze(0)", "x.unsqueeze(0)"),
    ("x[none].squeeze()", "x[None].squeeze()"), ("x[none].squeeze(0)", "x[None].squeeze(0)"),
    ("x.narrow(0, 0, 2)", "x.narrow(0, 0, 2)"), ("x.movedim(0, 1)", "x.movedim(0, 1)"),
    ("x.t().contiguous()", "x.t().contiguous()"), ("x.clone()", "x.clone()"), ("x.double()", "x.double()"),
    ("x.max()", "x.max()"), ("x.max(0).values", "x.max(0).values"), ("x.min()", "x.min()"),
    ("x.softmax(0)", "x.softmax(0)"), ("x.log_softmax(1)", "x.log_softmax(1)"), ("x.logsumexp(0)", "x.logsumexp(0)"),
    ("x.cumsum(0)", "x.cumsum(0)"), ("cat([x, x])", "torch.cat([x, x])"), ("stack([x, x])", "torch.stack([x, x])"),
    ("x.flip(0)", "x.flip(0)"), ("x.sort(0).values", "x.sort(0).values"),
    ("nn.mse_loss(x, x.detach() + 1)", "F.mse_loss(x, x.detach() + 1)"),
    ("nn.cross_entropy(x, tensor([0, 1, 2]))", "F.cross_entropy(x, torch.tensor([0, 1, 2]))"),
    ("nn.layer_norm(x, [4])", "F.layer_norm(x, (4,))"),
    ("nn.binary_cross_entropy(x.sigmoid(), ones(3, 4))", "F.binary_cross_entropy(x.sigmoid(), torch.ones(3, 4))"),
    ("einsum(\"ij,kj->ik\", x, x)", "torch.einsum('ij,kj->ik', x, x)"), ("einsum(\"ij->\", x)", "torch.einsum('ij->', x)"),
    ("linalg.inv(spd)", "torch.linalg.inv(spd)"), ("linalg.det(spd)", "torch.linalg.det(spd)"),
    ("linalg.cholesky(spd)", "torch.linalg.cholesky(spd)"), ("linalg.solve(spd, sq)", "torch.linalg.solve(spd, sq)"),
    ("linalg.svd(sq).S", "torch.linalg.svd(sq).S"), ("linalg.vector_norm(x)", "torch.linalg.vector_norm(x)"),
    ("nn.linear(x, w, bias)", "F.linear(x, lin.weight, lin.bias)"), ("nn.linear(v, w, bias)", "F.linear(v, lin.weight, lin.bias)"),
    ("nn.linear(b3, w, bias)", "F.linear(b3, lin.weight, lin.bias)"), ("nn.linear(x, w)", "F.linear(x, lin.weight)"),
    ("sq.median()", "sq.median()"), ("sq.median(0).values", "sq.median(0).values"), ("linalg.cross(sq, sq)", "torch.linalg.cross(sq, sq)"),
    ("sq.cross(sq, dim=1)", "sq.cross(sq, dim=1)"), ("x.index_select(0, tensor([0]))", "x.index_select(0, torch.tensor([0]))"),
    ("x.repeat(2, 1)", "x.repeat(2, 1)"), ("x.tril()", "x.tril()"), ("x.triu()", "x.triu()"),
]
TWO_X = {"x.reshape(12)": "ViewBackward0", "x.flatten()": "ViewBackward0", "x.norm()": "LinalgVectorNormBackward0"}

out = []
for tsr_expr, torch_expr in CASES:
    r = eval(torch_expr)
    out.append({"tsr": tsr_expr, "name": type(r.grad_fn).__name__})
for tsr_expr, name in TWO_X.items():
    out.append({"tsr": tsr_expr, "name": name, "note": "PyTorch 2.x name"})
print(json.dumps({"torch": torch.__version__, "cases": out}, indent=1))
