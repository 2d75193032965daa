#!/usr/bin/env python3
"""NumPy GEMM baseline for bench/run_gemm.sh.

Prints one line per case, "Sgemm/<n>[T] <GFLOP/s>" (and Dgemm), best of a few
repeats, matching the names of bench/gemm_test.go. Thread count follows
OPENBLAS_NUM_THREADS. The BLAS core type OpenBLAS chose is printed first.
"""
import ctypes
import ctypes.util
import glob
import sys
import time

import numpy as np


def corename():
    for path in glob.glob("/usr/lib/x86_64-linux-gnu/openblas*/libopenblas*.so*"):
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib.openblas_get_corename().decode()
        except (OSError, AttributeError):
            continue
    return "unknown"


def bench(dt, n, trans, reps):
    rng = np.random.default_rng(n)
    a = rng.random((n, n), dtype=np.float64).astype(dt)
    b = rng.random((n, n), dtype=np.float64).astype(dt)
    if trans == "T":
        a = a.T  # a view, like tsr's swapped strides
    elif trans == "NT":
        b = b.T
    a @ b
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2 * n**3 / best / 1e9


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [64, 256, 512, 1024, 2048]
    print("# numpy", np.__version__, "openblas core", corename())
    for name, dt in (("Sgemm", np.float32), ("Dgemm", np.float64)):
        for n in sizes:
            reps = 3 if n >= 1024 else 10 if n >= 256 else 2000
            print(f"{name}/{n} {bench(dt, n, '', reps):.1f}")
            if n == 1024:
                print(f"{name}/{n}T {bench(dt, n, 'T', reps):.1f}")
                print(f"{name}/{n}NT {bench(dt, n, 'NT', reps):.1f}")


if __name__ == "__main__":
    main()
