#!/usr/bin/env python3
"""Generate stdlib/testdata/s11_nn.json and s11_nn_programs.json for
stdlib/s11_nn_test.go (session 11, helper h3).

s11_nn.json (read by the checkTorch* helpers): PyTorch 1.13 values for
optim.lr_scheduler.OneCycleLR (lr and momentum / beta1 sequences),
nn.init.orthogonal_ (shapes and the properties the test checks itself),
in-place activations (values and errors), interpolate mode="bicubic"
(values and gradients, align_corners both ways) and their errors.

s11_nn_programs.json: whole programs (del m.attr on layers,
nn.ParameterDict, ParameterList printing, del on ModuleDict / ModuleList,
in-place activation semantics), each written in tsr and in Python, with
PyTorch's output spelled as tsr prints (true/false/none, f64 for
torch.float64 / torch.DoubleTensor, [2, 3] for torch.Size([2, 3])).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_s11_nn.py
"""
import contextlib
import io
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gen_ops_more_torch import write_golden  # noqa: E402
from gen_widen_nn import to_torch, MODEL  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def sched(name, opt, ctor, steps, key=None):
    """lr after construction and after each step; with key, the group's
    momentum (or beta1 when key is "betas") instead."""
    if key is None:
        read = "sch.get_last_lr()[0]"
    elif key == "betas":
        read = "opt.param_groups[0][\"betas\"][0]"
    else:
        read = f"opt.param_groups[0][\"{key}\"]"
    body = f"opt.step()\nsch.step()\nl.append({read})\n" * steps
    return (name, f"{MODEL}opt = {opt}\nsch = {ctor}\nl = [{read}]\n{body}r = tensor(l, dtype=f64)")


SGD = "optim.SGD(m.parameters(), lr=0.5, momentum=0.9)"
ADAM = "optim.Adam(m.parameters(), lr=0.5)"
OC = "optim.lr_scheduler.OneCycleLR"
ONECYCLE = [
    sched("onecycle_default", SGD, f"{OC}(opt, max_lr=1.0, total_steps=10)", 10),
    sched("onecycle_momentum", SGD, f"{OC}(opt, max_lr=1.0, total_steps=10)", 10, "momentum"),
    sched("onecycle_adam_beta1", ADAM, f"{OC}(opt, max_lr=0.1, total_steps=12)", 12, "betas"),
    sched("onecycle_adam_lr", ADAM, f"{OC}(opt, max_lr=0.1, total_steps=12)", 12),
    sched("onecycle_linear", SGD, f"{OC}(opt, max_lr=2.0, total_steps=9, anneal_strategy=\"linear\")", 9),
    sched("onecycle_three_phase", SGD, f"{OC}(opt, max_lr=1.0, total_steps=20, three_phase=true)", 20),
    sched("onecycle_three_phase_mom", SGD, f"{OC}(opt, max_lr=1.0, total_steps=20, three_phase=true)", 20, "momentum"),
    sched("onecycle_epochs", SGD, f"{OC}(opt, max_lr=0.3, epochs=3, steps_per_epoch=4, pct_start=0.25, div_factor=10.0, final_div_factor=100.0)", 12),
    sched("onecycle_no_cycle_mom", "optim.SGD(m.parameters(), lr=0.5)", f"{OC}(opt, max_lr=1.0, total_steps=6, cycle_momentum=false)", 6),
    sched("onecycle_moms", SGD, f"{OC}(opt, max_lr=1.0, total_steps=7, base_momentum=0.5, max_momentum=0.99, pct_start=0.5)", 7, "momentum"),
    ("onecycle_groups", f"{MODEL}opt = optim.SGD([{{\"params\": [m.weight]}}, {{\"params\": [m.bias], \"lr\": 0.1}}], lr=0.5, momentum=0.9)\n"
     f"sch = {OC}(opt, max_lr=[1.0, 0.2], total_steps=5)\nl = []\n"
     + "opt.step()\nsch.step()\nl.append(sch.get_last_lr()[0])\nl.append(sch.get_last_lr()[1])\n" * 4 + "r = tensor(l, dtype=f64)"),
    ("onecycle_group_keys", f"{MODEL}opt = {SGD}\nsch = {OC}(opt, max_lr=1.0, total_steps=5)\ng = opt.param_groups[0]\n"
     "r = tensor([g[\"initial_lr\"], g[\"max_lr\"], g[\"min_lr\"], g[\"max_momentum\"], g[\"base_momentum\"], g[\"lr\"], g[\"momentum\"]], dtype=f64)"),
    ("onecycle_base_lrs", f"{MODEL}opt = {SGD}\nsch = {OC}(opt, max_lr=1.0, total_steps=5)\nr = tensor(sch.base_lrs, dtype=f64)"),
    ("onecycle_training", f"{MODEL}opt = {SGD}\nsch = {OC}(opt, max_lr=0.5, total_steps=6)\n"
     + "opt.zero_grad()\nnn.mse_loss(m(x), y).backward()\nopt.step()\nsch.step()\n" * 6 + "r = cat([m.weight.flatten(), m.bias])"),
]

