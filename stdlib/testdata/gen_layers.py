#!/usr/bin/env python3
"""Generate stdlib/testdata/layers.json for stdlib/nn_layers_test.go.

Golden values from PyTorch 1.13 for the nn layer classes (nn_layers.go)
and the optim module (optim.go). Each case is written once in tsr;
to_torch() spells it for PyTorch. Kinds of case:

  reprs    a constructor expression; the golden keeps print(layer) with
           True/False/None spelled as tsr does (true/false/none).
  layers   a layer built after manual_seed(0), with named inputs: the
           golden keeps named_parameters() right after construction (the
           initialisation, which tsr draws from the same generator), the
           output of the call expression and, for BatchNorm, the running
           statistics and num_batches_tracked after the call. The Go test
           loads the parameters from the golden (copy_ under no_grad)
           before calling, so the forward check does not rest on the
           initialisation.
  optim    a small conv + MLP model trained a few steps on a fixed batch
           with one optimizer configuration: the golden keeps the initial
           parameters, the loss at each step and the parameters after the
           last step.

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 stdlib/testdata/gen_layers.py
"""
import json
import os
import re

import torch

torch.set_num_threads(1)


def to_torch(src):
    """Spell a tsr expression for PyTorch (the subset used below)."""
    s = re.sub(r"\bnn\.", "torch.nn.", src)
    s = re.sub(r"\boptim\.", "torch.optim.", s)
    s = re.sub(r"(?<![\w.])tensor\(", "torch.tensor(", s)
    s = re.sub(r"\btrue\b", "True", s)
    s = re.sub(r"\bfalse\b", "False", s)
    s = re.sub(r"(?<!\")\bnone\b(?!\")", "None", s)
    return s


def to_tsr_repr(s):
    s = re.sub(r"\bTrue\b", "true", s)
    s = re.sub(r"\bFalse\b", "false", s)
    return re.sub(r"\bNone\b", "none", s)


def enc(t):
    t = t.detach()
    dt = {torch.float32: "f32", torch.float64: "f64", torch.int64: "i64"}[t.dtype]
    return {"dtype": dt, "shape": list(t.shape), "values": [repr(float(v)) if t.is_floating_point() else int(v)
                                                              for v in t.flatten().tolist()]}


REPRS = [
    "nn.Conv1d(2, 4, 3)",
    "nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=false)",
    "nn.Conv2d(3, 16, 3, padding=1)",
    "nn.Conv2d(3, 16, kernel_size=(3, 5), stride=(2, 1))",
    "nn.Conv2d(4, 4, 3, padding=\"same\", groups=4)",
    "nn.MaxPool2d(2)",
    "nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=true)",
    "nn.MaxPool2d((2, 3))",
    "nn.AvgPool2d(2)",
    "nn.AvgPool2d(3, stride=1, padding=1)",
    "nn.AdaptiveAvgPool2d((1, 1))",
    "nn.AdaptiveAvgPool2d(4)",
    "nn.BatchNorm1d(8)",
    "nn.BatchNorm2d(16, eps=1e-3, momentum=none, affine=false, track_running_stats=false)",
    "nn.LayerNorm(8)",
    "nn.LayerNorm((4, 8), eps=1e-6, elementwise_affine=false)",
    "nn.Dropout()",
    "nn.Dropout(0.25, inplace=true)",
    "nn.Embedding(10, 3)",
    "nn.Embedding(10, 3, padding_idx=-1)",
    "nn.Flatten()",
    "nn.Flatten(0, 2)",
    "nn.ReLU()",
    "nn.ReLU(inplace=true)",
    "nn.GELU()",
    "nn.GELU(approximate=\"tanh\")",
    "nn.Tanh()",
    "nn.Sigmoid()",
    "nn.SiLU()",
    "nn.LeakyReLU(0.2)",
    "nn.Softmax(dim=1)",
    "nn.Softmax()",
    "nn.LogSoftmax(-1)",
    "nn.Identity()",
    "nn.MSELoss()",
    "nn.MSELoss(reduction=\"sum\")",
    "nn.CrossEntropyLoss()",
    "nn.CrossEntropyLoss(label_smoothing=0.1)",
    "nn.L1Loss()",
    "nn.NLLLoss()",
    "nn.Linear(4, 8)",
    "nn.Sequential()",
    "nn.Sequential(nn.Linear(4, 8), nn.ReLU())",
    "nn.Sequential(nn.Conv2d(1, 4, 3), nn.Sequential(nn.BatchNorm2d(4), nn.ReLU()), nn.Flatten(), nn.Linear(16, 2, bias=false))",
]

