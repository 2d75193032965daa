#!/usr/bin/python3
"""Golden float32 log from PyTorch 1.13 (CPU: SLEEF's logf_u10) for
TestLogMatchesSleef. Inputs (stored as bit patterns): special values,
subnormals, values around 1 and around the reduction boundary m = 1.5,
and pseudo-random positives spread over the whole exponent range.

    /usr/bin/python3 backends/cpu/testdata/gen_log_torch.py > backends/cpu/testdata/log_torch_golden.json
"""
import json
import numpy as np
import torch

rng = np.random.default_rng(7)
special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 1e-40, 1.1754942e-38,
                    1.17549435e-38, 3.4028235e38, 0.75, 1.5, 2.0, 0.5, 2.7182817, 7.389056, 20.085537],
                   dtype=np.float32)
near1 = (1.0 + np.arange(-300, 301, dtype=np.float32) * np.float32(2 ** -23)).astype(np.float32)
boundary = (np.float32(1.5) * (1.0 + np.arange(-200, 201) * 2.0 ** -23)).astype(np.float32) * np.float32(4.0)
ints = np.exp(np.arange(1, 60, dtype=np.float32)).astype(np.float32)
spread = np.exp(rng.uniform(-103, 88, 4000)).astype(np.float32)
uniform = rng.uniform(0, 100, 3000).astype(np.float32)
x = np.concatenate([special, near1, boundary, ints, spread, uniform]).astype(np.float32)
y = torch.log(torch.from_numpy(x)).numpy()
print(json.dumps({"x": [int(v) for v in x.view(np.uint32)], "log": [int(v) for v in y.view(np.uint32)]}))
