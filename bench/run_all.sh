#!/usr/bin/env bash
# Runs every tsr benchmark next to its NumPy and PyTorch twin and prints ONE
# table of medians: workload | tsr | NumPy | PyTorch | tsr/NumPy | tsr/PyTorch
# (ratios < 1: tsr is faster). `make bench` calls it.
#
#   bench/run_all.sh            # full: the default rounds of every script
#   QUICK=1 bench/run_all.sh    # one round each, fewer sizes and repeats,
#                               # no pure-Go LAPACK fallback (~1.5 min on 2 cores)
#
# It drives the per-area scripts (run_gemm.sh, run_elementwise.sh,
# softmax.sh, attention.sh, run_einsum.sh, run_linalg.sh, run_autograd.sh),
# keeps their full output under $KEEP (default: a temporary directory that
# is removed), and merges their result tables. GEMM is reported as time per
# multiply (from GFLOP/s: 2n³ flops), best of the repeats like the script.
#
# The comparison stack is /usr/bin/python3 (PYTHON=… to change) with NumPy
# and PyTorch; on Debian/Ubuntu:
#
#   apt-get install python3-numpy python3-torch libopenblas0-pthread
#
# (Debian's python3-numpy pulls in only the reference BLAS, about 40x
# slower than OpenBLAS at SGEMM 2048; run_all warns when NumPy does not
# run on OpenBLAS.) Without them only the Go benchmarks run (tsr column only). NumPy, and tsr's
# system LAPACK engine (the same libopenblas), run with
# OPENBLAS_CORETYPE=${CORETYPE:-SkylakeX} and OPENBLAS_L2_SIZE unset:
# OpenBLAS 0.3.21 misdetects recent Xeons and otherwise picks a slow SSE3
# kernel. CORETYPE= (empty) keeps OpenBLAS's own choice.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
QUICK=${QUICK:-0}
CORETYPE=${CORETYPE-SkylakeX}
export PYTHON=$PY CORETYPE
if [ -n "${KEEP:-}" ]; then
  out=$KEEP
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
# Any Python 3 parses the results (stdlib only).
PARSE=$PY
"$PARSE" -c 'import statistics' 2>/dev/null || PARSE=python3

have_stack=1
if ! "$PY" -c 'import numpy, torch' 2>/dev/null; then
  have_stack=0
  cat >&2 <<EOF
run_all: $PY cannot import numpy and torch, so the NumPy/PyTorch columns
will be empty and only tsr's Go benchmarks run. To get the comparison, install
the Debian/Ubuntu packages for that interpreter and rerun:

    apt-get install python3-numpy python3-torch libopenblas0-pthread

(or set PYTHON=/path/to/python3 with numpy and torch installed).
EOF
fi

# NumPy's matmul goes through whichever libblas.so.3 the system selects;
# Debian's python3-numpy installs only the reference BLAS.
if [ "$have_stack" = 1 ] && ! "$PY" -c '
import numpy as np
np.ones((64, 64)) @ np.ones((64, 64))
raise SystemExit(0 if "openblas" in open("/proc/self/maps").read() else 1)' 2>/dev/null; then
  cat >&2 <<EOF
run_all: NumPy is not running on OpenBLAS (the system's libblas.so.3 is
another BLAS, likely the reference one), so the NumPy GEMM and linalg
columns do not show NumPy's usual speed. Install OpenBLAS and rerun:

    apt-get install libopenblas0-pthread

EOF
fi

# Header: machine, toolchain, comparison stack.
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
cores=$(nproc)
gover=$(go env GOVERSION 2>/dev/null || go version)
if [ "$have_stack" = 1 ]; then
  pyver=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE ${CORETYPE:+OPENBLAS_CORETYPE=$CORETYPE} "$PY" -c '
import sys; sys.path.insert(0, "bench")
import numpy, torch
from gemm_numpy import corename
print("NumPy %s, PyTorch %s (%d threads), OpenBLAS core %s" % (
    numpy.__version__, torch.__version__, torch.get_num_threads(), corename()))' 2>/dev/null)
else
  pyver="NumPy/PyTorch not installed"
fi
header="machine: ${cpu:-unknown CPU}, $cores cores | $gover | $pyver (OPENBLAS_CORETYPE=${CORETYPE:-default}) | mode: $([ "$QUICK" = 1 ] && echo quick || echo full)"

