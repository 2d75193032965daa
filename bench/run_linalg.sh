#!/usr/bin/env bash
# Runs tsr's end-to-end linear-algebra benchmarks (bench/linalg_e2e_test.go:
# tensor/linalg on the system LAPACK and on the pure-Go gonum fallback) and
# their NumPy/PyTorch twins (bench/linalg_torch.py) back to back, and prints
# a table of medians (float64, n×n; svd, eigh, cholesky, solve):
#
#   bench/run_linalg.sh                  # n=1024, ROUNDS=2
#   SIZES=512,1024 ROUNDS=3 bench/run_linalg.sh
#   GONUM=0 bench/run_linalg.sh          # skip the slow pure-Go fallback
#
# The system-LAPACK cases and the Python twins run ROUNDS times,
# interleaved; the gonum fallback runs once, one call per case
# (-benchtime=1x: an SVD or eigh takes seconds).
#
# OpenBLAS 0.3.21 misdetects this Xeon (AVX-512) and picks a slow kernel:
# both tsr's system engine (the same libopenblas, loaded by purego) and
# NumPy run with OPENBLAS_CORETYPE=${CORETYPE:-SkylakeX} and
# OPENBLAS_L2_SIZE unset. Set CORETYPE= (empty) to keep the default.
# PyTorch (Debian build) uses its own LAPACK/BLAS threads.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-2}
SIZES=${SIZES:-1024}
CORETYPE=${CORETYPE-SkylakeX}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
blas() { env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE ${CORETYPE:+OPENBLAS_CORETYPE=$CORETYPE} "$@"; }

go test -c -o "$tmp/bench.test" ./bench/
for r in $(seq "$ROUNDS"); do
  echo "== round $r/$ROUNDS" >&2
  blas TSR_LINALG_SIZES="$SIZES" "$tmp/bench.test" -test.run '^$' \
    -test.bench '^BenchmarkLinalgE2E$/^system$' -test.benchtime 3x | tee -a "$tmp/go.txt" >&2
  blas "$PY" bench/linalg_torch.py --sizes "$SIZES" | tee -a "$tmp/py.txt" >&2
done
if [ "${GONUM:-1}" != 0 ]; then
  echo "== gonum fallback (one call per case)" >&2
  blas TSR_LINALG_SIZES="$SIZES" "$tmp/bench.test" -test.run '^$' \
    -test.bench '^BenchmarkLinalgE2E$/^gonum$' -test.benchtime 1x | tee -a "$tmp/go.txt" >&2
fi

"$PY" - "$tmp/go.txt" "$tmp/py.txt" <<'PYEOF'
import re, statistics, sys
res = {}
for line in open(sys.argv[1]):
    m = re.match(r"BenchmarkLinalgE2E/(\w+)/(\w+)/n=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        m2 = re.search(r"([\d.]+) median-ms", line)
        ms = float(m2.group(1)) if m2 else float(m.group(4)) / 1e6
        res.setdefault((m.group(2), int(m.group(3)), m.group(1)), []).append(ms)
for line in open(sys.argv[2]):
    f = line.split()
    if not line.startswith("#") and len(f) == 5:
        res.setdefault((f[0], int(f[1]), f[2]), []).append(float(f[3]))
med = lambda k: statistics.median(res[k]) if k in res else None
fmt = lambda v, spec: format(v, spec) if v is not None else "-"
ratio = lambda a, b: a / b if a is not None and b is not None else None
print()
print("linalg, float64, median times in ms; ratio = tsr / other (< 1: tsr faster)")
print("%-9s %5s %10s %10s %10s %10s %9s %9s %11s" % (
    "op", "n", "tsr-sys", "numpy", "torch", "tsr-gonum", "sys/np", "sys/torch", "gonum/np"))
sizes = sorted({k[1] for k in res})
for n in sizes:
    for op in ("svd", "eigh", "cholesky", "solve"):
        s, np_, tr, g = med((op, n, "system")), med((op, n, "numpy")), med((op, n, "torch")), med((op, n, "gonum"))
        print("%-9s %5d %10s %10s %10s %10s %9s %9s %11s" % (
            op, n, fmt(s, ".1f"), fmt(np_, ".1f"), fmt(tr, ".1f"), fmt(g, ".1f"),
            fmt(ratio(s, np_), ".2f"), fmt(ratio(s, tr), ".2f"), fmt(ratio(g, np_), ".1f")))
PYEOF
