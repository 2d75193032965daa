"""PyTorch twin of small_ops.tsr (bench/small_ops.sh): prints "name min_ms"."""
import time

import torch

x, y = torch.randn(4), torch.randn(4)
w = torch.randn(4, 4, requires_grad=True)


def scalar_ops():
    for _ in range(100000):
        z = x * 2.0 + 1.0


def tensor_ops():
    for _ in range(100000):
        z = x * y + x


def grad_steps():
    for _ in range(10000):
        g, = torch.autograd.grad((w * w).sum(), [w])


for f in (scalar_ops, tensor_ops, grad_steps):
    f()
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t) * 1e3)
    print(f.__name__, min(ts))
