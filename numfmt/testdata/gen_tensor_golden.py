#!/usr/bin/env python3
"""Generate tensor_golden.json: PyTorch's repr(tensor) in tsr's spelling.

Run with a Python that has torch (on this project's machines /usr/bin/python3):

    /usr/bin/python3 numfmt/testdata/gen_tensor_golden.py

For each case we store the shape, element kind, dtype, print options, the
flat values FormatTensor will read (all of them, or for a summarised tensor
only the printed ones, with their flat indices), the suffixes a tsr caller
passes, and the expected text.

The expected text is PyTorch's own repr(t) with tsr's spellings put in
textually ("dtype=torch.float64" -> "dtype=f64", True/False ->
true/false): the line breaks, including the one before a suffix, are
where PyTorch puts them, although tsr's dtype names are shorter (numfmt
reckons a dtype suffix with PyTorch's spelling for that reason).
"""
import itertools
import json
import math
import os
import re

import torch

TSR_DTYPE = {
    torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.uint8: "u8", torch.bool: "bool",
}
TORCH_NAME = {
    "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
    "bool": "bool", "float": "f32", "double": "f64", "half": "f16", "long": "i64",
    "int": "i32", "short": "i16",
}

DEFAULT_OPTS = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None)


def kind_of(t):
    if t.dtype.is_floating_point:
        return "float"
    if t.dtype == torch.bool:
        return "bool"
    return "int"


def grad_fn_name(t):
    return type(t.grad_fn).__name__


def tsr_suffixes(t):
    """The suffixes a tsr caller passes (PyTorch's rules, tsr's names)."""
    suf = []
    if t.numel() == 0:
        if t.dtype != torch.float32:
            suf.append("dtype=" + TSR_DTYPE[t.dtype])
    elif t.dtype not in (torch.float32, torch.int64, torch.bool):
        suf.append("dtype=" + TSR_DTYPE[t.dtype])
    if t.grad_fn is not None:
        suf.append("grad_fn=<%s>" % grad_fn_name(t))
    elif t.requires_grad:
        suf.append("requires_grad=true")
    return suf


def translate_repr(s):
    s = re.sub(r"dtype=torch\.(\w+)", lambda m: "dtype=" + TORCH_NAME[m.group(1)], s)
    s = re.sub(r"\bTrue\b", "true", s)
    s = re.sub(r"\bFalse\b", "false", s)
    return s


def kept_indices(shape, summarize, edge):
    """Per-dim printed indices (get_summarized_data / _tensor_str_with_formatter)."""
    kept = []
    for n in shape:
        if summarize and n > 2 * edge:
            kept.append(list(range(edge)) + list(range(n - edge, n)))
        else:
            kept.append(list(range(n)))
    return kept


def value_str(v, kind):
    if kind == "float":
        return repr(float(v))
    if kind == "int":
        return str(int(v))
    return bool(v)


CASES = []


def add(name, t, **opts):
    o = dict(DEFAULT_OPTS)
    o.update(opts)
    torch.set_printoptions(**o)
    try:
        want = translate_repr(repr(t))
        kind = kind_of(t)
        flat = t.detach().reshape(-1)
        if t.dtype in (torch.float16, torch.bfloat16):
            flat = flat.float()
        case = {
            "name": name,
            "shape": list(t.shape),
            "kind": kind,
            "dtype": TSR_DTYPE[t.dtype],
            "opts": {k: o[k] for k in ("precision", "edgeitems", "linewidth")},
            # null for an infinite threshold (profile "full")
            "threshold": o["threshold"] if math.isfinite(o["threshold"]) else None,
            "sci_mode": o["sci_mode"],
            "suffix": tsr_suffixes(t),
            "repr": want,
        }
        summarize = t.numel() > o["threshold"]
        if summarize:
            kept = kept_indices(list(t.shape), True, o["edgeitems"])
            strides = [math.prod(t.shape[d + 1:]) for d in range(t.dim())]
            idx = [sum(i * s for i, s in zip(pos, strides)) for pos in itertools.product(*kept)]
            vals = flat[torch.tensor(idx, dtype=torch.long)].tolist() if idx else []
            case["idx"] = idx
            case["vals"] = [value_str(v, kind) for v in vals]
        else:
            case["vals"] = [value_str(v, kind) for v in flat.tolist()]
        CASES.append(case)
    finally:
        torch.set_printoptions(profile="default", sci_mode=None)


