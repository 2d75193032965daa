# Golden values for xmath.Pow: CPython 3.11's float ** (glibc pow) on
# ordinary arguments, keeping those where glibc's result is the correctly
# rounded one (checked with 60-digit decimal arithmetic), since Pow rounds
# correctly. Run: /usr/bin/python3 testdata/gen_pow.py > testdata/pow_cpython.json
import json, math, random
from decimal import Decimal, getcontext
getcontext().prec = 60
random.seed(11)
def exact(a, b):
    if b == int(b) and abs(b) <= 200:
        return Decimal(a) ** int(b)
    return (Decimal(b) * Decimal(a).ln()).exp()
out = []
while len(out) < 400:
    c = random.random()
    if c < 0.4:
        a = round(random.uniform(0, 10), random.randint(0, 4)); b = round(random.uniform(-20, 20), random.randint(0, 3))
    elif c < 0.7:
        a = math.exp(random.uniform(-300, 300)); b = random.uniform(-2, 2)
    else:
        a = random.choice([1.1, 1.01, 0.9, 2.5, 1.05, 0.5, 3.0]); b = random.choice([2.2, 10, 0.5, 1 / 3, -1.5, 30, 100])
    if a <= 0:
        continue
    try:
        w = a ** b
    except OverflowError:
        continue
    if w == 0 or math.isinf(w) or w < 2.2250738585072014e-308:
        continue
    e = exact(a, b)
    lo, hi = math.nextafter(w, 0), math.nextafter(w, math.inf)
    if abs(Decimal(w) - e) > min(abs(Decimal(lo) - e), abs(Decimal(hi) - e)):
        continue
    out.append([a, b, w])
out += [[1.1, 2.2, 1.1 ** 2.2], [7.0, 19.0, 7.0 ** 19], [1.6, -17.0, 1.6 ** -17], [2.5, -23.0, 2.5 ** -23], [10.0, 0.5, 10.0 ** 0.5]]
print(json.dumps(out))
