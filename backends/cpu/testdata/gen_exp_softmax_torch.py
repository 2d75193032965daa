#!/usr/bin/python3
"""Golden float32 exp and softmax from PyTorch 1.13 (CPU) for
TestExpMatchesSleef and TestSoftmaxMatchesTorch. Inputs are deterministic
(computed identically in Go):

    x[i] = float32(((i*7919 + seed*104729) % 10007) / 1000.0 - 5.0) * scale

exp: 3 seeds x 4096 values at scales 1, 4, 21 (covering under/overflow),
2048 float64 exp values at scales 1, 4, 150 (x = float64 of the same formula);
softmax: one row per length 1..70, 100, 257, 1000 (seed = length).

    /usr/bin/python3 backends/cpu/testdata/gen_exp_softmax_torch.py > backends/cpu/testdata/exp_softmax_torch_golden.json
"""
import json
import numpy as np
import torch


def inputs(n, seed, scale):
    i = np.arange(n, dtype=np.int64)
    return (((i * 7919 + seed * 104729) % 10007) / 1000.0 - 5.0).astype(np.float32) * np.float32(scale)


def bits(a):
    return [int(v) for v in np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)]


exp_cases = []
for seed, scale in [(1, 1.0), (2, 4.0), (3, 21.0)]:
    x = inputs(4096, seed, scale)
    exp_cases.append({"n": 4096, "seed": seed, "scale": scale, "bits": bits(torch.exp(torch.from_numpy(x)).numpy())})
exp64_cases = []
for seed, scale in [(1, 1.0), (2, 4.0), (3, 150.0)]:
    i = np.arange(2048, dtype=np.int64)
    x = (((i * 7919 + seed * 104729) % 10007) / 1000.0 - 5.0) * scale
    e = torch.exp(torch.from_numpy(x)).numpy()
    exp64_cases.append({"n": 2048, "seed": seed, "scale": scale, "bits": [int(v) for v in e.view(np.uint64)]})
softmax_cases = []
for n in list(range(1, 71)) + [100, 257, 1000]:
    x = inputs(n, n, 1.5)
    softmax_cases.append({"n": n, "seed": n, "scale": 1.5, "bits": bits(torch.softmax(torch.from_numpy(x), 0).numpy())})
print(json.dumps({"torch": torch.__version__, "exp": exp_cases, "exp64": exp64_cases, "softmax": softmax_cases}))
