#!/usr/bin/env python3
"""Cross-check examples/capstone.out (tsr's capstone report) against NumPy/PyTorch.

Usage (from the repository root; needs numpy and torch):

    python3 examples/testdata/capstone_check.py                  # check the golden file
    python3 examples/testdata/capstone_check.py OUT.txt          # check another report
    python3 examples/testdata/capstone_check.py --timings        # also time PyTorch on
                                                                 # the capstone's jobs

Every line of sections 1, 2 and 4 of the report is recomputed here, in float64
from examples/data/digits.npz, formatted exactly as capstone.tsr formats it, and
must appear verbatim in the report. Section 3 compresses a random matrix; tsr's
randn is not PyTorch's, so its seed-independent lines (compression ratio, memory
saved) are checked exactly and its energy / error lines against the spread of
PyTorch over 16 seeds (and against each other through Eckart-Young).

It also checks the seed chapter's capstone (section 11) numbers for its default
command line (--dim 1024 --rank 32): energy ~11.2%, Frobenius error ~94.2%,
compression 15.99x (not 16x), 3.75 MB saved.
"""

import argparse
import os
import re
import sys
import time

import numpy as np
import torch


def digits_lines():
    """The expected lines of sections 1 and 2, in the report's formats."""
    d = np.load("examples/data/digits.npz")
    X = d["X"]
    assert X.shape == (1797, 64) and X.dtype == np.float32, (X.shape, X.dtype)
    m, n = X.shape
    out = [f"== 1. Low-rank compression of a real matrix: UCI digits X [{m}, {n}] f32 =="]
    zero_cols = [int(i) for i in np.where((X == 0).all(0))[0]]
    # torch.linalg.matrix_rank on the f32 matrix, as tsr's linalg.matrix_rank(X).
    rank = int(torch.linalg.matrix_rank(torch.from_numpy(X)))
    assert rank == np.linalg.matrix_rank(X.astype(np.float64)) == 61
    out.append(f"pixels 0 in every image: [{', '.join(map(str, zero_cols))}], so rank(X) = {rank} (of {n})")

    X64 = torch.from_numpy(X).double()
    U, S, Vh = torch.linalg.svd(X64, full_matrices=False)
    energy = (S**2).cumsum(0) / (S**2).sum()
    out.append(
        f"sigma_1..5: {S[0]:.2f} {S[1]:.2f} {S[2]:.2f} {S[3]:.2f} {S[4]:.2f}; "
        f"sigma_{rank} = {S[rank - 1]:.4f}; sigma_{rank + 1}..{n} < 1e-10: {str(bool((S[rank:] < 1e-10).all())).lower()}"
    )
    normX = X64.norm()
    for k in [1, 2, 4, 8, 16, 32, 48, rank]:
        Xk = U[:, :k] * S[:k] @ Vh[:k]
        err = ((X64 - Xk).norm() / normX).item()
        assert abs(err - max(1 - energy[k - 1].item(), 0) ** 0.5) < 1e-9  # Eckart-Young
        s = k * (m + n + 1)
        out.append(f"{k:5d}   {energy[k - 1]:.4f}   {err:.4f}   {s:13,d}  {m * n / s:5.2f}x  {(m * n - s) * 4 / 1024:9.1f}")

    def rank_for(e, t):
        return int((e < t).sum()) + 1

    out.append(
        "smallest rank keeping 90% / 95% / 99% / 99.9% of the energy: "
        + " / ".join(str(rank_for(energy, t)) for t in (0.9, 0.95, 0.99, 0.999))
    )

    # Section 2: covariance, Cholesky, eigh (PCA).
    out.append("== 2. The same data's covariance: cholesky and eigh ==")
    Xc = X64 - X64.mean(0)
    C = Xc.T @ Xc / (m - 1)
    try:
        torch.linalg.cholesky(C)
        out.append("cholesky(C): ok")
    except RuntimeError as e:  # torch.linalg.LinAlgError
        assert "order 1 is not positive-definite" in str(e), e
        out.append(f"cholesky(C): LinAlgError: C is singular (pixel 0 has variance {C[0, 0].item()})")
    R = C + 1e-3 * torch.eye(n, dtype=torch.float64)
    L = torch.linalg.cholesky(R)
    ok = ((R - L @ L.T).norm() / R.norm()).item() < 1e-12
    out.append(f"cholesky(C + 1e-3 I): ok, ||R - L L^T|| / ||R|| < 1e-12: {str(ok).lower()}")
    lam = torch.linalg.eigvalsh(C).flip(0)
    ratio = lam / lam.sum()
    out.append(
        "explained variance of the first 3 principal components: "
        f"{ratio[0] * 100:.2f}% {ratio[1] * 100:.2f}% {ratio[2] * 100:.2f}%"
    )
    cr = ratio.cumsum(0)
    out.append(
        "components for 50% / 80% / 90% / 95% / 99% of the variance: "
        + " / ".join(str(rank_for(cr, t)) for t in (0.5, 0.8, 0.9, 0.95, 0.99))
    )
    Sc = torch.linalg.svdvals(Xc)
    agree = ((Sc[:rank] ** 2 / (m - 1) - lam[:rank]).abs() / lam[:rank]).max().item() < 1e-8
    out.append(f"svd agrees with eigh: sigma_i(Xc)^2 / (n - 1) == lambda_i(C) for i <= {rank}: {str(agree).lower()}")
    # Cross-check with NumPy's LAPACK too (independent of torch).
    ev = np.linalg.eigvalsh(C.numpy())[::-1]
    assert np.allclose(ev / ev.sum(), ratio.numpy(), atol=1e-12)
    return out


