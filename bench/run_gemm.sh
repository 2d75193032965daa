#!/usr/bin/env bash
# Runs tsr's GEMM benchmarks and NumPy's in one go and prints tsr/NumPy ratios.
#
#   bench/run_gemm.sh            # threads = all cores (GOMAXPROCS / OpenBLAS default)
#   THREADS=1 bench/run_gemm.sh  # single-threaded comparison
#   CORETYPE=SkylakeX bench/run_gemm.sh   # force OpenBLAS's AVX-512 kernels
#   SIZES="256 1024" bench/run_gemm.sh    # only these n (default: 64 … 2048)
#
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE from the environment are unset for
# the NumPy run (they pin old OpenBLAS builds to slow kernels); CORETYPE sets
# the core type explicitly. OpenBLAS 0.3.21 does not know some new CPUs and
# falls back to a slow SSE3 ('Prescott') kernel: the script prints the core
# it chose, and a fair comparison also runs with CORETYPE=SkylakeX.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
THREADS=${THREADS:-$(nproc)}
BENCHTIME=${BENCHTIME:-0.5s}
SIZES=${SIZES:-}
filter=gemm
[ -n "$SIZES" ] && filter="gemm/^($(echo $SIZES | tr ' ,' '||'))(T|NT)?\$"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go test -run '^$' -bench "$filter" -benchtime "$BENCHTIME" -count "${COUNT:-2}" -cpu "$THREADS" ./bench/ | tee "$tmp/go.txt"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE ${CORETYPE:+OPENBLAS_CORETYPE=$CORETYPE} \
  OPENBLAS_NUM_THREADS="$THREADS" "$PY" bench/gemm_numpy.py $(echo $SIZES | tr ',' ' ') | tee "$tmp/np.txt"

echo
printf '%-14s %10s %10s %8s\n' case tsr numpy ratio
awk -v threads="$THREADS" '
  FNR == NR {
    if ($1 ~ /^Benchmark/) {
      name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
      # best of the -count repeats, as the NumPy side takes its best repeat
      for (i = 1; i <= NF; i++) if ($i == "GFLOP/s" && $(i-1) > go[name]) go[name] = $(i-1)
    }
    next
  }
  $1 !~ /^#/ { np[$1] = $2; order[++n] = $1 }
  END {
    for (i = 1; i <= n; i++) {
      c = order[i]
      if (c in go) printf "%-14s %10.1f %10.1f %7.2fx\n", c, go[c], np[c], go[c] / np[c]
    }
  }' "$tmp/go.txt" "$tmp/np.txt"
