#!/usr/bin/env python3
"""Generate tensor/testdata/sum_strided_torch.json for sum_strided_test.go.

PyTorch 1.13 (one thread) sums and means of float32/float64 views that are
not one dense block: steps, transposes, permutations and expanded
(stride-0) dims, over various dims. The data come from a xorshift32
generator that the Go test replays, so only the view recipe and the
results are stored (results as float.hex, compared bit for bit).

    /usr/bin/python3 tensor/testdata/gen_sum_strided.py
"""
import json
import os
import random

import numpy as np
import torch

torch.set_num_threads(1)


def data(seed, n, dtype):
    """n values with full random mantissas in about [-64, 64)."""
    s = seed & 0xFFFFFFFF or 1
    out = []
    for _ in range(n):
        vals = []
        for _ in range(2):
            s ^= (s << 13) & 0xFFFFFFFF
            s ^= s >> 17
            s ^= (s << 5) & 0xFFFFFFFF
            vals.append(s)
        if dtype == "f32":
            bits = 0x3F800000 | (vals[0] >> 9)
            v = float(np.frombuffer(np.uint32(bits).tobytes(), np.float32)[0])
        else:
            bits = 0x3FF0000000000000 | ((vals[0] << 20) ^ vals[1]) & 0xFFFFFFFFFFFFF
            v = float(np.frombuffer(np.uint64(bits).tobytes(), np.float64)[0])
        e = vals[1] % 7
        out.append((v - 1.5) * 2.0 ** e * (1 if vals[1] & 128 else -1))
    return out


def apply(t, ops):
    for op in ops:
        if op[0] == "permute":
            t = t.permute(*op[1])
        elif op[0] == "slice":
            d, b, st = op[1:]
            idx = [slice(None)] * t.dim()
            idx[d] = slice(b, None, st)
            t = t[tuple(idx)]
        elif op[0] == "expand":
            t = t.unsqueeze(0).expand(op[1], *t.shape)
    return t


def main():
    rnd = random.Random(5)
    cases = []
    fixed = [  # the brief's rows x length sweep of x[:, ::2] and expanded rows
        ([r, n], [["slice", 1, 0, 2]], [-1]) for r in (1, 3, 5, 9) for n in (7, 16, 33, 300, 1001)
    ] + [
        ([1, n], [["expand", r], ["permute", [1, 0, 2]]], [-1]) for r in (2, 5) for n in (4, 8, 15, 100)
    ]
    while len(cases) < 120:
        if fixed:
            shape, ops, dims = fixed.pop(0)
        else:
            nd = rnd.randint(1, 4)
            shape = [rnd.choice([1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 33]) for _ in range(nd)]
            ops = []
            n = nd
            for _ in range(rnd.randint(1, 3)):
                k = rnd.choice(["permute", "slice", "expand"])
                if k == "permute":
                    p = list(range(n))
                    rnd.shuffle(p)
                    ops.append(["permute", p])
                elif k == "slice":
                    ops.append(["slice", rnd.randrange(n), rnd.choice([0, 1]), rnd.choice([1, 2, 3])])
                elif n < 5:
                    ops.append(["expand", rnd.choice([2, 3])])
                    n += 1
                    p = list(range(n))
                    rnd.shuffle(p)
                    ops.append(["permute", p])
            dims = sorted(rnd.sample(range(n), rnd.randint(1, n)))
        dtype = rnd.choice(["f32", "f64"])
        seed = rnd.randrange(1, 1 << 31)
        numel = int(np.prod(shape))
        base = torch.tensor(data(seed, numel, dtype), dtype=torch.float32 if dtype == "f32" else torch.float64)
        try:
            t = apply(base.reshape(shape), ops)
        except (IndexError, RuntimeError):
            continue
        if t.numel() == 0 or t.numel() > 65536:
            continue
        mean = rnd.random() < 0.3
        keep = rnd.random() < 0.3
        r = t.mean(dims, keepdim=keep) if mean else t.sum(dims, keepdim=keep)
        cases.append({"dtype": dtype, "seed": seed, "shape": shape, "ops": ops, "dims": dims, "keepdim": keep,
                      "mean": mean, "out_shape": list(r.shape), "want": [v.hex() for v in r.flatten().tolist()]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sum_strided_torch.json")
    with open(path, "w") as f:
        json.dump({"generator": "gen_sum_strided.py", "torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
