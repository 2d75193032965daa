#!/usr/bin/env python3
"""PyTorch side of bench/run_conv.sh: conv2d of [32, 64, 56, 56] with
[64, 64, 3, 3], padding=1, float32, and its backward (input and weight
gradients, no bias); prints the best of 5 runs of each in ms and GFLOP/s.
Threads: torch.set_num_threads(int(argv[1])) (default 1)."""
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
x = torch.full((32, 64, 56, 56), 0.5, requires_grad=True)
w = torch.full((64, 64, 3, 3), 0.25, requires_grad=True)
g = torch.full((32, 64, 56, 56), 0.125)
flops = 2 * 32 * 64 * 56 * 56 * 64 * 9


def best(fn):
    fn()
    b = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        fn()
        b = min(b, time.perf_counter() - t)
    return b


with torch.no_grad():
    f = best(lambda: F.conv2d(x, w, padding=1))
print(f"torch conv2d: {f * 1e3:.1f} ms, {flops / f / 1e9:.1f} GFLOP/s")
y = F.conv2d(x, w, padding=1)
bw = best(lambda: torch.autograd.grad(y, (x, w), g, retain_graph=True))
print(f"torch conv2d backward: {bw * 1e3:.1f} ms, {2 * flops / bw / 1e9:.1f} GFLOP/s")
