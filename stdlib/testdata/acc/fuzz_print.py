# Differential fuzz: random tensors printed by tsr and PyTorch 1.13. Usage: TSR=/tmp/tsr /usr/bin/python3 fuzz_print.py SEED
import os, torch, random, math, sys, subprocess, re
sys.path.insert(0, '/work/wt-h1/stdlib/testdata/acc')
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
SHORT = {torch.float16:'f16', torch.bfloat16:'bf16', torch.float32:'f32', torch.float64:'f64',
         torch.int8:'i8', torch.int16:'i16', torch.int32:'i32', torch.int64:'i64', torch.uint8:'u8', torch.bool:'bool'}
def trepr(t):
    s = repr(t)
    s = re.sub(r'dtype=torch\.(\w+)', lambda m: 'dtype=' + SHORT[getattr(torch, m.group(1))], s)
    return s.replace('True', 'true').replace('False', 'false')
def rval(kind):
    r = random.random()
    if kind == 'f':
        c = random.choice(['small', 'big', 'int', 'mixed', 'tiny', 'special', 'unit'])
        if c == 'small': return random.uniform(-10, 10)
        if c == 'big': return random.uniform(-1, 1) * 10 ** random.randint(3, 12)
        if c == 'int': return float(random.randint(-1000, 1000))
        if c == 'tiny': return random.uniform(-1, 1) * 10 ** -random.randint(3, 12)
        if c == 'special': return random.choice([math.inf, -math.inf, math.nan, 0.0, -0.0])
        if c == 'unit': return random.choice([0.5, 0.25, 1.0, 2.0, -1.5, 0.1])
        return random.gauss(0, 1) * 10 ** random.randint(-6, 6)
    if kind == 'i': return random.choice([random.randint(-10, 10), random.randint(-100000, 100000), random.randint(0, 200)])
    return random.random() < 0.5
cases = []
for n in range(300):
    dt = random.choice(list(SHORT))
    kind = 'b' if dt == torch.bool else ('i' if not dt.is_floating_point else 'f')
    nd = random.choice([0, 1, 1, 2, 2, 3])
    shape = [random.randint(1, 5) for _ in range(nd)]
    if random.random() < 0.1 and nd: shape[0] = random.randint(6, 12)
    mode = random.choice(['uniform', 'each', 'allint'])
    base = rval(kind)
    def gen(sh):
        if not sh:
            if mode == 'allint' and kind == 'f': return float(random.randint(-50, 50))
            if mode == 'uniform' and kind == 'f':
                return random.choice([base, base * random.uniform(0.5, 2)])
            return rval(kind)
        return [gen(sh[1:]) for _ in range(sh[0])]
    data = gen(shape)
    if kind == 'i':
        info = torch.iinfo(dt)
        def clamp(x):
            if isinstance(x, list): return [clamp(v) for v in x]
            return max(info.min, min(info.max, x))
        data = clamp(data)
    t = torch.tensor(data, dtype=dt)
    lit = repr(t.tolist()).replace('True', 'true').replace('False', 'false').replace('inf', 'INF').replace('nan', 'NAN')
    lit = lit.replace('-INF', '-inf').replace('INF', 'inf').replace('NAN', 'nan')
    cases.append((f'print(tensor({lit}, dtype={SHORT[dt]}))', trepr(t)))
src = '\n'.join(c[0] for c in cases)
open('/tmp/fz.tsr', 'w').write(src + '\n')
r = subprocess.run([os.environ.get('TSR', '/tmp/tsr-h1'), '/tmp/fz.tsr'], capture_output=True, text=True)
want = '\n'.join(c[1] for c in cases) + '\n'
if r.stdout == want: print('OK', len(cases)); sys.exit(0)
# split by cases: compare one by one
bad = 0
for c in cases:
    r = subprocess.run([os.environ.get('TSR', '/tmp/tsr-h1'), '-c', c[0]], capture_output=True, text=True)
    if r.stdout.strip() != c[1].strip():
        bad += 1
        if bad <= 8: print('CASE', c[0][:300], '\nGOT\n', r.stdout, r.stderr[:300], '\nWANT\n', c[1])
print('bad', bad)
