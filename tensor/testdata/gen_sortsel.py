"""Golden cases (PyTorch) for sort/topk/median/kthvalue, cumsum/cumprod,
gather, mask/integer indexing and reductions of broadcast views.

Run with /usr/bin/python3 tensor/testdata/gen_sortsel.py from the repo root;
writes tensor/testdata/sortsel.json. Where PyTorch leaves the index among
tied values unspecified (topk, median, kthvalue), the inputs have distinct
values, or only values are recorded ("values_only").
"""
import json, math, os
import torch

torch.manual_seed(1)
DT = {'f16': torch.float16, 'bf16': torch.bfloat16, 'f32': torch.float32, 'f64': torch.float64,
      'i8': torch.int8, 'i16': torch.int16, 'i32': torch.int32, 'i64': torch.int64,
      'u8': torch.uint8, 'bool': torch.bool}
NAME = {v: k for k, v in DT.items()}

def enc(x):
    if math.isnan(x): return "nan"
    if math.isinf(x): return "inf" if x > 0 else "-inf"
    return x

def tdesc(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bool: v = [bool(x) for x in t.reshape(-1).tolist()]
    elif t.dtype.is_floating_point: v = [enc(float(x)) for x in t.double().reshape(-1).tolist()]
    else: v = [int(x) for x in t.reshape(-1).tolist()]
    return {'values': v, 'shape': list(t.shape), 'dtype': NAME[t.dtype]}

C = []
def case(op, a, args, values, indices=None, values_only=False, **extra):
    c = {'op': op, 'a': tdesc(a), 'args': args, 'values': tdesc(values), 'values_only': values_only}
    if indices is not None: c['indices'] = tdesc(indices)
    c.update(extra)
    C.append(c)

ties = torch.randint(-5, 5, (5, 40)).float()
ties[1, 3] = ties[2, 7] = ties[4, 0] = float('nan')
ties[0, 1] = -0.0
for dim in (0, 1):
    for desc in (False, True):
        v, i = torch.sort(ties, dim=dim, descending=desc, stable=True)
        case('sort', ties, {'dim': dim, 'descending': desc}, v, i)
ints = torch.randint(-1000, 1000, (300,), dtype=torch.int32)
for desc in (False, True):
    v, i = torch.sort(ints, descending=desc, stable=True)
    case('sort', ints, {'dim': 0, 'descending': desc}, v, i)

distinct = torch.randperm(800).float().reshape(4, 200) / 7 - 50
for largest in (True, False):
    for k in (1, 5, 50):
        v, i = torch.topk(distinct, k, dim=1, largest=largest)
        case('topk', distinct, {'k': k, 'dim': 1, 'largest': largest}, v, i)
    v, i = torch.topk(distinct, 3, dim=0, largest=largest)
    case('topk', distinct, {'k': 3, 'dim': 0, 'largest': largest}, v, i)
    v, i = torch.topk(ties, 7, dim=1, largest=largest)
    case('topk', ties, {'k': 7, 'dim': 1, 'largest': largest}, v, i, values_only=True)

med = torch.randperm(5 * 101).double().reshape(5, 101)
med[3, 10] = float('nan')
for dim, keep in ((1, False), (0, True)):
    v, i = torch.median(med, dim=dim, keepdim=keep)
    case('median', med, {'dim': dim, 'keepdim': keep}, v, i)
v, i = torch.median(ties, dim=1)
case('median', ties, {'dim': 1, 'keepdim': False}, v, i, values_only=True)
flat = torch.randn(1001)
case('median_all', flat, {}, torch.median(flat))
for k in (1, 10, 101):
    v, i = torch.kthvalue(med, k, dim=1)
    case('kthvalue', med, {'k': k, 'dim': 1, 'keepdim': False}, v, i)

cs = torch.randn(2000)
case('cumsum', cs, {'dim': 0}, torch.cumsum(cs, 0))
ci = torch.randint(-9, 9, (3, 4, 5), dtype=torch.int32)
for dim in (0, 1, 2):
    case('cumsum', ci, {'dim': dim}, torch.cumsum(ci, dim))
cp = torch.rand(6, 7, dtype=torch.float64) + 0.5
for dim in (0, 1):
    case('cumprod', cp, {'dim': dim}, torch.cumprod(cp, dim))

g = torch.randn(4, 6)
gi1 = torch.randint(0, 6, (4, 3))
case('gather', g, {'dim': 1}, torch.gather(g, 1, gi1), index=tdesc(gi1))
gi0 = torch.randint(0, 4, (2, 6))
case('gather', g, {'dim': 0}, torch.gather(g, 0, gi0), index=tdesc(gi0))

mx = torch.randn(5, 6)
case('mask', mx, {}, mx[mx > 0], index=tdesc(mx > 0))
m0 = torch.randn(5) > 0
case('mask', mx, {}, mx[m0], index=tdesc(m0))
ii = torch.tensor([[4, -1], [0, 2]])
case('take', mx, {}, mx[ii], index=tdesc(ii))

base = torch.randn(1, 6, dtype=torch.float64)
bx = base.expand(5, 6)
for dims in (None, [0], [1]):
    kw = {} if dims is None else {'dim': dims}
    for op, f in (('sum', torch.sum), ('mean', torch.mean), ('amax', torch.amax),
                  ('logsumexp', torch.logsumexp), ('var', torch.var), ('std', torch.std)):
        if dims is None and op in ('amax', 'logsumexp'):
            r = f(bx, dim=[0, 1])
        else:
            r = f(bx, **kw)
        case('bcast_' + op, base, {'expand': [5, 6], 'dims': dims}, r)
    case('bcast_norm', base, {'expand': [5, 6], 'dims': dims}, torch.linalg.vector_norm(bx, 3, dim=dims))
    case('bcast_prod', base, {'expand': [5, 6], 'dims': dims}, torch.prod(bx) if dims is None else torch.prod(bx, dims[0]))
case('bcast_argmax', base, {'expand': [5, 6], 'dims': None}, torch.argmax(bx))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sortsel.json')
with open(out, 'w') as f:
    json.dump(C, f, separators=(',', ':'))
print(len(C), 'cases ->', out)
