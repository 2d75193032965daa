#!/usr/bin/python3
"""Golden outer-dim sums x.sum(0) of [rows, cols] tensors from PyTorch 1.13
(CPU, one thread) for TestSumColsTorchGolden; x is row-major with

    x[i] = T(((i*7919 + seed*104729) % 10007) / 1000.0 - 5.0) * scale

    /usr/bin/python3 backends/cpu/testdata/gen_sumcols_torch.py > backends/cpu/testdata/sumcols_torch_golden.json
"""
import json
import numpy as np
import torch

torch.set_num_threads(1)
cases = []
for dt, ut in [(np.float32, np.uint32), (np.float64, np.uint64)]:
    for rows in [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 64, 100, 257, 1000]:
        for cols in [2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 64, 70]:
            seed, scale = rows + cols, 1.7
            i = np.arange(rows * cols, dtype=np.int64)
            x = ((((i * 7919 + seed * 104729) % 10007) / 1000.0 - 5.0).astype(dt) * dt(scale)).reshape(rows, cols)
            s = torch.from_numpy(x).sum(0).numpy()
            cases.append({"f64": dt == np.float64, "rows": rows, "cols": cols, "seed": seed, "scale": scale,
                          "bits": [int(v) for v in s.view(ut)]})
    # wide matrices: several 4V-lane groups per call (f32 128, f64 64 columns)
    for rows in [1, 3, 17, 100, 257]:
        for cols in [96, 127, 128, 129, 200, 257, 300, 513]:
            seed, scale = rows + cols, 1.7
            i = np.arange(rows * cols, dtype=np.int64)
            x = ((((i * 7919 + seed * 104729) % 10007) / 1000.0 - 5.0).astype(dt) * dt(scale)).reshape(rows, cols)
            s = torch.from_numpy(x).sum(0).numpy()
            cases.append({"f64": dt == np.float64, "rows": rows, "cols": cols, "seed": seed, "scale": scale,
                          "bits": [int(v) for v in s.view(ut)]})
print(json.dumps({"torch": torch.__version__, "cases": cases}))
