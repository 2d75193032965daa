#!/usr/bin/python3
"""Generate tensor/testdata/golden.json from PyTorch (run with /usr/bin/python3).

Each case records inputs and PyTorch's results (values, shapes, strides,
offsets, dtypes, _version, error kinds/messages). tensor/golden_test.go
replays them against the Go implementation.
"""
import json, math, random, os
import torch

torch.manual_seed(0)
random.seed(0)

DT = {'f16': torch.float16, 'bf16': torch.bfloat16, 'f32': torch.float32, 'f64': torch.float64,
      'i8': torch.int8, 'i16': torch.int16, 'i32': torch.int32, 'i64': torch.int64,
      'u8': torch.uint8, 'bool': torch.bool}
NAME = {v: k for k, v in DT.items()}

def enc(x):
    if isinstance(x, float):
        if math.isnan(x): return "nan"
        if math.isinf(x): return "inf" if x > 0 else "-inf"
    return x

def vals(t):
    t = t.detach()
    if t.dtype == torch.bool:
        return [bool(v) for v in t.reshape(-1).tolist()]
    if t.dtype.is_floating_point:
        return [enc(float(v)) for v in t.double().reshape(-1).tolist()]
    return [int(v) for v in t.reshape(-1).tolist()]

def tdesc(t):
    return {'values': vals(t), 'shape': list(t.shape), 'dtype': NAME[t.dtype]}

