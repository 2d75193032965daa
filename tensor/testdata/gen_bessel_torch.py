#!/usr/bin/env python3
"""Generate tensor/testdata/bessel_torch.json for bessel_test.go.

torch.i0 and torch.special.i1 (PyTorch 1.13, CPU) in float32 and float64
on a grid over [-30, 30], seeded normal points (scale 6) and seeded
uniform points up to 100 (float32) and 700 (float64), as float.hex.

    /usr/bin/python3 tensor/testdata/gen_bessel_torch.py
"""
import json
import os

import torch


def main():
    out = {}
    for name, dt, top in (("f32", torch.float32, 100.0), ("f64", torch.float64, 700.0)):
        torch.manual_seed(0)
        x = torch.cat([torch.linspace(-30, 30, 601, dtype=dt), torch.randn(300, dtype=dt) * 6,
                       torch.rand(300, dtype=dt) * top, torch.tensor([0.0, -0.0, 8.0, -8.0, 1e-30], dtype=dt)])
        out[name] = {"x": [v.hex() for v in x.tolist()],
                     "i0": [v.hex() for v in torch.i0(x).tolist()],
                     "i1": [v.hex() for v in torch.special.i1(x).tolist()]}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bessel_torch.json")
    with open(path, "w") as f:
        json.dump({"generator": "gen_bessel_torch.py", "torch": torch.__version__, **out}, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
