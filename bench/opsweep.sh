#!/bin/sh
# A sweep of common tensor ops (reductions, elementwise math, sort, softmax,
# a transpose copy; then indexing, data movement, creation, nn functions)
# on 1000x1000 f32 tensors, one thread each: tsr (bench/opsweep/ops.tsr,
# ops2.tsr; nn.tsr: layer_norm and cross_entropy, forward and training
# step) against their PyTorch twins (ops.py, ops2.py, nn.py); SWEEPS="nn"
# runs only the named sweeps (SWEEPS=trig: sin, cos, tan, atan2, pow, gelu
# in f32 and f64, trig.tsr / trig.py; SWEEPS=act: relu, leaky_relu,
# hardtanh and clamp, out of place and in place, on 4M f32 elements at one
# and two threads, name@threads, act.tsr / act.py, run with GOMAXPROCS=2;
# neither is run by default). ROUNDS=n runs each sweep n times, tsr and
# torch interleaved, and keeps each case's best time (default 1). Prints
# microseconds per call and the time ratio tsr/torch (< 1: tsr is faster).
# PyTorch: apt-get install python3-torch.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tsr" ./cmd/tsr
for r in $(seq "${ROUNDS:-1}"); do
  for f in ${SWEEPS:-ops ops2 nn}; do
    procs=1
    [ "$f" = act ] && procs=2
    GOMAXPROCS=${GOMAXPROCS:-$procs} "$tmp/tsr" bench/opsweep/$f.tsr >>"$tmp/tsr.txt"
    if "$PY" -c 'import torch' 2>/dev/null; then
      "$PY" bench/opsweep/$f.py >>"$tmp/torch.txt"
    fi
  done
done
touch "$tmp/torch.txt"
# best of the rounds per case, in first-seen order
best() { awk '!($1 in b) { o[n++] = $1; b[$1] = $2 } $2 < b[$1] { b[$1] = $2 } END { for (i = 0; i < n; i++) print o[i], b[o[i]] }' "$1"; }
best "$tmp/torch.txt" >"$tmp/torch.best"
best "$tmp/tsr.txt" >"$tmp/tsr.best"
awk 'NR==FNR { t[$1] = $2; next } { printf "%-18s tsr %9.1f us  torch %9.1f us  ratio %.2f\n", $1, $2, t[$1], (t[$1] > 0 ? $2 / t[$1] : 0) }' "$tmp/torch.best" "$tmp/tsr.best"
