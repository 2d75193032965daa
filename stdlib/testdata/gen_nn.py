# Generates nn_golden.json: reference values for stdlib's nn functions and
# their gradients, computed with PyTorch (run with /usr/bin/python3).
import json, math
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
cases = []

def add(name, args, out, grads=None):
    cases.append({"name": name, "args": args, "out": out, "grads": grads or {}})

logits = [[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [-1.0, 0.0, 4.0]]
target = [0, 1, 2]
for red in ["mean", "sum", "none"]:
    x = torch.tensor(logits, requires_grad=True)
    l = F.cross_entropy(x, torch.tensor(target), reduction=red)
    l.sum().backward()
    add("cross_entropy", {"input": logits, "target": target, "reduction": red}, l.tolist(), {"input": x.grad.tolist()})
x = torch.tensor(logits, requires_grad=True)
l = F.cross_entropy(x, torch.tensor([0, -100, 2]))
l.backward()
add("cross_entropy", {"input": logits, "target": [0, -100, 2], "reduction": "mean"}, l.tolist(), {"input": x.grad.tolist()})
x = torch.tensor(logits, requires_grad=True)
w = [1.0, 2.0, 0.5]
l = F.cross_entropy(x, torch.tensor(target), weight=torch.tensor(w))
l.backward()
add("cross_entropy_weight", {"input": logits, "target": target, "weight": w}, l.tolist(), {"input": x.grad.tolist()})
probs = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.0, 0.5, 0.5]]
x = torch.tensor(logits, requires_grad=True)
l = F.cross_entropy(x, torch.tensor(probs))
l.backward()
add("cross_entropy_probs", {"input": logits, "target": probs}, l.tolist(), {"input": x.grad.tolist()})
x = torch.tensor(logits, requires_grad=True)
l = F.cross_entropy(x, torch.tensor(target), label_smoothing=0.2)
l.backward()
add("cross_entropy_smooth", {"input": logits, "target": target, "label_smoothing": 0.2}, l.tolist(), {"input": x.grad.tolist()})

a = [[1.0, 2.0, 4.0, -1.0], [0.5, 0.25, -3.0, 2.0]]
x = torch.tensor(a, requires_grad=True)
wt = torch.tensor([1.0, 0.5, 2.0, -1.0], requires_grad=True)
bs = torch.tensor([0.1, 0.2, 0.3, 0.4], requires_grad=True)
y = F.layer_norm(x, [4], wt, bs)
(y * torch.arange(8.0).reshape(2, 4)).sum().backward()
add("layer_norm", {"input": a, "weight": wt.tolist(), "bias": bs.tolist()}, y.tolist(),
    {"input": x.grad.tolist(), "weight": wt.grad.tolist(), "bias": bs.grad.tolist()})

# scaled_dot_product_attention written out (torch 1.13 predates F.sdpa)
q = torch.arange(24.0).reshape(1, 2, 3, 4) / 10
k = torch.cos(torch.arange(24.0)).reshape(1, 2, 3, 4)
v = torch.sin(torch.arange(24.0)).reshape(1, 2, 3, 4)
def sdpa(q, k, v, causal):
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if causal:
        s = s.masked_fill(~torch.ones(3, 3, dtype=torch.bool).tril(), float("-inf"))
    return torch.softmax(s, -1) @ v
for causal in [False, True]:
    qq = q.clone().requires_grad_()
    o = sdpa(qq, k, v, causal)
    o.sum().backward()
    add("sdpa", {"q": q.tolist(), "k": k.tolist(), "v": v.tolist(), "is_causal": causal}, o.tolist(), {"q": qq.grad.tolist()})

x = torch.tensor([1.0, 2.0], requires_grad=True)
t = torch.tensor([1.5, 3.0])
l = F.mse_loss(x, t)
l.backward()
add("mse_loss", {"input": x.tolist(), "target": t.tolist()}, l.tolist(), {"input": x.grad.tolist()})

json.dump(cases, open("nn_golden.json", "w"), indent=1)
