#!/usr/bin/python3
"""PyTorch and NumPy references for bench/softmax_test.go: softmax,
log_softmax and logsumexp over 4M f32 elements. Prints "name lib
median_ns" lines with the Go benchmark names (Benchmark<name>); NumPy's
version is the usual max-shifted exp / sum formula. Run via
bench/softmax.sh."""
import statistics
import sys

import numpy as np

from elementwise import bench

CASES = [  # name, rows, cols, dim, log
    ("SoftmaxRows1024F32", 4096, 1024, -1, False),
    ("SoftmaxRows128F32", 32768, 128, -1, False),
    ("LogSoftmaxRows1024F32", 4096, 1024, -1, True),
    ("SoftmaxDim0F32", 2048, 2048, 0, False),
]


def np_softmax(x, dim, log):
    m = x.max(axis=dim, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(axis=dim, keepdims=True)
    if log:
        return x - m - np.log(s)
    e /= s
    return e


def np_logsumexp(x, dim):
    m = x.max(axis=dim, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=dim, keepdims=True))).squeeze(dim)


def main(reps, which):
    rng = np.random.default_rng(1)
    if "numpy" in which:
        for name, r, c, dim, log in CASES:
            x = rng.standard_normal((r, c), dtype=np.float32)
            bench(name, "numpy", lambda: np_softmax(x, dim, log), reps)
        x = rng.standard_normal((4096, 1024), dtype=np.float32)
        bench("SoftmaxLogSumExpRows1024F32", "numpy", lambda: np_logsumexp(x, -1), reps)
    if "torch" in which:
        import torch

        print("# torch", torch.__version__, "threads", torch.get_num_threads(), file=sys.stderr)
        for name, r, c, dim, log in CASES:
            x = torch.randn(r, c)
            f = torch.log_softmax if log else torch.softmax
            bench(name, "torch", lambda: f(x, dim), reps)
        x = torch.randn(4096, 1024)
        bench("SoftmaxLogSumExpRows1024F32", "torch", lambda: torch.logsumexp(x, -1), reps)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15, sys.argv[2] if len(sys.argv) > 2 else "numpy,torch")
