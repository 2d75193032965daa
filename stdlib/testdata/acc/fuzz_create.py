# Differential fuzz: arange/linspace/logspace values in tsr vs PyTorch 1.13. Usage: TSR=/tmp/tsr /usr/bin/python3 fuzz_create.py SEED
import os, torch, random, subprocess, sys, re
random.seed(int(sys.argv[1]))
SHORT = {torch.float16:'f16', torch.bfloat16:'bf16', torch.float32:'f32', torch.float64:'f64', torch.int64:'i64', torch.int32:'i32'}
tl, pl = [], []
for n in range(150):
    k = random.choice(['arange', 'linspace', 'logspace', 'arange3'])
    dt = random.choice([torch.float32, torch.float64, torch.float32, torch.float16, torch.bfloat16])
    a = round(random.uniform(-5, 5), random.choice([0, 1, 2, 3]))
    b = a + round(random.uniform(0.1, 20), random.choice([0, 1, 2]))
    if k == 'arange':
        st = random.choice([0.1, 0.3, 0.25, 0.7, 1, 2, 0.01 * random.randint(1, 50)])
        args = f'{a!r}, {b!r}, {st!r}'
    elif k == 'arange3':
        args = f'{random.randint(-5, 5)}, {random.randint(6, 40)}, {random.randint(1, 4)}'
    else:
        args = f'{a!r}, {b!r}, {random.randint(1, 30)}'
    kk = 'arange' if k == 'arange3' else k
    tl.append(f'print(({kk}({args}, dtype={SHORT[dt]}) * 1).tolist())')
    try:
        t = getattr(torch, kk)(*eval('(' + args + ',)'), dtype=dt)
        pl.append(repr(t.tolist()))
    except Exception as e:
        pl.append('ERR'); tl[-1] = 'print("ERR")'
open('/tmp/fz_c.tsr', 'w').write('\n'.join(tl) + '\n')
r = subprocess.run([os.environ.get('TSR', '/tmp/tsr-h1'), '/tmp/fz_c.tsr'], capture_output=True, text=True)
got = r.stdout.split('\n')
bad = 0
for i, (t, p) in enumerate(zip(tl, pl)):
    g = got[i] if i < len(got) else r.stderr[-300:]
    if g != p:
        bad += 1
        print("BAD", t); print(" got", g[:600]); print("want", p[:600])
print('bad', bad, r.stderr[-300:])
