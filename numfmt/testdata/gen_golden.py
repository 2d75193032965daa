#!/usr/bin/env python3
"""Generate format_golden.json: Python's format(value, spec) and repr(float).

Run with any CPython >= 3.11 (the messages checked are 3.11's):

    python3 numfmt/testdata/gen_golden.py

Each "format" case holds the value (floats as IEEE-754 bit patterns in hex,
ints as decimal strings), the spec, and either Python's output or the
exception's class and message. tsr spells booleans true/false, so the
empty-spec output of a bool is translated. Each "repr" case holds the bits of
a double and repr() of it.
"""
import json
import math
import os
import random
import struct


def bits(f):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", f))[0]


def run(v, spec):
    try:
        out = format(v, spec)
    except Exception as e:  # noqa: BLE001 - record every error kind
        return {"error": {"kind": type(e).__name__, "msg": str(e)}}
    if isinstance(v, bool) and spec == "":
        out = out.lower()
    return {"out": out}


FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005,
    1 / 3, 2 / 3, -1 / 7, 0.1, 0.2, 0.3, 3.14159, 100.0, 1e15, 1e16, 1e17,
    9999999999999998.0, 1234567890123456.0, 12345678901234567.0, 1e21, 1e22,
    123456789.123, 1234567.0, 999999.5, 9.5, 0.95, 0.045, 0.0005, 99.995,
    9.9999, 1e-4, 1e-5, 0.0001234, 9.999e-5, 1e100, 1.5e300, -1.5e300,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 12345.6789,
    -98765.4321, 0.000123456, 6.02214076e23, 1.602176634e-19,
    math.nan, math.inf, -math.inf,
]

FLOAT_SPECS = [
    "", "f", ".2f", ".0f", ".1f", ".3f", ".10f", ".20f", "e", ".3e", ".0e",
    ".12e", "E", "g", ".3g", ".0g", ".1g", ".10g", ".17g", "G", ".3G", "%",
    ".1%", ".0%", "n", ".3n", ".3", ".1", ".0", ".10", ".17", "10", "<10",
    ">12.3f", "^12.3e", "=+12.3f", "+", " ", "-", "+.2f", " .2e", "010.3f",
    "012,.2f", ",", "_", ",.2f", "_.3f", ",.0f", ",g", ",e", "#", "#.0f",
    "#.0e", "#g", "#.3g", "#.0g", "#.3", "#.0%", "z", "z.1f", "z.0f",
    "+z.2f", "z.2e", "*^15,.2f", "0=12.4e", "x<12g", "020,", "07", "F",
    ".2F", "-^9", "=10", " =10.1f", "€>10.2f", "^+12,.1f", "015_.3f",
]

INTS = [
    0, 1, -1, 7, 42, -42, 255, -255, 1000, 4096, 1234567, -1234567, 65, 955,
    2**31, 2**53 + 1, 2**63 - 1, -2**63, 0x10FFFF,
]

INT_SPECS = [
    "", "d", "b", "o", "x", "X", "#b", "#o", "#x", "#X", "c", ",", "_", "_b",
    "_o", "_x", "#_x", "#_b", "010", "010,", "09,", "08_", "+d", " d", "-d",
    "<8", ">8", "^8", "=8", "*^9", "08b", "#010x", "#012_x", "n", "e", ".2f",
    "%", "g", ".3g", "E", ",.2f", "+,", "-", "=+10,", "^+10", "0=9_", "*=9,",
    "010.2%", ".0e", "z.1f", "", "30", "<30,",
    # errors
    "s", ".2", ".2d", "z", "zd", "+c", "#c", ",c", "_n", ",n", ",,", "__",
    "_,", ",_", "abc", ".", "10dd", "99999999999999999999999", "\x00", "€",
]

BOOL_SPECS = ["", "d", ">6", "^7", "x", "#b", "f", ".2f", "%", "e", "c", "s",
              "z", "05", "+"]

STRINGS = ["abc", "", "héllo", "aaaaaaaaaa", "€x"]

STRING_SPECS = [
    "", "s", "10", "<10", ">10", "^10", "*^9", ".2", "5.1", ".0", "05", "<05",
    "x<7s", "010s", "^", "1",
    # errors
    "+", " ", "-", "#", "=5", ",", "_", "z", "d", "r", ",s", "10.2ss",
]

FLOAT_ERROR_SPECS = ["d", "x", "c", "s", "b", "abc", ".", "10.2fx", ",,",
                     "_,", ",_", "__", ",n", "_n", "99999999999999999999999",
                     ".2z", "\x00", "€", "=", "#z"]