ONECYCLE_ERRORS = [
    ("onecycle_no_steps", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0)", True),
    ("onecycle_total_zero", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0, total_steps=0)", True),
    ("onecycle_epochs_zero", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0, epochs=0, steps_per_epoch=2)", True),
    ("onecycle_pct_int", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0, total_steps=5, pct_start=1)", True),
    ("onecycle_pct_range", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0, total_steps=5, pct_start=1.5)", True),
    ("onecycle_anneal", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=1.0, total_steps=5, anneal_strategy=\"exp\")", True),
    ("onecycle_no_momentum", f"{MODEL}opt = optim.Adagrad(m.parameters())\n{OC}(opt, max_lr=1.0, total_steps=5)", True),
    ("onecycle_max_lr_count", f"{MODEL}opt = {SGD}\n{OC}(opt, max_lr=[1.0, 2.0, 3.0], total_steps=5)", True),
    ("onecycle_past_end", f"{MODEL}opt = {SGD}\nsch = {OC}(opt, max_lr=1.0, total_steps=3)\n" + "sch.step()\n" * 4, True),
]


ORTHO = [
    ("orthogonal_f64", "manual_seed(3)\nw = zeros(4, 6, dtype=f64)\nnn.init.orthogonal_(w)\nr = w"),
    ("orthogonal_tall_gain", "manual_seed(4)\nw = zeros(7, 3, dtype=f64)\nnn.init.orthogonal_(w, gain=1.5)\nr = w"),
    ("orthogonal_conv", "manual_seed(5)\nw = zeros(3, 2, 2, 2, dtype=f64)\nnn.init.orthogonal_(w)\nr = w"),
    ("orthogonal_square", "manual_seed(6)\nw = zeros(5, 5, dtype=f64)\nnn.init.orthogonal_(w)\nr = w"),
    ("orthogonal_returns_self", "manual_seed(6)\nw = zeros(2, 3, dtype=f64)\nr = nn.init.orthogonal_(w) * 1"),
    ("orthogonal_then_randn", "manual_seed(7)\nw = zeros(3, 4, dtype=f64)\nnn.init.orthogonal_(w)\nr = randn(5, dtype=f64)"),
]
ORTHO_ERRORS = [
    ("orthogonal_1d", "nn.init.orthogonal_(zeros(3))", True),
]

