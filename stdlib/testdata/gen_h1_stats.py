# Generates the wants of TestStatsOps and TestStatsOpErrors (stdlib/h1_regress_test.go) with
# PyTorch 1.13: run with /usr/bin/python3 and compare with the test's
# want strings (named tuples print on one line in tsr, True/False as
# true/false).
import torch
from torch import tensor
nan, inf = float("nan"), float("inf")
print(tensor([1, 2, 2, 3, 3]).mode())
print(tensor([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]]).mode(1))
print(tensor([[3., 1, 3, 1, 2], [5, 5, 4, 4, 4]]).mode(0, keepdim=True))
print(tensor([2., nan, nan]).mode(), tensor(5.).mode(), torch.mode(tensor([True, False, False]), dim=0))
w = tensor([1.0, 5.0, 5.0, 2.0], requires_grad=True); r = w.mode(); r.values.backward(); print(r.values, w.grad)
print(torch.isin(tensor([1, 2, 3, 4]), tensor([2, 4])), torch.isin(tensor([1., 2]), 2.0),
      torch.isin(tensor([1, 2]), tensor([2]), invert=True), torch.isin(tensor([1, 2]), tensor([2.0])), torch.isin(2, tensor([1, 2])))
x = tensor([[1., 2, 4], [2, 3, 9.]])
print(torch.cov(x), torch.corrcoef(x), torch.cov(x, correction=0))
print(torch.cov(tensor([1., 2, 4])), torch.cov(tensor([1, 2, 4])), torch.corrcoef(tensor([1., 2, 4])))
print(torch.cov(x, fweights=tensor([1, 2, 1]), aweights=tensor([0.5, 1, 1])))
print(torch.cov(x, aweights=tensor([0.5, 1, 1])), torch.cov(x, fweights=tensor([1, 2, 1])))
q = tensor([[1.0, 2.0, 4.0], [2.0, 3.0, 9.0]], requires_grad=True); torch.cov(q).sum().backward(); print(q.grad)
a, b = tensor([1.0, 2.0]), tensor([4.0, 6.0])
print(a.dist(b), torch.dist(a, b, p=1), torch.dist(a, b, inf), torch.dist(a, b, 0))
z = tensor([1.0, 2.0], requires_grad=True); d = z.dist(b); d.backward(); print(d, z.grad)
try:
    torch.dist(tensor([1, 2]), tensor([3, 4]))
except RuntimeError as e:
    print("RuntimeError:", e)
print(tensor([[3, 1], [1, 2]]).msort(), torch.msort(tensor([2.0, 1.0])))
x = tensor([[0., 1, 2], [2, 1, 0]])
for f in [lambda: torch.cov(x, fweights=torch.ones(1, 3, dtype=torch.long)), lambda: torch.cov(x, aweights=torch.ones(1, 3)),
          lambda: torch.cov(x, fweights=torch.ones(3, dtype=torch.bool)), lambda: torch.cov(x, fweights=tensor([1., 2., 3.])),
          lambda: torch.cov(x, fweights=tensor([1, 0, -1])), lambda: torch.cov(x, aweights=tensor([1., nan, 1.])),
          lambda: torch.cov(x, fweights=tensor([0, 0, 0])), lambda: torch.cov(torch.zeros(2, 0), fweights=torch.zeros(0, dtype=torch.long)),
          lambda: torch.cov(torch.ones(2, 2, dtype=torch.bool)), lambda: torch.isin(tensor([1, 0]), tensor([True])),
          lambda: torch.isin(True, tensor([1]))]:
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
