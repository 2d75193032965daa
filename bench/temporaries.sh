#!/bin/sh
# Loops whose tensors die every iteration (w = z + z, w = z * 2.0 + z,
# v = v / v.norm() over 1k/100k/1M f32): tsr (bench/temporaries/
# loop_temps.tsr) against its PyTorch twin, THREADS threads each (default
# 1), best of 5. PyTorch frees a tensor when its last reference goes and
# reuses the block while it is hot in cache; tsr's VM does the same for
# claimed variables (runtime.Recyclable). Prints microseconds per
# iteration and the time ratio tsr/torch (< 1: tsr is faster).
# PyTorch: apt-get install python3-torch.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
T=${THREADS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tsr" ./cmd/tsr
GOMAXPROCS=$T "$tmp/tsr" bench/temporaries/loop_temps.tsr >"$tmp/tsr.txt"
if "$PY" -c 'import torch' 2>/dev/null; then
  "$PY" bench/temporaries/loop_temps.py "$T" >"$tmp/torch.txt"
else
  : >"$tmp/torch.txt"
fi
awk 'NR==FNR { t[$1] = $2; next } { printf "%-16s tsr %9.2f us  torch %9.2f us  ratio %.2f\n", $1, $2, t[$1], (t[$1] > 0 ? $2 / t[$1] : 0) }' "$tmp/torch.txt" "$tmp/tsr.txt"