XA = "a = tensor([-2.0, -0.5, 0.25, 1.5, 3.0, 7.0], requires_grad=true)\ny = a * 1\n"
W6 = "(y * tensor([1.0, -2.0, 3.0, 0.5, -1.5, 2.5])).sum().backward()\nr = a.grad"
ACTS = [  # (name, call on y with inplace=true, module form)
    ("relu", "nn.relu(y, inplace=true)", "nn.ReLU(inplace=true)(y)"),
    ("relu6", "nn.relu6(y, inplace=true)", "nn.ReLU6(inplace=true)(y)"),
    ("elu", "nn.elu(y, 0.5, true)", "nn.ELU(0.5, inplace=true)(y)"),
    ("celu", "nn.celu(y, alpha=2.0, inplace=true)", "nn.CELU(2.0, inplace=true)(y)"),
    ("selu", "nn.selu(y, true)", "nn.SELU(inplace=true)(y)"),
    ("leaky_relu", "nn.leaky_relu(y, 0.2, inplace=true)", "nn.LeakyReLU(0.2, inplace=true)(y)"),
    ("hardtanh", "nn.hardtanh(y, -1.0, 2.0, inplace=true)", "nn.Hardtanh(-1.0, 2.0, inplace=true)(y)"),
    ("hardsigmoid", "nn.hardsigmoid(y, inplace=true)", "nn.Hardsigmoid(inplace=true)(y)"),
    ("hardswish", "nn.hardswish(y, inplace=true)", "nn.Hardswish(inplace=true)(y)"),
    ("silu", "nn.silu(y, inplace=true)", "nn.SiLU(inplace=true)(y)"),
    ("mish", "nn.mish(y, inplace=true)", "nn.Mish(inplace=true)(y)"),
    ("threshold", "nn.threshold(y, 0.5, -3.0, inplace=true)", "nn.Threshold(0.5, -3.0, inplace=true)(y)"),
]
UNDERSCORE = [
    ("relu_", "nn.relu_(y)"), ("elu_", "nn.elu_(y, alpha=0.5)"), ("celu_", "nn.celu_(y)"), ("selu_", "nn.selu_(y)"),
    ("leaky_relu_", "nn.leaky_relu_(y, 0.3)"), ("hardtanh_", "nn.hardtanh_(y, 0.0, 2.0)"), ("threshold_", "nn.threshold_(y, 1.0, 9.0)"),
]
INPLACE = []
INPLACE_GRADFN = []
for n, call, mod in ACTS:
    INPLACE.append((f"inplace_{n}_value", f"{XA}{call}\nr = y.detach()"))
    INPLACE.append((f"inplace_{n}_grad", f"{XA}{call}\n{W6}"))
    INPLACE.append((f"inplace_{n}_module", f"{XA}{mod}\n{W6}"))
    INPLACE.append((f"inplace_{n}_version", f"{XA}v = y._version\nz = {call}\nr = tensor([y._version - v, float(z is y)])"))
    INPLACE_GRADFN.append((f"inplace_{n}_gradfn", f"{XA}r = {call}"))
    INPLACE_GRADFN.append((f"inplace_{n}_module_gradfn", f"{XA}r = {mod}"))
for n, call in UNDERSCORE:
    INPLACE.append((f"f_{n}_grad", f"{XA}{call}\n{W6}"))
    INPLACE_GRADFN.append((f"f_{n}_gradfn", f"{XA}r = {call}"))
INPLACE += [
    ("inplace_relu_no_grad", "x = tensor([-1.0, 2.0], requires_grad=true)\nno_grad { nn.relu(x, inplace=true) }\nr = x",
     "x = torch.tensor([-1.0, 2.0], requires_grad=True)\nwith torch.no_grad():\n    F.relu(x, inplace=True)\nr = x"),
    ("inplace_view", "x = tensor([[-1.0, 2.0], [3.0, -4.0]])\nnn.elu(x[:, 0], inplace=true)\nr = x"),
    ("inplace_view_grad", "a = tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=true)\ny = a * 1\nnn.leaky_relu(y[0], 0.5, inplace=true)\n"
     "(y * tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()\nr = a.grad"),
    ("inplace_false_keeps", "x = tensor([-1.0, 2.0])\ny = nn.relu(x, inplace=false)\nr = x"),
]
INPLACE_ERRORS = [
    ("inplace_leaf", "a = tensor([1.0, -1.0], requires_grad=true)\nnn.relu(a, inplace=true)", True),
    ("inplace_leaf_module", "a = tensor([1.0, -1.0], requires_grad=true)\nnn.ELU(inplace=true)(a)", True),
    ("inplace_leaf_underscore", "a = tensor([1.0, -1.0], requires_grad=true)\nnn.leaky_relu_(a)", True),
    ("inplace_saved", "a = tensor([1.0, -1.0], requires_grad=true)\nb = a.exp()\nnn.silu(b, inplace=true)\nb.sum().backward()", False),
]


