#!/usr/bin/env python3
"""Generate golden.json for backends/lapack from PyTorch (torch.linalg).

Run with the Python that has torch and numpy:
    /usr/bin/python3 backends/lapack/testdata/gen_golden.py

Every case stores its inputs (row-major, float64 values) and, for each dtype
("float64", "float32"), PyTorch's results computed in that dtype, or the
error PyTorch raised (exception class and message). Non-finite numbers are
written as the strings "nan", "inf", "-inf" (JSON has no literal for them).
"cond" is the 2-norm condition number of A (float64), used by the Go tests to
scale tolerances for results whose accuracy depends on it.
"""
import json
import math
import os

import numpy as np
import torch

torch.manual_seed(0)
rng = np.random.RandomState(20240607)
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def flat(t):
    if isinstance(t, torch.Tensor):
        return [num(v) for v in t.detach().to(torch.float64).reshape(-1).tolist()]
    return [num(v) for v in np.asarray(t, dtype=np.float64).reshape(-1)]


def shape(t):
    return list(t.shape)


def cond(a):
    """2-norm condition number; inf only for the exactly singular integer
    matrices (whose zero pivots are exact in any precision), 1e300 for
    matrices that are singular only numerically."""
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:
        return 1.0
    if any(a.shape == M[k].shape and np.array_equal(a, M[k]) for k in EXACT):
        return float("inf")
    s = np.linalg.svd(a, compute_uv=False)
    return 1e300 if s[-1] == 0 else float(s[0] / s[-1])


def hilbert(n):
    return np.array([[1.0 / (i + j + 1) for j in range(n)] for i in range(n)])


M = {}
M["well4"] = rng.randn(4, 4) + 2 * np.eye(4)
M["hilb8"] = hilbert(8)
M["tall6x3"] = rng.randn(6, 3)
M["wide3x5"] = rng.randn(3, 5)
M["one"] = np.array([[-3.0]])
M["zero0x0"] = np.zeros((0, 0))
M["zero0x3"] = np.zeros((0, 3))
M["zero3x0"] = np.zeros((3, 0))
M["rankdef4"] = rng.randn(4, 2) @ rng.randn(2, 4)
B = rng.randn(5, 5)
M["spd5"] = B @ B.T + 5 * np.eye(5)
M["symind4"] = (lambda c: c + c.T)(rng.randn(4, 4))
M["nonsym4"] = rng.randn(4, 4)
M["nonpd3"] = np.array([[4.0, 2, 0], [2, 2, 3], [0, 3, 1]])
M["neg1"] = np.array([[-1.0]])
M["sing2"] = np.array([[1.0, 2], [2, 4]])
M["sing3"] = np.array([[1.0, 2, 3], [2, 4, 6], [1, 0, 1]])
M["perm3"] = np.array([[0.0, 1, 0], [1, 0, 0], [0, 0, 2]])
M["rot3"] = np.array([[1.0, 2, 0], [-2, 1, 0], [0, 0, 3]])
M["rand5"] = rng.randn(5, 5)
M["diag3"] = np.diag([3.0, -1.0, 2.0])
M["ones4x2"] = np.ones((4, 2))
M["tall_rank2_5x3"] = rng.randn(5, 2) @ rng.randn(2, 3)

EXACT = ["sing2", "sing3", "ones4x2"]
cases = []


def run(fn):
    """Return (result, None) or (None, {"type":..., "msg":...})."""
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001 - we record whatever torch raises
        return None, {"type": type(e).__name__.lstrip("_"), "msg": str(e)}


def add(op, name, inputs, per_dtype, a_key="a"):
    exp = {}
    for dn, dt in DTYPES.items():
        res, err = run(lambda: per_dtype(dt))
        exp[dn] = {"error": err} if err else res
    a = inputs[a_key]
    case = {"op": op, "name": name, "cond": num(cond(a))}
    for k, v in inputs.items():
        if isinstance(v, np.ndarray):
            case[k] = flat(v)
            case[k + "_shape"] = list(v.shape)
        else:
            case[k] = v
    case["expected"] = exp
    cases.append(case)


def T(x, dt):
    return torch.tensor(np.asarray(x), dtype=dt)


# SVD ------------------------------------------------------------------------
for name in ["well4", "hilb8", "tall6x3", "wide3x5", "one", "zero0x0", "zero0x3", "zero3x0", "rankdef4"]:
    a = M[name]

    def f(dt, a=a):
        A = T(a, dt)
        U, S, Vh = torch.linalg.svd(A, full_matrices=False)
        Uf, _, Vhf = torch.linalg.svd(A, full_matrices=True)
        return {"s": flat(torch.linalg.svdvals(A)), "u_shape": shape(U), "vt_shape": shape(Vh),
                "u_full_shape": shape(Uf), "vt_full_shape": shape(Vhf),
                "u_full": flat(Uf) if min(a.shape) == 0 else None,
                "vt_full": flat(Vhf) if min(a.shape) == 0 else None}
    add("svd", name, {"a": a}, f)

# Eigh -----------------------------------------------------------------------
for name in ["spd5", "symind4", "hilb8", "nonsym4", "one", "zero0x0"]:
    a = M[name]

    def f(dt, a=a):
        A = T(a, dt)
        return {"w_lower": flat(torch.linalg.eigvalsh(A, UPLO="L")),
                "w_upper": flat(torch.linalg.eigvalsh(A, UPLO="U"))}
    add("eigh", name, {"a": a}, f)

