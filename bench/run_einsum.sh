#!/usr/bin/env bash
# Runs tsr's end-to-end einsum benchmarks (bench/einsum_e2e_test.go) and
# their NumPy/PyTorch twins (bench/einsum_numpy.py) back to back, ROUNDS
# times interleaved, and prints a table of medians:
#
#   bench/run_einsum.sh                    # ROUNDS=2
#   ROUNDS=3 PYTHON=/usr/bin/python3 bench/run_einsum.sh
#
# Ratios are tsr time / other time (< 1: tsr is faster). "naive" columns
# are the speedup of tsr's einsum over the naive loop order (one nested
# loop over all indices: a plain Go loop nest, and NumPy optimize=False).
# "vs gemm" is the einsum time over bare cpu.SgemmBatched calls of the same
# shapes, alternated in one benchmark (1.00 = GEMM speed).
#
# NumPy runs with OPENBLAS_CORETYPE=${CORETYPE:-SkylakeX} and
# OPENBLAS_L2_SIZE unset: OpenBLAS 0.3.21 misdetects this Xeon and would
# otherwise pick a slow kernel. Set CORETYPE= (empty) to keep its default.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-2}
CORETYPE=${CORETYPE-SkylakeX}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go test -c -o "$tmp/bench.test" ./bench/
for r in $(seq "$ROUNDS"); do
  echo "== round $r/$ROUNDS" >&2
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkEinsumE2E$' -test.benchtime 1s | tee -a "$tmp/go.txt" >&2
  # a fixed count: 1s would give the attention pair only 4-6 samples
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkEinsumVsGemm$' -test.benchtime 15x | tee -a "$tmp/go.txt" >&2
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkEinsumNaive$' -test.benchtime 2x | tee -a "$tmp/go.txt" >&2
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE ${CORETYPE:+OPENBLAS_CORETYPE=$CORETYPE} \
    "$PY" bench/einsum_numpy.py --min-time 1 | tee -a "$tmp/py.txt" >&2
done

"$PY" - "$tmp/go.txt" "$tmp/py.txt" <<'PYEOF'
import re, statistics, sys
go, py = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"Benchmark(Einsum\w+)/([\w-]+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)", line)
    if not m:
        continue
    kind, case, ns, rest = m.group(1), m.group(2), float(m.group(3)), m.group(4)
    if kind == "EinsumVsGemm":
        metrics = dict((k, float(v)) for v, k in re.findall(r"([\d.]+) (\S+)", rest))
        go.setdefault((kind, case), []).append(metrics["einsum/gemm"])
    else:
        m2 = re.search(r"([\d.]+) median-us", rest)
        go.setdefault((kind, case), []).append(float(m2.group(1)) if m2 else ns / 1e3)
for line in open(sys.argv[2]):
    f = line.split()
    if line.startswith("#") or len(f) != 5:
        continue
    py.setdefault((f[1], f[0]), []).append(float(f[2]))
med = lambda d, k: statistics.median(d[k]) if k in d else None
fmt = lambda v, spec: format(v, spec) if v is not None else "-"
cases = ["chain3", "chain4-N40", "net5-N10", "attn-scores", "attn-values"]
print()
print("einsum, float32, median times in microseconds; ratio = tsr / other (< 1: tsr faster)")
hdr = "%-12s %11s %11s %11s %9s %9s %12s %12s %8s" % (
    "case", "tsr", "numpy-opt", "torch", "/numpy", "/torch", "naive-go/tsr", "naive-np/tsr", "vs gemm")
print(hdr)
for c in cases:
    t = med(go, ("EinsumE2E", c))
    n, tr = med(py, ("numpy-opt", c)), med(py, ("torch", c))
    ng, nn = med(go, ("EinsumNaive", c)), med(py, ("numpy-naive", c))
    vg = med(go, ("EinsumVsGemm", c))
    print("%-12s %11s %11s %11s %9s %9s %12s %12s %8s" % (
        c, fmt(t, ".1f"), fmt(n, ".1f"), fmt(tr, ".1f"),
        fmt(t / n if t and n else None, ".2f"), fmt(t / tr if t and tr else None, ".2f"),
        fmt(ng / t if t and ng else None, ".0f"), fmt(nn / t if t and nn else None, ".0f"),
        fmt(vg, ".2f")))
PYEOF
