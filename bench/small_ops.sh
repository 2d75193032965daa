#!/bin/sh
# Per-op overhead on 4-element tensors: tsr (bench/smallops/small_ops.tsr)
# against its PyTorch twin (small_ops.py), best of 5 runs of 100k ops
# (10k gradient steps). Prints ms and the time ratio tsr/torch (< 1: tsr
# is faster). PyTorch: apt-get install python3-torch.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tsr" ./cmd/tsr
"$tmp/tsr" bench/smallops/small_ops.tsr >"$tmp/tsr.txt"
if "$PY" -c 'import torch' 2>/dev/null; then
  "$PY" bench/smallops/small_ops.py >"$tmp/torch.txt"
else
  : >"$tmp/torch.txt"
fi
awk 'NR==FNR { t[$1] = $2; next } { printf "%-12s tsr %9.1f ms  torch %9.1f ms  ratio %.2f\n", $1, $2, t[$1], (t[$1] > 0 ? $2 / t[$1] : 0) }' "$tmp/torch.txt" "$tmp/tsr.txt"
