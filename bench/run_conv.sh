#!/bin/sh
# conv2d [32, 64, 56, 56] x [64, 64, 3, 3], padding=1, float32: tsr
# (tensor.Conv2d, im2col + GEMM) against PyTorch, THREADS threads each
# (default 1), interleaved in one run.
set -e
cd "$(dirname "$0")/.."
T=${THREADS:-1}
for i in 1 2; do
	GOMAXPROCS=$T go test -run '^$' -bench BenchmarkConv2d -benchtime 5x ./tensor/ | grep Benchmark
	/usr/bin/python3 bench/conv_torch.py "$T"
done