# (name, constructor, inputs {name: (kind, shape)}, call, mode, extra)
# kind: "f" randn f32, "c<N>" i64 class indices in [0, N).
LAYERS = [
    ("conv1d", "nn.Conv1d(2, 4, 3, stride=2, padding=1)", {"x": ("f", [2, 2, 9])}, "l(x)", "train"),
    ("conv1d_groups", "nn.Conv1d(4, 6, 2, dilation=2, groups=2, bias=false)", {"x": ("f", [4, 7])}, "l(x)", "train"),
    ("conv2d", "nn.Conv2d(3, 4, 3, padding=1)", {"x": ("f", [2, 3, 5, 5])}, "l(x)", "train"),
    ("conv2d_strided", "nn.Conv2d(4, 6, (3, 2), stride=(2, 1), dilation=(1, 2), groups=2, bias=false)", {"x": ("f", [1, 4, 7, 6])}, "l(x)", "train"),
    ("conv2d_same", "nn.Conv2d(2, 3, 3, padding=\"same\")", {"x": ("f", [1, 2, 5, 4])}, "l(x)", "train"),
    ("maxpool2d", "nn.MaxPool2d(2)", {"x": ("f", [2, 3, 6, 6])}, "l(x)", "train"),
    ("maxpool2d_ceil", "nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=true)", {"x": ("f", [1, 2, 6, 7])}, "l(x)", "train"),
    ("avgpool2d", "nn.AvgPool2d(2, stride=1)", {"x": ("f", [1, 2, 4, 5])}, "l(x)", "train"),
    ("avgpool2d_pad", "nn.AvgPool2d(3, padding=1, count_include_pad=false)", {"x": ("f", [1, 2, 5, 5])}, "l(x)", "train"),
    ("adaptiveavgpool2d", "nn.AdaptiveAvgPool2d((2, 3))", {"x": ("f", [2, 2, 5, 7])}, "l(x)", "train"),
    ("adaptiveavgpool2d_1", "nn.AdaptiveAvgPool2d(1)", {"x": ("f", [2, 3, 4, 4])}, "l(x)", "train"),
    ("batchnorm1d_train", "nn.BatchNorm1d(3)", {"x": ("f", [5, 3])}, "l(x)", "train"),
    ("batchnorm1d_3d", "nn.BatchNorm1d(3, momentum=0.3)", {"x": ("f", [4, 3, 6])}, "l(x)", "train"),
    ("batchnorm1d_cumulative", "nn.BatchNorm1d(3, momentum=none)", {"x": ("f", [5, 3])}, "l(x)\nl(x * 2.0 + 1.0)", "train"),
    ("batchnorm1d_eval", "nn.BatchNorm1d(3)", {"x": ("f", [5, 3])}, "l(x)\nl.eval()\nl(x * 0.5)", "train"),
    ("batchnorm2d_train", "nn.BatchNorm2d(3)", {"x": ("f", [2, 3, 4, 4])}, "l(x)\nl(x + 1.0)", "train"),
    ("batchnorm2d_eval", "nn.BatchNorm2d(3, eps=1e-3)", {"x": ("f", [2, 3, 4, 4])}, "l(x)", "eval"),
    ("batchnorm2d_nostats", "nn.BatchNorm2d(3, affine=false, track_running_stats=false)", {"x": ("f", [2, 3, 3, 3])}, "l(x)", "eval"),
    ("layernorm", "nn.LayerNorm(5)", {"x": ("f", [3, 5])}, "l(x)", "train"),
    ("layernorm_2d", "nn.LayerNorm((3, 4), elementwise_affine=false)", {"x": ("f", [2, 3, 4])}, "l(x)", "train"),
    ("embedding", "nn.Embedding(10, 4)", {"x": ("c10", [2, 3])}, "l(x)", "train"),
    ("embedding_pad", "nn.Embedding(10, 4, padding_idx=2)", {"x": ("c10", [5])}, "l(x)", "train"),
    ("flatten", "nn.Flatten()", {"x": ("f", [2, 3, 2, 2])}, "l(x)", "train"),
    ("flatten_0_1", "nn.Flatten(0, 1)", {"x": ("f", [2, 3, 2])}, "l(x)", "train"),
    ("relu", "nn.ReLU()", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("gelu", "nn.GELU()", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("gelu_tanh", "nn.GELU(approximate=\"tanh\")", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("tanh", "nn.Tanh()", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("sigmoid", "nn.Sigmoid()", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("silu", "nn.SiLU()", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("leakyrelu", "nn.LeakyReLU(0.2)", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("softmax", "nn.Softmax(dim=1)", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("softmax_legacy", "nn.Softmax()", {"x": ("f", [2, 3, 4])}, "l(x)", "train"),
    ("logsoftmax", "nn.LogSoftmax(-1)", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("identity", "nn.Identity(3, k=2)", {"x": ("f", [3, 4])}, "l(x)", "train"),
    ("dropout_eval", "nn.Dropout(0.3)", {"x": ("f", [3, 4])}, "l(x)", "eval"),
    ("mse", "nn.MSELoss()", {"x": ("f", [3, 4]), "t": ("f", [3, 4])}, "l(x, t)", "train"),
    ("mse_sum", "nn.MSELoss(reduction=\"sum\")", {"x": ("f", [3, 4]), "t": ("f", [3, 4])}, "l(x, t)", "train"),
    ("mse_none", "nn.MSELoss(reduction=\"none\")", {"x": ("f", [3, 4]), "t": ("f", [3, 4])}, "l(x, t)", "train"),
    ("l1", "nn.L1Loss()", {"x": ("f", [3, 4]), "t": ("f", [3, 4])}, "l(x, t)", "train"),
    ("cross_entropy", "nn.CrossEntropyLoss()", {"x": ("f", [4, 5]), "t": ("c5", [4])}, "l(x, t)", "train"),
    ("cross_entropy_opts", "nn.CrossEntropyLoss(weight=tensor([1., 2., 0.5, 1., 3.]), ignore_index=1, reduction=\"sum\", label_smoothing=0.2)", {"x": ("f", [6, 5]), "t": ("c5", [6])}, "l(x, t)", "train"),
    ("nll", "nn.NLLLoss()", {"x": ("f", [4, 5]), "t": ("c5", [4])}, "l(x, t)", "train"),
    ("sequential", "nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Sequential(nn.Linear(6, 3), nn.Tanh()))", {"x": ("f", [5, 4])}, "l(x)", "train"),
    ("sequential_cnn", "nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(12, 4))", {"x": ("f", [2, 2, 4, 4])}, "l(x)", "train"),
]

MODEL = "nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(12, 8), nn.Tanh(), nn.Linear(8, 4))"
OPTIMS = [
    ("sgd", "optim.SGD(m.parameters(), lr=0.1)"),
    ("sgd_momentum", "optim.SGD(m.parameters(), lr=0.05, momentum=0.9, dampening=0.1)"),
    ("sgd_nesterov_wd", "optim.SGD(m.parameters(), lr=0.1, momentum=0.8, weight_decay=0.01, nesterov=true)"),
    ("sgd_maximize", "optim.SGD(m.parameters(), 0.02, weight_decay=0.1, maximize=true)"),
    ("adam", "optim.Adam(m.parameters())"),
    ("adam_lr", "optim.Adam(m.parameters(), lr=0.05, betas=(0.8, 0.99), eps=1e-6)"),
    ("adam_amsgrad_wd", "optim.Adam(m.parameters(), lr=0.02, weight_decay=0.05, amsgrad=true)"),
    ("adam_groups", "optim.Adam([{\"params\": m[0].parameters(), \"lr\": 0.1}, {\"params\": m[4].parameters() + m[6].parameters()}], lr=0.01)"),
]
STEPS = 6


def make_input(gen, kind, shape):
    if kind == "f":
        return torch.randn(shape, generator=gen)
    return torch.randint(0, int(kind[1:]), shape, generator=gen)


def main():
    out = {"reprs": [], "layers": [], "optim": []}
    for src in REPRS:
        out["reprs"].append({"tsr": src, "want": to_tsr_repr(repr(eval(to_torch(src))))})

    gen = torch.Generator().manual_seed(1234)
    for name, ctor, inputs, call, mode in LAYERS:
        torch.manual_seed(0)
        l = eval(to_torch(ctor))
        params = [{"name": n, **enc(p)} for n, p in l.named_parameters()]
        env = {"l": l, "torch": torch}
        ins = {}
        for k, (kind, shape) in inputs.items():
            v = make_input(gen, kind, shape)
            env[k] = v
            ins[k] = enc(v)
        if mode == "eval":
            l.eval()
        lines = call.split("\n")
        for line in lines[:-1]:
            exec(to_torch(line), env)
        r = eval(to_torch(lines[-1]), env)
        case = {"name": name, "ctor": ctor, "inputs": ins, "call": call, "mode": mode, "params": params, "out": enc(r)}
        bufs = {n: enc(b) for n, b in l.named_buffers() if b is not None}
        if bufs:
            case["buffers"] = bufs
        out["layers"].append(case)

    torch.manual_seed(7)
    x = torch.randn(6, 2, 4, 4)
    y = torch.randint(0, 4, (6,))
    for name, opt_src in OPTIMS:
        torch.manual_seed(0)
        m = eval(to_torch(MODEL))
        init = [enc(p) for p in m.parameters()]
        opt_py = to_torch(opt_src).replace("m[4].parameters() + m[6].parameters()",
                                           "list(m[4].parameters()) + list(m[6].parameters())")
        opt = eval(opt_py, {"m": m, "torch": torch})
        losses = []
        for _ in range(STEPS):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(m(x), y)
            loss.backward()
            opt.step()
            losses.append(repr(loss.item()))
        out["optim"].append({"name": name, "optim": opt_src, "init": init, "losses": losses,
                             "final": [enc(p) for p in m.parameters()]})
    out["model"] = MODEL
    out["steps"] = STEPS
    out["x"], out["y"] = enc(x), enc(y)

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
