#!/usr/bin/python3
"""Time NumPy einsum (optimize=True, and optimize=False: the naive loop
order) and torch.einsum on the einsum benchmark cases of
bench/einsum_e2e_test.go, float32, on this machine.

Usage: /usr/bin/python3 bench/einsum_numpy.py [--min-time S] [--max-repeat N]

Cases (the "Einsum engine" issue):
  chain3       ij,jk,kl->il             64x512, 512x512, 512x8
  chain4-N40   ij,jk,kl,lm->im          all 40x40
  net5-N10     pi,qj,ijkl,rk,sl->pqrs   all indices 10
  attn-scores  bhid,bhjd->bhij          (16, 8, 512, 64) x (16, 8, 512, 64)
  attn-values  bhij,bhjd->bhid          (16, 8, 512, 512) x (16, 8, 512, 64)

Output: one line per (case, implementation):
  <case> <impl> <median us> <best us> <GFLOP/s at the median>
impl is numpy-opt (optimize=True), numpy-naive (optimize=False; only the
small networks, where NumPy's C einsum runs one loop over all indices) or
torch. GFLOP/s uses NumPy's einsum_path cost model (the same as tsr's
Plan.FLOPs; for numpy-naive its "Naive FLOP count"). Lines starting with
'#' are comments (versions, NumPy's chosen path).

Run NumPy with OPENBLAS_CORETYPE set for this CPU (see bench/run_einsum.sh).
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch

CASES = [
    ("chain3", "ij,jk,kl->il", [(64, 512), (512, 512), (512, 8)]),
    ("chain4-N40", "ij,jk,kl,lm->im", [(40, 40)] * 4),
    ("net5-N10", "pi,qj,ijkl,rk,sl->pqrs", [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)]),
    ("attn-scores", "bhid,bhjd->bhij", [(16, 8, 512, 64), (16, 8, 512, 64)]),
    ("attn-values", "bhij,bhjd->bhid", [(16, 8, 512, 512), (16, 8, 512, 64)]),
]
NAIVE = {"chain4-N40", "net5-N10"}


def path_flops(eq, xs):
    """Optimised and naive FLOP counts of NumPy's einsum_path."""
    _, text = np.einsum_path(eq, *xs, optimize=True)
    opt = naive = None
    for line in text.splitlines():
        if "Optimized FLOP count" in line:
            opt = float(line.split(":")[1])
        elif "Naive FLOP count" in line:
            naive = float(line.split(":")[1])
    return opt, naive


def timeit(f, min_time, max_repeat):
    f()  # warm up (path search, BLAS threads, allocator)
    times = []
    t_end = time.perf_counter() + min_time
    while len(times) < max_repeat and (len(times) < 3 or time.perf_counter() < t_end):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-time", type=float, default=1.0, help="seconds per case and implementation")
    ap.add_argument("--max-repeat", type=int, default=200)
    args = ap.parse_args()
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count()))
    torch.set_num_threads(threads)
    print("# numpy %s, torch %s (%d threads), OPENBLAS_CORETYPE=%s" % (
        np.__version__, torch.__version__, threads, os.environ.get("OPENBLAS_CORETYPE", "")))
    rng = np.random.default_rng(0)
    for name, eq, shapes in CASES:
        xs = [rng.random(s, dtype=np.float32) for s in shapes]
        ts = [torch.from_numpy(x) for x in xs]
        opt, naive = path_flops(eq, xs)
        path, _ = np.einsum_path(eq, *xs, optimize=True)
        print("# %s %s path %s" % (name, eq, path[1:]))
        runs = [("numpy-opt", opt, lambda: np.einsum(eq, *xs, optimize=True)),
                ("torch", opt, lambda: torch.einsum(eq, *ts))]
        if name in NAIVE:
            runs.append(("numpy-naive", naive, lambda: np.einsum(eq, *xs, optimize=False)))
        for impl, flops, f in runs:
            med, best = timeit(f, args.min_time, args.max_repeat)
            print("%s %s %.1f %.1f %.3f" % (name, impl, med * 1e6, best * 1e6, flops / med / 1e9), flush=True)


if __name__ == "__main__":
    main()
