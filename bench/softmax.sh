#!/bin/sh
# Softmax family over 4M f32 elements: tsr (bench/softmax_test.go) against
# PyTorch and NumPy (bench/softmax.py), interleaved for ROUNDS rounds, then
# medians and time ratios (tsr / reference; < 1 means tsr is faster).
# NumPy runs with OPENBLAS_CORETYPE=SkylakeX and without OPENBLAS_L2_SIZE.
#
# THREADS=n limits tsr to n kernel goroutines (GOMAXPROCS=n); the default
# is min(cores, 2). On a loaded machine THREADS=1 compares single-core
# efficiency without the wait for a second free core.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" ./bench/
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  env ${THREADS:+GOMAXPROCS=$THREADS TSR_NUM_THREADS=$THREADS} "$tmp/bench.test" -test.run '^$' -test.bench 'Softmax' -test.benchtime 10x >>"$tmp/go.txt"
  env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=SkylakeX "$PY" bench/softmax.py 10 2>>"$tmp/err.txt" >>"$tmp/py.txt"
  i=$((i + 1))
done
sort -u "$tmp/err.txt"
"$PY" bench/elementwise.py --report "$tmp/go.txt" "$tmp/py.txt"
