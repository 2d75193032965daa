#!/usr/bin/python3
"""Generate golden fixtures for tensorio tests.

Run from the repository root with the system Python that has numpy and PIL:

    /usr/bin/python3 tensorio/testdata/gen_golden.py

Writes tensorio/testdata/golden.json (expected values for the real data
files in examples/data and for every fixture) and small fixture files under
tensorio/testdata/fixtures/. Values are deterministic (fixed seeds): re-running
reproduces golden.json byte for byte; the .npz fixtures differ only in the
zip entries' timestamps.
"""
import gzip
import io
import json
import os
import struct

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "examples", "data")
FIX = os.path.join(HERE, "fixtures")
os.makedirs(FIX, exist_ok=True)

golden = {"numpy_version": np.__version__}


def summary(a):
    """Shape, dtype and checksums of an array, all as JSON-exact numbers."""
    f = a.astype(np.float64).ravel()
    return {
        "shape": list(a.shape),
        "sum": float(f.sum()),
        "sumsq": float((f * f).sum()),
        "first": [float(x) for x in f[:8]],
        "last": [float(x) for x in f[-8:]],
    }


# --- the real data files ---------------------------------------------------
X = np.load(os.path.join(DATA, "digits_X.npy"))
y = np.load(os.path.join(DATA, "digits_y.npy"))
z = np.load(os.path.join(DATA, "digits.npz"))
csv = np.loadtxt(gzip.open(os.path.join(DATA, "digits.csv.gz"), "rt"), delimiter=",")
cam = np.asarray(Image.open(os.path.join(DATA, "camera.png")))
golden["digits_X"] = dict(summary(X), dtype=str(X.dtype), row5=[float(v) for v in X[5]])
golden["digits_y"] = dict(summary(y), dtype=str(y.dtype), counts=np.bincount(y).tolist())
golden["digits_npz"] = {
    "names": list(z.files),
    "X": dict(summary(z["X"]), dtype=str(z["X"].dtype)),
    "y": dict(summary(z["y"]), dtype=str(z["y"].dtype)),
}
golden["digits_csv"] = dict(summary(csv), row1796=[float(v) for v in csv[-1]])
golden["camera"] = dict(summary(cam), dtype=str(cam.dtype), mode=Image.open(os.path.join(DATA, "camera.png")).mode,
                        pixels=[[r, c, int(cam[r, c])] for r, c in [(0, 0), (100, 200), (255, 256), (511, 511), (300, 7)]])

# --- .npy fixtures: every dtype, both byte orders, Fortran order, versions ---
rng = np.random.default_rng(7)
base = rng.normal(size=(2, 3, 4)) * 50
arrays = {
    "f2": base.astype("<f2"), "f4": base.astype("<f4"), "f8": base.astype("<f8"),
    "i1": base.astype("<i1"), "i2": base.astype("<i2"), "i4": base.astype("<i4"), "i8": base.astype("<i8") * 1000003,
    "u1": np.abs(base).astype("u1"), "b1": base > 0,
}
npy = {}
for code, a in arrays.items():
    variants = {"le": a, "be": a.astype(a.dtype.newbyteorder(">")), "fortran": np.asfortranarray(a)}
    for vname, v in variants.items():
        name = f"{code}_{vname}.npy"
        np.save(os.path.join(FIX, name), v)
        npy[name] = {"shape": list(a.shape), "values": [float(x) for x in a.astype(np.float64).ravel(order="C")]}
for ver in [(1, 0), (2, 0), (3, 0)]:
    name = f"f8_v{ver[0]}.npy"
    with open(os.path.join(FIX, name), "wb") as f:
        np.lib.format.write_array(f, arrays["f8"], version=ver)
    npy[name] = {"shape": [2, 3, 4], "values": [float(x) for x in arrays["f8"].ravel()]}
for name, a in {"scalar.npy": np.array(3.5), "empty.npy": np.zeros((0, 5), "<f4"),
                "vec.npy": np.arange(7, dtype="<i8"), "f4_2d_fortran.npy": np.asfortranarray(np.arange(12, dtype="<f4").reshape(3, 4))}.items():
    np.save(os.path.join(FIX, name), a)
    npy[name] = {"shape": list(a.shape), "values": [float(x) for x in a.astype(np.float64).ravel(order="C")]}
