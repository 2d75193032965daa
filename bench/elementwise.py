#!/usr/bin/python3
"""NumPy and PyTorch references for bench/tensor_bench_test.go.

    elementwise.py [reps] [numpy,torch]      time the cases
    elementwise.py --report GO.txt PY.txt    tsr/reference ratio table

Timing mode prints "name lib median_ns" lines, one per case and library,
with the case names of the Go benchmarks (BenchmarkTensor<name>). NumPy
elementwise ops run on one thread; PyTorch uses its default intra-op
thread count (printed on stderr). Run via bench/run_elementwise.sh.
"""
import statistics
import sys
import time

import numpy as np

N = 2048


def bench(name, lib, fn, reps):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        ts.append(time.perf_counter_ns() - t0)
    print(name, lib, int(statistics.median(ts)), flush=True)


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def numpy_cases(reps):
    rng = np.random.default_rng(0)
    x = rng.random((N, N), dtype=np.float32)
    y = rng.random((N, N), dtype=np.float32)
    yt, row, xi = y.T, y[0], x.copy()
    bench("AddContiguousF32", "numpy", lambda: np.add(x, y), reps)
    bench("AddTransposedF32", "numpy", lambda: np.add(x, yt), reps)
    bench("AddInplaceF32", "numpy", lambda: np.add(xi, y, out=xi), reps)
    bench("MulScalarF32", "numpy", lambda: x * np.float32(0.125), reps)
    bench("AddRowBroadcastF32", "numpy", lambda: x + row, reps)
    bench("ExpF32", "numpy", lambda: np.exp(x), reps)
    bench("TanhF32", "numpy", lambda: np.tanh(x), reps)
    bench("SigmoidF32", "numpy", lambda: sigmoid(x), reps)
    bench("LogF32", "numpy", lambda: np.log(x), reps)
    bench("SqrtF32", "numpy", lambda: np.sqrt(x), reps)
    bench("MaximumF32", "numpy", lambda: np.maximum(x, y), reps)
    bench("SumAllF32", "numpy", lambda: x.sum(), reps)
    bench("SumDim0F32", "numpy", lambda: x.sum(axis=0), reps)
    bench("SumDim1F32", "numpy", lambda: x.sum(axis=1), reps)
    bench("SumTransposedDim0F32", "numpy", lambda: x.T.sum(axis=0), reps)
    bench("MeanDim0F32", "numpy", lambda: x.mean(axis=0), reps)
    bench("AmaxDim0F32", "numpy", lambda: x.max(axis=0), reps)
    bench("AminDim0F32", "numpy", lambda: x.min(axis=0), reps)
    bench("MaxDim0F32", "numpy", lambda: (x.max(axis=0), x.argmax(axis=0)), reps)
    bench("AmaxDim1F32", "numpy", lambda: x.max(axis=1), reps)
    bench("MaxAllF32", "numpy", lambda: x.max(), reps)


def torch_cases(reps):
    import torch

    print("# torch", torch.__version__, "threads", torch.get_num_threads(), file=sys.stderr)
    g = torch.Generator().manual_seed(0)
    x = torch.rand((N, N), generator=g)
    y = torch.rand((N, N), generator=g)
    yt, row, xi = y.t(), y[0], x.clone()
    bench("AddContiguousF32", "torch", lambda: torch.add(x, y), reps)
    bench("AddTransposedF32", "torch", lambda: torch.add(x, yt), reps)
    bench("AddInplaceF32", "torch", lambda: xi.add_(y), reps)
    bench("MulScalarF32", "torch", lambda: x * 0.125, reps)
    bench("AddRowBroadcastF32", "torch", lambda: x + row, reps)
    bench("ExpF32", "torch", lambda: torch.exp(x), reps)
    bench("TanhF32", "torch", lambda: torch.tanh(x), reps)
    bench("SigmoidF32", "torch", lambda: torch.sigmoid(x), reps)
    bench("LogF32", "torch", lambda: torch.log(x), reps)
    bench("SqrtF32", "torch", lambda: torch.sqrt(x), reps)
    bench("MaximumF32", "torch", lambda: torch.maximum(x, y), reps)
    bench("SumAllF32", "torch", lambda: x.sum(), reps)
    bench("SumDim0F32", "torch", lambda: x.sum(0), reps)
    bench("SumDim1F32", "torch", lambda: x.sum(1), reps)
    bench("SumTransposedDim0F32", "torch", lambda: x.t().sum(0), reps)
    bench("MeanDim0F32", "torch", lambda: x.mean(0), reps)
    bench("AmaxDim0F32", "torch", lambda: x.amax(0), reps)
    bench("AminDim0F32", "torch", lambda: x.amin(0), reps)
    bench("MaxDim0F32", "torch", lambda: x.max(0), reps)
    bench("AmaxDim1F32", "torch", lambda: x.amax(1), reps)
    bench("MaxAllF32", "torch", lambda: x.max(), reps)


def report(go_file, py_file):
    """Prints the median time of each case over all rounds in the files
    (Go benchmark output, using the med-ns/op metric when present, and
    this script's lines) and the ratios tsr/numpy and tsr/torch (< 1: tsr
    is faster)."""
    times = {}
    with open(go_file) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[0].startswith("Benchmark") and p[3] == "ns/op":
                name = p[0][len("Benchmark"):].rsplit("-", 1)[0]
                name = name[len("Tensor"):] if name.startswith("Tensor") else name
                ns = float(p[2])
                for i in range(4, len(p) - 1):  # prefer the per-iteration median
                    if p[i + 1] == "med-ns/op":
                        ns = float(p[i])
                times.setdefault(name, {}).setdefault("tsr", []).append(ns)
    with open(py_file) as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and not line.startswith("#"):
                times.setdefault(p[0], {}).setdefault(p[1], []).append(float(p[2]))
    libs = sorted({k for by in times.values() for k in by if k != "tsr"}, key=lambda k: (k != "numpy", k))
    print("%-26s %s %s" % ("case (median ms)", " ".join("%12s" % k for k in ["tsr"] + libs),
                            " ".join("%18s" % ("tsr/" + k) for k in libs)))
    for name, by in times.items():
        if "tsr" not in by:
            continue
        med = {k: statistics.median(v) / 1e6 for k, v in by.items()}
        cols = ["%12.2f" % med[k] if k in med else "%12s" % "-" for k in ["tsr"] + libs]
        ratios = ["%18.2f" % (med["tsr"] / med[k]) if k in med else "%18s" % "-" for k in libs]
        print("%-26s %s %s" % (name, " ".join(cols), " ".join(ratios)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        report(sys.argv[2], sys.argv[3])
        sys.exit(0)
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    which = sys.argv[2] if len(sys.argv) > 2 else "numpy,torch"
    if "numpy" in which:
        numpy_cases(reps)
    if "torch" in which:
        torch_cases(reps)
