"""Golden gradients from PyTorch 1.13 where the subgradient convention
matters (ties, zeros, clamp boundaries): gradcheck_torch_test.go reads
testdata/subgrad.json.

Run: /usr/bin/python3 testdata/gen_subgrad.py > testdata/subgrad.json

Left out on purpose: topk among ties (PyTorch's order comes from
std::nth_element and is documented as unspecified; tsr returns the lower
index first, as its sort), and det of an exactly singular matrix, where
PyTorch 1.13's first-order formula multiplies by det = 0 and returns zeros
while the derivative is the (nonzero) adjugate; tsr returns the adjugate
(checked in gradcheck_torch_test.go against the hand-derived value).

Each case: leaves (name, values, shape, dtype), a torch expression and
the tsr expression over them; the gradient of sum(out * w), w = 0.5 *
(1, 2, ..., numel) in out's shape and dtype, with respect to each leaf.
"""
import json
import torch
import torch.nn.functional as F

f64, f32 = torch.float64, torch.float32

CASES = [
    # name, leaves [(name, values, shape, dtype)], torch expr, tsr expr
    ("abs_zero", [("x", [-1.0, 0.0, 2.0, -0.0], [4], f64)], "x.abs()", "x.abs()"),
    ("relu_zero", [("x", [-1.0, 0.0, 1.0, -0.0], [4], f64)], "torch.relu(x)", "relu(x)"),
    ("sign_zero", [("x", [-1.0, 0.0, 1.0], [3], f64)], "x.sign() * x", "x.sign() * x"),
    ("sqrt_sq_zero", [("x", [0.0, 1.0, 4.0], [3], f64)], "(x * x).sqrt()", "(x * x).sqrt()"),
    ("max_all_ties", [("x", [1.0, 3.0, 3.0, 2.0], [4], f64)], "x.max()", "x.max()"),
    ("min_all_ties", [("x", [1.0, 3.0, 1.0, 2.0, 1.0], [5], f64)], "x.min()", "x.min()"),
    ("max_dim_ties", [("x", [1.0, 3.0, 3.0, 2.0, 5.0, 5.0], [2, 3], f64)], "x.max(1)[0]", "x.max(1)[0]"),
    ("min_dim_ties", [("x", [1.0, 1.0, 3.0, 2.0, 2.0, 0.0], [3, 2], f64)], "x.min(0)[0]", "x.min(0)[0]"),
    ("amax_ties", [("x", [1.0, 3.0, 3.0, 2.0, 5.0, 5.0], [2, 3], f64)], "x.amax(1)", "x.amax(1)"),
    ("amin_ties_all", [("x", [1.0, 1.0, 3.0, 1.0], [2, 2], f64)], "x.amin((0, 1))", "x.amin((0, 1))"),
    ("maximum_ties", [("x", [1.0, 2.0, 3.0], [3], f64), ("y", [1.0, 0.0, 3.0], [3], f64)], "torch.maximum(x, y)", "maximum(x, y)"),
    ("minimum_ties", [("x", [1.0, 2.0, 3.0], [3], f64), ("y", [1.0, 5.0, 3.0], [3], f64)], "torch.minimum(x, y)", "minimum(x, y)"),
    ("fmax_ties", [("x", [1.0, 2.0, 3.0], [3], f64), ("y", [1.0, 0.0, 4.0], [3], f64)], "torch.fmax(x, y)", "fmax(x, y)"),
    ("clamp_boundary", [("x", [-1.0, -0.5, 0.0, 0.5, 1.0], [5], f64)], "x.clamp(-0.5, 0.5)", "x.clamp(-0.5, 0.5)"),
    ("clamp_min_boundary", [("x", [-1.0, 0.0, 1.0], [3], f64)], "x.clamp(min=0.0)", "x.clamp(min=0.0)"),
    ("clamp_tensor_boundary", [("x", [-1.0, 0.0, 0.5, 2.0], [4], f64), ("lo", [-1.0, 0.5, 0.0, 0.0], [4], f64), ("hi", [0.0, 1.0, 0.5, 1.0], [4], f64)],
     "torch.clamp(x, lo, hi)", "clamp(x, lo, hi)"),
    ("clamp_inplace_tensor_bounds", [("x", [-1.0, 0.0, 0.5, 2.0], [4], f64), ("lo", [-1.0, 0.5, 0.0, 0.0], [4], f64), ("hi", [0.0, 1.0, 0.5, 1.0], [4], f64)],
     "(x * 1).clamp_(lo, hi)", "(x * 1).clamp_(lo, hi)"),
    ("hardtanh_boundary", [("x", [-2.0, -1.0, 0.0, 1.0, 2.0], [5], f64)], "F.hardtanh(x)", "nn.hardtanh(x)"),
    ("relu6_boundary", [("x", [-1.0, 0.0, 3.0, 6.0, 7.0], [5], f64)], "F.relu6(x)", "nn.relu6(x)"),
    ("leaky_relu_zero", [("x", [-1.0, 0.0, 1.0], [3], f64)], "F.leaky_relu(x, 0.1)", "nn.leaky_relu(x, 0.1)"),
    ("threshold_eq", [("x", [0.5, 1.0, 1.5], [3], f64)], "F.threshold(x, 1.0, -3.0)", "nn.threshold(x, 1.0, -3.0)"),
    ("hardshrink_eq", [("x", [-0.5, 0.5, 0.7], [3], f64)], "F.hardshrink(x, 0.5)", "nn.hardshrink(x, 0.5)"),
    ("norm2_zero", [("x", [0.0, 0.0, 0.0], [3], f64)], "x.norm()", "x.norm()"),
    ("norm1_zero", [("x", [0.0, 1.0, -2.0], [3], f64)], "x.norm(1)", "x.norm(1)"),
    ("norm3_zero", [("x", [0.0, 0.0, 0.0], [3], f64)], "x.norm(3)", "x.norm(3)"),
    ("norminf_ties", [("x", [1.0, -3.0, 3.0], [3], f64)], "x.norm(float('inf'))", "x.norm(inf)"),
    ("vector_norm_zero_dim", [("x", [0.0, 0.0, 1.0, 2.0], [2, 2], f64)], "torch.linalg.vector_norm(x, dim=1)", "linalg.vector_norm(x, dim=1)"),
    ("dist_zero", [("x", [1.0, 2.0], [2], f64), ("y", [1.0, 2.0], [2], f64)], "torch.dist(x, y)", "dist(x, y)"),
    ("cdist_zero", [("x", [0.0, 0.0, 1.0, 1.0], [2, 2], f64), ("y", [0.0, 0.0], [1, 2], f64)], "torch.cdist(x, y)", "cdist(x, y)"),
    ("l1_loss_eq", [("x", [1.0, 2.0, 3.0], [3], f64), ("y", [1.0, 0.0, 3.5], [3], f64)], "F.l1_loss(x, y, reduction='none')", "nn.l1_loss(x, y, reduction=\"none\")"),
    ("smooth_l1_boundary", [("x", [0.0, 1.0, 2.5], [3], f64), ("y", [0.0, 0.0, 0.0], [3], f64)], "F.smooth_l1_loss(x, y, reduction='none', beta=1.0)", "nn.smooth_l1_loss(x, y, reduction=\"none\", beta=1.0)"),
    ("huber_boundary", [("x", [0.0, 1.0, 2.5], [3], f64), ("y", [0.0, 0.0, 0.0], [3], f64)], "F.huber_loss(x, y, reduction='none', delta=1.0)", "nn.huber_loss(x, y, reduction=\"none\", delta=1.0)"),
    ("sort_ties", [("x", [2.0, 1.0, 2.0, 0.0, 1.0], [5], f64)], "x.sort()[0]", "x.sort()[0]"),
    ("sort_desc_ties", [("x", [2.0, 1.0, 2.0, 0.0, 1.0], [5], f64)], "x.sort(descending=True)[0]", "x.sort(descending=true)[0]"),
    ("sort_stable_ties", [("x", [2.0, 1.0, 2.0, 0.0, 1.0, 2.0], [2, 3], f64)], "x.sort(dim=0, stable=True)[0]", "x.sort(dim=0, stable=true)[0]"),
    ("topk_smallest_ties", [("x", [2.0, 1.0, 2.0, 1.0, 2.0], [5], f64)], "x.topk(3, largest=False)[0]", "x.topk(3, largest=false)[0]"),
    ("median_all_ties", [("x", [1.0, 2.0, 2.0, 3.0], [4], f64)], "x.median()", "x.median()"),
    ("median_all_even", [("x", [4.0, 1.0, 3.0, 2.0], [4], f64)], "x.median()", "x.median()"),
    ("median_dim_ties", [("x", [1.0, 2.0, 2.0, 2.0, 1.0, 1.0], [2, 3], f64)], "x.median(1)[0]", "x.median(1)[0]"),
    ("nanmedian_ties", [("x", [1.0, float('nan'), 2.0, 2.0], [4], f64)], "x.nanmedian()", "x.nanmedian()"),
    ("kthvalue_ties", [("x", [3.0, 1.0, 3.0, 1.0], [4], f64)], "x.kthvalue(2)[0]", "x.kthvalue(2)[0]"),
    ("mode_ties", [("x", [3.0, 1.0, 3.0, 1.0, 2.0], [5], f64)], "x.mode()[0]", "x.mode()[0]"),
    ("cummax_ties", [("x", [1.0, 3.0, 3.0, 2.0, 3.0], [5], f64)], "x.cummax(0)[0]", "x.cummax(0)[0]"),
    ("cummin_ties", [("x", [3.0, 1.0, 1.0, 2.0, 1.0], [5], f64)], "x.cummin(0)[0]", "x.cummin(0)[0]"),
    ("quantile_ties", [("x", [1.0, 2.0, 2.0, 4.0, 2.0], [5], f64)], "x.quantile(0.4)", "x.quantile(0.4)"),
    ("prod_zero", [("x", [2.0, 0.0, 3.0, 0.0, 1.0, 4.0], [2, 3], f64)], "x.prod(1)", "x.prod(1)"),
    ("prod_all_one_zero", [("x", [2.0, 0.0, 3.0], [3], f64)], "x.prod()", "x.prod()"),
    ("cumprod_zero", [("x", [2.0, 0.0, 3.0, 4.0], [4], f64)], "x.cumprod(0)", "x.cumprod(0)"),
    ("logsumexp_neginf", [("x", [float('-inf'), 0.0, 1.0], [3], f64)], "x.logsumexp(0)", "x.logsumexp(0)"),
    ("std_single", [("x", [1.0, 1.0, 1.0], [3], f64)], "x.std()", "x.std()"),
    ("atan2_origin", [("x", [0.0, 1.0], [2], f64), ("y", [1.0, 1.0], [2], f64)], "torch.atan2(x, y)", "atan2(x, y)"),
    ("pow_zero_base", [("x", [0.0, 2.0], [2], f64)], "x.pow(2.0)", "x.pow(2.0)"),
    ("xlogy_zero", [("x", [0.0, 1.0], [2], f64), ("y", [0.0, 2.0], [2], f64)], "torch.xlogy(x, y)", "xlogy(x, y)"),
    ("scatter_reduce_amax_ties", [("x", [1.0, 5.0, 2.0], [3], f64), ("s", [5.0, 5.0, 1.0, 2.0], [4], f64)],
     "x.scatter_reduce(0, torch.tensor([1, 1, 0, 2]), s, 'amax')", "x.scatter_reduce(0, tensor([1, 1, 0, 2]), s, \"amax\")"),
    ("max_pool_ties", [("x", [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 0.0, 2.0, 2.0], [1, 1, 3, 3], f64)], "F.max_pool2d(x, 2, 1)", "nn.max_pool2d(x, 2, 1)"),
    ("hardswish_boundary", [("x", [-3.0, 3.0, 0.0, -4.0, 4.0], [5], f64)], "F.hardswish(x)", "nn.hardswish(x)"),
    ("hardsigmoid_boundary", [("x", [-3.0, 3.0, 0.0], [3], f64)], "F.hardsigmoid(x)", "nn.hardsigmoid(x)"),
    ("elu_zero", [("x", [-1.0, 0.0, 1.0], [3], f64)], "F.elu(x)", "nn.elu(x)"),
    ("celu_zero", [("x", [-1.0, 0.0, 1.0], [3], f64)], "F.celu(x, 0.5)", "nn.celu(x, 0.5)"),
    ("selu_zero", [("x", [-1.0, 0.0, 1.0], [3], f64)], "F.selu(x)", "nn.selu(x)"),
    ("softshrink_eq", [("x", [-0.5, 0.5, 0.7, 0.0], [4], f64)], "F.softshrink(x, 0.5)", "nn.softshrink(x, 0.5)"),
    ("prelu_zero", [("x", [-1.0, 0.0, 1.0, -2.0, 0.0, 3.0], [2, 3], f64), ("a", [0.25], [1], f64)], "F.prelu(x, a)", "nn.prelu(x, a)"),
    ("silu_mish_zero", [("x", [0.0, -1.0], [2], f64)], "F.silu(x) + F.mish(x)", "nn.silu(x) + nn.mish(x)"),
    ("softplus_threshold", [("x", [20.0, 21.0, -30.0], [3], f64)], "F.softplus(x)", "nn.softplus(x)"),
    ("gelu_zero", [("x", [0.0, -3.0], [2], f64)], "F.gelu(x) + F.gelu(x, approximate='tanh')", "nn.gelu(x) + nn.gelu(x, approximate=\"tanh\")"),
    ("sqrt_zero", [("x", [0.0, 4.0], [2], f64)], "x.sqrt()", "x.sqrt()"),
    ("pow_half_zero", [("x", [0.0, 4.0], [2], f64)], "x.pow(0.5)", "x.pow(0.5)"),
    ("pow_zero_exp", [("x", [0.0, 2.0], [2], f64)], "x.pow(0.0)", "x.pow(0.0)"),
    ("pow_tensor_zero_base", [("x", [0.0, 2.0, 0.0], [3], f64), ("y", [2.0, 1.0, 0.0], [3], f64)], "torch.pow(x, y)", "pow(x, y)"),
    ("fmin_ties", [("x", [1.0, 2.0, 3.0], [3], f64), ("y", [1.0, 0.0, 4.0], [3], f64)], "torch.fmin(x, y)", "fmin(x, y)"),
    ("clamp_min_tensor_tie", [("x", [0.0, 1.0, -1.0], [3], f64), ("lo", [0.0, 0.0, 0.0], [3], f64)], "torch.clamp(x, min=lo)", "clamp(x, min=lo)"),
    ("clamp_inverted", [("x", [0.0, 1.0, -1.0], [3], f64)], "x.clamp(0.5, -0.5)", "x.clamp(0.5, -0.5)"),
    ("dist_inf_ties", [("x", [1.0, -2.0, 2.0], [3], f64), ("y", [0.0, 0.0, 0.0], [3], f64)], "torch.dist(x, y, float('inf'))", "dist(x, y, inf)"),
    ("cdist_p1_zero", [("x", [0.0, 1.0, 1.0, 1.0], [2, 2], f64), ("y", [0.0, 1.0], [1, 2], f64)], "torch.cdist(x, y, p=1)", "cdist(x, y, p=1)"),
    ("renorm_below", [("x", [0.1, 0.2, 3.0, 4.0], [2, 2], f64)], "x.renorm(2, 0, 1.0)", "x.renorm(2, 0, 1.0)"),
    ("remainder_boundary", [("x", [3.0, -3.0, 2.5], [3], f64), ("y", [1.5, 1.5, 1.0], [3], f64)], "torch.remainder(x, y)", "remainder(x, y)"),
    ("fmod_boundary", [("x", [3.0, -3.0, 2.5], [3], f64), ("y", [1.5, 1.5, 1.0], [3], f64)], "torch.fmod(x, y)", "fmod(x, y)"),
    ("round_frac", [("x", [0.5, 1.5, -0.5, 2.25], [4], f64)], "x.round() + x.frac() + x.trunc() + x.floor() + x.ceil()", "x.round() + x.frac() + x.trunc() + x.floor() + x.ceil()"),
    ("logsumexp_all_neginf", [("x", [float('-inf'), float('-inf')], [2], f64)], "x.logsumexp(0)", "x.logsumexp(0)"),
    ("softmax_neginf", [("x", [float('-inf'), 0.0, 1.0], [3], f64)], "x.softmax(0)", "x.softmax(0)"),
    ("log_softmax_neginf", [("x", [float('-inf'), 0.0, 1.0], [3], f64)], "x.log_softmax(0)", "x.log_softmax(0)"),
    ("var_single", [("x", [2.0], [1], f64)], "x.var(unbiased=False)", "x.var(correction=0)"),
    ("norm_p05_zero", [("x", [0.0, 1.0, 4.0], [3], f64)], "x.norm(0.5)", "x.norm(0.5)"),
    ("vector_norm_p0", [("x", [0.0, 1.0, 4.0], [3], f64)], "torch.linalg.vector_norm(x, 0)", "linalg.vector_norm(x, 0)"),
    ("matrix_norm_nuc", [("x", [1.0, 0.0, 0.0, 2.0, 0.0, 0.0], [2, 3], f64)], "torch.linalg.matrix_norm(x, 'nuc')", "linalg.matrix_norm(x, \"nuc\")"),
    ("cummax_2d_ties", [("x", [1.0, 1.0, 0.0, 2.0, 2.0, 2.0], [2, 3], f64)], "x.cummax(1)[0]", "x.cummax(1)[0]"),
    ("max_pool1d_overlap_ties", [("x", [1.0, 2.0, 2.0, 2.0, 1.0], [1, 1, 5], f64)], "F.max_pool1d(x, 3, 1)", "nn.max_pool1d(x, 3, 1)"),
    ("adaptive_max_pool2d_ties", [("x", [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [1, 1, 2, 3], f64)], "F.adaptive_max_pool2d(x, (1, 2))", "nn.adaptive_max_pool2d(x, (1, 2))"),
    ("nll_ignore", [("x", [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [2, 3], f64)], "F.nll_loss(x, torch.tensor([1, -100]))", "nn.nll_loss(x, tensor([1, -100]))"),
    ("kl_div_zero_target", [("x", [-1.0, -2.0, -0.5], [3], f64), ("y", [0.0, 0.5, 0.5], [3], f64)], "F.kl_div(x, y, reduction='sum')", "nn.kl_div(x, y, reduction=\"sum\")"),
    ("bce_clamp", [("x", [0.0, 1.0, 0.5], [3], f64), ("y", [0.0, 1.0, 1.0], [3], f64)], "F.binary_cross_entropy(x, y, reduction='sum')", "nn.binary_cross_entropy(x, y, reduction=\"sum\")"),
    ("det_f32", [("x", [2.0, 0.5, -1.0, 1.0, 3.0, 0.25, 0.5, -0.75, 1.5], [3, 3], f32)], "torch.linalg.det(x)", "linalg.det(x)"),
    ("det_f32_b", [("x", [0.3, 1.7, -2.1, 0.9, 0.2, 1.1, -0.4, 0.8, 2.6, 1.3, 0.5, -0.7, 0.6, 1.9, 0.4, -1.2], [4, 4], f32)], "torch.linalg.det(x)", "linalg.det(x)"),
    ("det_f64", [("x", [2.0, 0.5, -1.0, 1.0, 3.0, 0.25, 0.5, -0.75, 1.5], [3, 3], f64)], "torch.linalg.det(x)", "linalg.det(x)"),
    ("cross_entropy_prob_smoothing", [("x", [0.5, -1.0, 2.0, 0.1, 0.2, 0.3], [2, 3], f64), ("y", [0.2, 0.3, 0.5, 1.0, 0.0, 0.0], [2, 3], f64)],
     "F.cross_entropy(x, y, label_smoothing=0.1)", "nn.cross_entropy(x, y, label_smoothing=0.1)"),
    ("zeta_other", [("q", [1.2, 0.7], [2], f64)], "torch.special.zeta(torch.tensor([2.5, 3.0], dtype=torch.float64), q)", "special.zeta(tensor([2.5, 3.0], dtype=f64), q)"),
    ("adaptive_max_pool1d_overlap", [("x", [1.0, 3.0, 2.0, 3.0, 0.0, -1.0, 4.0, 4.0, 2.0, 1.0], [1, 2, 5], f64)], "F.adaptive_max_pool1d(x, 3)", "nn.adaptive_max_pool1d(x, 3)"),
    ("abs_f32", [("x", [-1.5, 0.0, 2.25], [3], f32)], "x.abs()", "x.abs()"),
]


def fmt(v):
    return repr(float(v))


# every all-f64 case again in float32 (PyTorch computes in float32; the
# test allows f32 a relative 2^-22, two ulps)
F32 = [(n + "_f32", [(ln, v, sh, f32) for ln, v, sh, _ in lv], te, se)
       for n, lv, te, se in CASES if all(l[3] == f64 for l in lv) and "det" not in n]

out = []
for name, leaves, texpr, sexpr in CASES + F32:
    env = {"torch": torch, "F": F}
    ts = []
    for ln, vals, shape, dt in leaves:
        t = torch.tensor(vals, dtype=dt).reshape(shape).requires_grad_()
        env[ln] = t
        ts.append(t)
    o = eval(texpr, env)
    w = (torch.arange(1, o.numel() + 1, dtype=o.dtype) * 0.5).reshape(o.shape)
    (o * w).sum().backward()
    out.append({
        "name": name,
        "tsr": sexpr,
        "leaves": [{"name": ln, "values": [fmt(v) for v in vals], "shape": shape, "dtype": "f32" if dt == f32 else "f64"}
                   for ln, vals, shape, dt in leaves],
        "grads": [[fmt(v) for v in (t.grad if t.grad is not None else torch.zeros_like(t)).reshape(-1).tolist()] for t in ts],
    })
print(json.dumps({"torch": torch.__version__, "cases": out}, indent=1))
