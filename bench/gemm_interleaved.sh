#!/usr/bin/env bash
# Interleaved tsr vs NumPy GEMM comparison for a shared, noisy machine:
# each round runs tsr then NumPy on the same case, and the best of the
# rounds is compared. Single-threaded runs are timed in thread CPU time
# (immune to lost time slices, not to a busy sibling hyperthread); THREADS>1
# uses wall time.
#
#   bench/gemm_interleaved.sh S2048 D2048 S256 S1024T S1024NT   # cases: S|D, n, [T|NT]
#   THREADS=2 ROUNDS=5 bench/gemm_interleaved.sh S2048
#
# NumPy must run on OpenBLAS (apt-get install python3-numpy libopenblas0-pthread;
# Debian's python3-numpy alone brings the reference BLAS).
# NumPy runs with OPENBLAS_CORETYPE=SkylakeX (OpenBLAS 0.3.21 does not know
# this CPU and otherwise picks a slow SSE3 kernel) and OPENBLAS_L2_SIZE unset.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
T=${THREADS:-1}
R=${ROUNDS:-3}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go build -o "$bin" ./bench/gemmcmp
wall=()
[ "$T" -gt 1 ] && wall=(WALL=1)
printf '%-9s %8s %8s %7s\n' case tsr numpy ratio
for c in "$@"; do
  dt=${c:0:1}; rest=${c:1}; n=${rest%%[A-Z]*}; tr=${rest#"$n"}
  bg=0; bn=0
  for _ in $(seq "$R"); do
    g=$(env "${wall[@]}" GOMAXPROCS="$T" "$bin" "$dt" "$n" $tr)
    p=$(env -u OPENBLAS_L2_SIZE "${wall[@]}" OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS="$T" "$PY" bench/gemm_one.py "$dt" "$n" $tr)
    bg=$(awk -v a="$bg" -v b="$g" 'BEGIN{print (b>a)?b:a}')
    bn=$(awk -v a="$bn" -v b="$p" 'BEGIN{print (b>a)?b:a}')
  done
  awk -v c="$c" -v g="$bg" -v p="$bn" 'BEGIN{printf "%-9s %8.1f %8.1f %6.2fx\n", c, g, p, g/p}'
done
