#!/usr/bin/python3
"""Golden float -> integer conversions from PyTorch 1.13 (x86): NaN, +-Inf
and out-of-range values, for cast_golden_test.go. Run from tensor/:

    /usr/bin/python3 testdata/gen_cast_torch.py > testdata/cast_torch.json
"""
import json

import torch

VALS = [float("nan"), float("inf"), -float("inf"), 3e9, -3e9, 2147483648.0,
        2147483647.0, -2147483648.5, -2147483649.0, 1e20, -1e20, 300.7, -300.7,
        70000.5, -70000.5, 255.9, 256.0, -1.5, -0.7, 128.0, -129.0, 9.3e18,
        -9.3e18, 4294967301.0, 65535.9, 65536.0, -32769.0]
INTS = ["i8", "i16", "i32", "i64", "u8"]
TD = {"i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8}

out = []
for fname, fdt in (("f32", torch.float32), ("f64", torch.float64)):
    # 200 copies so that the vectorised copy kernels run, not only the tail
    x = torch.tensor(VALS * 200, dtype=fdt)
    src = [v if v == v and abs(v) != float("inf") else str(v) for v in x[:len(VALS)].double().tolist()]
    for it in INTS:
        y = x.to(TD[it])
        assert y.tolist() == y[:len(VALS)].tolist() * 200
        out.append({"from": fname, "to": it, "src": src, "want": y[:len(VALS)].tolist()})
print(json.dumps(out, indent=0))
