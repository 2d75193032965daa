#!/usr/bin/python3
"""Time NumPy einsum(..., optimize=True) on the einsum benchmark cases, so
that tsr's einsum (tensor runtime + einsum.Execute) can be compared with it
on the same machine once tensors exist.

Usage: /usr/bin/python3 bench/einsum_numpy.py [--repeat N]

Cases (float32 and float64):
  chain      ij,jk,kl->il   64x512, 512x512, 512x8
  attention  bhid,bhjd->bhij (4, 8, 128, 64) x (4, 8, 128, 64)
Prints the best and median time per call in microseconds, the GFLOP/s of
the chosen path (NumPy's einsum_path cost model, the same as tsr's
Plan.FLOPs) and NumPy's path.
"""
import argparse
import statistics
import time

import numpy as np

CASES = [
    ("chain", "ij,jk,kl->il", [(64, 512), (512, 512), (512, 8)]),
    ("attention", "bhid,bhjd->bhij", [(4, 8, 128, 64), (4, 8, 128, 64)]),
]


def path_flops(eq, xs):
    _, text = np.einsum_path(eq, *xs, optimize=True)
    for line in text.splitlines():
        if "Optimized FLOP count" in line:
            return float(line.split(":")[1]) - 1  # NumPy prints cost + 1
    raise RuntimeError("no FLOP count in einsum_path output")


def bench(eq, xs, repeat):
    np.einsum(eq, *xs, optimize=True)  # warm up (path search, BLAS threads)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        np.einsum(eq, *xs, optimize=True)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print("numpy %s" % np.__version__)
    print("%-10s %-8s %12s %12s %9s  %s" % ("case", "dtype", "best us", "median us", "GFLOP/s", "path"))
    for name, eq, shapes in CASES:
        for dtype in (np.float32, np.float64):
            xs = [rng.standard_normal(s).astype(dtype) for s in shapes]
            best, med = bench(eq, xs, args.repeat)
            flops = path_flops(eq, xs)
            path, _ = np.einsum_path(eq, *xs, optimize=True)
            print("%-10s %-8s %12.1f %12.1f %9.2f  %s" % (
                name, np.dtype(dtype).name, best * 1e6, med * 1e6, flops / best / 1e9, path[1:]))


if __name__ == "__main__":
    main()
