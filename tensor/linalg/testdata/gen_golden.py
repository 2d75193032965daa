#!/usr/bin/python3
"""Golden values for tensor/linalg, from PyTorch (torch.linalg).

Run: /usr/bin/python3 tensor/linalg/testdata/gen_golden.py
Writes golden.json next to this file. Each case names a function ("fn"),
its keyword arguments, input tensors, and either the outputs or the error
(kind, message), plus, for differentiable functions, the gradient of
sum(out_0 * W) with respect to each input (W stored too).
"""
import json, os, math
import torch

torch.manual_seed(0)
L = torch.linalg
cases = []

def enc(t):
    t = torch.as_tensor(t)
    dt = {torch.float32: "f32", torch.float64: "f64", torch.int64: "i64",
          torch.float16: "f16", torch.int32: "i32"}[t.dtype]
    vals = t.detach().double().flatten().tolist() if t.is_floating_point() else t.flatten().tolist()
    vals = [None if (isinstance(v, float) and math.isnan(v)) else
            ("inf" if v == math.inf else "-inf" if v == -math.inf else v) for v in vals]
    return {"shape": list(t.shape), "dtype": dt, "data": vals}

def add(name, fn, f, inputs, kw=None, grad=False, outs_sign_free=None):
    kw = kw or {}
    c = {"name": name, "fn": fn, "kwargs": kw, "inputs": [enc(x) for x in inputs]}
    xs = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in inputs]
    try:
        out = f(*xs)
    except Exception as e:
        kind = "LinAlgError" if isinstance(e, torch.linalg.LinAlgError) else type(e).__name__
        c["error"] = {"kind": kind, "msg": str(e).split("\n")[0]}
        cases.append(c)
        return
    outs = list(out) if isinstance(out, tuple) else [out]
    c["outputs"] = [enc(o) for o in outs]
    if grad:
        W = torch.randn(outs[0].shape, dtype=outs[0].dtype)
        gs = torch.autograd.grad((outs[0] * W).sum(), [x for x in xs if x.requires_grad], allow_unused=True)
        c["W"] = enc(W)
        c["grads"] = [enc(g) if g is not None else None for g in gs]
    cases.append(c)

def rnd(*shape, dt=torch.float64):
    return torch.randn(*shape, dtype=dt)

def spd(*shape, dt=torch.float64):
    M = rnd(*shape, shape[-1], dt=dt)
    return M @ M.mT + shape[-1] * torch.eye(shape[-1], dtype=dt)

def hilbert(n, dt=torch.float64):
    i = torch.arange(n, dtype=dt)
    return 1.0 / (i[:, None] + i[None, :] + 1)

