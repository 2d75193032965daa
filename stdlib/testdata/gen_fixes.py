# Writes fixes_golden.json (TestNewOpsGolden): run from stdlib/testdata with
# PyTorch 1.13. Numbers are Python reprs ("nan" included).
import torch, json
torch.set_default_dtype(torch.float32)
from torch import tensor, nan, inf
setup_py = """
x = tensor([0.25, 0.5, -0.75, 0.0], dtype=torch.float64, requires_grad=True)
p = tensor([0.5, 2.0, 3.5, 1.25], dtype=torch.float64, requires_grad=True)
q = tensor([[1.5, -2.0, 0.25, 3.0]], dtype=torch.float64, requires_grad=True)
w = tensor([0.3, -1.1, 0.7, 2.0], dtype=torch.float64)
"""
setup_tsr = """
x = tensor([0.25, 0.5, -0.75, 0.0], dtype=f64, requires_grad=true)
p = tensor([0.5, 2.0, 3.5, 1.25], dtype=f64, requires_grad=true)
q = tensor([[1.5, -2.0, 0.25, 3.0]], dtype=f64, requires_grad=true)
w = tensor([0.3, -1.1, 0.7, 2.0], dtype=f64)
"""
# (name, expr (same in both languages after substitutions), grads wrt)
cases = [
 ("log2", "p.log2()", "p"), ("log10", "log10(p)", "p"), ("asin", "asin(x)", "x"), ("acos", "x.acos()", "x"),
 ("atan", "atan(x * 3)", "x"), ("sinh", "sinh(x * 2)", "x"), ("cosh", "x.cosh()", "x"), ("asinh", "asinh(x * 4)", "x"),
 ("acosh", "acosh(p + 1)", "p"), ("atanh", "x.atanh()", "x"), ("exp2", "exp2(x * 3)", "x"),
 ("deg2rad", "deg2rad(p * 90)", "p"), ("rad2deg", "x.rad2deg()", "x"), ("sinc", "sinc(x * 3)", "x"),
 ("arctan", "arctan(p)", "p"),
 ("hypot", "hypot(x, q)", "x,q"), ("logaddexp", "logaddexp(x * 500, q)", "x,q"),
 ("fmax", "fmax(x, tensor([nan, 0.5, 1.0, -1.0], dtype=F64))", "x"),
 ("fmin", "fmin(x, tensor([nan, 0.5, 1.0, -1.0], dtype=F64))", "x"),
 ("fmax_both", "fmax(p, q)", "p,q"),
 ("nanmean", "nanmean(x / tensor([1.0, 0.0, 1.0, 0.0], dtype=F64) * 0 + x)", "x"),
 ("nanmean_dim", "(x.reshape(2, 2) + tensor([[nan, 0.0], [0.0, 0.0]], dtype=F64)).nanmean(dim=0)", "x"),
 ("nansum_axis", "(x + tensor([nan, 0.0, 0.0, 1.0], dtype=F64)).nansum(axis=0)", "x"),
 ("ravel", "q.t().ravel() * w", "q"),
 ("logcumsumexp", "logcumsumexp(q * 100, 1)", "q"),
 ("logcumsumexp2", "p.reshape(2, 2).logcumsumexp(0)", "p"),
 ("cumprod_zero", "(x * tensor([1.0, 1.0, 1.0, 0.0], dtype=F64) + tensor([0.0, 0.0, 0.0, 0.0], dtype=F64)).cumprod(0)", "x"),
 ("cross", "cross(p[:3].reshape(1, 3), q[:, 1:])", "p,q"),
 ("kron", "p[:2].kron(q[:, :2])", "p,q"),
 ("sum_axis", "(p * q).sum(axis=1, keepdims=true)", "p,q"),
 ("mean_axis", "(p * q).mean(axis=0)", "p,q"),
 ("amax_axis", "(p * q).amax(axis=-1)", "p,q"),
 ("prod_axis", "(p * q).prod(axis=1)", "p,q"),
 ("std_axis", "(p * q).std(axis=1)", "p,q"),
 ("var_axis", "(p * q).var(axis=1)", "p,q"),
 ("cumsum_axis", "(p * q).cumsum(axis=1)", "p,q"),
 ("logsumexp_axis", "(p * q).logsumexp(axis=1)", "p,q"),
 ("max_axis", "(p * q).max(axis=1).values", "p,q"),
 ("min_axis", "(p * q).min(axis=1, keepdims=true).values", "p,q"),
 ("argmax_axis", "(p * q).argmax(axis=1)", ""),
 ("argmin_axis", "(p * q).argmin(axis=1)", ""),
 ("all_axis", "(p * q > 0).all(axis=1)", ""),
 ("any_axis", "(p * q > 5).any(axis=1)", ""),
 ("logspace", "logspace(-1, 2, 5, base=3.0, dtype=F64)", ""),
 ("logspace_f32", "logspace(0, 3, 4)", ""),
]
out = []
for name, expr, wrt in cases:
    env = {"torch": torch, "tensor": tensor, "nan": nan, "inf": inf, "F64": torch.float64}
    exec(setup_py, env)
    for fn in ["log2","log10","asin","acos","atan","sinh","cosh","asinh","acosh","atanh","exp2","deg2rad","rad2deg","sinc","arctan","hypot","logaddexp","fmax","fmin","nanmean","logcumsumexp","cross","logspace"]:
        env[fn] = getattr(torch, fn)
    r = eval(expr.replace("true", "True"), env)
    grads = []
    if wrt:
        vs = [env[v] for v in wrt.split(",")]
        wt = torch.linspace(-1, 1.5, r.numel(), dtype=r.dtype).reshape(r.shape)
        gs = torch.autograd.grad((r * wt).sum(), vs)
        grads = [[repr(float(v)) for v in g.flatten().tolist()] for g in gs]
    out.append({"name": name, "tsr": setup_tsr + "r = " + expr.replace("F64", "f64").replace("True", "true"),
                "wrt": wrt, "shape": list(r.shape), "dtype": str(r.dtype).replace("torch.", ""),
                "values": [repr(float(v)) for v in r.detach().flatten().tolist()], "grads": grads})
json.dump(out, open("fixes_golden.json", "w"), indent=0)
print(len(out))