# inputs from exact arithmetic only (no sin/cos, whose f32 results may
# differ from torch's in the last bit)
X4 = "x = ((arange(24.).reshape(1, 2, 3, 4) * 37) % 17 - 8) / 4"
X4B = "x = ((arange(60.).reshape(2, 1, 5, 6) * 29) % 23 - 11) / 8 * 3"
G = ("x = x.double().requires_grad_()\ny = {e}\n"
     "(y * (arange(1., y.numel() + 1., dtype=f64) * 0.731).sin().reshape(y.shape)).sum().backward()\nr = x.grad")
BIC = 'mode="bicubic"'
BICUBIC = [
    ("bicubic_up", f"{X4}\nr = nn.interpolate(x, size=(5, 7), {BIC})"),
    ("bicubic_up_align", f"{X4}\nr = nn.interpolate(x, size=(5, 7), {BIC}, align_corners=true)"),
    ("bicubic_down", f"{X4B}\nr = nn.interpolate(x, size=(3, 4), {BIC})"),
    ("bicubic_down_align", f"{X4B}\nr = nn.interpolate(x, size=(2, 3), {BIC}, align_corners=true)"),
    ("bicubic_scale", f"{X4}\nr = nn.interpolate(x, scale_factor=2.5, {BIC})"),
    ("bicubic_scale_pair", f"{X4B}\nr = nn.interpolate(x, scale_factor=(0.6, 1.7), {BIC})"),
    ("bicubic_recompute", f"{X4B}\nr = nn.interpolate(x, scale_factor=(0.6, 1.7), {BIC}, recompute_scale_factor=true)"),
    ("bicubic_same", f"{X4B}\nr = nn.interpolate(x, size=(5, 6), {BIC})"),
    ("bicubic_same_h", f"{X4B}\nr = nn.interpolate(x, size=(5, 9), {BIC})"),
    ("bicubic_to_1", f"{X4B}\nr = nn.interpolate(x, size=(1, 1), {BIC}, align_corners=true)"),
    ("bicubic_to_1_half", f"{X4B}\nr = nn.interpolate(x, size=(1, 2), {BIC})"),
    ("bicubic_from_1", "x = tensor([[[[2.0, -1.0]]]])\nr = nn.interpolate(x, size=(3, 5), mode=\"bicubic\")"),
    ("bicubic_f64", f"{X4}\nr = nn.interpolate(x.double(), size=(7, 9), {BIC})"),
    ("bicubic_f64_align", f"{X4B}\nr = nn.interpolate(x.double(), size=(8, 4), {BIC}, align_corners=true)"),
    ("bicubic_transposed", f"{X4}\nr = nn.interpolate(x.transpose(2, 3), size=(6, 5), {BIC})"),
    ("bicubic_overshoot", "x = tensor([[[[0.0, 0.0, 10.0, 0.0, 0.0]]]])\nr = nn.interpolate(x, size=(1, 11), mode=\"bicubic\")"),
    ("bicubic_upsample_layer", f"{X4}\nr = nn.Upsample(scale_factor=2, {BIC})(x)"),
    ("bicubic_grad", f"{X4}\n" + G.format(e=f"nn.interpolate(x, size=(5, 7), {BIC})")),
    ("bicubic_grad_align", f"{X4}\n" + G.format(e=f"nn.interpolate(x, size=(5, 7), {BIC}, align_corners=true)")),
    ("bicubic_grad_down", f"{X4B}\n" + G.format(e=f"nn.interpolate(x, size=(3, 2), {BIC})")),
    ("bicubic_grad_scale", f"{X4B}\n" + G.format(e=f"nn.interpolate(x, scale_factor=1.5, {BIC})")),
]
BICUBIC_GRADFN = [("bicubic_gradfn", f"{X4}\nx.requires_grad_()\nr = nn.interpolate(x, size=(5, 7), {BIC})")]
BICUBIC_ERRORS = [
    ("bicubic_3d", "nn.interpolate(ones(1, 2, 3), size=4, mode=\"bicubic\")", True),
    ("bicubic_5d", "nn.interpolate(ones(1, 1, 2, 3, 4), size=(2, 3, 4), mode=\"bicubic\")", True),
    ("bicubic_int", "nn.interpolate(ones(1, 1, 2, 2, dtype=i64), size=(3, 3), mode=\"bicubic\")", True),
    ("bicubic_zero", "nn.interpolate(ones(1, 1, 2, 2), size=(0, 3), mode=\"bicubic\")", True),
]


