#!/usr/bin/env python3
"""Generate tensor/testdata/logaddexp2_torch.json for logaddexp2_test.go.

torch.logaddexp2 (PyTorch 1.13, CPU) of 1000 seeded normal pairs (scale
20; the first 50 pairs equal) in float32 and float64, as float.hex.

    /usr/bin/python3 tensor/testdata/gen_logaddexp2_torch.py
"""
import json
import os

import torch


def main():
    out = {}
    for name, dt in (("f32", torch.float32), ("f64", torch.float64)):
        torch.manual_seed(1)
        a, b = torch.randn(1000, dtype=dt) * 20, torch.randn(1000, dtype=dt) * 20
        a[:50] = b[:50]
        out[name] = {k: [v.hex() for v in t.tolist()] for k, t in (("a", a), ("b", b), ("r", torch.logaddexp2(a, b)))}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logaddexp2_torch.json")
    with open(path, "w") as f:
        json.dump({"generator": "gen_logaddexp2_torch.py", "torch": torch.__version__, **out}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