def synthetic_expected(dim, k, seeds=16):
    """Seed-independent lines of section 3 and the spread of the others."""
    orig, comp = dim * dim * 4, k * (2 * dim + 1) * 4
    exact = [
        f"compression_ratio     : {orig / comp:.2f}",
        f"memory_saved_mb       : {(orig - comp) / (1024 * 1024):.2f}",
    ]
    energies = []
    for s in range(seeds):
        torch.manual_seed(s)
        A = torch.randn(dim, dim)
        S = torch.linalg.svdvals(A.double())
        energies.append(((S[:k] ** 2).sum() / (S**2).sum()).item() * 100)
    return exact, np.mean(energies), np.std(energies, ddof=1)


def attention_lines(B=16, H=8, S=512, D=64):
    """Section 4, with PyTorch's own einsum attention against SDPA."""
    torch.manual_seed(0)
    # A smaller batch keeps this quick; the property is per (b, h) slice.
    Q, K, V = (torch.randn(2, H, S, D) for _ in range(3))
    scores = torch.einsum("bhid,bhjd->bhij", Q, K) * D**-0.5
    out = torch.einsum("bhij,bhjd->bhid", torch.softmax(scores, dim=-1), V)
    # SDPA's definition, in float64 through matmul (torch < 2.0 has no
    # scaled_dot_product_attention).
    Q64, K64, V64 = Q.double(), K.double(), V.double()
    ref = torch.softmax(Q64 @ K64.transpose(-2, -1) / D**0.5, dim=-1) @ V64
    diff = (out - ref).abs().max().item()
    flops = 2 * 2 * B * H * S * S * D
    return [
        f"== 4. Multi-head attention with einsum (B={B}, H={H}, S={S}, D={D}) ==",
        f"equals nn.scaled_dot_product_attention (max |diff| < 1e-5): {str(diff < 1e-5).lower()}",
        f"matmul FLOPs per call: {flops:,} ({flops / 1e9:.2f} GFLOP)",
    ]


