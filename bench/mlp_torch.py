"""PyTorch twin of BenchmarkMLPStep and BenchmarkTapeOverhead (bench/autograd_test.go).

Prints median microseconds per iteration for the MLP step and for a
one-element mul with and without requires_grad.
Run through bench/run_autograd.sh.
"""
import time, torch

torch.set_num_threads(2)

def timeit(fn, iters):
    for _ in range(max(3, iters // 10)):
        fn()
    ts = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2] * 1e6

x = torch.randn(64, 256)
w1 = torch.randn(256, 256, requires_grad=True)
w2 = torch.randn(256, 256, requires_grad=True)

def step():
    loss = torch.tanh(x @ w1).matmul(w2).mean()
    torch.autograd.grad(loss, [w1, w2])

a = torch.tensor([2.0])
b = torch.tensor([3.0])
ar = torch.tensor([2.0], requires_grad=True)
print(f"torch MLPStep_us {timeit(step, 200):.2f}")
print(f"torch mul_pure_us {timeit(lambda: a * b, 20000):.3f}")
print(f"torch mul_recorded_us {timeit(lambda: ar * b, 20000):.3f}")
