#!/bin/sh
# Scaled dot-product attention (B16 H8 S512 D64, f32), the seed's
# benchmark: tsr op by op (AttentionF32, bench/attention_test.go: Matmul
# with a transposed view, MulInplace, Softmax, Matmul) and fused
# (SDPAF32/full and /causal: tensor.ScaledDotProductAttention, what
# nn.scaled_dot_product_attention runs without autograd) against
# PyTorch's einsum version and NumPy's matmul version
# (bench/attention.py), interleaved for ROUNDS rounds; prints medians and
# time ratios (tsr / reference; < 1 means tsr is faster).
# NumPy and "torch" run with OPENBLAS_CORETYPE=SkylakeX and without
# OPENBLAS_L2_SIZE; "torch-default" is torch as installed, without them.
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
  env ${THREADS:+GOMAXPROCS=$THREADS TSR_NUM_THREADS=$THREADS} "$tmp/bench.test" -test.run '^$' -test.bench 'Attention|SDPA' -test.benchtime 3x >>"$tmp/go.txt"
  env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=SkylakeX "$PY" bench/attention.py 3 2>>"$tmp/err.txt" >>"$tmp/py.txt"
  env -u OPENBLAS_L2_SIZE -u OPENBLAS_CORETYPE "$PY" bench/attention.py 3 torch-default 2>>"$tmp/err.txt" >>"$tmp/py.txt"
  i=$((i + 1))
done
sort -u "$tmp/err.txt"
"$PY" bench/elementwise.py --report "$tmp/go.txt" "$tmp/py.txt"
