# Golden values for xmath.Expf: glibc's expf (called through ctypes, as
# PyTorch's scalar CPU loops call std::exp(float)) at random float32
# arguments over its whole finite range, including the near-halfway cases
# where it is not correctly rounded.
# Run: /usr/bin/python3 internal/xmath/testdata/gen_expf.py > internal/xmath/testdata/expf_glibc.json
import ctypes, json, math, random, struct

libm = ctypes.CDLL("libm.so.6")
libm.expf.restype = ctypes.c_float
libm.expf.argtypes = [ctypes.c_float]


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


random.seed(13)
args = [0.0, -0.0, 1.0, -1.0, 88.0, -88.0, 88.72283172607422, -103.97207641601562, -104.0, 1e-30, -1e-30, -26.00719451904297]
for _ in range(6000):
    args.append(f32(random.uniform(-104, 88.7)))
for _ in range(2000):
    args.append(f32(random.uniform(-1, 1)))
out = []
for a in args:
    r = libm.expf(a)
    if math.isfinite(r):
        out.append([a, r])
print(json.dumps(out))