# ---- values (sign-free outputs are compared up to column signs in Go) ----
for dt in (torch.float64, torch.float32):
    s = "f64" if dt == torch.float64 else "f32"
    A43, A34, B = rnd(4, 3, dt=dt), rnd(3, 4, dt=dt), rnd(2, 3, 5, 4, dt=dt)
    for nm, A in (("tall", A43), ("wide", A34), ("batch", B)):
        add(f"svd_{nm}_{s}", "svd", lambda A: L.svd(A, full_matrices=False), [A])
        add(f"svd_full_{nm}_{s}", "svd_full", lambda A: L.svd(A, full_matrices=True), [A])
        add(f"svdvals_{nm}_{s}", "svdvals", L.svdvals, [A], grad=True)
        add(f"qr_{nm}_{s}", "qr", lambda A: L.qr(A), [A])
        add(f"qr_complete_{nm}_{s}", "qr_complete", lambda A: L.qr(A, mode="complete"), [A])
        add(f"pinv_{nm}_{s}", "pinv", L.pinv, [A], grad=True)
        add(f"matrix_rank_{nm}_{s}", "matrix_rank", L.matrix_rank, [A])
        for o in ("fro", "nuc", 2, -2, 1, -1, math.inf, -math.inf):
            add(f"matrix_norm_{o}_{nm}_{s}", "matrix_norm", lambda A, o=o: L.matrix_norm(A, ord=o), [A],
                kw={"ord": o if not isinstance(o, float) else str(o)}, grad=True)
        add(f"cond_{nm}_{s}", "cond", L.cond, [A], grad=True)
    S, Sb = spd(4, dt=dt), spd(3, 4, dt=dt)
    for nm, A in (("one", S), ("batch", Sb)):
        add(f"cholesky_{nm}_{s}", "cholesky", L.cholesky, [A], grad=True)
        add(f"cholesky_upper_{nm}_{s}", "cholesky_upper", lambda A: L.cholesky(A, upper=True), [A], grad=True)
        add(f"eigh_{nm}_{s}", "eigh", L.eigh, [A])
        add(f"eigvalsh_{nm}_{s}", "eigvalsh", L.eigvalsh, [A], grad=True)
        add(f"eigvalsh_U_{nm}_{s}", "eigvalsh_U", lambda A: L.eigvalsh(A.triu() + 0.5 * A.tril(-1), UPLO="U"), [A])
        Sq = A + rnd(*A.shape, dt=dt)
        add(f"inv_{nm}_{s}", "inv", L.inv, [Sq], grad=True)
        add(f"det_{nm}_{s}", "det", L.det, [Sq], grad=True)
        add(f"slogdet_{nm}_{s}", "slogdet", lambda A: L.slogdet(A)[::-1], [Sq], grad=True)
        add(f"solve_{nm}_{s}", "solve", L.solve, [Sq, rnd(*A.shape[:-1], 2, dt=dt)], grad=True)
        add(f"solve_vec_{nm}_{s}", "solve", L.solve, [Sq, rnd(*A.shape[:-1], dt=dt)], grad=True)
        add(f"cond_fro_{nm}_{s}", "cond_fro", lambda A: L.cond(A, "fro"), [Sq])
        add(f"cond_inf_{nm}_{s}", "cond_inf", lambda A: L.cond(A, math.inf), [Sq])
        add(f"norm_{nm}_{s}", "norm", L.norm, [Sq], grad=True)
        add(f"vector_norm_3_{nm}_{s}", "vector_norm_3", lambda A: L.vector_norm(A, ord=3, dim=-1), [Sq], grad=True)
    add(f"solve_bcast_{s}", "solve", L.solve, [rnd(4, 4, dt=dt) + 4 * torch.eye(4, dtype=dt), rnd(3, 4, 2, dt=dt)], grad=True)
    add(f"lstsq_tall_{s}", "lstsq", lambda A, B: L.lstsq(A, B, driver="gelsd"), [rnd(6, 3, dt=dt), rnd(6, 2, dt=dt)], grad=True)
    add(f"lstsq_wide_{s}", "lstsq", lambda A, B: L.lstsq(A, B, driver="gelsd"), [rnd(3, 5, dt=dt), rnd(3, 2, dt=dt)], grad=True)
    add(f"lstsq_batchvec_{s}", "lstsq", lambda A, B: L.lstsq(A, B, driver="gelsd"), [rnd(2, 5, 3, dt=dt), rnd(2, 5, dt=dt)])
    add(f"eig_{s}", "eig", lambda A: tuple(torch.view_as_real(x) for x in L.eig(A)),
        [torch.tensor([[0., -2., 1.], [2., 0., 0.5], [0., 0., 3.]], dtype=dt)])
    add(f"eigvals_{s}", "eigvals", lambda A: torch.view_as_real(L.eigvals(A)), [rnd(2, 4, 4, dt=dt)])

# ---- ill-conditioned ----
H = hilbert(8)
add("ill_svdvals_hilbert8", "svdvals", L.svdvals, [H])
add("ill_cond_hilbert8", "cond", L.cond, [H])
add("ill_solve_hilbert8", "solve", L.solve, [H, torch.ones(8, 1, dtype=torch.float64)])
add("ill_det_hilbert8", "det", L.det, [H])
add("ill_slogdet_hilbert8", "slogdet", lambda A: L.slogdet(A)[::-1], [H])
add("ill_eigvalsh_hilbert8", "eigvalsh", L.eigvalsh, [H])
add("ill_cholesky_hilbert8", "cholesky", L.cholesky, [H])
add("ill_matrix_rank_hilbert12", "matrix_rank", L.matrix_rank, [hilbert(12)])
add("ill_matrix_rank_hilbert12_f32", "matrix_rank", L.matrix_rank, [hilbert(12, torch.float32)])
add("ill_pinv_rank1", "pinv", L.pinv, [torch.outer(torch.arange(1., 4., dtype=torch.float64), torch.arange(1., 5., dtype=torch.float64))])
add("ill_matrix_rank_rank1", "matrix_rank", L.matrix_rank, [torch.outer(torch.arange(1., 4., dtype=torch.float64), torch.arange(1., 5., dtype=torch.float64))])
add("matrix_rank_atol", "matrix_rank_atol", lambda A: L.matrix_rank(A, atol=1.0), [torch.diag(torch.tensor([3., 1., 0.5], dtype=torch.float64))])
add("matrix_rank_rtol", "matrix_rank_rtol", lambda A: L.matrix_rank(A, rtol=0.2), [torch.diag(torch.tensor([3., 1., 0.5], dtype=torch.float64))])
add("det_singular", "det", L.det, [torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]], dtype=torch.float64)], grad=True)
add("slogdet_singular", "slogdet", lambda A: L.slogdet(A)[::-1], [torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64)])
add("cond_singular_fro", "cond_fro", lambda A: L.cond(A, "fro"), [torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64)])
add("cond_singular_2", "cond", L.cond, [torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64)])