def main():
    torch.manual_seed(0)
    nan, inf = math.nan, math.inf
    T = torch.tensor

    # 0-d tensors
    for i, v in enumerate([3.0, 1.5, -0.0, 0.0, nan, inf, -inf, 1e-5, 123456789.0, 1e8,
                           0.1, -2.5, 1e-4, 9.5e-5, 12345.678]):
        add("scalar_f32_%d" % i, T(v))
    add("scalar_int", T(7))
    add("scalar_int_neg", T(-123))
    add("scalar_bool_t", T(True))
    add("scalar_bool_f", T(False))
    add("scalar_f64", T(1 / 3, dtype=torch.float64))
    add("scalar_i32", T(5, dtype=torch.int32))
    add("scalar_grad", T(2.0, requires_grad=True))
    add("scalar_f16", T(0.1, dtype=torch.float16))

    # 1-d floats: modes and widths
    vecs = {
        "intmode": [0.0, 1.0, 2.0],
        "intmode_neg": [-1.0, 10.0, -100.0],
        "fixed": [1.5, 2.25, -3.125],
        "sci_small": [0.5, 1e-5],
        "sci_ratio": [1.0, 1001.5],
        "fixed_ratio_edge": [1.0, 999.5],
        "int_ratio_1000": [1.0, 1000.0],
        "int_ratio_1001": [1.0, 1001.0],
        "int_big": [1e8, 1.0],
        "int_big2": [1e9],
        "int_big_neg": [-1e8, 3.0],
        "fixed_hi": [0.1, 100.0],
        "fixed_hi2": [0.1, 100.5],
        "negzero": [-0.0, 0.0],
        "negzero_one": [-0.0, 1.0],
        "negzero_frac": [-0.0, 1.5],
        "nan_one": [nan, 1.0],
        "nan_inf": [nan, inf, -inf],
        "nan_frac": [nan, 1.5, -inf],
        "inf_tiny": [inf, 1e-5],
        "zeros": [0.0, 0.0, 0.0],
        "min_1e4": [1e-4, 1.0],
        "below_1e4": [9.99e-5, 1.0],
        "big_frac": [123456.789, 1.5],
        "huge": [1e38, 1e-38],
        "subnormal": [1e-45, 1.0],
        "sci_neg": [-1e-7, 2.5e10, 3.0],
        "rounding": [0.00005, 0.00015, 1.23445, 2.5],
        "nines": [9.99995, 99.99995, 0.99995],
        "min_5e4": [0.0005, 0.1],
        "min_1_2e4": [0.00012, 0.05],
        "ratio_1000_frac": [0.5, 500.0],
        "ratio_1001_frac": [0.5, 500.5],
        "hi_1e8_frac": [1e8, 2e5 + 0.5],
    }
    for name, v in vecs.items():
        add("vec_" + name, T(v))
    add("vec_intmode_all_nan", T([nan, nan]))
    add("vec_sci_forced_zero", T([0.0, 0.0]), sci_mode=True)

    # random magnitudes
    for k in [-6, -4, -3, -1, 0, 1, 3, 5, 8, 9]:
        add("randn_e%d" % k, torch.randn(7) * 10.0 ** k)
        add("randn2d_e%d" % k, torch.randn(3, 4) * 10.0 ** k)

    # wide rows that wrap
    add("wrap_arange_float", torch.arange(30.0) / 7)
    add("wrap_randn", torch.randn(50))
    add("wrap_int", torch.arange(100))
    add("wrap_int_neg", torch.arange(-60, 60, 3))
    add("wrap_sci", torch.arange(40.0) * 1e5 + 0.5)
    add("wrap_bool", torch.arange(40) % 3 == 0)
    add("wrap_2d", torch.randn(4, 30))
    add("wrap_3d", torch.randn(2, 2, 25))
    add("wrap_intmode", torch.arange(64.0))

    # higher dims
    add("mat_randn", torch.randn(3, 4))
    add("mat_arange", torch.arange(12).reshape(3, 4))
    add("mat_eye", torch.eye(3))
    add("mat_bool", torch.eye(3) > 0)
    add("mat_1x1", T([[5.0]]))
    add("mat_col", torch.randn(4, 1))
    add("t3_arange", torch.arange(24).reshape(2, 3, 4))
    add("t3_float", torch.arange(24.0).reshape(2, 3, 4) / 4)
    add("t4_randn", torch.randn(2, 2, 2, 3))
    add("t4_int", torch.arange(36).reshape(3, 1, 3, 4) - 18)
    add("t5", torch.arange(32.0).reshape(2, 2, 2, 2, 2))
    add("t3_singletons", torch.randn(1, 1, 3))

    # summaries
    add("sum_1001", torch.arange(1001))
    add("sum_float_2000", torch.arange(2000.0))
    add("sum_randn_100x100", torch.randn(100, 100))
    add("sum_3d", torch.randn(20, 30, 40))
    add("sum_4d", torch.arange(10000).reshape(10, 10, 10, 10))
    add("sum_rows_only", torch.randn(2000, 3))
    add("sum_cols_only", torch.randn(3, 2000))
    add("sum_bool", torch.arange(1500) % 2 == 0)
    add("sum_million", torch.arange(1_000_000.0))
    add("sum_sci", torch.randn(50, 50) * 1e-6)
    add("sum_mixed_width", torch.cat([torch.zeros(1000), T([123456.5])]))
    add("sum_hidden_big", torch.cat([T([1.5]), torch.full((1000,), 1e9), T([2.5, 3.5, 4.5])]))
    add("sum_wrap", torch.randn(30, 1200))
    add("sum_dim_eq_2edge", torch.arange(1206).reshape(6, 201))
    add("sum_dim_2edge_plus1", torch.arange(1050).reshape(7, 150))
    add("sum_last_dim_eq_2edge", torch.arange(1206.0).reshape(201, 6) / 8)

    # empty
    add("empty_1d", T([]))
    add("empty_0x3", torch.zeros(0, 3))
    add("empty_2x0x4_i64", torch.zeros(2, 0, 4, dtype=torch.int64))
    add("empty_i32", torch.zeros(0, dtype=torch.int32))
    add("empty_i64", torch.zeros(0, dtype=torch.int64))
    add("empty_bool", torch.zeros(0, dtype=torch.bool))
    add("empty_f64_grad", torch.zeros(0, 2, dtype=torch.float64, requires_grad=True))

    # dtypes
    add("f16", T([0.1, 0.2, 1000.0, -3.5], dtype=torch.float16))
    add("f16_big", T([65504.0, 1.0], dtype=torch.float16))
    add("f16_intmode", T([1.0, 2.0], dtype=torch.float16))
    add("bf16", T([0.1, 3.14159, -2.0], dtype=torch.bfloat16))
    add("bf16_sci", T([1e-5, 1e10], dtype=torch.bfloat16))
    add("f64", T([1 / 3, 2 / 3, 1e-300 * 0 + 1.0], dtype=torch.float64))
    add("f64_min_1e4", T([1e-4, 0.05], dtype=torch.float64))
    add("f64_hi_above_1e8", T([100000001.5, 1e6 + 0.5], dtype=torch.float64))
    add("f64_int_1e8", T([1e8, 1e6], dtype=torch.float64))
    add("f64_int_above_1e8", T([100000001.0, 1e6], dtype=torch.float64))
    add("f64_huge", T([1e300, 1e-300], dtype=torch.float64))
    add("f64_randn", torch.randn(3, 3, dtype=torch.float64))
    add("i8", T([-128, 0, 127], dtype=torch.int8))
    add("i16", T([[-300, 5], [7, 32767]], dtype=torch.int16))
    add("i32", T([1, 2], dtype=torch.int32))
    add("u8", T([0, 255, 3], dtype=torch.uint8))
    add("i64_extremes", T([-2**63, 2**63 - 1, 0]))
    add("i32_wrap", torch.arange(0, 3000, 97, dtype=torch.int32))

    # autograd suffixes
    x = torch.randn(3, requires_grad=True)
    add("requires_grad", x)
    add("grad_fn_mul", x * 2)
    add("grad_fn_sum", (x * 2).sum())
    add("grad_fn_f64", torch.randn(2, 2, dtype=torch.float64, requires_grad=True) + 1)
    for n in range(8, 14):
        w = torch.arange(float(n), requires_grad=True) / 3
        add("grad_wrap_%d" % n, w * 1)  # last line near the 80-column limit
    add("grad_long_2d", torch.randn(3, 8, requires_grad=True) * 1)
    add("grad_i32_suffixes", T([1, 2, 3], dtype=torch.float64, requires_grad=True).sum(0, keepdim=True))

    # print options
    add("opt_precision2", torch.randn(5), precision=2)
    add("opt_precision8_f64", torch.randn(4, dtype=torch.float64), precision=8)
    add("opt_precision0", T([1.5, 2.25, 3.75]), precision=0)
    add("opt_linewidth120", torch.randn(40), linewidth=120)
    add("opt_linewidth40", torch.randn(3, 12), linewidth=40)
    add("opt_linewidth10", torch.arange(20), linewidth=10)
    add("opt_sci_on", T([1.5, 2.25]), sci_mode=True)
    add("opt_sci_on_int", T([1.0, 2.0]), sci_mode=True)
    add("opt_sci_off", T([0.5, 1e-5]), sci_mode=False)
    add("opt_sci_off_big", T([1e10, 1.0]), sci_mode=False)
    add("opt_threshold5", torch.arange(10), threshold=5)
    add("opt_threshold5_2d", torch.arange(20).reshape(4, 5), threshold=5)
    add("opt_edge1", torch.arange(2000).reshape(20, 100), edgeitems=1)
    add("opt_edge5", torch.randn(40, 40), edgeitems=5)
    add("opt_short", torch.randn(3000), precision=2, edgeitems=2)
    add("opt_full", torch.arange(1500), threshold=math.inf)
    # the suffix line-break rule at its boundary: last+len(suffix)+2 > linewidth
    for lw in (35, 36, 37):
        add("opt_suffix_edge_%d" % lw, T([1.5, 2.5], dtype=torch.float64), linewidth=lw)
    y = T([1.5, 2.5], dtype=torch.float64, requires_grad=True) * 2
    for lw in (49, 50, 51):
        add("opt_suffix2_edge_%d" % lw, y, linewidth=lw)
    # first suffix wraps; the second then fits iff 7 + 9 + 21 + 2 <= linewidth
    z = torch.arange(6.0, dtype=torch.float64, requires_grad=True) * 1
    for lw in (38, 39, 40):
        add("opt_suffix3_edge_%d" % lw, z, linewidth=lw)
    add("opt_suffix_narrow", T([1.5, 2.5], dtype=torch.float64, requires_grad=True) * 2, linewidth=30)

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tensor_golden.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"torch": %s,\n"cases": [\n' % json.dumps(torch.__version__))
        f.write(",\n".join(json.dumps(c) for c in CASES))
        f.write("\n]}\n")
    print("wrote %d cases to %s" % (len(CASES), path))


if __name__ == "__main__":
    main()
