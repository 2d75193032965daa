#!/usr/bin/python3
"""NumPy reference for bench/tensor_bench_test.go: prints the median time in
nanoseconds of each elementwise case, one "name ns" line per case."""
import time
import numpy as np

N = 2048
rng = np.random.default_rng(0)
x = rng.random((N, N), dtype=np.float32)
y = rng.random((N, N), dtype=np.float32)
yt = y.T


def bench(name, fn, reps=30):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        ts.append(time.perf_counter_ns() - t0)
    ts.sort()
    print(name, ts[len(ts) // 2])


bench("AddContiguousF32", lambda: np.add(x, y))
bench("AddTransposedF32", lambda: np.add(x, yt))
bench("AddInplaceF32", lambda: np.add(x, y, out=x))
