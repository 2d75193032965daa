#!/usr/bin/env python3
"""PyTorch side of bench/run_conv.sh: conv2d of [32, 64, 56, 56] with
[64, 64, 3, 3], padding=1, float32; prints the best of 5 runs in ms and
GFLOP/s. Threads: torch.set_num_threads(int(argv[1])) (default 1)."""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
x = torch.full((32, 64, 56, 56), 0.5)
w = torch.full((64, 64, 3, 3), 0.25)
F.conv2d(x, w, padding=1)
best = float("inf")
for _ in range(5):
    t = time.perf_counter()
    F.conv2d(x, w, padding=1)
    best = min(best, time.perf_counter() - t)
print(f"torch conv2d: {best * 1e3:.1f} ms, {2 * 32 * 64 * 56 * 56 * 64 * 9 / best / 1e9:.1f} GFLOP/s")
