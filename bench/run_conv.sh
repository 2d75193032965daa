#!/bin/sh
# conv2d [32, 64, 56, 56] x [64, 64, 3, 3], padding=1, float32, forward
# and backward (input and weight gradients): tsr (tensor.Conv2d and
# tensor.ConvBackward) against PyTorch, THREADS threads each (default 1),
# interleaved, ROUNDS rounds (default 2). Compare tsr's best-ms with
# torch's ms (both the best of their runs).
set -e
cd "$(dirname "$0")/.."
T=${THREADS:-1}
go test -c -o /tmp/tsr_conv_bench.test ./tensor/
i=0
while [ "$i" -lt "${ROUNDS:-2}" ]; do
	GOMAXPROCS=$T /tmp/tsr_conv_bench.test -test.run '^$' -test.bench 'BenchmarkConv2d' -test.benchtime 5x | grep Benchmark
	/usr/bin/python3 bench/conv_torch.py "$T"
	i=$((i + 1))
done
