# Differential checks of tsr against PyTorch 1.13 / CPython 3.11: every `### name`
# block of a .cases file is a tsr program, `---`, and its Python twin (P prints with
# tsr spellings). Usage: TSR=/tmp/h1tsr /usr/bin/python3 harness.py *.cases  (ONLY=substr)
import os, sys, io, re, subprocess, contextlib, math, traceback
import torch
torch.set_printoptions(profile="default")
SHORT = {torch.float16:'f16', torch.bfloat16:'bf16', torch.float32:'f32', torch.float64:'f64',
         torch.int8:'i8', torch.int16:'i16', torch.int32:'i32', torch.int64:'i64', torch.uint8:'u8', torch.bool:'bool'}
def trepr(t):
    s = repr(t)
    s = re.sub(r'dtype=torch\.(\w+)', lambda m: 'dtype=' + SHORT[getattr(torch, m.group(1))], s)
    s = s.replace('True', 'true').replace('False', 'false')
    return s
def fmt(v, top=True):
    if isinstance(v, bool): return 'true' if v else 'false'
    if v is None: return 'none'
    if isinstance(v, torch.Size): return str(list(v))
    if isinstance(v, torch.dtype): return SHORT[v]
    if isinstance(v, torch.Tensor): return trepr(v)
    if type(v).__module__ == 'torch.return_types':
        name = type(v).__name__
        return name + '(' + ', '.join(f + '=' + fmt(getattr(v, f), False) for f in type(v).__match_args__) + ')'
    if isinstance(v, list): return '[' + ', '.join(fmt(x, False) for x in v) + ']'
    if isinstance(v, tuple):
        if len(v) == 1: return '(' + fmt(v[0], False) + ',)'
        return '(' + ', '.join(fmt(x, False) for x in v) + ')'
    if isinstance(v, dict): return '{' + ', '.join(fmt(k, False) + ': ' + fmt(x, False) for k, x in v.items()) + '}'
    if isinstance(v, str): return v if top else repr(v)
    return repr(v) if not top else str(v)
def P(*a, sep=' ', end='\n'):
    sys.stdout.write(sep.join(fmt(x) for x in a) + end)
def E(f):
    try:
        f()
    except Exception as e:
        P(type(e).__name__)

def load(path):
    cases = []
    txt = open(path).read()
    for block in re.split(r'^### ', txt, flags=re.M)[1:]:
        name, rest = block.split('\n', 1)
        tsr, py = rest.split('\n---\n', 1)
        cases.append((name.strip(), tsr.strip('\n'), py.strip('\n')))
    return cases

def main():
    fails = 0; n = 0
    only = os.environ.get('ONLY')
    cases = [c for f in sys.argv[1:] for c in load(f)]
    for name, tsr, py in cases:
        if only and only not in name: continue
        n += 1
        buf = io.StringIO()
        g = {'torch': torch, 'P': P, 'E': E, 'math': math, 'F': torch.nn.functional, 'inf': math.inf, 'nan': math.nan}
        try:
            with contextlib.redirect_stdout(buf):
                exec(py, g)
        except Exception:
            print(f'PYERR {name}:', traceback.format_exc()); fails += 1; continue
        want = buf.getvalue()
        r = subprocess.run([os.environ.get('TSR', '/tmp/h1tsr'), '-c', tsr], capture_output=True, text=True, timeout=60)
        got = r.stdout + (('STDERR: ' + r.stderr) if r.returncode else '')
        if got.strip() != want.strip():
            fails += 1
            print(f'=== FAIL {name}\n--- tsr:\n{tsr}\n--- got:\n{got}--- want:\n{want}')
    print(f'{n - fails}/{n} pass')
main()
