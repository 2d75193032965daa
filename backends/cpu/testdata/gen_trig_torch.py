#!/usr/bin/python3
"""Golden sin, cos, tan, atan2 and pow (scalar exponent) from PyTorch 1.13
(CPU, one thread) for TestTrigMatchesTorch. f32 results come from torch's
SLEEF u10 kernels (Vectorized<float/double>), "ref" holds glibc's float64
result (called through ctypes) on the same inputs: for f32 inputs, rounded
to float32 it is the correctly rounded result but for ties.
Inputs are stored as bits.

    /usr/bin/python3 backends/cpu/testdata/gen_trig_torch.py > backends/cpu/testdata/trig_torch_golden.json
"""
import ctypes
import ctypes.util
import json
import numpy as np
import torch

torch.set_num_threads(1)
rng = np.random.default_rng(20261130)
SPECIALS = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 3.4e38, -3.4e38,
            np.pi / 2, np.pi, 1e30, -1e30, 2.0 ** 29, 2.0 ** 29 - 32, 1e-8, 100.0]


def trig_inputs(n, dt):
    parts = [rng.uniform(-10, 10, n // 4),
             rng.integers(1, 1 << 20, n // 4) * (np.pi / 2) * (1 + rng.uniform(-1e-7, 1e-7, n // 4)),
             np.sign(rng.uniform(-1, 1, n // 4)) * np.exp(rng.uniform(-20, 70, n // 4)),
             rng.uniform(-1e4, 1e4, n - 3 * (n // 4) - len(SPECIALS)),
             np.array(SPECIALS)]
    return np.concatenate(parts).astype(dt)


def atan2_inputs(n, dt):
    y = np.concatenate([rng.uniform(-10, 10, n - 400), np.sign(rng.uniform(-1, 1, 400)) * np.exp(rng.uniform(-90, 80, 400))])
    x = np.concatenate([rng.uniform(-10, 10, n - 400), np.sign(rng.uniform(-1, 1, 400)) * np.exp(rng.uniform(-90, 80, 400))])
    sp = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan])
    yy, xx = np.meshgrid(sp, sp)
    return np.concatenate([y, yy.ravel()]).astype(dt), np.concatenate([x, xx.ravel()]).astype(dt)


def pow_inputs(n, dt):
    return np.concatenate([rng.uniform(0, 4, n // 2), rng.uniform(-4, 4, n // 4), np.round(rng.uniform(-20, 20, n // 4 - len(SPECIALS))),
                           np.array(SPECIALS)]).astype(dt)


LIBM = ctypes.CDLL(ctypes.util.find_library("m"))
for _name in ["sin", "cos", "tan", "atan2", "pow"]:
    getattr(LIBM, _name).restype = ctypes.c_double
    getattr(LIBM, _name).argtypes = [ctypes.c_double] * (2 if _name in ("atan2", "pow") else 1)


def libm(name, *args):
    """glibc's float64 function (numpy's float64 sin/cos use SVML on
    AVX-512, up to 4 ulp), elementwise."""
    f = getattr(LIBM, name)
    return np.array([f(*(float(v) for v in a)) for a in zip(*args)])


def bits(a):
    a = np.ascontiguousarray(a)
    return [int(v) for v in a.view(np.uint32 if a.dtype == np.float32 else np.uint64)]


out = {"unary": [], "atan2": [], "pow": []}
for dt, n in [(np.float32, 1024), (np.float64, 512)]:
    x = trig_inputs(n, dt)
    for op in ["sin", "cos", "tan"]:
        t = getattr(torch, op)(torch.from_numpy(x)).numpy()
        ref = libm(op, x)
        out["unary"].append({"op": op, "f64": dt == np.float64, "x": bits(x), "torch": bits(t), "ref": bits(ref)})
    y, xx = atan2_inputs(n, dt)
    t = torch.atan2(torch.from_numpy(y), torch.from_numpy(xx)).numpy()
    ref = libm("atan2", y, xx)
    out["atan2"].append({"f64": dt == np.float64, "y": bits(y), "x": bits(xx), "torch": bits(t), "ref": bits(ref)})
    x = pow_inputs(n, dt)
    for e in [1.5, -1.5, 4.0, 0.1, 7.0, 1.0 / 3]:
        t = torch.from_numpy(x).pow(e).numpy()
        ee = float(np.float32(e)) if dt == np.float32 else e
        ref = libm("pow", x, np.full(len(x), ee))
        out["pow"].append({"exp": e, "f64": dt == np.float64, "x": bits(x), "torch": bits(t), "ref": bits(ref)})
print(json.dumps(out))
