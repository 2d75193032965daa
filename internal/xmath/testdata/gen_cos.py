# Golden values for xmath.Cos: CPython's math.cos (glibc) at arguments where
# schedules evaluate it and at random points in [-64, 64], each with the
# correctly rounded value (a 100-digit Taylor series in decimal): glibc's cos
# is not correctly rounded in about 1 case in 1000.
# Run: /usr/bin/python3 internal/xmath/testdata/gen_cos.py > internal/xmath/testdata/cos_cpython.json
import json, math, random
from decimal import Decimal, getcontext

getcontext().prec = 100


def cos_cr(x):
    """cos(x) correctly rounded to a float64 (|x| <= 64)."""
    X = Decimal(x)
    s = t = Decimal(1)
    k = 1
    while True:
        t = -t * X * X / ((2 * k - 1) * (2 * k))
        s += t
        if t != 0 and abs(t) < Decimal(10) ** -95:
            break
        if t == 0:
            break
        k += 1
    r = float(s)  # Decimal -> float rounds correctly
    return r


random.seed(11)
args = [0.0, -0.0, 1e-300, 5e-324, 1e-8, 0.5, 1.0, math.pi, math.pi / 2, -math.pi, 2.243994752564138, 64.0, -64.0]
# OneCycleLR / CosineAnnealingLR style arguments: pi * (i / n), i * pi / n
for n in range(1, 40):
    for i in range(n + 1):
        args.append(math.pi * (i / n))
        args.append(i * math.pi / n)
for _ in range(3000):
    args.append(random.uniform(-64, 64))
for _ in range(500):
    args.append(random.uniform(-1e-3, 1e-3))
print(json.dumps([[a, math.cos(a), cos_cr(a)] for a in args]))
