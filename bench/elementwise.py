#!/usr/bin/python3
"""NumPy (and PyTorch) reference for bench/tensor_bench_test.go.

Prints "name lib median_ns" lines, one per case and library, with the case
names of the Go benchmarks (BenchmarkTensor<name>). NumPy elementwise ops
run on one thread; PyTorch uses its default intra-op thread count, which
is printed first. Run via bench/run_elementwise.sh.
"""
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # NumPy-only comparison
    torch = None

N = 2048
REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
rng = np.random.default_rng(0)
x = rng.random((N, N), dtype=np.float32)
y = rng.random((N, N), dtype=np.float32)
yt = y.T
row = y[0]


def bench(name, lib, fn, reps=REPS):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        ts.append(time.perf_counter_ns() - t0)
    ts.sort()
    print(name, lib, ts[len(ts) // 2], flush=True)


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def numpy_cases():
    xi = x.copy()
    bench("AddContiguousF32", "numpy", lambda: np.add(x, y))
    bench("AddTransposedF32", "numpy", lambda: np.add(x, yt))
    bench("AddInplaceF32", "numpy", lambda: np.add(xi, y, out=xi))
    bench("MulScalarF32", "numpy", lambda: x * np.float32(0.125))
    bench("AddRowBroadcastF32", "numpy", lambda: x + row)
    bench("ExpF32", "numpy", lambda: np.exp(x))
    bench("TanhF32", "numpy", lambda: np.tanh(x))
    bench("SigmoidF32", "numpy", lambda: sigmoid(x))
    bench("SumAllF32", "numpy", lambda: x.sum())
    bench("SumDim0F32", "numpy", lambda: x.sum(axis=0))
    bench("SumDim1F32", "numpy", lambda: x.sum(axis=1))
    bench("MeanDim0F32", "numpy", lambda: x.mean(axis=0))
    bench("AmaxDim0F32", "numpy", lambda: x.max(axis=0))
    bench("AmaxDim1F32", "numpy", lambda: x.max(axis=1))
    bench("MaxAllF32", "numpy", lambda: x.max())


def torch_cases():
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    txi = tx.clone()
    tyt, trow = ty.t(), ty[0]
    bench("AddContiguousF32", "torch", lambda: torch.add(tx, ty))
    bench("AddTransposedF32", "torch", lambda: torch.add(tx, tyt))
    bench("AddInplaceF32", "torch", lambda: txi.add_(ty))
    bench("MulScalarF32", "torch", lambda: tx * 0.125)
    bench("AddRowBroadcastF32", "torch", lambda: tx + trow)
    bench("ExpF32", "torch", lambda: torch.exp(tx))
    bench("TanhF32", "torch", lambda: torch.tanh(tx))
    bench("SigmoidF32", "torch", lambda: torch.sigmoid(tx))
    bench("SumAllF32", "torch", lambda: tx.sum())
    bench("SumDim0F32", "torch", lambda: tx.sum(0))
    bench("SumDim1F32", "torch", lambda: tx.sum(1))
    bench("MeanDim0F32", "torch", lambda: tx.mean(0))
    bench("AmaxDim0F32", "torch", lambda: tx.amax(0))
    bench("AmaxDim1F32", "torch", lambda: tx.amax(1))
    bench("MaxAllF32", "torch", lambda: tx.max())


if __name__ == "__main__":
    which = sys.argv[2] if len(sys.argv) > 2 else "numpy,torch"
    if "numpy" in which:
        numpy_cases()
    if "torch" in which and torch is not None:
        print("# torch", torch.__version__, "threads", torch.get_num_threads(), file=sys.stderr)
        torch_cases()