def programs():
    """(name, tsr, python) programs whose printed output must agree."""
    return [
        ("del_layer_attr", """manual_seed(0)
m = nn.Linear(2, 3)
del m.bias
print(len(m.parameters()), m.state_dict().keys())
try { m.bias } catch e { print(e.kind, e.message) }
x = ones(1, 2)
try { m(x) } catch e { print(e.kind, e.message) }
m.bias = none
print(m(x).shape, m.bias)
w = m.weight
del m.weight
try { m(x) } catch e { print(e.kind, e.message) }
try { del m.weight } catch e { print(e.kind, e.message) }
m.weight = w * 2
print(m(x).shape, len(m.parameters()))
m.weight = w
m.extra = nn.Parameter(ones(2))
print(len(m.parameters()))
del m.extra
print(len(m.parameters()), m(x).shape, m.state_dict().keys())
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
s.head = nn.Linear(2, 1)
print(len(s.parameters()))
del s.head
print(len(s.parameters()), s(x).shape)
""", """import torch
from torch import nn
def P(*a):
    print(*[list(v) if isinstance(v, torch.Size) else v for v in a])
m = nn.Linear(2, 3)
del m.bias
P(len(list(m.parameters())), list(m.state_dict().keys()))
try:
    m.bias
except AttributeError as e:
    print("AttributeError", e)
x = torch.ones(1, 2)
try:
    m(x)
except AttributeError as e:
    print("AttributeError", e)
m.bias = None
P(m(x).shape, m.bias)
w = m.weight
del m.weight
try:
    m(x)
except AttributeError as e:
    print("AttributeError", e)
try:
    del m.weight
except AttributeError as e:
    print("AttributeError", e)
m.weight = w * 2
P(m(x).shape, len(list(m.parameters())))
m.weight = w
m.extra = nn.Parameter(torch.ones(2))
P(len(list(m.parameters())))
del m.extra
P(len(list(m.parameters())), m(x).shape, list(m.state_dict().keys()))
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
s.head = nn.Linear(2, 1)
P(len(list(s.parameters())))
del s.head
P(len(list(s.parameters())), s(x).shape)
"""),
        ("parameter_dict", """d = nn.ParameterDict({"a": nn.Parameter(ones(2, dtype=f64)), "b": zeros(3)})
print(d)
print(nn.ParameterDict())
d["c"] = ones(1)
print(d.keys(), "a" in d, "q" in d, len(d), [k for k in d])
print([n for n, _ in d.named_parameters()], d.state_dict().keys(), d["b"].requires_grad)
print(d.pop("a").shape, d.keys())
d.update({"z": ones(4)})
print(d.keys())
del d["b"]
print(d.keys(), d.z.shape, d["z"].requires_grad, d.get("nope"), d.get("c").shape)
try { d["nope"] } catch e { print(e.kind, e.message) }
d.update(nn.ParameterDict({"u": ones(2), "v": ones(3)}))
print(d.keys(), len(d.parameters()), d.setdefault("w", ones(2)).shape, d.keys())
""", """import torch
from torch import nn
def P(*a):
    print(*[list(v) if isinstance(v, torch.Size) else v for v in a])
d = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, dtype=torch.float64)), "b": torch.zeros(3)})
print(d)
print(nn.ParameterDict())
d["c"] = torch.ones(1)
P(list(d.keys()), "a" in d, "q" in d, len(d), [k for k in d])
P([n for n, _ in d.named_parameters()], list(d.state_dict().keys()), d["b"].requires_grad)
P(d.pop("a").shape, list(d.keys()))
d.update({"z": torch.ones(4)})
P(list(d.keys()))
del d["b"]
P(list(d.keys()), d.z.shape, d["z"].requires_grad, d.get("nope"), d.get("c").shape)
try:
    d["nope"]
except Exception as e:
    print(type(e).__name__, e)
d.update(nn.ParameterDict({"u": torch.ones(2), "v": torch.ones(3)}))
P(list(d.keys()), len(list(d.parameters())), d.setdefault("w", torch.ones(2)).shape, list(d.keys()))
"""),
        ("parameter_list_dtypes", """p = nn.ParameterList([nn.Parameter(ones(2, 3, dtype=f64)), zeros(3), nn.Parameter(ones(2, dtype=f16)), nn.Parameter(ones(2), requires_grad=false)])
print(p)
q = nn.ParameterList([ones(2, 2)])
q.double()
q.append(ones(1, dtype=f64))
print(q, q[0].dtype, q[1].dtype)
""", """import torch
from torch import nn
p = nn.ParameterList([nn.Parameter(torch.ones(2, 3, dtype=torch.float64)), torch.zeros(3), nn.Parameter(torch.ones(2, dtype=torch.float16)), nn.Parameter(torch.ones(2), requires_grad=False)])
print(p)
q = nn.ParameterList([torch.ones(2, 2)])
q.double()
q.append(torch.ones(1, dtype=torch.float64))
print(q, q[0].dtype, q[1].dtype)
"""),
        ("container_del", """m = nn.ModuleDict({"l": nn.Linear(1, 1), "r": nn.ReLU()})
del m["l"]
print(m)
try { del m["zz"] } catch e { print(e.kind, e.message) }
ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.GELU()])
del ml[1]
print(ml)
del ml[0:2]
print(ml)
try { del ml[5] } catch e { print(e.kind, e.message) }
""", """import torch
from torch import nn
m = nn.ModuleDict({"l": nn.Linear(1, 1), "r": nn.ReLU()})
del m["l"]
print(m)
try:
    del m["zz"]
except Exception as e:
    print(type(e).__name__, e)
ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.GELU()])
del ml[1]
print(ml)
del ml[0:2]
print(ml)
try:
    del ml[5]
except Exception as e:
    print(type(e).__name__, e)
"""),
    ]