def format_cases():
    cases = []
    for v in FLOATS:
        for s in FLOAT_SPECS:
            cases.append({"type": "float", "value": bits(v), "spec": s, **run(v, s)})
    for v in [1.5, -0.0, math.nan]:
        for s in FLOAT_ERROR_SPECS:
            cases.append({"type": "float", "value": bits(v), "spec": s, **run(v, s)})
    for v in INTS:
        for s in INT_SPECS:
            cases.append({"type": "int", "value": str(v), "spec": s, **run(v, s)})
    for v in [True, False]:
        for s in BOOL_SPECS:
            cases.append({"type": "bool", "value": v, "spec": s, **run(v, s)})
    for v in STRINGS:
        for s in STRING_SPECS:
            cases.append({"type": "str", "value": v, "spec": s, **run(v, s)})
    # Rounding edge cases: exact binary values near decimal ties.
    rng = random.Random(7)
    for _ in range(300):
        k = rng.randint(0, 6)
        v = rng.randint(-10**7, 10**7) / 10**rng.randint(0, 8)
        v += rng.choice([0, 5 / 10**(k + 1)])
        s = rng.choice([".%df" % k, ".%de" % k, ".%dg" % (k + 1), ".%d" % (k + 1),
                        ".%d%%" % k, ",.%df" % k])
        cases.append({"type": "float", "value": bits(v), "spec": s, **run(v, s)})
    # Random specs from the grammar's pieces (some deliberately malformed).
    pieces = [["", "", "<", ">", "^", "=", "*<", "0>", "x^", "_="],
              ["", "", "+", "-", " "], ["", "", "z"], ["", "", "#"], ["", "", "0"],
              ["", "", "1", "7", "12", "25"], ["", "", ",", "_"],
              ["", "", ".0", ".1", ".3", ".12"],
              ["", "", "d", "f", "F", "e", "E", "g", "G", "%", "n", "x", "X", "o", "b", "c", "s"]]
    values = [0.0, -0.0, 1.5, -2.5, 1234.5678, -0.000123, 1e20, math.inf, math.nan,
              0, 7, -42, 1234567, "ab", True]
    for _ in range(1500):
        spec = "".join(rng.choice(p) for p in pieces)
        v = rng.choice(values)
        if isinstance(v, float):
            cases.append({"type": "float", "value": bits(v), "spec": spec, **run(v, spec)})
        elif isinstance(v, bool):
            cases.append({"type": "bool", "value": v, "spec": spec, **run(v, spec)})
        elif isinstance(v, int):
            cases.append({"type": "int", "value": str(v), "spec": spec, **run(v, spec)})
        else:
            cases.append({"type": "str", "value": v, "spec": spec, **run(v, spec)})
    return cases


def repr_cases():
    rng = random.Random(12345)
    vals = [0.0, -0.0, 1.0, 0.1, 100.0, 1e-5, 1e-4, 0.0001, 1e16, 1e15,
            9999999999999998.0, 1.5e300, 5e-324, 1.7976931348623157e308,
            2.2250738585072014e-308, 2e16 + 8, 123456789012345678.0,
            0.30000000000000004, 1 / 3, math.inf, -math.inf, math.nan,
            9.999999999999999e-05, 1e22, 1e23, float(2**53), float(2**63)]
    for _ in range(1500):  # random bit patterns (finite)
        while True:
            v = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if math.isfinite(v):
                break
        vals.append(v)
    for _ in range(1000):  # random magnitudes
        vals.append(rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30))
    for _ in range(500):  # short decimals
        vals.append(round(rng.uniform(-1000, 1000), rng.randint(0, 6)))
    for e in range(-8, 20):  # around the exponent-form thresholds
        for m in (1.0, 9.999999, 5.5):
            vals.append(m * 10.0 ** e)
    return [{"bits": bits(v), "repr": repr(v)} for v in vals]


def main():
    out = {
        "python": "%d.%d.%d" % __import__("sys").version_info[:3],
        "format": format_cases(),
        "repr": repr_cases(),
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "format_golden.json")
    with open(path, "w", encoding="utf-8") as f:
        # One case per line: reviewable diffs, modest size.
        f.write('{"python": %s,\n' % json.dumps(out["python"]))
        for key in ("format", "repr"):
            f.write('"%s": [\n' % key)
            f.write(",\n".join(json.dumps(c, ensure_ascii=False) for c in out[key]))
            f.write("\n]%s\n" % ("," if key == "format" else "}"))
    print("wrote %d format and %d repr cases to %s" % (len(out["format"]), len(out["repr"]), path))


if __name__ == "__main__":
    main()
