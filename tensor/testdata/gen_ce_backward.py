#!/usr/bin/env python3
"""Generate tensor/testdata/ce_backward.json for tensor/ce_backward_test.go
(the fused kernel, bit for bit) and stdlib/ce_backward_test.go (the whole
nn.cross_entropy, to a tolerance: tsr's log_softmax forward is not
PyTorch's bit for bit).

PyTorch 1.13's gradient of F.cross_entropy with class-index targets with
respect to the logits (log_softmax_backward(nll_loss_backward(g)), plus
the label-smoothing term), as raw IEEE bit patterns, for the fused
backward (tensor.CrossEntropyBackward) to match bit for bit. Each case:
logits bits, dtype, targets, class weights, ignore_index, reduction,
label_smoothing, the upstream gradient bits and the expected gradient
bits (and the loss, for a tolerance check).

Run with /usr/bin/python3 (torch installed):

    /usr/bin/python3 tensor/testdata/gen_ce_backward.py
"""
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))


def bits(t):
    a = t.detach().contiguous().numpy()
    return (a.view(np.int32) if a.dtype == np.float32 else a.view(np.int64)).reshape(-1).tolist()


def case(name, shape, dtype, tgt, weight=None, ignore=-100, red="mean", ls=0.0, g=None, scale=1.0, seed=0):
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(shape, generator=gen, dtype=torch.float64) * scale).to(dtype).requires_grad_()
    t = torch.tensor(tgt, dtype=torch.int64)
    w = None if weight is None else torch.tensor(weight, dtype=dtype)
    loss = F.cross_entropy(x, t, weight=w, ignore_index=ignore, reduction=red, label_smoothing=ls)
    if g is None:
        g = torch.ones_like(loss)
    else:
        g = torch.tensor(g, dtype=dtype).reshape(loss.shape)
    loss.backward(g)
    logp = torch.log_softmax(x.detach(), -1)
    return {"name": name, "dtype": "f32" if dtype == torch.float32 else "f64", "shape": list(shape),
            "x": bits(x), "target": tgt, "weight": weight, "ignore_index": ignore, "reduction": red,
            "label_smoothing": ls, "g": bits(g), "g_shape": list(g.shape), "loss": [None if v != v else v for v in loss.detach().double().reshape(-1).tolist()],
            "logp": bits(logp), "grad": bits(x.grad)}


def main():
    f32, f64 = torch.float32, torch.float64
    r = np.random.RandomState(5)
    cases = [
        case("mean", [8, 10], f32, r.randint(0, 10, 8).tolist()),
        case("mean_w_ignore", [8, 10], f32, [3, 1, 3, 0, 9, 2, 3, 7], weight=[0.5, 2, 1, 3, 0.25, 1, 1.5, 4, 2, 1], ignore=3, g=0.7),
        case("sum_w_ls", [8, 10], f32, r.randint(0, 10, 8).tolist(), weight=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], red="sum", ls=0.1, g=1.3),
        case("none_w_ignore_ls", [8, 10], f32, [1, 4, 4, 0, 9, 4, 3, 2], weight=[0.5, 2, 1, 3, 0.25, 1, 1.5, 4, 2, 1], ignore=4,
             red="none", ls=0.25, g=r.randn(8).tolist()),
        case("mean_ls_ignore", [8, 10], f32, [1, 4, 4, 0, 9, 4, 3, 2], ignore=4, ls=0.1),
        case("none", [8, 10], f32, r.randint(0, 10, 8).tolist(), red="none", g=r.randn(8).tolist()),
        case("f64_mean_w_ls", [6, 7], f64, r.randint(0, 7, 6).tolist(), weight=[1, 2, 0.5, 4, 1, 3, 2], ls=0.2, g=0.9),
        case("1d_mean_w_ls", [10], f32, 6, weight=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], ls=0.1),
        case("1d_none", [10], f32, 2, red="none", g=1.7),
        case("wide_logits", [5, 300], f32, r.randint(0, 300, 5).tolist(), scale=30.0),
        case("wide_logits_ls", [5, 300], f32, r.randint(0, 300, 5).tolist(), ls=0.05, scale=30.0),
        case("wide_logits_neg_g", [5, 300], f32, r.randint(0, 300, 5).tolist(), g=-0.5, scale=30.0, seed=1),
        case("wide_logits_none", [6, 300], f32, r.randint(0, 300, 6).tolist(), red="none", g=[0.5, -2.0, 0.0, 1.5, -0.0, 3.0], scale=30.0, seed=2),
        case("zero_g", [3, 9], f32, [1, 2, 3], g=0.0),
        case("f64_mean", [6, 7], f64, r.randint(0, 7, 6).tolist()),
        case("f64_wide_none", [4, 200], f64, r.randint(0, 200, 4).tolist(), red="none", g=[1.0, -1.0, 2.5, 0.0], scale=60.0),
        case("one_class", [3, 1], f32, [0, 0, 0]),
        case("all_ignored", [4, 6], f32, [2, 2, 2, 2], ignore=2, ls=0.1),
        case("bench_rows", [6, 1000], f32, r.randint(0, 1000, 6).tolist()),
        case("bench_rows_ls", [6, 1000], f32, r.randint(0, 1000, 6).tolist(), ls=0.1),
    ]
    with open(os.path.join(HERE, "ce_backward.json"), "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