# ---- 0-size ----
for nm, shp in (("0x3", (0, 3)), ("2x0x3", (2, 0, 3)), ("0x2x2", (0, 2, 2))):
    Z = torch.ones(*shp, dtype=torch.float64)
    add(f"empty_svd_full_{nm}", "svd_full", lambda A: L.svd(A), [Z])
    add(f"empty_svd_{nm}", "svd", lambda A: L.svd(A, full_matrices=False), [Z])
    add(f"empty_qr_{nm}", "qr", L.qr, [Z])
    add(f"empty_matrix_rank_{nm}", "matrix_rank", L.matrix_rank, [Z])
Z = torch.ones(2, 0, 0, dtype=torch.float64)
for fn, f in (("det", L.det), ("inv", L.inv), ("cholesky", L.cholesky), ("eigvalsh", L.eigvalsh)):
    add(f"empty_{fn}", fn, f, [Z])

# ---- errors ----
add("err_cholesky_notpd", "cholesky", L.cholesky, [torch.diag(torch.tensor([1., 2., -1.], dtype=torch.float64))])
add("err_cholesky_notpd_minor2", "cholesky", L.cholesky, [torch.tensor([[1., 2., 0.], [2., 1., 0.], [0., 0., 1.]], dtype=torch.float64)])
add("err_solve_singular", "solve", L.solve, [torch.zeros(3, 3, dtype=torch.float64), torch.ones(3, 1, dtype=torch.float64)])
add("err_inv_singular", "inv", L.inv, [torch.tensor([[1., 2.], [2., 4.]], dtype=torch.float64)])
add("err_inv_nonsquare", "inv", L.inv, [torch.ones(2, 3, dtype=torch.float64)])
add("err_det_nonsquare", "det", L.det, [torch.ones(2, 3, dtype=torch.float64)])
add("err_cholesky_nonsquare", "cholesky", L.cholesky, [torch.ones(2, 3, dtype=torch.float64)])
add("err_svd_1d", "svd", L.svd, [torch.ones(3, dtype=torch.float64)])
add("err_svd_int", "svd", L.svd, [torch.ones(3, 3, dtype=torch.int64)])
add("err_svd_f16", "svd", L.svd, [torch.ones(3, 3, dtype=torch.float16)])
add("err_inv_f16", "inv", L.inv, [torch.ones(3, 3, dtype=torch.float16)])
add("err_inv_int", "inv", L.inv, [torch.ones(3, 3, dtype=torch.int64)])
add("err_eigh_int", "eigh", L.eigh, [torch.ones(3, 3, dtype=torch.int64)])
add("err_solve_shapes", "solve", L.solve, [torch.eye(3, dtype=torch.float64), torch.ones(2, 1, dtype=torch.float64)])
add("err_solve_dtypes", "solve", L.solve, [torch.eye(3, dtype=torch.float32), torch.ones(3, 1, dtype=torch.float64)])
add("err_matrix_norm_ord3", "matrix_norm", lambda A: L.matrix_norm(A, ord=3), [torch.ones(3, 3, dtype=torch.float64)], kw={"ord": 3})
add("err_lstsq_shapes", "lstsq", L.lstsq, [torch.eye(3, dtype=torch.float64), torch.ones(2, 1, dtype=torch.float64)])
add("err_svd_nan", "svd", L.svd, [torch.tensor([[1., math.nan], [0., 1.]], dtype=torch.float64)])

# ---- seed chapter numbers (section 4.1, Lab 4) are checked in examples ----
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
with open(out, "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases ->", out)
