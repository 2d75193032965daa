#!/usr/bin/python3
"""Generates the fixtures of stdlib/io_test.go with NumPy and PIL.

Run from the repository root:  /usr/bin/python3 stdlib/testdata/gen_io_golden.py
Writes stdlib/testdata/io/mixed.npz (numpy.savez, one array per dtype),
stdlib/testdata/io/mixed.csv and stdlib/testdata/io/golden.json (the values
those files hold, and statistics of examples/data computed by NumPy/PIL).
"""
import json
import os

import numpy as np
from PIL import Image

out = os.path.join("stdlib", "testdata", "io")
os.makedirs(out, exist_ok=True)

arrays = {
    "f16": np.array([[0.5, -1.25, 65504.0], [6.1035e-05, 0.0, -0.0]], dtype=np.float16),
    "f32": np.array([1.5, -2.0, 3.4028235e38, 1e-45], dtype=np.float32),
    "f64": np.arange(6, dtype=np.float64).reshape(2, 3) / 7.0,
    "i8": np.array([-128, 0, 127], dtype=np.int8),
    "i16": np.array([[-32768, 1], [2, 32767]], dtype=np.int16),
    "i32": np.array([-(2**31), 0, 2**31 - 1], dtype=np.int32),
    "i64": np.array([-(2**63), -1, 2**63 - 1], dtype=np.int64),
    "u8": np.array([[0, 1, 2], [253, 254, 255]], dtype=np.uint8),
    "bool": np.array([True, False, True], dtype=np.bool_),
    "scalar": np.float64(2.5),
}
np.savez(os.path.join(out, "mixed.npz"), **arrays)

golden = {"mixed": {}}
for k, a in arrays.items():
    a = np.asarray(a)
    if a.dtype.kind == "f":
        vals = [float(v) for v in a.astype(np.float64).ravel()]
    elif a.dtype.kind == "b":
        vals = [int(v) for v in a.ravel()]  # bools as 0/1
    else:
        vals = [int(v) for v in a.ravel()]
    golden["mixed"][k] = {"shape": list(a.shape), "values": vals}
golden["order"] = list(arrays.keys())

# A CSV file with a header row and a blank line, read by numpy.
csv = "a,b,c\n1,2.5,-3\n\n4,5e-1,6\n"
with open(os.path.join(out, "mixed.csv"), "w") as f:
    f.write(csv)
golden["csv"] = np.genfromtxt(os.path.join(out, "mixed.csv"), delimiter=",", skip_header=1).tolist()

d = np.load(os.path.join("examples", "data", "digits.npz"))
X, y = d["X"], d["y"]
golden["digits"] = {
    "X_shape": list(X.shape), "y_shape": list(y.shape),
    "X_sum": float(X.astype(np.float64).sum()), "y_first": [int(v) for v in y[:12]],
    "X_row0": [float(v) for v in X[0]],
}
cam = np.asarray(Image.open(os.path.join("examples", "data", "camera.png")))
golden["camera"] = {
    "shape": list(cam.shape), "sum": int(cam.astype(np.int64).sum()),
    "row100": [int(v) for v in cam[100, 200:208]],
}
with open(os.path.join(out, "golden.json"), "w") as f:
    json.dump(golden, f, indent=1)
    f.write("\n")
