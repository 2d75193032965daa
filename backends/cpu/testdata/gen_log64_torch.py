#!/usr/bin/python3
"""Golden float64 log from PyTorch 1.13 (CPU: SLEEF's log_u10) for
TestLogF64MatchesTorch. Inputs (stored as bit patterns): special values,
subnormals, values around 1 and around the reduction boundary m = 1.5,
and pseudo-random positives spread over the whole exponent range. The
tensor has more than 65536 elements, so every input runs on torch's
vector path.

    /usr/bin/python3 backends/cpu/testdata/gen_log64_torch.py > backends/cpu/testdata/log64_torch_golden.json
"""
import json
import numpy as np
import torch

rng = np.random.default_rng(11)
special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, 1e-310, 2.225073858507201e-308,
                    2.2250738585072014e-308, 1.7976931348623157e308, 0.75, 1.5, 2.0, 0.5, np.e, 10.0, 1e-300],
                   dtype=np.float64)
ulp = 2.0 ** -52
near1 = 1.0 + np.arange(-300, 301, dtype=np.float64) * ulp
boundary = (1.5 * (1.0 + np.arange(-200, 201) * ulp)) * 4.0
ints = np.exp(np.arange(1, 700, 7, dtype=np.float64))
spread = np.exp(rng.uniform(-745, 709.7, 3000))
subn = rng.uniform(0, 2.2250738585072014e-308, 500)
uniform = rng.uniform(0, 100, 2000)
x = np.concatenate([special, near1, boundary, ints, spread, subn, uniform]).astype(np.float64)
# pad to 70000 elements (above ATen's grain and any small-size path) with
# more spread values; only the first len(x) are stored
pad = np.exp(rng.uniform(-700, 700, 70000 - len(x)))
y = torch.log(torch.from_numpy(np.concatenate([x, pad]))).numpy()[:len(x)]
print(json.dumps({"x": [int(v) for v in x.view(np.uint64)], "log": [int(v) for v in y.view(np.uint64)]}))