np.save(os.path.join(FIX, "object.npy"), np.array([1, "a", None], dtype=object), allow_pickle=True)
np.save(os.path.join(FIX, "u2.npy"), np.arange(3, dtype="<u2"))
np.save(os.path.join(FIX, "c8.npy"), np.arange(3, dtype="<c8"))
np.save(os.path.join(FIX, "structured.npy"), np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
golden["npy"] = npy

# --- .npz fixtures ---------------------------------------------------------
np.savez_compressed(os.path.join(FIX, "multi_compressed.npz"), w=arrays["f4"], b=arrays["i8"][0], flag=arrays["b1"])
np.savez(os.path.join(FIX, "positional.npz"), arrays["i2"], arrays["u1"])
golden["npz"] = {
    "multi_compressed.npz": {"names": ["w", "b", "flag"], "sums": [float(arrays["f4"].astype(np.float64).sum()), float(arrays["i8"][0].sum()), float(arrays["b1"].sum())]},
    "positional.npz": {"names": ["arr_0", "arr_1"], "sums": [float(arrays["i2"].sum()), float(arrays["u1"].sum())]},
}

# --- float16 / bfloat16 rounding from float64 ------------------------------
def bf16_round(x):
    """Correctly rounded (RNE) float64 -> bfloat16 bits, for normal-range x."""
    b = struct.unpack("<Q", struct.pack("<d", x))[0]
    sign = b >> 63
    exp = (b >> 52) & 0x7FF
    mant = b & ((1 << 52) - 1)
    # bfloat16 keeps 7 of the 52 fraction bits.
    keep, drop = mant >> 45, mant & ((1 << 45) - 1)
    half = 1 << 44
    if drop > half or (drop == half and keep & 1):
        keep += 1
        if keep == 1 << 7:
            keep, exp = 0, exp + 1
    e32 = exp - 1023 + 127
    assert 0 < e32 < 255
    return (sign << 15) | (e32 << 7) | keep

vals = []
r = np.random.default_rng(11)
for _ in range(200):
    # values just above/below a bf16/f16 rounding tie, the double-rounding traps
    m = r.integers(1 << 7, 1 << 8)
    e = int(r.integers(-10, 10))
    tie = (m + 0.5) * 2.0 ** (e - 7)
    for delta in (0.0, 2.0 ** (e - 7 - 30), -(2.0 ** (e - 7 - 30))):
        vals.append(tie + delta)
    m = r.integers(1 << 10, 1 << 11)
    tie = (m + 0.5) * 2.0 ** (e - 10)
    for delta in (0.0, 2.0 ** (e - 10 - 30), -(2.0 ** (e - 10 - 30))):
        vals.append(tie + delta)
vals += [0.1, -2.5, 1e-5, 65504.0, 65520.0, 1e5, 3.14159265358979]
golden["round"] = {
    "x": vals,
    "f16": [int(np.array(v, dtype=np.float64).astype(np.float16).view(np.uint16)) for v in vals],
    "bf16": [bf16_round(v) for v in vals],
}

# --- images ----------------------------------------------------------------
img = {}
rgb = (rng.random((6, 5, 3)) * 255).astype(np.uint8)
rgba = (rng.random((4, 3, 4)) * 255).astype(np.uint8)
la = (rng.random((3, 4, 2)) * 255).astype(np.uint8)
g16 = (rng.random((3, 5)) * 65535).astype(np.uint16)
Image.fromarray(rgb, "RGB").save(os.path.join(FIX, "rgb.png"))
Image.fromarray(rgba, "RGBA").save(os.path.join(FIX, "rgba.png"))
Image.fromarray(la, "LA").save(os.path.join(FIX, "la.png"))
Image.fromarray(g16).save(os.path.join(FIX, "gray16.png"))
pal = Image.fromarray(rgb, "RGB").quantize(colors=4)
pal.info["transparency"] = 0
pal.save(os.path.join(FIX, "palette_trns.png"), transparency=0)
smooth = np.stack(np.meshgrid(np.arange(32) * 8, np.arange(24) * 10), -1)
smooth = np.concatenate([smooth, (smooth[..., :1] // 2 + 60)], -1).astype(np.uint8)  # [24, 32, 3]
Image.fromarray(smooth, "RGB").save(os.path.join(FIX, "smooth.jpg"), quality=95)
Image.fromarray(smooth[..., 0], "L").save(os.path.join(FIX, "smooth_gray.jpg"), quality=95)
for name in ["rgb.png", "rgba.png", "la.png", "gray16.png", "palette_trns.png", "smooth.jpg", "smooth_gray.jpg"]:
    im = Image.open(os.path.join(FIX, name))
    if name == "la.png":
        a = np.asarray(im.convert("RGBA"))
    elif name == "palette_trns.png":
        a = np.asarray(im.convert("RGBA"))
    else:
        a = np.asarray(im)
    img[name] = {"mode": im.mode, "shape": list(a.shape), "values": a.astype(np.int64).ravel().tolist()}
golden["images"] = img

with open(os.path.join(HERE, "golden.json"), "w") as f:
    json.dump(golden, f, indent=1, sort_keys=True)
    f.write("\n")
print("wrote", os.path.join(HERE, "golden.json"))
