#!/usr/bin/python3
"""Generate tensor/testdata/layout_torch.json from PyTorch 1.13 (run with /usr/bin/python3).

The output layout of elementwise ops (TensorIterator's fast_set_up /
reorder_dimensions / allocate_or_resize_outputs): for each case the inputs
are built from a base arange of a dtype followed by view ops, the op is
applied, and the result's shape, strides, is_contiguous, dtype and values
(flattened in C order) are recorded. tensor/layout_golden_test.go replays
the cases. The "rand" cases are random permutes, slices and broadcasts of
the same recipes.
"""
import json, math, random
import torch

random.seed(1)

DT = {'f16': torch.float16, 'f32': torch.float32, 'f64': torch.float64,
      'i32': torch.int32, 'i64': torch.int64, 'u8': torch.uint8, 'bool': torch.bool}
NAME = {v: k for k, v in DT.items()}


def base(shape, dt):
    n = 1
    for s in shape:
        n *= s
    a = torch.arange(n, dtype=torch.float64)
    if dt == 'bool':
        t = (a.remainder(3) == 0)
    elif dt == 'u8':
        t = a.remainder(200).to(torch.uint8)
    elif dt in ('i32', 'i64'):
        t = (a - n // 2).to(DT[dt])
    else:
        t = ((a - n / 2) * 0.37).to(DT[dt])
    return t.reshape(shape)


def build(spec):
    """spec: {"scalar": v} (a Python number) or {"shape", "dtype", "views"}."""
    if 'scalar' in spec:
        return spec['scalar']
    t = base(spec['shape'], spec['dtype'])
    for v in spec.get('views', []):
        k = v[0]
        if k == 'permute':
            t = t.permute(*v[1])
        elif k == 't':
            t = t.t()
        elif k == 'slice':  # dim, start, stop, step
            d, a, b, s = v[1:]
            idx = [slice(None)] * t.dim()
            idx[d] = slice(a, b, s)
            t = t[tuple(idx)]
        elif k == 'expand':
            t = t.expand(*v[1])
        elif k == 'unsqueeze':
            t = t.unsqueeze(v[1])
        elif k == 'select':
            t = t.select(v[1], v[2])
        else:
            raise ValueError(k)
    return t


OPS = {
    'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': lambda a, b: a * b,
    'div': lambda a, b: a / b, 'maximum': torch.maximum, 'pow': lambda a, b: a ** b,
    'atan2': torch.atan2, 'floor_divide': lambda a, b: torch.floor_divide(a, b),
    'eq': lambda a, b: a == b, 'lt': lambda a, b: a < b, 'gt': lambda a, b: a > b,
    'logical_and': torch.logical_and, 'bitwise_and': lambda a, b: a & b,
    'exp': torch.exp, 'sin': torch.sin, 'neg': torch.neg, 'abs': torch.abs,
    'sigmoid': torch.sigmoid, 'tanh': torch.tanh, 'sqrt': lambda a: a.abs().sqrt(),
    'floor': torch.floor, 'isnan': torch.isnan, 'logical_not': torch.logical_not,
    'relu': torch.relu, 'square': torch.square, 'float': lambda a: a.float(),
    'double': lambda a: a.double(), 'half': lambda a: a.half(),
    'clamp': lambda a: a.clamp(-1, 2), 'where': torch.where,
}


def enc(x):
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
    return x


def vals(t):
    if t.dtype == torch.bool:
        return [bool(v) for v in t.reshape(-1).tolist()]
    if t.dtype.is_floating_point:
        return [enc(float(v)) for v in t.double().reshape(-1).tolist()]
    return [int(v) for v in t.reshape(-1).tolist()]


cases = []


def case(name, op, *inputs):
    args = [build(s) for s in inputs]
    r = OPS[op](*args)
    cases.append({'name': name, 'op': op, 'inputs': list(inputs),
                  'shape': list(r.shape), 'stride': list(r.stride()),
                  'contiguous': r.is_contiguous(), 'dtype': NAME[r.dtype], 'values': vals(r)})


def T(shape, dt='f32', *views):
    return {'shape': list(shape), 'dtype': dt, 'views': [list(v) for v in views]}


S = lambda v: {'scalar': v}
tr = ('t',)

# unary
case('exp_t', 'exp', T((3, 4), 'f32', tr))
case('sin_t_f64', 'sin', T((3, 4), 'f64', tr))
case('neg_int_t', 'neg', T((3, 4), 'i64', tr))
case('abs_perm3', 'abs', T((2, 3, 4), 'f32', ('permute', [2, 0, 1])))
case('sigmoid_perm4', 'sigmoid', T((2, 3, 4, 5), 'f32', ('permute', [3, 1, 0, 2])))
case('tanh_channels_last', 'tanh', T((2, 4, 5, 3), 'f32', ('permute', [0, 3, 1, 2])))
case('exp_int_t', 'exp', T((3, 4), 'i32', tr))
case('sqrt_slice', 'sqrt', T((3, 8), 'f32', ('slice', 1, 0, 8, 2)))
case('exp_t_slice', 'exp', T((6, 4), 'f32', tr, ('slice', 1, 0, 6, 2)))
case('floor_int_t_slice', 'floor', T((6, 4), 'i64', tr, ('slice', 0, 0, 4, 2)))
case('isnan_t', 'isnan', T((3, 4), 'f32', tr))
case('logical_not_perm', 'logical_not', T((2, 3, 4), 'i32', ('permute', [1, 2, 0])))
case('relu_size1', 'relu', T((4, 1, 3), 'f32', ('permute', [2, 1, 0])))
case('square_half_t', 'square', T((3, 4), 'f16', tr))
case('exp_0d', 'exp', T((), 'f32'))
case('exp_expanded', 'exp', T((3, 1), 'f32', ('expand', [3, 4])))
# casts
case('float_from_int_t', 'float', T((3, 4), 'i64', tr))
case('double_perm3', 'double', T((2, 3, 4), 'f32', ('permute', [2, 0, 1])))
case('half_slice_t', 'half', T((6, 4), 'f32', tr, ('slice', 1, 1, 6, 2)))
case('clamp_t', 'clamp', T((3, 4), 'f32', tr))
# binary, same layout
case('add_t_scalar', 'add', T((3, 4), 'f32', tr), S(1))
case('mul_t_t', 'mul', T((3, 4), 'f32', tr), T((3, 4), 'f32', tr))
case('sub_perm3_perm3', 'sub', T((2, 3, 4), 'f64', ('permute', [2, 0, 1])), T((2, 3, 4), 'f64', ('permute', [2, 0, 1])))
case('add_channels_last', 'add', T((2, 4, 5, 3), 'f32', ('permute', [0, 3, 1, 2])), T((2, 4, 5, 3), 'f32', ('permute', [0, 3, 1, 2])))
case('maximum_cl_size1', 'maximum', T((2, 4, 1, 3), 'f32', ('permute', [0, 3, 1, 2])), T((2, 4, 1, 3), 'f32', ('permute', [0, 3, 1, 2])))
# mixed layouts
case('add_t_contig', 'add', T((3, 4), 'f32', tr), T((4, 3), 'f32'))
case('add_contig_t', 'add', T((4, 3), 'f32'), T((3, 4), 'f32', tr))
case('mul_perm_perm', 'mul', T((2, 3, 4), 'f32', ('permute', [2, 0, 1])), T((3, 2, 4), 'f32', ('permute', [2, 1, 0])))
case('div_cl_contig', 'div', T((2, 4, 5, 3), 'f32', ('permute', [0, 3, 1, 2])), T((2, 3, 4, 5), 'f32'))
# broadcasting
case('add_t_row', 'add', T((3, 4), 'f32', tr), T((3,), 'f32'))
case('add_col_t', 'add', T((4, 1), 'f32'), T((3, 4), 'f32', tr))
case('add_t_col', 'add', T((3, 4), 'f32', tr), T((4, 1), 'f32'))
case('mul_expand_t', 'mul', T((3, 1), 'f32', ('expand', [3, 4])), T((4, 3), 'f32', tr))
case('add_perm3_bcast', 'add', T((2, 3, 4), 'f32', ('permute', [2, 0, 1])), T((1, 3), 'f32'))
case('add_bcast_rank', 'add', T((5,), 'f32'), T((2, 5, 3), 'f32', ('permute', [0, 2, 1])))
case('add_size1_dims', 'add', T((3, 1, 4), 'f32', ('permute', [2, 1, 0])), T((4, 1, 1), 'f32'))
# non-dense
case('add_slice_scalar', 'add', T((3, 8), 'f32', ('slice', 1, 0, 8, 2)), S(1.5))
case('add_slice_slice', 'add', T((6, 8), 'f32', ('slice', 0, 0, 6, 2), ('slice', 1, 1, 8, 2)), T((6, 8), 'f32', ('slice', 0, 1, 6, 2), ('slice', 1, 0, 8, 2)))
case('add_tslice_contig', 'add', T((8, 3), 'f32', tr, ('slice', 1, 0, 8, 2)), T((3, 4), 'f32'))
case('mul_select_perm', 'mul', T((2, 3, 4), 'f32', ('permute', [2, 0, 1]), ('select', 1, 1)), S(2))
# 0-d, scalars, promotion
case('add_0d_t', 'add', T((), 'f64'), T((3, 4), 'f32', tr))
case('add_int_t_float', 'add', T((3, 4), 'i64', tr), S(0.5))
case('add_int_t_f32', 'add', T((3, 4), 'i32', tr), T((4, 3), 'f32'))
case('div_int_int_t', 'div', T((3, 4), 'i64', tr), T((4, 3), 'i64'))
case('add_int_slice_float', 'add', T((8, 3), 'i64', tr, ('slice', 1, 0, 8, 2)), S(1.5))
case('atan2_int_t', 'atan2', T((3, 4), 'i32', tr), T((4, 3), 'i32'))
case('pow_t_2', 'pow', T((3, 4), 'f32', tr), S(2))
case('pow_t_t', 'pow', T((3, 4), 'f64', tr), T((3, 4), 'f64', tr))
case('floor_divide_int_t', 'floor_divide', T((3, 4), 'i64', tr), S(3))
case('add_half_t', 'add', T((3, 4), 'f16', tr), T((3, 4), 'f16', tr))
# comparisons, logical, bitwise
case('gt_t_contig', 'gt', T((3, 4), 'f32', tr), T((4, 3), 'f32'))
case('eq_t_scalar', 'eq', T((3, 4), 'i64', tr), S(2))
case('lt_perm_bcast', 'lt', T((2, 3, 4), 'f32', ('permute', [1, 2, 0])), T((2,), 'f32'))
case('logical_and_t', 'logical_and', T((3, 4), 'f32', tr), T((3, 4), 'bool', tr))
case('bitwise_and_t', 'bitwise_and', T((3, 4), 'i32', tr), T((4, 3), 'i32'))
# where
case('where_t_t_contig', 'where', T((3, 4), 'bool', tr), T((3, 4), 'f32', tr), T((4, 3), 'f32'))
case('where_contig_t_t', 'where', T((4, 3), 'bool'), T((3, 4), 'f32', tr), T((3, 4), 'f32', tr))
case('where_bcast_promote', 'where', T((4, 1), 'bool'), T((3, 4), 'i64', tr), S(0.5))
case('where_perm3', 'where', T((2, 3, 4), 'bool', ('permute', [2, 0, 1])), T((2, 3, 4), 'f64', ('permute', [2, 0, 1])), T((4,), 'f64', ('unsqueeze', 0), ('unsqueeze', 0), ('permute', [2, 0, 1])))

# random: permuted, sliced and broadcast operands of small 2-4-D shapes
def rand_spec(shape, dt):
    nd = len(shape)
    perm = list(range(nd))
    random.shuffle(perm)
    base_shape = [shape[p] for p in perm]
    views = []
    if random.random() < 0.3:  # a strided slice on one dim
        d = random.randrange(nd)
        base_shape[d] = base_shape[d] * 2
        views.append(('slice', d, 0, base_shape[d], 2))
    inv = [perm.index(i) for i in range(nd)]
    views.append(('permute', inv))
    return T(base_shape, dt, *views)


def bcast(spec, shape):
    # make some dims size 1 by selecting and unsqueezing
    s = dict(spec)
    s['views'] = list(spec['views'])
    nd = len(shape)
    for d in range(nd):
        if shape[d] > 1 and random.random() < 0.25:
            s['views'].append(('slice', d, 0, 1, 1))
    return s


for i in range(40):
    nd = random.choice([2, 3, 3, 4])
    shape = [random.choice([1, 2, 3, 4]) for _ in range(nd)]
    a = rand_spec(shape, 'f32')
    if random.random() < 0.4:
        case(f'rand{i}_unary', random.choice(['exp', 'neg', 'float', 'double']), a)
        continue
    b = rand_spec(shape, random.choice(['f32', 'f32', 'f64', 'i64']))
    if random.random() < 0.5:
        b = bcast(b, shape)
    if random.random() < 0.3:
        a = bcast(a, shape)
    case(f'rand{i}_binary', random.choice(['add', 'mul', 'gt']), a, b)

with open(__file__.replace('gen_layout_torch.py', 'layout_torch.json'), 'w') as f:
    json.dump({'torch': torch.__version__, 'cases': cases}, f, indent=None, separators=(',', ':'))
    f.write('\n')
print(len(cases), 'cases')