def torch_timings(dim=1024, k=32, iters=3):
    """PyTorch's times for the capstone's timing jobs (median ms), same shapes."""
    d = np.load("examples/data/digits.npz")
    X = torch.from_numpy(d["X"])
    X64 = X.double()
    Xc = X64 - X64.mean(0)
    C = Xc.T @ Xc / (X.shape[0] - 1)
    C32, R32 = C.float(), (C + 1e-3 * torch.eye(64, dtype=torch.float64)).float()
    torch.manual_seed(42)
    A = torch.randn(dim, dim)
    U, S, Vh = torch.linalg.svd(A, full_matrices=False)
    SPD = A @ A.T + dim * torch.eye(dim)
    torch.manual_seed(0)
    Q, K, V = (torch.randn(16, 8, 512, 64) for _ in range(3))

    def attn():
        s = torch.einsum("bhid,bhjd->bhij", Q, K) * 64**-0.5
        return torch.einsum("bhij,bhjd->bhid", torch.softmax(s, dim=-1), V)

    jobs = [
        ("svd", list(X.shape), lambda: torch.linalg.svd(X, full_matrices=False), 10, 1),
        ("cholesky", [64, 64], lambda: torch.linalg.cholesky(R32), 50, 1),
        ("eigh", [64, 64], lambda: torch.linalg.eigh(C32), 20, 1),
        ("svd", [dim, dim], lambda: torch.linalg.svd(A, full_matrices=False), iters, 0),
        ("cholesky", [dim, dim], lambda: torch.linalg.cholesky(SPD), iters, 1),
        ("eigh", [dim, dim], lambda: torch.linalg.eigh(SPD), iters, 1),
        ("U_k S_k Vh_k", [dim, k, dim], lambda: U[:, :k] * S[:k] @ Vh[:k], iters, 1),
        ("attention", [16, 8, 512, 64], attn, iters, 1),
    ]
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} threads: min / median ms")
    for name, shape, f, n, w in jobs:
        for _ in range(w):
            f()
        ts = []
        for _ in range(n):
            t0 = time.perf_counter()
            f()
            ts.append((time.perf_counter() - t0) * 1000)
        print(f"{name:<13}{str(shape):<18}{min(ts):10.3f} {float(np.median(ts)):10.3f}  ({n} runs)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", nargs="?", default="examples/capstone.out")
    ap.add_argument("--timings", action="store_true", help="also time PyTorch on the same jobs")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="PyTorch threads for --timings (tsr uses every core)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    report = open(args.report).read().splitlines()
    have = set(report)
    failed = 0

    def expect(line):
        nonlocal failed
        if line not in have:
            failed += 1
            print(f"MISSING: {line!r}")

    for line in digits_lines() + attention_lines():
        expect(line)

    # Section 3: read the dimensions from its header.
    hdr = next((l for l in report if l.startswith("== 3.")), None)
    mm = re.match(r"== 3\. The seed's benchmark: randn\((\d+), \d+\) f32, rank (\d+) ==", hdr or "")
    if not mm:
        print(f"MISSING: section 3 header (got {hdr!r})")
        failed += 1
    else:
        dim, k = int(mm.group(1)), int(mm.group(2))
        exact, mean, sd = synthetic_expected(dim, k)
        for line in exact:
            expect(line)
        vals = {}
        for l in report:
            r = re.match(r"(energy_retained_pct|frobenius_error_pct)\s*: ([0-9.]+)$", l)
            if r:
                vals[r.group(1)] = float(r.group(2))
        e, f = vals.get("energy_retained_pct"), vals.get("frobenius_error_pct")
        if e is None or f is None:
            print("MISSING: energy_retained_pct / frobenius_error_pct lines")
            failed += 1
        else:
            print(f"section 3: tsr energy {e:.2f}%, PyTorch over 16 seeds {mean:.3f} +- {sd:.3f}%")
            if abs(e - mean) > 5 * sd + 0.005:
                print(f"FAIL: energy {e} is outside PyTorch's spread")
                failed += 1
            # Eckart-Young: error = sqrt(100 - energy) in percent (2-decimal rounding).
            if abs(f - (100 * (100 - e)) ** 0.5) > 0.02:
                print(f"FAIL: frobenius error {f} != sqrt(1 - energy) = {(100 * (100 - e)) ** 0.5:.2f}")
                failed += 1

    # The seed capstone's own defaults (--dim 1024 --rank 32), whatever the report used.
    exact, mean, sd = synthetic_expected(1024, 32, seeds=4)
    print(f"seed defaults (1024, rank 32): {exact[0]}, {exact[1]}, energy {mean:.2f}%, "
          f"error {(100 * (100 - mean)) ** 0.5:.2f}%")
    assert exact == ["compression_ratio     : 15.99", "memory_saved_mb       : 3.75"], exact

    if args.timings:
        torch_timings()
    if failed:
        print(f"{failed} check(s) failed")
        sys.exit(1)
    print(f"all checks passed ({args.report})")


if __name__ == "__main__":
    main()