# Eig ------------------------------------------------------------------------
for name in ["rot3", "rand5", "nonsym4", "diag3", "one", "zero0x0", "well4"]:
    a = M[name]

    def f(dt, a=a):
        w = torch.linalg.eigvals(T(a, dt))
        return {"wr": flat(w.real), "wi": flat(w.imag)}
    add("eig", name, {"a": a}, f)

# Cholesky -------------------------------------------------------------------
for name in ["spd5", "hilb8", "nonpd3", "neg1", "one", "zero0x0", "nonsym4"]:
    a = M[name]
    if name == "nonsym4":  # only one triangle is read: make it PD from its lower/upper part
        a = np.tril(M["spd5"][:4, :4]) + np.triu(rng.randn(4, 4), 1)
    if name == "one":
        a = np.array([[9.0]])

    def f(dt, a=a):
        A = T(a, dt)
        out = {}
        for up in (False, True):
            r, e = run(lambda: torch.linalg.cholesky(A, upper=up))
            out["upper" if up else "lower"] = {"error": e} if e else {"l": flat(r)}
        return out
    add("cholesky", name, {"a": a}, f)

# LU -------------------------------------------------------------------------
for name in ["well4", "hilb8", "sing2", "sing3", "one", "zero0x0", "perm3", "rand5"]:
    a = M[name]

    def f(dt, a=a):
        A = T(a, dt)
        LU, piv, info = torch.linalg.lu_factor_ex(A)
        r, e = run(lambda: torch.linalg.lu_factor(A))
        return {"lu": flat(LU), "piv": [int(p) for p in piv.tolist()], "info": int(info), "error": e}
    add("lu", name, {"a": a}, f)

# Solve ----------------------------------------------------------------------
solve_cases = [("well4_1", "well4", 1), ("well4_3", "well4", 3), ("hilb8_2", "hilb8", 2),
               ("sing2", "sing2", 1), ("sing3", "sing3", 2), ("one", "one", 2), ("zero0x0", "zero0x0", 2),
               ("rand5_0", "rand5", 0), ("sing2_0", "sing2", 0)]
for cname, name, nrhs in solve_cases:
    a = M[name]
    b = rng.randn(a.shape[0], nrhs)

    def f(dt, a=a, b=b):
        return {"x": flat(torch.linalg.solve(T(a, dt), T(b, dt)))}
    add("solve", cname, {"a": a, "b": b}, f)

# Inv ------------------------------------------------------------------------
for name in ["well4", "hilb8", "sing2", "sing3", "one", "zero0x0", "perm3"]:
    a = M[name]

    def f(dt, a=a):
        return {"inv": flat(torch.linalg.inv(T(a, dt)))}
    add("inv", name, {"a": a}, f)

# Det / slogdet --------------------------------------------------------------
for name in ["well4", "hilb8", "sing2", "sing3", "perm3", "one", "zero0x0", "rand5", "rankdef4"]:
    a = M[name]

    def f(dt, a=a):
        A = T(a, dt)
        s, l = torch.linalg.slogdet(A)
        return {"det": num(torch.linalg.det(A)), "sign": num(s), "logabsdet": num(l)}
    add("det", name, {"a": a}, f)

# QR -------------------------------------------------------------------------
for name in ["well4", "tall6x3", "wide3x5", "hilb8", "one", "zero0x3", "zero3x0", "rankdef4"]:
    a = M[name]

    def f(dt, a=a):
        A = T(a, dt)
        out = {}
        for mode in ("reduced", "complete", "r"):
            Q, R = torch.linalg.qr(A, mode=mode)
            out[mode] = {"q_shape": shape(Q), "r_shape": shape(R), "r": flat(R),
                         "q": flat(Q) if min(a.shape) == 0 else None}
        return out
    add("qr", name, {"a": a}, f)

# Lstsq ----------------------------------------------------------------------
lstsq_cases = [("tall6x3_2", "tall6x3", 2, None), ("well4_1", "well4", 1, None),
               ("wide3x5_2", "wide3x5", 2, None), ("ones4x2_1", "ones4x2", 1, None),
               ("tall_rank2_5x3_2", "tall_rank2_5x3", 2, None), ("one_1", "one", 1, None),
               ("zero0x3_2", "zero0x3", 2, None), ("zero3x0_2", "zero3x0", 2, None),
               ("hilb8_rcond", "hilb8", 1, 1e-6), ("tall6x3_0", "tall6x3", 0, None)]
for cname, name, nrhs, rcond in lstsq_cases:
    a = M[name]
    b = rng.randn(a.shape[0], nrhs)

    def f(dt, a=a, b=b, rcond=rcond):
        x, res, rank, sv = torch.linalg.lstsq(T(a, dt), T(b, dt), rcond=rcond, driver="gelsd")
        return {"x": flat(x), "residuals": flat(res), "rank": int(rank), "sv": flat(sv)}
    add("lstsq", cname, {"a": a, "b": b, "rcond": -1.0 if rcond is None else rcond}, f)

out = {"generator": "gen_golden.py", "torch": torch.__version__, "numpy": np.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=None, separators=(",", ":"))
    fh.write("\n")
print(f"wrote {len(cases)} cases to {path}")
