#!/usr/bin/env python3
"""CPython twins of the BenchmarkVM cases in bench/vm_bench_test.go.

Prints one table, milliseconds per run (median of the repeats):

    case | tsr | CPython | tsr/CPython

The tsr column comes from `go test ./bench -bench VM/` (run here unless
--no-tsr; --tsr-out FILE reads saved `go test -bench` output instead, e.g.
several -count runs, of which the median is taken). Run from the repository
root:

    python3 bench/vm_python.py              # CPython 3 on PATH vs tsr
    python3 bench/vm_python.py --no-tsr     # CPython only
"""
import argparse
import re
import statistics
import subprocess
import sys
import time


def fib27():
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)
    return fib(27)


def append300k():
    l = []
    for i in range(300000):
        l.append(i)
    return len(l)


def dictset300k():
    d = {}
    for i in range(300000):
        d[i] = i
    return len(d)


def dictget300k():
    d = {}
    for i in range(1000):
        d[i] = i
    s = 0
    for i in range(300000):
        s += d[i % 1000]
    return s


def wordcount300k():
    words = []
    for i in range(1000):
        words.append(f"w{i}")
    counts = {}
    for i in range(300000):
        w = words[i % 1000]
        counts[w] = counts.get(w, 0) + 1
    return len(counts) + counts["w7"]


def strbuild100k():
    parts = []
    for i in range(100000):
        parts.append(f"{i},")
    s = "".join(parts)
    return len(s)


def unpack1M():
    s = 0
    for i in range(1000000):
        p = (i, 2 * i)
        a, b = p
        s += a + b
    return s


def make(k):
    return lambda x: x + k


def closure1M():
    add = make(3)
    s = 0
    for i in range(1000000):
        s = add(s) % 1000
    return s


def listindex1M():
    l = [0] * 1000
    for i in range(1000000):
        l[i % 1000] = l[i % 1000] + 1
    return l[7]


def arith3M():
    s = 0
    for i in range(3000000):
        s += i * 2 % 7
    return s


def appendloop1M():
    l = []
    for i in range(1000000):
        l.append(i * 2)
    return len(l)


def listcomp1M():
    l = [i * 2 for i in range(1000000)]
    return len(l)


def listcompif1M():
    l = [i for i in range(1000000) if i % 3 == 0]
    return len(l)


def dictcomp300k():
    d = {i: i for i in range(300000)}
    return len(d)


def condexpr1M():
    s = 0
    for i in range(1000000):
        s += 1 if i % 2 == 0 else 2
    return s


CASES = [
    (fib27, 196418), (append300k, 300000), (dictset300k, 300000),
    (dictget300k, 149850000), (wordcount300k, 1300), (strbuild100k, 588890),
    (unpack1M, 1499998500000), (closure1M, 0), (listindex1M, 1000),
    (arith3M, 8999997), (appendloop1M, 1000000), (listcomp1M, 1000000),
    (listcompif1M, 333334), (dictcomp300k, 300000), (condexpr1M, 1500000),
]


def tsr_medians(text):
    """Median ms per case from `go test -bench VM/` output."""
    runs = {}
    for m in re.finditer(r"BenchmarkVM/(\w+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", text):
        runs.setdefault(m.group(1), []).append(float(m.group(2)) / 1e6)
    return {k: statistics.median(v) for k, v in runs.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-tsr", action="store_true")
    ap.add_argument("--tsr-out", help="saved go test -bench output to read")
    ap.add_argument("--count", type=int, default=3, help="go test -count")
    args = ap.parse_args()

    tsr = {}
    if args.tsr_out:
        tsr = tsr_medians(open(args.tsr_out).read())
    elif not args.no_tsr:
        out = subprocess.run(
            ["go", "test", "./bench", "-run", "^$", "-bench", "VM/",
             "-count", str(args.count)],
            capture_output=True, text=True)
        if out.returncode != 0:
            sys.stderr.write(out.stdout + out.stderr)
            sys.exit(1)
        tsr = tsr_medians(out.stdout)

    print(f"CPython {sys.version.split()[0]}")
    print(f"{'case':<16} {'tsr ms':>9} {'CPython ms':>11} {'tsr/CPython':>12}")
    for fn, want in CASES:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            got = fn()
            times.append((time.perf_counter() - t0) * 1e3)
            assert got == want, (fn.__name__, got, want)
        py = statistics.median(times)
        t = tsr.get(fn.__name__)
        ts = f"{t:9.1f}" if t is not None else f"{'-':>9}"
        ratio = f"{t / py:12.2f}" if t is not None else f"{'-':>12}"
        print(f"{fn.__name__:<16} {ts} {py:11.1f} {ratio}")


if __name__ == "__main__":
    main()
