import os, random, sys, subprocess, math, torch, re
sys.path.insert(0, '/tmp/h3')
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
SHORT = {torch.float16:'f16', torch.bfloat16:'bf16', torch.float32:'f32', torch.float64:'f64',
         torch.int8:'i8', torch.int16:'i16', torch.int32:'i32', torch.int64:'i64', torch.uint8:'u8', torch.bool:'bool'}
def trepr(t):
    s = repr(t)
    s = re.sub(r'dtype=torch\.(\w+)', lambda m: 'dtype=' + SHORT[getattr(torch, m.group(1))], s)
    return s.replace('True', 'true').replace('False', 'false')
def lit(v):
    if isinstance(v, bool): return 'true' if v else 'false'
    if isinstance(v, float):
        if math.isnan(v): return 'nan'
        if math.isinf(v): return 'inf' if v > 0 else '-inf'
        return repr(v)
    return str(v)
def nest(flat, shape):
    if not shape: return flat[0]
    if len(shape) == 1: return flat[:shape[0]]
    n = len(flat) // shape[0]
    return [nest(flat[i*n:(i+1)*n], shape[1:]) for i in range(shape[0])]
def tolit(x):
    if isinstance(x, list): return '[' + ', '.join(tolit(y) for y in x) + ']'
    return lit(x)
progs = []; wants = []
for k in range(N):
    dt = random.choice([torch.float32]*4 + [torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool])
    nd = random.choice([0, 1, 1, 1, 2, 2, 2, 3])
    shape = [random.choice([1, 2, 3, 4, 5, 7, 12]) for _ in range(nd)]
    if random.random() < 0.1 and nd: shape[-1] = random.choice([15, 20, 30])
    n = 1
    for s in shape: n *= s
    mode = random.choice(['int', 'small', 'wide', 'frac', 'big', 'tiny', 'special', 'neg'])
    vals = []
    for i in range(n):
        if dt == torch.bool: vals.append(random.random() < 0.5); continue
        if dt in (torch.int64, torch.int32, torch.int8, torch.int16):
            lim = {torch.int64: 10**random.choice([1, 3, 6, 12]), torch.int32: 10**random.choice([1, 3, 6]), torch.int8: 127}[dt]
            vals.append(random.randint(-lim, lim)); continue
        if dt == torch.uint8: vals.append(random.randint(0, 255)); continue
        if mode == 'int': v = float(random.randint(-100, 100))
        elif mode == 'small': v = round(random.uniform(-10, 10), 3)
        elif mode == 'wide': v = random.choice([1.0, -1.0]) * 10 ** random.uniform(-6, 9)
        elif mode == 'frac': v = random.uniform(-1, 1)
        elif mode == 'big': v = random.uniform(-1, 1) * 10 ** random.choice([4, 5, 7, 8, 10])
        elif mode == 'tiny': v = random.uniform(-1, 1) * 10 ** random.choice([-3, -4, -5, -8])
        elif mode == 'neg': v = -abs(round(random.uniform(0, 1000), 1))
        else: v = random.choice([math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, 2.0, 1e-5, 123.0, 1e5])
        vals.append(v)
    data = nest(vals, shape) if nd else vals[0]
    rg = dt.is_floating_point and random.random() < 0.15
    t = torch.tensor(data, dtype=dt, requires_grad=rg)
    src = f'tensor({tolit(data)}, dtype={SHORT[dt]}' + (', requires_grad=true' if rg else '') + ')'
    if rg and random.random() < 0.5:
        src = src + '.neg()'; t = t.neg()
    src = 'print(' + src + ')'
    progs.append(src); wants.append(trepr(t))
sep = '###SEP###'
tsr = '\n'.join(p + f'\nprint("{sep}")' for p in progs)
r = subprocess.run([os.environ.get('TSR', '/tmp/tsr'), '-'], input=tsr, capture_output=True, text=True)
outs = r.stdout.split(sep + '\n')
if r.returncode: print('ERR', r.stderr[:2000])
bad = 0
for p, w, o in zip(progs, wants, outs):
    if o.rstrip('\n') != w:
        bad += 1
        if bad <= 8: print('PROG', p[:3000]); print('GOT\n' + o); print('WANT\n' + w); print()
print('bad', bad, 'of', len(progs))
