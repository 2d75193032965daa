# Golden values for xmath.Log: CPython's math.log (glibc) at random
# arguments over the whole normal range and near 1, each with the correctly
# rounded value (decimal, 60 digits): glibc's log misrounds about 1 case in
# 3000 (results within 0.5001 ulp).
# Run: /usr/bin/python3 internal/xmath/testdata/gen_log.py > internal/xmath/testdata/log_cpython.json
import json, math, random
from decimal import Decimal, getcontext

getcontext().prec = 60

random.seed(12)
args = [0.5, 2.0, 10.0, math.e, 1e-300, 1e300, 1.7976931348623157e308, 2.2250738585072014e-308, 0.9999999999999999, 1.0000000000000002]
for _ in range(3000):
    args.append(random.uniform(0.5, 2.0))
for _ in range(2000):
    args.append(math.ldexp(random.random() + 0.5, random.randint(-1000, 1000)))
for _ in range(1000):
    args.append(1 + random.uniform(-1e-6, 1e-6))
print(json.dumps([[a, math.log(a), float(Decimal(a).ln())] for a in args]))
