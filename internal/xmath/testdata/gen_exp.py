# Golden values for xmath.Exp: CPython 3.11's math.exp (glibc exp) on random
# arguments, including those where Go's math.Exp is off by one ulp.
# Run: /usr/bin/python3 testdata/gen_exp.py > testdata/exp_cpython.json
import json, math, random
random.seed(12)
xs = [random.uniform(-5, 5) for _ in range(300)] + [random.uniform(-700, 700) for _ in range(100)] + [round(random.uniform(-3, 3), 3) for _ in range(100)]
print(json.dumps([[x, math.exp(x)] for x in xs]))
