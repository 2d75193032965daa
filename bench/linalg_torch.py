#!/usr/bin/python3
"""Time NumPy and PyTorch on the linear-algebra cases of
bench/linalg_e2e_test.go (float64, n x n):

  svd       numpy.linalg.svd(a, full_matrices=False) / torch.linalg.svd
  eigh      numpy.linalg.eigh(spd) / torch.linalg.eigh
  cholesky  numpy.linalg.cholesky(spd) / torch.linalg.cholesky
  solve     numpy.linalg.solve(a, b) / torch.linalg.solve, b of shape [n, 1]

a is standard normal, spd = a a^T / n + I. Output: one line per case,
  <op> <n> <impl> <median ms> <best ms>
with impl numpy or torch; lines starting with '#' are comments.

Usage: /usr/bin/python3 bench/linalg_torch.py [--sizes 1024] [--min-time S]
Run it with OPENBLAS_CORETYPE set for this CPU (see bench/run_linalg.sh).
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch


def timeit(f, min_time, max_repeat=50):
    f()  # warm up (thread pool, workspace queries, page faults)
    times = []
    t_end = time.perf_counter() + min_time
    while len(times) < max_repeat and (len(times) < 3 or time.perf_counter() < t_end):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1024")
    ap.add_argument("--min-time", type=float, default=2.0, help="seconds per case (at least 3 runs)")
    args = ap.parse_args()
    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count()))
    torch.set_num_threads(threads)
    print("# numpy %s, torch %s (%d threads), OPENBLAS_CORETYPE=%s" % (
        np.__version__, torch.__version__, threads, os.environ.get("OPENBLAS_CORETYPE", "")))
    rng = np.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",")):
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, 1))
        spd = a @ a.T / n + np.eye(n)
        ta, tb, tspd = torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(spd)
        cases = [
            ("svd", lambda: np.linalg.svd(a, full_matrices=False), lambda: torch.linalg.svd(ta, full_matrices=False)),
            ("eigh", lambda: np.linalg.eigh(spd), lambda: torch.linalg.eigh(tspd)),
            ("cholesky", lambda: np.linalg.cholesky(spd), lambda: torch.linalg.cholesky(tspd)),
            ("solve", lambda: np.linalg.solve(a, b), lambda: torch.linalg.solve(ta, tb)),
        ]
        for op, fnp, ftorch in cases:
            for impl, f in (("numpy", fnp), ("torch", ftorch)):
                med, best = timeit(f, args.min_time)
                print("%s %d %s %.3f %.3f" % (op, n, impl, med * 1e3, best * 1e3), flush=True)


if __name__ == "__main__":
    main()