# step NAME ENV... -- CMD...: runs one script, stdout to $out/NAME.txt,
# stderr to $out/NAME.err, and reports its wall time on stderr.
step() {
  local name=$1; shift
  local t0=$SECONDS
  echo "== $name ..." >&2
  if env "$@" >"$out/$name.txt" 2>"$out/$name.err"; then
    echo "   $name done in $((SECONDS - t0)) s" >&2
  else
    echo "   $name FAILED after $((SECONDS - t0)) s (its rows will be missing); last lines:" >&2
    tail -n 15 "$out/$name.err" "$out/$name.txt" >&2
  fi
}

start=$SECONDS
if [ "$have_stack" = 1 ]; then
  if [ "$QUICK" = 1 ]; then
    step gemm SIZES="64 256 1024 2048" BENCHTIME=0.3s COUNT=1 bench/run_gemm.sh
    step elementwise ROUNDS=1 bench/run_elementwise.sh
    step softmax ROUNDS=1 bench/softmax.sh
    step attention ROUNDS=1 bench/attention.sh
    step einsum ROUNDS=1 bench/run_einsum.sh
    step linalg ROUNDS=1 SIZES=1024 GONUM=0 bench/run_linalg.sh
    step autograd COUNT=2 bench/run_autograd.sh
  else
    step gemm bench/run_gemm.sh
    step elementwise bench/run_elementwise.sh
    step softmax bench/softmax.sh
    step attention bench/attention.sh
    step einsum bench/run_einsum.sh
    step linalg bench/run_linalg.sh
    step autograd bench/run_autograd.sh
  fi
else
  # Go benchmarks only, the same cases as the scripts run.
  go test -c -o "$out/bench.test" ./bench/ || exit 1
  bt=$([ "$QUICK" = 1 ] && echo 1 || echo 3)
  gemm=$([ "$QUICK" = 1 ] && echo 'gemm/^(64|256|1024|2048)(T|NT)?$' || echo gemm)
  run() { "$out/bench.test" -test.run '^$' "$@" >>"$out/goonly.txt" 2>>"$out/goonly.err" || tail -n 15 "$out/goonly.err" >&2; }
  echo "== Go benchmarks only ..." >&2
  run -test.bench "$gemm" -test.benchtime 0.3s
  run -test.bench '^BenchmarkTensor' -test.benchtime $((bt * 10))x
  run -test.bench 'Softmax' -test.benchtime $((bt * 10))x
  run -test.bench 'Attention|SDPA' -test.benchtime 3x
  run -test.bench '^BenchmarkEinsumE2E$' -test.benchtime 1s
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE ${CORETYPE:+OPENBLAS_CORETYPE=$CORETYPE} TSR_LINALG_SIZES=1024 \
    "$out/bench.test" -test.run '^$' -test.bench '^BenchmarkLinalgE2E$/^system$' -test.benchtime 3x >>"$out/goonly.txt" 2>>"$out/goonly.err"
  run -test.bench 'MLPStep|TapeOverhead' -test.benchtime 1s -test.count "$bt"
fi
echo "== all benchmarks done in $((SECONDS - start)) s" >&2

"$PARSE" - "$out" "$header" <<'PYEOF'
import math, os, re, statistics, sys

out, header = sys.argv[1], sys.argv[2]
rows = []  # (workload, tsr_us, numpy_us, torch_us)


def read(name):
    p = os.path.join(out, name + ".txt")
    return open(p).read().splitlines() if os.path.exists(p) else []


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def table(lines, first):
    """Yields the rows (split) after the header line whose first token is
    `first`, together with the header tokens."""
    hdr = None
    for line in lines:
        f = line.split()
        if not f:
            continue
        if f[0] == first and hdr is None:
            hdr = f
            continue
        if hdr is not None:
            yield hdr, f


# GEMM: "case tsr numpy ratio" in GFLOP/s -> time per multiply.
for hdr, f in table(read("gemm"), "case"):
    if len(f) != 4:
        continue
    m = re.match(r"([SD])gemm/(\d+)(T|NT)?$", f[0])
    g, n = num(f[1]), num(f[2])
    if not m or g is None:
        continue
    size = int(m.group(2))
    us = lambda gf: 2 * size**3 / (gf * 1e9) * 1e6 if gf else None
    kind = {"T": "A^T·B", "NT": "A·B^T", None: "A·B"}[m.group(3)]
    rows.append(("gemm %s %d³ %s" % ("f32" if m.group(1) == "S" else "f64", size, kind), us(g), us(n), None))

