#!/usr/bin/env python3
"""One NumPy GEMM case for bench/gemm_interleaved.sh: gemm_one.py S|D n [T|NT].

Prints the best GFLOP/s of 5 timed batches, in thread CPU time (set
OPENBLAS_NUM_THREADS=1) or wall time with WALL=1, like bench/gemmcmp.
"""
import os
import sys
import time

import numpy as np

clock = time.perf_counter if os.environ.get("WALL") else time.thread_time
dt = np.float32 if sys.argv[1] == "S" else np.float64
n = int(sys.argv[2])
trans = sys.argv[3] if len(sys.argv) > 3 else ""
rng = np.random.default_rng(n)
a = rng.random((n, n)).astype(dt)
b = rng.random((n, n)).astype(dt)
if trans == "T":
    a = a.T
elif trans == "NT":
    b = b.T
c = np.empty((n, n), dt)
np.matmul(a, b, out=c)
per = max(1, min(2000, int(2e9 / (2 * n**3))) // 5)
best = float("inf")
for _ in range(5):
    t = clock()
    for _ in range(per):
        np.matmul(a, b, out=c)
    best = min(best, (clock() - t) / per)
print(f"{2 * n**3 / best / 1e9:.1f}")
