#!/usr/bin/env bash
# Compare tsr's LAPACK layer (system OpenBLAS via purego, and gonum) with
# NumPy on SVD and Eigh, 256×256 and 1024×1024 float64, and print ratios.
#   bench/run_linalg.sh                 # from the repository root or anywhere
#   PYTHON=/usr/bin/python3 BENCHTIME=3s bench/run_linalg.sh
# The 1024 cases run once each (-benchtime=1x): gonum needs 10+ s per op.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench '^Benchmark(SVD|Eigh)$/.*/^n=256$' -benchtime="${BENCHTIME:-2s}" ./backends/lapack | tee "$out"
go test -run '^$' -bench '^Benchmark(SVD|Eigh)$/.*/^n=1024$' -benchtime=1x ./backends/lapack | tee -a "$out"
echo
"$PY" bench/linalg_numpy.py --go-results "$out"
