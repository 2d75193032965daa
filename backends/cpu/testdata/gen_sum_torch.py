#!/usr/bin/python3
"""Golden float32 and float64 sums from PyTorch 1.13 (CPU, one thread)
for TestSumTorchGolden: x.sum() of deterministic inputs

    x[i] = T(((i*7919 + seed*104729) % 10007) / 1000.0 - 5.0) * scale

(computed identically in Go), for many lengths. Run:

    /usr/bin/python3 backends/cpu/testdata/gen_sum_torch.py > backends/cpu/testdata/sum_torch_golden.json
"""
import json
import numpy as np
import torch

torch.set_num_threads(1)
sizes = list(range(0, 300)) + [511, 512, 513, 1000, 1023, 1024, 1025, 2047, 4096, 5000, 10000, 20000, 32768, 100000]
cases = []
for dt, ut in [(np.float32, np.uint32), (np.float64, np.uint64)]:
    for seed, scale in [(1, 1.0), (2, 1e-3), (3, 123.456)]:
        for n in sizes:
            i = np.arange(n, dtype=np.int64)
            x = (((i * 7919 + seed * 104729) % 10007) / 1000.0 - 5.0).astype(dt) * dt(scale)
            s = torch.from_numpy(x).sum().numpy()
            cases.append({"f64": dt == np.float64, "n": n, "seed": seed, "scale": scale, "bits": int(s.view(ut))})
print(json.dumps({"torch": torch.__version__, "cases": cases}))
