#!/usr/bin/env python3
"""NumPy reference timings for tsr's LAPACK layer (backends/lapack).

Times numpy.linalg.svd (full_matrices=False; square inputs, so the same as
NumPy's default) and numpy.linalg.eigh on random n×n float64 matrices, and,
given the output of `go test -bench` for BenchmarkSVD/BenchmarkEigh
(--go-results FILE), prints the ratio tsr/NumPy for each engine (> 1 means
tsr is slower). Usually run through bench/run_linalg.sh.
"""
import argparse
import re
import time

import numpy as np

OPS = {
    "SVD": lambda a: np.linalg.svd(a, full_matrices=False),
    "Eigh": lambda a: np.linalg.eigh(a),
}


def time_op(f, a, min_time):
    f(a)  # warm up (thread pool, page faults)
    best, total, reps = float("inf"), 0.0, 0
    while total < min_time or reps < 1:
        t0 = time.perf_counter()
        f(a)
        dt = time.perf_counter() - t0
        best, total, reps = min(best, dt), total + dt, reps + 1
    return best


def parse_go(path):
    """{(op, engine, n): ns/op} from `go test -bench` output."""
    res = {}
    pat = re.compile(r"^Benchmark(\w+)/(\w+)/n=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op")
    with open(path) as fh:
        for line in fh:
            m = pat.match(line.strip())
            if m:
                op, eng, n, ns = m.group(1), m.group(2), int(m.group(3)), float(m.group(4))
                key = (op, eng, n)
                res[key] = min(res.get(key, float("inf")), ns)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="256,1024")
    ap.add_argument("--go-results", help="file with `go test -bench` output")
    ap.add_argument("--min-time", type=float, default=1.0, help="seconds per size (at least one run)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = np.random.default_rng(0)
    go = parse_go(args.go_results) if args.go_results else {}
    print(f"numpy {np.__version__}; best of runs; ratio = tsr time / numpy time")
    print(f"{'op':<5} {'n':>5} {'numpy ms':>10} {'system ms':>10} {'ratio':>7} {'gonum ms':>10} {'ratio':>7}")
    for name, f in OPS.items():
        for n in sizes:
            a = rng.standard_normal((n, n))
            t = time_op(f, a, args.min_time if n <= 256 else 0)
            row = f"{name:<5} {n:>5} {t * 1e3:>10.2f}"
            for eng in ("system", "gonum"):
                ns = go.get((name, eng, n))
                if ns is None:
                    row += f" {'-':>10} {'-':>7}"
                else:
                    row += f" {ns / 1e6:>10.2f} {ns / 1e9 / t:>7.2f}"
            print(row)


if __name__ == "__main__":
    main()