# elementwise.py --report tables (elementwise, softmax, attention), in ms.
for name, label in (("elementwise", "elem"), ("softmax", "softmax"), ("attention", "attention")):
    libs = None
    for line in read(name):
        if line.startswith("case (median ms)"):
            libs = line.split()[3:]
            libs = libs[: len(libs) // 2 + 1]  # tsr numpy torch
            continue
        f = line.split()
        if len(f) < 3 or f[0].startswith("#") or num(f[1]) is None and f[1] != "-":
            continue
        if libs is None:
            continue
        t = dict(zip(libs, (num(v) for v in f[1:])))
        ms = lambda k: t[k] * 1e3 if t.get(k) is not None else None
        rows.append(("%s %s" % (label, f[0]), ms("tsr"), ms("numpy"), ms("torch")))

# einsum: "case tsr numpy-opt torch ..." in µs.
for hdr, f in table(read("einsum"), "case"):
    if len(f) >= 4 and num(f[1]) is not None:
        rows.append(("einsum " + f[0], num(f[1]), num(f[2]), num(f[3])))

# linalg: "op n tsr-sys numpy torch tsr-gonum ..." in ms.
for hdr, f in table(read("linalg"), "op"):
    if len(f) < 6 or num(f[1]) is None:
        continue
    ms = lambda v: num(v) * 1e3 if num(v) is not None else None
    rows.append(("linalg %s f64 n=%s" % (f[0], f[1]), ms(f[2]), ms(f[3]), ms(f[4])))
    if ms(f[5]) is not None:
        rows.append(("linalg %s f64 n=%s pure-Go" % (f[0], f[1]), ms(f[5]), ms(f[3]), ms(f[4])))

# autograd: two summary sentences, in µs.
for line in read("autograd"):
    m = re.match(r"MLP step: tsr ([\d.]+) us, torch ([\d.]+) us", line)
    if m:
        rows.append(("autograd MLP step 64×256", float(m.group(1)), None, float(m.group(2))))
    m = re.match(r"tape overhead per recorded op: tsr (-?[\d.]+) us, torch (-?[\d.]+) us", line)
    if m:
        rows.append(("autograd tape cost/op", float(m.group(1)), None, float(m.group(2))))

# Go-only mode: every benchmark line, median over repeats.
go = {}
for line in read("goonly"):
    m = re.match(r"Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)", line)
    if not m:
        continue
    us, rest = float(m.group(2)) / 1e3, m.group(3)
    for pat, scale in ((r"([\d.]+) med-ns/op", 1e-3), (r"([\d.]+) median-us", 1), (r"([\d.]+) median-ms", 1e3)):
        m2 = re.search(pat, rest)
        if m2:
            us = float(m2.group(1)) * scale
    go.setdefault(m.group(1), []).append(us)
for k, v in go.items():
    rows.append((k, statistics.median(v), None, None))


def fmt(us):
    if us is None:
        return "-"
    if abs(us) >= 1e6:
        return "%.2f s" % (us / 1e6)
    if abs(us) >= 1e3:
        return "%.2f ms" % (us / 1e3)
    return "%.*f µs" % (2 if abs(us) < 10 else 1 if abs(us) < 100 else 0, us)


def ratio(a, b):
    return a / b if a is not None and b is not None and a > 0 and b > 0 else None


w = max([len(r[0]) for r in rows] + [len("workload")])
line = "%-*s  %11s  %11s  %11s  %9s  %11s"
print()
print(header)
print("median times; ratio = tsr time / other time (< 1: tsr is faster)")
print(line % (w, "workload", "tsr", "NumPy", "PyTorch", "tsr/NumPy", "tsr/PyTorch"))
print("-" * (w + 63))
rn, rt = [], []
for name, t, n, p in rows:
    a, b = ratio(t, n), ratio(t, p)
    if a:
        rn.append(a)
    if b:
        rt.append(b)
    print(line % (w, name, fmt(t), fmt(n), fmt(p),
                  "%.2f" % a if a else "-", "%.2f" % b if b else "-"))
gm = lambda v: "%.2f (%d)" % (math.exp(sum(map(math.log, v)) / len(v)), len(v)) if v else "-"
print("-" * (w + 63))
print(line % (w, "geometric mean (cases)", "", "", "", gm(rn), gm(rt)))
if not rows:
    print("(no results: see the errors above)")
    sys.exit(1)
PYEOF