def to_tsr_output(s):
    s = re.sub(r"\b(True|False|None)\b", lambda m: m.group(1).lower(), s)
    for long, short in [("torch.float64", "f64"), ("torch.float32", "f32"), ("torch.float16", "f16"),
                        ("torch.DoubleTensor", "f64"), ("torch.FloatTensor", "f32"), ("torch.HalfTensor", "f16")]:
        s = s.replace(long, short)
    return re.sub(r"torch\.Size\(\[([^\]]*)\]\)", r"[\1]", s)


def run_program(src):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(src, "<program>", "exec"), {})
    return buf.getvalue()


def main():
    write_golden("s11_nn.json", "gen_s11_nn.py", ONECYCLE + ORTHO + INPLACE + BICUBIC, INPLACE_GRADFN + BICUBIC_GRADFN,
                 ONECYCLE_ERRORS + ORTHO_ERRORS + INPLACE_ERRORS + BICUBIC_ERRORS, to_torch=to_torch)
    out = []
    for name, tsr, py in programs():
        torch.manual_seed(0)
        out.append({"name": name, "tsr": tsr, "python": py, "want": to_tsr_output(run_program(py))})
    with open(os.path.join(HERE, "s11_nn_programs.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {len(out)} programs")


if __name__ == "__main__":
    main()
