#!/usr/bin/python3
"""PyTorch and NumPy references for bench/attention_test.go: scaled
dot-product attention, B=16 H=8 S=512 D=64 in f32, the seed chapter's
einsum formulation:

    scores = einsum('bhid,bhjd->bhij', q, k) / sqrt(D)
    p = softmax(scores, -1)
    out = einsum('bhij,bhjd->bhid', p, v)

PyTorch runs that einsum version (and, for reference, the matmul one);
NumPy runs the matmul version (its einsum does not use BLAS for these
batched contractions). Prints "AttentionF32 lib median_ns" lines. Run via
bench/attention.sh."""
import math
import sys

import numpy as np

from elementwise import bench

B, H, S, D = 16, 8, 512, 64


def main(reps, which):
    if "torch" in which:
        import torch

        # "torch-default" is the same run without OPENBLAS_CORETYPE (see
        # attention.sh): what a user of this machine gets out of the box.
        lib = "torch-default" if "torch-default" in which else "torch"
        print("#", lib, torch.__version__, "threads", torch.get_num_threads(), file=sys.stderr)
        q, k, v = (torch.randn(B, H, S, D) for _ in range(3))
        causal = ~torch.ones(S, S, dtype=torch.bool).tril()

        def einsum_attn():
            s = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(D)
            return torch.einsum("bhij,bhjd->bhid", torch.softmax(s, -1), v)

        def matmul_attn():
            s = q @ k.transpose(-2, -1) / math.sqrt(D)
            return torch.softmax(s, -1) @ v

        def causal_attn():
            s = (q @ k.transpose(-2, -1) / math.sqrt(D)).masked_fill(causal, float("-inf"))
            return torch.softmax(s, -1) @ v

        # torch 1.13 has no F.scaled_dot_product_attention (added in 2.0):
        # the fused tsr kernel (SDPAF32) is compared with the same math.
        def seed_attn():  # the seed's benchmark_einsum_attention loop body
            scores = torch.einsum("bhid,bhjd->bhij", q, k) * (D ** -0.5)
            probs = torch.softmax(scores, dim=-1)
            return torch.einsum("bhij,bhjd->bhid", probs, v)

        bench("AttentionF32", lib, einsum_attn, reps)
        bench("AttentionTSR", lib, seed_attn, reps)
        bench("AttentionTSRGlobals", lib, seed_attn, reps)
        bench("AttentionTSRScript", lib, seed_attn, reps)
        bench("SDPAF32/full", lib, einsum_attn, reps)
        bench("SDPAF32/causal", lib, causal_attn, reps)
        if lib == "torch":
            bench("AttentionF32", "torch-matmul", matmul_attn, reps)
    if "numpy" in which:
        rng = np.random.default_rng(2)
        q, k, v = (rng.standard_normal((B, H, S, D), dtype=np.float32) for _ in range(3))

        def np_attn():
            s = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(D))
            s -= s.max(axis=-1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(axis=-1, keepdims=True)
            return s @ v

        bench("AttentionF32", "numpy", np_attn, reps)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, sys.argv[2] if len(sys.argv) > 2 else "numpy,torch")