def mk(d):
    return torch.tensor([{"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, v) if isinstance(v, str) else v
                         for v in d['values']], dtype=torch.float64).to(DT[d['dtype']]).reshape(d['shape'])

def err(e):
    k = type(e).__name__
    return {'error': k, 'message': str(e).split('\n')[0]}

cases = {}

# ---------------- views ----------------
def apply_view(t, op):
    name, args = op[0], op[1:]
    if name == 'view': return t.view(*args[0])
    if name == 'reshape': return t.reshape(*args[0])
    if name == 'transpose': return t.transpose(*args)
    if name == 't': return t.t()
    if name == 'mT': return t.mT
    if name == 'permute': return t.permute(*args[0])
    if name == 'expand': return t.expand(*args[0])
    if name == 'unsqueeze': return t.unsqueeze(args[0])
    if name == 'squeeze': return t.squeeze(*args) if args else t.squeeze()
    if name == 'flatten': return t.flatten(*args)
    if name == 'unflatten': return t.unflatten(args[0], args[1])
    if name == 'narrow': return t.narrow(*args)
    if name == 'select': return t.select(*args)
    if name == 'diagonal': return t.diagonal(*args)
    if name == 'unfold': return t.unfold(*args)
    if name == 'movedim': return t.movedim(args[0], args[1])
    if name == 'as_strided': return t.as_strided(args[0], args[1], args[2])
    if name == 'slice':
        d, a, b, s = args
        idx = [slice(None)] * t.dim()
        idx[d] = slice(a, b, s)
        return t[tuple(idx)]
    if name == 'contiguous': return t.contiguous()
    raise ValueError(name)

def view_case(shape, ops):
    n = 1
    for s in shape: n *= s
    base = torch.arange(n, dtype=torch.float32).reshape(shape)
    steps = []
    t = base
    for op in ops:
        try:
            t = apply_view(t, op)
        except Exception as e:
            steps.append(err(e)); break
        steps.append({'shape': list(t.shape), 'stride': list(t.stride()), 'offset': t.storage_offset(),
                      'contiguous': t.is_contiguous(), 'values': vals(t),
                      'shares': (t.data_ptr() - t.storage_offset()*4 == base.data_ptr()) if t.numel() else None})
    return {'shape': shape, 'ops': ops, 'steps': steps}

V = []
V.append(view_case([3, 4], [['t'], ['contiguous'], ['view', [-1]]]))
V.append(view_case([3, 4], [['t'], ['view', [-1]]]))
V.append(view_case([3, 4], [['t'], ['reshape', [-1]]]))
V.append(view_case([2, 3, 4], [['permute', [2, 0, 1]], ['reshape', [4, 6]]]))
V.append(view_case([2, 3, 4], [['transpose', 0, 1], ['view', [3, 8]]]))
V.append(view_case([2, 3, 4], [['transpose', 1, 2], ['view', [2, 12]]]))
V.append(view_case([2, 3, 4], [['narrow', 2, 1, 2], ['view', [6, 2]]]))
V.append(view_case([2, 3, 4], [['narrow', 1, 1, 2], ['view', [2, 8]]]))
V.append(view_case([4, 1, 3], [['view', [2, 2, 3]], ['transpose', 0, 2], ['reshape', [3, 4]]]))
V.append(view_case([10], [['as_strided', [4, 4], [2, 1], 0], ['select', 0, 3]]))
V.append(view_case([10], [['as_strided', [4, 4], [3, 1], 0]]))
V.append(view_case([10], [['as_strided', [3, 3], [3, 1], 1]]))
V.append(view_case([10], [['as_strided', [0, 5], [100, 1], 0]]))
V.append(view_case([10], [['as_strided', [2], [-1], 2]]))
V.append(view_case([4, 4], [['diagonal', 0, 0, 1]]))
V.append(view_case([4, 5], [['diagonal', 1, 0, 1]]))
V.append(view_case([4, 5], [['diagonal', -2, 1, 0]]))
V.append(view_case([2, 3, 4], [['diagonal', 0, 0, 2]]))
V.append(view_case([2, 3, 4], [['diagonal', 5, 1, 2]]))
V.append(view_case([10], [['unfold', 0, 4, 2]]))
V.append(view_case([3, 6], [['unfold', 1, 2, 2], ['unfold', 0, 2, 1]]))
V.append(view_case([1, 1, 4, 4], [['expand', [2, 3, 4, 4]], ['contiguous']]))
V.append(view_case([3, 1], [['expand', [2, -1, 4]]]))
V.append(view_case([3, 1], [['expand', [3, 4, 1]]]))
V.append(view_case([3, 1], [['expand', [-1, 3, 1]]]))
V.append(view_case([2, 1, 3, 1], [['squeeze'], ['unsqueeze', -1], ['unsqueeze', 0]]))
V.append(view_case([2, 1, 3, 1], [['squeeze', 1], ['squeeze', 0]]))
V.append(view_case([2, 3, 4], [['flatten', 1, 2], ['unflatten', 1, [2, -1]]]))
V.append(view_case([2, 3, 4], [['t']]))
V.append(view_case([2, 3, 4], [['mT']]))
V.append(view_case([2, 3, 4, 5], [['movedim', [0, 1], [3, 0]]]))
V.append(view_case([2, 3, 4, 5], [['movedim', [-1], [1]]]))
V.append(view_case([6, 5], [['slice', 0, 1, None, 2], ['slice', 1, -3, 100, 1]]))
V.append(view_case([6, 5], [['slice', 0, 4, 2, 1]]))
V.append(view_case([6, 5], [['slice', 1, None, None, 3], ['t'], ['contiguous'], ['view', [2, 6]]]))
V.append(view_case([6, 5], [['narrow', 0, -2, 2]]))
V.append(view_case([6, 5], [['narrow', 0, 5, 2]]))
V.append(view_case([6, 5], [['select', 1, -1]]))
V.append(view_case([6, 5], [['select', 1, 5]]))
V.append(view_case([6, 5], [['transpose', 0, 2]]))
V.append(view_case([6, 5], [['view', [4, -1]]]))
V.append(view_case([6, 5], [['view', [-1, -1]]]))
V.append(view_case([6, 5], [['expand', [6, 6]]]))
V.append(view_case([6, 5], [['permute', [0, 0]]]))
V.append(view_case([6, 5], [['unfold', 0, 7, 1]]))
V.append(view_case([0, 3], [['view', [3, 0]], ['reshape', [-1, 0]]]))
V.append(view_case([0, 3], [['t'], ['view', [0]]]))
V.append(view_case([], [['view', [1, 1]], ['expand', [2, 3]]]))
V.append(view_case([], [['unsqueeze', 0], ['squeeze']]))

# random view chains
OPS = ['transpose', 'permute', 'narrow', 'select', 'unsqueeze', 'squeeze', 'slice', 'diagonal', 'unfold', 'view', 'reshape', 'expand', 'flatten', 'movedim']
def rand_op(t):
    d = t.dim()
    name = random.choice(OPS)
    if d == 0 and name not in ('unsqueeze', 'view', 'reshape', 'expand'): name = 'unsqueeze'
    if name == 'transpose': return [name, random.randrange(d), random.randrange(d)]
    if name == 'permute': p = list(range(d)); random.shuffle(p); return [name, p]
    if name == 'narrow':
        dd = random.randrange(d); n = t.shape[dd]; s = random.randint(0, n); return [name, dd, s, random.randint(0, n - s)]
    if name == 'select':
        dd = random.randrange(d)
        if t.shape[dd] == 0: return ['unsqueeze', 0]
        return [name, dd, random.randrange(-t.shape[dd], t.shape[dd])]
    if name == 'unsqueeze': return [name, random.randint(-d - 1, d)]
    if name == 'squeeze': return [name]
    if name == 'slice':
        dd = random.randrange(d); n = t.shape[dd]
        return [name, dd, random.choice([None, random.randint(-n - 1, n + 1)]), random.choice([None, random.randint(-n - 1, n + 1)]), random.randint(1, 3)]
    if name == 'diagonal':
        if d < 2: return ['unsqueeze', 0]
        a, b = random.sample(range(d), 2); return [name, random.randint(-2, 2), a, b]
    if name == 'unfold':
        dd = random.randrange(d); n = t.shape[dd]; return [name, dd, random.randint(0, n), random.randint(1, 3)]
    if name in ('view', 'reshape'):
        return [name, [-1]] if random.random() < 0.5 else [name, [t.numel()] if t.numel() else [0]]
    if name == 'expand':
        return [name, [2] + list(t.shape)]
    if name == 'flatten':
        if d == 0: return ['unsqueeze', 0]
        a = random.randrange(d); return [name, a, random.randint(a, d - 1)]
    if name == 'movedim':
        return [name, [random.randrange(d)], [random.randrange(d)]]
for k in range(150):
    shape = random.choice([[2, 3, 4], [4, 5], [3, 1, 4], [2, 2, 2, 3], [7], [5, 6]])
    n = 1
    for s in shape: n *= s
    t = torch.arange(n, dtype=torch.float32).reshape(shape)
    ops = []
    for j in range(random.randint(1, 5)):
        op = rand_op(t)
        ops.append(op)
        try:
            t = apply_view(t, op)
        except Exception:
            break
    V.append(view_case(shape, ops))
cases['views'] = V

# ---------------- promotion ----------------
names = list(DT.keys())
P = []
for a in names:
    for b in names:
        P.append({'a': a, 'b': b, 'result': NAME[torch.result_type(torch.ones(2, dtype=DT[a]), torch.ones(2, dtype=DT[b]))],
                  'zero_dim_b': NAME[torch.result_type(torch.ones(2, dtype=DT[a]), torch.ones((), dtype=DT[b]))]})
S = []
for a in names:
    for kind, val in (('bool', True), ('int', 3), ('float', 2.5)):
        S.append({'a': a, 'scalar': kind, 'result': NAME[torch.result_type(torch.ones(2, dtype=DT[a]), val)]})
cases['promote'] = P
cases['promote_scalar'] = S

# ---------------- binary ops ----------------
B = []
def bin_case(op, a, b, scalar=None):
    A = mk(a)
    if scalar is not None:
        Bv = scalar
        bd = {'scalar': scalar}
    else:
        Bv = mk(b); bd = b
    try:
        f = {'add': torch.add, 'sub': torch.sub, 'mul': torch.mul, 'div': torch.div, 'floor_divide': torch.floor_divide,
             'remainder': torch.remainder, 'pow': torch.pow, 'maximum': torch.maximum, 'minimum': torch.minimum,
             'atan2': torch.atan2, 'eq': torch.eq, 'ne': torch.ne, 'lt': torch.lt, 'le': torch.le, 'gt': torch.gt, 'ge': torch.ge,
             'logical_and': torch.logical_and, 'logical_or': torch.logical_or, 'logical_xor': torch.logical_xor,
             'bitwise_and': torch.bitwise_and, 'bitwise_or': torch.bitwise_or, 'bitwise_xor': torch.bitwise_xor}[op]
        if scalar is not None and op in ('maximum', 'minimum', 'atan2', 'logical_and', 'logical_or', 'logical_xor'):
            return
        r = f(A, Bv)
        B.append({'op': op, 'a': a, 'b': bd, 'out': tdesc(r)})
    except Exception as e:
        B.append({'op': op, 'a': a, 'b': bd, **err(e)})

def T(values, shape, dtype):
    return {'values': values, 'shape': shape, 'dtype': dtype}

fa = T([-3.5, -1.0, -0.0, 0.5, 2.0, 7.25], [2, 3], 'f32')
fb = T([2.0, -0.0, 3.0], [3], 'f32')
ia = T([-7, -1, 0, 3, 8, 13], [2, 3], 'i64')
ib = T([2, -3, 5], [3], 'i64')
ib0 = T([2, 0, 5], [3], 'i64')
ops = ['add', 'sub', 'mul', 'div', 'floor_divide', 'remainder', 'pow', 'maximum', 'minimum', 'atan2', 'eq', 'ne', 'lt', 'le', 'gt', 'ge',
       'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor']
for op in ops:
    bin_case(op, fa, fb)
    bin_case(op, ia, ib)
    bin_case(op, ia, fb)
    bin_case(op, fa, ib)
    bin_case(op, T([True, False, True, False], [4], 'bool'), T([True, True, False, False], [4], 'bool'))
    for s in (2, 2.5, True):
        bin_case(op, fa, None, s)
        bin_case(op, ia, None, s)
for dt in ('f16', 'bf16', 'f64', 'i8', 'i16', 'i32', 'u8'):
    for op in ('add', 'mul', 'sub', 'div', 'maximum', 'lt'):
        bin_case(op, T([1, 2, 3, 100, 250, 7], [2, 3], dt), T([3, 9, 127], [3], dt))
        bin_case(op, T([1, 2, 3, 100, 250, 7], [2, 3], dt), T([3, 9, 127], [3], 'f32'))
        bin_case(op, T([1, 2, 3, 100, 250, 7], [2, 3], dt), None, 2.5)
        bin_case(op, T([1, 2, 3, 100, 250, 7], [2, 3], dt), None, 3)
bin_case('add', T([0.1, 0.2, 1000.0], [3], 'f16'), None, 0.1)
bin_case('add', T([0.1, 0.2, 1000.0], [3], 'bf16'), None, 0.1)
bin_case('mul', T([0.1, 0.2, 1000.0], [3], 'bf16'), T([3.3, 1.1, 7.7], [3], 'f16'))
bin_case('floor_divide', ia, ib0)
bin_case('remainder', ia, ib0)
bin_case('floor_divide', fa, T([2.0, 0.0, -3.0], [3], 'f32'))
bin_case('remainder', fa, T([2.0, 0.0, -3.0], [3], 'f32'))
bin_case('pow', ia, None, -1)
bin_case('pow', ia, T([2, -1, 0], [3], 'i64'))
bin_case('add', T(list(range(12)), [3, 4], 'f32'), T(list(range(12)), [4, 3], 'f32'))
bin_case('add', T(list(range(6)), [2, 3], 'f32'), T(list(range(8)), [2, 4], 'f32'))
bin_case('add', T(list(range(6)), [2, 3, 1], 'f32'), T(list(range(8)), [2, 1, 4], 'f32'))
bin_case('mul', T(list(range(6)), [6, 1], 'f32'), T(list(range(5)), [1, 5], 'i32'))
bin_case('maximum', T([1.0, 'nan', 3.0], [3], 'f32'), T([2.0, 0.0, 'nan'], [3], 'f64'))
bin_case('add', T([], [0, 3], 'f32'), T([1, 2, 3], [3], 'f32'))
cases['binary'] = B

# ---------------- unary ----------------
U = []
uvals = [-2.5, -1.0, -0.5, -0.0, 0.0, 0.3, 0.5, 1.5, 2.5, 3.0, 10.0, 'inf', '-inf', 'nan']
ufuncs = {'neg': torch.neg, 'abs': torch.abs, 'exp': torch.exp, 'log': torch.log, 'log1p': torch.log1p, 'expm1': torch.expm1,
          'sqrt': torch.sqrt, 'rsqrt': torch.rsqrt, 'sin': torch.sin, 'cos': torch.cos, 'tan': torch.tan, 'tanh': torch.tanh,
          'sigmoid': torch.sigmoid, 'relu': torch.relu, 'gelu': torch.nn.functional.gelu,
          'gelu_tanh': lambda x: torch.nn.functional.gelu(x, approximate='tanh'), 'sign': torch.sign, 'floor': torch.floor,
          'ceil': torch.ceil, 'round': torch.round, 'trunc': torch.trunc, 'reciprocal': torch.reciprocal, 'square': torch.square,
          'erf': torch.erf, 'isnan': torch.isnan, 'isinf': torch.isinf, 'isfinite': torch.isfinite, 'nan_to_num': torch.nan_to_num,
          'logical_not': torch.logical_not}
for name, f in ufuncs.items():
    for dt, vs in (('f32', uvals), ('f64', uvals), ('f16', uvals), ('bf16', uvals), ('i64', [-3, -1, 0, 2, 5]), ('i32', [-3, 0, 7]), ('bool', [True, False])):
        a = T(vs, [len(vs)], dt)
        try:
            r = f(mk(a))
            U.append({'op': name, 'a': a, 'out': tdesc(r)})
        except Exception as e:
            U.append({'op': name, 'a': a, **err(e)})
cases['unary'] = U

# ---------------- reductions ----------------
R = []
def red_case(op, a, dims, keepdim, **kw):
    A = mk(a)
    if dims is None and op not in ('argmax', 'argmin'):
        keepdim = False
    try:
        if op == 'sum': r = torch.sum(A, dims, keepdim=keepdim) if dims is not None else torch.sum(A)
        elif op == 'mean': r = torch.mean(A, dims, keepdim=keepdim) if dims is not None else torch.mean(A)
        elif op == 'prod': r = torch.prod(A, dims[0], keepdim=keepdim) if dims is not None else torch.prod(A)
        elif op == 'amax': r = torch.amax(A, dims if dims is not None else [], keepdim=keepdim)
        elif op == 'amin': r = torch.amin(A, dims if dims is not None else [], keepdim=keepdim)
        elif op == 'var': r = torch.var(A, dims, correction=kw['correction'], keepdim=keepdim) if dims is not None else torch.var(A, dim=None, correction=kw['correction'])
        elif op == 'std': r = torch.std(A, dims, correction=kw['correction'], keepdim=keepdim) if dims is not None else torch.std(A, dim=None, correction=kw['correction'])
        elif op == 'norm': r = torch.linalg.vector_norm(A, {'inf': math.inf, '-inf': -math.inf}.get(kw['p'], kw['p']), dims, keepdim=keepdim)
        elif op == 'logsumexp': r = torch.logsumexp(A, dims, keepdim=keepdim)
        elif op == 'all': r = torch.all(A, dims[0], keepdim=keepdim) if dims is not None else torch.all(A)
        elif op == 'any': r = torch.any(A, dims[0], keepdim=keepdim) if dims is not None else torch.any(A)
        elif op in ('max', 'min'):
            if dims is None:
                r = getattr(torch, op)(A)
            else:
                v, i = getattr(torch, op)(A, dims[0], keepdim=keepdim)
                R.append({'op': op, 'a': a, 'dims': dims, 'keepdim': keepdim, 'out': tdesc(v), 'indices': tdesc(i)})
                return
        elif op in ('argmax', 'argmin'):
            r = getattr(torch, op)(A, dims[0] if dims is not None else None, keepdim=keepdim)
        elif op == 'cumsum': r = torch.cumsum(A, dims[0])
        elif op == 'cumprod': r = torch.cumprod(A, dims[0])
        elif op == 'softmax': r = torch.softmax(A, dims[0])
        elif op == 'log_softmax': r = torch.log_softmax(A, dims[0])
        R.append({'op': op, 'a': a, 'dims': dims, 'keepdim': keepdim, **kw, 'out': tdesc(r)})
    except Exception as e:
        R.append({'op': op, 'a': a, 'dims': dims, 'keepdim': keepdim, **kw, **err(e)})

ra = T([round(random.uniform(-5, 5), 3) for _ in range(24)], [2, 3, 4], 'f32')
rd = T([round(random.uniform(-5, 5), 6) for _ in range(24)], [2, 3, 4], 'f64')
ri = T([random.randint(-5, 5) for _ in range(24)], [2, 3, 4], 'i64')
ties = T([1, 3, 3, 2, 3, 1, 0, 0, 5, 5, 5, 5], [3, 4], 'f32')
for op in ('sum', 'mean', 'amax', 'amin', 'logsumexp'):
    for a in (ra, rd, ri, T([1, 0, 1, 1], [2, 2], 'bool'), T([0.5, 1.5, 2.5, -1.0], [2, 2], 'f16'), T([0.5, 1.5, 2.5, -1.0], [2, 2], 'bf16')):
        for dims in (None, [0], [-1], [0, 2], [1]):
            if dims and len(a['shape']) <= max(d if d >= 0 else -d - 1 for d in dims): continue
            for kd in (False, True):
                if op == 'logsumexp' and dims is None: continue
                red_case(op, a, dims, kd)
for op in ('prod', 'all', 'any', 'cumsum', 'cumprod', 'softmax', 'log_softmax', 'argmax', 'argmin', 'max', 'min'):
    for a in (ra, rd, ri, ties, T([1, 0, 1, 1], [2, 2], 'bool')):
        for dims in (None, [0], [1], [-1]):
            if dims is None and op in ('cumsum', 'cumprod', 'softmax', 'log_softmax'): continue
            for kd in (False, True):
                red_case(op, a, dims, kd)
for op in ('var', 'std'):
    for a in (ra, rd, ri):
        for dims in (None, [0], [1, 2]):
            for c in (0, 1):
                red_case(op, a, dims, True, correction=c)
                red_case(op, a, dims, False, correction=c)
for p in (2.0, 1.0, math.inf, -math.inf, 0.0, 3.0):
    for dims in ([0], [1, 2], [-1]):
        red_case('norm', ra, dims, False, p=enc(p))
        red_case('norm', rd, dims, True, p=enc(p))
big = T([1e4, 1e4 + 1, 1e4 + 2, -1e4], [2, 2], 'f32')
for op in ('logsumexp', 'softmax', 'log_softmax'):
    for a in (big, T([1000.0, 1001.0, 1002.0], [3], 'f32'), T([1e4, 0.0, -1e4], [3], 'f16'), T([1e4, 0.0, -1e4], [3], 'bf16')):
        red_case(op, a, [-1], False)
red_case('max', T([1.0, 'nan', 3.0, 'nan'], [4], 'f32'), [0], False)
red_case('argmax', T([1.0, 'nan', 3.0, 'nan'], [4], 'f32'), [0], False)
red_case('amax', T([], [0, 3], 'f32'), [0], False)
red_case('max', T([], [0, 3], 'f32'), [0], False)
red_case('sum', T([], [0, 3], 'f32'), [0], False)
red_case('mean', T([], [0, 3], 'f32'), [0], False)
red_case('sum', T([1, 2], [2], 'i64'), [2], False)
cases['reduce'] = R

# f32 summation accuracy
n = 1 << 20
x = torch.full((n,), 0.1, dtype=torch.float32)
cases['sum_accuracy'] = {'n': n, 'value': 0.1, 'sum_f64': float(x.double().sum())}

# ---------------- matmul ----------------
M = []
def mm_case(sa, sb, dt='f32', ta=False, tb=False):
    A = torch.randn(sa, dtype=torch.float64).round(decimals=2) if dt[0] in 'fb' else torch.randint(-5, 5, sa, dtype=torch.int64)
    Bm = torch.randn(sb, dtype=torch.float64).round(decimals=2) if dt[0] in 'fb' else torch.randint(-5, 5, sb, dtype=torch.int64)
    A = A.to(DT[dt]); Bm = Bm.to(DT[dt])
    a, b = tdesc(A), tdesc(Bm)
    try:
        X = A.mT if ta else A
        Y = Bm.mT if tb else Bm
        r = torch.matmul(X, Y) if dt not in ('f16', 'bf16') else torch.matmul(X.float(), Y.float()).to(DT[dt])
        M.append({'a': a, 'b': b, 'ta': ta, 'tb': tb, 'out': tdesc(r)})
    except Exception as e:
        M.append({'a': a, 'b': b, 'ta': ta, 'tb': tb, **err(e)})
for sa, sb in [([3], [3]), ([2, 3], [3]), ([3], [3, 4]), ([2, 3], [3, 4]), ([5, 2, 3], [3, 4]), ([2, 3], [5, 3, 4]),
               ([2, 1, 2, 3], [4, 3, 2]), ([3], [2, 3, 4]), ([2, 3, 4], [4]), ([2, 3], [4, 5]), ([3], [4]), ([2, 2, 3], [3, 3, 2]),
               ([0, 3], [3, 2]), ([2, 0], [0, 3]), ([4, 2, 3], [4, 3, 5])]:
    mm_case(sa, sb)
mm_case([3, 2], [3, 4], ta=True)
mm_case([2, 3], [4, 3], tb=True)
mm_case([5, 3, 2], [5, 4, 3], ta=True, tb=True)
mm_case([2, 3], [3, 4], 'f64')
mm_case([2, 3], [3, 4], 'i64')
mm_case([2, 3], [3, 4], 'i32')
mm_case([4, 8], [8, 3], 'f16')
mm_case([4, 8], [8, 3], 'bf16')
cases['matmul'] = M

# ---------------- indexing ----------------
I = []
def item_py(it):
    k = it[0]
    if k == 'int': return it[1]
    if k == 'slice': return slice(it[1], it[2], it[3])
    if k == 'ellipsis': return Ellipsis
    if k == 'none': return None
    if k == 'tensor': return mk(it[1])
def idx_case(shape, items, value=None):
    n = 1
    for s in shape: n *= s
    x = torch.arange(n, dtype=torch.float32).reshape(shape)
    key = tuple(item_py(i) for i in items)
    try:
        if value is None:
            r = x[key]
            I.append({'shape': shape, 'items': items, 'out': tdesc(r), 'view': r.storage().data_ptr() == x.storage().data_ptr()})
        else:
            x[key] = mk(value) if isinstance(value, dict) else value
            I.append({'shape': shape, 'items': items, 'value': value, 'out': tdesc(x), 'version': x._version})
    except Exception as e:
        d = {'shape': shape, 'items': items, **err(e)}
        if value is not None: d['value'] = value
        I.append(d)
def flat(v): return [y for x in v for y in flat(x)] if isinstance(v, list) else [v]
def tI(v, s=None): return ['tensor', T(flat(v), s if s is not None else [len(v)], 'i64')]
def tB(v, s): return ['tensor', T(v, s, 'bool')]
S_ = lambda a=None, b=None, c=None: ['slice', a, b, c]
for items in ([['int', 1]], [['int', -1], ['int', 2]], [S_(1, None)], [['ellipsis'], ['int', 0]], [['none'], S_(), ['none']],
              [S_(None, None, 2), ['ellipsis'], ['none']], [['int', 3]], [['int', 0], ['int', 0], ['int', 0], ['int', 0]],
              [S_(None, None, -1)], [S_(None, None, 0)], [S_(5, 1)],
              [tI([0, 2, 1])], [tI([-1, 0])], [tI([3])], [S_(), tI([0, 0, 2])], [tI([[0, 1], [1, 0]], [2, 2])],
              [tI([0, 1]), tI([1, 2])], [tI([0, 1]), S_(), tI([1, 2])], [tI([0, 1]), ['int', 1]], [['int', 1], S_(), tI([0, 3])],
              [tI([[0], [1]], [2, 1]), tI([0, 2, 3])], [S_(), tI([0, 1]), tI([1, 2])], [['none'], tI([1]), S_(), tI([2, 2])],
              [tB([True, False, True], [3])], [tB([True, False, True, False, False, True, True, True, False, False, True, False], [3, 4])],
              [S_(), tB([False, True, True, False], [4])], [tB([True, False], [2])], [['ellipsis'], tI([1, 0])],
              [tI([0, 1]), tI([0, 1, 2])]):
    idx_case([3, 4], items)
idx_case([2, 3, 4], [tI([0, 1]), S_(), tI([2, 3])])
idx_case([2, 3, 4], [S_(), tI([0, 2]), tI([1, 3])])
idx_case([2, 3, 4], [tB([True, False, True, True, False, True], [2, 3])])
idx_case([2, 3, 4], [['int', 1], tI([2, 0]), S_(1, 3)])
# assignment
for items, val in (([['int', 1]], 5.0), ([S_(), ['int', 0]], T([7, 8, 9], [3], 'f32')), ([S_(1, None), S_(None, 2)], T([1, 2], [2], 'f32')),
                   ([tB([True, False, True], [3])], -1.0), ([tI([0, 2]), tI([1, 3])], T([10, 20], [2], 'f32')),
                   ([S_(), tI([0, 0])], T([1, 2, 3], [3, 1], 'f32')), ([tI([1, 1])], T([4, 3, 2, 1], [4], 'f32')),
                   ([tB([True, False, True, False, False, True, True, True, False, False, True, False], [3, 4])], 0.5),
                   ([['int', 0]], T([1, 2, 3], [3], 'f32')), ([tI([5])], 1.0), ([S_(), tI([1, 2])], T([1, 2, 3], [3], 'f32'))):
    idx_case([3, 4], items, val)
cases['index'] = I

# ---------------- versions & in-place ----------------
VE = []
def version_case(name, fn):
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    vs = []
    try:
        for step in fn(x):
            vs.append(x._version)
        VE.append({'name': name, 'versions': vs, 'out': tdesc(x)})
    except Exception as e:
        VE.append({'name': name, 'versions': vs, **err(e)})
def seq_basic(x):
    x.add_(1); yield
    x.mul_(2); yield
    x.sub_(torch.ones(3)); yield
    x.div_(2); yield
    x[0] = 3; yield
    x[:, 1] = torch.tensor([9., 8.]); yield
    x.t().zero_(); yield
    x.fill_(2); yield
    x.copy_(torch.arange(3)); yield
    x.clamp_(0.5, 1.5); yield
    x.masked_fill_(x > 1, -1.0); yield
    x[x < 0] = 7; yield
    x[torch.tensor([0, 1]), torch.tensor([0, 2])] = 4.; yield
    x.relu_(); yield
    x += 1; yield
    y = x.view(-1); y.add_(1); yield
VE.append(None); VE.pop()
version_case('basic', seq_basic)
def seq_int(x):
    xi = torch.arange(3)
    xi.add_(1.5)
    yield
version_case('int_add_float', seq_int)
def seq_overlap(x):
    z = torch.zeros(3, 1).expand(3, 4)
    z.add_(1)
    yield
version_case('overlap', seq_overlap)
def seq_divint(x):
    xi = torch.arange(3)
    xi.div_(2)
    yield
version_case('int_div', seq_divint)
def seq_bcast(x):
    x.add_(torch.ones(2, 2, 3))
    yield
version_case('inplace_bcast', seq_bcast)
cases['versions'] = VE

# ---------------- creation ----------------
C = []
for args in ((0, 10, 3), (0, 1, 0.1), (1, -1, -0.25), (0, 5, 1), (5, 0, 1), (0, 0, 1)):
    try:
        r = torch.arange(*args)
        C.append({'op': 'arange', 'args': list(args), 'out': tdesc(r)})
    except Exception as e:
        C.append({'op': 'arange', 'args': list(args), **err(e)})
for args in ((0, 1, 5), (-1, 1, 4), (2, 3, 1), (0, 10, 0), (0.0, 1.0, 7)):
    C.append({'op': 'linspace', 'args': list(args), 'out': tdesc(torch.linspace(*args))})
C.append({'op': 'eye', 'args': [3, 4], 'out': tdesc(torch.eye(3, 4))})
C.append({'op': 'triu', 'args': [1], 'out': tdesc(torch.triu(torch.arange(12.).reshape(3, 4), 1))})
C.append({'op': 'tril', 'args': [-1], 'out': tdesc(torch.tril(torch.arange(12.).reshape(3, 4), -1))})
C.append({'op': 'to', 'args': ['f16'], 'in': T([0.1, 65504.0, 65520.0, 1e-8, -2.5, 3.14159], [6], 'f64'), 'out': tdesc(torch.tensor([0.1, 65504.0, 65520.0, 1e-8, -2.5, 3.14159], dtype=torch.float64).half())})
C.append({'op': 'to', 'args': ['bf16'], 'in': T([0.1, 1.00390625, 1.01171875, 3e38, -2.5, 3.14159], [6], 'f64'), 'out': tdesc(torch.tensor([0.1, 1.00390625, 1.01171875, 3e38, -2.5, 3.14159], dtype=torch.float64).bfloat16())})
C.append({'op': 'to', 'args': ['i32'], 'in': T([-2.7, -0.5, 0.5, 2.7, 100.9], [5], 'f32'), 'out': tdesc(torch.tensor([-2.7, -0.5, 0.5, 2.7, 100.9]).int())})
C.append({'op': 'to', 'args': ['bool'], 'in': T([-2.7, 0.0, 0.5, 'nan'], [4], 'f32'), 'out': tdesc(torch.tensor([-2.7, 0.0, 0.5, math.nan]).bool())})
cases['creation'] = C

# ---------------- joining ----------------
J = []
def join_case(op, ts, dim):
    try:
        if op == 'cat': r = torch.cat([mk(t) for t in ts], dim)
        else: r = torch.stack([mk(t) for t in ts], dim)
        J.append({'op': op, 'ts': ts, 'dim': dim, 'out': tdesc(r)})
    except Exception as e:
        J.append({'op': op, 'ts': ts, 'dim': dim, **err(e)})
a23 = T(list(range(6)), [2, 3], 'f32'); b13 = T([7, 8, 9], [1, 3], 'i64'); c22 = T([1, 2, 3, 4], [2, 2], 'f64')
join_case('cat', [a23, b13], 0); join_case('cat', [a23, c22], 1); join_case('cat', [a23, c22], 0)
join_case('cat', [a23, T([], [0], 'f32')], 0); join_case('stack', [a23, a23], 1); join_case('stack', [a23, a23], -1)
join_case('stack', [a23, b13], 0); join_case('cat', [a23, T([1, 2], [2], 'f32')], 0)
cases['join'] = J

# sort / topk
SO = []
sv = T([3.0, 1.0, 'nan', 2.0, 1.0, -1.0], [2, 3], 'f32')
for desc in (False, True):
    for dim in (0, 1):
        v, i = torch.sort(mk(sv), stable=True, dim=dim, descending=desc)
        SO.append({'a': sv, 'dim': dim, 'descending': desc, 'values': tdesc(v), 'indices': tdesc(i)})
cases['sort'] = SO

# finfo / iinfo
FI = []
for n in ('f16', 'bf16', 'f32', 'f64'):
    f = torch.finfo(DT[n])
    FI.append({'dtype': n, 'bits': f.bits, 'eps': f.eps, 'max': f.max, 'min': f.min, 'tiny': f.tiny, 'resolution': f.resolution})
II = []
for n in ('i8', 'i16', 'i32', 'i64', 'u8'):
    f = torch.iinfo(DT[n])
    II.append({'dtype': n, 'bits': f.bits, 'max': f.max, 'min': f.min})
cases['finfo'] = FI
cases['iinfo'] = II

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'golden.json')
with open(out, 'w') as f:
    json.dump(cases, f, separators=(',', ':'), allow_nan=False)
print('wrote', out, sum(len(v) if isinstance(v, list) else 1 for v in cases.values()), 'cases')
