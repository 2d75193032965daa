#!/bin/sh
# A sweep of common tensor ops (reductions, elementwise math, sort, softmax,
# a transpose copy; then indexing, data movement, creation, nn functions)
# on 1000x1000 f32 tensors: tsr (bench/opsweep/ops.tsr, ops2.tsr; nn.tsr:
# layer_norm and cross_entropy, forward and training step) against their
# PyTorch twins (ops.py, ops2.py, nn.py). SWEEPS="nn" runs only the named
# sweeps (not run by default: SWEEPS=trig: sin, cos, tan, atan2, pow, gelu in
# f32 and f64, trig.tsr / trig.py; SWEEPS=gaps: f64 pow, exact gelu,
# cross_entropy, cumsum/cumprod, stack, pad, interpolate, exponential_, amin,
# gaps.tsr / gaps.py; SWEEPS=act: relu, leaky_relu, hardtanh and clamp, out
# of place and in place, on 4M f32 elements at one and two threads, name@n,
# act.tsr / act.py, always run with GOMAXPROCS of at least 2).
# THREADS="1 2" repeats the sweep with GOMAXPROCS / torch.set_num_threads at
# each count (default 1). ROUNDS=n runs tsr and torch alternately n times
# (interleaved, so both see the same machine load) and keeps each case's
# best time (default 1). Prints microseconds per call and the time ratio
# tsr/torch (< 1: tsr is faster). PyTorch: apt-get install python3-torch.
set -e
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tsr" ./cmd/tsr
havetorch=0
if "$PY" -c 'import torch' 2>/dev/null; then havetorch=1; fi
for th in ${THREADS:-1}; do
  : >"$tmp/tsr.txt"
  : >"$tmp/torch.txt"
  r=0
  while [ "$r" -lt "${ROUNDS:-1}" ]; do
    for f in ${SWEEPS:-ops ops2 nn}; do
      procs=$th
      [ "$f" = act ] && [ "$th" -lt 2 ] && procs=2
      GOMAXPROCS=$procs "$tmp/tsr" bench/opsweep/$f.tsr >>"$tmp/tsr.txt"
      if [ "$havetorch" = 1 ]; then
        TSR_BENCH_THREADS=$th "$PY" bench/opsweep/$f.py >>"$tmp/torch.txt"
      fi
    done
    r=$((r + 1))
  done
  [ "${THREADS:-1}" = 1 ] || echo "threads $th"
  # Best time per case over the rounds, in first-seen order.
  awk 'NR==FNR { if (!($1 in t) || $2 < t[$1]) t[$1] = $2; next }
       !($1 in b) { o[++n] = $1 } !($1 in b) || $2 < b[$1] { b[$1] = $2 }
       END { for (i = 1; i <= n; i++) { k = o[i]; printf "%-14s tsr %9.1f us  torch %9.1f us  ratio %.2f\n", k, b[k], t[k], (t[k] > 0 ? b[k] / t[k] : 0) } }' \
    "$tmp/torch.txt" "$tmp/tsr.txt"
done
