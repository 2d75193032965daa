#!/usr/bin/env bash
# Runs the autograd benchmarks for tsr and PyTorch in one go and prints ratios.
# Needs /usr/bin/python3 with torch (apt-get install python3-torch).
# COUNT=n sets the number of Go benchmark repeats (default 6).
set -euo pipefail
cd "$(dirname "$0")"
go test -run '^$' -bench 'MLPStep|TapeOverhead' -benchtime=1s -count="${COUNT:-6}" . | tee /tmp/tsr-autograd-bench.txt
/usr/bin/python3 mlp_torch.py | tee /tmp/torch-autograd-bench.txt
python3 - <<'PY'
import re, statistics
go = {}
for line in open('/tmp/tsr-autograd-bench.txt'):
    m = re.match(r'Benchmark(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op', line)
    if m:
        go.setdefault(m.group(1), []).append(float(m.group(3)) / 1000)
th = {}
for line in open('/tmp/torch-autograd-bench.txt'):
    k, v = line.split()[1:3]
    th[k] = float(v)
mlp = statistics.median(go['MLPStep'])
# Micro-benchmarks on a shared machine: the fastest of the repeats is the
# least disturbed estimate of each.
pure = min(go['TapeOverhead/pure'])
rec = min(go['TapeOverhead/recorded'])
print(f"MLP step: tsr {mlp:.1f} us, torch {th['MLPStep_us']:.1f} us, tsr/torch = {mlp / th['MLPStep_us']:.2f}")
print(f"tape overhead per recorded op: tsr {rec - pure:.3f} us, torch {th['mul_recorded_us'] - th['mul_pure_us']:.3f} us")
PY
