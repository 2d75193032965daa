#!/bin/sh
# Elementwise and reduction benchmarks: tsr (bench/tensor_bench_test.go)
# against NumPy and PyTorch (bench/elementwise.py), interleaved for ROUNDS
# rounds so machine load hits both alike, then a table of medians and
# time ratios (tsr / reference; < 1 means tsr is faster).
#
#   bench/run_elementwise.sh                 # 3 rounds
#   ROUNDS=5 BENCH=SumDim bench/run_elementwise.sh
#
# tsr uses GetNumThreads() goroutines (min(GOMAXPROCS, 2)); NumPy's
# elementwise ops are single-threaded; PyTorch uses its own default. NumPy
# runs with OPENBLAS_CORETYPE=SkylakeX and without OPENBLAS_L2_SIZE.
#
# THREADS=n limits tsr to n kernel goroutines (GOMAXPROCS=n); the default
# is min(cores, 2). On a loaded machine THREADS=1 compares single-core
# efficiency without the wait for a second free core.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-3}
BENCH=${BENCH:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" ./bench/
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  env ${THREADS:+GOMAXPROCS=$THREADS TSR_NUM_THREADS=$THREADS} "$tmp/bench.test" -test.run '^$' -test.bench "^BenchmarkTensor.*$BENCH" -test.benchtime 10x >>"$tmp/go.txt"
  env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=SkylakeX "$PY" bench/elementwise.py 10 2>>"$tmp/err.txt" | grep -E "$BENCH" >>"$tmp/py.txt" || true
  i=$((i + 1))
done
sort -u "$tmp/err.txt"
"$PY" bench/elementwise.py --report "$tmp/go.txt" "$tmp/py.txt"
