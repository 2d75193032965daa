"""Golden results for autograd's version-counter and in-place cases, from PyTorch.

Run: /usr/bin/python3 tensor/autograd/testdata/gen_version_golden.py > tensor/autograd/testdata/version_golden.json
Each case records whether backward raised, the versions PyTorch reports, and the gradients.
"""
import json, re, torch

def run(name, fn):
    rec = {"name": name}
    try:
        grads = fn()
        rec["error"] = False
        rec["grads"] = {k: v.tolist() for k, v in grads.items()}
    except RuntimeError as e:
        msg = str(e)
        rec["error"] = True
        m = re.search(r"is at version (\d+); expected version (\d+)", msg)
        if m:
            rec["found"], rec["expected"] = int(m.group(1)), int(m.group(2))
        rec["leaf_error"] = "a leaf Variable that requires grad" in msg
    return rec

cases = []

def pow_then_add_():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    with torch.no_grad():
        x.add_(5.0)
    y.sum().backward()
    return {"x": x.grad}
cases.append(run("pow_then_add_", pow_then_add_))

def mul_self_then_add_():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    with torch.no_grad():
        x.add_(5.0)
    y.sum().backward()
    return {"x": x.grad}
cases.append(run("mul_self_then_add_", mul_self_then_add_))

def sigmoid_then_mul_():
    a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    s = torch.sigmoid(a)
    s.mul_(2.0)
    s.sum().backward()
    return {"a": a.grad}
cases.append(run("sigmoid_then_mul_", sigmoid_then_mul_))

def detach_zero_():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = w.exp()
    y.detach().zero_()
    y.sum().backward()
    return {"w": w.grad}
cases.append(run("detach_zero_", detach_zero_))

def slice_inplace():
    a = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    b = a.clone()
    b[0] *= 10
    b.sum().backward()
    return {"a": a.grad}
cases.append(run("slice_inplace", slice_inplace))

def slice_inplace_mul_by_tensor():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    k = torch.tensor(4.0, requires_grad=True)
    b = a * 1.0
    b[1:] *= k
    (b * b).sum().backward()
    return {"a": a.grad, "k": k.grad}
cases.append(run("slice_inplace_mul_by_tensor", slice_inplace_mul_by_tensor))

def expand_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.expand(3, 2)
    (y * torch.arange(6.0).reshape(3, 2)).sum().backward()
    return {"x": x.grad}
cases.append(run("expand_grad", expand_grad))

def as_strided_overlap():
    x = torch.arange(6.0, requires_grad=True)
    y = x.as_strided([2, 3], [1, 1])
    y.sum().backward()
    return {"x": x.grad}
cases.append(run("as_strided_overlap", as_strided_overlap))

def leaf_inplace():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    w.add_(1.0)
    return {"w": w}
cases.append(run("leaf_inplace", leaf_inplace))

def versions():
    x = torch.zeros(3)
    out = [x._version]
    x.add_(1); out.append(x._version)
    v = x[1:]
    v.mul_(2); out.append(x._version)
    x[0] = 5; out.append(x._version)
    x.zero_(); out.append(x._version)
    x.copy_(torch.ones(3)); out.append(x._version)
    return {"versions": torch.tensor(out)}
cases.append(run("versions", versions))

print(json.dumps(cases, indent=1))
