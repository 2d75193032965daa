#!/bin/sh
# Runs the tensor elementwise benchmarks and the NumPy reference in the same
# session and prints time ratios (tsr / NumPy; < 1 means tsr is faster).
set -e
cd "$(dirname "$0")/.."
GO_OUT=$(go test -run '^$' -bench 'BenchmarkTensorAdd' -benchtime 30x -count 1 ./bench/)
PY_OUT=$(/usr/bin/python3 bench/elementwise.py)
echo "$GO_OUT" | grep Benchmark
echo "$PY_OUT" | sed 's/^/numpy /'
echo "$GO_OUT" | awk '/^BenchmarkTensor/ { name=$1; sub(/^BenchmarkTensor/, "", name); sub(/-[0-9]+$/, "", name); print name, $3 }' > /tmp/tsr_go_bench.$$
echo "$PY_OUT" > /tmp/tsr_np_bench.$$
awk 'NR==FNR { np[$1]=$2; next } ($1 in np) { printf "%-20s tsr %8.2f ms  numpy %8.2f ms  ratio %.2f\n", $1, $2/1e6, np[$1]/1e6, $2/np[$1] }' \
  /tmp/tsr_np_bench.$$ /tmp/tsr_go_bench.$$
rm -f /tmp/tsr_go_bench.$$ /tmp/tsr_np_bench.$$
